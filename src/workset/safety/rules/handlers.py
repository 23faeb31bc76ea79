"""Which rules judge which program: every family's handlers, merged by program name.

Each family module (:mod:`~workset.safety.rules.delete`, :mod:`~workset.safety.rules.git`…)
maps program names to handlers that yield findings; a program may have handlers in several
families, and :func:`~workset.safety.rules.dispatch.check` runs them all in this order.
"""

from __future__ import annotations

from workset.safety.rules import (
    app_harms,
    applescript,
    attack_tools,
    clipboard,
    cloud_exposure,
    credentials,
    data_harms,
    db_targets,
    debuggers,
    delete,
    dependency_pins,
    domains,
    dumps,
    editors,
    finders,
    forge_api,
    git,
    guardrails,
    hardening,
    host_escape,
    host_state,
    hosted_harms,
    image_context,
    infra,
    installs,
    interpreters,
    known,
    known_lists,
    macos_changes,
    miller,
    mobile_tools,
    mounts,
    network,
    notebooks,
    option_commands,
    persistence,
    process_memory,
    project_deps,
    project_inputs,
    records,
    registries,
    scaffolds,
    secret_search,
    sql_files,
    system,
    windows,
    writes,
)
from workset.safety.rules.base import Handler
from workset.safety.rules.delete import DELETERS
from workset.safety.rules.network import NETWORK


def _merged(*tables: dict[str, Handler]) -> dict[str, tuple[Handler, ...]]:
    merged: dict[str, tuple[Handler, ...]] = {}
    for table in tables:
        for name, handler in table.items():
            merged[name] = (*merged.get(name, ()), handler)
    return merged


HANDLERS = _merged(
    delete.HANDLERS,
    option_commands.HANDLERS,
    finders.HANDLERS,
    {"sqlite3": known.sqlite_destroy},
    writes.HANDLERS,
    installs.HANDLERS,
    installs.INSTALLS,
    process_memory.HANDLERS,
    system.HANDLERS,
    git.HANDLERS,
    interpreters.HANDLERS,
    network.HANDLERS,
    infra.HANDLERS,
    persistence.HANDLERS,
    records.HANDLERS,
    hardening.HANDLERS,
    registries.HANDLERS,
    credentials.HANDLERS,
    dumps.HANDLERS,
    dumps.EXTRA,
    editors.HANDLERS,
    applescript.HANDLERS,
    mounts.HANDLERS,
    windows.HANDLERS,
    cloud_exposure.HANDLERS,
    cloud_exposure.REMOTE,
    forge_api.HANDLERS,
    db_targets.HANDLERS,
    guardrails.HANDLERS,
    secret_search.HANDLERS,
    scaffolds.HANDLERS,
    sql_files.HANDLERS,
    image_context.HANDLERS,
    clipboard.HANDLERS,
    miller.HANDLERS,
    debuggers.HANDLERS,
    project_inputs.HANDLERS,
    project_deps.HANDLERS,
    host_state.HANDLERS,
    host_escape.HANDLERS,
    data_harms.HANDLERS,
    notebooks.HANDLERS,
    macos_changes.HANDLERS,
    attack_tools.HANDLERS,
    dependency_pins.HANDLERS,
    app_harms.HANDLERS,
    mobile_tools.HANDLERS,
    hosted_harms.HANDLERS,
    hosted_harms.SETTINGS,
    *domains.TABLES,
)
# Every program some rule knows, to match a command name written as a glob against.
KNOWN_NAMES = frozenset(HANDLERS) | DELETERS | NETWORK | known_lists.KNOWN_PROGRAMS
