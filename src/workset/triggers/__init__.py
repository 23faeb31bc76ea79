"""Event-triggered tools and intake: how the world wakes an agent (seed 004).

:mod:`.tools` gives the model ``set_timer`` (one-shot or cron), ``cancel_timer`` and
``list_timers``; the session engine keeps the timers durable and fires each occurrence once
(:mod:`workset.session.timers`). :mod:`.webhook` turns a signed HTTP POST into a structured
event (``connect_channel``): the local service (``workset serve``) verifies the HMAC
signature and its timestamp and refuses anything unsigned or stale.
"""
