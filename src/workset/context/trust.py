"""Trust boundaries: untrusted text enters the context as tagged data, never as instructions.

Tool results, retrieved documents, MCP content and uninstalled skills are *untrusted*: they are
wrapped in ``<external_content source=… trust="untrusted">`` and any text inside them that
imitates one of workset's own tags (a fake ``<agent_status>``, a closing
``</external_content>``, an ``<approval>``) or a chat-template control token (``<|im_start|>``)
is neutralised by escaping its angle brackets, so it reads as the characters it is and cannot
close the wrapper or pose as a status block. Delimiters separate data from instructions; they
do not authorise anything: permissions and approvals are decided by code (``workset.safety``),
never by what the context says.

Secrets registered with the runtime (:class:`Secrets`) are replaced by ``[redacted NAME]`` in
everything that reaches the context, the session log and the manifests.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from workset.errors import UsageError

__all__ = ["RESERVED_TAGS", "Secrets", "neutralize", "wrap_untrusted"]

# Tags workset itself writes, and the chat templates' own markup: text from outside may not
# contain them unescaped.
RESERVED_TAGS = (
    "agent_status",
    "external_content",
    "approval",
    "approved",
    "system",
    "instructions",
    "memory",
    "hypothesis",
    "standing_rule",
    "evidence",
    "tool_call",
    "tool_response",
    "tools",
)
_TAG = re.compile(r"<(\s*/?\s*(?:" + "|".join(RESERVED_TAGS) + r")\b[^<>]{0,200})>", re.IGNORECASE)
_CONTROL = re.compile(r"<\|([A-Za-z0-9_]{1,40})\|>")
_MIN_SECRET = 4


def neutralize(text: str) -> str:
    """``text`` with reserved tags and template control tokens made inert (brackets escaped)."""
    text = _TAG.sub(lambda m: f"&lt;{m.group(1)}&gt;", text)
    return _CONTROL.sub(lambda m: f"&lt;|{m.group(1)}|&gt;", text)


def wrap_untrusted(text: str, *, source: str, **attributes: str) -> str:
    """``text`` as data: neutralised and wrapped in a tag naming where it came from.

    ``attributes`` become extra attributes of the tag (``version="3"``, ``lines="480-510"``).
    """
    attrs = "".join(f' {k}="{_attr(v)}"' for k, v in attributes.items() if v)
    return (
        f'<external_content source="{_attr(source)}" trust="untrusted"{attrs}>\n'
        f"{neutralize(text)}\n</external_content>"
    )


def _attr(value: str) -> str:
    return (
        value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")
    )


# Credential shapes worth catching even when nobody registered them.
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "private_key",
        re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S),
    ),
    ("openai_key", re.compile(r"\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}")),
    ("github_token", re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}")),
    ("aws_access_key", re.compile(r"\bAKIA[0-9A-Z]{16}\b")),
    ("slack_token", re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}")),
    ("bearer_token", re.compile(r"(?<=Bearer )[A-Za-z0-9._~+/=-]{20,}")),
)


class Secrets:
    """Named secret values the runtime knows; :meth:`redact` removes them from any text.

    Values shorter than 4 characters are refused (redacting them would mangle ordinary text).
    With ``patterns=True`` well-known credential shapes (private keys, ``sk-…``, ``ghp_…``,
    ``AKIA…``, bearer tokens) are redacted too, registered or not.
    """

    def __init__(self, values: Mapping[str, str] | None = None, *, patterns: bool = True) -> None:
        self._values: dict[str, str] = {}
        self.patterns = patterns
        for name, value in (values or {}).items():
            self.register(name, value)

    def register(self, name: str, value: str) -> None:
        if len(value) < _MIN_SECRET:
            raise UsageError(
                f"secret {name!r} is shorter than {_MIN_SECRET} characters; redacting it would "
                "replace ordinary text. Register the full credential value."
            )
        self._values[name] = value

    def names(self) -> Iterable[str]:
        return tuple(self._values)

    def __bool__(self) -> bool:
        return bool(self._values) or self.patterns

    def redact(self, text: str) -> str:
        """``text`` with every registered value replaced by ``[redacted NAME]``."""
        for name, value in sorted(self._values.items(), key=lambda kv: -len(kv[1])):
            if value in text:
                text = text.replace(value, f"[redacted {name}]")
        if self.patterns:
            for name, pattern in _PATTERNS:
                text = pattern.sub(f"[redacted {name}]", text)
        return text
