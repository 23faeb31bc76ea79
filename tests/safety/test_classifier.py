from __future__ import annotations

import json

import anyio

from workset.errors import ModelUnavailableError
from workset.messages import SystemMessage, ToolCall, UserMessage
from workset.models.base import ModelRequest, ModelResponse
from workset.safety.classifier import ModelClassifier, RuleClassifier, Verdict
from workset.safety.policy import PermissionPolicy
from workset.testing import ScriptedModel
from workset.tools.base import Tool


def shell(command: str) -> str:
    return command


def noop() -> str:
    """Does nothing."""
    return ""


SHELL = Tool.from_function(shell, name="shell", description="Run a command.", risk="high")
WRITE = Tool.from_function(noop, name="deploy", risk="high")
READ = Tool.from_function(noop, name="peek", risk="high", read_only=True)


def call(name: str, **arguments: object) -> ToolCall:
    return ToolCall(id="c1", name=name, arguments=json.dumps(arguments))


def judge(c: ToolCall, tool: Tool | None, policy: PermissionPolicy | None = None) -> Verdict:
    return anyio.run(RuleClassifier(policy).classify, c, tool)


def test_a_dangerous_shell_command_is_denied_with_the_analysis_reason() -> None:
    verdict = judge(call("shell", command="r''m -rf /"), SHELL)
    assert verdict.decision == "deny"
    assert verdict.rule == "command:rm-recursive-protected"
    assert "inside the workspace" in verdict.reason


def test_an_ask_finding_asks_unless_the_tool_is_trusted() -> None:
    assert judge(call("shell", command="sudo apt-get update"), SHELL).decision == "ask"
    trusted = PermissionPolicy(allow_tools=frozenset({"shell"}))
    assert judge(call("shell", command="sudo apt-get update"), SHELL, trusted).decision == "allow"
    assert judge(call("shell", command="rm -rf ~"), SHELL, trusted).decision == "deny"


def test_python_code_tools_are_analysed_too() -> None:
    code = "import shutil\nshutil.rmtree('/')"
    assert judge(call("run_python", code=code), None).decision == "deny"


def test_policy_lists_and_risk_levels_decide_other_tools() -> None:
    policy = PermissionPolicy(deny_tools=frozenset({"deploy"}))
    assert judge(call("deploy"), WRITE, policy).rule == "policy-deny"
    assert judge(call("deploy"), WRITE).decision == "ask"
    assert judge(call("peek"), READ).decision == "allow"
    assert judge(call("deploy"), WRITE, PermissionPolicy(ask_risk=None)).decision == "allow"
    asked = PermissionPolicy(ask_tools=frozenset({"peek"}))
    assert judge(call("peek"), READ, asked).rule == "policy-ask"


def test_arguments_that_are_not_a_json_object_are_denied_before_anything_runs() -> None:
    verdict = judge(ToolCall("c1", "shell", "rm -rf /"), SHELL)
    assert (verdict.decision, verdict.rule) == ("deny", "bad-arguments")
    assert judge(call("shell", command=["rm"]), SHELL).rule == "bad-arguments"


def test_the_model_classifier_sees_only_the_structured_call() -> None:
    model = ScriptedModel(['{"decision": "ask", "reason": "deploys to production"}'])
    classifier = ModelClassifier(model)
    c = call("deploy", target="prod")
    verdict = anyio.run(classifier.classify, c, WRITE)
    assert verdict == Verdict("ask", "deploys to production", "model")
    (request,) = model.requests
    assert isinstance(request, ModelRequest)
    system, user = request.messages
    assert isinstance(system, SystemMessage) and isinstance(user, UserMessage)
    assert json.loads(user.content) == {
        "tool": "deploy",
        "arguments": {"target": "prod"},
        "tool_metadata": {"read_only": False, "idempotent": False, "risk": "high"},
    }
    assert request.json_schema is not None
    assert request.json_schema["properties"]["decision"]["enum"] == ["allow", "ask", "deny"]


def test_the_model_is_not_asked_about_what_the_rules_deny() -> None:
    model = ScriptedModel(['{"decision": "allow", "reason": "fine"}'])
    verdict = anyio.run(ModelClassifier(model).classify, call("shell", command="rm -rf /"), SHELL)
    assert verdict.decision == "deny"
    assert model.requests == []


def test_a_failing_or_rambling_model_falls_back_to_the_rules_and_says_so() -> None:
    for script in (ModelUnavailableError("server down"), "Sure! I think it is fine."):
        model = ScriptedModel([script])
        verdict = anyio.run(ModelClassifier(model).classify, call("deploy"), WRITE)
        assert verdict.decision == "ask"
        assert verdict.rule == "risk"
        assert "the model classifier failed" in verdict.reason


class SilentModel(ScriptedModel):
    """A scripted model whose server never answers."""

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        await anyio.Event().wait()
        raise AssertionError("unreachable")


def test_a_model_that_does_not_answer_in_time_falls_back_to_the_rules() -> None:
    model = SilentModel([])
    verdict = anyio.run(ModelClassifier(model, timeout_s=0.05).classify, call("deploy"), WRITE)
    assert len(model.requests) == 1
    assert verdict.rule == "risk" and "the model classifier failed" in verdict.reason


def test_the_default_policy_runs_a_shell_command_shown_safe_and_asks_for_one_that_is_not() -> None:
    policy = PermissionPolicy(workspace="/home/me/proj")
    proven = judge(call("shell", command="pytest -q && git status"), SHELL, policy)
    assert (proven.decision, proven.rule) == ("allow", "proven")
    unknown = judge(call("shell", command="frobnicate --all"), SHELL, policy)
    assert (unknown.decision, unknown.rule) == ("ask", "command:unknown-program")
    blanket = PermissionPolicy(workspace="/home/me/proj", prove_commands=False)
    assert judge(call("shell", command="pytest -q"), SHELL, blanket).rule == "risk"


def test_a_shell_command_that_is_not_a_string_or_not_text_gets_a_clear_decision() -> None:
    policy = PermissionPolicy(workspace="/home/me/proj")
    for arguments in ({"command": None}, {"command": ["rm", "-rf", "/"]}, {}):
        assert judge(call("shell", **arguments), SHELL, policy).decision == "deny"
    assert judge(call("shell", command=""), SHELL, policy).decision == "deny"
    assert judge(call("shell", command="ls \udcff"), SHELL, policy).decision == "deny"
    assert judge(call("shell", command="x" * 1_000_000), SHELL, policy).decision == "ask"
