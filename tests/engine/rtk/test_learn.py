
"""Learning a filter from samples (engine.rtk.learn) and ``rulewright learn``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.rtk.learn import learn, learn_filter
from engine.rtk.learn.command import command_shape
from engine.rtk.learn.draft import compose
from engine.rtk.model import parse_filter
from engine.rtk.signal import missing_lines
from engine.rtk.stages import apply_line_filter
from engine.rtk.verify import verify_filters

ROOT = Path(__file__).resolve().parents[3]

CARGO = [
    "    Updating crates.io index\n   Compiling libc v0.2.161\n   Compiling serde v1.0.215\n"
    "   Compiling ledger v0.3.1 (/home/dev/ledger)\n    Finished `release` profile [optimized] target(s) in 18.42s\n",
    "   Compiling tokio v1.41.0\n   Compiling ledger v0.3.1 (/home/dev/ledger)\nerror[E0308]: mismatched types\n"
    "  --> src/invoice.rs:42:20\n   |\n42 |     let total: u64 = 1.0;\n   |                      ^^^ expected `u64`\n"
    "   |\n\nerror: could not compile `ledger` (lib) due to 1 previous error\n",
    "   Compiling anyhow v1.0.93\n   Compiling ledger v0.3.1 (/home/dev/ledger)\nwarning: unused variable: `x`\n"
    " --> src/main.rs:3:9\n  |\n\nwarning: `ledger` (bin \"ledger\") generated 1 warning\n"
    "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 4.02s\n",
]


def test_command_shape_keeps_program_and_subcommand_not_arguments():
    assert command_shape("cargo build --release").pattern == r"^cargo\s+build(?![\w-])"
    assert command_shape("go test ./...").words == ("go", "test")
    assert command_shape("pytest -q tests/unit").words == ("pytest",)
    assert command_shape("python -m pytest tests").words == ("python", "-m", "pytest")
    assert command_shape("npm run build -- --mode x").words == ("npm", "run", "build")
    assert command_shape("cd web && FOO=1 npx eslint src").words == ("npx", "eslint")
    assert command_shape("terraform plan -out tf.plan").category == "infra"


def test_learned_filter_drops_the_recurring_noise_and_keeps_every_protected_line():
    result = learn_filter(CARGO, "cargo build --release")
    assert result.proof.passed, [c.to_dict() for c in result.proof.checks]
    drops = result.filter["rules"]["dropPatterns"]
    assert r"^\s+Compiling \S" in drops and r"^\s*$" in drops
    flt, diagnostics = parse_filter(result.filter)
    assert flt is not None and not diagnostics
    for text in CARGO:
        out = apply_line_filter(text, flt).text
        assert "Compiling" not in out
        assert missing_lines(text, out) == []
    assert all(s > 0 for s in result.savings)
    # every proposal shows what it matched
    drop = next(p for p in result.proposals if p.pattern == r"^\s+Compiling \S")
    assert len(drop.matches) == 7 and all("Compiling" in text for _, _, text in drop.matches)


def test_the_draft_passes_verify_with_its_tests_from_the_samples():
    result = learn_filter(CARGO, "cargo build --release")
    tests = result.filter["tests"]
    assert [t["input"] for t in tests] == CARGO and all(t["command"] == "cargo build --release" for t in tests)
    flt, _ = parse_filter(result.filter)
    verdict = verify_filters([flt], require_all=True, check_activation=True)
    assert verdict.passed and not verdict.activation_failures


def test_a_rejected_proposal_leaves_the_filter_and_the_rest_is_composed_again():
    draft = learn(CARGO, "cargo build")
    blank = next(p for p in draft.proposals if p.pattern == r"^\s*$")
    blank.accepted = False
    result = compose(draft)
    assert r"^\s*$" not in result.filter["rules"]["dropPatterns"]
    assert result.proof.passed


def test_a_drop_pattern_that_removes_a_protected_line_is_refused():
    draft = learn(CARGO, "cargo build")
    from engine.rtk.learn.noise import Proposal

    bad = Proposal("rules.dropPatterns", r"^error", "typed by hand")
    draft.proposals.append(bad)
    result = compose(draft)
    assert result.proof.passed
    assert [p.pattern for p, _ in result.refused] == [r"^error"]
    assert "protected line" in result.refused[0][1]


def test_a_catch_all_or_unproved_pattern_is_refused():
    from engine.rtk.learn.noise import Proposal

    draft = learn(CARGO, "cargo build")
    draft.proposals.append(Proposal("rules.collapsePatterns", r"", "catch-all"))
    draft.proposals.append(Proposal("rules.collapsePatterns", r"^(a+)+$", "nested repeat"))
    result = compose(draft)
    assert {p.pattern for p, _ in result.refused} == {"", "^(a+)+$"}
    assert result.proof.passed


def test_lines_that_repeat_within_one_sample_are_noise_even_from_one_sample():
    sample = "".join(f"Downloading pkg{i} ({i}.{i} MB)\n" for i in range(1, 9)) + "Installed 8 packages in 2.1s\n"
    result = learn_filter([sample], "uv sync")
    assert result.proof.passed
    assert any(p.startswith("^Downloading") for p in result.filter["rules"]["dropPatterns"])
    flt, _ = parse_filter(result.filter)
    assert apply_line_filter(sample, flt).text.strip() == "Installed 8 packages in 2.1s"


def test_data_rows_are_not_dropped_for_recurring():
    rows = ["NAME READY STATUS RESTARTS AGE", "api-7d9f8-x2kq 1/1 Running 0 3d", "web-5c8b7-p9sd 1/1 Running 0 3d"]
    result = learn_filter(["\n".join(rows)] * 2, "kubectl get pods")
    flt, _ = parse_filter(result.filter)
    out = apply_line_filter("\n".join(rows), flt).text
    assert "api-7d9f8-x2kq" in out and "web-5c8b7-p9sd" in out


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


@pytest.mark.slow
def test_cli_writes_a_filter_that_validates_and_verifies(tmp_path):
    paths = []
    for i, text in enumerate(CARGO):
        path = tmp_path / f"run{i}.txt"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    out = tmp_path / "cargo-build.json"
    done = _cli("learn", *paths, "--command", "cargo build --release", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert "PASS nothing lost" in done.stdout and "savings on" in done.stdout
    assert f"{paths[1]}:" in done.stdout  # patterns are shown with the lines they matched
    obj = json.loads(out.read_text(encoding="utf-8"))
    assert obj["$schema"].endswith("rtk-filter.schema.json")
    assert _cli("validate", str(out)).returncode == 0
    assert _cli("verify", str(out)).returncode == 0
    again = _cli("learn", *paths, "--command", "cargo build", "-o", str(out))
    assert again.returncode == 1 and "exists" in again.stderr


def test_cli_json_and_stdin(tmp_path):
    done = _cli("learn", "-", "--command", "cargo build", "--id", "my-cargo", "--json", stdin=CARGO[1])
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["filter"]["id"] == "my-cargo" and report["proof"]["passed"]
    assert report["proposals"] and all("matches" in p for p in report["proposals"])


def test_cli_usage_errors():
    assert _cli("learn", "--command", "x").returncode == 2
    done = _cli("learn", "/nonexistent/file.txt", "--command", "cargo build")
    assert done.returncode == 1 and "Traceback" not in done.stderr


def test_coloured_and_crlf_outputs_are_learned_on_their_text():
    runs = ["\x1b[32m   Compiling\x1b[0m a v1.0.0\r\n\x1b[32m   Compiling\x1b[0m b v2.0.0\r\n"
            "\x1b[32m   Compiling\x1b[0m c v3.0.0\r\n\x1b[31merror\x1b[0m: could not compile `c`\r\n",
            "\x1b[32m   Compiling\x1b[0m d v1.0.0\r\n\x1b[32m    Finished\x1b[0m `dev` profile in 1.2s\r\n"]
    result = learn_filter(runs, "cargo build")
    assert result.proof.passed and result.filter["rules"]["stripAnsi"] is True
    flt, _ = parse_filter(result.filter)
    out = apply_line_filter(runs[0], flt).text
    assert "Compiling" not in out and "error: could not compile `c`" in out


def test_a_project_filter_the_command_selects_instead_is_named_not_held_against_it(tmp_path):
    """The filter is proved on its own and among the built-ins; a project filter that would be
    chosen for the command instead is named with where it is written and what would change it."""
    project = tmp_path / "proj"
    (project / ".rtk").mkdir(parents=True)
    theirs = {"id": "our-cargo", "label": "cargo", "category": "build", "priority": 90,
              "match": {"commands": ["^cargo\\b"], "patterns": [], "outputTypes": []},
              "rules": {"dropPatterns": [], "collapsePatterns": [], "deduplicate": False},
              "preserve": {"errorPatterns": [], "summaryPatterns": []}, "tests": []}
    (project / ".rtk" / "filters.json").write_text(json.dumps([theirs]), encoding="utf-8")
    from engine.workspace.competing import workspace_neighbours

    result = compose(learn(CARGO, "cargo build --release", neighbours=workspace_neighbours(str(project), ())))
    activation = next(c for c in result.proof.checks if c.name == "activation")
    assert result.proof.passed and activation.passed
    assert "our-cargo (.rtk/filters.json) is chosen for it instead: a priority above its 90" in activation.detail
    alone = next(c for c in learn_filter(CARGO, "cargo build --release").proof.checks if c.name == "activation")
    assert "instead" not in alone.detail
    paths = []
    for i, text in enumerate(CARGO):
        (tmp_path / f"run{i}.txt").write_text(text, encoding="utf-8")
        paths.append(str(tmp_path / f"run{i}.txt"))
    done = _cli("learn", *paths, "--command", "cargo build --release", "--project", str(project))
    assert done.returncode == 0 and "our-cargo (.rtk/filters.json) is chosen for it instead" in done.stderr
    assert _cli("learn", *paths, "--command", "cargo build", "--project", str(tmp_path / "nope")).returncode == 2
