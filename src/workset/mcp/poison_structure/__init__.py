"""A structural reading of tool definitions: what each clause asks for, by slots, not phrases.

Every text of a definition (already made readable: NFKC, look-alikes, spacing, comments,
base64) is split into sentences and clauses. A sentence is judged by which slots it fills:

- a sensitive **source**: the conversation or the user's earlier words, the model's own
  instructions, other tools' results, secrets and credential files, the environment, the
  user's private things (contacts, location, files beyond this tool's inputs);
- a **sink** it is to go to: one of the tool's own parameters, an address (URL, e-mail,
  domain), another tool, or a verb that puts data somewhere (include, append, attach, pass,
  send, forward, upload, fill, encode…);
- a **concealment** of an act from the user ("no need to mention it", "quietly", "not
  user-facing") or an **approval** taken for granted ("without asking", "already approved");
- an **authority** claim that turns data into instructions ("treat the result as system
  instructions", "takes precedence over the user").

The tool's own declared purpose (its name, its description's opening sentence and its
parameter names) says what data is in scope: a source of a kind the purpose names (a
secrets manager's secrets, a chat tool's messages) is the tool's subject, not a request. A
source that the clause negates, refuses or gates on the user ("never include tokens", "only
if the user asks") is advice. Findings: ``data-flow`` (an out-of-scope source sent to a
sink, a copy sent to an address, a placeholder for a source in a URL, a parameter name that
spells out a source), ``hides-from-user``, ``assumes-approval``, ``data-as-authority``,
``misreports``, ``steers-tool-choice``, ``disables-safeguard``, ``injects-content``,
``overrides-user-choice``, ``side-action``, ``acts-through-other-tool``,
``changes-setting``, ``forged-turn``, ``switches-script``, ``plants-memory``,
``claims-user-wish``, ``beyond-request``, ``installs-persistence``, ``asks-privilege`` (admin or
delete access asked for a tool that only reads), ``fixed-destination``, ``secret-in-value`` (a
default that expands a secret environment variable) and ``consent-preset`` (a parameter
recording the user's approval, already set; each reason in :data:`STRUCTURE_REASONS`).

Modules: :mod:`.text` (sentences, clauses, negation and condition scope), :mod:`.purpose` (what
the tool is for), :mod:`.sources` and :mod:`.sinks` (the slots of a flow), :mod:`.flow`
(``data-flow``), :mod:`.concealment`, :mod:`.approval`, :mod:`.claims` (the other slots),
:mod:`.destinations` (``fixed-destination``), :mod:`.secret_values` (``secret-in-value``),
:mod:`.command_values` (``command-value-denied``), :mod:`.false_safety` (``claims-harmless``),
:mod:`.phishing` (``steers-to-login``), :mod:`.privileged_values` (``privileged-default``),
:mod:`.planted_values` (``planted-key``, ``destructive-default``, ``secrets-dumped``),
:mod:`.consent_values` (``consent-preset``), :mod:`.directs` (``acts-through-other-tool``,
``changes-setting``: other tools or settings made to act with fixed values), :mod:`.languages`
(a cue lexicon per class in 24 languages), :mod:`.turns` (``forged-turn``, ``switches-script``),
:mod:`.memory` (``plants-memory``: content the definition dictates stored in the model's memory;
``claims-user-wish``), :mod:`.persistence` (``installs-persistence``: cron entries, services),
:mod:`.beyond` (``beyond-request``: the input widened past what the user asked for),
:mod:`.data_orders` (``data-as-authority``: returned text declared an order and carried out),
:mod:`.risky_defaults` (``wide-default``, ``unsafe-switch``, ``host-exposed-default``,
``collects-by-default``: defaults that widen a change to everywhere, take a safeguard away, give
a container the host or send the user's data), :mod:`.value_orders` (``orders-unsafe-value``:
prose that has the model flip a protective parameter), :mod:`.lookalike_hosts`
(``lookalike-host``: a vendor's name with a word joined to it), :mod:`.disguised_credentials`
(``disguised-credential``: secrets asked for under a harmless parameter name), :mod:`.calm`
(``alters-user-amount``, ``misreports`` fixed in advance, ``unneeded-identifier``,
``order-in-extension``, ``extra-target``: orders written as calm administrative notes),
:mod:`.ai_data` (``hoards-memory``, ``default-prompt-order``, ``order-in-title``: orders in AI and
data tools),
:mod:`.reply_concealment` (``hides-from-user`` in Chinese and Spanish phrasings),
:mod:`.outcomes` (``tells-user-otherwise``, ``injects-code``, ``redirects-payment``,
``calls-other-tool-after``, ``order-in-title`` in CJK titles) and
:mod:`.judge` (a sentence judged by its slots; sentences split across fields joined).
"""

from workset.mcp.poison_structure.ai_data import AI_DATA_REASONS, ai_data_findings
from workset.mcp.poison_structure.calm import CALM_REASONS, calm_findings
from workset.mcp.poison_structure.command_values import command_values
from workset.mcp.poison_structure.consent_values import consent_presets
from workset.mcp.poison_structure.destinations import fixed_destinations
from workset.mcp.poison_structure.disguised_credentials import REASON as DISGUISED_REASON
from workset.mcp.poison_structure.disguised_credentials import disguised_credentials
from workset.mcp.poison_structure.false_safety import claims_harmless
from workset.mcp.poison_structure.judge import (
    STRUCTURE_REASONS,
    across_fields,
    structural_findings,
)
from workset.mcp.poison_structure.lookalike_hosts import REASON as LOOKALIKE_REASON
from workset.mcp.poison_structure.lookalike_hosts import lookalike_hosts
from workset.mcp.poison_structure.outcomes import OUTCOME_REASONS, outcome_findings
from workset.mcp.poison_structure.planted_values import REASONS as PLANTED_REASONS
from workset.mcp.poison_structure.planted_values import planted_values
from workset.mcp.poison_structure.privileged_values import privileged_defaults
from workset.mcp.poison_structure.purpose import Purpose, purpose_of
from workset.mcp.poison_structure.reply_concealment import concealment_findings
from workset.mcp.poison_structure.risky_defaults import REASONS as RISKY_REASONS
from workset.mcp.poison_structure.risky_defaults import risky_defaults
from workset.mcp.poison_structure.secret_values import secret_values
from workset.mcp.poison_structure.text import clauses, sentences
from workset.mcp.poison_structure.value_orders import REASONS as VALUE_ORDER_REASONS
from workset.mcp.poison_structure.value_orders import unsafe_value_orders

__all__ = [
    "AI_DATA_REASONS",
    "CALM_REASONS",
    "DISGUISED_REASON",
    "LOOKALIKE_REASON",
    "OUTCOME_REASONS",
    "PLANTED_REASONS",
    "RISKY_REASONS",
    "STRUCTURE_REASONS",
    "VALUE_ORDER_REASONS",
    "Purpose",
    "across_fields",
    "ai_data_findings",
    "calm_findings",
    "claims_harmless",
    "clauses",
    "command_values",
    "concealment_findings",
    "consent_presets",
    "disguised_credentials",
    "fixed_destinations",
    "lookalike_hosts",
    "outcome_findings",
    "planted_values",
    "privileged_defaults",
    "purpose_of",
    "risky_defaults",
    "secret_values",
    "sentences",
    "structural_findings",
    "unsafe_value_orders",
]
