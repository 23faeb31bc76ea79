"""A tool index on disk: a folder with its catalog and its vectors.

``catalog.json`` holds the servers and their tools (definition and example requests), the
server descriptions, the :class:`~workset.discovery.results.SearchConfig` and the embedder's
name; ``vectors.npz`` is the index's :class:`~workset.discovery.store.VectorStore` (texts and
the adapter's matrix). The catalog is written to a temporary file and renamed last, so a
folder never names vectors it does not hold. :class:`~workset.discovery.index.ToolIndex`
saves and loads itself through these.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from workset.discovery.adapter import AdapterSettings
from workset.discovery.entries import Entry
from workset.discovery.results import SearchConfig
from workset.discovery.store import VectorStore
from workset.errors import UsageError
from workset.messages import ToolSpec
from workset.retrieval.embedder import TextEmbedder

CATALOG_FILE = "catalog.json"
VECTORS_FILE = "vectors.npz"


@dataclass(frozen=True, slots=True)
class Saved:
    """What :func:`load_index` reads back: enough to construct the index again."""

    entries: list[Entry]
    descriptions: dict[str, str]
    store: VectorStore | None  # None when loaded without an embedder
    config: SearchConfig


def save_index(
    folder: Path,
    entries: Sequence[Entry],
    descriptions: Mapping[str, str],
    config: SearchConfig,
    model: str | None,
    store: VectorStore | None,
    keys: Sequence[str],
) -> None:
    """Write ``entries`` (in server order) and the rest to ``folder``; see :func:`load_index`.

    ``model`` is the embedder's name (None without one); ``store`` keeps only ``keys``.
    """
    folder.mkdir(parents=True, exist_ok=True)
    servers = dict.fromkeys(e.server for e in entries)
    catalog = {
        "servers": {
            name: [
                {
                    "name": e.spec.name,
                    "description": e.spec.description,
                    "parameters": e.spec.parameters,
                    "examples": list(e.examples),
                }
                for e in entries
                if e.server == name
            ]
            for name in servers
        },
        "descriptions": descriptions,
        "config": asdict(config),
        "model": model,
    }
    partial = folder / (CATALOG_FILE + ".tmp")
    partial.write_text(json.dumps(catalog, ensure_ascii=False, default=str), encoding="utf-8")
    if store is not None:
        store.save(folder / VECTORS_FILE, keep=keys)
    partial.replace(folder / CATALOG_FILE)


def load_index(folder: Path, embedder: TextEmbedder | None) -> Saved:
    """The index saved in ``folder``; the embedder must be the model it was built with."""
    path = folder / CATALOG_FILE
    try:
        catalog = json.loads(path.read_text(encoding="utf-8"))
        entries = [
            Entry(
                server,
                ToolSpec(t["name"], t["description"], t["parameters"]),
                tuple(t["examples"]),
            )
            for server, tools in catalog["servers"].items()
            for t in tools
        ]
        settings = catalog["config"].pop("adapter_settings", None)
        if "meaning_fields" in catalog["config"]:  # a JSON list
            catalog["config"]["meaning_fields"] = tuple(catalog["config"]["meaning_fields"])
        config = SearchConfig(**catalog["config"])
        if settings is not None:
            config = replace(config, adapter_settings=AdapterSettings(**settings))
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise UsageError(
            f"{folder} holds no saved tool index ({exc}); build one and call save()"
        ) from exc
    if embedder is not None and catalog.get("model") not in (None, embedder.name):
        raise UsageError(f"{folder} was built with {catalog['model']}; load it with that embedder")
    store = VectorStore.open(folder / VECTORS_FILE, embedder.name) if embedder is not None else None
    return Saved(entries, catalog["descriptions"], store, config)
