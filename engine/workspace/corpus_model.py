"""The Corpus panel's model: how the IDE runs ``rulewright eval`` and reads what it says.

The run happens in a helper process (the same command a user types), so a long corpus never
holds the GUI's interpreter; the panel reads progress lines from its standard error and the
report from a JSON file when it ends. "A/B against saved" copies the workspace's rules or
filters folder with the unsaved buffer in place of its file and runs against the folder on disk
as the baseline. A sample in the report is found again by its id (a file, or ``file:line`` of a
JSONL corpus) to open it in a preview.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

from engine.corpus.samples import CorpusProblem, Sample, iter_corpus


@dataclass(frozen=True)
class EvalProgress:
    samples: int
    done_bytes: int
    total_bytes: int

    @property
    def percent(self) -> int:
        return min(100, round(self.done_bytes * 100 / self.total_bytes)) if self.total_bytes else 0


def eval_program() -> tuple[str, list[str]]:
    """The program and leading arguments that run ``rulewright`` from this interpreter (or bundle)."""
    if getattr(sys, "frozen", False):
        return sys.executable, []
    return sys.executable, ["-m", "engine"]


def eval_arguments(paths: list[str], report: str, *, rules: str | None = None, filters: str | None = None,
                   baseline: str | None = None, project: str | None = None, profile: str = "omniroute",
                   workers: int | None = None) -> list[str]:
    """The ``eval`` command line the panel runs (progress lines on, the report written to ``report``).
    The filters compete as in the RTK preview: a workspace's ``filters`` beside the bundled ones,
    with its ``project``'s .rtk filters (trusted ones: OmniRoute skips the rest, and the report
    says so)."""
    args = ["eval", *paths, "--json", report, "--progress-lines", "--quiet", "--profile", profile]
    for flag, value in (("--rules", rules), ("--filters", filters), ("--baseline", baseline), ("--project", project)):
        if value:
            args += [flag, value]
    if filters:
        args.append("--with-bundled")
    args += ["--workers", str(workers or max(1, (os.cpu_count() or 2) - 1))]  # one core stays with the editor
    return args


def parse_progress(line: str) -> EvalProgress | None:
    """A progress line of ``--progress-lines``, or None for any other line (a warning, say)."""
    try:
        value = json.loads(line)
    except ValueError:
        return None
    if isinstance(value, dict) and {"samples", "bytes", "total"} <= value.keys():
        return EvalProgress(int(value["samples"]), int(value["bytes"]), int(value["total"]))
    return None


def read_report(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    try:
        value = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) and value.get("kind") == "corpus-report" else None


_AB_FOLDERS = (("--rules", "rules"), ("--filters", "filters"))


def _ab_place(workspace: Path, buffer_path: Path) -> tuple[str, str, Path] | None:
    """``(flag, folder name, path inside it)`` of a file A/B can compare, or None."""
    for flag, name in _AB_FOLDERS:
        try:
            return flag, name, buffer_path.resolve().relative_to((workspace / name).resolve())
        except ValueError:
            continue
    return None


def ab_refusal(workspace: Path | None, buffer_path: Path | None) -> str | None:
    """Why "A/B against saved" cannot run on the active file (None: it can): the reason the
    IDE's button and command give, before anything runs."""
    if workspace is None:
        return "A/B needs a workspace: open one"
    if buffer_path is None:
        return "A/B needs an open pack (under rules/) or filter (under filters/) of the workspace"
    if _ab_place(workspace, buffer_path) is None:
        return (f"{buffer_path.name} is neither a pack under rules/ nor a filter under filters/ of the "
                "workspace; A/B compares those folders")
    return None


def ab_folders(workspace: Path, buffer_path: Path, buffer_text: str, scratch: Path) -> tuple[str, str, str]:
    """``(flag, current folder, baseline folder)`` for "A/B against saved": the unsaved buffer in
    a copy of its folder (rules/ for a pack, filters/ for a filter), against the folder on disk.
    Raises ValueError when the file lives in neither."""
    place = _ab_place(workspace, buffer_path)
    if place is None:
        raise ValueError(ab_refusal(workspace, buffer_path))
    flag, name, rel = place
    folder = workspace / name
    copy = scratch / name
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(folder, copy)
    (copy / rel).write_text(buffer_text, encoding="utf-8")
    return flag, str(copy), str(folder)


def open_sample(sample_id: str) -> Sample | None:
    """The sample a report row names: the file itself, or line N of a JSONL file (``path:N``)."""
    path, _, line = sample_id.rpartition(":")
    if line.isdigit() and path.lower().endswith((".jsonl", ".ndjson")):
        for item in iter_corpus([path]):
            if isinstance(item, Sample) and item.id == sample_id:
                return item
        return None
    for item in iter_corpus([sample_id.split("#", 1)[0]]):
        if isinstance(item, Sample) and item.id == sample_id:
            return item
        if isinstance(item, CorpusProblem):
            return None
    return None


def shown_path(path: str, workspace: Path | None) -> str:
    """A corpus path or sample id as the panel lists it: relative to the workspace when it lies
    inside (an absolute path elided in its middle hid the very folder that told samples apart).
    The id itself stays the key: it is what the report and ``open_sample`` use."""
    if workspace is None:
        return path
    try:
        return str(PurePath(path).relative_to(workspace))
    except ValueError:  # (outside the workspace, or a relative path)
        return path


def preview_text(sample: Sample) -> str:
    """What a preview shows for a sample: the text, or a chat body's user messages."""
    if sample.body is None:
        return sample.text
    texts = []
    for message in sample.body.get("messages", []):
        if not isinstance(message, dict) or message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            texts.extend(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return "\n\n".join(texts)
