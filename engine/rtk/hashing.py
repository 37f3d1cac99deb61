"""The trust hash of a project filter file, as OmniRoute computes ``filtersSha256``.

OmniRoute reads the file with ``readFileSync(path, "utf8")`` — invalid UTF-8 becomes U+FFFD (one
per maximal ill-formed subpart, which is what Python's ``"replace"`` handler does too), a BOM is
kept — and hashes that string re-encoded as UTF-8 (VT-Q1). For valid UTF-8 this is the SHA-256 of
the raw bytes; rtk always hashes the raw bytes, which is the ``strict`` behaviour.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field

from engine.diagnostics import Diagnostic
from engine.jsvalues import JsonObject

PROFILES = ("omniroute", "strict")


@dataclass(frozen=True)
class TrustHash:
    sha256: str  # 64 lowercase hex digits
    valid_utf8: bool
    replaced: int  # U+FFFD characters introduced by decoding (0 for valid UTF-8)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def to_dict(self) -> JsonObject:
        out: JsonObject = {"sha256": self.sha256, "validUtf8": self.valid_utf8, "replacedSequences": self.replaced}
        if self.diagnostics:
            out["diagnostics"] = [d.to_dict() for d in self.diagnostics]
        return out


def decode_like_node(data: bytes) -> str:
    """``Buffer.toString("utf8")``: replacement per maximal subpart, BOM kept."""
    return data.decode("utf-8", "replace")


def is_valid_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def raw_sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def text_sha256(text: str) -> str:
    """SHA-256 of a JS string encoded as UTF-8 (lone surrogates become U+FFFD, as in Node)."""
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


def trust_hash_bytes(data: bytes, profile: str = "omniroute", path: str | None = None) -> TrustHash:
    valid = is_valid_utf8(data)
    if valid:
        return TrustHash(raw_sha256(data), True, 0)
    decoded = decode_like_node(data)
    replaced = decoded.count("\ufffd") - data.decode("utf-8", "ignore").count("\ufffd")
    if profile == "strict":
        message = (
            "file is not valid UTF-8: hashing the raw bytes as rtk does; OmniRoute would hash "
            f"the text with {replaced} replacement character(s) and see it as changed"
        )
        return TrustHash(raw_sha256(data), False, replaced,
                         [Diagnostic(message, "warning", "VT-Q1", path=path, source="trust")])
    message = (
        f"file is not valid UTF-8: {replaced} ill-formed sequence(s) were replaced by U+FFFD before "
        "hashing, as OmniRoute does; rtk hashes the raw bytes and will disagree"
    )
    return TrustHash(text_sha256(decoded), False, replaced,
                     [Diagnostic(message, "warning", "VT-Q1", path=path, source="trust")])


def trust_hash_file(path: str | os.PathLike[str], profile: str = "omniroute") -> TrustHash:
    from engine.fsutil import read_input_bytes

    data = read_input_bytes(path)
    return trust_hash_bytes(data, profile, path=os.fspath(path))
