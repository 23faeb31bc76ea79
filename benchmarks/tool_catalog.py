"""Tool discovery on a real catalog: needs by band, "not found", tokens, selection, latency.

Data: LiveMCPBench (``shared/data/livemcpbench``): 70 MCP servers with 527 tools, 95 tasks each
annotated with the tool names a person used, and our own need set
(``benchmarks/data/needs/needs.jsonl``: 335 answerable needs in three bands plus 46 the
catalog cannot serve, split into a tuning and a held-out half by the hash of their ids; see
its README). Example requests per tool come from ``benchmarks/data/tool_expansions.jsonl``
(written by ``benchmarks/expand_tools.py``).

Measured in one run, each number on the tuning half and on the held-out half:

1. The index: build time cold, again from its vector file, and after one server changed (with
   the number of texts embedded each time), and the file's size.
2. Needs by band: Hit@1/5/10 for each idea on its own and together (BM25 and embeddings of
   the tool text as before; + a short document per tool; + query rewriting; + example
   requests), then the tuned configuration.
3. "Not found": the decision (the act rule, then the calibrated model) on answerable and
   unservable needs: precision and
   recall of "not found", false "not found" on answerable needs; the unservable needs still
   answered with a tool are listed. Also the old check: the 15 hand-written off-catalog needs
   and the 268 annotated task steps.
4. Latency of one ``search`` (query embedding and decision included): p50 and p99.
5. The LiveMCPBench task numbers as before: tool-definition tokens, Hit@k / Recall@k from the
   task text for each ranking mode (halves A and B by task position).
6. With ``--embedder cascade`` (the default): the cascade index (MiniLM, then
   all-mpnet-base-v2 when MiniLM's decision is unsure; ``workset.discovery.CascadeIndex``):
   Hit@k by band, "not found", the share of needs sent to MPNet, latency and the task numbers;
   the summary prints it beside MiniLM. Its MPNet vectors are kept beside ``--store``
   (``NAME-mpnet.npz``). ``--embedder minilm`` or ``mpnet`` reports one index alone.

Run: ``python benchmarks/tool_catalog.py [--data DIR] [--needs FILE] [--tune] [--fit]``:
``--needs`` scores another need file of the same format (its bands and splits are checked the
same way; default ``benchmarks/data/needs/needs.jsonl``); ``--tune`` grid-searches the fusion
weights on the tuning half and prints the grid; ``--fit`` refits the "not found" model for
needs as stated on the tuning half and prints it (paste into
``src/workset/discovery/decision.py``; ``benchmarks/discovery_restate.py --fit`` prints both).
``--totals-only`` prints nothing about single needs: only the per-band totals of the default
configuration (Hit@1/5/10, "not found" refused and false) for each split of the file and for
the whole file, so a blind file can be scored without reading it. ``--half tune`` scores the
tuning half only (every table, the not-found listing, latency over its needs): the held-out
half is neither scored nor read beyond its split. Needs are listed one by one (the unservable
needs answered, the answerable needs refused) for the tuning half only, whatever ``--half``.
With ``--totals-only`` the index sits behind a servability probe fitted on the tuning halves
of the three need sets (``benchmarks/discovery_probe.py`` measures it; ``--no-probe`` for the
index alone).
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from tool_cascade import build as build_cascade
from tool_cascade import escalated
from tool_cascade import report as cascade_report
from tool_needs import (
    KS,
    MemoEmbedder,
    NotFound,
    feature_rows,
    fit,
    hit_rates,
    hit_table,
    latency,
    not_found,
)

from workset.discovery import (
    CascadeIndex,
    ProbedIndex,
    Searchable,
    SearchConfig,
    ServabilityProbe,
    ToolIndex,
    fit_probe,
    tool_search_tool,
)
from workset.discovery.decision import STATED, USED, fit_calibration
from workset.discovery.expansions import requests_by_key
from workset.discovery.index import Mode
from workset.discovery.needs import Need, check_needs, read_needs
from workset.messages import ToolSpec
from workset.retrieval import Embedder, MPNetEmbedder, Ranked, TextEmbedder, fuse_rrf
from workset.tokens.openai import OpenAITokenizer
from workset.tools.perception import perception_tools
from workset.tools.workspace import Workspace

HERE = Path(__file__).resolve().parent
NEEDS = HERE / "data" / "needs" / "needs.jsonl"
EXPANSIONS = HERE / "data" / "tool_expansions.jsonl"


def _find_data() -> Path:
    """``shared/data/livemcpbench`` beside the first ancestor that has it (main or a worktree)."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent / "shared" / "data" / "livemcpbench"
        if candidate.is_dir():
            return candidate
    return here.parents[2] / "shared" / "data" / "livemcpbench"


DATA = _find_data()
# The sentence embedders the index can be built with (``--embedder``): all-MiniLM-L6-v2, the
# default, and all-mpnet-base-v2 (larger and slower; see docs/results/discovery.md, 12-05).
EMBEDDERS: dict[str, Callable[[], TextEmbedder]] = {
    "minilm": Embedder.load,
    "mpnet": MPNetEmbedder.load,
}
CASCADE = "cascade"  # --embedder: workset.discovery.CascadeIndex (MiniLM, then MPNet)
# The share of answerable tuning needs the STATED decision may refuse (chosen on the tuning half).
STATED_REFUSE_AT_MOST = 0.03

# Needs that no LiveMCPBench tool serves (written by hand, not tuned against).
OFF_CATALOG = (
    "send an SMS text message to a phone number",
    "book a table at a restaurant for tonight",
    "order a pizza delivery to my address",
    "transfer money from my bank account to a friend",
    "control the smart lights in my living room",
    "send an email with an attachment to my manager",
    "post a tweet on my Twitter account",
    "translate speech audio from Japanese into English subtitles",
    "schedule a meeting in my Google Calendar",
    "query a PostgreSQL database table",
    "deploy the app to a Kubernetes cluster",
    "transcribe a voice memo recording to text",
    "make a phone call and read a message aloud",
    "check my car's tire pressure and fuel level",
    "print the document on the office printer",
)


@dataclass(frozen=True)
class Task:
    task_id: str
    question: str
    steps: tuple[str, ...]
    tools: frozenset[str]  # annotated names that exist in the catalog


def load_catalog(data: Path) -> tuple[dict[str, list[ToolSpec]], dict[str, str]]:
    servers: dict[str, list[ToolSpec]] = {}
    descriptions: dict[str, str] = {}
    for entry in json.loads((data / "tools.json").read_text()):
        for key, listing in entry["tools"].items():
            name = key if key not in servers else f"{key}-{entry['name']}"
            servers[name] = [
                ToolSpec(t["name"], t.get("description") or "", t.get("inputSchema") or {})
                for t in listing["tools"]
            ]
            descriptions[name] = f"{entry['name']}. {entry.get('description', '')}"
    return servers, descriptions


def _numbered(text: str) -> list[str]:
    items = [re.sub(r"^\s*\d+\s*[.)]\s*", "", line).strip() for line in text.splitlines()]
    return [item for item in items if item]


def load_tasks(data: Path, catalog_names: set[str]) -> tuple[list[Task], list[str]]:
    tasks, missing = [], []
    for row in json.loads((data / "all_annotations.json").read_text()):
        meta = row["Annotator Metadata"]
        names = _numbered(meta["Tools"])
        missing += [n for n in names if n not in catalog_names]
        known = frozenset(n for n in names if n in catalog_names)
        steps = tuple(_numbered(meta.get("Steps", "")))
        tasks.append(Task(row["task_id"], row["Question"].strip(), steps, known))
    return sorted(tasks, key=lambda t: t.task_id), missing


Ranker = Callable[[str], list[str]]


def selection(tasks: Sequence[Task], ranker: Ranker) -> dict[str, float]:
    hits = {k: 0.0 for k in KS}
    recall = {k: 0.0 for k in KS}
    scored = [t for t in tasks if t.tools]
    for task in scored:
        names = ranker(task.question)
        for k in KS:
            found = task.tools & set(names[:k])
            hits[k] += bool(found)
            recall[k] += len(found) / len(task.tools)
    n = len(scored) or 1
    return {**{f"hit@{k}": hits[k] / n for k in KS}, **{f"rec@{k}": recall[k] / n for k in KS}}


def mode_ranker(index: ToolIndex, mode: Mode) -> Ranker:
    return lambda q: [m.tool for m in index.rank(q, k=max(KS), mode=mode)]


def rrf_ranker(index: ToolIndex) -> Ranker:
    """Hybrid by reciprocal rank fusion of the BM25 and dense lists (for comparison)."""
    position = {(server, spec.name): i for i, (server, spec) in enumerate(index.specs())}
    names = [spec.name for _, spec in index.specs()]
    modes: tuple[Mode, ...] = ("bm25", "dense")

    def rank(query: str) -> list[str]:
        lists = [
            [Ranked(position[m.server, m.tool], m.score) for m in index.rank(query, 100, mode)]
            for mode in modes
        ]
        return [names[r.index] for r in fuse_rrf(lists)[: max(KS)]]

    return rank


def tune(index: ToolIndex, needs: Sequence[Need]) -> tuple[SearchConfig, list[str]]:
    """Grid search on ``needs`` (the tuning half) by mean Hit@5 over the three bands."""
    base, best, best_key, lines = index.config, index.config, -1.0, []
    grid = itertools.product((0.1, 0.2, 0.3), (0.1, 0.25, 0.5), (0.0, 0.3, 0.5, 0.7))
    for bm25_weight, server_weight, expansion_weight in grid:
        index.config = replace(
            base,
            bm25_weight=bm25_weight,
            server_weight=server_weight,
            expansion_weight=expansion_weight,
        )
        rates = hit_rates(index, needs)
        key = sum(rates[b][5] for b in ("name", "paraphrase", "hard")) / 3
        lines.append(
            f"  bm25={bm25_weight} server={server_weight} expansion={expansion_weight}: "
            f"hit@5 name {rates['name'][5]:.3f} para {rates['paraphrase'][5]:.3f} "
            f"hard {rates['hard'][5]:.3f}"
        )
        if key > best_key:
            best, best_key = index.config, key
    index.config = base
    return best, lines


def expanded_index(store: Path | None = None, embedder: MemoEmbedder | None = None) -> ToolIndex:
    """The LiveMCPBench catalog's index as the benchmarks search it: the default index with
    the committed example requests, its vectors kept in ``store``."""
    servers, descriptions = load_catalog(DATA)
    return ToolIndex.build(
        servers,
        embedder or MemoEmbedder(Embedder.load()),
        descriptions=descriptions,
        expansions=requests_by_key(EXPANSIONS),
        store=store,
    )


HALVES = ("tune", "held_out")
# The half whose needs may be listed one by one; the held-out half is reported as totals only.
LISTED_HALF = "tune"


def split(needs: Sequence[Need], half: str = "both") -> dict[str, list[Need]]:
    """The needs of each half, or of the tuning half alone (``half="tune"``)."""
    if half not in ("tune", "both"):
        raise ValueError(f"half must be 'tune' or 'both', got {half!r}")
    return {
        name: [n for n in needs if n.split == name]
        for name in HALVES
        if half != "tune" or name == "tune"
    }


def listed(nf: NotFound, half: str) -> list[str]:
    """The per-need lines of a not-found result, for the tuning half only (else none)."""
    if half != LISTED_HALF:
        return []
    return [
        *(f"answered anyway: {line}" for line in nf.wrong_found),
        *(f"refused: {line}" for line in nf.wrongly_refused),
    ]


def changed_server(servers: dict[str, list[ToolSpec]], name: str) -> dict[str, list[ToolSpec]]:
    """``servers`` with the first tool of ``name`` described a little differently."""
    first, *rest = servers[name]
    edited = ToolSpec(first.name, first.description + " (Updated.)", first.parameters)
    return {**servers, name: [edited, *rest]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the livemcpbench folder")
    parser.add_argument(
        "--needs", type=Path, default=NEEDS, help="a need file (JSON lines, checked first)"
    )
    parser.add_argument(
        "--totals-only",
        action="store_true",
        help="only the per-band totals of the default configuration (no need is printed)",
    )
    parser.add_argument("--expansions", type=Path, default=EXPANSIONS)
    parser.add_argument(
        "--embedder",
        choices=[*sorted(EMBEDDERS), CASCADE],
        default=CASCADE,
        help="the sentence embedder; cascade (the default): MiniLM, then all-mpnet-base-v2 when "
        "MiniLM is unsure (sections 1-5 use MiniLM, section 6 and the summary the cascade)",
    )
    parser.add_argument("--tune", action="store_true", help="grid-search weights on tune")
    parser.add_argument("--fit", action="store_true", help="refit the not-found model on tune")
    parser.add_argument(
        "--half",
        choices=("tune", "both"),
        default="both",
        help="score the tune half only (needs are listed one by one for the tune half only)",
    )
    parser.add_argument(
        "--store", type=Path, help="keep the vector file here between runs (default: temporary)"
    )
    parser.add_argument(
        "--probe",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="with --totals-only: a servability probe fitted on the tune halves of the three "
        "need sets turns found into not found (workset.discovery.probe; default on)",
    )
    args = parser.parse_args()

    servers, descriptions = load_catalog(args.data)
    catalog_names = {spec.name for specs in servers.values() for spec in specs}
    tasks, missing = load_tasks(args.data, catalog_names)
    needs = read_needs(args.needs)
    problems = check_needs(needs, servers)
    if problems:
        raise SystemExit("the need set does not check:\n" + "\n".join(problems))
    halves = split(needs, args.half)
    n_tools = sum(len(s) for s in servers.values())
    expansions = requests_by_key(args.expansions)
    if args.totals_only:
        totals_only(
            servers,
            descriptions,
            expansions,
            needs,
            args.store,
            args.embedder,
            args.half,
            probe=args.probe,
        )
        return
    print(f"catalog: {len(servers)} servers, {n_tools} tools; {len(tasks)} tasks")
    print(
        f"annotated tool names not in the catalog: {len(missing)} ({', '.join(missing)}); "
        f"tasks with no catalog tool: {sum(1 for t in tasks if not t.tools)}"
    )
    for name, half in halves.items():
        bands = {b: sum(1 for n in half if n.band == b) for b in ("name", "paraphrase", "hard")}
        print(f"needs, {name}: {bands}, unservable {sum(1 for n in half if not n.answerable)}")

    # (1) the index
    embedder = MemoEmbedder(EMBEDDERS["minilm" if args.embedder == CASCADE else args.embedder]())
    print()
    print(
        f"(1) index build ({embedder.name} in numpy; every text embedded once, then read from "
        "the file)"
    )
    scratch = tempfile.TemporaryDirectory()
    store = args.store or Path(scratch.name) / "vectors.npz"
    existed = store.is_file()
    started = time.perf_counter()
    index = ToolIndex.build(
        servers, embedder, descriptions=descriptions, expansions=expansions, store=store
    )
    first = "from the existing --store file" if existed else "cold"
    print(
        f"  {first}: {time.perf_counter() - started:.1f} s, {len(embedder.seen)} texts embedded "
        f"(example requests for {index.tools_with_examples}/{len(index)} tools); "
        f"vector file {store.stat().st_size / 1e6:.1f} MB"
    )
    fresh = MemoEmbedder(embedder.inner)
    started = time.perf_counter()
    ToolIndex.build(servers, fresh, descriptions=descriptions, expansions=expansions, store=store)
    print(
        f"  again from the file: {time.perf_counter() - started:.2f} s, "
        f"{len(fresh.seen)} texts embedded"
    )
    edited_store = Path(scratch.name) / "edited.npz"
    shutil.copyfile(store, edited_store)
    fresh = MemoEmbedder(embedder.inner)
    started = time.perf_counter()
    ToolIndex.build(
        changed_server(servers, "weather"),
        fresh,
        descriptions=descriptions,
        expansions=expansions,
        store=edited_store,
    )
    print(
        f"  after one tool of one server changed: {time.perf_counter() - started:.2f} s, "
        f"{len(fresh.seen)} texts embedded (those whose words changed: that tool's and its "
        "server's documents)"
    )
    plain = ToolIndex.build(servers, embedder, descriptions=descriptions, store=edited_store)
    adapting = replace(SearchConfig(), adapter=True)
    started = time.perf_counter()
    adapted = ToolIndex.build(
        servers,
        embedder,
        descriptions=descriptions,
        expansions=expansions,
        config=adapting,
        store=store,
    )
    print(
        f"  with the opt-in query adapter: {time.perf_counter() - started:.1f} s (fitted, or read "
        "from the vector file when an earlier run kept it there; no text embedded)"
    )

    # (2) needs by band: each idea
    # Before this work: BM25 weight 0.3, the full document only, the need as stated.
    base = SearchConfig(
        bm25_weight=0.3,
        expansion_weight=0.0,
        rewrite=False,
        short_documents=False,
        adapter=False,
    )
    variants: dict[str, tuple[ToolIndex, SearchConfig]] = {
        "before (BM25 weight 0.3)": (plain, base),
        "+ BM25 weight 0.2 (tuned)": (plain, replace(base, bm25_weight=0.2)),
        "+ short document": (plain, replace(base, short_documents=True)),
        "+ query rewriting": (plain, replace(base, rewrite=True)),
        "+ example requests": (index, replace(base, expansion_weight=0.5)),
        "default config": (index, SearchConfig()),
        "+ query adapter (opt-in)": (adapted, adapting),
    }
    if args.tune:
        print()
        print("tuning on the tune half (hierarchical; by mean hit@5 over bands):")
        index.config = SearchConfig()
        chosen, lines = tune(index, halves["tune"])
        print("\n".join(lines))
        print(f"  chosen: {chosen}")
        variants["tuned"] = (index, chosen)
    rows = {}
    for label, (idx, config) in variants.items():
        idx.config = config
        rows[label] = {name: hit_rates(idx, half) for name, half in halves.items()}
    index.config = SearchConfig()
    plain.config = replace(SearchConfig(), expansion_weight=0.0)
    print()
    print("(2) needs: Hit@1 / @5 / @10 by band (hierarchical ranking)")
    print("\n".join(hit_table("idea", rows)))

    # (3) not found
    if args.fit:
        print(f"STATED = {fit(index, halves['tune'], USED, STATED_REFUSE_AT_MOST)!r}")
    print()
    print("(3) 'not found' (the act rule, then the calibrated model; needs as stated)")
    for label, idx in (("with examples", index), ("without examples", plain)):
        print(f"  {label} (threshold {STATED.threshold:.3f}):")
        for name, half in halves.items():
            nf = not_found(idx, half)
            print(f"    {name:<9} {nf.line()}")
            if idx is index:
                for line in listed(nf, name):
                    print(f"      {line}")
    rows_by_half = {name: feature_rows(plain, half) for name, half in halves.items()}
    x_tune, y_tune, _ = rows_by_half["tune"]
    one = fit_calibration(x_tune, y_tune, use=("cosine",))
    print(
        f"  for comparison, one cosine threshold and no act rule ({one.threshold:.3f}, "
        "fitted the same way):"
    )
    for name, (x, y, _) in rows_by_half.items():
        accepted = np.array([one.probability(list(r)) >= one.threshold for r in x])
        print(
            f"    {name:<9} unservable refused {np.mean(~accepted[y == 0]):.2f}; false "
            f"not-found {np.mean(~accepted[y == 1]):.1%}"
        )
    steps = [s for t in tasks for s in t.steps]
    off = [index.search(q).found for q in OFF_CATALOG]
    on = [index.search(s).found for s in steps]
    print(
        f"  LiveMCPBench check: off-catalog needs answered 'not found' {off.count(False)}/"
        f"{len(off)}; annotated steps (in-catalog) answered with tools {on.count(True)}/{len(on)}"
    )

    # (4) latency: a fresh index over the same vector file, so every query is embedded live
    # the last half scored: held-out by default, tune with --half tune
    report_half = list(halves)[-1]
    held = [n.need for n in halves[report_half]]
    live = ToolIndex.build(
        servers, embedder.inner, descriptions=descriptions, expansions=expansions, store=store
    )
    p50, p99 = latency(live.search, held)
    live_adapted = ToolIndex.build(
        servers,
        embedder.inner,
        descriptions=descriptions,
        expansions=expansions,
        config=adapting,
        store=store,
    )
    a50, a99 = latency(live_adapted.search, held)
    print()
    print(
        f"(4) search latency over the {len(held)} {report_half} needs (query embedding, ranking "
        f"and decision): p50 {p50:.1f} ms, p99 {p99:.1f} ms; with the query adapter p50 {a50:.1f} "
        f"ms, p99 {a99:.1f} ms"
    )

    bm25_all, hier_all, upfront, prefix, _ = _livemcpbench(index, servers, tasks)
    with_adapter = selection(tasks, mode_ranker(adapted, "hierarchical"))
    print(
        "  hierarchical + query adapter (opt-in), all: "
        + " ".join(f"{c} {with_adapter[c]:.3f}" for c in with_adapter)
    )
    held_rates = rows["default config"][report_half]
    before = rows["before (BM25 weight 0.3)"][report_half]
    nf = not_found(index, halves[report_half])
    cascade = None
    if args.embedder == CASCADE:
        cascade = cascade_report(
            build_cascade(servers, descriptions, expansions, store),
            build_cascade(servers, descriptions, expansions, store, memo=False),
            halves,
            report_half,
            lambda ranker: selection(tasks, ranker),
            (OFF_CATALOG, steps),
        )
    print()
    head = f"{'summary':<44} {'before':>12} {'MiniLM':>12}"
    print(head + (f" {'cascade':>12}" if cascade else ""))

    def row(label: str, was: str, now: str, then: str) -> None:
        print(f"{label:<44} {was:>12} {now:>12}" + (f" {then:>12}" if cascade else ""))

    for band in ("name", "paraphrase", "hard"):
        row(
            f"{report_half} Hit@5, {band}",
            f"{before[band][5]:.3f}",
            f"{held_rates[band][5]:.3f}",
            f"{cascade['rates'][band][5]:.3f}" if cascade else "",
        )
    c_nf = cascade["not_found"] if cascade else None
    row(
        f"{report_half} false not-found (answerable)",
        "-",
        f"{nf.false_not_found:.1%}",
        f"{c_nf.false_not_found:.1%}" if c_nf else "",
    )
    row(
        f"{report_half} unservable refused",
        "-",
        f"{nf.recall:.1%}",
        f"{c_nf.recall:.1%}" if c_nf else "",
    )
    c50, c99 = cascade["latency"] if cascade else (0.0, 0.0)
    row("search latency p50 / p99 (ms)", "-", f"{p50:.0f} / {p99:.0f}", f"{c50:.0f} / {c99:.0f}")
    print(f"{'tool-definition tokens: all / discovery prefix':<44} {upfront:>12,} {prefix:>12,}")
    for k in KS:
        row(
            f"LiveMCPBench tasks Hit@{k} (BM25 / now)",
            f"{bm25_all[f'hit@{k}']:.3f}",
            f"{hier_all[f'hit@{k}']:.3f}",
            f"{cascade['tasks'][f'hit@{k}']:.3f}" if cascade else "",
        )


def totals(index: Searchable, needs: Sequence[Need]) -> list[str]:
    """Per-band totals of ``needs`` on ``index``: counts, Hit@1/5/10, "not found" (no need
    named: a blind file's needs stay unread)."""
    rates = hit_rates(index, needs)
    nf = not_found(index, needs)
    counts = {b: sum(1 for n in needs if n.band == b) for b in ("name", "paraphrase", "hard")}
    lines = [
        f"    {band:<10} n={counts[band]:<4} Hit@1 {rates[band][1]:.2f}  @5 {rates[band][5]:.2f}"
        f"  @10 {rates[band][10]:.2f}"
        for band in ("name", "paraphrase", "hard")
        if counts[band]
    ]
    lines.append(
        f"    {'all':<10} n={sum(counts.values()):<4} Hit@1 {rates['all'][1]:.2f}  @5 "
        f"{rates['all'][5]:.2f}  @10 {rates['all'][10]:.2f}"
    )
    lines.append(
        f"    not found: unservable refused {nf.refused_unservable}/{nf.unservable}"
        f" ({nf.recall:.0%}); false not-found {nf.refused_answerable}/{nf.answerable}"
        f" ({nf.false_not_found:.1%}); precision {nf.precision:.2f}"
    )
    return lines


PROBE_SETS = ("needs.jsonl", "blind_needs2.jsonl", "blind_needs3.jsonl")


def need_sets() -> dict[str, list[Need]]:
    """The need sets of :data:`PROBE_SETS` by file name, in that order."""
    return {name: read_needs(NEEDS.parent / name) for name in PROBE_SETS}


def fitted_probe(index: ToolIndex) -> ServabilityProbe:
    """The servability probe of ``index``, fitted on the tuning halves of :data:`PROBE_SETS`
    (in that order, as ``benchmarks/discovery_probe.py`` reports it)."""
    tune = [n for needs in need_sets().values() for n in needs if n.split == "tune"]
    return fit_probe(index, [(n.need, n.answerable) for n in tune])


def totals_only(
    servers: dict[str, list[ToolSpec]],
    descriptions: dict[str, str],
    expansions: dict[str, tuple[str, ...]],
    needs: Sequence[Need],
    store: Path | None,
    embedder_name: str = "minilm",
    half: str = "both",
    *,
    probe: bool = False,
) -> None:
    """``--totals-only``: the default configuration's per-band totals, by split and overall
    (of the tuning half alone with ``half="tune"``); with ``probe``, behind a servability
    probe fitted by :func:`fitted_probe`."""
    with tempfile.TemporaryDirectory() as scratch:
        where = store or Path(scratch) / "vectors.npz"
        index: ToolIndex | CascadeIndex
        if embedder_name == CASCADE:
            index = build_cascade(servers, descriptions, expansions, where)
            name = f"cascade (MiniLM, then all-mpnet-base-v2 below {index.escalate_below})"
            config = index.first.config
        else:
            embedder = MemoEmbedder(EMBEDDERS[embedder_name]())
            embedder.embed([n.need for n in needs])  # in batches: cheaper than one at a time
            index = ToolIndex.build(
                servers, embedder, descriptions=descriptions, expansions=expansions, store=where
            )
            name, config = embedder.name, index.config
        searched: Searchable = index
        if probe:
            basis = index.first if isinstance(index, CascadeIndex) else index
            searched = ProbedIndex(index, basis, fitted_probe(basis))
            name += ", behind a servability probe fitted on the tune halves of three need sets"
        print(f"totals, {name}, default configuration ({config})")
        parts = split(needs, half)
        if half == "both":
            parts["all"] = list(needs)
        for label, part in parts.items():
            if part:
                print(f"  {label} ({len(part)} needs):")
                print("\n".join(totals(searched, part)))
                if isinstance(index, CascadeIndex):
                    print(f"    sent to the second index: {escalated(index, part):.0%}")


def _livemcpbench(
    index: ToolIndex, servers: dict[str, list[ToolSpec]], tasks: Sequence[Task]
) -> tuple[dict[str, float], dict[str, float], int, int, float]:
    """Tokens and selection from the task text, as measured before this need set existed."""
    tokenizer = OpenAITokenizer("o200k_base")

    def tokens(specs: Sequence[ToolSpec]) -> int:
        return sum(tokenizer.count(json.dumps(s.to_wire(), ensure_ascii=False)) for s in specs)

    upfront = tokens([spec for specs in servers.values() for spec in specs])
    with tempfile.TemporaryDirectory() as root:
        core = [t.spec for t in perception_tools(Workspace(root))]
    loaded: set[str] = set()
    search = tool_search_tool(index, loaded)
    prefix = tokens([*core, search.spec])
    per_task = []
    for task in tasks:
        loaded.clear()
        results = [search.handler(query=step) for step in task.steps or (task.question,)]
        per_task.append(prefix + sum(tokenizer.count(str(r)) for r in results))
    upfront_total = upfront + tokens(core)
    n_tools = sum(len(s) for s in servers.values())
    print()
    print("(5) LiveMCPBench tasks: tool-definition tokens per request (o200k_base, JSON)")
    print(f"  all {n_tools} tools + core up front:      {upfront_total:>7,}")
    print(f"  discovery prefix (core + tool_search): {prefix:>7,}")
    mean_task, max_task = statistics.mean(per_task), max(per_task)
    print(
        f"  discovery incl. every search result of a task (one per step): mean {mean_task:,.0f}"
        f", max {max_task:,}"
    )
    print(
        f"  reduction: prefix {1 - prefix / upfront_total:.1%}, "
        f"with search results (mean) {1 - mean_task / upfront_total:.1%}"
    )
    rankers: dict[str, Ranker] = {
        "bm25": mode_ranker(index, "bm25"),
        "dense": mode_ranker(index, "dense"),
        "hybrid (weighted)": mode_ranker(index, "hybrid"),
        "hybrid (RRF)": rrf_ranker(index),
        "hierarchical": mode_ranker(index, "hierarchical"),
    }
    half_a = [t for i, t in enumerate(tasks) if i % 2 == 0]
    half_b = [t for i, t in enumerate(tasks) if i % 2 == 1]
    print(f"  selection from the task text; config {index.config}")
    header = f"  {'ranking':<18} {'set':<4}" + "".join(
        f" {c:>7}" for c in [f"hit@{k}" for k in KS] + [f"rec@{k}" for k in KS]
    )
    print(header)
    for label, ranker in rankers.items():
        for name, subset in (("A", half_a), ("B", half_b), ("all", tasks)):
            row = selection(subset, ranker)
            print(f"  {label:<18} {name:<4}" + "".join(f" {row[c]:>7.3f}" for c in row))
    bm25_all = selection(tasks, rankers["bm25"])
    hier_all = selection(tasks, rankers["hierarchical"])
    return bm25_all, hier_all, upfront_total, prefix, mean_task


if __name__ == "__main__":
    main()
