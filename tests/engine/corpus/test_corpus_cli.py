"""``rulewright eval`` end to end: reports, exit codes, A/B against a folder and a git revision,
the same report from one worker, two workers and a Dask cluster, and a clean early stop."""

from __future__ import annotations

import json
import shutil
import subprocess
import threading

import pytest

from engine.cli import main
from engine.corpus.job import run_job
from engine.corpus.setup import load_setup


def _eval(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["eval", "--quiet", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _without_timing(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "timing"}


def test_json_html_and_rows(capsys, tmp_path, corpus, rules_dir, filters_dir):
    report_file, html_file, rows_file = tmp_path / "r.json", tmp_path / "r.html", tmp_path / "rows.jsonl"
    code, out, _err = _eval(capsys, str(corpus), "--rules", str(rules_dir), "--filters", str(filters_dir),
                           "--workers", "1", "--json", str(report_file), "--html", str(html_file),
                           "--samples", str(rows_file))
    report = json.loads(report_file.read_text(encoding="utf-8"))
    assert report["corpus"]["samples"] == 7 and report["corpus"]["problems"] == 2
    assert report["partial"] is False
    names = [r["name"] for r in report["current"]["rules"]]
    assert {"basically", "please"} <= set(names)
    assert "never_fires" in report["current"]["neverFired"]
    assert report["current"]["byKind"]["chat"]["samples"] == 3
    assert code == (1 if report["current"]["losses"]["samples"] else 0)
    assert "7 samples" in out and "never fired" in out
    rows = [json.loads(line) for line in rows_file.read_text(encoding="utf-8").splitlines()]
    assert sorted(r["index"] for r in rows) == list(range(7))
    page = html_file.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and "<svg" in page and "<script" not in page
    assert "never_fires" in page


def test_json_to_stdout_is_the_whole_output(capsys, corpus, rules_dir, filters_dir):
    code, out, _err = _eval(capsys, str(corpus / "prose"), "--rules", str(rules_dir), "--filters", str(filters_dir),
                            "--workers", "1", "--json", "-")
    assert json.loads(out)["corpus"]["samples"] == 2 and code == 0


def test_usage_errors_exit_2(capsys, corpus, tmp_path):
    assert _eval(capsys, str(corpus), "--workers", "0")[0] == 2
    code, _out, err = _eval(capsys, str(corpus), "--rules", str(tmp_path / "nope"))
    assert code == 2 and "rules folder not found" in err
    code, _out, err = _eval(capsys, str(corpus), "--baseline", "no-such-rev-or-dir")
    assert code == 2 and "--baseline no-such-rev-or-dir" in err


def test_ab_against_a_folder_lists_the_regressions(capsys, tmp_path, corpus, rules_dir, filters_dir):
    baseline = tmp_path / "baseline"
    shutil.copytree(rules_dir.parent, baseline, ignore=shutil.ignore_patterns("corpus", "baseline"))
    pack_file = rules_dir / "en" / "filler.json"
    pack = json.loads(pack_file.read_text(encoding="utf-8"))
    pack["rules"] = [r for r in pack["rules"] if r["name"] != "basically"]  # the change under test saves less
    pack_file.write_text(json.dumps(pack), encoding="utf-8")
    report_file = tmp_path / "ab.json"
    _eval(capsys, str(corpus / "prose"), "--rules", str(rules_dir), "--filters", str(filters_dir),
          "--baseline", str(baseline / "rules"), "--workers", "1", "--json", str(report_file))
    report = json.loads(report_file.read_text(encoding="utf-8"))
    ab = report["ab"]
    assert report["baseline"]["setup"]["label"].startswith("baseline")
    assert ab["changedSamples"] == 2
    assert [r["id"].rsplit("/", 1)[-1] for r in ab["topRegressions"]] == ["a.txt", "b.md"]  # a.txt lost more
    assert ab["topRegressions"][0]["delta"] < 0 and ab["topImprovements"] == []
    assert len(ab["scatter"]) == 2


def test_ab_against_a_git_revision(capsys, tmp_path, corpus, rules_dir, filters_dir):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = rules_dir.parent

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)

    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@e", "add", "rules")
    git("-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "packs")
    pack_file = rules_dir / "en" / "filler.json"
    pack = json.loads(pack_file.read_text(encoding="utf-8"))
    pack["rules"].append({"name": "loader", "pattern": "\\bconfiguration loader\\b", "replacement": "loader"})
    pack_file.write_text(json.dumps(pack), encoding="utf-8")
    report_file = tmp_path / "git.json"
    _eval(capsys, str(corpus / "prose"), "--rules", str(rules_dir), "--filters", str(filters_dir),
          "--baseline", "HEAD", "--workers", "1", "--json", str(report_file))
    report = json.loads(report_file.read_text(encoding="utf-8"))
    assert report["baseline"]["setup"]["label"] == "baseline HEAD"
    assert "loader" not in [r["name"] for r in report["baseline"]["rules"]]
    assert "loader" in [r["name"] for r in report["current"]["rules"]]
    assert len(report["ab"]["topImprovements"]) == 2


@pytest.mark.slow
def test_two_workers_give_the_report_of_one(corpus, rules_dir, filters_dir):
    setup = load_setup("current", rules=rules_dir, filters=filters_dir)
    one = run_job([str(corpus)], setup, workers=1)
    two = run_job([str(corpus)], setup, workers=2)
    assert json.dumps(_without_timing(one)) == json.dumps(_without_timing(two))


@pytest.mark.slow
def test_a_dask_cluster_gives_the_report_of_a_local_run(corpus, rules_dir, filters_dir):
    distributed = pytest.importorskip("distributed", reason="the cluster extra (dask.distributed) is not installed")
    setup = load_setup("current", rules=rules_dir, filters=filters_dir)
    local = run_job([str(corpus)], setup, setup, workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = run_job([str(corpus)], setup, setup, scheduler=client)
    assert json.dumps(_without_timing(local)) == json.dumps(_without_timing(remote))


def test_a_stopped_run_reports_what_it_evaluated(corpus, rules_dir, filters_dir):
    setup = load_setup("current", rules=rules_dir, filters=filters_dir)
    stop = threading.Event()
    stop.set()
    report = run_job([str(corpus)], setup, workers=1, stop=stop)
    assert report["partial"] is True and report["corpus"]["samples"] == 0


def test_ctrl_c_still_writes_a_partial_report(capsys, tmp_path, corpus, rules_dir, filters_dir, monkeypatch):
    import engine.corpus.job as job

    calls = {"n": 0}
    real = job.run_local

    def interrupted(items, setups, **kwargs):
        def on_result(result):
            calls["n"] += 1
            kwargs_on_result(result)
            if calls["n"] == 2:
                raise KeyboardInterrupt
        kwargs_on_result = kwargs.pop("on_result")
        return real(items, setups, on_result=on_result, **kwargs)

    monkeypatch.setattr(job, "run_local", interrupted)
    report_file = tmp_path / "partial.json"
    code, out, _err = _eval(capsys, str(corpus), "--rules", str(rules_dir), "--filters", str(filters_dir),
                            "--workers", "1", "--json", str(report_file))
    report = json.loads(report_file.read_text(encoding="utf-8"))
    assert code == 1 and report["partial"] is True and report["corpus"]["samples"] == 2
    assert "partial" in out


def test_with_bundled_runs_the_filters_the_ides_preview_runs(capsys, tmp_path):
    """A workspace's filters beside the bundled ones (ranked as the preview ranks them), with its
    trusted project filters: each output sample gets the filter its scope gives it; the bundled
    filters compete but are not the author's to be told "never fired"; an untrusted project file
    is left out and the report says so."""
    ws = tmp_path / "ws"
    (ws / "filters").mkdir(parents=True)
    (ws / ".rtk").mkdir()
    own = {"id": "deploy-log", "label": "deploy", "category": "infra", "priority": 70,
           "match": {"commands": ["^deploy\\b"], "patterns": [], "outputTypes": []},
           "rules": {"dropPatterns": ["^upload \\d+%$"], "collapsePatterns": [], "deduplicate": False},
           "preserve": {"errorPatterns": [], "summaryPatterns": []}, "tests": []}
    unused = {**own, "id": "never-used", "match": {"commands": ["^zyzzyva\\b"], "patterns": [], "outputTypes": []}}
    (ws / "filters" / "deploy.json").write_text(json.dumps(own), encoding="utf-8")
    (ws / "filters" / "unused.json").write_text(json.dumps(unused), encoding="utf-8")
    project = {**own, "id": "ledger-import", "match": {"commands": ["^ledger import\\b"], "patterns": [],
                                                        "outputTypes": []},
               "rules": {"dropPatterns": ["^imported row \\d+$"], "collapsePatterns": [], "deduplicate": False}}
    (ws / ".rtk" / "filters.json").write_text(json.dumps([project]), encoding="utf-8")
    assert main(["trust", str(ws), "--write", "--yes"]) == 0
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "deploy.txt").write_text("$ deploy web1\n" + "".join(f"upload {i}%\n" for i in range(0, 100, 5))
                                       + "deploy: done\n", encoding="utf-8")
    (corpus / "import.txt").write_text("$ ledger import rates.csv\n" + "".join(f"imported row {i}\n"
                                                                               for i in range(40))
                                       + "import: 40 rows\n", encoding="utf-8")
    (corpus / "status.txt").write_text("$ git status\nOn branch main\nChanges not staged for commit:\n"
                                       + "".join(f"\tmodified:   src/file{i}.py\n" for i in range(30)),
                                       encoding="utf-8")
    capsys.readouterr()

    def fired(*extra: str) -> tuple[dict[str, list[str]], dict]:
        report_file = tmp_path / "r.json"
        _eval(capsys, str(corpus), "--filters", str(ws / "filters"), "--workers", "1", "--json", str(report_file),
              *extra)
        report = json.loads(report_file.read_text(encoding="utf-8"))
        rows = {w["id"].rsplit("/", 1)[-1]: w["fired"] for w in report["current"]["worst"]}
        return rows, report

    rows, report = fired("--project", str(ws), "--with-bundled")
    assert rows == {"deploy.txt": ["deploy-log"], "import.txt": ["ledger-import"], "status.txt": ["git-status"]}
    from engine.paths import builtin_filters_dir
    from engine.rtk.model import load_filter_dir

    bundled = {f.id for f in load_filter_dir(builtin_filters_dir())[0]}
    never = set(report["current"]["neverFired"])
    assert "never-used" in never and not never & bundled
    assert "beside the bundled filters" in report["current"]["setup"]["sources"]
    from engine.corpus.setup import load_setup as setup_of

    alone = setup_of("x", rules=None, filters=builtin_filters_dir(), with_bundled=True)
    assert len(alone.filters) == len(bundled) and not alone.context_ids  # (the bundled folder by name: once)
    rows, _report = fired("--project", str(ws))  # the folder alone, as OmniRoute's own library
    assert rows["status.txt"] == [] and rows["import.txt"] == ["ledger-import"]
    (ws / ".rtk" / "filters.json").write_text(json.dumps([{**project, "priority": 71}]), encoding="utf-8")
    rows, report = fired("--project", str(ws), "--with-bundled")
    assert rows["import.txt"] != ["ledger-import"]
    assert "changed after trust and were skipped" in report["current"]["setup"]["sources"]
