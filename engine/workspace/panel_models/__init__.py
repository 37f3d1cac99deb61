"""View-models of the tests, trust, repair, grammar and params panels — plain data, no Qt.

The panels in ``app/panel_*.py`` are thin: they collect what the user typed, hand it to a
function here (in a worker thread), and draw what comes back. Everything that decides *what*
to show — which files hold tests (``filter_files``), how a JSON pane failed to parse
(``json_panes``), which splice accepts an actual output (``tests_panel``), what exactly a trust
confirmation promises and how a selection of filters is exported (``trust_panel``), what the
playgrounds show (``repair_playground``, ``grammar_playground``, ``params_playground``) — lives
here so it is testable without a display.
"""
