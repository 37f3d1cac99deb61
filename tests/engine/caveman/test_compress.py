"""The whole flow with small inline packs: rule semantics, gates, stats, fallback, quirks."""

from __future__ import annotations

import json
import math
import time
from contextlib import contextmanager

from engine.caveman import Compressor, PackSource, adapter_config, compress
from engine.caveman.config import validate_step_config
from engine.caveman.packs import load_fallback_rules
from engine.jsregex import get_default_timeout, set_default_timeout
from engine.jsvalues import LENGTH_MEMO_MIN

from .helpers import FILLER, codes, pack, rule, run


@contextmanager
def default_timeout(seconds: float):
    """Every regex call's default budget set to ``seconds`` for the block, then put back."""
    before = get_default_timeout()
    set_default_timeout(seconds)
    try:
        yield
    finally:
        set_default_timeout(before)


def test_flags_replace_the_default_gi():
    text = "foo Foo foo fOO foo."
    assert run(text, pack(rule("f", r"\bfoo\b", "bar")))[0] == "Bar bar bar bar bar."
    assert run(text, pack(rule("f", r"\bfoo\b", "bar", flags="g")))[0] == "Bar Foo bar fOO bar."
    assert run(text, pack(rule("f", r"\bfoo\b", "bar", flags="")))[0] == "Bar Foo foo fOO foo."
    gm = pack(rule("n", r"^note:\s*", "", flags="gm"))
    assert run("note: a\nnote: b", gm)[0] == "A\nB"


def test_js_replacement_templates():
    assert run("swap left right", pack(rule("r", r"swap (\w+) (\w+)", "$2 $1 $3")))[0] == "Right left $3"
    assert run("ten dollars", pack(rule("r", r"\bten dollars\b", "$$10")))[0] == "$10"
    named = pack(rule("r", r"version (?<n>\w+) of (?<p>\w+)", "$<p> v$<n>"))
    assert run("version two of alpha", named)[0] == "Alpha vtwo"


def test_replacement_map_normalisation_and_misses():
    mapped = pack(rule("m", r"\bgood\s+morning\b,?", None, replacementMap={"good morning": "hi"}))
    assert run("Good   morning team", mapped)[0] == "Hi team"
    assert run("Good morning, team", mapped)[0] == "Good morning, team"
    miss = pack(rule("m", r"\b(?:alpha|beta)\b", "Z", replacementMap={"alpha": "A"}))
    assert run("alpha beta", miss)[0] == "A Z"


def test_replacement_map_miss_is_verbatim_cav_q5_and_strict_expands():
    p = pack(rule("m", r"\b(price) (tag)\b", "$2", replacementMap={"other": "x"}))
    out, result = run("price tag here", p)
    assert out == "$2 here" and "CAV-Q5" in codes(result)
    assert run("price tag here", p, profile="strict")[0] == "Tag here"


def test_rules_applied_only_when_text_changed_and_in_order():
    p = pack(rule("second", r"\by\b", "z"), rule("first", r"\bx\b", "y"), rule("never", r"\bqqq\b", ""))
    out, result = run("x marks the spot", p)
    assert out == "Y marks the spot"
    assert result.stats["rulesApplied"] == ["first"]
    assert result.stats["techniquesUsed"] == ["caveman-rules"]


def test_context_and_intensity_selection():
    p = pack(rule("lite", r"\blite\b", "L", minIntensity="lite"), rule("full", r"\bfull\b", "F", minIntensity="full"),
             rule("sys", r"\bsys\b", "S", context="system"))
    assert run("lite full sys", p, intensity="lite")[0] == "L full sys"
    assert run("lite full sys", p, role="system")[0] == "L F S"
    assert run("lite full sys", p, role="tool")[0] == "L F sys"
    assert run("lite full sys", p, skipRules=["full"])[0] == "L full sys"


def test_keyword_prefilter_gates_english_names_cav_q4():
    gated = pack(rule("hedging", r"\bfoo\b", "FOO"))
    out, result = run("foo bar baz", gated)
    assert out == "Foo bar baz" and "CAV-Q4" in codes(result)
    assert run("foo bar, probably", gated)[0] == "FOO bar, probably"
    assert run("foo bar baz", gated, profile="strict")[0] == "FOO bar baz"
    assert run("a foo", pack(rule("articles", "foo", "bar")))[0] == "A bar"


def test_english_fallback_cav_q3(tmp_path):
    fallback_file = tmp_path / "fb.json"
    fallback_file.write_text(json.dumps({"rules": [
        {"name": "polite_framing", "pattern": r"\bplease\b\s*", "flags": "gi", "context": "all",
         "minIntensity": "lite", "replacement": ""}]}))
    fallback = load_fallback_rules(fallback_file)
    ultra_only = pack(rule("x", r"\bzzz\b", "", minIntensity="ultra"))
    out, result = run("Please check it", ultra_only, intensity="lite", fallback=fallback)
    assert out == "Check it" and "CAV-Q3" in codes(result)
    out, result = run("Please check it", ultra_only, intensity="lite")  # no list supplied: nothing applies
    assert out == "Please check it" and "CAV-Q3" in codes(result)
    out, result = run("Please check it", ultra_only, intensity="lite", fallback=fallback, profile="strict")
    assert out == "Please check it" and "CAV-rules" in codes(result)


def test_indented_fence_falls_back_cav_q1_and_strict_keeps_the_code():
    text = "Could you explain?\n\n```js\nfunction f(x) {\n  return x + 1;\n}\n```\nWhat is wrong?"
    p = pack(rule("could", r"\bcould you\s+", ""))
    out, result = run(text, p)
    assert out == text
    assert result.stats["fallbackApplied"] is True
    assert result.stats["rulesApplied"] == ["could"]  # CAV-Q2: still listed
    assert result.stats["validationErrors"][0].startswith("fenced code block changed or missing: ```js")
    assert {"CAV-Q1", "CAV-Q2"} <= set(codes(result))
    strict, sresult = run(text, p, profile="strict")
    assert strict.startswith("Explain?") and "  return x + 1;" in strict
    assert "fallbackApplied" not in sresult.stats
    flat = text.replace("  return", "return")
    assert run(flat, p)[0].startswith("Explain?")


def test_token_counts_of_a_large_part_with_emoji():
    """A part long enough for its UTF-16 length to be remembered across the stages (kept while
    it runs, reused when it falls back): the counts are those of the texts, either way."""
    for indented in (True, False):
        _check_token_counts(indented)


def _check_token_counts(indented: bool) -> None:
    code = "```js\nfunction f(x) {\n" + ("  " if indented else "") + "return x;\n}\n```\n"
    text = ("Could you explain 😀? " * 8 + code) * (LENGTH_MEMO_MIN // 200 + 1)
    out, result = run(text, pack(rule("could", r"\bcould you\s+", "", flags="gi")))
    assert len(text) > LENGTH_MEMO_MIN and result.stats.get("fallbackApplied", False) is indented
    assert (out == text) is indented
    units = [len(t.encode("utf-16-le")) // 2 for t in (text, out)]
    assert [result.stats["originalTokens"], result.stats["compressedTokens"]] == [math.ceil(u / 4) for u in units]


def test_empty_output_falls_back_and_cav_q7_without_preservation():
    wipe = pack(rule("all", r"[\s\S]+", ""))
    out, result = run("remove me entirely", wipe)
    assert out == "remove me entirely" and result.stats["validationErrors"] == ["compressed text is empty"]
    out, result = run("remove me entirely", wipe, preservePatterns=[])
    assert out == "" and "CAV-Q7" in codes(result)
    out, _ = run("remove me entirely", wipe, preservePatterns=[], profile="strict")
    assert out == "remove me entirely"


def test_unvalidated_kinds_lose_content_silently_cav_q8():
    eat = pack(rule("eat", "\x00OMNI_CAVEMAN_[0-9a-f]+_0\x00", ""))
    out, result = run("Call foo(bar) now", eat)
    assert out == "Call now" and "CAV-Q8" in codes(result)
    assert run("Call foo(bar) now", eat, profile="strict")[0] == "Call foo(bar) now"


def test_invalid_preserve_pattern_warns():
    _, result = run("some text here", FILLER, preservePatterns=["(", r"`[^`]+`"])
    assert result.stats["validationWarnings"] == [
        "Invalid preservePatterns regex ignored: ( (Invalid regular expression: /(/g: Unterminated group)"]


def test_multipart_messages_gates_and_token_stats():
    body = {"model": "m", "messages": [
        {"role": "user", "content": [
            {"type": "text", "text": "Please basically do the thing"},
            {"type": "image_url", "image_url": {"url": "http://x"}},
            {"type": "tool_result", "text": "please keep"},
            {"text": "short"}]},
        {"role": "assistant", "content": "please really stay"},
        {"role": "user", "content": None}]}
    config = {"enabled": True, "minMessageLength": 6, "language": "xx"}
    result = compress(body, PackSource.from_packs([FILLER]), config)
    first, second, third = result.body["messages"]
    assert first["content"][0] == {"type": "text", "text": "Do thing"}
    assert first["content"][1] is body["messages"][0]["content"][1]
    assert first["content"][2]["text"] == "please keep"  # tool_result parts are not text parts
    assert first["content"][3] == {"text": "short"}  # below minMessageLength: the gate applies per part
    assert second is body["messages"][1] and third is body["messages"][2]
    assert result.body["model"] == "m"
    measured = "Please basically do the thing\nplease keep\nshort"
    assert result.stats["originalTokens"] == -(-len(measured) // 4) + -(-len("please really stay") // 4)
    assert result.compressed is True
    assert result.stats["savingsPercent"] > 0


def test_disabled_path_measures_the_json_body_cav_q15():
    result = compress({"messages": [{"role": "user", "content": "héllo"}]}, PackSource(), {"enabled": False})
    assert result.compressed is False
    assert result.stats["originalTokens"] == -(-len('{"messages":[{"role":"user","content":"héllo"}]}') // 4)
    assert codes(result) == ["CAV-Q15"]


def test_language_detection_ascii_boundaries_cav_q6():
    pt = pack(rule("pt", r"\bpreciso\b", "P"), language="pt-BR")
    en = pack(rule("en", r"\bvocê\b", "V"), language="en")
    source = PackSource.from_packs([pt, en])
    config = {"enabled": True, "minMessageLength": 0, "autoDetectLanguage": True}
    result = Compressor(source, config).compress_body({"messages": [{"role": "user", "content": "você você"}]})
    assert result.parts[0].language == "en" and "CAV-Q6" in codes(result)
    strict = Compressor(source, config, profile="strict").compress_body(
        {"messages": [{"role": "user", "content": "você você"}]})
    assert strict.parts[0].language == "pt-BR"


def test_a_rule_that_times_out_is_skipped_and_named():
    slow = pack(rule("slow", r"(a|aa)+$", "X"), rule("fine", r"\bb\b", "B"))
    with default_timeout(0.05):
        out, result = run("a" * 40 + "b b", slow)
    assert out == "A" + "a" * 39 + "b B"  # untouched by "slow", then recapitalised
    diag = next(d for d in result.diagnostics if d.code == "CAV-timeout")
    assert "rule slow timed out" in diag.message


def test_adapter_config_cav_q11():
    config, diags = adapter_config({"cavemanConfig": {"intensity": "ultra"}}, {"compressRoles": ["assistant"]})
    assert config.enabled is True and config.compress_roles == ["user"] and config.intensity == "ultra"
    assert [d.code for d in diags] == ["CAV-Q11"]
    config, _ = adapter_config({}, {"compressRoles": ["assistant", "system"]}, profile="strict")
    assert config.compress_roles == ["assistant"]
    config, _ = adapter_config({"preserveSystemPrompt": False, "cavemanConfig": {"compressRoles": ["system"]}})
    assert config.compress_roles == ["system"]


def test_one_budget_covers_every_candidate_of_a_planned_rule():
    slow = pack(rule("slow", r"\bfoo(a|aa)+$", "X"))
    text = " ".join(["foo" + "a" * 24 + "b"] * 400)  # large enough for the planned path
    with default_timeout(0.05):
        started = time.monotonic()
        out, result = run(text, slow)
        elapsed = time.monotonic() - started
    assert "CAV-timeout" in codes(result)
    assert out == "F" + text[1:]
    assert elapsed < 5


def test_adapter_step_config_checks():
    assert validate_step_config({"intensity": "max", "minMessageLength": -1, "enabled": "yes"}) == [
        "intensity must be lite, full, or ultra", "minMessageLength must be a non-negative number",
        "enabled must be a boolean"]
    assert validate_step_config({"intensity": "lite", "minMessageLength": 0, "enabled": False}) == []


def test_untimed_calls_still_answer_to_the_budget():
    # every attempt is linear (one repeat), so the planned calls run untimed on the re twin, but
    # each reads to the end of one long line: quadratic in all, stopped by the loop's deadline
    slow = pack(rule("reads_on", r"\bfoo[^\n]*bar", "X"))
    text = ("foo" + "x" * 96 + " ") * 5000
    with default_timeout(0.05):
        started = time.monotonic()
        out, result = run(text, slow)
        elapsed = time.monotonic() - started
    assert "CAV-timeout" in codes(result)
    assert out == "F" + text[1:].rstrip(" ")  # the rule skipped; cleanup trims the end
    assert elapsed < 5


def test_the_length_gate_counts_utf16_units():
    """``minMessageLength`` counts UTF-16 units, as JavaScript does: three emoji are six."""
    cfg = {"enabled": True, "compressRoles": ["user"], "language": "xx", "intensity": "full"}
    source = PackSource.from_packs([pack(rule("x", "x", ""))])
    for least, gated in ((5, ""), (6, ""), (7, "short"), (3, "")):
        part = Compressor(source, {**cfg, "minMessageLength": least}).compress_part("😀😀😀", "user")
        assert part.gated == gated, least


def test_a_compressor_reused_for_many_bodies_gives_each_the_result_of_a_fresh_one():
    """Per-body state starts afresh: the preserve patterns were compiled again for every body
    (extraction then ran every copy: the 300th body took 30 times the first), an invalid one was
    warned about once more each time, and a rule that ran out of time on one body was skipped
    without a word on every later one."""
    source = PackSource.from_packs([pack(rule("slow", r"(a|aa)+$", "X"), rule("fine", r"\bb\b", "B"))])
    config = {"enabled": True, "minMessageLength": 0, "compressRoles": ["user"], "language": "xx",
              "intensity": "full", "preservePatterns": ["(", r"`[^`]+`"]}
    reused = Compressor(source, config)
    bodies = [{"messages": [{"role": "user", "content": "a" * 40 + " b `c`"}]},
              {"messages": [{"role": "user", "content": "b b `c` and b"}]}] * 3
    with default_timeout(0.05):
        for body in bodies:
            again, fresh = reused.compress_body(body), Compressor(source, config).compress_body(body)
            assert again.body == fresh.body and again.stats["validationWarnings"] == fresh.stats["validationWarnings"]
            assert codes(again) == codes(fresh)
    assert len(reused.custom) == 1  # (the valid pattern, once)
