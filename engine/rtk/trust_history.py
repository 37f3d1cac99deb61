"""Finding the content a stored trust hash was computed from, to show what changed since.

Two places can hold it. The project's git history: the revision of the file whose bytes hash to
the stored value (the index first, then at most ``MAX_REVISIONS`` commits that touched the file;
``git`` runs with a timeout, without pager, prompts, optional locks or fsmonitor, so a hostile
repository config cannot make it run a program). And a snapshot Rulewright keeps in the user's
data folder each time it writes trust, when it copies the example workspace (whose trust was
written with the bundle), and when the IDE or ``trust --diff`` sees a file whose bytes match the
stored hash (a project trusted elsewhere), named by the content's hash.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.diagnostics import Diagnostic
from engine.jsvalues import JsonObject
from engine.rtk.hashing import decode_like_node
from engine.rtk.snapshot import FileSnapshot, format_of

MAX_REVISIONS = 200
GIT_TIMEOUT = 10.0
MAX_BLOB_BYTES = 16 * 1024 * 1024
_HEX = frozenset("0123456789abcdef")

# Whether content (bytes) is what a stored trust hash (str) was computed from.
Matcher = Callable[[bytes, str], bool]


@dataclass(frozen=True)
class TrustedContent:
    data: bytes
    origin: str  # git | snapshot
    detail: str  # "commit 1a2b3c4 (2026-01-02, subject)" | "index" | the snapshot path

    @property
    def text(self) -> str:
        """The trusted bytes as text, decoded as ``FileSnapshot.text`` decodes the bytes now."""
        return decode_like_node(self.data)

    def to_dict(self) -> JsonObject:
        return {"origin": self.origin, "detail": self.detail, "sha256": hashlib.sha256(self.data).hexdigest()}


def snapshots_dir() -> Path:
    from engine.paths import data_dir

    return data_dir() / "trusted-filters"


def _suffix(path: str | os.PathLike[str]) -> str:
    return ".toml" if format_of(path) == "rtk-toml-v1" else ".json"


def remember_trusted(snap: FileSnapshot, digest: str | None = None) -> Diagnostic | None:
    """Keep the trusted bytes as ``<data>/trusted-filters/<digest>.<ext>`` (private; ``digest``:
    the stored hash they matched, by default their sha256); a failure is a warning, never a
    reason not to trust."""
    from engine.fsutil import atomic_write_bytes

    folder = snapshots_dir()
    target = folder / f"{digest or snap.sha256}{_suffix(snap.path)}"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        atomic_write_bytes(target, snap.data)  # replaces a link or a damaged copy, never writes through
        os.chmod(target, 0o600)
    except OSError as exc:
        return Diagnostic(f"could not keep a copy of the trusted content in {folder} ({exc.strerror or exc}); "
                          "'trust --diff' will rely on git history only", "warning", "RTK-trust",
                          str(snap.path), source="trust")
    return None


def keep_verified_copy(snap: FileSnapshot, stored: str | None, verdict: str) -> None:
    """Keep bytes just found trusted (``verdict``) and matching the stored trust hash, unless a
    copy is kept already.

    A project trusted elsewhere (by rtk, by a colleague, before Rulewright saw it) has no copy
    of ours, and outside git history nothing else remembers what was trusted: once the user
    edits the file, the review could only show the whole risk summary. Seeing the trusted bytes
    is enough to keep them, under the hash they matched, so the review can show what changed.
    A failure to write is not reported here: that review then says no copy was found."""
    if verdict != "trusted" or not stored:
        return
    digest = _normalise(stored)
    if not hashes_to(snap.data, digest) or find_in_snapshots(snap.path, digest) is not None:
        return
    remember_trusted(snap, digest)


def _normalise(stored: str) -> str:
    return stored.strip().lower()


def hashes_to(data: bytes, stored: str) -> bool:
    """Whether ``stored`` is this content's trust hash, as rtk (raw bytes) or OmniRoute (decoded
    text, VT-Q1) computes it; case and spaces aside (the verdict itself stays exact)."""
    from engine.rtk.hashing import decode_like_node, text_sha256

    want = _normalise(stored)
    return hashlib.sha256(data).hexdigest() == want or text_sha256(decode_like_node(data)) == want


def find_in_snapshots(path: str | os.PathLike[str], stored: str) -> TrustedContent | None:
    digest = _normalise(stored)
    if len(digest) != 64 or not set(digest) <= _HEX:
        return None
    candidate = snapshots_dir() / f"{digest}{_suffix(path)}"
    try:
        from engine.fsutil import read_input_bytes

        data = read_input_bytes(candidate)
    except OSError:
        return None
    if not hashes_to(data, digest):  # a damaged or tampered copy proves nothing
        return None
    return TrustedContent(data, "snapshot", str(candidate))


def _git(args: list[str], cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes] | None:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "GIT_PAGER": "cat",
           "LC_ALL": "C"}
    try:
        return subprocess.run(["git", "-c", "core.fsmonitor=false", "-c", "core.pager=cat", *args], cwd=cwd,
                              input=stdin, capture_output=True, timeout=GIT_TIMEOUT, env=env, check=False)
    except (OSError, subprocess.SubprocessError):
        return None


def _read_blobs(blobs: list[str], cwd: Path) -> Iterator[tuple[str, bytes]]:
    """(blob id, bytes) for each blob, from one ``git cat-file --batch``; oversized blobs skipped."""
    proc = _git(["cat-file", "--batch"], cwd, ("\n".join(blobs) + "\n").encode())
    if proc is None or proc.returncode != 0:
        return
    out, i = proc.stdout, 0
    while i < len(out):
        end = out.find(b"\n", i)
        if end < 0:
            return
        header = out[i:end].decode("ascii", "replace").split()
        i = end + 1
        if len(header) != 3:  # "<id> missing"
            continue
        size = int(header[2])
        data = out[i:i + size]
        i += size + 1
        if size <= MAX_BLOB_BYTES:
            yield header[0], data


def find_in_git(path: str | os.PathLike[str], stored: str, *, max_revisions: int = MAX_REVISIONS,
                matches: Matcher | None = None) -> TrustedContent | None:
    """The revision of ``path`` whose content hashes to ``stored``: the last ``max_revisions``
    commits that touched it, then the index (``matches(data, stored)`` decides; default
    ``hashes_to``)."""
    file = Path(path).resolve()
    folder = file.parent
    top = _git(["rev-parse", "--show-toplevel"], folder)
    if top is None or top.returncode != 0:
        return None
    root = Path(top.stdout.decode("utf-8", "surrogateescape").strip())
    try:
        rel = file.relative_to(root.resolve()).as_posix()
    except ValueError:
        return None
    matches = matches or hashes_to
    candidates: list[tuple[str, str]] = []  # (blob, detail)
    log = _git(["log", f"-n{max_revisions}", "--no-renames", "--raw", "--no-abbrev",
                "--format=commit %H %ad %s", "--date=short", "--", rel], root)
    if log is not None and log.returncode == 0:
        commit = ""
        for line in log.stdout.decode("utf-8", "replace").splitlines():
            if line.startswith("commit "):
                parts = line.split(" ", 3)
                commit = f"commit {parts[1][:12]} ({parts[2]}{', ' + parts[3] if len(parts) > 3 else ''})"
            elif line.startswith(":"):
                fields = line.split("\t", 1)[0].split()
                if len(fields) >= 4 and set(fields[3]) != {"0"}:
                    candidates.append((fields[3], commit))
    index = _git(["ls-files", "-s", "--", rel], root)
    if index is not None and index.returncode == 0 and index.stdout.strip():
        candidates.append((index.stdout.split()[1].decode(), "the git index (staged)"))
    seen: dict[str, str] = {}  # blob -> where it is first seen (a commit names it better than the index)
    for blob, detail in candidates:
        seen.setdefault(blob, detail)
    if not seen:
        return None
    for blob, data in _read_blobs(list(seen), root):
        if matches(data, stored):
            return TrustedContent(data, "git", seen[blob])
    return None


def find_trusted_content(path: str | os.PathLike[str], stored: str, *, matches: Matcher | None = None
                         ) -> TrustedContent | None:
    """The content ``stored`` was computed from: git history first (it says when), then our snapshot."""
    found = find_in_git(path, stored, matches=matches)
    if found is None:
        found = find_in_snapshots(path, stored)
    return found
