"""A small catalog of MCP-like servers for the discovery tests."""

from __future__ import annotations

from typing import Any

from workset.messages import ToolSpec


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
