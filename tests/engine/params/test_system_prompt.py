"""Prompt variables, date formatting and the deferred-tools section (spec §7)."""

from engine.params.system_prompt import (
    assemble_system_prompt,
    date_variables,
    deferred_tools_section,
    substitute_variables,
)

PREFS = {"app.user.name": "", "app.language": "en-US"}


def test_en_us_date_variables_in_a_time_zone():
    values, notes = date_variables({"now": "2025-07-04T00:05:09.000Z",
                                    "timeZone": "America/Los_Angeles"})
    assert values["{{date}}"] == "Thu, 7/3/2025"
    assert values["{{time}}"] == "5:05:09 PM"
    assert values["{{datetime}}"] == "Thu, 7/3/2025, 5:05:09 PM"
    assert notes == []


def test_midnight_is_twelve_am():
    values, _ = date_variables({"now": "2025-03-01T00:00:00Z"})
    assert values["{{time}}"] == "12:00:00 AM"


def test_variables_exact_spelling_only():
    text, _ = substitute_variables("{{username}} {{ date }} {{nope}} {{model_name}} {{arch}}",
                                   {"id": "p::m", "name": "Model M"}, {"arch": "arm64"},
                                   {**PREFS, "app.user.name": "Lin"})
    assert text == "Lin {{ date }} {{nope}} Model M arm64"


def test_language_and_username_fallbacks():
    text, _ = substitute_variables("{{language}}|{{username}}|{{model_name}}", {"id": "p::m"},
                                   {}, {"app.user.name": None, "app.language": None})
    assert text == "Unknown System Language|Unknown Username|Unknown Model"


def test_whitespace_prompt_is_kept_and_empty_gives_none():
    assert assemble_system_prompt({"prompt": "  \n "}, {}, {}, PREFS, None, [])[0] == "  \n "
    assert assemble_system_prompt({"prompt": ""}, {}, {}, PREFS, None, [])[0] is None
    assert assemble_system_prompt(None, {}, {}, PREFS, None, [])[0] is None


def test_deferred_section_counts_namespaces_in_collation_order():
    section = deferred_tools_section(["web", "mcp:Zed", "mcp:alpha", "mcp:alpha"])
    assert section.startswith("<deferred-tools>\n")
    assert "\u2014" in section and "tool_exec" not in section
    tail = section.split("</usage>")[1]
    assert tail == ('\n\n<namespaces>\n  <namespace name="mcp:alpha" count="2"/>\n'
                    '  <namespace name="mcp:Zed" count="1"/>\n  <namespace name="web" count="1"/>'
                    '\n</namespaces>\n</deferred-tools>')


def test_prompt_and_deferred_section_are_joined():
    system, _ = assemble_system_prompt({"prompt": "Hi"}, {}, {}, PREFS,
                                       ["tool_search", "tool_inspect", "tool_invoke"], ["kb"])
    assert system.startswith("Hi\n\n<deferred-tools>")


def test_clock_without_offset_is_utc_and_bad_zones_are_rejected():
    from engine.params import ParamsError, build_params_report

    from .payloads import assistant, model, payload, provider

    data = payload(provider(), model("p::m"), assistant(prompt="{{time}}"),
                   env={"now": "2025-01-15T18:00:00"})
    assert build_params_report(data)["system"] == "6:00:00 PM"
    data["env"] = {"timeZone": "Mars/Olympus"}
    try:
        build_params_report(data)
    except ParamsError as err:
        assert err.pointer == "/env/timeZone"
        assert "Invalid time zone specified: Mars/Olympus" in str(err)
    else:
        raise AssertionError("an unknown time zone must be rejected")
