"""Token counts of whole request bodies, with OpenAI's o200k tokenizer for Codex bodies.

OmniRoute estimates a body's tokens as ``ceil(UTF-16 length / 4)`` of its JSON text, except for
Codex bodies (``caveman.md`` §13.2), which it counts with js-tiktoken's ``o200k_base``. We count
them with ``tiktoken`` (the same BPE). Nothing may be downloaded at run time, so the ranks come
from the ``o200k_base.tiktoken.gz`` file that the ``bpe-openai`` wheel ships; it is checked
against the official SHA-256 before use and parsed once, on the first Codex body.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.util
import math
import threading
from pathlib import Path
from typing import Any

from engine import memo
from engine.jsvalues import js_trim, json_stringify, utf16_len

O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"  # tiktoken's expected hash
# tiktoken's o200k_base split pattern (tiktoken_ext.openai_public; a test checks it is unchanged).
O200K_PATTERN = "|".join((
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""",
    r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
    r"""\s*[\r\n]+""",
    r"""\s+(?!\S)""",
    r"""\s+""",
))
O200K_SPECIAL = {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}
_LOCK = threading.Lock()


class TokenizerUnavailable(RuntimeError):
    """The o200k ranks could not be loaded (package missing or file damaged)."""


RANKS_FILE = "o200k_base.tiktoken.gz"


def ranks_path() -> Path:
    """Where the ranks file lives: the desktop bundle's copy (``engine/_data``, see
    packaging/build.sh), else the ``bpe-openai`` wheel's (its native module is never imported)."""
    bundled = Path(__file__).resolve().parent / "_data" / RANKS_FILE
    if bundled.is_file():
        return bundled
    spec = importlib.util.find_spec("bpe_openai")
    if spec is None or not spec.submodule_search_locations:
        raise TokenizerUnavailable("the o200k ranks need the `bpe-openai` package (it ships o200k_base.tiktoken)")
    return Path(next(iter(spec.submodule_search_locations))) / "data" / RANKS_FILE


def parse_ranks(raw: bytes) -> dict[bytes, int]:
    """A ``.tiktoken`` file: one ``base64-token rank`` pair per line (as tiktoken's loader reads it)."""
    if hashlib.sha256(raw).hexdigest() != O200K_SHA256:
        raise TokenizerUnavailable("the bundled o200k_base ranks do not have the expected SHA-256")
    ranks: dict[bytes, int] = {}
    for line in raw.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


@memo.lru(maxsize=1)
def encoding() -> Any:
    import tiktoken

    with _LOCK:
        try:
            raw = gzip.decompress(ranks_path().read_bytes())
        except OSError as exc:
            raise TokenizerUnavailable(f"cannot read the o200k ranks: {exc}") from exc
        return tiktoken.Encoding(name="o200k_base", pat_str=O200K_PATTERN, mergeable_ranks=parse_ranks(raw),
                                 special_tokens=O200K_SPECIAL)


def count_o200k(text: str) -> int:
    """o200k_base tokens of ``text`` (special-token text counts as ordinary text)."""
    return len(encoding().encode_ordinary(text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")))


def is_codex_body(body: object) -> bool:
    """§13.2: ``provider`` ``codex``/``cx``, or a ``model`` starting ``codex/``/``cx/`` or containing ``codex``."""
    if not isinstance(body, dict):
        return False
    provider = body.get("provider")
    if isinstance(provider, str) and js_trim(provider).lower() in ("codex", "cx"):
        return True
    model = body.get("model")
    if isinstance(model, str):
        m = js_trim(model).lower()
        return m.startswith(("codex/", "cx/")) or "codex" in m
    return False


def estimate_body_tokens(body: object) -> int:
    """A whole body's token estimate: o200k for Codex bodies, else ``ceil(length/4)`` of its JSON."""
    text = body if isinstance(body, str) else (json_stringify(body) or "")
    if is_codex_body(body):
        return count_o200k(text)
    return math.ceil(utf16_len(text) / 4)
