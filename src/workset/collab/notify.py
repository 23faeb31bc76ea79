"""Notifications over pluggable channels, chosen by urgency, each delivery recorded.

Seed 004 ("Estrategias de tiempo de espera y degradación"): "notify urgent requests on several
channels, normal ones by email only". A :class:`Channel` sends one :class:`Notification`
(console, email over SMTP, a generic JSON webhook, a chat webhook in the ``{"text": ...}``
shape Slack and Mattermost take); a :class:`Notifier` picks channels by urgency — ``urgent``
and ``high`` go to every channel, ``normal`` and ``low`` to the first that works in their
order of preference — and records every attempt in the session's log
(:class:`~workset.events.records.NotificationSent`, with the receiver's answer or why it
failed). A channel failure never raises into the agent: it is an outcome.
"""

from __future__ import annotations

import secrets
import smtplib
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Protocol, TextIO

import anyio.to_thread
import httpx

from workset.errors import UsageError
from workset.events import NotificationSent

URGENCIES = ("urgent", "high", "normal", "low")
# Which channels each urgency uses: "all" of them, or the "first" that delivers, in order.
ROUTES: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "urgent": ("all", ()),
    "high": ("all", ()),
    "normal": ("first", ("email", "chat", "webhook", "console")),
    "low": ("first", ("console", "chat", "email", "webhook")),
}


class DeliveryError(Exception):
    """A channel could not deliver; the message says why (kept as the outcome, not raised)."""


@dataclass(frozen=True, slots=True)
class Notification:
    subject: str
    text: str
    urgency: str = "normal"
    session_id: str = ""
    request_id: str = ""  # the human request it is about
    id: str = field(default_factory=lambda: f"nt-{secrets.token_hex(5)}")

    def payload(self) -> dict[str, str]:
        return {
            "id": self.id,
            "subject": self.subject,
            "text": self.text,
            "urgency": self.urgency,
            "session": self.session_id,
            "request_id": self.request_id,
        }


class Channel(Protocol):
    """Delivers a notification; ``kind`` is console, email, webhook or chat."""

    name: str
    kind: str

    async def send(self, notification: Notification) -> str:
        """Deliver it and say what the receiver answered; raise :class:`DeliveryError`."""
        ...


class Recorder(Protocol):
    """Where deliveries are recorded (a running session)."""

    @property
    def session_id(self) -> str: ...

    def now(self) -> float: ...

    def record(self, event: NotificationSent) -> int | None: ...


class ConsoleChannel:
    kind = "console"

    def __init__(self, stream: TextIO | None = None, *, name: str = "console") -> None:
        self.stream = stream
        self.name = name

    async def send(self, notification: Notification) -> str:
        stream = self.stream if self.stream is not None else sys.stderr
        try:
            stream.write(
                f"\n[{notification.urgency}] {notification.subject}\n{notification.text}\n"
            )
            stream.flush()
        except (OSError, ValueError) as exc:
            raise DeliveryError(f"cannot write to the console: {exc}") from exc
        return "written"


class EmailChannel:
    """Email over SMTP (STARTTLS and login when given), sent from a worker thread."""

    kind = "email"

    def __init__(
        self,
        host: str,
        port: int,
        sender: str,
        to: Sequence[str],
        *,
        username: str = "",
        password: str = "",
        starttls: bool = False,
        timeout_s: float = 10.0,
        name: str = "email",
    ) -> None:
        if not to:
            raise UsageError("an email channel needs at least one recipient ('to')")
        self.host, self.port, self.sender, self.to = host, port, sender, tuple(to)
        self.username, self.password, self.starttls = username, password, starttls
        self.timeout_s = timeout_s
        self.name = name

    async def send(self, notification: Notification) -> str:
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = ", ".join(self.to)
        message["Subject"] = f"[{notification.urgency}] {notification.subject}"
        message["X-Workset-Notification"] = notification.id
        message.set_content(notification.text)
        return await anyio.to_thread.run_sync(self._send, message)

    def _send(self, message: EmailMessage) -> str:
        try:
            with smtplib.SMTP(self.host, self.port, timeout=self.timeout_s) as smtp:
                if self.starttls:
                    smtp.starttls()
                if self.username:
                    smtp.login(self.username, self.password)
                refused = smtp.send_message(message)
        except (OSError, smtplib.SMTPException) as exc:
            raise DeliveryError(f"SMTP {self.host}:{self.port} failed: {exc}") from exc
        if refused:
            raise DeliveryError(f"the server refused {sorted(refused)}")
        return f"accepted by {self.host}:{self.port} for {', '.join(self.to)}"


class WebhookChannel:
    """POSTs the notification as JSON; any 2xx answer is a delivery."""

    kind = "webhook"

    def __init__(
        self,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        timeout_s: float = 10.0,
        name: str = "webhook",
    ) -> None:
        self.url, self.headers, self.timeout_s, self.name = (
            url,
            dict(headers or {}),
            timeout_s,
            name,
        )

    def body(self, notification: Notification) -> dict[str, object]:
        return dict(notification.payload())

    async def send(self, notification: Notification) -> str:
        try:
            async with httpx.AsyncClient(timeout=self.timeout_s) as client:
                response = await client.post(
                    self.url, json=self.body(notification), headers=self.headers
                )
        except httpx.HTTPError as exc:
            raise DeliveryError(f"POST {self.url} failed: {exc}") from exc
        if not response.is_success:
            raise DeliveryError(f"POST {self.url} answered {response.status_code}")
        return f"POST {self.url}: {response.status_code}"


class ChatWebhookChannel(WebhookChannel):
    """A chat room's incoming webhook: ``{"text": "*subject*\\ntext"}`` (Slack, Mattermost)."""

    kind = "chat"

    def __init__(self, url: str, *, timeout_s: float = 10.0, name: str = "chat") -> None:
        super().__init__(url, timeout_s=timeout_s, name=name)

    def body(self, notification: Notification) -> dict[str, object]:
        mark = ":rotating_light: " if notification.urgency == "urgent" else ""
        return {"text": f"{mark}*{notification.subject}*\n{notification.text}"}


class Notifier:
    """Sends a notification over the channels its urgency calls for, recording each attempt."""

    def __init__(self, channels: Sequence[Channel]) -> None:
        names = [c.name for c in channels]
        if len(set(names)) != len(names):
            raise UsageError(f"notification channel names must differ: {names}")
        self.channels = tuple(channels)

    def route(self, urgency: str) -> tuple[str, list[Channel]]:
        """(``all`` or ``first``, the channels in the order to try) for ``urgency``."""
        if urgency not in ROUTES:
            raise UsageError(f"urgency must be one of {', '.join(URGENCIES)}, not {urgency!r}")
        how, order = ROUTES[urgency]
        if how == "all":
            return how, list(self.channels)
        ranked = sorted(
            self.channels, key=lambda c: order.index(c.kind) if c.kind in order else len(order)
        )
        return how, ranked

    async def send(self, notification: Notification, recorder: Recorder) -> list[NotificationSent]:
        """Deliver ``notification``; the recorded attempts (none ok: nobody was reached)."""
        how, channels = self.route(notification.urgency)
        attempts: list[NotificationSent] = []
        for channel in channels:
            try:
                detail, ok = await channel.send(notification), True
            except DeliveryError as exc:
                detail, ok = str(exc), False
            attempt = NotificationSent(
                recorder.session_id, notification.id, channel.name, notification.urgency, ok,
                recorder.now(), notification.subject, detail[:500], notification.request_id,
            )  # fmt: skip
            recorder.record(attempt)
            attempts.append(attempt)
            if ok and how == "first":
                break
        return attempts


def delivered(attempts: Sequence[NotificationSent]) -> list[str]:
    """The channels that delivered."""
    return [a.channel for a in attempts if a.ok]


def describe(attempts: Sequence[NotificationSent]) -> str:
    if not attempts:
        return "no notification channel is configured"
    return "; ".join(f"{a.channel}: {'ok' if a.ok else 'failed'} ({a.detail})" for a in attempts)
