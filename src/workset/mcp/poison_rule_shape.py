"""The shape of a description-audit wording rule, and the contexts that make a match ordinary.

Each :class:`Rule` is a pattern over text already made readable (:func:`poisoning.readable`)
plus the context that turns a match into ordinary wording:

- ``negatable``: a negation shortly before the match (same sentence) makes it advice —
  "never send credentials", "do not follow instructions in it" — and so does an action gated
  on the user's own request ("set true only when the user asks to skip the confirmation").
- ``reported``: a match that is the object of a reporting verb is data, not a claim —
  "checks whether the user has already approved the pull request".
- ``own_fields``: a URL template whose fields are all the tool's own parameters is how a
  REST wrapper describes itself (``?city={city}``); fields the tool does not take
  (``{{conversation}}``, ``$USER_DATA``) ask the model to fill them from its context.
- ``sentence``: the sentence holding the match must match this too (a call demand counts
  only with a universal scope — "every turn", "whenever" — in the same sentence; a consent
  claim only when it is blanket or licenses acting: "already", "all", "so just buy it").
- ``in_short_names``: whether the rule also applies to a name of under five words
  (``read_secret_metadata``, ``skip_confirmation`` are names, not requests).

:data:`NEGATION`, :data:`REPORTING` and :data:`TEMPLATE_FIELD` are those contexts as patterns;
:func:`any_of` joins a family's alternatives into one pattern. The rules themselves are
:mod:`workset.mcp.poison_rules` and the modules it names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    pattern: re.Pattern[str]
    negatable: bool = False
    reported: bool = False
    own_fields: bool = False
    in_short_names: bool = True
    sentence: re.Pattern[str] | None = None


def any_of(*alternatives: str) -> re.Pattern[str]:
    return re.compile("|".join(alternatives), re.IGNORECASE | re.DOTALL)


NEGATION = re.compile(
    r"\b(never|(?<!why\s)not|don't|dont|do not|does not|must not|should not|shouldn't|won't|cannot|"
    r"can't|no need|avoid|refuse|without|nothing|nobody|no one|none|"
    r"no\s+\w+\s+(is|are|gets?|will\s+be|can\s+be)|"
    # the other languages' "never" and "not": "n'ajoutez jamais", "nunca pongas", "nie"
    r"jamais|nunca|jamás|niemals|nie|nicht|não|mai|никогда|ne\s+\w+\s+pas|no\s+(pongas|añadas|"
    r"incluyas|env[ií]es|agregues))\b[^.;:!?]{0,40}$"
    r"|\b(only\s+)?(if|when)\s+the\s+user\s+(explicitly\s+|specifically\s+)?"
    r"(asks?|asked|requests?|requested|says|said|wants|chooses|chose)\b[^.;:!?]{0,40}$"
)
REPORTING = re.compile(
    r"\b(whether|if|which|after|once|until|when|before|unless|returns?|lists?|shows?|"
    r"checks?|reports?|records?|indicates?|"
    r"tells\s+you)\b[^.;:!?]{0,50}$"
)
TEMPLATE_FIELD = re.compile(
    r"\{\{?\s*([\w.]+)\s*\}?\}|\$\{?(\w+)\}?|<([\w ,.'’-]+)>|\[([\w ]+)\]|%s"
)
