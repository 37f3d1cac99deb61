"""``rulewright export FILTER_FILE... -o PATH``: one ``.rtk/filters.json`` (or TOML) from filter files."""

from __future__ import annotations

import argparse
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILTER_FILE", help="filter files (*.json, *.toml) to export")
    parser.add_argument("-o", "--output", required=True, metavar="PATH",
                        help="output file, or a folder (filters.json / filters.toml inside it)")
    parser.add_argument("--toml", action="store_true", help="write RTK TOML v1 instead of JSON (lossy, warned)")
    parser.add_argument("--with-trust", action="store_true",
                        help="also write trust.json beside the output, from the bytes just written")
    parser.add_argument("--profile", choices=("omniroute", "strict"), default="omniroute")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace) -> int:
    import json

    from engine.rtk.export import ExportError, export_json, export_toml
    from engine.rtk.trust import TrustWriteError

    exporter = export_toml if args.toml else export_json
    try:
        result = exporter(args.files, args.output, with_trust=args.with_trust, profile=args.profile)
    except ExportError as exc:
        for d in exc.diagnostics:
            print(d.format(), file=sys.stderr)
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except TrustWriteError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"{exc.filename or args.output}:1:1: error: {exc.strerror or exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    else:
        for d in result.diagnostics:
            print(d.format(), file=sys.stderr)
        print(f"wrote {result.path}: {len(result.filter_ids)} filter(s)")
        if result.test_outcomes:
            passed = sum(1 for o in result.test_outcomes if o.passed)
            print(f"inline tests after export: {passed}/{len(result.test_outcomes)} pass (OmniRoute semantics)")
        if result.trust is not None:
            for key, digest in result.trust.entries.items():
                print(f"trusted in {result.trust.trust_path}: {key} = {digest}")
    errors = [d for d in result.diagnostics if d.level == "error"]
    return 1 if errors else 0
