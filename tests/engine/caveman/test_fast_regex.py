"""FastRegex must give exactly engine.jsregex's results, on texts large enough to be planned."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caveman.fast import FastRegex, occurrences, plan_for
from engine.caveman.preservation import PATTERN_KINDS
from engine.jsregex import compile_js

WORDS = ("please", "Please", "the", "The", "a", "an", "really", "very", "basically", "I'd", "id", "be", "happy",
         "to", "help", "x.y(", "foo(bar)", "MAX_RETRY", "v1.2.3", "2.4.1", "`code`", "http://a.io/x",
         "HTTPS://b.io", "xhttps://c", "://", "ttp://",
         "./src/a.ts", "$HOME", "# Head", "| a |", "\n", "\n\n", ",", ".", "é", "ünï", "\u2028", "  ", "\t")
ODD = ("ß", "ſ", "ı", "\u212a", "😀", "\ud83d")  # canonical-case oddities, an astral char, a lone surrogate

PATTERNS = [
    (r"\b(?:please|kindly|could you please)\b\s*", "gi"),
    (r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])", "g"),
    (r"(?<!make\s)(?<!be\s)\b(?:i'?d be happy to|happy to|sure)\b[,.!?\s]*", "gi"),
    (r"^(?:i'?d|let me)\s+(?=[a-z])", "gim"),
    (r"^(?:really|basically)\s*", "gi"),
    (r"(?:^|\s)(\.{0,2}/[\w./\-]+)", "g"),
    (r"\b(?:very|really)\s+", "i"),
    (r"x*", "g"),
    (r"(?=a)|b", "g"),
    (r"[.,]\s*", "g"),
    (r"\b(?:strasse|ſun|kelvin)\b", "gi"),
    (r"\b(?:pleaſe|happy)\b", "giu"),
    (r"[\s\S]", "g"),
] + [(k.source, k.flags) for k in PATTERN_KINDS]


def big_text(seed: int, size: int = 6000, odd: bool = False) -> str:
    rng = random.Random(seed)
    words = WORDS + ODD if odd else WORDS
    out, n = [], 0
    while n < size:
        w = rng.choice(words)
        out.append(w + rng.choice(("", " ", " ", " ")))
        n += len(out[-1])
    return "".join(out)


@pytest.mark.slow
@pytest.mark.parametrize("seed, odd", [(0, False), (1, False), (2, False), (3, True), (4, True), (5, True)])
def test_planned_and_direct_paths_equal_jsregex(seed, odd):
    text = big_text(seed, odd=odd)
    for source, flags in PATTERNS:
        fast = FastRegex(source, flags)
        for repl in ("<$&>", "", "[$1]", "a\\b\\g<0>\\1"):
            assert fast.replace(text, repl) == compile_js(source, flags).replace(text, repl), (source, flags, repl)
        assert fast.replace(text, lambda m: m.match.upper()) == \
            compile_js(source, flags).replace(text, lambda m: m.match.upper())
        expected = compile_js(source, flags).search(text)
        got = fast.search(text)
        assert (got and (got.index, got.match)) == (expected and (expected.index, expected.match))


def test_kinds_with_their_own_candidate_finders():
    from engine.caveman.preservation import STRICT_OVERRIDES

    text = big_text(11, 20000) + " a.b c$.d e.$f g1.h2.i3() $a.b"
    for kind in (*PATTERN_KINDS, *STRICT_OVERRIDES.values()):
        assert kind.compile().replace(text, "<$&>") == compile_js(kind.source, kind.flags).replace(text, "<$&>")


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=800, max_size=1500))
def test_random_texts(words):
    text = " ".join(words)
    for source, flags in PATTERNS[:7]:
        assert FastRegex(source, flags).replace(text, "_") == compile_js(source, flags).replace(text, "_")


def test_plans():
    assert plan_for(r"\b(?:please|kindly)\b", "gi").anchors == ((frozenset({"PLEASE", "KINDLY"}), 0, 0),)
    # literals sharing six characters scan as their common prefix; an extension of another goes
    assert plan_for(r"\b(?:i would be happy|i would be glad|however|however,)", "gi").anchors == (
        (frozenset({"I WOULD BE ", "HOWEVER"}), 0, 0),)
    assert plan_for(r"^\s*Error:", "g").start == "text"
    assert plan_for(r"x", "gy") is None and plan_for(r"\w+", "g") is None
    assert plan_for(r"(?:^|\s)\.{0,2}/x", "g").anchors == ((frozenset({"/x"}), 0, 3),)
    # a shared tail led by punctuation is searched for once, further in
    assert plan_for(r"\bhttps?:\/\/x", "gi").anchors == ((frozenset({"://X"}), 4, 5),)
    assert plan_for(r"\bhttps?:\/\/[^\s]+", "gi").anchors == ((frozenset({"://"}), 4, 5),)
    assert plan_for(r"\b(?:last word|first word)", "gi").anchors == ((frozenset({"LAST WORD", "FIRST WORD"}), 0, 0),)


def test_occurrences_include_overlaps():
    assert occurrences("aaaa", "aa") == [0, 1, 2]
    assert occurrences("abcab", "ab") == [0, 3]
    assert occurrences("abc", "z") == []


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(("ab", "abc", "x", " ", "b", "ABC", "aab")), min_size=0, max_size=3000),
       st.sampled_from(("ab", "abc", "b", "x ab", "ba", "c")))
def test_occurrences_equal_a_naive_scan(pieces, lit):
    """Sparse, dense and self-overlapping literals."""
    hay = "".join(pieces)
    assert occurrences(hay, lit) == [i for i in range(len(hay)) if hay.startswith(lit, i)]


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab \u00e9\U0001F600"), max_size=60), st.sampled_from(("ab", "b", "\u00e9a", "aa")))
def test_occurrences_equal_a_naive_scan_on_any_text(hay, lit):
    """ASCII and UTF-16 byte views, and the ``str`` search of a text with astral characters."""
    assert occurrences(hay, lit) == [i for i in range(len(hay)) if hay.startswith(lit, i)]


TEMPLATES = ["$1", "$2-$1", "$&$&", "$`|", "|$'", "$$", "$<n>", "$<nope>", "$<n", "$10", "$01", "$0", "$3",
             "plain", "$", "a$", "$$1", "$<"]


@pytest.mark.parametrize("source", [r"(\w)(\w)?", r"(?<n>\w+)\s", r"x(\d)(\d)(\d)(\d)(\d)(\d)(\d)(\d)(\d)(\d)?"])
def test_expand_template_matches_jsregex(source):
    from engine.caveman.apply import expand_template

    text = "ab c😀 x1234567890 é"
    for template in TEMPLATES:
        rx = compile_js(source, "g")
        expected = rx.replace(text, template)
        mine = compile_js(source, "g")
        assert mine.replace(text, lambda m, t=template, r=mine: expand_template(t, m, text, r)) == expected, template


# ---------------------------------------------------------------- the shared literal index

from engine.caveman.apply import RuleRunner  # noqa: E402
from engine.caveman.fast import (  # noqa: E402
    LiteralIndex,
    back_run_candidates,
    digits_before_dot_digit,
    index_literals,
)
from engine.caveman.fast.texts import canonical_uncached  # noqa: E402
from engine.caveman.packs import Rule  # noqa: E402

# Each rule's replacement (or the join a deletion leaves) creates literals that later rules
# look for, and some later literals never occur: the index must notice every creation.
CHAIN = [
    Rule("glue", r"\bglue\s*", replacement="", flags="gi"),  # "pre glue fix" -> "pre fix" ... "prefix" below
    Rule("to_prefix", r"\bpre fix\b", replacement="PREFIX", flags="gi"),
    Rule("make_kindly", r"\bkind ly\b", replacement="kindly", flags="gi"),
    Rule("drop_dash", r"-", replacement="", flags="g"),  # "pl-ease" -> "please" (a join)
    Rule("polite", r"\b(?:please|kindly)\b\s*", replacement="", flags="gi"),
    Rule("prefix", r"\bprefix\b", replacement="[P]", flags="gi"),
    Rule("never", r"\b(?:zebra crossing|quokka)\b", replacement="!", flags="gi"),
    Rule("mapped", r"\b(?:strasse|straße)\b", replacement=None, flags="gi",
         replacement_map={"strasse": "st glue", "straße": "st"}),
    Rule("late_glue", r"\bst glue\b", replacement="ST", flags="gi"),
    Rule("articles", r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])", replacement="", flags="g"),
    Rule("leader", r"^(?:i'?ll|let me)\s+(?=[a-z])", replacement="", flags="gi"),
]
CHAIN_WORDS = ("pre", "glue", "fix", "kind", "ly", "pl-ease", "pl", "ease", "please", "the", "a", "an",
               "strasse", "Straße", "word", "PRE", "Glue", "zebra", "ok", ",", ".", "\n", "é", "ſ", "-")


def chain_text(seed: int, size: int = 80_000) -> str:
    rng = random.Random(seed)
    out, n = [], 0
    while n < size:
        w = rng.choice(CHAIN_WORDS)
        out.append(w + rng.choice((" ", " ", "")))
        n += len(out[-1])
    return "".join(out)


def run_chain(text: str, *, shared: bool) -> tuple[str, list[str]]:
    runner = RuleRunner()
    if shared:
        runner.share_index(CHAIN)
    changed = []
    for rule in CHAIN:
        rx = runner.regexp(rule)
        if shared:
            index = rx.index
            assert index is not None
            absent = index.absent(text)
            hay = canonical_uncached(text)
            assert not [lit for lit in absent if lit in hay], rule.name  # never claims a present literal absent
        if rx.cannot_match(text):
            continue
        run = runner.apply(rule, text)
        if run.changed:
            changed.append(rule.name)
        text = run.after
    return text, changed


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_shared_literal_index_gives_the_plain_results(seed):
    text = chain_text(seed)
    assert len(text) >= LiteralIndex.MIN_LENGTH
    runner = RuleRunner()
    runner.share_index(CHAIN)
    index = runner.regexp(CHAIN[0]).index
    assert "ST GLUE" in index.absent(text)  # "st glue" only appears once the mapped rule wrote it
    with_index = run_chain(text, shared=True)
    assert with_index == run_chain(text, shared=False)
    assert {"to_prefix", "polite", "prefix", "late_glue"} <= set(with_index[1])  # created literals were found


def test_literal_index_tracks_absence_through_rewrites():
    index = LiteralIndex(frozenset({"PLEASE", "QUOKKA", "ZEBRA CROSSING"}))
    assert index.available
    text = "pl ease ok " * 8000
    assert index.absent(text) == {"PLEASE", "QUOKKA", "ZEBRA CROSSING"}
    after = text.replace("pl ease", "please", 1)  # one replacement at 0..6
    index.rewritten(text, after, [(0, 6)])
    assert index.absent(after) == {"QUOKKA", "ZEBRA CROSSING"}
    again = after[:20] + after[21:]  # a deletion at 20 ("pl ease ok pl ease o k ...")
    index.rewritten(after, again, [(20, 20)])
    assert index.absent(again) == {"QUOKKA", "ZEBRA CROSSING"}
    assert index.absent("short text") == frozenset()  # small texts: per-literal scans


def test_index_literals_are_the_case_insensitive_anchors():
    plans = [plan_for(r"\b(?:please|kindly)\b", "gi"), plan_for(r"\bthe\b", "g"), None]
    assert index_literals(plans) == {"PLEASE", "KINDLY"}


# ---------------------------------------------------------------- candidate finders vs regexes

@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("0123456789.a_ é\n"), max_size=60))
def test_digits_before_dot_digit(text):
    expected = [i for i in range(len(text) - 2)
                if text[i] in "0123456789" and text[i + 1] == "." and text[i + 2] in "0123456789"]
    assert digits_before_dot_digit(text) == expected


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("AZaz09_$.( \t\u00a0é"), max_size=60))
def test_back_run_candidates(text):
    word = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
    from engine.caveman.fences import JS_WS

    ident = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$"
    for literal, run, skip, follow in (("_", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", False, None),
                                       ("(", ident + ".", False, None), ("(", ident, True, None),
                                       (".", ident, False, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$"),
                                       ("(", ident, True, "az ."), ("a(", ident, True, "$"),
                                       ("(", "ABCDEFGHIJKLMNOPQRSTUVWXYZ$", False, None)):
        expected = set()
        for i in occurrences(text, literal):  # the plain character walk
            if follow is not None and (i + len(literal) >= len(text) or text[i + len(literal)] not in follow):
                continue
            j = i
            while skip and j > 0 and text[j - 1] in JS_WS:
                j -= 1
            k = j
            while k > 0 and text[k - 1] in run:
                k -= 1
            expected |= {p for p in range(k, j) if (p > 0 and text[p - 1] in word) != (text[p] in word)}
        found = back_run_candidates(literal, frozenset(run), skip_ws=skip,
                                    follow=None if follow is None else frozenset(follow))(text)
        assert found == sorted(expected), (literal, follow)


LINE_BITS = ("|", " | ", "|---|", ":-", "-", "---", ":", "#", "#set x", "#show", " #let y", "## h", "a", "at",
             "Error", "TypeError:", "x", " ", "  ", "\t", "\u00a0", "\n", "\r\n", "\r", "\u2028", "\u2029",
             "/", "./", "../", "...", "c:\\x", "C:\\", "é", "😀")


def _line_starts(text):
    return [p for p in range(len(text) + 1) if p == 0 or text[p - 1] in "\n\r\u2028\u2029"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINE_BITS), max_size=40))
def test_line_lead_candidates_equal_a_walk_of_the_lines(bits):
    from engine.caveman.fast import line_lead_candidates
    from engine.caveman.fences import JS_WS

    text = "".join(bits)
    for leads, blanks in (("|", True), ("|:-", True), ("#", True), ("#", False), ("ETRS", True), ("./", False)):
        expected = []
        for p in _line_starts(text):
            k = p
            while blanks and k < len(text) and text[k] in JS_WS:
                k += 1
            if k < len(text) and text[k] in leads:
                expected.append(p)
        assert line_lead_candidates(leads, blanks=blanks)(text) == expected, (leads, blanks)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINE_BITS), max_size=40))
def test_path_candidates_equal_a_walk_of_the_text(bits):
    from engine.caveman.fast import path_candidates
    from engine.caveman.fences import JS_WS

    text = "".join(bits)
    for drive in (True, False):
        expected = {0}
        for p in range(len(text) - 1):
            rest = text[p + 1:]
            if text[p] in JS_WS and (rest.startswith(("/", "./", "../"))
                                     or (drive and len(rest) > 2 and rest[0].isascii() and rest[0].isalpha()
                                         and rest[1:3] == ":\\")):
                expected.add(p)
        assert path_candidates(drive=drive)(text) == sorted(expected), drive


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_line_and_path_finders_give_the_regex_results(seed, monkeypatch):
    """The kinds and default preserve patterns with these finders match as the regex layer does,
    on texts large enough to be planned (lines of tables, directives, paths, odd line ends)."""
    from engine.caveman.fast import strategy
    from engine.caveman.preservation import DEFAULT_PRESERVE_PATTERNS, STRICT_OVERRIDES, preserve_regex

    monkeypatch.setattr(strategy, "prefer_full_scan", lambda *args: False)  # (the candidates, always)
    rng = random.Random(seed)
    pieces, n = [], 0
    while n < 30000:
        pieces.append(rng.choice(LINE_BITS + WORDS))
        n += len(pieces[-1])
    text = "".join(pieces)
    regexes = [(k.compile(), k.source, k.flags) for k in (*PATTERN_KINDS, *STRICT_OVERRIDES.values())
               if k.line_lead or k.drive_paths is not None]
    regexes += [(preserve_regex(source, flags), source, flags) for source in DEFAULT_PRESERVE_PATTERNS
                for flags in ("g", "gm")]
    for fast, source, flags in regexes:
        for subject in (text, text.replace("😀", "x")):  # (astral characters: the plain path)
            assert fast.replace(subject, "<$&>") == compile_js(source, flags).replace(subject, "<$&>"), (source, flags)


BACK_BITS = ("a", "ab", "A_B", "_", "$", "$x", ".", ". ", ".b", ".$", ".1", "1", "x1.y2", "(", ")", "()", " (", "\n",
             " ", "\u00a0", "é", "😀", "end.", "os.path.join(", "MAX_", "_X", "a.b.c()", "f (x)")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_back_run_finders_give_the_regex_results(seed, monkeypatch):
    """The kinds whose candidates are the runs before a literal (``const_case``, the dotted
    names, calls; strict's dotted names only where an identifier follows the dot) match as the
    regex layer does, on texts large enough to be planned."""
    from engine.caveman.fast import strategy
    from engine.caveman.preservation import STRICT_OVERRIDES

    monkeypatch.setattr(strategy, "prefer_full_scan", lambda *args: False)  # (the candidates, always)
    rng = random.Random(seed)
    text = "".join(rng.choice(BACK_BITS) for _ in range(12000))
    kinds = [k for k in (*PATTERN_KINDS, *STRICT_OVERRIDES.values()) if k.back is not None]
    assert any(k.back_follow for k in kinds)
    for kind in kinds:
        for subject in (text, text.replace("😀", "x")):  # (astral characters: the plain path)
            assert kind.compile().replace(subject, "<$&>") == \
                compile_js(kind.source, kind.flags).replace(subject, "<$&>"), kind.source


# ---------------------------------------------------------------- CAV-Q12's dotted tokens

from engine.caveman.compress import _DOTTED, _IDENT_CHARS, MAX_DOTTED, _dotted_tokens  # noqa: E402

_IDENT_START = _IDENT_CHARS - frozenset("0123456789")


def plain_dotted_tokens(text: str) -> list[str]:
    """A dot per find(), as the scan was first written."""
    seen: dict[str, None] = {}
    i = text.find(".")
    while i >= 0 and len(seen) < MAX_DOTTED:
        if 0 < i < len(text) - 1 and text[i - 1] in _IDENT_CHARS and text[i + 1] in _IDENT_START:
            start = i - 1
            while start > 0 and text[start - 1] in _IDENT_CHARS:
                start -= 1
            m = _DOTTED.match(text, start)
            if m and (start == 0 or text[start - 1] not in _IDENT_CHARS):
                seen.setdefault(m.group(0), None)
                i = m.end()
        i = text.find(".", i + 1)
    return list(seen)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(("a", "b.c", ".", "..", "x1", "$", "_", "0", "9.", " ", "é", "\n", "(", "Z")),
                max_size=40))
def test_dotted_tokens_equal_the_plain_scan(pieces):
    text = "".join(pieces)
    assert _dotted_tokens(text) == plain_dotted_tokens(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(("a", "b.c", "x.y.z", ".", "x1", "$", "_", " ", "é", "😀", "\n", "(")), max_size=30),
       st.lists(st.sampled_from(("a", "b.c", "x.y", "b.", ".c", " ", "😀", "é")), max_size=30))
def test_dotted_names_a_short_text_lost_are_those_the_long_path_finds_lost(before_pieces, after_pieces):
    """CAV-Q12 on a short text searches once per token; on a long one with one pass for all
    (``present``, or ``occurring`` where the text has no byte view): the same tokens lost."""
    import importlib

    from engine.caveman import Compressor, PackSource
    from engine.caveman.compress import PartOutcome

    compress_module = importlib.import_module("engine.caveman.compress")
    before, after = "".join(before_pieces), "".join(after_pieces)
    said = []
    default = compress_module.SHORT_TEXT
    try:
        for short in (default, -1):
            compress_module.SHORT_TEXT = short
            compressor = Compressor(PackSource({}), {"enabled": True})
            o = PartOutcome(0, None, "user", before, before)
            compressor._check_dotted(o, before, after)
            said.append([(d.code, d.message) for d in o.diagnostics])
    finally:
        compress_module.SHORT_TEXT = default
    assert said[0] == said[1]


# ---------------------------------------------------------------- whole compression, index on and off

from .helpers import pack  # noqa: E402
from .helpers import rule as pack_rule  # noqa: E402
from .helpers import run as compress_run  # noqa: E402

BIG_PACK = pack(
    pack_rule("pleasantries", r"\b(?:thanks|thank you|sure)\b[,.!?\s]*"),
    pack_rule("filler_adverbs", r"\b(?:basically|really|simply)\b\s*"),
    pack_rule("glue", r"\bglue\b\s*"),
    pack_rule("made_up", r"\bpre fix\b", "kindly"),  # writes a literal only a later rule looks for
    pack_rule("polite_framing", r"\b(?:please|kindly)\b\s*"),
    pack_rule("never", r"\b(?:quokka|zebra crossing)\b", "!"),
    pack_rule("emphasis_removal", r"\b(?:very|quite)\s+(?=[a-z])"),
    pack_rule("articles", r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])", "", flags="g"),
)
BIG_WORDS = ("thanks", "sure", "basically", "really", "pre", "glue", "fix", "kind", "please", "very", "quite",
             "the", "a", "an", "service", "loads", "x.y(z)", "`code`", "MAX_RETRY", "1.2.3", "https://e.io/a",
             "./src/a.ts", ",", ".", "!", "\n", "\n\n", "  ", "é", "ſ")


@pytest.mark.parametrize("seed, profile", [(0, "omniroute"), (1, "omniroute"), (2, "strict")])
def test_compression_is_the_same_with_and_without_the_literal_index(seed, profile, monkeypatch):
    rng = random.Random(seed)
    text = " ".join(rng.choice(BIG_WORDS) for _ in range(12_000))
    # a generous regex budget: on a loaded machine the default one can time every rule out,
    # which would make both runs agree for the wrong reason
    indexed, result = compress_run(text, BIG_PACK, profile=profile, timeout=60)
    monkeypatch.setattr(LiteralIndex, "MIN_LENGTH", 10**12)  # the per-literal scans only
    plain, plain_result = compress_run(text, BIG_PACK, profile=profile, timeout=60)
    assert indexed == plain
    assert result.rules_applied == plain_result.rules_applied
    assert [(d.code, d.message) for d in result.diagnostics] == [(d.code, d.message) for d in plain_result.diagnostics]
    assert {"made_up", "polite_framing"} <= set(result.rules_applied)
    assert "kindly" not in indexed.lower() and "kindly" not in text  # written, then found and removed


@pytest.mark.parametrize("seed, profile, words", [(3, "omniroute", BIG_WORDS[:-2]), (4, "strict", BIG_WORDS[:-2]),
                                                   (5, "omniroute", BIG_WORDS)])
def test_compression_is_the_same_with_and_without_the_pcre2_twin(seed, profile, words, monkeypatch):
    """ASCII text (and text on ASCII stand-ins: ``é``, ``ſ``): rules whose full scans substitute
    on the PCRE2 twin give what ``re`` gives, rules applied and diagnostics included."""
    from engine.caveman.fast import strategy as fast_strategy

    monkeypatch.setattr(fast_strategy, "UNTIMED_MIN_UNITS", 0)  # (twins from the first text)
    monkeypatch.setattr(fast_strategy, "_COSTS", {})
    rng = random.Random(seed)
    text = " ".join(rng.choice(words) for _ in range(12_000))
    used: list[object] = []
    monkeypatch.setattr(fast_regex, "substitute_ascii",
                        lambda *args: used.append(args[0]) or pcre_twin_module.substitute_ascii(*args))
    twinned, result = compress_run(text, BIG_PACK, profile=profile, timeout=60)
    assert used  # (the articles rule, at least)
    monkeypatch.setattr(fast_regex.FastRegex, "_substituter", lambda self, units: None)  # ``re`` alone
    substituted = len(used)
    plain, plain_result = compress_run(text, BIG_PACK, profile=profile, timeout=60)
    assert len(used) == substituted
    assert twinned == plain
    assert result.rules_applied == plain_result.rules_applied
    assert [(d.code, d.message) for d in result.diagnostics] == [(d.code, d.message) for d in plain_result.diagnostics]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("aZé ßſıƛꟍﬀΐ\u0130K\ud83dx"), max_size=40)
       | st.text(alphabet=st.characters(max_codepoint=0xFFFF), max_size=40))
def test_canonical_case_equals_the_table(text):
    from engine.jsregex.unicode_data import canon_table

    assert canonical_uncached(text) == text.translate(canon_table(False))


# --- the full-scan / anchored-loop choice (measured costs) ---------------------------------------

from engine.caveman.fast import regex as fast_regex  # noqa: E402
from engine.caveman.fast import strategy  # noqa: E402
from engine.jsregex import RegexTimeout  # noqa: E402
from engine.jsregex import pcre_twin as pcre_twin_module  # noqa: E402
from engine.jsregex.charset_led import charset_led_twin  # noqa: E402
from engine.jsregex.twin import re_twin  # noqa: E402

# [full-scan seconds per unit, anchored seconds per candidate, PCRE2 substitution seconds per unit]:
# unmeasured, full scans cheaper, anchored cheaper, only the PCRE2 substitution cheaper
COST_STATES = ([0.0, 0.0, 0.0], [1e-12, 1.0, 1e-12], [1.0, 1e-12, 1.0], [1.0, 1.0, 1e-12])


@pytest.mark.slow
@pytest.mark.parametrize("untimed_min", [0, 10**9], ids=["untimed", "timed"])
@pytest.mark.parametrize("seed, odd", [(20, False), (21, True)])
@pytest.mark.parametrize("costs", COST_STATES)
def test_either_path_choice_equals_jsregex(seed, odd, costs, untimed_min, monkeypatch):
    monkeypatch.setattr(strategy, "_COSTS", {})
    monkeypatch.setattr(strategy, "UNTIMED_MIN_UNITS", untimed_min)  # twins from the start, or never
    text = big_text(seed, 6000, odd=odd)
    for source, flags in PATTERNS:
        strategy._COSTS[(source, flags)] = list(costs)
        plain = compile_js(source, flags)
        for repl in ("<$&>", "", "[$1]"):
            assert FastRegex(source, flags).replace(text, repl) == plain.replace(text, repl), (source, flags, repl)
        fast = FastRegex(source, flags)
        assert fast.replace_matched(text, str.upper) == plain.replace(text, lambda m: m.match.upper())
        expected, got = plain.search(text), FastRegex(source, flags).search(text)
        assert (got and (got.index, got.match)) == (expected and (expected.index, expected.match))


@pytest.mark.parametrize("odd", [False, True])
def test_constant_replacements_of_ascii_text_substitute_with_the_pcre2_twin(odd, monkeypatch):
    """A global constant replacement on a full scan of ASCII text runs on the PCRE2 twin (an
    ``i`` pattern caselessly on the text itself), with jsregex's results; other texts do not."""
    monkeypatch.setattr(strategy, "_COSTS", {})
    monkeypatch.setattr(strategy, "UNTIMED_MIN_UNITS", 0)
    used = []
    monkeypatch.setattr(fast_regex, "substitute_ascii",
                        lambda *args: used.append(args[0]) or pcre_twin_module.substitute_ascii(*args))
    text = big_text(60, 8000, odd=odd)
    text = text if odd else text.encode("ascii", "ignore").decode()
    substituted = 0
    for source, flags in PATTERNS:
        strategy._COSTS[(source, flags)] = [1.0, 1.0, 1e-12]  # (the substitution is the cheaper path)
        before = len(used)
        for repl in ("", "<x>", "a\\b$"):
            assert FastRegex(source, flags).replace(text, repl) == compile_js(source, flags).replace(text, repl), \
                (source, flags, repl)
        substituted += len(used) > before
    assert substituted > 5 if not odd else substituted == 0


def test_a_substitution_stopped_by_pcre2_takes_another_path(monkeypatch):
    monkeypatch.setattr(strategy, "_COSTS", {})
    monkeypatch.setattr(strategy, "UNTIMED_MIN_UNITS", 0)
    monkeypatch.setattr(fast_regex, "substitute_ascii", lambda *args: None)  # (its match limit, say)
    text = big_text(61, 8000).encode("ascii", "ignore").decode()
    for source, flags in [(r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])", "g"), (r"\b(?:very|really)\s+", "gi")]:
        strategy._COSTS[(source, flags)] = [1.0, 1.0, 1e-12]
        assert FastRegex(source, flags).replace(text, "") == compile_js(source, flags).replace(text, "")


def test_a_substitution_answers_for_its_budget(monkeypatch):
    monkeypatch.setattr(strategy, "_COSTS", {})
    monkeypatch.setattr(strategy, "UNTIMED_MIN_UNITS", 0)
    source = r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])"
    strategy._COSTS[(source, "g")] = [1.0, 1.0, 1e-12]
    used = []
    monkeypatch.setattr(fast_regex, "substitute_ascii",
                        lambda *args: used.append(args[0]) or pcre_twin_module.substitute_ascii(*args))
    with pytest.raises(RegexTimeout):
        FastRegex(source, "g", timeout=1e-9).replace("the cat and a dog " * 1000, "")
    assert used  # (it ran in C, then said it had overrun)


def test_path_choice_follows_the_measured_costs():
    assert strategy.prefer_full_scan([0.0, 0.0], 1_000_000, 600)  # not sparse: measure a full scan once
    assert not strategy.prefer_full_scan([0.0, 0.0], 1_000_000, 400)
    assert strategy.prefer_full_scan([1e-9, 1.5e-6], 1_000_000, 1000)  # 1 ms against 1.5 ms
    assert not strategy.prefer_full_scan([1e-9, 1.5e-6], 1_000_000, 500)
    assert not strategy.prefer_full_scan([40e-9, 0.0], 1_000_000, 3000)  # 40 ms against ~4.5 ms guessed


def test_costs_are_measured_on_large_texts(monkeypatch):
    monkeypatch.setattr(strategy, "_COSTS", {})
    monkeypatch.setattr(strategy, "UNTIMED_MIN_UNITS", 0)  # the calls' regime stays the same throughout
    text = (", and also x " + "word " * 20) * 300  # a candidate every 113 units: a full scan is measured first
    source = r",\s*and also\s+"
    fast = FastRegex(source, "g")
    assert fast.replace(text, "+") == compile_js(source, "g").replace(text, "+")
    full, anchored, substituted = strategy._COSTS[(source, "g")]
    assert full > 0 and anchored == substituted == 0  # (no whole-scan twin: no PCRE2 twin either)
    strategy._COSTS[(source, "g")][0] = 1.0  # a full scan now looks dear: the anchored loop runs
    assert FastRegex(source, "g").replace(text, "-$&") == compile_js(source, "g").replace(text, "-$&")
    assert strategy._COSTS[(source, "g")][1] > 0


def test_untimed_setup_waits_until_the_pattern_has_met_enough_text(monkeypatch):
    """A pattern new to the process (one being typed in a live preview) runs timed on ``regex``
    until it has met ``UNTIMED_MIN_UNITS`` of text; then its twin is built and used."""
    monkeypatch.setattr(strategy, "_COSTS", {})
    monkeypatch.setattr(strategy, "_UNITS_MET", {})
    monkeypatch.setattr(strategy, "UNTIMED_MIN_UNITS", 20_000)
    built = []
    monkeypatch.setattr(fast_regex, "re_twin", lambda emitted: built.append(emitted) or re_twin(emitted))
    source, flags = r"\b(?:very|really|quite)\s+", "gi"
    plain = compile_js(source, flags)
    regimes = []
    for seed in range(5):  # ~6,000 units each: the fourth text takes the pattern past 20,000
        text = big_text(40 + seed, 6000)
        fast = FastRegex(source, flags)
        assert fast.replace(text, "") == plain.replace(text, ""), seed
        assert fast.replace_matched(text, str.upper) == plain.replace(text, lambda m: m.match.upper())
        regimes.append(fast._untimed_calls()[2] is not None)
    assert regimes == [False, False, False, True, True]
    assert built == [plain.translation.emitted] * 2  # no set-up before (one per object after)


def test_costs_of_timed_calls_are_forgotten_when_calls_may_turn_untimed(monkeypatch):
    monkeypatch.setattr(strategy, "_COSTS", {})
    monkeypatch.setattr(strategy, "_UNITS_MET", {})
    monkeypatch.setattr(strategy, "UNTIMED_MIN_UNITS", 10_000)
    source = r",\s*and also\s+"
    fast = FastRegex(source, "g")
    fast._cost[:] = [3e-9, 2e-6, 1e-9]  # measured on timed calls
    fast._prepare(big_text(50, 6000))
    assert strategy._COSTS[(source, "g")] == [3e-9, 2e-6, 1e-9]
    fast._prepare(big_text(51, 6000))
    assert strategy._COSTS[(source, "g")] == [0.0, 0.0, 0.0] and fast._cost is strategy._COSTS[(source, "g")]
    fast._cost[:] = [4e-9, 1e-6, 1e-9]  # measured after that: kept
    fast._prepare(big_text(52, 6000))
    assert strategy._COSTS[(source, "g")] == [4e-9, 1e-6, 1e-9]


def test_the_charset_led_twin_is_built_only_for_a_text_large_enough_to_time_it_on(monkeypatch):
    monkeypatch.setattr(strategy, "_WHOLE_SCANNERS", {})
    monkeypatch.setattr(strategy, "UNTIMED_MIN_UNITS", 0)
    built = []
    monkeypatch.setattr(strategy, "charset_led_twin", lambda *args: built.append(args) or charset_led_twin(*args))
    source = r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])"
    fast = FastRegex(source, "g")
    assert fast._whole_scanner(big_text(53, 8000)) is fast._untimed_calls()[2]
    assert not built
    large = big_text(54, 2 * strategy.SAMPLE_UNITS + 100)
    chosen = fast._whole_scanner(large)
    assert len(built) == 1 and chosen in (fast._untimed_calls()[2], charset_led_twin(*built[0]))
    assert strategy._WHOLE_SCANNERS[(source, "g")] is chosen and fast._whole_scanner(large) is chosen
    assert len(built) == 1  # decided once


def test_planning_a_rule_parses_its_pattern_once(monkeypatch):
    """Compiling a rule (its translation, then its plan and required literals) parses the pattern
    once: the plan reads the translation's own tree (``engine.jsregex.starts``), so a pattern typed
    in a live preview, a new one per keystroke, leaves one tree, in the bounded parse memo."""
    import importlib

    from engine.jsregex import parser as jsparser

    jstranslate = importlib.import_module("engine.jsregex.translate")
    parses: list[str] = []
    real = jsparser.parse
    monkeypatch.setattr(jstranslate, "parse", lambda units, *a, **k: parses.append(units) or real(units, *a, **k))
    source = r"\b(?:could|would) you(?: please)? (?=(?:explain|show|tell))" + "qzx" + str(random.random())
    fast = FastRegex(source, "gi")
    assert fast.plan is not None and fast.min_width > 0
    assert len(parses) == 1


def test_anchored_loop_keeps_its_timeout(monkeypatch):
    monkeypatch.setattr(strategy, "_COSTS", {})
    source = r"\bfoo(?:(a|aa)+)+c"
    strategy._COSTS[(source, "g")] = [1.0, 1e-12, 1.0]  # force the anchored loop
    text = ("x " * 3000) + "foo" + "a" * 40 + "b"
    fast = FastRegex(source, "g", timeout=0.02)
    assert fast._positions(fast._prepare(text).units)  # planned, so the anchored loop is what runs
    assert not fast.linear  # nested repeats: every anchored call keeps its own timer
    with pytest.raises(RegexTimeout):
        fast.replace(text, "")


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="ab_9 .-é\u017f\u212a\n", max_size=60))
def test_boundary_filter_equals_js_word_boundaries(text):
    from engine.caveman.fast import at_boundaries

    expected = [m.index for m in compile_js(r"\b", "g").match_all(text)]
    assert at_boundaries(text, list(range(len(text) + 1))) == expected
    assert [m.index for m in compile_js(r"\b", "gi").match_all(text)] == expected


def test_plans_know_a_leading_word_boundary():
    assert plan_for(r"\b(?:very|really)\s+", "g").boundary
    assert plan_for(r"(?<![a-z])\b(?:basically|simply)\b", "gi").boundary
    assert not plan_for(r"(?:very|really)\b", "g").boundary
    assert not plan_for(r"x\b(?:very|really)", "g").boundary


def test_an_unmeasured_full_scan_is_timed_on_a_sample(monkeypatch):
    monkeypatch.setattr(strategy, "_COSTS", {})
    source = r"\b(?:very|quite)\s+(?=[a-z])"
    text = ("very big " + "word " * 18) * 2_000  # 198 KB, a candidate every 99 units: a full scan may be cheaper
    fast = FastRegex(source, "gi")
    assert not fast.cannot_match(text)  # planning only: the cost is learnt from the first 64 K units
    assert strategy._COSTS[(source, "gi")][0] > 0
    assert fast.replace(text, "") == compile_js(source, "gi").replace(text, "")


class _RecordingIndex:
    """Stands in for a LiteralIndex: keeps the windows a rewrite reports."""

    def __init__(self):
        self.calls = []

    def rewritten(self, before, after, windows):
        self.calls.append((before, after, windows))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab c", min_size=1, max_size=40), st.data())
def test_rewrite_windows_are_where_the_replacements_landed(text, data):
    from engine.caveman.fast.regex import FastRegex, _Work

    cuts = sorted(data.draw(st.lists(st.integers(min_value=0, max_value=len(text)), min_size=2, max_size=10)))
    spans = [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts) - 1, 2)]
    values = data.draw(st.one_of(st.text(alphabet="XY", max_size=3),
                                 st.lists(st.text(alphabet="XY", max_size=3), min_size=len(spans), max_size=len(spans))))
    rx = FastRegex(r"a", "g")
    rx.index = _RecordingIndex()
    out = rx._assemble(_Work(text, text, False, "", False), spans, values)
    pieces, last = [], 0
    each = [values] * len(spans) if isinstance(values, str) else values
    for (s, e), v in zip(spans, each):
        pieces += [text[last:s], v]
        last = e
    assert out == "".join(pieces) + text[last:]
    [(before, after, windows)] = rx.index.calls
    assert before is text and after == out
    assert [out[a:b] for a, b in windows] == each
    # and what follows each replacement is the text after its span, up to the next span
    nexts = [s for s, _e in spans[1:]] + [len(text)]
    assert [out[b:b + n - e] for (_a, b), (_s, e), n in zip(windows, spans, nexts)] == \
        [text[e:n] for (_s, e), n in zip(spans, nexts)]


@pytest.mark.parametrize("chosen", ["led", "plain"])
def test_whole_scans_on_either_twin_equal_jsregex(chosen, monkeypatch):
    """Whole scans (``subn``, ``finditer``, ``search``) give jsregex's results whichever of the
    two ``re`` twins the timing picked (engine.jsregex.charset_led)."""
    monkeypatch.setattr(strategy, "_WHOLE_SCANNERS", {})
    monkeypatch.setattr(strategy, "_faster", lambda plain, led, sample: led if chosen == "led" else plain)
    monkeypatch.setattr(strategy, "prefer_full_scan", lambda *args, **kwargs: True)
    text = big_text(30, 2 * strategy.SAMPLE_UNITS + 5000)
    for source, flags in [(r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])", "g"), (r"\b(?:very|really)\s+", "gi"),
                          (r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b", "g"), (r"\b(?:please|an?)\b", "g")]:
        plain = compile_js(source, flags)
        for repl in ("", "<$&>"):
            assert FastRegex(source, flags).replace(text, repl) == plain.replace(text, repl), (source, repl)
        assert FastRegex(source, flags).replace_matched(text, str.upper) == \
            plain.replace(text, lambda m: m.match.upper())
        expected, got = plain.search(text), FastRegex(source, flags).search(text)
        assert (got.index, got.match) == (expected.index, expected.match)
        if FastRegex(source, flags)._untimed_calls()[2] is not None:  # (whole scans may run on a twin)
            assert strategy._WHOLE_SCANNERS[(source, flags)].pattern.startswith("[") == (chosen == "led")


def test_the_whole_scanner_is_chosen_once_on_a_large_text(monkeypatch):
    monkeypatch.setattr(strategy, "_WHOLE_SCANNERS", {})
    timed = []

    def faster(plain, led, sample):
        timed.append(len(sample))
        return led
    monkeypatch.setattr(strategy, "_faster", faster)
    source = r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])"
    fast = FastRegex(source, "g")
    short = big_text(31, 8000)
    assert fast.replace(short, "") == compile_js(source, "g").replace(short, "")
    assert not timed and (source, "g") not in strategy._WHOLE_SCANNERS  # too short to time on
    large = big_text(32, 2 * strategy.SAMPLE_UNITS + 100)
    for _ in range(2):
        assert fast.replace(large, "") == compile_js(source, "g").replace(large, "")
    assert timed == [strategy.SAMPLE_UNITS]  # once, on the first large text's start
    # a pattern of another shape has one twin only: nothing to time
    fast = FastRegex(r",\s*and also\s+", "g")
    assert fast.replace(large, "") == compile_js(r",\s*and also\s+", "g").replace(large, "")
    assert timed == [strategy.SAMPLE_UNITS]


def test_the_faster_twin_is_picked():
    import re

    text = "x" * 50_000 + "ab" * 10
    slow, quick = re.compile(r"(?:x|y)*?ab"), re.compile(r"ab")  # (not equivalent: only timed here)
    assert strategy._faster(slow, quick, text) is quick
    assert strategy._faster(quick, slow, text) is quick


def test_the_known_same_length_mismatches_are_the_computed_ones():
    import unicodedata

    from engine.caveman.fast import texts

    if unicodedata.unidata_version != texts._KNOWN_VERSION:
        pytest.skip("another Unicode version: computed at run time")
    assert texts.same_length_mismatch_plain() == texts._KNOWN_MISMATCH


def test_a_text_without_a_required_literal_skips_the_candidate_finder():
    """Every match of the default error-line pattern holds ``Error``: a long text without it is
    known to have no match before its (costlier) line-start finder runs, with the same result."""
    from engine.caveman.preservation import DEFAULT_PRESERVE_PATTERNS, preserve_regex

    source = DEFAULT_PRESERVE_PATTERNS[4]
    called = []
    rx = preserve_regex(source, "gm")
    finder = rx.extra
    rx.extra = lambda units: called.append(1) or finder(units)
    text = "Then the build failed.\n  TypeErr: no\n" * 400
    assert rx.cannot_match(text) and called == []
    assert rx.replace(text, "<$&>") == compile_js(source, "gm").replace(text, "<$&>")
    with_error = text + "\n TypeError: boom\n" + text
    assert not rx.cannot_match(with_error) and called == [1]
    assert rx.replace(with_error, "<$&>") == compile_js(source, "gm").replace(with_error, "<$&>")


URL_SOURCE = r"\b(https?://\S+)"


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["see ", "http", "https", "://", ":/", "http:/", "https:/ ", "x://y", "http://a.b ",
                                 "https://c.d/e ", "ht", "tp://", "\n", "é", "😀"]), max_size=40),
       st.integers(0, 400))
def test_a_required_literal_ruled_out_by_its_punctuation_tail_matches_as_before(pieces, padding):
    """``http://`` and ``https://`` are looked for through their shared tail ``://`` (a ``re``
    search): whatever the text, the matches are the plain engine's, and a text without the tail
    has none without a candidate search."""
    text = "a" * padding + "".join(pieces) + " b" * 2500  # (long enough to plan)
    rx = FastRegex(URL_SOURCE, "g")
    assert rx.required == frozenset({"http://", "https://"})
    assert rx.replace(text, "<$&>") == compile_js(URL_SOURCE, "g").replace(text, "<$&>")
    if "://" not in text:
        assert rx.cannot_match(text)


def test_a_pattern_tried_at_the_text_start_alone_looks_for_no_literal():
    """``^\\s*(Error|…):`` without ``m`` can only match at 0: one attempt there, no search of the
    text for ``Error:`` (OmniRoute compiles its default line-start patterns without ``m``)."""
    from engine.caveman.preservation import DEFAULT_PRESERVE_PATTERNS, preserve_regex

    source = DEFAULT_PRESERVE_PATTERNS[4]
    rx = preserve_regex(source, "g")
    assert rx.required is None and rx.plan is not None and rx.plan.start == "text"
    for text in ("TypeError: boom\n" + "prose line\n" * 900, "prose line\n" * 900 + "Error: late\n"):
        assert rx.replace(text, "<$&>") == compile_js(source, "g").replace(text, "<$&>")


@pytest.mark.parametrize("odd", [False, True])
def test_all_matches_replaced_in_one_call_equal_one_call_each(odd):
    """``replace_all_matched`` and ``replace_all_spans`` (extraction's wrapping: every matched
    text, and its offset, in one list) give ``replace_matched``'s and ``replace_spans``'s text,
    on the planned path and on engine.jsregex's (a sticky pattern, a ``u`` pattern on astral
    text), and call their function once where matches are planned."""
    text = big_text(30, 6000, odd=odd)
    for source, flags in [*PATTERNS, (r"[a-z]+", "y"), (r"\p{L}+", "gu")]:
        calls: list[int] = []

        def upper_all(matched: list[str], calls: list[int] = calls) -> list[str]:
            calls.append(len(matched))
            return [m.upper() for m in matched]

        expected = FastRegex(source, flags).replace_matched(text, str.upper)
        assert FastRegex(source, flags).replace_all_matched(text, upper_all) == expected, (source, flags)
        assert FastRegex(source, flags).replace_all_matched(text, upper_all, keep_units=True) == \
            FastRegex(source, flags).replace_matched(text, str.upper, keep_units=True), (source, flags)

        def tag_all(offsets: list[int], matched: list[str], calls: list[int] = calls) -> list[str]:
            calls.append(len(matched))
            return [f"<{k}:{m}>" for k, m in zip(offsets, matched)]

        assert FastRegex(source, flags).replace_all_spans(text, tag_all) == \
            FastRegex(source, flags).replace_spans(text, lambda k, m: f"<{k}:{m}>"), (source, flags)
        planned = "y" not in flags and "u" not in flags and FastRegex(source, flags).min_width  # (no empty match)
        if planned:  # (one call per replacement that found matches, none per match)
            assert calls == [] or calls == [calls[0]] * 3, (source, flags)


SHORT_WORDS = (*(w for w in WORDS + BIG_WORDS if w.isascii()), "Error: x", "\n  at f", "```\nx\n```", "[a](b)",
               "Hello,", "hi there", "However", "  at g")
# matches only at the text's start (``^`` without ``m``): one attempt there, after the plan's literals
AT_START = [(r"^\s*(Error|TypeError):", "g"), (r"^\s+at\s", "g"), (r"^(?:Hi there|Hello)\s*[,.!?\s]?\s*", "gi"),
            (r"^(?:On the other hand,?\s*|However,?\s*)", "gi")]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(SHORT_WORDS), max_size=30), st.sampled_from([0, 10**9]))
def test_a_short_text_a_pattern_misses_has_no_jsregex_match(words, untimed_min):
    """``misses`` (one scan, on the ``re`` twin or, timed, the translation) claims no match only
    where engine.jsregex finds none; on a short ASCII text it answers for every pattern that
    has no match there (a pattern that can match empty always has one)."""
    text = " ".join(words)
    original = strategy.UNTIMED_MIN_UNITS
    strategy.UNTIMED_MIN_UNITS = untimed_min  # twins from the start, or never
    try:
        for source, flags in PATTERNS + AT_START + [(r["pattern"], r.get("flags", "gi")) for r in BIG_PACK["rules"]]:
            fast, found = FastRegex(source, flags), compile_js(source, flags).search(text)
            assert fast.misses(text) == (found is None), (source, flags)
    finally:
        strategy.UNTIMED_MIN_UNITS = original


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(SHORT_WORDS), max_size=12), min_size=1, max_size=8))
def test_misses_at_start_claims_only_what_misses_claims(bodies):
    """The batch head test of a text-start pattern claims a miss only where ``misses`` claims
    one (``_rules_joined`` skips those parts), and is None for any other pattern."""
    texts = [" ".join(words) for words in bodies] + ["Hello " * 1000, "Hello é"]
    answered = 0
    for source, flags in AT_START + PATTERNS:
        fast = FastRegex(source, flags)
        missed = fast.misses_at_start(texts)
        if (source, flags) not in AT_START:
            assert missed is None or fast.plan.start == "text", (source, flags)
            continue
        if missed is None:  # (no anchor literal at a fixed offset: ``^\\s*(Error…``)
            continue
        answered += 1
        for text, miss in zip(texts, missed):
            assert not miss or (fast.misses(text) and compile_js(source, flags).search(text) is None), (source, text)
    assert answered >= 2


def test_misses_answers_only_for_short_ascii_text():
    fast = FastRegex(r"\bzebra\b", "gi")
    assert fast.misses("a horse") and not fast.misses("a ZEBRA")
    assert not fast.misses("a horse é")  # (not ASCII: the usual path)
    assert not fast.misses("a horse " * 1000)  # (long: the usual path, with its candidates)


@pytest.mark.parametrize("profile", ["omniroute", "strict"])
def test_compression_of_many_short_messages_is_the_same_without_misses(profile, monkeypatch):
    rng = random.Random(9)
    texts = [" ".join(rng.choice(SHORT_WORDS) for _ in range(rng.randrange(1, 40))) for _ in range(60)]
    runs = []
    for shortcut in (True, False):
        if not shortcut:
            monkeypatch.setattr(FastRegex, "misses", lambda self, text: False)
        runs.append([compress_run(t, BIG_PACK, profile=profile, timeout=60) for t in texts])
    for (out, result), (plain, plain_result) in zip(*runs):
        assert out == plain and result.rules_applied == plain_result.rules_applied
        assert [(d.code, d.message) for d in result.diagnostics] == \
            [(d.code, d.message) for d in plain_result.diagnostics]


@pytest.mark.parametrize("grow", [0, 1])
def test_a_result_past_the_output_cap_is_refused_before_it_is_built(monkeypatch, grow: int) -> None:
    """The planned path weighs a replacement's result against the regex layer's cap from the
    matches' covered units and the values' lengths: a result of exactly the cap is made, one
    unit more is refused (each match of ``ab`` becomes ``xyz``: one unit longer)."""
    import engine.jsregex.budget as budget
    from engine.jsregex.budget import ReplacementTooLarge

    text = "ab " * 3000
    rx = FastRegex("ab", "g")
    made: list[int] = []
    real_assemble = FastRegex._assemble
    monkeypatch.setattr(FastRegex, "_assemble", lambda self, *a, **k: (made.append(1), real_assemble(self, *a, **k))[1])
    monkeypatch.setattr(budget, "output_cap", lambda length: length + 3000 - grow)
    if grow:
        with pytest.raises(ReplacementTooLarge):
            rx.replace_matched(text, lambda s: "xyz")
    else:
        assert rx.replace_matched(text, lambda s: "xyz") == "xyz " * 3000
    assert made  # (the planned path, not the regex layer's)


@pytest.mark.parametrize("seed, odd, size", [(11, False, 6000), (12, True, 6000), (13, True, 300)])
@pytest.mark.parametrize("keep_units", [False, True])
def test_match_all_gives_what_replace_all_spans_hands_its_function(seed, odd, size, keep_units):
    """``match_all`` lists the offsets and matched texts ``replace_all_spans`` gives its function,
    on planned texts and short ones (the plain path's), with astral characters and odd cases."""
    text = big_text(seed, size, odd)
    for source, flags in PATTERNS:
        seen: tuple[list[int], list[str]] = ([], [])

        def record(at: list[int], matched: list[str], seen=seen) -> list[str]:
            seen[0].extend(at)
            seen[1].extend(matched)
            return matched

        FastRegex(source, flags).replace_all_spans(text, record, keep_units=keep_units)
        assert FastRegex(source, flags).match_all(text, keep_units=keep_units) == seen, (source, flags)
