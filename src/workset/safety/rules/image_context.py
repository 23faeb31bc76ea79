"""Images built from a folder that holds secrets, and where they go.

``docker build ~`` sends the whole home (keys, cloud credentials, history) to the engine as
the build context, and a ``COPY . …`` bakes it into the image; pushing that image to a
registry is an upload of the home. The build alone asks (it reads the folder, as the
secret-read rules say); a build with ``--push`` or a later ``docker push`` of the image it
tagged is denied. Builds of the workspace (``docker build -t app .``) are untouched.
"""

from __future__ import annotations

from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Handler, Result
from workset.safety.rules.base import deny_finding as _deny
from workset.safety.rules.confinement import subcommand
from workset.safety.rules.secrets import in_key_tree, is_secret

_VALUED = frozenset({"-t", "--tag", "-f", "--file", "--build-arg", "--target", "--platform",
                     "--label", "--secret", "--ssh", "-o", "--output", "--cache-from",
                     "--cache-to", "--network", "--progress", "--iidfile", "--add-host",
                     "--build-context", "--builder", "--metadata-file", "--shm-size", "-m",
                     "--memory", "--ulimit", "--annotation", "--attest"})  # fmt: skip
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
        if context is None or not holds_secrets(context, ctx):
            return
        ctx.secret_images.update(_repository(t) for t in _tags(rest))
        if "--push" in rest or any("type=registry" in a or "push=true" in a for a in rest):
            yield _pushed(cmd, context)
    elif sub == "push" and rest:
        image = [a for a in rest if not a.startswith("-")][-1:]
        if image and _repository(image[0]) in ctx.secret_images:
            yield _pushed(cmd, image[0])


def _pushed(cmd: Cmd, what: str) -> Result:
    return _deny(
        "secret-image-pushed",
        f"{cmd.name} pushes an image built from {what}, a folder that holds keys and "
        "credentials, to a registry: an upload of them",
        "build from the workspace, with a .dockerignore",
    )


HANDLERS: dict[str, Handler] = {n: image_build for n in ("docker", "podman", "nerdctl",
                                                         "buildah")}  # fmt: skip
