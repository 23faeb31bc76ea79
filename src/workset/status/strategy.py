"""How the status block enters each request, and which way is cheaper for the prompt cache.

Both strategies put the newest block last, as a user-role message, right before the tokens
the model is about to write; they differ in what happens to the previous block:

``replace``
    The block is rebuilt each round and appended at the very end of the request only; it is
    never recorded in the history. Dropping last round's block invalidates the cache of what
    was appended after it (usually one round), never the prefix; stale blocks never pile up.
``append``
    Each round's block is appended to the trajectory and stays there (Claude Code's
    ``<system-reminder>``). Nothing already sent changes, so the cache always hits, but stale
    blocks accumulate and the model must attend to the latest one.

:func:`cost_model` is the seed's rough break-even model, reported in the manifest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from workset.errors import UsageError
from workset.messages import Message, UserMessage
from workset.status.render import OPEN_TAG

StatusStrategy: TypeAlias = Literal["replace", "append"]
STRATEGIES: tuple[StatusStrategy, ...] = ("replace", "append")


@dataclass(frozen=True, slots=True)
class StatusPlacement:
    """One round's placement: what to send, and what (if anything) to record for good."""

    messages: tuple[Message, ...]  # the trajectory to send, the status block last
    record: UserMessage | None  # under ``append``: add to the recorded history; else None


def place_status(
    history: Sequence[Message], block: str, strategy: StatusStrategy
) -> StatusPlacement:
    """Put ``block`` at the very end of ``history`` as a user message, per ``strategy``.

    ``history`` is what the loop has recorded: under ``replace`` it holds no status blocks
    (they are never recorded); under ``append`` it holds every earlier block, unchanged.
    """
    if strategy not in STRATEGIES:
        raise UsageError(f"status strategy must be 'replace' or 'append', not {strategy!r}")
    message = UserMessage(block)
    return StatusPlacement(
        messages=(*history, message),
        record=message if strategy == "append" else None,
    )


def is_status_message(message: Message) -> bool:
    """True for a user message that is a status block (an appended one, in a history)."""
    return isinstance(message, UserMessage) and message.content.startswith(OPEN_TAG)


@dataclass(frozen=True, slots=True)
class StatusCost:
    """The seed's cache-cost model of the two strategies, for the manifest.

    Symbols, as the seed defines them (costs in units of one uncached input token):

    - ``alpha`` (α): the price of a cached input token relative to an uncached one (about 0.1
      at Anthropic, DeepSeek and GPT-5).
    - ``state_tokens`` (S): the tokens of one status block.
    - ``updates`` (N): the expected number of status updates in the session.
    - ``suffix_tokens`` (R): the tokens appended between two updates.

    ``replace_cost`` ≈ (N−1)(1−α)R: each of the N−1 later updates drops the old block, so the
    R tokens written after it are paid again uncached instead of cached. ``append_cost`` ≈
    αSN(N−1)/2: the 0, 1, …, N−1 stale blocks are re-read from cache on every later call.
    Costs common to both are left out, and so are the context space and the ambiguity stale
    blocks cause; check the provider's cache prices and the measured hit rate as well.
    ``winner`` is ``append`` when αSN/2 < (1−α)R, else ``replace``.
    """

    alpha: float
    state_tokens: int
    updates: int
    suffix_tokens: int
    replace_cost: float
    append_cost: float
    append_side: float  # αSN/2
    replace_side: float  # (1−α)R
    winner: StatusStrategy

    def explain(self) -> str:
        """One line for humans: the inequality with its numbers and the verdict."""
        relation = "<" if self.winner == "append" else "≥"
        return (
            f"α·S·N/2 = {self.alpha:g}·{self.state_tokens}·{self.updates}/2 = "
            f"{self.append_side:g} {relation} (1−α)·R = {self.replace_side:g}: "
            f"{self.winner} wins (replace ≈ {self.replace_cost:g}, append ≈ "
            f"{self.append_cost:g} uncached-token equivalents)"
        )


def cost_model(alpha: float, state_tokens: int, updates: int, suffix_tokens: int) -> StatusCost:
    """The break-even of ``append`` vs ``replace``: ``cost_model(α, S, N, R)``."""
    if not 0.0 <= alpha <= 1.0:
        raise UsageError(
            f"alpha is the cached/uncached price ratio and must be within 0..1, not {alpha}"
        )
    if state_tokens < 0 or suffix_tokens < 0:
        raise UsageError(f"token counts cannot be negative (S={state_tokens}, R={suffix_tokens})")
    if updates < 1:
        raise UsageError(f"updates (N) must be at least 1, not {updates}")
    append_side = alpha * state_tokens * updates / 2
    replace_side = (1 - alpha) * suffix_tokens
    return StatusCost(
        alpha=alpha,
        state_tokens=state_tokens,
        updates=updates,
        suffix_tokens=suffix_tokens,
        replace_cost=(updates - 1) * (1 - alpha) * suffix_tokens,
        append_cost=alpha * state_tokens * updates * (updates - 1) / 2,
        append_side=append_side,
        replace_side=replace_side,
        winner="append" if append_side < replace_side else "replace",
    )
