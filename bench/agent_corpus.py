"""A seeded corpus of realistic coding-agent sessions, for the Caveman benchmark.

Real agent traffic is dense with what Caveman must protect: chat turns mix prose with fenced
code, stack traces (Python and JavaScript), unified diffs, log lines, URLs, paths, shell
commands with ``$VARS``, CONST_CASE names, versions, JSON, emoji and CRLF line ends. The
generator draws every message from a seeded random source (no recorded session, no reference
text), so the same size and seed always give the same text.

    python -m bench.agent_corpus SIZE_BYTES [SEED] > sessions.txt
"""

from __future__ import annotations

import random
import sys

_MODULES = ("auth", "billing", "cache", "router", "worker", "parser", "store", "ui", "search", "queue")
_FUNCS = ("load_config", "handle_request", "parse_body", "retry_send", "flush", "render_page", "open_db",
          "resolve_path", "validate_token", "schedule_job", "fetchUser", "buildQuery", "applyPatch")
_ERRORS = ("TypeError", "ValueError", "KeyError", "RangeError", "ReferenceError", "Error", "RuntimeError")
_LEVELS = ("INFO", "WARN", "ERROR", "DEBUG")
_HOSTS = ("api.example.com", "docs.example.org", "github.com/acme/app", "registry.npmjs.org", "pypi.org/project")
_ASKS = ("Can you please look at why {f}() keeps failing in {m}?", "I think that the {m} module is basically broken "
         "after the last change.", "Could you please explain what this stack trace means?",
         "Here is my code, I would like you to make sure it handles the empty case.",
         "It seems like the tests in {m} are really flaky; thanks in advance for any help!",
         "I was wondering if we can simply remove the retry loop in order to make it faster.",
         "Please update the dependency and make sure the build still passes 🙏",
         "As mentioned before, the configuration is loaded twice. Is that expected?")
_ANSWERS = ("Sure! The problem is that {f}() returns None when the cache is empty, so the caller "
            "actually dereferences a missing value.", "I'll fix it by adding a guard before the loop. "
            "Note that the implementation also needs a test.", "Basically, the error comes from the "
            "authentication middleware: the token is validated before the request is parsed.",
            "Let me check the logs first. It appears that the worker restarts every few minutes.",
            "Here's the updated function. I've also added a comment explaining the edge case.",
            "The root cause is a race between the scheduler and the queue; we can avoid it in order to "
            "keep the ordering stable.")


def _ident(rng: random.Random) -> str:
    return rng.choice(_FUNCS)


def _prose(rng: random.Random, pool: tuple[str, ...], k: int) -> str:
    return " ".join(rng.choice(pool).format(f=_ident(rng), m=rng.choice(_MODULES)) for _ in range(k))


def _python_code(rng: random.Random) -> str:
    f, m = _ident(rng), rng.choice(_MODULES)
    body = [f"def {f}(path, retries={rng.randint(1, 5)}):",
            f'    """Load {m} settings from ``path``."""',
            "    for attempt in range(retries):",
            "        try:",
            "            with open(path) as fh:",
            "                return json.load(fh)",
            f"        except OSError as exc:  # MAX_RETRY_{rng.randint(1, 9)} reached?",
            "            log.warning('attempt %d failed: %s', attempt, exc)",
            "    raise RuntimeError(f'cannot read {path}')"]
    return "```python\n" + "\n".join(body) + "\n```"


def _js_code(rng: random.Random) -> str:
    f = _ident(rng)
    body = [f"export async function {f}(req, res) {{",
            f"  const url = `https://{rng.choice(_HOSTS)}/v{rng.randint(1, 3)}/items/${{req.params.id}}`;",
            "  const data = await fetch(url).then((r) => r.json());",
            "  if (!data || data.items.length === 0) {",
            "    return res.status(404).json({ error: 'not found' });",
            "  }",
            "  return res.json(data);  // process.env.API_KEY must be set",
            "}"]
    return "```js\n" + "\n".join(body) + "\n```"


def _python_trace(rng: random.Random) -> str:
    lines = ["Traceback (most recent call last):"]
    for _ in range(rng.randint(2, 6)):
        m, f = rng.choice(_MODULES), _ident(rng)
        lines.append(f'  File "/srv/app/{m}/{f}.py", line {rng.randint(10, 900)}, in {f}')
        lines.append(f"    result = {f}(ctx.{m}, timeout={rng.randint(1, 60)})")
    err = rng.choice(_ERRORS)
    lines.append(f"{err}: unexpected value for key '{rng.choice(_MODULES)}_id' (got None)")
    return "\n".join(lines)


def _js_trace(rng: random.Random) -> str:
    err = rng.choice(("TypeError", "ReferenceError", "Error"))
    lines = [f"{err}: Cannot read properties of undefined (reading '{_ident(rng)}')"]
    for _ in range(rng.randint(3, 7)):
        lines.append(f"    at {_ident(rng)} (/home/dev/app/src/{rng.choice(_MODULES)}/index.ts:"
                     f"{rng.randint(1, 400)}:{rng.randint(1, 80)})")
    lines.append("    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)")
    return "\n".join(lines)


def _diff(rng: random.Random) -> str:
    m, f = rng.choice(_MODULES), _ident(rng)
    a = rng.randint(10, 400)
    lines = [f"diff --git a/src/{m}/{f}.py b/src/{m}/{f}.py", "index 3f2a1c9..8b7d4e0 100644",
             f"--- a/src/{m}/{f}.py", f"+++ b/src/{m}/{f}.py", f"@@ -{a},7 +{a},9 @@ def {f}(self, request):",
             "     if request is None:", "-        return None", "+        raise ValueError('request is required')",
             f"     value = self.{m}.get(request.key)", "+    if value is None:",
             f"+        value = self.load_{m}(request.key)", "     return value"]
    return "```diff\n" + "\n".join(lines) + "\n```"


def _logs(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(3, 10)):
        level = rng.choice(_LEVELS)
        lines.append(f"2026-0{rng.randint(1, 9)}-{rng.randint(10, 28)}T{rng.randint(10, 23)}:{rng.randint(10, 59)}:"
                     f"{rng.randint(10, 59)}.{rng.randint(100, 999)}Z {level:5} [{rng.choice(_MODULES)}] "
                     f"request_id={rng.getrandbits(48):012x} GET /api/v2/{rng.choice(_MODULES)}?page="
                     f"{rng.randint(1, 50)} -> {rng.choice((200, 200, 304, 404, 500))} in {rng.randint(1, 900)} ms")
    return "```\n" + "\n".join(lines) + "\n```"


def _shell(rng: random.Random) -> str:
    cmds = [f"$ export DATABASE_URL=postgres://localhost:5432/{rng.choice(_MODULES)}",
            f"$ pip install 'requests>=2.{rng.randint(20, 32)}.0' pytest==8.{rng.randint(0, 3)}.1",
            f"$ pytest tests/{rng.choice(_MODULES)} -x -q -k {_ident(rng)}",
            f"$ git log --oneline -{rng.randint(2, 9)} -- src/{rng.choice(_MODULES)}/",
            "$ echo $HOME $PATH"]
    return "```sh\n" + "\n".join(rng.sample(cmds, rng.randint(2, len(cmds)))) + "\n```"


def _json(rng: random.Random) -> str:
    ident, name, limit = rng.randint(1, 9999), rng.choice(_MODULES), rng.randint(1, 500)
    host, item = rng.choice(_HOSTS), rng.randint(1, 999)
    return (f'```json\n{{"id": {ident}, "name": "{name}", "tags": ["a", "b"], "limits": {{"MAX_ITEMS": {limit}}}, '
            f'"url": "https://{host}/items/{item}"}}\n```')


def _inline(rng: random.Random) -> str:
    bits = (f"see `{_ident(rng)}()` in `src/{rng.choice(_MODULES)}/main.py`",
            f"the docs at https://{rng.choice(_HOSTS)}/guide#section-{rng.randint(1, 9)} say so",
            f"bumped to v{rng.randint(1, 4)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}",
            f"the flag `--{rng.choice(_MODULES)}-timeout` defaults to {rng.randint(1, 60)}s",
            f"./scripts/{rng.choice(_MODULES)}.sh fails with exit code {rng.randint(1, 127)}",
            f"[issue #{rng.randint(100, 999)}](https://github.com/acme/app/issues/{rng.randint(100, 999)})",
            f"set REQUEST_TIMEOUT_MS={rng.randint(100, 9000)} before {_ident(rng)}.run()")
    return rng.choice(bits)


_BLOCKS = (_python_code, _js_code, _python_trace, _js_trace, _diff, _logs, _shell, _json)


def message(rng: random.Random) -> str:
    user = rng.random() < 0.5
    parts = [_prose(rng, _ASKS if user else _ANSWERS, rng.randint(1, 3))]
    for _ in range(rng.randint(0, 3)):
        if rng.random() < 0.6:
            parts.append(rng.choice(_BLOCKS)(rng))
        parts.append(_prose(rng, _ASKS if user else _ANSWERS, rng.randint(1, 2)) + " (" + _inline(rng) + ").")
    text = "\n\n".join(parts)
    if rng.random() < 0.05:
        text = text.replace("\n", "\r\n")  # a pasted Windows log
    return ("User: " if user else "Assistant: ") + text


def sessions(size: int, seed: int = 18) -> str:
    """At least ``size`` characters of session text, whole messages only (cut after the message
    that reaches it: no fence left open by the cut)."""
    rng = random.Random(seed)
    out, total = [], 0
    while total < size:
        msg = message(rng)
        out.append(msg)
        total += len(msg) + 2
    return "\n\n".join(out)


def session_messages(size: int, seed: int = 18) -> list[dict[str, str]]:
    """The messages ``sessions`` joins, as a chat body's ``messages`` (each a user turn, so the
    whole text is compressed, as the one-part text is; the speaker's prefix left off): at least
    ``size`` characters of content. Real traffic arrives so, a body of many short messages, and
    a run's cost per message is what this measures."""
    rng = random.Random(seed)
    out, total = [], 0
    while total < size:
        content = message(rng).split(": ", 1)[1]
        out.append({"role": "user", "content": content})
        total += len(content)
    return out


if __name__ == "__main__":
    sys.stdout.write(sessions(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 18))
