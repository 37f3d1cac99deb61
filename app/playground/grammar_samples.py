"""Assistant messages that leak tool-call grammar, for the leaked-grammar tab's sample menu.

Written for Rulewright (not taken from any fixture): one per common leak shape, each with the
model id that makes the extension's model gate look at it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GrammarSample:
    title: str
    model_id: str
    text: str
    policy: str = "recover"


SAMPLES: tuple[GrammarSample, ...] = (
    GrammarSample(
        "GLM: <tool_call> with arg_key/arg_value", "zai/glm-4.6",
        "I'll read the config first.\n"
        "<tool_call>read<arg_key>path</arg_key><arg_value>src/config.ts</arg_value></tool_call>"),
    GrammarSample(
        "Kimi K2: sentinel-token section", "moonshotai/kimi-k2-instruct",
        "Listing the folder.\n<|tool_calls_section_begin|><|tool_call_begin|>functions.bash:0"
        '<|tool_call_argument_begin|>{"command": "ls -la src"}<|tool_call_end|><|tool_calls_section_end|>'),
    GrammarSample(
        "Qwen3-Coder: <function=…> XML", "qwen/qwen3-coder-480b",
        "Searching for the TODOs now.\n<tool_call>\n<function=grep>\n<parameter=pattern>TODO</parameter>\n"
        "<parameter=path>src</parameter>\n</function>\n</tool_call>"),
    GrammarSample(
        "GLM: a tool that is not active", "zai/glm-4.6",
        "Deploying as requested.\n"
        "<tool_call>deploy<arg_key>env</arg_key><arg_value>production</arg_value></tool_call>"),
    GrammarSample(
        "Inside a Markdown fence (documentation, left alone)", "zai/glm-4.6",
        "GLM prints tool calls like this:\n\n```\n"
        "<tool_call>read<arg_key>path</arg_key><arg_value>a.txt</arg_value></tool_call>\n```\n"),
    GrammarSample(
        "Model not on the leak list", "openai/gpt-4.1",
        "<tool_call>read<arg_key>path</arg_key><arg_value>README.md</arg_value></tool_call>"),
)
