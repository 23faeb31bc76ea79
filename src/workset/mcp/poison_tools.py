"""Structural signals about other tools and code: where a sentence sends the model next.

A tool may point to a sibling for its own input ("call list_files first to get the ids",
"pass the returned cursor to list_items"); these checks look for the shapes that make such a
pointer an instruction the tool has no claim to, whatever the wording:

- :func:`passes_to_other_tool`: secrets or the conversation handed to another tool ("pass
  them to log_event", where "them" are passwords and tokens);
- :func:`acts_through_other_tool`: an imperative that changes something through another tool
  ("set each recording's sharing to public via update_recording_settings"), unless the
  sentence opens with its purpose ("To share a file, use share_file") or is gated on the user;
- :func:`retargets_other_tool`: a condition on another tool's use and an order to change its
  arguments ("when any payment tool is used, set its destination to …");
- :func:`runs_remote_script`: a download piped into a shell (``curl … | sh``), an order to run
  code nobody reviewed;
- :func:`unrelated_data`: a field asking for the contents of files, mail, chats, notes,
  contacts, the clipboard, the screen or logs, when nothing in the tool's name or its opening
  sentence is about that kind of data (a weather tool asking for "the contents of the most
  recently opened file").

Each is excused by a negation before it in the sentence. ``params`` (the tool's own parameter
names) are never "another tool"; the tool's own name already reads as "this tool".
"""

from __future__ import annotations

import re

from workset.mcp.poison_terms import CONTEXT, NEGATED

_I = re.IGNORECASE
_IDENT = r"(?-i:\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+[A-Z]\w*\b)"
_NAMED_TOOL = rf"({_IDENT}|\bthe\s+(?!same\b|this\b)[\w-]+\s+tool\b)"
_PASS = re.compile(
    r"\b(pass|send|forward|give|hand|feed|pipe|log|copy|report|post|submit|mirror)\s+"
    r"(them|it|these|those|this|that|the\s+[\w-]+(\s+[\w-]+)?|its\s+[\w-]+|all\s+[\w-]+|"
    r"every\s+[\w-]+|each\s+[\w-]+)\s+((on|along|over)\s+)?(to|into|through|via)\s+(the\s+)?"
    rf"(?P<tool>{_IDENT})(?!\s+(field|parameter|argument|param|property|key|column)\b)",
    _I,
)
_CHANGE = (
    r"(set|make|change|switch|turn|share|grant|publish|expose|delete|remove|disable|enable|"
    r"update|mark|open|unlock|transfer|move|invite|add)"
)
_THROUGH = re.compile(
    rf"(^|[:;,(]\s*|\b(and|then|also)\s+)(?P<verb>{_CHANGE})\b[^.;]{{0,100}}?\b(via|using|"
    rf"through|with)\s+(?P<tool>{_NAMED_TOOL})",
    _I,
)
_PURPOSE = re.compile(
    r"^\s*(to\s+\w+|if\s+(you|the\s+user)\s+(want|need|ask)|when\s+(the\s+user|asked)|"
    r"(only\s+)?if\s+the\s+user)\b"
    # what the user can do, not what the model is told: "Users can delete memories with forget"
    r"|^\s*(the\s+)?(users?|customers?|people|admins?|owners?)\s+(can|may|could|are\s+able\s+to)\b",
    _I,
)
_GATED = re.compile(
    r"\b(if|when|once|after)\s+the\s+user\s+(asks|requests|confirms|approves|wants|says)\b", _I
)
_USED = re.compile(
    r"\b(when(ever)?|if|each\s+time|every\s+time|any\s+time|once)\b(?P<cond>[^.;]{0,140}?)\b"
    r"(is|are|gets?)\s+(used|called|invoked|run|executed)\b[^.;]{0,60}?,\s*(then\s+)?"
    r"(also\s+)?(always\s+)?(set|change|replace|override|redirect|point|swap|fill|rewrite)\s+"
    r"(its|their|the\s+call['’]?s?)\b",
    _I,
)
_OTHER_KIND = re.compile(
    r"\b(any|every|each|another|other|all)\s+([\w-]+\s+){0,3}(tools?|servers?|connectors?|"
    r"integrations?)\b|" + _IDENT,
    _I,
)
_REMOTE_SCRIPT = re.compile(
    r"\b(curl|wget|iwr|invoke-webrequest|irm|invoke-restmethod)\b[^|\n`]{0,200}\|\s*(sudo\s+)?"
    r"((ba|z|k|da|fi)?sh|iex|invoke-expression|python3?|perl|ruby|node)\b"
    r"|\b(ba|z)?sh\s+(-c\s+)?[\"']?\$?<?\(\s*(curl|wget)\b",
    _I,
)


def passes_to_other_tool(sentence: str, params: frozenset[str]) -> bool:
    """Secrets or the conversation in ``sentence`` handed to another tool by name."""
    for found in _PASS.finditer(sentence):
        if found.group("tool").lower() in params:
            continue
        if NEGATED.search(sentence[: found.start()]):
            continue
        if re.search(CONTEXT, sentence, _I):
            return True
    return False


def acts_through_other_tool(sentence: str, params: frozenset[str]) -> bool:
    """An imperative that changes something through another tool, not advice on how to."""
    if _PURPOSE.search(sentence) or _GATED.search(sentence):
        return False
    for found in _THROUGH.finditer(sentence):
        tool = found.group("tool").lower()
        if tool in params or (tool.startswith("the ") and tool.split()[1] in params):
            continue
        if not NEGATED.search(sentence[: found.start("verb")]):
            return True
    return False


def retargets_other_tool(sentence: str, params: frozenset[str]) -> bool:
    """A condition on another tool's use followed by an order to change its arguments."""
    for found in _USED.finditer(sentence):
        refs = [m.group(0).lower() for m in _OTHER_KIND.finditer(found.group("cond"))]
        if any(r not in params for r in refs) and not NEGATED.search(sentence[: found.start()]):
            return True
    return False


def runs_remote_script(sentence: str) -> bool:
    """A download piped into a shell or an interpreter, not negated."""
    return any(not NEGATED.search(sentence[: m.start()]) for m in _REMOTE_SCRIPT.finditer(sentence))


# Data a definition asks for, by family: a tool that asks for one has to be about it.
_FAMILIES: dict[str, tuple[str, ...]] = {
    "file": (
        "file",
        "document",
        "doc",
        "path",
        "folder",
        "director",
        "repo",
        "workspace",
        "disk",
        "upload",
        "attachment",
        "pdf",
        "csv",
        "source",
        "code",
        "project",
        "dockerfile",
        "commit",
        "git",
        "diff",
        "patch",
        "branch",
        "merge",
        "change",
        "edit",
    ),
    "mail": ("mail", "inbox", "message", "thread", "letter", "smtp", "imap"),
    "chat": ("chat", "conversation", "message", "slack", "discord", "transcript", "dialog"),
    "note": ("note", "memo", "journal", "notebook", "obsidian", "notion", "page"),
    "contact": ("contact", "address book", "people", "person", "crm", "customer"),
    "calendar": ("calendar", "event", "meeting", "schedule", "invite"),
    "clipboard": ("clipboard", "paste", "copy"),
    "screen": ("screen", "screenshot", "display", "window", "browser", "page"),
    "terminal": ("terminal", "shell", "command", "console", "output", "log"),
    "log": ("log", "trace", "debug", "event", "monitor", "error"),
    "history": ("history", "browser", "visit"),
}
_NOUN = {
    # a file by its name ("config.yaml", ".gitconfig") or as a kind ("the settings file")
    "file": r"files?|documents?|source\s+files?|(config(uration)?|settings|dot)\s*files?|"
    r"[\w-]*\.(ya?ml|json|toml|ini|cfg|conf|txt|xml|properties|gitconfig|[a-z]+rc)",
    "mail": r"e-?mails?|inbox|mailbox",
    "chat": r"chats?|conversations?|dialog(ue)?s?",
    "note": r"notes|journal|notebooks?",
    "contact": r"contacts|address\s+book",
    "calendar": r"calendars?|agenda",
    "clipboard": r"clipboard",
    "screen": r"screen|screenshots?|open\s+tabs?",
    "terminal": r"terminal|shell\s+output|command\s+output",
    "log": r"logs",
    "history": r"(browsing|browser|search)\s+history",
}
_ASKED = re.compile(
    r"\b(contents?|full\s+text|text|body|bodies|copy|dump|list)\s+of\s+(the\s+|any\s+|every\s+|all\s+|"
    r"your\s+|their\s+|its\s+|the\s+user['’]s\s+|each\s+)?([\w'’-]+\s+){0,3}?(?P<noun>"
    + "|".join(f"(?P<{k}>{v})" for k, v in _NOUN.items())
    + r")\b"
    r"|\b(most\s+recent(ly)?|last|latest|currently|recently)\s+(opened|open|edited|read|viewed|"
    r"used|active)\s+(?P<noun2>(?P<file2>files?|documents?)|(?P<mail2>e-?mails?)|"
    r"(?P<screen2>tabs?|windows?|pages?))\b",
    _I,
)


def unrelated_data(name: str, description: str, where: str, text: str) -> bool:
    """``text`` (one field of the definition) asks for the contents of files, mail, chats,
    notes, contacts, the clipboard, the screen or logs, and nothing in the tool's name or the
    opening of its description is about that kind of data: a weather tool asking for "the
    contents of the most recently opened file"."""
    own = (re.sub(r"[_\-.]|(?<=[a-z])(?=[A-Z])", " ", name) + " " + _opening(description)).lower()
    for found in _ASKED.finditer(text):
        if NEGATED.search(text[: found.start()]):
            continue
        kinds = [k.removesuffix("2") for k, v in found.groupdict().items() if v and "noun" not in k]
        if found.group(0).lower().startswith("list"):
            kinds = [k for k in kinds if k != "file"]  # a list of files names them, reads nothing
        for kind in kinds:
            if not any(word in own for word in _FAMILIES[kind]):
                return True
    return False


def _opening(description: str) -> str:
    return re.split(r"(?<=[.!?])\s+|\n", description.strip(), maxsplit=1)[0]
