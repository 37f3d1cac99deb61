"""The reference's keyword prefilter (``shouldAttemptRule``, spec §7.4).

A rule whose *name* is in this table is attempted only when the lower-cased input of the rule
loop contains one of its keywords; ``articles`` needs a whole word a/an/the. The check is made
once against the text before any rule ran (CAV-Q4). The table is keyed by name, so it also
gates custom rules that reuse an English rule name.
"""

from __future__ import annotations

import re
from collections.abc import Callable

KEYWORDS: dict[str, tuple[str, ...]] = {
    "redundant_phrasing": ("make sure", "be sure"),
    "redundant_because": ("due to the fact", "the reason is because"),
    "redundant_directive": ("it is important", "you should", "remember to"),
    "pleasantries": ("sure", "certainly", "of course", "happy to", "thanks", "thank you", "glad to help",
                     "glad to", "no problem", "you're welcome", "youre welcome", "absolutely"),
    "polite_framing": ("please", "kindly", "could you please", "would you please", "can you please",
                       "i would like you", "i want you", "i need you"),
    "hedging": ("it seems like", "it appears that", "i think that", "i believe that", "probably", "possibly",
                "maybe it"),
    "verbose_instructions": ("provide a detailed", "give me a comprehensive", "write an in-depth",
                             "create a thorough", "explain in detail"),
    "filler_adverbs": ("basically", "essentially", "actually", "literally", "simply", "currently"),
    "filler_phrases": ("i want to", "i need to", "i'd like to", "i'm looking for"),
    "redundant_openers": ("hi there", "hello", "good morning", "hey"),
    "verbose_requests": ("i was wondering", "would it be possible"),
    "leader_phrases": ("i'll", "i will", "i can", "i'd", "let me", "you can", "we will", "we can", "let's"),
    "self_reference": ("i am trying to", "i am working on", "i have been"),
    "excessive_gratitude": ("thank you so much", "thanks in advance", "i really appreciate"),
    "qualifier_removal": ("a bit", "a little", "somewhat", "kind of", "sort of"),
    "softeners": ("if possible", "when you get a chance", "at your convenience", "just wondering"),
    "uncertainty_fillers": ("i guess", "i suppose", "more or less", "in a way"),
    "assistant_fillers": ("here's", "below is", "this is"),
    "compound_collapse": ("and any potential",),
    "explanatory_prefix": ("the function appears to be handling", "the code seems to", "the class is",
                           "this module is"),
    "question_to_directive": ("can you explain why", "could you show me how", "would you tell me",
                              "can you tell me"),
    "context_setup": ("i have the following code", "here is my code", "below is the code"),
    "intent_clarification": ("what i'm trying to do", "my objective is to", "what i need is", "i'm aiming to"),
    "background_removal": ("as you may know", "as we discussed earlier"),
    "meta_commentary": ("note that", "keep in mind", "remember that"),
    "purpose_statement": ("for the purpose of", "with the goal of", "in an effort to", "for every"),
    "list_conjunction": ("and also", "as well as"),
    "purpose_phrases": ("in order to", "so as to"),
    "redundant_quantifiers": ("each and every", "any and all"),
    "all_quantifier": ("any and all",),
    "verbose_connectors": ("furthermore", "additionally", "moreover", "in addition"),
    "transition_removal": ("on the other hand", "in contrast", "however"),
    "emphasis_removal": ("very", "really", "extremely", "highly", "quite"),
    "passive_voice": ("is being used", "is being called", "is being generated", "was created",
                      "was generated", "was implemented"),
    "repeated_context": ("as we discussed earlier", "as mentioned before", "as previously stated",
                         "as i said before"),
    "repeated_question": ("same question as before", "i asked this earlier", "this is the same question"),
    "reestablished_context": ("going back to the code above", "referring back to", "returning to"),
    "summary_replacement": ("to summarize", "in summary of our conversation", "to recap"),
    "ultra_abbreviations": ("database",),
    "ultra_config_abbreviation": ("configuration",),
    "ultra_function_abbreviation": ("function",),
    "ultra_request_abbreviation": ("request",),
    "ultra_response_abbreviation": ("response",),
    "ultra_implementation_abbreviation": ("implementation",),
    "ultra_authentication_abbreviation": ("authentication",),
    "ultra_authorization_abbreviation": ("authorization",),
    "ultra_application_abbreviation": ("application",),
    "ultra_dependency_abbreviation": ("dependency", "dependencies"),
    "ultra_common_abbreviations": ("implementation", "authentication", "authorization", "application",
                                   "dependency", "dependencies"),
}

_ARTICLE = re.compile(r"(?<![A-Za-z0-9_])(?:a|an|the)(?![A-Za-z0-9_])")
_ARTICLE_BYTES = re.compile(rb"(?<![A-Za-z0-9_])(?:a|an|the)(?![A-Za-z0-9_])")
_ASCII_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
# the only characters beyond ASCII whose lower case holds an ASCII character: İ (i + dot above)
# and the Kelvin sign (k)
_LOWER_TO_ASCII = ("\u0130", "\u212a")


_ENCODED = {keyword: keyword.encode("ascii") for keywords in KEYWORDS.values() for keyword in keywords
            if keyword.isascii()}  # (what ``attempt`` looks for in the lowered bytes, made once)

# every keyword is ASCII: on a text whose other characters are ASCII stand-ins (non-letters) for
# units that lower-case to no ASCII character (``engine.caveman.standins``), a keyword occurs
# exactly where it occurs in the real text, and the articles' ASCII classes read both alike
ASCII_KEYWORDS = all(keyword.isascii() and keyword.isprintable() for keywords in KEYWORDS.values() for keyword in keywords)


def _lowered(text: str) -> str | bytes:
    """What the keywords are looked for in: ``text.lower()``, or, when no character beyond ASCII
    lower-cases to an ASCII one, the text's UTF-8 bytes with only A–Z lower-cased. Every keyword
    is ASCII, so it occurs in one exactly where it occurs in the other (UTF-8 never puts an
    ASCII byte inside another character), and the articles' ASCII classes read both alike. The
    bytes cost a translate where ``lower()`` of a text with emoji costs ~4 ms per MB and builds
    a copy four bytes a character."""
    if text.isascii():
        return text.encode("ascii").translate(_ASCII_LOWER)
    if any(c in text for c in _LOWER_TO_ASCII):
        return text.lower()
    return text.encode("utf-8", "surrogatepass").translate(_ASCII_LOWER)


class Prefilter:
    """Answers "would the reference attempt this rule?" for one rule-loop input.

    ``absent``: upper-cased strings known not to occur in ``text.upper()`` (the literal index's
    absent keys, ``key_length`` characters long or whole). On an ASCII text a keyword whose
    upper-cased start is among them cannot occur in the lower-cased text either (for ASCII,
    ``k in t.lower()`` implies ``k.upper() in t.upper()``), so it is not searched for."""

    def __init__(self, text: str, absent: frozenset[str] | Callable[[], frozenset[str]] = frozenset(),
                 key_length: int = 0) -> None:
        self._text = text
        self._lowered: str | bytes | None = None
        self._memo: dict[str, bool] = {}
        # (a callable: the keys found when first needed — most parts of a body are never asked)
        self._absent_of = absent if key_length and text.isascii() else frozenset()
        self._absent_keys: frozenset[str] | None = None
        self._key_length = key_length

    @property
    def lowered(self) -> str | bytes:
        if self._lowered is None:
            self._lowered = _lowered(self._text)
        return self._lowered

    @property
    def _absent(self) -> frozenset[str]:
        if self._absent_keys is None:
            found = self._absent_of
            self._absent_keys = found if isinstance(found, frozenset) else found()
        return self._absent_keys

    def _may_occur(self, keyword: str) -> bool:
        return not (self._absent and keyword.isascii() and keyword.upper()[:self._key_length] in self._absent)

    def gated(self, name: str) -> bool:
        return name == "articles" or name in KEYWORDS

    def attempt(self, name: str) -> bool:
        if name not in self._memo:
            if name == "articles":
                hay = self.lowered
                found = _ARTICLE_BYTES.search(hay) if isinstance(hay, bytes) else _ARTICLE.search(hay)
                self._memo[name] = found is not None
            elif name in KEYWORDS:
                # (a body's parts ask ~5,000 times: the searches inline, the index's keys only
                # where it knows some, which it does for large texts alone)
                hay, absent = self.lowered, self._absent
                keywords = [k for k in KEYWORDS[name] if self._may_occur(k)] if absent else KEYWORDS[name]
                if isinstance(hay, bytes):
                    self._memo[name] = any(_ENCODED[k] in hay for k in keywords)
                else:
                    self._memo[name] = any(k in hay for k in keywords)
            else:
                self._memo[name] = True
        return self._memo[name]
