"""The fast compress path (planned candidates, literal index, untimed and ``re``-twin calls) gives
exactly what the straightforward path gives: every rule and region pattern evaluated by
engine.jsregex's own ``replace``/``search`` on the whole text."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.caveman import fastscan
from engine.caveman.fastscan import FastRegex

from .helpers import pack, rule, run

PACK = pack(
    rule("pleasantries", r"(?<!make\s)(?<!be\s)\b(?:thanks|thank you|sure)\b[,.!?\s]*"),
    rule("filler_adverbs", r"(?<![a-z])\b(?:basically|really|simply)\b\s*"),
    rule("maker", r"\bpre fix\b", "kindly"),  # writes a literal only a later rule looks for
    rule("polite_framing", r"\b(?:please|kindly|could you please)\b\s*"),
    rule("hedging", r"\b(?:it seems like|I think that|probably)\b\s*"),
    rule("context_setup", r"\b(?:here is my code|below is the code)\b\s*[:.]?\s*", "Code:"),
    rule("list_conjunction", r",\s*and also\s+|,\s*as well as\s+", ", "),
    rule("purpose", r"\b(?:in order to|so as to)\b\s*", "to "),
    rule("mapped", r"\b(?:for the purpose of|each and every)\b", None,
         replacementMap={"for the purpose of": "for", "each and every": "each"}),
    rule("numbered", r"\b(v)(\d+)\b", "$2$1"),
    rule("emoji_names", r"😀|𝒳", None, replacementMap={"😀": ":grin:", "𝒳": "X"}),  # astral map keys
    rule("rocket", r"\bloads\b", "loads 🚀"),  # writes an astral character
    rule("code_points", r"x.y", "<$&>", flags="gu"),  # u: the dot takes a whole astral character
    rule("halves", r"\ud83d", "?"),  # half of a surrogate pair (JSR: non-u patterns see units)
    rule("emphasis_removal", r"\b(?:very|really|quite)\s+(?=[a-z])"),
    rule("opener", r"^(?:hello|hey)\s*[,.!?\s]?\s*", "", flags="gim"),
    rule("articles", r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])", "", flags="g"),
    rule("leader", r"^(?:i'?ll|let me)\s+(?=[a-z])"),
)

WORDS = ("thanks", "Thank you", "sure", "make sure", "basically", "really", "simply", "pre", "fix", "please",
         "kindly", "Could you please", "it seems like", "I think that", "probably", "here is my code",
         "in order to", "so as to", "for the purpose of", "each and every", "v2", "very", "quite", "Hello",
         "hey", "the", "The", "a", "an", "An", "I'll", "let me", "service", "loads", "data", ", and also",
         ", as well as", ",", ".", "!", "?", ":", "\n", "\n\n", "\r\n", "\t", "  ",
         # protected regions and structure
         "`code()`", "```\nlet a = 1;\n```\n", "https://example.org/a?b=1", "./src/app.ts", "v1.2.3",
         "2.4.1", "MAX_RETRY", "foo.bar(", "call(x)", "$HOME", "$$x^2$$", "\\[a\\]", "# Heading\n",
         "| a | b |\n", "TypeError: boom\n", "process.env.API_KEY", "[link](http://a.io)",
         # case and width oddities: astral characters shift UTF-16 offsets
         "é", "ß", "ſ", "ı", "K", "😀", "𝒳", "日本", "\u2028", "\u00a0", "x😀y", "xay")


def straightforward(monkeypatch):
    """Every FastRegex call answered by engine.jsregex on the whole text, nothing planned."""
    monkeypatch.setattr(FastRegex, "_prepare", lambda self, text: None)


def outcome(text: str, profile: str):
    out, result = run(text, PACK, profile=profile, timeout=60, language="xx")
    # the stages too: a part that falls back hides what the rules did from the output
    stages = [(p.after_rules, p.after_cleanup, p.restored) for p in result.parts]
    return (out, result.rules_applied, result.stats.get("validationErrors"), result.stats.get("fallbackApplied"),
            [(d.code, d.message) for d in result.diagnostics], stages)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=120),
       seps=st.lists(st.sampled_from(("", " ", " ", " ", "  ")), min_size=1, max_size=7),
       profile=st.sampled_from(("omniroute", "strict")))
def test_fast_path_equals_the_straightforward_path(words, seps, profile, monkeypatch):
    # the drawn words, cycled with a separator cycle of another length until the text is large
    pieces, i, size = [], 0, 0
    while size <= 2 * fastscan.LiteralIndex.MIN_LENGTH:  # (a running total: summing every time was quadratic)
        pieces.append(words[i % len(words)] + seps[i % len(seps)])
        size += len(pieces[-1])
        i += 1
    text = "".join(pieces)
    assert len(text) > fastscan.LiteralIndex.MIN_LENGTH  # large enough for every fast path
    fast = outcome(text, profile)
    with monkeypatch.context() as patched:
        straightforward(patched)
        plain = outcome(text, profile)
    assert fast == plain


@pytest.mark.parametrize("profile", ["omniroute", "strict"])
def test_prose_with_every_kind_of_region_is_the_same_both_ways(profile, monkeypatch):
    text = " ".join(WORDS[i * 7 % len(WORDS)] for i in range(4000))
    fast = outcome(text, profile)
    monkeypatch.setattr(FastRegex, "_prepare", lambda self, text: None)
    assert outcome(text, profile) == fast
    assert fast[1]  # rules did apply
