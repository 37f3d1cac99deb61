"""Caveman quirks no other test pinned by id: both profiles, and the diagnostic id where one exists."""

from __future__ import annotations

import pytest

from engine.bodies import adapt_body
from engine.caveman.preservation import choose_seed, extract, restore

from .helpers import codes, pack, rule, run

PROFILES = ("omniroute", "strict")


def note_codes(adapted) -> list[str]:
    return [d.code for d in adapted.diagnostics]


def test_empty_frontmatter_is_not_protected():  # CAV-Q16
    text = "---\n---\nthis is really good\n"
    rules = pack(rule("drop_really", r"\breally\s+", ""))
    out, result = run(text, rules)
    assert [(b.kind) for b in extract(text, []).blocks] == []
    assert "CAV-Q16" in codes(result)
    assert [n[0] for n in extract(text, []).notes] == ["CAV-Q16"]
    assert out == "---\n---\nThis is good"  # the unprotected `---` lines went through cleanup
    out, result = run(text, rules, profile="strict")
    assert [(b.kind, b.content) for b in extract(text, [], profile="strict").blocks] == [
        ("frontmatter", "---\n---\n")]
    assert out == "---\n---\nthis is good" and "CAV-Q16" not in codes(result)


@pytest.mark.parametrize("profile", PROFILES)
def test_seed_always_holds_a_hex_letter(profile):  # CAV-Q9 (fixed in both profiles, so never reported)
    # Why the fix matters: with an all-digit seed, const_case re-wraps the earlier placeholder,
    # which then never comes back.
    digits = extract("run `x` now", [], profile=profile, seed="0123456789012345")
    assert [b.kind for b in digits.blocks] == ["inline_code", "const_case"]
    assert restore(digits.text, digits) != "run `x` now"
    chosen = extract("run `x` now", [], profile=profile)
    assert any(c in "abcdef" for c in chosen.seed) and len(chosen.seed) == 16
    assert [b.kind for b in chosen.blocks] == ["inline_code"]
    assert restore(chosen.text, chosen) == "run `x` now"
    assert chosen.notes == []  # no CAV-Q9 note: the fix applies to both profiles
    taken = choose_seed("")
    assert choose_seed(taken) != taken  # never a seed the text already holds


# The body adapter (engine.bodies) reports these in both profiles, as a note on the body; only
# the default profile keeps the reference's write-back.

def test_object_tool_output_comes_back_as_json_text():  # CAV-Q18
    body = {"input": [{"type": "function_call_output", "call_id": "c1", "output": {"ok": True}}]}
    ref = adapt_body(body)
    assert ref.restore(ref.body)["input"][0]["output"] == '{"ok":true}' and "CAV-Q18" in note_codes(ref)
    strict = adapt_body(body, profile="strict")
    assert strict.restore(strict.body)["input"][0]["output"] == {"ok": True}


def test_text_in_output_gains_a_content_key():  # CAV-Q20
    body = {"input": [{"role": "user", "output": "text in output"}]}
    changed = {"messages": [{"role": "user", "content": "changed"}]}
    ref = adapt_body(body)
    assert ref.restore(changed)["input"][0] == {"role": "user", "output": "text in output", "content": "changed"}
    assert "CAV-Q20" in note_codes(ref)
    assert adapt_body(body, profile="strict").restore(changed)["input"][0] == {"role": "user", "output": "changed"}


def test_non_array_messages_key_is_dropped():  # CAV-Q21
    body = {"input": "hello", "messages": None}
    ref = adapt_body(body)
    assert ref.restore(ref.body) == {"input": "hello"} and "CAV-Q21" in note_codes(ref)
    strict = adapt_body(body, profile="strict")
    assert strict.restore(strict.body) == {"messages": None, "input": "hello"}


# Quirks pinned elsewhere only by behaviour: through ``Compressor.compress_body`` (the CLI's entry
# point), the default profile shows the quirk and names it; strict applies the fix and does not.

DROP_REALLY = pack(rule("drop_really", r"really\s+", ""))


@pytest.mark.parametrize("profile", PROFILES)
def test_seed_fix_is_never_reported(profile):  # CAV-Q9
    # The one deliberate deviation: fixed in both profiles and invisible in outputs, so there is
    # no result it changes and nothing to report (asserted: the id never appears).
    out, result = run("run `x` now, really CONST_A", DROP_REALLY, profile=profile)
    assert out == "Run `x` now, CONST_A"
    assert "CAV-Q9" not in codes(result)


def test_dotted_names_without_a_call_are_rewritten():  # CAV-Q12
    rules = pack(rule("shorten_data", r"\bdata\b", "d"))
    out, result = run("the response.data is big", rules)
    assert out == "The response.d is big" and "CAV-Q12" in codes(result)
    out, result = run("the response.data is big", rules, profile="strict")
    assert out == "The response.data is big" and "CAV-Q12" not in codes(result)


def test_validator_checks_a_table_row_extraction_never_protected():  # CAV-Q13
    text = "Notes:\n| a | really b"  # a row to the validator, not to extraction (no closing '|')
    out, result = run(text, DROP_REALLY)
    assert out == text and result.stats.get("fallbackApplied") and "CAV-Q13" in codes(result)
    out, result = run(text, DROP_REALLY, profile="strict")
    assert out == "Notes:\n| a | b" and "CAV-Q13" not in codes(result)


def test_cleanup_ignores_carriage_returns():  # CAV-Q14
    out, result = run("one really\r\n\r\n\r\n\r\ntwo", pack(rule("drop_really", r"\breally\b", "")))
    assert out == "One \r\n\r\n\r\n\r\nTwo" and "CAV-Q14" in codes(result)
    out, result = run("one really\r\n\r\n\r\n\r\ntwo", pack(rule("drop_really", r"\breally\b", "")),
                      profile="strict")
    assert out == "One\r\n\r\nTwo" and "CAV-Q14" not in codes(result)


DROP_AT = pack(rule("drop_at", r"\bat\s+", ""))


def test_default_stack_line_pattern_only_matches_the_start():  # CAV-Q17
    out, _result = run("Crash\n  at foo bar", DROP_AT)
    assert out == "Crash\n Foo bar"  # the `at` line was not protected
    out, result = run("Crash\n  at foo bar", DROP_AT, profile="strict")
    assert out == "Crash\n  at foo bar" and "CAV-Q17" not in codes(result)


def test_default_stack_line_pattern_quirk_is_reported():  # CAV-Q17
    _out, result = run("Crash\n  at foo bar", DROP_AT)
    assert "CAV-Q17" in codes(result)
    # even with no rule firing, cleanup re-spaces and capitalises the unprotected stack line
    out, cleaned = run("Crash\n  at foo bar", pack(rule("drop_zz", r"\bzz\b", "")))
    assert out == "Crash\n At foo bar" and "CAV-Q17" in codes(cleaned)
    # no error or stack line below the first: nothing to report
    _out, plain = run("Crash\nthe worker stopped at noon", DROP_AT)
    assert "CAV-Q17" not in codes(plain)
    # at the very start, ^ holds without m: protected in both profiles, nothing to report
    out, first = run("  at foo bar", DROP_AT)
    assert "at" in out and "CAV-Q17" not in codes(first)


def test_default_line_start_quirk_names_the_lines_lost_among_many():  # CAV-Q17
    """Many distinct error and stack-line heads (counted in one pass per text, not one count per
    line): those whose count fell are named, as counting each with ``str.count`` names them."""
    import re

    errors = "".join(f"\n{' ' * k}Error: step {k} failed" for k in range(6))
    stack = "".join(f"\n{' ' * k}at frame{k}" for k in range(1, 7))
    text = "Crash" + errors + stack + errors + stack
    out, result = run(text, DROP_AT)
    heads = [m.group(0) for source in (r"^\s*(Error|TypeError|RangeError|SyntaxError|ReferenceError):", r"^\s+at\s")
             for m in re.finditer(source, text, re.M) if m.start() > 0]
    lost = sorted(h for h in set(heads) if out.count(h) < text.count(h))
    assert len(set(heads)) > 8 and len(lost) > 3
    q17 = [d.message for d in result.diagnostics if d.code == "CAV-Q17"]
    assert len(q17) == 1 and f"({', '.join(repr(h.strip()) for h in lost[:3])})" in q17[0]
