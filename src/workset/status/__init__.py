"""The agent status bar: state the loop keeps by code and shows the model at the end of context.

The model is good at finding what is already in its context and bad at counting or summing
it, so this package does the distilling: :class:`~workset.status.tracker.StatusTracker` counts
tool calls per tool and per target, limits and errors from the loop's events (and rebuilds the
same counts from a session log); :mod:`~workset.status.todo` keeps a TODO list behind two
tools; :func:`~workset.status.render.render_status` turns all of it into one deterministic
``<agent_status>`` block; :mod:`~workset.status.strategy` says how that block is placed each
round (replaced or appended) and which is cheaper; :mod:`~workset.status.annotate` stamps tool
results with the time, the call's ordinal and detailed error advice. Everything here is a lossy
projection of the trajectory: it is added next to the raw history, never instead of it.
"""
