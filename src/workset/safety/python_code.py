"""What Python code would do, read from its syntax tree without running it.

:func:`effects` lists, in order, the findings about ``code``, the shell and Python code it
would run (``os.system``, ``subprocess`` strings, ``exec``) as
:class:`~workset.safety.rules.Nested`, and its file operations (``shutil.rmtree``,
``open(…, 'w')``, ``os.kill``) as the shell command they amount to, for the walker to judge
like ``rm -r`` or a redirection.

What the code writes with literals alone (called names, strings, commands, paths) is read by
:mod:`~workset.safety.python_literals`; its use of the network (modules that reach another
host, credentials and files sent) by :mod:`~workset.safety.python_network`; loops over literal
paths, archives unpacked and encoded literals by :mod:`~workset.safety.python_loops`,
:mod:`~workset.safety.python_archives` and :mod:`~workset.safety.python_decode`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import TypeAlias

from workset.safety.python_archives import extraction
from workset.safety.python_decode import decoded
from workset.safety.python_literals import (
    computed_attribute,
    constant_text,
    dotted,
    literal_command,
    literal_path,
    opens_for_writing,
)
from workset.safety.python_loops import expanded, literal_names
from workset.safety.python_network import (
    network_modules,
    sent_credential,
    uploaded_file,
    whole_environment,
)
from workset.safety.python_pickles import downloaded_pickle
from workset.safety.python_services import service_deletes
from workset.safety.rules import Cmd, Finding, Nested, fork_bomb
from workset.safety.rules.network import remote_model_code
from workset.safety.rules.secrets import is_secret, plain_secret, secret_read

Effect: TypeAlias = Finding | Nested | Cmd


def effects(code: str) -> Iterator[Effect]:
    """Findings, nested code and file operations of ``code``, in the order they appear."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        yield Finding(
            "unparseable",
            "ask",
            "unparseable code: it is not valid Python, so it cannot be checked; fix the syntax",
        )
        return
    modules = _imports(tree)
    network = network_modules(tree, modules)
    if network and modules & {"subprocess", "pty", "os"} and _dup_or_spawn(tree):
        yield Finding(
            "reverse-shell",
            "deny",
            "Python code that connects a socket to a shell gives a remote machine a shell here "
            "(a reverse shell); never run it",
        )
        return
    if network and _evaluates_computed_code(tree):
        yield Finding(
            "download-exec",
            "deny",
            "the code fetches text from the network and runs it with exec/eval: code fetched "
            "from the network runs unseen; download the file into the workspace, read it, "
            "then run it as a separate, reviewed step",
        )
        return
    sent = sent_credential(tree) if network else None
    if sent is not None:
        yield Finding(
            "exfiltration",
            "deny",
            f"the code puts {sent} into the address or body of a request to another host, "
            "which hands the credential to it; never send credentials anywhere — ask the user "
            "if it is truly needed",
        )
    uploaded = uploaded_file(tree) if network else None
    if uploaded is not None:
        yield Finding(
            "exfiltration",
            "deny",
            f"the code sends the file {uploaded} in a request that logs in nowhere (no auth= or "
            "Authorization header), so anyone may be the receiver; send data only to a service "
            "the user named and logs in to, and ask the user first",
        )
    yield from service_deletes(tree, modules)
    if network:
        yield Finding(
            "network",
            "ask",
            f"the code uses {sorted(network)[0]}, which reaches the network; confirm the host, "
            "or fetch into the workspace with a reviewed step",
        )
    secrets = [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and is_secret(n.value)
    ]
    opened = [  # open(os.path.join(os.path.expanduser('~'), '.npmrc')): the path it names
        literal_path(n.args[0])
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and n.args and dotted(n.func).rsplit(".", 1)[-1] in _READS
    ]
    opened += [  # (Path.home() / '.aws' / 'credentials').read_text()
        literal_path(n.func.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
        and n.func.attr in ("read_text", "read_bytes", "open")
    ]  # fmt: skip
    secrets = [*(p for p in opened if p is not None and is_secret(p)), *secrets]
    if secrets:
        reads = any(
            isinstance(n, ast.Call) and dotted(n.func).rsplit(".", 1)[-1] in _READS
            for n in ast.walk(tree)
        )
        yield secret_read(secrets, reveals=reads and any(plain_secret(v) for v in secrets))
    for name in sorted(modules & _RAW_MODULES):
        yield Finding(
            "dynamic-code",
            "ask",
            f"the code uses {name}, whose effects cannot be checked statically; confirm it",
        )
    if any(isinstance(n, ast.Call) and dotted(n.func).rsplit(".", 1)[-1] in _SHOWS and any(
        dotted(a).endswith("environ") or any(map(whole_environment, ast.walk(a))) for a in n.args
    ) for n in ast.walk(tree)):  # fmt: skip  # print(os.environ), f.write(str(dict(os.environ)))
        yield secret_read(["the environment"], reveals=False)
    fetched = _unpickled_from_network(tree)
    if fetched is not None:
        yield Finding(
            "download-exec",
            "deny",
            f"the code unpickles {fetched}, fetched from the network: loading a pickle runs "
            "whatever code it carries; download the data in a safe format (CSV, Parquet, "
            "JSON) or from a source the user trusts, and load it in a separate, reviewed step",
        )
    kept = downloaded_pickle(tree)
    if kept is not None:
        yield Finding(
            "download-exec",
            "deny",
            f"the code unpickles {kept}, a downloaded file: loading a pickle runs whatever "
            "code it carries; load weights with weights_only=True or a safe format "
            "(safetensors, Parquet), or check the file with fickling first",
        )
    if any(
        isinstance(n, ast.keyword) and n.arg == "trust_remote_code"
        and not (isinstance(n.value, ast.Constant) and n.value.value in (False, None))
        for n in ast.walk(tree)
    ):  # fmt: skip
        yield remote_model_code("trust_remote_code=True")
    names = literal_names(tree, literal_path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and computed_attribute(node):
            yield _built_at_run_time("the attribute getattr() reads is")
        if isinstance(node, ast.Call):
            for call in expanded(node, names):  # for d in ("build", "dist"): rmtree(d)
                yield from _call(call)
        elif isinstance(node, ast.While | ast.For):
            loop_calls = (n for n in ast.walk(node) if isinstance(n, ast.Call))
            if any(dotted(c.func).endswith("fork") for c in loop_calls):
                yield fork_bomb("os.fork in a loop")


# Loaders that unpickle what they read (``pd.read_pickle``, ``pickle.load``, ``torch.load``,
# ``joblib.load``…), and the calls that fetch from the network.
_UNPICKLERS = frozenset({"read_pickle", "load", "loads"})
_PICKLE_MODULES = frozenset({"pickle", "pd", "pandas", "torch", "joblib", "dill", "cloudpickle",
                             "_pickle", "cPickle"})  # fmt: skip
_FETCHES = re.compile(r"(^|\.)(urlopen|urlretrieve)$|^(requests|httpx|urllib3|aiohttp)\.\w+$")


def _unpickled_from_network(tree: ast.AST) -> str | None:
    """An address a pickle is loaded from (``pd.read_pickle('https://…')``,
    ``pickle.loads(urlopen(URL).read())``), or None."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = dotted(node.func)
        module, _, last = name.rpartition(".")
        if last not in _UNPICKLERS or module.rsplit(".", 1)[-1] not in _PICKLE_MODULES:
            continue
        for inner in ast.walk(node):
            if (
                isinstance(inner, ast.Constant)
                and isinstance(inner.value, str)
                and inner.value.startswith(("http://", "https://", "ftp://", "s3://", "gs://"))
            ):
                return inner.value
            if (
                isinstance(inner, ast.Call)
                and inner is not node
                and _FETCHES.search(dotted(inner.func))
            ):
                return "a download"
    return None


_SHOWS = frozenset({"print", "pprint", "write", "writelines", "write_text", "dump", "info",
                    "debug", "warning", "error", "log"})  # fmt: skip  # shown, logged or kept


def _evaluates_computed_code(tree: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Call)
        and dotted(n.func) in ("exec", "eval", "compile")
        and bool(n.args)
        and not isinstance(n.args[0], ast.Constant)
        for n in ast.walk(tree)
    )


def _call(node: ast.Call) -> Iterator[Effect]:
    """What one call does: code it runs, or a file operation as its shell command."""
    name = dotted(node.func)
    last = name.rsplit(".", 1)[-1]
    first = node.args[0] if node.args else None
    shell = any(
        k.arg == "shell" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in node.keywords
    )
    as_shell = last in ("system", "popen", "getoutput", "getstatusoutput") or (
        shell and last in _SUBPROCESS
    )
    if name in ("exec", "eval", "compile") and first is not None:
        code = constant_text(first)
        code = code if code is not None else decoded(first)
        if code is not None:
            yield Nested(code, "python")
        else:
            yield _built_at_run_time(f"{name}() runs Python code")
        return
    os_exec = name.startswith("os.") and last.startswith(("exec", "spawn"))
    if os_exec and len(node.args) > 1:
        first = node.args[1] if last.endswith(("v", "ve", "vp", "vpe")) else first
    if first is not None and (as_shell or last in _SUBPROCESS or os_exec):
        text = literal_command(first)
        if text is None and as_shell:
            yield Finding(
                "dynamic-code",
                "ask",
                f"{name}() runs a shell command built at run time, so it cannot be "
                "checked; pass a literal command",
            )
        elif text is not None:
            yield Nested(text)
        else:
            yield _built_at_run_time(f"{name}() runs a command")
        return
    path = literal_path(first) if first is not None else None
    receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
    if isinstance(receiver, ast.Call | ast.BinOp) and last in _PATH_METHODS:
        yield from _path_method(last, literal_path(receiver))  # Path('/x').unlink()
        return
    if (
        last == "write"
        and isinstance(receiver, ast.Call)
        and dotted(receiver.func) in ("open", "io.open")
    ):
        yield from _written(receiver, first)  # open('~/.bashrc', 'a').write('curl …|sh')
        return
    unpacked = extraction(node, name, literal_path)  # tarfile.open(f).extractall('/')
    if unpacked is not None:
        yield unpacked
        return
    argv: tuple[str, ...] | None = None
    redirects: tuple[tuple[str, str], ...] = ()
    if last in ("chmod", "lchmod", "chown", "lchown") and name.startswith(("os.", "shutil.")):
        second = node.args[1] if len(node.args) > 1 else None
        mode = second.value if isinstance(second, ast.Constant) else None
        if last.endswith("chmod"):
            argv = ("chmod", format(mode, "o") if isinstance(mode, int) else "777")
        else:
            argv = ("chown", "root" if mode in (0, "root") else "someone")
        argv = (*argv, path if path is not None else _COMPUTED)
    elif last == "rmtree":
        argv = ("rm", "-r", path if path is not None else _COMPUTED)
    elif last in ("remove", "unlink", "rmdir") and path is not None:
        argv = ("rm", path)
    elif last in ("open", "write_text", "write_bytes") and path is not None:
        if last != "open" or opens_for_writing(node):
            argv, redirects = ("python",), ((">", path),)
    elif last == "kill" and name.startswith("os") and path is not None:
        argv = ("kill", path)
    if argv is not None:
        dynamic = tuple(w == _COMPUTED for w in argv)
        yield Cmd(argv=argv, redirects=redirects, dynamic=dynamic)
    elif first is not None and path is None and _changes_a_file(node, name, last):
        yield Finding(
            "dynamic-path",
            "ask",
            f"{name}() changes a file whose path is only known at run time; a human must "
            "confirm, or write the path literally",
        )


def _written(opened: ast.Call, text: ast.expr | None) -> Iterator[Effect]:
    """``open(PATH, MODE).write(TEXT)`` with literals: the ``printf`` into PATH it amounts to,
    so that code left in a startup file or a hook is analysed."""
    path = literal_path(opened.args[0]) if opened.args else None
    mode = opened.args[1] if len(opened.args) > 1 else None
    appends = isinstance(mode, ast.Constant) and "a" in str(mode.value)
    if path is None or not isinstance(text, ast.Constant) or not isinstance(text.value, str):
        return
    yield Cmd(
        argv=("printf", "%s", text.value),
        redirects=((">>" if appends else ">", path),),
        dynamic=(False, False, False),
    )


# Calls that put a file's content in the output or in a new file.
_READS = frozenset({"open", "read_text", "read_bytes", "copy", "copy2", "copyfile", "copytree",
                    "make_archive", "load", "loads", "read"})  # fmt: skip
_PATH_METHODS = frozenset({"unlink", "rmdir", "write_text", "write_bytes", "touch", "rename",
                           "replace", "chmod", "symlink_to", "hardlink_to", "mkdir"})  # fmt: skip


def _path_method(method: str, path: str | None) -> Iterator[Effect]:
    """A pathlib method that changes the file it is called on."""
    if path is None:
        yield Finding(
            "dynamic-path",
            "ask",
            f"Path.{method}() changes a file whose path is only known at run time; a human "
            "must confirm, or write the path literally",
        )
    elif method in ("unlink", "rmdir"):
        yield Cmd(argv=("rm", path), dynamic=(False, False))
    elif method == "chmod":
        yield Cmd(argv=("chmod", "644", path), dynamic=(False, False, False))
    elif method == "mkdir":
        yield Cmd(argv=("mkdir", path), dynamic=(False, False))
    else:
        yield Cmd(argv=("python",), redirects=((">", path),), dynamic=(False,))


def _changes_a_file(node: ast.Call, name: str, last: str) -> bool:
    if last in ("remove", "unlink", "rmdir", "removedirs") and name.startswith(("os", "Path")):
        return True
    return last == "open" and name in ("open", "io.open") and opens_for_writing(node)


def _built_at_run_time(what: str) -> Finding:
    return Finding(
        "dynamic-code",
        "ask",
        f"{what} built at run time, so it cannot be checked; write it literally",
    )


_COMPUTED = "$PATH_COMPUTED_AT_RUN_TIME"
_SUBPROCESS = frozenset({"run", "call", "check_call", "check_output", "Popen", "spawn"})
_RAW_MODULES = frozenset({"ctypes", "cffi", "mmap"})


def _imports(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and dotted(node.func) == "__import__" and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.add(arg.value.split(".")[0])
    return found


def _dup_or_spawn(tree: ast.AST) -> bool:
    names = {dotted(n.func).rsplit(".", 1)[-1] for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return bool(names & {"dup2", "spawn", "Popen", "call", "run", "system", "execv", "execve"})
