"""The lists behind :mod:`~workset.safety.rules.known`: programs whose effects are known.

Builtins, read-only programs, workspace writers, project tools, the subcommands that only read
(or only change the project) per program, the global options that take a value before a
subcommand, and the options that turn a read-only program into one that writes.
"""

from __future__ import annotations

BUILTINS = frozenset(
    {
        "cd", "pushd", "popd", "dirs", "export", "declare", "local", "readonly", "typeset",
        "unset", "set", "shopt", "shift", "read", "wait", "jobs", "true", "false", ":", "test",
        "[", "[[", "echo", "printf", "pwd", "type", "hash", "alias", "unalias", "return",
        "exit", "break", "continue", "trap", "umask", "ulimit", "getopts", "let", "eval",
        "times", "history", "fg", "bg", "disown", "sleep", "mapfile", "readarray", "caller",
        "compgen", "complete", "help", "logout", "source", ".", "kill", "command", "exec",
        "deactivate",  # the function a virtualenv's activate script defines
    }
)  # fmt: skip
READ_ONLY = frozenset(
    {
        "getenforce", "sestatus", "pip-audit", "osv-scanner", "pg_isready", "system_profiler",
        "ls", "cat", "head", "tail", "less", "more", "wc", "grep", "egrep", "fgrep", "rg", "ag",
        "ack", "find", "fd", "tree", "stat", "file", "du", "df", "which", "whereis", "whatis",
        "date", "cal", "uname", "whoami", "id", "groups", "printenv", "env", "ps", "pgrep", "pidof",
        "uptime", "free", "lscpu", "lsblk", "lsof", "fuser", "nproc", "sort", "uniq", "cut", "tr",
        "paste", "join", "comm", "diff", "diff3", "cmp", "column", "fold", "fmt", "nl", "od",
        "xxd", "hexdump", "strings", "md5sum", "sha1sum", "sha256sum", "sha512sum", "shasum",
        "cksum", "b2sum", "base64", "base32", "basename", "dirname", "realpath", "readlink",
        "seq", "yes", "jq", "yq", "man", "info", "tput", "locale", "getconf", "expr", "bc",
        "csvlook", "csvstat", "csvcut", "csvgrep", "csvjson",
        "dc", "tac", "rev", "zcat", "zgrep", "zless", "bzcat", "xzcat", "lzcat", "tee",
        "numfmt", "sum", "look", "iconv", "ldd", "nm", "objdump", "readelf", "size", "lsattr",
        "hostname", "tty", "stty", "top", "htop", "vmstat", "iostat", "ss", "netstat", "ip",
        "sed", "awk", "gawk", "mawk", "nawk", "xargs", "timeout", "nice", "nohup", "time",
        "watch", "pstree", "journalctl", "dmesg", "w", "who", "last", "getent", "arch",
        "lsb_release", "sw_vers", "atq", "python-config", "pkg-config", "pip-licenses", "cloc",
        "tokei", "shellcheck", "hadolint", "yamllint", "jsonlint", "actionlint", "diffstat",
        "colordiff", "wdiff", "dos2unix", "unix2dos", "envsubst", "gzip", "gunzip", "bzip2",
        "bunzip2", "xz", "unxz", "zstd", "unzstd", "tar", "zip", "unzip", "7z", "sqlite3",
        "sysctl", "bat", "batcat", "delta", "glow", "mdcat", "hexyl",
        "zipinfo", "xmllint", "ms_print", "parallel", "col", "colrm", "expand", "unexpand", "pr",
        # Kerberos tickets listed; a Slurm cluster's nodes, queue and finished jobs shown
        "namei",  # the modes and owners along a path
        "klist", "sinfo", "squeue", "sacct", "sshare", "sprio", "sstat",
    }
)  # fmt: skip
WRITERS = frozenset(
    {
        "touch", "mkdir", "rmdir", "rm", "unlink", "cp", "mv", "ln", "install", "chmod",
        "chown", "chgrp", "truncate", "split", "csplit", "patch", "mktemp", "mkfifo", "dd",
        "rsync", "shred", "srm",
    }
)  # fmt: skip
PROJECT = frozenset(
    {
        "make", "gmake", "cmake", "ninja", "meson", "pytest", "py.test", "tox", "nox", "ruff",
        "msbuild", "just", "task", "mage",
        "black", "isort", "flake8", "pylint", "mypy", "pyright", "bandit", "coverage",
        "pre-commit", "tsc", "jest", "vitest", "mocha", "eslint", "prettier", "rustc",
        "rustfmt", "gofmt", "javac", "java", "mvn", "gradle", "gcc", "g++", "cc", "c++",
        "clang", "clang++", "ld", "ar", "ctest", "bazel", "rake", "rspec", "phpunit",
        "composer", "swift", "mix", "elixir", "ghc", "cabal", "stack", "zig", "shfmt",
        "markdownlint", "stylelint", "biome", "deno", "bun", "sphinx-build", "mkdocs",
        "alembic", "django-admin", "flask", "uvicorn", "gunicorn", "hugo", "jekyll", "wasm-pack",
        "protoc", "buf", "sqlfluff", "codespell", "vulture", "radon", "interrogate", "pdoc",
        "tflint", "cfn-lint", "tfsec", "kubeconform", "kube-linter", "golangci-lint",
        "staticcheck", "rubocop", "clang-format", "clang-tidy", "cppcheck", "ansible-lint",
        "checkov", "kubeval",
        "elm", "webpack", "webpack-cli", "vite", "nodemon", "tsup", "pip-compile", "pip-sync",
        "esbuild", "rollup", "parcel", "tailwindcss", "postcss", "babel", "sass", "rails",
        "xcodebuild", "gdb", "lldb", "perf", "bazelisk", "sbt", "lein", "clojure", "rebar3", "erlc",
        "kotlinc", "scalac", "gfortran", "nasm", "make-docs", "ocaml", "dune", "opam-exec",
        # test runners and linters of lua, perl and shell projects: they run the project's code
        "busted", "luacheck", "stylua", "prove", "bats",
        # spell checkers, code generators and dependency checkers of the project's own files
        "cspell", "graphql-codegen", "ncu", "npm-check-updates", "knip", "depcheck", "madge",
    }
)  # fmt: skip
# Subcommands that only read, or only change the project in the workspace.
SUBCOMMANDS: dict[str, frozenset[str]] = {
    "direnv": frozenset({"status", "version"}),
    "asdf": frozenset({"current", "list", "version", "where", "which", "info", "local"}),
    "mise": frozenset({"ls", "list", "current", "doctor", "which", "where", "version"}),
    "resolvectl": frozenset({"status", "query", "statistics"}),  # the resolver, read
    # credential helpers: ``list`` names the hosts and users they hold, never a secret
    **{f"docker-credential-{n}": frozenset({"list", "version"})
       for n in ("desktop", "osxkeychain", "secretservice", "pass", "wincred")},
    "security": frozenset({"find-certificate", "list-keychains", "show-keychain-info",
                           "verify-cert", "dump-trust-settings", "default-keychain"}),
    "git": frozenset(
        {
            "status", "log", "diff", "show", "branch", "tag", "remote", "config", "rev-parse",
            "ls-files", "ls-tree", "ls-remote", "blame", "grep", "describe", "shortlog",
            "reflog", "stash", "rebase", "fetch", "pull", "push", "add", "commit", "checkout",
            "switch",
            "reset", "merge", "cherry-pick", "revert", "rm", "mv", "clean", "gc", "init",
            "bisect", "archive", "format-patch", "am", "apply", "submodule", "hash-object",
            "cat-file", "show-ref", "for-each-ref", "count-objects", "fsck", "help", "version",
            "worktree", "notes", "restore", "whatchanged", "range-diff", "name-rev", "var",
            "check-ignore", "check-attr", "diff-tree", "diff-index", "rev-list", "merge-base",
            "sparse-checkout", "lfs", "maintenance", "request-pull", "verify-commit", "bundle",
            "update-index", "verify-tag", "interpret-trailers", "column", "stripspace",
            "cherry", "merge-tree", "patch-id",
            "filter-repo",  # rewrites ask in rules.git; --analyze only reports
        }
    ),
    "pip": frozenset({"list", "show", "freeze", "check", "debug", "help", "index", "inspect",
                      "hash", "cache", "wheel", "download", "--version", "-V"}),
    "npm": frozenset({"test", "t", "run", "run-script", "start", "build", "ci", "install", "i",
                      "ls", "list", "outdated", "view", "info", "pack", "help", "init",
                      "--version", "-v", "audit", "explain", "why", "prune", "rebuild",
                      "dedupe", "fund", "doctor", "config", "root", "bin", "prefix", "stop",
                      "restart", "exec", "x", "lint", "version", "pkg", "uninstall", "un",
                      "remove", "rm", "r", "update", "up", "upgrade", "cache", "whoami",
                      "search", "docs", "repo", "bugs", "query", "sbom"}),
    "packer": frozenset({"validate", "fmt", "inspect", "version"}),
    "cargo": frozenset({"build", "b", "check", "c", "test", "t", "run", "r", "clippy", "fmt",
                        "doc", "bench", "clean", "tree", "metadata", "update", "fetch",
                        "--version", "version", "help", "new", "init", "vendor", "expand",
                        "nextest", "llvm-cov", "tarpaulin", "audit", "deny", "outdated",
                        "add", "remove", "rm", "package", "set-version", "semver-checks"}),
    # add: rules.project_deps; package: the .crate packed and built in target/
    "go": frozenset({"build", "test", "run", "vet", "fmt", "mod", "list", "env", "version",
                     "doc", "generate", "clean", "work", "tool", "help", "bug",
                     "install", "get"}),  # install: rules.system asks unless rules.go_tools vouches
    "uv": frozenset({"run", "sync", "lock", "build", "tree", "venv", "pip", "python",
                     "export", "--version", "version", "help", "init", "cache"}),
    "poetry": frozenset({"install", "run", "build", "lock", "show", "check", "env", "shell",
                         "version", "--version", "config", "init", "new", "export", "remove",
                         "update", "source"}),  # source: rules.registries
    "pipenv": frozenset({"run", "sync", "lock", "graph", "check", "requirements",
                         "--venv", "--where", "--py", "verify", "scripts", "install",
                         "uninstall"}),
    "pdm": frozenset({"install", "run", "build", "lock", "list", "show", "sync", "info"}),
    "hatch": frozenset({"run", "build", "env", "test", "fmt", "version", "status", "shell"}),
    "yarn": frozenset({"test", "run", "build", "install", "lint", "dev", "start", "why",
                       "list", "info", "--version", "-v", "check", "workspaces", "format",
                       "remove", "upgrade", "up", "outdated", "audit", "cache"}),
    "pnpm": frozenset({"test", "run", "build", "install", "i", "lint", "dev", "start", "why",
                       "list", "ls", "outdated", "--version", "-v", "exec", "format",
                       "remove", "rm", "un", "uninstall", "update", "up", "audit", "store"}),
    "dotnet": frozenset({"build", "test", "run", "restore", "format", "--version", "--info",
                         "--list-sdks", "--list-runtimes",
                         "list", "clean", "pack", "new", "sln", "watch", "add", "remove"}),
    "bundle": frozenset({"install", "exec", "list", "show", "check", "outdated", "config",
                         "add", "remove", "lock"}),
    "gem": frozenset({"list", "search", "info", "contents", "which", "environment", "env", "spec",
                      "sources"}),  # sources: changes ask in rules.registries
    **{n: frozenset({"list", "info", "search", "env", "--version", "activate", "deactivate"})
       for n in ("conda", "mamba", "micromamba")},
    "jupyter": frozenset({"nbconvert", "kernelspec", "--version", "--paths", "execute", "lab",
                          "notebook", "server"}),  # servers: rules.servers judges the address
    "brew": frozenset({"list", "info", "search", "--version", "deps", "outdated", "config",
                       "doctor", "leaves", "uses", "desc", "home", "--prefix"}),
    "apt": frozenset({"list", "search", "show", "policy", "depends", "rdepends", "changelog"}),
    "csrutil": frozenset({"status"}),
    "spctl": frozenset({"--status", "--assess", "-a"}),
    "apt-cache": frozenset({"search", "show", "policy", "depends", "rdepends", "madison",
                            "showpkg", "pkgnames", "stats"}),
    "dpkg": frozenset({"-l", "-L", "-s", "-S", "--list", "--listfiles", "--status",
                       "--search", "--print-architecture", "--get-selections"}),
    "rpm": frozenset({"-q", "-qa", "-qi", "-ql", "-qf", "--query"}),
    "systemctl": frozenset({"status", "is-active", "is-enabled", "is-failed", "list-units",
                            "list-unit-files", "list-timers", "list-sockets", "show", "cat",
                            "list-dependencies", "--version", "get-default"}),
    "service": frozenset({"--status-all"}),
    "crontab": frozenset({"-l"}),
    "launchctl": frozenset({"list", "print", "blame", "version"}),
    "nvm": frozenset({"ls", "list", "current", "which", "version", "use", "--version"}),
    "pyenv": frozenset({"versions", "version", "which", "local", "shell", "--version"}),
    "rustup": frozenset({"show", "--version", "which", "toolchain", "component", "target"}),
    "at": frozenset({"-l", "-c"}),
    "twine": frozenset({"check", "--version"}),
    "nuget": frozenset({"restore", "list", "locals", "help", "search", "verify"}),
    # sessions: what a new one runs is judged (rules.persistence), a waiting one asks
    "tmux": frozenset({"new", "new-session", "ls", "list-sessions", "has-session", "has",
                       "list-windows", "list-panes", "display-message", "send-keys", "send",
                       "-V", "capture-pane", "capturep", "show-options", "show", "list-keys",
                       "list-clients", "list-commands", "show-messages"}),
    # not show-buffer/list-buffers (what the user copied: rules.clipboard's reason) nor
    # show-environment (tokens: rules.secret_environment's)
    "screen": frozenset({"-dm", "-dmS", "-Dm", "-DmS", "-S", "-ls", "-list", "-d"}),
    # package caches and system package lists: the tool's own cache, or a listing
    "snap": frozenset({"list", "info", "find", "version", "services", "connections"}),
    "flatpak": frozenset({"list", "info", "search", "remotes", "history", "--version"}),
    "act": frozenset({"-l", "--list", "--version", "--help", "-h"}),
    "opa": frozenset({"test", "fmt", "check", "eval", "parse", "inspect", "deps", "version"}),
    "sqlc": frozenset({"generate", "vet", "compile", "version", "diff"}),
    "swagger-cli": frozenset({"validate", "bundle"}),
    "husky": frozenset({"", "install", "init"}),  # core.hooksPath of this repository: .husky
    # systemd's inspectors: "" is the program alone, which shows the status
    "systemd-analyze": frozenset({"", "time", "blame", "critical-chain", "verify", "calendar",
                                  "timespan", "timestamp", "security", "cat-config", "dot",
                                  "unit-files", "unit-paths", "plot", "syscall-filter",
                                  "condition", "dump", "exit-status", "capability"}),
    "loginctl": frozenset({"", "list-sessions", "list-users", "list-seats", "show-session",
                           "show-user", "show-seat", "session-status", "user-status",
                           "seat-status"}),
    "timedatectl": frozenset({"", "status", "show", "list-timezones", "timesync-status",
                              "show-timesync"}),
    "hostnamectl": frozenset({"", "status", "show"}),
    "localectl": frozenset({"", "status", "list-locales", "list-keymaps", "list-x11-keymap-models",
                            "list-x11-keymap-layouts"}),
    "networkctl": frozenset({"", "list", "status", "lldp", "label"}),
    "busctl": frozenset({"", "list", "status", "tree", "introspect"}),
    "coredumpctl": frozenset({"", "list", "info"}),
    "udevadm": frozenset({"info"}),
    "vagrant": frozenset({"status", "global-status", "ssh-config", "validate", "version"}),
    "flutter": frozenset({"test", "build", "analyze", "pub", "run", "doctor", "format",
                          "clean", "create", "gen-l10n", "devices", "emulators", "drive",
                          "--version", "logs"}),
    "dart": frozenset({"test", "analyze", "format", "fix", "pub", "run", "compile", "create",
                       "doc", "info", "--version"}),
    "cdk": frozenset({"synth", "synthesize", "diff", "ls", "list", "doctor", "context",
                      "docs", "notices", "metadata", "--version"}),
    "sam": frozenset({"build", "validate", "local", "--version", "list", "init"}),
    "vault": frozenset({"status", "version", "-version", "--version", "path-help"}),
    "cosign": frozenset({"verify", "verify-blob", "verify-attestation", "tree", "triangulate",
                         "version", "public-key"}),
    "xcode-select": frozenset({"-p", "--print-path", "-v", "--version"}),
    "trust": frozenset({"list", "dump"}),
    "choco": frozenset({"list", "search", "find", "info", "outdated", "--version", "-v"}),
    "logrotate": frozenset({"-d", "--debug"}),
    "defaults": frozenset({"read", "read-type", "domains", "find"}),
    "scutil": frozenset({"--get", "--dns", "--proxy", "--nwi"}),
    "networksetup": frozenset({"-listallnetworkservices", "-getinfo", "-getdnsservers",
                               "-listallhardwareports", "-getwebproxy"}),
    # images, tunnels, queues, collectors and boards inspected ("" is the program alone)
    "qemu-img": frozenset({"info", "compare", "measure", "map", "--version"}),
    "wg": frozenset({"", "show"}),  # showconf prints the private key
    "rabbitmqctl": frozenset({"list_queues", "list_exchanges", "list_bindings",
                              "list_connections", "list_channels", "list_consumers",
                              "list_vhosts", "list_policies", "status", "cluster_status",
                              "ping", "version"}),
    "rabbitmq-diagnostics": frozenset({"status", "ping", "check_running", "listeners", "alarms",
                                       "check_port_connectivity", "memory_breakdown",
                                       "server_version", "check_alarms"}),
    "promtool": frozenset({"check", "test", "query", "--version"}),
    **{n: frozenset({"validate", "components", "--version", "-v"})
       for n in ("otelcol", "otelcol-contrib")},
    "adb": frozenset({"devices", "get-state", "get-serialno", "version"}),
    **{n: frozenset({"chip_id", "chip-id", "flash_id", "flash-id", "read_mac", "read-mac",
                     "image_info", "image-info", "version"}) for n in ("esptool", "esptool.py")},
    "bpftrace": frozenset({"-l", "--version", "-V"}),  # the probes listed, none attached
    "virsh": frozenset({"list", "dominfo", "domstate", "domblklist", "domiflist", "net-list",
                        "pool-list", "vol-list", "nodeinfo", "version", "capabilities",
                        "dumpxml", "net-dumpxml", "snapshot-list", "uri", "hostname"}),
    "nvme": frozenset({"list", "list-subsys", "smart-log", "id-ctrl", "id-ns", "error-log",
                       "version", "show-regs"}),  # format, sanitize: rules.writes

}  # fmt: skip
SUBCOMMANDS["cross"] = SUBCOMMANDS["cargo"]  # cargo's verbs, run in a build container
# systemd tools: --user, --no-pager, --all… take no value; these options do
_SYSTEMD_TOOLS = ("systemctl", "systemd-analyze", "loginctl", "timedatectl", "hostnamectl",
                  "localectl", "networkctl", "busctl", "coredumpctl")  # fmt: skip
_SYSTEMD_OPTIONS = ("-H", "--host", "-M", "--machine", "-t", "--type", "-p", "--property",
                    "--state", "-n", "--lines", "-o", "--output", "--root")  # fmt: skip
OPTION_VALUES: dict[str, tuple[str, ...]] = {
    "git": ("-C", "-c", "--git-dir", "--work-tree", "--namespace"),
    "docker": ("-H", "--host", "--context", "--config", "-c", "--log-level"),
    "kubectl": ("-n", "--namespace", "--context", "--kubeconfig", "-s", "--server"),
    "helm": ("-n", "--namespace", "--kube-context"),
    "terraform": ("-chdir",),
    "tofu": ("-chdir",),
    "podman": ("--connection", "-c", "--url", "--log-level", "--root", "--runroot"),
    "oc": ("-n", "--namespace", "--context", "--kubeconfig", "-s", "--server"),
    **dict.fromkeys(_SYSTEMD_TOOLS, _SYSTEMD_OPTIONS),
    **dict.fromkeys(
        ("esptool", "esptool.py"),
        ("-p", "--port", "-b", "--baud", "-c", "--chip", "--before", "--after"),
    ),
    "adb": ("-s", "-t", "-H", "-P"),
    "rabbitmqctl": ("-n", "--node", "-t", "--timeout", "-p", "--vhost", "-q"),
}
WRITING_FLAGS: dict[str, tuple[str, ...]] = {
    "sort": ("-o", "--output"),
    "tee": (),
    "sed": ("-i", "--in-place"),
    "tar": ("-x", "--extract", "-c", "--create", "-r", "-u", "--append", "--delete"),
}
SCRATCH = ("/tmp", "/var/tmp", "/dev/shm")
HELP = frozenset({"-h", "--help", "-help", "help", "--version", "-V", "-v", "version"})
# Programs whose rule family asks for everything that is not a read (rules.infra).
JUDGED_BY_FAMILY = frozenset(
    {
        "docker", "podman", "nerdctl", "docker-compose", "podman-compose", "kubectl", "oc",
        "helm", "terraform", "tofu", "terragrunt", "pulumi", "aws", "gcloud", "gsutil", "az",
        "psql", "mysql", "mariadb", "mongo", "mongosh", "redis-cli", "cqlsh", "sqlcmd",
        "clickhouse-client", "osascript", "mount", "umount", "hyperfine", "dropdb", "createdb",
        "pg_restore",
    }
)  # fmt: skip


# Programs that print shell code which sets up the current shell (variables, PATH, functions,
# completion): ``eval "$(pyenv init -)"`` is how their manuals say to use them. The first
# words after the name that make them print it.
SHELL_SETUP = {
    "ssh-agent": (("-s",), ("-c",)),
    "pyenv": (("init", "-"), ("init", "--path"), ("virtualenv-init", "-")),
    "rbenv": (("init", "-"),),
    "nodenv": (("init", "-"),),
    "direnv": (("hook", "bash"), ("hook", "zsh"), ("export", "bash"), ("export", "zsh")),
    "brew": (("shellenv",),),
    "starship": (("init", "bash"), ("init", "zsh")),
    "zoxide": (("init", "bash"), ("init", "zsh")),
    "fnm": (("env",),),
    "mise": (("activate", "bash"), ("activate", "zsh")),
    "conda": (("shell.bash", "hook"), ("shell.zsh", "hook")),
}
# Every program named in these lists.
KNOWN_PROGRAMS = BUILTINS | READ_ONLY | WRITERS | PROJECT | frozenset(SUBCOMMANDS)
