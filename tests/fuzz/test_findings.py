"""One regression test per finding 4–11 of issue 23 (hostile input to the CLI); the IDE's
findings 12–17 (and 4's workspace FIFO) are in ``tests/app/ide/test_data_safety.py``.

Each runs the real command in-process (``harness.run_cli``) and asserts the contract: no
traceback, exit code 0/1/2, a located diagnostic, bounded time and memory.
"""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path

import pytest

from .harness import run_cli

REPO = Path(__file__).resolve().parents[2]
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


def _ok(outcome, *codes: int) -> None:
    assert not outcome.problems(), (outcome.problems(), outcome.err[-800:])
    assert outcome.code in (codes or (0, 1, 2)), (outcome.code, outcome.err[-800:])


def _filter(tmp_path: Path, name: str = "f.json", **rules) -> Path:
    body = json.loads((REPO / "filters" / "brew.json").read_text())
    body.update(id="slow", tests=[])
    body["rules"] = {**{k: v for k, v in body["rules"].items() if k in ("stripAnsi",)}, **rules}
    path = tmp_path / name
    path.write_text(json.dumps(body), encoding="utf-8")
    return path


# ------------------------------------------------------------------ 4: every read is bounded

@pytest.mark.slow
@needs_fifo
def test_finding_04_reads_are_bounded_fifo_dev_zero_and_limit(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".rtk").mkdir(parents=True)
    os.mkfifo(project / ".rtk" / "filters.json")  # a FIFO where a project file should be
    (project / ".rtk" / "trust.json").symlink_to("/dev/zero")  # git can store this
    started = time.monotonic()
    for argv in (["filter", "-", "--project", str(project), "--json"],
                 ["validate", str(project / ".rtk" / "filters.json")],
                 ["validate", str(project / ".rtk" / "trust.json")],
                 ["verify", "--project", str(project)],
                 ["trust", str(project), "--check"]):
        outcome = run_cli(argv, stdin=b"line\n", hang_seconds=15)
        _ok(outcome)
    assert time.monotonic() - started < 20  # nothing blocked on the FIFO or read /dev/zero
    refused = run_cli(["validate", str(project / ".rtk" / "filters.json")])
    assert "FIFO" in refused.out + refused.err and ":1:1:" in refused.out + refused.err
    # the loader names the refusal, not only "untrusted and skipped": the user learns why
    for argv in (["filter", "-", "--project", str(project), "--command", "git status"],
                 ["filter", "-", "--project", str(project), "--command", "git status", "--json"]):
        loaded = run_cli(argv, stdin=b"line\n")
        _ok(loaded, 0)
        assert "FIFO (named pipe)" in loaded.out + loaded.err, loaded.err
    # a trust.json that is a device is named as not read, not only as "untrusted"
    (project / ".rtk" / "filters.json").unlink()
    (project / ".rtk" / "filters.json").write_text('{"filters": []}', encoding="utf-8")
    device = run_cli(["filter", "-", "--project", str(project)], stdin=b"line\n")
    _ok(device, 0)
    assert "trust.json not read: is a character device" in device.err, device.err
    # the same limit for every command: a pack over RULEWRIGHT_MAX_FILE_MB is refused, not applied
    rules = tmp_path / "rules" / "en"
    rules.mkdir(parents=True)
    big = {"language": "en", "category": "big", "rules": [{"name": "r", "pattern": "x", "replacement": "y"}],
           "description": "d" * (2 * 1024 * 1024)}
    (rules / "big.json").write_text(json.dumps(big), encoding="utf-8")
    env = {"RULEWRIGHT_MAX_FILE_MB": "1"}
    for argv in (["compress", "-", "--rules", str(tmp_path / "rules"), "--language", "en", "--json"],
                 ["validate", str(rules / "big.json")]):
        outcome = run_cli(argv, stdin=b"x " * 100, env=env)
        _ok(outcome)
    assert "1 MB" in run_cli(["validate", str(rules / "big.json")], env=env).out
    # standard input and one --jsonl line: at most the limit is read
    outcome = run_cli(["regex", "a", "-"], stdin=b"a" * (1024 * 1024 + 10), env=env)
    _ok(outcome, 1)
    assert "file-too-large" in outcome.err
    batch = b'{"pattern": "a", "input": "' + b"a" * (1024 * 1024 + 10) + b'"}\n{"pattern": "a", "input": "a"}\n'
    outcome = run_cli(["regex", "--jsonl"], stdin=batch, env=env)
    _ok(outcome, 0)
    answers = [json.loads(line) for line in outcome.out.splitlines()]
    assert "error" in answers[0] and "matches" in answers[1]


# ------------------------------------------------------------------ 5: compile cost is bounded

def test_finding_05_32000_capture_groups_are_refused_and_reported(tmp_path: Path) -> None:
    rules = tmp_path / "rules" / "en"
    rules.mkdir(parents=True)
    pack = {"language": "en", "category": "groups",
            "rules": [{"name": f"g{i}", "pattern": "(a)" * 32000, "replacement": "b"} for i in range(4)]}
    (rules / "groups.json").write_text(json.dumps(pack), encoding="utf-8")
    report = run_cli(["validate", str(rules / "groups.json")])
    _ok(report, 1)
    assert "32,000 capture groups" in report.out and "CAV-unsupported" in report.out
    started = time.monotonic()
    outcome = run_cli(["compress", "-", "--rules", str(tmp_path / "rules"), "--language", "en", "--json"],
                      stdin=b"aaa bbb " * 50)
    _ok(outcome)
    assert time.monotonic() - started < 20
    assert "CAV-unsupported" in outcome.out + outcome.err
    uncompilable = run_cli(["regex", "(?:a{1000}){1000}", "-"], stdin=b"aaa")
    _ok(uncompilable, 1)
    assert "unsupported" in uncompilable.err


# ------------------------------------------------------------------ 6: a total deadline per run

@pytest.mark.slow
def test_finding_06_total_regex_budget_per_filter_and_tests_run(tmp_path: Path) -> None:
    slow = "^(a|aa)*$"  # catastrophic on "aaaa…c": ~1 s a line
    flt = _filter(tmp_path, dropPatterns=[slow])
    data = json.loads(flt.read_text())
    data["tests"] = [{"name": "t", "input": "\n".join(["a" * 28 + "c"] * 400), "expected": "\n".join(["a" * 28 + "c"] * 400)}]
    flt.write_text(json.dumps(data), encoding="utf-8")
    env = {"RULEWRIGHT_REGEX_BUDGET_S": "1"}
    # CPU seconds of the finished children, not wall time: the budget is a deadline, so a loaded
    # machine stretches the wall clock but not the work done (400 lines x ~1 s without a total)
    started = _children_cpu()
    lines = "".join(f"{'a' * 28}c{i}\n" for i in range(400)).encode()
    outcome = run_cli(["filter", "-", "--filter", str(flt), "--stage", "filter", "--json"], stdin=lines, env=env)
    _ok(outcome)
    assert _children_cpu() - started < 10, "per-line budgets added up past the total"
    assert "RTK-TIMEOUT" in outcome.out and "slow" in outcome.out
    verdict = run_cli(["verify", str(flt), "--json"], env=env)
    _ok(verdict, 1)  # a test whose filter ran out of time does not pass
    assert _children_cpu() - started < 20


def _children_cpu() -> float:
    """CPU seconds used so far by this process's waited-for children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def test_finding_06_an_untimed_linear_call_answers_for_the_total_budget() -> None:
    """Caveman's fast path runs patterns proved linear without a per-call timer; when the run's
    total budget ends during such a call, the call still reports it (naming the total), so many
    linear rules on a big text cannot outrun the budget one call at a time."""
    from engine.caveman.fast import FastRegex
    from engine.jsregex import RegexTimeout
    from engine.jsregex.budget import total_budget

    rx = FastRegex(r"\bword\b", "g")
    text = "a word and another word " * 100_000  # 2.4 MB: one call takes well over a millisecond
    assert rx.replace(text, "w").count("w") == 200_000
    with total_budget(0.001, "this test's rules"), pytest.raises(RegexTimeout) as stopped:
        rx.replace(text, "w")
    assert stopped.value.total and "this test's rules" in stopped.value.total


def test_finding_06_caveman_names_the_total_budget_and_keeps_the_text(monkeypatch) -> None:
    from engine.caveman import PackSource, compress_text

    monkeypatch.setenv("RULEWRIGHT_REGEX_BUDGET_S", "0.000001")
    rules = [{"name": f"r{i}", "pattern": rf"\bword{i}\b", "replacement": "w", "flags": "gi"} for i in range(3)]
    source = PackSource.from_packs([{"language": "en", "category": "many", "rules": rules}])
    text = "Some prose with word1 and word2 in it. " * 20_000
    result = compress_text(text, source, {"enabled": True, "intensity": "full", "minMessageLength": 0})
    # the budget ends before or during the protected-region scan or the rules: whichever
    # stopped says the total budget stopped it, and what it names is kept
    stopped = [d for d in result.diagnostics if d.code == "CAV-timeout"]
    assert stopped and all("total regex budget" in d.message for d in stopped), stopped
    assert {d.data.get("rule") for d in stopped} <= {None, "r1", "r2"}  # r0 never matches: never run
    assert result.body["messages"][0]["content"] == text  # nothing applied, nothing lost


# ------------------------------------------------------------------ 7: replacement output capped

@pytest.mark.slow
def test_finding_07_replacement_expansion_is_capped(tmp_path: Path) -> None:
    rules = tmp_path / "rules" / "en"
    rules.mkdir(parents=True)
    pack = {"language": "en", "category": "blowup", "rules": [{"name": "blowup", "pattern": "\\w+",
                                                               "replacement": "$&" * 100_000}]}
    (rules / "blowup.json").write_text(json.dumps(pack), encoding="utf-8")
    text = b"word " * 1000
    started = time.monotonic()
    outcome = run_cli(["compress", "-", "--rules", str(tmp_path / "rules"), "--language", "en"], stdin=text)
    _ok(outcome)
    assert time.monotonic() - started < 30
    assert len(outcome.out) < 10 * len(text) and "blowup" in outcome.err
    flt = _filter(tmp_path, replace=[{"pattern": "\\w+", "replacement": "$&" * 100_000}])
    outcome = run_cli(["filter", "-", "--filter", str(flt), "--stage", "filter", "--json"], stdin=text)
    _ok(outcome)
    assert len(outcome.out) < 100 * len(text) and "RTK-TIMEOUT" in outcome.out


# ------------------------------------------------------------------ 8: params is linear

def test_finding_08_params_builds_one_source_map_for_all_warnings(tmp_path: Path, monkeypatch) -> None:
    import json_source_map

    calls = []
    real = json_source_map.calculate
    monkeypatch.setattr(json_source_map, "calculate", lambda text: (calls.append(1), real(text))[1])
    base = json.loads((REPO / "resources" / "samples" / "params" / "deepseek.json").read_text())
    base["mcpServers"] = [{"id": i, "name": 5, "isActive": "yes"} for i in range(300)]
    payload = tmp_path / "p.json"
    payload.write_text(json.dumps(base, indent=1), encoding="utf-8")
    outcome = run_cli(["params", str(payload)])
    _ok(outcome, 0)
    assert outcome.err.count("warning") >= 300
    assert len(calls) == 1


def test_finding_08b_fallback_explanation_is_linear_on_one_long_line_of_code_spans() -> None:
    """A single line of many inline-code spans that falls back (CAV-Q1: the second cleanup alters
    protected text) used to grow ~4x per doubling in the fallback explanation. Counted, not
    timed: the interpreter's call events (generator resumptions included) at n and 2n spans."""
    import sys

    from engine.caveman import PackSource, compress_text
    from engine.paths import builtin_rules_dir

    source = PackSource.from_dir(builtin_rules_dir())
    config = {"enabled": True, "intensity": "full", "minMessageLength": 0}

    def events(spans: int) -> int:
        text = "Please basically just check `a .` and also ` b  ` here " * spans
        count = 0

        def profile(frame, event, arg) -> None:
            nonlocal count
            count += 1

        sys.setprofile(profile)
        try:
            result = compress_text(text, source, config)
        finally:
            sys.setprofile(None)
        assert "CAV-Q1" in {d.code for d in result.diagnostics}  # the explanation ran
        assert result.body["messages"][0]["content"] == text  # fell back: the text is whole
        return count

    events(200)  # warm the caches, so both measured runs do the same kind of work
    small, large = events(1000), events(2000)
    assert large < 2.6 * small, (small, large)  # linear: ~2x; the quadratic explanation was ~4x


# ------------------------------------------------------------------ 9: one bad --jsonl line

@pytest.mark.parametrize("bad", [b'{"pattern": "a", "input": ' + b"1" * 5000 + b"}",
                                 b"[" * 100_000 + b"]" * 100_000,
                                 b'{"pattern": "\xff\xfe"}'])
def test_finding_09_a_bad_jsonl_line_does_not_end_the_batch(bad: bytes) -> None:
    good = b'{"pattern": "a", "input": "aa"}'
    for command in ("regex", "repair", "params", "compress"):
        outcome = run_cli([command, "--jsonl"], stdin=good + b"\n" + bad + b"\n" + good + b"\n")
        _ok(outcome, 0)
        answers = [json.loads(line) for line in outcome.out.splitlines()]
        assert len(answers) == 3, outcome.out[:300]


# ------------------------------------------------------------------ 10: no traceback, any input

def test_finding_10_surrogates_huge_numbers_deep_nesting_and_big_patterns(tmp_path: Path) -> None:
    flt = json.loads((REPO / "filters" / "brew.json").read_text())
    flt["\ud800key"] = 1
    flt["tests"] = [{"name": "t\ud800", "input": "x", "expected": "x"}]
    bad_filter = tmp_path / "surrogate.json"
    bad_filter.write_text(json.dumps(flt), encoding="utf-8")
    project = tmp_path / "proj"
    (project / ".rtk").mkdir(parents=True)
    (project / ".rtk" / "filters.json").write_text(json.dumps([flt]), encoding="utf-8")
    for argv in (["validate", str(bad_filter)], ["validate", str(bad_filter), "--json"],
                 ["verify", str(bad_filter)], ["verify", str(bad_filter), "--json"],
                 ["trust", str(project), "--check"], ["trust", str(project), "--check", "--json"]):
        _ok(run_cli(argv))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    huge = tmp_path / "huge.json"
    huge.write_text('{"a": ' + "1" + "0" * 400 + ', "b": ' + "7" * 5000 + "}", encoding="utf-8")
    schema = tmp_path / "schema.json"
    schema.write_text('{"type": "object"}', encoding="utf-8")
    for argv in (["validate", str(deep)], ["params", str(deep)], ["params", str(huge), "--json"],
                 ["repair", "--schema", str(schema), str(huge), "--json"], ["repair", "--schema", str(deep), str(huge)],
                 ["verify", str(deep)], ["export", str(deep), "-o", str(tmp_path / "o.json")]):
        _ok(run_cli(argv))
    params = json.loads((REPO / "resources" / "samples" / "params" / "deepseek.json").read_text())
    params["model"]["contextWindow"] = 1e308
    sample = tmp_path / "ctx.json"
    sample.write_text(json.dumps(params), encoding="utf-8")
    _ok(run_cli(["params", str(sample), "--json"]), 0)
    _ok(run_cli(["regex", "[\\q{" + "a" * 1000 + "}]", "--flags", "v", "-"], stdin=b"aaa"))
    big_pattern = "a" * 3_500_000
    outcome = run_cli(["regex", big_pattern, "-"], stdin=b"aaa")
    _ok(outcome, 1)
    assert len(outcome.err) < 10_000  # the pattern is not echoed whole
    _ok(run_cli(["compress", "--jsonl"], stdin=b'{"text": "hello there friend", "minLength": 1e400}\n'), 0)
    report = run_cli(["validate", str(_pack(tmp_path, "(?:a{1000}){1000}"))])
    _ok(report, 1)
    assert "unrolled" in report.out


def _pack(tmp_path: Path, pattern: str) -> Path:
    rules = tmp_path / "packs" / "en"
    rules.mkdir(parents=True, exist_ok=True)
    path = rules / "p.json"
    path.write_text(json.dumps({"language": "en", "category": "p",
                                "rules": [{"name": "r", "pattern": pattern, "replacement": "b"}]}), encoding="utf-8")
    return path


def test_finding_10_toml_export_over_one_megabyte(tmp_path: Path) -> None:
    flt = json.loads((REPO / "filters" / "brew.json").read_text())
    flt["description"] = "d" * (1024 * 1024 + 10)
    source = tmp_path / "big.json"
    source.write_text(json.dumps(flt), encoding="utf-8")
    outcome = run_cli(["export", str(source), "-o", str(tmp_path / "out.toml"), "--toml"])
    _ok(outcome)


# ------------------------------------------------------------------ 11: located diagnostics

def test_finding_11_toml_errors_are_located_and_symlink_loops_named(tmp_path: Path) -> None:
    broken = tmp_path / "filters.toml"
    broken.write_text('schema_version = 1\n\n[filters.x\nmatch_command = "^x"\n', encoding="utf-8")
    for argv in (["verify", str(broken)], ["export", str(broken), "-o", str(tmp_path / "o.json")]):
        outcome = run_cli(argv)
        _ok(outcome, 1)
        assert f"{broken}:3:" in outcome.err, outcome.err
    loop = tmp_path / "loop.json"
    other = tmp_path / "other.json"
    loop.symlink_to(other)
    other.symlink_to(loop)
    outcome = run_cli(["validate", str(loop)])
    _ok(outcome, 1)
    assert "symlink loop" in outcome.out + outcome.err
    assert "no such file" not in outcome.out + outcome.err
