"""Learn an RTK filter from captured outputs of one command (``rulewright learn``).

One job per module: ``normalise`` (line templates), ``noise`` (recurring and repeated kinds of
line become drop patterns), ``keep`` (what must never be lost, and the priority patterns),
``command`` (the command's program and subcommand), ``shape`` (dedup, collapse, line limits),
``proof`` (the safety proof against every sample), ``draft`` (proposals → filter → proof →
repair, and the tests from the samples), ``lines_like`` ("drop/keep lines like these").
"""

from engine.rtk.learn.draft import Draft, LearnResult, compose, learn, learn_filter

__all__ = ["Draft", "LearnResult", "compose", "learn", "learn_filter"]
