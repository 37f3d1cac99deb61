"""A seeded corpus of command outputs for ``bench_learn.py``: several runs of 16 common commands.

Each generator writes one run of its tool the way the tool prints it (our own rendering of each
tool's well-known output shapes, not copied from any capture), with random package names, file
names, counts, timings and sizes, and either a clean run or a failing one. The same seed gives
the same text, so the benchmark's figures are reproducible. ``corpus(runs)`` yields
``(name, command, [(text, failing), ...])``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

WORDS = ["ledger", "invoice", "report", "account", "parser", "cache", "auth", "billing", "search", "export",
         "import", "user", "session", "config", "router", "worker", "queue", "mailer", "audit", "tax"]
PKGS = ["serde", "tokio", "anyhow", "rand", "regex", "clap", "libc", "syn", "quote", "itoa", "bytes", "hyper",
        "tracing", "once_cell", "memchr", "log", "futures", "mio", "smallvec", "thiserror"]
NPM = ["react", "zod", "lodash", "axios", "express", "chalk", "debug", "semver", "uuid", "ws", "yargs",
       "commander", "dotenv", "glob", "minimist", "rimraf", "inflight", "har-validator", "request", "querystring"]
PYPKG = ["requests", "numpy", "pandas", "httpx", "pydantic", "attrs", "click", "rich", "urllib3", "certifi",
         "idna", "charset-normalizer", "six", "python-dateutil", "pytz", "packaging", "anyio", "sniffio"]


def _ver(rng: random.Random) -> str:
    return f"{rng.randint(0, 9)}.{rng.randint(0, 40)}.{rng.randint(0, 300)}"


def _dur(rng: random.Random, hi: float = 30.0) -> str:
    return f"{rng.uniform(0.1, hi):.2f}s"


def _names(rng: random.Random, pool: list[str], k: int) -> list[str]:
    return rng.sample(pool, min(k, len(pool)))


def npm_install(rng: random.Random, fail: bool) -> str:
    out = []
    for name in _names(rng, NPM[12:], rng.randint(1, 4)):
        out.append(f"npm WARN deprecated {name}@{_ver(rng)}: This module is not supported, and leaks memory. "
                   "Do not use it.")
    if fail:
        dep = rng.choice(NPM[:8])
        out += ["npm ERR! code ERESOLVE", "npm ERR! ERESOLVE unable to resolve dependency tree", "npm ERR! ",
                f"npm ERR! While resolving: {rng.choice(WORDS)}-web@{_ver(rng)}",
                f"npm ERR! Found: {dep}@{_ver(rng)}", f"npm ERR! node_modules/{dep}",
                f"npm ERR!   {dep}@\"^{_ver(rng)}\" from the root project", "npm ERR! ",
                "npm ERR! Fix the upstream dependency conflict, or retry",
                "npm ERR! this command with --force or --legacy-peer-deps", "npm ERR! ",
                f"npm ERR! A complete log of this run can be found in: /home/dev/.npm/_logs/"
                f"2026-11-{rng.randint(10, 28)}T0{rng.randint(1, 9)}_12_55_{rng.randint(100, 999)}Z-debug-0.log"]
        return "\n".join(out) + "\n"
    n = rng.randint(120, 900)
    out += ["", f"added {n} packages, and audited {n + 1} packages in {rng.randint(2, 40)}s", "",
            f"{rng.randint(10, 120)} packages are looking for funding", "  run `npm fund` for details", ""]
    vulns = rng.choice([0, 0, 2, 3])
    if vulns:
        out += [f"{vulns} moderate severity vulnerabilities", "", "To address all issues, run:",
                "  npm audit fix", "", "Run `npm audit` for details."]
    else:
        out.append("found 0 vulnerabilities")
    return "\n".join(out) + "\n"


def pip_install(rng: random.Random, fail: bool) -> str:
    out = []
    for name in _names(rng, PYPKG, rng.randint(4, 10)):
        v = _ver(rng)
        if rng.random() < 0.3:
            out.append(f"Requirement already satisfied: {name}>={v} in ./.venv/lib/python3.12/site-packages "
                       f"(from -r requirements.txt (line {rng.randint(1, 20)})) ({v})")
            continue
        size = rng.uniform(0.05, 40)
        out.append(f"Collecting {name}=={v} (from -r requirements.txt (line {rng.randint(1, 20)}))")
        out.append(f"  Downloading {name.replace('-', '_')}-{v}-py3-none-any.whl.metadata ({rng.randint(2, 9)}.{rng.randint(0, 9)} kB)")
        out.append(f"  Downloading {name.replace('-', '_')}-{v}-py3-none-any.whl ({size:.1f} MB)")
        out.append(f"     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ {size:.1f}/{size:.1f} MB "
                   f"{rng.uniform(2, 60):.1f} MB/s eta 0:00:00")
    if fail:
        bad = rng.choice(["torch", "tensorflow", "ledgerkit", "fastjsonx"])
        out += [f"ERROR: Could not find a version that satisfies the requirement {bad}=={rng.randint(9, 99)}.0 "
                f"(from versions: {_ver(rng)}, {_ver(rng)})",
                f"ERROR: No matching distribution found for {bad}=={rng.randint(9, 99)}.0"]
        return "\n".join(out) + "\n"
    installed = [f"{n}-{_ver(rng)}" for n in _names(rng, PYPKG, rng.randint(3, 8))]
    out += [f"Installing collected packages: {', '.join(i.rsplit('-', 1)[0] for i in installed)}",
            f"Successfully installed {' '.join(installed)}"]
    return "\n".join(out) + "\n"


def yarn_install(rng: random.Random, fail: bool) -> str:
    out = [f"yarn install v1.22.{rng.randint(10, 22)}", "[1/4] Resolving packages...", "[2/4] Fetching packages..."]
    for name in _names(rng, NPM, rng.randint(0, 3)):
        out.append(f"warning {name}@{_ver(rng)}: The engine \"vscode\" appears to be invalid.")
    if fail:
        out += [f"error An unexpected error occurred: \"https://registry.yarnpkg.com/{rng.choice(NPM)}/-/x-{_ver(rng)}"
                ".tgz: Request failed \\\"404 Not Found\\\"\".",
                f"info If you think this is a bug, please open a bug report with the information provided in "
                f"\"/home/dev/{rng.choice(WORDS)}/yarn-error.log\".",
                "info Visit https://yarnpkg.com/en/docs/cli/install for documentation about this command."]
        return "\n".join(out) + "\n"
    out += ["[3/4] Linking dependencies..."]
    for name in _names(rng, NPM, rng.randint(1, 4)):
        out.append(f"warning \" > {name}@{_ver(rng)}\" has unmet peer dependency \"{rng.choice(NPM)}@^{_ver(rng)}\".")
    out += ["[4/4] Building fresh packages...", "success Saved lockfile.", f"Done in {_dur(rng, 60)}."]
    return "\n".join(out) + "\n"


def cargo_build(rng: random.Random, fail: bool) -> str:
    out = []
    if rng.random() < 0.5:
        out += ["    Updating crates.io index", f"     Locking {rng.randint(20, 200)} packages to latest compatible versions"]
        for name in _names(rng, PKGS, rng.randint(2, 6)):
            out.append(f"  Downloaded {name} v{_ver(rng)}")
    for name in _names(rng, PKGS, rng.randint(6, 16)):
        out.append(f"   Compiling {name} v{_ver(rng)}")
    crate = rng.choice(WORDS)
    out.append(f"   Compiling {crate} v0.{rng.randint(1, 9)}.{rng.randint(0, 9)} (/home/dev/{crate})")
    if fail:
        file = f"src/{rng.choice(WORDS)}.rs"
        line = rng.randint(10, 300)
        out += ["error[E0308]: mismatched types", f"  --> {file}:{line}:{rng.randint(5, 40)}", "   |",
                f"{line} |     let total: u64 = self.lines.iter().map(|l| l.amount).sum::<f64>();",
                "   |                ---   ^^^^^^^^^^^^^^^^^^ expected `u64`, found `f64`", "   |                |",
                "   |                expected due to this", "",
                "For more information about this error, try `rustc --explain E0308`.",
                f"error: could not compile `{crate}` (lib) due to 1 previous error"]
        return "\n".join(out) + "\n"
    if rng.random() < 0.5:
        file = f"src/{rng.choice(WORDS)}.rs"
        out += ["warning: unused import: `std::fmt`", f" --> {file}:{rng.randint(1, 9)}:5", "  |",
                "1 | use std::fmt;", "  |     ^^^^^^^^", "  |",
                "  = note: `#[warn(unused_imports)]` on by default", "",
                f"warning: `{crate}` (lib) generated 1 warning"]
    profile = rng.choice(["`release` profile [optimized]", "`dev` profile [unoptimized + debuginfo]"])
    out.append(f"    Finished {profile} target(s) in {_dur(rng, 90)}")
    return "\n".join(out) + "\n"


def gradle_build(rng: random.Random, fail: bool) -> str:
    out = ["Starting a Gradle Daemon (subsequent builds will be faster)"] if rng.random() < 0.5 else []
    modules = _names(rng, WORDS, rng.randint(1, 3))
    for mod in modules:
        for task in ["compileJava", "processResources", "classes", "jar", "compileTestJava", "test"]:
            suffix = rng.choice(["", "", " UP-TO-DATE", " NO-SOURCE"])
            out.append(f"> Task :{mod}:{task}{suffix}")
            if fail and task == "compileJava" and mod == modules[-1]:
                cls = rng.choice(WORDS).capitalize()
                path = f"/home/dev/app/{mod}/src/main/java/com/acme/{cls}.java"
                out += [f"{path}:{rng.randint(10, 200)}: error: cannot find symbol",
                        f"        return {rng.choice(WORDS)}Service.total();", "               ^",
                        f"  symbol:   variable {rng.choice(WORDS)}Service", f"  location: class {cls}",
                        "1 error", "", f"> Task :{mod}:compileJava FAILED", "", "FAILURE: Build failed with an exception.",
                        "", "* What went wrong:", f"Execution failed for task ':{mod}:compileJava'.",
                        "> Compilation failed; see the compiler error output for details.", "", "* Try:",
                        "> Run with --stacktrace option to get the stack trace.",
                        "> Run with --info or --debug option to get more log output.", "",
                        f"BUILD FAILED in {rng.randint(2, 60)}s", f"{rng.randint(3, 20)} actionable tasks: "
                        f"{rng.randint(1, 3)} executed, {rng.randint(1, 9)} up-to-date"]
                return "\n".join(out) + "\n"
    out += ["", f"BUILD SUCCESSFUL in {rng.randint(2, 90)}s",
            f"{rng.randint(5, 30)} actionable tasks: {rng.randint(1, 9)} executed, {rng.randint(1, 20)} up-to-date"]
    return "\n".join(out) + "\n"


def docker_build(rng: random.Random, fail: bool) -> str:
    out = ["#0 building with \"default\" instance using docker driver", "",
           "#1 [internal] load build definition from Dockerfile",
           f"#1 transferring dockerfile: {rng.randint(300, 2000)}B done", "#1 DONE 0.0s", "",
           f"#2 [internal] load metadata for docker.io/library/node:{rng.choice(['20', '22'])}-alpine",
           f"#2 DONE {rng.uniform(0.3, 2):.1f}s", "", "#3 [internal] load .dockerignore",
           "#3 transferring context: 2B done", "#3 DONE 0.0s", ""]
    steps = ["WORKDIR /app", "COPY package*.json ./", "RUN npm ci", "COPY . .", "RUN npm run build"]
    n = 4
    for i, step in enumerate(steps, start=2):
        cached = rng.random() < 0.4 and step != "RUN npm run build"
        out.append(f"#{n} [{i}/{len(steps) + 1}] {step}")
        if cached:
            out.append(f"#{n} CACHED")
        elif step.startswith("RUN"):
            for _ in range(rng.randint(2, 6)):
                out.append(f"#{n} {rng.uniform(0.2, 30):.3f} {rng.choice(['npm notice', 'npm WARN deprecated ' + rng.choice(NPM) + '@' + _ver(rng) + ': unsupported', 'added ' + str(rng.randint(100, 900)) + ' packages in ' + str(rng.randint(2, 40)) + 's', '> web@1.0.0 build', '> vite build'])}")
            if fail and step == "RUN npm run build":
                out += [f"#{n} {rng.uniform(1, 9):.3f} src/{rng.choice(WORDS)}.ts({rng.randint(1, 90)},{rng.randint(1, 40)}): "
                        "error TS2322: Type 'string' is not assignable to type 'number'.",
                        f"#{n} ERROR: process \"/bin/sh -c npm run build\" did not complete successfully: exit code: 2",
                        "------", f" > [{i}/{len(steps) + 1}] RUN npm run build:", "------",
                        "Dockerfile:6", "--------------------", "   4 |     RUN npm ci", "   5 |     COPY . .",
                        "   6 | >>> RUN npm run build", "--------------------",
                        "ERROR: failed to solve: process \"/bin/sh -c npm run build\" did not complete successfully: "
                        "exit code: 2"]
                return "\n".join(out) + "\n"
            out.append(f"#{n} DONE {rng.uniform(1, 60):.1f}s")
        else:
            out.append(f"#{n} DONE {rng.uniform(0, 1):.1f}s")
        out.append("")
        n += 1
    digest = "".join(rng.choice("0123456789abcdef") for _ in range(64))
    out += [f"#{n} exporting to image", f"#{n} exporting layers {rng.uniform(1, 9):.1f}s done",
            f"#{n} writing image sha256:{digest} done", f"#{n} naming to docker.io/library/api:latest done",
            f"#{n} DONE {rng.uniform(1, 9):.1f}s"]
    return "\n".join(out) + "\n"


def pytest_run(rng: random.Random, fail: bool) -> str:
    files = [f"tests/test_{w}.py" for w in _names(rng, WORDS, rng.randint(4, 9))]
    total = 0
    out = ["=" * 29 + " test session starts " + "=" * 30,
           f"platform linux -- Python 3.12.{rng.randint(1, 8)}, pytest-8.3.{rng.randint(1, 5)}, pluggy-1.5.0",
           f"rootdir: /home/dev/{rng.choice(WORDS)}", "configfile: pyproject.toml",
           f"plugins: anyio-4.{rng.randint(1, 6)}.0, cov-5.0.0"]
    body = []
    failed_file = rng.choice(files) if fail else None
    for i, f in enumerate(files):
        k = rng.randint(2, 14)
        total += k
        marks = "".join("F" if f == failed_file and j == k // 2 else "." for j in range(k))
        pct = int(100 * (i + 1) / len(files))
        body.append(f"{f} {marks:<50} [{pct:>3}%]")
    out += [f"collected {total} items", "", *body, ""]
    if fail:
        test = f"test_{rng.choice(WORDS)}_{rng.choice(['total', 'rounding', 'parse', 'export'])}"
        line = rng.randint(10, 120)
        out += ["=" * 35 + " FAILURES " + "=" * 35, "_" * 20 + f" {test} " + "_" * 20, "",
                f"    def {test}():", f"        value = compute({rng.randint(1, 99)})",
                f">       assert value == {rng.randint(100, 999)}", f"E       assert {rng.randint(1, 99)} == "
                f"{rng.randint(100, 999)}", "", f"{failed_file}:{line}: AssertionError",
                "=" * 26 + " short test summary info " + "=" * 27,
                f"FAILED {failed_file}::{test} - assert {rng.randint(1, 99)} == {rng.randint(100, 999)}",
                "=" * 20 + f" 1 failed, {total - 1} passed in {_dur(rng, 9)} " + "=" * 20]
    else:
        out.append("=" * 30 + f" {total} passed in {_dur(rng, 9)} " + "=" * 30)
    return "\n".join(out) + "\n"


def jest_run(rng: random.Random, fail: bool) -> str:
    suites = [f"src/{w}/{w}.test.ts" for w in _names(rng, WORDS, rng.randint(5, 12))]
    out = []
    bad = rng.choice(suites) if fail else None
    tests = 0
    for s in suites:
        k = rng.randint(2, 9)
        tests += k
        if s == bad:
            name = f"{rng.choice(WORDS)} › {rng.choice(['rounds totals', 'parses dates', 'rejects empty input'])}"
            out += [f"FAIL {s}", f"  ● {name}", "", "    expect(received).toBe(expected) // Object.is equality", "",
                    f"    Expected: {rng.randint(1, 99)}", f"    Received: {rng.randint(100, 999)}", "",
                    f"      {rng.randint(10, 80)} |   it('{name.split(' › ')[1]}', () => {{",
                    f"    > {rng.randint(10, 80)} |     expect(total(lines)).toBe(42);",
                    "         |                           ^", "",
                    f"      at Object.<anonymous> ({s}:{rng.randint(10, 80)}:{rng.randint(5, 30)})", ""]
        else:
            out.append(f"PASS {s}" + (f" ({rng.uniform(1, 9):.2f} s)" if rng.random() < 0.3 else ""))
    failed = 1 if fail else 0
    out += ["", f"Test Suites: {failed and '1 failed, '}{len(suites) - failed} passed, {len(suites)} total",
            f"Tests:       {failed and '1 failed, '}{tests - failed} passed, {tests} total",
            "Snapshots:   0 total", f"Time:        {rng.uniform(1, 20):.3f} s", "Ran all test suites."]
    return "\n".join(out) + "\n"


def go_test(rng: random.Random, fail: bool) -> str:
    mod = f"github.com/acme/{rng.choice(WORDS)}"
    pkgs = _names(rng, WORDS, rng.randint(5, 12))
    bad = rng.choice(pkgs) if fail else None
    out = []
    for p in pkgs:
        if p == bad:
            test = f"Test{rng.choice(WORDS).capitalize()}{rng.choice(['Total', 'Parse', 'Export'])}"
            out += [f"--- FAIL: {test} ({rng.uniform(0, 1):.2f}s)",
                    f"    {p}_test.go:{rng.randint(10, 200)}: got {rng.randint(1, 99)}, want {rng.randint(100, 999)}",
                    "FAIL", f"FAIL\t{mod}/{p}\t{rng.uniform(0, 2):.3f}s"]
        elif rng.random() < 0.25:
            out.append(f"?   \t{mod}/{p}\t[no test files]")
        else:
            out.append(f"ok  \t{mod}/{p}\t{rng.uniform(0, 2):.3f}s" + (" (cached)" if rng.random() < 0.3 else ""))
    if fail:
        out.append("FAIL")
    return "\n".join(out) + "\n"


def cargo_test(rng: random.Random, fail: bool) -> str:
    crate = rng.choice(WORDS)
    out = [f"   Compiling {n} v{_ver(rng)}" for n in _names(rng, PKGS, rng.randint(0, 5))]
    out += [f"   Compiling {crate} v0.{rng.randint(1, 9)}.0 (/home/dev/{crate})",
            f"    Finished `test` profile [unoptimized + debuginfo] target(s) in {_dur(rng, 40)}",
            f"     Running unittests src/lib.rs (target/debug/deps/{crate}-{rng.getrandbits(64):016x})", ""]
    names = [f"{rng.choice(WORDS)}::tests::{rng.choice(WORDS)}_{rng.choice(['works', 'rounds', 'parses', 'fails_cleanly'])}"
             for _ in range(rng.randint(4, 14))]
    names = list(dict.fromkeys(names))
    bad = rng.choice(names) if fail else None
    out.append(f"running {len(names)} tests")
    for n in names:
        out.append(f"test {n} ... {'FAILED' if n == bad else 'ok'}")
    out.append("")
    if fail:
        out += ["failures:", "", f"---- {bad} stdout ----",
                f"thread '{bad}' panicked at src/{bad.split('::')[0]}.rs:{rng.randint(10, 300)}:{rng.randint(5, 30)}:",
                "assertion `left == right` failed", f"  left: {rng.randint(1, 99)}", f" right: {rng.randint(100, 999)}",
                "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace", "", "",
                "failures:", f"    {bad}", "",
                f"test result: FAILED. {len(names) - 1} passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; "
                f"finished in {rng.uniform(0, 1):.2f}s", "", "error: test failed, to rerun pass `--lib`"]
    else:
        out.append(f"test result: ok. {len(names)} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
                   f"finished in {rng.uniform(0, 1):.2f}s")
        out += ["", "   Doc-tests " + crate, "", "running 0 tests", "",
                "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s", ""]
    return "\n".join(out) + "\n"


def eslint_run(rng: random.Random, fail: bool) -> str:
    out = [""]
    errors = warnings = 0
    for f in _names(rng, WORDS, rng.randint(2, 6)):
        out.append(f"/home/dev/web/src/{f}/{rng.choice(['index', 'view', 'store'])}.tsx")
        for _ in range(rng.randint(1, 4)):
            is_error = fail and rng.random() < 0.6
            errors += is_error
            warnings += not is_error
            rule, text = rng.choice([("no-unused-vars", f"'{rng.choice(WORDS)}' is defined but never used"),
                                     ("react-hooks/exhaustive-deps", "React Hook useEffect has a missing dependency"),
                                     ("@typescript-eslint/no-explicit-any", "Unexpected any. Specify a different type"),
                                     ("eqeqeq", "Expected '===' and instead saw '=='")])
            out.append(f"  {rng.randint(1, 300)}:{rng.randint(1, 60)}  {'error  ' if is_error else 'warning'}  {text}  {rule}")
        out.append("")
    total = errors + warnings
    out.append(f"✖ {total} problem{'s' if total != 1 else ''} ({errors} error{'s' if errors != 1 else ''}, "
               f"{warnings} warning{'s' if warnings != 1 else ''})")
    if fail and rng.random() < 0.5:
        out.append(f"  {rng.randint(1, errors or 1)} error and 0 warnings potentially fixable with the `--fix` option.")
    return "\n".join(out) + "\n"


def ruff_check(rng: random.Random, fail: bool) -> str:
    if not fail:
        return "All checks passed!\n"
    out = []
    n = rng.randint(2, 9)
    fixable = 0
    for _ in range(n):
        code, text, fix = rng.choice([("F401", "`os` imported but unused", True),
                                      ("E501", "Line too long (101 > 100)", False),
                                      ("F841", f"Local variable `{rng.choice(WORDS)}` is assigned to but never used", True),
                                      ("B006", "Do not use mutable data structures for argument defaults", False)])
        fixable += fix
        out.append(f"src/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py:{rng.randint(1, 300)}:{rng.randint(1, 80)}: "
                   f"{code} {'[*] ' if fix else ''}{text}")
    out.append(f"Found {n} error{'s' if n != 1 else ''}.")
    if fixable:
        out.append(f"[*] {fixable} fixable with the `--fix` option.")
    return "\n".join(out) + "\n"


MYPY_MESSAGES = ['Incompatible types in assignment (expression has type "str", variable has type "int")  [assignment]',
                 'Argument 1 to "total" has incompatible type "str"; expected "Decimal"  [arg-type]',
                 'Item "None" of "Optional[User]" has no attribute "name"  [union-attr]']


def mypy_run(rng: random.Random, fail: bool) -> str:
    checked = rng.randint(20, 200)
    if not fail:
        return f"Success: no issues found in {checked} source files\n"
    out = []
    files = set()
    n = rng.randint(1, 6)
    for _ in range(n):
        f = f"src/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py"
        files.add(f)
        message = rng.choice(MYPY_MESSAGES)
        out.append(f"{f}:{rng.randint(1, 300)}: error: {message}")
        if rng.random() < 0.3:
            out.append(f"{f}:{rng.randint(1, 300)}: note: See https://mypy.rtfd.io/en/stable/_refs.html#code-union-attr")
    out.append(f"Found {n} error{'s' if n != 1 else ''} in {len(files)} file{'s' if len(files) != 1 else ''} "
               f"(checked {checked} source files)")
    return "\n".join(out) + "\n"


def terraform_plan(rng: random.Random, fail: bool) -> str:
    out = []
    resources = [f"aws_{rng.choice(['s3_bucket', 'iam_role', 'lambda_function', 'security_group', 'instance'])}."
                 f"{rng.choice(WORDS)}" for _ in range(rng.randint(5, 14))]
    resources = list(dict.fromkeys(resources))
    for r in resources:
        out.append(f"{r}: Refreshing state... [id={rng.choice(WORDS)}-{rng.getrandbits(32):08x}]")
    out.append("")
    if fail:
        out += ["╷", "│ Error: Unsupported argument", "│",
                f"│   on main.tf line {rng.randint(10, 200)}, in resource \"{resources[0].split('.')[0]}\" "
                f"\"{resources[0].split('.')[1]}\":", f"│  {rng.randint(10, 200)}:   acl_policy = \"private\"", "│",
                "│ An argument named \"acl_policy\" is not expected here.", "╵"]
        return "\n".join(out) + "\n"
    out += ["Terraform used the selected providers to generate the following execution plan. Resource actions are",
            "indicated with the following symbols:", "  + create", "  ~ update in-place", "",
            "Terraform will perform the following actions:", ""]
    add = change = 0
    for r in rng.sample(resources, rng.randint(1, min(4, len(resources)))):
        if rng.random() < 0.5:
            add += 1
            out += [f"  # {r} will be created", f"  + resource \"{r.split('.')[0]}\" \"{r.split('.')[1]}\" {{",
                    "      + arn           = (known after apply)", "      + id            = (known after apply)",
                    f"      + name          = \"{rng.choice(WORDS)}-{rng.choice(['prod', 'stage'])}\"",
                    "      + tags_all      = (known after apply)", "    }", ""]
        else:
            change += 1
            out += [f"  # {r} will be updated in-place", f"  ~ resource \"{r.split('.')[0]}\" \"{r.split('.')[1]}\" {{",
                    f"        id   = \"{rng.choice(WORDS)}\"", "      ~ tags = {", f"          ~ \"Owner\" = \"{rng.choice(WORDS)}\" -> "
                    f"\"{rng.choice(WORDS)}\"", "        }", "        # (4 unchanged attributes hidden)", "    }", ""]
    out += [f"Plan: {add} to add, {change} to change, 0 to destroy.", "",
            "─" * 77, "",
            "Note: You didn't use the -out option to save this plan, so Terraform can't guarantee to take exactly "
            "these actions if you run \"terraform apply\" now."]
    return "\n".join(out) + "\n"


def kubectl_rollout(rng: random.Random, fail: bool) -> str:
    deploy = rng.choice(WORDS)
    replicas = rng.randint(2, 6)
    out = []
    for i in range(rng.randint(2, 6)):
        out.append(f"Waiting for deployment \"{deploy}\" rollout to finish: {min(i, replicas - 1)} of {replicas} "
                   "updated replicas are available...")
    if rng.random() < 0.5:
        out.append(f"Waiting for deployment \"{deploy}\" rollout to finish: 1 old replicas are pending termination...")
    if fail:
        out.append(f"error: deployment \"{deploy}\" exceeded its progress deadline")
    else:
        out.append(f"deployment \"{deploy}\" successfully rolled out")
    return "\n".join(out) + "\n"


def tsc_build(rng: random.Random, fail: bool) -> str:
    out = [f"> {rng.choice(WORDS)}-web@{_ver(rng)} build", "> tsc -p tsconfig.json && vite build", ""]
    if fail:
        for _ in range(rng.randint(1, 5)):
            out.append(f"src/{rng.choice(WORDS)}/{rng.choice(['index', 'api', 'model'])}.ts({rng.randint(1, 300)},"
                       f"{rng.randint(1, 40)}): error TS{rng.choice(['2322', '2339', '2345', '7006'])}: "
                       f"{rng.choice(['Type string is not assignable to type number.', 'Property total does not exist on type Invoice.'])}")
        out.append(f"Found {len(out) - 3} errors.")
        return "\n".join(out) + "\n"
    out += [f"vite v5.{rng.randint(0, 4)}.{rng.randint(0, 9)} building for production...",
            f"transforming ({rng.randint(10, 900)}) src/main.tsx"]
    n = rng.randint(80, 900)
    out += [f"✓ {n} modules transformed.", "rendering chunks (1)...", "computing gzip size..."]
    for name in ["index.html", "assets/index.css", "assets/index.js", "assets/vendor.js"]:
        out.append(f"dist/{name.replace('index.', 'index-' + format(rng.getrandbits(32), '08x') + '.') if 'assets' in name else name}"
                   f"   {rng.uniform(0.3, 400):.2f} kB │ gzip: {rng.uniform(0.2, 120):.2f} kB")
    out.append(f"✓ built in {_dur(rng, 9)}")
    return "\n".join(out) + "\n"


GENERATORS: dict[str, tuple[str, Callable[[random.Random, bool], str]]] = {
    "npm-install": ("npm install", npm_install),
    "pip-install": ("pip install -r requirements.txt", pip_install),
    "yarn-install": ("yarn install", yarn_install),
    "cargo-build": ("cargo build --release", cargo_build),
    "gradle-build": ("./gradlew build", gradle_build),
    "npm-run-build": ("npm run build", tsc_build),
    "docker-build": ("docker build -t api .", docker_build),
    "pytest": ("pytest -q", pytest_run),
    "jest": ("npx jest", jest_run),
    "go-test": ("go test ./...", go_test),
    "cargo-test": ("cargo test", cargo_test),
    "eslint": ("npx eslint .", eslint_run),
    "ruff": ("ruff check .", ruff_check),
    "mypy": ("mypy src", mypy_run),
    "terraform-plan": ("terraform plan", terraform_plan),
    "kubectl-rollout": ("kubectl rollout status deploy/api", kubectl_rollout),
}
# Learn from a clean run, a failing run and a clean run; hold out a failing, a clean and a failing one.
PLAN = (False, True, False, True, False, True)


def corpus(seed: int = 20) -> Iterator[tuple[str, str, list[tuple[str, bool]]]]:
    for name, (command, make) in GENERATORS.items():
        runs = []
        for i, fail in enumerate(PLAN):
            rng = random.Random(f"{seed}:{name}:{i}")
            runs.append((make(rng, fail), fail))
        yield name, command, runs
