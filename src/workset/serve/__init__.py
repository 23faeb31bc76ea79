"""``workset serve``: sessions run as a local service that people and systems talk to.

:mod:`.service` holds an agent's sessions as long-lived actors (each opened on its first event
and kept serving), delivers events and webhooks to them and tails their logs; :mod:`.app` is
the HTTP API over it (starlette, served by uvicorn on 127.0.0.1); :mod:`.state` is the file a
running server leaves next to the session log so clients can find it; :mod:`.client` is the
API as Python calls, plus queueing into a session's inbox when no server runs; :mod:`.watch`
wakes whoever waits on a session when it records something. Needs the ``serve`` extra
(``pip install 'workset[serve]'``) for the server; the client needs only httpx.
"""

from workset.serve.client import ServeClient, post_offline
from workset.serve.service import Delivery, Refused, Service

__all__ = ["Delivery", "Refused", "ServeClient", "Service", "post_offline"]
