"""Filter sources: scopes, trust gate, invalid custom files, ordering (verify-trust §3, §5)."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rtk.sources import V8JsonError, collect_filters, js_json_parse, reference_dict

from .conftest import canonical, write_json

NO_ENV: dict[str, str] = {}


def loader(diagnostics):
    return [(d.source, d.level, d.message) for d in diagnostics if d.source in ("project", "global", "builtin")]


def collect(builtin_dir, project, data, **kw):
    kw.setdefault("environ", NO_ENV)
    return collect_filters(builtin_dir, project, data, **kw)


def test_builtins_only_without_custom_files(builtin_dir, layout):
    filters, diagnostics = collect(builtin_dir, *layout)
    assert [(f.id, f.source) for f in filters] == [("status", "builtin")]
    assert loader(diagnostics) == []


def test_untrusted_project_file_is_skipped_with_reference_text(builtin_dir, layout):
    project, data = layout
    write_json(project / ".rtk" / "filters.json", [canonical("mine")])
    filters, diagnostics = collect(builtin_dir, project, data)
    assert [f.id for f in filters] == ["status"]
    assert loader(diagnostics) == [("project", "warning", "Project RTK filters are untrusted and were skipped")]
    d = reference_dict(next(d for d in diagnostics if d.source == "project"))
    assert d["format"] == "omniroute-json" and d["file"].endswith("filters.json")


def test_trusted_project_and_global_sorted_by_scope(builtin_dir, layout):
    project, data = layout
    raw = write_json(project / ".rtk" / "filters.json", [canonical("mine", priority=0)])
    write_json(project / ".rtk" / "trust.json", {"filtersSha256": hashlib.sha256(raw).hexdigest()})
    write_json(data / "rtk" / "filters.json", canonical("global-one", priority=100))
    filters, diagnostics = collect(builtin_dir, project, data)
    assert [(f.id, f.source) for f in filters] == [("mine", "project"), ("global-one", "global"),
                                                    ("status", "builtin")]
    assert loader(diagnostics) == []


def test_changed_after_trust(builtin_dir, layout):
    project, data = layout
    write_json(project / ".rtk" / "filters.json", [canonical("mine")])
    write_json(project / ".rtk" / "trust.json", {"filtersSha256": "0" * 64})
    _, diagnostics = collect(builtin_dir, project, data)
    assert loader(diagnostics) == [("project", "warning", "Project RTK filters changed after trust and were skipped")]


def test_env_override_trusts(builtin_dir, layout):
    project, data = layout
    write_json(project / ".rtk" / "filters.json", [canonical("mine")])
    filters, _ = collect(builtin_dir, project, data, environ={"OMNIROUTE_RTK_TRUST_PROJECT_FILTERS": "1"})
    assert filters[0].id == "mine"


def test_config_trust_reports_default_load_diagnostics_VT_Q13(builtin_dir, layout):
    project, data = layout
    write_json(project / ".rtk" / "filters.json", [canonical("mine")])
    filters, diagnostics = collect(builtin_dir, project, data, config={"trustProjectFilters": True})
    assert filters[0].id == "mine"
    assert loader(diagnostics) == [("project", "warning", "Project RTK filters are untrusted and were skipped")]
    assert "VT-Q13" in [d.code for d in diagnostics]
    _, strict = collect(builtin_dir, project, data, config={"trustProjectFilters": True}, profile="strict")
    assert loader(strict) == []


def test_custom_filters_disabled_loads_builtins_only(builtin_dir, layout):
    project, data = layout
    write_json(data / "rtk" / "filters.json", canonical("g"))
    filters, _ = collect(builtin_dir, project, data, config={"customFiltersEnabled": False})
    assert [f.id for f in filters] == ["status"]


def test_invalid_json_global_file(builtin_dir, layout):
    project, data = layout
    (data / "rtk" / "filters.json").write_text("{ not json", encoding="utf-8")
    _, diagnostics = collect(builtin_dir, project, data)
    assert loader(diagnostics) == [("global", "warning", "Invalid custom RTK filter skipped: "
                                    "Expected property name or '}' in JSON at position 2")]


def test_one_invalid_entry_skips_whole_file_VT_Q8(builtin_dir, layout):
    project, data = layout
    bad = canonical("bad")
    bad["extraKey"] = True
    write_json(data / "rtk" / "filters.json", [canonical("good"), bad])
    filters, diagnostics = collect(builtin_dir, project, data)
    assert [f.id for f in filters] == ["status"]
    (message,) = [m for s, _, m in loader(diagnostics)]
    assert message.startswith("Invalid custom RTK filter skipped: [\n  {\n    \"code\": \"invalid_union\"")
    assert 'Unrecognized key: \\"extraKey\\"' in message
    filters, diagnostics = collect(builtin_dir, project, data, profile="strict")
    assert [f.id for f in filters] == ["good", "status"]


def test_missing_rules_crash_text_RTK_Q1(builtin_dir, layout):
    project, data = layout
    obj = canonical("norules")
    del obj["rules"]
    write_json(data / "rtk" / "filters.json", obj)
    _, diagnostics = collect(builtin_dir, project, data)
    assert loader(diagnostics) == [("global", "warning", "Invalid custom RTK filter skipped: "
                                    "Cannot read properties of undefined (reading 'filter')")]


def test_bom_filters_json_is_invalid_even_when_trusted_VT_Q3(builtin_dir, layout):
    project, data = layout
    raw = b"\xef\xbb\xbf" + (json.dumps([canonical("mine")], indent=2) + "\n").encode()
    (project / ".rtk" / "filters.json").write_bytes(raw)
    write_json(project / ".rtk" / "trust.json", {"filtersSha256": hashlib.sha256(raw).hexdigest()})
    filters, diagnostics = collect(builtin_dir, project, data)
    (message,) = [m for _, _, m in loader(diagnostics)]
    assert message == ("Invalid custom RTK filter skipped: Unexpected token '\ufeff', "
                       "\"\ufeff[\n  {\n   \"... is not valid JSON")
    filters, _ = collect(builtin_dir, project, data, profile="strict")
    assert filters[0].id == "mine"


TOML = """schema_version = 1

[filters.toml-status]
match_command = "^git\\\\s+status\\\\b"
strip_lines_matching = ["^\\\\s*$"]

[[tests.toml-status]]
name = "drops blank"
input = "a\\n\\nb"
expected = "a\\nb"
"""


def test_global_toml_loads_before_json_of_same_scope(builtin_dir, layout):
    project, data = layout
    (data / "rtk" / "filters.toml").write_text(TOML, encoding="utf-8")
    write_json(data / "rtk" / "filters.json", canonical("json-one", priority=100))
    filters, diagnostics = collect(builtin_dir, project, data)
    assert [(f.id, f.source_format) for f in filters][:2] == [("toml-status", "rtk-toml-v1"),
                                                               ("json-one", "omniroute-json")]
    assert loader(diagnostics) == []


def test_toml_failing_inline_test_rejects_file_VT_Q9(builtin_dir, layout):
    project, data = layout
    (data / "rtk" / "filters.toml").write_text(TOML.replace('expected = "a\\nb"', 'expected = "nope"'),
                                               encoding="utf-8")
    filters, diagnostics = collect(builtin_dir, project, data)
    assert [f.id for f in filters] == ["status"]
    assert loader(diagnostics) == [("global", "warning",
                                    "Invalid custom RTK filter skipped: one or more inline tests failed")]
    filters, diagnostics = collect(builtin_dir, project, data, profile="strict")
    assert "toml-status" in [f.id for f in filters]
    assert any(d.code == "VT-Q9" and d.level == "error" for d in diagnostics)


def test_toml_warnings_become_loader_warnings(builtin_dir, layout):
    project, data = layout
    (data / "rtk" / "filters.toml").write_text(
        'schema_version = 1\n[filters.quiet]\nmatch_command = "^x"\nfilter_stderr = true\n', encoding="utf-8")
    _, diagnostics = collect(builtin_dir, project, data)
    assert sorted(m for _, _, m in loader(diagnostics)) == [
        "Filter 'quiet' has no inline tests and should be reviewed before installation",
        "Filter 'quiet': filter_stderr is accepted as a no-op because OmniRoute receives already-captured tool output",
    ]


@pytest.mark.parametrize(("text", "message"), [
    ("", "Unexpected end of JSON input"),
    ("[1,", "Unexpected end of JSON input"),
    ('{"a":1,}', "Expected double-quoted property name in JSON at position 7"),
    ('{"a" 1}', "Expected ':' after property name in JSON at position 5"),
    ('{"a":1', "Expected ',' or '}' after property value in JSON at position 6"),
    ("[1 2]", "Expected ',' or ']' after array element in JSON at position 3"),
    ("1 2", "Unexpected non-whitespace character after JSON at position 2"),
    ('"ab', "Unterminated string in JSON at position 3"),
    ('"\\x"', "Bad escaped character in JSON at position 2"),
    ('"\\u12g4"', "Bad Unicode escape in JSON at position 5"),
    ("-", "No number after minus sign in JSON at position 1"),
    ("1e", "Exponent part is missing a number in JSON at position 2"),
    ("1.", "Unterminated fractional number in JSON at position 2"),
    ("[01]", "Unexpected number in JSON at position 2"),
    ("[1,]", "Unexpected token ']', \"[1,]\" is not valid JSON"),
    ("x" + " " * 20, "Unexpected token 'x', \"x         \"... is not valid JSON"),
    ("[" + "1," * 12 + "x]", "Unexpected token 'x', ...\"1,1,1,1,1,x]\" is not valid JSON"),
    ("[" + "1," * 12 + "x, 2, 3, 4, 5, 6]", "Unexpected token 'x', ...\"1,1,1,1,1,x, 2, 3, 4\"... is not valid JSON"),
])
def test_json_parse_messages_are_v8s(text, message):
    with pytest.raises(V8JsonError) as info:
        js_json_parse(text)
    assert str(info.value) == message


def test_json_parse_accepts_valid_json():
    assert js_json_parse('[{"a": [1, -2.5e3, true, null, "x\\u00e9"]}]') == [{"a": [1, -2500.0, True, None, "x\u00e9"]}]


def test_cache_keeps_stale_filters_until_refresh_VT_Q10(builtin_dir, layout):
    from engine.rtk.sources import FilterSourceCache

    project, data = layout
    write_json(data / "rtk" / "filters.json", canonical("first"))
    cache = FilterSourceCache()
    assert cache.load(builtin_dir, project, data, environ={})[0][0].id == "first"
    write_json(data / "rtk" / "filters.json", canonical("second"))
    filters, diagnostics = cache.load(builtin_dir, project, data, environ={})
    assert filters[0].id == "first" and "VT-Q10" in [d.code for d in diagnostics]
    assert cache.load(builtin_dir, project, data, environ={}, refresh=True)[0][0].id == "second"
    strict = FilterSourceCache("strict")
    assert strict.load(builtin_dir, project, data, environ={})[0][0].id == "second"
    write_json(data / "rtk" / "filters.json", canonical("third"))
    assert strict.load(builtin_dir, project, data, environ={})[0][0].id == "third"


JSON_ALPHABET = '{}[]":, \n\t01-.e+tfnrulsa\\x\ufeff\x01é'


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=12),
       st.sampled_from([None, 2, "\t"]))
@pytest.mark.slow
@settings(max_examples=150, deadline=None)
def test_json_parse_round_trips_valid_documents(value, indent):
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    assert js_json_parse(text) == json.loads(text)


@given(st.text(alphabet=JSON_ALPHABET, max_size=24))
@settings(max_examples=400, deadline=None)
def test_json_parse_accepts_exactly_what_json_accepts(text):
    try:
        expected = json.loads(text, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
    except ValueError:
        with pytest.raises(V8JsonError):
            js_json_parse(text)
    else:
        assert js_json_parse(text) == expected


def test_hygiene_notes_are_located_in_the_custom_file(builtin_dir, layout):
    project, data = layout
    write_json(data / "rtk" / "filters.json", canonical("g", drop=["([+-]\\d)+"]))
    filters, diagnostics = collect(builtin_dir, project, data)
    assert filters[0].strip_patterns == ()  # dropped by the ReDoS heuristic (RTK-Q2)
    (note,) = [d for d in diagnostics if d.code == "RTK-Q2"]
    assert note.path.endswith("filters.json") and note.line is not None and note.line > 1
    assert loader(diagnostics) == []


def test_invalid_builtin_file_reported_with_v8_text(builtin_dir, layout):
    (builtin_dir / "broken.json").write_text('{"id": "x",}', encoding="utf-8")
    filters, diagnostics = collect(builtin_dir, *layout)
    assert [f.id for f in filters] == ["status"]
    assert loader(diagnostics) == [("builtin", "error", "Invalid RTK filter broken.json: "
                                    "Expected double-quoted property name in JSON at position 11")]
