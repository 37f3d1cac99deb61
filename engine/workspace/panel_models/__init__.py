"""View-models of the tests, trust, repair, grammar and params panels — plain data, no Qt.

The panels in ``app/panel_*.py`` are thin: they collect what the user typed, hand it to a
function here (in a worker thread), and draw what comes back. Everything that decides *what*
to show — which splice accepts an actual output (``tests_panel``), what exactly a trust
confirmation promises and how a selection of filters is exported (``trust_panel``), what the
playgrounds show (``repair_playground``, ``grammar_playground``, ``params_playground``) and how
one of their JSON panes failed to parse (``json_panes``) — lives here so it is testable without
a display. Which workspace files are filter files is ``engine.workspace.filter_files``.
"""
