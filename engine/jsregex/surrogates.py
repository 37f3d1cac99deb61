"""Code-point sets as UTF-16 unit patterns, for ``u``/``v`` mode on a UTF-16 subject.

V8 runs ``u``-mode patterns over UTF-16 code units: an astral code point is a surrogate pair, a
lone surrogate matches only when it is not half of a pair, and the search loop steps one unit
at a time, so an empty match can fall between the two halves of a pair (``/\\B/gu`` does). The
translator reproduces that by giving `regex` the same UTF-16 subject in every mode and emitting
each set as: BMP members, then the pairs (grouped by lead surrogate), then guarded lone
surrogates.
"""

from __future__ import annotations

from . import charset
from .charset import Ranges, class_body, escape_char

LEADS: Ranges = ((0xD800, 0xDBFF),)
TRAILS: Ranges = ((0xDC00, 0xDFFF),)
ASTRAL: Ranges = ((0x10000, charset.MAX_CP),)

ANY_PAIR = r"[\ud800-\udbff][\udc00-\udfff]"
LONE_LEAD = r"[\ud800-\udbff](?![\udc00-\udfff])"
LONE_TRAIL = r"(?<![\ud800-\udbff])[\udc00-\udfff]"


def split(c: int) -> tuple[int, int]:
    c -= 0x10000
    return 0xD800 + (c >> 10), 0xDC00 + (c & 0x3FF)


def units(c: int) -> str:
    """Pattern text for code point ``c``: its UTF-16 units (or, on a code-point string, itself)."""
    if c <= 0xFFFF:
        return escape_char(c)
    lead, trail = split(c)
    return f"(?:{escape_char(lead)}{escape_char(trail)}|{escape_char(c)})"


def _bracket(r: Ranges) -> str:
    one = charset.single(r)
    return escape_char(one) if one is not None else "[" + class_body(r) + "]"


def pair_alternatives(astral: Ranges) -> list[str]:
    """``[leads][trails]`` alternatives matching exactly the astral members, as pairs."""
    by_lead: dict[int, list[tuple[int, int]]] = {}
    full_blocks: list[tuple[int, int]] = []
    for lo, hi in astral:
        lead_lo, trail_lo = split(lo)
        lead_hi, trail_hi = split(hi)
        if lead_lo == lead_hi:
            by_lead.setdefault(lead_lo, []).append((trail_lo, trail_hi))
            continue
        by_lead.setdefault(lead_lo, []).append((trail_lo, 0xDFFF))
        if lead_hi - lead_lo > 1:
            full_blocks.append((lead_lo + 1, lead_hi - 1))
        by_lead.setdefault(lead_hi, []).append((0xDC00, trail_hi))
    groups: dict[Ranges, list[int]] = {}
    for lead, trails in by_lead.items():
        key = charset.normalize(trails)
        if key == TRAILS:
            full_blocks.append((lead, lead))
        else:
            groups.setdefault(key, []).append(lead)
    out = []
    if full_blocks:
        out.append(_bracket(charset.normalize(full_blocks)) + r"[\udc00-\udfff]")
    for trail_set, leads in groups.items():
        out.append(_bracket(charset.from_chars(leads)) + _bracket(trail_set))
    return out


def corrected_hint(target: Ranges, hint: tuple[str, Ranges], exclude: Ranges = charset.EMPTY) -> str:
    """``hint`` (a class and the set it matches) adjusted to match exactly ``target`` minus
    ``exclude``: a lookbehind drops what the class has too much (checked after the one character
    it consumed, so it works in either matching direction), an alternative adds what it lacks."""
    text, denoted = hint
    want = charset.difference(target, exclude)
    extra = charset.difference(denoted, want)
    missing = charset.difference(want, denoted)
    if extra:
        text += "(?<!" + charset.to_pattern(extra) + ")"
    if missing:
        text = "(?:" + text + "|" + charset.to_pattern(missing) + ")"
    return text


def set_pattern(ranges: Ranges, hint: tuple[str, Ranges] | None = None) -> str:
    """A `regex` fragment matching one code point of ``ranges`` on a UTF-16 subject (u/v mode).

    ``hint`` is a property-table class (and the set it matches) that may stand for the
    non-surrogate members; surrogates are handled here with V8's guards.
    """
    astral = charset.intersect(ranges, ASTRAL)
    leads = charset.intersect(ranges, LEADS)
    trails = charset.intersect(ranges, TRAILS)
    # Non-surrogate members as one class. Astral members are in it too: they never occur in the
    # UTF-16 subjects the runtime prepares, but let callers that search a code-point string
    # (as `engine.rtk` does for line scans) still match them.
    direct = charset.difference(ranges, charset.union(LEADS, TRAILS))
    alternatives: list[str] = []
    if direct:
        if hint is not None:
            alternatives.append(corrected_hint(ranges, hint, exclude=charset.union(LEADS, TRAILS)))
        else:
            alternatives.append(charset.to_pattern(direct))
    if astral == ASTRAL:
        alternatives.append(ANY_PAIR)
    elif astral:
        pairs = pair_alternatives(astral)
        if len(pairs) == 1:
            alternatives.append(pairs[0])
        else:
            alternatives.append(r"(?=[\ud800-\udbff])(?:" + "|".join(pairs) + ")")
    if leads:
        alternatives.append(LONE_LEAD if leads == LEADS else _bracket(leads) + r"(?![\udc00-\udfff])")
    if trails:
        alternatives.append(LONE_TRAIL if trails == TRAILS else r"(?<![\ud800-\udbff])" + _bracket(trails))
    if not alternatives:
        return "(?!)"
    if len(alternatives) == 1:
        return alternatives[0]
    return "(?:" + "|".join(alternatives) + ")"
