"""JSON with source spans: the tree the editors need to edit a file without reformatting it.

``json.loads`` forgets where values were. The visual editor must replace *one* value's text, and
the JSON view must map the caret to a JSON pointer, so this scanner keeps, for every value, its
code-point span in the text, and for every object member the span of its key. It accepts exactly
RFC 8259 JSON (duplicate keys kept in order, the later one wins in ``value`` as ``JSON.parse``
does). Tokens come from one compiled pattern over our own grammar (not a user pattern), and the
descent uses an explicit stack so deep nesting cannot hit the recursion limit.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.jsvalues import may_hold_astral
from engine.jsvalues import utf16_len as utf16_len  # re-exported: callers import it from here

_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\n\r]+)
  | (?P<string>"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*")
  | (?P<number>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?![0-9A-Za-z_.+-]))
  | (?P<literal>true|false|null)(?![0-9A-Za-z_])
  | (?P<punct>[{}\[\]:,])
    """,
    re.VERBOSE,
)


@dataclass
class Node:
    """One JSON value. ``start``/``end`` are code-point offsets into the parsed text."""

    kind: str  # object | array | string | number | literal
    start: int
    end: int
    value: Any = None
    # object: list of Member; array: its items in order (a list here; a lazy view in
    # engine.workspace.items, which only reads them)
    members: list[Member] = field(default_factory=list)
    items: Sequence[Node] = field(default_factory=list)

    def child(self, token: str) -> Node | None:
        if self.kind == "object":
            found = None
            for member in self.members:
                if member.key == token:
                    found = member.node  # JSON.parse keeps the last duplicate
            return found
        if self.kind == "array" and token.isdigit() and (token == "0" or not token.startswith("0")):
            index = int(token)
            return self.items[index] if index < len(self.items) else None
        return None

    def member(self, key: str) -> Member | None:
        found = None
        for member in self.members:
            if member.key == key:
                found = member
        return found


@dataclass
class Member:
    key: str
    key_start: int
    key_end: int
    node: Node


@dataclass(frozen=True)
class JsonSyntaxError:
    """Where and why the text is not JSON; ``offset`` is a code-point offset."""

    message: str
    offset: int


@dataclass
class ParseResult:
    root: Node | None
    error: JsonSyntaxError | None

    @property
    def ok(self) -> bool:
        return self.error is None and self.root is not None

    @property
    def value(self) -> Any:
        return self.root.value if self.root is not None else None


class _Fail(Exception):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


def _describe(text: str, pos: int) -> str:
    if pos >= len(text):
        return "unexpected end of JSON"
    ch = text[pos]
    if ch == '"':
        end = text.find("\n", pos)
        snippet = text[pos:end if end != -1 else len(text)]
        if '"' not in snippet[1:]:
            return "unterminated string"
        return "bad character or escape in string"
    return f"unexpected character {ch!r}"


def parse(text: str) -> ParseResult:
    """Parse ``text``; never raises. On a syntax error ``root`` is None and ``error`` says where."""
    try:
        return ParseResult(_parse(text), None)
    except _Fail as fail:
        return ParseResult(None, JsonSyntaxError(fail.message, fail.offset))


def _parse(text: str) -> Node:
    tokens = _TOKEN
    pos = 0
    length = len(text)
    if text.startswith("\ufeff"):
        pos = 1  # a BOM is not JSON, but editors write it; tolerate it like most tools

    def next_token(pos: int) -> tuple[str | None, int, int]:
        while True:
            if pos >= length:
                return None, pos, pos
            m = tokens.match(text, pos)
            if m is None:
                raise _Fail(_describe(text, pos), pos)
            kind = m.lastgroup
            if kind == "ws":
                pos = m.end()
                continue
            return kind, m.start(), m.end()

    # Explicit stack of containers being filled: (node, pending_key_member_or_None, state)
    stack: list[list[Any]] = []
    root: Node | None = None
    expect_value = True
    while True:
        kind, start, end = next_token(pos)
        if expect_value:
            if kind is None:
                raise _Fail("unexpected end of JSON", start)
            tok = text[start:end]
            if kind == "punct" and tok in "{[":
                node = Node("object" if tok == "{" else "array", start, -1,
                            {} if tok == "{" else [])
                _attach(stack, node)
                stack.append([node, None])
                pos = end
                # empty container?
                k2, s2, e2 = next_token(pos)
                closer = "}" if tok == "{" else "]"
                if k2 == "punct" and text[s2:e2] == closer:
                    node.end = e2
                    stack.pop()
                    pos = e2
                    expect_value = False
                    if not stack:
                        root = node
                        break
                    continue
                if tok == "{":
                    pos = _read_key(text, stack, next_token, pos)
                continue
            if kind == "string":
                node = Node("string", start, end, json.loads(text[start:end]))
            elif kind == "number":
                raw = text[start:end]
                node = Node("number", start, end, json.loads(raw))
            elif kind == "literal":
                node = Node("literal", start, end, {"true": True, "false": False, "null": None}[text[start:end]])
            else:
                raise _Fail(f"expected a value, found {text[start:end]!r}", start)
            pos = end
            if not stack:
                root = node
                break
            _attach(stack, node)
            expect_value = False
            continue
        # after a value inside a container: expect ',' or the closer
        top = stack[-1][0]
        closer = "}" if top.kind == "object" else "]"
        if kind is None:
            raise _Fail("unexpected end of JSON", start)
        tok = text[start:end]
        if kind == "punct" and tok == ",":
            pos = end
            if top.kind == "object":
                pos = _read_key(text, stack, next_token, pos)
            expect_value = True
            continue
        if kind == "punct" and tok == closer:
            top.end = end
            stack.pop()
            pos = end
            if not stack:
                root = top
                break
            continue
        what = "',' or '}'" if top.kind == "object" else "',' or ']'"
        raise _Fail(f"expected {what} after a value", start)
    try:
        kind, start, _ = next_token(pos)
    except _Fail as fail:
        raise _Fail("unexpected text after the JSON value", fail.offset) from None
    if kind is not None:
        raise _Fail("unexpected text after the JSON value", start)
    assert root is not None
    return root


def _read_key(text: str, stack: list[list[Any]], next_token: Callable[[int], tuple[str | None, int, int]],
              pos: int) -> int:
    kind, start, end = next_token(pos)
    if kind != "string":
        if kind is None:
            raise _Fail("unexpected end of JSON", start)
        raise _Fail("expected a double-quoted property name", start)
    key = json.loads(text[start:end])
    kind2, s2, e2 = next_token(end)
    if kind2 != "punct" or text[s2:e2] != ":":
        raise _Fail("expected ':' after property name", s2)
    stack[-1][1] = (key, start, end)
    return e2


def _attach(stack: list[list[Any]], node: Node) -> None:
    if not stack:
        return
    parent, pending = stack[-1]
    if parent.kind == "array":
        parent.items.append(node)
        parent.value.append(node.value)
    else:
        key, key_start, key_end = pending
        parent.members.append(Member(key, key_start, key_end, node))
        parent.value[key] = node.value
        stack[-1][1] = None


# --- pointers -----------------------------------------------------------------------------

def escape_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def unescape_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def split_pointer(pointer: str) -> list[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"not a JSON pointer: {pointer!r}")
    return [unescape_token(t) for t in pointer[1:].split("/")]


def join_pointer(tokens: Sequence[str | int]) -> str:
    return "".join("/" + escape_token(str(t)) for t in tokens)


def resolve(root: Node | None, pointer: str) -> Node | None:
    node = root
    for token in split_pointer(pointer):
        if node is None:
            return None
        node = node.child(token)
    return node


def deepest(root: Node | None, pointer: str) -> tuple[Node | None, str]:
    """The deepest existing node on ``pointer``'s path and its own pointer."""
    node = root
    reached: list[str] = []
    for token in split_pointer(pointer):
        if node is None:
            break
        child = node.child(token)
        if child is None:
            break
        node, reached = child, [*reached, token]
    return node, join_pointer(reached)


def pointer_at(root: Node | None, offset: int) -> str:
    """Pointer of the innermost value (or member key) containing code-point ``offset``."""
    node = root
    tokens: list[str] = []
    if node is None or not node.start <= offset <= node.end:
        return ""
    while True:
        nxt = None
        if node.kind == "object":
            for member in node.members:
                if member.key_start <= offset <= member.node.end:
                    nxt = (member.key, member.node)
                    break
        elif node.kind == "array":
            # binary search: items are sorted by offset
            lo, hi = 0, len(node.items) - 1
            while lo <= hi:
                mid = (lo + hi) // 2
                item = node.items[mid]
                if offset < item.start:
                    hi = mid - 1
                elif offset > item.end:
                    lo = mid + 1
                else:
                    nxt = (str(mid), item)
                    break
        if nxt is None:
            return join_pointer(tokens)
        tokens.append(nxt[0])
        node = nxt[1]


# --- positions ----------------------------------------------------------------------------

def position_of(text: str, offset: int) -> tuple[int, int]:
    """``LineIndex(text).position(offset)`` for one lookup, at C speed and without the index."""
    offset = max(0, min(offset, len(text)))
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, line_start) + 1, utf16_len(text[line_start:offset]) + 1


class LineIndex:
    """Offsets ↔ (line, UTF-16 column) for one text, built once, O(log n) per lookup."""

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        find = text.find
        i = find("\n")
        while i != -1:
            starts.append(i + 1)
            i = find("\n", i + 1)
        self.starts = starts
        self.ascii = text.isascii()

    def line_of(self, offset: int) -> int:
        """0-based line containing code-point ``offset``."""
        import bisect

        return bisect.bisect_right(self.starts, offset) - 1

    def position(self, offset: int) -> tuple[int, int]:
        """1-based line and 1-based UTF-16 column of code-point ``offset``."""
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        start = self.starts[line]
        if self.ascii:
            return line + 1, offset - start + 1
        return line + 1, utf16_len(self.text[start:offset]) + 1

    def offset(self, line: int, column: int) -> int:
        """Code-point offset of 1-based ``line`` and 1-based UTF-16 ``column`` (clamped)."""
        line = max(1, min(line, len(self.starts)))
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        segment = self.text[start:end]
        return start + utf16_to_cp(segment, max(0, column - 1))


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _bmp_only(s: str) -> bool:
    """True when no character of ``s`` is outside the BMP (False means: maybe, scan). In O(1)
    (``jsvalues.may_hold_astral``): for a 2 MB filter file with one "…" a regex scan cost ~15 ms
    per call on the GUI thread."""
    return not may_hold_astral(s)


def astral_count(s: str) -> int:
    """How many characters of ``s`` lie outside the BMP (each is two UTF-16 units)."""
    return 0 if _bmp_only(s) else len(_ASTRAL.findall(s))


def has_astral(s: str) -> bool:
    return not _bmp_only(s) and _ASTRAL.search(s) is not None


def utf16_to_cp(s: str, units: int) -> int:
    """Code-point index in ``s`` of UTF-16 offset ``units`` (clamped to ``len(s)``).

    Only characters outside the BMP take two units, so the walk visits those alone.
    """
    if not has_astral(s):
        return max(0, min(units, len(s)))
    extra = 0
    for m in _ASTRAL.finditer(s):
        at16 = m.start() + extra
        if at16 >= units:
            break
        extra += 1
        if at16 + 1 == units:  # inside a surrogate pair: snap to the character start
            break
    return max(0, min(units - extra, len(s)))


class Utf16Offsets:
    """Code-point index → UTF-16 offset for one text, for many lookups (``cp_to_utf16`` for one).

    Only astral characters (two UTF-16 units) shift offsets, so texts without any map 1:1;
    a lookup is a bisection over the astral characters' positions.
    """

    def __init__(self, text: str) -> None:
        self._astral = [] if _bmp_only(text) else [m.start() for m in _ASTRAL.finditer(text)]

    def __call__(self, index: int) -> int:
        if not self._astral:
            return index
        return index + bisect.bisect_left(self._astral, index)


def cp_to_utf16(s: str, index: int) -> int:
    if _bmp_only(s):
        return len(range(len(s))[:index])  # same as len(s[:index]) without copying the text
    return utf16_len(s[:index])


def resolve_value(value: Any, pointer: str) -> tuple[bool, Any]:
    """(found, value) of ``pointer`` inside an already-parsed Python value."""
    current = value
    for token in split_pointer(pointer):
        if isinstance(current, dict) and token in current:
            current = current[token]
        elif isinstance(current, list) and token.isdigit() and int(token) < len(current):
            current = current[int(token)]
        else:
            return False, None
    return True, current


# --- shallow scanning at C speed ----------------------------------------------------------------

_WS_RUN = re.compile(r"[ \t\n\r]*")


def after_blanks(text: str, pos: int) -> int:
    """The end of the JSON blanks at ``pos`` (``_WS_RUN`` also matches none: it always matches)."""
    found = _WS_RUN.match(text, pos)
    assert found is not None
    return found.end()
_DECODER = json.JSONDecoder()


def _kind_of_value(value: Any) -> str:
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool) or value is None:
        return "literal"
    return "number"


def scan_container(text: str, start: int) -> Node:
    """One level of the object/array at ``start``: children get spans and decoded values.

    Uses the C decoder for every child, so a 2 MB file scans in tens of milliseconds and the
    only objects created are the values themselves (a full span tree of 2 MB is ~400 000
    objects, whose garbage collection alone stalls every thread for a third of a second).
    Raises ``json.JSONDecodeError`` on invalid JSON.
    """
    opener = text[start]
    is_object = opener == "{"
    items: list[Node] = []
    node = Node("object" if is_object else "array", start, -1, {} if is_object else [], items=items)
    closer = "}" if is_object else "]"
    pos = after_blanks(text, start + 1)
    if text.startswith(closer, pos):
        node.end = pos + 1
        return node
    while True:
        if is_object:
            if not text.startswith('"', pos):
                raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, pos)
            key, key_end = _DECODER.raw_decode(text, pos)
            key_start = pos
            pos = after_blanks(text, key_end)
            if not text.startswith(":", pos):
                raise json.JSONDecodeError("Expecting ':' delimiter", text, pos)
            pos = after_blanks(text, pos + 1)
        value, end = _DECODER.raw_decode(text, pos)
        child = Node(_kind_of_value(value), pos, end, value)
        if is_object:
            node.members.append(Member(key, key_start, key_end, child))
            node.value[key] = value
        else:
            items.append(child)
            node.value.append(value)
        pos = after_blanks(text, end)
        if text.startswith(",", pos):
            pos = after_blanks(text, pos + 1)
            continue
        if text.startswith(closer, pos):
            node.end = pos + 1
            return node
        raise json.JSONDecodeError(f"Expecting ',' delimiter or '{closer}'", text, pos)


def shallow_parse(text: str) -> ParseResult:
    """Root value plus one level of children with spans (children of children: values only)."""
    start = after_blanks(text, 1 if text.startswith("\ufeff") else 0)
    try:
        if text.startswith(("{", "["), start):
            root = scan_container(text, start)
        else:
            value, end = _DECODER.raw_decode(text, start)
            root = Node(_kind_of_value(value), start, end, value)
        rest = after_blanks(text, root.end)
        if rest < len(text):
            raise json.JSONDecodeError("Extra data", text, rest)
    except json.JSONDecodeError as exc:
        return ParseResult(None, JsonSyntaxError(exc.msg[:1].lower() + exc.msg[1:], exc.pos))
    except (ValueError, IndexError) as exc:  # raw_decode at end of text raises StopIteration-like errors
        return ParseResult(None, JsonSyntaxError(str(exc) or "unexpected end of JSON", len(text)))
    return ParseResult(root, None)
