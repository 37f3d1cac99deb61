"""The Caveman bench says when a target was missed while the shared host ran slow."""

from __future__ import annotations

from bench.bench_caveman import MachineSpeed, workload_ms


def test_a_measurement_on_a_slow_host_is_marked_with_its_factor():
    host = MachineSpeed()
    host.seen += [60.0, 100.0, 66.0]
    assert host.note((100.0,)) == " (host at 1.67x its fastest)"
    assert host.note((60.0, 99.0)) == \
        " (host 60 ms at the smaller size, 99 ms at the larger: apart by 1.65x)"  # (a growth pair)
    assert host.note((60.0, 62.0)) == ""


def test_a_measurement_near_the_fastest_or_without_a_reading_is_not_marked():
    host = MachineSpeed()
    host.seen += [60.0, 66.0]
    assert host.note((66.0,)) == ""
    assert host.note(()) == ""
    assert MachineSpeed().note((80.0,)) == ""  # (nothing seen yet: nothing to compare with)


def test_the_report_reads_the_workload_and_remembers_its_times():
    host = MachineSpeed()
    line = host.report(runs=3)
    assert len(host.seen) == 3 and all(t > 0 for t in host.seen)
    assert "fastest / median / slowest of 3" in line
    times = workload_ms(2)
    assert times == sorted(times)
