"""Properties of strings for the ``v`` flag (``\\p{RGI_Emoji}`` …), from the `emoji` package.

ECMAScript defines them by Unicode's emoji-sequences.txt and emoji-zwj-sequences.txt — the RGI
("recommended for general interchange") emoji. The `emoji` package lists every emoji of
emoji-test.txt with its qualification status and Emoji version; the RGI set is exactly its
fully-qualified entries plus the components (skin tones, hair), and each property is one
structural slice of it. Only entries up to Emoji 17.0 are used, the version of V8 11.3 / ICU 78
(a newer package lists later emoji that Node 20 does not know).
"""

from __future__ import annotations

from .. import memo

V8_EMOJI_VERSION = 17.0
_COMPONENT, _FULLY_QUALIFIED = 1, 2

PROPERTY_NAMES = (
    "Basic_Emoji", "Emoji_Keycap_Sequence", "RGI_Emoji_Flag_Sequence", "RGI_Emoji_Modifier_Sequence",
    "RGI_Emoji_Tag_Sequence", "RGI_Emoji_ZWJ_Sequence",
)


def _slice(sequence: str) -> str | None:
    """Which property of strings an RGI sequence belongs to."""
    cps = [ord(c) for c in sequence]
    if 0x200D in cps:
        return "RGI_Emoji_ZWJ_Sequence"
    if len(cps) == 3 and cps[1:] == [0xFE0F, 0x20E3]:
        return "Emoji_Keycap_Sequence"
    if len(cps) == 2 and all(0x1F1E6 <= c <= 0x1F1FF for c in cps):
        return "RGI_Emoji_Flag_Sequence"
    if len(cps) > 2 and cps[0] == 0x1F3F4 and cps[-1] == 0xE007F:
        return "RGI_Emoji_Tag_Sequence"
    if len(cps) == 2 and 0x1F3FB <= cps[1] <= 0x1F3FF:
        return "RGI_Emoji_Modifier_Sequence"
    if len(cps) == 1 or (len(cps) == 2 and cps[1] == 0xFE0F):
        return "Basic_Emoji"
    return None


@memo.lru(maxsize=None)
def _slices() -> dict[str, frozenset[str]]:
    from emoji import EMOJI_DATA

    if max((entry.get("E", 0) for entry in EMOJI_DATA.values()), default=0) < V8_EMOJI_VERSION:
        # the declared `emoji>=2.16` has it: an older one is a broken installation, not "no emoji"
        raise ImportError(f"emoji with Emoji {V8_EMOJI_VERSION} data (the installed one is older)", name="emoji")
    out: dict[str, set[str]] = {name: set() for name in PROPERTY_NAMES}
    for sequence, entry in EMOJI_DATA.items():
        if entry.get("status") in (_COMPONENT, _FULLY_QUALIFIED) and entry.get("E", 99) <= V8_EMOJI_VERSION:
            name = _slice(sequence)
            if name is not None:
                out[name].add(sequence)
    return {name: frozenset(strings) for name, strings in out.items()}


def string_property(name: str) -> frozenset[str] | None:
    """The strings of ``\\p{name}`` (code points), or None for a name that is not one of them."""
    slices = _slices()
    if name == "RGI_Emoji":
        return frozenset().union(*slices.values())
    return slices.get(name)
