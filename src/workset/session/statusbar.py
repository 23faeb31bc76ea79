"""The status bar in a session's requests.

As a notice producer (:func:`status_notices`, registered with the session's
:class:`~workset.session.notices.NoticeQueue`): one notice per flush, a suffix context item
when the bar's strategy is ``replace``, else its rendered text recorded in the trajectory. As
notes for the request's manifest (:func:`status_notes`): the strategy and what the bar costs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from workset.session.notices import Notice

if TYPE_CHECKING:
    from workset.session.engine import Session


def status_notices(session: Session, now: float) -> Sequence[Notice]:
    """The status bar's notice for the flush at ``now`` (none without a status bar)."""
    bar = session.agent.status
    if bar is None:
        return ()
    if bar.strategy == "replace":
        item = bar.item(now)
        return (
            Notice(
                session.queue.new_id("status"), "status", "status_bar", "suffix", now, item=item
            ),
        )
    text = bar.render(now)
    return (
        Notice(session.queue.new_id("status"), "status", "status_bar", "trajectory", now, text),
    )


def status_notes(session: Session, iteration: int) -> dict[str, str]:
    """The manifest's notes on the status bar: its strategy and its cost at ``iteration``."""
    bar = session.agent.status
    if bar is None:
        return {}
    counter = session.agent.request_settings.counter
    state_tokens = counter.count_text(bar.render(session.now()))
    recent = session.state.messages[-2:]
    suffix = sum(counter.count_text(m.content or "") for m in recent)
    cost = bar.cost(state_tokens, iteration, suffix)
    return {"status_strategy": bar.strategy, "status_cost": cost.explain()}
