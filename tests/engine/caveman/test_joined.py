"""Rules over many parts joined (``engine.caveman.joined``): which rules may run that way, the
parts a match crossed into, and that a body gives exactly what it gives part by part."""

from __future__ import annotations

import json
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.caveman import Compressor, PackSource
from engine.caveman.apply import RuleRunner, shared_regexp
from engine.caveman.joined import joinable, replace_joined, replace_split
from engine.caveman.joined_extraction import extract_joined
from engine.caveman.packs import Rule
from engine.caveman.preservation import DEFAULT_PRESERVE_PATTERNS, extract, preserve_regex
from engine.caveman.spans import join, starts_of
from engine.jsvalues import to_utf16_units
from tests.engine.caveman.helpers import pack, rule


def test_a_rule_with_a_template_does_not_join():
    assert joinable(Rule("r", r"\bfoo\b", flags="g", replacement="$&!")) == ()  # ($` and $' read the subject)
    assert joinable(Rule("r", r"\bfoo\b", flags="g", replacement="bar")) == ("\n", "\x00", "\x1e")


def test_a_map_rule_joins_unless_a_miss_expands_a_template():
    assert joinable(Rule("m", r"\b(?:a|b)\b", flags="g", replacement_map={"a": "x"}))
    assert not joinable(Rule("m", r"\b(?:a|b)\b", flags="g", replacement="$&", replacement_map={"a": "x"}))


def _joined_step(pattern: str, flags: str, replacement: str, texts: list[str]):
    rule_ = Rule("r", pattern, flags=flags, replacement=replacement)
    joined, starts = join(texts)
    return replace_joined(shared_regexp(pattern, flags), joined, starts, RuleRunner.values_of(rule_), None)


@given(st.lists(st.text(max_size=6), max_size=12), st.sampled_from(["\n", "\x1e"]))
def test_each_part_starts_where_the_join_puts_it(texts, separator):
    joined, starts = join(texts, separator)
    assert starts == starts_of(texts) and len(starts) == max(1, len(texts))
    assert [joined[a:a + len(t)] for a, t in zip(starts, texts)] == texts
    assert all(joined[a - 1] == separator for a in starts[1:])


def test_parts_take_their_slice_of_the_joined_result():
    step = _joined_step(r"\breally\b\s*", "gi", "", ["it is really good", "plain", "Really  fine"])
    assert step.pieces == {0: "it is good", 2: "fine"}
    assert not step.crossed
    assert step.joined == "it is good\nplain\nfine"


def test_a_match_that_holds_a_separator_marks_every_part_it_touches():
    step = _joined_step(r"\bthanks\b\s*", "gi", "", ["say thanks", "  next", "", "thanks", "thanks  x"])
    assert step.crossed == {0, 1, 3, 4}  # ("thanks\n" into an empty part: the part after it too)
    assert step.pieces == {}


def test_empty_matches_at_part_edges_are_each_parts_own():
    texts = ["ab", "", "b"]
    step = _joined_step("b*", "g", "-", texts)
    alone = [shared_regexp("b*", "g").replace(t, "-") for t in texts]
    assert not step.crossed
    assert [step.pieces.get(k, texts[k]) for k in range(3)] == alone == ["-a--", "-", "--"]  # (as JavaScript gives)


def test_astral_characters_are_counted_in_units():
    texts = [to_utf16_units("😀 really 😀"), to_utf16_units("é really ok")]
    step = _joined_step(r"\breally\s", "g", "très ", texts)
    assert step.pieces == {0: to_utf16_units("😀 très 😀"), 1: to_utf16_units("é très ok")}


# ------------------------------------------------------------ whole bodies, joined or part by part

RULES = pack(
    rule("filler_adverbs", r"(?<![a-z])\b(?:basically|simply)\b\s*"),  # prefilter-gated (keywords)
    rule("articles", r"\bzz\b\s*", flags="g"),  # gated by the article prefilter: CAV-Q4 where none
    rule("pleasantries", r"(?<!make\s)(?<!be\s)\b(?:thanks|sure)\b[,.!]?\s*"),  # not joinable
    rule("opener", r"^(?:hi|hello)\b[,!]?\s*"),  # ^ without m: not joinable
    rule("bullets", r"^- +", flags="gm", replacement="* "),
    rule("twice", r"\b(\w+) \1\b", flags="g", replacement="$1"),  # a template: not joinable
    rule("doubled", r"\b(\w+) \1\b", flags="g", replacement="2x"),
    rule("emptyish", r"q*", flags="g", replacement=""),
    rule("mapped", r"\b(?:colour|flavour)\b", flags="gi", replacement_map={"colour": "color", "flavour": "flavor"}),
    rule("swap", r"\bab\b", flags="g", replacement="ba ab"),  # a rewrite later rules see
    rule("ends", r"\s+$", flags="gm", replacement=""),
    rule("bangs", r"!+[^a-z]*", flags="g", replacement="! "),  # (a class that takes any separator)
)

BITS = ["basically ", "simply", "thanks", "sure", "make ", "be ", "make", "be", "hi ", "hello, ", "- ", "-  item", "\n", "\n\n",
        "  ", " ", "the ", "zz ", "zz", "word word", "colour ", "Flavour", "ab ", "q", "qq", ".", ",", "!",
        "😀", "é", "\r\n", "`code`", "```\nx = 1\n```\n", "http://a.b/c ", "Error: boom\n", "and ", "x",
        "\n  at f (a.js:2)", "\nTypeError: thanks", "\n \n"]


def _outcome(body: dict, profile: str, joined: bool, monkeypatch) -> tuple:
    monkeypatch.setattr(Compressor, "use_joined", joined)
    cfg = {"enabled": True, "minMessageLength": 0, "compressRoles": ["user"], "language": "xx", "intensity": "full"}
    # (a budget no busy machine runs out of: a rule that timed out in one run and not in the
    # other would differ for the clock's sake, not the joining's)
    result = Compressor(PackSource.from_packs([RULES]), cfg, profile=profile, timeout=60.0).compress_body(body)
    stats = {k: v for k, v in result.stats.items() if k not in ("timestamp", "durationMs")}
    return (json.dumps(result.body), stats, [(d.code, d.message, d.data) for d in result.diagnostics],
            [(o.after_rules, o.applied, o.fallback) for o in result.parts])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(BITS), max_size=14).map("".join), min_size=2, max_size=10),
       st.sampled_from(["omniroute", "strict"]), st.integers(0, 3))
@example(["I make", "thanks a lot"], "omniroute", 0)  # (a lookbehind that would read "make\n")
@example(["so be", "sure, thanks"], "strict", 0)
@example(["wow!", "!! x"], "strict", 0)  # (a match that eats the separator)
def test_a_body_gives_what_its_parts_give_one_by_one(texts, profile, shape):
    messages: list[dict] = [{"role": "user", "content": t} for t in texts]
    if shape == 1:  # (a message of text parts, and one not compressed)
        messages[0] = {"role": "user", "content": [{"type": "text", "text": t} for t in texts[:3]]}
        messages[-1] = {"role": "assistant", "content": texts[-1]}
    elif shape == 2:  # (one long part goes alone, between runs of short ones)
        messages.insert(1, {"role": "user", "content": "thanks, basically colour\n- zz " * 2_500})
    body = {"messages": messages}
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _outcome(body, profile, True, monkeypatch) == _outcome(body, profile, False, monkeypatch)


def test_a_match_across_parts_is_taken_from_the_parts_alone(monkeypatch):
    body = {"messages": [{"role": "user", "content": t} for t in ["ok colour", "\n colour", "ab", "zz"]]}
    joined = _outcome(body, "omniroute", True, monkeypatch)
    assert joined == _outcome(body, "omniroute", False, monkeypatch)
    assert "CAV-Q4" in [code for code, _m, _d in joined[2]]  # (the gated rule, reported per part)


def test_the_joined_run_goes_through_the_rules_once_per_rule(monkeypatch):
    """Not a scan per rule and part: a joinable rule meets the joined text (spied)."""
    seen: list[int] = []
    module = sys.modules["engine.caveman.compress"]
    original, original_split = replace_joined, replace_split

    def spy(rx, joined, starts, values_of, budget):
        seen.append(len(starts))
        return original(rx, joined, starts, values_of, budget)

    def spy_split(replace, joined, starts, texts=None):
        seen.append(len(starts))
        assert texts is None or joined.split("\x1e") == texts  # (the parts as joined)
        return original_split(replace, joined, starts, texts)

    monkeypatch.setattr(module, "replace_joined", spy)
    monkeypatch.setattr(module, "replace_split", spy_split)
    body = {"messages": [{"role": "user", "content": f"basically colour {k}"} for k in range(50)]}
    _outcome(body, "omniroute", True, monkeypatch)
    joinable_count = sum(bool(joinable(r)) for r in PackSource.from_packs([RULES]).rules_for("xx"))
    assert seen == [50] * joinable_count


# ------------------------------------------------------------ protected regions, joined or part by part

REGION_BITS = ["$x$", "$$", "$$a$$", "$ 5$", "\\[x\\]", "|a|b|", "|---|---|", "# head", "#set x", "`code`", "``",
               "[l](http://x.y)", "http://a.b/c", "https://x", "CONST_CASE", "A_B", "process.env.X_1", "$HOME",
               "v1.2.3", "1.2", "foo.bar()", "a.b(", "call(x)", "./path/x", "/etc/x", "C:\\dir\\f", "Error: x",
               "TypeError: y", "   at f (a.js:1)", "\\begin{a}x\\end{b}", "```\nx\n```", "~~~\ny\n~~~", "---\n",
               "\n", "\n\n", " ", "  ", "\t", "x", "word", "é", "😀", "\r\n", "\x00", ":", "@me", "> q", "TODO x"]
CUSTOM_SETS = [list(DEFAULT_PRESERVE_PATTERNS), [r"(?:^|x)@", r"(^|\s)@\w+", r"^>.*$"], [r"\bTODO\b[^\n]*", r"^\s*> ?\w*"]]


def _blocks(ex) -> tuple:
    if isinstance(ex, Exception):
        return ("stopped", type(ex).__name__)
    return (ex.text, ex.seed, [b.to_dict() for b in ex.blocks], ex.notes and [(q, m) for q, m, _b in ex.notes],
            ex.ascii_view is not None)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(REGION_BITS), max_size=12).map("".join), min_size=2, max_size=10),
       st.sampled_from(["omniroute", "strict"]), st.integers(0, len(CUSTOM_SETS) - 1))
def test_regions_of_joined_parts_are_each_parts_own(texts, profile, which):
    custom = [preserve_regex(source, "gm" if which == 1 and source.startswith("^>") else "g")
              for source in CUSTOM_SETS[which]]
    joined = extract_joined(texts, custom, profile=profile)
    assert [_blocks(ex) for ex in joined] == [_blocks(extract(t, custom, profile=profile)) for t in texts]


def test_a_path_at_a_parts_start_is_found_through_the_class_that_takes_the_separator():
    custom = [preserve_regex(DEFAULT_PRESERVE_PATTERNS[3], "g")]
    texts = ["see ./a/b", "./c/d then", "/e/f"]
    joined = extract_joined(texts, custom)
    assert [[b.content for b in ex.blocks] for ex in joined] == [[" ./a/b"], ["./c/d"], ["/e/f"]]
    assert [_blocks(ex) for ex in joined] == [_blocks(extract(t, custom)) for t in texts]


def test_error_lines_past_a_parts_start_are_each_parts_own(monkeypatch):
    """CAV-Q17's search of the originals runs joined: a line start that runs into the next part
    (a blank last line, then an error line) is left to the parts alone."""
    texts = ["thanks for this\n    Error: boom\n  ", "Error: at start\n   at thanks for this", "plain"]
    body = {"messages": [{"role": "user", "content": t} for t in texts]}
    joined = _outcome(body, "omniroute", True, monkeypatch)
    assert joined == _outcome(body, "omniroute", False, monkeypatch)
    # (the first part's indented error line, found alone: its last line runs into the second)
    assert [(code, data["messageIndex"]) for code, _m, data in joined[2]] == [("CAV-Q17", 0), ("CAV-Q17", 1)]


def test_a_part_a_replacement_would_grow_past_its_own_cap_runs_alone(monkeypatch):
    """The joined text's output cap is its own (the larger): a part whose result would pass the
    cap a part alone has is not taken from the joined run, and is stopped alone (CAV-timeout)."""
    monkeypatch.setattr("engine.jsregex.budget.OUTPUT_FLOOR", 1_000)
    monkeypatch.setattr(sys.modules["engine.caveman.joined"], "output_cap",
                        lambda length: max(1_000, 8 * length))
    grow = pack(rule("grow", r"x", replacement=None, flags="g", replacementMap={"x": "y" * 50}))
    cfg = {"enabled": True, "minMessageLength": 0, "compressRoles": ["user"], "language": "xx", "intensity": "full"}
    body = {"messages": [{"role": "user", "content": t} for t in ["x" * 40, "plain words " * 400]]}
    outcomes = []
    for joined in (True, False):
        monkeypatch.setattr(Compressor, "use_joined", joined)
        result = Compressor(PackSource.from_packs([grow]), cfg).compress_body(body)
        outcomes.append((json.dumps(result.body), [(d.code, d.message) for d in result.diagnostics]))
    assert outcomes[0] == outcomes[1]
    assert "CAV-timeout" in [code for code, _m in outcomes[0][1]]


@pytest.mark.parametrize("profile", ["omniroute", "strict"])
def test_validation_is_given_each_restored_texts_own_fence_count(profile, monkeypatch):
    """A body's validation counts the restored texts' fences in one scan of those whose
    originals had fenced blocks (strict's needs none): each part's count is the scan of its own text (messages with fences, unclosed ones, one whose
    closer ends it, and fences the rules or cleanup come near)."""
    from bench.agent_corpus import message
    from engine.caveman.fences import fence_spans

    compress_module = sys.modules["engine.caveman.compress"]
    rng = __import__("random").Random(4)
    texts = [message(rng).split(": ", 1)[1] for _ in range(60)]
    texts += ["```\nbasically code  \n```", "thanks ```", "   ```js\nx\n", "~~~\nreally\n~~~ ", "```\n"]
    given: list[tuple[int | None, int]] = []
    real = compress_module.Compressor._checked
    monkeypatch.setattr(compress_module.Compressor, "_checked",
                        lambda self, r, fences=None, scans=None: (given.append((fences, len(fence_spans(r.restored)))),
                                                                  real(self, r, fences, scans))[1])
    Compressor(PackSource.from_packs([RULES]), {"enabled": True, "minMessageLength": 0}, profile=profile
               ).compress_body({"messages": [{"role": "user", "content": t} for t in texts]})
    assert len(given) == len(texts) and sum(scanned for _found, scanned in given) > 20
    if profile == "strict":  # (its validation of the blocks counts no fences)
        assert all(found is None for found, _scanned in given)
    else:  # (a part whose original had no fenced block is left to count its own, where it must)
        assert all(found is None or found == scanned for found, scanned in given)
        assert sum(found is not None for found, _scanned in given) > 20


def test_validation_on_views_is_given_what_each_views_own_scan_finds(monkeypatch):
    """A body's parts validated on views of their originals (text with emoji and accents, on
    ASCII stand-ins) get what validation looks for from one scan of the views joined: each is
    what the view's own scan finds."""
    from bench.agent_corpus import message
    from engine.caveman.validation import scan_view

    compress_module = sys.modules["engine.caveman.compress"]
    rng = __import__("random").Random(8)
    texts = [message(rng).split(": ", 1)[1] + " 😀 é" for _ in range(40)] + ["`a` é", "x é", "```\né\n```"]
    compared: list[bool] = []
    real = compress_module.Compressor._validate

    def spy(self, o, ex, view, restored, joined, put_back, fences=None, view_scans=None):
        if view_scans is not None:
            compared.append(view_scans == scan_view(view, compress_module._fenced_spans(ex)))
        return real(self, o, ex, view, restored, joined, put_back, fences, view_scans)

    monkeypatch.setattr(compress_module.Compressor, "_validate", spy)
    from engine.paths import builtin_rules_dir

    Compressor(PackSource.from_dir(builtin_rules_dir()), {"enabled": True, "minMessageLength": 0}
               ).compress_body({"messages": [{"role": "user", "content": t} for t in texts]})
    assert len(compared) > 30 and all(compared)
