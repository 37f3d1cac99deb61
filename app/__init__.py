"""Rulewright's desktop app: thin PySide6 views and view-models over ``engine``."""
