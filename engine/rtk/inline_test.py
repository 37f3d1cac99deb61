"""How an inline test's actual output is computed and compared: the filter alone, with its raw
``maxLines`` (VT-Q6), compared without trailing line feeds. Shared by the verify gate
(``engine.rtk.verify``) and the TOML loader's parse-time test run (``engine.rtk.toml_io``), which
is why it sits apart from both."""

from __future__ import annotations

from engine.rtk.model import RtkFilter


def strip_trailing_newlines(text: str) -> str:
    """The gate's comparison form: only ``\\n`` is removed (``\\r`` and spaces count)."""
    return text.rstrip("\n")


def run_filter_stage(flt: RtkFilter, text: str, profile: str = "omniroute") -> str:
    """``applyLineFilter(text, filter).text`` with the filter's raw ``maxLines``."""
    from engine.rtk.stages import apply_line_filter

    return apply_line_filter(text, flt, profile=profile).text
