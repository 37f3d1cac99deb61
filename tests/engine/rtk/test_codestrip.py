"""Code-block stripping (rtk.md §7.4) and token-level JS/TS comment removal (§7.4.1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rtk.codestrip import detect_language, strip_code_blocks
from engine.rtk.engine import process_rtk_text
from engine.rtk.jscomments import remove_comments


def strip(code: str, **kw) -> str:
    return remove_comments(code, **kw).text


def test_blank_lines_and_trailing_blanks_go_and_the_block_counts():
    out = strip_code_blocks("```go\n\tx := 1\t\t\n\n\ty := 2 \t\n```")
    assert out.text == "```go\n\tx := 1\n\ty := 2\n```" and out.changed


def test_unlabelled_block_gains_the_detected_label():
    out = strip_code_blocks("```\ndef add(a, b):\n    return a + b\n```\n")
    assert out.text == "```python\ndef add(a, b):\n    return a + b\n```\n"
    assert "RTK-Q34" in [d.code for d in out.diagnostics]


def test_compact_block_without_change_is_untouched():
    text = "```js\nconst a = 1;```"
    assert strip_code_blocks(text).text == text


def test_crlf_code_loses_its_line_feeds_in_omniroute_only():
    text = "```js\r\nconst a = 1;\r\n\r\nconst b = 2;\r\n```"
    assert strip_code_blocks(text).text == "```js\nconst a = 1;\rconst b = 2;\r\n```"
    assert strip_code_blocks(text, profile="strict").text == "```js\r\nconst a = 1;\nconst b = 2;\n```"


@pytest.mark.parametrize("code,language", [
    ("interface A { x: number }\ntype B = A;", "typescript"),
    ("import math\nprint(1)", "javascript"),  # RTK-Q30: JS is tested before Python
    ("def f(x):\n  return x", "python"),
    ("fn main() {}", "rust"),
    ("func main() {}", "go"),
    ("class Foo {}", "java"),
    ("puts 1", "ruby"),
    ("SELECT 1", "unknown"),
])
def test_language_detection_order(code, language):
    assert detect_language(code) == language


def test_comments_only_for_js_ts_and_only_when_stripCodeComments_is_true():
    text = "```py\nx = 1  # one\n```"
    assert "# one" in strip_code_blocks(text, strip_comments=True).text
    js = "```js\nlet a = 1; // one\n```"
    assert "// one" in strip_code_blocks(js, strip_comments="true").text
    assert "// one" not in strip_code_blocks(js, strip_comments=True).text


@pytest.mark.parametrize("code,expected", [
    ("// top\nlet a = 1; // after semicolon\n", "\nlet a = 1; \n"),
    ("if (a) { // guard\n  b();\n  // last\n}\n", "if (a) { // guard\n  b();\n  // last\n}\n"),
    ("f(a, // first\n  b); // call\n", "f(a, // first\n  b); \n"),
    ("const v = // decl\n  5;\nw = // assign\n  6;\n", "const v = // decl\n  5;\nw = \n  6;\n"),
    ('const u = "a // b"; /* c */\n', 'const u = "a // b"; \n'),
    ("const r = /\\/\\/+/g; // re\n", "const r = /\\/\\/+/g; \n"),
    ("const t = `a ${x /* in */} b`;\n", "const t = `a ${x } b`;\n"),
    ("#!/usr/bin/env node\n// entry\nmain();\n", "#!/usr/bin/env node\n\nmain();\n"),
    ("let a = 1; /* open\nlet b = 2;\n", "let a = 1; "),
    ("type S = Map<string, number>; // m\n", "type S = Map<string, number>; \n"),
    ("export const first = <T,>(xs: T[]): T => xs[0]; // head\n",
     "export const first = <T,>(xs: T[]): T => xs[0]; \n"),
])
def test_comment_attachment(code, expected):
    assert strip(code, keep_docstrings=False) == expected


def test_docstrings_are_kept_by_default():
    code = "/** doc */\nfunction f() {}\n/* plain */\nf();\n"
    assert strip(code) == "/** doc */\nfunction f() {}\n\nf();\n"


def test_jsx_disables_removal_in_omniroute_and_strict_removes_outside_it():
    code = "// list\nconst L = () => <ul>{/* in */}</ul>; // render\n"
    omni = remove_comments(code)
    assert omni.text == code and [d.code for d in omni.diagnostics] == ["RTK-Q33"]
    strict = remove_comments(code, profile="strict").text
    assert "// list" not in strict and "{/* in */}" in strict


def test_strict_removes_unattached_comments():
    code = "const o = { // open\n  a: 1, // one\n};\n"
    assert "RTK-Q32" in [d.code for d in remove_comments(code).diagnostics]
    assert remove_comments(code, profile="strict").text == "const o = { \n  a: 1, \n};\n"


def test_engine_step_tags_and_trace_note():
    from engine.rtk.trace import Trace

    trace = Trace()
    result = process_rtk_text("see:\n```js\nlet a = 1; // x\n```\n", None,
                              {"enabled": True, "applyToCodeBlocks": True, "stripCodeComments": True}, trace=trace)
    assert "rtk-code-strip" in result.techniques_used and "// x" not in result.text
    step = next(s for s in trace.steps if s.stage == "rtk:code-strip")
    assert "1 comment(s) removed" in step.note


_PIECES = ["const a = 1;", "f(x, y)", "// note", "/* block */", "/** doc */", "\n", "  ", "{", "}", "return b",
           '"s // t"', "`t ${x} u`", "x = y / 2", "/re+/g.test(s)", "if (a)", "=>", "a ? b : c", "[1, 2]"]


@given(st.lists(st.sampled_from(_PIECES), max_size=25), st.booleans(), st.sampled_from(["omniroute", "strict"]))
def test_removal_only_cuts_whole_comments(pieces, keep_docs, profile):
    code = " ".join(pieces)
    out = remove_comments(code, keep_docstrings=keep_docs, profile=profile)
    # the result is the code with some of the scanner's comment spans cut out, nothing else
    from engine.rtk.jscomments import _Scanner

    comments = _Scanner(code).run().comments
    rebuilt, pos = [], 0
    kept = out.text
    for c in comments:
        rebuilt.append(code[pos:c.start])
        pos = c.end
    rebuilt.append(code[pos:])
    assert sum(map(len, rebuilt)) <= len(kept) <= len(code)
    assert out.removed <= out.found == len(comments)
    if profile == "strict" and not out.jsx and not keep_docs:
        assert kept == "".join(rebuilt)


# Expected values below were checked against TypeScript 6.0.3's comment ranges (the reference's
# parser), one comment inserted at a time into small programs.
@pytest.mark.parametrize("code,expected", [
    ("export\n// X\ninterface I {}\n", "export\n// X\ninterface I {}\n"),  # `interface` starts no node
    ("export\n// X\nconst a = 1;\n", "export\n\nconst a = 1;\n"),  # the variable list does
    ("break // X\n;\n", "break // X\n;\n"),  # `;` on the next line still ends `break`
    ("throw // X\nnew Error();\n", "throw \nnew Error();\n"),
    ("class C {\n  store = new Map() /* X */;\n}\n", "class C {\n  store = new Map() ;\n}\n"),
    ("class C {\n  constructor /* X */(a) {}\n  get /* X */ v() { return 1; }\n}\n",
     "class C {\n  constructor /* X */(a) {}\n  get /* X */ v() { return 1; }\n}\n"),
    ("const o = { ... /* X */rest };\n", "const o = { ... /* X */rest };\n"),
    ("i\n// X\n--;\n", "i\n\n--;\n"),  # no postfix `--` after a line break
    ("@Dec({ a: 1 })\n// X\nclass K { @In() /* X */ name = 1; }\n",
     "@Dec({ a: 1 })\n// X\nclass K { @In()  name = 1; }\n"),
    ("class K { m(v: T): void /* X */ {} }\n", "class K { m(v: T): void  {} }\n"),
    ("let v = <const T,>(x: T) => x; // X\n", "let v = <const T,>(x: T) => x; \n"),  # not JSX
    ("do {\n  n--;\n}\n// X\nwhile (n > 0);\n", "do {\n  n--;\n}\n// X\nwhile (n > 0);\n"),
    ("export * /* X */ from './x';\n", "export * /* X */ from './x';\n"),
    ("type U =\n// X\n  | 'a'\n  | 'b';\n", "type U =\n\n  | 'a'\n  | 'b';\n"),  # a leading `|` starts the union
    ("type C<T> = T extends string ? /* X */ 's' : 'n';\n", "type C<T> = T extends string ? /* X */ 's' : 'n';\n"),
    ("class G<T extends object = /* X */ {}> {}\n", "class G<T extends object = /* X */ {}> {}\n"),
    ("function* g() { yield // X\n}\n", "function* g() { yield \n}\n"),
    ("const c = a?.\n// X\n[d];\n", "const c = a?.\n// X\n[d];\n"),
])
def test_comment_attachment_matches_typescript(code, expected):
    assert strip(code, keep_docstrings=False) == expected
