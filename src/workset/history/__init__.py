"""History policies and compression: what the model sees of a long trajectory.

A :class:`~workset.history.base.HistoryPolicy` turns the recorded history (never modified) into
the view sent to the model for one call: all of it, a window, masked tool results, summaries.
Policies work on whole protocol units and never touch the stable prefix.

Layout: ``base`` (the seam), ``draft`` (blocks and the :class:`Layer` protocol), one module
per layer (``budget``, ``noise``, ``masking``, ``window``, ``archive``, ``compaction``,
``adaptive``, ``trail``, ``notes``), ``summary`` (prompts, sections, the circuit breaker) and
``policies`` (the named policies, :func:`make_policy`, :func:`policy_names`).
"""

from workset.history.base import HistoryPolicy, HistoryView, PolicyContext
from workset.history.policies import make_policy, policy_names

__all__ = ["HistoryPolicy", "HistoryView", "PolicyContext", "make_policy", "policy_names"]
