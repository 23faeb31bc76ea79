"""Agent definitions are user-authored folders: valid ones load, bad ones become diagnostics
that say how to fix them, and nothing an author writes makes loading raise."""

from __future__ import annotations

from pathlib import Path

from workset.collab import AgentLimits, discover_agents

GOOD = """---
name: code-searcher
description: Finds where something is implemented in a code base.
role: You are a helper agent specialised in searching Python code.
tools: [grep, read_file]
model: inherit
handoff: extracted
limits:
  max_model_calls: 5
  token_budget: 12000
  wall_time_s: 90
---
Search with grep first. Out of scope: editing files.
"""


def write(root: Path, name: str, text: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "AGENT.md").write_text(text, encoding="utf-8")
    return folder


def test_a_definition_folder_loads_with_its_role_tools_model_and_limits(tmp_path: Path) -> None:
    write(tmp_path, "code-searcher", GOOD)
    [agent], problems = discover_agents(tmp_path, tools=["grep", "read_file", "list_dir"])
    assert problems == ()
    assert agent.name == "code-searcher" and agent.handoff == "extracted"
    assert agent.role.startswith("You are a helper agent specialised")
    assert agent.tools == ("grep", "read_file") and agent.model == "inherit"
    assert agent.limits == AgentLimits(max_model_calls=5, token_budget=12000, wall_time_s=90.0)
    assert agent.instructions.startswith("Search with grep first.")


def test_malformed_definitions_are_diagnosed_and_left_out_never_raised(tmp_path: Path) -> None:
    write(tmp_path, "code-searcher", GOOD)
    write(tmp_path, "broken-yaml", "---\nname: broken-yaml\ndescription: [unclosed\n---\n")
    write(tmp_path, "no-front", "Just some text, no frontmatter.\n")
    write(tmp_path, "wrong-name", GOOD.replace("name: code-searcher", "name: other"))
    limits = GOOD.replace("token_budget: 12000", "token_budget: -5")
    write(tmp_path, "bad-limits", limits.replace("name: code-searcher", "name: bad-limits")
          .replace("wall_time_s: 90", "speed: 3"))  # fmt: skip
    write(tmp_path, "bad-tool", GOOD.replace("name: code-searcher", "name: bad-tool")
          .replace("[grep, read_file]", "[grep, rm_rf]"))  # fmt: skip
    write(tmp_path, "bad-handoff", GOOD.replace("name: code-searcher", "name: bad-handoff")
          .replace("handoff: extracted", "handoff: telepathy"))  # fmt: skip
    (tmp_path / "misnamed").mkdir()
    (tmp_path / "misnamed" / "agent.md").write_text(GOOD)
    agents, problems = discover_agents(tmp_path, tools=["grep", "read_file"])
    assert [a.name for a in agents] == ["code-searcher"]
    text: dict[str, str] = {}
    for problem in problems:
        if problem.severity == "error":
            text[problem.path.parent.name] = (
                text.get(problem.path.parent.name, "") + problem.message
            )
    assert "not valid YAML" in text["broken-yaml"] and "double quotes" in text["broken-yaml"]
    assert "AGENT.md has no YAML frontmatter" in text["no-front"]
    assert "does not match the folder" in text["wrong-name"]
    assert "must be a positive number" in text["bad-limits"]
    assert "unknown limit 'speed'" in text["bad-limits"]
    assert "'rm_rf'" in text["bad-tool"] and "available: grep, read_file" in text["bad-tool"]
    assert "one of minimal, extracted, inherit" in text["bad-handoff"]
    assert any("exactly AGENT.md" in p.message for p in problems)


def test_a_missing_folder_is_a_diagnostic(tmp_path: Path) -> None:
    agents, [problem] = discover_agents(tmp_path / "nope")
    assert agents == () and "does not exist" in problem.message
