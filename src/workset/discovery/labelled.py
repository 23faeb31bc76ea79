"""What a servability probe is fitted on outside a benchmark: the tools a run indexed for
``tool_search``, and needs a user labelled with the tools that serve them.

Each run that opens discovery (:class:`~workset.discovery.local.LocalDiscovery`) writes the
definitions it indexed to ``tools.json`` in its folder (:func:`save_indexed`), so
``workset discovery fit-probe`` can rebuild the same index without starting a model or an
MCP server (:func:`read_indexed`; the vectors come from the folder's cache). A probe records
a key of the catalog it was fitted on (:func:`catalog_key`), and a run whose tools differ is
told to refit it.

A labelled needs file is JSON Lines, one need per line::

    {"need": "will it rain in Oslo tomorrow?", "tools": ["weather__forecast"]}
    {"need": "what is my thermostat set to?", "tools": []}

``tools`` names the tools (as the agent sees them) that serve the need; an empty list says
no tool of the catalog serves it. The benchmark sets' form (``"expected": [{"server": ...,
"tool": ...}]``) is read too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from workset.discovery.needs import json_lines
from workset.errors import UsageError
from workset.messages import ToolSpec

TOOLS = "tools.json"  # beside the discovery folder's vectors


def catalog_key(servers: Mapping[str, Sequence[ToolSpec]]) -> str:
    """A short key of the indexed definitions: equal when the same tools say the same."""
    rows = sorted(
        (server, spec.name, spec.description, json.dumps(spec.parameters, sort_keys=True))
        for server, specs in servers.items()
        for spec in specs
    )
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:16]


def save_indexed(folder: Path, servers: Mapping[str, Sequence[ToolSpec]]) -> None:
    """Write the definitions a discovery index was built from to ``folder``/tools.json
    (atomically: a reader never sees half a file)."""
    data = {
        server: [
            {"name": s.name, "description": s.description, "parameters": dict(s.parameters)}
            for s in specs
        ]
        for server, specs in servers.items()
    }
    partial = folder / (TOOLS + ".tmp")
    partial.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    partial.replace(folder / TOOLS)


def read_indexed(folder: Path) -> dict[str, list[ToolSpec]]:
    """The definitions the last run's discovery indexed in ``folder`` (see the module)."""
    path = folder / TOOLS
    if not path.is_file():
        raise UsageError(
            f"no indexed tools at {path}: run `workset run` (or chat/serve) once with "
            "[agent] core_tools set in the config, so that discovery indexes the tools left "
            "out of the prompt; then fit the probe with the same --db"
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {
            server: [ToolSpec(t["name"], t["description"], t["parameters"]) for t in specs]
            for server, specs in data.items()
        }
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise UsageError(
            f"{path} is not a tool list workset wrote ({exc}); delete it and run once more"
        ) from exc


def read_labelled(path: Path, known: Sequence[str]) -> list[tuple[str, bool]]:
    """(need, whether a tool serves it) from a labelled needs file (see the module); a tool
    name not in ``known`` (the indexed tools) is an error that names the line."""
    if not path.is_file():
        raise UsageError(f"no labelled needs file at {path}")
    names = set(known)
    needs: list[tuple[str, bool]] = []
    for where, row in json_lines(path):
        need, tools = _need_and_tools(row, where, names)
        unknown = [t for t in tools if t not in names]
        if unknown:
            raise UsageError(
                f"{where}: {', '.join(map(repr, unknown))} is not among the {len(names)} "
                "indexed tools; name tools as the agent sees them (`workset discovery "
                "search` prints them), or check that the last run indexed that server"
            )
        needs.append((need, bool(tools)))
    return needs


def _need_and_tools(row: Any, where: str, names: set[str]) -> tuple[str, list[str]]:
    if not isinstance(row, dict) or not isinstance(row.get("need"), str) or not row["need"]:
        raise UsageError(f'{where}: each line needs a non-empty "need" string')
    if "tools" in row:
        tools = row["tools"]
        if not isinstance(tools, list) or not all(isinstance(t, str) for t in tools):
            raise UsageError(f'{where}: "tools" must be a list of tool names ([] if none serves)')
        return row["need"], tools
    expected = row.get("expected")
    if not isinstance(expected, list) or not all(
        isinstance(e, dict) and isinstance(e.get("tool"), str) for e in expected
    ):
        raise UsageError(
            f'{where}: say which tools serve the need: "tools": ["server__tool", ...], '
            "or [] when no tool of the catalog serves it"
        )
    return row["need"], [_agent_name(e, names) for e in expected]


def _agent_name(expected: Mapping[str, str], names: set[str]) -> str:
    """A benchmark row's tool as the agent sees it: ``server__tool`` for an MCP tool, the
    name alone for workset's own tools."""
    server, tool = expected.get("server", ""), expected["tool"]
    return tool if not server or tool in names else f"{server}__{tool}"
