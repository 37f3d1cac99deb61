"""engine.heapreuse: pauses nest and overlap across threads, the allocator gets its defaults back
when the last one ends (big strings are mapped again: their release lowers the RSS), and a
Caveman run gives the same result with the heap reused."""

from __future__ import annotations

import threading

import pytest

from engine import heapreuse
from engine.heapreuse import heap_reused


class FakeLibc:
    """Records mallopt/malloc_trim calls (the settings themselves are not observable)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int, int] | tuple[str, int]] = []

    def mallopt(self, option: int, value: int) -> int:
        self.calls.append(("mallopt", option, value))
        return 1

    def malloc_trim(self, pad: int) -> int:
        self.calls.append(("trim", pad))
        return 1


@pytest.fixture
def libc(monkeypatch):
    fake = FakeLibc()
    monkeypatch.setattr(heapreuse, "_libc", fake)
    return fake


def test_nested_pauses_set_once_and_restore_at_the_last_end(libc):
    with heap_reused():
        with heap_reused():
            assert libc.calls == [("mallopt", -4, 0), ("mallopt", -1, 2**31 - 1)]
        assert len(libc.calls) == 2  # (the inner end restores nothing)
    assert libc.calls[2:] == [("mallopt", -4, 65536), ("mallopt", -1, 128 * 1024), ("trim", 0)]
    assert heapreuse._switch.depth == 0


def test_an_inactive_pause_touches_nothing(libc):
    with heap_reused(False):
        pass
    assert libc.calls == []


def test_overlapping_pauses_in_threads_restore_once(libc):
    inside = threading.Barrier(4)

    def work():
        with heap_reused():
            inside.wait(timeout=10)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [c for c in libc.calls if c[0] == "trim"] == [("trim", 0)]
    assert heapreuse._switch.depth == 0


def test_a_run_is_the_same_with_the_heap_reused(monkeypatch):
    # (the real allocator where there is one: glibc on Linux)
    import sys

    from tests.engine.caveman.helpers import pack, rule, run

    compress = sys.modules["engine.caveman.compress"]
    packs = pack(rule("filler", r"\b(?:really|basically)\b\s*"), rule("articles", r"\b(?:a|the)\s+(?=[a-z])", flags="g"))
    text = "Really the parser basically drops `x.y()` and a value 😀 at https://a.io/x.\n" * 3000
    plain = run(text, packs, language="xx")
    monkeypatch.setattr(compress, "HEAP_REUSE_MIN", 1)
    reused = run(text, packs, language="xx")
    assert reused[0] == plain[0] and reused[1].stats["rulesApplied"] == plain[1].stats["rulesApplied"]
