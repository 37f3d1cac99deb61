"""Reading a corpus: every kind of file becomes samples, every unreadable part a located problem."""

from __future__ import annotations

import json
import os

import pytest

from engine.corpus.bodies import body_format, to_messages
from engine.corpus.samples import CorpusProblem, Sample, iter_corpus, sidecar_command


def _split(items):
    samples = [i for i in items if isinstance(i, Sample)]
    problems = [i for i in items if isinstance(i, CorpusProblem)]
    return samples, problems


def test_a_folder_yields_prose_outputs_and_chat_bodies_in_a_stable_order(corpus):
    samples, problems = _split(list(iter_corpus([corpus])))
    kinds = [(os.path.relpath(s.id.split(":")[0], corpus), s.kind, s.format) for s in samples]
    assert kinds == [
        ("bodies.jsonl", "chat", "openai-chat"), ("bodies.jsonl", "chat", "openai-responses"),
        ("bodies.jsonl", "chat", "anthropic-messages"),
        ("out/build.log", "output", "text"), ("out/status.txt", "output", "text"),
        ("prose/a.txt", "prose", "text"), ("prose/b.md", "prose", "text"),
    ]
    assert [s.command for s in samples if s.kind == "output"] == ["cargo build", "git status"]
    status = next(s for s in samples if s.id.endswith("status.txt"))
    assert not status.text.startswith("$ ")  # the command line is not part of the output
    assert [str(p).split(": error: ")[1] for p in problems] == [
        "not JSON: Expecting property name enclosed in double quotes",
        'not a chat body (messages or input), {"text"} or {"command", "output"}']
    assert [p.where.rsplit(os.sep, 1)[-1] for p in problems] == ["bodies.jsonl:4:2", "bodies.jsonl:6:1"]


def test_a_second_run_reads_the_same_samples(corpus):
    first = [s.id for s in iter_corpus([corpus]) if isinstance(s, Sample)]
    assert first == [s.id for s in iter_corpus([corpus]) if isinstance(s, Sample)]


def test_bodies_are_turned_into_messages():
    responses = {"instructions": "Be brief.", "input": [{"role": "user", "content": "hi"},
                                                          {"type": "function_call", "name": "ls"}]}
    assert to_messages(responses) == {"messages": [{"role": "system", "content": "Be brief."},
                                                   {"role": "user", "content": "hi"},
                                                   {"type": "function_call", "name": "ls"}]}
    assert to_messages({"input": "just text"}) == {"messages": [{"role": "user", "content": "just text"}]}
    anthropic = {"system": [{"type": "text", "text": "S"}], "messages": [{"role": "user", "content": "q"}]}
    assert to_messages(anthropic)["messages"][0] == {"role": "system", "content": [{"type": "text", "text": "S"}]}
    assert body_format({"messages": [{"role": "user", "content": [{"type": "tool_result", "content": "x"}]}]}) \
        == "anthropic-messages"
    assert to_messages({"prompt": "legacy"}) is None


def test_unreadable_inputs_are_problems_not_exceptions(tmp_path, monkeypatch):
    root = tmp_path / "c"
    root.mkdir()
    (root / "binary.bin").write_bytes(b"\0\1\2" * 10)
    (root / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    (root / "broken.json").write_text("{\n  \"messages\": [\n", encoding="utf-8")
    os.mkfifo(root / "pipe.txt")
    os.mkfifo(root / "pipe.jsonl")  # read line by line: must be refused unopened too, never block
    monkeypatch.setenv("RULEWRIGHT_MAX_FILE_MB", "0.0001")  # ~100 bytes
    (root / "huge.txt").write_text("x" * 1000, encoding="utf-8")
    (root / "long.jsonl").write_text(json.dumps({"text": "y" * 1000}) + "\n" + json.dumps({"text": "ok"}) + "\n",
                                     encoding="utf-8")
    samples, problems = _split(list(iter_corpus([root, tmp_path / "missing"])))
    found = {p.where.rsplit(os.sep, 1)[-1]: p.message for p in problems}
    assert found["binary.bin:1:1"] == "binary file skipped"
    assert found["latin1.txt:1:4"] == "not UTF-8 text"
    assert found["broken.json:3:1"].startswith("not JSON")
    assert "not a regular file" in found["pipe.txt:1:1"]
    assert "not a regular file" in found["pipe.jsonl:1:1"]
    assert "up to" in found["huge.txt:1:1"]
    assert found["long.jsonl:1:1"].startswith("line longer than")
    assert found["missing:1:1"] == "no such file or folder"
    assert [s.text for s in samples] == ["ok"]  # the line after the oversized one is still read


@pytest.mark.parametrize(("content", "expected"), [("$ npm test\n", "npm test"), ("cargo build", "cargo build"),
                                                   ("\n\n", None)])
def test_sidecar_command(tmp_path, content, expected):
    (tmp_path / "run.log").write_text("out", encoding="utf-8")
    (tmp_path / "run.cmd").write_text(content, encoding="utf-8")
    assert sidecar_command(tmp_path / "run.log") == expected
    assert sidecar_command(tmp_path / "other.log") is None
