"""Named samples the previews offer: Caveman prose samples (workspace, beside the packs, built-in)
and RTK command outputs kept in a workspace's ``samples/`` folder."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.rtk.model import RtkFilter

SAMPLE_SUFFIXES = (".txt", ".md")
OUTPUT_SUFFIXES = (".txt", ".log", ".out")


@dataclass(frozen=True)
class Sample:
    name: str
    path: str
    origin: str  # "workspace" | "built-in"
    language: str = ""


def workspace_samples_dir(workspace: str | Path) -> Path:
    """Where the Caveman preview saves named samples of a workspace."""
    return Path(workspace) / "samples" / "caveman"


def caveman_samples(workspace: str | Path | None, builtin_rules: str | Path | None,
                    pack_roots: Sequence[str | Path] = ()) -> list[Sample]:
    """Named Caveman samples: the workspace's own, those beside its packs, then the built-in ones."""
    out: list[Sample] = []
    seen: set[Path] = set()

    def add(path: Path, origin: str, language: str = "") -> None:
        resolved = path.resolve()
        if resolved in seen or not path.is_file():
            return
        seen.add(resolved)
        label = f"{language}/{path.stem}" if language else path.stem
        out.append(Sample(label, str(path), origin, language))

    if workspace is not None:
        folder = workspace_samples_dir(workspace)
        if folder.is_dir():
            for p in sorted(folder.iterdir()):
                if p.suffix in SAMPLE_SUFFIXES:
                    add(p, "workspace")
    for root, origin in [*((Path(r), "workspace") for r in pack_roots),
                         *([(Path(builtin_rules), "built-in")] if builtin_rules else [])]:
        for samples in pack_sample_folders(root):
            for p in sorted(samples.iterdir()):
                if p.suffix in SAMPLE_SUFFIXES:
                    add(p, origin, samples.parent.name)
    return out


def pack_sample_folders(rules: Path) -> list[Path]:
    """The ``<lang>/samples`` folders beside the packs of a rules folder, those that exist."""
    if not rules.is_dir():
        return []
    return [lang / "samples" for lang in sorted(p for p in rules.iterdir() if p.is_dir()) if (lang / "samples").is_dir()]


def sample_folders(workspace: str | Path | None) -> list[Path]:
    """The folders a workspace keeps its samples in, those that exist: ``samples/`` (command
    outputs, and the Caveman preview's named samples under ``samples/caveman``), then the prose
    beside its packs (``rules/<lang>/samples``). The example workspace's prose sample is in the
    second: a corpus of ``samples/`` alone left its Caveman rules "never fired"."""
    if workspace is None:
        return []
    root = Path(workspace)
    return ([root / "samples"] if (root / "samples").is_dir() else []) + pack_sample_folders(root / "rules")


def output_samples(workspace: str | Path | None) -> list[Sample]:
    """Command outputs kept in a workspace's ``samples/`` folder (for the RTK preview)."""
    out: list[Sample] = []
    if workspace is None:
        return out
    folder = Path(workspace) / "samples"
    if folder.is_dir():
        for p in sorted(folder.rglob("*")):
            if p.is_file() and p.suffix in OUTPUT_SUFFIXES and "caveman" not in p.relative_to(folder).parts:
                out.append(Sample(str(p.relative_to(folder)), str(p), "workspace"))
    return out


def sample_for_filters(samples: Sequence[Sample], filters: Sequence[RtkFilter], *,
                       profile: str = "omniroute") -> Sample | None:
    """The first of ``samples`` whose stored command (``<stem>.cmd``) one of ``filters`` is
    chosen for, among those filters alone, or None. A filter opened in the IDE is previewed on an
    output it would run on: a sample of another command showed only "not chosen"."""
    from engine.rtk.select import select_filter, sort_filters

    if not filters:
        return None
    ordered = sort_filters(filters, profile=profile)  # (once: 2,200 filters took ~1 s a sample to sort)
    for sample in samples:
        command = command_hint(sample.path)
        if not command:
            continue
        chosen = select_filter("", command, ordered, profile=profile, presorted=True)
        if chosen.filter is not None and chosen.criterion != "generic-fallback":
            return sample
    return None


def sample_file_name(name: str) -> str:
    """A safe file name for a sample the user names (letters, digits, ``-_.``; ``.txt`` added)."""
    stem = re.sub(r"[^\w.-]+", "-", name.strip()).strip(".-") or "sample"
    return stem if stem.endswith(".txt") else f"{stem}.txt"


def command_hint(path: str | Path) -> str:
    """A command stored beside an output sample (``engine.corpus.samples.sidecar_command``), or ""."""
    from engine.corpus.samples import sidecar_command

    return sidecar_command(path) or ""
