"""View-models of the live previews: what the Caveman and RTK preview panels draw, Qt-free.

The engines compute every explanation (``engine.caveman.explain``, ``engine.rtk`` traces); these
modules only reshape them for drawing: a word-level diff between input and output
(``word_diff``), shaded spans and plain-word notes (``marks``), the Caveman preview with the rule
that caused each change and per-category savings (``caveman_preview``, its packs in
``caveman_packs``), the RTK preview with per-stage line counts for the funnel (``rtk_preview``)
and the named samples both panels offer (``samples``). Every offset here is UTF-16 (what Qt's
text positions count, IDE-Q2).

The preview functions are pure: plain data in (a request), plain data out, so the panels can run
them in a worker thread and tests can run them without Qt.
"""
