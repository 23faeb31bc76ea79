"""How the MCP description audit separates poisoned tool definitions from benign ones.

Corpora under ``benchmarks/data/mcp_defs/``, reported per cohort: ``definitions.json`` (the
first 70, ``old``), ``definitions_more.json`` (cohorts 1 and 2) and every
``definitions_cohort*.json`` (3, 4, 5, 6, 6b, and any later cohort dropped in beside them).
Each definition has a server, a name, a description, an
input schema, the label ``poisoned``/``benign``, the ``technique``, a one-line ``reason`` and
a fixed ``split`` (``tune`` or ``heldout``); each file's ``split`` note says how its halves
were drawn, and the cohorts written as held-out (4 to 6) record in ``first_score`` what the
rules of the time scored on them before anyone tuned on them (cohorts 4, 5 and 6 were then
moved to tune, each once the next cohort had been written as the new held-out; 6b was written
by the tuner of round 4 and is tune only; 6c to 6g are that tuner's probes, each scored once
before the next round, 6g still held out). Cohort 7 was written blind (without reading the
rules or the other cohorts' cases), scored once on the rules of 86f87e4, and stays held out.
Cohorts 8 and 9 were written blind the same way and each moved to tune once the next blind
cohort had been written (9 in round 7, with cohort 10 the new held-out; 10 in round 8, with
cohort 11 the new held-out, kept unscored with ``--leave-out 11``; 11 in round 9, with
cohort 12 the new held-out; 12's tune half in round 10, its held-out half scored once with
``--only 12 --totals-only``); ``9t`` and ``11t`` hold the round-7 and round-9 tuners' own cases
and probes (tune only), ``12t`` round 10's and ``13t`` round 11's (split by cohort 12's hash
rule; 13's tune half read in round 11, its held-out half scored with ``--only 13
--totals-only``), each probe's one score in its ``about`` or ``first_score``; the tuners'
own files from round 13 on are ``definitions_own*.json`` (cohorts ``own13``, ``own14`` and
``own15``, ``--only own15``). A case's ``title`` (or ``annotations.title``) and ``outputSchema``
are read with the rest of its definition.
Each is audited with :func:`workset.mcp.audit_tool` (the wording rules) and with the learned
layer beside them (:mod:`workset.mcp.poison_learned`, a MiniLM sentence classifier trained on
the tune cohorts by ``benchmarks/mcp_learned_train.py``); a definition is flagged when it has
any finding.

Printed per half and cohort: poisoned flagged and benign flagged for the rules alone, for the
rules or the learned layer (what :class:`workset.mcp.TrustGate` applies when the embedder is
installed), and side by side for a plain keyword list (:data:`KEYWORDS`, matched in the same
texts the audit reads).
Then per technique for each half; per rule, the definitions it flags (poisoned and benign per
half, and real ones: the benign cost of each rule and signal); the real definitions, all
benign (the GitHub MCP server's in ``real_github_mcp.json``, the npm reference servers' in
``real_reference_mcp.json``, Playwright MCP's and the modelcontextprotocol/servers reference
servers' in ``real_more_mcp.json``); and the shadowing scenario in ``shadowing.json``
(servers with a ``trust`` level, their tools, the pairs expected and the shadow each should
name, a technique per pair, and unrelated pairs that must not be reported) through
:func:`workset.mcp.find_shadowing`.

``--show heldout`` (or tune) lists the misses of a half (rules or learned) with their findings.
``--leave-out 9`` scores every cohort but cohort 9 (how a tuner keeps a blind cohort unseen
until its one final run); ``--only 8`` scores cohort 8 alone; ``--totals-only`` prints the
totals per half and cohort and nothing per technique, rule or miss (``--only 9 --totals-only``
is that one final run); ``--half tune`` scores one half alone (``--only 13 --half tune --show
tune`` lists a cohort's tune misses and prints nothing of its held-out half).
``--rules-only`` skips the learned layer (as does a checkout that has none). Run the same
script with ``PYTHONPATH`` pointing at another checkout's ``src`` to score that audit on the
same data (how docs/results/safety.md gets its "before" numbers).

Run: ``PYTHONPATH=src python benchmarks/mcp_audit.py [--show heldout]``.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from workset.mcp import Finding, RemoteTool, audit_tool, find_shadowing
from workset.mcp.definition_fields import definition_texts

try:
    from workset.mcp.poison_learned import learned_findings
except ImportError:  # another checkout's audit, from before the learned layer
    learned_findings = None

DATA = Path(__file__).parent / "data" / "mcp_defs"
KEYWORDS = (
    "ignore previous",
    "ignore all",
    "disregard",
    "do not tell",
    "don't tell",
    "system prompt",
    "<important>",
    "send",
    "http",
    "password",
    "secret",
    "always call",
)

Row = dict[str, Any]


def cohort_files() -> list[Path]:
    """``definitions_cohort*.json`` in cohort order (``6`` before ``6b`` before ``7``), then the
    tuners' own files ``definitions_own*.json`` (cohort ``own13``: round 13's cases)."""

    def order(path: Path) -> tuple[bool, int, str]:
        tail = cohort_name(path)
        digits = "".join(c for c in tail if c.isdigit())
        return tail.startswith("own"), int(digits or 0), tail

    return sorted(
        [*DATA.glob("definitions_cohort*.json"), *DATA.glob("definitions_own*.json")], key=order
    )


def cohort_name(path: Path) -> str:
    """``definitions_cohort6b.json``: ``6b``; ``definitions_own13.json``: ``own13``."""
    return path.stem.removeprefix("definitions_").removeprefix("cohort")


def load() -> list[Row]:
    old: list[Row] = json.loads((DATA / "definitions.json").read_text("utf-8"))
    new: list[Row] = [
        case
        for file in (DATA / "definitions_more.json", *cohort_files())
        for case in json.loads(file.read_text("utf-8"))["cases"]
    ]
    return [{**r, "corpus": "old"} for r in old] + [
        {**r, "corpus": f"new{r['cohort']}"} for r in new
    ]


def tool_of(row: Row) -> RemoteTool:
    """A case as the client would list it, with its title, annotations' hints and output schema
    when it has them."""
    annotations = row.get("annotations", {})
    title = row.get("title") or annotations.get("title", "")
    return RemoteTool(
        row["server"],
        row["name"],
        row["description"],
        row["inputSchema"],
        read_only_hint=annotations.get("readOnlyHint"),
        destructive_hint=annotations.get("destructiveHint"),
        title=title,
        output_schema=row.get("outputSchema"),
    )


def keyword_flagged(tool: RemoteTool) -> bool:
    """The baseline: any of :data:`KEYWORDS` in any text of the definition, ignoring case."""
    text = " ".join(t for _, t in definition_texts(tool)).lower()
    return any(k in text for k in KEYWORDS)


def groups(rows: Sequence[Row]) -> list[tuple[str, list[Row]]]:
    """The rows per half and cohort ("heldout new11"), then per half for all new cohorts
    ("new") and all rows ("all"), as the tables print them; empty groups left out."""
    out = []
    for split in ("heldout", "tune"):
        for corpus in (*dict.fromkeys(r["corpus"] for r in rows), "new", "all"):
            mine = [
                r
                for r in rows
                if r["split"] == split and corpus in ("all", r["corpus"], r["corpus"][:3])
            ]
            if mine:
                out.append((f"{split} {corpus}", mine))
    return out


def rates(rows: Sequence[Row], flagged: Callable[[Row], bool]) -> str:
    poisoned = [r for r in rows if r["label"] == "poisoned"]
    benign = [r for r in rows if r["label"] == "benign"]
    hit = sum(map(flagged, poisoned))
    false = sum(map(flagged, benign))
    return (
        f"{hit:>2}/{len(poisoned):<2} {hit / max(1, len(poisoned)):>4.0%}  "
        f"{false:>2}/{len(benign):<2} {false / max(1, len(benign)):>4.0%}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", choices=("tune", "heldout"))
    parser.add_argument("--rules-only", action="store_true")
    parser.add_argument(
        "--leave-out",
        nargs="+",
        default=[],
        metavar="COHORT",
        help="cohorts not scored at all (e.g. 9: a blind cohort kept unseen while tuning)",
    )
    parser.add_argument(
        "--only", nargs="+", default=[], metavar="COHORT", help="score only these cohorts"
    )
    parser.add_argument(
        "--half",
        choices=("tune", "heldout"),
        help="score only this half (``--only 13 --half tune --show tune`` reads a cohort's tune "
        "misses without printing anything of its held-out half, not even per technique)",
    )
    parser.add_argument(
        "--totals-only",
        action="store_true",
        help="print the per-cohort totals and nothing per technique, rule or miss (how a blind "
        "cohort is scored once without reading what it missed)",
    )
    args = parser.parse_args()
    learn = None if args.rules_only else learned_findings
    rows = [
        r
        for r in load()
        if r["corpus"].removeprefix("new") not in args.leave_out
        and (not args.only or r["corpus"].removeprefix("new") in args.only)
        and (not args.half or r["split"] == args.half)
    ]
    rules = {id(r): audit_tool(tool_of(r)) for r in rows}
    found = {id(r): rules[id(r)] + (learn(tool_of(r)) if learn else []) for r in rows}
    baseline = {id(r): keyword_flagged(tool_of(r)) for r in rows}
    print(
        f"{'':16} {'rules: poisoned   benign':28} {'rules or learned: p.   benign':31}"
        " keywords: poisoned   benign"
    )
    for label, mine in groups(rows):
        alone = rates(mine, lambda r: bool(rules[id(r)]))
        audit = rates(mine, lambda r: bool(found[id(r)]))
        keys = rates(mine, lambda r: baseline[id(r)])
        print(f"{label:16} {alone:28} {audit:31} {keys}")
    for file in cohort_files():
        note = json.loads(file.read_text("utf-8"))
        first = note.get("first_score")
        if not first:  # not scored yet (a blind cohort's file as its writer left it)
            continue
        cohort = cohort_name(file)
        mine = [r for r in rows if r["corpus"] == f"new{cohort}"]
        if first.get("half"):  # a first score of one half is compared on that half
            mine = [r for r in mine if r["split"] == first["half"]]
        if not mine:
            continue
        now = rates(mine, lambda r: bool(rules[id(r)]))
        print(
            f"cohort {cohort:3} first scored (rules of {first['rules_commit']}): poisoned "
            f"{first['poisoned_flagged']:>5}, benign {first['benign_flagged']:>5}; rules now {now} "
            f"({mine[0]['split'] if mine else '-'})"
        )
    if args.totals_only:
        return
    for split in ("heldout", "tune"):
        per: dict[str, Counter[str]] = defaultdict(Counter)
        for row in rows:
            if row["split"] == split:
                per[row["technique"]]["n"] += 1
                per[row["technique"]]["flagged"] += bool(found[id(row)])
        print(
            f"\n{split} per technique (flagged/n; for benign kinds flagged is wrong):\n  "
            + ", ".join(f"{t} {c['flagged']}/{c['n']}" for t, c in sorted(per.items()))
        )
    _per_rule(rows, found, learn)
    _real(learn)
    _shadowing()
    if args.show:
        print(f"\nmisses on the {args.show} half:")
        for row in rows:
            flagged = found[id(row)]
            if row["split"] == args.show and bool(flagged) != (row["label"] == "poisoned"):
                print(
                    f"  {row['corpus']} {row['label']} {row['technique']}: "
                    f"{row['server']}/{row['name']} {[f.line() for f in flagged]}"
                )


def real_tools() -> dict[str, list[RemoteTool]]:
    """The real definitions, all benign: the GitHub server's and the npm reference servers'."""
    github = json.loads((DATA / "real_github_mcp.json").read_text("utf-8"))
    reference = json.loads((DATA / "real_reference_mcp.json").read_text("utf-8"))
    more = json.loads((DATA / "real_more_mcp.json").read_text("utf-8"))
    return {
        "GitHub": [
            RemoteTool(github["server"], t["name"], t["description"], t["inputSchema"])
            for t in github["tools"]
        ],
        "npm reference": [
            RemoteTool(t["server"], t["name"], t["description"], t["inputSchema"])
            for t in reference["tools"]
        ],
        "Playwright and reference-server": [
            RemoteTool(t["server"], t["name"], t["description"], t["inputSchema"])
            for t in more["tools"]
        ],
    }


Learn = Callable[[RemoteTool], list[Finding]] | None


def audited(tool: RemoteTool, learn: Learn) -> list[Finding]:
    return audit_tool(tool) + (learn(tool) if learn else [])


def _per_rule(rows: Sequence[Row], found: dict[int, list[Finding]], learn: Learn) -> None:
    """Per rule: the definitions it flags, poisoned and benign per half, and real ones."""
    real = [audited(t, learn) for tools in real_tools().values() for t in tools]
    count: Counter[tuple[str, str, str]] = Counter()
    for row in rows:
        for rule in {f.rule for f in found[id(row)]}:
            count[rule, row["label"], row["split"]] += 1
    for findings in real:
        for rule in {f.rule for f in findings}:
            count[rule, "real", ""] += 1
    print(f"\nper rule: poisoned tune/heldout, benign tune/heldout, real ({len(real)})")
    for rule in sorted({k[0] for k in count}):
        poisoned = f"{count[rule, 'poisoned', 'tune']:>3}/{count[rule, 'poisoned', 'heldout']:<3}"
        benign = f"{count[rule, 'benign', 'tune']:>3}/{count[rule, 'benign', 'heldout']:<3}"
        print(f"  {rule:26} {poisoned} {benign} {count[rule, 'real', '']:>3}")


def _real(learn: Learn) -> None:
    """Real definitions, all benign: how many the audit and the keywords would block."""
    for source, tools in real_tools().items():
        alone = sum(bool(audit_tool(t)) for t in tools)
        flagged = [(t, found) for t in tools if (found := audited(t, learn))]
        keys = sum(map(keyword_flagged, tools))
        print(
            f"\nreal {source} MCP definitions (benign): rules flag {alone}/{len(tools)}, "
            f"rules or learned {len(flagged)}/{len(tools)}, keywords flag {keys}/{len(tools)}"
        )
        for _, found in flagged:
            print(f"  {[f.line() for f in found]}")


def _shadowing() -> None:
    scenario = json.loads((DATA / "shadowing.json").read_text("utf-8"))
    tools = [RemoteTool(t["server"], t["name"], "", {"type": "object"}) for t in scenario["tools"]]
    pairs = find_shadowing(tools, scenario["servers"])
    found = {
        frozenset((f"{p.server}/{p.tool}", f"{p.other_server}/{p.other_tool}")): p.shadow
        for p in pairs
    }
    expected = {frozenset(e["pair"]): e["shadow"] for e in scenario["expected"]}
    hits = [k for k in expected if k in found]
    named = [k for k in hits if found[k] == expected[k]]
    forbidden = {frozenset(p) for p in scenario["not_pairs"]}
    wrong = [k for k in found if k in forbidden]
    print(
        f"\nshadowing: {len(hits)}/{len(expected)} expected pairs found, shadow named "
        f"correctly in {len(named)}/{len(expected)}; {len(wrong)}/{len(forbidden)} unrelated "
        f"pairs reported; {len([k for k in found if k not in expected and k not in forbidden])} "
        "other pairs (between two look-alikes)"
    )
    per: dict[str, Counter[str]] = defaultdict(Counter)
    for case in scenario["expected"]:
        key = frozenset(case["pair"])
        per[case["technique"]]["n"] += 1
        per[case["technique"]]["named"] += key in found and found[key] == case["shadow"]
    print(
        "  found with the shadow named, per technique: "
        + ", ".join(f"{t} {c['named']}/{c['n']}" for t, c in sorted(per.items()))
    )
    for pair in pairs:
        print(f"  {pair.line()}")


if __name__ == "__main__":
    main()
