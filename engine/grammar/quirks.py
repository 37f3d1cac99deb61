"""Quirks of pi-repair-layer 0.4.3's leaked-grammar handling, reproduced by the default profile.

Each id appears in a diagnostic whenever the quirk changed a result; ``strict`` applies the fix
where one is implemented (see ``STRICT_FIXED``).
"""

from __future__ import annotations

QUIRKS: dict[str, str] = {
    "GRM-Q1": "bare JSON is parsed twice (mistral and llama), prose JSON counts, OpenAI shape matched inside",
    "GRM-Q2": "JSON inside <tool_call> is labelled granite (Hermes/Qwen2.5 leaks reported as granite)",
    "GRM-Q3": "any line starting IDENT( is a granite call, so prose like read(the file) is stripped",
    "GRM-Q4": "DSML values without string=\"false\" are kept raw: untrimmed, never parsed",
    "GRM-Q5": "Qwen, GLM and invoke values are trimmed, losing indentation and trailing newlines",
    "GRM-Q6": "values are typed by their shape: 42 becomes a number, \"quoted\" loses its quotes",
    "GRM-Q7": "malformed invoke: the parameter closer is literally parameter>, so / or </ stays in the value",
    "GRM-Q8": "minimax-text ranges run to the next ``` anywhere, deleting prose and a later fence opener",
    "GRM-Q9": "calls of one block share its range: unknown-tool calls go with known ones; counts are per call",
    "GRM-Q10": "the fence test is triple-backtick parity: no ~~~, inline ``` hides everything after",
    "GRM-Q11": "after a strip the whole part is re-spaced and trimmed, even inside unrelated code",
    "GRM-Q12": "an allowed call with {} arguments is stripped but never promoted",
    "GRM-Q13": "[TOOL_CALLS]name[ARGS]{…} without [CALL_ID], truncated arrays and lone markers are left alone",
    "GRM-Q14": "an inner `arguments` object replaces its parent and drops siblings; Kimi never unwraps",
    "GRM-Q15": "the model gate is nine unanchored substrings: ollama/… passes, devstral/mixtral fail",
    "GRM-Q16": "ids are time + index only, so they collide within one millisecond",
    "GRM-Q17": "a refused stop reason blocks promotion but still strips the leaked call",
    "GRM-Q18": "thinking parts are stripped and promoted like text",
    "GRM-Q19": "GLM: blank keys shift values, extra words ignored, functions. prefix kept, missing value is \"\"",
    "GRM-Q20": "preserved unknown-tool text is recorded as an observation, like observe mode",
    "GRM-Q21": "a real tool call blocks promotion but not stripping, so the leaked call vanishes",
    "GRM-Q22": "markers of a malformed DSML block are stripped one by one, leaving orphan values",
    "GRM-Q23": "DSML: a later tool_calls closer wins; an unclosed block ends at the last invoke close",
    "GRM-Q24": "grammarAllowedTools replaces the active tools instead of restricting them",
    "GRM-Q25": "unclosed wrappers leave their opening tag behind when an inner element is stripped",
    "GRM-Q26": "a toolCall part whose name is not a string does not block promotion",
    "GRM-Q27": "an unclosed DSML invoke borrows the next invoke's close and parameters",
    "GRM-Q28": "dangling DSML markers are stripped only if an uppercase DSML appears somewhere",
    "GRM-Q29": "<|python_tag|> takes the first JSON anywhere after it and never tries the pythonic form then",
    "GRM-Q30": "pythonic values use JS Number (007 → 7) and replace True/False/None inside bare values",
    "GRM-Q31": "<tool_call>NAME {json}</tool_call> is read only as GLM, so the JSON is ignored",
    "GRM-Q32": "a later argument repair replaces the recovery note (lifecycle; reported only)",
}

# Quirks whose fix the strict profile applies. Not fixed: GRM-Q6 (typing values needs the tool
# schema, which the grammar layer does not have; strict only believes invoke's string="true"), GRM-Q9 (strict only counts distinct ranges; a
# block is still stripped whole) and GRM-Q32 (the notes lifecycle is outside this engine).
STRICT_FIXED: frozenset[str] = frozenset({
    "GRM-Q1", "GRM-Q2", "GRM-Q3", "GRM-Q4", "GRM-Q5", "GRM-Q7", "GRM-Q8", "GRM-Q10",
    "GRM-Q11", "GRM-Q12", "GRM-Q13", "GRM-Q14", "GRM-Q15", "GRM-Q16", "GRM-Q17", "GRM-Q18", "GRM-Q19",
    "GRM-Q20", "GRM-Q21", "GRM-Q22", "GRM-Q23", "GRM-Q24", "GRM-Q25", "GRM-Q26", "GRM-Q27", "GRM-Q28", "GRM-Q29",
    "GRM-Q30", "GRM-Q31",
})
