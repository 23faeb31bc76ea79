"""Intake: how events reach the workers that serve sessions.

:class:`LocalIntake` (in-process, the embedded default) and :class:`RedisIntake` (Redis
Streams with a consumer group, acknowledgement after the event is durable in the log,
``XAUTOCLAIM`` recovery of a dead worker's entries, a dead-letter stream) implement one
:class:`Intake` protocol; :mod:`workset.worker` consumes either.
"""

from __future__ import annotations

from workset.intake.base import Delivery, Intake, LocalIntake, decode_event, encode_event
from workset.intake.redis_streams import RedisIntake

__all__ = ["Delivery", "Intake", "LocalIntake", "RedisIntake", "decode_event", "encode_event"]
