"""Noise removal: smaller tool output, nothing summarised."""

from __future__ import annotations

import anyio
from history_transcripts import context, unit

from workset.history.noise import NoiseRemoval, remove_noise
from workset.history.policies import LayeredPolicy
from workset.messages import UserMessage


def test_ansi_codes_and_trailing_whitespace_are_removed() -> None:
    assert remove_noise("\x1b[1;31mFAILED\x1b[0m test_a   \nok\t\n") == "FAILED test_a\nok\n"


def test_a_carriage_return_redraw_keeps_what_the_terminal_finally_showed() -> None:
    assert remove_noise("downloading 10%\rdownloading 60%\rdone      ") == "done"


def test_a_run_of_progress_bars_keeps_only_its_last_line() -> None:
    bars = "\n".join(f"{p:3d}%|{'#' * (p // 10):<10}| {p}/100" for p in range(0, 101, 10))
    assert remove_noise(f"start\n{bars}\nend") == "start\n100%|##########| 100/100\nend"


def test_repeated_lines_are_kept_once_with_a_count() -> None:
    text = "connecting\n" + "retrying...\n" * 5 + "connected\n"
    assert remove_noise(text) == (
        "connecting\nretrying...\n[previous line repeated 4 more times]\nconnected\n"
    )


def test_distinct_lines_are_never_changed_or_summarised() -> None:
    text = "alpha 1\nbeta 2\nalpha 1\ngamma 3"
    assert remove_noise(text) == text


def test_the_layer_cleans_every_tool_result_and_nothing_else() -> None:
    history = [
        UserMessage("run it  "),
        *unit("c1", "shell", '{"command": "make"}', "\x1b[32mok\x1b[0m  \nok\nok"),
    ]
    view = anyio.run(LayeredPolicy([NoiseRemoval()]).view, history, context())
    assert view.messages[0] == history[0]
    assert view.messages[2].content == "ok\n[previous line repeated 2 more times]"
