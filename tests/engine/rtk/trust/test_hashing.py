"""Trust hash edge cases (VT-Q1): BOM and CRLF kept, invalid UTF-8 replaced like Node."""

from __future__ import annotations

import hashlib

import pytest

from engine.rtk.hashing import trust_hash_bytes, trust_hash_file


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize("data", [
    b'[{"id":"x"}]',
    b"\xef\xbb\xbf[\n]\n",            # BOM is hashed, not stripped
    b"[\r\n  1\r\n]\r\n",             # CRLF kept
    b"\xef\xbb\xbf\xef\xbb\xbf{}",    # two BOMs
    "caf\u00e9 \U0001f600\n".encode(),
    b"",
])
def test_valid_utf8_hashes_raw_bytes(data):
    result = trust_hash_bytes(data)
    assert result.sha256 == sha(data)
    assert result.valid_utf8 and result.replaced == 0 and not result.diagnostics


@pytest.mark.parametrize(("data", "decoded", "count"), [
    (b"caf\xe9", "caf\ufffd", 1),                   # latin-1 byte
    (b"\xe2\x82", "\ufffd", 1),                      # truncated sequence = one maximal subpart
    (b"\xc0\xaf", "\ufffd\ufffd", 2),                # overlong: each byte replaced
    (b"\xed\xa0\x80", "\ufffd\ufffd\ufffd", 3),      # encoded surrogate
    (b"\xf0\x9f\x98x", "\ufffdx", 1),                # truncated 4-byte sequence then ASCII
])
def test_invalid_utf8_is_replaced_before_hashing(data, decoded, count):
    result = trust_hash_bytes(data)
    assert result.sha256 == sha(decoded.encode("utf-8"))
    assert result.sha256 != sha(data)
    assert not result.valid_utf8 and result.replaced == count
    assert [d.code for d in result.diagnostics] == ["VT-Q1"]


def test_genuine_replacement_character_is_not_counted_as_replaced():
    data = "a\ufffd".encode() + b"\xff"
    result = trust_hash_bytes(data)
    assert result.replaced == 1


def test_strict_profile_hashes_raw_bytes_and_warns():
    data = b"caf\xe9"
    result = trust_hash_bytes(data, profile="strict")
    assert result.sha256 == sha(data)
    assert result.diagnostics[0].code == "VT-Q1"


def test_hash_file_reads_bytes(tmp_path):
    path = tmp_path / "filters.json"
    path.write_bytes(b"\xef\xbb\xbf[]\r\n")
    assert trust_hash_file(path).sha256 == sha(b"\xef\xbb\xbf[]\r\n")
    assert len(trust_hash_file(path).sha256) == 64
