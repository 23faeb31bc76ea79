"""What a policy's billed input tokens are made of, summed over a replay's call points.

Per call point (each recorded assistant message), the request ``benchmarks/policy_context.py``
counts for the replay is split into: the system prompt and the tool definitions (the
stable prefix, as the agent sends them: ``--tools-as-written`` as the fixture has them), the
pinned fact ledger and the recalled excerpts (each block's own text), and the rest (the
messages the view keeps, the pinned message's chat-template tokens, the generation prompt).
Tokens are estimated at 3.6 characters a token, as in ``policy_context.py``. The last column
is each part as a share of full history's billed tokens.

    OMP_NUM_THREADS=1 PYTHONPATH=$PWD/src python3 benchmarks/billed_breakdown.py \\
        --transcripts support,payroll,biobank --policies full,retrieval
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent))
from policy_context import ANSWER, ROOT, WINDOWS, sent_tools

from workset.cli.eval import parse_policies
from workset.context.assemble import Assembler
from workset.eval.formats import load_tools, load_transcript
from workset.eval.replay import call_points
from workset.eval.request import build, eval_settings
from workset.history.recall import RECALL_HEADER
from workset.session.context import last_user_words, policy_context
from workset.tokens.chatml import ChatMLFormat
from workset.tokens.counter import PartCounter
from workset.tokens.estimate import EstimateTokenizer

PARTS = ("system", "tools", "ledger", "recall", "rest")


async def breakdown(name: str, policy: Any, written: bool) -> tuple[dict[str, int], int]:
    counter = PartCounter(ChatMLFormat(), EstimateTokenizer(3.6))
    folder = ROOT / name
    transcript = load_transcript(folder / "transcript.jsonl")
    window = WINDOWS.get(name, 16_384)
    tools = sent_tools(load_tools(folder / "tools.json"), window, written)
    settings = eval_settings(transcript.system, counter, window=window, answer=ANSWER)
    assembler = Assembler(counter)
    system = counter.count_request(transcript.system, (), ()).total
    head = counter.count_request(transcript.system, tuple(tools), ()).total
    sums = dict.fromkeys(PARTS, 0)
    calls = call_points(transcript)
    for index in calls:
        history = transcript.messages[:index]
        asked = policy_context(settings, tools, last_user_words(history))
        view = await policy.view(history, asked)
        built, _ = build(assembler, settings, view, tools)
        recall = sum(counter.count_text(p) for p in view.pinned if p.startswith(RECALL_HEADER))
        ledger = sum(counter.count_text(p) for p in view.pinned) - recall
        sums["system"] += system
        sums["tools"] += head - system
        sums["ledger"] += ledger
        sums["recall"] += recall
        sums["rest"] += built.count.total - head - ledger - recall
    return sums, len(calls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--transcripts", default="support,payroll,biobank")
    parser.add_argument("--policies", default="full,retrieval")
    parser.add_argument("--tools-as-written", action="store_true")
    args = parser.parse_args()
    for name in args.transcripts.split(","):
        full = 0
        print(f"\n{name} (estimated tokens; per call point, total, share of full's billed)")
        for label, policy in parse_policies(args.policies):
            sums, calls = anyio.run(breakdown, name, policy, args.tools_as_written)
            total = sum(sums.values())
            full = full or (total if label == "full" else 0)
            print(f"{label}: {calls} calls, {total:,} billed")
            for part in PARTS:
                share = f" {sums[part] / full:6.1%}" if full else ""
                print(f"    {part:<7} {sums[part] // calls:>6,} {sums[part]:>9,}{share}")


if __name__ == "__main__":
    main()
