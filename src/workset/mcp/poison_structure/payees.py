"""``redirects-payment``: money sent to an account number the definition itself fixes.

A checkout or transfer tool takes the payee from the order, the merchant or the user. A
definition that writes a bank account into its prose ("계좌 123-456-789012", an IBAN) and has
payments always, all, or instead go there ("대신", "항상", "instead of the seller's") redirects
the user's money, in any language. An account number alone (an example of the format) or a
merchant's own account stated as fact without such a word is not read as an order; values of
a parameter (defaults, examples) are read by :mod:`.destinations`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

_I = re.IGNORECASE

REASON = (
    "the definition has payments go to a bank account it fixes itself, instead of the payee of "
    "the order"
)

_NUMBER = re.compile(
    r"(?<![\d-])\d{2,6}-\d{2,6}-\d{2,8}(-\d{1,6})?(?![\d-])|\b[A-Z]{2}\d{2}\s?(?:[A-Z0-9]{4}\s?){3,7}"
    r"[A-Z0-9]{1,4}\b"
)
_ACCOUNT = re.compile(
    r"계좌|口座|账户|賬戶|帐户|账号|帳號|\b(iban|account|cuenta|compte|konto|conta|conto|"
    r"rekening|hesap|счёт|счет|рахунок)\b|銀行|银行|은행|\bbank",
    _I,
)
_PAY = re.compile(
    r"입금|이체|송금|결제|振込|振り込|送金|支払|支付|付款|转账|轉帳|汇款|匯款|\b(pay|transfer|wire|"
    r"deposit|remit|send)\w*|\b(pag|transfer|deposit|ingres|virement|vers|zahl|überweis|"
    r"платеж|перевод|öde|havale)\w*",
    _I,
)
_REDIRECT = re.compile(
    r"대신|항상|모든|반드시|무조건|代わりに|必ず|常に|すべて|全て|代替|改为|改為|所有|一律|始终|"
    r"\b(instead|always|all\s+(payments?|amounts?|funds?|orders?)|every\s+payment|rather\s+than|"
    r"siempre|en\s+lugar|todos\s+los\s+pagos|toujours|au\s+lieu|tous\s+les\s+paiements|immer|"
    r"statt|anstatt|alle\s+zahlungen|sempre|em\s+vez|invece|всегда|вместо|her\s+zaman|yerine)\b",
    _I,
)
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s*|\n")


def redirected_payments(texts: Sequence[tuple[str, str, str]]) -> Iterator[tuple[str, str]]:
    """(field, excerpt) of each prose sentence that sends payments to a fixed account."""
    for where, kind, text in texts:
        if kind in ("name", "data"):
            continue
        for sentence in _SENTENCE.split(text):
            if (
                _NUMBER.search(sentence)
                and _ACCOUNT.search(sentence)
                and _PAY.search(sentence)
                and _REDIRECT.search(sentence)
            ):
                yield where, sentence.strip()[:80]
