"""A seeded mutation fuzzer over the project's own valid inputs, for every CLI command.

Seeds are the packs in ``rules/``, the filters in ``filters/``, the example workspace's trust file
and samples, and the playground samples in ``resources/samples`` — never anything from
``../shared``. A mutation either rewrites one value of a parsed seed into something hostile (a
lone surrogate, an integer of 5,000 digits, ``1e308``, nesting 100,000 deep, a catastrophic or
uncompilable pattern, a replacement that expands 100,000-fold …) or damages the bytes (flips,
cuts, invalid UTF-8). Each case is run in-process (``harness.run_cli``) and judged by
``Outcome.problems``: no traceback, exit code in {0, 1, 2}, JSON where JSON was asked for.

``python -m tests.fuzz.mutate --seconds 300 --seed 7`` runs it for longer and prints every
finding; the pytest suite runs it for a fixed budget.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .harness import Outcome, run_cli

REPO = Path(__file__).resolve().parents[2]

# raw JSON text spliced in where a value was: what json.dumps cannot produce
RAW = ["1" * 5000, "1e400", "1e308", "-1e308", "1" + "0" * 400, "[" * 100_000 + "]" * 100_000,
       '{"a":' * 3000 + "1" + "}" * 3000, '"\\ud800"', '"a\\udfffb"', "-0", "123456789012345678901234567890"]
HOSTILE: list[object] = [
    "", " ", "\ud800", "a\udc00b", "(a+)+$", "(a|a)*b", "(?:a{1000}){1000}", "(?:(?:a{100}){100}){100}",
    "\\q{" + "a" * 1000 + "}", "[\\q{" + "ab|" * 400 + "}]", "(" * 300 + "a" + ")" * 300, "$&" * 2000, "$1$2$<n>$$",
    "(?<n>a)\\k<n>", "\\p{Foo}", "a{99999999999}", "a{2,1}", "[z-a]", "(?<=a+)b", "\\u{110000}", "(?i:a)",
    "x" * 100_000, "(.*)*" * 20, "\\b\\B" * 100, "((a)|b)+" * 30,
    0, -1, 2 ** 53 + 1, 1.5, 1e308, -1e308, True, False, None, [], {}, [None], {"": None}, ["\ud800"],
]
FLAGS = ["", "g", "gi", "v", "u", "vu", "gimsuyd", "gg", "z", "\ud800", "gv"]


def _seed_files() -> dict[str, list[Path]]:
    example = REPO / "resources" / "example-workspace"
    return {
        "pack": sorted(REPO.glob("rules/*/*.json"))[:40] + sorted(example.glob("rules/*/*.json")),
        "filter": sorted(REPO.glob("filters/*.json"))[:60] + sorted(example.glob("filters/*.json")),
        "trust": sorted(example.glob(".rtk/trust.json")),
        "params": sorted(REPO.glob("resources/samples/params/*.json")),
        "repair": sorted(REPO.glob("resources/samples/repair/*.json")),
        "text": sorted(p for p in example.glob("samples/*") if p.suffix in (".txt", ".log")),
    }


class _Raw:
    """A marker replaced by raw JSON text after ``json.dumps``."""

    def __init__(self, text: str) -> None:
        self.text = text


def _dump(value: object) -> str:
    raws: list[str] = []

    def encode(v):
        if isinstance(v, _Raw):
            raws.append(v.text)
            return f"\x00RAW{len(raws) - 1}\x00"
        if isinstance(v, dict):
            return {k: encode(x) for k, x in v.items()}
        if isinstance(v, list):
            return [encode(x) for x in v]
        return v

    text = json.dumps(encode(value), ensure_ascii=True)
    for i, raw in enumerate(raws):
        text = text.replace(f'"\\u0000RAW{i}\\u0000"', raw)
    return text


def _paths(value: object, prefix: tuple = ()) -> Iterator[tuple]:
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value[:50]):
            yield from _paths(child, (*prefix, index))


def _replace(value: object, path: tuple, new: object) -> object:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    copy = list(value)  # type: ignore[arg-type]
    copy[head] = _replace(copy[head], rest, new)
    return copy


def hostile_value(rng: random.Random) -> object:
    roll = rng.random()
    if roll < 0.25:
        return _Raw(rng.choice(RAW))
    if roll < 0.35:
        return rng.choice(FLAGS)
    return rng.choice(HOSTILE)


def mutate_value(value: object, rng: random.Random, rounds: int = 3) -> object:
    """``value`` with 1..rounds of its values (or keys) replaced by hostile ones."""
    for _ in range(rng.randint(1, rounds)):
        paths = list(_paths(value))
        path = rng.choice(paths)
        if path and isinstance(path[-1], str) and rng.random() < 0.15:
            # a hostile key instead of a value
            parent = _paths_get(value, path[:-1])
            if isinstance(parent, dict):
                key = rng.choice(["\ud800", "", "x" * 1000, "$schema", "__proto__", "unknownKey"])
                value = _replace(value, path[:-1], {**parent, key: parent[path[-1]]})
                continue
        value = _replace(value, path, hostile_value(rng))
    return value


def _paths_get(value: object, path: tuple) -> object:
    for step in path:
        value = value[step]  # type: ignore[index]
    return value


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(5)
        if not data:
            data += b"{"
        i = rng.randrange(len(data))
        if op == 0:
            data[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            del data[i:]
        elif op == 2:
            data[i:i] = rng.choice([b"\xff", b"\xed\xa0\x80", b"\x00", b"\\ud800", b"\r", b"\xef\xbb\xbf", b"[[[["])
        elif op == 3:
            data[i:i] = data[i:i + rng.randint(1, 200)] * rng.randint(2, 50)
        else:
            del data[i:i + rng.randint(1, 50)]
    return bytes(data)


@dataclass
class Case:
    argv: list[str]
    stdin: bytes = b""
    files: dict[str, bytes] = field(default_factory=dict)  # relative path -> content
    json_out: bool = False

    def run(self, root: Path) -> Outcome:
        for rel, content in self.files.items():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        argv = [a.replace("{root}", str(root)) for a in self.argv]
        return run_cli(argv, self.stdin)


def _mutated(seed: Path, rng: random.Random) -> bytes:
    data = seed.read_bytes()
    if rng.random() < 0.25:
        return mutate_bytes(data, rng)
    try:
        value = json.loads(data)
    except ValueError:
        return mutate_bytes(data, rng)
    return _dump(mutate_value(value, rng)).encode("utf-8")


def _text(seeds: dict[str, list[Path]], rng: random.Random) -> bytes:
    base = rng.choice(seeds["text"]).read_bytes() if seeds["text"] else b"hello world\n"
    return mutate_bytes(base, rng) if rng.random() < 0.5 else base


def _json_flag(rng: random.Random) -> list[str]:
    return ["--json"] if rng.random() < 0.5 else []


def case_builders(seeds: dict[str, list[Path]]) -> list[Callable[[random.Random], Case]]:
    def pick(kind, rng):
        return rng.choice(seeds[kind])

    def validate(rng):
        kind = rng.choice(["pack", "filter", "trust", "params", "repair"])
        seed = pick(kind, rng)
        name = ".rtk/trust.json" if kind == "trust" else f"in/{seed.name}"
        flag = _json_flag(rng)
        return Case(["validate", f"{{root}}/{name}", *flag], files={name: _mutated(seed, rng)}, json_out=bool(flag))

    def compress(rng):
        seed = pick("pack", rng)
        flag = _json_flag(rng)
        text = _text(seeds, rng) if rng.random() < 0.7 else ("`a` " * 5000).encode()
        return Case(["compress", "{root}/text.txt", "--rules", "{root}/rules", "--language", seed.parent.name,
                     "--intensity", rng.choice(["lite", "full", "ultra"]), *flag],
                    files={f"rules/{seed.parent.name}/{seed.name}": _mutated(seed, rng), "text.txt": text},
                    json_out=bool(flag))

    def filter_file(rng):
        seed = pick("filter", rng)
        flag = _json_flag(rng)
        return Case(["filter", "{root}/out.txt", "--filter", f"{{root}}/{seed.name}", *flag],
                    files={seed.name: _mutated(seed, rng), "out.txt": _text(seeds, rng)}, json_out=bool(flag))

    def verify(rng):
        seed = pick("filter", rng)
        flag = _json_flag(rng)
        return Case(["verify", f"{{root}}/{seed.name}", *flag], files={seed.name: _mutated(seed, rng)},
                    json_out=bool(flag))

    def export(rng):
        seed = pick("filter", rng)
        toml = ["--toml"] if rng.random() < 0.5 else []
        return Case(["export", f"{{root}}/{seed.name}", "-o", "{root}/out/filters." + ("toml" if toml else "json"),
                     *toml], files={seed.name: _mutated(seed, rng)})

    def project(rng):
        seed = pick("filter", rng)
        trust = pick("trust", rng) if seeds["trust"] else None
        files = {".rtk/filters.json": _mutated(seed, rng), "out.txt": _text(seeds, rng)}
        if trust is not None:
            files[".rtk/trust.json"] = _mutated(trust, rng)
        if rng.random() < 0.5:
            flag = _json_flag(rng)
            return Case(["trust", "{root}", "--check", *flag], files=files, json_out=bool(flag))
        return Case(["filter", "{root}/out.txt", "--project", "{root}", "--json"], files=files, json_out=True)

    def params(rng):
        seed = pick("params", rng)
        flag = _json_flag(rng)
        return Case(["params", "{root}/p.json", *flag], files={"p.json": _mutated(seed, rng)}, json_out=bool(flag))

    def repair(rng):
        seed = pick("repair", rng)
        value = json.loads(seed.read_bytes())
        value = mutate_value(value, rng)
        schema = value.get("schema", {}) if isinstance(value, dict) else {}
        args = value.get("args", {}) if isinstance(value, dict) else {}
        flag = _json_flag(rng)
        return Case(["repair", "--schema", "{root}/s.json", "{root}/a.json", *flag],
                    files={"s.json": _dump(schema).encode(), "a.json": _dump(args).encode()}, json_out=bool(flag))

    def regex(rng):
        pattern = rng.choice([h for h in HOSTILE if isinstance(h, str)] + ["a", "(a)(b)?", "\\w+"])
        replace = ["--replace", rng.choice(["$&" * 1000, "$1", "x", "$<n>"])] if rng.random() < 0.4 else []
        flag = _json_flag(rng)
        return Case(["regex", pattern, "--flags", rng.choice(FLAGS), *replace, "{root}/t.txt", *flag],
                    files={"t.txt": _text(seeds, rng)}, json_out=bool(flag))

    def grammar(rng):
        flag = _json_flag(rng)
        return Case(["grammar", "{root}/t.txt", *flag], files={"t.txt": _text(seeds, rng)}, json_out=bool(flag))

    def jsonl(rng):
        command = rng.choice(["regex", "compress", "filter", "repair", "params", "grammar", "hash"])
        lines = []
        for _ in range(rng.randint(1, 4)):
            if command == "regex":
                request = {"pattern": rng.choice(["a", "(a)", "\\w+"]), "flags": "g", "input": "aaa", "op": "replace",
                           "replacement": "$&"}
            elif command == "compress":
                request = {"text": "Please note that the function is basically working.", "intensity": "full"}
            elif command == "filter":
                request = {"output": "line 1\nline 2\n", "command": "git status"}
            elif command == "repair":
                request = {"schema": {"type": "object"}, "args": {"a": 1}}
            elif command == "params":
                request = json.loads(pick("params", rng).read_bytes())
            elif command == "grammar":
                request = {"text": "<tool_call>{}</tool_call>"}
            else:
                request = {"path": "{root}/missing.json"}
            line = _dump(mutate_value(request, rng)).encode()
            if rng.random() < 0.2:
                line = mutate_bytes(line, rng).replace(b"\n", b" ")
            lines.append(line)
        return Case([command, "--jsonl"], stdin=b"\n".join(lines) + b"\n")

    return [validate, compress, filter_file, verify, export, project, params, repair, regex, grammar, jsonl]


@dataclass
class Finding:
    argv: list[str]
    problems: list[str]
    detail: str
    seed: int


def replay(case_seed: int) -> tuple[Case, Outcome]:
    """Run the one case a finding's ``seed=`` names again."""
    rng = random.Random(case_seed)
    case = rng.choice(case_builders(_seed_files()))(rng)
    with tempfile.TemporaryDirectory(prefix="rwfuzz-") as root:
        return case, case.run(Path(root))


def fuzz(seconds: float, seed: int = 0, on_finding: Callable[[Finding], None] | None = None) -> tuple[int, list[Finding]]:
    """Run cases for about ``seconds``; returns (cases run, findings)."""
    seeds = _seed_files()
    builders = case_builders(seeds)
    findings: list[Finding] = []
    deadline = time.monotonic() + seconds
    count = 0
    while time.monotonic() < deadline:
        case_seed = seed * 1_000_003 + count  # replay(case_seed) runs this case again
        rng = random.Random(case_seed)
        case = rng.choice(builders)(rng)
        with tempfile.TemporaryDirectory(prefix="rwfuzz-") as root:
            outcome = case.run(Path(root))
        count += 1
        problems = outcome.problems(json_out=case.json_out)
        if problems:
            finding = Finding(case.argv, problems, (outcome.crash or outcome.err)[-3000:], case_seed)
            findings.append(finding)
            if on_finding:
                on_finding(finding)
    return count, findings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    def show(f: Finding) -> None:
        text = f"seed={f.seed} argv={f.argv[:3]} problems={f.problems}\n{f.detail[-1500:]}\n"
        print(text.encode("utf-8", "backslashreplace").decode("utf-8"), flush=True)

    count, findings = fuzz(args.seconds, args.seed, show)
    print(f"{count} cases, {len(findings)} findings")


if __name__ == "__main__":
    main()
