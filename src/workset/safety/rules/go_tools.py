"""``go install MODULE@VERSION`` of the Go toolchain's everyday tools, and their impostors.

``go install golang.org/x/tools/gopls@latest`` builds the Go team's language server into the
user's ``GOBIN``: it runs no code of a stranger (the module proxy and checksum database vouch
for the source) and only adds a program to the user's tool folder. Tools count when they come
from the Go project's own module paths (``golang.org/x/``, ``google.golang.org/``) or from the
short list of the tools every Go setup guide installs, by their real module paths. A module
elsewhere whose last part is one of those tools' names (``github.com/golang-rnd/gopls``) is an
impostor, denied as a typosquat is. Any option, a local path or no version still asks.
"""

from __future__ import annotations

import re

from workset.safety.rules.base import Cmd, Finding

_OWN = ("golang.org/x/", "google.golang.org/protobuf/cmd/", "google.golang.org/grpc/cmd/")
_KNOWN = {
    "honnef.co/go/tools/cmd/staticcheck": "staticcheck",
    "github.com/go-delve/delve/cmd/dlv": "dlv",
    "github.com/golangci/golangci-lint/cmd/golangci-lint": "golangci-lint",
    "github.com/golangci/golangci-lint/v2/cmd/golangci-lint": "golangci-lint",
    "mvdan.cc/gofumpt": "gofumpt",
    "gotest.tools/gotestsum": "gotestsum",
    "github.com/air-verse/air": "air",
    "go.uber.org/mock/mockgen": "mockgen",
    "github.com/golang/mock/mockgen": "mockgen",
    "github.com/swaggo/swag/cmd/swag": "swag",
    "github.com/sqlc-dev/sqlc/cmd/sqlc": "sqlc",
    "github.com/pressly/goose/v3/cmd/goose": "goose",
}
_OWN_TOOLS = frozenset({"gopls", "goimports", "govulncheck", "stringer", "gorename",
                        "protoc-gen-go", "protoc-gen-go-grpc", "deadcode"})  # fmt: skip
_MODULE = re.compile(r"^([a-z0-9.-]+\.[a-z]{2,}(/[\w.~-]+)+)@(latest|v?\d+[\w.+-]*)$")


def _modules(cmd: Cmd) -> list[str] | None:
    """The module paths ``go install`` is given, or None if it is not only modules@version."""
    if cmd.name != "go" or cmd.args()[:1] != ("install",) or any(cmd.dynamic):
        return None
    words = cmd.args()[1:]
    matches = [_MODULE.match(w) for w in words]
    if not words or not all(matches):
        return None
    return [m.group(1) for m in matches if m]


def official_tool(cmd: Cmd) -> bool:
    """Every module is the Go project's own or a listed tool's real path."""
    modules = _modules(cmd)
    return bool(modules) and all(m.startswith(_OWN) or m in _KNOWN for m in modules or ())


def impostor(cmd: Cmd) -> Finding | None:
    """A module named like an everyday Go tool from somewhere else."""
    tools = _OWN_TOOLS | set(_KNOWN.values())
    for module in _modules(cmd) or ():
        name = module.rstrip("/").rsplit("/", 1)[-1]
        if name in tools and not (module.startswith(_OWN) or module in _KNOWN):
            return Finding(
                "typosquat",
                "deny",
                f"go install {module} is named like the Go tool {name!r} but is not its real "
                "module path: look-alike modules are published to catch this; install the "
                "tool from its documented module path",
            )
    return None
