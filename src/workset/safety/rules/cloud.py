"""Rules for infrastructure as code (``terraform``, ``tofu``, ``terragrunt``, ``pulumi``) and
the cloud CLIs (``aws``, ``gcloud``, ``gsutil``, ``az``).

Plans, previews and reads pass, and so do simulations (``aws s3 rm --dryrun``, ``aws ec2
--dry-run``). What destroys at once is denied: ``destroy``, forgetting every resource of the
state, recursive removal from cloud storage, deleting buckets, projects, resource groups,
stacks, tables or database instances. Every other change asks. A copy from cloud storage
into the workspace (``aws s3 cp s3://b/seed.sql ./tmp/``, ``gcloud storage cp gs://…
./fixtures/``) only reads the bucket, like ``curl -o`` of a page; a move deletes the object,
so it still asks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result, option_value
from workset.safety.rules.base import ask_finding as _ask
from workset.safety.rules.base import deny_finding as _deny
from workset.safety.rules.confinement import inside
from workset.safety.rules.known import subcommand
from workset.safety.rules.listings import fed_whole_listing
from workset.safety.rules.loopback import LOCAL_URL

_IAC_READS = frozenset({"plan", "validate", "fmt", "show", "output", "graph", "providers",
                        "version", "-version", "--version", "console", "workspace",
                        "preview", "stack", "config", "whoami", "about", "logs", "init",
                        "get"})  # fmt: skip


def _iac(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    sub, rest = subcommand(cmd)
    destroys = sub == "destroy" or (sub == "apply" and any(a in ("-destroy", "--destroy")
                                                           for a in rest))  # fmt: skip
    if destroys and _scratch_env(cmd.args()):
        yield _ask("infra-change", f"{cmd.name} {sub} destroys a preview or test environment")
    elif destroys:
        yield _deny(
            "infra-destroy",
            f"{cmd.name} {sub} destroys the infrastructure it manages",
            "run plan and show the result to a human; an agent never destroys infrastructure",
        )
    elif (
        sub == "state"
        and rest[:1] == ("rm",)
        and fed_whole_listing(cmd, lambda c: c.name == cmd.name and subcommand(c)[0] == "state")
    ):
        yield _deny(
            "infra-destroy",
            f"{cmd.name} state rm of everything state list prints forgets every resource it "
            "manages, which then runs on unmanaged or is made twice",
            "remove the one address you mean, or ask the owner",
        )
    elif sub == "state" and rest[:1] and rest[0] not in ("list", "show", "pull"):
        yield _ask("infra-change", f"{cmd.name} state {rest[0]} edits the state by hand")
    elif sub == "state" and rest[:1] == ("pull",):
        yield Finding(
            "secret-read",
            "ask",
            f"{cmd.name} state pull prints the whole state, sensitive values in plain text; a "
            "human must confirm, and secrets never belong in the agent's context",
        )
    elif sub == "state" and rest[:1]:
        return  # terraform state list/show: reads the resources it manages
    elif sub == "workspace" and rest[:1] and rest[0] not in ("list", "show", "select"):
        yield _ask("infra-change", f"{cmd.name} workspace {rest[0]} changes the state's workspaces")
    elif sub == "init" and any(a.startswith(("-from-module", "--from-module")) for a in rest):
        yield _ask("infra-init", f"{cmd.name} init -from-module copies in a module from elsewhere")
    elif sub not in _IAC_READS:
        yield _ask("infra-change", f"{cmd.name} {sub} changes real infrastructure".strip())


_SCRATCH_ENV = re.compile(r"(^|[^a-z])(preview|pr-?\d+|review|ephemeral|sandbox|dev|test|ci|"
                          r"e2e|tmp|scratch|feature)([^a-z]|$)", re.I)  # fmt: skip
_LIVE_ENV = re.compile(r"prod|live|main|master|shared|global|core", re.I)


def _scratch_env(args: tuple[str, ...]) -> bool:
    """The words name only a preview or test environment (``-chdir=infra/preview``,
    ``-target=module.preview_env``) and nothing that sounds live."""
    named = [a for a in args if a.startswith(("-chdir", "-target", "-var-file", "--stack"))
             or not a.startswith("-")]  # fmt: skip
    return any(_SCRATCH_ENV.search(a) for a in named) and not any(_LIVE_ENV.search(a) for a in args)


_CLOUD_READ = re.compile(r"^(describe|list|get|show|ls|head|cat|du|stat|version|help|whoami|"
                         r"read|query|tail|filter-log-events|lookup-events|what-if|validate)"
                         r"([-_].*)?$|^(--version|sts|configure)$")  # fmt: skip
_CLOUD_DESTROY = re.compile(
    r"^(delete-(db-instance|db-cluster|bucket|stack|table|cluster|file-system|repository|"
    r"vault|key|user-pool|stream|delivery-stream|log-group)|terminate-instances|rb|"
    r"schedule-key-deletion|purge-queue)$"
)


# aws's global options that take a value (``--region us-east-1 s3 ls``): not the service.
_AWS_VALUED = frozenset({"--region", "--profile", "--endpoint-url", "--output", "--query",
                         "--color", "--ca-bundle", "--cli-read-timeout",
                         "--cli-connect-timeout", "--cli-binary-format"})  # fmt: skip


def _aws(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    words = [a for i, a in enumerate(args) if not a.startswith("-")
             and (i == 0 or args[i - 1] not in _AWS_VALUED)]  # fmt: skip
    endpoint = option_value(args, ("--endpoint-url",))
    if endpoint is not None and LOCAL_URL.match(endpoint):
        return  # --endpoint-url http://localhost:4566: a local emulator (LocalStack, MinIO)
    service = words[0] if words else ""
    action = words[1] if len(words) > 1 else ""
    flags = set(cmd.args())
    if (service == "s3" and "--dryrun" in flags and action in ("cp", "mv", "rm", "sync")) or (
        service == "ec2" and "--dry-run" in flags
    ):
        return  # aws s3 rm --recursive --dryrun lists what it would delete; ec2 checks rights
    if service == "s3" and action == "rm" and ({"--recursive"} & flags):
        yield _deny(
            "cloud-storage-wipe",
            "aws s3 rm --recursive deletes every object under the prefix",
            "delete the objects you created, by name, or ask the owner",
        )
    elif service == "s3" and action == "rb" and "--force" in flags:
        yield _deny(
            "cloud-storage-wipe",
            "aws s3 rb --force deletes a bucket and all it holds",
            "an agent never deletes buckets; ask the owner",
        )
    elif _CLOUD_DESTROY.match(action):
        yield _deny(
            "cloud-destroy",
            f"aws {service} {action} destroys a resource and its data",
            "ask the account's owner to do it",
        )
    elif service == "s3" and action in ("sync", "cp", "mv") and "--delete" in flags:
        yield _ask("cloud-storage-change", f"aws s3 {action} --delete removes objects")
    elif service == "s3" and action in ("cp", "sync") and _downloads(words[2:], ctx):
        return
    elif service == "s3" and action in ("cp", "sync", "mv") and _uploads(words[2:]):
        yield _ask("upload", f"aws s3 {action} uploads local files to cloud storage")
    elif service == "ssm" and action.startswith("get-parameter") and not _decrypts(flags):
        return  # a SecureString comes back as ciphertext unless --with-decryption is given
    elif re.search(r"secret|ssm$", service) and re.match(r"get-(secret-value|parameters?)", action):
        yield _ask("secret-read", f"aws {service} {action} reads stored secrets")
    elif service in ("sts", "configure") and action in ("", "list", "get", "get-caller-identity"):
        return
    elif not _CLOUD_READ.match(action or "x"):
        yield _ask("cloud-change", f"aws {service} {action} changes cloud resources".strip())


def _decrypts(flags: set[str]) -> bool:
    return any(f.startswith("--with-decryption") for f in flags)


def _uploads(operands: list[str]) -> bool:
    return len(operands) >= 2 and "://" not in operands[0] and "://" in operands[-1]


def _downloads(operands: list[str], ctx: Context) -> bool:
    """One bucket's object or prefix copied to a place inside the workspace (remembered as a
    download: running it later in the line is judged as running a download)."""
    copied = (
        len(operands) == 2
        and re.match(r"^(s3|gs)://[\w.-]+", operands[0]) is not None
        and "://" not in operands[1]
        and inside(operands[1], ctx)
    )
    if copied:
        ctx.downloaded.update({operands[1], operands[1].removeprefix("./")})
    return copied


def _gsutil(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a for a in cmd.args() if not a.startswith("-")]
    action = words[0] if words else ""
    flags = {a for a in cmd.args() if a.startswith("-")}
    if action == "rm" and (
        flags & {"-r", "-R", "-a", "-rf", "-fr"} or any("*" in w for w in words)
    ):
        yield _deny(
            "cloud-storage-wipe",
            "gsutil rm -r deletes everything under the path",
            "delete the objects you created, by name, or ask the owner",
        )
    elif action == "rb" or (action == "rsync" and "-d" in flags):
        yield _deny(
            "cloud-storage-wipe",
            f"gsutil {action} deletes buckets or objects",
            "ask the bucket's owner to do it",
        )
    elif action in ("cp", "rsync") and "-d" not in flags and _downloads(words[1:], ctx):
        return
    elif action in ("cp", "mv", "rsync") and _uploads(words[1:]):
        yield _ask("upload", f"gsutil {action} uploads local files to cloud storage")
    elif action not in ("ls", "cat", "du", "stat", "version", "help", "hash", "ls-l"):
        yield _ask("cloud-change", f"gsutil {action} changes cloud storage".strip())


# rclone's subcommands that delete on the destination (or wherever they point), and the
# remote form ``name:path`` (a configured remote; ``./a:b`` and ``/x:y`` are local paths).
_RCLONE_DELETES = frozenset({"purge", "delete", "deletefile", "rmdirs", "rmdir", "cleanup"})
_RCLONE_REMOTE = re.compile(r"^[A-Za-z0-9_][\w.-]*:")
# Other object-storage CLIs, and their deleting verbs: mc (MinIO), s3cmd, azcopy, b2.
_STORAGE_DELETES = {
    "mc": frozenset({"rm", "rb"}),
    "s3cmd": frozenset({"del", "rm", "rb", "deleteall"}),
    "azcopy": frozenset({"remove", "rm"}),
    "b2": frozenset({"delete-bucket", "rm", "delete-file-version"}),
}


def _rclone(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``rclone purge remote:bucket``: every object under a remote path deleted (also
    ``sync --delete-*``/``sync`` onto a remote, which deletes what the source lacks: asked)."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    action, operands = (words[0], words[1:]) if words else ("", [])
    remote = next((w for w in operands if _RCLONE_REMOTE.match(w)), None)
    if remote is None:
        return  # local paths only: rules.known_tools judges where they point
    if action in _RCLONE_DELETES:
        yield _deny(
            "cloud-storage-wipe",
            f"rclone {action} {remote} deletes what the remote holds there, beyond recovery",
            "delete the objects you created, by name, or ask the owner",
        )
    elif action == "sync" and _RCLONE_REMOTE.match(operands[-1]) and "--dry-run" not in cmd.args():
        yield _ask("cloud-storage-change",
                   f"rclone sync onto {operands[-1]} deletes what the source lacks")  # fmt: skip


def _object_storage(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a for a in cmd.args() if not a.startswith("-")]
    flags = set(cmd.args())
    if words and words[0] in _STORAGE_DELETES[cmd.name]:
        recursive = flags & {"-r", "--recursive", "--force", "-rf", "--recursive=true"}
        if recursive or words[0] in ("rb", "delete-bucket", "deleteall"):
            yield _deny(
                "cloud-storage-wipe",
                f"{cmd.name} {words[0]} deletes buckets or everything under a path",
                "delete the objects you created, by name, or ask the owner",
            )
        else:
            yield _ask("cloud-storage-change", f"{cmd.name} {words[0]} deletes stored objects")


def _gcloud(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a for a in cmd.args() if not a.startswith("-")]
    verb = next((w for w in words if _CLOUD_READ.match(w) or w in ("delete", "create",
                 "update", "deploy", "set", "add-iam-policy-binding")), "")  # fmt: skip
    if "delete" in words and (words[:1] in (["projects"], ["sql"]) or "--quiet" in cmd.args()):
        yield _deny(
            "cloud-destroy",
            f"gcloud {' '.join(words)} deletes a project or database",
            "ask the project's owner to do it",
        )
    elif words[:2] == ["storage", "rm"] and ({"--recursive", "-r", "-R"} & set(cmd.args())
                                             or any("*" in w for w in words[2:])):  # fmt: skip
        yield _deny(
            "cloud-storage-wipe",
            "gcloud storage rm --recursive deletes a whole tree",
            "delete the objects you created, by name",
        )
    elif words[:2] == ["storage", "cp"] and _downloads(words[2:], ctx):
        return
    elif not verb or not _CLOUD_READ.match(verb):
        yield _ask("cloud-change", f"gcloud {' '.join(words[:3])} changes cloud resources")


def _az(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a for a in cmd.args() if not a.startswith("-")]
    batch = words[:1] == ["storage"] and any(w in ("delete-batch", "purge") for w in words)
    if batch:
        yield _deny(
            "cloud-storage-wipe",
            f"az {' '.join(words[:3])} deletes every blob or file that matches, a whole tree",
            "delete the blobs you created, by name",
        )
    elif words[:2] == ["group", "delete"] or (words[-1:] == ["delete"] and words[:1] in
                                               (["sql"], ["cosmosdb"], ["storage"])):  # fmt: skip
        yield _deny(
            "cloud-destroy",
            f"az {' '.join(words)} deletes a resource group or its data",
            "ask the subscription's owner to do it",
        )
    elif not any(_CLOUD_READ.match(w) for w in words[1:]) and words[:1] != ["account"]:
        yield _ask("cloud-change", f"az {' '.join(words[:3])} changes cloud resources")


HANDLERS: dict[str, Handler] = {
    **{n: _iac for n in ("terraform", "tofu", "terragrunt", "pulumi")},
    "aws": _aws,
    "gsutil": _gsutil,
    "gcloud": _gcloud,
    "az": _az,
    "rclone": _rclone,
    **{n: _object_storage for n in _STORAGE_DELETES},
}
