"""Does a model's restatement of a need ("what kind of tool serves this?") help tool discovery?

The need set and the index are ``benchmarks/tool_catalog.py``'s (LiveMCPBench's 527 tools, the
default search configuration, the example requests file if present). Each need is restated
once by an embedded model (:mod:`workset.discovery.restate`), the answers kept in a JSON-lines
file (default ``benchmarks/data/needs/restated-<model>.jsonl``, resumable: a need already in
it is not asked again). Printed side by side for each half, as stated and with the
restatement: Hit@1/5/10 per band, "not found" on answerable and unservable needs, the model
time per need; then the restatements of the half's hard needs that missed either way.

Run (under ``/work/tools/model-slot`` on this machine):
``python benchmarks/discovery_restate.py [--model qwen2.5-coder-0.5b] [--split tune]``.
``--no-model`` reads only the file (needs it lacks count as not restated). ``--fit`` refits
the two "not found" models (as stated, with the restatement) on the tune half and prints them
for ``src/workset/discovery/decision.py``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).parent))
from tool_catalog import NEEDS, STATED_REFUSE_AT_MOST, expanded_index, split
from tool_needs import KS, fit, hit_rates, hit_table, hits, not_found

from workset.discovery import SearchConfig
from workset.discovery.decision import USED
from workset.discovery.needs import Need, read_needs
from workset.discovery.restate import Restatements
from workset.errors import ModelError
from workset.models.embedded import EmbeddedModel

HERE = Path(__file__).resolve().parent
# The share of answerable tuning needs the RESTATED decision may refuse (chosen on tune: at 3 %
# it refuses as many unservable needs as at 5 %).
RESTATED_REFUSE_AT_MOST = 0.03


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-0.5b")
    parser.add_argument("--split", choices=("tune", "held_out", "both"), default="both")
    parser.add_argument("--file", type=Path, help="the restatements file")
    parser.add_argument("--no-model", action="store_true", help="only read the file")
    parser.add_argument("--context-window", type=int, default=2048)
    parser.add_argument(
        "--tune", action="store_true", help="print the restatement's share of the scores on tune"
    )
    parser.add_argument(
        "--fit", action="store_true", help="refit the not-found models on tune and print them"
    )
    parser.add_argument("--store", type=Path, help="the index's vector file (kept between runs)")
    args = parser.parse_args()

    path = args.file or HERE / "data" / "needs" / f"restated-{args.model}.jsonl"
    halves = split(read_needs(NEEDS))
    chosen = {n: h for n, h in halves.items() if args.split in (n, "both")}
    restated, seconds = anyio.run(_restate, args, path, chosen)

    index = expanded_index(args.store)

    def also(need: str) -> tuple[str, ...]:
        text = restated.get(need)
        return (text,) if text else ()

    if args.tune and "tune" in chosen:
        print("the restatement's share of every score (also_weight), on the tune half:")
        for weight in (0.2, 0.3, 0.4, 0.5, 0.7, 1.0):
            index.config = replace(SearchConfig(), also_weight=weight)
            rates = hit_rates(index, chosen["tune"], also)
            nf = not_found(index, chosen["tune"], also)
            print(
                f"  {weight:.1f}: hit@5 name {rates['name'][5]:.2f} para "
                f"{rates['paraphrase'][5]:.2f} hard {rates['hard'][5]:.2f}, hard@1 "
                f"{rates['hard'][1]:.2f}; unservable refused {nf.refused_unservable}/"
                f"{nf.unservable}, false not-found {nf.refused_answerable}/{nf.answerable}"
            )
        index.config = SearchConfig()
    if args.fit and "tune" in chosen:
        tuned = chosen["tune"]
        print(f"STATED = {fit(index, tuned, USED, STATED_REFUSE_AT_MOST)!r}")
        print(f"RESTATED = {fit(index, tuned, USED, RESTATED_REFUSE_AT_MOST, also)!r}")
    print(f"restatements by {args.model} in {path}")
    if seconds:
        print(
            f"  model time per newly restated need: median {statistics.median(seconds):.1f} s, "
            f"max {max(seconds):.1f} s ({len(seconds)} asked this run)"
        )
    rows = {}
    for label, extra in (("as stated", None), ("+ restatement", also)):
        rows[label] = {
            name: hit_rates(index, half) if extra is None else hit_rates(index, half, extra)
            for name, half in chosen.items()
        }
    print()
    print("Hit@1 / @5 / @10 by band (hierarchical ranking, default configuration)")
    print("\n".join(hit_table("need", rows)))
    print()
    print('"not found" (the calibrated decision)')
    for name, half in chosen.items():
        for label, nf in (
            ("as stated", not_found(index, half)),
            ("+ restatement", not_found(index, half, also)),
        ):
            print(
                f"  {name:<9} {label:<14} unservable refused {nf.refused_unservable}/"
                f"{nf.unservable} ({nf.recall:.0%}); false not-found {nf.refused_answerable}/"
                f"{nf.answerable} ({nf.false_not_found:.1%})"
            )
    for name, half in chosen.items():
        hard = [n for n in half if n.band == "hard"]
        plain, helped = hits(index, hard)["hard"][5], hits(index, hard, also)["hard"][5]
        print()
        print(f"{name}: hard needs, top-5 hit as stated / restated, and the restatement")
        for need, a, b in zip(hard, plain, helped, strict=True):
            mark = {(True, True): "  ", (False, True): "+ ", (True, False): "- "}.get((a, b), "x ")
            print(f"  {mark}{need.need!r} -> {restated.get(need.need, '(none)')!r}")
    print()
    print(f"k values: {KS}")


async def _restate(
    args: argparse.Namespace, path: Path, halves: dict[str, list[Need]]
) -> tuple[dict[str, str], list[float]]:
    needs = [n.need for half in halves.values() for n in half]
    if args.no_model:
        from workset.discovery.restate import read_restatements, restatement_key

        known = read_restatements(path)
        found = {n: known.get(restatement_key(args.model, n)) for n in needs}
        return {n: t for n, t in found.items() if t}, []
    model = EmbeddedModel(args.model, context_window=args.context_window)
    store = Restatements(path, model)
    out: dict[str, str] = {}
    seconds: list[float] = []
    try:
        for number, need in enumerate(needs, start=1):
            fresh = store.known(need) is None
            started = time.perf_counter()
            try:
                out[need] = await store.restate(need)
            except ModelError as exc:  # counted as not restated; asked again next run
                print(f"[{number}/{len(needs)}] FAILED {need!r}: {exc}")
                continue
            if fresh:
                seconds.append(time.perf_counter() - started)
                print(f"[{number}/{len(needs)}] {seconds[-1]:.1f} s {need!r} -> {out[need]!r}")
    finally:
        await model.aclose()
    return out, seconds


if __name__ == "__main__":
    main()
