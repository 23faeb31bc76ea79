"""``workset serve`` and ``workset send``: a running agent, and a way to talk to it.

``serve`` runs the sessions of one session log as a local service (:mod:`workset.serve`):
an HTTP API on 127.0.0.1, webhook channels from the config, a state file next to the log
(``<db>.serve.json``: URL, pid and API token) so clients find it. SIGINT or SIGTERM shuts it
down in order and it exits 0: no new event is taken, running steps are cancelled (what they
recorded stays, unconsumed events stay in the inbox, and the next start takes them).

``send`` delivers one event to the server of the log, or, when none runs, appends it to the
session's inbox, where the session's next run takes it.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import signal

import anyio
import click

from workset.cli.options import db_option, open_db
from workset.cli.runtime import RuntimeOptions, err, model_options, open_runtime, out
from workset.config import WorksetConfig, load_config
from workset.errors import UsageError
from workset.events import event_from_json
from workset.serve.client import ServeClient, post_offline
from workset.serve.service import Delivery, Service
from workset.serve.state import locate, remove_state, state_anchor, state_path, write_state
from workset.stores.url import default_store, parse_store_url
from workset.triggers.webhook import Channel


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command(
    "serve",
    help="""Run sessions as a local service: an HTTP API on 127.0.0.1.

\b
POST /sessions                  create a session ({"id"?, "title"?})
POST /sessions/ID/events        deliver an event ({"type", "content", "context"?, "id"?})
GET  /sessions/ID               status: busy, idle, pending events, last result
GET  /sessions/ID/stream        its records as Server-Sent Events (?after=SEQ)
GET  /sessions/ID/tasks         background tasks and timers
GET  /sessions/ID/idle          wait until it has nothing left to do
POST /hooks/CHANNEL             a signed webhook of a [[channels]] entry of --config

While it runs, DB.serve.json next to the session log holds its URL, pid and API token
(send it as "Authorization: Bearer TOKEN"); workset send finds it there. Sessions are
served from their first event on; at start, those with events waiting or timers set.
SIGINT or SIGTERM stops it cleanly (exit 0): running steps are cancelled, what they
recorded stays, events not yet taken wait for the next start.""",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", type=int, default=0, show_default=True, help="Port to listen on (0: a free one)."
)
@click.option(
    "--allow-remote",
    is_flag=True,
    default=False,
    help="Allow a --host that is not a loopback address (the API is then reachable from the "
    "network, over plain HTTP, guarded by its token only).",
)
@model_options
def serve_command(host: str, port: int, allow_remote: bool, opts: RuntimeOptions) -> None:
    if not _loopback(host) and not allow_remote:
        raise click.UsageError(
            f"--host {host} is not a loopback address: the API would be reachable from the "
            "network. Use 127.0.0.1, or add --allow-remote if that is what you want."
        )
    try:
        from workset.serve.app import loopback_socket, run_api
    except ImportError as exc:
        raise click.UsageError(
            f"workset serve needs the serve extra ({exc.name} is missing): "
            "python3 -m pip install 'workset[serve]'"
        ) from exc
    db = state_anchor(opts.db)
    running = locate(db)
    if running.server is not None:
        raise click.UsageError(
            f"workset serve (pid {running.server.pid}) already serves {db} at "
            f"{running.server.url}; stop it first, or use another --db"
        )
    if running.stale:
        err.print(f"[yellow]{running.stale}[/]", markup=True, highlight=False)
    config = load_config(opts.config) if opts.config is not None else WorksetConfig()
    channels = [Channel.from_config(section) for section in config.channels]  # secrets first
    sock = loopback_socket(host, port)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}"
    rt = open_runtime(opts, events=True)
    token = secrets.token_urlsafe(24)
    service = Service(rt.agent, channels=channels)

    def ready() -> None:
        path = write_state(db, url, token)
        names = ", ".join(f"/hooks/{c.name} → {c.session}" for c in channels) or "none"
        err.print(
            f"workset serve: listening on {url} (pid {os.getpid()}); sessions in "
            f"{rt.log.where}; state and token in {path}; webhook channels: {names}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )

    async def main() -> None:
        stop = anyio.Event()
        try:
            # Installed before anything is served, so a signal never finds the default action.
            with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                async with anyio.create_task_group() as group:

                    async def on_signal() -> None:
                        async for received in signals:
                            name = signal.Signals(received).name
                            err.print(f"workset serve: {name}, stopping", highlight=False)
                            stop.set()

                    group.start_soon(on_signal)
                    await run_api(service, sock, stop=stop, token=token, on_ready=ready)
                    group.cancel_scope.cancel()
        finally:
            remove_state(db)
            rt.setup.close()
            await rt.aclose()

    anyio.run(main)
    err.print("workset serve: stopped", highlight=False)


@click.command(
    "send",
    help="Send a message to a session: to the running workset serve, or, when none runs, "
    "into the session's inbox for its next run (workset resume SESSION).",
)
@click.argument("session")
@click.argument("text")
@click.option("--urgent", is_flag=True, default=False, help="Interrupt what the agent is doing.")
@click.option(
    "--parallel",
    is_flag=True,
    default=False,
    help="A side question: answered at once, beside the task.",
)
@click.option(
    "--type",
    "event_type",
    default="user.input",
    show_default=True,
    help="Event type, e.g. user.input, user.interrupt, supervisor.instruction.",
)
@click.option("--id", "event_id", default=None, help="Event id (a retry with it is a no-op).")
@db_option
def send_command(
    session: str,
    text: str,
    urgent: bool,
    parallel: bool,
    event_type: str,
    event_id: str | None,
    db: str | None,
) -> None:
    if urgent and parallel:
        raise click.UsageError("--urgent and --parallel exclude each other; give one")
    if not text.strip():
        raise click.UsageError('the message is empty; e.g. workset send SESSION "stop"')
    data: dict[str, object] = {"type": event_type, "content": {"text": text}}
    mode = "cancel" if urgent else "parallel" if parallel else ""
    if mode:
        data["context"] = {"mode": mode}
    if event_id is not None:
        data["id"] = event_id
    event = event_from_json(data, channel="cli", trusted=True)  # refused here if malformed
    data["id"] = event.id
    path = state_anchor(db)
    found = locate(path)
    if found.stale:
        err.print(f"[yellow]{found.stale}[/]", markup=True, highlight=False)
    if found.server is not None:
        server = found.server

        async def deliver() -> Delivery:
            async with ServeClient(server.url, server.token) as client:
                return await client.send(session, data)

        delivered = anyio.run(deliver)
        where = f"delivered to workset serve at {server.url}"
    else:
        if parse_store_url(db or default_store()).path is not None and not path.exists():
            raise UsageError(
                f"no session log at {path} and no workset serve for it; point --db at the log"
            )
        with open_db(db) as log:
            delivered = post_offline(log, session, event)
        where = (
            f"no workset serve runs for {path} (no {state_path(path).name}): queued in the "
            f"inbox; the session's next run takes it (workset resume {delivered.session_id})"
        )
    out.print(f"{delivered.strategy} {delivered.event_id}", markup=False, highlight=False)
    err.print(
        f"session {delivered.session_id}: {where}", markup=False, highlight=False, soft_wrap=True
    )
