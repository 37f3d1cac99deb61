"""Whether a project filter file may run: OmniRoute's ``.rtk/trust.json`` decision, and writing it.

A project file is trusted when the caller's ``trustProjectFilters`` option is on, when
``OMNIROUTE_RTK_TRUST_PROJECT_FILTERS`` is exactly ``"1"``, or when ``trust.json`` beside it holds
the file's hash under the relevant key (``filtersSha256`` — or the legacy ``trustedFiltersSha256``
— for ``filters.json``, ``filtersTomlSha256`` for ``filters.toml``). Profile ``omniroute``
reproduces the reference's verdicts including VT-Q1…Q4 and VT-Q11 and says so whenever a quirk
decided the verdict; ``strict`` applies the fixes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from engine.diagnostics import Diagnostic, Level
from engine.fsutil import InputRefused, atomic_write_text, read_input_bytes
from engine.jsvalues import JsonObject
from engine.rtk.hashing import decode_like_node, is_valid_utf8, raw_sha256, text_sha256
from engine.rtk.snapshot import FileSnapshot as FileSnapshot  # re-exported: trust's public API
from engine.rtk.snapshot import Format as Format
from engine.rtk.snapshot import format_of as format_of
from engine.rtk.snapshot import read_file_bytes as read_file_bytes
from engine.rtk.snapshot import snapshot_file as snapshot_file

Verdict = Literal["trusted", "untrusted", "changed"]

ENV_TRUST = "OMNIROUTE_RTK_TRUST_PROJECT_FILTERS"
CI_VARIABLES = ("CI", "GITHUB_ACTIONS", "GITLAB_CI", "JENKINS_URL", "BUILDKITE")
TRUST_FILE = "trust.json"
JSON_KEY, LEGACY_JSON_KEY, TOML_KEY = "filtersSha256", "trustedFiltersSha256", "filtersTomlSha256"

UNTRUSTED_MESSAGE = "Project RTK filters are untrusted and were skipped"
CHANGED_MESSAGE = "Project RTK filters changed after trust and were skipped"


def env_trust_requested(environ: Mapping[str, str] | None = None) -> bool:
    environ = os.environ if environ is None else environ
    return environ.get(ENV_TRUST) == "1"


def ci_detected(environ: Mapping[str, str] | None = None) -> bool:
    environ = os.environ if environ is None else environ
    return any(environ.get(name) for name in CI_VARIABLES)


@dataclass
class TrustDecision:
    """The verdict for one project filter file, with everything needed to explain it."""

    file: str
    format: Format
    verdict: Verdict
    reason: str  # option | env | hash-match | no-trust-file | unreadable | invalid-json | not-object
    #              | no-key | empty-hash | hash-mismatch
    key: str | None = None  # the trust.json key that decided
    stored: str | None = None
    computed: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def trusted(self) -> bool:
        return self.verdict == "trusted"

    @property
    def message(self) -> str | None:
        """The reference's loader message when the file is skipped."""
        if self.verdict == "untrusted":
            return UNTRUSTED_MESSAGE
        if self.verdict == "changed":
            return CHANGED_MESSAGE
        return None

    def to_dict(self) -> JsonObject:
        out: JsonObject = {"file": self.file, "format": self.format, "verdict": self.verdict, "reason": self.reason,
               "key": self.key, "stored": self.stored, "computed": self.computed}
        if self.message:
            out["message"] = self.message
        out["diagnostics"] = [d.to_dict() for d in self.diagnostics]
        return out


def _note(decision_path: str, code: str, message: str, level: Level = "info") -> Diagnostic:
    return Diagnostic(message, level, code, path=decision_path, source="trust")


def read_trust_file(trust_path: Path, profile: str = "omniroute") -> tuple[object, str | None, list[Diagnostic]]:
    """Parse ``trust.json`` as ``JSON.parse(readFileSync(p, "utf8"))``: (value, failure reason, notes)."""
    notes: list[Diagnostic] = []
    try:
        data = read_input_bytes(trust_path)
    except FileNotFoundError:
        return None, "no-trust-file", notes
    except InputRefused as refused:
        # a FIFO, a device (a symlink to /dev/zero), an oversized file: never read, and said so,
        # so "untrusted" does not hide why
        notes.append(_note(str(trust_path), refused.code,
                           f"trust.json not read: {refused.strerror}; the project's filters stay untrusted", "warning"))
        return None, "unreadable", notes
    except OSError:
        return None, "unreadable", notes
    text = decode_like_node(data)
    if text.startswith("\ufeff"):
        if profile == "strict":
            text = text[1:]
        else:
            try:
                _parse_js_json(text[1:])
            except ValueError:
                pass
            else:
                notes.append(_note(str(trust_path), "VT-Q3",
                                   "trust.json starts with a UTF-8 byte-order mark, which JSON.parse rejects: "
                                   "the file is ignored (strict strips the mark)", "warning"))
    try:
        return _parse_js_json(text), None, notes
    except ValueError as exc:
        if any(n.code == "VT-Q3" for n in notes):
            return None, "invalid-json", notes  # (the byte-order mark is why, and that note says so)
        # where it breaks, so the reviewer can mend it (the verdict alone said "invalid-json")
        line, column = getattr(exc, "lineno", None), getattr(exc, "colno", None)
        why = getattr(exc, "msg", None) or str(exc)
        notes.append(Diagnostic(f"trust.json is not valid JSON: {why}; the project's filters stay untrusted",
                                "warning", "json-syntax", path=str(trust_path), line=line, column=column,
                                source="trust"))
        return None, "invalid-json", notes


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _parse_js_json(text: str) -> object:
    """JSON.parse acceptance: no NaN/Infinity, no BOM (json.loads rejects a leading U+FEFF too)."""
    from engine.jsondoc import loads_js

    return loads_js(text, parse_constant=_reject_constant)


def _hashes(data: bytes, profile: str) -> tuple[str, str, bool]:
    """(hash the profile compares, the other tool's hash, valid UTF-8)."""
    valid = is_valid_utf8(data)
    omni = raw_sha256(data) if valid else text_sha256(decode_like_node(data))
    raw = raw_sha256(data)
    return (raw, omni, valid) if profile == "strict" else (omni, raw, valid)


def decide_trust(filter_path: str | os.PathLike[str], *, trust_option: bool = False,
                 environ: Mapping[str, str] | None = None, profile: str = "omniroute",
                 data: bytes | None = None) -> TrustDecision:
    """OmniRoute's ``isProjectFilterTrusted`` for one file, with the verdict it reports.

    ``data`` is the file's content as the caller read it (and will parse and apply); without it
    the file is read here, for a verdict only."""
    path = Path(filter_path)
    fmt = format_of(path)
    shown = str(path)
    if trust_option:
        return TrustDecision(shown, fmt, "trusted", "option")
    if env_trust_requested(environ):
        if profile != "strict" or ci_detected(environ):
            decision = TrustDecision(shown, fmt, "trusted", "env")
            if not ci_detected(environ):
                decision.diagnostics.append(_note(shown, "VT-Q11",
                    f"{ENV_TRUST}=1 trusts every project without a CI environment (strict honours it only in CI)"))
            return decision
        strict_note = _note(shown, "VT-Q11", f"{ENV_TRUST}=1 ignored: no CI environment detected", "warning")
    else:
        strict_note = None

    decision = _decide_by_hash(path, fmt, profile, data)
    if strict_note:
        decision.diagnostics.insert(0, strict_note)
    return decision


def _decide_by_hash(path: Path, fmt: Format, profile: str, data: bytes | None) -> TrustDecision:
    shown = str(path)
    trust_path = path.parent / TRUST_FILE
    value, failure, notes = read_trust_file(trust_path, profile)
    if failure:
        return TrustDecision(shown, fmt, "untrusted", failure, diagnostics=notes)
    if not isinstance(value, dict):
        return TrustDecision(shown, fmt, "untrusted", "not-object", diagnostics=notes)

    candidates: list[tuple[str, str]] = []  # (key, stored) in the order the profile consults them
    if fmt == "rtk-toml-v1":
        if isinstance(value.get(TOML_KEY), str):
            candidates.append((TOML_KEY, value[TOML_KEY]))
    else:
        primary, legacy = value.get(JSON_KEY), value.get(LEGACY_JSON_KEY)
        if isinstance(primary, str):
            candidates.append((JSON_KEY, primary))
        if isinstance(legacy, str) and (profile == "strict" or not isinstance(primary, str)):
            candidates.append((LEGACY_JSON_KEY, legacy))
    if not candidates:
        return TrustDecision(shown, fmt, "untrusted", "no-key", diagnostics=notes)

    try:
        computed, other_tool, valid = _hashes(read_file_bytes(path) if data is None else data, profile)
    except OSError:
        return TrustDecision(shown, fmt, "untrusted", "unreadable", diagnostics=notes)

    def matches(stored: str) -> bool:
        if profile == "strict":
            return stored.strip().lower() == computed
        return stored == computed

    usable = [(k, s) for k, s in candidates if (s.strip() if profile == "strict" else s) != ""]
    if not usable:
        key, stored = candidates[0]
        return TrustDecision(shown, fmt, "untrusted", "empty-hash", key, stored, computed, notes)
    for key, stored in usable:
        if matches(stored):
            return TrustDecision(shown, fmt, "trusted", "hash-match", key, stored, computed, notes)

    key, stored = usable[0]
    decision = TrustDecision(shown, fmt, "changed", "hash-mismatch", key, stored, computed, notes)
    if profile != "strict":
        _explain_mismatch(decision, value, other_tool, valid)
    return decision


def _explain_mismatch(decision: TrustDecision, value: Mapping[str, object], raw_hash: str, valid: bool) -> None:
    """Say which quirk turned a would-be 'trusted' into 'changed' (omniroute profile only)."""
    stored, computed = decision.stored or "", decision.computed or ""
    if stored.strip().lower() == computed:
        decision.diagnostics.append(_note(decision.file, "VT-Q2",
            f"{decision.key} matches the file's hash except for case or surrounding spaces; OmniRoute compares "
            "exactly, so the file reads as changed after trust", "warning"))
    legacy = value.get(LEGACY_JSON_KEY)
    if decision.key == JSON_KEY and isinstance(legacy, str) and legacy == computed:
        decision.diagnostics.append(_note(decision.file, "VT-Q4",
            f"{LEGACY_JSON_KEY} holds the correct hash but is never read while {JSON_KEY} is a string", "warning"))
    if not valid and stored == raw_hash:
        decision.diagnostics.append(_note(decision.file, "VT-Q1",
            "the stored hash is the raw-bytes hash (as rtk computes it); OmniRoute hashes the file after replacing "
            "invalid UTF-8, so it reads as changed", "warning"))


# ---------------------------------------------------------------- writing trust.json

class TrustWriteError(Exception):
    """Refusal to trust a file (e.g. not valid UTF-8, where OmniRoute and rtk would disagree)."""


@dataclass
class TrustWriteResult:
    trust_path: str
    entries: dict[str, str]  # key -> hash written
    removed: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def to_dict(self) -> JsonObject:
        return {"trustPath": self.trust_path, "entries": dict(self.entries), "removed": list(self.removed),
                "diagnostics": [d.to_dict() for d in self.diagnostics]}


def project_filter_files(project_dir: str | os.PathLike[str]) -> list[Path]:
    """The project's filter files in OmniRoute's collection order (TOML first)."""
    rtk_dir = Path(project_dir) / ".rtk"
    return [p for p in (rtk_dir / "filters.toml", rtk_dir / "filters.json") if p.is_file()]


def key_for(path: str | os.PathLike[str]) -> str:
    return TOML_KEY if format_of(path) == "rtk-toml-v1" else JSON_KEY


def trust_entries(snapshots: list[FileSnapshot]) -> dict[str, str]:
    """key -> hash of exactly these bytes; refuses content that is not valid UTF-8 (VT-Q1)."""
    entries: dict[str, str] = {}
    for snap in snapshots:
        if not is_valid_utf8(snap.data):
            raise TrustWriteError(
                f"{snap.path}: not valid UTF-8; OmniRoute and rtk would compute different hashes (VT-Q1). "
                "Re-save the file as UTF-8 before trusting it")
        entries[key_for(snap.path)] = snap.sha256
    return entries


def snapshot_files(files: list[Path]) -> list[FileSnapshot]:
    try:
        return [snapshot_file(f) for f in files]
    except OSError as exc:
        raise TrustWriteError(f"{exc.filename or files[0]}: cannot read: {exc.strerror or exc}") from None


def _unchanged_since_review(snapshots: list[FileSnapshot]) -> None:
    """Refuse when a reviewed file no longer holds the reviewed bytes: the hash to record would be
    of content nobody saw, or would not match what is there."""
    for snap in snapshots:
        try:
            now = read_file_bytes(snap.path)
        except OSError as exc:
            raise TrustWriteError(f"{snap.path}: cannot read it again before recording trust: "
                                  f"{exc.strerror or exc}") from None
        if now != snap.data:
            raise TrustWriteError(f"{snap.path} changed after it was reviewed (reviewed sha256 "
                                  f"{snap.sha256[:16]}…, now {raw_sha256(now)[:16]}…); nothing was written. "
                                  "Review it again")


def write_trust(project_dir: str | os.PathLike[str], files: list[Path] | None = None, *,
                snapshots: list[FileSnapshot] | None = None, remember: bool = True) -> TrustWriteResult:
    """Record the hashes of the reviewed bytes (``snapshots``; default: one read of ``files`` now)
    in ``.rtk/trust.json`` atomically, refusing if a file changed since it was read.

    Unrelated keys already in ``trust.json`` are kept; a legacy ``trustedFiltersSha256`` is dropped
    when ``filtersSha256`` is written (it would never be read again, VT-Q4). ``remember`` keeps a
    copy of the trusted content in the user's data folder, so ``trust --diff`` can later show what
    changed since (engine.rtk.trust_history).
    """
    if snapshots is None:
        files = project_filter_files(project_dir) if files is None else files
        if not files:
            raise TrustWriteError(f"{Path(project_dir) / '.rtk'}: no filters.json or filters.toml to trust")
        snapshots = snapshot_files(files)
    if not snapshots:
        raise TrustWriteError(f"{Path(project_dir) / '.rtk'}: no filters.json or filters.toml to trust")
    trust_path = snapshots[0].path.parent / TRUST_FILE
    entries = trust_entries(snapshots)
    result = TrustWriteResult(str(trust_path), entries)
    existing, failure, _ = read_trust_file(trust_path, profile="strict")
    document: dict[str, object] = {}
    if failure is None and isinstance(existing, dict):
        document = dict(existing)
    elif failure not in (None, "no-trust-file"):
        result.diagnostics.append(Diagnostic(f"existing trust.json could not be read ({failure}); it is replaced",
                                             "warning", "RTK-trust", str(trust_path), source="trust"))
    elif failure is None:
        result.diagnostics.append(Diagnostic("existing trust.json is not an object; it is replaced",
                                             "warning", "RTK-trust", str(trust_path), source="trust"))
    document.update(entries)
    if JSON_KEY in entries and LEGACY_JSON_KEY in document:
        del document[LEGACY_JSON_KEY]
        result.removed.append(LEGACY_JSON_KEY)
    _unchanged_since_review(snapshots)
    atomic_write_text(trust_path, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    if remember:
        from engine.rtk.trust_history import remember_trusted

        for snap in snapshots:
            note = remember_trusted(snap)
            if note is not None:
                result.diagnostics.append(note)
    return result
