"""Export: one filters.json (+ trust.json) from filter files; lossy TOML export with warnings (§6.4)."""

from __future__ import annotations

import json

import pytest

from engine.rtk.export import ExportError, combine_commands, export_json, export_toml
from engine.rtk.sources import collect_filters, read_filter_file
from engine.rtk.toml_io import parse_rtk_toml
from engine.rtk.trust import decide_trust

from .conftest import canonical, write_json

TOML = """schema_version = 1

[filters.toml-one]
match_command = '^tool\\b'
keep_lines_matching = ['^keep']
max_lines = 3

[[tests.toml-one]]
name = "keeps"
input = "keep 1\\nskip\\nkeep 2"
expected = "keep 1\\nkeep 2"
"""


@pytest.fixture
def sources(tmp_path):
    a = tmp_path / "src" / "a.json"
    obj = canonical("alpha", include=["^On branch"], tests=[
        {"name": "t", "command": "git status", "input": "On branch x\nzzz", "expected": "On branch x"}])
    obj["$schema"] = "../schema.json"
    obj = {"rules": obj.pop("rules"), **obj}  # keys out of order on purpose
    write_json(a, obj)
    b = tmp_path / "src" / "b.json"
    norules = canonical("beta", commands=["^make\\b", "^gmake\\b"])
    del norules["preserve"]
    write_json(b, [norules])
    t = tmp_path / "src" / "c.toml"
    t.write_text(TOML, encoding="utf-8")
    return a, b, t


def test_json_export_with_trust_round_trip(tmp_path, sources):
    a, b, t = sources
    project = tmp_path / "project"
    out = project / ".rtk" / "filters.json"
    result = export_json([a, b, t], out, with_trust=True)
    assert result.filter_ids == ["alpha", "beta", "toml-one"]
    text = out.read_text("utf-8")
    data = json.loads(text)
    assert text.endswith("]\n") and text.startswith('[\n  {\n    "id": "alpha",')
    assert list(data[0]) == ["id", "label", "description", "category", "priority", "match", "rules", "preserve",
                             "tests"]
    assert data[0]["tests"][0]["command"] == "git status"  # tests kept whole
    assert data[1]["preserve"] == {}  # made explicit so OmniRoute does not crash (RTK-Q1)
    assert data[2]["match"] == {"commands": ["^tool\\b"]}
    assert any("truncate differently" in d.message for d in result.diagnostics)
    assert decide_trust(out, environ={}).verdict == "trusted"
    filters, diagnostics = collect_filters(tmp_path / "none", project, tmp_path / "nodata", environ={})
    assert [f.id for f in filters] == ["alpha", "beta", "toml-one"]
    assert not [d for d in diagnostics if d.source == "project"]
    # exporting again is byte-identical (stable output)
    export_json([a, b, t], tmp_path / "again.json")
    assert (tmp_path / "again.json").read_text("utf-8") == text


def test_json_export_refuses_invalid_input(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"id": "x",}', encoding="utf-8")
    with pytest.raises(ExportError) as info:
        export_json([bad], tmp_path / "out.json")
    (d,) = info.value.diagnostics
    assert (d.line, d.column) == (1, 12) and "Expected double-quoted property name" in d.message
    assert not (tmp_path / "out.json").exists()


def test_toml_export_warns_and_round_trips(tmp_path, sources):
    a, b, t = sources
    out = tmp_path / "filters.toml"
    result = export_toml([a, b, t], out)
    parsed = parse_rtk_toml(out.read_text("utf-8"))
    assert list(parsed.tables) == ["alpha", "beta", "toml-one"]
    assert parsed.tables["beta"]["match_command"] == "^(?:make\\b)|^(?:gmake\\b)"
    assert parsed.tables["toml-one"] == {"match_command": "^tool\\b", "keep_lines_matching": ["^keep"],
                                         "max_lines": 3}
    messages = [d.message for d in result.diagnostics]
    assert any("command dropped" in m for m in messages)
    assert any("combined into one alternation" in m for m in messages)
    assert [o.passed for o in result.test_outcomes] == [True, True]


def test_toml_export_refuses_drop_and_include(tmp_path):
    src = tmp_path / "x.json"
    write_json(src, canonical("both", include=["a"], drop=["b"]))
    with pytest.raises(ExportError, match="both dropPatterns and includePatterns"):
        export_toml([src], tmp_path / "out.toml")


@pytest.mark.parametrize(("commands", "combined"), [
    (["^git\\b"], "^git\\b"),
    (["^a", "b|c"], "^(?:a)|^(?:b|c)"),
    (["^a|^b", "^c"], "^(?:^a|^b)|^(?:c)"),
])
def test_combine_commands(commands, combined):
    assert combine_commands(commands) == combined


def test_read_filter_file_locates_schema_errors(tmp_path):
    src = tmp_path / "x.json"
    obj = canonical("x")
    obj["priority"] = 500
    write_json(src, obj)
    read = read_filter_file(src)
    assert not read.ok
    (d,) = [d for d in read.diagnostics if d.level == "error"]
    assert (d.path, d.message, d.pointer) == (str(src), "/priority: Too big: expected number to be <=100",
                                          "/priority")
    assert (d.line, d.column) == (6, 15)
    assert d.data["reference"].startswith("[\n  {\n    \"origin\": \"number\"")


def test_install_global_toml(tmp_path):
    import stat

    from engine.rtk.export import InstallError, install_global_toml

    data = tmp_path / "data"
    result = install_global_toml(TOML, data)
    target = data / "rtk" / "filters.toml"
    assert (result.installed_path, result.backup_created) == ("rtk/filters.toml", False)
    assert target.read_text("utf-8") == TOML
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert stat.S_IMODE((data / "rtk").stat().st_mode) == 0o700
    with pytest.raises(InstallError, match=r"^filters\.toml already exists; confirm overwrite to replace it$"):
        install_global_toml(TOML, data)
    second = TOML.replace("max_lines = 3", "max_lines = 4")
    assert install_global_toml(second, data, overwrite=True).backup_created
    assert (data / "rtk" / "filters.toml.bak").read_text("utf-8") == TOML
    assert [p.name for p in (data / "rtk").iterdir() if p.suffix == ".tmp"] == []
    with pytest.raises(InstallError, match=r"^one or more inline tests failed$"):
        install_global_toml(TOML.replace('expected = "keep 1\\nkeep 2"', 'expected = "x"'), data, overwrite=True)
    with pytest.raises(InstallError, match=r"^document contains no filters$"):
        install_global_toml("schema_version = 1\n", data, overwrite=True)
    filters, diagnostics = collect_filters(tmp_path / "none", None, data, environ={})
    assert [(f.id, f.source) for f in filters] == [("toml-one", "global")]
    assert not [d for d in diagnostics if d.source == "global"]
