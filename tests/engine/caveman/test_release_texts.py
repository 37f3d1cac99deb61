"""After a large part, the text memos (per-regex work, module caches, byte views, literal
indexes) hold none of its texts: an IDE process does not keep the versions of a big run."""

from __future__ import annotations

import gc

from engine.caveman import Compressor, PackSource, fastscan, needles

from .helpers import pack, rule


def _large_strings_held() -> int:
    held = []

    def note(value):
        if isinstance(value, str | bytes) and len(value) >= fastscan.RELEASE_MIN:
            held.append(len(value))

    for obj in gc.get_objects():
        if isinstance(obj, fastscan.FastRegex):  # (getattr: one whose construction failed)
            work = getattr(obj, "_work", None)
            if work is not None:
                for value in (work.text, work.units, work._target):
                    note(value)
            last = getattr(obj, "_last", None)
            if last is not None:
                note(last[0])
        elif isinstance(obj, fastscan.LiteralIndex) and getattr(obj, "_state", None) is not None:
            note(obj._state[0])
    for value in (*fastscan._CANONICAL, *fastscan._UNITS, *(entry[0] for entry in fastscan._BMP)):
        note(value)
    for text, raw, _width in needles._VIEWS:
        note(text)
        note(raw)
    return len(held)


def test_a_large_part_leaves_no_text_behind():
    fastscan.release_texts()  # (what earlier tests left, outside a compression)
    assert _large_strings_held() == 0
    source = PackSource.from_packs([pack(rule("polite", r"\bplease\s+"), rule("filler", r"\b(?:basically|really)\b\s*"),
                                         rule("articles", r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])", flags="g"))])
    text = "Please do basically the thing, see `code()` at https://example.org/x and ./src/a.ts. 😀 " * 2000
    assert len(text) >= fastscan.RELEASE_MIN
    config = {"enabled": True, "minMessageLength": 0, "compressRoles": ["user"], "language": "xx"}
    result = Compressor(source, config).compress_body({"messages": [{"role": "user", "content": text}]})
    assert result.body["messages"][0]["content"] != text  # the rules ran
    assert _large_strings_held() == 0
