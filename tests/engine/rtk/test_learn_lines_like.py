""""Drop/keep lines like these" (engine.rtk.learn.lines_like) and the edit that adds the pattern."""

from __future__ import annotations

import json

import pytest

from engine import jsonedit
from engine.rtk.learn.lines_like import lines_like
from engine.workspace.learn_edits import add_pattern_splice, pattern_list

SAMPLE = ("npm warn deprecated a@1.0.0\nfetch GET 200 https://r.test/zod 31ms\nfetch GET 200 https://r.test/vue 12ms\n"
          "npm ERR! code E404\nadded 9 packages in 3s\n")


def test_drop_generalises_the_selection_and_lists_what_else_it_matches():
    found = lines_like(["fetch GET 200 https://r.test/zod 31ms"], SAMPLE, "drop",
                       others={"b.log": "fetch GET 304 https://r.test/ws 2ms\nok\n"})
    assert found.proposal is not None and found.proposal.field == "rules.dropPatterns"
    assert [n for n, _ in found.current] == [2, 3]
    assert found.others == [("b.log", 1, "fetch GET 304 https://r.test/ws 2ms")]


def test_drop_refuses_protected_lines_and_never_reaches_them():
    assert lines_like(["npm ERR! code E404"], SAMPLE, "drop").proposal is None
    found = lines_like(["npm warn deprecated a@1.0.0"], SAMPLE, "drop")
    assert found.proposal is None and "must not be dropped" in found.why_not  # a warning is protected
    found = lines_like(["fetch GET 200 https://r.test/zod 31ms"], SAMPLE + "fetch GET failed: ECONNRESET\n", "drop")
    assert all("failed" not in text for _, text in found.current)


def test_keep_makes_a_priority_pattern_and_names_drops_that_still_remove_the_lines():
    found = lines_like(["added 9 packages in 3s"], SAMPLE, "keep", drop_patterns=[r"^added \d", r"^zzz"])
    assert found.proposal.field == "preserve.summaryPatterns"
    assert found.blocking_drops == [r"^added \d"]
    assert lines_like(["npm ERR! code E404"], SAMPLE, "keep").proposal.field == "preserve.errorPatterns"


def test_nothing_selected():
    assert lines_like(["", "  "], SAMPLE, "drop").why_not == "select one or more non-blank lines"
    with pytest.raises(ValueError):
        lines_like(["x"], SAMPLE, "hide")


FILE = json.dumps([{"id": "a", "label": "a", "category": "generic", "match": {}, "rules": {"dropPatterns": ["^x"]},
                    "preserve": {}}, {"id": "b", "label": "b", "category": "generic", "match": {}}], indent=2)


def _apply(text: str, splice: jsonedit.Splice) -> str:
    return text[:splice.start] + splice.insert + text[splice.end:]


def test_the_pattern_is_appended_or_its_list_created_in_one_splice():
    after = _apply(FILE, add_pattern_splice(FILE, "a", "rules.dropPatterns", "^y"))
    assert json.loads(after)[0]["rules"]["dropPatterns"] == ["^x", "^y"]
    after = _apply(FILE, add_pattern_splice(FILE, "a", "preserve.summaryPatterns", "^done"))
    assert json.loads(after)[0]["preserve"] == {"summaryPatterns": ["^done"]}
    after = _apply(FILE, add_pattern_splice(FILE, "b", "rules.dropPatterns", "^z"))
    assert json.loads(after)[1]["rules"] == {"dropPatterns": ["^z"]}
    assert pattern_list(FILE, "a", "rules.dropPatterns") == ["^x"]
    with pytest.raises(jsonedit.EditError):
        add_pattern_splice(FILE, "a", "rules.dropPatterns", "^x")  # already there
    with pytest.raises(jsonedit.EditError):
        add_pattern_splice(FILE, "nope", "rules.dropPatterns", "^x")
