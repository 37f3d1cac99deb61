"""engine.paths: the built-in data from a wheel's package data, a zip, or the checkout."""

from __future__ import annotations

import zipfile

from engine import paths


def test_a_zipped_data_tree_is_extracted_whole(tmp_path):
    archive = tmp_path / "site.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("engine/_data/rules/en/filler.json", '{"language": "en"}')
        z.writestr("engine/_data/resources/example-workspace/.rtk/trust.json", "{}")
        z.writestr("engine/_data/filters/git.json", "[]")
    target = tmp_path / "out"
    paths._extract(zipfile.Path(archive, "engine/_data/"), target)
    assert (target / "rules" / "en" / "filler.json").read_text() == '{"language": "en"}'
    assert (target / "resources" / "example-workspace" / ".rtk" / "trust.json").read_text() == "{}"
    assert (target / "filters" / "git.json").read_text() == "[]"


def test_rulewright_home_overrides_the_root(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_HOME", str(tmp_path))
    assert paths.builtin_rules_dir() == tmp_path / "rules"
    assert paths.schemas_dir() == tmp_path / "resources" / "schemas"


def test_packaged_data_wins_over_the_checkout(tmp_path, monkeypatch):
    monkeypatch.delenv("RULEWRIGHT_HOME", raising=False)
    monkeypatch.setattr(paths, "_packaged_root", lambda: tmp_path)
    assert paths.builtin_filters_dir() == tmp_path / "filters"
