"""Python code that deletes through a service's client library, for
:mod:`workset.safety.python_code`.

A client library reaches its service without naming a network module: ``HfApi().delete_repo``,
``wandb.Api().runs(…)`` and ``run.delete()``, ``chromadb.HttpClient(…).delete_collection``,
``utility.drop_collection`` of pymilvus, ``boto3.client('s3').delete_bucket``. A call named
for deletion (``delete*``, ``drop*``, ``purge*``, ``wipe*``, ``destroy*``, chroma's ``reset``)
in code that imports one of them is denied when the service is another machine's: a hosted
service's (unless the code points it at this machine), or a vector database at an address of
another host. On this machine, a compose service's name, a local file store, a cache or an
address only known at run time, it asks: a local service may still hold real data.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from workset.safety.python_literals import dotted
from workset.safety.rules.base import Finding
from workset.safety.rules.loopback import LOCAL_HOST

# Libraries of hosted services: their data lives on the vendor's machines.
_HOSTED = frozenset({"huggingface_hub", "wandb", "pinecone", "langsmith", "langfuse",
                     "comet_ml", "neptune", "openai", "anthropic", "cohere", "replicate",
                     "boto3", "supabase", "firebase_admin"})  # fmt: skip
# Clients of databases and trackers run anywhere: another host only when the code names one.
_SERVED = frozenset({"chromadb", "pymilvus", "qdrant_client", "weaviate", "mlflow",
                     "lancedb", "marqo", "vespa"})  # fmt: skip
_DELETES = re.compile(r"^((delete|drop|purge|wipe|destroy)(_\w+)?|reset)$")
_LOCAL_CALLS = re.compile(r"cache|revisions|local|PersistentClient|EphemeralClient")
_HOST_KEYWORDS = frozenset({"host", "url", "uri", "endpoint", "endpoint_url", "base_url",
                            "api_base", "api_url", "http_host", "cluster_url"})  # fmt: skip
_URL = re.compile(r"^\w+://(?:[^@/]*@)?(\[[^\]]+\]|[^:/]+)")
# A compose service's name, ``*.local``/``*.internal``: on this machine or beside it.
_NEARBY = re.compile(r"^(\[::1\]|[\w-]+|[\w.-]+\.(local|localhost|internal|test))$")
_IPV4 = re.compile(r"^\d{1,3}(\.\d{1,3}){3}$")


def _hosts(tree: ast.AST) -> list[str]:
    """The hosts the code names: in addresses, as IPs, or as a host/url keyword's value."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in _HOST_KEYWORDS:
            value = node.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                url = _URL.match(value.value)
                found.append(url.group(1) if url else value.value.split(":")[0])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            url = _URL.match(node.value)
            if url is not None and not node.value.startswith("file:"):
                found.append(url.group(1))
            elif _IPV4.match(node.value):
                found.append(node.value)
    return found


def service_deletes(tree: ast.AST, modules: set[str]) -> Iterator[Finding]:
    """A deleting call of a service's client library: denied on another host, else asked."""
    libraries = modules & (_HOSTED | _SERVED)
    if not libraries:
        return
    calls = [
        dotted(n.func)
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and _DELETES.match(dotted(n.func).rsplit(".", 1)[-1])
    ]
    if not calls:
        return
    library = sorted(libraries)[0]
    call = calls[0].rsplit(".", 1)[-1]
    hosts = _hosts(tree)
    remote = [h for h in hosts if not LOCAL_HOST.match(h) and not _NEARBY.match(h)]
    local_only = bool(hosts) and not remote
    code = ast.unparse(tree)
    if remote or (libraries & _HOSTED and not local_only and not _LOCAL_CALLS.search(code)):
        where = remote[0] if remote else f"the service {library} reaches"
        yield Finding(
            "service-delete",
            "deny",
            f"the code calls {call}() of {library}, which deletes data held by {where}, "
            "another machine: repositories, runs and collections deleted there are gone for "
            "good; never delete a service's data from an agent — show the call to a human",
        )
        return
    yield Finding(
        "service-delete",
        "ask",
        f"the code calls {call}() of {library} on this machine or at an address known only "
        "when it runs: a local service may still hold real data; a human must confirm",
    )
