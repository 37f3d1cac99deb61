"""A seeded, realistic corpus for tests and benchmarks: chat bodies and command outputs.

Chat bodies (OpenAI Chat, Responses and Anthropic Messages, one per JSONL line) mix request
prose with inline code, fenced code, paths, URLs and stack traces; command outputs (one file
each, with a ``.cmd`` sidecar or a ``$ command`` first line) come from test runners, builds,
package managers, linters and git, successes and failures. The same seed and size give the
same bytes on every machine.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from engine.jsvalues import JsonObject, JsonValue

_OPENERS = ("Could you please", "I think we should", "Can you", "Actually, I would like you to", "Basically,",
            "Please", "I was wondering if you could", "It would be really great if you could")
_VERBS = ("check", "look at", "refactor", "review", "fix", "rename", "document", "test", "simplify", "profile")
_OBJECTS = ("the configuration loader", "the database layer", "this function", "the request handler",
            "the application settings", "our build script", "the cache", "the retry logic", "the parser")
_TAILS = ("in order to make sure that it really works", "because it is just quite slow",
          "so that the tests simply pass", "before we actually release it", "since it fails on CI",
          "as soon as possible, if that is not too much trouble")
_INLINE = ("`src/app/config.py`", "`load_settings()`", "https://example.com/docs/setup", "/var/log/app.log",
           "`DATABASE_URL`", "`retry(max_attempts=3)`", "./scripts/deploy.sh", "v2.14.1")
_CODE = ("def load(path):\n    with open(path) as f:\n        return json.load(f)\n",
         "for (const item of items) {\n  if (!item.ok) throw new Error(`bad ${item.id}`);\n}\n",
         "SELECT id, name FROM users WHERE created_at > NOW() - INTERVAL '1 day';\n")
_TRACE = ("Traceback (most recent call last):\n  File \"src/app/main.py\", line 42, in run\n"
          "    result = handler(request)\nKeyError: 'user_id'\n")
_ANSWERS = ("Sure, I am happy to help with that. Basically, the issue is that the loader reads the file twice.",
            "Of course! I think the simplest fix is to cache the result of the call.",
            "Certainly. It looks like the test fails because the fixture is really not reset between runs.")


def _sentence(rng: random.Random) -> str:
    return (f"{rng.choice(_OPENERS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)} "
            f"{rng.choice(_TAILS)}, see {rng.choice(_INLINE)}.")


def _prose(rng: random.Random) -> str:
    parts = [" ".join(_sentence(rng) for _ in range(rng.randint(1, 4)))]
    if rng.random() < 0.5:
        parts.append("```\n" + rng.choice(_CODE) + "```")
    if rng.random() < 0.3:
        parts.append("I get this error:\n\n" + _TRACE)
    parts.append(" ".join(_sentence(rng) for _ in range(rng.randint(1, 3))))
    return "\n\n".join(parts)


def chat_body(rng: random.Random) -> JsonObject:
    turns = [("user", _prose(rng))]
    for _ in range(rng.randint(0, 2)):
        turns += [("assistant", rng.choice(_ANSWERS)), ("user", _prose(rng))]
    kind = rng.choice(("openai-chat", "openai-responses", "anthropic-messages"))
    if kind == "openai-chat":
        messages: list[JsonValue] = [{"role": "system", "content": "You are a coding agent."}]
        messages += [{"role": r, "content": c} for r, c in turns]
        return {"model": "gpt-4o", "messages": messages}
    if kind == "openai-responses":
        return {"model": "gpt-5-codex", "instructions": "You are a coding agent.",
                "input": [{"role": r, "content": [{"type": "input_text" if r == "user" else "output_text", "text": c}]}
                          for r, c in turns]}
    return {"model": "claude-sonnet-4", "max_tokens": 4096, "system": "You are a coding agent.",
            "messages": [{"role": r, "content": [{"type": "text", "text": c}]} for r, c in turns]}


def _pytest(rng: random.Random) -> tuple[str, str]:
    n = rng.randint(20, 300)
    failed = rng.random() < 0.4
    lines = ["============================= test session starts ==============================",
             "platform linux -- Python 3.11.7, pytest-8.3.2, pluggy-1.5.0", f"collected {n} items", ""]
    for i in range(rng.randint(3, 12)):
        lines.append(f"tests/test_mod{i}.py " + "." * rng.randint(5, 40) + f" [{min(100, (i + 1) * 9):3d}%]")
    if failed:
        lines += ["", "=================================== FAILURES ===================================",
                  "___________________________ test_parse_config ___________________________", "",
                  "    def test_parse_config():", ">       assert parse('a=1') == {'a': 2}",
                  "E       AssertionError: assert {'a': 1} == {'a': 2}", "", "tests/test_config.py:14: AssertionError",
                  "=========================== short test summary info ============================",
                  "FAILED tests/test_config.py::test_parse_config - AssertionError",
                  f"========================= 1 failed, {n - 1} passed in 3.21s ========================="]
    else:
        lines.append(f"============================== {n} passed in 2.{rng.randint(10, 99)}s ==============================")
    return "pytest", "\n".join(lines) + "\n"


def _npm(rng: random.Random) -> tuple[str, str]:
    lines = []
    for i in range(rng.randint(10, 60)):
        lines.append(f"npm http fetch GET 200 https://registry.npmjs.org/pkg-{i} {rng.randint(5, 900)}ms (cache miss)")
    if rng.random() < 0.3:
        lines += ["npm ERR! code ERESOLVE", "npm ERR! ERESOLVE unable to resolve dependency tree",
                  "npm ERR! Found: react@18.2.0"]
    else:
        lines.append(f"added {rng.randint(50, 900)} packages, and audited {rng.randint(900, 1200)} packages in 12s")
        lines.append("found 0 vulnerabilities")
    return "npm install", "\n".join(lines) + "\n"


def _cargo(rng: random.Random) -> tuple[str, str]:
    lines = [f"   Compiling crate-{i} v0.{rng.randint(1, 9)}.{rng.randint(0, 20)}" for i in range(rng.randint(10, 80))]
    if rng.random() < 0.4:
        lines += ["error[E0308]: mismatched types", " --> src/main.rs:12:18", "  |",
                  "12 |     let x: u32 = \"five\";", "  |            ---   ^^^^^^ expected `u32`, found `&str`",
                  "error: could not compile `app` (bin \"app\") due to 1 previous error"]
    else:
        lines.append(f"    Finished `dev` profile [unoptimized + debuginfo] target(s) in {rng.randint(2, 90)}.12s")
    return "cargo build", "\n".join(lines) + "\n"


def _git_status(rng: random.Random) -> tuple[str, str]:
    lines = ["On branch main", "Your branch is up to date with 'origin/main'.", "", "Changes not staged for commit:",
             '  (use "git add <file>..." to update what will be committed)',
             '  (use "git restore <file>..." to discard changes in working directory)']
    lines += [f"\tmodified:   src/module_{i}.py" for i in range(rng.randint(1, 15))]
    lines += ["", 'no changes added to commit (use "git add" and/or "git commit -a")']
    return "git status", "\n".join(lines) + "\n"


def _ruff(rng: random.Random) -> tuple[str, str]:
    n = rng.randint(0, 12)
    lines = [f"src/pkg/mod{i}.py:{rng.randint(1, 300)}:{rng.randint(1, 80)}: F401 [*] `os` imported but unused"
             for i in range(n)]
    lines.append(f"Found {n} errors." if n else "All checks passed!")
    return "ruff check .", "\n".join(lines) + "\n"


_OUTPUTS = (_pytest, _npm, _cargo, _git_status, _ruff)


def write_corpus(dest: str | Path, *, size: int, seed: int = 1) -> Path:
    """A corpus of about ``size`` bytes under ``dest``: ``chat/*.jsonl`` and ``outputs/``."""
    rng = random.Random(seed)
    root = Path(dest)
    (root / "chat").mkdir(parents=True, exist_ok=True)
    (root / "outputs").mkdir(parents=True, exist_ok=True)
    written = 0
    part = 0
    handle = (root / "chat" / f"part-{part:04d}.jsonl").open("w", encoding="utf-8")
    try:
        count = 0
        while written < size:
            if rng.random() < 0.6:
                line = json.dumps(chat_body(rng), ensure_ascii=False) + "\n"
                handle.write(line)
                written += len(line.encode("utf-8"))
                if handle.tell() > 8 << 20:  # JSONL files of at most ~8 MB
                    handle.close()
                    part += 1
                    handle = (root / "chat" / f"part-{part:04d}.jsonl").open("w", encoding="utf-8")
            else:
                command, text = rng.choice(_OUTPUTS)(rng)
                name = root / "outputs" / f"{count:06d}-{command.split()[0]}.txt"
                if rng.random() < 0.5:
                    name.write_text(text, encoding="utf-8")
                    name.with_suffix(".cmd").write_text(f"$ {command}\n", encoding="utf-8")
                else:
                    name.write_text(f"$ {command}\n{text}", encoding="utf-8")
                written += len(text)
                count += 1
    finally:
        handle.close()
    return root
