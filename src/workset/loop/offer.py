"""Which tools the model sees up front, and which it may call.

With a large catalog only the core tools (and a ``tool_search`` meta-tool) are offered in the
stable prefix; a tool found by search is *loaded*: its schema reached the context inside the
search result (appended at the end, where it stays), and from then on calls to it run. The
prefix never changes when tools are discovered, so the KV cache survives discovery.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence

from workset.errors import UsageError
from workset.messages import ToolCall, ToolSpec
from workset.tools.registry import ToolRegistry

SEARCH_TOOL = "tool_search"  # the discovery meta-tool's name (workset.discovery.meta)
# In the result of a call refused before it ran (its tool unknown or not loaded yet): the same
# call made next is no repeat (workset.loop.repeats).
DID_NOT_RUN = "this call did not run"


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

    @property
    def can_search(self) -> bool:
        """True when calls to unknown names can be answered with a catalog search."""
        return self.discovers and SEARCH_TOOL in self.registry

    def can_call(self, name: str) -> bool:
        return name in self.core or name in self.loaded

    def load(self, names: Iterable[str]) -> None:
        self.loaded.update(n for n in names if n in self.registry)

    def admit(self, name: str) -> str:
        """Load ``name`` on first mention and say how to call it (its schema, at the end).

        A model that names an existing tool without searching (small models often do) gets the
        schema it needs instead of a refusal; the call itself does not run this time, since its
        arguments were written without the schema.
        """
        self.load([name])
        spec = json.dumps(self.registry.spec(name).to_wire()["function"], ensure_ascii=False)
        return (
            f"`{name}` was not loaded, so {DID_NOT_RUN}. It is loaded now; its "
            f"definition:\n{spec}\nCall it again with arguments that follow this schema."
        )

    async def search_for(self, call: ToolCall) -> str:
        """An unknown tool name states a need: search the catalog with it, load what fits."""
        query = _need_from(call)
        search = ToolCall(call.id, SEARCH_TOOL, json.dumps({"query": query}))
        found = await self.registry.execute(search)
        return (
            f"unknown tool `{call.name}`; {DID_NOT_RUN}. Searched the catalog for "
            f"{query!r}:\n{found.content}"
        )


def _need_from(call: ToolCall) -> str:
    """Words of a call's name and argument values: what the model was trying to do."""
    words = re.sub(r"[_\-]+|(?<=[a-z])(?=[A-Z])", " ", call.name).lower().split()
    try:
        arguments = json.loads(call.arguments)
    except json.JSONDecodeError:
        arguments = {}
    if isinstance(arguments, dict):
        words += [str(v) for v in arguments.values() if isinstance(v, str | int | float)]
    return " ".join(words)[:300]
