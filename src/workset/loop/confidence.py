"""How sure the model was of the fact its answer gives: token log-probabilities, read once.

The outcome rules (:mod:`workset.loop.outcome`) call an answer ``answered`` when its facts
appear in what the run read. A small model's wrong answer often passes them: it names another
value that was on the screen. What the rules cannot see, the model's own distribution can:
when it wrote that value, did it hesitate?

After a final answer the same request is sent once more with the answer's length as its
limit, greedy, asking for each token's log-probability (:func:`scoring_request`). The prefix
is in the server's KV cache, so this costs about the answer's own generation (a second or two
on the embedded model), and greedy decoding writes the same text again (:func:`same_text`
checks; a different text is not scored). The probability of the answer's main fact is the
lowest probability among the tokens that spell it (:func:`fact_probability`); below
``AgentConfig.answer_confidence`` the answer is ``answered_unverified``, with the probability
in the reason. Measured in docs/results/agent-tasks.md (session 47).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from workset.loop.outcome import Verdict, main_fact, task_of
from workset.messages import Message
from workset.models.base import ModelRequest, ModelResponse, TokenLogprob


def scoring_request(request: ModelRequest, response: ModelResponse) -> ModelRequest:
    """``request`` again, greedy, limited to the length of ``response``'s answer, asking for
    token log-probabilities."""
    length = max(response.usage.completion_tokens, len(response.message.content or "") // 2)
    return dataclasses.replace(
        request, max_tokens=length + 2, temperature=0.0, logprobs=True, seed=None
    )


def text_of(tokens: Sequence[TokenLogprob]) -> str:
    return "".join(t.text for t in tokens)


def same_text(answer: str, tokens: Sequence[TokenLogprob]) -> bool:
    """Whether ``tokens`` spell ``answer`` (one may stop before the other's last token)."""
    written, said = text_of(tokens).strip(), answer.strip()
    if not written or not said:
        return False
    return written.startswith(said) or said.startswith(written)


def _plain(text: str) -> str:
    return text.strip().strip("`'\"").lower()


def token_probability(token: TokenLogprob) -> float:
    """The probability of ``token``, with the alternatives that differ from it only in case,
    spaces or quotes added (``tiny`` beside ``Tiny``, `` `None`` beside ``None``: the same
    fact written another way, not doubt about it)."""
    plain = _plain(token.text)
    same = sum(math.exp(p) for text, p in token.alternatives if plain and _plain(text) == plain)
    return min(1.0, math.exp(token.logprob) + same)


def fact_probability(tokens: Sequence[TokenLogprob], fact: str) -> float | None:
    """The lowest probability (:func:`token_probability`) among the tokens that spell
    ``fact`` where the answer first names it (case ignored); None when the tokens do not
    contain it."""
    text = text_of(tokens)
    start = text.lower().find(fact.lower())
    if start < 0 or not fact:
        return None
    end, position, lowest = start + len(fact), 0, None
    for token in tokens:
        after = position + len(token.text)
        if after > start and position < end and token.text.strip():
            chance = token_probability(token)
            lowest = chance if lowest is None else min(lowest, chance)
        position = after
    return lowest


def doubted(
    verdict: Verdict,
    history: Sequence[Message],
    tokens: Sequence[TokenLogprob],
    below: float | None,
) -> Verdict:
    """``verdict`` (of the run that ended ``history``), made ``answered_unverified`` when it is
    ``answered`` and the model gave the answer's main fact with a probability under ``below``
    (``tokens``: the answer scored, :func:`scoring_request`). Unchanged without tokens, with
    ``below`` None, or when the tokens do not spell the main fact."""
    if verdict.outcome != "answered" or below is None or not tokens or not verdict.supported:
        return verdict
    main = main_fact(task_of(history), verdict.supported)
    probability = fact_probability(tokens, main)
    if probability is None or probability >= below:
        return verdict
    return Verdict(
        "answered_unverified",
        f"the model was unsure of {main!r} as it answered (probability {probability:.2f}, "
        f"under {below:g}), though what the run read shows it",
        verdict.supported,
    )
