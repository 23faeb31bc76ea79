"""Rules for infrastructure CLIs, one module per kind, gathered here for the dispatcher.

Each family lets its reads through (``docker ps``, ``kubectl get``, ``terraform plan``,
``aws s3 ls``, a ``SELECT``) and asks for everything else; what destroys shared state at once
is denied. Containers: :mod:`~workset.safety.rules.containers`; clusters:
:mod:`~workset.safety.rules.clusters`; infrastructure as code and cloud CLIs:
:mod:`~workset.safety.rules.cloud`; database clients: :mod:`~workset.safety.rules.databases`.
Deletes fed a whole listing are recognised by :mod:`~workset.safety.rules.listings`.
"""

from __future__ import annotations

from workset.safety.rules import cloud, clusters, containers, databases
from workset.safety.rules.base import Handler

HANDLERS: dict[str, Handler] = {
    **containers.HANDLERS,
    **clusters.HANDLERS,
    **cloud.HANDLERS,
    **databases.HANDLERS,
}
