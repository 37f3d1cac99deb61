"""Command discovery and typed detection (rtk.md §2)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.rtk import detect
from engine.rtk.detect import DETECTORS, Subject, detect_command_type, find_command, last_command_segment


@pytest.mark.parametrize(("command", "segment"), [
    ("", ""),
    ("git status", "git status"),
    ("cd web && npm run build", "npm run build"),
    ("make || echo failed", "echo failed"),
    ("a; b ;  ", "b"),
    ("ls | grep x", "ls | grep x"),  # a single | does not split
    ("(cd web && npm run build)", "(cd web && npm run build)"),
    ('echo "$(git rev-parse HEAD && date)" && git diff', 'echo "$(git rev-parse HEAD && date)" && git diff'),
    ("echo 'a && b' && pytest", "pytest"),
    ('echo "x\\" && y" && z', 'y" && z'),  # no backslash escapes: \" closes the string, y" opens one
    ("&& ;", "&& ;"),
])
def test_last_command_segment(command, segment):
    assert last_command_segment(command) == segment
    assert last_command_segment(segment) == segment


def test_command_from_output_lines():
    assert find_command("$ git status\nOn branch main", None) == ("git status", "prompt")
    assert find_command("$git status\n", None) == (None, "none")  # `$` needs a following space
    assert find_command("\n\n\nmake all\n", None) == ("make all", "output")
    assert find_command("a\nb\nc\nd\ngit log\n", None) == (None, "none")  # only the first 4 lines
    assert find_command("make sure it works", None)[0] == "make sure it works"  # RTK-Q14
    assert find_command("make sure it works", None, profile="strict") == (None, "none")
    assert find_command("x", "  cd a && pytest -q  ") == ("pytest -q", "given")


def test_scores_and_ties():
    status = "On branch main\nChanges not staged for commit:\nUntracked files:\n"
    found = detect_command_type(status, "git status")
    assert (found.type, found.confidence, found.category) == ("git-status", 1, "git")
    assert found.matched_patterns[0] == "git-status:command:0"
    assert detect_command_type(status).confidence == 0.75
    assert detect_command_type("hello", None).to_dict()["confidence"] == 0.1
    unknown = detect_command_type("hello", "frobnicate --x")
    assert (unknown.type, unknown.confidence) == ("unknown", 0.35)


@pytest.mark.parametrize(("text", "command", "expected"), [
    ("diff --git a/x b/x\n@@ -1,2 +1,2 @@\n", None, "git-diff"),
    ("@@ -1 +1 @@\n", None, "unknown"),  # a header without commas is not a signal
    ("[1, 2]", None, "json-output"),
    ("running 3 tests\ntest a::b ... ok\ntest result: ok.", None, "test-cargo"),
    ("x", "npm test:vitest", "test-vitest"),  # earlier detector wins the tie
    ("Traceback (most recent call last):\n  File \"a.py\"\nValueError", None, "error-stacktrace"),
    ("src/\n./a/b.ts\n", None, "shell-find"),
    ("line one\r\nOn branch main\r\n", None, "git-status"),  # CR line ends use the exact patterns
])
def test_detected_types(text, command, expected):
    assert detect_command_type(text, command).type == expected


def _brute_force(text: str, command: str | None) -> tuple[str, float, list[str]]:
    """Every detector in order, every content pattern's exact regex, no needles, no pruning."""
    detected, _ = find_command(text, command)
    best_type, best, matched = "unknown", -1.0, []
    for detector in DETECTORS:
        hit = next((pid for pid, m in detector.commands if detected is not None and m(detected)), None)
        content = [p.id for p in detector.contents if p.exact(text)]
        if hit is None and not content:
            continue
        confidence = min(1, (0.55 if hit else 0) + 0.25 * len(content))
        if confidence > best:
            best_type, best, matched = detector.type, confidence, ([hit] if hit else []) + content
    return best_type, best, matched


SNIPPETS = st.sampled_from([
    "On branch main", "* main", "diff --git a/x b/x", "@@ -1,2 +1,3 @@", "commit abcdef1", "Author: x",
    "make: *** [all] Error 1", "> Task :app", "BUILD SUCCESSFUL", "Tests: 3 passed", "PASS src/a.test.ts",
    "FAIL src/b", " \u2713 ok ", "==== 3 passed in 1s", "E   assert 1", "FAILED t.py::x", "ok  pkg/a 0.1s",
    "panic: boom", "error TS2322: x", "  3:4  error  no", "\u2716 2 problems", "webpack 5", "vite v5.0",
    "Checked 3 files in 2ms", "added 3 packages", "found 0 vulnerabilities", "high", "a.py:1:2: E501 x",
    "Collecting x", "Resolved 3 packages", "2024-01-01T00:00:00 INFO x", "An error occurred (X) when calling",
    "curl: (6) x", "HTTP/1.1 200", "--2024-01-01", "total 8", "-rw 1 a 4096 12 x", "./src/a.ts", "src/a.ts:3:x",
    "USER  PID", "Filesystem  Size Use%", "4.0K\tsrc", "Error: x", "Exception: y", "", "   ", "\t",
    "Traceback (most recent call last):", "   at f (a.js:1:2)", "thread 'main' panicked at x", "[", "}",
])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(SNIPPETS, max_size=8), st.sampled_from(["\n", "\r\n", "\u2028"]),
       st.sampled_from([None, "git status", "pytest", "npm install", "ls -la", "cargo test", "du -sh"]))
@pytest.mark.slow
def test_fast_detection_equals_brute_force(snippets, newline, command):
    text = newline.join(snippets)
    found = detect_command_type(text, command)
    best_type, best, matched = _brute_force(text, command)
    assert found.type == best_type
    if best_type != "unknown":
        assert found.confidence == best
        assert found.matched_patterns == matched


def test_subject_heads_cover_single_character_prefixes():
    subject = Subject.of("E\nab")
    assert {"E", "ab", "a"} <= subject.heads
    assert detect.line_prefix_of("{LS}\\u2713 x") == "\u2713 x"
    assert detect.line_prefix_of("{LS}ab+") == "a"


def test_first_lines_split_like_the_whole_text():
    """Only the first lines are cut out before splitting (a large output is not copied); the
    first four lines come out as splitting the whole text gives them, CRLF breaks included."""
    for chars in itertools.product(["a", "\n", "\r", " "], repeat=7):
        text = "".join(chars)
        assert detect._LINE_SPLIT.split(detect._first_lines(text, 4))[:4] == detect._LINE_SPLIT.split(text, 4)[:4]
