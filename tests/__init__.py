"""Rulewright's tests: the tree mirrors the packages (tests/engine/<area>, tests/app/…); every folder
is a package under ``tests``, so module names never clash and helpers import by package path."""
