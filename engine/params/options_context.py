"""What every providerOptions builder reads (:class:`OptionsContext`) and the effort → budget
ratio; a leaf module so the generic reasoning rules and the per-family builders can both use
them without importing each other."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from engine.params import ids
from engine.params.jsv import get


class QuirkNote(TypedDict):
    """A reference quirk that shaped this report: its id and what it did here."""

    code: str
    message: str


@dataclass
class OptionsContext:
    provider: dict[str, Any]
    model: dict[str, Any]
    assistant: dict[str, Any]
    enable_reasoning: bool
    enable_web_search: bool
    strict: bool = False
    quirks: list[QuirkNote] = field(default_factory=list)

    @property
    def effort(self) -> Any:
        return ids.effort_of(self.assistant)

    @property
    def settings(self) -> dict[str, Any]:
        settings = get(self.assistant, "settings")
        return settings if isinstance(settings, dict) else {}

    def quirk(self, code: str, message: str) -> None:
        self.quirks.append({"code": code, "message": message})


def effort_ratio(effort: object, ctx: OptionsContext | None = None) -> float:
    if isinstance(effort, str) and effort in ids.EFFORT_RATIOS:
        return ids.EFFORT_RATIOS[effort]
    if ctx is not None and not ctx.strict:  # strict reports it as schema:enum instead
        ctx.quirk("PAR-Q23", f"effort {effort!r} is not a known effort; the Claude budget uses "
                             "the 'high' ratio")
    return ids.EFFORT_RATIOS["high"]
