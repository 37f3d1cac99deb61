"""What a corpus run evaluates with: Caveman packs and RTK filters, loaded once.

A setup is plain, picklable data (packs as parsed objects, filters as parsed ``RtkFilter``s), so
the local process pool and a Dask cluster receive it once and never touch the author's folders:
a cluster worker on another machine evaluates exactly what was loaded here.

A baseline for A/B is either another folder or a git revision of the workspace; a revision is
materialised into a temporary folder with ``git`` and loaded by the same loaders as a folder.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.caveman.packs import PackError, PackSource
from engine.paths import builtin_filters_dir, builtin_rules_dir

if TYPE_CHECKING:
    from engine.diagnostics import Diagnostic
    from engine.rtk.model import RtkFilter


@dataclass
class EvalSetup:
    """Rules, filters and the options every sample is run with."""

    label: str
    packs: PackSource
    filters: list[Any]
    profile: str = "omniroute"
    intensity: str = "full"
    language: str | None = None
    roles: tuple[str, ...] = ("user",)
    min_length: float = 50
    problems: list[str] = field(default_factory=list)
    sources: str = ""  # where the packs and filters came from, as the report says it
    # filters loaded only to compete (the bundled ones beside a workspace's): what is judged is
    # the author's, so these are not listed as never fired
    context_ids: frozenset[str] = frozenset()

    def caveman_config(self) -> dict[str, Any]:
        config: dict[str, Any] = {"enabled": True, "compressRoles": list(self.roles), "autoDetectLanguage": False,
                                  "minMessageLength": self.min_length, "intensity": self.intensity}
        if self.language is not None:
            config["language"] = self.language
        return config


class SetupError(Exception):
    """The rules, filters or baseline cannot be loaded at all (a usage problem, exit 2)."""


def load_setup(label: str, *, rules: str | os.PathLike[str] | None, filters: str | os.PathLike[str] | None,
               project: str | os.PathLike[str] | None = None, profile: str = "omniroute", with_bundled: bool = False,
               **options: Any) -> EvalSetup:
    """Load packs and filters from folders (``None``: the bundled ones). ``with_bundled``: the
    bundled filters compete too, and the ``filters`` folder's in project scope above them, as
    the IDE's RTK preview runs a workspace's filter files."""
    rules_dir = Path(rules) if rules is not None else builtin_rules_dir()
    filters_dir = Path(filters) if filters is not None else builtin_filters_dir()
    for name, folder in (("rules", rules_dir), ("filters", filters_dir)):
        if not folder.is_dir():
            raise SetupError(f"{folder}: {name} folder not found")
    packs = PackSource.from_dir(rules_dir)
    problems: list[str] = []
    for language in packs.languages():
        try:
            packs.rules_for(language)  # parse now: a broken pack is reported once, not per sample
        except PackError as exc:
            problems.append(str(exc))
    # (the bundled folder itself, by default or by name, is loaded once)
    with_bundled = with_bundled and filters is not None and filters_dir.resolve() != builtin_filters_dir().resolve()
    loaded, diagnostics = _load_filters(filters_dir, project, profile, with_bundled)
    problems.extend(_diagnostic_line(d) for d in diagnostics if getattr(d, "level", "") == "error")
    skipped = [d.message for d in diagnostics if getattr(d, "code", "") == "RTK-SOURCE" and d.level == "warning"]
    sources = (f"the packs of {'the bundled rules' if rules is None else rules_dir} and the filters of "
               f"{'the bundled filters' if filters is None else filters_dir}"
               + (" beside the bundled filters" if with_bundled else "")
               + (f" with the trusted filters of {project}" if project is not None else "")
               + "".join(f" ({message[:1].lower() + message[1:]})" for message in skipped))
    context: frozenset[str] = frozenset()
    if with_bundled:  # (an id of the author's own as well is theirs to judge)
        context = frozenset(f.id for f in loaded if f.source == "builtin") - {f.id for f in loaded if f.source != "builtin"}
    return EvalSetup(label, packs, loaded, profile=profile, problems=problems, sources=sources, context_ids=context,
                     **options)


def _load_filters(filters_dir: Path, project: str | os.PathLike[str] | None, profile: str, with_bundled: bool
                  ) -> tuple[list[RtkFilter], list[Diagnostic]]:
    from engine.rtk.model import load_filter_dir

    if project is None and not with_bundled:
        return load_filter_dir(filters_dir, profile=profile, source="builtin")
    from engine.rtk.select import sort_filters
    from engine.rtk.sources import collect_filters

    own: list[RtkFilter] = []
    own_diagnostics: list[Diagnostic] = []
    if with_bundled:  # the folder's filters rank as an open file's do in the IDE's preview
        own, own_diagnostics = load_filter_dir(filters_dir, profile=profile, source="project")
    filters, diagnostics = collect_filters(None if with_bundled else filters_dir, project_dir=project,
                                           data_dir=os.devnull, config={"enabled": True}, environ={},
                                           profile=profile)
    return sort_filters([*own, *filters], profile=profile), [*own_diagnostics, *diagnostics]


def _diagnostic_line(d: Any) -> str:
    where = d.path or "filters"
    if getattr(d, "line", None):
        where += f":{d.line}:{d.column or 1}"
    return f"{where}: {d.message}"


# ------------------------------------------------------------------ baselines

def load_baseline(value: str, *, rules: str | None, filters: str | None, project: str | None, profile: str,
                  with_bundled: bool = False, **options: Any) -> EvalSetup:
    """``--baseline``: a folder (with ``rules/``/``filters/`` inside, or itself a rules or filters
    folder), else a git revision of the repository that holds the current rules and filters."""
    folder = Path(value)
    if folder.is_dir():
        base_rules, base_filters = _baseline_folders(folder, rules, filters)
        return load_setup(f"baseline {value}", rules=base_rules, filters=base_filters, project=project,
                          profile=profile, with_bundled=with_bundled, **options)
    return _load_revision(value, rules=rules, filters=filters, project=project, profile=profile,
                          with_bundled=with_bundled, **options)


def _baseline_folders(folder: Path, rules: str | None, filters: str | None) -> tuple[Any, Any]:
    if (folder / "rules").is_dir() or (folder / "filters").is_dir():
        return (folder / "rules" if (folder / "rules").is_dir() else rules,
                folder / "filters" if (folder / "filters").is_dir() else filters)
    if any(folder.glob("*/*.json")) and not any(folder.glob("*.json")):
        return folder, filters  # <language>/<category>.json: a rules folder
    if any(folder.glob("*.json")):
        return rules, folder
    raise SetupError(f"{folder}: baseline folder holds neither rules/ nor filters/ nor packs or filter files")


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=120, check=False)
    except FileNotFoundError as exc:
        raise SetupError("git is not installed: a baseline revision needs git") from exc
    except subprocess.TimeoutExpired as exc:
        raise SetupError(f"git {' '.join(args[:2])} took more than 120 s") from exc


def _load_revision(rev: str, *, rules: str | None, filters: str | None, project: str | None, profile: str,
                   with_bundled: bool = False, **options: Any) -> EvalSetup:
    rules_dir = Path(rules) if rules is not None else builtin_rules_dir()
    filters_dir = Path(filters) if filters is not None else builtin_filters_dir()
    anchor = rules_dir if rules_dir.is_dir() else filters_dir
    top = _git(["rev-parse", "--show-toplevel"], anchor.resolve())
    if top.returncode != 0:
        raise SetupError(f"--baseline {rev}: not a folder, and {anchor} is not inside a git repository")
    repo = Path(top.stdout.decode().strip())
    check = _git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], repo)
    if check.returncode != 0:
        raise SetupError(f"--baseline {rev}: neither a folder nor a revision of {repo}")
    with tempfile.TemporaryDirectory(prefix="rulewright-baseline-") as tmp:
        out = Path(tmp)
        paths = {}
        for name, folder in (("rules", rules_dir), ("filters", filters_dir)):
            paths[name] = _export_tree(repo, rev, folder, out / name)
        setup = load_setup(f"baseline {rev}", rules=paths["rules"], filters=paths["filters"], project=project,
                           profile=profile, with_bundled=with_bundled and filters is not None, **options)
    setup.sources = (f"the packs of {rules_dir} and the filters of {filters_dir} as they were at {rev}"
                     + (" beside the bundled filters" if with_bundled and filters is not None else ""))
    return setup


def _export_tree(repo: Path, rev: str, folder: Path, dest: Path) -> Path:
    """The files under ``folder`` as they were at ``rev``, written below ``dest``."""
    dest.mkdir(parents=True)
    try:
        rel = folder.resolve().relative_to(repo)
    except ValueError:
        return folder  # outside the repository: the baseline uses it as it is now
    listing = _git(["ls-tree", "-r", "-z", "--name-only", rev, "--", rel.as_posix()], repo)
    for name in filter(None, listing.stdout.decode("utf-8", "surrogateescape").split("\0")):
        blob = _git(["show", f"{rev}:{name}"], repo)
        if blob.returncode != 0:
            continue
        target = dest / Path(name).relative_to(rel.as_posix())
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob.stdout)
    return dest
