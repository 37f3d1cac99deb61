"""Selection across scopes, the engine around the filter, chat bodies and the CLI (rtk.md §3, §7–§9)."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import pytest

from engine.cli import filter as filter_cli
from engine.rtk.engine import RtkConfig, effective_max_lines, process_rtk_text
from engine.rtk.messages import apply_rtk_compression, is_shell_tool, resolve_config
from engine.rtk.select import select_filter, sort_filters
from engine.rtk.tokens import estimate_tokens
from engine.rtk.trace import Trace

from .helpers import canonical, make

GIT_STATUS = "On branch main\nChanges not staged for commit:\n\tmodified:   a.py\n\n\nUntracked files:\n\tb.py\n"


def status_filter(fid="status", **kwargs):
    kwargs.setdefault("match", {"outputTypes": ["git-status"]})
    kwargs.setdefault("rules", {"dropPatterns": ["^\\s*$"]})
    return make(fid, **kwargs)


def test_sort_order_scope_format_priority_then_icu_id():
    filters = [make("b", priority=10), make("a_", priority=10), make("A", priority=10), make("a", priority=10),
               make("z", priority=90), make("p", source="project", priority=1)]
    assert [f.id for f in sort_filters(filters)] == ["p", "z", "a", "A", "a_", "b"]
    assert [f.id for f in sort_filters(filters, profile="strict")] == ["p", "z", "A", "a", "a_", "b"]  # RTK-Q15


def test_criterion_order_beats_priority_and_project_beats_builtin():
    by_type = status_filter("low", priority=10)
    by_command = make("high", priority=90, match={"commands": ["^git\\s+status"]})
    chosen = select_filter(GIT_STATUS, "git status", [by_command, by_type])
    assert (chosen.filter.id, chosen.criterion, chosen.scope) == ("low", "outputTypes", "builtin")
    project = make("mine", source="project", match={"patterns": ["Untracked files:"]})
    chosen = select_filter(GIT_STATUS, "git status", [by_command, by_type, project])
    assert (chosen.filter.id, chosen.criterion, chosen.scope) == ("mine", "patterns", "project")


def test_generic_fallback_and_no_filter():
    generic = make("generic", match={"outputTypes": ["generic-output"]})
    assert select_filter("hello", None, [generic]).criterion == "generic-fallback"
    assert select_filter("hello", None, [make("x")]).filter is None


def test_disabled_winner_means_no_filter_rtk_q5():
    chosen, other = status_filter("first", priority=90), status_filter("second", priority=10)
    picked = select_filter(GIT_STATUS, None, [chosen, other], disabled=["first"])
    assert picked.filter is None and picked.disabled.id == "first"
    assert [d.code for d in picked.diagnostics] == ["RTK-Q5"]
    strict = select_filter(GIT_STATUS, None, [chosen, other], disabled=["first"], profile="strict")
    assert strict.filter.id == "second"


def test_engine_runs_filter_dedup_and_cap():
    result = process_rtk_text(GIT_STATUS, "git status", {"enabled": True}, [status_filter()])
    assert result.filter.id == "status" and result.detection.type == "git-status"
    assert result.rules_applied == ["status:strip"] and result.techniques_used == ["rtk-filter"]
    assert result.text == "On branch main\nChanges not staged for commit:\n\tmodified:   a.py\nUntracked files:\n\tb.py"
    assert result.original_tokens == estimate_tokens(GIT_STATUS)
    assert result.compressed_tokens == estimate_tokens(result.text)
    assert result.compressed


def test_document_read_bypass_keeps_lines_but_not_dedup_rtk_q9():
    document = "\n".join(f"paragraph {i}" for i in range(200)) + "\nsame\nsame\nsame\nsame"
    result = process_rtk_text(document, None, {"enabled": True}, [make("generic", match={"outputTypes": ["generic-output"]})])
    assert result.document_read and result.filter is None
    assert "paragraph 199" in result.text and "[line repeated 3x]" in result.text
    assert any(d.code == "RTK-Q9" for d in result.diagnostics)
    strict = process_rtk_text(document, None, {"enabled": True}, [], profile="strict")
    assert strict.text == document


def test_final_cap_keeps_priority_lines_and_uses_intensity():
    text = "\n".join([f"step {i}" for i in range(400)] + ["FAILED: the build"] + [f"tail {i}" for i in range(50)])
    result = process_rtk_text(text, "make", {"enabled": True, "maxCharsPerResult": 0}, [])
    lines = result.text.split("\n")
    assert "FAILED: the build" in lines and "rtk:truncate" in result.rules_applied
    assert len(lines) == 24 + 1 + 1 + 24  # head, marker, the priority line, tail
    assert effective_max_lines(120, "minimal") == 180
    assert effective_max_lines(120, "aggressive") == 60
    assert effective_max_lines(0, "standard") == 1  # RTK-Q8
    assert effective_max_lines(0, "standard", profile="strict") == 0


def test_command_found_in_prose_is_reported_rtk_q14():
    result = process_rtk_text("make sure the build passes\nthen ship", None, {"enabled": True}, [])
    assert result.detection.command == "make sure the build passes"
    assert any(d.code == "RTK-Q14" for d in result.diagnostics)
    prompt = process_rtk_text("$ make all\nok", None, {"enabled": True}, [])
    assert not any(d.code == "RTK-Q14" for d in prompt.diagnostics)


def test_config_normalisation():
    cfg = RtkConfig.from_dict({"intensity": "ultra", "maxLinesPerResult": 7.9, "deduplicateThreshold": 1,
                               "enabledFilters": ["a", 3], "maxCharsPerResult": "x", "trustProjectFilters": 1})
    assert (cfg.intensity, cfg.max_lines_per_result, cfg.deduplicate_threshold) == ("minimal", 7, 2)
    assert cfg.enabled_filters == ["a"] and cfg.max_chars_per_result == 12000
    assert cfg.trust_project_filters is False


def test_trace_says_why_the_filter_was_chosen():
    trace = Trace()
    process_rtk_text(GIT_STATUS, "git status", {"enabled": True}, [status_filter()], trace=trace)
    payload = trace.to_dict()
    assert payload["selection"]["criterion"] == "outputTypes" and payload["selection"]["scope"] == "builtin"
    assert payload["detection"]["type"] == "git-status"
    assert payload["stages"][0]["stage"] == "strip"


# ----------------------------------------------------------------------------- chat bodies


def chat(tool_name="bash", command="pip install x", cache=False):
    output = "\n".join(["Collecting x"] + ["Downloading chunk"] * 40 + ["Successfully installed x-1.0"])
    block = {"type": "tool_result", "tool_use_id": "t1", "content": output}
    if cache:
        block["cache_control"] = {"type": "ephemeral"}
    return {"messages": [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": tool_name,
                                            "input": {"command": command}}]},
        {"role": "user", "content": [block]},
    ]}


PIP = make("pip", match={"outputTypes": ["pip"]}, rules={"dropPatterns": ["^Downloading"]})


def test_tool_result_blocks_are_filtered_and_cache_control_kept():
    body = chat()
    result = apply_rtk_compression(body, filters=[PIP])
    assert result.compressed
    assert result.body["messages"][1]["content"][0]["content"] == "Collecting x\nSuccessfully installed x-1.0"
    assert body["messages"][1]["content"][0]["content"].count("Downloading") == 40  # input untouched
    cached = chat(cache=True)
    result = apply_rtk_compression(cached, filters=[PIP])
    assert json.dumps(result.body) == json.dumps(cached)


def test_non_shell_tools_skip_filters_rtk_q11():
    assert is_shell_tool("Bash") and is_shell_tool("run_command") and is_shell_tool("exec")
    assert not is_shell_tool("run_shell_command")
    assert is_shell_tool("run_shell_command", profile="strict")
    result = apply_rtk_compression(chat(tool_name="read_file"), filters=[PIP])
    assert result.results[0]["skipFilters"] and result.results[0]["filterId"] is None
    assert not any(d.code == "RTK-Q11" for d in result.diagnostics)
    result = apply_rtk_compression(chat(tool_name="run_shell_command"), filters=[PIP])
    assert [d.code for d in result.diagnostics if d.code == "RTK-Q11"] == ["RTK-Q11"]


def test_enabling_rules_rtk_q13():
    assert resolve_config(None, None)[0].enabled is True
    assert resolve_config({"intensity": "aggressive"}, None)[0].enabled is False
    assert resolve_config({"intensity": "aggressive"}, None, profile="strict")[0].enabled is True
    assert resolve_config({"enabled": False}, {})[0].enabled is True
    assert apply_rtk_compression(chat(), {"intensity": "standard"}, filters=[PIP]).stats is None


def test_openai_tool_messages_use_the_call_command():
    output = "\n".join(["Collecting y"] + ["Downloading z"] * 30)
    body = {"messages": [
        {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "bash",
                                                                      "arguments": '{"cmd": "pip install y"}'}}]},
        {"role": "tool", "tool_call_id": "c", "content": output},
    ]}
    result = apply_rtk_compression(body, filters=[PIP])
    assert result.body["messages"][1]["content"] == "Collecting y"
    assert result.results[0]["command"] == "pip install y"


# ----------------------------------------------------------------------------- CLI


def test_cli_filter_stage_and_rejection():
    flt = canonical("s", rules={"dropPatterns": ["^x"]})
    response = filter_cli.handle_request({"stage": "filter", "filter": flt, "output": "x\ny\n"})
    assert response["text"] == "y\n" and response["rulesApplied"] == ["s:strip"]
    bad = dict(flt, priority=500)
    assert "Too big" in filter_cli.handle_request({"stage": "filter", "filter": bad, "output": ""})["error"]


def test_cli_engine_stage_with_a_builtin_folder(tmp_path):
    (tmp_path / "status.json").write_text(json.dumps(canonical(
        "status", match={"outputTypes": ["git-status"]}, rules={"dropPatterns": ["^\\s*$"]})), encoding="utf-8")
    response = filter_cli.handle_request({"stage": "engine", "output": GIT_STATUS, "command": "git status",
                                          "builtin": str(tmp_path)})
    assert (response["filterId"], response["filterSource"], response["detectedType"]) == (
        "status", "builtin", "git-status")
    assert response["rulesApplied"] == ["status:strip"]
    with pytest.raises(ValueError):
        filter_cli.handle_request({"stage": "nope", "output": ""})


def test_cli_run_reads_a_file_and_prints_json(tmp_path, monkeypatch, capsys):
    sample = tmp_path / "out.txt"
    sample.write_text(GIT_STATUS, encoding="utf-8")
    (tmp_path / "f").mkdir()
    (tmp_path / "f" / "s.json").write_text(json.dumps(canonical(
        "status", match={"outputTypes": ["git-status"]}, rules={"dropPatterns": ["^\\s*$"]})), encoding="utf-8")
    from engine.cli import main

    assert main(["filter", str(sample), "--command", "git status", "--builtin", str(tmp_path / "f"), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["filterId"] == "status"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"x\n")))
    assert main(["filter", "--stage", "filter"]) == 2  # --stage filter needs --filter
    assert main(["filter", str(tmp_path / "missing.txt")]) == 1
    assert "error" in capsys.readouterr().err


def test_scoped_filters_are_frozen_and_replaceable():
    flt = make("x")
    assert replace(flt, source="project").source == "project"


def test_a_match_pattern_that_runs_out_of_time_counts_as_no_match(monkeypatch):
    from engine.jsregex import RegexTimeout
    from engine.rtk import select

    class Slow:
        def search(self, subject):
            raise RegexTimeout("x.*y", "im", 0.25)

    real = select.compile_cached
    monkeypatch.setattr(select, "compile_cached",
                        lambda source, flags: (Slow(), None) if source == "x.*y" else real(source, flags))
    slow = make("slow", priority=90, match={"patterns": ["x.*y"]})
    fallback = make("generic", priority=10, match={"outputTypes": ["generic-output"]})
    chosen = select_filter("xxxx y", "frob", [slow, fallback])  # holds "y", so the regex must run
    assert chosen.filter.id == "generic"
    assert [d.code for d in chosen.diagnostics] == ["RTK-TIMEOUT"]


def test_cli_reports_a_bad_filter_file_at_line_and_column(tmp_path, capsys):
    from engine.cli import main

    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "id": "x",\n  "label": "X",\n  "category": "nope",\n  "match": {},\n'
                   '  "rules": {}, "preserve": {}\n}\n', encoding="utf-8")
    sample = tmp_path / "out.txt"
    sample.write_text("hello\n", encoding="utf-8")
    assert main(["filter", str(sample), "--stage", "filter", "--filter", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:4:15: error: Invalid option: expected one of" in err


def test_id_collation_and_toml_case_quirks_are_reported():
    upper, lower = status_filter("B"), status_filter("a")
    # ICU: a < B; code points: B < a
    chosen = select_filter(GIT_STATUS, None, [upper, lower])
    assert chosen.filter.id == "a" and [d.code for d in chosen.diagnostics] == ["RTK-Q15"]
    assert select_filter(GIT_STATUS, None, [upper, lower], profile="strict").filter.id == "B"
    toml = replace(make("tool"), source_format="rtk-toml-v1", shape="toml", command_patterns=("^Tool\\b",))
    chosen = select_filter("out", "tool run", [toml])
    assert chosen.criterion == "toml-command" and [d.code for d in chosen.diagnostics] == ["RTK-Q16"]
    assert select_filter("out", "tool run", [toml], profile="strict").filter is None


def test_code_blocks_only_mode_rewrites_fenced_spans_of_assistant_messages():
    noisy = "\n".join(["Collecting x"] + ["Downloading chunk"] * 30)
    body = {"messages": [{"role": "assistant", "content": f"Here is the log:\n```\n{noisy}\n```\nDone."}]}
    config = {"enabled": True, "applyToToolResults": False, "applyToCodeBlocks": True}
    result = apply_rtk_compression(body, config, filters=[PIP])
    text = result.body["messages"][0]["content"]
    assert text.startswith("Here is the log:\n") and text.endswith("\nDone.")
    assert text.count("Downloading") < 30
    # without a fence nothing is eligible
    plain = {"messages": [{"role": "assistant", "content": noisy}]}
    assert apply_rtk_compression(plain, config, filters=[PIP]).body == plain


def test_array_tool_content_parts_are_processed_one_by_one():
    noisy = "\n".join(["Collecting x"] + ["Downloading chunk"] * 30)
    body = {"messages": [
        {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "bash",
                                                                      "arguments": '{"command": "pip install x"}'}}]},
        {"role": "tool", "tool_call_id": "c", "content": [
            {"type": "text", "text": noisy}, {"type": "image_url", "image_url": {"url": "x"}}, {"type": "text", "text": ""}]},
    ]}
    result = apply_rtk_compression(body, filters=[PIP])
    parts = result.body["messages"][1]["content"]
    assert parts[0]["text"] == "Collecting x" and parts[1] == {"type": "image_url", "image_url": {"url": "x"}}
    assert parts[2]["text"] == ""
