"""A small catalog of MCP-like servers for the discovery tests, and a deterministic embedder."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from workset.messages import ToolSpec
from workset.retrieval.embedder import Vectors


def _spec(tool: str, description: str, **params: str) -> ToolSpec:
    properties: dict[str, Any] = {
        key: {"type": "string", "description": text} for key, text in params.items()
    }
    schema = {"type": "object", "properties": properties, "required": list(params)}
    return ToolSpec(tool, description, schema)


SERVERS: dict[str, list[ToolSpec]] = {
    "weather": [
        _spec("get_forecast", "Weather forecast for the next days in a city.", city="City name"),
        _spec(
            "get_alerts", "Active severe weather alerts for a US state.", state="Two-letter code"
        ),
    ],
    "filesystem": [
        _spec("read_file", "Read the complete contents of a file.", path="File path"),
        _spec("write_file", "Create or overwrite a file with new content.", path="File path"),
        _spec("list_directory", "List the files and folders in a directory.", path="Folder"),
    ],
    "yahoo-finance": [
        _spec("get_stock_price", "Current price of a stock by ticker symbol.", ticker="e.g. AAPL"),
        _spec("get_price_history", "Historical daily prices of a stock.", ticker="e.g. AAPL"),
    ],
    "word-document": [
        _spec("create_document", "Create a new Word document.", filename="Path of the .docx"),
        _spec("convert_to_pdf", "Convert a Word document to PDF.", filename="Path of the .docx"),
    ],
    "git": [
        _spec("git_log", "Show the commit history of a repository.", repo_path="Repository"),
        _spec("git_create_branch", "Create a branch.", repo_path="Repository", branch="Name"),
    ],
    "osm": [
        _spec(
            "geocode_address",
            "Turn a street address into latitude and longitude.",
            address="Address",
        ),
        _spec(
            "find_nearby_places", "Restaurants, shops and parks near a location.", location="Place"
        ),
    ],
}


class LetterEmbedder:
    """A deterministic embedder double: letter counts, normalised; records what it embedded."""

    def __init__(self, name: str = "letters") -> None:
        self._name = name
        self.calls: list[list[str]] = []

    @property
    def name(self) -> str:
        return self._name

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.calls.append(list(texts))
        rows = np.zeros((len(texts), 26), dtype=np.float32)
        for i, text in enumerate(texts):
            for ch in text.lower():
                if "a" <= ch <= "z":
                    rows[i, ord(ch) - 97] += 1
        return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)
