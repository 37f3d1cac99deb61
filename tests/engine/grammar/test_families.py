"""One or two leaks per grammar family: name, arguments, label and range (spec §3)."""

from __future__ import annotations

from engine.grammar import detect, parse_tool_grammar_leaks


def calls(text, grammars=None, strict=False):
    return [(c["name"], c["arguments"], c["grammar"]) for c in parse_tool_grammar_leaks(text, grammars, strict=strict)]


def test_dsml_block_with_typed_and_raw_parameters():
    text = (
        "Checking.\n<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"grep\">\n"
        "<｜DSML｜parameter name=\"pattern\" string=\"true\">TODO</｜DSML｜parameter>\n"
        "<｜DSML｜parameter name=\"limit\" string=\"false\"> 5 </｜DSML｜parameter>\n"
        "</｜DSML｜invoke>\n</｜DSML｜function_calls>"
    )
    assert calls(text) == [("grep", {"pattern": "TODO", "limit": 5}, "dsml")]
    found = detect(text)
    (cand,) = found.kept
    assert text[cand.start:cand.end].startswith("<｜DSML｜function_calls>")
    assert text[cand.end:] == ""


def test_dsml_ascii_bars_and_case_insensitive_tags():
    text = '<|DSML|TOOL_CALLS><|DSML|invoke name="ls"><|DSML|parameter name="path">/tmp</|DSML|parameter></|DSML|invoke></|DSML|tool_calls>'
    assert calls(text) == [("ls", {"path": "/tmp"}, "dsml")]


def test_dsml_invoke_with_json_body_and_no_parameters():
    text = '<｜DSML｜tool_calls><｜DSML｜invoke name="edit">{"arguments": {"path": "/a"}}</｜DSML｜invoke></｜DSML｜tool_calls>'
    assert calls(text) == [("edit", {"path": "/a"}, "dsml")]


def test_dangling_dsml_marker_is_strip_only():
    found = detect("text <｜DSML｜tool_calls")
    assert [c.strip_only for c in found.kept] == [True]
    assert parse_tool_grammar_leaks("text <｜DSML｜tool_calls") == []


def test_kimi_section_names_and_call_id_rejection():
    text = (
        "<|tool_calls_section_begin|>"
        "<|tool_call_begin|>functions.read:0<|tool_call_argument_begin|>{\"path\": \"/x\"}<|tool_call_end|>"
        "<|tool_call_begin|>call_3<|tool_call_argument_begin|>{\"a\": 1}<|tool_call_end|>"
        "<|tool_call_begin|>bash<|tool_call_argument_begin|>{\"arguments\": {\"command\": \"ls\"}}<|tool_call_end|>"
        "<|tool_calls_section_end|>"
    )
    # Kimi arguments are used as they are: no `arguments` unwrapping (GRM-Q14).
    assert calls(text) == [
        ("read", {"path": "/x"}, "kimi"),
        ("bash", {"arguments": {"command": "ls"}}, "kimi"),
    ]


def test_mistral_array_and_v11_forms():
    assert calls('[TOOL_CALLS][{"name": "ls", "arguments": {"path": "."}}]', ["mistral"]) == [
        ("ls", {"path": "."}, "mistral")
    ]
    assert calls('[TOOL_CALLS]read[CALL_ID]abc123[ARGS]{"path": "/etc/hosts"}', ["mistral"]) == [
        ("read", {"path": "/etc/hosts"}, "mistral")
    ]


def test_mistral_form_without_call_id_is_left_alone_by_default():  # GRM-Q13
    text = '[TOOL_CALLS]bash[ARGS]{"command":"ls"}'
    assert calls(text, ["mistral"]) == []
    assert calls(text, ["mistral"], strict=True) == [("bash", {"command": "ls"}, "mistral")]


def test_bare_json_is_found_under_two_labels():  # GRM-Q1
    text = 'Run {"function_name": "grep", "args": "{\\"pattern\\": \\"x\\"}"} now'
    assert calls(text) == [("grep", {"pattern": "x"}, "mistral"), ("grep", {"pattern": "x"}, "llama")]


def test_minimax_text_call():
    text = '<function_call>```typescript\nfunctions.write({"path": "/a", "content": "hi"})\n```'
    (cand,) = detect(text).kept
    assert (cand.name, cand.arguments, cand.grammar) == ("write", {"path": "/a", "content": "hi"}, "minimax-text")
    assert cand.end == len(text)


def test_invoke_wrapped_standalone_and_malformed():
    wrapped = '<minimax:tool_call><invoke name="read"><parameter name="path">/a</parameter></invoke></minimax:tool_call>'
    assert calls(wrapped, ["invoke"]) == [("read", {"path": "/a"}, "invoke")]
    standalone = 'x <invoke name="grep"><parameter name="limit" string="true">7</parameter></invoke> y'
    assert calls(standalone, ["invoke"]) == [("grep", {"limit": 7}, "invoke")]  # GRM-Q6
    malformed = 'ok\n  invoke name="bash">\nparameter name="command">ls -la\n/parameter>\n/invoke>'
    assert calls(malformed, ["invoke"]) == [("bash", {"command": "ls -la\n/"}, "invoke")]  # GRM-Q7


def test_hermes_json_in_tool_call_and_tools_wrappers():
    assert calls('<tool_call>{"name": "ls", "arguments": {"path": "/"}}</tool_call>') == [("ls", {"path": "/"}, "granite")]
    assert calls('<tools>[{"name": "ls", "parameters": {"path": "/"}}]</tools>') == [("ls", {"path": "/"}, "qwen")]
    fenced_body = '<tool_call>\n```json\n{"name": "ls", "arguments": {"path": "/"}}\n```\n</tool_call>'
    assert calls(fenced_body) == [("ls", {"path": "/"}, "granite")]


def test_glm_keys_and_values():
    text = "<tool_call>edit\n<arg_key>path</arg_key>\n<arg_value>/a.txt</arg_value>\n<arg_key>count</arg_key>\n<arg_value>3</arg_value>\n</tool_call>"
    assert calls(text, ["glm"]) == [("edit", {"path": "/a.txt", "count": 3}, "glm")]


def test_glm_blank_key_shifts_values():  # GRM-Q19
    text = "<tool_call>bash<arg_key> </arg_key><arg_value>x</arg_value><arg_key>command</arg_key><arg_value>ls</arg_value></tool_call>"
    assert calls(text, ["glm"]) == [("bash", {"command": "x"}, "glm")]
    assert calls(text, ["glm"], strict=True) == [("bash", {"command": "ls"}, "glm")]


def test_qwen_xml_wrapped_and_bare():
    text = "<tool_call>\n<function=write>\n<parameter=path>\n/a\n</parameter>\n<parameter=content>\n  x = 1\n</parameter>\n</function>\n</tool_call>"
    assert calls(text, ["qwen"]) == [("write", {"path": "/a", "content": "x = 1"}, "qwen")]  # GRM-Q5
    assert calls(text, ["qwen"], strict=True) == [("write", {"path": "/a", "content": "  x = 1"}, "qwen")]
    bare = "see <function=ls><parameter=path>.</parameter></function>"
    assert calls(bare, ["qwen"]) == [("ls", {"path": "."}, "qwen")]


def test_granite_pythonic_line():
    text = "I'll look.\n  grep(pattern='a, b', limit=007, flag=True, rest=None)\nDone."
    assert calls(text, ["granite"]) == [("grep", {"pattern": "a, b", "limit": 7, "flag": True, "rest": None}, "granite")]
    (cand,) = detect(text, ["granite"]).kept
    assert text[cand.start:cand.end] == "  grep(pattern='a, b', limit=007, flag=True, rest=None)"


def test_llama_python_tag_json_and_pythonic():
    assert calls('<|python_tag|>{"name": "ls", "parameters": {"path": "/"}}', ["llama"]) == [("ls", {"path": "/"}, "llama")]
    assert calls('<|python_tag|>\n\nls(path="/")\nnext', ["llama"]) == [("ls", {"path": "/"}, "llama")]


def test_olmo_block_with_two_calls():
    text = '<function_calls>\nread(path="/a")\nbash(command="ls", timeout=5)\n</function_calls>'
    assert calls(text, ["olmo"]) == [("read", {"path": "/a"}, "olmo"), ("bash", {"command": "ls", "timeout": 5}, "olmo")]


def test_fenced_code_is_ignored():
    text = "Example:\n```xml\n<tool_call>{\"name\": \"ls\", \"arguments\": {\"path\": \"/\"}}</tool_call>\n```\n"
    assert calls(text) == []


def test_tilde_fence_only_counts_in_strict():  # GRM-Q10
    text = "~~~\n<tool_call>{\"name\": \"ls\", \"arguments\": {\"path\": \"/\"}}</tool_call>\n~~~"
    assert calls(text) == [("ls", {"path": "/"}, "granite")]
    assert calls(text, strict=True) == []


def test_unknown_grammar_names_enable_nothing():
    assert calls("<tool_call><function=ls><parameter=path>/</parameter></function></tool_call>", ["hermes"]) == []


def test_selection_prefers_outer_block():
    text = '<tools>[{"name": "ls", "arguments": {"path": "/"}}]</tools>'
    found = detect(text)
    assert {(c.grammar, c.start, c.end) for c in found.kept} == {("qwen", 0, len(text))}


def test_markdown_fences_for_the_strict_profile():
    from engine.grammar.textscan import markdown_fence_spans

    text = "a\n```py\nx\n````\nb\n~~~~\ny\n~~~\nz\n~~~~~\n"
    spans = markdown_fence_spans(text)
    assert [text[s:e] for s, e in spans] == ["```py\nx\n````", "~~~~\ny\n~~~\nz\n~~~~~"]
    # A backtick in the info string means no fence; the next ``` opens one that runs to the end.
    assert markdown_fence_spans("``` a`b\n```") == [(8, 11)]


def test_proto_parameters_vanish_like_a_js_assignment_but_json_keeps_them():
    tagged = "<tool_call><function=ls><parameter=__proto__>{\"a\":1}</parameter><parameter=path>/</parameter></function></tool_call>"
    assert calls(tagged, ["qwen"]) == [("ls", {"path": "/"}, "qwen")]
    assert calls("grep(__proto__=1, pattern='x')", ["granite"]) == [("grep", {"pattern": "x"}, "granite")]
    parsed = '<tool_call>{"name": "ls", "arguments": {"__proto__": 1}}</tool_call>'
    assert calls(parsed, ["granite"]) == [("ls", {"__proto__": 1}, "granite")]
