"""engine.gcpause: the collector is off inside a pause, back on after the last one ends, and
left alone when it was off already."""

from __future__ import annotations

import gc
import threading

import pytest

from engine.gcpause import gc_paused


@pytest.fixture(autouse=True)
def _collector_enabled():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_a_pause_disables_and_restores():
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_inactive_pause_changes_nothing():
    with gc_paused(False):
        assert gc.isenabled()


def test_nested_pauses_resume_at_the_outermost_end():
    with gc_paused():
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_exception_still_resumes():
    with pytest.raises(ValueError), gc_paused():
        raise ValueError
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    with gc_paused():
        pass
    assert not gc.isenabled()


def test_overlapping_pauses_in_threads():
    inside, release = threading.Event(), threading.Event()

    def worker():
        with gc_paused():
            inside.set()
            release.wait(5)

    thread = threading.Thread(target=worker)
    thread.start()
    inside.wait(5)
    with gc_paused():
        pass
    assert not gc.isenabled()  # the worker's pause is still on
    release.set()
    thread.join(5)
    assert gc.isenabled()
