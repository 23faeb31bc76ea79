"""The act a need commands, and whether a tool can do it: the words behind the act rules.

Two rules of :mod:`workset.discovery.decision` read these:

- **An act with an effect outside** (:data:`OUTBOUND`: buy, book, post, send...) must be named
  in the closest tool's texts in some form (:func:`names_act`), or the need is not served.
- **A change asked of a tool that only reads.** A need that commands a change (:data:`CHANGE`:
  delete, submit, upvote, restart, swap...) is not served by a tool that only looks things up.
  A tool *acts* when its name, or the first word of its description, is a verb that changes
  something (:data:`TOOL_ACTS`: create, add, write, delete, click, send...); ``get_story``,
  ``whois_ip`` and ``get_options`` only read, ``search_and_replace`` and ``make_move`` act.
  Only the need's own first word counts, not a model's restatement of it: asked what tool
  serves "a short overview of this article", the 1.5B writes "Generate a summary ...".

Both lists are general English verbs, written by hand (see ``docs/results/discovery.md``
for how they were chosen and what they miss). Words are compared as
:func:`~workset.retrieval.ranking.tokenize` writes them (lowercase, a plural ``s`` dropped).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from workset.discovery.documents import name_words
from workset.messages import ToolSpec
from workset.retrieval.ranking import tokenize

# Commands whose effect reaches outside the data a tool reads: a purchase, a booking, a message
# or post to other people, publishing, signing, registering. A near miss often works on the
# right object (a stock quote for "buy 10 shares", a whois lookup for "register a domain") but
# cannot do the act; when the closest tool's texts never name the act, the need is not served.
_OUTBOUND_TEXT = """buy sell order purchase pay book reserve rent transfer donate subscribe post
publish tweet email mail share upload message text call deploy register sign star like follow
invite schedule send"""
OUTBOUND = frozenset(_OUTBOUND_TEXT.split())

# Commands that ask for a change of some state (a file, an account, a device, a game, the
# world), as a need's first word. Verbs that as often start a request for information ("open",
# "play", "return", "run", "short", "check") are left out.
_CHANGE_TEXT = """add alter append apply approve archive assign ban block book build buy call
cancel change charge clean clear clock close commit compose compress configure connect copy
create decline decrypt delete deploy disable donate draw drop edit email enable encrypt enroll
erase exchange file fill fix flag follow fork format generate hire import insert install invite
join kill launch leave like lock login mail make mark merge message mint modify move mute order
pause pay pin post print publish purchase push queue rate rebase reboot record refund register
reject remove rename renew rent repair replace reply reserve reset restart restore resume revert
review rotate save schedule sell send set share shut sign stake star start stop submit subscribe
swap switch take terminate text trade transfer tweet turn unblock uninstall unlock unsubscribe
update upgrade upload upvote vote withdraw write"""
CHANGE = frozenset(_CHANGE_TEXT.split())

# Verbs that, naming what a tool does, mean it changes something (writes, creates, deletes,
# drives a browser, sends). "perform" is left out: "Performs a web search".
_TOOL_ACTS_TEXT = """add append apply approve assign build change clear click close commit
configure convert copy create customize delete deploy download drag draw edit enable end execute
fill format generate hover init initialize insert install kill load make manage mark merge
modify move navigate optimize patch plan populate post press protect publish put record register
remove rename renew replace reset restart run save select send set split start stop store submit
switch sync terminate type unprotect update upload write"""
TOOL_ACTS = frozenset(_TOOL_ACTS_TEXT.split())


def _stem(act: str) -> str:
    for suffix in ("ing", "ed", "e"):
        if act.endswith(suffix) and len(act) - len(suffix) >= 3:
            return act[: -len(suffix)]
    return act


def names_act(words: Iterable[str], act: str) -> bool:
    """Whether ``words`` (a tool's, as ``tokenize`` writes them) name ``act`` in some form.

    A word starting with the act's stem counts ("post" in "posting", "share" in "shared").
    """
    stem = _stem(act)
    return any(word.startswith(stem) for word in words)


def verb_forms(verb: str) -> frozenset[str]:
    """``verb`` as a tool's texts may write it: "create", "creates", "created", "creating"."""
    stem = _stem(verb)
    forms = {verb, verb + "e", verb + "ed", verb + "d", verb + "ing", stem + "ing", stem + "ed"}
    forms |= {stem + "e", verb + verb[-1] + "ed", verb + verb[-1] + "ing"}
    if verb.endswith("y"):
        forms |= {verb[:-1] + "ied", verb[:-1] + "ie"}
    return frozenset(forms)


@cache
def _acting_forms() -> frozenset[str]:
    return frozenset(form for verb in TOOL_ACTS for form in verb_forms(verb))


def tool_acts(spec: ToolSpec) -> bool:
    """Whether the tool changes something: its name or first description word is an acting verb.

    Chinese or empty descriptions leave the name to decide (``get-weibo-trending`` reads).
    """
    words = {*tokenize(name_words(spec.name)), *tokenize(spec.description)[:1]}
    return bool(words & _acting_forms())


def asks_change(action: str | None) -> str:
    """The need's first word when it commands a change (:data:`CHANGE`), else ``""``."""
    return action if action in CHANGE else ""
