"""The tool's own subject: the kind of secret its name says it handles, the credential file its
domain uses, the shell history a history tool reads. A finding on such a thing in a sentence
that moves it nowhere is the tool describing itself (the ``own-subject`` and ``own-domain``
classes of :mod:`workset.mcp.poison_precision`)."""

from __future__ import annotations

import re

from workset.mcp.poison_terms import CREDENTIAL_FILE

_I = re.IGNORECASE

# What a tool's name says it handles, and the same kind named in a sentence.
_SECRET_SUBJECT = re.compile(
    r"\b(secrets?|vault|tokens?|keys?|passwords?|credentials?|env|environment|keychain|apikey|"
    r"prompts?)\b",
    _I,
)
# A sentence that moves a value: to an address, into a field or another tool, out of the chat.
_MOVES_OUT = re.compile(
    r"https?://|\b[\w.+-]+@[\w-]+\.\w+|\b[a-z]+_[a-z_]+\b|\b(send|forward|upload|post|e-?mail|"
    r"share|transmit|attach|append|include|paste|embed|pass|put|submit|sync|export)(s|es|ed|d|"
    r"ing|ting)?\b",
    _I,
)
# What the user is told to do is the user's act: "tell the user to copy it into their store".
_USER_ACT = re.compile(
    r"\b(tell|ask|remind|advise|instruct|let)\s+(the\s+user|them|the\s+customer)\s+(to|that\s+"
    r"they\s+(should|can|must))\s+[^;.]*",
    _I,
)


# A credential file of the kind the tool's own domain uses (a Kubernetes tool's kubeconfig, an
# npm tool's .npmrc), in a sentence that moves it nowhere.
_DOMAINS = (
    ("kube", r"kube\w*|k8s|deployments?|namespaces?|pods?|helm|clusters?"),
    ("npmrc", r"npm|node|packages?|yarn|pnpm"),
    (".aws", r"aws|s3|ec2|lambda|iam|dynamodb|cloudformation"),
    ("gcloud", r"gcp|gcloud|google\s+cloud|bigquery|gcs"),
    ("application_default", r"gcp|gcloud|google\s+cloud|bigquery|gcs|buckets?"),
    (".azure", r"azure"),
    (".docker", r"docker|containers?|images?"),
    ("git-credentials", r"git|repos?|repositor\w+|clone"),
    ("pgpass", r"postgres\w*|psql|pg"),
)


def own_domain(sentence: str, purpose: str) -> bool:
    kinds = {m.group(0).lower() for m in re.finditer(CREDENTIAL_FILE, sentence, _I)}
    if not kinds or _HANDLED.search(NEGATED_ACT.sub(" ", sentence)):
        return False
    return all(
        any(key in kind and re.search(rf"\b({words})\b", purpose, _I) for key, words in _DOMAINS)
        for kind in kinds
    )


_HISTORY = re.compile(r"\b(shell|bash|zsh|command)[\s_]history\b|\.(bash|zsh)_history\b", _I)
_CREDENTIAL = re.compile(CREDENTIAL_FILE, _I)
_HANDLED_HISTORY = re.compile(
    r"\b(send|upload|post|forward|paste|attach|include|append|copy|share|submit)\w*\b", _I
)


def own_history(sentence: str, name: str) -> bool:
    """The shell history named by a tool whose name is about history, not sent anywhere and
    with no credential file beside it."""
    if not _HISTORY.search(sentence) or _CREDENTIAL.search(sentence):
        return False
    named = re.search(r"\bhistory\b", re.sub(r"[_\-.]+", " ", name), _I)
    return bool(named) and not _HANDLED_HISTORY.search(sentence)


NEGATED_ACT = re.compile(r"\b(never|not|no|n['’]t)\s+\w+", _I)
# The file handled by whoever reads the text, not named as what the server uses.
_HANDLED = re.compile(
    r"\b(read|open|cat|load|fetch|retriev|copy|paste|include|attach|upload|send|print|dump|"
    r"output|contents?|retry|verbatim|forward|pass|fill|put|füg|lies|lese|lir|leggi|прочит|"
    r"отправ)\w*|\blee\b|読|读|(?<!https)(?<!http):(?!//)|[{<]",
    _I,
)


def own_subject(sentence: str, name: str) -> bool:
    """The tool's name says it handles this kind of secret, and the sentence moves it nowhere."""
    words = re.sub(r"[_\-.]+|(?<=[a-z])(?=[A-Z])", " ", name)
    handled = {_KIND.get(k, k) for k in kinds(words)}
    named = {_KIND.get(k, k) for k in kinds(sentence)}
    if not handled & named:
        return False
    told = _USER_ACT.sub(" ", sentence)
    return not _MOVES_OUT.search(told.replace(name, " "))


_KIND = {"env": "environment", "vault": "secret", "apikey": "key", "keychain": "key"}
# "secret" and "key" in "secret key", "API key" name one kind; "prompt" covers "system prompt".


def kinds(text: str) -> set[str]:
    return {m.group(1).lower().removesuffix("s") for m in _SECRET_SUBJECT.finditer(text)}
