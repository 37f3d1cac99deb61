"""The trusted version of a project filter file beside the file now (the Trust panel's Compare)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from engine.rtk.trust import write_trust
from engine.workspace.panel_models.trust_compare import (
    filter_place,
    formatted_json,
    trusted_versus_now,
    why_not_comparable,
)
from engine.workspace.panel_models.trust_panel import trust_overview

FILTER = {"id": "quiet-build", "label": "make", "category": "build", "preserve": {}, "match": {"commands": ["^make\\b"]}, "rules": {"dropPatterns": ["^warning"]}}


def _project(tmp_path: Path, filters: object) -> Path:
    (tmp_path / ".rtk").mkdir(parents=True)
    (tmp_path / ".rtk" / "filters.json").write_text(json.dumps(filters, indent=2), encoding="utf-8")
    return tmp_path


def _json_file(overview):
    return next(f for f in overview.files if f.path.endswith("filters.json"))


def test_a_file_changed_after_trust_is_set_beside_its_trusted_bytes(tmp_path):
    project = _project(tmp_path, [FILTER])
    write_trust(project)
    trusted = (project / ".rtk" / "filters.json").read_text(encoding="utf-8")
    changed = [{**FILTER, "rules": {"dropPatterns": ["^warning", "error"]}}]
    (project / ".rtk" / "filters.json").write_text(json.dumps(changed), encoding="utf-8")  # minified, too
    f = _json_file(trust_overview(project))
    assert f.verdict == "changed"
    pair = trusted_versus_now(f)
    assert pair is not None and pair.name == "filters.json"
    assert pair.trusted == trusted and pair.now == json.dumps(changed)
    assert pair.origin == "snapshot" and pair.detail.endswith(".json")
    tidy = pair.formatted()
    assert tidy is not None and tidy.trusted.count("\n") > 5
    differing = set(tidy.trusted.splitlines()) ^ set(tidy.now.splitlines())
    assert differing == {'        "^warning"', '        "^warning",', '        "error"'}  # only the change


def test_nothing_to_compare_says_why(tmp_path):
    project = _project(tmp_path, [FILTER])
    f = _json_file(trust_overview(project))
    assert trusted_versus_now(f) is None
    assert "never trusted" in why_not_comparable(f)
    write_trust(project)
    f = _json_file(trust_overview(project))
    assert trusted_versus_now(f) is None and "unchanged since it was trusted" in why_not_comparable(f)
    (project / ".rtk" / "trust.json").write_text(json.dumps({"filtersSha256": "0" * 64}), encoding="utf-8")
    f = _json_file(trust_overview(project))
    assert f.verdict == "changed" and trusted_versus_now(f) is None
    assert "was not found" in why_not_comparable(f)


def test_formatted_json_keeps_repeated_keys_and_refuses_what_is_not_json():
    # (JSON.parse keeps the last "id": the reviewer must still see the first)
    assert formatted_json('{"id":"a","id":"b","x":{},"y":[]}') == \
        '{\n  "id": "a",\n  "id": "b",\n  "x": {},\n  "y": []\n}\n'
    assert formatted_json("[filters]\nid = 1\n") is None
    assert formatted_json('{"id": ') is None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20)


@given(json_values)
def test_formatted_json_says_the_same_value_however_it_was_laid_out(value):
    minified = json.dumps(value, separators=(",", ":"))
    out = formatted_json(minified)
    assert out is not None and json.loads(out) == value
    assert out == formatted_json(json.dumps(value, indent=4))


def test_filter_place_finds_a_filter_by_its_id():
    text = json.dumps([FILTER, {**FILTER, "id": "second"}], indent=2)
    line, column = filter_place(text, "second")
    assert text.splitlines()[line - 1][column - 1:] == "{" and '"id": "second"' in text.splitlines()[line]
    assert filter_place(json.dumps(FILTER), "quiet-build") == (1, 1)  # (one filter object)
    assert filter_place(text, "absent") is None and filter_place("[filters]", "second") is None
    toml = 'schema_version = 1\n\n[filters.first]\ndescription = "a"\n\n# the second\n[filters.second]\n' \
           'description = "b"\n\n[[tests.second]]\nname = "t"\n'
    assert filter_place(toml, "second") == (7, 1) and filter_place(toml, "first") == (3, 1)
    assert filter_place(toml, "absent") is None and filter_place("not = [toml", "x") is None


def test_review_rows_link_only_filters_of_the_current_content(tmp_path):
    from engine.workspace.panel_models.trust_panel import since_trust_lines, since_trust_rows

    project = _project(tmp_path, [FILTER, {**FILTER, "id": "dropped"}])
    write_trust(project)
    (project / ".rtk" / "filters.json").write_text(json.dumps([{**FILTER, "rules": {"dropPatterns": ["x"]}},
                                                               {**FILTER, "id": "new"}]), encoding="utf-8")
    f = _json_file(trust_overview(project))
    rows = since_trust_rows(f)
    assert [line for line, _ in rows] == since_trust_lines(f)
    linked = {filter_id: line.split()[0] for line, filter_id in rows if filter_id}
    assert linked == {"quiet-build": "~", "new": "+"}  # "- removed dropped" links nowhere
    assert any(line.strip().startswith("- removed dropped") for line, filter_id in rows if filter_id is None)
