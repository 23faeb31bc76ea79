"""Rules for persistence: anything that makes code run again later, on its own.

Scheduled jobs (``crontab``, ``at``), services (``systemctl enable``, ``launchctl load``) and
the places that run code at login, at boot or on every commit (shell startup files,
``~/.config/systemd``, ``~/.config/autostart``, ``LaunchAgents``, ``.git/hooks``, git's
``core.hooksPath``) all ask: an agent's work ends when its task does.

What is written there is code too: when its text is known (``echo``/``printf``/a here-document
into a hook or a startup file, a cron line piped into ``crontab -``, a unit's ``ExecStart=``),
:func:`persisted_code` hands it to the walker, so persisting a denied command (a download piped
into a shell every five minutes) is denied like the command itself.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules import launchd
from workset.safety.rules.admin_reads import table_words
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    requote,
    serial_port,
)
from workset.safety.rules.static import FILTERS, static_output

# Folders whose code an editor or shell loads by itself at its next start: editor extensions,
# vim and neovim packages and plugins, IPython startup scripts, fish's conf.d. Files copied or
# unpacked there are installed code (rules.installs); text written there is judged as the
# language it is in (rules.build_files), not as shell.
EDITOR_AUTOLOAD = (
    r"^~/\.(vscode|vscode-server|vscode-insiders|vscode-oss|cursor|windsurf)/extensions(/|$)|"
    r"^~/\.vim/(pack|plugin|ftplugin|autoload|after)(/|$)|"
    r"^~/\.local/share/nvim/(site/(pack|plugin|autoload)|lazy)(/|$)|"
    r"^~/\.config/nvim/(plugin|after|autoload|lua)(/|$)|^~/\.config/nvim/init\.(lua|vim)$|"
    r"^~/\.emacs\.d/(lisp|site-lisp|elpa)(/|$)|^~/\.ipython/profile_[^/]+/startup(/|$)|"
    r"^~/\.config/fish/conf\.d(/|$)|"
    r"^~/(\.config/blender|Library/Application Support/Blender)/[^/]+/scripts/startup(/|$)"
)
_PLACES = re.compile(
    r"(^|/)\.git/hooks(/|$)|^~/\.config/(systemd|autostart)(/|$)|^/etc/(systemd|cron[^/]*|"
    r"init\.d|rc\.local|profile\.d|xdg/autostart)(/|$)|^/var/spool/cron(/|$)|"
    r"(^~|^/Library)/Library/Launch(Agents|Daemons)(/|$)|^/Library/Launch(Agents|Daemons)(/|$)|"
    r"^~/\.local/bin(/|$)|^~/\.ssh/rc$|^/etc/ssh/sshrc$|^~/\.(bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|"
    r"zlogin|config/fish/config\.fish|xprofile|xinitrc)$|^/etc/(bash\.bashrc|profile|"
    r"environment|ld\.so\.preload)$|/Start Menu/Programs/Startup(/|$)"
)
_SERVICE_CHANGES = frozenset({"enable", "start", "restart", "reload", "daemon-reload", "mask",
                              "unmask", "link", "edit", "set-property", "preset", "revert",
                              "import-environment", "set-environment", "stop", "disable",
                              "kill", "isolate", "try-restart", "reenable"})  # fmt: skip


def is_persistence_place(path: str) -> bool:
    """Code written to ``path`` runs later by itself (at login, boot, or a git event)."""
    return bool(_PLACES.search(path))


_OWN_HOOK = re.compile(r"(^|/)\.git/hooks/[\w.-]+$")
HOOKS = re.compile(r"(^|/)\.git/hooks/[\w.-]+$|(^|/)\.git/hooks/?$")  # a hook or their folder


def is_workspace_hook(path: str, ctx: Context) -> bool:
    """A hook of the workspace's own repository: it runs the text written into it, in the
    workspace, when the project's git does; that text is judged as the code it is."""
    return bool(_OWN_HOOK.search(path)) and paths.in_workspace(path, ctx.workspace)


_SERVICE_PLACES = re.compile(
    r"(^~|^/Library|^)/?Library/Launch(Agents|Daemons)(/|$)|^~/\.config/systemd/|"
    r"^/etc/systemd/|^/(usr/)?lib/systemd/"
)


def is_service_place(path: str) -> bool:
    """``path`` holds the definitions of services (launchd plists, systemd units)."""
    return bool(_SERVICE_PLACES.search(path))


def _installed(what: str, ctx: Context) -> Finding:
    return Finding(
        "persistence-installed",
        "deny",
        f"the line writes a service definition into {sorted(ctx.services)[0]} and {what}: it "
        "installs a program that runs by itself from now on, which an agent never does; leave "
        "the file in the workspace and ask the user to install it",
    )


def persistence(what: str) -> Finding:
    return Finding(
        "persistence",
        "ask",
        f"{what}, so code keeps running after this task ends; a human must confirm, or run "
        "the command directly instead",
    )


def _crontab(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if table_words(cmd) == ["-l"]:
        return  # crontab -l, crontab -u www-data -l: a table listed
    yield persistence(f"crontab {' '.join(cmd.args())} changes scheduled jobs".rstrip())
    if any(re.fullmatch(r"-[a-zA-Z]*r[a-zA-Z]*", a) for a in cmd.args()):
        yield Finding(
            "crontab-replaced",
            "deny",
            "crontab -r deletes every job the user has scheduled, beyond recovery; remove only "
            "the line you added, or ask the user",
        )
    elif _replaces_table(cmd):
        yield Finding(
            "crontab-replaced",
            "deny",
            "crontab - installs the text written in this line as the user's whole crontab, "
            "throwing away every job already scheduled there and leaving this one to run "
            "unattended; an agent never does that — leave the line in a workspace file and ask "
            "the user to add it",
        )


def _replaces_table(cmd: Cmd) -> bool:
    """``echo 'JOB' | crontab -``, ``crontab - <<< 'JOB'``: a new table of literal text that
    does not start from the old one (``(crontab -l; echo 'JOB') | crontab -`` keeps it)."""
    if not all(a == "-" for a in table_words(cmd)):
        return False
    if any(u.name == "crontab" and "-l" in u.args() for u in cmd.upstream):
        return False
    here = [t for op, t in cmd.redirects if op == "<<"] if not cmd.stdin_dynamic else []
    if here and not cmd.upstream:
        return bool(here[0].strip())
    texts = [static_output([c]) for c in cmd.upstream]
    known = [t for t in texts if t is not None]
    return bool(texts) and len(known) == len(texts) and bool("".join(known).strip())


def _at(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if not set(cmd.args()) & {"-l", "-c"}:
        yield persistence(f"{cmd.name} schedules a command to run later")


def _services(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a for a in cmd.args() if not a.startswith("-")]
    changes = [w for w in words if w in _SERVICE_CHANGES]
    if cmd.name == "launchctl" and words[:1] and words[0] in ("load", "bootstrap", "submit",
                                                              "enable", "kickstart"):  # fmt: skip
        yield persistence(f"launchctl {words[0]} installs or starts a service")
        if words[0] == "submit" and "--" in cmd.args():  # launchctl submit -l x -- PROGRAM …
            yield from _later_program(list(cmd.args()[cmd.args().index("--") + 1 :]))
        if ctx.services:
            yield _installed(f"launchctl {words[0]} starts it", ctx)
    elif cmd.name == "service" and len(words) >= 2 and words[1] != "status":
        yield persistence(f"service {words[0]} {words[1]} changes a system service")
    elif cmd.name == "systemctl" and changes:
        yield persistence(f"systemctl {changes[0]} changes which services run")
        if ctx.services and set(changes) & {"enable", "start", "reenable", "link"}:
            yield _installed(f"systemctl {changes[0]} starts it", ctx)


# systemd-run's options that take a value; the program and its arguments follow them.
_SYSTEMD_RUN_VALUES = frozenset({"-u", "--unit", "-p", "--property", "-d", "--description",
                                 "--slice", "-E", "--setenv", "-H", "--host", "-M",
                                 "--machine", "--uid", "--gid", "--nice", "--working-directory",
                                 "--on-active", "--on-boot", "--on-startup", "--on-unit-active",
                                 "--on-unit-inactive", "--on-calendar", "--timer-property",
                                 "--path-property", "--socket-property"})  # fmt: skip


def _systemd_run(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """systemd-run PROGRAM starts it as a transient service (on a timer with ``--on-*``),
    outside this shell; ``--scope`` runs it here, in the foreground, like the command itself."""
    args = list(cmd.args())
    index = 0
    while index < len(args) and args[index].startswith("-"):
        option = args[index].split("=", 1)[0]
        index += 2 if option in _SYSTEMD_RUN_VALUES and "=" not in args[index] else 1
    program = args[index:]
    if "--scope" in args and not any(a.startswith("--on-") for a in args):
        if program:
            yield dataclasses.replace(cmd.shifted(index + 1), redirects=(), upstream=())
        return
    yield persistence("systemd-run starts a service that runs apart from this shell")
    yield from _later_program(program)


def _later_program(words: list[str]) -> Iterator[Result]:
    """A program left to run by a service manager: analysed as code that runs later."""
    if not words:
        return
    text = requote(words)
    payload = planted(text)
    if payload is not None:
        yield payload
    yield Nested(text, later=True)


_TMUX_RUNS = frozenset({"new", "new-session", "new-window", "neww", "split-window", "splitw",
                        "respawn-pane", "respawnp", "respawn-window", "respawnw", "run-shell",
                        "run"})  # fmt: skip
_TMUX_VALUES = frozenset("scntxyeFflTS")
# Keys sent by name (``C-c``, ``Enter``, ``M-x``, ``F5``): a key press, not text typed.
_KEY_NAME = re.compile(
    r"((C|M|S)-)*((C|M|S)-\S|Enter|KPEnter|Escape|Tab|BTab|BSpace|Space|Up|Down|Left|Right|"
    r"Home|End|PageUp|PgUp|PageDown|PgDn|PPage|NPage|IC|DC|F\d{1,2})"
)
_SCREEN_VALUES = frozenset({"-Logfile"})
_SCREEN_LETTERS = frozenset("SctpehsT")  # -S name, -dmS name: the next word is the value


def _tmux(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """tmux new/neww/split-window CMD runs CMD in a session that outlives this task; keys sent
    to a pane are judged as the command they type; a pane's scrollback read asks."""
    args = list(cmd.args())
    while args and args[0].startswith("-"):  # tmux -L socket -f conf …
        flag = args.pop(0)
        if flag in ("-L", "-S", "-f", "-T") and args:
            args.pop(0)
    if not args:
        return
    sub, rest = args[0], args[1:]
    if sub in ("capture-pane", "capturep") and any(a.startswith("-S") for a in rest):
        yield Finding(
            "terminal-history",
            "ask",
            "tmux capture-pane -S reads the pane's scrollback: what was typed and printed there "
            "before, tokens and passwords included, as a shell history holds them; a human must "
            "confirm, or capture only the visible screen (no -S)",
        )
        return
    if sub in ("send-keys", "send"):
        while rest and rest[0].startswith("-"):
            rest = rest[2:] if rest[0][-1:] in ("t", "N") else rest[1:]
        keys = [w for w in rest if not _KEY_NAME.fullmatch(w)]
        if keys:
            yield Nested(" ".join(keys))
        return
    if sub not in _TMUX_RUNS:
        return
    detached, index = False, 0
    while index < len(rest) and rest[index].startswith("-") and rest[index] != "--":
        letters = rest[index][1:]
        detached = detached or "d" in letters
        index += 2 if letters[-1:] in _TMUX_VALUES else 1
    body = rest[index + (index < len(rest) and rest[index] == "--") :]
    if body:
        yield Nested(body[0] if len(body) == 1 else requote(body), later=detached)
    if detached:
        yield persistence(f"tmux {sub} -d keeps a session running in the background")


def _screen(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """screen -dm CMD runs CMD in a detached session that outlives this task."""
    args = list(cmd.args())
    detached, index = False, 0
    while index < len(args) and args[index].startswith("-"):
        word = args[index]
        detached = detached or (not word.startswith("--") and "d" in word and "m" in word)
        detached = detached or word in ("-m", "-D")
        index += 2 if word in _SCREEN_VALUES or word[-1:] in _SCREEN_LETTERS else 1
    body = args[index:]
    if "-X" in args:  # a command sent to a running session: stuff types text into its shell
        yield from _screen_command(args[args.index("-X") + 1 :])
        return
    if "-x" in args or "-r" in args or "-ls" in args or "-list" in args:
        return
    if body and not serial_port(body[0]):  # screen /dev/ttyACM0 115200: a serial console
        yield Nested(requote(body), later=detached)
    if detached:
        yield persistence("screen -dm keeps a session running in the background")


def _screen_command(words: list[str]) -> Iterator[Result]:
    """``screen -S NAME -X stuff 'TEXT\\n'``: TEXT is typed into the session's shell and runs
    there, so it is analysed as a command; ``-X screen CMD`` and ``-X exec CMD`` start CMD in
    it. Other session commands (``quit``, ``hardcopy``, ``detach``) run nothing."""
    if words[:1] == ["stuff"] and words[1:]:
        typed = re.sub(r"(\\n|\\r|\^M|\^J)", "\n", " ".join(words[1:]))
        lines = [line for line in typed.splitlines() if line.strip()]
        if lines:
            yield Nested("\n".join(lines))
    elif words[:1] in (["screen"], ["exec"]) and words[1:]:
        yield Nested(requote(words[1:]), later=True)


_WRITES = frozenset({">", ">>", ">|", "&>", "&>>"})
_CRON_SCHEDULE = re.compile(r"^\s*(@\w+|(\S+\s+){5})")
_SYSTEM_CRON_LINE = re.compile(r"^\s*(@\w+\s+|(\S+\s+){5})\S+\s+")  # the user field too
_USER_CRON = re.compile(r"^/var/spool/cron(/|$)")
_SYSTEM_CRON = re.compile(r"^/etc/(crontab$|cron\.d/)")


def persisted_code(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """The code ``cmd`` leaves to run later, when its text is known, to be analysed."""
    places = [t for op, t in cmd.redirects if op in _WRITES]
    if cmd.name == "tee":
        places += [a for a in cmd.args() if not a.startswith("-")]
    if cmd.name == "dd":  # dd of=~/.bashrc <<< '…': what it reads goes there
        places += [a[3:] for a in cmd.args() if a.startswith("of=")]
    hooks = [p for p in places if is_workspace_hook(ctx.resolve(p), ctx)]  # cp: rules.writes
    sources = [a for a in cmd.args() if not a.startswith("-")]
    if cmd.name in ("cp", "mv", "install") and len(sources) > 1:
        places.append(sources.pop())  # cp /tmp/x ~/.bashrc: the destination
    places = [p for p in places if _runs_later(ctx.resolve(p))]
    here = [t for op, t in cmd.redirects if op == "<<"] if not cmd.stdin_dynamic else []
    cron = (
        cmd.name == "crontab"
        and (cmd.piped or bool(here))
        and all(a == "-" for a in table_words(cmd))
    )
    scheduled = cmd.name in ("at", "batch") and not set(cmd.args()) & {"-l", "-c", "-f"}
    if not places and not cron and not scheduled:
        return
    if (cron or scheduled) and here and not cmd.piped:
        text = here[0]  # at now + 1 hour <<< 'CMD', crontab - <<< 'LINE'
    else:
        fed = cmd.name in ("tee", "crontab", "dd") or bool(scheduled and cmd.upstream)
        text = written_text(cmd, fed=fed)
    if not text and cmd.name in ("cp", "mv", "install", "cat"):  # a file this line wrote
        text = "".join(ctx.scripts.get(ctx.resolve(w), "") for w in sources)
    system_cron = any(_SYSTEM_CRON.match(ctx.resolve(p)) for p in places)
    if cron or any(_USER_CRON.match(ctx.resolve(p)) for p in places) or system_cron:
        schedule = _SYSTEM_CRON_LINE if system_cron else _CRON_SCHEDULE  # + the user field
        text = "\n".join(schedule.sub("", line) for line in _code_lines(text))
    elif any(re.search(r"/(systemd|autostart)/|\.desktop$", ctx.resolve(p)) for p in places):
        found = re.findall(r"^\s*Exec\w*=[-@+!:]*(.*)$", text, flags=re.MULTILINE)
        text = "\n".join(found)
    elif any(launchd.is_plist(ctx.resolve(p)) for p in places):
        disguised = launchd.disguised_label(text)
        if disguised is not None:
            yield disguised
        text = launchd.command_of(text)
    own = _own_program(text, ctx)
    if own is not None:
        yield Finding(
            "persistence-installed",
            "deny",
            f"the line writes {own} and then leaves it to run by itself later (at login, at "
            "boot, on a schedule): it installs a program, which an agent never does; leave it "
            "in the workspace and ask the user to install it",
        )
    if hooks and not text.strip():
        yield persistence(f"writes {hooks[0]}, a hook, with text not known here, which runs "
                          "by itself later")  # fmt: skip
    payload = planted(text)
    if payload is not None:
        yield payload
    if text.strip():
        yield Nested(text, later=True)


def _own_program(text: str, ctx: Context) -> str | None:
    """A program the line itself wrote (copied, downloaded) that ``text`` runs."""
    for line in _code_lines(text):
        words = line.replace("&", " ").replace(";", " ").split()
        for word in words[:3]:
            word = "~/" + word[4:] if word.startswith("./~/") else word  # '~/x' echoed: ~ there
            if word.startswith(("/", "~", "./")) and ctx.wrote(word):
                return word
    return None


def written_text(cmd: Cmd, *, fed: bool) -> str:
    """The text ``cmd`` writes when it is known: what the pipe feeds it (``fed``: tee, crontab),
    or what it prints itself (echo/printf/cat of a here-document); "" when unknown."""
    if fed:
        texts = [static_output([c]) for c in cmd.upstream if c.name != "crontab"]
        if not cmd.upstream and not cmd.stdin_dynamic:  # tee -a ~/.profile <<< '…'
            texts = [t for op, t in cmd.redirects if op == "<<"]
        return "".join(t for t in texts if t is not None)
    kept = tuple((op, t) for op, t in cmd.redirects if op == "<<")
    upstream = cmd.upstream if cmd.name in FILTERS else ()  # echo … | base64 -d > x.sh
    return static_output([*upstream, dataclasses.replace(cmd, redirects=kept)]) or ""


# A dot-named folder or file inside the home's cache, data or settings folders
# (``~/.cache/.x/init.sh``, ``/home/dev/.local/share/.u/run.sh``): a name made to be missed
# in listings, where no installer puts a program.
_HIDDEN_IN_HOME = (
    r"(?:~|\$HOME|\$\{HOME\}|/home/[^/\s'\";|&)]+|/Users/[^/\s'\";|&)]+|/root)/"
    r"(?:\.cache|\.local/share|\.local/state|\.config|Library/Caches|Library/Application Support)"
    r"/(?:[^\s'\";|&)/]+/)*\.[^\s'\";|&)]+"
)
# A program run (or sourced, preloaded into every program, put on a module search path, or
# named as the compiler wrapper, askpass helper or editor that tools run) from a directory
# anyone on the machine can write, or hidden in a dot-named folder inside the home's cache,
# data or settings folders.
_WORLD_WRITABLE_PROGRAM = re.compile(
    r"(^\s*|[;&|(`]\s*|\b(?:sh|bash|zsh|dash|nohup|exec|setsid|python3?|perl|node|sudo|env|"
    r"source)\s+|(?:^|[;&|(]\s*)\.\s+|"
    r"\b(?:LD_PRELOAD|LD_AUDIT|LD_LIBRARY_PATH|DYLD_INSERT_LIBRARIES|DYLD_LIBRARY_PATH|"
    r"PYTHONPATH|NODE_PATH|PERL5LIB|RUBYLIB|RUSTC_WRAPPER|RUSTC_WORKSPACE_WRAPPER|RUSTC|CC|CXX|"
    r"GIT_SSH|GIT_SSH_COMMAND|GIT_ASKPASS|SSH_ASKPASS|SUDO_ASKPASS|EDITOR|VISUAL|GIT_EDITOR|"
    r"PAGER)=[\"']?(?:[^\s\"':]*:)*|"  # and the programs that builds, git, ssh, sudo run
    r"(?:--require|--import|--loader|--experimental-loader)[= ]+|-javaagent:)"
    r"((?:/tmp|/var/tmp|/dev/shm)/[^\s'\";|&)]+|" + _HIDDEN_IN_HOME + ")",
    re.MULTILINE,
)


# An alias or function left in a startup file that wraps a command (``alias sudo="sudo -E
# /tmp/.k/log"``): a program from a world-writable place anywhere in it runs in its stead.
_WRAPPER = re.compile(
    r"""\balias\s+[^=\s]+=(?:"([^"]*)"|'([^']*)'|(\S+))|\b(?:function\s+)?[\w.-]+\s*\(\s*\)\s*\{([^}]*)\}"""
)
_WORLD_WRITABLE_PATH = re.compile(
    r"((?:/tmp|/var/tmp|/dev/shm)/[^\s'\";|&)]+|" + _HIDDEN_IN_HOME + ")"
)


# A PATH, left in a startup file, that searches a world-writable directory: every later
# command name may then run a program planted there (``export PATH=/tmp/.bin:$PATH``).
_PLANTED_PATH = re.compile(
    r"(?:\bPATH=[\"']?(?:[^\s\"';:]*:)*|\bfish_add_path\s+(?:-\w+\s+)*(?:\S+\s+)*|"
    r"\bset\s+(?:-\w+\s+)*(?:PATH|fish_user_paths)\s+(?:\S+\s+)*)"
    r"((?:/tmp|/var/tmp|/dev/shm)(?:/[^\s\"';:]*)?)"
)


# A library loaded into every program a later shell starts: wherever it lies, that is code
# injected into all of them (debuggers and tracers set it for one run, not in a startup file).
_PRELOAD = re.compile(r"\b(LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES)=[\"']?[^\s\"';]")


def planted(text: str) -> Finding | None:
    """Code left to run later that runs a program from /tmp or a hidden folder of the home, that
    makes every later shell search such a directory for its commands, or that preloads a
    library into every program."""
    match = _WORLD_WRITABLE_PROGRAM.search(text)
    if match:
        return planted_payload(match.group(2))
    preload = _PRELOAD.search(text)
    if preload:
        return Finding(
            "persistence-preload",
            "deny",
            f"the line leaves {preload.group(1)} set for later shells, which loads a library "
            "into every program they start (how rootkits and credential sniffers hook "
            f"programs); set {preload.group(1)} for one command only, if it is truly needed",
        )
    searched = _PLANTED_PATH.search(text)
    if searched:
        return planted_payload(f"every command found in {searched.group(1)}")
    for wrapper in _WRAPPER.finditer(text):
        body = next((g for g in wrapper.groups() if g is not None), "")
        inside = _WORLD_WRITABLE_PATH.search(body)
        if inside:
            return planted_payload(inside.group(1))
    return None


def planted_payload(program: str) -> Finding:
    return Finding(
        "persistence-planted",
        "deny",
        f"the line leaves {program} to run later by itself, a program in a directory anyone "
        "on the machine can write or hidden in a dot-named folder of the home: that is how "
        "implants survive and hide; keep scripts in the workspace and run them directly",
    )


def _runs_later(path: str) -> bool:
    return is_persistence_place(path) or paths.is_startup_file(path)


def _code_lines(text: str) -> list[str]:
    return [
        line
        for line in text.splitlines()
        if line.strip() and not line.lstrip().startswith("#") and "=" not in line.split()[0]
    ]


HANDLERS: dict[str, Handler] = {
    "crontab": _crontab,
    "at": _at,
    "batch": _at,
    "systemctl": _services,
    "launchctl": _services,
    "service": _services,
    "tmux": _tmux,
    "systemd-run": _systemd_run,
    "screen": _screen,
}
