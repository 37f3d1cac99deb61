"""The engine's memo registry (``engine.memo``): every memo registered, ``clear()`` empties all,
and the memos the IDE reaches from pool threads hold up under concurrent use."""

from __future__ import annotations

import ast
import functools
import importlib
import pkgutil
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import engine
from engine import memo

ENGINE = Path(engine.__file__).parent
OPTIONAL = {"tiktoken", "distributed", "dask"}  # extras an engine module may need (see pyproject)


def _import_all_engine_modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages([str(ENGINE)], "engine."):
        if info.name.endswith("__main__"):
            continue
        try:
            importlib.import_module(info.name)
        except ImportError as exc:  # only an optional extra may be missing
            if exc.name is None or exc.name.split(".")[0] not in OPTIONAL:
                raise
            continue
        names.append(info.name)
    return names


# -- every memo is registered ------------------------------------------------------------------------------

_MUTATORS = {"append", "add", "clear", "pop", "popitem", "setdefault", "update", "extend", "insert", "remove",
             "discard", "__setitem__"}


def _memo_like_globals(tree: ast.Module) -> set[str]:
    """Module-level names bound to an empty dict/list/set that a function of the module fills or
    rebinds: a hand-made cache that ``engine.memo`` does not know about."""
    empties = set()
    for node in tree.body:
        target, value = None, None
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            target, value = node.targets[0].id, node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            target, value = node.target.id, node.value
        if target is None:
            continue
        empty = (isinstance(value, ast.Dict) and not value.keys) or (isinstance(value, ast.List) and not value.elts) \
            or (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                and value.func.id in {"dict", "list", "set", "OrderedDict"} and not value.args)
        if empty:
            empties.add(target)
    filled = set()
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Global):
                filled.update(node.names)
            elif isinstance(node, (ast.Assign, ast.AugAssign)):
                for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
                        filled.add(t.value.id)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name) and node.func.attr in _MUTATORS:
                filled.add(node.func.value.id)
    return empties & filled


def test_no_engine_module_makes_a_memo_of_its_own():
    """``functools.lru_cache``/``cache`` and hand-filled module-level tables go through
    ``engine.memo`` (a new one here would escape ``memo.clear()`` and its thread-safety rules)."""
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        if path == ENGINE / "memo.py":
            continue
        rel = path.relative_to(ENGINE.parent)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "functools":
                found += [f"{rel}:{node.lineno}: imports functools.{a.name}" for a in node.names
                          if a.name in {"lru_cache", "cache"}]
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == "functools" and node.attr in {"lru_cache", "cache"}:
                found.append(f"{rel}:{node.lineno}: uses functools.{node.attr}")
        found += [f"{rel}: module-level table {name} filled by its functions" for name in _memo_like_globals(tree)]
    assert not found, "make these with engine.memo (lru, MemoDict or register):\n" + "\n".join(found)


def test_the_scan_sees_a_hand_made_cache():
    """The source scan above is not blind: it flags the shapes it looks for."""
    tree = ast.parse("_SEEN = {}\n_LAST: list[int] = []\nCONST = {}\n"
                     "def f(k):\n    _SEEN[k] = 1\n    _LAST.append(k)\n    return CONST.get(k)\n")
    assert _memo_like_globals(tree) == {"_SEEN", "_LAST"}


def test_every_lru_cache_in_the_engine_is_registered():
    _import_all_engine_modules()
    names = set(memo.sizes())
    unregistered = []
    for module_name in _import_all_engine_modules():
        module = importlib.import_module(module_name)
        for attr, value in vars(module).items():
            if isinstance(value, functools._lru_cache_wrapper) and value.__module__ == module_name:
                if f"{module_name}.{value.__qualname__}" not in names:
                    unregistered.append(f"{module_name}.{attr}")
            elif isinstance(value, memo.MemoDict) and value.name not in names:
                unregistered.append(f"{module_name}.{attr}")
    assert not unregistered


# -- clear() empties every memo --------------------------------------------------------------------------------

def _engine_work() -> None:
    """A little of everything: regexes, a Caveman compression, an RTK run, the learner's scan."""
    from engine.caveman import PackSource, compress_text
    from engine.jsregex import compile_js
    from engine.paths import builtin_filters_dir, builtin_rules_dir
    from engine.rtk.builtin import load_builtin
    from engine.rtk.engine import process_rtk_text

    text = "Basically, I just really think that the build failed because of the cache.\n" * 20
    rx = compile_js(r"\b(?<word>re\w+)\b", "gi")
    assert rx.replace(text, "<$<word>>") != text
    compress_text(text, PackSource.from_dir(builtin_rules_dir()), {"enabled": True, "intensity": "full"})
    filters, _ = load_builtin(builtin_filters_dir(), "omniroute")
    output = "\n".join(f"   Compiling crate{i} v0.1.{i}" for i in range(300)) + "\nerror: build failed\n"
    process_rtk_text(output, "cargo build", {"enabled": True}, filters)


def test_clear_empties_every_registered_memo():
    _import_all_engine_modules()
    _engine_work()
    before = memo.sizes()
    filled = {name for name, size in before.items() if size}
    assert len(filled) >= 15, f"the work above should fill many memos, filled only {sorted(filled)}"
    memo.clear()
    after = memo.sizes()
    assert set(after) >= set(before)
    assert {name: size for name, size in after.items() if size} == {}


def test_work_after_clear_gives_the_same_answers():
    from engine.jsregex import compile_js

    subject = "é" * 300 + " Straße STRASSE strasse"
    first = [(m.index, m.match) for m in compile_js("stra(ss|ß)e", "giu").match_all(subject)]
    memo.clear()
    assert [(m.index, m.match) for m in compile_js("stra(ss|ß)e", "giu").match_all(subject)] == first


def test_memo_dict_is_bounded_and_evicts_the_oldest():
    box: memo.MemoDict[str, int] = memo.MemoDict("tests.test_memo.box", 3)
    for i, key in enumerate("abcd"):
        box[key] = i
    assert len(box) == 3 and "a" not in box and box.get("d") == 3 and box.get("a", -1) == -1
    box["b"] = 10  # an existing key is replaced in place, nothing evicted
    assert len(box) == 3 and box["b"] == 10 and "c" in box
    assert box.setdefault("c", 99) == 2 and box.setdefault("e", 5) == 5 and "b" not in box
    assert memo.sizes()["tests.test_memo.box"] == 3
    memo.clear()
    assert len(box) == 0
    with pytest.raises(ValueError, match="maxsize"):
        memo.MemoDict("tests.test_memo.empty", 0)


# -- concurrent use, as the IDE's pool threads do ----------------------------------------------------------------

def _regex_answers(seed: int) -> list[object]:
    """Regex work whose memos the IDE shares between threads: translation and compile caches,
    shared prepared subjects (long texts, several modes), case-folding tables, replacement
    templates. Sixteen distinct long subjects overflow the shared-subject memo (8) on purpose."""
    from engine.jsregex import compile_js

    out: list[object] = []
    for k in range(16):
        n = (seed + k) % 16
        subject = f"line {n}: Straße ÉCOLE école x{n}y\n" * (12 + n)  # ≥ 256 units: a shared subject
        for source, flags in ((r"stra(ss|ß)e", "gi"), (r"(?<w>\p{L}+)", "gu"), (r"^line (\d+)", "gm"),
                              (rf"x{n}y|É", "gi"), (r"[^\x00-\x7f]+", "g")):
            rx = compile_js(source, flags)
            out.append((source, flags, n, [(m.index, m.match) for m in rx.match_all(subject)]))
            out.append(rx.replace(subject, "[$&|$1]"))
    return out


def _caveman_and_rtk_answers(seed: int) -> list[object]:
    from engine.caveman import PackSource, compress_text
    from engine.paths import builtin_filters_dir, builtin_rules_dir
    from engine.rtk.builtin import load_builtin
    from engine.rtk.engine import process_rtk_text

    packs = PackSource.from_dir(builtin_rules_dir())
    filters, _ = load_builtin(builtin_filters_dir(), "omniroute")
    out: list[object] = []
    for k in range(3):
        n = (seed + k) % 3
        text = f"Basically I just really think that item {n} is, like, totally broken.\n" * (30 + n)
        result = compress_text(text, packs, {"enabled": True, "intensity": "full"})
        out.append((result.body, result.rules_applied))
        output = "\n".join(f"   Compiling crate{i} v0.{n}.{i}" for i in range(200 + n)) + "\nerror: failed\n"
        rtk = process_rtk_text(output, "cargo build", {"enabled": True}, filters)
        out.append((rtk.text, rtk.filter.id if rtk.filter else None, rtk.rules_applied))
    return out


@pytest.fixture
def no_regex_budget():
    """Eight busy threads on a shared CI core must not turn a slow call into a timeout (a
    different answer for a reason other than the memos)."""
    from engine.jsregex import get_default_timeout, set_default_timeout
    from engine.jsregex.runtime import _DEFAULT_TIMEOUT

    set_default_timeout(None)
    yield
    set_default_timeout(_DEFAULT_TIMEOUT)
    assert get_default_timeout() == _DEFAULT_TIMEOUT


@pytest.mark.slow
@pytest.mark.parametrize("work", [_regex_answers, _caveman_and_rtk_answers], ids=["jsregex", "caveman+rtk"])
def test_memos_under_concurrent_use_give_the_single_threaded_answers(work, no_regex_budget):
    memo.clear()
    expected = {seed: work(seed) for seed in range(4)}
    memo.clear()
    stop = threading.Event()
    clears = 0

    def clear_now_and_then() -> None:  # an IDE may drop its memos while workers run
        nonlocal clears
        while not stop.wait(0.005):
            memo.clear()
            clears += 1

    clearer = threading.Thread(target=clear_now_and_then)
    clearer.start()
    try:
        with ThreadPoolExecutor(max_workers=8) as pool:
            seeds = [seed for _ in range(2) for seed in range(4)]
            results = list(pool.map(lambda s: (s, work(s)), seeds))
    finally:
        stop.set()
        clearer.join()
    assert clears > 0
    for seed, answers in results:
        assert answers == expected[seed]
