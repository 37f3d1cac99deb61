"""RTK quirks no other test pinned by id: each runs under both profiles and checks the diagnostic id."""

from __future__ import annotations

import pytest

from engine.rtk.codestrip import strip_code_blocks
from engine.rtk.engine import process_rtk_text
from engine.rtk.grouping import group_similar_lines
from engine.rtk.messages import resolve_config
from engine.rtk.renderers import render
from engine.rtk.truncate import smart_truncate

from .helpers import make

PROFILES = ("omniroute", "strict")


def codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]


def test_smart_truncate_selects_by_text_and_reorders():  # RTK-Q6
    text = "\n".join(["h1", "h2", *(f"m{i}" for i in range(10)), "t", "ERROR x", "t", "u"])
    run = {p: smart_truncate(text, max_lines=6, preserve_head=2, preserve_tail=4,
                             priority=[lambda line: "ERROR" in line], profile=p) for p in PROFILES}
    # reference: the repeated tail line `t` is kept once and the priority line jumps ahead of it
    assert run["omniroute"].text == "h1\nh2\n[rtk:truncated 11 lines]\nERROR x\nt\nu"
    assert set(codes(run["omniroute"])) == {"RTK-Q6"} and len(codes(run["omniroute"])) == 2
    # strict: selected by index, in the original order
    assert run["strict"].text == "h1\nh2\n[rtk:truncated 10 lines]\nt\nERROR x\nt\nu"
    assert "RTK-Q6" not in codes(run["strict"])


def test_non_shell_tool_output_typed_from_incidental_content():  # RTK-Q10
    code = "def f():\n    return 1\n// a comment-like line\n/etc/passwd\n" + "\n".join(
        f"x = {i}" for i in range(300))
    ref = process_rtk_text(code, None, {"enabled": True}, [], skip_filters=True)
    assert ref.detection.type == "shell-find" and not ref.document_read
    assert len(ref.text.split("\n")) < 300 and "RTK-Q10" in codes(ref)  # capped like shell output
    strict = process_rtk_text(code, None, {"enabled": True}, [], skip_filters=True, profile="strict")
    assert strict.document_read and strict.text == code
    assert "RTK-Q10" not in codes(strict)


def test_dedup_markers_can_lengthen_a_short_run():  # RTK-Q12
    text = "x\na\na\na\ny"
    ref = process_rtk_text(text, "make", {"enabled": True}, [])
    assert ref.text == "x\na\n[line repeated 2x]\n[rtk:dropped 2 repeated lines]\ny"
    assert len(ref.text) > len(text) and "RTK-Q12" in codes(ref)
    strict = process_rtk_text(text, "make", {"enabled": True}, [], profile="strict")
    assert strict.text == text and "RTK-Q12" not in codes(strict)


@pytest.mark.parametrize("profile, enabled, quirk", [("omniroute", False, ["RTK-Q13"]),
                                                     ("strict", True, [])])
def test_config_without_enabled_and_no_step_config(profile, enabled, quirk):  # RTK-Q13
    config, notes = resolve_config({"maxLinesPerResult": 50}, None, profile=profile)
    assert config.enabled is enabled
    assert [n.code for n in notes] == quirk


def test_grouping_threshold_is_not_normalised():  # RTK-Q19
    text = "x\na 1\na 2\na 3\na 4\ny"
    config = {"enabled": True, "enableGrouping": True, "groupingThreshold": "many"}
    ref = process_rtk_text(text, "make", config, [])
    assert ref.text == text and "RTK-Q19" in codes(ref)  # Number("many") is NaN: grouping off
    strict = process_rtk_text(text, "make", config, [], profile="strict")
    assert strict.text == "x\na 1 [rtk:grouped \u00d74]\ny" and "RTK-Q19" not in codes(strict)


def test_hex_id_normaliser_takes_words_of_hex_letters():  # RTK-Q20
    text = "x facade\nx decade\nx deface\nx efface"
    ref = group_similar_lines(text, 3)
    assert ref.text == "x facade [rtk:grouped \u00d74]" and codes(ref) == ["RTK-Q20"]
    strict = group_similar_lines(text, 3, profile="strict")
    assert strict.text == text and codes(strict) == []


def test_fences_are_paired_by_one_regex():  # RTK-Q28
    text = "````md\n```js\nconst a = 1;\n\n\n```\n````\n"
    ref = strip_code_blocks(text)
    assert ref.text == "````md\n\n```js\nconst a = 1;\n\n\n```unknown\n\n````\n"  # mispaired
    assert "RTK-Q28" in codes(ref)
    strict = strip_code_blocks(text, profile="strict")
    assert strict.text == "````md\n```js\nconst a = 1;\n```\n````\n" and codes(strict) == []


def test_renderer_drops_marker_lines_of_earlier_stages():  # RTK-Q29
    diff = ("diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n ctx\n-old\n+new\n"
            "[rtk:truncated 3 lines]\n")
    ref = render(diff, "git-diff", True)
    assert ref.text == "diff --git a/x b/x\n@@ -1,3 +1,3 @@\n-old\n+new" and "RTK-Q29" in codes(ref)
    strict = render(diff, "git-diff", True, profile="strict")
    assert strict.text.endswith("+new\n[rtk:truncated 3 lines]") and "RTK-Q29" not in codes(strict)


def test_blank_line_pattern_eats_crlf_line_feeds():  # RTK-Q31
    text = "```js\r\nconst a = 1;\r\n\r\nconst b = 2;\r\n```"
    ref = strip_code_blocks(text)
    assert ref.text == "```js\nconst a = 1;\rconst b = 2;\r\n```" and "RTK-Q31" in codes(ref)
    strict = strip_code_blocks(text, profile="strict")
    assert "\r" not in strict.text.split("\n", 1)[1] and "RTK-Q31" not in codes(strict)


# Quirks pinned elsewhere only by behaviour: through ``process_rtk_text`` (the CLI's entry point),
# the default profile shows the quirk and names it; strict applies the fix and does not name it.

LONG = "\n".join(f"line {i}" for i in range(300))


def test_max_lines_per_result_zero_becomes_one():  # RTK-Q8
    cfg = {"enabled": True, "maxLinesPerResult": 0}
    ref = process_rtk_text(LONG, "make", cfg, [])
    assert len(ref.text.split("\n")) < 300 and "RTK-Q8" in codes(ref)
    strict = process_rtk_text(LONG, "make", cfg, [], profile="strict")
    assert strict.text == LONG and "RTK-Q8" not in codes(strict)


def test_filter_max_lines_zero_means_the_engine_default():  # RTK-Q8
    flt = make("t", match={"commands": ["mytool"]}, rules={"maxLines": 0})
    ref = process_rtk_text(LONG, "mytool", {"enabled": True}, [flt])
    assert "t:truncate" in ref.rules_applied and "RTK-Q8" in codes(ref)  # the filter cut it
    strict = process_rtk_text(LONG, "mytool", {"enabled": True}, [flt], profile="strict")
    assert "t:truncate" not in strict.rules_applied and strict.text != ref.text  # only the final cap
    assert "RTK-Q8" not in codes(strict)


def test_unlabelled_python_block_is_taken_for_javascript():  # RTK-Q30
    text = "Here:\n```\nimport os\nurl = 'http://x'\n// not a comment in Python\nprint(os.name)\n```\n"
    cfg = {"enabled": True, "applyToCodeBlocks": True, "stripCodeComments": True}
    ref = process_rtk_text(text, None, cfg, [])
    assert "```javascript\n" in ref.text and "// not a comment" not in ref.text
    assert "RTK-Q30" in codes(ref)
    strict = process_rtk_text(text, None, cfg, [], profile="strict")
    assert "// not a comment in Python" in strict.text and "RTK-Q30" not in codes(strict)
