"""Shared widgets of the tests, trust, repair and params panels (JSON panes, diff, notes, trees)."""
