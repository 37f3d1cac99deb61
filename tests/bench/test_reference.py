"""bench.reference: the reference's own time or a plain reason, never a stand-in number."""

from __future__ import annotations

import pytest

from bench import reference


def test_missing_script_gives_a_reason_not_a_number(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_REFERENCE_BENCH", str(tmp_path / "absent.mjs"))
    sample = tmp_path / "in.txt"
    sample.write_text("hello\n", encoding="utf-8")
    run = reference.run("rtk", sample)
    assert not run.ran
    assert run.best_ms is None and run.ms_per_mb is None and run.ratio(1.0) is None
    assert run.describe().startswith("reference not run: ../shared absent")


def test_missing_node_gives_a_reason(tmp_path, monkeypatch):
    script = tmp_path / "bench.mjs"
    script.write_text("", encoding="utf-8")
    monkeypatch.setenv("RULEWRIGHT_REFERENCE_BENCH", str(script))
    monkeypatch.setenv("PATH", str(tmp_path))
    sample = tmp_path / "in.txt"
    sample.write_text("hello\n", encoding="utf-8")
    assert reference.run("caveman", sample).describe() == "reference not run: node missing (not on PATH)"


def test_unknown_kind_is_refused(tmp_path):
    with pytest.raises(ValueError):
        reference.run("bogus", tmp_path / "x.txt")


@pytest.mark.slow
@pytest.mark.skipif(reference.unavailable() is not None, reason=f"{reference.unavailable()}")
def test_reference_measures_the_given_file(tmp_path):
    run = reference.run_text("rtk", "line one\nline two\n" * 200, tmp_path, repeats=2, command="pytest", cpu=True)
    assert run.ran, run.reason
    assert run.bytes == len("line one\nline two\n" * 200)
    assert 0 < run.best_ms <= run.median_ms
    assert run.ms_per_mb == pytest.approx(run.best_ms * 1e6 / run.bytes)
    assert run.cpu_ms is not None and run.cpu_ms >= 0
    assert "ms/MB" in run.describe()


def test_flattened_links_beside_the_script_are_made_real_in_a_mirror(tmp_path):
    """A shared folder that holds the bundle's links as plain files naming their targets: the
    script runs from a copy beside real links (else it finds no packs and no filters)."""
    bench = tmp_path / "reference" / "bench"
    (bench / "open-sse" / "services" / "compression" / "engines" / "rtk").mkdir(parents=True)
    (tmp_path / "reference" / "rules" / "en").mkdir(parents=True)
    (tmp_path / "reference" / "filters").mkdir()
    (bench / "open-sse" / "services" / "compression" / "rules").write_text("../../../../rules", encoding="utf-8")
    (bench / "open-sse" / "services" / "compression" / "engines" / "rtk" / "filters").write_text(
        "../../../../../../filters", encoding="utf-8")
    (bench / "open-sse" / "services" / "compression" / "notes.txt").write_text("not a link\n", encoding="utf-8")
    script = bench / "bench.mjs"
    script.write_text("// the bundle\n", encoding="utf-8")
    mirror = reference.runnable_script(script)
    assert mirror != script and mirror.read_text(encoding="utf-8") == "// the bundle\n"
    rules = mirror.parent / "open-sse" / "services" / "compression" / "rules"
    assert rules.is_symlink() and (rules / "en").is_dir()
    filters = mirror.parent / "open-sse" / "services" / "compression" / "engines" / "rtk" / "filters"
    assert filters.is_symlink() and filters.resolve() == (tmp_path / "reference" / "filters").resolve()
    assert not (mirror.parent / "open-sse" / "services" / "compression" / "notes.txt").exists()
    assert reference.runnable_script(script) == mirror  # (one mirror per process)


def test_a_script_with_real_links_runs_where_it_lies(tmp_path):
    bench = tmp_path / "bench"
    (bench / "open-sse").mkdir(parents=True)
    (tmp_path / "rules").mkdir()
    (bench / "open-sse" / "rules").symlink_to(tmp_path / "rules", target_is_directory=True)
    script = bench / "bench.mjs"
    script.write_text("", encoding="utf-8")
    assert reference.runnable_script(script) == script


def test_a_body_mode_copy_times_the_same_call_on_a_parsed_body(tmp_path):
    """``caveman-body``: the bundle's entry point, copied, reads its file as a chat body (parsed
    once, before the timed calls); a bundle whose entry point is not the expected one is refused
    with a reason rather than timed some other way."""
    bench = tmp_path / "bench"
    (bench / "open-sse").mkdir(parents=True)
    entry = ('var [kind, file2, reps] = process.argv.slice(2);\n'
             'var text = fs4.readFileSync(file2, "utf8");\n'
             'if (kind === "caveman") {\n'
             '  cavemanCompress({ messages: [{ role: "user", content: text }] }, {});\n}\n')
    (bench / "bench.mjs").write_text(entry, encoding="utf-8")
    made = reference.body_script(bench / "bench.mjs").read_text(encoding="utf-8")
    assert 'var parsedBody = kind === "caveman-body" ? JSON.parse(text) : null;' in made
    assert 'cavemanCompress(parsedBody ?? { messages: [{ role: "user", content: text }] }, {})' in made
    assert 'if (kind === "caveman" || kind === "caveman-body")' in made
    other = tmp_path / "other"
    (other / "open-sse").mkdir(parents=True)
    (other / "bench.mjs").write_text("console.log('something else')\n", encoding="utf-8")
    with pytest.raises(ValueError):
        reference.body_script(other / "bench.mjs")


@pytest.mark.slow
@pytest.mark.skipif(reference.unavailable() is not None, reason=f"{reference.unavailable()}")
def test_reference_times_a_chat_body(tmp_path):
    import json

    body = {"messages": [{"role": "user", "content": "Please just look at this basically broken test."}] * 50}
    path = tmp_path / "body.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    run = reference.run("caveman-body", path, repeats=2, cpu=True)
    assert run.ran, run.reason
    assert run.bytes == path.stat().st_size and 0 < run.best_ms <= run.median_ms
