"""The families of a game, graphics and web3 developer's day, gathered for registration:
engines run on the project, asset converters and their harms
(:mod:`~workset.safety.rules.game_tools`), and Foundry, the Solana CLI and IPFS
(:mod:`~workset.safety.rules.chain_tools`). :func:`installed` vouches for an engine's editor
or build script run from where its installer puts it, outside the workspace.
"""

from __future__ import annotations

from workset.safety.rules import chain_tools, game_tools
from workset.safety.rules.base import Cmd, Handler, Voucher

VOUCHERS: dict[str, Voucher] = {**game_tools.VOUCHERS, **chain_tools.VOUCHERS}
TABLES: tuple[dict[str, Handler], ...] = (game_tools.HANDLERS, chain_tools.HANDLERS)


def installed(cmd: Cmd) -> Voucher | None:
    """The voucher of a program run from an engine's install folder, if it is one."""
    return game_tools.engine if game_tools.installed_engine(cmd) else None
