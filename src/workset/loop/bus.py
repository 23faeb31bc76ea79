"""A synchronous event bus: the loop emits, subscribers listen, in subscription order.

The session log subscribes first, so an event is durable before any other subscriber (the CLI,
an eval harness) sees it. A subscriber that raises stops the run: losing the log is a failure.
"""

from __future__ import annotations

from collections.abc import Callable

from workset.events import LoopEvent

Subscriber = Callable[[LoopEvent], None]


class EventBus:
    def __init__(self, *subscribers: Subscriber) -> None:
        self._subscribers: list[Subscriber] = list(subscribers)

    def subscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.append(subscriber)

    def emit(self, event: LoopEvent) -> None:
        for subscriber in self._subscribers:
            subscriber(event)
