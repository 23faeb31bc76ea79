"""Terminal views of sessions and live runs, built with rich.

Pure functions from log records or loop events to renderables; the commands print them.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from workset.events import (
    EventReceived,
    InputAppended,
    LoopEvent,
    ModelCalled,
    RunFailed,
    RunFinished,
    RunStarted,
    StepInterrupted,
    TaskUpdated,
    TimerSet,
    ToolFinished,
    ToolStarted,
)
from workset.log.store import SessionInfo, StoredEvent

BUCKET_COLUMNS = ("system", "tools", "tool_results", "conversation")


def clip(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def event_line(event: LoopEvent) -> Text | None:
    """One line for a live run; None for events not worth a line."""
    match event:
        case RunStarted(resumed=True):
            return Text(f"resuming session {event.session_id}", style="dim")
        case ModelCalled(message=message, usage=usage, manifest=manifest):
            cached = usage.cached_prompt_tokens
            note = (
                f"{manifest.total_tokens} tokens in, {cached if cached is not None else '?'} cached"
            )
            if message.tool_calls:
                calls = ", ".join(f"{c.name}({clip(c.arguments, 80)})" for c in message.tool_calls)
                return Text(f"→ {calls}   [{note}]", style="cyan")
            return Text(f"✓ answered   [{note}]", style="dim")
        case ToolStarted():
            return None
        case ToolFinished(result=result, duration_s=duration):
            style = "red" if result.is_error else "green"
            head = "error" if result.is_error else "ok"
            return Text(
                f"  {result.name} {head} ({duration:.2f}s): {clip(result.content, 100)}",
                style=style,
            )
        case RunFailed(error=error):
            return Text(f"✗ {error}", style="bold red")
        case EventReceived(event=inbound, strategy=strategy) if inbound.type != "user.input":
            return Text(
                f"⇢ {inbound.type} ({strategy}): {clip(inbound.text, 100)}", style="magenta"
            )
        case StepInterrupted(during=during, cancelled=cancelled, detached=detached):
            what = f"{len(cancelled)} call(s) cancelled, {len(detached)} left in the background"
            return Text(f"⚡ interrupted during {during}: {what}", style="yellow")
        case TaskUpdated(task_id=task_id, state=state, detail=detail) if state != "progress":
            return Text(f"  task {task_id} {state}: {clip(detail, 100)}", style="dim")
        case RunFinished():
            return None
    return None


def sessions_table(sessions: Sequence[SessionInfo]) -> Table:
    table = Table(title="sessions (newest first)")
    for column in ("id", "created", "status", "events", "model", "title"):
        table.add_column(column)
    import datetime as dt

    for s in sessions:
        created = dt.datetime.fromtimestamp(s.created_at).strftime("%Y-%m-%d %H:%M")
        table.add_row(s.id, created, s.status, str(s.n_events), s.model, clip(s.title, 60))
    return table


def trajectory_lines(events: Sequence[StoredEvent]) -> list[Text]:
    lines: list[Text] = []
    for stored in events:
        event = stored.event
        match event:
            case InputAppended(text=text, origin=origin):
                who = {"user": "user", "events": "events", "harness": "notice"}[origin]
                lines.append(Text(f"[{stored.seq}] {who}: {clip(text, 300)}", style="bold"))
            case StepInterrupted(during=during, event_id=event_id):
                lines.append(
                    Text(
                        f"[{stored.seq}] interrupted during {during} by {event_id}", style="yellow"
                    )
                )
            case TaskUpdated(task_id=task_id, state=state, detail=detail) if state != "progress":
                lines.append(Text(f"[{stored.seq}] task {task_id} {state}: {clip(detail, 200)}"))
            case TimerSet(timer_id=timer_id, message=message, cancelled=cancelled):
                verb = "cancelled" if cancelled else "set"
                lines.append(Text(f"[{stored.seq}] timer {timer_id} {verb}: {clip(message, 200)}"))
            case RunStarted(task=task, resumed=resumed):
                if task:
                    lines.append(Text(f"[{stored.seq}] user: {clip(task, 300)}", style="bold"))
                elif resumed:
                    lines.append(Text(f"[{stored.seq}] (resumed)", style="dim"))
            case ModelCalled(message=message, iteration=iteration):
                for call in message.tool_calls:
                    lines.append(
                        Text(
                            f"[{stored.seq}] assistant (call {iteration}) → tool call {call.name} "
                            f"{clip(call.arguments, 200)}  id={call.id}",
                            style="cyan",
                        )
                    )
                if message.content:
                    lines.append(Text(f"[{stored.seq}] assistant: {clip(message.content, 400)}"))
            case ToolFinished(result=result):
                style = "red" if result.is_error else "green"
                lines.append(
                    Text(
                        f"[{stored.seq}] tool {result.name} → {clip(result.content, 200)}",
                        style=style,
                    )
                )
            case RunFailed(error=error):
                lines.append(Text(f"[{stored.seq}] run failed: {error}", style="bold red"))
            case _:
                pass
    return lines


def calls_table(events: Sequence[StoredEvent]) -> Table:
    """Per model call: the request's token buckets (they sum to the total) and reuse."""
    table = Table(
        title="model calls: request tokens by bucket",
        caption="results = tool results, conv = conversation; reused = leading tokens equal to "
        "the previous request; cached = what the backend reported reusing",
    )
    headers = (
        "call",
        "system",
        "tools",
        "results",
        "conv",
        "other",
        "total",
        "reused",
        "cached",
        "out",
        "secs",
    )
    for column in headers:
        table.add_column(column, justify="right")
    n = 0
    for stored in events:
        event = stored.event
        if not isinstance(event, ModelCalled):
            continue
        n += 1
        buckets = event.manifest.buckets
        other = event.manifest.total_tokens - sum(buckets.get(b, 0) for b in BUCKET_COLUMNS)
        cached = event.usage.cached_prompt_tokens
        table.add_row(
            str(n),
            *(str(buckets.get(b, 0)) for b in BUCKET_COLUMNS),
            str(other),
            str(event.manifest.total_tokens),
            str(event.manifest.prefix.reused_tokens),
            "?" if cached is None else str(cached),
            str(event.usage.completion_tokens),
            f"{event.usage.latency_s:.1f}",
        )
    return table


_MAX_EXPLAINED = 5  # per call; the inspect page lists every item


def omission_lines(events: Sequence[StoredEvent]) -> list[Text]:
    """What each call's manifest left out and why (grouped by reason), why the items that
    are not obvious are in, and the decisions noted (history policy, status strategy)."""
    lines: list[Text] = []
    n = 0
    for stored in events:
        if not isinstance(stored.event, ModelCalled):
            continue
        n += 1
        by_reason: dict[str, list[str]] = {}
        for item in stored.event.manifest.omitted:
            by_reason.setdefault(item.reason, []).append(f"{item.item_id} ({item.tokens} tokens)")
        for reason, items in by_reason.items():
            detail = next(o.detail for o in stored.event.manifest.omitted if o.reason == reason)
            lines.append(
                Text(
                    f"call {n} left out {clip(', '.join(items), 120)} — {reason}: {detail}",
                    style="yellow",
                )
            )
        manifest = stored.event.manifest
        divergence = manifest.prefix.first_divergence
        if divergence:
            lines.append(Text(f"call {n} prefix reuse broke at {divergence}", style="yellow"))
        explained = [k for k in manifest.included if k.why]
        for kept in explained[:_MAX_EXPLAINED]:
            lines.append(Text(f"call {n} included {kept.item_id} ({kept.kind}): {kept.why}"))
        if len(explained) > _MAX_EXPLAINED:
            more = len(explained) - _MAX_EXPLAINED
            lines.append(Text(f"call {n} … and {more} more (workset inspect shows them all)"))
        if manifest.history_policy:
            lines.append(Text(f"call {n} history policy: {manifest.history_policy}"))
        for label, note in sorted(manifest.notes.items()):
            lines.append(Text(f"call {n} {label}: {note}", style="dim"))
    return lines
