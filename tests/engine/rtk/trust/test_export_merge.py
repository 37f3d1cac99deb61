"""Export never loses a filter silently: merge by default, --replace on request, the plan first,
failing filters only with --allow-failing, trust only for the project's own filter file, no write
through a symlink (issue 16 export, issue 23 item 3)."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.rtk.export import (
    ExportError,
    InstallError,
    export_json,
    export_toml,
    install_global_toml,
    plan_export,
)
from engine.rtk.export_plan import json_elements
from engine.rtk.trust import decide_trust, write_trust

from .conftest import canonical, write_json

ODD_FORMAT = """[
    {"rules": {"dropPatterns": [], "includePatterns": ["^keep"]}, "id": "kept-one", "label": "k",
     "category": "generic", "match": {"commands": ["^kept\\\\b"]}, "preserve": {"errorPatterns": []}},
    {
        "id": "shared", "label": "old", "category": "generic", "match": {"commands": ["^shared\\\\b"]},
        "rules": {"dropPatterns": []}, "preserve": {"errorPatterns": []}
    },
    {"id": "kept-two", "label": "k2", "category": "generic", "match": {"commands": ["^two\\\\b"]},
     "rules": {"dropPatterns": []}, "preserve": {"errorPatterns": []}}
]
"""


def _source(tmp_path, *filters, name="src.json"):
    path = tmp_path / "src" / name
    write_json(path, list(filters))
    return path


def _slices(text: str) -> dict[str, str]:
    _, elements = json_elements(text)
    return {v["id"]: text[s:e] for v, s, e in elements}


def test_merge_replaces_in_place_appends_and_keeps_the_rest_byte_for_byte(tmp_path):
    target = tmp_path / ".rtk" / "filters.json"
    target.parent.mkdir()
    target.write_text(ODD_FORMAT, encoding="utf-8")
    before = _slices(ODD_FORMAT)
    src = _source(tmp_path, canonical("shared", commands=["^shared\\b"]), canonical("fresh", commands=["^fresh\\b"]))
    result = export_json([src], target)
    text = target.read_text(encoding="utf-8")
    after = _slices(text)
    assert list(after) == ["kept-one", "shared", "kept-two", "fresh"]        # order kept, new ones last
    assert after["kept-one"] == before["kept-one"] and after["kept-two"] == before["kept-two"]
    assert text.startswith('[\n    {"rules": {"dropPatterns": []')                # the file's own layout
    assert json.loads(after["shared"])["label"] == "shared"
    plan = result.plan
    assert (plan.mode, plan.added, plan.replaced, plan.kept, plan.removed) == (
        "merge", ["fresh"], ["shared"], ["kept-one", "kept-two"], [])


def test_exporting_the_same_filters_again_changes_nothing(tmp_path):
    src = _source(tmp_path, canonical("a", commands=["^a\\b"]), canonical("b", commands=["^b\\b"]))
    target = tmp_path / "out.json"
    export_json([src], target)
    first = target.read_bytes()
    plan = export_json([src], target).plan
    assert target.read_bytes() == first and plan.unchanged == ["a", "b"] and not plan.replaced


def test_replace_removes_the_others_and_says_so(tmp_path, capsys):
    target = tmp_path / "filters.json"
    target.write_text(ODD_FORMAT, encoding="utf-8")
    src = _source(tmp_path, canonical("shared", commands=["^shared\\b"]))
    assert main(["export", str(src), "-o", str(target), "--replace", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "REPLACE the existing file" in out and "REMOVE: kept-one, kept-two" in out
    assert target.read_text(encoding="utf-8") == ODD_FORMAT                # dry run: nothing written
    assert main(["export", str(src), "-o", str(target), "--replace", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["plan"]["removed"] == ["kept-one", "kept-two"] and data["plan"]["replaced"] == ["shared"]
    assert [f["id"] for f in json.loads(target.read_text())] == ["shared"]


@settings(max_examples=25, deadline=None)
@given(existing=st.lists(st.sampled_from("abcdef"), unique=True, max_size=5),
       exported=st.lists(st.sampled_from("abcdefgh"), unique=True, min_size=1, max_size=4))
def test_merge_never_loses_a_filter(tmp_path_factory, existing, exported):
    tmp = tmp_path_factory.mktemp("merge")
    target = tmp / "filters.json"
    write_json(target, [canonical(i, commands=[f"^{i}\\b"], priority=10) for i in existing])
    old = _slices(target.read_text())
    src = _source(tmp, *[canonical(i, commands=[f"^{i}\\b"]) for i in exported])
    export_json([src], target)
    new = _slices(target.read_text())
    assert list(new) == existing + [i for i in exported if i not in existing]
    assert all(new[i] == old[i] for i in existing if i not in exported)


def test_failing_tests_and_unselected_commands_need_allow_failing(tmp_path, capsys):
    failing = canonical("fails", commands=["^tool\\b"], include=["^keep"],
                        tests=[{"name": "wrong", "input": "keep\nx", "expected": "keep\nx"}])
    unselected = canonical("never", commands=["^tool\\b"], priority=1,
                           tests=[{"name": "t", "command": "other run", "input": "a", "expected": "a"}])
    src = _source(tmp_path, failing, unselected)
    target = tmp_path / "filters.json"
    with pytest.raises(ExportError, match="--allow-failing") as info:
        export_json([src], target)
    assert "fails: test 'wrong' fails" in str(info.value)
    assert "never: test 't': command 'other run' selects no filter instead" in str(info.value)
    assert not target.exists()
    assert main(["export", str(src), "-o", str(target)]) == 1
    assert "failing: fails — test 'wrong' fails" in capsys.readouterr().out
    assert main(["export", str(src), "-o", str(target), "--allow-failing"]) == 0
    assert [f["id"] for f in json.loads(target.read_text())] == ["fails", "never"]


def test_with_trust_only_for_the_projects_own_filter_file(tmp_path):
    project = tmp_path / "project"
    own = project / ".rtk" / "filters.json"
    write_json(own, [canonical("mine")])
    write_trust(project, remember=False)
    trust_before = (project / ".rtk" / "trust.json").read_bytes()
    src = _source(tmp_path, canonical("other"))
    with pytest.raises(ExportError, match="would overwrite the trusted hash"):
        export_json([src], project / ".rtk" / "other.json", with_trust=True)
    assert (project / ".rtk" / "trust.json").read_bytes() == trust_before
    assert not (project / ".rtk" / "other.json").exists()
    assert decide_trust(own, environ={}).verdict == "trusted"
    result = export_json([src], own, with_trust=True)                       # merged, then trusted
    assert result.plan.kept == ["mine"] and decide_trust(own, environ={}).verdict == "trusted"


def test_an_export_that_undoes_trust_says_so_before_and_after(tmp_path, capsys):
    """Exporting into a trusted .rtk/filters.json without trusting the result turns OmniRoute's
    verdict to "changed" (its filters stop applying): the plan's reader and the CLI are told."""
    from engine.rtk.export_plan import trust_lost

    project = tmp_path / "project"
    own = project / ".rtk" / "filters.json"
    write_json(own, [canonical("mine")])
    write_trust(project, remember=False)
    src = _source(tmp_path, canonical("other"))
    plan = plan_export([src], own)
    assert trust_lost(plan, with_trust=True) is None
    lost = trust_lost(plan, with_trust=False)
    assert lost is not None and lost.startswith("filters.json was trusted: with this export")
    assert main(["export", str(src), "-o", str(own)]) == 0
    err = capsys.readouterr().err
    assert f"{own}" in err and "warning" in err and "OmniRoute does not apply the project's filters" in err
    assert decide_trust(own, environ={}).verdict != "trusted"
    # nothing left to lose: untrusted now, unchanged bytes, or a file outside .rtk
    assert trust_lost(plan_export([src], own), with_trust=False) is None
    write_trust(project, remember=False)
    assert trust_lost(plan_export([src], own), with_trust=False) is None  # (the same filters again: same bytes)
    elsewhere = tmp_path / "filters.json"
    write_json(elsewhere, [canonical("mine")])
    assert trust_lost(plan_export([src], elsewhere), with_trust=False) is None
    assert main(["export", str(_source(tmp_path, canonical("third"), name="third.json")), "-o", str(own),
                 "--with-trust", "--json"]) == 0
    assert "OmniRoute does not apply" not in capsys.readouterr().out
    assert decide_trust(own, environ={}).verdict == "trusted"


def test_an_existing_file_that_is_not_a_filter_file_is_not_overwritten(tmp_path, capsys):
    target = tmp_path / "notes.json"
    target.write_text("not json at all\n", encoding="utf-8")
    src = _source(tmp_path, canonical("a"))
    assert main(["export", str(src), "-o", str(target)]) == 1
    assert "is not a JSON filter file" in capsys.readouterr().err
    assert target.read_text() == "not json at all\n"
    assert main(["export", str(src), "-o", str(target), "--replace"]) == 0
    assert "REMOVE: (the whole current content" in capsys.readouterr().out


def test_a_target_changed_after_planning_is_not_overwritten(tmp_path):
    from engine.rtk.export import execute_export

    target = tmp_path / "filters.json"
    write_json(target, [canonical("a")])
    plan = plan_export([_source(tmp_path, canonical("b"))], target)
    write_json(target, [canonical("a"), canonical("c")])
    with pytest.raises(ExportError, match="changed since the export was planned"):
        execute_export(plan)
    assert [f["id"] for f in json.loads(target.read_text())] == ["a", "c"]


def test_toml_export_merges_by_table_name(tmp_path):
    target = tmp_path / "filters.toml"
    export_toml([_source(tmp_path, canonical("a", commands=["^a\\b"]), canonical("b", commands=["^b\\b"]))], target)
    plan = export_toml([_source(tmp_path, canonical("b", commands=["^bb\\b"]), canonical("c", commands=["^c\\b"]),
                                name="two.json")], target).plan
    assert (plan.kept, plan.replaced, plan.added) == (["a"], ["b"], ["c"])
    text = target.read_text()
    assert text.index("[filters.a]") < text.index("[filters.b]") < text.index("[filters.c]")


TOML = "schema_version = 1\n\n[filters.x]\nmatch_command = '^x\\\\b'\n"


@pytest.mark.parametrize("linked", ["filters.toml", "filters.toml.bak", "rtk"])
def test_install_global_never_writes_through_a_symlink(tmp_path, linked):
    data = tmp_path / "data"
    (data / "rtk").mkdir(parents=True)
    (data / "rtk" / "filters.toml").write_text(TOML)
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    os.chmod(victim, 0o644)
    if linked == "rtk":
        real = tmp_path / "elsewhere"
        (data / "rtk").rename(real)
        (data / "rtk").symlink_to(real, target_is_directory=True)
    else:
        (data / "rtk" / linked).unlink(missing_ok=True)
        (data / "rtk" / linked).symlink_to(victim)
    with pytest.raises(InstallError, match="symbolic link"):
        install_global_toml(TOML, data, overwrite=True)
    assert victim.read_text() == "precious\n" and (victim.stat().st_mode & 0o777) == 0o644


def test_install_global_backup_is_private_and_new(tmp_path):
    data = tmp_path / "data"
    result = install_global_toml(TOML, data)
    assert not result.backup_created
    again = install_global_toml(TOML.replace("'^x", "'^y"), data, overwrite=True)
    backup = data / "rtk" / "filters.toml.bak"
    assert again.backup_created and backup.read_text() == TOML and not backup.is_symlink()
    assert (backup.stat().st_mode & 0o777) == 0o600
    assert ((data / "rtk" / "filters.toml").stat().st_mode & 0o777) == 0o600
