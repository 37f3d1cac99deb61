"""Exact, fast evaluation of rule and region patterns on large texts, by concern:

* ``plan`` — where a pattern's matches can start (``engine.jsregex.starts``'s facts, as a ``Plan``);
* ``literals`` — candidate positions on a text, and the literal index a run's rules share;
* ``texts`` — what a run remembers of its texts (units, canonical case) and lets go of after;
* ``strategy`` — measured costs that choose between equivalent evaluations;
* ``regex`` — ``FastRegex``, the JavaScript regex with ``engine.jsregex``'s results.
"""

from engine.caveman.fast.literals import (
    LiteralIndex,
    back_run_candidates,
    digit_run_candidates,
    digits_before_dot_digit,
    index_literals,
    line_lead_candidates,
    occurrences,
    path_candidates,
    union_candidates,
)
from engine.caveman.fast.plan import Plan, analyse, at_boundaries, pattern_facts, plan_for
from engine.caveman.fast.regex import FastRegex
from engine.caveman.fast.texts import RELEASE_MIN, release_texts

__all__ = ["RELEASE_MIN", "FastRegex", "LiteralIndex", "Plan", "analyse", "at_boundaries", "back_run_candidates",
           "digit_run_candidates", "digits_before_dot_digit", "index_literals", "line_lead_candidates", "occurrences",
           "path_candidates", "pattern_facts", "plan_for", "release_texts", "union_candidates"]
