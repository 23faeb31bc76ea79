"""How the default policy judges shell commands: dangerous ones stopped, benign ones let through.

Each command of the corpus in ``benchmarks/data/commands/*.jsonl`` (one file per class; each
line has the command, ``kind`` dangerous/benign, the ``expected`` decision, a one-line
``reason`` and its fixed ``split``, tune or heldout) is judged as the ``shell`` tool's call is
judged in the CLI's default policy: a :class:`~workset.safety.classifier.RuleClassifier` over
``PermissionPolicy(workspace=…)``, the shell tool at high risk. Printed for the held-out half
and the tuning half side by side:

- per class: dangerous allowed without approval, dangerous only asked where ``deny`` was
  expected, benign asked, benign denied;
- totals: dangerous allowed without approval, benign denied %, benign asked % (every benign
  line not allowed, those labelled ``ask`` included, and on a second line those labelled
  ``allow`` alone), and the number of commands with a parse failure;
- parse coverage on the whole corpus: how many commands tree-sitter parses without an error
  node, and (when ``bashlex`` is installed) how many bashlex parses at all.

A file named ``blind_*.jsonl`` is a cohort written blind (without reading the analyzer; each
line also names its ``class``), split in halves by seed before its first score and reported in
its own tables. Each file is judged with the workspace its authors wrote it for
(``workspaces.json`` beside the data: ``/home/dev/proj`` for most cohorts, ``/Users/dev/proj``
for the macOS one), so that an absolute path into their project counts as inside it; the
project's own files use ``/home/user/project``.

``--show heldout`` (or tune) lists every command whose decision was not the expected one; a
blind cohort's half is shown with ``--show "blind_cohort2 tune"``.
``--blanket`` judges with the old policy (``prove_commands=False``: every shell call that is
not denied asks), to show what it cost.

``--exclude STEM`` leaves a file out unread (a blind cohort that is still held back).
``--hide "STEM SPLIT"`` scores a half but prints nothing of it, and ``--totals-only "STEM
SPLIT"`` prints only its totals line (a blind half that must stay unseen while tuning, then
scored once at the end); both are repeatable.

Run: ``python benchmarks/command_policy.py [--show heldout] [--blanket] [--exclude STEM]``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import anyio

from workset.messages import ToolCall
from workset.safety.classifier import RuleClassifier
from workset.safety.commands import analyze_command
from workset.safety.policy import PermissionPolicy
from workset.tools.base import Tool

DATA = Path(__file__).parent / "data" / "commands"
WORKSPACE = "/home/user/project"
_RANK = {"allow": 0, "ask": 1, "deny": 2}


@dataclass(frozen=True, slots=True)
class Case:
    command: str
    kind: str
    expected: str
    reason: str
    split: str
    category: str
    corpus: str = ""  # the file's stem for a cohort written blind (``blind_cohort2``), else ""
    workspace: str = WORKSPACE  # the workspace the file's authors wrote it for


def load(folder: Path = DATA, exclude: frozenset[str] = frozenset()) -> list[Case]:
    cases: list[Case] = []
    stated = folder / "workspaces.json"
    workspaces = json.loads(stated.read_text())["files"] if stated.exists() else {}
    for path in sorted(p for p in folder.glob("*.jsonl") if p.stem not in exclude):
        workspace = workspaces.get(path.stem, WORKSPACE)
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                blind = path.stem.startswith("blind_")
                category = row.pop("class", path.stem)
                corpus = path.stem if blind else ""
                cases.append(Case(category=category, corpus=corpus, workspace=workspace, **row))
    return cases


def classifiers(cases: list[Case], *, blanket: bool = False) -> dict[str, RuleClassifier]:
    """One default-policy classifier per workspace the cases were written for."""
    return {
        w: RuleClassifier(PermissionPolicy(workspace=w, prove_commands=not blanket))
        for w in sorted({c.workspace for c in cases})
    }


def _shell(command: str, timeout_s: int = 60) -> str:
    """Run a bash command in the workspace."""
    return command


SHELL = Tool.from_function(_shell, name="shell", risk="high")


def judge(classifier: RuleClassifier, command: str) -> tuple[str, str]:
    call = ToolCall("c1", "shell", json.dumps({"command": command}))
    verdict = anyio.run(classifier.classify, call, SHELL)
    return verdict.decision, verdict.reason


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--show", help="list the misses of a half (tune, heldout) or of a blind cohort's file stem"
    )
    parser.add_argument("--blanket", action="store_true", help="ask for every shell call")
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="STEM",
        help="leave out a file of the corpus (a blind cohort not to be scored yet); repeatable",
    )
    parser.add_argument(
        "--hide",
        action="append",
        default=[],
        metavar="HALF",
        help='score a half ("blind_cohort4 heldout") but print nothing of it; repeatable',
    )
    parser.add_argument(
        "--totals-only",
        action="append",
        default=[],
        metavar="HALF",
        help="print only the totals line of a half; repeatable",
    )
    args = parser.parse_args()
    if args.show and args.show in args.hide + args.totals_only:
        parser.error(f"--show {args.show!r} would print a half that is hidden")
    cases = load(exclude=frozenset(args.exclude))
    judges = classifiers(cases, blanket=args.blanket)
    started = time.perf_counter()
    decided = [(case, *judge(judges[case.workspace], case.command)) for case in cases]
    elapsed = time.perf_counter() - started
    parse_failures = {
        c.command
        for c in cases
        if any(
            f.rule in ("unparsed", "no-parser")
            for f in analyze_command(c.command, workspace=c.workspace).findings
        )
    }
    print(
        f"policy: {'blanket ask (prove_commands=False)' if args.blanket else 'default'}; "
        f"workspaces {', '.join(judges)}; {len(cases)} commands in {elapsed * 1000:.0f} ms"
    )
    for split in ("heldout", "tune"):
        rows = [(c, d, r) for c, d, r in decided if c.split == split and not c.corpus]
        _table(split, rows, parse_failures)
    for corpus in sorted({c.corpus for c in cases if c.corpus}):
        for split in ("heldout", "tune"):
            name = f"{corpus} {split}"
            if name in args.hide:
                continue
            rows = [(c, d, r) for c, d, r in decided if c.corpus == corpus and c.split == split]
            _table(name, rows, parse_failures, totals_only=name in args.totals_only)
    _coverage(cases)
    if args.show:
        print(f"\nmisses on the {args.show} half:")
        for case, decision, reason in decided:
            if args.show not in (case.split, f"{case.corpus} {case.split}".strip()):
                continue
            wrong = (case.kind == "dangerous" and _RANK[decision] < _RANK[case.expected]) or (
                case.kind == "benign" and decision != "allow"
            )
            if wrong:
                print(
                    f"  [{case.category}] {case.kind} want {case.expected}, got {decision}: "
                    f"{case.command!r}\n      because: {reason[:140]}"
                )


def _table(
    split: str,
    rows: list[tuple[Case, str, str]],
    parse_failures: set[str],
    *,
    totals_only: bool = False,
) -> None:
    print(f"\n== {split} half ==")
    header = (
        f"{'class':<13}{'dangerous':>10}{'allowed':>9}{'deny→ask':>9}"
        f"{'benign':>8}{'asked':>7}{'denied':>8}"
    )
    if not totals_only:
        print(header)
    per: dict[str, Counter[str]] = defaultdict(Counter)
    for case, decision, _ in rows:
        counts = per[case.category]
        counts[case.kind] += 1
        if case.kind == "dangerous":
            counts["allowed"] += decision == "allow"
            counts["deny-asked"] += case.expected == "deny" and decision == "ask"
        else:
            counts["asked"] += decision == "ask"
            counts["denied"] += decision == "deny"
            counts["allow-labelled"] += case.expected == "allow"
            counts["allow-asked"] += case.expected == "allow" and decision == "ask"
    total: Counter[str] = Counter()
    for category in sorted(per):
        counts = per[category]
        total.update(counts)
        if totals_only:
            continue
        print(
            f"{category:<13}{counts['dangerous']:>10}{counts['allowed']:>9}"
            f"{counts['deny-asked']:>9}{counts['benign']:>8}{counts['asked']:>7}"
            f"{counts['denied']:>8}"
        )
    print(
        f"{'total':<13}{total['dangerous']:>10}{total['allowed']:>9}{total['deny-asked']:>9}"
        f"{total['benign']:>8}{total['asked']:>7}{total['denied']:>8}"
    )
    benign = total["benign"] or 1
    failures = sum(case.command in parse_failures for case, _, _ in rows)
    print(
        f"dangerous allowed without approval: {total['allowed']}/{total['dangerous']}; "
        f"benign denied: {total['denied']}/{total['benign']} ({total['denied'] / benign:.1%}); "
        f"benign asked: {total['asked']}/{total['benign']} ({total['asked'] / benign:.1%}); "
        f"parse failures: {failures}"
    )
    labelled = total["allow-labelled"] or 1
    print(
        f"(of the benign labelled allow: {total['allow-asked']}/{total['allow-labelled']} "
        f"asked ({total['allow-asked'] / labelled:.1%}); the rest are labelled ask)"
    )


def _coverage(cases: list[Case]) -> None:
    tree_ok = sum(
        not any(f.rule in ("unparsed", "no-parser") for f in analyze_command(c.command).findings)
        for c in cases
    )
    line = f"\nparse coverage (whole corpus): tree-sitter {tree_ok}/{len(cases)}"
    try:
        bashlex = importlib.import_module("bashlex")
    except ImportError:
        print(line + "; bashlex not installed")
        return
    ok = 0
    for case in cases:
        try:
            bashlex.parse(case.command)
            ok += 1
        except Exception:  # bashlex fails in assorted ways (ParsingError, TypeError, …)
            pass
    print(line + f"; bashlex {ok}/{len(cases)}")


if __name__ == "__main__":
    main()
