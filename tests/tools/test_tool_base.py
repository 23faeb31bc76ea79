from typing import Literal

import pytest

from workset.errors import UsageError
from workset.tools.base import Tool, parse_docstring, tool


def test_schema_is_built_from_type_hints_in_signature_order() -> None:
    def search(
        query: str,
        limit: int = 10,
        ratio: float = 0.5,
        exact: bool = False,
        tags: list[str] | None = None,
        mode: Literal["fast", "deep"] = "fast",
    ) -> str:
        """Search things."""
        return ""

    schema = Tool.from_function(search).spec.parameters
    assert list(schema) == ["type", "properties", "required", "additionalProperties"]
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["query"]
    assert list(schema["properties"]) == ["query", "limit", "ratio", "exact", "tags", "mode"]
    assert schema["properties"]["query"] == {"type": "string"}
    assert schema["properties"]["limit"] == {"type": "integer", "default": 10}
    assert schema["properties"]["ratio"] == {"type": "number", "default": 0.5}
    assert schema["properties"]["exact"] == {"type": "boolean", "default": False}
    assert schema["properties"]["tags"] == {
        "type": ["array", "null"],
        "items": {"type": "string"},
        "default": None,
    }
    assert schema["properties"]["mode"] == {
        "type": "string",
        "enum": ["fast", "deep"],
        "default": "fast",
    }


def test_optional_literal_allows_null_in_the_enum() -> None:
    def pick(color: Literal["red", "blue"] | None = None) -> str:
        """Pick."""
        return ""

    prop = Tool.from_function(pick).spec.parameters["properties"]["color"]
    assert prop["type"] == ["string", "null"]
    assert prop["enum"] == ["red", "blue", None]


def test_docstring_args_become_parameter_descriptions_and_leave_the_description() -> None:
    def weather(city: str, unit: str = "C") -> str:
        """Current weather for a city.

        Use when: the user asks about the weather. Do not use when: they ask for a forecast.

        Args:
            city: City name, e.g. "Lima";
                continued on a second line.
            unit (str): "C" or "F".

        Returns:
            One line of text.
        """
        return ""

    spec = Tool.from_function(weather).spec
    assert "Args:" not in spec.description
    assert "Use when: the user asks about the weather." in spec.description
    assert "Returns:" in spec.description
    props = spec.parameters["properties"]
    assert props["city"]["description"] == 'City name, e.g. "Lima"; continued on a second line.'
    assert props["unit"]["description"] == '"C" or "F".'


def test_parse_docstring_without_args_keeps_everything() -> None:
    assert parse_docstring("Just text.\n\nMore.") == ("Just text.\n\nMore.", {})


def test_decorator_works_bare_and_with_options() -> None:
    @tool
    def ping() -> str:
        """Answer pong."""
        return "pong"

    @tool(name="say", read_only=True, idempotent=True, risk="medium", examples=({"text": "hi"},))
    def speak(text: str) -> str:
        """Repeat text."""
        return text

    assert ping.name == "ping"
    assert ping.spec.parameters == {
        "type": "object",
        "properties": {},
        "additionalProperties": False,
    }
    assert (speak.name, speak.read_only, speak.idempotent, speak.risk) == (
        "say",
        True,
        True,
        "medium",
    )


def test_async_handlers_are_recognised() -> None:
    async def fetch(url: str) -> str:
        """Fetch."""
        return url

    def read(path: str) -> str:
        """Read."""
        return path

    assert Tool.from_function(fetch).is_async
    assert not Tool.from_function(read).is_async


def test_unsupported_parameter_type_is_a_usage_error_naming_the_parameter() -> None:
    def bad(when: complex) -> str:
        """Bad."""
        return ""

    with pytest.raises(UsageError, match=r"bad\.when: unsupported parameter type"):
        Tool.from_function(bad)


def test_missing_annotation_and_var_args_are_usage_errors() -> None:
    def untyped(x) -> str:  # type: ignore[no-untyped-def]
        """Untyped."""
        return ""

    def star(*names: str) -> str:
        """Star."""
        return ""

    with pytest.raises(UsageError, match="needs a type annotation"):
        Tool.from_function(untyped)
    with pytest.raises(UsageError, match="plain keyword parameter"):
        Tool.from_function(star)


def test_a_tool_without_description_is_refused() -> None:
    def quiet(x: str) -> str:
        return x

    with pytest.raises(UsageError, match="no description"):
        Tool.from_function(quiet)


def test_examples_must_match_the_schema_and_be_at_most_five() -> None:
    def read(path: str, limit: int = 10) -> str:
        """Read."""
        return path

    with pytest.raises(UsageError, match="does not match the parameters schema"):
        Tool.from_function(read, examples=({"path": "a", "limit": "3"},))
    with pytest.raises(UsageError, match="at most 5"):
        Tool.from_function(read, examples=tuple({"path": str(i)} for i in range(6)))


def test_invalid_tool_names_are_refused() -> None:
    def read(path: str) -> str:
        """Read."""
        return path

    with pytest.raises(UsageError, match="tool name"):
        Tool.from_function(read, name="read file")
