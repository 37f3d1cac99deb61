"""The previews' view-models (engine.workspace.previews), without Qt."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.jsontree import Utf16Offsets
from engine.workspace.previews.caveman_packs import PackOverride
from engine.workspace.previews.caveman_preview import CavemanRequest, run_caveman_preview
from engine.workspace.previews.marks import span_at
from engine.workspace.previews.rtk_preview import FilterBuffer, RtkRequest, run_rtk_preview, sample_to_follow
from engine.workspace.previews.samples import (
    caveman_samples,
    command_hint,
    output_samples,
    sample_file_name,
    sample_for_filters,
    workspace_samples_dir,
)
from engine.workspace.previews.word_diff import word_diff
from tests.support.preview_samples import FILTER, PACK, RUNAWAY, SAMPLE, tool_output, write_pack


def _utf16(s: str) -> list[int]:
    return list(s.encode("utf-16-le"))


def _slice16(s: str, start: int, end: int) -> str:
    units = s.encode("utf-16-le")
    return units[start * 2:end * 2].decode("utf-16-le")


def _rebuild(a: str, b: str) -> tuple[str, str]:
    """Both texts rebuilt from the diff's spans: a from equal+delete/replace, b from equal+insert/replace."""
    ops = word_diff(a, b)
    left = "".join(_slice16(a, op.a_start, op.a_end) for op in ops)
    right = "".join(_slice16(b, op.b_start, op.b_end) for op in ops)
    for op in ops:
        if op.kind == "equal":
            assert _slice16(a, op.a_start, op.a_end) == _slice16(b, op.b_start, op.b_end)
    return left, right


# ---------------------------------------------------------------- word diff

def test_word_diff_marks_removed_words_and_replacements():
    a = "please basically fix the bug in order to ship"
    b = "fix the bug to ship"
    ops = word_diff(a, b)
    removed = [a[op.a_start:op.a_end] for op in ops if op.kind in ("delete", "replace")]
    assert "please basically " in removed
    assert any("in order" in r for r in removed)
    assert [op.kind for op in ops if op.kind != "equal"]  # something changed
    assert _rebuild(a, b) == (a, b)


def test_word_diff_offsets_are_utf16():
    a = "😀 basically done"
    b = "😀 done"
    ops = word_diff(a, b)
    (deleted,) = [op for op in ops if op.kind == "delete"]
    assert (deleted.a_start, deleted.a_end) == (3, 13)  # the emoji is two UTF-16 units
    assert _slice16(a, deleted.a_start, deleted.a_end) == "basically "


def test_word_diff_pairs_lines_of_long_texts_quickly():
    import time

    a = "\n".join(f"line {i}: could you basically check item {i} really carefully" for i in range(400))
    b = "\n".join(f"line {i}: check item {i} carefully" for i in range(400))
    started = time.perf_counter()
    ops = word_diff(a, b)
    assert time.perf_counter() - started < 1.0
    assert sum(1 for op in ops if op.kind == "delete") >= 400
    assert _rebuild(a, b) == (a, b)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["a", "bb", " ", "\n", "😀", "é", ",", "word"]), max_size=30),
       st.lists(st.sampled_from(["a", "bb", " ", "\n", "😀", "x", ".", "word"]), max_size=30))
def test_word_diff_covers_both_texts_in_order(xs, ys):
    a, b = "".join(xs), "".join(ys)
    assert _rebuild(a, b) == (a, b)


def test_utf16_offsets_and_span_lookup():
    text = "a😀b😀c"
    u = Utf16Offsets(text)
    assert [u(i) for i in range(len(text) + 1)] == [0, 1, 3, 4, 6, 7]
    assert len(_utf16("a😀b😀c")) // 2 == u(len(text))


# ---------------------------------------------------------------- Caveman

def test_caveman_preview_explains_rules_spans_and_tokens(pack_root):
    p = run_caveman_preview(CavemanRequest(SAMPLE, pack_root=str(pack_root)))
    assert not p.error
    assert "basically" not in p.output and "config" in p.output and "DB" in p.output
    assert p.tokens_after < p.tokens_before
    assert p.summary().startswith(f"tokens {p.tokens_before} → {p.tokens_after}")
    hits = {h.name: h for h in p.rules}
    assert hits["en_hedges"].matches == 2 and hits["en_hedges"].changed
    for start, end in hits["en_hedges"].spans:  # spans point into the input
        assert SAMPLE[start:end].strip() in ("basically", "really")
    # the protected inline code is shaded and unchanged
    (region,) = p.protected
    assert SAMPLE[region.start:region.end] == "`src/app.py`" and region.label == "inline_code"
    # every removed span names the rule that removed it
    basically = SAMPLE.index("basically")
    (removed,) = span_at(p.input_spans, basically)
    assert "en_hedges" in removed.tip or "en_please" in removed.tip
    in_order = SAMPLE.index("in order")
    assert any(s.rule == "en_in_order_to" for s in span_at(p.input_spans, in_order))
    # savings per category add up to the per-rule savings
    assert sum(n for _c, n in p.categories) == sum(h.saved_tokens for h in p.rules)
    assert p.languages == ["en"]


def test_caveman_preview_intensity_role_and_only_rule(pack_root):
    lite = run_caveman_preview(CavemanRequest(SAMPLE, intensity="lite", pack_root=str(pack_root)))
    assert "configuration" in lite.output  # en_abbrev needs full
    system = run_caveman_preview(CavemanRequest(SAMPLE, role="system", pack_root=str(pack_root)))
    assert "en_please" not in {h.name for h in system.rules}  # context user only
    only = run_caveman_preview(CavemanRequest(SAMPLE, pack_root=str(pack_root), only_rule="en_in_order_to"))
    assert [h.name for h in only.rules] == ["en_in_order_to"]
    assert "basically" in only.output and "in order to" not in only.output


def test_the_rules_line_says_when_the_cleanup_alone_changed_the_text(pack_root):
    """"0 of 1 rules changed the text" beside an output that differs (a capital) read as a bug."""
    only = run_caveman_preview(CavemanRequest("an example that no rule touches", pack_root=str(pack_root),
                                              only_rule="en_in_order_to"))
    assert only.output != only.input and not any(h.changed for h in only.rules)
    assert only.rules_line() == "0 of 1 rules changed the text (the cleanup did: spacing, capitals, punctuation)"
    fired = run_caveman_preview(CavemanRequest(SAMPLE, pack_root=str(pack_root), only_rule="en_in_order_to"))
    assert fired.rules_line() == "1 of 1 rules changed the text"


def test_caveman_preview_uses_the_unsaved_buffer(pack_root):
    edited = json.loads(json.dumps(PACK))
    edited["rules"][0]["pattern"] = "\\bbasically\\s+"
    override = PackOverride("en", "filler", json.dumps(edited))
    p = run_caveman_preview(CavemanRequest(SAMPLE, pack_root=str(pack_root), override=override))
    assert "really" in p.output and "basically" not in p.output
    broken = run_caveman_preview(CavemanRequest(SAMPLE, pack_root=str(pack_root),
                                                override=PackOverride("en", "filler", "{\"rules\": [")))
    assert broken.error and "open in the editor" in broken.error and broken.output == SAMPLE


def test_caveman_preview_reports_a_runaway_rule_in_place(tmp_path):
    pack = json.loads(json.dumps(PACK))
    pack["rules"].append(RUNAWAY)
    root = tmp_path / "runaway"
    write_pack(root, pack)
    text = SAMPLE + " " + "a" * 40 + "b"
    p = run_caveman_preview(CavemanRequest(text, pack_root=str(root), timeout_ms=60))
    hit = next(h for h in p.rules if h.name == "en_runaway")
    assert hit.skipped == "timeout" and hit.timeout_ms == 60
    assert hit.status == "timed out after 60 ms"
    assert any(n.code == "CAV-timeout" and n.rule == "en_runaway" for n in p.notes)
    assert "basically" not in p.output  # the rest of the pack still ran


def test_caveman_notes_say_when_omniroute_sends_the_text_uncompressed(pack_root):
    # CAV-Q1: the second cleanup changes indentation inside a fenced block, validation fails
    text = "Could you please basically check this:\n```\ndef f():\n    return 1\n```\nreally now."
    p = run_caveman_preview(CavemanRequest(text, pack_root=str(pack_root)))
    assert p.sent_uncompressed and p.output == text
    (verdict,) = [n for n in p.notes if n.code == "CAV-fallback"]
    assert verdict.text.startswith("OmniRoute will send this message uncompressed because the compressed text "
                                   "failed validation: fenced code block")
    assert "(quirk CAV-Q1; see below)" in verdict.text
    assert any(n.code == "CAV-Q1" and "second cleanup" in n.text for n in p.notes)
    assert any(n.code == "CAV-Q2" for n in p.notes)
    strict = run_caveman_preview(CavemanRequest(text, pack_root=str(pack_root), profile="strict"))
    assert not strict.sent_uncompressed and "    return 1" in strict.output  # the CAV-Q1 fix
    assert not any(n.code.startswith("CAV-Q") for n in strict.notes)
    empty = run_caveman_preview(CavemanRequest("", pack_root=str(pack_root)))
    assert empty.sent_uncompressed and empty.output == ""


def test_quirk_notes_name_the_quirk(tmp_path):
    pack = {"language": "en", "category": "filler", "rules": [
        {"name": "en_map", "pattern": "\\bfoo\\b", "replacementMap": {"bar": "baz"}, "replacement": "$&!"}]}
    root = tmp_path / "q5"
    write_pack(root, pack)
    p = run_caveman_preview(CavemanRequest("say foo twice: foo and foo", pack_root=str(root)))
    q5 = [n for n in p.notes if n.code == "CAV-Q5"]
    assert q5 and "(CAV-Q5: replacementMap miss inserts replacement verbatim" in q5[0].text
    assert "$&!" in p.output


# ---------------------------------------------------------------- samples

def test_samples_from_workspace_packs_and_builtin(workspace, tmp_path):
    builtin = tmp_path / "builtin"
    (builtin / "de" / "samples").mkdir(parents=True)
    (builtin / "de" / "samples" / "anfrage.txt").write_text("Könnten Sie bitte …", encoding="utf-8")
    (builtin / "de" / "samples" / "ignore.json").write_text("{}", encoding="utf-8")
    saved = workspace_samples_dir(workspace) / sample_file_name("my / sample")
    saved.parent.mkdir(parents=True)
    saved.write_text("mine", encoding="utf-8")
    found = caveman_samples(workspace, builtin, [workspace / "rules"])
    assert [(s.name, s.origin) for s in found] == [("my-sample", "workspace"), ("en/request", "workspace"),
                                                   ("de/anfrage", "built-in")]
    assert found[1].language == "en"
    outputs = output_samples(workspace)
    assert [s.name for s in outputs] == ["mytool.log"]
    assert command_hint(outputs[0].path) == "mytool build"
    assert sample_file_name("..") == "sample.txt" and sample_file_name("a.txt") == "a.txt"


def test_sample_for_filters_is_the_first_output_its_filters_are_chosen_for(workspace):
    from engine.workspace.previews.rtk_preview import parse_filter_buffer

    samples = workspace / "samples"
    (samples / "a-other.log").write_text("othertool 2.0\n", encoding="utf-8")
    (samples / "a-other.cmd").write_text("$ othertool run\n", encoding="utf-8")
    (samples / "b-bare.log").write_text("mytool 1.0\n", encoding="utf-8")  # (no command kept beside it)
    outputs = output_samples(workspace)
    assert [s.name for s in outputs] == ["a-other.log", "b-bare.log", "mytool.log"]
    path = workspace / "filters" / "mytool.json"
    filters, _ = parse_filter_buffer(FilterBuffer(str(path), path.read_text(encoding="utf-8"), None), "omniroute")
    picked = sample_for_filters(outputs, filters)
    assert picked is not None and picked.name == "mytool.log"
    assert sample_for_filters(outputs[:2], filters) is None  # another command's output, and one without a command
    assert sample_for_filters(outputs, []) is None
    # what the IDE asks its helper: a sample to turn to, none when the one shown is chosen already
    buffer = FilterBuffer(str(path), path.read_text(encoding="utf-8"), None)
    assert sample_to_follow(buffer, outputs, outputs[0].path) == picked.path
    assert sample_to_follow(buffer, outputs, None) == picked.path
    assert sample_to_follow(buffer, outputs, picked.path) is None
    assert sample_to_follow(FilterBuffer(str(path), "{", None), outputs, None) is None  # (a broken file: none)


def test_with_no_sample_it_is_chosen_for_a_filter_is_previewed_on_its_own_test(workspace):
    import json

    from engine.workspace.previews.rtk_preview import OwnTest, own_test, parse_filter_buffer

    path = workspace / "filters" / "mytool.json"
    obj = json.loads(path.read_text(encoding="utf-8"))
    obj["tests"] = [{"name": "build", "command": "mytool build", "input": "debug: x\nok", "expected": "ok"}]
    first = {"id": "first", "label": "first", "category": "generic", "match": {"commands": ["^first\\b"]},
             "rules": {}, "preserve": {}, "tests": [{"name": "empty", "input": "", "expected": ""},
                                                    {"name": "bare", "input": "x\ny", "expected": "x"}]}
    text = json.dumps([first, obj])
    filters, _ = parse_filter_buffer(FilterBuffer(str(path), text, None), "omniroute")
    assert own_test(filters) == OwnTest("first", "bare", "x\ny", "")  # (the empty input skipped; no command)
    chosen = own_test(filters, obj["id"])  # the selected filter's first
    assert chosen is not None and chosen.filter_id == obj["id"] and chosen.command
    assert chosen.label == f"{obj['id']} › {chosen.name} (its test)" and chosen.key.startswith("test:")
    buffer = FilterBuffer(str(path), text, obj["id"])
    assert sample_to_follow(buffer, [], None) == chosen  # no workspace sample at all
    assert sample_to_follow(buffer, [], chosen.key) is None  # shown already
    assert own_test([]) is None


# ---------------------------------------------------------------- RTK

def _buffer(tmp_path, flt=FILTER, name="mytool.json") -> FilterBuffer:
    return FilterBuffer(str(tmp_path / name), json.dumps(flt), None)


def test_rtk_preview_explains_detection_choice_and_stages(tmp_path):
    out = tool_output()
    p = run_rtk_preview(RtkRequest(out, "mytool build", active=_buffer(tmp_path)))
    assert not p.error
    assert p.filter_id == "mytool"
    assert "command pattern matched" in p.why and "/^mytool\\b/" in p.why
    assert p.detected_type and 0 <= p.confidence <= 1
    first = p.stages[0]
    assert first.lines_in == p.lines_before and first.counts.get("dropped", 0) >= 30
    assert all(e.action == "dropped" for e in first.events)
    assert any(e.pattern == "^debug:" for e in first.events)
    funnel = p.funnel()
    assert funnel[0] == ("input", p.lines_before)
    assert funnel[-1][1] == p.lines_after
    assert "debug:" not in p.text and "error: link failed" in p.text
    kinds = {p.text[h.start:h.end]: h.kind for h in p.highlights}
    assert kinds["error: link failed in main.o"] == "error"
    assert kinds["summary: 1 error, 1 warning"] == "error"  # the engine's error pattern wins
    assert p.tokens_after < p.tokens_before and p.savings_percent > 0


def test_rtk_preview_summary_lines_and_this_filter_only(tmp_path):
    out = "mytool run\n" + "".join(f"debug: {i}\n" for i in range(5)) + "summary: all good\n"
    p = run_rtk_preview(RtkRequest(out, "", active=_buffer(tmp_path), scope="filter"))
    assert p.filter_id == "mytool" and "run alone" in p.why
    assert not p.detected_type  # no detection when the filter runs alone
    assert [h.kind for h in p.highlights] == ["summary"]
    assert p.text.splitlines() == ["mytool run", "summary: all good"]


def test_rtk_preview_reports_a_broken_open_filter(tmp_path):
    bad = dict(FILTER, category="nonsense")
    p = run_rtk_preview(RtkRequest(tool_output(), "mytool build", active=_buffer(tmp_path, bad)))
    assert p.filter_id != "mytool"
    assert any(n.level == "error" and n.text.startswith("open filter file: /category") for n in p.notes)
    alone = run_rtk_preview(RtkRequest(tool_output(), "", active=_buffer(tmp_path, bad), scope="filter"))
    assert alone.error == "no filter in the open file to run alone"
    syntax = run_rtk_preview(RtkRequest("x\n", "", active=FilterBuffer(str(tmp_path / "f.json"), "{", None)))
    assert any("not valid JSON" in n.text for n in syntax.notes)


def test_rtk_preview_with_no_filters_and_empty_output():
    p = run_rtk_preview(RtkRequest("", ""))
    assert p.lines_before == 0 and p.text == ""
    q = run_rtk_preview(RtkRequest("just some prose that is no command output\n", ""))
    assert q.document_read and "document read" in q.why


TOML_FILTER = """schema_version = 1

[filters.quiet-build]
description = "drops debug chatter"
match_command = "^quietbuild\\\\b"
strip_lines_matching = ["^debug:"]
"""


def test_rtk_preview_runs_an_unsaved_toml_filter(tmp_path):
    buf = FilterBuffer(str(tmp_path / "filters.toml"), TOML_FILTER, None)
    out = "building\ndebug: a\ndebug: b\ndone\n"
    p = run_rtk_preview(RtkRequest(out, "quietbuild all", active=buf))
    assert p.filter_id == "quiet-build" and "debug:" not in p.text
    alone = run_rtk_preview(RtkRequest(out, "", active=buf, scope="filter"))
    assert alone.filter_id == "quiet-build" and alone.text.splitlines()[:2] == ["building", "done"]
    broken = run_rtk_preview(RtkRequest(out, "quietbuild", active=FilterBuffer(buf.path, "schema_version = 2\n")))
    assert any(n.code == "RTK-TOML" for n in broken.notes)


def test_rtk_preview_runs_the_workspaces_other_filter_files_as_an_open_one(tmp_path):
    """A workspace filter competes whether or not its file is open (opening it changes nothing),
    an unsaved one by its buffer, and a file changed on disk is read again."""
    import os

    path = tmp_path / "filters" / "mytool.json"
    path.parent.mkdir()
    path.write_text(json.dumps(FILTER), encoding="utf-8")
    out, files = tool_output(), (str(path),)
    closed = run_rtk_preview(RtkRequest(out, "mytool build", workspace_files=files))
    opened = run_rtk_preview(RtkRequest(out, "mytool build", workspace_files=files,
                                        active=FilterBuffer(str(path), path.read_text(encoding="utf-8"))))
    assert closed.filter_id == opened.filter_id == "mytool"
    assert (closed.text, closed.why) == (opened.text, opened.why)
    assert "(project scope, mytool.json)" in closed.why  # (where it is written: outside the workspace, its name)
    in_ws = run_rtk_preview(RtkRequest(out, "mytool build", workspace_files=files, project_dir=str(tmp_path)))
    assert "(project scope, filters/mytool.json)" in in_ws.why
    library = run_rtk_preview(RtkRequest(out, "mytool build", workspace_files=files, builtin_dir=str(path.parent)))
    assert library.filter_id == "mytool" and "project scope" in library.why  # (the library's folder: its files once)
    assert run_rtk_preview(RtkRequest(out, "mytool build")).filter_id != "mytool"  # (not one of the files)
    renamed = json.dumps({**FILTER, "id": "renamed"})
    unsaved = run_rtk_preview(RtkRequest(out, "mytool build", workspace_files=files,
                                         unsaved=(FilterBuffer(str(path), renamed),)))
    assert unsaved.filter_id == "renamed"
    path.write_text(json.dumps({**FILTER, "id": "saved-later"}), encoding="utf-8")
    os.utime(path, ns=(1, 1))  # (a new stamp even where the clock is coarse)
    assert run_rtk_preview(RtkRequest(out, "mytool build", workspace_files=files)).filter_id == "saved-later"
    path.unlink()  # gone since the scan: left out, no error
    gone = run_rtk_preview(RtkRequest(out, "mytool build", workspace_files=files))
    assert gone.filter_id != "saved-later" and not gone.error


def test_the_warm_up_takes_the_pack_s_patterns_past_their_untimed_threshold(pack_root, monkeypatch):
    """A helper's warm-up runs the first stage on its text repeated to ``WARM_UNITS``: every
    rule's pattern has then met enough text for untimed calls, which a large paste would
    otherwise wait for (the explanation runs on the text as given)."""
    from engine.caveman.fast import strategy
    from engine.workspace.previews import caveman_preview

    monkeypatch.setattr(strategy, "_UNITS_MET", {})
    seen: list[int] = []
    explained = caveman_preview.run_caveman_preview
    monkeypatch.setattr(caveman_preview, "run_caveman_preview", lambda req: seen.append(len(req.text)) or explained(req))
    assert caveman_preview.warm_up(CavemanRequest(SAMPLE, pack_root=str(pack_root))) > 0
    assert seen == [len(SAMPLE)]
    patterns = [(rule["pattern"], rule.get("flags", "gi")) for rule in PACK["rules"]]
    assert all(strategy.untimed_ready(source, flags) for source, flags in patterns)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["Error: x\n", "    at y\n", "  at z\n", "Basically, ", "the end. ", "\n"]),
                min_size=1, max_size=400),
       st.sampled_from([("    at ", " At "), ("Basically, ", ""), ("x", "x"), ("\n\n", "\n")]))
def test_word_diff_of_repetitive_text_aligns_in_one_walk(pieces, change):
    """A text of few distinct segments, repeated (a log, stack lines): ``difflib`` would pair every
    segment with every equal one (a MB of stack lines ran for minutes in the IDE's explanation);
    the linear alignment takes over, and the diff still rebuilds both texts."""
    import difflib

    from engine.workspace.previews import word_diff as module

    a = "".join(pieces * 20)
    b = a.replace(*change)
    longest = [0]
    real = difflib.SequenceMatcher

    class Counted(real):  # type: ignore[misc, valid-type]
        def __init__(self, isjunk, x, y, **kw):
            longest[0] = max(longest[0], len(x), len(y))
            super().__init__(isjunk, x, y, **kw)

    module.difflib.SequenceMatcher = Counted
    try:
        assert _rebuild(a, b) == (a, b)
    finally:
        module.difflib.SequenceMatcher = real
    a_seg, b_seg = module._segments(a)[0], module._segments(b)[0]
    pairings = sum(b_seg.count(x) for x in set(a_seg) for _ in range(a_seg.count(x)))
    # a matcher over the whole lists only where equal segments pair up a bounded number of times
    assert longest[0] < len(a_seg) or pairings <= module.MATCH_WORK * (len(a_seg) + len(b_seg))


def test_word_diff_of_a_long_stack_trace_takes_the_linear_alignment():
    from engine.workspace.previews import word_diff as module

    a = "Error: x\n    at y\n" * 5_000
    b = a.replace("    at ", " At ")
    a_seg = module._segments(a)[0]
    assert module._segment_opcodes(a_seg, module._segments(b)[0])[:2] == [
        ("equal", 0, 1, 0, 1), ("equal", 1, 2, 1, 2)]  # (one op per segment: the walk, not difflib)
    assert _rebuild(a, b) == (a, b)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab `.,:\n😀é", max_size=60), st.text(alphabet="ab `.,:\n😀é", max_size=60),
       st.text(alphabet="ab `.", max_size=8))
def test_a_segment_too_long_for_the_word_diff_keeps_its_shared_ends(head, tail, middle):
    """Past the pair budget, the words two segments share at their start and end are equal runs
    and only the middle is replaced; the ops still rebuild both texts, equal runs equal."""
    from engine.workspace.previews import word_diff as module

    original = module.PAIR_BUDGET
    module.PAIR_BUDGET = 0  # (every segment over budget)
    try:
        a, b = head + "x" + tail, head + middle + tail
        assert _rebuild(a, b) == (a, b)
    finally:
        module.PAIR_BUDGET = original


def test_a_long_line_changed_at_its_end_is_not_marked_changed_whole():
    a = "`a` " * 200_000  # one segment of 800,000 characters, no sentence end
    b = a.rstrip()
    ops = word_diff(a, b)
    changed = [op for op in ops if op.kind != "equal"]
    assert sum(op.a_end - op.a_start for op in changed) <= 8 and _rebuild(a, b) == (a, b)
