"""Small corpora and rule folders for the corpus-lab tests."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.paths import builtin_filters_dir

PACK = {"language": "en", "category": "filler", "rules": [
    {"name": "basically", "pattern": "\\bbasically\\s+", "replacement": "", "flags": "gi"},
    {"name": "please", "pattern": "\\bplease\\s+", "replacement": "", "flags": "gi"},
    {"name": "never_fires", "pattern": "\\bzyzzyva\\b", "replacement": "", "flags": "g"},
]}
PROSE = ("Could you please look at the configuration loader in `src/app/config.py`? Basically it reads the file "
         "twice, and basically that is slow. Please keep https://example.com/docs/setup working.\n")


@pytest.fixture
def rules_dir(tmp_path) -> Path:
    folder = tmp_path / "rules" / "en"
    folder.mkdir(parents=True)
    (folder / "filler.json").write_text(json.dumps(PACK, indent=2), encoding="utf-8")
    return folder.parent


@pytest.fixture
def filters_dir(tmp_path) -> Path:
    folder = tmp_path / "filters"
    shutil.copytree(builtin_filters_dir(), folder)
    return folder


@pytest.fixture
def corpus(tmp_path) -> Path:
    root = tmp_path / "corpus"
    (root / "prose").mkdir(parents=True)
    (root / "prose" / "a.txt").write_text(PROSE, encoding="utf-8")
    (root / "prose" / "b.md").write_text(PROSE.replace("Basically", "Honestly"), encoding="utf-8")
    (root / "out").mkdir()
    (root / "out" / "build.log").write_text(
        "\n".join(f"   Compiling crate-{i} v0.1.{i}" for i in range(40))
        + "\nerror[E0308]: mismatched types\n --> src/main.rs:12:18\n"
        "error: could not compile `app` due to 1 previous error\n", encoding="utf-8")
    (root / "out" / "build.cmd").write_text("$ cargo build\n", encoding="utf-8")
    (root / "out" / "status.txt").write_text("$ git status\nOn branch main\nnothing to commit, working tree clean\n",
                                             encoding="utf-8")
    bodies = [
        {"model": "gpt-4o", "messages": [{"role": "user", "content": PROSE}]},
        {"model": "gpt-5", "instructions": "Be brief.", "input": [
            {"role": "user", "content": [{"type": "input_text", "text": PROSE}]}]},
        {"model": "claude", "max_tokens": 100, "system": "Be brief.", "messages": [
            {"role": "user", "content": [{"type": "text", "text": PROSE}]}]},
    ]
    lines = [json.dumps(b) for b in bodies] + ["{not json", "", json.dumps({"neither": 1})]
    (root / "bodies.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root
