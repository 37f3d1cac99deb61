"""From the command line of the samples to ``match.commands``, an id, a label and a category.

The filter should activate on the *tool and subcommand* (``cargo build``, ``go test``,
``npm run lint``), never on the arguments of one run (``--release``, ``./...``, a file name).
Launchers that only run the real tool (``npx``, ``python -m``, ``uv run``, ``bundle exec``) are
kept in the pattern, as hand-written filters do, so the pattern names what was typed.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from engine.rtk.learn.normalise import js_escape

_LAUNCHERS = {"npx", "pnpx", "bunx", "sudo", "time", "env", "nice", "exec"}
_WRAPPERS = {("python", "-m"), ("python3", "-m"), ("uv", "run"), ("bundle", "exec"), ("poetry", "run"),
             ("pipenv", "run"), ("go", "tool")}
_RUNS_SCRIPTS = {("npm", "run"), ("pnpm", "run"), ("yarn", "run"), ("bun", "run")}
# Tools whose first argument is a target or a path, never a subcommand.
_NO_SUBCOMMAND = {"pytest", "jest", "vitest", "mocha", "eslint", "tsc", "mypy", "flake8", "pylint", "rubocop",
                  "shellcheck", "hadolint", "prettier", "webpack", "make", "gcc", "clang", "ls", "grep", "rg",
                  "find", "du", "df", "ps", "tree", "ping", "curl", "wget", "ssh", "rsync", "yamllint",
                  "ansible-playbook", "golangci-lint", "pyright", "oxlint", "phpunit", "rspec"}
_SUBCOMMAND = re.compile(r"^[a-z][a-z0-9:_-]*$")
# Tools and subcommands by category (our own table; unknown tools are "generic").
_CATEGORY_WORDS = {
    "test": {"test", "pytest", "jest", "vitest", "mocha", "rspec", "phpunit", "nextest", "playwright", "ava", "tap"},
    "package": {"install", "add", "ci", "sync", "update", "upgrade", "pip", "poetry", "composer", "brew", "restore",
                "fetch", "download", "audit"},
    "build": {"build", "check", "compile", "lint", "eslint", "ruff", "mypy", "tsc", "clippy", "vet", "make",
              "gradle", "mvn", "webpack", "vite", "biome", "prettier", "flake8", "pylint", "gcc", "clang",
              "golangci-lint", "rubocop", "shellcheck", "typecheck"},
    "infra": {"terraform", "tofu", "kubectl", "helm", "ansible-playbook", "pulumi", "systemctl"},
    "docker": {"docker", "podman", "buildah"},
    "git": {"git", "jj"},
    "cloud": {"aws", "gcloud", "az", "gh"},
}


@dataclass(frozen=True)
class CommandShape:
    words: tuple[str, ...]  # program (launchers included) and subcommand
    pattern: str  # the match.commands regex
    filter_id: str
    label: str
    category: str


def command_shape(command: str) -> CommandShape:
    """The program and subcommand of ``command`` (its last ``&&``/``;`` segment)."""
    from engine.rtk.detect import last_command_segment

    segment = last_command_segment(command.strip())
    try:
        argv = shlex.split(segment)
    except ValueError:
        argv = segment.split()
    while argv and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", argv[0]):  # FOO=1 cmd
        argv = argv[1:]
    if not argv:
        raise ValueError("the command is empty")
    words: list[str] = []
    i = 0
    while i < len(argv) and argv[i] in _LAUNCHERS:
        words.append(argv[i])
        i += 1
    if i >= len(argv):
        raise ValueError(f"no program in {command!r}")
    program = argv[i].rsplit("/", 1)[-1] if not argv[i].startswith("./") else argv[i]
    words.append(program)
    i += 1
    if i < len(argv) and (program, argv[i]) in _WRAPPERS and i + 1 < len(argv):
        words += [argv[i], argv[i + 1]]
        i += 2
    tool = words[-1]
    if tool not in _NO_SUBCOMMAND and i < len(argv) and _SUBCOMMAND.match(argv[i]) and not _is_path_like(argv[i]):
        words.append(argv[i])
        if (program, argv[i]) in _RUNS_SCRIPTS and i + 1 < len(argv) and _SUBCOMMAND.match(argv[i + 1]):
            words.append(argv[i + 1])
    pattern = "^" + r"\s+".join(_word_pattern(w) for w in words) + r"(?![\w-])"
    core = [w for w in words if (w not in _LAUNCHERS and w not in ("-m", "run", "exec")) or w == words[-1]]
    filter_id = re.sub(r"[^a-z0-9]+", "-", "-".join(core).lower()).strip("-") or "learned"
    return CommandShape(tuple(words), pattern, filter_id, " ".join(core) + " (learned)", _category(words))


def _word_pattern(word: str) -> str:
    if word in ("python", "python3"):
        return r"python3?"
    if word in ("pip", "pip3"):
        return r"pip3?"
    return js_escape(word)


def _is_path_like(arg: str) -> bool:
    return "/" in arg or "." in arg


def _category(words: list[str]) -> str:
    for category, names in _CATEGORY_WORDS.items():
        if any(w in names for w in words[1:][::-1]) and category in ("test", "package"):
            return category
    for w in reversed(words):
        for category, names in _CATEGORY_WORDS.items():
            if w in names:
                return category
    return "generic"
