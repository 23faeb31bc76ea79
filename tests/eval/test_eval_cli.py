"""``workset eval``: each command writes its JSON and PNG and prints a table."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from workset.cli.eval import eval_group

TRANSCRIPT = [
    {"role": "system", "content": "You are an SRE agent."},
    {"role": "user", "content": "File every ticket with my employee number, 4417."},
    {"role": "assistant", "content": "Noted."},
    {"role": "user", "content": "Check the logs."},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "search_logs", "arguments": '{"q": "err"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "name": "search_logs", "content": "ERROR pool"},
    {"role": "assistant", "content": "The pool is exhausted."},
]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "search_logs",
            "description": "Search.",
            "parameters": {"type": "object", "properties": {}},
        },
    }
]
PROBES = """
- id: employee
  planted_turn: 1
  question: ["What is my employee number?", "Which number goes on tickets?"]
  expected: 4417
"""


def _files(tmp_path: Path, answers: list[str]) -> dict[str, Path]:
    files = {
        "transcript": tmp_path / "t.jsonl",
        "tools": tmp_path / "tools.json",
        "probes": tmp_path / "probes.yaml",
        "script": tmp_path / "script.json",
    }
    files["transcript"].write_text("\n".join(json.dumps(m) for m in TRANSCRIPT) + "\n")
    files["tools"].write_text(json.dumps(TOOLS))
    files["probes"].write_text(PROBES)
    files["script"].write_text(json.dumps(answers))
    return files


def _policies(files: dict[str, Path], out: Path) -> list[str]:
    return [
        "policies",
        "--transcript",
        str(files["transcript"]),
        "--tools",
        str(files["tools"]),
        "--probes",
        str(files["probes"]),
        "--policies",
        "full,window",
        "--model",
        f"scripted:{files['script']}",
        "--out",
        str(out),
    ]


def test_eval_policies_writes_the_table_json_and_chart_and_resumes_without_the_model(
    tmp_path: Path,
) -> None:
    files = _files(tmp_path, ["It is 4417."] * 6)
    out = tmp_path / "out"
    result = CliRunner().invoke(eval_group, _policies(files, out))
    assert result.exit_code == 0, result.output
    assert "full" in result.output and "control" in result.output
    data = json.loads((out / "policies.json").read_text())
    assert [r["policy"] for r in data["rows"]] == ["control", "full", "window"]
    assert data["rows"][1]["probes"]["employee"]["correct"] == 2
    assert data["probes"]["employee"]["informative"] is True
    assert (out / "policies.png").stat().st_size > 1000

    files["script"].write_text("[]")  # a model with nothing to say: every cell is done
    again = CliRunner().invoke(eval_group, _policies(files, out))
    assert again.exit_code == 0, again.output
    assert json.loads((out / "policies.json").read_text())["rows"] == data["rows"]


def test_eval_buckets_prints_one_row_per_model_call_and_checks_both_methods(
    tmp_path: Path,
) -> None:
    files = _files(tmp_path, [])
    out = tmp_path / "out"
    args = [
        "buckets",
        "--transcript",
        str(files["transcript"]),
        "--tools",
        str(files["tools"]),
        "--model",
        f"scripted:{files['script']}",
        "--out",
        str(out),
    ]
    result = CliRunner().invoke(eval_group, args)
    assert result.exit_code == 0, result.output
    data = json.loads((out / "buckets.json").read_text())
    assert len(data["rows"]) == 3 and data["disagreements"] == []
    assert "disagree" not in result.output
    assert (out / "buckets.png").exists()


def test_eval_position_and_length_run_on_generated_ticket_lists(tmp_path: Path) -> None:
    files = _files(tmp_path, ["1234"] * 8)
    out = tmp_path / "out"
    model = f"scripted:{files['script']}"
    position = CliRunner().invoke(
        eval_group,
        [
            "position",
            "--records",
            "5",
            "--depths",
            "0,1",
            "--trials",
            "2",
            "--model",
            model,
            "--out",
            str(out),
        ],
    )
    assert position.exit_code == 0, position.output
    rows = json.loads((out / "position-tickets.json").read_text())["rows"]
    assert [r["axis"] for r in rows] == [0, 1] and all(r["n"] == 2 for r in rows)
    length = CliRunner().invoke(
        eval_group,
        [
            "length",
            "--lengths",
            "1,3",
            "--trials",
            "2",
            "--model",
            model,
            "--out",
            str(out),
        ],
    )
    assert length.exit_code == 0, length.output
    assert (out / "length-tickets.png").exists()


def test_the_kv_task_without_its_file_says_where_to_get_it(tmp_path: Path) -> None:
    result = CliRunner().invoke(eval_group, ["position", "--task", "kv", "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert "--kv-file" in str(result.exception)
