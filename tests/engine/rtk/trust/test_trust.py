"""Trust verdicts for project filter files (verify-trust §4) and writing trust.json (§4.4)."""

from __future__ import annotations

import hashlib
import json

import pytest

from engine.rtk.trust import (
    CHANGED_MESSAGE,
    UNTRUSTED_MESSAGE,
    TrustWriteError,
    decide_trust,
    write_trust,
)

FILTERS = b'[\n  {"id": "demo", "label": "Demo", "category": "git", "match": {}, "rules": {}, "preserve": {}}\n]\n'
NO_ENV: dict[str, str] = {}


@pytest.fixture
def project(tmp_path):
    rtk = tmp_path / ".rtk"
    rtk.mkdir()
    (rtk / "filters.json").write_bytes(FILTERS)
    return tmp_path


def write_trust_json(project, content):
    data = content if isinstance(content, bytes) else json.dumps(content).encode()
    (project / ".rtk" / "trust.json").write_bytes(data)


def decide(project, name="filters.json", **kw):
    kw.setdefault("environ", NO_ENV)
    return decide_trust(project / ".rtk" / name, **kw)


def good_hash(data=FILTERS):
    return hashlib.sha256(data).hexdigest()


def test_missing_trust_file_is_untrusted(project):
    d = decide(project)
    assert (d.verdict, d.reason, d.message) == ("untrusted", "no-trust-file", UNTRUSTED_MESSAGE)


def test_matching_hash_is_trusted(project):
    write_trust_json(project, {"filtersSha256": good_hash(), "other": 1})
    d = decide(project)
    assert (d.verdict, d.key, d.message) == ("trusted", "filtersSha256", None)


def test_wrong_hash_is_changed(project):
    write_trust_json(project, {"filtersSha256": "0" * 64})
    d = decide(project)
    assert (d.verdict, d.message) == ("changed", CHANGED_MESSAGE)
    assert not d.diagnostics


@pytest.mark.parametrize("content", [b"{ not json", b"[]", b'"x"', b'{"filtersSha256": 5}', b"{}",
                                     b'{"filtersSha256": NaN}'])
def test_unusable_trust_file_is_untrusted(project, content):
    write_trust_json(project, content)
    assert decide(project).verdict == "untrusted"


def test_empty_hash_is_untrusted_not_changed(project):
    write_trust_json(project, {"filtersSha256": ""})
    d = decide(project)
    assert (d.verdict, d.reason) == ("untrusted", "empty-hash")


def test_uppercase_hash_is_changed_with_quirk_note_VT_Q2(project):
    write_trust_json(project, {"filtersSha256": good_hash().upper()})
    d = decide(project)
    assert d.verdict == "changed"
    assert [x.code for x in d.diagnostics] == ["VT-Q2"]
    assert decide(project, profile="strict").verdict == "trusted"


def test_legacy_key_used_only_when_primary_is_not_a_string_VT_Q4(project):
    write_trust_json(project, {"trustedFiltersSha256": good_hash()})
    assert decide(project).verdict == "trusted"
    write_trust_json(project, {"filtersSha256": "", "trustedFiltersSha256": good_hash()})
    assert decide(project).verdict == "untrusted"
    write_trust_json(project, {"filtersSha256": "stale", "trustedFiltersSha256": good_hash()})
    d = decide(project)
    assert d.verdict == "changed" and "VT-Q4" in [x.code for x in d.diagnostics]
    assert decide(project, profile="strict").verdict == "trusted"


def test_toml_uses_its_own_key(project):
    toml = b'schema_version = 1\n[filters.a]\nmatch_command = "^a"\n'
    (project / ".rtk" / "filters.toml").write_bytes(toml)
    write_trust_json(project, {"filtersSha256": good_hash(toml)})
    assert decide(project, "filters.toml").verdict == "untrusted"
    write_trust_json(project, {"filtersTomlSha256": good_hash(toml), "filtersSha256": good_hash()})
    assert decide(project, "filters.toml").verdict == "trusted"
    assert decide(project).verdict == "trusted"


def test_bom_in_trust_json_is_untrusted_VT_Q3(project):
    write_trust_json(project, b"\xef\xbb\xbf" + json.dumps({"filtersSha256": good_hash()}).encode())
    d = decide(project)
    assert (d.verdict, d.reason) == ("untrusted", "invalid-json")
    assert [x.code for x in d.diagnostics] == ["VT-Q3"]
    assert decide(project, profile="strict").verdict == "trusted"


def test_a_trust_json_that_does_not_parse_says_where(project, capsys):
    """Untrusted because trust.json is broken: the note names the file, line and column, and the
    CLI's check prints them the way editors parse them."""
    from engine.cli import main

    write_trust_json(project, b'{"filtersSha256": \n')
    d = decide(project)
    assert (d.verdict, d.reason) == ("untrusted", "invalid-json")
    [note] = d.diagnostics
    assert (note.code, note.line, note.column) == ("json-syntax", 2, 1)
    assert note.path is not None and note.path.endswith("trust.json")
    assert main(["trust", str(project), "--check"]) == 1
    assert f"{note.path}:2:1: warning: trust.json is not valid JSON" in capsys.readouterr().out


def test_option_and_env_override():
    from pathlib import Path
    missing = Path("/nonexistent/.rtk/filters.json")
    assert decide_trust(missing, trust_option=True, environ=NO_ENV).verdict == "trusted"
    d = decide_trust(missing, environ={"OMNIROUTE_RTK_TRUST_PROJECT_FILTERS": "1"})
    assert d.verdict == "trusted" and [x.code for x in d.diagnostics] == ["VT-Q11"]
    assert decide_trust(missing, environ={"OMNIROUTE_RTK_TRUST_PROJECT_FILTERS": "true"}).verdict == "untrusted"
    # strict honours the variable only in CI (rtk's rule)
    assert decide_trust(missing, environ={"OMNIROUTE_RTK_TRUST_PROJECT_FILTERS": "1"},
                        profile="strict").verdict == "untrusted"
    assert decide_trust(missing, environ={"OMNIROUTE_RTK_TRUST_PROJECT_FILTERS": "1", "CI": "true"},
                        profile="strict").verdict == "trusted"


def test_invalid_utf8_file_hashes_decoded_text_VT_Q1(project):
    data = b'[{"id": "caf\xe9"}]'
    (project / ".rtk" / "filters.json").write_bytes(data)
    write_trust_json(project, {"filtersSha256": good_hash(data)})  # rtk's raw-bytes hash
    d = decide(project)
    assert d.verdict == "changed" and "VT-Q1" in [x.code for x in d.diagnostics]
    assert decide(project, profile="strict").verdict == "trusted"


def test_write_trust_round_trip_keeps_unrelated_keys(project):
    write_trust_json(project, {"note": "keep me", "trustedFiltersSha256": "old"})
    toml = b'schema_version = 1\r\n[filters.a]\r\nmatch_command = "^a"\r\n'
    (project / ".rtk" / "filters.toml").write_bytes(toml)
    result = write_trust(project)
    stored = json.loads((project / ".rtk" / "trust.json").read_text("utf-8"))
    assert stored == {"note": "keep me", "filtersSha256": good_hash(), "filtersTomlSha256": good_hash(toml)}
    assert result.removed == ["trustedFiltersSha256"]
    assert decide(project).verdict == "trusted"
    assert decide(project, "filters.toml").verdict == "trusted"
    (project / ".rtk" / "filters.json").write_bytes(FILTERS + b" ")
    assert decide(project).verdict == "changed"


def test_write_trust_refuses_invalid_utf8(project):
    (project / ".rtk" / "filters.json").write_bytes(b"[\xff]")
    with pytest.raises(TrustWriteError, match="not valid UTF-8"):
        write_trust(project)
    assert not (project / ".rtk" / "trust.json").exists()
