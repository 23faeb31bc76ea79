"""The tools a :class:`~workset.discovery.index.ToolIndex` holds, one :class:`Entry` each.

An entry is a tool's server, its definition and the example requests written for it offline
(:mod:`workset.discovery.expansions`, looked up by
:func:`~workset.discovery.expansions.definition_key`). Pure functions of the catalog: the
entries of a server and the text BM25 reads for a tool.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from workset.discovery.documents import tool_document
from workset.discovery.expansions import definition_key
from workset.messages import ToolSpec


@dataclass(frozen=True, slots=True)
class Entry:
    """One indexed tool: its server, its definition and its example requests."""

    server: str
    spec: ToolSpec
    examples: tuple[str, ...]


def server_entries(
    server: str, specs: Sequence[ToolSpec], examples: Mapping[str, Sequence[str]]
) -> list[Entry]:
    """The entries of ``server``'s tools; ``examples`` maps definition keys to requests."""
    return [
        Entry(server, spec, tuple(examples.get(definition_key(server, spec), ()))) for spec in specs
    ]


def specs_by_server(entries: Sequence[Entry], servers: Sequence[str]) -> dict[str, list[ToolSpec]]:
    """Each of ``servers`` (in that order) with the definitions of its tools."""
    specs: dict[str, list[ToolSpec]] = {s: [] for s in servers}
    for e in entries:
        specs[e.server].append(e.spec)
    return specs


def lexical_text(entry: Entry) -> str:
    """What BM25 reads for a tool: its full document and all its example requests."""
    return "\n".join([tool_document(entry.server, entry.spec), *entry.examples])
