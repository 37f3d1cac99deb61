"""Each quirk: the default profile reproduces it and names it; ``strict`` applies the fix."""

from __future__ import annotations

import pytest

from engine.grammar import GrammarSettings, HookState, message_end
from engine.grammar.quirks import QUIRKS, STRICT_FIXED

from .conftest import NOW_MS, PI_TOOLS, assistant

DSML_OPEN, DSML_CLOSE = "<｜DSML｜tool_calls>", "</｜DSML｜tool_calls>"


def decide(text, *, strict=False, stop="stop", mode="recover", tools=PI_TOOLS):
    state = HookState(GrammarSettings(mode, "recover", "preserve", ()), "qwen3-coder", list(tools), NOW_MS, strict)
    record = message_end(assistant(text, stop=stop), state)
    return record


def outcome(record):
    return record["strippedText"], [(c["name"], c["arguments"]) for c in record["promotedCalls"]]


def codes(record):
    return {d["code"] for d in record["diagnostics"]}


# id, text, (default text, default calls), (strict text, strict calls)
CASES = [
    ("GRM-Q1", 'Sure: {"name":"ls","arguments":{"path":"/"}} done',
     ("Sure:  done", [("ls", {"path": "/"}), ("ls", {"path": "/"})]),
     ('Sure: {"name":"ls","arguments":{"path":"/"}} done', [])),
    ("GRM-Q1", 'Call:\n{"type":"function","function":{"name":"ls","arguments":{"path":"/"}}}',
     ('Call:\n{"type":"function","function":}', [("ls", {"path": "/"}), ("ls", {"path": "/"})]),
     ("Call:", [("ls", {"path": "/"})])),
    ("GRM-Q3", "Next I will\nread(the config carefully)\nthen stop",
     ("Next I will\n\nthen stop", []),
     ("Next I will\nread(the config carefully)\nthen stop", [])),
    ("GRM-Q4", f'{DSML_OPEN}<｜DSML｜invoke name="ls"><｜DSML｜parameter name="path">\n/tmp\n</｜DSML｜parameter></｜DSML｜invoke>{DSML_CLOSE}',
     ("", [("ls", {"path": "\n/tmp\n"})]), ("", [("ls", {"path": "/tmp"})])),
    ("GRM-Q5", "<tool_call><function=write><parameter=path>/a</parameter><parameter=content>\n    indented\n\n</parameter></function></tool_call>",
     ("", [("write", {"path": "/a", "content": "indented"})]),
     ("", [("write", {"path": "/a", "content": "    indented\n"})])),
    ("GRM-Q7", 'x\ninvoke name="bash">\nparameter name="command">ls -la\n/parameter>\n/invoke>',
     ("x", [("bash", {"command": "ls -la\n/"})]), ("x", [("bash", {"command": "ls -la"})])),
    ("GRM-Q8", '<function_call>functions.ls({"path":"/"})\nprose\n```js\ncode()\n```',
     ("js\ncode()\n```", [("ls", {"path": "/"})]), ("prose\n```js\ncode()\n```", [("ls", {"path": "/"})])),
    ("GRM-Q10", 'Use ``` inline.\n<tool_call>{"name":"ls","arguments":{"path":"/"}}</tool_call>',
     ('Use ``` inline.\n<tool_call>{"name":"ls","arguments":{"path":"/"}}</tool_call>', []),
     ("Use ``` inline.", [("ls", {"path": "/"})])),
    ("GRM-Q12", '<tool_call>{"name":"bash","arguments":"ls -la"}</tool_call>',
     ("", []), ('<tool_call>{"name":"bash","arguments":"ls -la"}</tool_call>', [])),
    ("GRM-Q13", '[TOOL_CALLS]ls[ARGS]{"path":"/"}',
     ('[TOOL_CALLS]ls[ARGS]{"path":"/"}', []), ("", [("ls", {"path": "/"})])),
    ("GRM-Q14", '<tool_call>{"name":"ls","arguments":{"arguments":{"path":"/"},"all":true}}</tool_call>',
     ("", [("ls", {"path": "/"})]), ("", [("ls", {"arguments": {"path": "/"}, "all": True})])),
    ("GRM-Q19", "<tool_call>functions.ls<arg_key>path</arg_key><arg_value>/</arg_value></tool_call>",
     ("<tool_call>functions.ls<arg_key>path</arg_key><arg_value>/</arg_value></tool_call>", []),
     ("", [("ls", {"path": "/"})])),
    ("GRM-Q22", f'{DSML_OPEN}<｜DSML｜invoke name="bash"><｜DSML｜parameter name="command">pwd</｜DSML｜parameter>{DSML_CLOSE}',
     ("pwd", []), ("", [])),
    ("GRM-Q23", f'A <｜DSML｜function_calls><｜DSML｜invoke name="ls"><｜DSML｜parameter name="path">/</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls> prose {DSML_OPEN}<｜DSML｜invoke name="read"><｜DSML｜parameter name="path">/a</｜DSML｜parameter></｜DSML｜invoke>{DSML_CLOSE} end',
     ("A  end", [("ls", {"path": "/"}), ("read", {"path": "/a"})]),
     ("A  prose  end", [("ls", {"path": "/"}), ("read", {"path": "/a"})])),
    ("GRM-Q25", "<tool_call>\n<function=ls>\n<parameter=path>/</parameter>\n</function>",
     ("<tool_call>", [("ls", {"path": "/"})]), ("", [("ls", {"path": "/"})])),
    ("GRM-Q27", f'{DSML_OPEN}<｜DSML｜invoke name="bash"><｜DSML｜parameter name="command">ls</｜DSML｜parameter><｜DSML｜invoke name="read"><｜DSML｜parameter name="path">/a</｜DSML｜parameter></｜DSML｜invoke>{DSML_CLOSE}',
     ("", [("bash", {"command": "ls", "path": "/a"}), ("read", {"path": "/a"})]),
     ("", [("bash", {"command": "ls"}), ("read", {"path": "/a"})])),
    ("GRM-Q28", "text <｜dsml｜tool_calls", ("text <｜dsml｜tool_calls", []), ("text", [])),
    ("GRM-Q29", '<|python_tag|>bash(command="ls", opts={"a": 1})',
     ('<|python_tag|>bash(command="ls", opts={"a": 1})', []), ("", [("bash", {"command": "ls", "opts": {"a": 1}})])),
    ("GRM-Q30", "grep(pattern='x', limit=007)",
     ("", [("grep", {"pattern": "x", "limit": 7})]), ("", [("grep", {"pattern": "x", "limit": "007"})])),
    ("GRM-Q31", '<tool_call>read {"path":"/a"}</tool_call>', ("", []), ("", [("read", {"path": "/a"})])),
]


@pytest.mark.parametrize(("quirk", "text", "reference", "fixed"), CASES, ids=[c[0] for c in CASES])
def test_quirk_reproduced_named_and_fixed(quirk, text, reference, fixed):
    default = decide(text)
    assert outcome(default) == reference
    assert quirk in codes(default)
    strict = decide(text, strict=True)
    assert outcome(strict) == fixed
    assert quirk not in codes(strict)


def test_refused_promotion_keeps_the_text_in_strict():  # GRM-Q17
    leak = "<tool_call>\n<function=ls>\n<parameter=path>/</parameter>\n</function>\n</tool_call>"
    default = decide("x\n" + leak, stop="length")
    assert outcome(default) == ("x", []) and "GRM-Q17" in codes(default)
    assert outcome(decide("x\n" + leak, stop="length", strict=True)) == ("x\n" + leak, [])


def test_shared_block_takes_the_unknown_call_along():  # GRM-Q9
    text = ("<|tool_calls_section_begin|><|tool_call_begin|>functions.ls:0<|tool_call_argument_begin|>"
            '{"path":"/"}<|tool_call_end|><|tool_call_begin|>functions.web_search:1<|tool_call_argument_begin|>'
            '{"q":"x"}<|tool_call_end|><|tool_calls_section_end|>')
    record = decide(text)
    assert outcome(record) == ("", [("ls", {"path": "/"})])
    assert record["detectedRanges"] == 2 and record["strippedRanges"] == 1
    assert "GRM-Q9" in codes(record)
    assert decide(text, strict=True)["detectedRanges"] == 1  # strict counts distinct ranges


def test_quirk_table_is_complete():
    assert sorted(QUIRKS, key=lambda q: int(q[5:])) == [f"GRM-Q{i}" for i in range(1, 33)]
    assert STRICT_FIXED.issubset(QUIRKS)


def test_default_profile_reproduces_without_diagnostics_when_no_quirk_fires():
    leak = "Working.\n<tool_call>\n<function=ls>\n<parameter=path>\n/\n</parameter>\n</function>\n</tool_call>"
    record = decide(leak)
    assert outcome(record) == ("Working.", [("ls", {"path": "/"})])
    assert record["diagnostics"] == []


def test_openai_shape_with_an_id_first_is_matched_whole_in_strict():  # GRM-Q1
    text = 'Call:\n{"id":"c1","type":"function","function":{"name":"ls","arguments":"{\\"path\\":\\"/\\"}"}}'
    assert outcome(decide(text, strict=True)) == ("Call:", [("ls", {"path": "/"})])


def test_invoke_string_true_is_believed_in_strict():  # GRM-Q6
    text = '<invoke name="bash"><parameter name="command" string="true">42</parameter></invoke>'
    default = decide(text)
    assert outcome(default) == ("", [("bash", {"command": 42})]) and "GRM-Q6" in codes(default)
    assert outcome(decide(text, strict=True)) == ("", [("bash", {"command": "42"})])
