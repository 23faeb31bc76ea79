"""A compute cluster: Slurm jobs, environment modules, Apptainer containers, node fan-out and
the shared storage every user of the cluster works in.

``srun ./build/mpi_hello`` and ``sbatch job.sh`` run the project's own program on the
cluster's nodes, which share the workspace: they are judged as the program they run (a job
left queued runs later, so its destruction is denied as any delayed one). ``scancel JOBID``
cancels one's own job by its number; ``module load``/``avail`` change only the shell's own
variables from the cluster's modulefiles; ``apptainer build``/``exec`` of an image in the
workspace, with only workspace folders bound, is the project's code like a Dockerfile.

Denied, because they reach other users' work: a ``scancel`` chosen by state, partition or a
listing of the whole queue (every user's jobs, unless ``--me``/``-u $USER`` narrows it); a job
array of thousands of tasks with no throttle, which takes the cluster at once; a recursive
delete of a shared storage root (``rm -rf /scratch/*``) or an ``rsync --delete`` onto a
shared project folder; a node fan-out (``pdsh -w node[001-512]``) that stops services or
shuts the nodes down; and a container given the host's root or key trees.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from workset.safety import paths
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    Voucher,
    deny_finding,
    parse_flags,
    requote,
    unknown_program,
)
from workset.safety.rules.confinement import inside, outside

# Slurm options that take a value when written as a separate word.
_SLURM_VALUES = frozenset({"-p", "--partition", "-N", "--nodes", "-n", "--ntasks", "-t",
                           "--time", "-c", "--cpus-per-task", "-J", "--job-name", "-o",
                           "--output", "-e", "--error", "-i", "--input", "-A", "--account",
                           "-q", "--qos", "-w", "--nodelist", "-x", "--exclude", "-C",
                           "--constraint", "-G", "--gpus", "--gres", "--mem", "--mem-per-cpu",
                           "--mem-per-gpu", "-D", "--chdir", "-d", "--dependency", "-a",
                           "--array", "--ntasks-per-node", "--export", "--mpi", "--wrap",
                           "--reservation", "--cpu-bind", "-m", "--distribution",
                           "--gpus-per-node", "--gpus-per-task", "--cpus-per-gpu", "-b",
                           "--begin", "--mail-type", "--mail-user", "--signal",
                           "--comment", "-L", "--licenses", "--nice", "-W", "--wait"})  # fmt: skip
_SLURM_PLACES = frozenset({"-o", "--output", "-e", "--error", "-i", "--input", "-D",
                           "--chdir"})  # fmt: skip


def _slurm(args: Sequence[str]) -> tuple[dict[str, str], list[str], int]:
    """Slurm's options (the last value of each), the program and its words, and the index in
    ``args`` where the program starts."""
    options: dict[str, str] = {}
    index = 0
    while index < len(args) and args[index].startswith("-"):
        word = args[index]
        name, equals, value = word.partition("=")
        if not equals and name in _SLURM_VALUES and index + 1 < len(args):
            value = args[index + 1]
            index += 1
        elif not equals and re.fullmatch(r"-[a-zA-Z]\S+", word) and word[:2] in _SLURM_VALUES:
            name, value = word[:2], word[2:]  # -N1, -n4, -pdebug
        options[name] = value
        index += 1
    return options, list(args[index:]), index


def _places(cmd: Cmd, ctx: Context, options: dict[str, str]) -> Finding | None:
    far = next((v for o, v in options.items() if o in _SLURM_PLACES and not inside(v, ctx)),
               None)  # fmt: skip
    return outside(far, cmd.name) if far is not None else None


# A job this small is the size of a test run; beyond it, it spends a share of the cluster.
_SMALL_NODES, _SMALL_GPUS, _SMALL_HOURS = 2, 4, 24


def _large(options: dict[str, str]) -> str | None:
    """What makes the job large: many nodes or GPUs, whole nodes, or days of run time."""
    nodes = max((int(n) for n in re.findall(r"\d+", options.get("--nodes", options.get("-N",
                                                                                      "1")))),
                default=1)  # fmt: skip
    gpus = sum(int(g) for g in re.findall(r"(?:gpu|^)(?::[\w-]+)?:?(\d+)$",
                                           options.get("--gres", "") or "")) + sum(
        int(g) for g in re.findall(r"(\d+)$", options.get("--gpus", options.get("-G", "")))
    )  # fmt: skip
    hours = _hours(options.get("--time", options.get("-t", "")))
    if nodes > _SMALL_NODES:
        return f"{nodes} nodes"
    if gpus * nodes > _SMALL_GPUS:
        return f"{gpus * nodes} GPUs"
    if "--exclusive" in options:
        return "whole nodes (--exclusive)"
    if hours > _SMALL_HOURS:
        return f"{hours:.0f} hours"
    return None


def _hours(spec: str) -> float:
    """Slurm's time limits: minutes, MM:SS, HH:MM:SS, D-HH[:MM[:SS]]."""
    days, _, rest = spec.rpartition("-") if "-" in spec else ("0", "", spec)
    parts = [int(p) for p in rest.split(":") if p.isdigit()]
    if not days.isdigit() or not parts:
        return 0.0
    if "-" in spec:
        hours = parts[0] + (parts[1] / 60 if len(parts) > 1 else 0)
    elif len(parts) == 3:
        hours = parts[0] + parts[1] / 60
    else:
        hours = parts[0] / 60
    return int(days) * 24 + hours


def srun(cmd: Cmd, ctx: Context) -> Finding | None:
    """``srun -p debug -N1 -n4 ./build/mpi_hello``: the program (judged in turn) on a few of
    the cluster's nodes, in the foreground, its output in the workspace."""
    options, program, _ = _slurm(cmd.args())
    large = _large(options)
    if large is not None:
        return unknown_program(f"srun for {large}", " (a large share of the shared cluster)")
    return _places(cmd, ctx, options) or (
        None if program else unknown_program("srun", " (no program given)")
    )


def sbatch(cmd: Cmd, ctx: Context) -> Finding | None:
    """``sbatch job.sh``: queued to run later, unattended, on the group's shared allocation;
    what it runs is not seen now, so it asks (the harms it carries are judged in HANDLERS)."""
    return unknown_program("sbatch", " (it queues a job that runs later, unattended, on the "
                           "cluster's shared allocation)")  # fmt: skip


def slurm_runs(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    options, program, _ = _slurm(cmd.args())
    array = options.get("--array", options.get("-a", ""))
    tasks = _array_size(array)
    if tasks > 1000 and "%" not in array:
        yield deny_finding(
            "cluster-flood",
            f"{cmd.name} --array={array} queues {tasks} tasks with no limit on how many run at "
            "once, which takes the shared cluster from every other user",
            "throttle the array (--array=1-N%50) or ask the user",
        )
    if cmd.name == "srun" and program:
        yield Nested(requote(program))
    elif "--wrap" in options:
        yield Nested(options["--wrap"], later=True)


def _array_size(spec: str) -> int:
    total = 0
    for part in spec.split("%", 1)[0].split(","):
        bounds = re.fullmatch(r"(\d+)-(\d+)(?::(\d+))?", part)
        if bounds:
            step = int(bounds.group(3) or 1) or 1
            total += (int(bounds.group(2)) - int(bounds.group(1))) // step + 1
        elif part.isdigit():
            total += 1
    return total


_JOB_ID = re.compile(r"^\d+([_.]\d+|_\[[\d,-]+\])?$")
# scancel's options that choose jobs by something other than their number.
_SCANCEL_FILTERS = frozenset({"-t", "--state", "-p", "--partition", "-n", "--name", "--jobname",
                              "-A", "--account", "-q", "--qos", "-R", "--reservation", "-w",
                              "--nodelist", "--wckey", "-M", "--clusters"})  # fmt: skip
_OWN_USER = re.compile(r"^\$\{?(USER|LOGNAME)\}?$|^\$\((whoami|id -un)\)$")


def _users(args: Sequence[str]) -> list[str]:
    found = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-u", "--user")]
    return found + [a.split("=", 1)[1] for a in args if a.startswith("--user=")]


def scancel(cmd: Cmd, ctx: Context) -> Finding | None:
    """``scancel 482913``: one's own job, by its number."""
    args = cmd.args()
    ids = [(i, a) for i, a in enumerate(args, 1) if not a.startswith("-")]
    if ids and all(_JOB_ID.match(a) and not cmd.is_dynamic(i) for i, a in ids) and all(
        a in ("-v", "--verbose", "-Q", "--quiet", "-i", "--interactive") for a in args
        if a.startswith("-")
    ):  # fmt: skip
        return None
    return unknown_program("scancel", " (it cancels jobs chosen by a filter or a listing)")


def scancel_others(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``scancel --state=PENDING -p gpu``, ``squeue -h -o %i | xargs scancel``: every user's
    jobs that match, not only one's own."""
    args = cmd.args()
    own = "--me" in args or any(_OWN_USER.match(u) for u in _users(args))
    filtered = any(a.split("=", 1)[0] in _SCANCEL_FILTERS for a in args)
    listing = [
        c
        for c in (*cmd.upstream, *(c for i in range(len(cmd.argv)) for c in cmd.inner_of(i)))
        if c.name == "squeue"
    ]
    whole_queue = any(
        not ({"--me", "-u", "--user", "-j", "--jobs"} & {a.split("=", 1)[0] for a in c.args()})
        for c in listing
    )
    if not own and (filtered or whole_queue):
        yield deny_finding(
            "cancel-others-jobs",
            "scancel chooses jobs by "
            + ("a listing of the whole queue" if whole_queue else "state, partition or name")
            + ", which cancels every user's matching jobs on the shared cluster",
            "cancel your own jobs by number, or add --me",
        )


# module's verbs that only list, show or change the shell's own environment variables.
_MODULE_VERBS = frozenset({"avail", "av", "list", "li", "spider", "show", "display", "whatis",
                           "help", "keyword", "key", "load", "add", "unload", "rm", "del",
                           "purge", "swap", "switch", "sw", "restore", "savelist", "is-loaded",
                           "is-avail", "overview", "ov", "reload", "refresh", "--version",
                           "describe", "-t", "--terse", "-l", "--long"})  # fmt: skip


def module(cmd: Cmd, ctx: Context) -> Finding | None:
    """``module load gcc/12.2 openmpi``, ``module avail cuda``, ``ml list``: the cluster's
    modulefiles set variables of this shell; ``module use DIR`` must name the workspace."""
    args = [a for a in cmd.args() if a not in ("-q", "--quiet", "-t", "--terse")]
    verb = args[0] if args else "list"
    if cmd.name == "ml" and (not args or verb not in _MODULE_VERBS | {"use"}):
        return None  # ml gcc: load; ml alone: list
    if verb in _MODULE_VERBS:
        return None
    if verb == "use" and all(paths.in_workspace(ctx.resolve(a), ctx.workspace)
                             for a in args[1:] if not a.startswith("-")):  # fmt: skip
        return None
    return unknown_program(f"{cmd.name} {verb}", " (it saves collections or adds modulefiles "
                           "from elsewhere)")  # fmt: skip


# Apptainer/Singularity options: flags, and options with a value.
_APPTAINER_FLAGS = frozenset({"--nv", "--rocm", "-e", "--cleanenv", "-c", "--contain", "-C",
                              "--containall", "--no-home", "--fakeroot", "-f", "-w",
                              "--writable", "--writable-tmpfs", "--compat", "--nvccli",
                              "--no-privs", "-u", "--userns", "--force", "-F", "--notest",
                              "--disable-cache", "-s", "--sandbox", "-q", "--quiet",
                              "--no-https"})  # fmt: skip
_APPTAINER_VALUES = frozenset({"-B", "--bind", "--mount", "--pwd", "--env", "--env-file",
                               "-H", "--home", "--no-mount", "--app", "-W", "--workdir",
                               "--build-arg", "--build-arg-file"})  # fmt: skip
_REGISTRY = re.compile(r"^(docker|library|shub|oras|docker-daemon|docker-archive|https?)://")


def _apptainer(args: Sequence[str]) -> tuple[list[str], list[str], str | None]:
    """The host sides of the binds, the words after the options, and the first unknown
    option (None when every option is known)."""
    binds: list[str] = []
    index = 0
    while index < len(args) and args[index].startswith("-"):
        name, equals, value = args[index].partition("=")
        if name in _APPTAINER_FLAGS:
            index += 1
            continue
        if name not in _APPTAINER_VALUES or (not equals and index + 1 >= len(args)):
            return binds, [], name
        if not equals:
            index += 1
            value = args[index]
        if name in ("-B", "--bind"):
            binds += [b.split(":", 1)[0] for b in value.split(",") if b]
        elif name in ("--mount", "-H", "--home", "--env-file", "-W", "--workdir"):
            source = re.search(r"(?:src|source)=([^,]+)", value)
            binds.append(source.group(1) if source else value.split(":", 1)[0])
        index += 1
    return binds, list(args[index:]), None


def apptainer(cmd: Cmd, ctx: Context) -> Finding | None:
    """``apptainer build --fakeroot x.sif x.def``, ``singularity exec --nv -B $PWD:/w x.sif
    python /w/train.py``: an image of the workspace, seeing only workspace folders."""
    args = cmd.args()
    verb = args[0] if args else ""
    if verb in ("version", "help", "inspect", "search", "verify", "sif") or (
        verb == "cache" and args[1:2] == ("list",)
    ):
        return None
    binds, rest, unknown = _apptainer(args[1:])
    if unknown is not None:
        return unknown_program(f"{cmd.name} {verb} {unknown}", " (an option not known to keep "
                               "the container confined)")  # fmt: skip
    far = next((b for b in binds if not inside(b, ctx)), None)
    if far is not None:
        return outside(far, f"{cmd.name} {verb} --bind")
    if verb in ("build", "pull") and rest:
        source_ok = len(rest) < 2 or _REGISTRY.match(rest[1]) or inside(rest[1], ctx)
        return None if inside(rest[0], ctx) and source_ok else outside(rest[0], cmd.name)
    if verb in ("exec", "run", "test", "shell") and rest:
        image = rest[0]
        if not _REGISTRY.match(image) and paths.in_workspace(ctx.resolve(image), ctx.workspace):
            return None  # what it runs inside is judged in turn (HANDLERS)
        return unknown_program(f"{cmd.name} {verb} {image}", " (an image from a registry or "
                               "outside the workspace runs its own code)")  # fmt: skip
    return unknown_program(f"{cmd.name} {verb}".strip())


def apptainer_harms(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    binds, rest, _ = _apptainer(args[1:])
    host = next((b for b in binds if paths.is_protected(paths.normalize(ctx.resolve(b)))), None)
    if host is not None:
        yield deny_finding(
            "container-host-mount",
            f"{cmd.name} binds the host's {host} into a container",
            "that gives the container the whole machine or its keys; bind only a workspace folder",
        )
        return
    if args[:1] and args[0] in ("exec", "run") and len(rest) > 1 and not _REGISTRY.match(rest[0]):
        mapped = [_unbound(w, args[1:], ctx) for w in rest[1:]]
        yield Nested(requote(mapped), deny_only=True)


def _unbound(word: str, options: Sequence[str], ctx: Context) -> str:
    """A path inside the container written as the workspace folder bound there."""
    for index, option in enumerate(options[:-1]):
        if option not in ("-B", "--bind"):
            continue
        for bind in options[index + 1].split(","):
            host, _, inner = bind.partition(":")
            inner = inner.split(":", 1)[0]
            if inner.startswith("/") and (word == inner or word.startswith(inner + "/")):
                return host + word[len(inner) :]
    return word


# The roots of a cluster's shared file systems: every user's data lies under them.
_SHARED_ROOTS = frozenset({"scratch", "projects", "project", "lustre", "gpfs", "shared",
                           "nobackup", "group", "groups"})  # fmt: skip
_PROJECT_ROOTS = frozenset({"projects", "project", "shared", "group", "groups"})


def shared_storage(place: str) -> bool:
    """``/scratch``, ``/scratch/*``, ``/projects/climate``: a shared root, everyone's folders
    under it, or a whole group project."""
    parts = place.rstrip("/").strip("/").split("/")
    if not place.startswith("/") or parts[0] not in _SHARED_ROOTS or len(parts) > 2:
        return False
    return len(parts) == 1 or parts[1] == "*" or (parts[0] in _PROJECT_ROOTS and "$" not in
                                                  parts[1])  # fmt: skip


def shared_delete(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``rm -rf /scratch/*``, ``rsync -a --delete out/ hpc:/projects/climate/``."""
    flags, operands = parse_flags(cmd.args())
    if cmd.name == "rm" and flags & {"r", "R", "--recursive"}:
        hit = next((w for i, w in operands if not cmd.is_dynamic(i) and shared_storage(w)), None)
    elif cmd.name == "rsync" and any(f.startswith("--delete") for f in flags) and operands:
        target = operands[-1][1]
        host, colon, place = target.partition(":")
        hit = target if colon and "/" not in host and shared_storage(place) else None
    else:
        return
    if hit is not None:
        yield deny_finding(
            "shared-storage-delete",
            f"{cmd.name} deletes across {hit}, the cluster's shared storage, where other users' "
            "and the group's data lie",
            "delete or sync only your own folder under it, named explicitly",
        )


_FANOUT = ("pdsh", "clush", "pssh", "parallel-ssh")
_NODE_STOP = re.compile(r"\b(systemctl\s+(\S+\s+)*(stop|disable|mask|kill|isolate|poweroff|"
                        r"reboot|halt)|service\s+\S+\s+stop|shutdown|reboot|poweroff|halt|"
                        r"init\s+[06]|scontrol\s+(shutdown|reboot))\b")  # fmt: skip


def fanout(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``pdsh -w node[001-512] 'CMD'``: CMD runs on every node listed, judged as it is."""
    args = cmd.args()
    index = 0
    hosts = ""
    while index < len(args) and args[index].startswith("-"):
        if args[index] in ("-w", "-g", "-x", "-H", "-h", "-l", "-f", "-t", "-u", "-R", "-p",
                           "-O", "-o", "-e") and index + 1 < len(args):  # fmt: skip
            hosts += args[index + 1] if args[index] in ("-w", "-g", "-H", "-h") else ""
            index += 2
        else:
            hosts += "*" if args[index] in ("-a", "--all") else ""
            index += 1
    remote = " ".join(args[index:])
    many = bool(re.search(r"[\[*,]", hosts)) or "-g" in args
    if remote and many and _NODE_STOP.search(remote):
        yield deny_finding(
            "fleet-stop",
            f"{cmd.name} runs '{remote[:60]}' on every node of {hosts or 'the group'} at once, "
            "which stops the cluster's services or its machines for everyone",
            "ask the cluster's administrators",
        )
    elif remote:
        yield Nested(remote)


VOUCHERS: dict[str, Voucher] = {
    "srun": srun,
    "sbatch": sbatch,
    "scancel": scancel,
    "module": module,
    "ml": module,
    **{n: apptainer for n in ("apptainer", "singularity")},
}
HANDLERS: dict[str, Handler] = {
    **{n: slurm_runs for n in ("srun", "sbatch")},
    "scancel": scancel_others,
    **{n: apptainer_harms for n in ("apptainer", "singularity")},
    **{n: shared_delete for n in ("rm", "rsync")},
    **{n: fanout for n in _FANOUT},
}
