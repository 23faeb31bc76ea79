"""What one agent step is made of: settings, the call interpreter, outcomes, the event bus
and tool offers. The :class:`~workset.session.agent.Agent` facade and the session engine
that runs the steps live in :mod:`workset.session`, which builds on this package."""
