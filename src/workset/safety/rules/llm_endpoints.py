"""A model API's or trace collector's address moved to another host.

An LLM application sends every prompt, every response and its API key to the address these
variables name: ``OPENAI_BASE_URL``, ``ANTHROPIC_BASE_URL``, ``HF_ENDPOINT``, and the tracing
of LangSmith, Langfuse, Phoenix, Weights & Biases or OpenTelemetry
(``LANGCHAIN_ENDPOINT=https://…/capture``). Pointed at this machine (a local model server,
a local collector), at a compose service's name, or at the vendor's own service, it is as
before; pointed anywhere else, the user must confirm who receives the data.
"""

from __future__ import annotations

import re

from workset.safety.rules.app_platforms import stays_local
from workset.safety.rules.base import Finding, ask_finding

_ENDPOINT_VARIABLE = re.compile(
    r"^(OPENAI_(API_)?BASE(_URL)?|ANTHROPIC_BASE_URL|HF_ENDPOINT|HF_INFERENCE_ENDPOINT|"
    r"(LANGCHAIN|LANGSMITH)_ENDPOINT|LANGFUSE_(HOST|BASE_URL|BASEURL)|"
    r"PHOENIX_COLLECTOR_ENDPOINT|WANDB_BASE_URL|OTEL_EXPORTER_OTLP(_TRACES|_LOGS)?_ENDPOINT|"
    r"AZURE_OPENAI_ENDPOINT|MISTRAL_API_BASE|GROQ_BASE_URL|COHERE_BASE_URL|"
    r"GOOGLE_GEMINI_BASE_URL|LITELLM_(API_BASE|PROXY_URL))$"
)
# The vendors' own services: the address these variables name by default, or by region.
_VENDOR = re.compile(
    r"(^|\.)(openai\.com|anthropic\.com|huggingface\.co|hf\.co|langchain\.com|"
    r"langfuse\.com|arize\.com|wandb\.ai|openai\.azure\.com|mistral\.ai|groq\.com|"
    r"cohere\.(com|ai)|googleapis\.com)$"
)


def redirected(name: str, value: str, program: str | None = None) -> Finding | None:
    """``LANGCHAIN_ENDPOINT=https://example.org/capture``: prompts sent to another host."""
    value = value.strip("'\"")
    if not _ENDPOINT_VARIABLE.match(name) or "$" in value or not value:
        return None
    host = re.sub(r"^\w+://([^@/]*@)?", "", value).split("/")[0]
    bare = host.rsplit(":", 1)[0].lower() if not host.startswith("[") else host
    if (
        stays_local(host)
        or _VENDOR.search(bare)
        or re.match(r"^[\w-]+(:\d+)?$|.*\.(local|localhost|test|internal)(:\d+)?$", host)
    ):
        return None  # this machine, a compose service, or the vendor itself
    return ask_finding(
        "llm-endpoint",
        f"{name}={value} makes {program or 'the commands that follow'} send every prompt, "
        f"response and API key to {host}",
        "a human must confirm that host is meant to receive them",
    )
