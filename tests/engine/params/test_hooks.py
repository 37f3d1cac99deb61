"""``compose_hooks``: isolation, onError verdicts, prepareStep threading (spec §3)."""

from engine.params.hooks import compose_hooks


def test_zero_and_one_part():
    assert compose_hooks([]) == {}
    part = {"onFinish": print}
    assert compose_hooks([part]) == part


def test_void_hooks_run_in_order_and_failures_are_isolated():
    calls = []

    def boom(event):
        raise RuntimeError("x")

    hooks = compose_hooks([{"onFinish": lambda e: calls.append(("a", e))}, {"onFinish": boom},
                           {"onFinish": lambda e: calls.append(("c", e))}])
    hooks["onFinish"]("done")
    assert calls == [("a", "done"), ("c", "done")]


def test_on_error_retries_if_any_handler_says_so():
    retry = compose_hooks([{"onError": lambda e: "abort"}, {"onError": lambda e: "retry"}])
    assert retry["onError"](ValueError()) == "retry"
    abort = compose_hooks([{"onError": lambda e: None}, {"onError": lambda e: "abort"}])
    assert abort["onError"](ValueError()) == "abort"


def test_prepare_step_threads_messages_and_last_writer_wins():
    seen = []

    def first(options):
        seen.append(list(options["messages"]))
        return {"messages": options["messages"] + ["first"], "toolChoice": "auto"}

    def second(options):
        seen.append(list(options["messages"]))
        return {"toolChoice": "none"}

    hooks = compose_hooks([{"prepareStep": first}, {"prepareStep": second}])
    result = hooks["prepareStep"]({"messages": ["m0"], "stepNumber": 1})
    assert seen == [["m0"], ["m0", "first"]]
    assert result == {"messages": ["m0", "first"], "toolChoice": "none"}
