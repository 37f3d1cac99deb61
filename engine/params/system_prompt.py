"""``assembleSystemPrompt`` with prompt variables and the deferred-tools section (spec §7)."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from engine.params.collation import sort_names
from engine.params.jsv import UNDEFINED, get, is_nullish, js_string, truthy

DEFAULT_NOW = "2025-01-15T09:30:00.000Z"

DEFERRED_TOOLS_HEAD = (
    "<deferred-tools>\n"
    "Some tools are not loaded inline. Discover and call them through the meta-tools below.\n"
    "\n"
    "<usage>\n"
    "1. `tool_search({ query?, namespace?, verbose? })` \u2014 browse the catalog. Results are "
    "grouped by namespace (e.g. `web`, `kb`, `mcp:<server>`). Pass `verbose: true` to include "
    "full input schemas.\n"
    "2. `tool_inspect({ name })` \u2014 fetch a JSDoc stub for one tool when the search "
    "description isn't enough to call it confidently.\n"
    "3. `tool_invoke({ name, params })` \u2014 call a single tool you found.\n"
    "</usage>"
)


def deferred_tools_section(deferred_namespaces: list[str], *, strict: bool = False) -> str:
    if not deferred_namespaces:
        return DEFERRED_TOOLS_HEAD + "\n</deferred-tools>"
    counts = Counter(deferred_namespaces)
    lines = [f'  <namespace name="{ns}" count="{counts[ns]}"/>'
             for ns in sort_names(counts, strict=strict)]
    return (DEFERRED_TOOLS_HEAD + "\n\n<namespaces>\n" + "\n".join(lines)
            + "\n</namespaces>\n</deferred-tools>")


_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def _parse_now(now: object) -> datetime:
    text = now if isinstance(now, str) and now else DEFAULT_NOW
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    moment = datetime.fromisoformat(text)
    # A date-time without an offset is read in the reference run's zone, UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def local_time(env: dict[str, Any]) -> tuple[datetime, list[str]]:
    """The clock in ``env.timeZone`` (checked by :func:`engine.params.payload.read_envelope`)."""
    moment = _parse_now(env.get("now"))
    return moment.astimezone(ZoneInfo(env.get("timeZone") or "UTC")), []


def format_date(moment: datetime) -> str:
    return f"{_WEEKDAYS[moment.weekday()]}, {moment.month}/{moment.day}/{moment.year}"


def format_time(moment: datetime) -> str:
    hour = moment.hour % 12 or 12
    suffix = "AM" if moment.hour < 12 else "PM"
    return f"{hour}:{moment.minute:02d}:{moment.second:02d} {suffix}"


def date_variables(env: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
    """``{{date}}``, ``{{time}}``, ``{{datetime}}`` as the en-US JS locale functions print them."""
    moment, notes = local_time(env)
    locale = env.get("locale") or "en-US"
    if locale != "en-US":
        notes.append(f"locale {locale!r} is not modelled; en-US formats used")
    date, time = format_date(moment), format_time(moment)
    return {"{{date}}": date, "{{time}}": time, "{{datetime}}": f"{date}, {time}"}, notes


def substitute_variables(prompt: str, model: dict[str, Any], env: dict[str, Any], prefs: dict[str, Any]) -> tuple[str, list[str]]:
    values, notes = date_variables(env)
    username = prefs.get("app.user.name")
    language = prefs.get("app.language")
    name = get(model, "name")
    ordered = [
        *values.items(),
        ("{{username}}", js_string(username) if truthy(username) else "Unknown Username"),
        ("{{system}}", js_string(env.get("platform", "linux"))),
        ("{{language}}", "Unknown System Language" if is_nullish(language)
         else js_string(language)),
        ("{{arch}}", js_string(env.get("arch", "x64"))),
        ("{{model_name}}", "Unknown Model" if name is UNDEFINED else js_string(name)),
    ]
    for key, value in ordered:
        prompt = prompt.replace(key, value)
    return prompt, notes


def assemble_system_prompt(assistant: object, model: dict[str, Any], env: dict[str, Any], prefs: dict[str, Any],
                           exposed: list[str] | None, deferred_namespaces: list[str],
                           *, strict: bool = False) -> tuple[str | None, list[str]]:
    sections: list[str] = []
    notes: list[str] = []
    prompt = get(assistant, "prompt") if isinstance(assistant, dict) else UNDEFINED
    if isinstance(prompt, str) and prompt:
        text, notes = substitute_variables(prompt, model, env, prefs)
        if text:
            sections.append(text)
    if exposed and "tool_search" in exposed:
        sections.append(deferred_tools_section(deferred_namespaces, strict=strict))
    return ("\n\n".join(sections) if sections else None), notes
