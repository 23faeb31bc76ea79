"""``[[channels]]``: the webhook channels of ``workset serve``, and reading their blocks.

One block per channel (:mod:`workset.triggers.webhook` serves them); its shared secret stays in
the environment variable the block names, never in the file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from workset.events.inputs import PRIORITIES, SOURCES, EventSource, Priority

if TYPE_CHECKING:
    from workset.config.reader import Reader


@dataclass(frozen=True, slots=True)
class ChannelSection:
    """One ``[[channels]]`` block; the secret stays in the environment variable it names."""

    name: str
    secret_env: str
    session: str = ""  # "" means "hook-<name>"
    source: EventSource = "contact"
    priority: Priority = "normal"
    sender_field: str = "from"
    max_age_s: int = 300

    @property
    def target(self) -> str:
        """The session the channel's events go to."""
        return self.session or f"hook-{self.name}"


_CHANNEL_KEYS = (
    "name", "secret_env", "session", "source", "priority", "sender_field", "max_age_s",
)  # fmt: skip
_CHANNEL_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _first(default: str, options: tuple[str, ...]) -> tuple[str, ...]:
    """``options`` with the default first (``Reader.choice`` takes the first as default)."""
    return (default, *(o for o in options if o != default))


def read_channels(reader: Reader, value: Any) -> tuple[ChannelSection, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
        raise reader.fail(
            "[channels]", "must be an array of tables", 'write each as [[channels]] name = "…"'
        )
    found: list[ChannelSection] = []
    for n, raw in enumerate(value, 1):
        where = f"[[channels]] #{n}"
        if "secret" in raw:
            raise reader.fail(
                f"{where} secret",
                "puts the shared secret in the config file",
                'remove it, set secret_env = "NAME_OF_A_VARIABLE" and export that variable',
            )
        reader.known(raw, "channels", _CHANNEL_KEYS)
        name = reader.string(raw, "channels", "name", "")
        if not _CHANNEL_NAME.fullmatch(name):
            raise reader.fail(
                f"{where} name",
                f"must be 1 to 40 lowercase letters, digits, '_' or '-', not {name!r}",
                'name = "email"',
            )
        secret_env = reader.string(raw, "channels", "secret_env", "")
        if not _ENV_NAME.fullmatch(secret_env):
            raise reader.fail(
                f"[[channels]] {name} secret_env",
                f"must name an environment variable, not {secret_env!r}",
                f'secret_env = "WORKSET_HOOK_{name.upper().replace("-", "_")}"',
            )
        source = reader.choice(raw, "channels", "source", _first("contact", SOURCES))
        priority = reader.choice(raw, "channels", "priority", _first("normal", PRIORITIES))
        found.append(
            ChannelSection(
                name=name,
                secret_env=secret_env,
                session=reader.string(raw, "channels", "session", ""),
                source=cast(EventSource, source),
                priority=cast(Priority, priority),
                sender_field=reader.string(raw, "channels", "sender_field", "from") or "from",
                max_age_s=reader.integer(raw, "channels", "max_age_s", 300, 1),
            )
        )
    names = [c.name for c in found]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise reader.fail("[[channels]]", f"defines {dupes} more than once", "keep one block each")
    return tuple(found)
