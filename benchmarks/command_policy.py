"""How well command analysis separates dangerous commands from benign look-alikes.

Runs :func:`workset.safety.commands.analyze_command` over the corpus in
:mod:`workset.safety.corpus` (obfuscated dangerous variants, benign commands that look like
them) and prints the detection rate on the dangerous ones, the false-deny rate on the benign
ones, every miss, and how often each rule fired. ``--fallback`` uses the ``shlex`` splitter
(what runs when bashlex cannot parse a command, or the ``[safety]`` extra is missing).

Run: ``python benchmarks/command_policy.py [--fallback]``.
"""

from __future__ import annotations

import argparse
import time
from typing import Literal

from workset.safety.commands import analyze_command
from workset.safety.corpus import BENIGN, DANGEROUS, measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fallback", action="store_true", help="parse with shlex only")
    args = parser.parse_args()
    parser_name: Literal["auto", "shlex"] = "shlex" if args.fallback else "auto"
    started = time.perf_counter()
    report = measure(lambda command: analyze_command(command, parser=parser_name))
    elapsed = time.perf_counter() - started
    total = len(DANGEROUS) + len(BENIGN)
    print(f"parser: {'shlex fallback' if args.fallback else 'bashlex'}")
    print(report.summary())
    print(
        f"{total} commands analysed in {elapsed * 1000:.0f} ms "
        f"({elapsed / total * 1e6:.0f} µs per command)"
    )
    for case, decision in report.missed:
        print(f"  MISSED ({decision}, wanted {case.expected}): {case.command}")
    for case, analysis in report.wrongly_denied:
        print(f"  FALSELY DENIED ({', '.join(f.rule for f in analysis.denied())}): {case.command}")
    print("\nfindings per rule (dangerous + benign):")
    for rule, count in report.per_rule.most_common():
        print(f"  {rule:28} {count:4d}")


if __name__ == "__main__":
    main()
