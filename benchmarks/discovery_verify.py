"""Does a model's yes/no on each top candidate ("can this tool do the request?") help discovery?

The need set and the index are ``benchmarks/tool_catalog.py``'s. For every need of the chosen
halves, the model (:mod:`workset.discovery.verify`) is asked about the index's top
``--depth`` tools, best first until the first "yes" (as
:func:`~workset.discovery.verify.checked_search` asks); the verdicts are kept in a JSON-lines
file (default ``benchmarks/data/needs/verified-<model>.jsonl``, resumable), so
``--no-model`` replays them. ``--restated FILE`` also searches each need as restated in FILE
(``discovery_restate.py``'s answers). Printed per half, side by side, for the index alone and
for the ways of using the verdicts (:data:`VARIANTS`, each a
:class:`~workset.discovery.verify.Checking` decided by ``checked_search``'s own functions):
Hit@1/5/10 per band, unservable needs refused, false "not found".

Run (under ``/work/tools/model-slot`` on this machine):
``python benchmarks/discovery_verify.py [--model qwen2.5-coder-1.5b] [--split tune] [--depth 3]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).parent))
from tool_catalog import NEEDS, expanded_index, split
from tool_needs import KS

from workset.discovery import Match, ToolIndex
from workset.discovery.needs import Need, read_needs
from workset.discovery.restate import read_restatements, restatement_key
from workset.discovery.verify import Checking, Verdicts, promoted, verdict_found
from workset.errors import ModelError
from workset.models.embedded import EmbeddedModel

HERE = Path(__file__).resolve().parent
BANDS = ("name", "paraphrase", "hard")


@dataclass(frozen=True)
class Case:
    """One need: the index's ranking, its own decision, and the verdicts on the top tools."""

    need: Need
    ranked: tuple[Match, ...]
    found: bool  # the index's calibrated decision
    probability: float
    verdicts: tuple[bool | None, ...]  # per top tool, None when not asked

    def asked(self) -> list[tuple[Match, bool]]:
        """The verdicts given, with their tools, in the order asked."""
        return [(m, v) for m, v in zip(self.ranked, self.verdicts, strict=False) if v is not None]


def judged(case: Case, checking: Checking) -> tuple[Sequence[Match], bool]:
    """The ranking shown and whether "found", as ``checked_search`` decides them."""
    asked = case.asked()
    found = verdict_found(case.found, case.probability, asked, checking)
    return promoted(case.ranked, asked, checking), found


NEVER, ALWAYS = 0.0, float("inf")  # veto_below: never veto / always; rescue_above the reverse
VARIANTS: dict[str, Checking | None] = {
    "index alone": None,
    "promote": Checking(veto_below=NEVER),
    "promote + veto": Checking(veto_below=ALWAYS),
    "promote + rescue": Checking(veto_below=NEVER, rescue_above=NEVER),
    **{
        f"promote + veto below {p:.2f}": Checking(veto_below=p)
        for p in (0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 0.95)
    },
}


@dataclass(frozen=True)
class Score:
    hits: dict[str, dict[int, float]]  # band -> k -> Hit@k
    refused_unservable: int
    unservable: int
    refused_answerable: int  # false "not found"
    answerable: int

    def row(self, label: str) -> str:
        cells = " ".join("/".join(f"{self.hits[b][k]:.2f}" for k in KS).ljust(15) for b in BANDS)
        ru, u, ra, a = (
            self.refused_unservable,
            self.unservable,
            self.refused_answerable,
            self.answerable,
        )
        refused = f"{ru:>3}/{u:<3} ({ru / max(u, 1):4.0%})"
        return f"  {label:28} {cells} {refused}  | {ra:>3}/{a} ({ra / max(a, 1):.1%})"


def score(cases: Sequence[Case], checking: Checking | None) -> Score:
    hits: dict[str, dict[int, list[bool]]] = {b: {k: [] for k in KS} for b in BANDS}
    refused_u = unservable = refused_a = answerable = 0
    for case in cases:
        ranked, found = (case.ranked, case.found) if checking is None else judged(case, checking)
        if case.need.answerable:
            answerable += 1
            refused_a += not found
            wanted = {(r.server, r.tool) for r in case.need.expected}
            for k in KS:
                hits[case.need.band][k].append(
                    any((m.server, m.tool) in wanted for m in ranked[:k])
                )
        else:
            unservable += 1
            refused_u += not found
    rates = {b: {k: sum(v) / len(v) if v else 0.0 for k, v in ks.items()} for b, ks in hits.items()}
    return Score(rates, refused_u, unservable, refused_a, answerable)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--split", choices=("tune", "held_out", "both"), default="both")
    parser.add_argument("--depth", type=int, default=3, help="top tools asked about per need")
    parser.add_argument("--file", type=Path, help="the verdicts file")
    parser.add_argument("--no-model", action="store_true", help="only read the file")
    parser.add_argument("--context-window", type=int, default=2048)
    parser.add_argument("--store", type=Path, help="the index's vector file (kept between runs)")
    parser.add_argument(
        "--restated",
        type=Path,
        metavar="FILE",
        help="also search each need as restated in FILE (discovery_restate.py's answers)",
    )
    args = parser.parse_args()
    if args.depth < 1:
        parser.error("--depth must be at least 1")

    path = args.file or HERE / "data" / "needs" / f"verified-{args.model}.jsonl"
    halves = {n: h for n, h in split(read_needs(NEEDS)).items() if args.split in (n, "both")}
    index = expanded_index(args.store)
    cases, seconds = anyio.run(_cases, args, path, index, halves)
    phrasing = f", + restatements of {args.restated}" if args.restated else ", as stated"
    print(f"verdicts by {args.model} in {path}; top {args.depth} tools per need{phrasing}")
    if seconds:
        print(
            f"  model time per new verdict: median {statistics.median(seconds):.1f} s, "
            f"max {max(seconds):.1f} s ({len(seconds)} asked this run)"
        )
    for name, half in cases.items():
        asked = sum(v is not None for c in half for v in c.verdicts)
        print(f"\n{name}: {len(half)} needs, {asked} verdicts known")
        missing = sum(None in c.verdicts for c in half)
        if missing:
            print(
                f"  INCOMPLETE: {missing} needs have a candidate the model was not asked about "
                "(run without --no-model); the rows below leave it out"
            )
        print(
            f"  {'variant':28} {'name @1/5/10':15} {'paraphrase':15} {'hard':15} "
            "unservable refused | false not-found"
        )
        for label, checking in VARIANTS.items():
            print(score(half, checking).row(label))


async def _cases(
    args: argparse.Namespace, path: Path, index: ToolIndex, halves: dict[str, list[Need]]
) -> tuple[dict[str, list[Case]], list[float]]:
    model = EmbeddedModel(args.model, context_window=args.context_window)  # started on first use
    store = Verdicts(path, model)
    restated: dict[str, str] = {}
    if args.restated:
        known = read_restatements(args.restated)
        restated = {
            n.need: known[k]
            for h in halves.values()
            for n in h
            if (k := restatement_key(args.model, n.need)) in known
        }
    seconds: list[float] = []
    out: dict[str, list[Case]] = {}
    try:
        for name, half in halves.items():
            out[name] = []
            for number, need in enumerate(half, start=1):
                also = (restated[need.need],) if need.need in restated else ()
                ranked = tuple(index.rank(need.need, k=max(KS), also=also))
                result = index.search(need.need, also=also)
                verdicts: list[bool | None] = []
                for match in ranked[: args.depth]:
                    if any(verdicts):  # as checked_search asks: until the first "yes"
                        break
                    known = store.known(need.need, match.server, match.spec)
                    if known is not None or args.no_model:
                        verdicts.append(known)
                        continue
                    started = time.perf_counter()
                    try:
                        verdicts.append(await store.check(need.need, match.server, match.spec))
                    except ModelError as exc:  # not asked; asked again next run
                        print(f"[{name} {number}/{len(half)}] FAILED {match.tool}: {exc}")
                        verdicts.append(None)
                        continue
                    seconds.append(time.perf_counter() - started)
                print(
                    f"[{name} {number}/{len(half)}] {need.band:10} "
                    f"{['-' if v is None else 'y' if v else 'n' for v in verdicts]} {need.need!r}",
                    flush=True,
                )
                probability = result.decision.probability if result.decision else 0.0
                out[name].append(Case(need, ranked, result.found, probability, tuple(verdicts)))
    finally:
        await model.aclose()
    return out, seconds


if __name__ == "__main__":
    main()
