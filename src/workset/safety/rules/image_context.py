"""Images built from secrets, and where they go.

``docker build ~`` sends the whole home (keys, cloud credentials, history) to the engine as
the build context, and a ``COPY . …`` bakes it into the image; ``--build-arg
NPM_TOKEN=$NPM_TOKEN`` leaves the token in the image's history. Either build asks; pushing
such an image to a registry (``--push``, or a later ``docker push`` of the tag it built) is an
upload of the secrets, and is denied. Builds of the workspace (``docker build -t app .``)
with plain arguments are untouched.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Handler, Result
from workset.safety.rules.base import ask_finding as _ask
from workset.safety.rules.base import deny_finding as _deny
from workset.safety.rules.confinement import subcommand
from workset.safety.rules.secrets import in_key_tree, is_secret, secret_variables

_VALUED = frozenset({"-t", "--tag", "-f", "--file", "--build-arg", "--target", "--platform",
                     "--label", "--secret", "--ssh", "-o", "--output", "--cache-from",
                     "--cache-to", "--network", "--progress", "--iidfile", "--add-host",
                     "--build-context", "--builder", "--metadata-file", "--shm-size", "-m",
                     "--memory", "--ulimit", "--annotation", "--attest"})  # fmt: skip
_SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE_KEY|CREDENTIAL", re.I)
# Folders above every secret of the user: the home itself, all homes, the root.
_WHOLE = frozenset({"~", "/", "/home", "/Users", "/root"})


def _tags(rest: tuple[str, ...]) -> list[str]:
    tags = [rest[i + 1] for i, a in enumerate(rest[:-1]) if a in ("-t", "--tag")]
    return tags + [a.split("=", 1)[1] for a in rest if a.startswith("--tag=")]


def _repository(image: str) -> str:
    """``host:5000/team/app:1.2`` without its tag: ``host:5000/team/app``."""
    head, _, last = image.rpartition("/")
    return f"{head}/{last.split(':', 1)[0]}" if head else last.split(":", 1)[0]


def _context(rest: tuple[str, ...]) -> str | None:
    operands = [a for i, a in enumerate(rest) if not a.startswith("-")
                and not (i and rest[i - 1] in _VALUED)]  # fmt: skip
    return operands[-1] if operands else None


def holds_secrets(word: str, ctx: Context) -> bool:
    """``word`` is the home, a folder above it, or a tree of keys (``~/.ssh``)."""
    place = paths.normalize(ctx.resolve(word)).rstrip("/") or "/"
    home = place.count("/") == 2 and place.startswith(("/home/", "/Users/"))
    return place in _WHOLE or home or in_key_tree(place) or is_secret(place)


def image_build(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    sub, rest = subcommand(cmd)
    if sub in ("buildx", "image", "builder") and rest:
        sub, rest = rest[0], rest[1:]
    if sub in ("build", "bud"):
        context = _context(rest)
        baked = _secret_arguments(rest)
        if context is not None and holds_secrets(context, ctx):
            what = context
            yield _ask("secret-context", f"{cmd.name} build sends {context}, a folder that "
                       "holds keys and credentials, to the engine as the build context",
                       "build from the workspace, with a .dockerignore")  # fmt: skip
        elif baked:
            what = f"a build argument holding {baked[0]}"
            yield _ask("secret-build-arg", f"{cmd.name} build bakes {baked[0]} into the "
                       "image, where its history shows it", "pass it with --secret")  # fmt: skip
        else:
            return
        ctx.secret_images.update(_repository(t) for t in _tags(rest))
        if "--push" in rest or any("type=registry" in a or "push=true" in a for a in rest):
            yield _pushed(cmd, what)
    elif sub == "push" and rest:
        image = [a for a in rest if not a.startswith("-")][-1:]
        if image and _repository(image[0]) in ctx.secret_images:
            yield _pushed(cmd, image[0])


def _secret_arguments(rest: tuple[str, ...]) -> list[str]:
    """The credentials ``--build-arg`` values carry (``$NPM_TOKEN``, ``AWS_SECRET…=$X``)."""
    values = [rest[i + 1] for i, a in enumerate(rest[:-1]) if a == "--build-arg"]
    values += [a.split("=", 1)[1] for a in rest if a.startswith("--build-arg=")]
    return [v for value in values for v in secret_variables(value)
            or ([value.split("=", 1)[0]] if _SECRET_NAME.search(value.split("=", 1)[0])
                else [])]  # fmt: skip


def _pushed(cmd: Cmd, what: str) -> Result:
    return _deny(
        "secret-image-pushed",
        f"{cmd.name} pushes an image built from {what} (keys or credentials) to a registry: "
        "an upload of them",
        "build from the workspace, with a .dockerignore, and pass secrets with --secret",
    )


HANDLERS: dict[str, Handler] = {n: image_build for n in ("docker", "podman", "nerdctl",
                                                         "buildah")}  # fmt: skip
