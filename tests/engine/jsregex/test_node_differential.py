"""Differential check against Node (spec §16): skipped where ``node`` is not installed.

Patterns are generated from a fixed seed (nested groups, quantifiers, lookarounds,
backreferences, Annex B escapes) and run through both V8 and this layer; every answer —
syntax error text, matches with groups and UTF-16 indices, replace output — must agree.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess

import pytest

from engine.cli.regex import handle_request

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

NODE_SCRIPT = r"""
const lines = require('fs').readFileSync(0, 'utf8').split('\n').filter(Boolean);
const conv = (m, input, d) => {
  const o = {index: m.index, cpIndex: [...input.slice(0, m.index)].length, match: m[0],
    groups: Array.from(m).slice(1).map(x => x === undefined ? null : x),
    named: m.groups ? Object.fromEntries(Object.entries(m.groups).map(([k, v]) => [k, v ?? null])) : {}};
  if (d) { o.indices = Array.from(m.indices).map(x => x ?? null);
    o.namedIndices = m.indices.groups ? Object.fromEntries(Object.entries(m.indices.groups).map(([k, v]) => [k, v ?? null])) : {}; }
  return o;
};
for (const line of lines) {
  const r = JSON.parse(line); let out;
  try {
    const re = new RegExp(r.pattern, r.flags);
    if (r.op === 'replace') out = {result: r.input.replace(re, r.replacement)};
    else {
      const g = new RegExp(r.pattern, r.flags.includes('g') ? r.flags : r.flags + 'g');
      out = {matches: [...r.input.matchAll(g)].map(m => conv(m, r.input, r.flags.includes('d')))};
      if (!r.flags.includes('g')) { const m = re.exec(r.input); out.exec = m ? conv(m, r.input, r.flags.includes('d')) : null; }
    }
  } catch (e) { out = {error: e.message}; }
  process.stdout.write(JSON.stringify(out) + '\n');
}
"""

LEAVES = ["a", "b", ".", "[ab]", "[^a]", r"\w", r"\b", r"\B", "^", "$", "", r"\s", r"\d", "k", "ſ", r"\x41",
          r"\u0062", r"\a", "{", "]", r"\8", r"\01", r"\cJ", "(?:)", "😀", r"\p{L}", "[a-c]", r"[\w-]"]
FLAGS = ["", "g", "i", "gi", "m", "gm", "s", "u", "gu", "iu", "y", "gy", "d", "dg", "v", "gimsu"]
INPUT_CHARS = "aabbck x\n\rAK\u212a\u017fé😀_1"


def _pattern(rng: random.Random, depth: int, state: dict[str, int]) -> str:
    r = rng.random()
    if depth > 3 or r < 0.3:
        return rng.choice(LEAVES)
    if r < 0.45:
        state["groups"] += 1
        name = f"?<n{state['groups']}>" if rng.random() < 0.3 else ""
        return f"({name}{_pattern(rng, depth + 1, state)})"
    if r < 0.55:
        return f"(?:{_pattern(rng, depth + 1, state)}|{_pattern(rng, depth + 1, state)})"
    if r < 0.7:
        quantifier = rng.choice(["*", "+", "?", "{0,2}", "{2}", "{1,3}", "*?", "+?", "??", "{2,}"])
        return f"(?:{_pattern(rng, depth + 1, state)}){quantifier}"
    if r < 0.78:
        return rng.choice(["(?=", "(?!", "(?<=", "(?<!"]) + _pattern(rng, depth + 1, state) + ")"
    if r < 0.85 and state["groups"]:
        return "\\" + str(rng.randint(1, state["groups"] + 1))
    return _pattern(rng, depth + 1, state) + _pattern(rng, depth + 1, state)


def _requests(seed: int, count: int) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        request = {"pattern": _pattern(rng, 0, {"groups": 0}), "flags": rng.choice(FLAGS),
                   "op": rng.choice(["matches", "matches", "replace"]),
                   "input": "".join(rng.choice(INPUT_CHARS) for _ in range(rng.randint(0, 10)))}
        if request["op"] == "replace":
            request["replacement"] = rng.choice(["-", "[$1]", "$2$1", "<$&>", "$<n1>", "($`|$')", "$$"])
        out.append(request)
    return out


def _v8(requests: list[dict]) -> list[dict]:
    data = "".join(json.dumps(r) + "\n" for r in requests)
    proc = subprocess.run([NODE, "-e", NODE_SCRIPT], input=data, capture_output=True, text=True, check=True,
                          encoding="utf-8", errors="surrogatepass")
    return [json.loads(line) for line in proc.stdout.split("\n") if line]


@pytest.mark.slow
def test_agrees_with_v8_on_generated_patterns() -> None:
    requests = _requests(20261130, 800)
    expected = _v8(requests)
    mismatches = []
    for request, want in zip(requests, expected):
        got = handle_request(request)
        if "error" in want:
            ok = got.get("error") == want["error"]
        else:
            ok = all(got.get(key) == value for key, value in want.items())
        if not ok:
            mismatches.append((request, want, got))
    assert mismatches == []
