"""Pickles loaded from a download, for :mod:`workset.safety.python_code`.

Loading a pickle runs whatever code its author put in it: ``pickle.load``, ``torch.load``
(unless ``weights_only=True``), ``joblib.load``, ``pd.read_pickle``, ``dill.load``, ``np.load``
with ``allow_pickle=True``. A file kept in a downloads folder (``~/Downloads``,
``./downloads/``) came from someone else: :func:`downloaded_pickle` names it, and the code is
denied as code fetched and run unseen. The project's own pickles load as any file does.
"""

from __future__ import annotations

import ast
import re

from workset.safety.python_literals import dotted, literal_path

_LOADERS = frozenset({"load", "loads", "read_pickle", "Unpickler"})
_MODULES = frozenset({"pickle", "_pickle", "cPickle", "torch", "joblib", "dill", "cloudpickle",
                      "pd", "pandas", "np", "numpy", "pickletools", "skops"})  # fmt: skip
_DOWNLOADS = re.compile(r"(^|/)(downloads?|Downloads)/")


def downloaded_pickle(tree: ast.AST) -> str | None:
    """The path, in a downloads folder, of a pickle the code loads; or None."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args or not _unpickles(node):
            continue
        source = node.args[0]
        if isinstance(source, ast.Call) and dotted(source.func) in ("open", "io.open"):
            source = source.args[0] if source.args else source
        path = literal_path(source)
        if path is not None and _DOWNLOADS.search(path):
            return path
    return None


def _unpickles(node: ast.Call) -> bool:
    module, _, last = dotted(node.func).rpartition(".")
    module = module.rsplit(".", 1)[-1]
    if last not in _LOADERS or module not in _MODULES:
        return False
    flags = {k.arg: k.value for k in node.keywords}
    if module in ("np", "numpy"):
        allowed = flags.get("allow_pickle")
        return isinstance(allowed, ast.Constant) and allowed.value is True
    if module == "torch":
        safe = flags.get("weights_only")
        return not (isinstance(safe, ast.Constant) and safe.value is True)
    return True
