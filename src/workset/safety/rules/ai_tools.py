"""An AI application developer's everyday tools, shown to read or to stay in the workspace.

- a local model server asked what it holds or runs (``ollama list``, ``ollama ps``,
  ``ollama show NAME``); pulling, removing, copying or serving a model asks as before;
- ``shuf`` prints its input's lines in another order (its ``-o`` only into the workspace);
- ``nvidia-smi dmon``/``pmon`` sample the GPUs' use with their own options (``-s um`` picks
  the metrics, ``-c`` the count, ``-d`` the delay); ``-f``, which writes a log, is not one;
- a training launcher that starts one machine's processes on a script of the workspace
  (``accelerate launch --num_processes 2 train.py …``, ``torchrun --standalone
  --nproc_per_node 4 train.py``): the script is analysed as ``python train.py …`` would be.
  Another machine in the job (``--main_process_ip``, ``--nnodes 2``, a rendezvous endpoint)
  or an option not listed asks.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator

from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    Voucher,
    option_value,
    unknown_program,
)
from workset.safety.rules.confinement import inside, outside
from workset.safety.rules.data_tools import VOUCHERS as _DATA_TOOLS

_OLLAMA_READS = frozenset({"list", "ls", "ps", "show", "--version", "-v", "help", "--help"})
_SMI_SAMPLERS = frozenset({"dmon", "pmon"})
_SMI_SAMPLE_OPTIONS = re.compile(r"^(-[scdoi]|--?(count|delay|select|options|id)(=.*)?|"
                                 r"[\w,.]+)$")  # fmt: skip
# One machine's launch: the options that take a value, and those that take none.
_LAUNCH_VALUED = {
    "accelerate": frozenset({"--num_processes", "--mixed_precision", "--config_file",
                             "--gpu_ids", "--main_process_port", "--dynamo_backend",
                             "--deepspeed_config_file", "--gradient_accumulation_steps",
                             "--zero_stage", "--num_machines"}),
    "torchrun": frozenset({"--nproc_per_node", "--nproc-per-node", "--master_port",
                           "--master-port", "--nnodes"}),
}  # fmt: skip
_LAUNCH_FLAGS = frozenset({"--multi_gpu", "--cpu", "--use_deepspeed", "--use_fsdp",
                           "--standalone", "--quiet", "-q"})  # fmt: skip
_ONE_MACHINE = ("--num_machines", "--nnodes")
_LAUNCH_FILES = frozenset({"--config_file", "--deepspeed_config_file"})


def _ollama(cmd: Cmd, ctx: Context) -> Finding | None:
    """``ollama list``, ``ollama ps``, ``ollama show llama3 --modelfile``: the local models."""
    args = cmd.args()
    if args[:1] and args[0] in _OLLAMA_READS and not any(cmd.dynamic):
        return None
    return unknown_program(" ".join(cmd.argv[:2]), " (it pulls, removes or serves models)")


def _shuf(cmd: Cmd, ctx: Context) -> Finding | None:
    """``shuf -n 100 data.jsonl``: lines printed in another order; ``-o`` in the workspace."""
    target = option_value(cmd.args(), ("-o", "--output"))
    joined = [a.split("=", 1)[1] for a in cmd.args() if a.startswith("--output=")]
    for path in [*([target] if target is not None else []), *joined]:
        if not inside(path, ctx):
            return outside(path, "shuf")
    return None


def _nvidia_smi(cmd: Cmd, ctx: Context) -> Finding | None:
    """``nvidia-smi dmon -s um -c 5``: the GPUs' use sampled; the rest as before."""
    args = cmd.args()
    if args[:1] and args[0] in _SMI_SAMPLERS and all(_SMI_SAMPLE_OPTIONS.match(a) for a in args):
        return None
    return _DATA_TOOLS["nvidia-smi"](cmd, ctx)


def _script_split(cmd: Cmd) -> tuple[list[str], Finding | None]:
    """The script and its arguments, after the launcher's own options; or why it asks."""
    args = cmd.args()
    valued = _LAUNCH_VALUED[cmd.name]
    index = 1 if cmd.name == "accelerate" else 0
    while index < len(args):
        name, _, joined = args[index].partition("=")
        if not name.startswith("-"):
            return list(args[index:]), None
        if name in _LAUNCH_FLAGS:
            index += 1
            continue
        if name not in valued:
            return [], unknown_program(f"{cmd.name} {name}", " (it may join other machines)")
        value = joined or (args[index + 1] if index + 1 < len(args) else "")
        if name in _ONE_MACHINE and value != "1":
            return [], unknown_program(f"{cmd.name} {name} {value}", " (a job of several hosts)")
        index += 1 if joined else 2
    return [], unknown_program(cmd.name, " (no script given)")


def _launch_shape(cmd: Cmd, ctx: Context) -> Finding | None:
    if cmd.name == "accelerate" and cmd.args()[:1] in (("env",), ("--version",)):
        return None
    if (cmd.name == "accelerate" and cmd.args()[:1] != ("launch",)) or any(cmd.dynamic):
        return unknown_program(" ".join(cmd.argv[:2]), " (beyond launching a script)")
    script, why = _script_split(cmd)
    if why is not None:
        return why
    files = [option_value(cmd.args(), (f,)) for f in _LAUNCH_FILES]
    for path in [f for f in files if f is not None] + script[:1]:
        if not script[0].endswith(".py") or not inside(path, ctx):
            return unknown_program(cmd.name, f" (it runs {path!r}, not a script of the project)")
    return None


def _launched(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """The script a launcher starts is analysed as ``python SCRIPT …``."""
    if cmd.name == "accelerate" and cmd.args()[:1] != ("launch",):
        return
    script, why = _script_split(cmd)
    if why is None and script and not any(cmd.dynamic):
        yield Nested(shlex.join(["python", *script]))


VOUCHERS: dict[str, Voucher] = {
    "ollama": _ollama,
    "shuf": _shuf,
    "nvidia-smi": _nvidia_smi,
    "accelerate": _launch_shape,
    "torchrun": _launch_shape,
}
HANDLERS: dict[str, Handler] = {"accelerate": _launched, "torchrun": _launched}
