#!/bin/sh
# The project's one-stop check: lint, types, tests. Its output is what .rtk/filters.json filters.
set -u
status=0
echo "==> ruff"; ruff check src tests || status=1
echo "==> mypy"; mypy src || status=1
echo "==> pytest"; pytest -q || status=1
if [ "$status" -eq 0 ]; then echo "check: all steps passed"; else echo "check: FAILED"; fi
exit "$status"
