"""Code-block stripping — OmniRoute's ``codeStripper.ts`` (``rtk.md`` §7.4).

Fenced blocks found by one regex lose blank lines and trailing blanks (and, on request, their
JavaScript/TypeScript comments, ``engine.rtk.jscomments``); a block whose code ends with a line
break always counts as rewritten and an unlabelled block gains a detected label. Reproduced under
``omniroute`` with RTK-Q28, Q30, Q31, Q34 reported; ``strict`` scans fences by lines, strips
comments only under js/ts labels, normalises CRLF and rewrites only blocks whose code changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.diagnostics import Diagnostic, Level
from engine.jsregex import JSMatch, compile_js
from engine.jsvalues import js_trim
from engine.rtk.jscomments import remove_comments

_FENCE = compile_js(r"```([A-Za-z0-9_+.-]*)\r?\n([\s\S]*?)```", "g")
_BLANK_LINES = compile_js(r"^\s*$(?:\r?\n)?", "gm")
_LEADING_BLANK = compile_js(r"^\s*\n")
_TRAILING_BLANK = compile_js(r"\n\s*$")
_LINE_BREAK = re.compile(r"\r?\n")
_TRAILING_SPACES = re.compile(r"[ \t]+$")

ALIASES = {
    "js": "javascript", "jsx": "javascript", "javascript": "javascript",
    "ts": "typescript", "tsx": "typescript", "typescript": "typescript",
    "py": "python", "python": "python", "rs": "rust", "rust": "rust", "go": "go",
    "rb": "ruby", "ruby": "ruby", "java": "java",
}
# §7.4 step 2: the first test that matches names the language of an unlabelled block.
_DETECTORS = tuple((name, [compile_js(p) for p in patterns]) for name, patterns in (
    ("typescript", (r"\b(?:interface|type)\s+\w+\s*=", r":\s*(?:string|number|boolean)\b")),
    ("javascript", (r"\b(?:const|let|function|import|export)\b", r"=>")),
    ("python", (r"\bdef\s+\w+\(", r"\bimport\s+\w+", r"print\(")),
    ("rust", (r"\bfn\s+\w+\(", r"\blet\s+mut\b", r"println!\(")),
    ("go", (r"\bfunc\s+\w+\(", r"package\s+\w+")),
    ("java", (r"\bclass\s+\w+", r"System\.out\.println")),
    ("ruby", (r"\bdef\s+\w+", r"puts\s+", r"end\s*$")),
))
_JS_ONLY_HINT = frozenset({"javascript", "typescript"})


def detect_language(code: str) -> str:
    for name, patterns in _DETECTORS:
        if any(p.search(code) for p in patterns):
            return name
    return "unknown"


@dataclass
class BlockChange:
    hint: str
    language: str
    detected: bool  # the language came from the code, not the hint
    stripped_lines: int
    comments_removed: int
    relabelled: bool


@dataclass
class CodeStripResult:
    text: str
    blocks: list[BlockChange] = field(default_factory=list)  # blocks that counted as stripped
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.blocks)


def _lines(text: str, *, result: bool) -> int:
    if text == "" and result:
        return 0
    return len(_LINE_BREAK.split(text))


def strip_code(code: str, language: str, *, strip_comments: bool, keep_docstrings: bool,
               profile: str = "omniroute", hint_language: str = "unknown") -> tuple[str, int, list[Diagnostic]]:
    """One block's code, cleaned (``rtk.md`` §7.4 step 3): JS/TS comments removed when asked, then
    blank lines dropped, trailing spaces cut and leading/trailing blank lines trimmed. Returns
    (result, comments removed, diagnostics)."""
    diagnostics: list[Diagnostic] = []
    removed = 0
    if profile == "strict":
        code = code.replace("\r\n", "\n")  # RTK-Q31 fix
    elif "\r\n" in code and _BLANK_LINES.replace(code, "") != _BLANK_LINES.replace(code.replace("\r\n", "\n"), ""):
        diagnostics.append(_diag("RTK-Q31", "the blank-line pattern ran over CRLF code and removed its line feeds"))
    comment_language = language if profile != "strict" else hint_language
    if strip_comments and comment_language in _JS_ONLY_HINT:
        outcome = remove_comments(code, keep_docstrings=keep_docstrings, profile=profile)
        code, removed = outcome.text, outcome.removed
        diagnostics.extend(outcome.diagnostics)
    out = _BLANK_LINES.replace(code, "")
    out = "\n".join(_TRAILING_SPACES.sub("", line) for line in _LINE_BREAK.split(out))
    out = _LEADING_BLANK.replace(out, "")
    out = _TRAILING_BLANK.replace(out, "")
    return out, removed, diagnostics


def _diag(code: str, message: str, level: Level = "info") -> Diagnostic:
    return Diagnostic(message, level, code, source="rtk", data={"stage": "rtk:code-strip"})


def strip_code_blocks(text: str, *, strip_comments: object = False, preserve_docstrings: object = True,
                      profile: str = "omniroute") -> CodeStripResult:
    """Clean every fenced code block of ``text`` (``rtk.md`` §7.4), found by the reference's regex; a
    block without a known label gets its language guessed from its code first. Blocks that come
    out unchanged are left byte for byte."""
    remove = strip_comments is True
    keep_docs = preserve_docstrings is not False
    blocks: list[BlockChange] = []
    diagnostics: list[Diagnostic] = []
    if profile == "strict":
        return _strict(text, remove, keep_docs)

    def replace(m: JSMatch) -> str:
        hint, code = m.group(1) or "", m.group(2) or ""  # (both groups take part in every match)
        language = ALIASES.get(hint.lower(), "unknown")
        detected = language == "unknown"
        if detected:
            language = detect_language(code)
            if language == "javascript" and remove and _looks_like_other_language(code):
                diagnostics.append(_diag("RTK-Q30", "an unlabelled block was taken for JavaScript (it has "
                                         "`import`, `let` or `=>`) and lost `//` comments"))
        result, removed, notes = strip_code(code, language, strip_comments=remove, keep_docstrings=keep_docs,
                                            profile=profile)
        diagnostics.extend(notes)
        stripped = max(0, _lines(code, result=False) - _lines(result, result=True))
        if stripped == 0 and result == js_trim(code):
            return m.match
        label = hint or language
        blocks.append(BlockChange(hint, language, detected, stripped, removed, not hint))
        if (result == code.rstrip("\n") and code.endswith("\n")) or not hint:
            diagnostics.append(_diag("RTK-Q34", f"a ```{label} block counted as stripped "
                                     + ("and gained a label" if not hint else "though only its final line break went")))
        return f"```{label}\n{result}\n```"

    out = _FENCE.replace(text, replace)
    if blocks and _fence_mispaired(text):
        diagnostics.append(_diag("RTK-Q28", "code fences were paired by one regex, not by lines (info string, "
                                 "``~~~``, 4-backtick or inline fences): prose and code may have swapped roles"))
    return CodeStripResult(out, blocks, diagnostics)


def _looks_like_other_language(code: str) -> bool:
    """RTK-Q30: a test that comes after JavaScript's (Python, Rust, Go, Java, Ruby) matches too."""
    return any(p.search(code) for _name, patterns in _DETECTORS[2:] for p in patterns)


_LINE_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})([^\n]*)$")


def _fence_lines(text: str) -> list[tuple[int, int, str, str, int, int]]:
    """CommonMark-style fenced blocks: (start, end, hint, code, code start, code end) by offsets."""
    found = []
    lines = text.split("\n")
    offsets = []
    pos = 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    i = 0
    while i < len(lines):
        m = _LINE_FENCE.match(lines[i].rstrip("\r"))
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            fence = m.group(2)
            for j in range(i + 1, len(lines)):
                close = lines[j].rstrip("\r").strip()
                if close.startswith(fence[0] * len(fence)) and set(close) == {fence[0]}:
                    code_start = offsets[i + 1]
                    code_end = offsets[j]
                    end = offsets[j] + len(lines[j].rstrip("\r"))
                    info = m.group(3).strip()
                    found.append((offsets[i], end, info.split(" ")[0] if info else "", text[code_start:code_end],
                                  code_start, code_end))
                    i = j
                    break
        i += 1
    return found


def _fence_mispaired(text: str) -> bool:
    """RTK-Q28: the regex pairs fences differently from a line-based (CommonMark) scan."""
    regex_blocks = [m.group(2) or "" for m in _FENCE.match_all(text)]  # (group 2 takes part in every match)
    line_blocks = [b[3] for b in _fence_lines(text)]
    return len(regex_blocks) != len(line_blocks) or any(
        a.rstrip("\r\n") != b.rstrip("\r\n") for a, b in zip(regex_blocks, line_blocks, strict=False))


def _strict(text: str, remove: bool, keep_docs: bool) -> CodeStripResult:
    """RTK-Q28/Q30/Q31/Q34 fixes: line-based fences, comments only under js/ts labels, CRLF
    normalised, a block rewritten only when its code changed, never relabelled."""
    blocks: list[BlockChange] = []
    diagnostics: list[Diagnostic] = []
    pieces: list[str] = []
    last = 0
    for _start, _end, hint, code, code_start, code_end in _fence_lines(text):
        hint_language = ALIASES.get(hint.lower(), "unknown")
        result, removed, notes = strip_code(code, hint_language, strip_comments=remove, keep_docstrings=keep_docs,
                                            profile="strict", hint_language=hint_language)
        diagnostics.extend(notes)
        original = code.replace("\r\n", "\n").rstrip("\n")
        if result == original:
            continue
        pieces.append(text[last:code_start])
        pieces.append(result + "\n")
        last = code_end
        stripped = max(0, _lines(code, result=False) - _lines(result, result=True))
        blocks.append(BlockChange(hint, hint_language, False, stripped, removed, False))
    pieces.append(text[last:])
    return CodeStripResult("".join(pieces) if blocks else text, blocks, diagnostics)
