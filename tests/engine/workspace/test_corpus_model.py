"""engine.workspace.corpus_model: how the Corpus panel names what it lists."""

from __future__ import annotations

from pathlib import Path

from engine.workspace.corpus_model import shown_path


def test_a_path_inside_the_workspace_is_listed_from_it():
    ws = Path("/home/me/project")
    assert shown_path("/home/me/project/samples/deploy.log", ws) == "samples/deploy.log"
    assert shown_path("/home/me/project/chats/day.jsonl:12", ws) == "chats/day.jsonl:12"  # (a JSONL line's id)
    assert shown_path("/home/me/project2/samples/x.txt", ws) == "/home/me/project2/samples/x.txt"  # (not inside)
    assert shown_path("/elsewhere/x.txt", ws) == "/elsewhere/x.txt"
    assert shown_path("/home/me/project/x.txt", None) == "/home/me/project/x.txt"
    assert shown_path("relative/x.txt", ws) == "relative/x.txt"
