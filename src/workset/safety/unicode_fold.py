"""Text as a reader sees it: one spelling for look-alike letters, invisible characters gone.

Attackers hide words from pattern matching with letters that look the same (Cyrillic ``о``
for Latin ``o``, full-width ``ｒｍ``, mathematical ``𝐫𝐦``), characters that render as nothing
(zero-width spaces, Unicode TAG characters that smuggle ASCII, bidi controls that reorder what
is shown) and spacing (``i g n o r e``). :func:`fold` undoes the first two: NFKC (full-width,
ligatures, mathematical letters), then :data:`CONFUSABLES` (the Cyrillic, Greek and Armenian
letters that look like Latin ones), with invisible characters removed. :func:`invisible`
lists what was removed, so callers can report it: hiding text is a finding in itself.

The command analysis folds command names and words before judging them; the MCP audit folds
every text a server sends.
"""

from __future__ import annotations

import re
import unicodedata

# Look-alikes NFKC leaves alone, mapped to the Latin letter they imitate.
CONFUSABLES: dict[str, str] = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ү": "y", "ӏ": "l", "ɡ": "g", "ո": "n",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ԁ": "D", "Ԛ": "Q", "Ԝ": "W",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z",
    "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y",
    "Χ": "X",
    # Armenian and Latin extensions
    "օ": "o", "ս": "u", "ց": "g", "ɑ": "a", "ı": "i", "ʏ": "y", "ᴅ": "d", "ꞁ": "l",
    # punctuation that stands in for ASCII in paths and commands
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "−": "-", "⁄": "/", "∕": "/",
    "ǀ": "|", "׀": "|",
}  # fmt: skip
_TABLE = str.maketrans(CONFUSABLES)
# Zero-width and joiner characters, bidi embeddings/overrides/isolates, the BOM, soft hyphen,
# variation selectors and the TAG block (U+E0000–U+E007F, used to smuggle invisible ASCII).
INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\U000e0000-\U000e007f"
    "\U000e0100-\U000e01ef]"
)
_TAG_START, _TAG_END = 0xE0020, 0xE007E


def fold(text: str) -> str:
    """``text`` with look-alikes mapped to ASCII and invisible characters removed."""
    return unicodedata.normalize("NFKC", INVISIBLE.sub("", text)).translate(_TABLE)


def invisible(text: str) -> list[str]:
    """The invisible characters in ``text`` (in order), as ``U+XXXX NAME``."""
    return [
        f"U+{ord(c):04X} {unicodedata.name(c, 'TAG' if ord(c) >= 0xE0000 else 'FORMAT')}"
        for c in INVISIBLE.findall(text)
    ]


def tag_payload(text: str) -> str:
    """The ASCII hidden in Unicode TAG characters (each TAG maps to one printable letter)."""
    return "".join(chr(ord(c) - 0xE0000) for c in text if _TAG_START <= ord(c) <= _TAG_END)


def is_ascii_lookalike(word: str) -> bool:
    """True when ``word`` is not ASCII but folds to ASCII: a disguised ASCII word."""
    return not word.isascii() and fold(word).isascii()
