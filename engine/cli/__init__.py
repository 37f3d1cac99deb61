"""The ``rulewright`` command: no arguments opens the IDE, a subcommand runs headless.

A missing or broken dependency (or missing built-in data) ends in one line and exit status 2,
never in a result computed without it.

Start-up must stay fast (``rulewright --version`` ≤ 150 ms), so this module imports nothing
heavy: each subcommand lives in its own module, imported only when it is asked for, and the
GUI is imported only when no subcommand is given.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from engine import __version__

# name -> (module, one-line help). Each module defines ``configure(parser)`` and ``run(args)``,
# and, when it supports the batch contract, ``handle_request(request) -> dict``.
COMMANDS: dict[str, tuple[str, str]] = {
    "gui": ("engine.cli.gui", "open the IDE on a workspace (the default with no arguments)"),
    "validate": ("engine.cli.validate", "check packs, filter files, filters.json and trust.json"),
    "regex": ("engine.cli.regex", "run a JavaScript regular expression (V8 semantics)"),
    "hash": ("engine.cli.hash", "print the trust hash of a filters file as OmniRoute computes it"),
    "compress": ("engine.cli.compress", "Caveman-compress prose or a chat body"),
    "filter": ("engine.cli.filter", "RTK-filter command output"),
    "verify": ("engine.cli.verify", "run the inline tests[] of RTK filters"),
    "learn": ("engine.cli.learn", "draft an RTK filter from captured outputs of one command"),
    "trust": ("engine.cli.trust", "check or write .rtk/trust.json for a project"),
    "export": ("engine.cli.export", "export chosen filters as .rtk/filters.json or TOML"),
    "new": ("engine.cli.new", "start a new RTK filter (from a command) or Caveman rule pack"),
    "repair": ("engine.cli.repair", "run the tool-argument repair pipeline"),
    "grammar": ("engine.cli.grammar", "find and promote tool calls a model printed as text"),
    "params": ("engine.cli.params", "build AI request params as Cherry Studio would"),
    "eval": ("engine.cli.eval", "run packs and filters over a whole corpus: savings, losses, A/B"),
}

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def _requests_from_stdin(parser: argparse.ArgumentParser) -> None:
    """With ``--jsonl`` every request comes from stdin: the command line's required operands
    (``validate PATH...``, ``trust --check|--write``, ``export FILE...``) are not asked for."""
    for action in parser._actions:
        action.required = False
        if not action.option_strings and action.nargs == "+":
            action.nargs = "*"
    for group in parser._mutually_exclusive_groups:
        group.required = False


def _build_parser(command: str | None, batch: bool = False) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulewright",
        description="Author, preview, test and trust the rules that shrink what coding agents send to LLMs.",
    )
    parser.add_argument("--version", action="version", version=f"rulewright {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        if name == command:
            module = importlib.import_module(module_name)
            module.configure(sub_parser)
            if hasattr(module, "handle_request"):
                if batch:
                    _requests_from_stdin(sub_parser)
                sub_parser.add_argument(
                    "--jsonl", action="store_true",
                    help="batch mode: one JSON request per stdin line, one JSON response per stdout line",
                )
    return parser


def broken_installation(exc: ImportError) -> int:
    """One line instead of a traceback or, worse, a result computed without the missing part
    (a module, a declared dependency, or the built-in data: ``engine.paths.BrokenInstallation``)."""
    if "shared object" in str(exc):  # a compiled module (Qt) whose system library is missing
        print(f"rulewright: cannot import {exc.name or 'a compiled module'}: {exc} — install that system "
              "library (./dev ide installs Qt's)", file=sys.stderr)
    else:
        print(f"rulewright: broken installation: cannot import {exc.name or exc} — reinstall rulewright",
              file=sys.stderr)
    return EXIT_USAGE


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except ImportError as exc:
        return broken_installation(exc)


def _main(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        argv = ["gui"]
    command = next((a for a in argv if not a.startswith("-")), None)
    if command not in COMMANDS:
        command = None
    parser = _build_parser(command, batch="--jsonl" in argv)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    module = importlib.import_module(COMMANDS[args.command][0])
    for stream in (sys.stdout, sys.stderr):
        # a lone surrogate (JavaScript strings hold them; so do diagnostics quoting them) is
        # printed as its \udXXX escape instead of ending the command with UnicodeEncodeError
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    if getattr(args, "jsonl", False):
        from engine.cli.batch import run_jsonl

        return run_jsonl(module.handle_request)
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
