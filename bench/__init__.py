"""Benchmarks: ``python -m bench`` (or ``./dev bench``) runs every ``bench_*.py`` here."""
