"""Explanations for the IDE: rule matches with spans mapped to the input, regions, quirks."""

from __future__ import annotations

import json

from engine.caveman import PackSource, explain

from .helpers import pack, rule

PACK = pack(
    rule("polite", r"\bplease\s+"),
    rule("shorten", r"\bdatabase\b", "DB"),
    rule("hedging", r"\bzzz\b", "Z"),  # an English prefilter name with no keyword in the text
)


def u16(text: str, start: int, end: int) -> str:
    return text.encode("utf-16-le", "surrogatepass")[start * 2:end * 2].decode("utf-16-le", "surrogatepass")


def test_a_match_right_after_an_earlier_deletion_spans_only_its_own_text():
    # (the team workspace's third rule, seen in the IDE: its highlight covered the words the
    # second rule had deleted before it)
    drop = rule("drop_recap", r"\bas we discussed yesterday, ")
    short = rule("short_names", r"\bthe ledger tool\b", "ledger CLI")
    text = "Work: as we discussed yesterday, the ledger tool now reads rates."
    e = explain(text, PackSource.from_packs([pack(drop, short)]), {"language": "xx"})
    [match] = e.rules[1].matches
    assert u16(text, match.input_start, match.input_end) == "the ledger tool"
    [deleted] = e.rules[0].matches
    assert u16(text, deleted.input_start, deleted.input_end) == "as we discussed yesterday, "


def test_rules_matches_and_input_spans():
    text = "😀 please use `x` with the database please now"
    e = explain(text, PackSource.from_packs([PACK]), {"language": "xx"})
    assert e.output == "😀 use `x` with the DB now"
    assert [(r.kind, r.start, r.end) for r in e.protected] == [("inline_code", 14, 17)]
    polite, shorten, hedging = e.rules
    assert (polite.changed, len(polite.matches)) == (True, 2)
    first = polite.matches[0]
    assert (first.input_start, first.input_end, first.match) == (3, 10, "please ")
    second = polite.matches[1]
    assert u16(text, second.input_start, second.input_end) == "please "
    db = shorten.matches[0]
    assert (db.match, db.replacement) == ("database", "DB")
    assert u16(text, db.input_start, db.input_end) == "database"  # mapped back across the earlier edits
    assert hedging.attempted is False and hedging.skipped == "prefilter"
    assert e.rules_applied == ["polite", "shorten"]
    assert (e.tokens_before, e.tokens_after) == (-(-len(text.encode("utf-16-le")) // 8),
                                                 -(-len(e.output.encode("utf-16-le")) // 8))


def test_only_rule_runs_that_rule_alone_and_serialises():
    e = explain("please check the database", PackSource.from_packs([PACK]), {"language": "xx"}, only_rule="shorten")
    assert [r.name for r in e.rules] == ["shorten"]
    assert e.output == "Please check the DB"
    json.dumps(e.to_dict())


def test_quirks_are_listed():
    text = "Explain:\n\n```py\ndef f():\n    return 1\n```\nplease now"
    e = explain(text, PackSource.from_packs([PACK]), {"language": "xx"})
    assert e.fallback_applied and e.output == text
    assert {"CAV-Q1", "CAV-Q2"} <= {q["code"] for q in e.quirks}
