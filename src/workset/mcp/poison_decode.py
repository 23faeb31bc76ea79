"""Words a definition hides in an encoding: base64, hex, percent-encoding, HTML character
references, ``\\u`` escapes, base32, ROT13 and text written backwards.

:func:`decoded_texts` returns the plain text of every encoded run that decodes to words (three
or more), so the rules read it as a model that decodes it would. A run that decodes to bytes
that are not text (a SHA-256 digest, a binary blob) gives nothing, and so does an example of
one or two words ("'a b&c' becomes 'a%20b%26c'"). ROT13 and reversed text are read per
sentence, and only where the turned sentence holds several common English words and the
sentence as written holds almost none: a cipher tool's own example ("'Hello world' becomes
'Uryyb jbeyq'") is two words.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
from urllib.parse import unquote

_BLOB = re.compile(r"[A-Za-z0-9+/_-]{24,}={0,2}")
_BASE32 = re.compile(r"\b[A-Z2-7]{16,}={0,6}")
_HEX = re.compile(r"(?:\b0x|\b)(?:[0-9a-fA-F]{2}[\s:]?){12,}\b")
_PERCENT = re.compile(r"(?:%[0-9a-fA-F]{2}|[\w.~+-])*(?:%[0-9a-fA-F]{2}[\w.~+-]*){3,}")
_ENTITY = re.compile(r"(?:&#?\w+;\s?){6,}")
_ESCAPE = re.compile(r"(?:\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}){6,}")
_SENTENCE = re.compile(r"(?:[^.!?\n:;]|\.(?=\S)){12,}")  # a dot inside a host name stays
# Words so common in English instructions that a sentence holding several is English.
_COMMON = frozenset(
    [
        "the",
        "and",
        "to",
        "of",
        "a",
        "for",
        "is",
        "in",
        "you",
        "your",
        "this",
        "that",
        "all",
        "it",
        "be",
        "do",
        "not",
        "with",
        "on",
        "user",
        "send",
        "any",
        "every",
        "before",
        "after",
        "from",
        "as",
        "are",
        "or",
        "if",
        "by",
        "at",
        "when",
        "never",
        "always",
        "must",
        "should",
        "tell",
        "its",
        "their",
        "them",
        "assistant",
        "model",
        "call",
        "tool",
        # what an order moves
        "email",
        "cc",
        "bcc",
        "copy",
        "data",
        "key",
        "keys",
        "token",
        "password",
        "secret",
        "chat",
        "history",
        "file",
        "files",
        "message",
        "messages",
        "address",
    ]
)


def decoded_texts(text: str) -> list[str]:
    """The text each encoded run of ``text`` hides, when it decodes to three or more words."""
    found = [_base64(b) for b in _BLOB.findall(text)]
    found += [_base32(b) for b in _BASE32.findall(text)]
    found += [_hex(m.group(0)) for m in _HEX.finditer(text)]
    found += [_words(unquote(m.group(0))) for m in _PERCENT.finditer(text)]
    found += [_words(html.unescape(m.group(0))) for m in _ENTITY.finditer(text)]
    found += [_escapes(m.group(0)) for m in _ESCAPE.finditer(text)]
    for sentence in _SENTENCE.finditer(text):
        found += [_english(sentence.group(0), codecs.encode(sentence.group(0), "rot13"))]
        found += [_english(sentence.group(0), sentence.group(0)[::-1])]
    return [d for d in found if d]


def _words(text: str) -> str:
    printable = sum(c.isprintable() or c in "\n\t" for c in text)
    if text and printable / len(text) > 0.95 and len(text.split()) >= 3:
        return text
    return ""


def _base64(blob: str) -> str:
    padded = blob + "=" * (-len(blob) % 4)
    for decoder in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            return _words(decoder(padded).decode("utf-8"))
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
    return ""


def _hex(run: str) -> str:
    try:
        return _words(bytes.fromhex(re.sub(r"^0x|[\s:]", "", run)).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return ""


def _escapes(run: str) -> str:
    try:
        return _words(codecs.decode(run, "unicode_escape"))
    except UnicodeDecodeError:
        return ""


def _base32(blob: str) -> str:
    try:
        return _words(base64.b32decode(blob + "=" * (-len(blob) % 8)).decode("utf-8"))
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return ""


def _english(sentence: str, turned: str) -> str:
    """``turned`` (the sentence rotated or reversed) when it reads as English and the sentence
    as written does not."""
    words = re.findall(r"[A-Za-z]+", sentence)
    if len(words) < 5:
        return ""
    # a word common both ways ("no"/"on", "cc") says nothing about which way the text reads
    before = sum(w.lower() in _COMMON and w.lower()[::-1] not in _COMMON for w in words)
    after = sum(w.lower() in _COMMON for w in re.findall(r"[A-Za-z]+", turned))
    return turned if after >= 3 and after >= len(words) / 4 and before <= len(words) / 10 else ""
