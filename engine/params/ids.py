"""Model-id forms, vendor tests and the thinking-budget id table (spec §1.10, §9.5).

These are the reference's own fixed tests, not user patterns, so they use Python's ``re`` with
ASCII-only case folding (``re.I | re.A``): the reference folds only ``A``–``Z``. ``N`` below is
"any character except a line break" (JS ``.``), and ``\\Z`` is JS ``$`` without the ``m`` flag.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from engine import memo
from engine.params.jsv import UNDEFINED, get, get_path, is_nullish

_F = re.I | re.A
N = r"[^\n\r\u2028\u2029]"
W = r"[A-Za-z0-9_]"

# ------------------------------------------------------------------ id forms


def unique_id(model: dict[str, Any]) -> str:
    value = get(model, "id")
    return value if isinstance(value, str) else ""


def after_separator(uid: str) -> str:
    """The part after ``::`` of a unique id (the whole id when there is no separator)."""
    return uid.split("::", 1)[1] if "::" in uid else uid


def raw_id(model: dict[str, Any]) -> str:
    api = get(model, "apiModelId")
    if isinstance(api, str) and api:
        return api
    return after_separator(unique_id(model))


_STRIP_REGION: ContextVar[bool] = ContextVar("strip_region_prefix", default=False)
_REGION_PREFIX = re.compile(r"^(?:us|eu|apac|global)\.(?=anthropic\.)")


@contextmanager
def region_prefix_stripped(on: bool) -> Iterator[None]:
    """Strict profile: Bedrock cross-region prefixes are ignored by vendor tests (PAR-Q17 fix)."""
    token = _STRIP_REGION.set(on)
    try:
        yield
    finally:
        _STRIP_REGION.reset(token)


def base_of(raw: str) -> str:
    """Last ``/`` segment, lower-cased, without ``:free``/``(free)``/``:cloud``; Fireworks ``NpN``."""
    text = raw
    if "accounts/fireworks/models/" in text:
        text = re.sub(r"(\d)p(\d)", r"\1.\2", text)
    text = text.split("/")[-1].lower()
    for suffix in (":free", "(free)", ":cloud"):
        if text.endswith(suffix):
            text = text[: -len(suffix)]
            break
    if _STRIP_REGION.get():
        text = _REGION_PREFIX.sub("", text)
    return text


def base_id(model: dict[str, Any]) -> str:
    return base_of(raw_id(model))


def table_base_id(model: dict[str, Any]) -> str:
    """Base id as the reasoning functions derive it: from the unique id's part after ``::``."""
    return base_of(after_separator(unique_id(model)))


def table_raw_id(model: dict[str, Any]) -> str:
    return after_separator(unique_id(model))


def _search(pattern: str, text: str) -> bool:
    return _compiled(pattern).search(text) is not None


@memo.lru(maxsize=None)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, _F)


# ------------------------------------------------------------------ model data


def capabilities(model: dict[str, Any]) -> list[Any]:
    caps = get(model, "capabilities")
    return caps if isinstance(caps, list) else []


def has_capability(model: dict[str, Any], cap: str) -> bool:
    return cap in capabilities(model)


def reasoning_info(model: dict[str, Any]) -> Any:
    return get(model, "reasoning")


def has_thinking_limits(model: dict[str, Any]) -> bool:
    return not is_nullish(get_path(model, "reasoning", "thinkingTokenLimits"))


def supported_efforts(model: dict[str, Any]) -> list[Any]:
    efforts = get_path(model, "reasoning", "supportedEfforts")
    return efforts if isinstance(efforts, list) else []


def is_effort_model(model: dict[str, Any]) -> bool:
    return len(supported_efforts(model)) > 0


def is_reasoning_model(model: dict[str, Any]) -> bool:
    return has_capability(model, "reasoning") or not is_nullish(reasoning_info(model))


def is_fixed_reasoning(model: dict[str, Any]) -> bool:
    return is_reasoning_model(model) and not has_thinking_limits(model) and not is_effort_model(model)


def provider_id_of_model(model: dict[str, Any]) -> Any:
    return get(model, "providerId")


# ------------------------------------------------------------------ vendor tests (base id)


def is_anthropic(model: dict[str, Any]) -> bool:
    b = base_id(model)
    return b.startswith("claude") or b.startswith("anthropic.claude")


def is_gemini_id(b: str) -> bool:
    return _search(r"gemini|palm|veo|imagen|learnlm", b)


def is_gemini(model: dict[str, Any]) -> bool:
    return is_gemini_id(base_id(model))


def is_grok(model: dict[str, Any]) -> bool:
    return "grok" in base_id(model)


def is_openai_id(b: str) -> bool:
    return _search(rf"(?<!{W})gpt(?!{W})", b) or b.startswith(("o1", "o3", "o4"))


def is_openai(model: dict[str, Any]) -> bool:
    return is_openai_id(base_id(model))


def is_qwen(model: dict[str, Any]) -> bool:
    return base_id(model).startswith(("qwen", "qwq", "qvq", "tongyi"))


def is_doubao(model: dict[str, Any]) -> bool:
    b = base_id(model)
    return (_search(r"doubao|seed", b) or b.startswith("ep-")
            or provider_id_of_model(model) == "doubao")


def is_hunyuan(model: dict[str, Any]) -> bool:
    b = base_id(model)
    return b.startswith("hunyuan") or "hy-" in b or provider_id_of_model(model) == "hunyuan"


def is_kimi(model: dict[str, Any]) -> bool:
    return _search(r"kimi|moonshot", base_id(model)) or provider_id_of_model(model) == "moonshot"


def is_deepseek(model: dict[str, Any]) -> bool:
    name = get(model, "name")
    return ("deepseek" in base_id(model) or provider_id_of_model(model) == "deepseek"
            or (isinstance(name, str) and "deepseek" in name.lower()))


def is_glm(model: dict[str, Any]) -> bool:
    return _search(r"glm|cogview|cogvideo", base_id(model)) or provider_id_of_model(model) == "zhipu"


def is_mimo(model: dict[str, Any]) -> bool:
    return base_id(model).startswith("mimo-")


def thinking_token(vendor_test: Callable[[dict[str, Any]], bool], model: dict[str, Any]) -> bool:
    """"thinking-token X": vendor X and ``reasoning.thinkingTokenLimits`` present."""
    return vendor_test(model) and has_thinking_limits(model)


# ------------------------------------------------------------------ family tests used by several rules


def is_claude45_id(b: str) -> bool:
    """§6.2 Claude 4.5 test (any character between ``-4`` and ``5`` is a reference quirk)."""
    return _search(rf"claude-(?:sonnet|opus|haiku)-4{N}5(?:-[A-Za-z0-9_-]+)?\Z", b)


def is_claude4_series_id(b: str) -> bool:
    return _search(r"claude-(?:sonnet|opus|haiku)-4(?:[.-]\d+)?(?:[@:-][A-Za-z0-9_:-]+)?\Z", b)


def is_opus47_id(b: str) -> bool:
    return _search(r"claude-opus-4[.-]7(?:[@:-][A-Za-z0-9_:-]+)?\Z", b)


def is_opus46_id(b: str) -> bool:
    return _search(r"claude-opus-4[.-]6(?:[@:-][A-Za-z0-9_:-]+)?\Z", b)


def is_claude46_id(b: str) -> bool:
    """Claude 4.6 (Opus or Sonnet 4.6)."""
    return is_opus46_id(b) or _search(r"claude-(?:sonnet|:sonnet)-4[.-]6", b)


def is_gemini3_id(b: str) -> bool:
    return "gemini-3" in b or b in ("gemini-flash-latest", "gemini-pro-latest")


def is_gemini3_model(model: dict[str, Any]) -> bool:
    return is_gemini3_id(base_id(model))


def is_qwen35_plus_id(b: str) -> bool:
    return _search(r"^qwen3\.[5-9]", b)


def unique_has_gemini_then_flash(model: dict[str, Any]) -> bool:
    return _search(rf"gemini{N}*flash", unique_id(model))


_DEEPSEEK_V4 = re.compile(
    rf"deepseek-v([1-9]\d*)(?:\.\d+)?(?:-{W}+)*(?:\Z|[:/])", _F)


def _deepseek_v4_in(text: str) -> bool:
    for m in _DEEPSEEK_V4.finditer(text):
        if int(m.group(1)) >= 4:
            return True
    # finditer does not retry overlapping starts; try every occurrence explicitly.
    start = text.find("deepseek-v")
    while start != -1:
        at = _DEEPSEEK_V4.match(text, start)
        if at and int(at.group(1)) >= 4:
            return True
        start = text.find("deepseek-v", start + 1)
    return False


def is_deepseek_v4_plus(model: dict[str, Any]) -> bool:
    name = get(model, "name")
    name_base = base_of(name) if isinstance(name, str) else ""
    return _deepseek_v4_in(base_id(model)) or _deepseek_v4_in(name_base)


def is_deepseek_hybrid(model: dict[str, Any]) -> bool:
    b = base_id(model)
    m = re.search(r"deepseek-v3[.-]\d(?:[.-](" + W + r"+))?\Z", b, _F)
    if m and (m.group(1) or "").lower() != "speciale":
        return True
    if "deepseek-chat-v3.1" in b or "deepseek-chat" in b:
        return True
    return is_deepseek_v4_plus(model)


def is_deep_research(model: dict[str, Any]) -> bool:
    return (provider_id_of_model(model) in ("openai", "openai-chat")
            and _search(r"deep[-_]?research", base_id(model)))


# ------------------------------------------------------------------ §9.5 thinking-budget table:
# per model family, the smallest and largest thinking budget, first matching row wins

_ROWS: list[tuple[str, int, int]] = [
    (rf"gemini-2\.5-flash-lite{N}*\Z", 512, 24576),
    (r"gemini-flash-lite-latest\Z", 512, 24576),
    (r"gemini-flash-latest\Z", 0, 24576),
    (r"gemini-pro-latest\Z", 128, 32768),
    (rf"gemini-{N}*-flash{N}*\Z", 0, 24576),
    (rf"gemini-{N}*-pro{N}*\Z", 128, 32768),
    (r"qwen3-235b-a22b-thinking-2507\Z", 0, 81920),
    (r"qwen3-30b-a3b-thinking-2507\Z", 0, 81920),
    (r"qwen3-vl-235b-a22b-thinking\Z", 0, 81920),
    (r"qwen3-vl-30b-a3b-thinking\Z", 0, 81920),
    (r"qwen-plus-2025-07-14\Z", 0, 38912),
    (r"qwen-plus-2025-04-28\Z", 0, 38912),
    (r"qwen3-1\.7b\Z", 0, 30720),
    (r"qwen3-0\.6b\Z", 0, 30720),
    (rf"qwen-plus{N}*\Z", 0, 81920),
    (rf"qwen-turbo{N}*\Z", 0, 38912),
    (rf"qwen-flash{N}*\Z", 0, 81920),
    (rf"qwen3-max\Z|qwen3-max-{N}*\Z", 0, 81920),
    (r"qwen-max-latest\Z", 0, 81920),
    (r"^qwen3\.[5-9]", 0, 81920),
    (rf"qwen3-(?!max){N}*\Z", 1024, 38912),
    (r"claude-opus-4[.-]7(?:[@:-][A-Za-z0-9_:-]+)?\Z", 1024, 128000),
    (r"claude-opus-4[.-]6(?:[@:-][A-Za-z0-9_:-]+)?\Z", 1024, 128000),
    (rf"claude-(?:sonnet|:sonnet|haiku)-4[.-]6{N}*\Z", 1024, 64000),
    (rf"claude-(?:haiku|:haiku|sonnet|opus)-4[.-]5{N}*\Z", 1024, 64000),
    (rf"claude-opus-4[.-]1{N}*\Z", 1024, 32000),
    (r"claude-sonnet-4(?:[.-]0)?(?:[@-](?:\d{4,}|[A-Za-z][A-Za-z0-9_-]*))?(?:-v\d+:\d+)?\Z",
     1024, 64000),
    (r"claude-opus-4(?:[.-]0)?(?:[@-](?:\d{4,}|[A-Za-z][A-Za-z0-9_-]*))?(?:-v\d+:\d+)?\Z",
     1024, 32000),
    (rf"claude-3[.-]7{N}*sonnet{N}*\Z", 1024, 64000),
    (r"baichuan-m2\Z", 0, 30000),
    (r"baichuan-m3\Z", 0, 30000),
    (r"gemma-?4[:-]?e[24]b", 1024, 8192),
    (r"gemma-?4[:-]?26b", 1024, 30720),
    (r"gemma-?4[:-]?31b", 1024, 30720),
    (r"hunyuan-a13b", 0, 30720),
    (r"glm5|glm-5|glm-4\.5|glm-4\.6|glm-4\.7", 0, 30720),
    (r"mimo-v2\.5(?!-)|mimo-v2\.5-pro(?!-)", 0, 30720),
    (r"mimo-v2-flash|mimo-v2-pro|mimo-v2-omni", 0, 30720),
    (r"kimi-k2\.[5-9]|kimi-k[3-9]", 0, 30720),
    (r"doubao-(?:1[.-]5-thinking-vision-pro|1[.-]5-thinking-pro-m"
     r"|seed-1[.-][68](?!-thinking(?:-|\Z))|seed-code|seed-2[.-]0)", 0, 30720),
]

EFFORT_RATIOS: dict[str, float] = {
    "none": 0.01, "minimal": 0.05, "low": 0.05, "medium": 0.5, "high": 0.8, "xhigh": 0.9,
    "auto": 2, "default": 0,
}


def token_limits(model_id: str) -> tuple[int, int] | None:
    """First row of the §9.5 table whose test passes, as ``(min, max)``; ``None`` for no entry."""
    for pattern, low, high in _ROWS:
        if _search(pattern, model_id):
            return low, high
    return None


def raw_budget(limits: tuple[int, int], ratio: float) -> int:
    """``floor((max − min) × ratio + min)``."""
    low, high = limits
    return math.floor((high - low) * ratio + low)


def effort_of(assistant: object) -> Any:
    """``assistant.settings.reasoning_effort`` (``UNDEFINED`` when missing)."""
    if not isinstance(assistant, dict):
        return UNDEFINED
    value = get_path(assistant, "settings", "reasoning_effort")
    if isinstance(value, (list, dict)):
        # Not a string: it equals no effort name and looks nothing up (hashable stand-in).
        return ("<non-string effort>", repr(value))
    return value


def effort_unset(effort: object) -> bool:
    return is_nullish(effort) or effort == ""
