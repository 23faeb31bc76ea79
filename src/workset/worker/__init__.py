"""Workers: processes that serve many sessions from shared stores and an intake.

:class:`Worker` (in :mod:`.runner`) takes events from an intake into the shared session log,
owns sessions through leases (exactly one worker at a time), runs them with the session engine,
and recovers what dead workers left behind. ``workset worker`` runs one from the command line.
"""

from __future__ import annotations

from workset.worker.runner import Worker, WorkerSettings, default_worker_name

__all__ = ["Worker", "WorkerSettings", "default_worker_name"]
