"""Unicode tables the translator needs: property names (exactly as ECMAScript spells them),
property code-point sets, and the two case-canonicalization functions of ECMA-262.

Property *membership* comes from the `regex` package's own Unicode tables (it ships a newer
Unicode than Python's ``unicodedata``); property *names* are validated against the ECMAScript
tables below, because `regex` is lenient (``\\p{lu}``, ``\\p{IsGreek}``) where V8 is not.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Iterator

import regex

from .. import memo
from . import charset
from .charset import Ranges

# General_Category values (ECMA-262 table "Value aliases and canonical values for
# General_Category"): canonical name, then aliases.
_GENERAL_CATEGORY = """
Cased_Letter LC; Close_Punctuation Pe; Connector_Punctuation Pc; Control Cc cntrl;
Currency_Symbol Sc; Dash_Punctuation Pd; Decimal_Number Nd digit; Enclosing_Mark Me;
Final_Punctuation Pf; Format Cf; Initial_Punctuation Pi; Letter L; Letter_Number Nl;
Line_Separator Zl; Lowercase_Letter Ll; Mark M Combining_Mark; Math_Symbol Sm; Modifier_Letter Lm;
Modifier_Symbol Sk; Nonspacing_Mark Mn; Number N; Open_Punctuation Ps; Other C; Other_Letter Lo;
Other_Number No; Other_Punctuation Po; Other_Symbol So; Paragraph_Separator Zp; Private_Use Co;
Punctuation P punct; Separator Z; Space_Separator Zs; Spacing_Mark Mc; Surrogate Cs; Symbol S;
Titlecase_Letter Lt; Unassigned Cn; Uppercase_Letter Lu
"""

# Binary properties (ECMA-262 table "Binary Unicode property aliases").
_BINARY = """
ASCII; ASCII_Hex_Digit AHex; Alphabetic Alpha; Any; Assigned; Bidi_Control Bidi_C;
Bidi_Mirrored Bidi_M; Case_Ignorable CI; Cased; Changes_When_Casefolded CWCF;
Changes_When_Casemapped CWCM; Changes_When_Lowercased CWL; Changes_When_NFKC_Casefolded CWKCF;
Changes_When_Titlecased CWT; Changes_When_Uppercased CWU; Dash; Default_Ignorable_Code_Point DI;
Deprecated Dep; Diacritic Dia; Emoji; Emoji_Component EComp; Emoji_Modifier EMod;
Emoji_Modifier_Base EBase; Emoji_Presentation EPres; Extended_Pictographic ExtPict; Extender Ext;
Grapheme_Base Gr_Base; Grapheme_Extend Gr_Ext; Hex_Digit Hex; IDS_Binary_Operator IDSB;
IDS_Trinary_Operator IDST; ID_Continue IDC; ID_Start IDS; Ideographic Ideo; Join_Control Join_C;
Logical_Order_Exception LOE; Lowercase Lower; Math; Noncharacter_Code_Point NChar;
Pattern_Syntax Pat_Syn; Pattern_White_Space Pat_WS; Quotation_Mark QMark; Radical;
Regional_Indicator RI; Sentence_Terminal STerm; Soft_Dotted SD; Terminal_Punctuation Term;
Unified_Ideograph UIdeo; Uppercase Upper; Variation_Selector VS; White_Space space;
XID_Continue XIDC; XID_Start XIDS
"""

# Script / Script_Extensions values V8 11.3 accepts (Unicode 17.0): code,long name[,alias].
_SCRIPTS = """
Adlm,Adlam Aghb,Caucasian_Albanian Ahom,Ahom Arab,Arabic Armi,Imperial_Aramaic Armn,Armenian
Avst,Avestan Bali,Balinese Bamu,Bamum Bass,Bassa_Vah Batk,Batak Beng,Bengali Berf,Beria_Erfe
Bhks,Bhaiksuki Bopo,Bopomofo Brah,Brahmi Brai,Braille Bugi,Buginese Buhd,Buhid Cakm,Chakma
Cans,Canadian_Aboriginal Cari,Carian Cham,Cham Cher,Cherokee Chrs,Chorasmian Copt,Coptic,Qaac
Cpmn,Cypro_Minoan Cprt,Cypriot Cyrl,Cyrillic Deva,Devanagari Diak,Dives_Akuru Dogr,Dogra
Dsrt,Deseret Dupl,Duployan Egyp,Egyptian_Hieroglyphs Elba,Elbasan Elym,Elymaic Ethi,Ethiopic
Gara,Garay Geor,Georgian Glag,Glagolitic Gong,Gunjala_Gondi Gonm,Masaram_Gondi Goth,Gothic
Gran,Grantha Grek,Greek Gujr,Gujarati Gukh,Gurung_Khema Guru,Gurmukhi Hang,Hangul Hani,Han
Hano,Hanunoo Hatr,Hatran Hebr,Hebrew Hira,Hiragana Hluw,Anatolian_Hieroglyphs Hmng,Pahawh_Hmong
Hmnp,Nyiakeng_Puachue_Hmong Hung,Old_Hungarian Ital,Old_Italic Java,Javanese Kali,Kayah_Li
Kana,Katakana Kawi,Kawi Khar,Kharoshthi Khmr,Khmer Khoj,Khojki Kits,Khitan_Small_Script Knda,Kannada
Krai,Kirat_Rai Kthi,Kaithi Lana,Tai_Tham Laoo,Lao Latn,Latin Lepc,Lepcha Limb,Limbu Lina,Linear_A
Linb,Linear_B Lisu,Lisu Lyci,Lycian Lydi,Lydian Mahj,Mahajani Maka,Makasar Mand,Mandaic
Mani,Manichaean Marc,Marchen Medf,Medefaidrin Mend,Mende_Kikakui Merc,Meroitic_Cursive
Mero,Meroitic_Hieroglyphs Mlym,Malayalam Modi,Modi Mong,Mongolian Mroo,Mro Mtei,Meetei_Mayek
Mult,Multani Mymr,Myanmar Nagm,Nag_Mundari Nand,Nandinagari Narb,Old_North_Arabian Nbat,Nabataean
Newa,Newa Nkoo,Nko Nshu,Nushu Ogam,Ogham Olck,Ol_Chiki Onao,Ol_Onal Orkh,Old_Turkic Orya,Oriya
Osge,Osage Osma,Osmanya Ougr,Old_Uyghur Palm,Palmyrene Pauc,Pau_Cin_Hau Perm,Old_Permic
Phag,Phags_Pa Phli,Inscriptional_Pahlavi Phlp,Psalter_Pahlavi Phnx,Phoenician Plrd,Miao
Prti,Inscriptional_Parthian Rjng,Rejang Rohg,Hanifi_Rohingya Runr,Runic Samr,Samaritan
Sarb,Old_South_Arabian Saur,Saurashtra Sgnw,SignWriting Shaw,Shavian Shrd,Sharada Sidd,Siddham
Sidt,Sidetic Sind,Khudawadi Sinh,Sinhala Sogd,Sogdian Sogo,Old_Sogdian Sora,Sora_Sompeng
Soyo,Soyombo Sund,Sundanese Sunu,Sunuwar Sylo,Syloti_Nagri Syrc,Syriac Tagb,Tagbanwa Takr,Takri
Tale,Tai_Le Talu,New_Tai_Lue Taml,Tamil Tang,Tangut Tavt,Tai_Viet Tayo,Tai_Yo Telu,Telugu
Tfng,Tifinagh Tglg,Tagalog Thaa,Thaana Thai,Thai Tibt,Tibetan Tirh,Tirhuta Tnsa,Tangsa Todr,Todhri
Tols,Tolong_Siki Toto,Toto Tutg,Tulu_Tigalari Ugar,Ugaritic Vaii,Vai Vith,Vithkuqi Wara,Warang_Citi
Wcho,Wancho Xpeo,Old_Persian Xsux,Cuneiform Yezi,Yezidi Yiii,Yi Zanb,Zanabazar_Square
Zinh,Inherited,Qaai Zyyy,Common Zzzz,Unknown"""

# Properties of strings: valid only with the v flag (ECMA-262 table "Binary Unicode properties of
# strings").
STRING_PROPERTIES = frozenset({
    "Basic_Emoji", "Emoji_Keycap_Sequence", "RGI_Emoji", "RGI_Emoji_Flag_Sequence",
    "RGI_Emoji_Modifier_Sequence", "RGI_Emoji_Tag_Sequence", "RGI_Emoji_ZWJ_Sequence",
})


def _alias_table(text: str, sep: str = ";") -> dict[str, str]:
    """name or alias -> the `regex` spelling of the canonical name."""
    table: dict[str, str] = {}
    for entry in text.replace("\n", " ").split(sep):
        names = entry.replace(",", " ").split()
        if names:
            canonical = names[0]
            for name in names:
                table[name] = canonical
    return table


GENERAL_CATEGORY = _alias_table(_GENERAL_CATEGORY)
BINARY = _alias_table(_BINARY)
SCRIPTS = _alias_table(_SCRIPTS, sep=" ")


# Code points that `regex` 2026.11.19's tables already assign (Unicode 18 additions) but V8 11.3 /
# ICU 78 (Unicode 17.0) treats as unassigned (gc=Cn, Script=Unknown, in no other property).
ASSIGNED_AFTER_V8: Ranges = (
    (0x558, 0x558), (0x58B, 0x58C), (0x5C8, 0x5C9), (0xB53, 0xB54), (0x1ADE, 0x1ADF), (0x1AEC,
    0x1AF0), (0x208F, 0x208F), (0x209D, 0x209F), (0x20C2, 0x20C4), (0x2E60, 0x2E63), (0xA7DD,
    0xA7DD), (0xA7E2, 0xA7E2), (0xAB6C, 0xAB6D), (0x107BB, 0x107BF), (0x10EC9, 0x10ECF), (0x10ED9,
    0x10EEE), (0x10EF0, 0x10EF9), (0x11B0A, 0x11B0A), (0x11DF0, 0x11DF1), (0x1246F, 0x1246F),
    (0x12475, 0x1247F), (0x12550, 0x12686), (0x18CD6, 0x18CDA), (0x18D1F, 0x18D20), (0x18E00,
    0x19191), (0x191A0, 0x191D2), (0x1B123, 0x1B128), (0x1B168, 0x1B168), (0x1CED2, 0x1CED4),
    (0x1CEDD, 0x1CEDF), (0x1CEF1, 0x1CEFD), (0x1D127, 0x1D128), (0x1D1EB, 0x1D1FF), (0x1D250,
    0x1D281), (0x1D6A6, 0x1D6A6), (0x1DB00, 0x1DB1C), (0x1DF1F, 0x1DF24), (0x1DF2B, 0x1DF81),
    (0x1DF90, 0x1DF96), (0x1DFCD, 0x1DFFF), (0x1F1AE, 0x1F1AE), (0x1F6D9, 0x1F6D9), (0x1F7DA,
    0x1F7DB), (0x1F7F1, 0x1F7FF), (0x1FA8B, 0x1FA8D), (0x1FACC, 0x1FACC), (0x1FADD, 0x1FADD),
    (0x1FAEB, 0x1FAEB), (0x1FAF9, 0x1FAFA), (0x2B81E, 0x2B81E), (0x3D000, 0x3FC3F)
)


def _resolve(name: str, value: str | None) -> tuple[str, str] | None:
    """(kind, canonical) for a property V8 accepts: kind is "gc", "sc", "scx" or "binary"."""
    if value is None:
        if name in GENERAL_CATEGORY:
            return "gc", GENERAL_CATEGORY[name]
        if name in BINARY:
            return "binary", BINARY[name]
        return None
    if name in ("General_Category", "gc") and value in GENERAL_CATEGORY:
        return "gc", GENERAL_CATEGORY[value]
    if name in ("Script", "sc", "Script_Extensions", "scx") and value in SCRIPTS:
        return ("scx" if name in ("Script_Extensions", "scx") else "sc"), SCRIPTS[value]
    return None


def property_ranges(name: str, value: str | None) -> Ranges | None:
    """Code points of ``\\p{name}`` or ``\\p{name=value}`` in V8; None when V8 rejects the name."""
    resolved = _resolve(name, value)
    return None if resolved is None else _property(*resolved)


def property_hint(name: str, value: str | None) -> tuple[str, Ranges] | None:
    """A `regex` class item using `regex`'s own property tables, and the exact set it denotes.

    Big explicit classes make `regex` an order of magnitude slower than its property tables.
    The denoted set is `regex`'s table (newer Unicode than V8's); the emitter corrects the
    difference to ``property_ranges`` explicitly.
    """
    resolved = _resolve(name, value)
    if resolved is None:
        return None
    kind, canonical = resolved
    if kind == "binary":
        if canonical in ("Any", "ASCII", "Assigned", "Changes_When_NFKC_Casefolded"):
            return None
        spec = canonical
    elif kind == "gc":
        if canonical == "Cased_Letter":
            return None
        spec = "gc=" + canonical
    else:
        spec = f"{kind}={canonical}"
    return r"\p{" + spec + "}", _regex_property(spec)


def negated_property_hint(name: str, value: str | None) -> tuple[str, Ranges] | None:
    """``\\P{…}`` and the set it denotes (the complement of `regex`'s table)."""
    hint = property_hint(name, value)
    if hint is None:
        return None
    return r"\P" + hint[0][2:], charset.complement(hint[1])


@memo.lru(maxsize=None)
def _property(kind: str, canonical: str) -> Ranges:
    if kind == "gc":
        if canonical == "Cased_Letter":
            table = charset.union(_regex_property("gc=Lu"), _regex_property("gc=Ll"), _regex_property("gc=Lt"))
        else:
            table = _regex_property("gc=" + canonical)
        if canonical in ("Unassigned", "Other"):
            return charset.union(table, ASSIGNED_AFTER_V8)
        return charset.difference(table, ASSIGNED_AFTER_V8)
    if kind in ("sc", "scx"):
        table = _regex_property(f"{kind}={canonical}")
        if canonical == "Unknown":
            return charset.union(table, ASSIGNED_AFTER_V8)
        return charset.difference(table, ASSIGNED_AFTER_V8)
    if canonical == "Any":
        return charset.ALL
    if canonical == "ASCII":
        return ((0, 0x7F),)
    if canonical == "Assigned":
        return charset.complement(_property("gc", "Unassigned"))
    if canonical == "Changes_When_NFKC_Casefolded":
        # `regex` has no CWKCF table: precomputed from unicodedata by gen_unicode_tables.py.
        from .unicode_tables import CWKCF_RANGES

        return tuple((lo, hi) for lo, hi in _groups(CWKCF_RANGES, 2))
    return charset.difference(_regex_property(canonical), ASSIGNED_AFTER_V8)


@memo.lru(maxsize=None)
def _all_code_points() -> str:
    """Every code point, surrogates included, in order (what `regex`'s property tables are read off).

    Decoded from one UTF-32 buffer: ~4× faster than joining 1.1 million ``chr`` results.
    """
    typecode = next(t for t in "IL" if array(t).itemsize == 4)
    codec = "utf-32-le" if sys.byteorder == "little" else "utf-32-be"
    return array(typecode, range(charset.MAX_CP + 1)).tobytes().decode(codec, "surrogatepass")


@memo.lru(maxsize=None)
def _regex_property(spec: str) -> Ranges:
    pattern = regex.compile(r"\p{" + spec + "}+")
    return tuple((m.start(), m.end() - 1) for m in pattern.finditer(_all_code_points()))


# ----------------------------------------------------------------------------- case folding
# Both Canonicalize tables are precomputed by gen_unicode_tables.py (from `regex`'s case pairs and
# Python's case mappings): building them means a loop over every code point, ~0.5 s of CPU that
# each CLI run with an ``i`` pattern would otherwise pay at start-up.


@memo.lru(maxsize=None)
def unicode_canon_changes() -> tuple[tuple[int, int], ...]:
    """``(c, canon(c))`` for every c that ``u``/``v``-mode Canonicalize changes.

    canon(c) is the smallest member of c's simple-case-folding class (see
    ``gen_unicode_tables.unicode_canon_changes``).
    """
    from .unicode_tables import UNICODE_CANON_RUNS

    return _from_runs(_groups(UNICODE_CANON_RUNS, 4))


@memo.lru(maxsize=None)
def legacy_canon_changes() -> tuple[tuple[int, int], ...]:
    """``(c, canon(c))`` for every UTF-16 unit that non-``u`` Canonicalize changes.

    ECMA-262 Canonicalize(rer, ch) without unicode: toUppercase(ch) if that is a single code unit
    and does not map a non-ASCII unit to ASCII (see ``gen_unicode_tables.legacy_canon_changes``).
    """
    from .unicode_tables import LEGACY_CANON_RUNS

    return _from_runs(_groups(LEGACY_CANON_RUNS, 4))


def _groups(table: str, n: int) -> Iterator[tuple[int, ...]]:
    """The integers of a ``unicode_tables`` string, ``n`` at a time."""
    numbers = iter(map(int, table.split()))
    return zip(*[numbers] * n, strict=True)


def _from_runs(runs: Iterable[tuple[int, ...]]) -> tuple[tuple[int, int], ...]:
    """Expand ``(first, count, step, delta)`` runs (``gen_unicode_tables.to_runs``)."""
    return tuple((first + k * step, first + k * step + delta)
                 for first, count, step, delta in runs for k in range(count))


@memo.lru(maxsize=None)
def canon_table(unicode_mode: bool) -> dict[int, int]:
    """``str.translate`` table producing the canonicalized subject (§5 of the spec)."""
    return dict(unicode_canon_changes() if unicode_mode else legacy_canon_changes())


def canon(c: int, unicode_mode: bool) -> int:
    return canon_table(unicode_mode).get(c, c)
