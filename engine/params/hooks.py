"""``composeHooks``: merge the hook parts features contribute into one set (spec §3).

No internal feature contributes hooks; extra features may. Hooks are plain callables here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

VOID_HOOKS = ("onStart", "onStepFinish", "onToolExecutionStart", "onToolExecutionEnd",
              "onFinish")
log = logging.getLogger(__name__)

Hook = Callable[..., object]  # a feature's hook: the reference passes each hook its own arguments


def _sequential(handlers: list[Hook]) -> Callable[..., None]:
    def run(*args: object, **kwargs: object) -> None:
        for handler in handlers:
            try:
                handler(*args, **kwargs)
            except Exception:  # one failing hook must not stop the others
                log.warning("hook %r failed", handler, exc_info=True)
    return run


def _on_error(handlers: list[Hook]) -> Callable[..., str]:
    def run(*args: object, **kwargs: object) -> str:
        verdicts = []
        for handler in handlers:
            try:
                verdicts.append(handler(*args, **kwargs))
            except Exception:
                log.warning("onError hook %r failed", handler, exc_info=True)
        return "retry" if "retry" in verdicts else "abort"
    return run


def _prepare_step(handlers: list[Hook]) -> Callable[[Mapping[str, Any]], dict[str, Any] | None]:
    def run(options: Mapping[str, Any]) -> dict[str, Any] | None:
        merged: dict[str, Any] = {}
        messages = options.get("messages")
        for handler in handlers:
            result = handler({**options, "messages": messages})
            if isinstance(result, Mapping):
                merged.update(result)
                if "messages" in result:
                    messages = result["messages"]
        return merged or None
    return run


def compose_hooks(parts: list[Mapping[str, Any]]) -> dict[str, Any]:
    """0 parts → ``{}``; 1 → that part; otherwise one handler per hook name."""
    if not parts:
        return {}
    if len(parts) == 1:
        return dict(parts[0])
    names: list[str] = []
    for part in parts:
        names.extend(n for n in part if n not in names)
    composed: dict[str, Any] = {}
    for name in names:
        handlers = [p[name] for p in parts if callable(p.get(name))]
        if not handlers:
            continue
        if name == "onError":
            composed[name] = _on_error(handlers)
        elif name == "prepareStep":
            composed[name] = _prepare_step(handlers)
        else:
            composed[name] = _sequential(handlers)
    return composed
