from __future__ import annotations

from pathlib import Path

import pytest

from workset.config import DiscoverySection, WorksetConfig, load_config
from workset.errors import UsageError
from workset.session.agent import DEFAULT_SYSTEM_PROMPT, AgentConfig

FULL = """
[model]
name = "qwen2.5-coder-1.5b"
context_window = 16384
coder = "qwen2.5-coder-1.5b"

[budget]
output_reserve = 1024
margin = 32

[agent]
system_prompt_file = "prompt.md"
max_iterations = 12
tools = ["read_file", "grep", "list_dir"]
core_tools = ["read_file"]

[status]
strategy = "append"

[history]
policy = "window"
params = { turns = 4, keep = ["user"] }

[memory]
db = "memory.db"
tenant = "acme"
subject = "u-17"
purpose = "support"

[evidence]
paths = ["docs", "/srv/runbooks"]

[skills]
dirs = ["skills"]

[mcp.servers.files]
command = ["python", "server.py"]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "workset.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_empty_file_is_the_default_configuration(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, ""))
    assert config.agent.system_prompt == DEFAULT_SYSTEM_PROMPT
    assert config.agent.tools == "all" and config.status.placement == "end"
    assert config.history.policy == "full" and config.memory.db is None
    assert config.agent_config() == AgentConfig()
    assert WorksetConfig().model.context_window == 0  # the model's own default


def test_every_section_is_read_and_relative_paths_start_at_the_file(tmp_path: Path) -> None:
    (tmp_path / "prompt.md").write_text("You review billing code.", encoding="utf-8")
    config = load_config(write(tmp_path, FULL))
    assert config.model.name == "qwen2.5-coder-1.5b" and config.model.context_window == 16384
    assert config.model.coder == "qwen2.5-coder-1.5b" and WorksetConfig().model.coder == ""
    assert (config.budget.output_reserve, config.budget.margin) == (1024, 32)
    assert config.agent.system_prompt == "You review billing code."
    assert config.agent.system_prompt_file == tmp_path / "prompt.md"
    assert config.agent.tools == ("read_file", "grep", "list_dir")
    assert config.agent.tools_from == "list" and config.agent.core_tools == ("read_file",)
    assert config.status.strategy == "append"
    assert dict(config.history.params) == {"turns": 4, "keep": ("user",)}
    assert config.memory.db == tmp_path / "memory.db" and config.memory.tenant == "acme"
    assert config.evidence.paths == (tmp_path / "docs", Path("/srv/runbooks"))
    assert config.skills.dirs == (tmp_path / "skills",)
    assert [s.name for s in config.mcp.servers] == ["files"]
    assert config.agent_config().max_iterations == 12


def test_an_unknown_key_names_the_file_the_key_and_the_fix(tmp_path: Path) -> None:
    path = write(tmp_path, "[budget]\noutput_reserv = 100\n")
    with pytest.raises(UsageError) as caught:
        load_config(path)
    text = str(caught.value)
    assert str(path) in text and "[budget] output_reserv" in text
    assert "rename it to 'output_reserve'" in text


def test_an_unknown_section_is_refused_with_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"\[modle\] is not a known section.*rename it to 'model'"):
        load_config(write(tmp_path, "[modle]\nname = 'x'\n"))


@pytest.mark.parametrize(
    ("text", "key", "fix"),
    [
        ("[model]\ncontext_window = '8k'\n", "[model] context_window", "context_window = 16384"),
        ("[agent]\nmax_iterations = 0\n", "[agent] max_iterations", "max_iterations = 8"),
        ("[agent]\ntools = 3\n", "[agent] tools", 'tools = "all"'),
        ("[agent]\nsystem_prompt = 5\n", "[agent] system_prompt", 'system_prompt = "…"'),
        ("[status]\nstrategy = 'rotate'\n", "[status] strategy", 'strategy = "replace"'),
        ("[evidence]\npaths = 'docs'\n", "[evidence] paths", 'paths = ["…", "…"]'),
        ("[history]\nparams = { a = { b = 1 } }\n", "[history.params] a", "a = 4"),
        ("budget = 3\n", "[budget]", "write it as [budget] key = …"),
    ],
)
def test_a_wrong_type_names_the_key_and_the_fix(
    tmp_path: Path, text: str, key: str, fix: str
) -> None:
    with pytest.raises(UsageError) as caught:
        load_config(write(tmp_path, text))
    message = str(caught.value)
    assert key in message and f"Fix: {fix}" in message


def test_a_prompt_file_that_cannot_be_read_says_where_it_was_looked_for(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"missing\.md.*cannot be read.*Fix: point it at"):
        load_config(write(tmp_path, "[agent]\nsystem_prompt_file = 'missing.md'\n"))


def test_prompt_and_prompt_file_together_are_refused(tmp_path: Path) -> None:
    text = "[agent]\nsystem_prompt = 'a'\nsystem_prompt_file = 'b.md'\n"
    with pytest.raises(UsageError, match="keep only one of the two"):
        load_config(write(tmp_path, text))


def test_core_tools_must_be_among_the_listed_tools(tmp_path: Path) -> None:
    text = "[agent]\ntools = ['grep']\ncore_tools = ['read_file']\n"
    with pytest.raises(UsageError, match=r"\['read_file'\].*Fix: add them to tools"):
        load_config(write(tmp_path, text))


def test_a_tools_table_is_accepted_and_remembered_as_unordered(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "[agent]\ntools = { grep = true, shell = false }\n"))
    assert config.agent.tools == ("grep",) and config.agent.tools_from == "table"


def test_a_bad_mcp_server_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[mcp.servers.files]\ncommand = 'python server.py'\n")
    with pytest.raises(UsageError, match=r"workset\.toml: \[mcp\.servers\.files\]: command"):
        load_config(path)


def test_invalid_toml_says_the_file_is_not_valid(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="is not valid TOML"):
        load_config(write(tmp_path, "[agent\n"))


def test_model_threads_timeout_evidence_and_compact_tools_are_read(tmp_path: Path) -> None:
    path = tmp_path / "workset.toml"
    path.write_text(
        "[model]\nthreads = 1\ntimeout = 600\n[evidence]\nworkspace = false\n"
        "[agent]\ncompact_tools = false\nread_lines = 120\n"
    )
    config = load_config(path)
    assert (config.model.threads, config.model.timeout) == (1, 600.0)
    assert config.agent_config().model_stall_s == 600.0
    assert config.evidence.workspace is False and config.agent.compact_tools is False
    assert config.agent.read_lines == 120
    defaults = WorksetConfig()
    assert defaults.evidence.workspace and defaults.agent.compact_tools is None
    assert defaults.agent.read_lines is None
    assert defaults.model.timeout == AgentConfig().model_stall_s


def test_a_timeout_that_is_not_a_positive_number_says_how_to_write_it(tmp_path: Path) -> None:
    path = tmp_path / "workset.toml"
    path.write_text('[model]\ntimeout = "slow"\n')
    with pytest.raises(UsageError, match=r"\[model\] timeout must be a number of seconds > 0"):
        load_config(path)


def test_the_vllm_metrics_url_is_read_from_the_model_section(tmp_path: Path) -> None:
    path = tmp_path / "workset.toml"
    path.write_text('[model]\nname = "openai:m"\nmetrics_url = "http://gpu:8000/metrics"\n')
    assert load_config(path).model.metrics_url == "http://gpu:8000/metrics"


def test_the_second_look_is_on_by_default_and_can_be_turned_off(tmp_path: Path) -> None:
    assert WorksetConfig().agent_config().second_look is True
    config = load_config(write(tmp_path, "[agent]\nsecond_look = false\n"))
    assert config.agent.second_look is False and config.agent_config().second_look is False
    with pytest.raises(UsageError, match="second_look"):
        load_config(write(tmp_path, '[agent]\nsecond_look = "no"\n'))


def test_discovery_is_automatic_with_a_memory_and_can_be_turned_off(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, "")).discovery == DiscoverySection("auto", True)
    config = load_config(write(tmp_path, '[discovery]\nsearch = "off"\nmemory = false\n'))
    assert config.discovery == DiscoverySection("off", False)
    with pytest.raises(UsageError, match=r"\[discovery\] search must be 'auto' or 'off'"):
        load_config(write(tmp_path, '[discovery]\nsearch = "always"\n'))


def test_answer_confidence_is_a_probability_or_false(tmp_path: Path) -> None:
    default = AgentConfig().answer_confidence
    assert WorksetConfig().agent_config().answer_confidence == default
    config = load_config(write(tmp_path, "[agent]\nanswer_confidence = 0.4\n"))
    assert config.agent_config().answer_confidence == 0.4
    off = load_config(write(tmp_path, "[agent]\nanswer_confidence = false\n"))
    assert off.agent_config().answer_confidence is None
    for bad in ("1.5", "0", "true", '"high"'):
        with pytest.raises(UsageError, match=r"answer_confidence must be a probability"):
            load_config(write(tmp_path, f"[agent]\nanswer_confidence = {bad}\n"))
