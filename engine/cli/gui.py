"""``rulewright gui``: the only command that imports Qt, and only when it runs."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("workspace", nargs="?",
                        help="workspace folder, or a file to open (default: the last or the example workspace)")
    parser.add_argument("--screenshot", metavar="PNG", help="render the window offscreen, save it as PNG, exit")
    parser.add_argument("--panel", metavar="NAME", help="panel to bring to the front (e.g. diagnostics)")
    parser.add_argument("--size", default="1400x900", metavar="WxH", help="window size (default 1400x900)")


def run(args: argparse.Namespace) -> int:
    from app.main import launch

    return launch(args)
