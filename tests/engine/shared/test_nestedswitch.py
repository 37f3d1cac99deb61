"""engine.nestedswitch: on at the first block, off after the last, whatever the nesting or threads."""

from __future__ import annotations

import itertools
import threading

from engine.nestedswitch import NestedSwitch


def test_nested_blocks_switch_once() -> None:
    calls: list[str] = []
    switch = NestedSwitch(lambda: calls.append("on"), lambda: calls.append("off"))
    with switch.held():
        with switch.held():
            assert switch.depth == 2
        assert calls == ["on"]
    assert calls == ["on", "off"] and switch.depth == 0


def test_the_switch_goes_off_even_when_a_block_raises() -> None:
    calls: list[str] = []
    switch = NestedSwitch(lambda: calls.append("on"), lambda: calls.append("off"))
    try:
        with switch.held():
            raise ValueError("boom")
    except ValueError:
        pass
    assert calls == ["on", "off"] and switch.depth == 0


def test_concurrent_blocks_pair_every_on_with_one_off() -> None:
    calls: list[str] = []
    switch = NestedSwitch(lambda: calls.append("on"), lambda: calls.append("off"))
    barrier = threading.Barrier(8)

    def work() -> None:
        barrier.wait()
        for _ in range(200):
            with switch.held():
                pass

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert switch.depth == 0 and calls and calls[0] == "on" and calls[-1] == "off"
    assert all(a != b for a, b in itertools.pairwise(calls))  # strictly alternating
