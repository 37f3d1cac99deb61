"""Our built-in RTK filters (``filters/*.json``): shape, inline tests, activation, and no lost signal.

The central property: whatever a filter removes, every line of a test input that carries signal
for the model survives it — run through the filter alone (the verify gate's stage) *and* through
the whole engine with the test's command (detection, selection, the filter, engine dedup, final
cap). "Signal" is found with generic detectors that know nothing about the tool: error and
failure words, ``file:line`` locations, and summary lines with counts.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from engine.rtk.engine import process_rtk_text
from engine.rtk.model import load_filter_dir
from engine.rtk.select import select_filter
from engine.rtk.signal import ERROR_WORDS, missing_lines, must_survive  # one home, shared with learn
from engine.rtk.stages import apply_line_filter
from engine.rtk.verify import verify_filters

ROOT = Path(__file__).resolve().parents[2]
FILTERS_DIR = ROOT / "filters"
FILTER_FILES = sorted(FILTERS_DIR.glob("*.json"))
SCHEMA_REF = "../resources/schemas/rtk-filter.schema.json"

# --- loading ------------------------------------------------------------------------------------


@cache
def loaded() -> tuple:
    filters, diagnostics = load_filter_dir(FILTERS_DIR)
    return tuple(filters), tuple(diagnostics)


def raw_filters() -> list[tuple[Path, dict]]:
    return [(path, json.loads(path.read_text(encoding="utf-8"))) for path in FILTER_FILES]


def all_tests() -> list:
    return [pytest.param(flt, test, id=f"{flt.id}::{test.name}") for flt in loaded()[0] for test in flt.tests]


# --- the set as a whole ---------------------------------------------------------------------------


def test_the_library_is_large_and_loads_cleanly():
    filters, diagnostics = loaded()
    assert len(filters) >= 80
    assert [d.message for d in diagnostics if d.level in ("error", "warning")] == []
    ids = [f.id for f in filters]
    assert len(ids) == len(set(ids)), "filter ids must be unique"


@pytest.mark.parametrize("path", FILTER_FILES, ids=lambda p: p.stem)
def test_file_shape(path: Path):
    obj = json.loads(path.read_text(encoding="utf-8"))
    assert obj["$schema"] == SCHEMA_REF
    assert obj["id"] == path.stem, "one filter per file, named after its id"
    for key in ("label", "description", "category", "priority", "match", "rules", "preserve", "tests"):
        assert key in obj, f"canonical shape: {key} is present"
    assert obj["description"].strip()
    match = obj["match"]
    assert match.get("commands") or match.get("outputTypes") or match.get("patterns")
    for pattern in match.get("commands", []):
        assert pattern.startswith("^"), f"command patterns are anchored on the tool: {pattern}"
    tests = obj["tests"]
    assert len(tests) >= 2, "a success run and a failure run at least"
    for test in tests:
        assert test.get("command"), f"test {test['name']!r} names the command that produced it"
        assert test["input"].strip(), f"test {test['name']!r} has an input"
    assert sum(len(t["input"].splitlines()) for t in tests) >= 6, "realistic inputs, not one-liners"


def test_every_test_input_has_signal_somewhere_in_each_filter():
    """Each filter's tests include a failure run whose signal the survival tests below check."""
    for flt in loaded()[0]:
        assert any(must_survive(t.input) for t in flt.tests), f"{flt.id}: no test input with an error or summary"


@pytest.mark.slow
def test_verify_gate_passes_with_every_test_command_selecting_its_filter():
    filters, _ = loaded()
    result = verify_filters(list(filters), require_all=True, check_activation=True)
    failures = [f"{o.filter_id}::{o.test_name}\n{o.diff}" for o in result.failed]
    assert failures == []
    assert result.filters_without_tests == []
    wrong = [f"{o.filter_id}::{o.test_name} -> {o.activation.selected_id} ({o.activation.criterion})"
             for o in result.activation_failures]
    assert wrong == []
    assert all(o.activation is not None for o in result.outcomes)


def test_filters_compress_their_inputs():
    """A filter that never saves anything on its own tests is not pulling its weight."""
    from engine.rtk.verify import savings_percent

    for flt in loaded()[0]:
        best = max(savings_percent(t.input, apply_line_filter(t.input, flt).text) for t in flt.tests)
        assert best > 0, f"{flt.id} saves nothing on any of its tests"


# --- signal survives, filter stage and engine stage ----------------------------------------------


@pytest.mark.parametrize(("flt", "test"), all_tests())
def test_signal_survives_the_filter_alone(flt, test):
    output = apply_line_filter(test.input, flt).text
    assert missing_lines(test.input, output) == []


@pytest.mark.parametrize(("flt", "test"), all_tests())
def test_signal_survives_the_engine_with_the_test_command(flt, test):
    filters, _ = loaded()
    result = process_rtk_text(test.input, test.command, {"enabled": True}, list(filters))
    assert result.filter is not None and result.filter.id == flt.id
    assert missing_lines(test.input, result.text) == []


# --- the detectors themselves, so the survival tests mean something -----------------------------


@pytest.mark.parametrize("line", [
    "src/app.ts(12,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    "--- FAIL: TestParse (0.00s)",
    "npm ERR! code ERESOLVE",
    "thread 'main' panicked at src/main.rs:4:5:",
    "  lib/cart.rb:41:in `total'",
    "make: *** [Makefile:27: build] Error 1",
    "Tests: 1 failed, 14 passed, 15 total",
    "✖ 3 problems (2 errors, 1 warning)",
])
def test_detectors_recognise_signal(line):
    assert must_survive(line) == [" ".join(line.split())]


@pytest.mark.parametrize("line", [
    "2026-11-30T06:30:26Z INFO listening on 0.0.0.0:8080",
    "drwxr-xr-x  5 ana staff  160 Nov 30 06:30 src",
    "Downloading numpy-2.1.3-cp312-cp312-manylinux_2_17_x86_64.whl (16.0 MB)",
    "  (use \"git add <file>...\" to update what will be committed)",
    "  ✓  3 [chromium] › tests/cart.spec.ts:6:5 › adds an item (1.1s)",
    "    at processTicksAndRejections (node:internal/process/task_queues:95:5)",
    "  test-results/cart-applies-a-coupon-chromium/test-failed-1.png",
])
def test_detectors_ignore_noise(line):
    assert must_survive(line) == []


def test_missing_lines_sees_a_dropped_error():
    text = "compiling\nsrc/a.c:3:1: error: expected ';'\nlinking\n"
    assert missing_lines(text, "compiling\nlinking") == ["src/a.c:3:1: error: expected ';'"]
    assert missing_lines(text, "src/a.c:3:1: error: expected ';'") == []


# --- coverage of the families -----------------------------------------------------------------

FAMILY_COMMANDS = [
    # git
    "git status", "git diff HEAD~1", "git show HEAD", "git log --oneline -20", "git branch -a",
    "git push origin main", "git pull --rebase", "git commit -m wip",
    # tests
    "npx jest", "npm test", "vitest run", "pytest -q", "python -m pytest tests", "go test ./...",
    "cargo test", "npx playwright test", "bun test", "deno test", "npx mocha", "bundle exec rspec",
    "vendor/bin/phpunit", "dotnet test",
    # builds and linters
    "tsc --noEmit", "npx eslint .", "npx webpack --mode production", "vite build", "npx biome check .",
    "npx prettier --check .", "turbo run build", "nx run-many -t build", "make", "./gradlew build",
    "mvn -q package", "dotnet build", "ruff check .", "mypy src", "golangci-lint run", "rubocop",
    "cargo build --release", "cargo clippy -- -D warnings", "go build ./...", "go vet ./...",
    "swift build", "gcc -Wall -o app main.c", "xcodebuild -scheme App build", "shellcheck deploy.sh",
    "hadolint Dockerfile", "yamllint .", "markdownlint-cli2 '**/*.md'", "npx oxlint", "pyright",
    "pre-commit run --all-files", "flake8 src", "pylint src", "mix compile", "next build",
    # packages
    "npm install", "npm audit", "yarn install", "pnpm install", "bun install", "pip install -r requirements.txt",
    "poetry install", "uv sync", "composer install", "bundle install", "brew install jq", "go mod tidy",
    # docker and kubernetes
    "docker build -t api .", "docker logs api", "docker ps -a", "docker compose up -d", "docker pull redis:7",
    "kubectl get pods -n web", "kubectl logs deploy/api",
    # infra
    "terraform plan", "terraform apply -auto-approve", "terraform init", "tofu plan", "helm upgrade --install api ./chart",
    "ansible-playbook site.yml", "systemctl status nginx", "pulumi up",
    # cloud and network
    "aws s3 sync ./dist s3://bucket", "gcloud run deploy api", "gh pr checks 42", "ssh deploy@web1",
    "rsync -av dist/ web1:/srv/", "curl -i https://api.example.test", "wget https://example.test/a.tgz",
    "az webapp deploy", "ping -c 4 example.test",
    # shell
    "ls -la", "find . -name '*.py'", "grep -rn TODO src", "rg -n fixme", "df -h", "du -sh *", "ps aux",
    "tree -L 2", "jq . package.json", "python scripts/seed.py",
    # more tools rtk covers
    "ollama pull llama3.2", "skopeo copy docker://a docker://b", "jj st", "liquibase update",
]


@pytest.mark.parametrize("command", FAMILY_COMMANDS)
def test_each_family_has_its_own_filter(command):
    filters, _ = loaded()
    selection = select_filter("", command, list(filters))
    assert selection.filter is not None, command
    assert selection.criterion != "generic-fallback", f"{command} falls back to {selection.filter.id}"


def test_validate_reports_nothing():
    from engine.validate import validate_paths

    problems = [d for d in validate_paths([FILTERS_DIR]) if d.level in ("error", "warning")]
    assert [d.format() for d in problems] == []


# --- the example workspace the IDE opens on first run -------------------------------------------

EXAMPLE = ROOT / "resources" / "example-workspace"


def test_example_project_filters_are_trusted_by_their_recorded_hash():
    from engine.rtk.trust import decide_trust

    decision = decide_trust(EXAMPLE / ".rtk" / "filters.json", environ={})
    assert (decision.verdict, decision.reason) == ("trusted", "hash-match"), \
        "re-run `rulewright trust resources/example-workspace --write` after editing .rtk/filters.json"


@pytest.mark.slow
def test_example_project_filters_pass_their_tests_and_win_for_their_commands():
    from engine.rtk.verify import run_rtk_filter_tests

    result = run_rtk_filter_tests(builtin_dir=FILTERS_DIR, project_dir=EXAMPLE, require_all=True, environ={})
    project = [o for o in result.outcomes if o.source == "project"]
    assert {o.filter_id for o in project} == {"ledger-check", "ledger-import", "ledger-release"}
    assert result.passed
    from engine.rtk.sources import load_custom_file

    filters, _ = loaded()
    custom, diagnostics = load_custom_file("project", EXAMPLE / ".rtk" / "filters.json")
    assert diagnostics == []
    for flt in custom:
        for test in flt.tests:
            chosen = process_rtk_text(test.input, test.command, {"enabled": True}, [*custom, *filters]).filter
            assert chosen is flt, f"{flt.id}::{test.name} selected {chosen.id if chosen else None}"
            # A green check.sh run collapses to one line on purpose (the matchOutput rule the trust
            # review flags), so only error lines are held to the survival rule here.
            lost = missing_lines(test.input, apply_line_filter(test.input, flt).text)
            assert [line for line in lost if ERROR_WORDS.search(line)] == []


def test_example_filter_folder_has_exactly_one_failing_test_to_show_the_diff():
    from engine.rtk.sources import read_filter_file

    read = read_filter_file(EXAMPLE / "filters" / "deploy-log.json")
    result = verify_filters(read.filters, require_all=True)
    assert [(o.filter_id, o.test_name) for o in result.failed] == [("deploy-log", "healthy deploy")]
    assert "-deploy: health check 3/3 ok" in result.failed[0].diff
    assert all(o.activation is not None and o.activation.passed for o in result.outcomes)


def test_example_workspace_validates_and_its_samples_have_commands():
    from engine.validate import validate_paths

    problems = [d for d in validate_paths([EXAMPLE]) if d.level in ("error", "warning")]
    assert [d.format() for d in problems] == []
    outputs = [p for p in (EXAMPLE / "samples").iterdir() if p.suffix in (".txt", ".log")]
    assert len(outputs) >= 3
    for sample in outputs:
        assert sample.with_suffix(".cmd").read_text(encoding="utf-8").startswith("$ ")


def test_example_caveman_pack_rewrites_its_sample():
    from engine.caveman.compress import compress_text
    from engine.caveman.packs import PackSource, check_pack

    pack = json.loads((EXAMPLE / "rules" / "en" / "team.json").read_text(encoding="utf-8"))
    assert [d.message for d in check_pack(pack, with_schema=True) if d.level == "error"] == []
    sample = (EXAMPLE / "rules" / "en" / "samples" / "team-standup.txt").read_text(encoding="utf-8")
    result = compress_text(sample, PackSource.from_dir(EXAMPLE / "rules"), {"enabled": True, "intensity": "full"})
    text = result.body["messages"][0]["content"]
    assert "ledger CLI" in text and "the ledger command-line tool" not in text
    assert "as we discussed" not in text.lower()
    # what the pack must leave alone: paths, numbers, the quoted error
    for kept in ("data/vat.csv", "#212", "tests/test_invoices.py", "row 3907", "'12,50'"):
        assert kept in text


# Commands that more than one filter could claim, and the one that must win (an empty output, so
# only the command speaks).
@pytest.mark.parametrize(("command", "expected"), [
    ("npm run build", "build-vite"), ("pnpm build", "build-vite"), ("npm test", "test-jest"),
    ("npm run test:vitest", "test-vitest"), ("npm audit", "npm-audit"), ("npm ci", "npm-install"),
    ("yarn install", "yarn-install"), ("yarn", "yarn-install"), ("pnpm add zod", "pnpm-install"),
    ("kubectl logs deploy/api", "kubectl-logs"), ("kubectl get pods", "kubectl"),
    ("terraform plan", "terraform-plan"), ("terraform apply", "terraform-apply"), ("terraform init", "terraform-init"),
    ("tofu apply", "tofu-plan"), ("tofu init", "terraform-init"),
    ("cargo test", "test-cargo"), ("cargo build", "cargo-build"), ("cargo clippy", "cargo-clippy"),
    ("go test ./...", "test-go"), ("go vet ./...", "go-vet"), ("go build ./...", "go-build"), ("go mod tidy", "go-mod"),
    ("docker compose logs api", "docker-logs"), ("docker compose up -d", "docker-compose"),
    ("docker compose build", "docker-build"), ("docker compose ps", "docker-ps"), ("docker push ghcr.io/a/b", "docker-pull"),
    ("git show HEAD", "git-diff"), ("git checkout -b fix", "git-branch"), ("git fetch --all", "git-pull"),
    ("python -m pytest", "test-pytest"), ("python -m pip install x", "pip"), ("python -m mypy src", "mypy"),
    ("python app.py", "error-stacktrace"), ("uv run ruff check", "ruff"), ("uv pip install httpx", "uv-sync"),
    ("bun test", "bun-test"), ("bun install", "bun-install"), ("dotnet test", "dotnet"),
    ("bundle exec rspec", "rspec"), ("bundle exec rubocop", "rubocop"), ("bundle install", "bundle-install"),
    ("composer install", "composer"), ("composer test", "phpunit"), ("mix test", "mix-compile"),
])
def test_ambiguous_commands_pick_the_right_family(command, expected):
    filters, _ = loaded()
    assert select_filter("", command, list(filters)).filter.id == expected


@pytest.mark.parametrize("command", ["yarn build", "yarn test", "pnpm run lint:css", "makepkg -si", "gitk", "lsof -i"])
def test_look_alike_commands_are_not_claimed(command):
    """A filter's command pattern names its tool and subcommand, not every command sharing a prefix."""
    filters, _ = loaded()
    selection = select_filter("", command, list(filters))
    assert (selection.filter.id, selection.criterion) == ("generic-output", "generic-fallback")
