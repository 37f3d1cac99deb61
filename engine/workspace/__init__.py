"""The IDE's Qt-free core: documents, format-keeping JSON edits, workspace scanning, recovery.

Everything here runs without a display so the CLI and the tests can use it; ``app/`` wraps it
in views.
"""
