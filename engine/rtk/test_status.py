"""What a filter file's own inline tests say about it, for whoever is about to trust or export it:
a filter whose test fails (or whose test command selects another filter) does not do what its
author said it does. One home for the wording the Trust panel, its question and the CLI use."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.rtk.model import RtkFilter


def test_problems(filters: list[RtkFilter]) -> dict[str, str]:
    """filter id -> its first test problem (a failing test, or its command selects another filter)."""
    from engine.rtk.verify import verify_filters

    out: dict[str, str] = {}
    for o in verify_filters(filters, selection_pool=filters, check_activation=True).outcomes:
        if o.filter_id in out:
            continue
        if not o.passed:
            out[o.filter_id] = f"test '{o.test_name}' fails"
        elif o.activation is not None and not o.activation.passed:
            out[o.filter_id] = (f"test '{o.test_name}': command {o.activation.command!r} selects "
                                + (f"'{o.activation.selected_id}'" if o.activation.selected_id else "no filter"))
    return out


def tests_lines(name: str, tested: int, problems: dict[str, str]) -> list[str]:
    """The file ``name``'s tests in a few lines: ``tested`` filters have tests, ``problems`` as
    ``test_problems`` gives them."""
    if not tested:
        return [f"{name}: no filter has inline tests"]
    if not problems:
        return [f"{name}: the tests of all {tested} tested filter(s) pass"]
    return [f"{name}: {len(problems)} of {tested} tested filter(s) have a test problem",
            *(f"  [!] {fid}: {why}" for fid, why in problems.items())]
