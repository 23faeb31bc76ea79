"""What each history policy puts in front of the model for each probe — no model needed.

For every probe phrasing of a fixture, the policy's view of the whole transcript is built
with that phrasing as the current query, and the request ``workset eval policies`` would send
is built (the agent's own assembly: the question as the current user message, a pinned block
after it) and checked:

* context recall — the share of probe prompts that contain the expected value (a model can
  only answer what it is shown; full history's is 1.0 by construction);
* look-alikes — other records' values present in the prompt (distractors, other probes'
  facts, values of the same shape), averaged over prompts: what a model can confuse;
* prompt tokens — the mean probe prompt, estimated at 3.6 characters a token (labelled: the
  harness's real counts come from the model's tokenizer);
* fit — the share of probe prompts that fit the window uncut (answer of 96 tokens and the
  agent's margin kept free); one that does not is measured whole, never cut;
* billed — the replay's input tokens over every call point (same estimate), and its share of
  full history's.

Every request of every policy, full history's included, carries the tool definitions the
agent would send to a model with the fixture's window (compact on 16,384 tokens or less,
:func:`workset.tools.compact.agent_specs`); ``--tools-as-written`` sends them as the fixture
has them, as this script did before 2026-12-05 (round ctx14).

This is how the ``retrieval`` policy's parameters were chosen: on ``support``, ``payroll``,
``biobank``, ``telecom`` and ``warehouse`` only (:data:`TUNED_ON`), the smallest prompts that
keep context recall highest with the fewest look-alikes. The other transcripts are reported,
never tuned on.

    OMP_NUM_THREADS=1 python benchmarks/policy_context.py --transcripts support \\
        --policies full,user_verbatim,retrieval,retrieval:turns=2
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio

from workset.cli.eval import parse_policies
from workset.context.assemble import Assembler
from workset.eval.formats import load_probes, load_tools, load_transcript
from workset.eval.match import mentions
from workset.eval.probes import other_values
from workset.eval.replay import replay
from workset.eval.request import build, eval_settings
from workset.eval.table import history_room
from workset.messages import ToolSpec
from workset.session.context import policy_context
from workset.tokens.chatml import ChatMLFormat
from workset.tokens.counter import PartCounter
from workset.tokens.estimate import EstimateTokenizer

ROOT = Path(__file__).resolve().parents[1] / "examples" / "transcripts"
# The window each fixture is evaluated at (default 16,384): full history must fit it.
WINDOWS = {"pipeline": 32_768, "telecom": 32_768, "warehouse": 32_768, "insurance": 32_768}
ANSWER = 96  # the answer's tokens, kept free as the output reserve
# What retrieval's parameters were chosen on.
TUNED_ON = ("support", "payroll", "biobank", "telecom", "warehouse")


def _text(request: Any) -> str:
    parts = []
    for message in request.messages:
        parts.append(getattr(message, "content", None) or "")
        parts += [c.arguments for c in getattr(message, "tool_calls", ())]
    return "\n".join(parts)


def sent_tools(specs: Sequence[ToolSpec], window: int, written: bool) -> tuple[ToolSpec, ...]:
    """The tool definitions every policy's requests carry: as the agent sends them to a
    model with this window (compact on 16,384 tokens or less), or ``written`` as the
    fixture has them (what the harness sent before 2026-12-05, round ctx14)."""
    if written:
        return tuple(specs)
    try:
        from workset.tools.compact import agent_specs
    except ImportError:  # a src/ from before ctx14 (a "before" run): the runtime's own rule
        from workset.cli.runtime import COMPACT_WINDOW
        from workset.tools.compact import compact_spec

        small = window <= COMPACT_WINDOW
        return tuple(compact_spec(s) for s in specs) if small else tuple(specs)
    return agent_specs(specs, window)


async def measure(
    name: str, label: str, policy: Any, counter: PartCounter, written: bool = False
) -> dict[str, Any]:
    folder = ROOT / name
    transcript = load_transcript(folder / "transcript.jsonl")
    probes = load_probes(folder / "probes.yaml")
    window = WINDOWS.get(name, 16_384)
    tools = sent_tools(load_tools(folder / "tools.json"), window, written)
    settings = eval_settings(transcript.system, counter, window=window, answer=ANSWER)
    history_room(settings, tools)
    result = await replay(transcript, tools, policy, settings)
    assembler = Assembler(counter)
    hits = confusers = prompts = tokens = fitting = 0
    per_probe: dict[str, str] = {}
    for probe in probes:
        others = other_values(probe, probes, transcript)
        found = 0
        for question in probe.questions:
            view = await policy.view(transcript.messages, policy_context(settings, tools, question))
            built, fits = build(assembler, settings, view, tools, question)
            text = _text(built.request)
            ok = (probe.expected and mentions(text, probe.expected)) or (
                probe.regex is not None and re.search(probe.regex, text, re.IGNORECASE)
            )
            found += bool(ok)
            confusers += sum(mentions(text, o) for o in others)
            tokens += built.count.total
            fitting += fits
            prompts += 1
        hits += found
        per_probe[probe.id] = f"{found}/{len(probe.questions)}"
    return {
        "label": label,
        "recall": hits / prompts,
        "lookalikes": confusers / prompts,
        "prompt": tokens / prompts,
        "fit": fitting / prompts,
        "billed": result.billed,
        "per_probe": per_probe,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--transcripts", default="support,payroll,biobank,pipeline,incident,coding,orders"
    )
    parser.add_argument("--policies", default="full,user_verbatim,window,elide,retrieval")
    parser.add_argument("--detail", action="store_true", help="context recall per probe")
    parser.add_argument(
        "--tools-as-written",
        action="store_true",
        help="send the fixture's tool definitions as written, not as the agent would",
    )
    args = parser.parse_args()
    counter = PartCounter(ChatMLFormat(), EstimateTokenizer(3.6))
    for name in args.transcripts.split(","):
        note = "tuned on" if name in TUNED_ON else "reported, not tuned on"
        print(f"\n{name} ({note}; estimated tokens)")
        print(
            f"{'policy':<44} {'ctx recall':>10} {'look-alikes':>11} {'prompt':>7} {'fit':>5} "
            f"{'billed':>9}"
        )
        rows = []
        for label, policy in parse_policies(args.policies):
            rows.append(anyio.run(measure, name, label, policy, counter, args.tools_as_written))
        full = next((r["billed"] for r in rows if r["label"] == "full"), None)
        for row in rows:
            share = f" ({row['billed'] / full:.1%})" if full else ""
            print(
                f"{row['label']:<44} {row['recall']:>10.2f} {row['lookalikes']:>11.1f} "
                f"{row['prompt']:>7,.0f} {row['fit']:>5.2f} {row['billed']:>9,}{share}"
            )
            if args.detail:
                print("    " + "  ".join(f"{k} {v}" for k, v in row["per_probe"].items()))


if __name__ == "__main__":
    main()
