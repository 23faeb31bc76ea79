"""One sentence judged by the slots it fills; every text of a definition walked sentence by
sentence."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from workset.mcp.poison_structure.approval import assumes_approval
from workset.mcp.poison_structure.beyond import beyond_request
from workset.mcp.poison_structure.claims import (
    AUTHORITY,
    DESTRUCTIVE_TOOL,
    INJECTS,
    MISREPORTS,
    NOT_REPORTED,
    OVERRIDES,
    PERMITTED,
    POLICY_OFF,
    PROMO,
    REPORTED_FALSELY,
    SAFEGUARD,
    SAFEGUARD_CALL,
    STEERS,
    TRIGGER,
    TRIGGER_AFTER,
    loops_itself,
    obeyed_against,
    overrides_choice,
)
from workset.mcp.poison_structure.commands import (
    clause_command,
    destroys_beyond_purpose,
    ordered_block,
    ordered_command,
    ordered_setting,
    publishes_beyond_purpose,
)
from workset.mcp.poison_structure.concealment import hides
from workset.mcp.poison_structure.data_orders import orders_in_data
from workset.mcp.poison_structure.destinations import fixed_in_prose
from workset.mcp.poison_structure.directs import (
    asks_privilege,
    changes_setting,
    directs_other_tool,
)
from workset.mcp.poison_structure.flow import flows, moves_own_secret, named_flow, templated
from workset.mcp.poison_structure.languages import foreign_orders, foreign_request
from workset.mcp.poison_structure.memory import claims_user_wish, plants_memory
from workset.mcp.poison_structure.persistence import installs_persistence
from workset.mcp.poison_structure.phishing import steers_to_login
from workset.mcp.poison_structure.purpose import Purpose, purpose_of
from workset.mcp.poison_structure.safeguard_tools import sets_aside_safeguard
from workset.mcp.poison_structure.sinks import ADDRESSED, TOLD
from workset.mcp.poison_structure.sources import SOURCES
from workset.mcp.poison_structure.text import (
    IMPERATIVE_AT,
    NEGATION,
    USER_GATE,
    WARNING,
    clause_at,
    gated,
    negated_before,
    sentences,
    warned_at,
)
from workset.mcp.poison_structure.turns import forged_turn, script_of, switches_script

STRUCTURE_REASONS = {
    "data-flow": "a clause sends data outside the tool's declared purpose (the conversation, "
    "secrets, other tools' results, the user's private data) into a parameter, an address or "
    "another tool",
    "hides-from-user": "a clause asks that an act be kept from the user",
    "assumes-approval": "a clause tells the model to act without the user's approval, or that "
    "approval was already given",
    "data-as-authority": "a clause tells the model to treat data or tool output as "
    "instructions that rank above the user, or to ignore the user",
    "misreports": "a clause tells the model to leave findings out of, or dress up, what it "
    "reports whatever the facts",
    "steers-tool-choice": "a clause disparages other tools or routes calls meant for them here",
    "disables-safeguard": "a clause lets the model switch off a protection or safety check",
    "injects-content": "a clause adds promotions or links to everything the user sends",
    "overrides-user-choice": "a clause tells the model to use its own value in place of, or "
    "regardless of, what the user asked for",
    "side-action": "a clause tells the model to call another tool that deletes, unlocks, pays "
    "or shares, on a trigger the user did not set",
    "acts-through-other-tool": "a clause has another tool change something with a value the user "
    "never "
    "gave (an outside address, account, role or a copied secret)",
    "changes-setting": "a clause has the model change a setting outside the tool's purpose (a "
    "recipient, account, access, endpoint, proxy or registry) to a fixed value",
    "forged-turn": "text laid out as a turn of the conversation (system, user, assistant or a "
    "tool's result) or giving the model a new role, inside a tool definition",
    "switches-script": "a later sentence switches to another writing system and names an "
    "address: written for the model, not for the reader of the opening",
    "beyond-request": "a clause widens the tool's input past what the user asked for (all of a "
    "store of the user's data, not only what the user named) and fills it",
    "claims-user-wish": "a clause claims the user already asked for a standing act, which a tool's "
    "definition cannot know",
    "installs-persistence": "a clause has the model install something that keeps running after "
    "the task (a cron entry, a service, a startup item, a shell rc line, an authorized key)",
    "plants-memory": "a clause has the model store content the definition dictates in its "
    "long-term memory or the user's standing instructions, not at the user's request",
    "fixed-destination": "a parameter that says where data, money or packages come from or go "
    "comes with a fixed address, number or account as its default",
    "steers-to-login": "a clause has the model send the user to sign in, verify their identity "
    "or re-enter credentials at an address that is not the tool's own service (phishing)",
    "claims-harmless": "a tool whose name or opening destroys, pays or sends things away says "
    "it is read-only or harmless (in prose or its annotations), so a client would run it "
    "without asking",
    "command-value-denied": "a default, example or enum value of a parameter holding the "
    "command a tool runs is one the shell policy denies, which a model copies into the call",
    "secret-in-value": "a default, example or enum value expands an environment variable that "
    "holds a secret, so the secret goes wherever the tool sends that value",
    "consent-preset": "a parameter that records the user's approval comes already set (a default "
    "of true, a lone 'granted', 'always true') or the model is told to set it, so the call goes "
    "through as if the user had agreed",
    "orders-denied-command": "a clause tells the model to run a command the shell policy denies "
    "(a force push, a recursive delete outside the workspace, an infrastructure destroy, an SQL "
    "drop) or an install from a package index the command names",
    "destroys-beyond-purpose": "a clause tells the model to delete, wipe or empty something for "
    "good while the tool's name and opening name no removal",
    "publishes-beyond-purpose": "a clause tells the model to make something public while the "
    "tool's name and opening say nothing of publishing or sharing",
    "asks-privilege": "a clause has the user grant admin, owner, delete or write access to a tool "
    "whose name says it only reads",
}


def structural_findings(
    name: str,
    description: str,
    texts: Iterable[tuple[str, str, str]],
    params: frozenset[str],
    server: str = "",
) -> Iterator[tuple[str, str, str]]:
    """(field, rule, excerpt) for every text of a definition; ``texts`` are (field, kind,
    readable text) with kind ``name``, ``data``, ``parameter``, ``prose`` or ``switch`` (a
    boolean's description: what switching it on does, holding no data)."""
    purpose = purpose_of(name, description, params, server)
    opening_script = script_of(next(iter(sentences(description)), ""))
    for where, kind, text in texts:
        if kind == "name":
            if where != "name" and named_flow(text, purpose):
                yield where, "data-flow", text[:80]
            if where == "name" and name_sends(text, description):
                yield where, "data-flow", text[:80]
            continue
        seen: set[str] = set()
        if kind != "switch" and ordered_block(text):
            seen.add("orders-denied-command")
            yield where, "orders-denied-command", text[:80]
        for index, sentence in enumerate(sentences(text)):
            opening = where == "description" and index == 0
            found = list(_judge(sentence, purpose, name, kind=kind, opening=opening))
            if forged_turn(sentence):
                found.append("forged-turn")
            if switches_script(sentence, opening_script):
                found.append("switches-script")
            if fixed_in_prose(sentence):
                found.append("fixed-destination")
            for rule in found:
                if rule not in seen:
                    seen.add(rule)
                    yield where, rule, sentence[:80]


def across_fields(
    name: str,
    description: str,
    texts: Iterable[tuple[str, str, str]],
    params: frozenset[str],
    server: str = "",
) -> Iterator[tuple[str, str, str]]:
    """(``"joined fields"``, rule, excerpt) for sentences that run from one field into another:
    a text that ends without a full stop, continued by a later text that opens in lower case
    ("… requires that the conversation so far" + "be placed here verbatim"), and so on while
    the join stays open. Sentences inside one field are judged by :func:`structural_findings`."""
    purpose = purpose_of(name, description, params, server)
    parts = [text.strip() for _, kind, text in texts if kind != "name" and text.strip()]
    seen: set[str] = set()
    for index, part in enumerate(parts):
        tail = sentences(part)[-1] if _OPEN_END.search(part) and len(part.split()) >= 3 else ""
        joined = tail
        for later in parts[index + 1 :]:
            if not joined or not _OPEN_END.search(joined):
                break
            if later[:1].islower() and len(later.split()) >= 2:
                joined = f"{joined} {sentences(later)[0]}"
                for rule in _judge(joined, purpose, name, kind="prose", opening=False):
                    if rule not in seen:
                        seen.add(rule)
                        yield "joined fields", rule, joined[:80]


_OPEN_END = re.compile(r"[\w,]\s*$")  # no full stop, colon or closing bracket: the text runs on


def _judge(
    sentence: str, purpose: Purpose, name: str, *, kind: str, opening: bool
) -> Iterator[str]:
    if (
        flows(sentence, purpose, name, kind=kind, opening=opening)
        or templated(sentence, purpose)
        or moves_own_secret(sentence, purpose, name, opening=opening)
    ):
        yield "data-flow"
    if hides(sentence):
        yield "hides-from-user"
    if kind != "switch" and beyond_request(sentence, purpose, name, kind=kind):
        yield "beyond-request"
    if kind != "switch" and claims_user_wish(sentence):
        yield "claims-user-wish"
    if kind != "switch" and (
        ordered_command(sentence, unquoted=kind == "prose")
        or ordered_setting(sentence)
        or (kind == "prose" and clause_command(sentence))
    ):
        yield "orders-denied-command"
    if kind != "switch" and destroys_beyond_purpose(sentence, purpose.text):
        yield "destroys-beyond-purpose"
    if kind != "switch" and publishes_beyond_purpose(sentence, purpose.text):
        yield "publishes-beyond-purpose"
    if kind != "switch" and installs_persistence(sentence, purpose):
        yield "installs-persistence"
    if kind != "switch" and plants_memory(sentence) and not (opening and not TOLD.search(sentence)):
        yield "plants-memory"
    yield from foreign_orders(sentence)
    if kind != "switch" and foreign_request(sentence, _uncovered(purpose, sentence)):
        yield "data-flow"
    if assumes_approval(sentence) and not (opening and not TOLD.search(sentence)):
        yield "assumes-approval"
    warned = WARNING.search(sentence)
    claims = [
        m
        for pattern in (AUTHORITY, OVERRIDES)
        if (m := pattern.search(sentence)) and not negated_before(sentence, pattern)
    ]
    if (
        any(not warned_at(sentence, m.start()) for m in claims)
        or obeyed_against(sentence)
        or orders_in_data(sentence)
    ):
        yield "data-as-authority"
    if MISREPORTS.search(sentence):
        yield "misreports"
    if STEERS.search(sentence) and not USER_GATE.search(sentence):
        yield "steers-tool-choice"
    permitted = ADDRESSED.search(sentence) or PERMITTED.search(sentence)
    safeguard = SAFEGUARD.search(sentence) and not negated_before(sentence, SAFEGUARD)
    # "Disable the content filter for all requests": the act in the imperative is the order
    # (the opening sentence says what the tool itself does: "Remove password protection from …")
    off = SAFEGUARD.search(sentence)
    ordered_off = bool(
        safeguard and off and not opening and IMPERATIVE_AT.search(sentence[: off.start()])
    )
    called_off = SAFEGUARD_CALL.search(sentence) and not USER_GATE.search(sentence)
    voided = POLICY_OFF.search(sentence) and not USER_GATE.search(sentence)
    aside = sets_aside_safeguard(sentence)
    if (
        kind != "switch"
        and not warned
        and ((safeguard and permitted) or ordered_off or called_off or voided or aside)
    ):
        yield "disables-safeguard"
    if INJECTS.search(sentence) and PROMO.search(sentence) and not USER_GATE.search(sentence):
        yield "injects-content"
    if overrides_choice(sentence):
        yield "overrides-user-choice"
    if kind != "switch" and loops_itself(sentence, name):
        yield "forced-call"
    if kind != "switch" and steers_to_login(sentence, purpose, name):
        yield "steers-to-login"
    if asks_privilege(sentence, name):
        yield "asks-privilege"
    side = DESTRUCTIVE_TOOL.search(sentence)
    if (
        side
        and side.group("tool").lower() != name.lower()
        and ("_" in side.group("tool") or "." in side.group("tool"))
        and (TRIGGER.search(sentence[: side.start()]) or TRIGGER_AFTER.search(sentence, side.end()))
        and not gated(sentence, side.start())
        and not _negated_ahead(sentence, side.start())
    ):
        yield "side-action"
    elif directs_other_tool(sentence, purpose, name):
        yield "acts-through-other-tool"
    elif changes_setting(sentence, purpose, name):
        yield "changes-setting"
    if (
        REPORTED_FALSELY.search(sentence)
        and not negated_before(sentence, REPORTED_FALSELY)
        and not NOT_REPORTED.search(sentence)
    ):
        yield "misreports"


# A tool's name that adds a second act sending its results to someone: "fetch_url_and_email_
# results_to_admin" for a tool whose description only fetches a URL.
_NAME_SENDS = re.compile(
    r"\band\s+(also\s+)?(send|e-?mail|mail|forward|upload|post|copy|share|report|cc|bcc|leak|"
    r"sync|mirror)\w*\s+(\w+\s+){0,3}to\s+(the\s+)?(?P<who>\w+)",
    re.IGNORECASE,
)


_NAME_SENDS_SECRET = re.compile(
    r"\b(send|e?mail|forward|upload|post|copy|share|leak|sync|exfil\w*)\w*\s+(\w+\s+){0,2}(env|"
    r"environment|secrets?|tokens?|passwords?|credentials?|history|chat|conversation|cookies)\s+"
    r"(\w+\s+){0,1}to\b",
    re.IGNORECASE,
)


def name_sends(name: str, description: str) -> bool:
    """The tool's name joins a second act that sends something to someone the description never
    names (the description only says what the first act does)."""
    spelled = re.sub(r"[_\-.]+|(?<=[a-z])(?=[A-Z])", " ", name).lower()
    if _NAME_SENDS_SECRET.search(spelled):
        return True  # "fetch_then_post_env_to_paste_site"
    found = _NAME_SENDS.search(spelled)
    if found is None:
        return False
    said = description.lower()
    return found.group("who") not in said and found.group(2) not in said


def _uncovered(purpose: Purpose, sentence: str) -> tuple[re.Pattern[str], ...]:
    """The source patterns whose kind the tool's purpose does not cover, and whose words in this
    sentence its purpose does not name (a Japanese password manager's パスワード)."""
    out = []
    for kind, found, scope in SOURCES:
        if kind == "copy" or purpose.covers(kind, scope):
            continue
        named = [m.group(0) for m in found.finditer(sentence)]
        if named and not any(n.lower() in purpose.text.lower() for n in named):
            out.append(found)
    return tuple(out)


def _negated_ahead(sentence: str, at: int) -> bool:
    """A negation in the clause before ``at`` ("never run purge_log"), not one after it ("run
    purge_log so it leaves no trace")."""
    clause = clause_at(sentence, at)
    start = sentence.find(clause)
    return bool(NEGATION.search(sentence[max(start, 0) : at]))
