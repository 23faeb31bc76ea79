"""Noise removal: make tool output smaller without summarising any of it.

:func:`remove_noise` is a pure function of the text: ANSI escape codes go, carriage-return
redraws keep only what the terminal finally showed, runs of progress-bar lines keep their last
line, trailing whitespace goes, and a line repeated back to back is kept once with a count.
Nothing that carries meaning is rewritten, so the layer is safe on every result, the current
turn's included: the same result always cleans to the same bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from workset.history.base import PolicyContext
from workset.history.draft import Draft, replace_results
from workset.messages import ToolMessage

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_PROGRESS = re.compile(
    r"""^\s*(?:
        .{0,40}?\d{1,3}(?:\.\d+)?%\s*\|[^|]*\|.*       # tqdm: 45%|████      | 45/100
      | .{0,40}?\[[#=>\-.\s*]{4,}\]\s*\d{1,3}(?:\.\d+)?%.*   # [=====>    ] 45%
      | [#=█▉▊▋▌▍▎▏\s]{10,}\s*\d{0,3}%?                # bare bars
    )$""",
    re.VERBOSE,
)


def remove_noise(text: str) -> str:
    """``text`` without ANSI codes, redraws, progress runs, trailing space and repeats."""
    text = _ANSI.sub("", text)
    lines = [_final_redraw(line).rstrip() for line in text.split("\n")]
    lines = _last_of_progress_runs(lines)
    return "\n".join(_collapse_repeats(lines)).rstrip("\n") + ("\n" if text.endswith("\n") else "")


def _final_redraw(line: str) -> str:
    """What a terminal shows for a line redrawn with carriage returns: the last drawing."""
    if "\r" not in line:
        return line
    drawings = [part for part in line.split("\r") if part.strip()]
    return drawings[-1] if drawings else ""


def _last_of_progress_runs(lines: list[str]) -> list[str]:
    kept: list[str] = []
    for index, line in enumerate(lines):
        is_bar = bool(_PROGRESS.match(line))
        next_is_bar = index + 1 < len(lines) and bool(_PROGRESS.match(lines[index + 1]))
        if is_bar and next_is_bar:
            continue
        kept.append(line)
    return kept


def _collapse_repeats(lines: list[str]) -> list[str]:
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        run = 1
        while index + run < len(lines) and lines[index + run] == line:
            run += 1
        out.append(line)
        if run > 1 and line.strip():
            out.append(f"[previous line repeated {run - 1} more times]")
        index += run
    return out


@dataclass(frozen=True, slots=True)
class NoiseRemoval:
    """Clean every tool result (the current turn's too): a pure, repeatable rewrite."""

    async def apply(self, draft: Draft, context: PolicyContext) -> Draft:
        blocks = []
        for block in draft.blocks:
            cleaned = {
                m.tool_call_id: remove_noise(m.content)
                for m in block.messages
                if isinstance(m, ToolMessage)
            }
            blocks.append(replace_results(block, cleaned) if cleaned else block)
        return replace(draft, blocks=tuple(blocks))
