"""Code hidden by encoding a literal, decoded for :mod:`workset.safety.python_code`.

``exec(base64.b64decode('…'))`` runs the text the literal decodes to; :func:`decoded` returns
that text (also for ``bytes.fromhex``, ``codecs.decode(…, 'rot13')`` and the other base-N
decoders of :mod:`base64`), so that it is judged as the code it is.
"""

from __future__ import annotations

import ast
import base64
import binascii
import codecs

_DECODERS = frozenset({"b64decode", "standard_b64decode", "urlsafe_b64decode", "decodebytes",
                       "b32decode", "b16decode", "a85decode", "b85decode"})  # fmt: skip


def decoded(node: ast.expr) -> str | None:
    """The text of ``base64.b64decode('…')`` (or ``bytes.fromhex``, ``codecs.decode(…,
    'rot13')``) of a literal, with an optional ``.decode()``: code hidden by encoding it."""
    inner = (
        node.func.value
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        else None
    )
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "decode"
        and isinstance(inner, ast.Call)
        and isinstance(inner.func, ast.Attribute)
    ):
        node = inner  # ….b64decode('…').decode()
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
        return None
    literal = node.args[0]
    if not isinstance(literal, ast.Constant) or not isinstance(literal.value, str | bytes):
        return None
    method = node.func.attr
    try:
        if method in _DECODERS:
            raw = getattr(base64, method)(literal.value)
        elif method == "fromhex" and isinstance(literal.value, str):
            raw = bytes.fromhex(literal.value)
        elif method == "decode" and isinstance(literal.value, str) and len(node.args) > 1:
            encoding = node.args[1]
            if not (isinstance(encoding, ast.Constant) and encoding.value in ("rot13", "rot_13")):
                return None
            return codecs.decode(literal.value, "rot13")
        else:
            return None
    except (ValueError, binascii.Error):
        return None
    return bytes(raw).decode("utf-8", errors="replace")
