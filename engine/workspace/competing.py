"""The filters a workspace has compete for a command output beside the bundled ones: its project's
``.rtk`` filters, trusted or not (an author previews their own; trust gates what OmniRoute loads),
and its own filter files, ranked in project scope as an open one is. The RTK preview, the
learner's activation proof and ``rulewright learn --project`` read them from here."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from engine import memo

if TYPE_CHECKING:
    from engine.diagnostics import Diagnostic
    from engine.rtk.model import RtkFilter


def project_filters(project: str | None, profile: str = "omniroute") -> tuple[list[RtkFilter], list[Diagnostic]]:
    """The filters of ``project``'s ``.rtk/filters.json|toml``, trusted or not, and their errors."""
    if not project:
        return [], []
    from engine.rtk.sources import filter_files_in

    rtk = Path(project) / ".rtk"
    found: list[RtkFilter] = []
    errors: list[Diagnostic] = []
    if rtk.is_dir():
        for path in filter_files_in([rtk]):
            filters, problems = _read(str(path), profile)
            found.extend(filters)
            errors.extend(problems)
    return found, errors


# a filter file's filters and errors by (path, profile), kept while its size and mtime stay: a
# preview runs on every keystroke, the files change when saved
_FILES: memo.MemoDict[tuple[str, str], tuple[tuple[int, int], list[RtkFilter], list[Diagnostic]]] = \
    memo.MemoDict(f"{__name__}._FILES", 256)


def _read(path: str, profile: str) -> tuple[list[RtkFilter], list[Diagnostic]]:
    """A filter file's filters in project scope and its errors (none once it is gone)."""
    from engine.rtk.sources import read_filter_file

    try:
        st = Path(path).stat()
    except OSError:
        return [], []  # (gone since the scan: the next scan drops it)
    stamp, key = (st.st_mtime_ns, st.st_size), (path, profile)
    cached = _FILES.get(key)
    if cached is None or cached[0] != stamp:
        ff = read_filter_file(path, profile=profile, source="project")
        cached = _FILES[key] = (stamp, ff.filters, [d for d in ff.diagnostics if d.level == "error"])
    return cached[1], cached[2]


def file_filters(path: str, profile: str = "omniroute") -> list[RtkFilter]:
    """The filters of one of the workspace's filter files as saved, in project scope. Load
    problems are the validator's to report, as the built-ins' are."""
    return _read(path, profile)[0]


def workspace_neighbours(project: str | None, files: Iterable[str], profile: str = "omniroute") -> list[RtkFilter]:
    """What a filter saved into the workspace meets: its filter files (as saved) and its
    project's ``.rtk`` filters."""
    return [*(f for path in files for f in file_filters(path, profile)), *project_filters(project, profile)[0]]
