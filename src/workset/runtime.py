"""Compose an agent's context pipeline from a configuration: the one place parts meet.

:func:`context_setup` turns a :class:`~workset.config.WorksetConfig` into what the
:class:`~workset.session.agent.Agent` takes: extra tools (skills, memory, TODO), the system prompt
with the skills catalog appended (stable across calls), the item sources (memory, evidence),
the status bar, the history policy and the scope. The CLI builds its agent through it; a
library user may call it too, or wire the parts by hand.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from workset.config import WorksetConfig
from workset.context.items import Scope
from workset.context.sources import ItemSource
from workset.errors import UsageError
from workset.history.base import HistoryPolicy
from workset.status.bar import StatusBar
from workset.tools.base import Tool


@dataclass
class ContextSetup:
    """The configured parts, ready for ``Agent(...)``; ``close()`` releases open stores."""

    system_prompt: str
    tools: list[Tool] = field(default_factory=list)
    sources: list[ItemSource] = field(default_factory=list)
    scope: Scope = field(default_factory=Scope)
    status: StatusBar | None = None
    history_policy: Callable[[], HistoryPolicy] | None = None
    diagnostics: list[str] = field(default_factory=list)
    _closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        for close in reversed(self._closers):
            close()


def context_setup(
    config: WorksetConfig,
    *,
    workspace: Path,
    loaded_tools: Callable[[], Sequence[str]] | None = None,
    evidence_index: Path | None = None,
) -> ContextSetup:
    """Build the parts ``config`` asks for; each optional part is off unless configured.

    ``loaded_tools`` lists the tools discovery has loaded so far (for the status bar).
    ``evidence_index`` is the folder for the workspace's evidence index: given (and
    ``[evidence] workspace`` on, the default), the chunks of the workspace most relevant to
    each task go into its requests (:mod:`workset.evidence.workspace`).
    """
    setup = ContextSetup(
        system_prompt=config.agent.system_prompt,
        scope=Scope(config.memory.tenant, config.memory.subject),
    )
    with contextlib.ExitStack() as failing:
        failing.callback(setup.close)
        loaded_skills = _skills(config, setup)
        _memory(config, setup)
        _evidence(config, setup)
        if evidence_index is not None and config.evidence.workspace:
            _workspace_evidence(workspace, evidence_index, setup)
        if config.status.enabled:
            setup.status = _status(config, workspace, setup, loaded_skills, loaded_tools)
        if config.history.policy != "full" or config.history.params:
            setup.history_policy = _policy(config)
        failing.pop_all()
    return setup


def _skills(config: WorksetConfig, setup: ContextSetup) -> Callable[[], Sequence[str]] | None:
    if not config.skills.dirs:
        return None
    from workset.skills import LoadedSkills, catalog_text, discover_skills, skill_tools

    skills, diagnostics = discover_skills(*config.skills.dirs)
    setup.diagnostics += [f"skill {d.path}: {d.severity}: {d.message}" for d in diagnostics]
    if not skills:
        return None
    loaded = LoadedSkills()
    setup.system_prompt = f"{setup.system_prompt}\n\n{catalog_text(skills)}"
    setup.tools += skill_tools(skills, loaded=loaded)
    return loaded.names


def _memory(config: WorksetConfig, setup: ContextSetup) -> None:
    if config.memory.db is None:
        return
    from workset.memory import ANY_PURPOSE, memory_tools
    from workset.memory.context import MemoryContext
    from workset.stores import open_memory

    store = open_memory(config.memory.db)
    setup._closers.append(store.close)
    setup.sources.append(MemoryContext(store, config.memory.purpose or ANY_PURPOSE))
    if setup.scope.tenant and setup.scope.subject:
        setup.tools += memory_tools(store, setup.scope)
    else:
        setup.diagnostics.append(
            "memory: no [memory] tenant and subject, so standing rules are not pinned and the "
            "remember/forget tools are off; set both to give memory an owner"
        )


def _evidence(config: WorksetConfig, setup: ContextSetup) -> None:
    if not config.evidence.paths:
        return
    from workset.evidence import EvidenceIndex, chunk_document, load_documents
    from workset.evidence.context import EvidenceContext
    from workset.retrieval.embedder import Embedder

    chunks = []
    for path in config.evidence.paths:
        loaded = load_documents(path, scope=setup.scope)
        setup.diagnostics += [f"evidence: skipped {s.path}: {s.reason}" for s in loaded.skipped]
        for document in loaded.documents:
            chunks += chunk_document(document)
    if not chunks:
        setup.diagnostics.append("evidence: the configured paths hold no readable text")
        return
    setup.sources.append(EvidenceContext(EvidenceIndex.build(chunks, Embedder.load())))


def _workspace_evidence(workspace: Path, index_dir: Path, setup: ContextSetup) -> None:
    try:
        from workset.evidence.workspace import open_workspace_evidence
    except (ImportError, UsageError) as exc:
        setup.diagnostics.append(
            f"evidence: the workspace is not indexed ({exc}); install workset[retrieval] or set "
            "[evidence] workspace = false"
        )
        return
    source, notes = open_workspace_evidence(workspace, index_dir)
    setup.diagnostics += notes
    setup.sources.append(source)
    setup._closers.append(source.close)


def _status(
    config: WorksetConfig,
    workspace: Path,
    setup: ContextSetup,
    skills: Callable[[], Sequence[str]] | None,
    tools: Callable[[], Sequence[str]] | None,
) -> StatusBar:
    from workset.status.todo import TodoList

    todo = TodoList() if config.status.todo_tools else None
    if todo is not None:
        setup.tools += todo.tools()
    return StatusBar(
        todo=todo,
        strategy=config.status.strategy,
        cwd=str(workspace),
        skills=skills or (lambda: ()),
        tool_names=tools or (lambda: ()),
    )


def _policy(config: WorksetConfig) -> Callable[[], HistoryPolicy]:
    from workset.history.policies import make_policy

    name, params = config.history.policy, dict(config.history.params)
    make_policy(name, **params)  # fail now, with the config's names, not at the first call
    return lambda: make_policy(name, **params)
