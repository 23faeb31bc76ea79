"""Render a :class:`SessionView` as one static HTML page: inline CSS and SVG, no scripts.

Session content (tasks, tool results, item ids, omission details) is untrusted: every piece
of it goes through :func:`esc`, and the page's Content-Security-Policy forbids scripts and
network loads, so a ``<script>`` recorded in a session shows as text and never runs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from html import escape

from workset.context.manifest import IncludedItem, Manifest, OmittedItem
from workset.inspect.agents import AgentBranch, walk
from workset.inspect.calls import CallView, SessionView
from workset.models.base import Usage

BAR_WIDTH = 720
BAR_HEIGHT = 26
CLIP_CHARS = 1200
# Known buckets keep their colour from page to page; others take the next spare one.
BUCKET_COLOURS: dict[str, str] = {
    "system": "#4e79a7",
    "tools": "#f28e2b",
    "tool_results": "#59a14f",
    "conversation": "#e15759",
    "memory": "#b07aa1",
    "evidence": "#76b7b2",
    "status": "#edc948",
    "template": "#bab0ac",
}
SPARE_COLOURS = ("#ff9da7", "#9c755f", "#86bcb6", "#d37295", "#a0cbe8")

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
STYLE = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1d1d1f;
background:#fafafa}
header,main{max-width:1040px;margin:0 auto;padding:16px 24px}
header{border-bottom:1px solid #ddd;background:#fff;max-width:none}
h1{font-size:20px;margin:0 0 4px}h2{font-size:17px;margin:0 0 8px}h3{font-size:14px;
margin:14px 0 6px}
section.call{background:#fff;border:1px solid #ddd;border-radius:6px;padding:14px 18px;
margin:18px 0}
.meta{color:#555}.meta span{margin-right:14px}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{text-align:left;padding:3px 8px;border-bottom:1px solid #eee;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;margin:6px 0;list-style:none;padding:0}
.legend li{display:flex;align-items:center;gap:5px}
.swatch{width:11px;height:11px;border-radius:2px;display:inline-block}
.reason{font-weight:600;color:#9a3412}
pre{white-space:pre-wrap;word-break:break-word;background:#f4f4f5;padding:8px;
border-radius:4px;margin:4px 0;font-size:12px;max-height:320px;overflow:auto}
.error{color:#b91c1c}.muted{color:#777}
nav a{margin-right:8px}
"""


def esc(value: object) -> str:
    """Text as HTML: every ``<``, ``>``, ``&`` and quote escaped."""
    return escape(str(value), quote=True)


def render_html(view: SessionView) -> str:
    """The whole page for one session."""
    title = f"workset · session {view.info.id}"
    scale = _scale(view.calls)
    body = [
        _header(view),
        "<main>",
        _overview(view.calls),
        _agents_section(view.agents),
        *(_call_section(call, scale) for call in view.calls),
        *(f'<p class="error">run failed: {esc(error)}</p>' for error in view.failures),
        "</main>",
    ]
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{esc(title)}</title><style>{STYLE}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def _agents_section(tree: Sequence[AgentBranch]) -> str:
    """The subagents as a tree: status, tokens, brief, result, and each one's own calls."""
    if not tree:
        return ""
    parts = ['<section class="call" id="agents"><h2>Subagents</h2>']
    for level, branch in walk(tree):
        last = branch.last
        spawned = (
            f' · spawned by <a href="#call-{branch.spawned_by}">call {branch.spawned_by}</a>'
            if branch.spawned_by and level == 0
            else ""
        )
        parts.append(
            f'<div id="agent-{esc(last.agent_id)}" style="margin-left:{level * 24}px">'
            f"<h3>{esc(last.agent_id)} · {esc(last.name)} · {esc(last.status)}</h3>"
            f'<div class="meta"><span>{last.tokens} tokens</span>'
            f"<span>{len(branch.calls)} model calls</span><span>{esc(last.handoff)} handoff"
            f"</span><span>session {esc(last.child_id)}</span>{spawned}</div>"
            f"<pre>{esc(_clip(branch.brief))}</pre>"
        )
        if branch.calls:
            rows = "".join(
                f'<tr id="agent-{esc(last.agent_id)}-call-{c.number}"><td class="n">{c.number}'
                f'</td><td class="n">{c.context_tokens}</td><td class="n">'
                f"{c.completion_tokens}</td><td>{esc(', '.join(c.tools) or c.answer)}</td></tr>"
                for c in branch.calls
            )
            parts.append(
                '<table><tr><th class="n">call</th><th class="n">tokens in</th>'
                f'<th class="n">out</th><th>tools called / answer</th></tr>{rows}</table>'
            )
        if last.result:
            parts.append(f"<h3>result</h3><pre>{esc(_clip(last.result))}</pre>")
        parts.append("</div>")
    parts.append("</section>")
    return "".join(parts)


def _header(view: SessionView) -> str:
    info = view.info
    created = dt.datetime.fromtimestamp(info.created_at, tz=dt.UTC).strftime("%Y-%m-%d %H:%M")
    cached = view.cached_tokens
    share = f" ({cached / view.prompt_tokens:.0%})" if view.prompt_tokens else ""
    return (
        f"<header><h1>Session {esc(info.id)}: {esc(info.title)}</h1>"
        '<div class="meta">'
        f"<span>model {esc(info.model)}</span><span>workspace {esc(info.workspace)}</span>"
        f"<span>created {created} UTC</span><span>status {esc(info.status)}</span></div>"
        '<div class="meta">'
        f"<span>{len(view.calls)} model calls</span>"
        f"<span>prompt tokens billed {view.prompt_tokens}</span>"
        f"<span>cached {cached}{share}</span>"
        f"<span>completion tokens {view.completion_tokens}</span></div>"
        + _nav(view.calls)
        + "</header>"
    )


def _nav(calls: Sequence[CallView]) -> str:
    links = " ".join(f'<a href="#call-{c.number}">call {c.number}</a>' for c in calls)
    return f"<nav>{links}</nav>" if calls else '<p class="muted">no model calls recorded</p>'


def _overview(calls: Sequence[CallView]) -> str:
    """One small stacked bar per call: how the request grew and what it was made of."""
    if not calls:
        return ""
    scale = _scale(calls)
    row = 16
    label = 64
    height = row * len(calls) + 4
    rows = []
    for i, call in enumerate(calls):
        y = i * row + 2
        total = call.event.manifest.total_tokens
        end = label + total * BAR_WIDTH / scale + 4
        rows.append(
            f'<text x="0" y="{y + 11}" font-size="11">call {call.number}</text>'
            + _segments(call.event.manifest.buckets, scale, x0=label, y=y, height=row - 4)
            + f'<text x="{end:.1f}" y="{y + 11}" font-size="11">{total}</text>'
        )
    legend = _legend(_bucket_names(c.event.manifest.buckets for c in calls))
    return (
        '<section class="call"><h2>Requests by token bucket</h2>'
        f'<svg role="img" aria-label="token buckets per call" width="{BAR_WIDTH + label + 50}" '
        f'height="{height}" viewBox="0 0 {BAR_WIDTH + label + 50} {height}">'
        + "".join(rows)
        + f"</svg>{legend}</section>"
    )


def _call_section(call: CallView, scale: int) -> str:
    event = call.event
    manifest = event.manifest
    head = (
        f'<section class="call" id="call-{call.number}">'
        f"<h2>Call {call.number}: {manifest.total_tokens} tokens in, "
        f"{event.usage.completion_tokens} out</h2>"
        f'<div class="meta"><span>iteration {event.iteration}</span>'
        f"<span>request {esc(manifest.request_id)}</span>"
        f"<span>count {esc(manifest.count_method)}</span>"
        f"<span>finish {esc(event.finish_reason or '-')}</span></div>"
    )
    task = f"<h3>Task</h3><pre>{esc(_clip(call.task))}</pre>" if call.task else ""
    return "".join(
        [
            head,
            task,
            _buckets(manifest, scale),
            _budget(manifest),
            _prefix(manifest),
            _usage(event.usage),
            _included(manifest.included),
            _omitted(manifest.omitted),
            _answer(call),
            "</section>",
        ]
    )


def _buckets(manifest: Manifest, scale: int) -> str:
    height = BAR_HEIGHT + 4
    limit = _limit_marker(manifest, scale, height)
    svg = (
        f'<svg role="img" aria-label="token buckets" width="{BAR_WIDTH}" height="{height}" '
        f'viewBox="0 0 {BAR_WIDTH} {height}">'
        + _segments(manifest.buckets, scale, x0=0, y=2, height=BAR_HEIGHT)
        + limit
        + "</svg>"
    )
    items = [
        f'<li><span class="swatch" style="background:{_colour(name)}"></span>'
        f"{esc(name)} {tokens}</li>"
        for name, tokens in _ordered(manifest.buckets)
    ]
    return f'<h3>Token buckets</h3>{svg}<ul class="legend">{"".join(items)}</ul>'


def _segments(buckets: Mapping[str, int], scale: int, *, x0: int, y: int, height: int) -> str:
    out = []
    x = float(x0)
    for name, tokens in _ordered(buckets):
        if tokens <= 0:
            continue
        width = tokens * BAR_WIDTH / scale
        out.append(
            f'<rect x="{x:.1f}" y="{y}" width="{width:.1f}" height="{height}" '
            f'fill="{_colour(name)}"><title>{esc(name)}: {tokens} tokens</title></rect>'
        )
        x += width
    return "".join(out)


def _limit_marker(manifest: Manifest, scale: int, height: int) -> str:
    """A dashed line where the input budget ends (window minus reserve and margin)."""
    budget = manifest.budget
    limit = budget.window - budget.output_reserve - budget.margin
    if limit <= 0 or limit > scale:
        return ""
    x = limit * BAR_WIDTH / scale
    return (
        f'<line x1="{x:.1f}" x2="{x:.1f}" y1="0" y2="{height}" stroke="#111" '
        f'stroke-dasharray="3,3"><title>input budget {limit} tokens</title></line>'
    )


def _budget(manifest: Manifest) -> str:
    b = manifest.budget
    return (
        '<div class="meta"><span>window ' + str(b.window) + "</span>"
        f"<span>output reserve {b.output_reserve}</span><span>margin {b.margin}</span>"
        f"<span>fixed {b.fixed}</span><span>available {b.available}</span>"
        f"<span>used {b.used}</span></div>"
    )


def _prefix(manifest: Manifest) -> str:
    p = manifest.prefix
    if p.previous_total:
        reuse = (
            f"reused {p.reused_tokens} of the previous request's {p.previous_total} tokens "
            f"({p.reused_tokens / p.previous_total:.0%})"
        )
    else:
        reuse = "first request: nothing to reuse"
    divergence = f"; first divergence at {esc(p.first_divergence)}" if p.first_divergence else ""
    return (
        f"<h3>Prefix reuse</h3><p>{reuse}{divergence}. Stable prefix {p.tokens} tokens, "
        f"hash {esc(p.hash[:12])}.</p>"
    )


def _usage(usage: Usage) -> str:
    cached = "not reported" if usage.cached_prompt_tokens is None else usage.cached_prompt_tokens
    return (
        "<h3>Usage</h3><table><tr>"
        '<th class="n">prompt</th><th class="n">cached</th><th class="n">completion</th>'
        '<th class="n">latency</th></tr><tr>'
        f'<td class="n">{usage.prompt_tokens}</td><td class="n">{cached}</td>'
        f'<td class="n">{usage.completion_tokens}</td>'
        f'<td class="n">{usage.latency_s:.2f} s</td></tr></table>'
    )


def _included(items: Sequence[IncludedItem]) -> str:
    rows = [
        f'<tr><td class="n">{i.position}</td><td>{esc(i.item_id)}</td><td>{esc(i.kind)}</td>'
        f"<td>{esc(i.source)}</td><td>{esc(i.bucket)}</td>"
        f'<td class="n">{i.tokens}</td><td class="n">{_seq(i.seq)}</td></tr>'
        for i in items
    ]
    return _table(
        f"Included ({len(items)})",
        ("position", "item", "kind", "source", "bucket", "tokens", "seq"),
        rows,
    )


def _omitted(items: Sequence[OmittedItem]) -> str:
    if not items:
        return '<h3>Omitted (0)</h3><p class="muted">nothing was left out</p>'
    rows = [
        f"<tr><td>{esc(o.item_id)}</td><td>{esc(o.kind)}</td><td>{esc(o.source)}</td>"
        f'<td class="n">{o.tokens}</td><td class="reason">{esc(o.reason)}</td>'
        f"<td>{esc(o.detail)}</td></tr>"
        for o in items
    ]
    return _table(
        f"Omitted ({len(items)})", ("item", "kind", "source", "tokens", "reason", "detail"), rows
    )


def _answer(call: CallView) -> str:
    message = call.event.message
    parts = ["<h3>Model output</h3>"]
    for tool_call in message.tool_calls:
        parts.append(
            f"<p>tool call <b>{esc(tool_call.name)}</b> "
            f'<span class="muted">{esc(tool_call.id)}</span></p>'
            f"<pre>{esc(_clip(tool_call.arguments))}</pre>"
        )
    if message.content:
        parts.append(f"<pre>{esc(_clip(message.content))}</pre>")
    for result in call.results:
        css = ' class="error"' if result.is_error else ""
        parts.append(
            f"<p{css}>result of <b>{esc(result.name)}</b>"
            f"{' (error)' if result.is_error else ''}</p><pre>{esc(_clip(result.content))}</pre>"
        )
    return "".join(parts)


def _table(title: str, headers: Sequence[str], rows: Sequence[str]) -> str:
    numeric = {"position", "tokens", "seq"}
    head = "".join(f'<th class="n">{h}</th>' if h in numeric else f"<th>{h}</th>" for h in headers)
    return f"<h3>{esc(title)}</h3><table><tr>{head}</tr>{''.join(rows)}</table>"


def _scale(calls: Sequence[CallView]) -> int:
    """Tokens per full bar width: the largest window or request, so bars compare."""
    sizes = [c.event.manifest.budget.window for c in calls]
    sizes += [c.event.manifest.total_tokens for c in calls]
    return max([1, *sizes])


def _ordered(buckets: Mapping[str, int]) -> list[tuple[str, int]]:
    known = [(name, buckets[name]) for name in BUCKET_COLOURS if name in buckets]
    rest = sorted((name, n) for name, n in buckets.items() if name not in BUCKET_COLOURS)
    return known + rest


def _bucket_names(all_buckets: Iterable[Mapping[str, int]]) -> list[str]:
    names: dict[str, None] = {}
    for buckets in all_buckets:
        for name, _ in _ordered(buckets):
            names.setdefault(name, None)
    return list(names)


def _legend(names: Sequence[str]) -> str:
    items = "".join(
        f'<li><span class="swatch" style="background:{_colour(n)}"></span>{esc(n)}</li>'
        for n in names
    )
    return f'<ul class="legend">{items}</ul>'


def _colour(bucket: str) -> str:
    known = BUCKET_COLOURS.get(bucket)
    if known is not None:
        return known
    return SPARE_COLOURS[sum(bucket.encode()) % len(SPARE_COLOURS)]


def _seq(seq: int | None) -> str:
    return "-" if seq is None else str(seq)


def _clip(text: str) -> str:
    return text if len(text) <= CLIP_CHARS else text[: CLIP_CHARS - 1] + "…"
