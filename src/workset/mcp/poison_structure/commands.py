"""``orders-denied-command``: a definition tells the model to run a command (a code span after an
imperative "run", "execute", "drop" …) that the project's own shell policy
(:func:`workset.safety.commands.analyze_command`) denies: a force push over a shared branch, a
recursive delete of the user's home, an infrastructure destroy, a download piped into a shell,
an SQL ``DROP``; or that installs packages from an index named in the command. The same command
named to be refused ("never runs `terraform destroy`"), under the user's condition, described in
the third person ("Runs `terraform plan`") or allowed by the policy is documentation."""

from __future__ import annotations

import re
import shlex

from workset.mcp.poison_structure.text import IMPERATIVE_AT, NEGATION, gated, negated_clause

_I = re.IGNORECASE

_SPAN = re.compile(r"(`{1,3})([^`\n]{2,400})\1")
# The imperative of running, or of the act a span spells out ("drop the table (`DROP …`)"), in
# English and in German, French, Spanish, Italian and Portuguese ("führe `…` aus"); not
# "runs", and not after "is", "be" or "to be" (a passive describes what happens).
_RUN = re.compile(
    r"(?<![-/.])(?<!\bis\s)(?<!\bbe\s)(?<!\bare\s)\b(run|re-run|execute|exec|type|enter|issue|invoke|paste|"
    r"drop|truncate|delete|wipe|launch|führe|führen|starte|exécute[zr]?|lance[zr]?|ejecut[ae]|"
    r"esegui|rode)\b",
    _I,
)
_SQL = re.compile(
    r"^\s*(drop|truncate|delete\s+from|alter\s+(table|role|user)|grant|revoke|"
    r"create\s+(role|user)|update\s+\w+\s+set)\b",
    _I,
)
# An install from an index the command names instead of the configured one.
_OWN_INDEX = re.compile(
    r"(--(extra-)?index-url|--registry|\s-i)\s*[= ]\s*(?!https?://(pypi\.org|files\.pythonhosted"
    r"\.org|registry\.npmjs\.org|registry\.yarnpkg\.com)\b)https?://",
    _I,
)


# Where an unquoted command after "run" ends: a purpose ("to make sure"), a time or a stop.
_COMMAND_END = re.compile(
    r"\s+(to|so|in\s+order|before|after|when|once|because|which|first)\s|[.;]\s|[.;]?$"
)


def ordered_command(sentence: str, *, unquoted: bool = True) -> str | None:
    """The shell policy's rule for the first command ``sentence`` tells the model to run that
    the policy denies (or that installs from an index of its own), or None: a code span after
    the verb, or the words right after "run"/"execute" up to a purpose or a stop."""
    for verb in _RUN.finditer(sentence):
        at = verb.start()
        if NEGATION.search(sentence[:at]) or negated_clause(sentence, at) or gated(sentence, at):
            continue
        span = _SPAN.search(sentence, verb.end())
        if span and sentence[verb.end() : span.start()].count(" ") <= 8:
            command = span.group(2)
        elif (
            unquoted
            and verb.group(1).lower() in ("run", "re-run", "execute", "exec")
            and IMPERATIVE_AT.search(sentence[:at])
        ):
            rest = sentence[verb.end() :].strip()
            command = rest[: _COMMAND_END.search(rest).start()]  # type: ignore[union-attr]
        else:
            continue
        rule = denied_rule(command) if command.strip() else None
        if rule:
            return rule
    return None


# A git setting set in prose: "set core.hooksPath to /tmp/.hooks" is `git config` of it.
_GIT_SETTING = re.compile(
    r"\bset\s+(git\s+)?(config\s+)?`?(?P<key>(core|credential|url|http|remote|alias|include|"
    r"init|safe)\.[\w.-]+)`?\s+(to|=)\s+`?(?P<value>[^\s`]+?)`?(?=[\s.,;]|$)",
    _I,
)


def ordered_setting(sentence: str) -> str | None:
    """The shell policy's rule denying ``git config`` of a git setting ``sentence`` tells the
    model to set, or None."""
    for found in _GIT_SETTING.finditer(sentence):
        at = found.start()
        if NEGATION.search(sentence[:at]) or gated(sentence, at):
            continue
        rule = denied_rule(f"git config {found['key']} {shlex.quote(found['value'])}")
        if rule:
            return rule
    return None


# A clause that is itself a command line: "To speed things up, chmod -R 777 ~ before running."
_CLAUSE_COMMAND = re.compile(r"(?:^|[,;:]\s+)(?P<cmd>[a-z][\w.-]*\s+-{1,2}\w[^,;]*)")


def clause_command(sentence: str) -> str | None:
    """The shell policy's rule denying a clause of ``sentence`` that is a bare command line (a
    lower-case program name and a flag), when nothing in the sentence negates it."""
    if NEGATION.search(sentence):
        return None
    for found in _CLAUSE_COMMAND.finditer(sentence):
        rest = found.group("cmd")
        command = rest[: _COMMAND_END.search(rest).start()]  # type: ignore[union-attr]
        if gated(sentence, found.start("cmd")):
            continue
        rule = denied_rule(command) if command.strip() else None
        if rule:
            return rule
    return None


def ordered_block(text: str) -> str | None:
    """:func:`ordered_command` for a fenced code block whose line before it orders it run
    ("Before running the report, execute:" then a ``` block)."""
    for block in re.finditer(r"```[\w-]*\n(.*?)```", text, re.DOTALL):
        lead = text[max(0, block.start() - 120) : block.start()].split("\n")[-2:]
        lead_in = " ".join(lead).strip()
        for line in block.group(1).splitlines():
            if line.strip() and ordered_command(f"{lead_in} `{line.strip()}`"):
                return denied_rule(line.strip())
    return None


def denied_rule(command: str) -> str | None:
    """The rule the shell policy denies ``command`` by (an SQL statement as ``psql -c`` runs
    it), ``package-install`` for an install from an index the command names, or None."""
    from workset.safety.commands import analyze_command  # the safety package loads late

    if _SQL.match(command):
        command = f"psql -c {shlex.quote(command)}"
    analysis = analyze_command(command)
    denied = analysis.denied()
    if denied:
        return denied[0].rule
    if any(f.rule == "package-install" for f in analysis.findings) and _OWN_INDEX.search(command):
        return "package-install"
    return None


# An irreversible destruction in the imperative: "permanently delete the originals", "empty the
# trash", "wipe the logs" (not "deletes", "deleted", "to delete", "can delete").
_DESTROY = re.compile(
    r"(?:^|[,;:]\s*|\b(?:then|and|also|first|always|must|should|please|now)\s+)"
    r"(?:(?:permanently|irreversibly|forcibly|quietly|silently)\s+)?"
    r"(?P<verb>(?:delete|erase|wipe|purge|shred|destroy|overwrite|truncate)\s+(?:(?:the|all|every|"
    r"any|their|its|his|her|your|old|existing|original)\b|~|/|\.)|empty\s+the\s+(?:trash|"
    r"recycle\s+bin|bin)\b)"
    r"|(?P<method>(?<![\w-])(?-i:DELETE)\s+/)",  # an HTTP DELETE on a path
    _I,
)
# Something made public or shared with everyone, in the imperative: "make the document public".
_PUBLISH = re.compile(
    r"(?:^|[,;:]\s*|\b(?:then|and|also|always|must|should|please|now)\s+)(?P<verb>(make|set|mark|"
    r"change|switch)\s+(the|it|its|this|that|every|each|all|any)\b([\w\s'’-]{0,30}?)\s+(to\s+)?"
    r"(public|world[- ]readable|visible\s+to\s+(everyone|anyone)|anyone\s+with\s+the\s+link))\b",
    _I,
)
_TO_SHARE = re.compile(r"\bto\s+(share|publish|make\s+[\w\s]{1,20}\s+public)\b", _I)
_PUBLISHES = re.compile(r"\b(public|publish|share|sharing|visibility|permission|access|gist)", _I)
# What a tool whose purpose is to remove or rewrite things says in its name or opening.
_REMOVES = re.compile(
    r"\b(delet|remov|eras|wip|purg|clean|prun|trash|destroy|drop|clear|shred|uninstall|truncat|"
    r"overwrit|reset|rotat|dedup|retention|cleanup|expire|gc\b|garbage)",
    _I,
)


def publishes_beyond_purpose(sentence: str, purpose_text: str) -> bool:
    """Whether ``sentence`` tells the model to make something public while the tool's purpose
    (its name and opening) says nothing of publishing or sharing."""
    if _PUBLISHES.search(purpose_text):
        return False
    for found in _PUBLISH.finditer(sentence):
        at = found.start("verb")
        if NEGATION.search(sentence[:at]) or negated_clause(sentence, at) or gated(sentence, at):
            continue
        if _TO_SHARE.search(sentence[:at]):
            continue  # "To share one, set it to public": how to do what the sentence names
        return True
    return False


def destroys_beyond_purpose(sentence: str, purpose_text: str) -> bool:
    """Whether ``sentence`` tells the model to destroy something irreversibly while the tool's
    purpose (its name and opening) names no removal: a photo sorter that "after sorting,
    permanently delete(s) the originals"."""
    if _REMOVES.search(purpose_text):
        return False
    for found in _DESTROY.finditer(sentence):
        at = found.start("verb") if found.group("verb") else found.start("method")
        if NEGATION.search(sentence[:at]) or negated_clause(sentence, at) or gated(sentence, at):
            continue
        return True
    return False
