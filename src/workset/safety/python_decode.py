"""Code hidden by encoding a literal, decoded for :mod:`workset.safety.python_code`.

``exec(base64.b64decode('…'))`` runs the text the literal decodes to; :func:`decoded` returns
that text (also for ``bytes.fromhex``, ``codecs.decode(…, 'rot13')`` and the other base-N
decoders of :mod:`base64`), so that it is judged as the code it is.
"""

from __future__ import annotations

import ast
import base64
import binascii
import bz2
import codecs
import gzip
import lzma
import zlib

_DECODERS = frozenset({"b64decode", "standard_b64decode", "urlsafe_b64decode", "decodebytes",
                       "b32decode", "b16decode", "a85decode", "b85decode"})  # fmt: skip


def decoded(node: ast.expr) -> str | None:
    """The text of ``base64.b64decode('…')`` (or ``bytes.fromhex``, ``codecs.decode(…,
    'rot13')``, a ``zlib``/``gzip``/``bz2``/``lzma`` ``decompress`` of one) of a literal, with an
    optional ``.decode()``: code hidden by encoding it."""
    raw = _raw(node)
    return raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw


def _raw(node: ast.expr) -> bytes | str | None:
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
    if node.func.attr == "decompress":  # zlib.decompress(base64.b64decode('…'))
        packed = _raw(node.args[0])
        return _decompressed(packed) if isinstance(packed, bytes) else None
    literal = node.args[0]
    if not isinstance(literal, ast.Constant) or not isinstance(literal.value, str | bytes):
        return None
    method = node.func.attr
    try:
        if method in _DECODERS:
            return bytes(getattr(base64, method)(literal.value))
        if method == "fromhex" and isinstance(literal.value, str):
            return bytes.fromhex(literal.value)
        if method == "decode" and isinstance(literal.value, str) and len(node.args) > 1:
            encoding = node.args[1]
            if isinstance(encoding, ast.Constant) and encoding.value in ("rot13", "rot_13"):
                return codecs.decode(literal.value, "rot13")
    except (ValueError, binascii.Error):
        return None
    return None


def _decompressed(packed: bytes) -> bytes | None:
    for module in (zlib, gzip, bz2, lzma):
        try:
            return bytes(module.decompress(packed))
        except (OSError, ValueError, EOFError, zlib.error, lzma.LZMAError):
            continue
    return None
