"""engine.workspace without Qt: span tree, format-keeping edits, item index, documents, journal."""

from __future__ import annotations

import difflib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import jsonedit, jsontree
from engine.workspace.diffrows import PAIR_SIMILARITY, changed_stretches, pair_similar, side_by_side
from engine.workspace.document import Document, minimal_splice
from engine.workspace.items import LIST_CHANGED, ItemIndex
from engine.workspace.journal import RecoveryJournal
from engine.workspace.kinds import FileKind, classify
from engine.workspace.scan import scan_workspace
from engine.workspace.settings import Settings
from engine.workspace.templates import example_filter, example_pack, render

PACK = """{
  "language": "en",
  "category": "filler",
  "rules": [
    {"name": "a", "pattern": "x", "replacement": ""},
    {
      "name": "b",
      "pattern": "y",
      "replacement": "z"
    }
  ]
}
"""


def apply(text: str, splice: jsonedit.Splice) -> str:
    out = splice.apply(text)
    assert jsontree.parse(out).ok, out
    return out


# -- span tree ---------------------------------------------------------------------------------
def test_parse_matches_json_loads_and_keeps_spans():
    parsed = jsontree.parse(PACK)
    assert parsed.ok and parsed.value == json.loads(PACK)
    node = jsontree.resolve(parsed.root, "/rules/1/pattern")
    assert PACK[node.start:node.end] == '"y"'
    assert jsontree.pointer_at(parsed.root, PACK.index('"z"') + 1) == "/rules/1/replacement"


@pytest.mark.parametrize("text,fragment", [
    ('{"a": 1,}', "property name"), ("[1 2]", "',' or ']'"), ("", "end of JSON"),
    ('{"a" 1}', "':'"), ('"abc', "unterminated"), ("[1] x", "after the JSON value"),
])
def test_syntax_errors_are_located(text, fragment):
    parsed = jsontree.parse(text)
    assert not parsed.ok and fragment in parsed.error.message
    assert 0 <= parsed.error.offset <= len(text)


def test_duplicate_keys_last_wins_like_json_parse():
    parsed = jsontree.parse('{"a": 1, "a": 2}')
    assert parsed.value == {"a": 2}
    assert jsontree.resolve(parsed.root, "/a").value == 2


def test_line_index_counts_utf16_columns():
    text = '{"k": "😀x"}\n[1]'
    index = jsontree.LineIndex(text)
    assert index.position(text.index("x")) == (1, 10)  # the emoji takes two UTF-16 units
    assert index.offset(1, 10) == text.index("x")
    assert index.position(text.index("[")) == (2, 1)


def test_utf16_conversions_round_trip():
    s = "a😀b\U0001F600c"
    for cp in range(len(s) + 1):
        assert jsontree.utf16_to_cp(s, jsontree.cp_to_utf16(s, cp)) == cp


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=5), kids, max_size=4),
                    max_leaves=20))
def test_parse_agrees_with_json_module(value):
    for text in (json.dumps(value), json.dumps(value, indent=2, ensure_ascii=False)):
        assert jsontree.parse(text).value == json.loads(text)


# -- edits keep formatting ---------------------------------------------------------------------------
def test_set_value_touches_only_that_value():
    parsed = jsontree.parse(PACK)
    out = apply(PACK, jsonedit.set_value(PACK, parsed, "/rules/1/pattern", "yy"))
    assert out == PACK.replace('"pattern": "y"', '"pattern": "yy"')


def test_adding_a_member_follows_the_objects_layout():
    parsed = jsontree.parse(PACK)
    one_line = apply(PACK, jsonedit.set_value(PACK, parsed, "/rules/0/flags", "g"))
    assert '{"name": "a", "pattern": "x", "replacement": "", "flags": "g"}' in one_line
    multi = apply(PACK, jsonedit.set_value(PACK, parsed, "/rules/1/flags", "g"))
    assert '      "replacement": "z",\n      "flags": "g"\n    }' in multi


def test_creating_nested_parents():
    text = '{\n  "id": "x",\n  "match": {}\n}\n'
    out = apply(text, jsonedit.set_value(text, jsontree.parse(text), "/rules/stripAnsi", True))
    assert json.loads(out) == {"id": "x", "match": {}, "rules": {"stripAnsi": True}}
    assert out.startswith('{\n  "id": "x",\n  "match": {},\n  "rules": {\n    "stripAnsi": true\n  }\n}')


def test_remove_insert_move_keep_other_items_verbatim():
    parsed = jsontree.parse(PACK)
    first = '{"name": "a", "pattern": "x", "replacement": ""}'
    moved = apply(PACK, jsonedit.move_item(PACK, parsed, "/rules", 0, 1))
    assert [r["name"] for r in json.loads(moved)["rules"]] == ["b", "a"]
    assert first in moved
    removed = apply(PACK, jsonedit.remove(PACK, parsed, "/rules/0"))
    assert [r["name"] for r in json.loads(removed)["rules"]] == ["b"]
    inserted = apply(PACK, jsonedit.insert_item(PACK, parsed, "/rules", 1, {"name": "n", "pattern": "p"}))
    assert [r["name"] for r in json.loads(inserted)["rules"]] == ["a", "n", "b"]
    assert first in inserted


def test_style_detection():
    assert jsonedit.Style.detect('{\n\t"a": 1\n}').indent == "\t"
    assert jsonedit.Style.detect('{\r\n    "a":1\r\n}') == jsonedit.Style("    ", "\r\n", ":")


# -- item index --------------------------------------------------------------------------------------
def test_item_index_follows_edits_without_a_full_parse():
    doc = Document("/ws/rules/en/filler.json", PACK)
    doc.refresh_kind()
    index = ItemIndex.build(doc.kind, doc.parsed())
    style = jsonedit.Style.detect(doc.text)
    splice = index.set_field(doc.text, 1, "/pattern", "changed", style)
    removed = doc.apply(splice).insert
    assert index.apply(splice, doc.text, removed) == 1
    assert index.values[1]["pattern"] == "changed"
    splice = index.insert(doc.text, 0, {"name": "new", "pattern": "p"}, style)
    removed = doc.apply(splice).insert
    assert index.apply(splice, doc.text, removed) == LIST_CHANGED
    assert [v["name"] for v in index.values] == ["new", "a", "b"]
    fresh = ItemIndex.build(doc.kind, jsontree.parse(doc.text))
    assert fresh.spans == index.spans and fresh.values == index.values


@pytest.mark.parametrize("layout", ["multi-line", "one-line"])
def test_item_index_edits_equal_the_parsed_tree_edits(layout):
    """ItemIndex edits see the list through span-only nodes made on demand (a 2,200-item file is
    not copied into 2,200 nodes per edit): they must splice exactly as edits on the full tree."""
    rules = [{"name": f"r{i}", "pattern": f"p{i}", "replacement": ""} for i in range(5)]
    text = render({"language": "en", "category": "filler", "rules": rules})
    if layout == "one-line":
        text = json.dumps({"language": "en", "category": "filler", "rules": rules})
    parsed = jsontree.parse(text)
    index = ItemIndex.build(FileKind.CAVEMAN_PACK, parsed)
    style = jsonedit.Style.detect(text)
    new = {"name": "n", "pattern": "q"}
    for position in (0, 2, 5):
        assert index.insert(text, position, new, style) == jsonedit.insert_item(text, parsed, "/rules", position,
                                                                                 new, style)
    for row in (0, 2, 4):
        assert index.remove(text, row) == jsonedit.remove(text, parsed, f"/rules/{row}")
        raw = index.item_text(text, row)
        assert index.insert_raw(text, 4 - row, raw, style) == jsonedit.insert_into(
            text, jsontree.resolve(parsed.root, "/rules"), 4 - row, None, style, raw=raw)
    assert index.move(text, 0, 4) == jsonedit.move_item(text, parsed, "/rules", 0, 4)
    assert index.move(text, 3, 1) == jsonedit.move_item(text, parsed, "/rules", 3, 1)
    only = render({"language": "en", "category": "filler", "rules": rules[:1]})
    one = ItemIndex.build(FileKind.CAVEMAN_PACK, jsontree.parse(only))
    emptied = one.remove(only, 0).apply(only)
    assert json.loads(emptied)["rules"] == []


def test_item_index_goes_stale_on_broken_structure_and_recovers():
    doc = Document("/ws/rules/en/filler.json", PACK)
    doc.refresh_kind()
    index = ItemIndex.build(doc.kind, doc.parsed())
    cut = PACK.index("},\n") + 1
    splice = jsonedit.Splice(cut, cut + 1, "")  # delete the comma between the two rules
    doc.apply(splice)
    index.apply(splice, doc.text)
    assert index.stale


# -- documents ----------------------------------------------------------------------------------------
def test_document_keeps_crlf_and_bom(tmp_path):
    path = tmp_path / "f.json"
    raw = '\ufeff{\r\n  "a": 1\r\n}\r\n'.encode()
    path.write_bytes(raw)
    doc = Document.load(path)
    assert "\r" not in doc.text and doc.newline == "\r\n"
    doc.save()
    assert path.read_bytes() == raw
    assert not doc.changed_on_disk()
    path.write_bytes(raw.replace(b"1", b"2"))
    assert doc.changed_on_disk()


def test_minimal_splice_is_minimal():
    old, new = "x" * 10000 + "abc" + "y" * 10000, "x" * 10000 + "aXc" + "y" * 10000
    splice = minimal_splice(old, new)
    assert splice == jsonedit.Splice(10001, 10002, "X")
    assert splice.apply(old) == new


def test_classification():
    assert classify("rules/en/a.json", json.loads(PACK)) == FileKind.CAVEMAN_PACK
    assert classify("x/.rtk/filters.json", None, False) == FileKind.RTK_FILTERS
    assert classify("x/.rtk/trust.json", None, False) == FileKind.TRUST
    assert classify("filters/a.json", example_filter(set())) == FileKind.RTK_FILTER
    assert classify("a.json", [example_filter(set())]) == FileKind.RTK_FILTERS


def test_an_rtk_toml_file_is_known_by_its_tables_when_its_name_does_not_say(tmp_path):
    """``filters/make.toml`` was "other": its tab had no RTK preview or structure, while the
    tests runner read its tests (it looked at the content)."""
    from engine.workspace.document import Document
    from engine.workspace.scan import describe

    toml = '[filters.make-quiet]\nmatch_command = "^make\\\\b"\n'
    assert classify("filters/make.toml", None, False) == FileKind.OTHER  # (the name alone)
    assert classify("filters/make.toml", None, False, text=toml) == FileKind.RTK_TOML
    assert classify("pyproject.toml", None, False, text="[tool.ruff]\n") == FileKind.OTHER
    path = tmp_path / "filters" / "make.toml"
    path.parent.mkdir()
    path.write_text(toml, encoding="utf-8")
    assert describe(path).kind == FileKind.RTK_TOML
    assert Document.load(path).kind == FileKind.RTK_TOML
    typed = Document(tmp_path / "new.toml", "")
    assert typed.kind == FileKind.OTHER
    typed.text = toml  # (typed into rtk's shape)
    assert typed.refresh_kind() == FileKind.RTK_TOML


def test_scan_groups_packs_by_language(tmp_path):
    (tmp_path / "rules" / "en").mkdir(parents=True)
    (tmp_path / "rules" / "en" / "filler.json").write_text(render(example_pack("en", "filler")))
    (tmp_path / "rules" / "en" / "broken.json").write_text("{")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "x.json").write_text("{}")
    index = scan_workspace(tmp_path)
    assert set(index.languages()) == {"en"}
    names = {f.name: f for f in index.files}
    assert "x.json" not in names
    assert names["filler.json"].items == 1 and names["broken.json"].parse_error


def test_journal_round_trip(tmp_path):
    target = tmp_path / "f.json"
    target.write_text("{}")
    journal = RecoveryJournal(tmp_path / "journal")
    journal.write(target, '{"unsaved": "\ud800"}', "abc", tmp_path)
    [entry] = journal.entries(tmp_path)
    assert entry.text == '{"unsaved": "\ud800"}' and entry.disk_changed()
    assert journal.entries(tmp_path / "other") == []
    journal.discard(target)
    assert journal.entries() == []


def test_settings_round_trip_and_sanitising(tmp_path):
    s = Settings()
    s.regex_timeout_ms = 5
    s.remember_workspace("/a")
    s.remember_workspace("/b")
    s.remember_workspace("/a")
    s.save()
    loaded = Settings.load()
    assert loaded.regex_timeout_ms == 10 and loaded.recent_workspaces == ["/a", "/b"]
    Settings.path().write_text('theme = 3\ndefault_profile = "bogus"\n')
    assert Settings.load().theme == "system" and Settings.load().default_profile == "omniroute"


def test_templates_are_valid_for_the_shared_validator(tmp_path):
    import engine.validate as validate

    pack = tmp_path / "rules" / "en" / "filler.json"
    pack.parent.mkdir(parents=True)
    pack.write_text(render(example_pack("en", "filler")))
    flt = tmp_path / "filters" / "x.json"
    flt.parent.mkdir()
    flt.write_text(render(example_filter(set())))
    problems = [d for d in validate.validate_paths([tmp_path]) if d.level == "error"]
    assert problems == []


def test_side_by_side_rows():
    rows = side_by_side("a\nb\nc", "a\nB\nc\nd")
    assert [(r.tag, r.left, r.right) for r in rows] == [
        ("equal", "a", "a"), ("replace", "b", "B"), ("equal", "c", "c"), ("insert", "", "d")]
    assert (rows[1].left_changed, rows[1].right_changed) == ((0, 1), (0, 1))
    assert rows[0].left_changed is None and rows[3].right_changed is None  # (only a replaced line has one)
    # a line dropped above the one that changed: the changed one stands beside what it became
    rows = side_by_side("x\ncheck 3/3 ok\ndone in 40s\ny", "x\ndone in 41s\ny")
    assert [(r.tag, r.left, r.right) for r in rows] == [
        ("equal", "x", "x"), ("delete", "check 3/3 ok", ""), ("replace", "done in 40s", "done in 41s"),
        ("equal", "y", "y")]
    assert [(r.left_no, r.right_no) for r in rows] == [(1, 1), (2, None), (3, 2), (4, 3)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "ab c", "abc", ""]), max_size=6),
       st.lists(st.sampled_from(["a", "b", "ab c", "abd", ""]), max_size=6))
def test_side_by_side_keeps_every_line_once_in_order(left, right):
    rows = side_by_side("\n".join(left), "\n".join(right))
    a, b = "\n".join(left).splitlines(), "\n".join(right).splitlines()
    assert [r.left for r in rows if r.left_no is not None] == a and [r.left_no for r in rows if r.left_no] == \
        list(range(1, len(a) + 1))
    assert [r.right for r in rows if r.right_no is not None] == b and [r.right_no for r in rows if r.right_no] == \
        list(range(1, len(b) + 1))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "ab c", "],", ""]), max_size=30),
       st.lists(st.sampled_from(["a", "b", "ab c", "],", ""]), max_size=30))
def test_side_by_side_keeps_every_line_once_in_order_with_the_popular_line_heuristic(left, right):
    from engine.workspace import diffrows

    saved, diffrows.EXACT_MAX_WORK = diffrows.EXACT_MAX_WORK, 0  # (the path of two big files)
    try:
        test_side_by_side_keeps_every_line_once_in_order.hypothesis.inner_test(left, right)
    finally:
        diffrows.EXACT_MAX_WORK = saved


def test_two_big_filter_files_differ_where_they_changed():
    # 33,000 lines where "]," and "}," repeat thousands of times: the exact diff took 6 s here
    filters = [{"id": f"f{i}", "match": {"commands": [f"^cmd{i}"]}, "rules": {"dropPatterns": ["^x", "^y"]}}
               for i in range(2200)]
    before = json.dumps(filters, indent=2)
    filters[100]["id"] = "renamed"
    filters[1500]["rules"]["dropPatterns"].append("error")
    rows = side_by_side(before, json.dumps(filters, indent=2))
    changed = [(r.tag, r.left.strip(), r.right.strip()) for r in rows if r.tag != "equal"]
    assert changed == [("replace", '"id": "f100",', '"id": "renamed",'), ("replace", '"^y"', '"^y",'),
                       ("insert", "", '"error"')]


def test_changed_stretch_of_a_long_line_is_where_it_differs():
    left = '    "pattern": "' + "x" * 300 + 'team\\b",'
    right = '    "pattern": "' + "x" * 300 + 'crew\\b",'
    (a, b), (c, d) = changed_stretches(left, right)
    assert (left[a:b], right[c:d]) == ("team", "crew")
    assert changed_stretches("team_opener", "team_update_opener") == ((5, 5), (5, 12))


def test_an_added_line_pairs_with_the_removed_line_it_replaces():
    removed = ["deploy: health check 3/3 ok", "deploy: done in 40s"]  # (the first was dropped)
    assert pair_similar(removed, ["deploy: done in 41s"]) == [(1, 0)]
    assert pair_similar(["a = 1", "b = 2"], ["a = 10", "b = 20"]) == [(0, 0), (1, 1)]
    assert pair_similar(["completely different"], ["nothing alike here"]) == []
    assert pair_similar(["x = 1", "y = 2"], ["y = 3", "x = 4"]) == [(1, 0)]  # (in order on both sides)
    many = [f"line {i}" for i in range(100)]
    assert pair_similar(many, many) == [(i, i) for i in range(100)]  # (too many to compare: by position)
    assert pair_similar(many, many[:-1]) == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text("ab c", max_size=6), max_size=6), st.lists(st.text("ab c", max_size=6), max_size=6))
def test_pairs_are_in_order_and_alike(removed, added):
    pairs = pair_similar(removed, added)
    assert [i for i, _ in pairs] == sorted({i for i, _ in pairs}) and [j for _, j in pairs] == sorted({j for _, j in pairs})
    assert all(difflib.SequenceMatcher(None, removed[i], added[j]).ratio() >= PAIR_SIMILARITY for i, j in pairs)


@given(st.text("ab\u00e9\U0001f600", max_size=12), st.text("ab\u00e9\U0001f600", max_size=12))
def test_changed_stretches_splice_one_line_into_the_other(left, right):
    (a, b), (c, d) = changed_stretches(left, right)
    assert left[:a] == right[:c] and left[b:] == right[d:]  # what is outside the stretches is shared
    assert left[:a] + right[c:d] + left[b:] == right
    assert a <= b and c <= d


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["insert", "remove", "move", "edit"]),
                          st.integers(0, 6), st.integers(0, 6)), max_size=12))
def test_item_index_stays_equal_to_a_fresh_parse(ops):
    """Structural edits re-read only what they touched; the result must equal a full re-parse."""
    doc = Document("/ws/.rtk/filters.json", render([example_filter({"a"}), example_filter({"b"})]))
    index, _ = ItemIndex.scan(FileKind.RTK_FILTERS, doc.text)
    style = jsonedit.Style.detect(doc.text)
    for op, a, b in ops:
        n = len(index)
        if op == "insert":
            splice = index.insert(doc.text, a % (n + 1), {"id": f"x{a}", "rules": {}}, style)
        elif n == 0:
            continue
        elif op == "remove":
            splice = index.remove(doc.text, a % n)
        elif op == "move":
            splice = index.move(doc.text, a % n, b % n)
        else:
            splice = index.set_field(doc.text, a % n, "/label", "é" * b, style)
        removed = doc.apply(splice).insert
        index.apply(splice, doc.text, removed)
        assert not index.stale
        fresh, _ = ItemIndex.scan(FileKind.RTK_FILTERS, doc.text)
        assert (index.spans, index.values, index.container) == (fresh.spans, fresh.values, fresh.container)
