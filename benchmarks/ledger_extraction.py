"""How well the fact ledger's extraction finds what a reader would keep, per transcript.

Each fixture in examples/transcripts/ with a ``ledger.yaml`` lists the sentences a reader
would put in the session's fact ledger (turn, speaker, kind, a substring, the final status).
The ledger is built over the whole transcript and compared with the labels:

* recall — labels matched by an entry of the same turn and speaker whose text contains the
  label's substring, of an accepted kind, with the labelled status (current by default);
* precision — entries that match a label, of all entries.

The patterns were tuned on ``support``, ``payroll`` and ``biobank`` only (marked in the
output); the other transcripts' labels were written before the extractor was first run on
them.

    python benchmarks/ledger_extraction.py                    # rule-based extraction
    python benchmarks/ledger_extraction.py --model qwen2.5-coder-1.5b   # with a model

With ``--model`` each user and assistant message is read by the model once (slow: run it
under /work/tools/model-slot).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import anyio
import yaml

from workset.eval.formats import load_transcript
from workset.history.base import PolicyContext
from workset.history.draft import start_draft
from workset.history.ledger import Entry, FactLedger

ROOT = Path(__file__).resolve().parents[1] / "examples" / "transcripts"
TUNED_ON = ("support", "payroll", "biobank", "telecom", "warehouse")


def matches(entry: Entry, label: dict[str, Any]) -> bool:
    kinds = label["kind"] if isinstance(label["kind"], list) else [label["kind"]]
    return (
        entry.turn == label["turn"]
        and entry.who == label["who"]
        and entry.kind in kinds
        and label["text"].lower() in entry.text.lower()
        and entry.status == label.get("status", "current")
    )


async def ledger_of(name: str, model: Any | None) -> list[Entry]:
    transcript = load_transcript(ROOT / name / "transcript.jsonl")
    layer = FactLedger(extractor="model" if model is not None else "rules")
    context = PolicyContext(window=32_000, summarizer=model)
    await layer.apply(start_draft(transcript.messages), context)
    return layer.ledger.entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default=None, help="extract with this model instead")
    parser.add_argument("--show", action="store_true", help="print every entry and miss")
    args = parser.parse_args()
    model = None
    if args.model:
        from workset.models.factory import create_model

        model = create_model(args.model, context_window=8192)
    names = sorted(p.parent.name for p in ROOT.glob("*/ledger.yaml"))
    print(f"{'transcript':<12} {'labels':>6} {'entries':>7} {'recall':>7} {'precision':>9}  note")
    total_hit = total_labels = total_right = total_entries = 0
    for name in names:
        labels = yaml.safe_load((ROOT / name / "ledger.yaml").read_text(encoding="utf-8"))
        entries = anyio.run(ledger_of, name, model)
        found = [any(matches(e, label) for e in entries) for label in labels]
        right = [any(matches(e, label) for label in labels) for e in entries]
        note = "tuned on" if name in TUNED_ON else "reported (not tuned on)"
        print(
            f"{name:<12} {len(labels):>6} {len(entries):>7} {sum(found) / len(labels):>7.2f} "
            f"{sum(right) / max(1, len(entries)):>9.2f}  {note}"
        )
        if name not in TUNED_ON:
            total_hit, total_labels = total_hit + sum(found), total_labels + len(labels)
            total_right, total_entries = total_right + sum(right), total_entries + len(entries)
        if args.show:
            for label, hit in zip(labels, found, strict=True):
                if not hit:
                    print(f"    missed: {label}")
            for entry, ok in zip(entries, right, strict=True):
                mark = "ok " if ok else "XX "
                print(f"    {mark}t{entry.turn} {entry.who} {entry.kind} {entry.status}: "
                      f"{entry.text[:90]}")  # fmt: skip
    if total_labels:
        print(
            f"{'held out':<12} {total_labels:>6} {total_entries:>7} "
            f"{total_hit / total_labels:>7.2f} {total_right / max(1, total_entries):>9.2f}"
            "  all but the tuning transcript"
        )
    if model is not None:
        anyio.run(model.aclose)


if __name__ == "__main__":
    main()
