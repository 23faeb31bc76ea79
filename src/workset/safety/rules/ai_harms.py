"""Clear harms of an AI developer's machine, denied:

- the user's own coding-agent configuration deleted from the home (``~/.claude``,
  ``~/.codex/AGENTS.md``, ``~/.cursor``, ``~/.config/Claude``): the instructions, permission
  rules and MCP servers that steer and restrain every agent session. A project's copy
  (``.claude/`` in the workspace), a cache or history folder inside them
  (``~/.claude/todos``) and a backup (``settings.json.bak``) still ask;
- a key or credential linked into the workspace (``ln -s ~/.ssh/id_ed25519 docs/key.md``):
  every tool that reads, commits or uploads the workspace then reads the secret through it;
- a GPU reset (``nvidia-smi -r``): every process on it, training runs and model servers,
  ends at once;
- the GPU driver or CUDA removed as a whole (``apt-get purge 'nvidia-*'``,
  ``dnf remove cuda``): no model runs on the machine until a human reinstalls them, and the
  display may not come back. One named library or sample package still asks.

A hub upload (``huggingface-cli upload``, ``hf upload``) is marked as an upload, so the
secret it sends (``… ~/.ssh``) is denied as exfiltration; other uploads ask as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result
from workset.safety.rules.base import deny_finding as _deny
from workset.safety.rules.secret_paths import is_secret

# Folders of coding agents in the home, and the files in them that steer the agent.
_AGENT_HOMES = re.compile(r"^(\.claude|\.codex|\.cursor|\.gemini|\.continue|\.windsurf|"
                          r"\.codeium/windsurf|\.config/(Claude|claude|Cursor|github-copilot)|"
                          r"Library/Application Support/(Claude|Cursor))/?$")  # fmt: skip
_AGENT_FILES = re.compile(
    r"^(\.claude\.json|\.aider\.conf\.yml|\.cursorrules|"
    r"(\.claude|\.codex|\.gemini|\.cursor|\.continue|\.config/(Claude|claude))/"
    r"(CLAUDE\.md|AGENTS\.md|GEMINI\.md|settings(\.local)?\.json|config\.(toml|json|yaml)|"
    r"mcp\.json|claude_desktop_config\.json|hooks\.json|rules|commands|agents|hooks)/?)$"
)
_DELETERS = frozenset({"rm", "unlink", "shred", "truncate", "srm"})
_DRIVER = re.compile(r"^'?(nvidia|cuda|libcudnn\d*|libnvidia)[-\w.]*\*|^(nvidia-driver|"
                     r"nvidia-dkms|nvidia-kernel-(open|source|common))(-[\d\w.-]+)?$|"
                     r"^cuda(-drivers|-toolkit)?(-[\d.-]+)?$")  # fmt: skip
_REMOVALS = frozenset({"remove", "purge", "autoremove", "erase"})


def _in_home(word: str, ctx: Context) -> str | None:
    """``word`` relative to the home, when it names a place there."""
    path = ctx.resolve(word)
    for home in ("~/", "$HOME/", "${HOME}/", (paths.home_of(ctx.workspace) or "\0") + "/"):
        if path.startswith(home):
            return path[len(home) :]
    return None


def _agent_config(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``rm -rf ~/.claude``, ``rm ~/.codex/AGENTS.md``: the agents' own configuration."""
    for index, word in enumerate(cmd.args(), start=1):
        if word.startswith("-") or cmd.is_dynamic(index):
            continue
        place = _in_home(word, ctx)
        if place is not None and (_AGENT_HOMES.match(place) or _AGENT_FILES.match(place)):
            yield _deny(
                "agent-config-delete",
                f"{cmd.name} deletes {word}, the user's own coding-agent configuration (its "
                "instructions, permission rules and MCP servers)",
                "an agent never removes what steers and restrains it; ask the user",
            )
            return


def _secret_link(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``ln -s ~/.ssh/id_ed25519 docs/context.md``: a secret readable from the workspace."""
    words = [(i, w) for i, w in enumerate(cmd.args(), start=1) if not w.startswith("-")]
    if len(words) != 2 or any(cmd.is_dynamic(i) for i, _ in words):
        return
    (_, source), (_, link) = words
    if is_secret(source) and paths.in_workspace(ctx.resolve(link), ctx.workspace):
        yield _deny(
            "secret-linked",
            f"ln makes {link} in the workspace lead to {source}: every tool that reads, "
            "commits or uploads the workspace then reads the secret",
            "never bring keys or credentials into the workspace; refer to them by name",
        )


def _gpu_reset(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if {"-r", "--gpu-reset"} & set(cmd.args()):
        yield _deny(
            "gpu-reset",
            "nvidia-smi -r resets the GPU: every process on it, training runs and model "
            "servers, ends at once and loses its unsaved work",
            "stop the one process that needs it, or have a human reset the GPU",
        )


def _driver_removal(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    verb = next((a for a in args if not a.startswith("-")), "")
    if verb not in _REMOVALS:
        return
    hit = next((a for a in args if _DRIVER.match(a)), None)
    if hit is not None:
        yield _deny(
            "gpu-driver-removed",
            f"{cmd.name} {verb} {hit} removes the GPU driver or CUDA: no model runs on this "
            "machine until a human reinstalls them, and the display may not come back",
            "remove one named package, or leave driver changes to a human",
        )


def _hub_upload(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if cmd.args()[:1] in (("upload",), ("upload-large-folder",)):
        yield Finding(
            "upload",
            "ask",
            f"{cmd.name} upload sends local files to the Hugging Face Hub; confirm what is "
            "sent and to which repository",
        )


HANDLERS: dict[str, Handler] = {
    **dict.fromkeys(_DELETERS, _agent_config),
    "ln": _secret_link,
    "nvidia-smi": _gpu_reset,
    **dict.fromkeys(("apt", "apt-get", "aptitude", "dnf", "yum", "zypper"), _driver_removal),
    **dict.fromkeys(("huggingface-cli", "hf"), _hub_upload),
}
