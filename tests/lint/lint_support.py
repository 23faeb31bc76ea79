"""Sessions for the lint tests: real manifests from the real Assembler, stored in a real log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from workset.context.assemble import Assembler, BudgetConfig
from workset.context.manifest import Manifest
from workset.events import ModelCalled, RunStarted
from workset.log.store import SessionLog
from workset.messages import AssistantMessage, Message, ToolCall, ToolMessage, ToolSpec, UserMessage
from workset.models.base import Usage
from workset.testing import ScriptedModel

SYSTEM = "You answer questions about the files in a workspace. Call a tool to see a file."
TOOLS = (
    ToolSpec("grep", "Search file contents.", {"type": "object", "properties": {}}),
    ToolSpec("read_file", "Read a file.", {"type": "object", "properties": {}}),
)


def turn(k: int) -> list[Message]:
    """One turn: a question, a call, its result, an answer."""
    call = ToolCall(f"call_{k}", "read_file", f'{{"path": "f{k}.txt"}}')
    return [
        UserMessage(f"What does file f{k}.txt say about the deployment of service {k}?"),
        AssistantMessage(None, (call,)),
        ToolMessage(call.id, f"line one of f{k}\nline two says port {8000 + k}", "read_file"),
        AssistantMessage(f"It says the service listens on port {8000 + k}."),
    ]


@dataclass
class Recorder:
    """Assembles calls with one :class:`Assembler` and records their manifests in a log."""

    log: SessionLog
    window: int = 8192
    system_prompt: str = SYSTEM
    session_id: str = ""
    manifests: list[Manifest] = field(default_factory=list)
    _assembler: Assembler | None = None

    def __post_init__(self) -> None:
        self.session_id = self.log.create_session(
            title="lint test",
            workspace="",
            model="scripted",
            config={"system_prompt": self.system_prompt, "tools": [t.name for t in TOOLS]},
        )
        counter = ScriptedModel([]).token_counter()
        self._assembler = Assembler(counter, BudgetConfig(self.window, 16, 8))
        self.log.append(RunStarted("run", self.session_id, "task", "scripted", 0.0))

    def call(
        self,
        history: Sequence[Message],
        *,
        system: str | None = None,
        tools: Sequence[ToolSpec] = TOOLS,
        seqs: Sequence[int | None] | None = None,
        suffix: Sequence[Message] = (),
        summary_id: str | None = None,
    ) -> Manifest:
        assert self._assembler is not None
        assembled = self._assembler.assemble(
            session_id=self.session_id,
            system=self.system_prompt if system is None else system,
            tools=tools,
            history=history,
            seqs=list(range(len(history))) if seqs is None else seqs,
            suffix=suffix,
        )
        manifest = replace(assembled.manifest, summary_id=summary_id)
        n = len(self.manifests) + 1
        self.log.append(
            ModelCalled(
                "run",
                self.session_id,
                n,
                manifest,
                AssistantMessage("ok"),
                Usage(manifest.total_tokens, 1),
                float(n),
            )
        )
        self.manifests.append(manifest)
        return manifest
