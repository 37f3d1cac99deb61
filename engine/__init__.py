"""Rulewright's engine: everything the IDE shows and the CLI prints, with no Qt anywhere.

Sub-packages mirror the references they reproduce: ``jsregex`` (JavaScript RegExp semantics),
``caveman`` and ``rtk`` (OmniRoute), ``repair`` and ``grammar`` (pi-repair-layer), ``params``
(Cherry Studio). ``cli`` is a thin shell over the same calls.
"""

__version__ = "0.1.0"
