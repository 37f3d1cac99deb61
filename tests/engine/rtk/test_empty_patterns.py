"""Empty pattern rows: flagged where they are, left out of previews, never drop everything."""

from __future__ import annotations

from engine.rtk.empty_patterns import (
    empty_pattern_diagnostics,
    empty_pattern_pointers,
    without_empty_patterns,
)
from engine.validate import validate_file
from engine.workspace.previews.rtk_preview import FilterBuffer, RtkRequest, run_rtk_preview
from engine.workspace.templates import example_filter, render


def _with_empty_rows():
    value = example_filter(set())
    value["rules"]["dropPatterns"].append("")
    value["rules"]["replace"] = [{"pattern": "", "replacement": "x"}, {"pattern": "zzz", "replacement": "b"}]
    value["preserve"]["summaryPatterns"] = [""]
    return value


def test_pointers_and_levels():
    value = _with_empty_rows()
    assert empty_pattern_pointers(value) == ["/rules/dropPatterns/1", "/preserve/summaryPatterns/0",
                                             "/rules/replace/0/pattern"]
    diags = {d.pointer: d for d in empty_pattern_diagnostics([value])}
    assert diags["/0/rules/dropPatterns/1"].level == "error"
    assert "drops every line" in diags["/0/rules/dropPatterns/1"].message
    assert diags["/0/preserve/summaryPatterns/0"].level == "warning"


def test_cleaned_copy_leaves_the_original_alone():
    value = _with_empty_rows()
    cleaned, skipped = without_empty_patterns([value])
    assert skipped == ["/0/rules/dropPatterns/1", "/0/preserve/summaryPatterns/0", "/0/rules/replace/0/pattern"]
    assert cleaned[0]["rules"]["dropPatterns"] == ["^\\s*$"]
    assert cleaned[0]["rules"]["replace"] == [{"pattern": "zzz", "replacement": "b"}]
    assert value["rules"]["dropPatterns"] == ["^\\s*$", ""]
    assert without_empty_patterns(example_filter(set())) == (example_filter(set()), [])


def test_validator_flags_an_empty_drop_pattern_with_its_position(tmp_path):
    path = tmp_path / "filters" / "x.json"
    path.parent.mkdir()
    path.write_text(render(_with_empty_rows()), encoding="utf-8")
    diags = validate_file(path)
    found = [d for d in diags if d.code == "RTK-empty-pattern"]
    assert [d.pointer for d in found] == ["/rules/dropPatterns/1", "/preserve/summaryPatterns/0"]
    assert all(d.line and d.column for d in found)
    # the schema already speaks about an empty replace pattern: said once, in its words
    assert [d.code for d in diags if d.pointer == "/rules/replace/0/pattern"] == ["RTK-SCHEMA"]


def test_the_preview_ignores_the_empty_row_instead_of_dropping_every_line(tmp_path):
    value = _with_empty_rows()
    req = RtkRequest("alpha\n\nbeta", "mytool", active=FilterBuffer(str(tmp_path / "x.json"), render(value), "mytool"),
                     scope="filter")
    preview = run_rtk_preview(req)
    assert preview.text == "alpha\nbeta"
    assert any("empty pattern" in n.text for n in preview.notes)
