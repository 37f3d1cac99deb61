"""Our built-in RTK filters (``filters/``) against OmniRoute's on OmniRoute's own samples.

    python bench/bench_library_rtk.py [REFERENCE_ROOT] [--details]

REFERENCE_ROOT defaults to ../shared/reference/omniroute (read at run time only; nothing from it
is stored in the project). Without it the benchmark says so and exits 0.

Every ``fixtures/rtk/<family>-sample.txt`` runs through the whole engine (stage ``engine``:
detection, selection, the filter, engine dedup, final cap) twice: once with our ``filters/`` as
the built-in folder, once with the reference's ``filters/``. The command is inferred from the
file name (``test-go`` → ``go test ./...``). Per category (the detector's category for that
command and output) it prints the token savings of both sets, and counts *error lines lost*:
lines of the input that match a generic error detector but are missing from the output. Ours
must lose none; the exit status is 1 when it does.
"""

from __future__ import annotations

import math
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_REFERENCE = ROOT.parent / "shared" / "reference" / "omniroute"
OUR_FILTERS = ROOT / "filters"

# A line that reports a failure, in any tool's wording (the same detector as the survival tests in
# tests/library/test_rtk_filters.py).
ERROR_LINE = re.compile(
    r"(?<![\w-])(?:error|errors|err!|fail|failed|failure|failures|failing|fatal|panic|panicked|exception)(?![\w-])"
    r"|(?-i:FAIL)|Traceback"
    r"|\b(?:denied|not found|no such file|cannot|could not|couldn't|unable to|timed out|refused|unreachable)\b",
    re.IGNORECASE)
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")


# Family name (file name without ``-sample.txt``) → the command a user would have run. Names not
# listed are turned into a command by ``infer_command``'s generic rules.
COMMANDS = {
    "aws": "aws s3 cp ./app.log s3://logs/app.log",
    "biome": "biome check .",
    "curl": "curl -fsS https://api.example.test/health",
    "df": "df -h",
    "docker-logs": "docker logs api",
    "du": "du -sh *",
    "error-stacktrace": "python app.py",
    "eslint-output": "eslint .",
    "gcloud": "gcloud run deploy",
    "golangci-lint": "golangci-lint run",
    "json-output": "jq . status.json",
    "make": "make",
    "npm-audit": "npm audit",
    "nx": "nx run-many -t build",
    "pip": "pip install requests",
    "playwright": "npx playwright test",
    "prettier": "prettier --check .",
    "ps": "ps aux",
    "rsync": "rsync -av ./dist/ deploy@host:/srv/app/",
    "shell-find": "find . -name '*.ts'",
    "shell-grep": "grep -rn match src",
    "ssh": "ssh deploy@app.example.test",
    "test-go": "go test ./...",
    "typescript-errors": "tsc --noEmit",
    "vitest-output": "vitest run",
    "wget": "wget https://example.test/file.tgz",
}


def infer_command(family: str) -> str:
    """``build-vite`` → ``vite build``, ``test-cargo`` → ``cargo test``, ``shell-ls`` → ``ls``,
    ``git-status`` → ``git status``, ``poetry-install`` → ``poetry install``."""
    if family in COMMANDS:
        return COMMANDS[family]
    words = family.split("-")
    if words[0] in ("test", "build") and len(words) > 1:
        return f"{words[1]} {words[0]}"
    if words[0] == "shell" and len(words) > 1:
        return " ".join(words[1:])
    if words[0] == "systemctl":
        return "systemctl status app"
    return " ".join(words)


def tokens(text: str) -> int:
    from engine.jsvalues import utf16_len

    return math.ceil(utf16_len(text) / 4)


def _normal(line: str) -> str:
    return " ".join(ANSI.sub("", line).split())


def lost_error_lines(before: str, after: str) -> list[str]:
    """Error lines of ``before`` that no line of ``after`` contains (whitespace runs collapsed:
    filters may squeeze column padding)."""
    kept = [_normal(line) for line in after.split("\n")]
    lost = []
    for line in map(_normal, before.splitlines()):
        if line and ERROR_LINE.search(line) and not any(line in k for k in kept):
            lost.append(line)
    return lost


@dataclass
class Run:
    filter_id: str | None
    original: int
    compressed: int
    lost: list[str]

    @property
    def savings(self) -> float:
        return 0.0 if self.original == 0 else (self.original - self.compressed) / self.original * 100


def run_engine(text: str, command: str, filters: list) -> Run:
    from engine.rtk.engine import process_rtk_text

    result = process_rtk_text(text, command, {"enabled": True}, filters)
    return Run(result.filter.id if result.filter else None, tokens(text), tokens(result.text),
               lost_error_lines(text, result.text))


def main(argv: list[str]) -> int:
    from engine.rtk.detect import detect_command_type
    from engine.rtk.model import load_filter_dir

    details = "--details" in argv
    args = [a for a in argv if not a.startswith("--")]
    reference = Path(args[0]) if args else DEFAULT_REFERENCE
    samples_dir, reference_filters = reference / "fixtures" / "rtk", reference / "filters"
    if not samples_dir.is_dir() or not reference_filters.is_dir():
        print(f"reference not run: nothing at {reference} (need fixtures/rtk/ and filters/)")
        return 0
    ours, our_problems = load_filter_dir(OUR_FILTERS)
    theirs, _ = load_filter_dir(reference_filters)
    for problem in our_problems:
        if problem.level == "error":
            print(f"our filters: {problem.message}")
    samples = sorted(samples_dir.glob("*-sample.txt"))
    rows: dict[str, list[tuple[str, Run, Run]]] = defaultdict(list)
    for sample in samples:
        family = sample.name[: -len("-sample.txt")]
        text = sample.read_text(encoding="utf-8")
        command = infer_command(family)
        category = detect_command_type(text, command).category
        rows[category].append((family, run_engine(text, command, ours), run_engine(text, command, theirs)))

    print(f"{len(samples)} samples from {samples_dir}; ours = {len(ours)} filters in {OUR_FILTERS.name}/, "
          f"reference = {len(theirs)} filters")
    print(f"{'category':<9} {'samples':>7} {'ours %':>8} {'ref %':>8} {'diff':>7} {'lost ours':>9} {'lost ref':>8}")
    total_lost = 0
    worse = []
    for category in sorted(rows):
        entries = rows[category]
        ours_avg = sum(o.savings for _, o, _ in entries) / len(entries)
        ref_avg = sum(r.savings for _, _, r in entries) / len(entries)
        lost_ours = sum(len(o.lost) for _, o, _ in entries)
        lost_ref = sum(len(r.lost) for _, _, r in entries)
        total_lost += lost_ours
        if ours_avg + 1e-9 < ref_avg:
            worse.append(category)
        print(f"{category:<9} {len(entries):>7} {ours_avg:>8.1f} {ref_avg:>8.1f} {ours_avg - ref_avg:>+7.1f} "
              f"{lost_ours:>9} {lost_ref:>8}")
    all_entries = [e for entries in rows.values() for e in entries]
    ours_all = sum(o.savings for _, o, _ in all_entries) / len(all_entries)
    ref_all = sum(r.savings for _, _, r in all_entries) / len(all_entries)
    print(f"{'all':<9} {len(all_entries):>7} {ours_all:>8.1f} {ref_all:>8.1f} {ours_all - ref_all:>+7.1f} "
          f"{total_lost:>9} {sum(len(r.lost) for _, _, r in all_entries):>8}")
    if details:
        print("\nper sample (savings %, filter chosen):")
        for category in sorted(rows):
            for family, o, r in rows[category]:
                print(f"  {category:<8} {family:<20} ours {o.savings:6.1f} {o.filter_id or '-':<22} "
                      f"ref {r.savings:6.1f} {r.filter_id or '-'}")
                for line in o.lost:
                    print(f"      LOST (ours): {line}")
    if worse:
        print(f"below the reference in: {', '.join(worse)}")
    if total_lost:
        print(f"FAILED: our filters lost {total_lost} error line(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
