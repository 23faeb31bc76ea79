"""Guided edits are on by default only where the backend enforces their schema."""

from __future__ import annotations

from workset.cli.runtime import guided_default
from workset.models.openai_compat import OpenAICompatibleModel
from workset.testing import ScriptedModel


def test_guided_edits_default_off_for_a_remote_openai_compatible_endpoint() -> None:
    assert guided_default(ScriptedModel(["done"])) is True
    assert guided_default(OpenAICompatibleModel("http://127.0.0.1:9/v1", "m")) is False
