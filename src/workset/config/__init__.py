"""The agent configuration file: one TOML file, every field with a documented default.

An empty file (or no file) is the default configuration. Relative paths are resolved against
the folder of the file. Unknown keys and wrong types raise :class:`UsageError` naming the
file, the key and the fix.

====================  ========================  ===============================================
key                   default                   meaning
====================  ========================  ===============================================
[model]
name                  ``qwen2.5-coder-0.5b``    backend spec, as ``workset run --model`` takes it
context_window        0 (the model's)           window in tokens; 0: 16384 for the embedded
                                                models, 8192 for ``openai:`` endpoints
base_url              ``""``                    endpoint for ``openai:MODEL`` specs
metrics_url           ``""``                    a vLLM ``/metrics`` URL: its prefix-cache counters
                                                recorded per call
threads               0 (auto)                  embedded model threads; 0: $WORKSET_THREADS,
                                                else half the cores
timeout               180                       seconds the model may go without progress
                                                (no token, no prompt-progress report)
coder                 ``""`` (``name``)         the model for requests made alone: a function
                                                a guided edit chose, written as code; a
                                                question asked again over its lines
                                                (``workset run --coder-model``)
[budget]
output_reserve        512                       tokens kept free for the answer
margin                64                        safety margin on top of the reserve
[agent]
system_prompt         workset's default prompt  the stable system prompt (no dates, no users)
system_prompt_file    ``""``                    read the prompt from this file instead
max_iterations        8                         model calls per run before giving up
tools                 ``"all"``                 ``"all"`` or an ordered list of tool names
core_tools            all of ``tools``          tools in the prompt; the rest via discovery
compact_tools         auto                      short tool descriptions (``workset.tools.
                                                compact``); auto: for windows ≤ 16k tokens
read_lines            auto                      lines a ``read_file`` call without ``limit``
                                                shows; auto: 80 for windows ≤ 16k, else 200
test_command          ``"auto"``                the command ``run_tests`` runs (with
                                                ``--exec``); auto: pytest when the workspace
                                                is a pytest project; ``""``: no run_tests
search_fixes          true                      with a pytest ``test_command``, also the
                                                ``search_fix`` tool: one-place changes to
                                                the code failing tests point to, tried
                                                against them in a scratch copy
                                                (``workset.repair``)
second_look           true                      an answer nothing read supports is asked
                                                once more over the lines that share the
                                                question's words (``workset.loop.
                                                second_look``); its reply is unverified
check_answers         auto                      an answer judged answered is asked again
                                                the same way and stays answered only when
                                                the reply names its main fact (``workset.
                                                loop.answer_check``); auto: when a coder
                                                model answers the requests made alone
answer_confidence     (see docs)                an answer judged answered is scored once
                                                (token log-probabilities, the prefix
                                                cached) and stays answered only when its
                                                main fact had at least this probability
                                                (``workset.loop.confidence``); false: off
[status]
enabled               false                     keep an ``<agent_status>`` block in each request
todo_tools            false                     offer ``rewrite_todo_list``/``update_todo_status``
strategy              ``"replace"``             ``replace`` (rebuilt at the end each round) or
                                                ``append`` (a new block appended each round)
placement             ``"end"``                 ``end``; ``after_system`` puts rotating state
                                                near the start and breaks the prefix cache
[history]
policy                ``"full"``                history policy name (``workset.history``)
params                ``{}``                    the policy's parameters, e.g. ``{ turns = 4 }``
[memory]
db                    ``""`` (no memory)        SQLite file of the memory store
tenant                ``""``                    scope of memory reads and writes
subject               ``""``                    the user the memory is about
purpose               ``""``                    why memory is read (purpose limitation)
[evidence]
paths                 ``[]``                    files or folders evidence is retrieved from
workspace             true                      index the workspace and put the chunks most
                                                relevant to the task in the first request
[skills]
dirs                  ``[]``                    folders holding skill folders (``SKILL.md``)
[mcp]
learned               ``"off"``                 the MCP audit's sentence classifier: ``off``,
                                                ``report`` (findings shown, tools load) or
                                                ``block`` (findings block the tool)
[mcp.servers.NAME]    none                      MCP servers, see :mod:`workset.mcp.config`;
                                                ``workset run``/``chat``/``serve`` start them
                                                and offer the tools their audit lets through
[discovery]
search                ``"auto"``                ``tool_search`` over the tools ``core_tools``
                                                leaves out of the prompt; auto: when it leaves
                                                some out; ``"off"``
memory                true                      remember the needs a search served (a search,
                                                then a successful call of a tool it listed)
                                                and rank those tools first for similar needs
                                                in later runs (``workset.discovery.local``)
probe                 none                      a servability probe file (``fit_probe`` on
                                                needs labelled for these tools, ``save``):
                                                "not found" where it judges no tool serves
[[channels]]          none                      webhook channels of ``workset serve``, one
                                                block each (:mod:`workset.triggers.webhook`):
name                  required                  ``POST /hooks/NAME``; events ``webhook.NAME``
secret_env            required                  environment variable holding the shared secret
                                                (never the secret itself in this file)
session               ``"hook-NAME"``           the session its events go to (made if missing)
source                ``"contact"``             event source: contact, user, system, tool,
                                                timer or agent (content is untrusted anyway)
priority              ``"normal"``              urgent (interrupts), high, normal or low
sender_field          ``"from"``                payload key that names the sender
max_age_s             300                       accepted age (and clock skew) of a signature
====================  ========================  ===============================================

The sections and their defaults are in :mod:`workset.config.sections`, reading a table into
its section in :mod:`workset.config.reader`, ``[[channels]]`` in :mod:`workset.config.channels`;
every public name is importable from here.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workset.config.channels import ChannelSection, read_channels
from workset.config.reader import SECTIONS, Reader
from workset.config.sections import (
    AgentSection,
    BudgetSection,
    DiscoverySection,
    EvidenceSection,
    HistorySection,
    MCPSection,
    MemorySection,
    ModelSection,
    ParamValue,
    SkillsSection,
    StatusPlacement,
    StatusSection,
    StatusStrategy,
    ToolsFrom,
    WorksetConfig,
)
from workset.errors import UsageError

__all__ = [
    "AgentSection",
    "BudgetSection",
    "ChannelSection",
    "DiscoverySection",
    "EvidenceSection",
    "HistorySection",
    "MCPSection",
    "MemorySection",
    "ModelSection",
    "ParamValue",
    "SkillsSection",
    "StatusPlacement",
    "StatusSection",
    "StatusStrategy",
    "ToolsFrom",
    "WorksetConfig",
    "config_from_mapping",
    "load_config",
]


def load_config(path: str | Path) -> WorksetConfig:
    """Read and check one TOML configuration file."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(
            f"cannot read the config file {file}: {exc.strerror or exc}; check the path"
        ) from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{file} is not valid TOML: {exc}; fix the syntax there") from exc
    return config_from_mapping(data, source=str(file), base=file.parent)


def config_from_mapping(
    data: Mapping[str, Any], *, source: str = "<mapping>", base: Path | None = None
) -> WorksetConfig:
    """A configuration from parsed TOML; relative paths resolve against ``base``."""
    reader = Reader(source, base or Path())
    reader.known(data, "", SECTIONS)
    agent = reader.agent(reader.table(data, "agent"))
    return WorksetConfig(
        model=reader.model(reader.table(data, "model")),
        budget=reader.budget(reader.table(data, "budget")),
        agent=agent,
        status=reader.status(reader.table(data, "status")),
        history=reader.history(reader.table(data, "history")),
        memory=reader.memory(reader.table(data, "memory")),
        evidence=reader.evidence(reader.table(data, "evidence")),
        skills=SkillsSection(reader.paths(reader.table(data, "skills"), "skills", "dirs")),
        mcp=reader.mcp(data),
        discovery=reader.discovery(reader.table(data, "discovery")),
        channels=read_channels(reader, data.get("channels")),
        source=source,
    )
