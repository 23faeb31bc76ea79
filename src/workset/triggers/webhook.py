"""Webhook intake (``connect_channel``): a signed HTTP POST becomes one structured event.

Seed 004 ("Canales de eventos externos"): the world pushes events to the agent — a new
email, an API callback — instead of the agent polling for them. A *channel* is configured
once (``[[channels]]`` in ``workset.toml``: its name, the environment variable holding its
shared secret, the session it delivers to, the source and priority of its events) and
``workset serve`` accepts ``POST /hooks/{channel}`` for it.

A sender signs each request with the channel's secret::

    X-Workset-Timestamp: 1780000000                     (unix seconds, when it was signed)
    X-Workset-Signature: sha256=<hex HMAC-SHA256 of "{timestamp}.{raw body}">
    X-Workset-Event-Id:  <optional id; retries with the same id are delivered once>

:func:`verify` refuses a request that is unsigned, whose signature does not match (compared
in constant time), or whose timestamp is more than ``max_age_s`` (default 300) away from
now, in either direction: a replayed or forged request records nothing. :func:`sign` and
:func:`signed_headers` are for senders and tests. :func:`hook_event` turns the verified JSON
object into an event: type ``webhook.<channel>``, source ``contact`` unless configured
otherwise, sender from the payload, the whole payload as content, never trusted (an email
can describe a request, never issue one).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from workset.config import ChannelSection
from workset.errors import UsageError
from workset.events.inputs import MAX_EVENT_BYTES, Event, EventContext, EventSource, Priority

TIMESTAMP_HEADER = "X-Workset-Timestamp"
SIGNATURE_HEADER = "X-Workset-Signature"
EVENT_ID_HEADER = "X-Workset-Event-Id"
_SCHEME = "sha256="
_EVENT_ID = re.compile(r"[A-Za-z0-9._:-]{1,100}")


class HookRefused(Exception):
    """A webhook request that is not accepted; ``status`` is the HTTP status to answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Channel:
    """A configured channel with its secret read from the environment."""

    name: str
    secret: bytes
    session: str
    source: EventSource = "contact"
    priority: Priority = "normal"
    sender_field: str = "from"
    max_age_s: int = 300

    @classmethod
    def from_config(
        cls, section: ChannelSection, environ: Mapping[str, str] | None = None
    ) -> Channel:
        """The channel ``section`` describes; raises :class:`UsageError` when its secret's
        environment variable is not set."""
        env = os.environ if environ is None else environ
        secret = env.get(section.secret_env, "")
        if not secret:
            raise UsageError(
                f"channel {section.name!r} reads its shared secret from ${section.secret_env}, "
                f"which is not set; export {section.secret_env}=<secret> before starting "
                "workset serve (the sender signs with the same secret)"
            )
        return cls(
            section.name,
            secret.encode(),
            section.session,
            section.source,
            section.priority,
            section.sender_field,
            section.max_age_s,
        )


def sign(secret: str | bytes, body: bytes, timestamp: int) -> str:
    """The ``X-Workset-Signature`` value for ``body`` signed at ``timestamp``."""
    key = secret.encode() if isinstance(secret, str) else secret
    digest = hmac.new(key, f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"{_SCHEME}{digest}"


def signed_headers(
    secret: str | bytes, body: bytes, *, timestamp: int | None = None, event_id: str = ""
) -> dict[str, str]:
    """The headers a sender adds to ``POST /hooks/{channel}`` (timestamp: now)."""
    when = int(time.time()) if timestamp is None else timestamp
    headers = {
        TIMESTAMP_HEADER: str(when),
        SIGNATURE_HEADER: sign(secret, body, when),
        "Content-Type": "application/json",
    }
    if event_id:
        headers[EVENT_ID_HEADER] = event_id
    return headers


def verify(channel: Channel, headers: Mapping[str, str], body: bytes, now: float) -> None:
    """Raise :class:`HookRefused` (401) unless ``body`` carries a valid, fresh signature.

    ``headers`` must look names up case-insensitively (as HTTP headers do).
    """
    stamp, signature = headers.get(TIMESTAMP_HEADER), headers.get(SIGNATURE_HEADER)
    how = (
        f"sign it: {SIGNATURE_HEADER}: sha256=<hex HMAC-SHA256 with the channel secret over "
        f'"{{timestamp}}.{{raw body}}">, {TIMESTAMP_HEADER}: <unix seconds>'
    )
    if not stamp or not signature:
        missing = [
            h for h, v in ((TIMESTAMP_HEADER, stamp), (SIGNATURE_HEADER, signature)) if not v
        ]
        raise HookRefused(401, f"unsigned request: {' and '.join(missing)} missing; {how}")
    try:
        when = int(stamp)
    except ValueError:
        raise HookRefused(
            401, f"{TIMESTAMP_HEADER} must be whole unix seconds, not {stamp[:40]!r}"
        ) from None
    expected = sign(channel.secret, body, when)
    if not hmac.compare_digest(expected.encode(), signature.strip().encode()):
        raise HookRefused(
            401,
            f"the signature does not match the body for channel {channel.name!r}: check the "
            f"shared secret and sign the exact bytes sent; {how}",
        )
    skew = now - when
    if abs(skew) > channel.max_age_s:
        age = f"signed {skew:.0f} s ago" if skew > 0 else f"dated {-skew:.0f} s in the future"
        raise HookRefused(
            401,
            f"stale request: {age}, and channel {channel.name!r} accepts at most "
            f"{channel.max_age_s} s either way; sign each request as it is sent and keep the "
            "sender's clock in sync",
        )


def hook_event(channel: Channel, body: bytes, *, event_id: str = "") -> Event:
    """The event for a verified request body (a JSON object); raises :class:`HookRefused`
    (400 or 413) for a body that is not one."""
    if len(body) > MAX_EVENT_BYTES:
        raise HookRefused(
            413,
            f"the body is {len(body)} bytes, over the {MAX_EVENT_BYTES} limit; send a smaller "
            "payload that points to the rest (a URL or a path)",
        )
    try:
        payload: Any = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise HookRefused(400, f"the body is not JSON ({exc}); send a JSON object") from None
    if not isinstance(payload, dict) or not payload:
        raise HookRefused(
            400, f"the body must be a non-empty JSON object, not {type(payload).__name__}"
        )
    sender = payload.get(channel.sender_field, payload.get("sender", ""))
    if event_id and not _EVENT_ID.fullmatch(event_id):
        raise HookRefused(
            400,
            f"{EVENT_ID_HEADER} must be 1 to 100 letters, digits or '._:-', not {event_id[:40]!r}",
        )
    digest = hashlib.sha256(channel.name.encode() + b"\0" + body).hexdigest()[:20]
    return Event(
        id=f"hook:{channel.name}:{event_id or digest}",
        type=f"webhook.{channel.name}",
        source=channel.source,
        channel=channel.name,
        content=payload,
        context=EventContext(priority=channel.priority),
        sender=sender if isinstance(sender, str) else json.dumps(sender, ensure_ascii=False),
        at=time.time(),
        trusted=False,
    )
