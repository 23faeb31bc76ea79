"""Notifications on real local servers: an SMTP server (aiosmtpd) and an HTTP receiver."""

from __future__ import annotations

import io
import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio
from aiosmtpd.controller import Controller
from support import Records

from workset.collab.human import HumanDesk
from workset.collab.human_tools import human_tools
from workset.collab.notify import (
    ChatWebhookChannel,
    ConsoleChannel,
    EmailChannel,
    Notification,
    Notifier,
    WebhookChannel,
)
from workset.events import NotificationSent
from workset.log.store import SessionLog
from workset.messages import AssistantMessage, ToolMessage
from workset.models.base import ModelRequest
from workset.session.agent import Agent
from workset.testing import FunctionModel, call
from workset.tools.registry import ToolRegistry


@dataclass
class Inbox:
    """An aiosmtpd handler keeping every message it accepts."""

    messages: list[Any] = field(default_factory=list)

    async def handle_DATA(self, server: object, session: object, envelope: Any) -> str:
        self.messages.append((envelope.rcpt_tos, message_from_bytes(envelope.content)))
        return "250 OK"


@contextmanager
def smtp_server() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    with socket.socket() as probe:  # a free port (the controller checks it by connecting)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


@contextmanager
def http_receiver(status: int = 200) -> Iterator[tuple[list[dict[str, Any]], str]]:
    got: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers["Content-Length"])
            got.append({"path": self.path, "body": json.loads(self.rfile.read(length))})
            self.send_response(status)
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield got, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class Recorded:
    """A recorder standing in for a session: keeps what would be recorded."""

    session_id = "s-test"

    def __init__(self) -> None:
        self.records: list[NotificationSent] = []

    def now(self) -> float:
        return 1_780_000_000.0

    def record(self, event: NotificationSent) -> int | None:
        self.records.append(event)
        return len(self.records)


def test_urgent_goes_to_every_channel_and_normal_to_email_only() -> None:
    console = io.StringIO()
    with smtp_server() as (inbox, port), http_receiver() as (posts, url):
        notifier = Notifier(
            [
                ConsoleChannel(console),
                EmailChannel("127.0.0.1", port, "agent@example.test", ["ops@example.test"]),
                WebhookChannel(f"{url}/hook"),
                ChatWebhookChannel(f"{url}/chat"),
            ]
        )
        recorder = Recorded()
        urgent = Notification("Disk full", "db-2 is at 99 %", "urgent", "s-test")
        normal = Notification("Nightly report", "all green", "normal", "s-test")
        anyio.run(notifier.send, urgent, recorder)
        anyio.run(notifier.send, normal, recorder)
    assert [(r.channel, r.ok) for r in recorder.records] == [
        ("console", True), ("email", True), ("webhook", True), ("chat", True), ("email", True),
    ]  # fmt: skip
    assert [m["Subject"] for _, m in inbox.messages] == [
        "[urgent] Disk full",
        "[normal] Nightly report",
    ]
    assert inbox.messages[0][0] == ["ops@example.test"]
    assert "db-2 is at 99 %" in inbox.messages[0][1].get_payload(decode=True).decode()
    by_path = {p["path"]: p["body"] for p in posts}
    assert by_path["/hook"]["subject"] == "Disk full" and by_path["/hook"]["urgency"] == "urgent"
    assert set(by_path["/chat"]) == {"text"} and "*Disk full*" in by_path["/chat"]["text"]
    assert "Disk full" in console.getvalue() and "Nightly report" not in console.getvalue()


def test_a_failing_channel_is_recorded_and_the_next_one_tried() -> None:
    console = io.StringIO()
    with http_receiver(status=503) as (_, url):
        notifier = Notifier(
            [ChatWebhookChannel(f"{url}/chat"), ConsoleChannel(console)]  # normal: chat first
        )
        recorder = Recorded()
        anyio.run(notifier.send, Notification("Build done", "green"), recorder)
    assert [(r.channel, r.ok) for r in recorder.records] == [("chat", False), ("console", True)]
    assert "answered 503" in recorder.records[0].detail
    assert "Build done" in console.getvalue()


def test_the_notification_tool_reports_delivery_and_records_it(tmp_path: Path) -> None:
    records = Records()
    with smtp_server() as (inbox, port):
        email = EmailChannel("127.0.0.1", port, "agent@example.test", ["me@example.test"])
        desk = HumanDesk(Notifier([email]))
        text = json.dumps({"message": "The import finished: 1,204 rows", "urgency": "normal"})
        seen: list[str] = []

        def fn(request: ModelRequest) -> AssistantMessage | str:
            done = [m for m in request.messages if isinstance(m, ToolMessage)]
            if done:
                seen.append(done[0].content)
                return "Told you by email."
            return AssistantMessage(None, (call("send_notification", text, "n1"),))

        agent = Agent(
            FunctionModel(fn),
            ToolRegistry(human_tools(desk)),
            SessionLog(tmp_path / "log.db"),
            subscribers=[records],
        )
        anyio.run(agent.run, "import, then tell me")
    assert "delivered over email" in seen[0]
    [sent] = records.of(NotificationSent)
    assert sent.ok and sent.channel == "email" and "accepted by 127.0.0.1" in sent.detail
    assert inbox.messages[0][1]["Subject"] == "[normal] The import finished: 1,204 rows"
