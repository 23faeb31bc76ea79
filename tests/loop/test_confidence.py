"""A final answer scored once with token log-probabilities: an answer the outcome rules call
``answered`` stays so only when the model gave its main fact with at least
``AgentConfig.answer_confidence`` probability (workset.loop.confidence)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import anyio
import pytest

from workset.loop.confidence import doubted, fact_probability, same_text, scoring_request
from workset.loop.outcome import Verdict
from workset.loop.settings import RunResult
from workset.messages import AssistantMessage, UserMessage
from workset.models.base import ModelRequest, ModelResponse, TokenLogprob, Usage
from workset.models.chat_stream import read_json
from workset.models.openai_compat import OpenAICompatibleModel
from workset.session.agent import Agent, AgentConfig
from workset.testing import ScriptedModel, call, current_store
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace

TASK = "What is the default chunk size of fold?"
ANSWER = "The default chunksize of fold is 128, in parallel.py."


def tokens(text: str, unsure: str = "", p: float = 0.2) -> tuple[TokenLogprob, ...]:
    """``text`` as tokens of up to four characters, each of probability 0.99 but those of
    ``unsure`` (split at its own start), which get ``p``."""
    cut = text.find(unsure) if unsure else -1
    pieces = [text[:cut], text[cut : cut + len(unsure)], text[cut + len(unsure) :]]
    out = []
    for index, piece in enumerate(pieces if cut >= 0 else [text]):
        chance = p if cut >= 0 and index == 1 else 0.99
        out += [
            TokenLogprob(piece[i : i + 4], math.log(chance), (("~", math.log(0.005)),))
            for i in range(0, len(piece), 4)
        ]
    return tuple(out)


def scored(text: str, unsure: str = "", p: float = 0.2) -> ModelResponse:
    return ModelResponse(
        AssistantMessage(text), Usage(10, 12), "length", tokens=tokens(text, unsure, p)
    )


def parallel_module(root: Path) -> None:
    lines = [f"CONSTANT_{n} = {n}" for n in range(1, 41)]
    lines[9] = "def fold(binop, seq, default=None, map=map, chunksize=128, combine=None):"
    lines[29] = "    return fold(add, data, chunksize=1)  # fold in chunks of one"
    (root / "parallel.py").write_text("\n".join(lines) + "\n")


def run(root: Path, score: object, below: float | None) -> tuple[RunResult, ScriptedModel]:
    read = AssistantMessage(None, (call("read_file", '{"path": "parallel.py"}', "r1"),))
    model = ScriptedModel(
        [read, ANSWER, score],
        context_window=8192,
        logprobs=True,  # type: ignore[list-item]
    )
    agent = Agent(
        model,
        ToolRegistry(perception_tools(Workspace(root))),
        current_store(),
        AgentConfig(answer_confidence=below, check_answers=False),
    )
    return anyio.run(agent.run, TASK), model


def test_an_answer_given_unsure_of_its_fact_is_unverified(tmp_path: Path) -> None:
    parallel_module(tmp_path)
    result, model = run(tmp_path, scored(ANSWER, "128", 0.3), 0.5)
    assert result.answer == ANSWER  # the run's answer is the one given, scored or not
    assert result.outcome == "answered_unverified"
    assert "unsure of '128'" in result.outcome_reason and "0.30" in result.outcome_reason
    asked = model.requests[2]
    assert asked.logprobs and asked.temperature == 0.0
    assert asked.messages == model.requests[1].messages  # the answer's own request, again
    assert asked.max_tokens is not None and asked.max_tokens < 64
    assert result.usage.calls == 2  # the scoring call is counted in the run's tokens, not calls
    assert result.usage.prompt_tokens > 0


def test_an_answer_given_sure_of_its_fact_stays_answered(tmp_path: Path) -> None:
    parallel_module(tmp_path)
    result, _ = run(tmp_path, scored(ANSWER, "128", 0.9), 0.5)
    assert result.outcome == "answered"


def test_a_scoring_call_that_writes_another_text_scores_nothing(tmp_path: Path) -> None:
    parallel_module(tmp_path)
    result, _ = run(tmp_path, scored("The default chunksize is 1.", "1", 0.1), 0.5)
    assert result.outcome == "answered"


def test_a_failed_scoring_call_leaves_the_verdict_as_the_rules_gave_it(tmp_path: Path) -> None:
    from workset.errors import ModelResponseError

    parallel_module(tmp_path)
    result, _ = run(tmp_path, ModelResponseError("the server went away"), 0.5)
    assert result.outcome == "answered"


def test_answers_are_not_scored_when_it_is_off(tmp_path: Path) -> None:
    parallel_module(tmp_path)
    result, model = run(tmp_path, scored(ANSWER, "128", 0.01), None)
    assert result.outcome == "answered" and len(model.requests) == 2


def test_the_scored_tokens_are_kept_with_the_call_in_the_log(tmp_path: Path) -> None:
    from workset.events.records import ModelCalled

    parallel_module(tmp_path)
    store = current_store()
    read = AssistantMessage(None, (call("read_file", '{"path": "parallel.py"}', "r1"),))
    model = ScriptedModel(
        [read, ANSWER, scored(ANSWER, "128", 0.3)], context_window=8192, logprobs=True
    )
    agent = Agent(
        model,
        ToolRegistry(perception_tools(Workspace(tmp_path))),
        store,
        AgentConfig(answer_confidence=0.5),
    )
    result = anyio.run(agent.run, TASK)
    rows = store.events(result.session_id, kinds=["model_called"])
    calls = [r.event for r in rows if isinstance(r.event, ModelCalled)]
    assert [bool(c.answer_tokens) for c in calls] == [False, True]
    assert "".join(t.text for t in calls[-1].answer_tokens) == ANSWER


@pytest.mark.parametrize(
    ("fact", "expected"),
    [("128", 0.3), ("CHUNKSIZE", 0.99), ("parallel.py", 0.99), ("256", None), ("", None)],
)
def test_a_fact_is_as_sure_as_its_least_sure_token(fact: str, expected: float | None) -> None:
    found = fact_probability(tokens(ANSWER, "128", 0.3), fact)
    assert found == pytest.approx(expected) if expected is not None else found is None


def test_tokens_spell_the_answer_even_when_one_stops_first() -> None:
    assert same_text(ANSWER, tokens(ANSWER[:20]))
    assert same_text(ANSWER[:20], tokens(ANSWER))
    assert not same_text(ANSWER, tokens("The default is 1."))
    assert not same_text(ANSWER, ())


def test_doubt_only_touches_answered_verdicts_with_a_fact() -> None:
    history = [UserMessage(TASK), AssistantMessage(ANSWER)]
    unsure = tokens(ANSWER, "128", 0.2)
    answered = Verdict("answered", "supported by what the run read ('128')", ("128",))
    assert doubted(answered, history, unsure, 0.5).outcome == "answered_unverified"
    assert doubted(answered, history, unsure, 0.1) is answered
    assert doubted(answered, history, (), 0.5) is answered
    unverified = Verdict("answered_unverified", "nothing supports it", ("128",))
    assert doubted(unverified, history, unsure, 0.5) is unverified
    words_only = Verdict("answered", "its words appear in what the run read ('chunk')")
    assert doubted(words_only, history, unsure, 0.5) is words_only


def test_the_scoring_request_repeats_the_request_greedy_and_short() -> None:
    request = ModelRequest((UserMessage(TASK),), max_tokens=512, temperature=0.7, seed=3)
    response = ModelResponse(AssistantMessage(ANSWER), Usage(100, 14))
    again = scoring_request(request, response)
    assert again.messages == request.messages and again.logprobs
    assert again.temperature == 0.0 and again.seed is None
    assert 14 < again.max_tokens <= 32  # type: ignore[operator]


def test_an_openai_compatible_body_with_logprobs_gives_the_tokens() -> None:
    body = {
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "Paris"},
                "finish_reason": "stop",
                "logprobs": {
                    "content": [
                        {
                            "token": "Paris",
                            "logprob": -0.15,
                            "top_logprobs": [
                                {"token": "Paris", "logprob": -0.15},
                                {"token": "London", "logprob": -2.4},
                            ],
                        }
                    ]
                },
            }
        ],
        "usage": {"prompt_tokens": 12, "completion_tokens": 1},
    }
    reply = read_json(json.dumps(body).encode())
    assert not isinstance(reply, type(None))
    response = reply.response("m", 0.1, {})  # type: ignore[union-attr]
    assert response.tokens == (TokenLogprob("Paris", -0.15, (("London", -2.4),)),)
    assert response.tokens[0].runner_up == -2.4


def test_a_request_for_logprobs_is_sent_whole_not_streamed() -> None:
    model = OpenAICompatibleModel("http://127.0.0.1:9/v1", model="m")
    request = ModelRequest((UserMessage(TASK),), logprobs=True)
    payload = model._payload(request)
    assert payload["logprobs"] is True and payload["top_logprobs"] == 5
    assert payload["stream"] is False and "stream_options" not in payload
    plain = model._payload(ModelRequest((UserMessage(TASK),)))
    assert plain["stream"] is True and "logprobs" not in plain


def test_a_backend_that_reports_no_logprobs_is_not_asked(tmp_path: Path) -> None:
    parallel_module(tmp_path)
    read = AssistantMessage(None, (call("read_file", '{"path": "parallel.py"}', "r1"),))
    model = ScriptedModel([read, ANSWER], context_window=8192)  # logprobs=False
    agent = Agent(
        model,
        ToolRegistry(perception_tools(Workspace(tmp_path))),
        current_store(),
        AgentConfig(answer_confidence=0.5),
    )
    result = anyio.run(agent.run, TASK)
    assert result.outcome == "answered" and len(model.requests) == 2


def test_a_variant_in_case_or_quotes_is_not_doubt() -> None:
    tiny = TokenLogprob("Tiny", math.log(0.4), (("tiny", math.log(0.35)),))
    other = TokenLogprob("Tiny", math.log(0.4), (("toolz", math.log(0.35)),))
    rest = (TokenLogprob("DB/utils.py", math.log(0.99)),)
    assert fact_probability((tiny, *rest), "TinyDB/utils.py") == pytest.approx(0.75)
    assert fact_probability((other, *rest), "TinyDB/utils.py") == pytest.approx(0.4)
