"""engine.jsregex.facts / literals / variants / subject: what every match of a pattern looks like,
read from the parsed pattern; checked against the matches the layer itself finds."""

from __future__ import annotations

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.jsregex import JSSyntaxError, compile_js, pattern_facts
from engine.jsregex.emitter import NATIVE_SPACE_EXCEPTIONS
from engine.jsregex.facts import UNKNOWN
from engine.jsregex.literals import required_any
from engine.jsregex.subject import canonicalize
from engine.jsregex.translate import parsed_root, translate
from engine.jsregex.unicode_data import canon_table
from engine.jsregex.variants import after_line_break, specialised
from engine.jsvalues import to_utf16_units


@pytest.mark.parametrize(("source", "prefix"), [
    ("^FAILED ", "FAILED "), ("^E\\s+", "E"), ("^\\.", "."), ("^\\s*$", ""), ("^ab?c", "a"),
    ("^a|b", ""), ("^(?:x)y", "xy"), ("^abc{2}", "abcc"), ("x^", ""), ("(^a)", ""),
])
def test_anchored_prefix(source, prefix):
    assert pattern_facts(source).anchored_prefix == prefix


def test_anchored_prefix_is_in_subject_units():
    """Folded under ``i`` (the layer's canonical case), UTF-16 units without ``u``."""
    assert pattern_facts("^fail", "i").anchored_prefix == canonicalize("fail", False)
    assert pattern_facts("^\U0001F600x").anchored_prefix == "\ud83d\ude00x"
    assert pattern_facts("^\U0001F600x", "u").anchored_prefix == "\U0001F600x"


@pytest.mark.parametrize(("source", "only"), [("^FAILED ", True), ("^(?:ab)c", True), ("^ab+", False), ("^", False)])
def test_anchored_literal_only(source, only):
    assert pattern_facts(source).anchored_literal_only is only


@pytest.mark.parametrize(("source", "head"), [
    ("^FAILED", "FA"), ("^E\\s+", "E"), ("^k+s", "k"), ("^\\.{2,}x", "."), ("^=+\\s", "="), ("^a?b", ""),
    ("^(\\S+\\.py) x", ""), ("a", ""), ("^ab|c", ""),
])
def test_line_head(source, head):
    assert pattern_facts(source).line_head == head


@pytest.mark.parametrize(("source", "literals"), [
    ("^\\S+\\.py:\\d+: ", (".py:", ": ")), ("x(?:y)z+w", ("xyz", "zw")), ("a|b", ()), ("ab+c", ("ab", "bc")),
    ("(x)yz[ab]qq", ("xyz", "qq")), ("^\\s{2}\\S+", ()), ("^commit [0-9a-f]{7,40}", ("commit ",)),
    ("colou?r", ("colo", "r")), ("[a\\]b]cd", ("cd",)), ("^(\\S+\\.py) ([.sxFE]+)\\s+\\[", (".py ", "[")),
    ("(?<n>ab)c", ("abc",)), ("((a)b)c", ("abc",)), ("(?=ab)c", ("c",)), ("a(?<=b)c", ("a", "c")),
    ("(a|b)c", ("c",)), ("(ab)?c", ("c",)), ("(ab)+c", ("ab", "c")), ("(ab){2}c", ("ab", "c")),
    # escapes are the characters they stand for, read by the parser (no source spelling left over)
    ("\\u2717 done", ("\u2717 done",)), ("a\\x41bc", ("aAbc",)), ("\\cJx\\p{L}ab\\k<n>yz", ("\nxp{L}abk<n>yz",)),
    ("a{20}", ("a" * 16,)), ("^#{2,}", ("##",)),
])
def test_required_literals(source, literals):
    assert pattern_facts(source).required_literals == literals


@pytest.mark.parametrize(("source", "dot_all", "local"), [
    ("^\\[warn\\] (?!Code style issues)", False, True), ("b(?!c)", False, True), ("(?<=a)b", False, True),
    ("^(?!rsync|\\S+: )[^\\s:]+$", False, True), ("a(?=.)", False, True), ("a(?=.)", True, False),
    ("x(?=\\s*y)", False, False), ("x(?![^y])", False, False), ("(?<=\\n)a", False, False),
    ("(?=\\x41)", False, True), ("(?<=[\\t-~])a", False, False), ("(?=\\W)", False, False),
    ("(?=(a)\\1)", False, False), ("(?=[\\w.-])", False, True), ("no lookaround", False, True),
    ("(?=\\u2028)", False, False), ("(?=a(?!\\r))", False, False),
])
def test_lookarounds_line_local(source, dot_all, local):
    assert pattern_facts(source, "s" if dot_all else "").lookarounds_line_local is local


@pytest.mark.parametrize(("source", "parts"), [
    ("^a|b", ("^a", "b")), ("a(b|c)", ()), ("[|]x|y", ("[|]x", "y")), ("(a)|\\1", ()), ("a\\|b", ()),
    ("x|", ("x", "")), ("(?<n>a)|\\k<n>", ()), ("error|fail(?:ed|ure)", ("error", "fail(?:ed|ure)")),
    ("\U0001F600|x", ("\U0001F600", "x")),
])
def test_alternatives(source, parts):
    assert pattern_facts(source).alternatives == parts


@pytest.mark.parametrize(("source", "parts"), [
    ("(?:^|\\|\\s)\\w*(?:Error|Exception)\\b", ("^\\w*(?:Error|Exception)\\b", "\\|\\s\\w*(?:Error|Exception)\\b")),
    ("(a|b)+c", ()), ("(a|b)c\\1", ()), ("(?:a)b", ()), ("(?=a|b)c", ()), ("(a|b)", ("a", "b")),
    ("(?<n>a|b)c", ("ac", "bc")), ("(?:a|b)c|d", ()), ("(?:a|(b|c))d", ("ad", "(b|c)d")),
])
def test_leading_group_alternatives(source, parts):
    assert pattern_facts(source).leading_group_alternatives == parts


@pytest.mark.parametrize(("source", "alternation"), [("a|b", True), ("(?:a|b)", False), ("(?:a|b)|c", True),
                                                     ("[|]", False), ("a\\|b", False)])
def test_alternation_is_a_bar_outside_every_group(source, alternation):
    assert pattern_facts(source).alternation is alternation


def test_invalid_patterns_raise_and_refused_ones_claim_nothing():
    with pytest.raises(JSSyntaxError):
        pattern_facts("a(")
    assert pattern_facts("(" * 6000 + ")" * 6000) is UNKNOWN


# --------------------------------------------------------------------------- invariants

# Atoms that parse on their own in any order: literal runs, classes, escapes, groups, repeats,
# lookarounds, anchors, and a bar now and then (top-level alternation).
ATOMS = st.sampled_from([
    "a", "b", "ab", "x", "\\.", ":", " ", "[a-c]", "[^a]", "\\s", "\\S+", "\\d", ".", "(?:a|bc)", "(x)",
    "(?<n>ab)", "y+", "a{2}", "b{1,3}", "q?", "(ab)+", "(?=a)", "(?!b)", "(?<=a)", "\\b", "^", "$", "|",
    "\\n", "a*", "(?:^|:)", "\u00e9", "\u017f", "K", "\U0001F600",
    # alternations of words and optional words (stretches of known texts: literals.required_any)
    "(?:ab|cd)", "(?:xy)?", "(?:a|)", "abc", "(?:abc|d(?=a)e)", "(?:c|de){1}",
])
PATTERN = st.lists(ATOMS, min_size=1, max_size=6).map("".join)
SUBJECT = st.lists(st.sampled_from([*"abcdexyqK:. \n\t1", "ab", "aab", "cd", "de", "abcd", "\u00e9", "\u00c9", "\u017f", "\U0001F600",
                                    "\r", "\u2028"]), max_size=14).map("".join)
FLAGS = st.sampled_from(["", "i", "m", "im", "s", "u", "iu"])


def _matches(source, flags, subject):
    try:
        rx = compile_js(source, flags + "g")
    except JSSyntaxError:
        return None
    return rx.match_all(subject)


def _units(text, flags):
    """A match's text as the facts' literals spell it: UTF-16 units without u, folded under i."""
    unicode = "u" in flags
    units = text if unicode else to_utf16_units(text)
    return canonicalize(units, unicode) if "i" in flags else units


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PATTERN, FLAGS, SUBJECT)
def test_every_match_holds_the_required_literals_and_starts_as_the_facts_say(source, flags, subject):
    found = _matches(source, flags, subject)
    if found is None:
        return
    facts = pattern_facts(source, flags)
    for m in found:
        text = _units(m.match, flags)
        for literal in facts.required_literals:
            assert literal in text, (literal, m.match)
        if facts.line_anchored:
            assert text.startswith(facts.anchored_prefix)
            assert text.startswith(facts.line_head)
        if facts.stays_on_line:
            assert not any(c in m.match for c in "\n\r\u2028\u2029")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PATTERN, st.sampled_from(["", "i"]), SUBJECT)
def test_every_match_holds_one_of_the_required_any_literals(source, flags, subject):
    _assert_every_match_holds_a_required_literal(source, flags, subject)


def _assert_every_match_holds_a_required_literal(source: str, flags: str, subject: str) -> None:
    found = _matches(source, flags, subject)
    if not found:
        return
    literals = required_any(parsed_root(source, flags))
    if literals is None:
        return
    for m in found:
        assert any(literal in _units(m.match, flags) for literal in literals), (literals, m.match)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PATTERN, st.sampled_from(["", "i", "m"]), SUBJECT)
def test_a_subject_matches_the_whole_exactly_when_it_matches_one_part(source, flags, subject):
    try:
        whole = compile_js(source, flags)
    except JSSyntaxError:
        return
    facts = pattern_facts(source, flags)
    for parts in (facts.alternatives, facts.leading_group_alternatives):
        if parts:
            assert whole.test(subject) == any(compile_js(p, flags).test(subject) for p in parts), parts


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PATTERN, st.sampled_from(["m", "im", "ms"]), st.lists(SUBJECT, min_size=1, max_size=4))
def test_specialised_forms_find_the_same_matches_on_lf_only_text(source, flags, lines):
    try:
        t = translate(source, flags)
    except JSSyntaxError:
        return
    text = "\n".join(line.replace("\r", "").replace("\u2028", "").replace("\x85", "").replace("\ufeff", "")
                     for line in lines)
    target = _units(text, flags)
    spans = [m.span() for m in t.compiled.finditer(target)]
    for native_space in (False, True):
        fast = specialised(source, flags, lf_only=True, native_space=native_space)
        assert [m.span() for m in fast.finditer(target)] == spans
    shifted = after_line_break(source, flags, native_space=True)
    if shifted is None:
        assert not pattern_facts(source, flags).line_anchored
        return
    # every match is at a line start: the \n-led form finds the same lines (its match starts one
    # unit early, on the LF before the line)
    line_starts = {m.start() for m in t.compiled.finditer(target, overlapped=True)}
    found = {m.start() for m in shifted.finditer("\n" + target, overlapped=True)}
    assert found == line_starts


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=40), st.booleans())
def test_canonicalize_matches_the_regex_layer_table(text, unicode_mode):
    assert canonicalize(text, unicode_mode) == text.translate(canon_table(unicode_mode))


@pytest.mark.parametrize("flags", ["", "i", "m", "im", "g"])
@pytest.mark.parametrize("source", ["\\s", "\\S", "\\s+\\S*", "^\\S+\\s(\\S)", "[\\s]", "[\\S]x", "a\\s{2,3}?b"])
def test_native_space_translation_is_exact_without_the_two_exceptions(source, flags):
    """``emitted_native_space`` uses `regex`'s own \\s/\\S; on every code point but U+0085 and
    U+FEFF it answers as the JavaScript classes the layer spells out."""
    translation = translate(source, flags)
    assert translation.emitted_native_space is not None
    exact = regex.compile(translation.emitted, regex.VERSION0)
    native = regex.compile(translation.emitted_native_space, regex.VERSION0)
    samples = [chr(c) for c in range(0x3100) if chr(c) not in NATIVE_SPACE_EXCEPTIONS]
    samples += ["\ud800", "\udfff", "\uffff", "\U0001F600"]
    for ch in samples:
        for subject in (ch, f"x{ch}y", f"a{ch}{ch}b", f"{ch} {ch}"):
            left, right = exact.search(subject), native.search(subject)
            assert (left and left.span()) == (right and right.span()), (source, hex(ord(ch[0])))
    assert translate(source, flags + "u").emitted_native_space is None  # code-point mode: not used


def test_no_native_space_translation_without_such_a_class():
    assert translate("[^\\s:]+", "").emitted_native_space is None
    assert translate("[\\s\\S]", "").emitted_native_space is None
    assert translate("abc", "i").emitted_native_space is None


# patterns made of the stretches ``required_any`` joins (words, alternations of words, optional
# words, zero-width items), on subjects made of the same words: matches are frequent
STRETCH_ATOMS = st.sampled_from(["ab", "cd", "(?:ab|cd)", "(?:x|yz)?", "(?:ab)?", "\\b", "(?=a)", "(?<=b)", " ",
                                 "q", "(?:c|de)", "(a|)", "\\s*", "[ab]"])
STRETCH_SUBJECT = st.lists(st.sampled_from(["ab", "cd", "x", "yz", " ", "q", "de", "c", "a", "b"]),
                           max_size=16).map("".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STRETCH_ATOMS, min_size=1, max_size=7).map("".join), st.sampled_from(["", "i"]), STRETCH_SUBJECT)
def test_every_match_holds_one_of_the_texts_of_a_stretch(source, flags, subject):
    _assert_every_match_holds_a_required_literal(source, flags, subject)
