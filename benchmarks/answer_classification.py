"""How often the probe classifier agrees with hand-labelled answers.

``benchmarks/data/answers/labelled.yaml`` holds 13 probes (plain values, regexes, both,
composite values and distractors, revised facts, look-alike ids, dates, amounts, units) and
answers a careful reader labelled correct / other_record / refusal / other. This prints the
agreement, the confusion matrix and every disagreement.

    python benchmarks/answer_classification.py

``--legacy-api`` calls the classifier the way it was called before issue 12 (a regex probe
ignored its plain value, composite distractors did not exist), to measure the old classifier
from an older checkout::

    git archive 48f70c0 src | tar -x -C /tmp/ws-old
    PYTHONPATH=/tmp/ws-old/src python3 benchmarks/answer_classification.py --legacy-api
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from workset.eval.score import OUTCOMES, classify

DATA = Path(__file__).resolve().parent / "data" / "answers" / "labelled.yaml"


def _value(value: Any) -> Any:
    return tuple(str(v) for v in value) if isinstance(value, list) else str(value)


def judge(probe: dict[str, Any], answer: str, *, legacy: bool) -> str:
    expected = _value(probe.get("expected", ""))
    regex = probe.get("expected_regex")
    others = [_value(d) for d in probe.get("distractors", [])]
    if not legacy:
        return classify(answer, expected, regex=regex, others=others)
    # before issue 12: one expectation (the regex when there was one), plain strings only
    plain = [o for o in others if isinstance(o, str)]
    if regex is not None or isinstance(expected, tuple):
        pattern = regex or ".*".join(expected)
        return classify(answer, pattern, regex=True, others=plain)  # type: ignore[arg-type]
    return classify(answer, expected, regex=False, others=plain)  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--legacy-api", action="store_true", help="call it as before issue 12")
    args = parser.parse_args()
    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    confusion: Counter[tuple[str, str]] = Counter()
    wrong = []
    for item in data["answers"]:
        got = judge(data["probes"][item["probe"]], item["answer"], legacy=args.legacy_api)
        confusion[(item["label"], got)] += 1
        if got != item["label"]:
            wrong.append((item["probe"], item["label"], got, item["answer"]))
    total = sum(confusion.values())
    agree = total - len(wrong)
    print(f"agreement: {agree}/{total} = {agree / total:.1%}")
    print("label \\ classified  " + "  ".join(f"{o[:12]:>12}" for o in OUTCOMES))
    for label in OUTCOMES:
        cells = "  ".join(f"{confusion[(label, o)]:>12}" for o in OUTCOMES)
        print(f"{label:<19} {cells}")
    for probe, label, got, answer in wrong:
        print(f"  {probe}: labelled {label}, classified {got}: {answer[:90]!r}")


if __name__ == "__main__":
    main()
