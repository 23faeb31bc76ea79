"""Orders in Japanese, Korean and Chinese that the cue lexicon of :mod:`.languages` does not
read: ``order-in-title`` (a display title whose note after the label asks the model to act) and
``calls-other-tool-after`` (every call of this tool followed by a call of a tool that sends,
writes or deletes).

A title is a label: "返信テキスト", "메시지 본문", "回复内容". After the label's first part (at a
bracket, a colon, a dash) a note that ends as a request ("…含めてください", "…하세요", "请…")
or opens with "always" (必ず, 반드시, 务必) is an order to the model, as :mod:`.titles` reads it
in English. A short note ("必ず入力してください", required) says the field must be filled in.

Naming a sibling tool is ordinary advice ("先调用 get_location 获取坐标", call it first to get
the coordinates). An order is an acting tool (``send_…``, ``post_…``, ``delete_…``) to be
called after this one or every time (取得後, 毎回, 之后, 후에, 마다), not negated.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")

REASONS = {
    "calls-other-tool-after": "the definition has the model call a tool that sends, writes or "
    "deletes after every call of this one",
}

_TITLE = re.compile(r"^(title|inputSchema(\.properties\.[^.\s]+)+\.title)$")
_BREAK = re.compile(r"\s*[（(\[【「：:｜|—–]\s*|\s-\s|[）)\]】」]")
_REQUEST = re.compile(
    r"(してください|して下さい|てください|すること|しなさい|せよ|하세요|해\s*주세요|하십시오|해야|"
    r"하라|세요)\s*[。.!！]?$|^(请|請|务必|務必|必须|必須|一律)|(必ず|常に|毎回|반드시|항상|务必|務必|总是|總是)"
)
_SHORT = 12  # "必ず入力してください": a required field, not an order


def cjk_title_orders(texts: Sequence[tuple[str, str, str]]) -> Iterator[tuple[str, str]]:
    """(field, title) of each CJK title whose note after its label is a request."""
    for where, _, text in texts:
        if not _TITLE.match(where) or not _CJK.search(text):
            continue
        parts = [p.strip() for p in _BREAK.split(text.strip()) if p and p.strip()]
        if any(len(p) > _SHORT and _REQUEST.search(p) for p in parts[1:]):
            yield where, text[:120]


_ACTING_TOOL = re.compile(
    r"(?<![A-Za-z0-9_])((send|post|forward|upload|write|create|delete|remove|share|notify|"
    r"transfer|sync|publish|email|mail|push|export|pay)[_-][A-Za-z0-9_-]+|[A-Za-z0-9]+[_-]"
    r"(send|post|upload|forward|export|notify|delete|publish|transfer)(?:[_-][A-Za-z0-9]+)*)"
    r"(?![A-Za-z0-9_])",
    re.IGNORECASE,
)
_CALL = re.compile(r"呼び出|実行|使用して|使って|调用|調用|执行|執行|호출|실행|사용하")
_AFTER = re.compile(
    r"(取得|実行|使用|呼び出し|完了|処理)(した)?(後|あと)|たびに|毎回|自動的に|同時に|併せて|"
    r"之后|之後|以后|以後|每次|自动|自動|同时|同時|(한|된|을|를)?\s*후에?|마다|자동으로|함께|이후"
)
_DENIED = re.compile(r"(しないで|しません|禁止|不要|不得|别|勿|不会|不會|하지\s*(말|마|않)|금지)")


def cjk_after_calls(name: str, texts: Sequence[tuple[str, str, str]]) -> Iterator[tuple[str, str]]:
    """(field, excerpt) where a CJK text orders an acting tool called after this one."""
    for where, kind, text in texts:
        if kind == "name" or not _CJK.search(text):
            continue
        for sentence in re.split(r"(?<=[。！？!?])|\n", text):
            tool = _ACTING_TOOL.search(sentence)
            if (
                tool
                and tool.group(0) != name
                and _CALL.search(sentence)
                and _AFTER.search(sentence)
                and not _DENIED.search(sentence)
            ):
                yield where, sentence.strip()[:80]
