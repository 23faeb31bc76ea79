"""Smart-contract tools: Foundry (``forge``, ``cast``, ``anvil``), the Solana CLI and IPFS.

What stays on this machine runs without asking: ``forge build``/``test``/``coverage`` on the
project here, ``cast``'s arithmetic and encodings, ``cast`` reads of a chain served on
loopback, transactions to a local dev chain signed by one of its published test keys (they
hold no real funds), ``solana config get``, a keypair made inside the workspace, ``ipfs pin
ls``. Everything that reaches a real chain or key asks, and four acts that cannot be undone
are denied: an unlimited token approval, a wallet's whole balance sent away, a live
contract's code or owner replaced, and a message fetched from the network signed with the
wallet's key (a permit lets its author spend the wallet's tokens).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Result,
    Voucher,
    deny_finding,
    option_value,
    unknown_program,
)
from workset.safety.rules.confinement import inside, outside
from workset.safety.rules.loopback import is_local

_RPC = ("--rpc-url", "-r", "--fork-url", "-f", "--url", "-u")
# forge's subcommands that build, test or read the project here.
_FORGE_LOCAL = frozenset({"build", "b", "compile", "test", "t", "coverage", "flatten", "f",
                          "fmt", "snapshot", "s", "inspect", "tree", "config", "clean",
                          "remappings", "re", "bind", "geiger", "selectors", "lint",
                          "eip712", "doc", "cache"})  # fmt: skip
_FORGE_OUT = ("-o", "--output", "--report-file", "--out", "--root", "-C", "--contracts",
              "--snap", "--cache-path")  # fmt: skip


def _chain(cmd: Cmd) -> str | None:
    """The chain the command reaches (its RPC address), None when it names none."""
    return option_value(cmd.args(), _RPC)


def _local_chain(cmd: Cmd) -> bool:
    url = _chain(cmd)
    return url is not None and not cmd.is_dynamic(cmd.argv.index(url)) and is_local(url)


def forge(cmd: Cmd, ctx: Context) -> Finding | None:
    """``forge test``, ``forge coverage --report lcov``, ``forge flatten src/A.sol -o flat/``:
    the project's contracts built and its tests run here, as ``cargo test`` runs a crate's."""
    args = cmd.args()
    sub = args[0] if args else ""
    if sub not in _FORGE_LOCAL or (sub == "doc" and "--serve" in args):
        return unknown_program(f"forge {sub}".strip(), " (it deploys, installs or reaches a "
                               "chain)")  # fmt: skip
    if sub == "cache" and args[1:2] != ("ls",):
        return unknown_program("forge cache", " (it deletes Foundry's shared cache in ~/.foundry)")
    if sub == "selectors" and args[1:2] != ("list",):
        return unknown_program("forge selectors", " (it uploads the project's signatures)")
    if "--ffi" in args:
        return unknown_program("forge --ffi", " (the tests may then run any shell command)")
    if _chain(cmd) is not None and not _local_chain(cmd):
        return unknown_program(f"forge {sub} --fork-url", " (it reads a chain over the network)")
    for index, word in enumerate(args[:-1], start=2):
        if word in _FORGE_OUT and (cmd.is_dynamic(index) or not inside(args[index - 1], ctx)):
            return outside(args[index - 1], "forge")
    return None


def foundry_ffi(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``sed -i 's/ffi = false/ffi = true/' foundry.toml``: Foundry's tests may then run any
    shell command (``vm.ffi``), those of the project's dependencies too."""
    if any(w.endswith("foundry.toml") for w in cmd.args()) and any(
        re.search(r"ffi\s*=\s*true", w) for w in cmd.args()
    ):
        yield Finding("foundry-ffi", "ask", f"{cmd.name} turns on Foundry's ffi, which lets "
                      "every Solidity test, a dependency's too, run shell commands; a human "
                      "must confirm")  # fmt: skip


# cast's subcommands that only compute (encodings, units, hashes, addresses).
_CAST_PURE = frozenset({"sig", "sig-event", "keccak", "k", "to-wei", "from-wei", "to-hex",
                        "to-dec", "to-int256", "to-uint256", "to-bytes32", "to-ascii",
                        "to-utf8", "from-utf8", "to-check-sum-address", "to-checksum",
                        "max-uint", "max-int", "min-int", "abi-encode", "abi-decode",
                        "calldata", "decode-calldata", "calldata-decode", "concat-hex",
                        "pad", "shl", "shr", "to-base", "to-rlp", "from-rlp", "to-unit",
                        "format-bytes32-string", "parse-bytes32-string", "index",
                        "compute-address", "create2", "namehash", "hash-zero",
                        "address-zero", "decode-abi", "parse-units", "format-units",
                        "decode-event", "decode-error"})  # fmt: skip
# cast's subcommands that read a chain.
_CAST_READS = frozenset({"call", "chain-id", "chain", "block", "block-number", "bn",
                         "gas-price", "base-fee", "balance", "nonce", "code", "codesize",
                         "storage", "receipt", "tx", "logs", "estimate", "age", "client",
                         "find-block", "proof", "access-list", "codehash",
                         "implementation", "admin"})  # fmt: skip
# Methods only a local dev chain answers (anvil, hardhat), and the chain's own reads.
_DEV_RPC = re.compile(r"^(anvil|hardhat|evm|ganache)_\w+$|^eth_(get\w+|call|chainId|"
                      r"blockNumber|gasPrice|estimateGas)$")  # fmt: skip
# The first accounts of the mnemonic anvil and hardhat publish ("test test … junk").
_TEST_KEYS = frozenset({
    "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
    "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
})  # fmt: skip


def cast(cmd: Cmd, ctx: Context) -> Finding | None:
    """``cast sig 'f(uint256)'``, ``cast call ADDR 'f()' --rpc-url http://127.0.0.1:8545``, a
    ``cast send`` to a local dev chain signed with a published test key."""
    args = cmd.args()
    sub = args[0] if args else ""
    if sub in _CAST_PURE or tuple(args[:2]) in (("wallet", "list"), ("wallet", "ls")):
        return None
    if sub in _CAST_READS and _local_chain(cmd):
        return None
    if sub == "rpc" and len(args) > 1 and _DEV_RPC.match(args[1]) and _local_chain(cmd):
        return None
    key = option_value(args, ("--private-key",))
    if sub in ("send", "mktx") and _local_chain(cmd) and key in _TEST_KEYS:
        return None
    return unknown_program(f"cast {sub}".strip(), " (it reaches a chain that is not this "
                           "machine's, or uses a wallet's key)")  # fmt: skip


_MAX_UINT = re.compile(r"^(115792089237316195423570985008687907853269984665640564039457584007913"
                       r"129639935|0x[fF]{64}|type\(uint256\)\.max|max)$")  # fmt: skip
_GRANTS = re.compile(r"^(approve|increaseAllowance|permit)\(", re.IGNORECASE)
_TAKEOVERS = re.compile(r"^(upgradeTo|upgradeToAndCall|changeAdmin|transferOwnership|"
                        r"renounceOwnership|setImplementation)\(", re.IGNORECASE)  # fmt: skip


def _runs(cmd: Cmd, index: int, sub: str) -> bool:
    """Word ``index`` is made by ``cast SUB`` (``$(cast max-uint)``)."""
    return any(c.name == "cast" and c.args()[:1] == (sub,) for c in cmd.inner_of(index))


def cast_harms(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    sub = args[0] if args else ""
    if sub in ("send", "mktx") and not _local_chain(cmd):
        signature = args[2] if len(args) > 2 else ""
        if _GRANTS.match(signature) and any(
            _MAX_UINT.match(w) or _runs(cmd, i, "max-uint") for i, w in enumerate(cmd.argv)
        ):
            yield _irreversible(f"cast {sub} {signature.split('(')[0]} gives a spender "
                                "unlimited use of the wallet's tokens")  # fmt: skip
        elif signature.startswith("setApprovalForAll(") and "true" in args:
            yield _irreversible(f"cast {sub} setApprovalForAll hands an operator every token "
                                "of the collection")  # fmt: skip
        elif _TAKEOVERS.match(signature):
            yield _irreversible(f"cast {sub} {signature.split('(')[0]} replaces a live "
                                "contract's code or owner")  # fmt: skip
        value = next((i + 1 for i, a in enumerate(cmd.argv[:-1]) if a == "--value"), None)
        if value is not None and _runs(cmd, value, "balance"):
            yield _irreversible(f"cast {sub} sends the wallet's whole balance away")
    if sub == "wallet" and args[1:2] == ("decrypt-keystore",) and (cmd.redirects or not ctx.shown):
        yield deny_finding("wallet-key-copied", "cast wallet decrypt-keystore prints the "
                           "wallet's private key, and the line keeps it (in a pipe or a file)",
                           "sign with --account NAME instead; a private key never belongs in "
                           "a file or the agent's context")  # fmt: skip
    if sub == "wallet" and args[1:2] in (("sign",), ("sign-auth",)):
        fetched = any(c.name in ("curl", "wget", "http", "xh")
                      for i in range(len(cmd.argv)) for c in cmd.inner_of(i))  # fmt: skip
        if fetched:
            yield deny_finding("blind-signature", "cast wallet sign signs a message fetched "
                               "from the network with the wallet's key: a permit or order "
                               "written by someone else lets them spend the wallet's tokens",
                               "read the message and sign it by hand, if at all")  # fmt: skip


def _irreversible(what: str) -> Finding:
    return deny_finding("chain-irreversible", f"{what} on a live chain, which no one can undo",
                        "do it by hand from a reviewed transaction, or test it on a local "
                        "fork first")  # fmt: skip


_LOOPBACK = re.compile(r"^(127\.[\d.]+|localhost|::1|\[::1\])$")
_DEFAULT_MNEMONIC = "test test test test test test test test test test test junk"


def anvil_harms(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``anvil --host 0.0.0.0 --mnemonic "$(cat seed)"``: a node that signs for its accounts
    without a password, served to the network with a real wallet's accounts."""
    host = option_value(cmd.args(), ("--host",))
    mnemonic = option_value(cmd.args(), ("--mnemonic", "-m"))
    if host is None or _LOOPBACK.match(host) or mnemonic in (None, _DEFAULT_MNEMONIC):
        return
    yield deny_finding("unlocked-node-exposed", f"anvil serves {host}, beyond this machine, "
                       "unlocked accounts from a wallet's own mnemonic: anyone who reaches "
                       "the port can sign with them",
                       "keep anvil on 127.0.0.1 and its published test mnemonic")  # fmt: skip


def solana(cmd: Cmd, ctx: Context) -> Finding | None:
    """``solana config get``, ``solana address``: the CLI's settings and wallet address."""
    args = [a for a in cmd.args() if not a.startswith("-")]
    if args[:2] == ["config", "get"] or args == ["address"]:
        return None
    return unknown_program(f"solana {' '.join(args[:2])}".strip(), " (it changes settings or "
                           "reaches a cluster)")  # fmt: skip


def solana_keygen(cmd: Cmd, ctx: Context) -> Finding | None:
    """``solana-keygen pubkey k.json``, ``solana-keygen new --outfile target/k.json``: a key
    read, or a new one made inside the workspace."""
    args = cmd.args()
    sub = args[0] if args else ""
    if sub in ("pubkey", "verify"):
        return None
    out = option_value(args, ("--outfile", "-o"))
    if sub == "new" and out is not None:
        return None if inside(out, ctx) else outside(out, "solana-keygen")
    return unknown_program(f"solana-keygen {sub}".strip(), " (it writes the default wallet or "
                           "reads a seed phrase)")  # fmt: skip


def solana_keygen_harms(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``solana-keygen new --force`` without ``--outfile`` overwrites the default wallet."""
    args = cmd.args()
    out = option_value(args, ("--outfile", "-o"))
    default = out is None or ctx.resolve(out) == "~/.config/solana/id.json"
    if args[:1] == ("new",) and "--force" in args and default:
        yield deny_finding("wallet-overwrite", "solana-keygen new --force overwrites the "
                           "default wallet (~/.config/solana/id.json), and whatever it holds "
                           "is lost with its key", "write the new key inside the workspace "
                           "with --outfile")  # fmt: skip


def anchor(cmd: Cmd, ctx: Context) -> Finding | None:
    """``anchor build``, ``anchor keys list``: the workspace's programs built, their keys read;
    a test or deploy reaches the cluster Anchor.toml names, and asks."""
    words = tuple(a for a in cmd.args() if not a.startswith("-"))
    if words[:1] in (("build",), ("expand",)) and not any("cluster" in a for a in cmd.args()):
        return None
    if words[:2] == ("keys", "list"):
        return None
    return unknown_program(f"anchor {' '.join(words[:1])}".strip(), " (it deploys, tests on "
                           "a cluster or changes the program's keys)")  # fmt: skip


_IPFS_READS = {("pin", "ls"), ("id",), ("version",), ("repo", "stat"), ("repo", "verify"),
               ("files", "ls"), ("files", "stat"), ("cid", "format"), ("key", "list"),
               ("swarm", "peers"), ("stats", "bw"), ("config", "show")}  # fmt: skip


def ipfs(cmd: Cmd, ctx: Context) -> Finding | None:
    """``ipfs pin ls --type recursive``, ``ipfs repo stat``: the local node read."""
    words = tuple(a for a in cmd.args() if not a.startswith("-"))
    if words[:2] in _IPFS_READS or words[:1] in _IPFS_READS:
        return None
    return unknown_program(f"ipfs {' '.join(words[:2])}".strip(), " (it publishes, removes "
                           "or changes the node's content or settings)")  # fmt: skip


def ipfs_harms(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``ipfs config Addresses.API /ip4/0.0.0.0/tcp/5001``: the node's admin API (which adds,
    removes and reads everything, keys included) opened to the network or to every website."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    if words[:1] != ["config"] or len(words) < 3:
        return
    key, value = words[1], words[2]
    if key == "Addresses.API" and not re.match(r"^/ip[46]/(127\.|::1/)", value):
        yield _api_opened(f"binds the node's admin API to {value}")
    elif key.startswith("API.HTTPHeaders.Access-Control-Allow-Origin") and "*" in value:
        yield _api_opened("lets every website call the node's admin API")


def _api_opened(what: str) -> Finding:
    return deny_finding("ipfs-api-exposed", f"ipfs config {what}; whoever reaches it controls "
                        "the node and its keys", "keep Addresses.API on 127.0.0.1")  # fmt: skip


VOUCHERS: dict[str, Voucher] = {
    "forge": forge,
    "cast": cast,
    "solana": solana,
    "solana-keygen": solana_keygen,
    "ipfs": ipfs,
    "anchor": anchor,
}
HANDLERS: dict[str, Handler] = {
    "cast": cast_harms,
    "anvil": anvil_harms,
    "solana-keygen": solana_keygen_harms,
    "ipfs": ipfs_harms,
    **{n: foundry_ffi for n in ("sed", "perl")},
}
