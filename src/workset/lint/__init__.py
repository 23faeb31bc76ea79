"""``workset lint``: find what breaks the prompt-cache prefix, before or after it costs.

A configuration is checked for the known prefix breakers (volatile text or per-user state in
the system prompt, unordered or unstable tool lists, rotating state placed near the start);
a recorded session is checked through its manifests (tool-list churn, a changed system prompt,
reuse that keeps breaking near the start, messages deleted from the middle). Every check
returns :class:`Finding` values that say where, why it matters and how to fix it.
"""

from workset.lint.config_checks import lint_config, lint_tool_specs
from workset.lint.findings import RULES, Finding, Rule, Severity, has_errors
from workset.lint.session_checks import lint_manifests, lint_session
from workset.lint.volatile import VolatileText, find_volatile_text

__all__ = [
    "RULES",
    "Finding",
    "Rule",
    "Severity",
    "VolatileText",
    "find_volatile_text",
    "has_errors",
    "lint_config",
    "lint_manifests",
    "lint_session",
    "lint_tool_specs",
]
