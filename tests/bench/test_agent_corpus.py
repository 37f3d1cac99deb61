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


def test_session_messages_are_the_sessions_turns_as_a_chat_body():
    from bench.agent_corpus import session_messages

    messages = session_messages(100_000)
    assert sum(len(m["content"]) for m in messages) >= 100_000 and {m["role"] for m in messages} == {"user"}
    text = sessions(200_000)  # (the same turns, drawn from the same seed; its prefixes make it longer)
    assert all(f"User: {m['content']}" in text or f"Assistant: {m['content']}" in text for m in messages)
    assert session_messages(50_000) == session_messages(100_000)[:len(session_messages(50_000))]
