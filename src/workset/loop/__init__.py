"""What one agent step is made of: settings, the call interpreter (:mod:`.calls`, over
:mod:`.call_parsing`, :mod:`.call_repair`, :mod:`.repeats` and :mod:`.steering`), outcomes,
the event bus and tool offers. The :class:`~workset.session.agent.Agent` facade and the
session engine that runs the steps live in :mod:`workset.session`, which builds on this
package."""
