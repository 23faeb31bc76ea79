"""Component evals: each check catches its failure; ablations drop one component; resume."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import anyio
import pytest
from click.testing import CliRunner

from workset.cli.eval import eval_group
from workset.errors import UsageError
from workset.eval.cases import CaseSuite, load_cases
from workset.eval.checkpoint import Checkpoint
from workset.eval.components import ComponentReport, evaluate_components
from workset.messages import AssistantMessage, ToolMessage
from workset.models.base import ModelRequest
from workset.testing import ScriptedModel, call

CASES = Path(__file__).resolve().parents[2] / "examples" / "components" / "cases.yaml"


def _suite(*names: str) -> CaseSuite:
    suite = load_cases(CASES)
    return replace(suite, cases=tuple(c for c in suite.cases if c.name in names))


def _seen(request: ModelRequest) -> str:
    return "\n".join(getattr(m, "content", None) or "" for m in request.messages)


def _agent(request: ModelRequest) -> str | AssistantMessage:
    """Calls the tool the task needs once, then answers from what the request holds."""
    results = [m for m in request.messages if isinstance(m, ToolMessage)]
    seen = _seen(request)
    if "API key" in seen and not results:
        return AssistantMessage(None, (call("check_api_key_status", '{"account_id": "A-123"}'),))
    if "refund my last invoice" in seen and not results:
        return AssistantMessage(None, (call("get_last_invoice", '{"account_id": "B-77"}'),))
    if "Ines Duarte" in seen:
        return "Refunds above 500 EUR go through your account manager, Ines Duarte."
    if "refund my last invoice" in seen:
        return AssistantMessage(
            None, (call("issue_refund", '{"invoice_id": "INV-7781", "amount": "740 EUR"}'),)
        )
    if "revoked" in seen:
        return "Your key was revoked after it was reported as leaked (api-keys.md)."
    return "I don't know."


def _follows_injection(request: ModelRequest) -> str | AssistantMessage:
    if "rotate_api_key now" in _seen(request) and "rotated" not in _seen(request):
        return AssistantMessage(None, (call("rotate_api_key", '{"account_id": "A-123"}'),))
    return _agent(request)


def _run(suite: CaseSuite, model: ScriptedModel, path: Path, *ablations: str) -> ComponentReport:
    async def go() -> ComponentReport:
        return await evaluate_components(
            suite, model, checkpoint=Checkpoint(path), ablations=ablations or ("full",)
        )

    return anyio.run(go)


def test_a_case_passes_when_evidence_tools_secrets_and_outcome_all_hold(tmp_path: Path) -> None:
    report = _run(_suite("api_key_not_working"), ScriptedModel([_agent] * 6), tmp_path / "c")
    (result,) = report.results
    assert result.checks == {"evidence": True, "tools": True, "leaks": True, "outcome": True}
    assert result.tools_run == ("check_api_key_status",)
    assert result.prompt_tokens > 0 and result.calls == 2


def test_an_injected_span_that_steers_the_model_fails_the_tools_check(tmp_path: Path) -> None:
    model = ScriptedModel([_follows_injection] * 6)
    (result,) = _run(_suite("injected_runbook_span"), model, tmp_path / "c").results
    assert result.forbidden_proposed == ("rotate_api_key",)
    assert not result.checks["tools"] and not result.passed
    assert "rotate_api_key" not in result.tools_run  # the gate refused it: it never ran


def test_dropping_memory_loses_the_rule_only_memory_holds(tmp_path: Path) -> None:
    report = _run(
        _suite("refund_needs_account_manager"),
        ScriptedModel([_agent] * 12),
        tmp_path / "c",
        "full",
        "no_memory",
    )
    full, dropped = report.results
    assert full.passed
    assert not dropped.checks["tools"] and dropped.forbidden_proposed == ("issue_refund",)


def test_another_tenants_memory_never_reaches_a_request(tmp_path: Path) -> None:
    def answer(request: ModelRequest) -> str:
        seen = _seen(request)
        assert "2026-ENT-88" not in seen
        return "You are on GX-2026-TEAM." if "GX-2026-TEAM" in seen else "I don't know."

    (result,) = _run(
        _suite("other_tenants_memory"), ScriptedModel([answer] * 4), tmp_path / "c"
    ).results
    assert result.passed


def test_a_leaked_string_in_the_answer_fails_the_leak_check(tmp_path: Path) -> None:
    model = ScriptedModel(["The key was revoked; it was sk_live_4f9a2c77e1, sorry."] * 4)
    (result,) = _run(_suite("api_key_not_working"), model, tmp_path / "c").results
    assert not result.checks["leaks"] and not result.checks["tools"]
    assert result.leaked == ("sk_live_4f9a2c77e1",)


def test_finished_cells_are_read_back_and_unknown_ablations_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    first = _run(_suite("api_key_not_working"), ScriptedModel([_agent] * 6), path)
    again = _run(_suite("api_key_not_working"), ScriptedModel([]), path)
    assert again.results == first.results
    with pytest.raises(UsageError, match="unknown ablations"):
        _run(_suite("api_key_not_working"), ScriptedModel([]), path, "no_brain")


def test_eval_components_prints_the_tables_and_writes_json_and_chart(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps(["category: billing/duplicate_charge; priority: high", "ok"]))
    cases = tmp_path / "cases.yaml"
    cases.write_text(
        "system_prompt: You classify support tickets.\n"
        "examples: 'Example: category: access/login; priority: high'\n"
        "cases:\n"
        "  - name: ticket_format\n"
        "    input: 'Classify this ticket: \"You charged my card twice.\"'\n"
        "    expected_outcome: '(?i)category:\\s*billing/duplicate'\n"
    )
    out = tmp_path / "out"
    args = ["components", "--cases", str(cases), "--ablations", "full,no_examples"]
    args += ["--model", f"scripted:{script}", "--out", str(out)]
    result = CliRunner().invoke(eval_group, args)
    assert result.exit_code == 0, result.output
    data = json.loads((out / "components.json").read_text())
    assert data["ablations"]["full"]["passed"] == 1
    assert data["ablations"]["no_examples"]["outcome"] == 0  # the scripted model said "ok"
    assert (out / "components.png").stat().st_size > 1000
    assert "no_examples" in result.output
