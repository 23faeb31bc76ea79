"""History policies and compression: what the model sees of a long trajectory.

A :class:`~workset.history.base.HistoryPolicy` turns the recorded history (never modified) into
the view sent to the model for one call: all of it, a window, masked tool results, summaries.
Policies work on whole protocol units and never touch the stable prefix.
"""
