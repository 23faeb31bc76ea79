"""The task sets of ``benchmarks/agent_tasks.py`` load and are judged by kind, no model."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).parents[2] / "benchmarks"


def _module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


agent_tasks = _module("agent_tasks")
check_task_sets = _module("check_task_sets")


def test_the_blind_sets_load_under_their_own_names_and_are_judged_by_kind() -> None:
    questions = agent_tasks.load("blind-questions", "report")
    edits = agent_tasks.load("blind-edits", "report")
    assert len(questions) >= 24 and len(edits) >= 8
    assert {agent_tasks.kind_of(s, t) for s, t in questions} == {"question"}
    assert {agent_tasks.kind_of(s, t) for s, t in edits} == {"edit"}


def test_set_all_leaves_the_blind_sets_out() -> None:
    names = {name for name, _ in agent_tasks.load("all", "all")}
    assert names == {"questions", "edits", "issue"}


def test_issue_tasks_keep_their_own_kind() -> None:
    kinds = {agent_tasks.kind_of(s, t) for s, t in agent_tasks.load("issue", "all")}
    assert "edit" in kinds and "question" in kinds


def test_every_blind_question_is_answered_by_its_file_and_not_by_its_own_text() -> None:
    tasks = [task for _, task in agent_tasks.load("blind-questions", "all")]
    assert check_task_sets.question_problems(tasks) == []


def test_the_fresh_set_loads_apart_and_each_question_is_answered_by_its_file() -> None:
    tasks = agent_tasks.load("fresh-questions", "all")
    assert len(tasks) == 30 and {s for s, _ in tasks} == {"fresh-questions"}
    assert {t["split"] for _, t in tasks} == {"tune", "report"}
    assert check_task_sets.question_problems([t for _, t in tasks]) == []


def test_every_blind_set_prints_totals_only() -> None:
    blind = {name for name in agent_tasks.SETS if name.startswith("blind-")}
    assert blind and blind <= agent_tasks.HELD_OUT


def test_a_task_runs_in_its_own_workspace_folder_and_in_repo_by_default() -> None:
    assert check_task_sets.workspace({"id": "t"}) == check_task_sets.TASKS / "repo"
    assert check_task_sets.workspace({"workspace": "repo2"}) == check_task_sets.TASKS / "repo2"


def test_the_repo2_sets_are_held_out_and_name_their_workspace() -> None:
    assert {"repo2-edits", "repo2-questions"} <= agent_tasks.HELD_OUT
    for name, kind in (("repo2-edits", "edit"), ("repo2-questions", "question")):
        tasks = agent_tasks.load(name, "all")
        assert {agent_tasks.kind_of(s, t) for s, t in tasks} == {kind}
        assert {t["workspace"] for _, t in tasks} == {"repo2"}
        assert {t["split"] for _, t in tasks} == {"tune", "report"}


def test_each_repo2_question_is_answered_by_its_file_in_repo2() -> None:
    tasks = [task for _, task in agent_tasks.load("repo2-questions", "all")]
    assert len(tasks) == 30
    assert check_task_sets.question_problems(tasks) == []
    # the same questions against the TinyDB copy name files it does not have
    elsewhere = [{**task, "workspace": "repo"} for task in tasks]
    assert check_task_sets.question_problems(elsewhere)
