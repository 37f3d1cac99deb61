"""``rulewright hash FILE``: the trust hash OmniRoute stores in ``.rtk/trust.json``."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.jsvalues import JsonObject
    from engine.rtk.hashing import TrustHash


def configure(parser: argparse.ArgumentParser) -> None:
    from engine.cli.common import allow_intermixed

    allow_intermixed(parser)
    parser.add_argument("files", nargs="*", metavar="FILE", help="filter file(s) to hash; - reads standard input")
    parser.add_argument("--profile", choices=("omniroute", "strict"), default="omniroute",
                        help="omniroute: hash the UTF-8-decoded text (default); strict: hash raw bytes (VT-Q1)")
    parser.add_argument("--json", action="store_true", help="print a JSON object (an array of them for several files)")
    parser.epilog = ("One file: the hash alone; several: 'HASH  PATH' lines. "
                     "Exit status: 0 hashed, 1 a file could not be read, 2 usage error.")


def run(args: argparse.Namespace) -> int:
    import json

    from engine.rtk.hashing import trust_hash_file

    if args.files.count("-") > 1:
        print("rulewright hash: error: standard input (-) can be read only once", file=sys.stderr)
        return 2
    if not args.files:
        print("rulewright hash: error: give at least one FILE (or use --jsonl)", file=sys.stderr)
        return 2
    status = 0
    documents = []
    for name in args.files:
        try:
            result = _hash_stdin(args.profile) if name == "-" else trust_hash_file(name, args.profile)
            if result is None:
                return 2
        except OSError as exc:
            print(f"{name}:1:1: error: cannot read file: {exc.strerror or exc}", file=sys.stderr)
            status = 1
            continue
        for diag in result.diagnostics:
            print(diag.format(), file=sys.stderr)
        if args.json:
            documents.append({"path": name, **result.to_dict()})
        elif len(args.files) > 1:
            print(f"{result.sha256}  {name}")
        else:
            print(result.sha256)
    if args.json and (documents or len(args.files) > 1):
        # one JSON document on stdout: the object for one FILE, an array of them for several
        print(json.dumps(documents[0] if len(args.files) == 1 and documents else documents))
    return status


def _hash_stdin(profile: str) -> TrustHash | None:
    """The trust hash of the bytes on standard input (``cat filters.json | rulewright hash -``)."""
    from engine.cli.common import usage_error
    from engine.rtk.hashing import trust_hash_bytes

    if sys.stdin is None or sys.stdin.isatty():
        usage_error("hash", "no input: give a FILE, or pipe the file to standard input")
        return None
    from engine.cli.common import read_stdin_bytes

    return trust_hash_bytes(read_stdin_bytes(sys.stdin), profile, path="<stdin>")


def handle_request(request: dict[str, Any]) -> JsonObject:
    from engine.rtk.hashing import trust_hash_file

    path = request.get("path")
    if not isinstance(path, str) or not path:
        return {"error": "request needs a \"path\" string"}
    profile = request.get("profile", "omniroute")
    if profile not in ("omniroute", "strict"):
        return {"error": f"unknown profile {profile!r}"}
    result = trust_hash_file(path, profile)
    response = result.to_dict()
    return response
