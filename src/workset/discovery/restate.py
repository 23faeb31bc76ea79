"""A need restated as the kind of tool that serves it, by a model, once per need.

"Do I need a warm coat in Reykjavik tonight?" shares no word with a weather tool's description,
and a small sentence embedder does not bridge that gap; a chat model does: asked what kind of
software tool answers the need, it writes "weather forecast for a city". The index matches the
need as stated *and* as restated (:meth:`ToolIndex.search` ``also=``), each tool by the better
of the two, so a restatement can add a match but the need's own words still count.

One model call per need, constrained to a small JSON object (llama.cpp grammar) so a 0.5B
model cannot wander. :class:`Restatements` keeps the answers in a JSON-lines file keyed by the
sha256 of the model, the prompt version and the need, so a benchmark or an agent pays for a
need once.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from workset.discovery.lines import KeptAnswers, answer_object
from workset.errors import ModelError
from workset.messages import SystemMessage, UserMessage
from workset.models.base import Model, ModelRequest

PROMPT_VERSION = 1  # part of every key: changing the prompt asks every need again
SYSTEM = (
    "A person asks an assistant for something. Do not answer it. Write the one-line "
    "description that a tool catalog gives for the software tool the assistant should call to "
    "get it done: it starts with a verb and names the data or object the tool works on, in "
    "general words (a city, a stock, a file), not this request's details. Also give the "
    "general field in one to three words. Answer with a JSON object."
)
# The description must start with a catalog verb: a small model otherwise names a product.
_VERB_TEXT = """Get Search Find Fetch Read List Show Check Track Monitor Compare Calculate Convert
Translate Create Generate Write Edit Update Replace Copy Move Delete Protect Send Post Upload
Download Book Buy Play Make Click Hover Type Open Run Query Analyze Extract Summarize Schedule
Set Add Remember Recommend Draw Plot"""
VERBS = (*_VERB_TEXT.split(), "Look up")
_TOOL = {"type": "string", "pattern": f"^({'|'.join(VERBS)}) [a-zA-Z0-9 ,'-]{{16,90}}$"}
_FIELD = {"type": "string", "minLength": 3, "maxLength": 40}
SCHEMA = {
    "type": "object",
    "properties": {"description": _TOOL, "field": _FIELD},
    "required": ["description", "field"],
    "additionalProperties": False,
}


def restate_request(need: str) -> ModelRequest:
    """The request that asks a model what kind of tool serves ``need``."""
    text = f"Request: {' '.join(need.split())}"
    return ModelRequest(
        (SystemMessage(SYSTEM), UserMessage(text)),
        max_tokens=60,
        temperature=0.0,
        json_schema=SCHEMA,
    )


def parse_restatement(content: str) -> str:
    """The restatement in a model's JSON answer: "what the tool does (field)".

    A ModelError when the answer is not the object asked for.
    """
    value = answer_object(content)
    capability = " ".join(str(value.get("description", "")).split())
    field = " ".join(str(value.get("field", "")).split())
    if not capability:
        raise ModelError(f"the model named no tool: {content[:120]!r}")
    return f"{capability} ({field})" if field else capability


def capability(restatement: str) -> str:
    """What the tool does, from a restatement: the text without its trailing "(field)"."""
    return re.sub(r"\s*\([^()]*\)\s*$", "", restatement)


async def restate_need(model: Model, need: str) -> str:
    """What kind of tool serves ``need``, in a catalog's words (one model call)."""
    response = await model.complete(restate_request(need))
    return parse_restatement(response.message.content or "")


def restatement_key(model: str, need: str) -> str:
    text = json.dumps([model, PROMPT_VERSION, " ".join(need.split())], ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


_WHAT = "a restatement line"
_HINT = "each line must be JSON with key and restated; delete the line to ask that need again"


class Restatements:
    """Restatements by need, kept in a JSON-lines file: each need asked once per model."""

    def __init__(self, path: Path, model: Model) -> None:
        self.path = path
        self.model = model
        self._kept = KeptAnswers(path, "restated", what=_WHAT, hint=_HINT)

    def known(self, need: str) -> str | None:
        return self._kept.get(restatement_key(self.model.info.name, need))

    async def restate(self, need: str) -> str:
        """The restatement of ``need``: from the file, else asked and appended at once."""
        name = self.model.info.name
        text = await self._kept.answer(
            restatement_key(name, need),
            lambda: restate_need(self.model, need),
            model=name,
            need=need,
        )
        return str(text)


def read_restatements(path: Path) -> dict[str, str]:
    """Restatements in a JSON-lines file by key; a missing file is empty, a bad line an error."""
    kept = KeptAnswers(path, "restated", what=_WHAT, hint=_HINT)
    return {key: str(text) for key, text in kept.answers().items()}
