"""Line templates: a line with its variable parts (numbers, versions, paths…) generalised.

Two runs of one command differ in crate names, durations, hashes and sizes, not in the words
the tool prints around them. ``tokenize`` splits a line into literal words and punctuation and
*placeholders* of ten kinds; the ``Template`` of a line is that sequence with the placeholders'
text forgotten, so ``Compiling serde v1.0.215`` and ``Compiling tokio v1.41.0`` share one
template. ``pattern_for`` turns a template (or a prefix of it) into a JavaScript regex that
matches every line of the template, and whose repeats are all deterministic: each repeated
class excludes what may follow it, so ``engine.jsregex.backtracking.linear_attempts`` proves it
linear (``tests/engine/rtk/test_learn_normalise.py`` checks that for generated templates).

Written here rather than taken from a library: ``grex`` (PyPI, Rust) builds a regex that
matches exactly the strings it is given — ``Compiling (?:ledger v0\\.3\\.1 …|serde v1\\.0\\.215)``
— which is what must *not* happen for the next run's crates; its digit and word conversions
(``\\w{5} \\w``) generalise character counts, not meanings. The token kinds below are what a
person means by "the same line with other values".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Placeholder kinds, in the order the tokenizer tries them (earlier wins at one position).
_KINDS: tuple[tuple[str, str], ...] = (
    ("space", r"[ \t]+"),
    ("url", r"[A-Za-z][A-Za-z0-9+.-]*://[^\s\"'<>()\[\]]+"),
    ("timestamp", r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
                  r"|\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?"),
    ("uuid", r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![\w-])"),
    ("duration", r"(?:\d+h)?(?:\d+m(?!s))?\d+(?:\.\d+)?(?:ms|µs|us|ns|s|m|h|min|mins|sec|secs|seconds?)(?![\w.])"),
    ("size", r"\d+(?:\.\d+)?(?:[kKMGTP]i?B|B|bytes|kb|mb|gb)(?![\w.])"),
    ("percent", r"\d+(?:\.\d+)?%"),
    ("version", r"v?\d+(?:\.\d+)+(?:[-+][\w.+-]*)?(?![\w])"),
    ("hash", r"(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}(?![\w-])|sha\d+:[0-9a-f]{12,}"),
    ("path", r"(?:[A-Za-z]:)?(?:~|\.{1,2})?[\\/]?(?:[\w.@+-]+[\\/])+[\w.@+-]*"
             r"|[\w@+-][\w.@+-]*\.(?:[A-Za-z][A-Za-z0-9]{0,5})(?![\w(])(?=[:\s)\],'\"]|$)"),
    ("number", r"\d+(?:[.,]\d+)*"),
    ("word", r"[^\W\d][\w-]*"),
    ("rule", r"(?P<mark>[^\w\s])(?P=mark){2,}"),
    ("punct", r"\S"),
)
_TOKENIZER = re.compile("|".join(f"(?P<{name}>{rx})" for name, rx in _KINDS))
PLACEHOLDERS = frozenset({"url", "timestamp", "uuid", "duration", "size", "percent", "version", "hash", "path",
                          "number", "var"})
# What a placeholder at the end of a prefix must start with: enough to say "a value of this kind
# begins here" without reading the rest of it.
_HEADS = {"number": r"\d", "duration": r"\d", "size": r"\d", "percent": r"\d", "timestamp": r"\d",
          "version": r"v?\d", "hash": r"[0-9a-f]", "uuid": r"[0-9a-f]", "url": r"[a-z][\w+.-]*://",
          "path": r"\S", "var": r"\S"}
_JS_SPECIAL = set("\\^$.*+?()[]{}|/")


@dataclass(frozen=True)
class Token:
    kind: str  # a placeholder kind, or "word", "punct", "rule" (a run of one mark), "space", "indent"
    text: str

    @property
    def placeholder(self) -> bool:
        return self.kind in PLACEHOLDERS


def tokenize(line: str) -> list[Token]:
    """The tokens of one line; a leading run of blanks is one ``indent`` token."""
    out: list[Token] = []
    stripped = line.lstrip(" \t")
    if len(stripped) != len(line):
        out.append(Token("indent", line[:len(line) - len(stripped)]))
    for m in _TOKENIZER.finditer(stripped.rstrip()):
        kind = m.lastgroup or "punct"
        text = m.group()
        if kind == "word" and any(c.isdigit() for c in text) and len(text) > 1 and _looks_generated(text):
            kind = "var"
        if kind in PLACEHOLDERS and out and out[-1].placeholder:
            # two values glued together (``1.2.3-rc1`` read as version + word) are one value
            out[-1] = Token("var", out[-1].text + text)
            continue
        if kind == "word" and _glued_to_value(out):
            kind = "var"  # ``tests/a.py::test_total``, ``image:latest``: part of the value
        out.append(Token(kind, text))
    return out


def _glued_to_value(before: list[Token]) -> bool:
    """Whether the tokens since the last blank start with a value (a word there names a
    thing inside it, like a test in ``path::test``, not a kind of line)."""
    for token in reversed(before):
        if token.kind in ("space", "indent"):
            return False
        if token.placeholder:
            return True
    return False


def _looks_generated(word: str) -> bool:
    """A word with digits mixed in (``a3f9c1``, ``step_12``, ``pod-7d9f8-x2kq``) is an id, not a word."""
    return sum(c.isdigit() for c in word) >= 2 or bool(re.search(r"[-_]\w*\d", word))


Template = tuple[tuple[str, str], ...]


def template(tokens: list[Token]) -> Template:
    """The line's template: placeholders without their text, spaces as one mark."""
    return tuple((t.kind, "" if t.placeholder or t.kind in ("space", "indent")
                  else t.text[0] if t.kind == "rule" else t.text) for t in tokens)


def template_text(tpl: Template) -> str:
    """A readable form: ``Compiling <word> <version>``."""
    parts = []
    for kind, text in tpl:
        if kind == "indent":
            parts.append("  ")
        elif kind == "space":
            parts.append(" ")
        elif kind in PLACEHOLDERS:
            parts.append(f"<{kind}>")
        elif kind == "rule":
            parts.append(text * 3 + "…")
        else:
            parts.append(text)
    return "".join(parts)


def literal_words(tpl: Template) -> list[str]:
    return [text for kind, text in tpl if kind == "word" and len(text) >= 3 and any(c.isalpha() for c in text)]


def js_escape(text: str) -> str:
    return "".join("\\" + c if c in _JS_SPECIAL else c for c in text)


def _excluding(next_char: str | None, base: str = r"\s") -> str:
    """A repeated class that cannot take the character that must follow it (so the repeat is
    deterministic): ``[^\\s)]+`` before ``)``, ``\\S+`` before a blank or the end."""
    if not next_char or next_char.isspace():
        return r"\S+" if base == r"\s" else f"[^{base}]+"
    ch = next_char if next_char not in "\\]^-" else "\\" + next_char
    return f"[^{base}{ch}]+"


def pattern_for(tpl: Template, length: int | None = None, *, spaces: dict[int, str] | None = None,
                anchored_end: bool = False) -> str:
    """A JS regex (for the ``i`` flag) for the first ``length`` tokens of ``tpl``, anchored at the
    line start; with ``anchored_end`` and the whole template, also at its end.

    ``spaces`` says, per blank position, whether every line had exactly one space there (``" "``);
    elsewhere (and by default) a blank run is ``\\s+``."""
    n = len(tpl) if length is None else min(length, len(tpl))
    out = ["^"]
    for i in range(n):
        kind, text = tpl[i]
        last = i == n - 1 and not (anchored_end and n == len(tpl))
        nxt = _next_char(tpl, i + 1)
        if kind in ("indent", "space"):
            out.append((spaces or {}).get(i, r"\s+"))
        elif kind in PLACEHOLDERS:
            if last:
                out.append(_HEADS[kind])
            elif kind in ("number",) and (nxt is None or not nxt.isdigit()):
                # (not ``\d+(?:[.,]\d+)*``: OmniRoute's ReDoS heuristic would drop it, RTK-Q2)
                out.append(r"\d[\d.,]*" if nxt not in (".", ",") else r"\d+")
            else:
                out.append(_excluding(nxt))
        elif kind == "rule":
            out.append(js_escape(text) + "+")
        else:
            out.append(js_escape(text))
    if anchored_end and n == len(tpl):
        out.append(r"\s*$")
    return "".join(out)


def _next_char(tpl: Template, i: int) -> str | None:
    """The first character the token at ``i`` must start with, if it is fixed (a literal)."""
    if i >= len(tpl):
        return None
    kind, text = tpl[i]
    if kind in ("space", "indent"):
        return " "
    if kind in ("word", "punct", "rule"):
        return text[0]
    return None  # a placeholder (tokenize never puts two side by side)


def head_length(tpl: Template) -> int:
    """Tokens up to and including the first literal word of 3+ letters: what says what kind of
    line this is (``  Compiling``, ``=== RUN``, ``✓ adds``); the whole template if it has none."""
    for i, (kind, text) in enumerate(tpl):
        if kind == "word" and len(text) >= 3:
            return i + 1
    return len(tpl)


def starts_with_value(tpl: Template) -> bool:
    """A line that begins with a value (a pod name, a number, a hash) is a data row, which a
    filter must not drop for recurring; a timestamp or a path first is a log or report line."""
    for kind, _ in tpl:
        if kind == "indent":
            continue
        return kind in PLACEHOLDERS and kind not in ("timestamp", "path")
    return False


def shortest_distinct_prefix(tpl: Template) -> int:
    """How many tokens a pattern needs to say what this line *is*: through the first literal
    word of 3+ letters and the token after it (``Compiling <word>``), or the whole template
    when it has no such word (a progress bar, a row of numbers)."""
    for i, (kind, text) in enumerate(tpl):
        if kind == "word" and len(text) >= 3:
            # the word, then a separator and one more token when there is one
            j = i + 1
            while j < len(tpl) and tpl[j][0] in ("space",):
                j += 1
            return min(len(tpl), j + 1)
    return len(tpl)
