from __future__ import annotations

from workset.safety.commands import analyze_command
from workset.safety.corpus import BENIGN, DANGEROUS, measure


def test_the_corpus_is_large_enough_to_mean_something() -> None:
    assert len(DANGEROUS) >= 60
    assert len(BENIGN) >= 60
    assert len({c.command for c in DANGEROUS + BENIGN}) == len(DANGEROUS) + len(BENIGN)


def test_every_dangerous_variant_is_caught_and_few_benign_look_alikes_are_denied() -> None:
    report = measure()
    print(report.summary())
    assert report.missed == (), [(c.command, d) for c, d in report.missed]
    assert report.detection_rate == 1.0
    assert report.false_deny_rate <= 0.05, [c.command for c, _ in report.wrongly_denied]


def test_benign_look_alikes_get_the_documented_decision() -> None:
    wrong = [
        (case.command, case.expected, analyze_command(case.command).decision)
        for case in BENIGN
        if analyze_command(case.command).decision != case.expected
    ]
    assert wrong == []


def test_the_shlex_fallback_alone_still_catches_every_dangerous_variant() -> None:
    report = measure(lambda command: analyze_command(command, parser="shlex"))
    print(f"shlex fallback: {report.summary()}")
    assert report.missed == (), [(c.command, d) for c, d in report.missed]
    assert report.false_deny_rate <= 0.05, [c.command for c, _ in report.wrongly_denied]
