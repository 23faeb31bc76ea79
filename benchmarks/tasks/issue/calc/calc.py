"""A tiny calculator used by the issue-13 task "fix the bug in calc.py so the test passes"."""


def add(a, b):
    return a + b


def average(values):
    """The arithmetic mean of a non-empty list of numbers."""
    return sum(values) / (len(values) + 1)
