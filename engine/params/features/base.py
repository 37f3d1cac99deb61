"""``RequestFeature``: the composition unit of the pipeline, and the plugins it contributes.

A feature is any object with a ``name`` and, optionally, ``applies(scope)``,
``contribute_model_adapters(scope)`` and ``contribute_hooks(scope)`` — the protocol of the
reference. Features built on :class:`Feature` also explain their decision (``decide``) and
show their plugin's effect on a sample request (``demo``) for the report's ``explain`` section.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

if TYPE_CHECKING:
    from engine.params.scope import RequestScope

PluginKind = Literal["middleware", "param"]


@dataclass
class Plugin:
    """An aiCore plugin. Param plugins never act on the chat path (spec §6.6, PAR-Q1)."""

    name: str
    kind: PluginKind
    details: dict[str, Any] | None = None  # the report's pluginDetails entry (None: no entry)
    summary: str = ""
    effect: dict[str, Any] | None = None  # demo of the plugin on a sample request

    @property
    def acts_on_chat_path(self) -> bool:
        return self.kind == "middleware"


@runtime_checkable
class RequestFeature(Protocol):
    name: str


@dataclass
class Decision:
    applies: bool
    reason: str


@dataclass
class Feature:
    """Base for the internal features: ``decide`` gives the verdict and the deciding condition."""

    name: str
    plugin_name: str = ""
    kind: PluginKind = "middleware"
    summary: str = ""
    hooks: dict[str, Any] | None = field(default=None)

    def decide(self, scope: RequestScope) -> Decision:  # pragma: no cover - overridden
        return Decision(True, "always")

    def applies(self, scope: RequestScope) -> bool:
        return self.decide(scope).applies

    def details(self, scope: RequestScope) -> dict[str, Any] | None:
        return None

    def demo(self, scope: RequestScope) -> dict[str, Any] | None:
        return None

    def contribute_model_adapters(self, scope: RequestScope) -> list[Plugin]:
        return [Plugin(self.plugin_name or self.name, self.kind, self.details(scope),
                       self.summary, self.demo(scope))]

    def contribute_hooks(self, scope: RequestScope) -> dict[str, Any] | None:
        return self.hooks


def show(value: object) -> str:
    """A value as JSON text, for explanations (``'x'`` → ``"x"``, ``False`` → ``false``)."""
    import json

    from engine.params.jsv import to_json

    return json.dumps(to_json(value), ensure_ascii=False)
