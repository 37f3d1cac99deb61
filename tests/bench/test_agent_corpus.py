"""bench.agent_corpus: seeded, realistic and whole (no fence left open by the size cut)."""

from __future__ import annotations

from bench.agent_corpus import sessions
from engine.caveman.fences import fence_spans


def test_same_seed_same_text_other_seed_other_text():
    assert sessions(50_000) == sessions(50_000)
    assert sessions(50_000, seed=1) != sessions(50_000)
    assert sessions(200_000).startswith(sessions(50_000))  # (a larger size extends a smaller one)


def test_sessions_mix_what_agents_send():
    text = sessions(300_000)
    assert len(text) >= 300_000
    for marker in ("```python", "```diff", "```js", "Traceback (most recent call last):", "    at ",
                   "@@ -", "https://", "$ ", "ERROR", "User: ", "Assistant: ", "\r\n"):
        assert marker in text, marker
    # every fence is closed: the cut falls between messages
    assert text.count("```") == 2 * len(fence_spans(text))
