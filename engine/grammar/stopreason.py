"""A message's ``stopReason`` as the recovery reports name it (``stop-reason-…``).

A leaf module because both the recovery (``recover``) and its explanations (``reporting``) need
the label, and ``recover`` imports ``reporting``.
"""

from __future__ import annotations

from engine.jsvalues import js_string


class _Absent:
    """The marker for a message without a ``stopReason`` key (unlike one holding ``null``)."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()


def stop_reason_label(stop_reason: object) -> str:
    """``stop-reason-${String(value)}`` (``null``, ``5`` …), or ``stop-reason-absent`` without one."""
    return "stop-reason-absent" if stop_reason is ABSENT else f"stop-reason-{js_string(stop_reason)}"
