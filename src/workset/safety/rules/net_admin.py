"""The families of a network engineer's debugging day, gathered for registration: reads and
configuration checks of firewalls, captures, WireGuard and traffic control
(:mod:`~workset.safety.rules.net_reads`), the host cut off the network
(:mod:`~workset.safety.rules.net_cuts`) and traffic that floods, spoofs or is redirected
(:mod:`~workset.safety.rules.net_floods`).
"""

from __future__ import annotations

from workset.safety.rules import net_cuts, net_floods, net_reads
from workset.safety.rules.base import Handler, Voucher

VOUCHERS: dict[str, Voucher] = {**net_reads.VOUCHERS}
TABLES: tuple[dict[str, Handler], ...] = (net_cuts.HANDLERS, net_floods.HANDLERS)
