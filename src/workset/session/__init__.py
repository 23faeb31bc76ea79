"""Sessions: the event-driven runtime around the context engine (seed 004, SPEC C15).

A :class:`~workset.session.engine.Session` is a long-lived actor whose state is its log: each
step assembles one request (:mod:`.context`, the one place requests are made), calls the model
and runs the tools it asked for (:mod:`.step`, :mod:`.units`). Events arrive in an inbox at any
time and enter the trajectory only at safe points (:mod:`.inbox`, :mod:`.batch`, routed by
:mod:`.router`); harness text reaches the model only through the notice queue
(:mod:`.notices`). Timers, background tasks, side questions and crash recovery live beside it
(:mod:`.timers`, :mod:`.tasks`, :mod:`.side`, :mod:`.resume`). :class:`~.agent.Agent` is the
simple way to use it for one task.
"""
