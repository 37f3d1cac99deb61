"""``rulewright gui``: the only command that imports Qt, and only when it runs."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("workspace", nargs="?", help="workspace folder (default: the example workspace)")
    parser.add_argument("--screenshot", metavar="PNG", help="render the window offscreen, save it, exit")
    parser.add_argument("--panel", help="panel to show in front (with --screenshot)")
    parser.add_argument("--size", default="1400x900", help="window size WxH (with --screenshot)")


def run(args: argparse.Namespace) -> int:
    from app.main import launch

    return launch(args)
