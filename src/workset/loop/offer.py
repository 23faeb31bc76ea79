"""Which tools the model sees up front, and which it may call.

With a large catalog only the core tools (and a ``tool_search`` meta-tool) are offered in the
stable prefix; a tool found by search is *loaded*: its schema reached the context inside the
search result (appended at the end, where it stays), and from then on calls to it run. The
prefix never changes when tools are discovered, so the KV cache survives discovery.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from workset.errors import UsageError
from workset.messages import ToolSpec
from workset.tools.registry import ToolRegistry


class ToolOffer:
    def __init__(
        self,
        registry: ToolRegistry,
        core: Sequence[str] | None = None,
        loaded: set[str] | None = None,
    ) -> None:
        """``loaded`` is shared with the discovery tool, which adds what it finds."""
        unknown = [n for n in core or () if n not in registry]
        if unknown:
            raise UsageError(f"core tools {unknown} are not in the registry")
        self.registry = registry
        self.core = tuple(sorted(core)) if core is not None else registry.names()
        self.loaded: set[str] = loaded if loaded is not None else set()

    @property
    def discovers(self) -> bool:
        """True when some registered tools are reachable only through discovery."""
        return len(self.core) < len(self.registry)

    def specs(self) -> tuple[ToolSpec, ...]:
        """The specs in the prefix: core tools only, in the registry's stable order."""
        core = set(self.core)
        return tuple(s for s in self.registry.specs() if s.name in core)

    def can_call(self, name: str) -> bool:
        return name in self.core or name in self.loaded

    def load(self, names: Iterable[str]) -> None:
        self.loaded.update(n for n in names if n in self.registry)

    def not_loaded_message(self, name: str) -> str:
        return (
            f"`{name}` exists but is not loaded yet. Call tool_search with what you need "
            "(e.g. its purpose) to load it, then call it."
        )
