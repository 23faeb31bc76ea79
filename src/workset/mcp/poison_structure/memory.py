"""``plants-memory``: the model told to store, in its own memory or the user's standing
instructions, content the definition dictates (a rule, a "preference" the user never stated).

A memory tool honestly stores what the user asks it to remember; a definition that writes its
own words into long-term memory, custom instructions or "all future conversations" speaks to
every later session with the user's authority. A sentence is judged by three slots: a memory
that outlives the conversation, a verb that stores into it, and content the text supplies (a
colon or a quotation, "that …", "the following", or the content attributed to the user: "as a
user preference", "as something the user told you"). The user's own request ("only what the
user asks you to remember", "cuando el usuario lo pida") makes it the tool's function.
"""

from __future__ import annotations

import re

from workset.mcp.poison_structure.text import USER_GATE

_I = re.IGNORECASE

_MEMORY = re.compile(
    r"\b((long[- ]term|persistent|permanent|durable|lasting|saved|agent['’]?s?|assistant['’]?s?|"
    r"your|its|the\s+model['’]s)\s+memor(y|ies)|memory\s+(bank|store|entries)|custom\s+"
    r"instructions|standing\s+instructions|(the\s+)?user(['’]s)?\s+(profile|preferences)(\s+notes)?|"
    r"profile\s+notes|saved\s+preferences|user\s+memory|"
    r"(for|in|across|during)\s+(all\s+|every\s+|any\s+)?(future|later|subsequent|upcoming|"
    r"following)\s+(conversations?|sessions?|chats?|interactions?))\b"
    r"|\bmemoria\s+(a\s+largo\s+plazo|permanente|persistente|a\s+lungo\s+termine)|\btu\s+memoria"
    r"|\binstrucciones\s+personalizadas|\bfutur[ao]s\s+(conversaciones|sesiones|conversas)"
    r"|\bmémoire\s+(à\s+long\s+terme|permanente|persistante|de\s+l['’](assistant|agent|ia))"
    r"|\b(votre|ta|sa)\s+mémoire|\binstructions\s+personnalisées|\b(conversations|sessions)\s+"
    r"futures|\blangzeitgedächtnis|\bgedächtnis|\bdauerhaft\w*\s+speicher|\b(künftig|zukünftig)"
    r"\w*\s+(gespräch|sitzung)\w*|\bmemória\s+(de\s+longo\s+prazo|permanente|persistente)|"
    r"\bsua\s+memória|\bconversazioni\s+future|\b(долговременн|постоянн)\w*\s+памят\w*|"
    r"\bсвою\s+память|\bбудущих\s+(разговор|сесси|диалог)\w*"
    r"|\b(langetermijn)?geheugen\b|\buzun\s+süreli\s+(bellek|hafıza)|\bhafızan\w*|"
    r"\bpamię(ć|ci)\s+długotrwał\w*|\bswojej\s+pamięci|\blångtidsminne\w*|\bditt\s+minne|"
    r"\bmemori\s+jangka\s+panjang|\bbộ\s+nhớ\s+dài\s+hạn|الذاكرة\s+طويلة\s+المدى|ذاكرتك|"
    r"दीर्घकालिक\s+(स्मृति|मेमोरी)"
    r"|长期记忆|永久记忆|记忆中|以后的(对话|会话)|長期記憶|記憶に|メモリ(に|へ)|今後の(会話|セッション)"
    r"|장기\s*기억|메모리에|앞으로의\s*대화",
    _I,
)
_STORE = re.compile(
    r"\b(save|saving|store|storing|add|adding|write|writing|record|keep|put|remember|"
    r"memori[sz]e|note|update|append|insert|persist|pin|commit|include)\b"
    r"|\b(guard|almacen|recuerd|anot|añad|agreg|registr|enregistr|mémoris|reten|sauvegard|ajout|"
    r"speicher|merk|notier|füge|leg|salv|memoriz|lembr|adicion|aggiung|annot|ricord|inser)\w*"
    r"|\b(sla|slaat|bewaar|onthoud|opslaan|kaydet|sakla|hatırla|zapisz|zapamiętaj|spara|"
    r"kom\s+ihåg|simpan|ingat|lưu|ghi\s+nhớ)\w*|احفظ|تذكر|सहेज|याद\s+रख"
    r"|\b(сохран|запомн|добав|запиш|внес)\w*|保存|记住|存入|写入|添加|记下|記憶して|覚えて|追加|"
    r"書き込|저장|기억해|추가|기록",
    _I,
)
# Content the text itself supplies: after a colon, in quotes, as a clause, or put in the
# user's mouth.
_DICTATED = re.compile(
    r"[:：]\s*\S|[\"'«「“‘]\s*\w+(\s+\w+){2,}|「|\b(that|the\s+following|this\s+rule|these\s+rules)"
    r"\b|\bas\s+(an?\s+|the\s+)?(user['’]s\s+)?(own\s+|standing\s+|permanent\s+)?"
    r"(preference|instruction|rule|fact)|\bas\s+(something|what)\s+the\s+user\s+(said|told|"
    r"wants|asked|stated)|\bthe\s+user\s+(prefers|wants|always|never|does\s+not|doesn['’]?t)"
    r"|\b(que|como\s+preferencia|suivante|comme\s+préférence|dass|folgende|como\s+"
    r"preferência|come\s+preferenza|dat|ki|że|att|bahwa|rằng)\b|として|作为|что\b|\bأن\b|\bकि\b",
    _I,
)
# The user's own request: what the user asks to be remembered, in their words.
_USERS_OWN = re.compile(
    r"\b(only\s+)?(what|things|facts?|anything|whatever)\s+the\s+user\s+(explicitly\s+|"
    r"specifically\s+)?(asks|tells|says|wants|requests|chooses|dictates|gives|provides|types)|\bthe\s+user\s+(explicitly\s+)?"
    r"(asks|tells)\s+you\s+to\s+(remember|save|store|forget)|\bcuando\s+el\s+usuario\s+(lo\s+)?"
    r"(pida|pide|solicite|diga)|\bsi\s+el\s+usuario\s+lo\s+pide|\bquand\s+l['’]utilisateur\s+(le\s+)?"
    r"demande|\bwenn\s+der\s+(nutzer|benutzer)\s+(es\s+)?(wünscht|verlangt|bittet)|\bpor\s+"
    r"pedido\s+do\s+usuário|\bsu\s+richiesta\s+dell['’]utente|\bпо\s+просьбе\s+пользователя|"
    r"\b(wanneer|als)\s+de\s+gebruiker\s+(daarom\s+)?(vraagt|wil)|\bkullanıcı\s+iste\w*|"
    r"\bgdy\s+użytkownik\s+(o\s+to\s+)?poprosi|\bnär\s+användaren\s+ber|"
    r"ユーザーが.{0,12}(頼|依頼|求め)|用户(要求|请求)|사용자가.{0,12}(요청|부탁)",
    _I,
)


# The definition's own words copied into everything the tool writes, so they reach later
# sessions: "keep this paragraph as an observation on every entity you create".
_SELF_COPY = re.compile(
    r"\b(copy|keep|include|add|paste|repeat|carry|propagate|append|store|save|put|embed)\s+"
    r"(this|these|the\s+above|the\s+following)\s+(paragraph|text|note|notice|instructions?|"
    r"sentences?|description|message|block|conventions?|lines?|rules?)\b[^.]{0,60}?\b(in|into|"
    r"as|on|to|with)\s+(\w+\s+){0,3}(every|each|all|any)\b",
    _I,
)


def plants_memory(sentence: str) -> bool:
    """Whether ``sentence`` has the model store content it dictates in a memory that outlives
    the conversation, not at the user's request."""
    memory = _MEMORY.search(sentence)
    if _SELF_COPY.search(sentence) and not USER_GATE.search(sentence):
        return True
    if memory is None or not _STORE.search(sentence) or not _DICTATED.search(sentence):
        return False
    return not (_USERS_OWN.search(sentence) or USER_GATE.search(sentence))


# A standing wish put in the user's mouth: "The user has asked that every draft also include
# their phone number". A report of what the user asked in this conversation is the user's; a
# definition cannot know it, so a claim of a past request for a standing act is the writer's.
_CLAIMED_WISH = re.compile(
    r"^\W*(the\s+user|users|the\s+customer|the\s+account\s+owner)\s+(has|have)\s+(already\s+|"
    r"previously\s+|explicitly\s+)?(asked|requested|said|instructed|made\s+(it\s+)?clear|"
    r"decided|agreed)\s+(that|for|us\s+to|you\s+to)\b",
    _I,
)
_STANDING = re.compile(r"\b(every|each|all|always|any|whenever|from\s+now\s+on)\b", _I)


def claims_user_wish(sentence: str) -> bool:
    """Whether ``sentence`` opens by claiming the user already asked for a standing act."""
    return bool(_CLAIMED_WISH.search(sentence) and _STANDING.search(sentence))
