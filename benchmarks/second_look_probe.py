"""The second look's request, asked directly of a model in several wordings, on tune-half runs.

``python3 benchmarks/second_look_probe.py LABEL [LABEL ...] [--model NAME] [--wordings a,b]``
(checkpoints of ``benchmarks/agent_tasks.py`` under ``.cache/agent_tasks``). For each run of
a tune half that did not end ``answered``, the lines :func:`workset.loop.second_look.
look_lines` picks from what it read are put to the model in each wording, alone, as the agent
would (its system prompt, no tools); printed per run: whether the expected answer is among the
lines, and per wording whether the reply is right (the task's ``expect``) and how the outcome
rules would judge it as the run's answer (``classify`` without the second-look note, so a
wording's confident wrong replies show as ``answered``). Runs outside a tune half (report
halves, the blind set) are skipped before anything is read. Needs the model.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).parent))
from agent_tasks import TASKS, Evidence, right
from second_look_counts import CACHE, tasks_by_question

from workset import SessionLog
from workset.loop.answer_check import agrees
from workset.loop.definitions import seen_texts
from workset.loop.outcome import _facts, _main_fact, classify
from workset.loop.second_look import instruction, look_lines
from workset.loop.settings import DEFAULT_SYSTEM_PROMPT
from workset.messages import AssistantMessage, Message, SystemMessage, ToolMessage, UserMessage
from workset.models.base import ModelRequest
from workset.models.factory import create_model

HEAD = "Lines of the files read for this question (file, then line number| text):\n\n"


def question_first(task: str, lines: str) -> str:
    return (
        f"Question: {task}\n\n{HEAD}{lines}\n\n"
        "Answer the question from these lines, in one or two sentences that name the file."
    )


def way_out(task: str, lines: str) -> str:
    return question_first(task, lines) + " If they do not answer it, reply only: I did not find it."


def line_first(task: str, lines: str) -> str:
    return (
        f"Question: {task}\n\n{HEAD}{lines}\n\nWhich one of these lines answers the question? "
        "Copy it as `Line: <number>| <text>`, then give the answer in one sentence that names "
        "the file, as `Answer: <answer>`."
    )


WORDINGS = {
    "question_last": instruction,  # the agent's
    "question_first": question_first,
    "way_out": way_out,
    "line_first": line_first,
}


def cases(
    labels: list[str], answered: bool = False
) -> list[tuple[dict[str, Any], str, list[Message], list[str]]]:
    """Tune-half runs (task, lines to ask over, trajectory, evidence texts given): those
    that did not end ``answered`` or, with ``answered``, those that did."""
    tasks = tasks_by_question()
    evidence = Evidence(True)
    out = []
    for label in labels:
        records = {
            r["id"]: r for r in map(json.loads, (CACHE / f"{label}.jsonl").read_text().splitlines())
        }
        log = SessionLog(CACHE / f"{label}.db")
        for info in log.sessions(limit=None):
            messages = log.messages(info.id)
            question = next((m.content for m in messages if isinstance(m, UserMessage)), "")
            task = tasks.get(question)
            record = records.get(task["id"], {}) if task else {}
            if task is None or record.get("split") != "tune":
                continue
            if (record.get("outcome") == "answered") != answered:
                continue
            calls = {
                c.id: c for m in messages if isinstance(m, AssistantMessage) for c in m.tool_calls
            }
            results = [m for m in messages if isinstance(m, ToolMessage)]
            workspace = (TASKS / task.get("workspace", "repo")).resolve()
            given = evidence.texts(workspace, question)
            seen = seen_texts(results, calls, given)  # as CallInterpreter gives look_lines
            lines = look_lines(question, seen)
            if lines:
                out.append((task, lines, messages, given))
    evidence.close()
    return out


async def probe(labels: list[str], model_name: str, wordings: list[str]) -> None:
    chosen = cases(labels)
    print(f"{len(chosen)} tune runs with lines to ask again over")
    model = create_model(model_name, threads=1)
    await model.start()
    score = dict.fromkeys(wordings, 0)
    try:
        for task, lines, messages, _ in chosen:
            shown = bool(re.search(task["expect"], lines, re.IGNORECASE))
            print(f"== {task['id']} (answer among the lines: {shown})")
            for name in wordings:
                asked = WORDINGS[name](task["question"].strip(), lines)
                request = ModelRequest(
                    (SystemMessage(DEFAULT_SYSTEM_PROMPT), UserMessage(asked)),
                    max_tokens=200,
                    temperature=0.0,
                )
                reply = (await model.complete(request)).message.content or ""
                judged = reply.split("Answer:", 1)[-1] if name == "line_first" else reply
                ok = right(task, judged)
                score[name] += ok
                verdict = classify([*messages, AssistantMessage(reply)])
                print(f"  {name}: right={ok} {verdict.outcome} {reply[:160]!r}")
    finally:
        await model.aclose()
    print("right:", score)


def candidates(lines: str, main: str, limit: int = 16) -> list[str]:
    """The values the lines show (numbers, literals, quoted strings, names), without line
    numbers, in order, ``main`` among them: what a choice check offers."""
    text = re.sub(r"(?m)^\s*\d+\| ?", "", lines)
    found = [f for f in _facts(text) if not f.endswith(":")][: limit - 1]
    if main and main.lower() not in {f.lower() for f in found}:
        found.append(main)
    return found


def check_request(question: str, lines: str, main: str, choice: bool) -> ModelRequest:
    """The check's request: the agent's wording, or with ``choice`` a pick among the values
    the lines show (a JSON schema with an enum)."""
    if not choice:
        asked = instruction(question, lines)
        return ModelRequest(
            (SystemMessage(DEFAULT_SYSTEM_PROMPT), UserMessage(asked)),
            max_tokens=200,
            temperature=0.0,
        )
    offered = candidates(lines, main)
    asked = (
        f"{HEAD}{lines}\n\nQuestion: {question}\n"
        f"Which of these values answers it? {', '.join(offered)}\n"
        'Reply with JSON: {"answer": "<the value>"}'
    )
    schema = {
        "type": "object",
        "properties": {"answer": {"type": "string", "enum": offered}},
        "required": ["answer"],
    }
    return ModelRequest(
        (SystemMessage(DEFAULT_SYSTEM_PROMPT), UserMessage(asked)),
        max_tokens=60,
        temperature=0.0,
        json_schema=schema,
    )


async def cross_check(labels: list[str], model_name: str, choice: bool = False) -> None:
    """Tune runs that ended ``answered``, with a fact to compare, asked again over their lines
    (the agent's wording; with ``choice``, a pick among the values the lines show): does the
    reply name the answer's main fact again (:func:`workset.loop.answer_check.agrees`, the
    agent's rule; with ``choice``, is the pick that fact)? Counted against whether the first
    answer was right: a check that disagrees with wrong answers and agrees with right ones
    turns confident wrong answers into flagged ones."""
    chosen = cases(labels, answered=True)
    print(f"{len(chosen)} tune runs that ended answered, with lines to ask again over")
    model = create_model(model_name, threads=1)
    await model.start()
    table: dict[tuple[bool, bool], int] = {}
    try:
        for task, lines, messages, given in chosen:
            first = messages[-1].content or ""
            verdict = classify(messages, evidence=given)
            if not verdict.supported:
                continue
            question = task["question"].strip()
            main = _main_fact(question, verdict.supported)
            request = check_request(question, lines, main, choice)
            reply = (await model.complete(request)).message.content or ""
            if choice:
                with contextlib.suppress(ValueError, AttributeError):
                    reply = str(json.loads(reply).get("answer", ""))
                agree = reply.lower() == main.lower()
            else:
                facts = [main, *(f for f in verdict.supported if f != main)]
                agree = agrees(question, facts, first, reply)
            was = right(task, first)
            table[(was, agree)] = table.get((was, agree), 0) + 1
            print(
                f"== {task['id']}: first right={was} main={main!r} agree={agree} "
                f"reply right={right(task, reply)} {reply[:120]!r}"
            )
    finally:
        await model.aclose()
    print("(first right, the check names its main fact):", table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("labels", nargs="+")
    parser.add_argument("--model", default="qwen2.5-coder-0.5b")
    parser.add_argument("--wordings", default=",".join(WORDINGS))
    parser.add_argument(
        "--answered",
        action="store_true",
        help="check runs that ended answered: does the reply name the answer's main fact?",
    )
    parser.add_argument(
        "--choice",
        action="store_true",
        help="with --answered: the model picks among the values the lines show",
    )
    args = parser.parse_args()
    if args.answered:
        anyio.run(cross_check, args.labels, args.model, args.choice)
        return
    wordings = args.wordings.split(",")
    unknown = [w for w in wordings if w not in WORDINGS]
    if unknown:
        parser.error(f"unknown wordings {unknown}; choose among {sorted(WORDINGS)}")
    anyio.run(probe, args.labels, args.model, wordings)


if __name__ == "__main__":
    main()
