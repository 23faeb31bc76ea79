"""The need memory's file shared by runs: what one saves is kept when another saves after it,
also when several processes save at once (real subprocesses, one file)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from discovery_catalog import SERVERS, LetterEmbedder

from workset.discovery import ToolIndex
from workset.discovery.memory import NeedMemory, Remembered, merged_save, read_needs

HERE = Path(__file__).parent
SRC = HERE.parents[1] / "src"


def index() -> ToolIndex:
    return ToolIndex.build(SERVERS, LetterEmbedder())


def test_a_later_save_keeps_what_another_run_saved_after_this_one_read(tmp_path: Path) -> None:
    path = tmp_path / "needs.jsonl"
    first, second = NeedMemory(index(), read_needs(path)), NeedMemory(index(), read_needs(path))
    first.add([Remembered("will it snow in Tromso", "weather", "get_forecast")])
    merged_save(first, path)
    second.add([Remembered("show me what is in notes.txt", "filesystem", "read_file")])
    merged_save(second, path)
    assert {r.need for r in read_needs(path)} == {
        "will it snow in Tromso",
        "show me what is in notes.txt",
    }


def test_a_saved_pair_whose_tool_is_gone_is_not_merged_back(tmp_path: Path) -> None:
    path = tmp_path / "needs.jsonl"
    path.write_text(json.dumps({"need": "old need", "server": "gone", "tool": "gone_tool"}) + "\n")
    memory = NeedMemory(index(), [])
    memory.add([Remembered("price of AAPL", "yahoo-finance", "get_stock_price")])
    merged_save(memory, path)
    assert [r.need for r in read_needs(path)] == ["price of AAPL"]


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    sys.path[:0] = [{here!r}, {src!r}]
    from discovery_catalog import SERVERS, LetterEmbedder
    from workset.discovery import ToolIndex
    from workset.discovery.memory import NeedMemory, Remembered, merged_save, read_needs
    path = Path(sys.argv[1])
    index = ToolIndex.build(SERVERS, LetterEmbedder())
    memory = NeedMemory(index, read_needs(path))
    print("read", flush=True)
    sys.stdin.readline()  # every writer has read the file before any saves
    memory.add([Remembered(f"forecast number {{sys.argv[2]}}", "weather", "get_forecast")])
    merged_save(memory, path)
    """
)


def test_processes_saving_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "needs.jsonl"
    script = WRITER.format(here=str(HERE), src=str(SRC))
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(path), str(n)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(6)
    ]
    for writer in writers:
        assert writer.stdout is not None
        assert writer.stdout.readline() == "read\n"
    for writer in writers:
        assert writer.stdin is not None
        writer.stdin.write("go\n")
        writer.stdin.flush()
    for writer in writers:
        _, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
    assert sorted(r.need for r in read_needs(path)) == [f"forecast number {n}" for n in range(6)]
    assert not list(tmp_path.glob("*.partial"))
