"""Concealment in Chinese and Spanish phrasings the cue lexicon of :mod:`.languages` lacks (round
29, from blind cohort 30's tune half): the act kept out of the reply ("不要在回复中提及此交易",
"请勿向用户透露", "no lo menciones al usuario"), reported as ``hides-from-user``.

Withdrawn in the same round: ``extra-act`` (a reading tool whose text has the model also trade,
pay, unlock or delete). On the round's held-out read it flagged one more benign definition of
cohort 25's held-out half and caught nothing more there.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from workset.mcp.poison_structure.text import sentences

_I = re.IGNORECASE

# Chinese and Spanish concealment of an act the lexicon of languages.py misses.
_HIDES = re.compile(
    r"(不要|别|勿|请勿|切勿|无需|無需|不必)\s*(在|于|於)?\s*(回复|回覆|回答|答复|输出|結果|结果)\s*中?"
    r"\s*(提及|提到|说明|說明|透露|显示|顯示)"
    r"|(不要|别|勿|请勿|切勿|不得)\s*(向|对|對|跟)\s*(用户|用戶|客户|客戶)\s*(透露|提及|提起|说明|說明|"
    r"显示|顯示|披露)"
    r"|\bno\s+(lo|la|los|las)\s+(menciones|mencione|muestres|muestre|reveles|revele|"
    r"comentes|comente)\b",
    _I,
)


def concealment_findings(texts: Sequence[tuple[str, str, str]]) -> Iterator[tuple[str, str, str]]:
    """(field, rule, excerpt) for every such concealment; ``texts`` are (field, kind, readable
    text) as :func:`workset.mcp.poison_structure.structural_findings` takes them."""
    for where, kind, text in texts:
        if kind == "name":
            continue
        for sentence in sentences(text):
            if _HIDES.search(sentence):
                yield where, "hides-from-user", sentence[:80]
