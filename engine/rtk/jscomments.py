"""JavaScript/TypeScript comment removal by token classes (``rtk.md`` §7.4.1).

OmniRoute removes exactly the comments TypeScript attaches to syntax-tree nodes: a comment on the
same line after a token that *ends* a node, or on a later line before a token that *starts* one,
plus everything at the very start and end of the code. This module reproduces that without a
TypeScript parser: a scanner finds tokens and comments (strings, templates and regular
expressions included), and a small context tracker (brackets, declarations, type annotations,
conditionals, generics) classifies each token as starting and/or ending a node. Any JSX disables
removal (RTK-Q33); comments attached to no node survive (RTK-Q32). ``strict`` removes every
comment outside JSX.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.diagnostics import Diagnostic

START, END = 1, 2
BOTH = START | END

_LINE_BREAKS = "\n\r\u2028\u2029"
_TRIVIA_SPACE = " \t\v\f\u00a0\ufeff\u2028\u2029\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008" \
                "\u2009\u200a\u202f\u205f\u3000\u0085"
_PUNCTUATORS = sorted((
    "{", "}", "(", ")", "[", "]", ";", ",", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "!", "~", "?", ":",
    "=", "@", ".", "...", "?.", "=>", "==", "===", "!=", "!==", "<=", "++", "--", "**", "<<", "&&", "||", "??",
    "+=", "-=", "*=", "/=", "%=", "**=", "<<=", "&=", "|=", "^=", "&&=", "||=", "??=",
), key=len, reverse=True)
_STATEMENT_KEYWORDS = frozenset((
    "const", "let", "var", "if", "for", "while", "do", "return", "function", "class", "import", "switch", "try",
    "throw", "break", "continue", "interface", "type", "enum", "namespace", "module", "with", "debugger",
))
_PREFIX_KEYWORDS = frozenset(("new", "typeof", "await", "yield", "void", "delete", "keyof", "infer", "unique"))
_NEITHER_KEYWORDS = frozenset(("else", "finally", "as", "satisfies", "from"))
_START_KEYWORDS = frozenset(("case", "catch", "extends", "implements"))
_VALUE_KEYWORDS = frozenset(("this", "super", "null", "true", "false"))
_MODIFIERS = frozenset(("export", "declare", "abstract", "async", "default", "static", "public", "private",
                        "protected", "readonly", "override", "accessor"))
_CONTEXTUAL_DECLARATIONS = frozenset(("type", "interface", "namespace", "module", "declare", "abstract"))
_HEAD_KEYWORDS = frozenset(("if", "for", "while", "switch", "catch", "with"))
_RESERVED = _STATEMENT_KEYWORDS | _PREFIX_KEYWORDS | _NEITHER_KEYWORDS | _START_KEYWORDS | frozenset((
    "in", "instanceof", "of", "default", "export", "do", "else"))


@dataclass
class Token:
    kind: str  # name, num, str, tmpl, regex, punct, hash
    value: str
    start: int
    end: int
    flags: int = 0
    line_before: bool = False  # a line break (outside comments) separates it from the previous token


@dataclass
class Comment:
    start: int
    end: int
    text: str


@dataclass
class Scan:
    tokens: list[Token] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)


@dataclass
class CommentRemoval:
    text: str
    removed: int
    found: int
    jsx: bool
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _is_id_start(ch: str) -> bool:
    return ch.isalpha() or ch in "$_\\" or (ord(ch) > 127 and ch.isidentifier())


def _is_id_part(ch: str) -> bool:
    return ch.isalnum() or ch in "$_\\\u200c\u200d" or (ord(ch) > 127 and ("a" + ch).isidentifier())


class _Scanner:
    """Tokens, comments and the operand/operator context needed to tell `/re/` from division."""

    def __init__(self, code: str) -> None:
        self.s = code
        self.i = 0
        self.out = Scan()
        self.braces: list[str] = []  # "{" or "${" (template substitution)

    def trivia(self) -> bool:
        """Skip whitespace and comments; whether a line break outside comments was crossed."""
        s, newline = self.s, False
        if self.i == 0 and s.startswith("#!"):
            while self.i < len(s) and s[self.i] not in _LINE_BREAKS:
                self.i += 1
        while self.i < len(s):
            ch = s[self.i]
            if ch in "\n\r":
                newline = True
                self.i += 1
            elif ch in _TRIVIA_SPACE:
                self.i += 1
            elif s.startswith("//", self.i):
                j = self.i
                while j < len(s) and s[j] not in _LINE_BREAKS:
                    j += 1
                self.out.comments.append(Comment(self.i, j, s[self.i:j]))
                self.i = j
            elif s.startswith("/*", self.i):
                j = s.find("*/", self.i + 2)
                j = len(s) if j == -1 else j + 2
                self.out.comments.append(Comment(self.i, j, s[self.i:j]))
                self.i = j
            else:
                break
        return newline

    def operand_expected(self) -> bool:
        toks = self.out.tokens
        if not toks:
            return True
        t = toks[-1]
        if t.kind in ("num", "str", "regex"):
            return False
        if t.kind == "tmpl":
            return t.value.endswith("${")
        if t.kind == "name":
            return t.value in _RESERVED and t.value not in _VALUE_KEYWORDS
        if t.kind == "punct":
            return t.value not in (")", "]", "}", "++", "--")
        return True

    def run(self) -> Scan:
        s = self.s
        while True:
            newline = self.trivia()
            if self.i >= len(s):
                break
            start = self.i
            ch = s[start]
            if ch in "\"'":
                self.i = self._string_end(start, ch)
                self._add("str", start, newline)
            elif ch == "`":
                self._template(start + 1, start, newline)
            elif ch == "}" and self.braces and self.braces[-1] == "${":
                self.braces.pop()
                self._template(start + 1, start, newline)
            elif ch.isdigit() or (ch == "." and start + 1 < len(s) and s[start + 1].isdigit()):
                j = start + 1
                while j < len(s) and (s[j].isalnum() or s[j] in "._" or (s[j] in "+-" and s[j - 1] in "eE"
                                                                            and not s[start:j].lower().startswith("0x"))):
                    j += 1
                self.i = j
                self._add("num", start, newline)
            elif _is_id_start(ch) or (ch == "#" and start + 1 < len(s) and _is_id_start(s[start + 1])):
                j = start + 1
                while j < len(s) and _is_id_part(s[j]):
                    j += 1
                self.i = j
                self._add("name", start, newline)
            elif ch == "/" and self.operand_expected():
                self.i = self._regex_end(start)
                self._add("regex", start, newline)
            else:
                value = next((p for p in _PUNCTUATORS if s.startswith(p, start)), ch)
                if value == "?." and start + 2 < len(s) and s[start + 2].isdigit():
                    value = "?"
                if value in (">=", ">>", ">>=", ">>>", ">>>="):
                    value = ">"  # `>` is always scanned alone (type arguments close with it)
                self.i = start + len(value)
                if value == "{":
                    self.braces.append("{")
                elif value == "}" and self.braces:
                    self.braces.pop()
                self._add("punct" if value != "#" else "hash", start, newline)
        return self.out

    def _add(self, kind: str, start: int, newline: bool) -> None:
        self.out.tokens.append(Token(kind, self.s[start:self.i], start, self.i, line_before=newline))

    def _string_end(self, start: int, quote: str) -> int:
        s, j = self.s, start + 1
        while j < len(s):
            if s[j] == "\\":
                j += 2
                continue
            if s[j] == quote or s[j] in "\n\r":
                return j + 1 if s[j] == quote else j
            j += 1
        return len(s)

    def _template(self, j: int, start: int, newline: bool) -> None:
        s = self.s
        while j < len(s):
            if s[j] == "\\":
                j += 2
                continue
            if s[j] == "`":
                self.i = j + 1
                self._add("tmpl", start, newline)
                return
            if s.startswith("${", j):
                self.i = j + 2
                self.braces.append("${")
                self._add("tmpl", start, newline)
                return
            j += 1
        self.i = len(s)
        self._add("tmpl", start, newline)

    def _regex_end(self, start: int) -> int:
        s, j, in_class = self.s, start + 1, False
        while j < len(s) and s[j] not in _LINE_BREAKS:
            c = s[j]
            if c == "\\":
                j += 2
                continue
            if c == "[":
                in_class = True
            elif c == "]":
                in_class = False
            elif c == "/" and not in_class:
                j += 1
                while j < len(s) and _is_id_part(s[j]):
                    j += 1
                return j
            j += 1
        return j


# ----------------------------------------------------------------------------- classification


@dataclass
class _Container:
    char: str  # "(", "[", "{", "<"
    kind: str  # call, head, params, paren, for, index, array, block, object, body, typelit, generic
    type_ctx: bool = False  # a type annotation runs at this level
    conditionals: int = 0  # pending `?` of conditional expressions at this level
    decl: bool = False  # a const/let/var/type declaration runs at this level
    body_next: str = ""  # "class", "interface" or "enum": the next `{` is that body
    type_alias: bool = False  # a `type X =` declaration runs at this level (its `=` opens a type)
    member_init: bool = False  # in a class body: a property initializer runs (calls are calls again)
    open_index: int = -1  # the token index of this `(`


def _find_jsx(tokens: list[Token], operand_before: list[bool]) -> list[int]:
    """Indexes of `<` tokens that open JSX (an operand is expected, then `>` or a name not
    followed by `,` or `extends`)."""
    found = []
    for k, t in enumerate(tokens):
        if t.value != "<" or t.kind != "punct" or not operand_before[k]:
            continue
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        if nxt is None:
            continue
        if nxt.value == ">":
            found.append(k)
        elif nxt.kind == "name":
            j = k + 2
            if nxt.value == "const" and j < len(tokens) and tokens[j].kind == "name":
                j += 1  # `<const T,>`: a const type parameter
            after = tokens[j] if j < len(tokens) else None
            if after is None or (after.value != "," and after.value != "extends"):
                found.append(k)
    return found


def _generic_close(tokens: list[Token], k: int) -> int | None:
    """Index of the `>` closing type arguments opened by ``tokens[k]`` (a `<`), if they look like types."""
    depth = 0
    allowed_punct = {"<", ">", ",", ".", "[", "]", "|", "&", "{", "}", ":", ";", "(", ")", "=>", "?", "...", "-",
                     "="}  # `=`: a type parameter's default
    for j in range(k, min(len(tokens), k + 200)):
        t = tokens[j]
        if t.kind == "punct":
            if t.value == "<":
                depth += 1
            elif t.value == ">":
                depth -= 1
                if depth == 0:
                    return j
            elif t.value not in allowed_punct:
                return None
        elif t.kind == "regex":
            return None
    return None


def classify(tokens: list[Token]) -> list[int]:
    """START/END flags for every token (see the module docstring)."""
    flags = [0] * len(tokens)
    stack: list[_Container] = [_Container("", "block")]
    generic_closes: dict[int, int] = {}  # `>` index → flags
    prev: Token | None = None
    opened: dict[int, int] = {}  # `)` index → its `(` index

    def operand_expected() -> bool:
        if prev is None:
            return True
        if prev.kind in ("num", "str", "regex"):
            return False
        if prev.kind == "tmpl":
            return prev.value.endswith("${")
        if prev.kind == "name":
            return prev.value in _RESERVED and prev.value not in _VALUE_KEYWORDS
        if prev.value in (")", "]"):
            return False
        if prev.value == "}":
            return prev_closed in ("block", "body", "doblock")
        if prev.value in ("++", "--"):
            return flags[len_before - 1] & END == 0
        return not (prev.value == ">" and len_before - 1 in generic_closes)

    prev_closed = ""
    len_before = 0
    for k, t in enumerate(tokens):
        len_before = k
        top = stack[-1]
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        v = t.value
        f = 0
        if t.line_before and prev is not None and top.decl and prev.kind in ("name", "num", "str", "tmpl") \
                and prev.value not in _RESERVED and t.kind == "name":
            top.decl = False  # ASI ended the declaration
        if k in generic_closes:
            f = generic_closes[k]
        elif t.kind in ("num", "str", "regex", "tmpl"):
            f = BOTH
        elif t.kind == "hash":
            f = 0
        elif t.kind == "name":
            if v == "while" and prev is not None and prev.value == "}" and prev_closed == "doblock":
                f = 0  # the `while` of a do-while is no node
            elif v == "export" and nxt is not None and nxt.value in ("{", "*"):
                f = START  # an export declaration's keyword, not a modifier
            elif v == "const" and prev is not None and prev.value == "as":
                f = BOTH  # `as const`: a type reference
            elif v in _CONTEXTUAL_DECLARATIONS and (nxt is None or nxt.line_before):
                f = BOTH  # `type`/`interface`… followed by a line break is a plain name
            elif v in _STATEMENT_KEYWORDS and not (prev is not None and prev.value == "."):
                after_modifier = prev is not None and prev.kind == "name" and prev.value in _MODIFIERS \
                    and not (prev.value in ("async", *_CONTEXTUAL_DECLARATIONS) and t.line_before)
                f = 0 if (after_modifier and v not in ("const", "let", "var")) or _after_decorator(tokens, k, opened) \
                    else START  # the declaration started at its modifiers (a variable list is its own node)
                if v in ("return", "break", "continue", "throw") and (
                        nxt is None or nxt.value == "}" or (nxt.line_before and nxt.value != ";")):
                    f |= END  # the statement ends at the keyword (ASI)
                if v in ("const", "let", "var") or (v == "type" and nxt is not None and nxt.kind == "name"):
                    top.decl = True
                    top.type_alias = v == "type"
                if v in ("class", "interface", "enum"):
                    top.body_next = v
                if v == "type" and (nxt is None or nxt.kind != "name"):
                    f = BOTH  # `type` used as a name
            elif prev is not None and prev.value == ".":
                f = BOTH
            elif v == "void" and (top.type_ctx or (prev is not None and prev.value == ":" and top.kind != "object")):
                f = BOTH  # the `void` type
            elif v == "yield" and (nxt is None or nxt.line_before):
                f = BOTH  # a bare `yield` ends where the line does
            elif v in _PREFIX_KEYWORDS:
                f = START
            elif v in ("as", "satisfies") and t.line_before:
                f = BOTH  # no line break is allowed before `as`: here it is a name
            elif v in _NEITHER_KEYWORDS:
                f = 0
                if v in ("as", "satisfies"):
                    top.type_ctx = True
            elif v in ("constructor", "get", "set") and top.kind in ("body", "object") and nxt is not None \
                    and (nxt.value == "(" if v == "constructor" else nxt.kind in ("name", "str", "num")
                         or nxt.value == "["):
                f = START  # a member keyword, not a name node
            elif v == "extends" and (top.type_ctx or top.kind in ("generic", "typelit")):
                f = 0  # a constraint or a conditional type, not a heritage clause
            elif v in _START_KEYWORDS:
                f = START
            elif v in ("in", "instanceof", "of"):
                f = 0 if top.kind == "for" else BOTH
            elif v == "default":
                if prev is not None and prev.value == "export":
                    f = BOTH if nxt is not None and nxt.value in ("function", "class", "async", "abstract") else 0
                else:
                    f = START
            else:
                f = BOTH
        else:  # punctuation
            operand = operand_expected()
            if v == ";":
                f = 0 if top.kind == "for" else END
                top.decl = False
                top.member_init = False
                top.type_ctx = False
            elif v == ",":
                f = 0
                if top.type_ctx and top.kind not in ("generic",):
                    top.type_ctx = False
            elif v in (".",):
                f = 0
            elif v == "?.":
                f = BOTH
            elif v == "...":
                f = BOTH if top.kind == "params" else START  # a rest parameter's token is a node, a spread's not
            elif v == "?":
                f = BOTH
                if nxt is None or nxt.value not in (":", ")", ",", "=", ";"):
                    if top.type_ctx or top.kind in ("generic", "typelit", "typeparen"):
                        f = 0  # a conditional type's `?` and `:` are no nodes
                    else:
                        top.conditionals += 1
            elif v == ":":
                if top.conditionals > 0:
                    top.conditionals -= 1
                    f = BOTH
                else:
                    f = 0
                    if top.kind != "object" and not (prev is not None and prev.value in ("case", "default")):
                        top.type_ctx = True
            elif v == "=":
                initializer = top.decl or top.kind in ("body", "params", "typelit", "generic")
                if top.kind == "body":
                    top.member_init = True
                f = 0 if initializer else BOTH
                top.type_ctx = top.type_alias  # a type alias's right-hand side is a type
                top.type_alias = False
            elif v == "=>":
                f = 0 if (top.type_ctx and top.kind == "typeparen") or (
                    prev is not None and prev.value == ")" and prev_closed == "typeparen") else BOTH
                if f == BOTH:
                    top.type_ctx = False  # an arrow function's body follows its return type
            elif v in ("|", "&"):
                in_type = top.type_ctx or top.kind in ("generic", "typeparen", "typelit")
                f = (START if operand else 0) if in_type else BOTH  # a leading `|` starts its union type
            elif v == "!" or v in ("++", "--"):
                f = START if operand or t.line_before else END  # no postfix form after a line break
            elif v in ("+", "-", "~"):
                f = START if operand else BOTH
            elif v == "@":
                f = START
            elif v == "*" and prev is not None and prev.value in ("export", "import"):
                f = 0  # `export *` / `import * as`
            elif v == "<":
                close = _generic_close(tokens, k)
                if close is not None and ((prev is not None and (prev.kind == "name" or prev.value == "."))
                                          or operand):
                    f = START if operand or (t.line_before and top.type_ctx) else 0  # a generic arrow starts at `<T,>`
                    after = tokens[close + 1] if close + 1 < len(tokens) else None
                    declared = k >= 2 and tokens[k - 2].value in ("class", "interface", "type", "function")
                    if operand or declared or (after is not None and after.value == "("):
                        generic_closes[close] = 0
                    else:
                        generic_closes[close] = END
                    stack.append(_Container("<", "generic", type_ctx=True))
                else:
                    f = BOTH
            elif v == ">":
                f = BOTH
            elif v == "(":
                if prev is not None and prev.kind == "name" and prev.value in _HEAD_KEYWORDS:
                    kind = "for" if prev.value == "for" else "head"
                    f = 0
                elif top.type_ctx and operand:
                    kind, f = "typeparen", START
                elif prev is not None and ((prev.kind == "name" and (prev.value not in _RESERVED
                                                                    or prev.value in _VALUE_KEYWORDS))
                                           or prev.value in (")", "]", "?.", ">") or prev.kind == "tmpl"):
                    kind = "params" if (k >= 2 and tokens[k - 2].value == "function") or (
                        top.kind == "body" and not top.member_init and not (k >= 2 and tokens[k - 2].value == "@")) \
                        else "call"
                    f = 0
                elif prev is not None and prev.value == "function":
                    kind, f = "params", 0
                else:
                    kind, f = "paren", START
                stack.append(_Container("(", kind))
                stack[-1].open_index = k
            elif v == ")":
                closing = stack.pop() if len(stack) > 1 and stack[-1].char in ("(", "<") else _Container("(", "call")
                while closing.char == "<" and len(stack) > 1:
                    closing = stack.pop()
                opened[k] = closing.open_index
                next_value = nxt.value if nxt is not None else ""
                if closing.kind in ("head", "for", "params"):
                    f = 0
                elif next_value == "=>" or (next_value == ":" and stack[-1].conditionals == 0 and closing.kind != "head"):
                    f = 0  # a parameter list (arrow or method with a return type)
                elif closing.kind == "call" and next_value == "{":
                    f = 0  # a method's parameter list
                elif closing.kind == "typeparen":
                    f = 0 if next_value == "=>" else END
                else:
                    f = END
                prev_closed = closing.kind
            elif v == "[":
                kind = "array" if (operand and not (prev is not None and prev.value == "?.")) or (
                    top.type_ctx and t.line_before) else "index"
                f = START if kind == "array" else 0
                stack.append(_Container("[", kind, type_ctx=top.type_ctx and kind == "array"))
            elif v == "]":
                if len(stack) > 1 and stack[-1].char == "[":
                    stack.pop()
                f = END
            elif v == "{":
                if top.body_next:
                    kind, f = "body", 0
                    top.body_next = ""
                elif top.type_ctx and prev is not None and (prev.value in (":", "=", "|", "&", "<", ",", "(")
                                                            or prev.value == "=>"):
                    kind, f = "typelit", START
                elif operand and prev is not None and prev.value not in ("=>", ")", ";", "{", "}") \
                        and not (prev.kind == "name" and prev.value in ("else", "do", "try", "finally")):
                    kind, f = "object", START
                else:
                    kind, f = ("doblock" if prev is not None and prev.value == "do" else "block"), START
                if top.type_ctx and kind in ("block",):
                    top.type_ctx = False
                stack.append(_Container("{", kind))
            elif v == "}":
                closing = stack.pop() if len(stack) > 1 else _Container("{", "block")
                while closing.char in ("(", "[", "<") and len(stack) > 1:
                    closing = stack.pop()
                prev_closed = closing.kind
                f = END
            else:
                f = BOTH  # a binary operator
        flags[k] = f
        if t.value in (")", "]") and prev_closed == "":
            prev_closed = "call"
        if t.value == ">" and stack[-1].char == "<" and k in generic_closes:
            stack.pop()
        prev = t
    return flags


def _after_decorator(tokens: list[Token], k: int, opened: dict[int, int]) -> bool:
    """Whether ``tokens[k]`` directly follows a decorator (``@name``, ``@a.b`` or ``@name(…)``)."""
    j = k - 1
    if j >= 0 and tokens[j].value == ")" and j in opened:
        j = opened[j] - 1
    while j >= 1 and tokens[j].kind == "name" and tokens[j - 1].value == ".":
        j -= 2
    return j >= 1 and tokens[j].kind == "name" and tokens[j - 1].value == "@"


def _jsx_spans(code: str, tokens: list[Token], starts: list[int]) -> list[tuple[int, int]]:
    """Character spans of the JSX elements opened at ``tokens[k]`` for k in ``starts``."""
    spans = []
    for k in starts:
        i = tokens[k].start
        depth, j = 0, i
        while j < len(code):
            if code.startswith("</", j):
                depth -= 1
                j = code.find(">", j)
                j = len(code) if j == -1 else j + 1
                if depth <= 0:
                    break
                continue
            if code[j] == "<":
                depth += 1
                close = code.find(">", j)
                if close == -1:
                    j = len(code)
                    break
                if code[close - 1] == "/":
                    depth -= 1
                j = close + 1
                if depth <= 0:
                    break
                continue
            j += 1
        spans.append((i, j))
    return spans


def remove_comments(code: str, *, keep_docstrings: bool = True, profile: str = "omniroute") -> CommentRemoval:
    """Remove the comments of ``code`` that OmniRoute's TypeScript-based remover removes."""
    scan = _Scanner(code).run()
    tokens, comments = scan.tokens, scan.comments
    if not comments:
        return CommentRemoval(code, 0, 0, False)
    flags = classify(tokens)
    operand_before = [True] * len(tokens)
    for k in range(1, len(tokens)):
        p = tokens[k - 1]
        operand_before[k] = not (p.kind in ("num", "str", "regex") or (p.kind == "name" and (
            p.value not in _RESERVED or p.value in _VALUE_KEYWORDS)) or p.value in (")", "]", "}")
            or (p.kind == "tmpl" and not p.value.endswith("${")))
    jsx_starts = _find_jsx(tokens, operand_before)
    diagnostics: list[Diagnostic] = []
    if jsx_starts:
        if profile != "strict":
            diagnostics.append(Diagnostic("the block contains JSX (or a `<T>x` type assertion), so no comment was "
                                          "removed", "info", "RTK-Q33", source="rtk"))
            return CommentRemoval(code, 0, len(comments), True, diagnostics)
        spans = _jsx_spans(code, tokens, jsx_starts)
    else:
        spans = []

    remove: set[int] = set()
    if profile == "strict":
        remove = {n for n, c in enumerate(comments) if not any(a <= c.start < b for a, b in spans)}
    else:
        remove = _attached(code, tokens, flags, comments)
    if keep_docstrings:
        remove = {n for n in remove if not comments[n].text.startswith("/**")}
    kept_unattached = sum(1 for n, c in enumerate(comments)
                          if n not in remove and not (keep_docstrings and c.text.startswith("/**")))
    if kept_unattached and profile != "strict":
        diagnostics.append(Diagnostic(f"{kept_unattached} comment(s) attached to no syntax node were kept (after "
                                      "`{`, `,`, `:`, a declaration's `=`, or before a closing bracket)", "info",
                                      "RTK-Q32", source="rtk"))
    pieces, last = [], 0
    for n in sorted(remove):
        c = comments[n]
        pieces.append(code[last:c.start])
        last = c.end
    pieces.append(code[last:])
    return CommentRemoval("".join(pieces), len(remove), len(comments), bool(jsx_starts), diagnostics)


def _attached(code: str, tokens: list[Token], flags: list[int], comments: list[Comment]) -> set[int]:
    """Comments that are leading comments of a node-starting token or trailing comments of a
    node-ending token (TypeScript's comment-range scans)."""
    remove: set[int] = set()
    ci = 0
    # (gap start, gap end, index of the token before the gap, the token after it)
    bounds: list[tuple[int, int, int | None, Token | None]] = [
        (0, tokens[0].start if tokens else len(code), None, tokens[0] if tokens else None)]
    for k, t in enumerate(tokens):
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        bounds.append((t.end, nxt.start if nxt else len(code), k, nxt))
    for gap_start, gap_end, before, _after in bounds:
        gap_comments = []
        while ci < len(comments) and comments[ci].start < gap_end:
            if comments[ci].start >= gap_start:
                gap_comments.append(ci)
            ci += 1
        if not gap_comments:
            continue
        after_index = (before + 1) if before is not None else 0
        starts_next = after_index >= len(tokens) or flags[after_index] & START  # the EOF token starts a node
        ends_prev = before is not None and flags[before] & END
        if before is None:
            remove.update(gap_comments)  # the source file's leading comments: the whole stretch
            continue
        # Trailing scan: comments before the first line break outside comments.
        # Leading scan: comments after that line break.
        pos = gap_start
        seen_break = False
        for n in gap_comments:
            c = comments[n]
            if not seen_break and any(ch in "\n\r" for ch in code[pos:c.start]):
                seen_break = True
            if (not seen_break and ends_prev) or (seen_break and starts_next):
                remove.add(n)
            pos = c.end
    return remove
