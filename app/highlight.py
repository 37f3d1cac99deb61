"""Syntax colouring that never blocks: pygments off-thread, formats applied to visible lines only.

``QSyntaxHighlighter`` re-highlights the whole document in one go on load (hundreds of ms for a
2 MB file, even with a cache), so the JSON view uses :class:`LazyHighlighter` instead: pygments
lexes in a worker (the whole text for small files, Spyder's ``PygmentsSH`` approach; only the
lines that scroll into view for big ones), results are cached per line text, and formats are
set on the layouts of the blocks on screen. Offsets are converted to UTF-16 (IDE-Q2).

:class:`PatternHighlighter` colours the JS regex in the visual editor's pattern fields.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextLayout
from PySide6.QtWidgets import QPlainTextEdit

from app.theme import Tints, tints
from app.timers import single_shot
from app.workers import Dispatcher
from engine.jsregex.colouring import tokenize

WHOLE_TEXT_LIMIT = 256 * 1024  # lex whole documents up to this size, otherwise line by line
MAX_LINE = 4000  # longer lines are not coloured (pygments on a 1 MB line would take seconds)

Span = tuple[int, int, str]  # UTF-16 start, UTF-16 length, token kind


def _kind_of(ttype) -> str | None:
    from pygments import token as T

    if ttype in T.Name.Tag:
        return "key"
    if ttype in T.String:
        return "string"
    if ttype in T.Number:
        return "number"
    if ttype in T.Keyword or ttype in T.Name.Builtin or ttype in T.Keyword.Constant:
        return "keyword"
    if ttype in T.Punctuation or ttype in T.Operator:
        return "punct"
    if ttype in T.Comment:
        return "comment"
    if ttype in T.Name:
        return "key"
    return None


def _lexer(name: str):
    from pygments.lexers import JsonLexer, TOMLLexer

    return TOMLLexer() if name == "toml" else JsonLexer()


def _spans_of_line(tokens: Iterable[tuple[int, object, str]], line_start: int, line: str) -> list[Span]:
    out: list[Span] = []
    ascii_line = line.isascii()
    for index, ttype, value in tokens:
        kind = _kind_of(ttype)
        if kind is None or not value:
            continue
        start = index - line_start
        if ascii_line:
            out.append((start, len(value), kind))
        else:
            s16 = len(line[:start].encode("utf-16-le", "surrogatepass")) // 2
            out.append((s16, len(value.encode("utf-16-le", "surrogatepass")) // 2, kind))
    return out


def lex_text(lexer_name: str, text: str) -> dict[str, list[Span]]:
    """Lex a whole text once; map each line's text to its spans (worker thread)."""
    lexer = _lexer(lexer_name)
    out: dict[str, list[Span]] = {}
    line_start = 0
    lines = text.split("\n")
    starts = []
    for line in lines:
        starts.append(line_start)
        line_start += len(line) + 1
    per_line: list[list[tuple[int, object, str]]] = [[] for _ in lines]
    li = 0
    for index, ttype, value in lexer.get_tokens_unprocessed(text):
        # split tokens that span lines (whitespace with newlines, TOML multi-line strings)
        pos = index
        for piece in value.split("\n"):
            while li + 1 < len(starts) and starts[li + 1] <= pos:
                li += 1
            if piece:
                per_line[li].append((pos, ttype, piece))
            pos += len(piece) + 1
    for i, line in enumerate(lines):
        if line not in out and len(line) <= MAX_LINE:
            out[line] = _spans_of_line(per_line[i], starts[i], line)
    return out


def lex_lines(lexer_name: str, lines: list[str]) -> dict[str, list[Span]]:
    lexer = _lexer(lexer_name)
    out: dict[str, list[Span]] = {}
    for line in lines:
        if line in out:
            continue
        if len(line) > MAX_LINE:
            out[line] = []
            continue
        out[line] = _spans_of_line(lexer.get_tokens_unprocessed(line), 0, line)
    return out


def char_formats(t: Tints) -> dict[str, QTextCharFormat]:
    def fmt(color: str, bold: bool = False, italic: bool = False) -> QTextCharFormat:
        f = QTextCharFormat()
        f.setForeground(QColor(color))
        if bold:
            f.setFontWeight(QFont.Weight.DemiBold)
        if italic:
            f.setFontItalic(True)
        return f

    return {"key": fmt(t.key), "string": fmt(t.string), "number": fmt(t.number),
            "keyword": fmt(t.keyword, bold=True), "punct": fmt(t.punct), "comment": fmt(t.punct, italic=True)}


class LazyHighlighter(QObject):
    """Colours the visible lines of a ``QPlainTextEdit`` from a pygments cache built off-thread."""

    def __init__(self, editor: QPlainTextEdit, lexer_name: str = "json") -> None:
        super().__init__(editor)
        self.editor = editor
        self.lexer_name = lexer_name
        self.applying = False  # True while we set formats: contentsChange from that is not an edit
        self._cache: dict[str, list[Span]] = {}
        # Which formats a block carries is kept on the block itself (its userState: the id of the
        # text they were made for). Keyed by block number, as before, a new text whose line N
        # equals the old line N (a template load, an undo across lines) kept "applied" although
        # Qt had made a new block without formats: colouring dropped on those lines.
        self._text_ids: dict[str, int] = {}
        self._next_id = 0
        self._formats = char_formats(tints())
        self._requested: set[str] = set()
        self._dispatcher = Dispatcher(self)
        self._dispatcher.finished.connect(self._on_lexed)
        self._timer = single_shot(self, 15, self.apply_visible)
        editor.updateRequest.connect(lambda *_: self._timer.start())
        editor.document().contentsChange.connect(self._on_contents_change)
        self.passes = 0

    def _id_of(self, text: str) -> int:
        found = self._text_ids.get(text)
        if found is None:
            self._next_id += 1  # never reused: a block marked before a reset never matches again
            found = self._text_ids[text] = self._next_id
        return found

    @Slot(int, int, int)
    def _on_contents_change(self, pos: int, _removed: int, added: int) -> None:
        """Edited blocks lose their mark (their formats no longer fit their text)."""
        if self.applying:
            return
        doc = self.editor.document()
        block = doc.findBlock(pos)
        last = doc.findBlock(pos + added)
        while block.isValid():
            block.setUserState(-1)
            if block == last:
                break
            block = block.next()

    def reset(self, text: str | None = None) -> None:
        """New document text (or theme): forget applied formats; lex whole small texts at once."""
        self._text_ids.clear()
        self._formats = char_formats(tints())
        if text is not None and len(text) <= WHOLE_TEXT_LIMIT:
            self._dispatcher.request(lex_text, self.lexer_name, text)
        self._timer.start()

    def set_lexer(self, name: str) -> None:
        if name != self.lexer_name:
            self.lexer_name = name
            self._cache.clear()
            self._requested.clear()
            self.reset()

    def is_cached(self, line: str) -> bool:
        return line in self._cache

    @Slot(int, object)
    def _on_lexed(self, _job: int, result: dict[str, list[Span]]) -> None:
        if len(self._cache) > 200_000:
            self._cache.clear()
            self._text_ids.clear()
        self._cache.update(result)
        self._requested.difference_update(result)
        self.apply_visible()

    @Slot()
    def apply_visible(self) -> None:
        editor = self.editor
        doc = editor.document()
        block = editor.firstVisibleBlock()
        if not block.isValid():
            return
        self.passes += 1
        height = editor.viewport().height()
        offset = editor.contentOffset()
        missing: list[str] = []
        changed = False
        self.applying = True
        try:
            while block.isValid():
                top = editor.blockBoundingGeometry(block).translated(offset).top()
                if top > height:
                    break
                text = block.text()
                spans = self._cache.get(text)
                if spans is None:
                    if text not in self._requested:
                        missing.append(text)
                elif block.userState() != (mark := self._id_of(text)):
                    ranges = []
                    for start, length, kind in spans:
                        r = QTextLayout.FormatRange()
                        r.start, r.length, r.format = start, length, self._formats[kind]
                        ranges.append(r)
                    block.layout().setFormats(ranges)
                    doc.markContentsDirty(block.position(), block.length())
                    block.setUserState(mark)
                    changed = True
                block = block.next()
        finally:
            self.applying = False
        if missing:
            self._requested.update(missing)
            self._dispatcher.request(lex_lines, self.lexer_name, missing)
        if changed:
            editor.viewport().update()


class PatternHighlighter(QSyntaxHighlighter):
    """JS regex colouring for one-line pattern editors (tokens from ``colouring``, UTF-16)."""

    def __init__(self, document) -> None:
        super().__init__(document)
        t = tints()
        self._formats = {}
        for kind, color in (("escape", t.regex_escape), ("class", t.regex_class), ("group", t.regex_group),
                            ("quantifier", t.regex_quant), ("anchor", t.regex_anchor),
                            ("alternation", t.regex_quant), ("backref", t.regex_group)):
            f = QTextCharFormat()
            f.setForeground(QColor(color))
            if kind in ("group", "quantifier", "alternation"):
                f.setFontWeight(QFont.Weight.Bold)
            self._formats[kind] = f

    def highlightBlock(self, text: str) -> None:
        for token in tokenize(text):
            self.setFormat(token.start, token.length, self._formats[token.kind])
