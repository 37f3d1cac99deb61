"""Tokens of a JavaScript regex source, for syntax colouring in the IDE's pattern fields.

Colouring only: it never decides validity (``compile_js`` does, with V8's message). It is a
lexer apart from ``parser`` on purpose: a pattern being typed is usually incomplete (``(a|``,
``[^``), where the parser stops at the first error, and colouring must still mark every escape,
class, group and quantifier of the whole field. It lives here so that all knowledge of
JavaScript regex syntax has one home. Offsets are UTF-16 because Qt's text positions are
(IDE-Q2).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.jsvalues import utf16_len


@dataclass(frozen=True)
class Token:
    start: int  # UTF-16 offset
    length: int  # UTF-16 units
    kind: str  # escape | class | group | quantifier | anchor | alternation | backref


_QUANT = set("*+?")


def tokenize(source: str) -> list[Token]:
    out: list[Token] = []
    i, n = 0, len(source)
    pos16 = 0  # UTF-16 offset of source[i]

    def emit(start_cp: int, end_cp: int, start16: int, kind: str) -> int:
        length = utf16_len(source[start_cp:end_cp])
        out.append(Token(start16, length, kind))
        return start16 + length

    while i < n:
        ch = source[i]
        if ch == "\\" and i + 1 < n:
            j = i + 2
            nxt = source[i + 1]
            if nxt in "123456789":
                while j < n and source[j].isdigit():
                    j += 1
                pos16 = emit(i, j, pos16, "backref")
            else:
                if nxt == "k" and j < n and source[j] == "<":
                    close = source.find(">", j)
                    j = close + 1 if close != -1 else n
                    pos16 = emit(i, j, pos16, "backref")
                    i = j
                    continue
                if nxt in "pPu" and j < n and source[j] == "{":
                    close = source.find("}", j)
                    j = close + 1 if close != -1 else n
                elif nxt == "u":
                    j = min(n, i + 6)
                elif nxt == "x":
                    j = min(n, i + 4)
                elif nxt == "c":
                    j = min(n, i + 3)
                pos16 = emit(i, j, pos16, "escape")
            i = j
            continue
        if ch == "[":
            j = i + 1
            while j < n and source[j] != "]":
                j += 2 if source[j] == "\\" else 1
            j = min(n, j + 1)
            pos16 = emit(i, j, pos16, "class")
            i = j
            continue
        if ch == "(":
            j = i + 1
            if source.startswith("?<=", j) or source.startswith("?<!", j):
                j += 3
            elif source.startswith("?<", j):
                close = source.find(">", j)
                j = close + 1 if close != -1 else j + 2
            elif source.startswith(("?:", "?=", "?!"), j):
                j += 2
            pos16 = emit(i, j, pos16, "group")
            i = j
            continue
        if ch == ")":
            pos16 = emit(i, i + 1, pos16, "group")
            i += 1
            continue
        if ch in _QUANT or ch == "{":
            j = i + 1
            if ch == "{":
                close = source.find("}", j)
                body = source[j:close] if close != -1 else ""
                if close == -1 or not body or not all(c.isdigit() or c == "," for c in body):
                    pos16 += utf16_len(ch)
                    i += 1
                    continue
                j = close + 1
            if j < n and source[j] == "?":
                j += 1
            pos16 = emit(i, j, pos16, "quantifier")
            i = j
            continue
        if ch in "^$":
            pos16 = emit(i, i + 1, pos16, "anchor")
            i += 1
            continue
        if ch == "|":
            pos16 = emit(i, i + 1, pos16, "alternation")
            i += 1
            continue
        if ch == ".":
            pos16 = emit(i, i + 1, pos16, "escape")
            i += 1
            continue
        pos16 += 2 if ord(ch) > 0xFFFF else 1
        i += 1
    return out
