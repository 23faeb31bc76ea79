"""Generate the insurance fixture: a 38-turn claims-handling session on two linked claims.

A claims handler at Ashby Thorne Insurance and the agent work a home-insurance escape-of-water
claim and a related motor claim for the same policyholder, Rosalind Achterberg (12 Moorfield
Terrace, Leeds; a look-alike customer, Rosalyn Achterburg in Leicester, exists). A push-fit
fitting on the hot feed under her newly refitted bathroom failed on Sunday 8 March 2026: the
kitchen's lath ceiling came down and the garage ceiling fell onto her Toyota Yaris. Tools answer
the way claims systems do: nested JSON policy and claim records, a JSON-lines audit log of about
ninety events, a loss adjuster's plain-text notes, a YAML schedule and wording, an email thread
with another team's internal note, CSV exports (a contents inventory of about eighty lines and a
moisture survey). Facts of the kinds held-out sessions lose, each planted once:

* turn 3, the user's standing rules (from the team leader): every file note, on either claim,
  starts with the large-loss referral number LLR-30582 (LLR-30528 and LLR-30285, other claims'
  referrals, are in the large-loss list); every reserve and payment on the home claim goes
  under reserve code RC-EOW-318 (the system's default RC-BLD-100 and the retired RC-EOW-381
  beside it);
* turn 2, a value with a legacy form beside it: the live home policy number HMP-3308172 (her
  old paper schedule says HH/3308172/02; the look-alike customer holds HMP-3308127);
* turn 2, only five levels deep in the policy record (``policy.parties.interested_parties[0]
  .lender.interest.account_ref``): the mortgagee's account MTG-88217504 (the redeemed
  MTG-88217540 beside it);
* turn 6, only in one line of a ninety-line JSON-lines audit log: the CUE match on an
  undisclosed 2021 claim is CUE-H-5093817 (the joint policyholder's no-match search
  CUE-H-5093871 two lines earlier);
* turn 8, only in the YAML schedule: the escape-of-water excess endorsement END-217 (the
  wording's withdrawn END-271 beside it);
* turn 10, said once by the user in passing: the neighbour holding keys is Gideon Farraday
  (the policy's emergency contact, Imogen Achterberg, is someone else);
* turn 13, only in Recoveries' internal note in the email thread: recovery file REC-31704
  against the plumber's insurer (her closed 2024 motor recovery REC-31740 beside it);
* turn 16, only in one row of an 84-line CSV contents inventory: line LN-8e3f51 declined for
  pre-existing damage (LN-8e3f15 and LN-85e3f1 look alike);
* turn 20, found by a query and summarised once by the assistant: the Yaris's VIN
  VNKKBAC3X0A471629 (the previous car's VNKKBAC3X0A417629 and a temporary vehicle's
  VNKKBAC3X0A471692 look alike);
* turn 15 -> revised at turn 29: alternative accommodation at Headingley Lodge -> the cottage
  at 9 Weetwood Mews;
* turn 26, a rejected decision with its reason: no panel contractor (Keystone Reinstatement)
  for the kitchen ceiling, because the house is Grade II listed and the ceiling is lath and
  lime, which the conservation officer will only accept repaired in lime.

    python examples/transcripts/insurance/make.py   # rewrites the four files beside it

Written blind to the history policies and their results.
"""

# ruff: noqa: E501 (tool outputs are records and documents, kept as they would print)
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from build import (  # noqa: E402
    TranscriptBuilder,
    check_once,
    count,
    money,
    p,
    pretty,
    tool,
    where_said,
    write_fixture,
)

SEED = 6062
CUSTOMER = "CUS-0619274"
OTHER_CUSTOMER = "CUS-0644810"
HOLDER = "Rosalind Achterberg"
JOINT = "Martin Achterberg"
OTHER_HOLDER = "Rosalyn Achterburg"
HOME_POLICY = "HMP-3308172"
LEGACY_POLICY = "HH/3308172/02"
OTHER_POLICY = "HMP-3308127"
MOTOR_POLICY = "MTP-5520946"
HOME_CLAIM = "HCL-771342"
MOTOR_CLAIM = "MCL-771359"
OLD_MOTOR_CLAIM = "MCL-604117"
REFERRAL = "LLR-30582"
WRONG_REFERRAL = "LLR-30528"
OTHER_REFERRAL = "LLR-30285"
RESERVE_CODE = "RC-EOW-318"
RETIRED_RESERVE = "RC-EOW-381"
GENERIC_RESERVE = "RC-BLD-100"
MOTOR_RESERVE = "RC-MAD-210"
MORTGAGE = "MTG-88217504"
OLD_MORTGAGE = "MTG-88217540"
CUE = "CUE-H-5093817"
CUE_LOOKALIKE = "CUE-H-5093871"
ENDORSEMENT = "END-217"
OLD_ENDORSEMENT = "END-271"
RECOVERY = "REC-31704"
OLD_RECOVERY = "REC-31740"
DECLINED_LINE = "LN-8e3f51"
LOOKALIKE_LINE = "LN-8e3f15"
LOOKALIKE_LINE_2 = "LN-85e3f1"
KEYHOLDER = "Gideon Farraday"
EMERGENCY_CONTACT = "Imogen Achterberg"
VIN = "VNKKBAC3X0A471629"
OLD_VIN = "VNKKBAC3X0A417629"
TEMP_VIN = "VNKKBAC3X0A471692"
REG = "YG23 LRK"
OLD_REG = "YF19 KWD"
OLD_STAY = "Headingley Lodge"
NEW_STAY = "Weetwood Mews"
KEYSTONE = "Keystone Reinstatement"
CALVERLEY = "Calverley Heritage Plaster"
PLUMBER = "Dalesway Plumbing & Heating Ltd"
ADJUSTER = "Carys Pengelly"
ADDRESS = "12 Moorfield Terrace, Leeds LS6 4JH"


def jsonl(records: list[dict[str, Any]]) -> str:
    return "\n".join(json.dumps(r, ensure_ascii=False) for r in records)


def gbp(value: float) -> str:
    return f"£{value:,.2f}"


TOOLS = [
    tool(
        "search_policies",
        "Find customers and their policies by policyholder name, postcode or policy number "
        "(current or legacy numbers both match). Returns the matching customers as JSON with "
        "each policy's number, product and status. Never guess a policy number.",
        {
            "name": p("Policyholder's name, e.g. 'Achterberg'."),
            "postcode": p("Risk or correspondence postcode, e.g. LS6 4JH."),
            "policy_number": p("A policy number, current (HMP-/MTP-) or legacy (HH/…)."),
        },
        [],
    ),
    tool(
        "get_policy",
        "Read one policy as JSON: parties and interested parties, the risk, sections and sums "
        "insured, excesses, endorsement summary, premium and declared claims history. Works "
        "for home (HMP-) and motor (MTP-) policies.",
        {"policy_number": p("Current policy number, e.g. HMP-1000001.")},
        ["policy_number"],
    ),
    tool(
        "get_policy_documents",
        "Read a policy's documents as YAML: the schedule (this policy's cover, limits, "
        "excesses and the endorsements applied to it) and/or the product wording (the terms, "
        "definitions, exclusions and the endorsement library).",
        {
            "policy_number": p("Current policy number."),
            "documents": p(
                "Which documents to return.", enum=["schedule", "wording", "schedule_and_wording"]
            ),
        },
        ["policy_number", "documents"],
    ),
    tool(
        "list_claims",
        "List a customer's claims across all their policies as a table, newest first: claim "
        "id, policy, line, peril, loss date, status, handler, amounts paid and any recovery.",
        {
            "customer_id": p("Customer id, e.g. CUS-0000001."),
            "status": p("Filter by state (default all).", enum=["open", "closed", "all"]),
        },
        ["customer_id"],
    ),
    tool(
        "get_claim",
        "Read a claim as JSON: the loss, cover position, parties, linked claims, suppliers, "
        "reserve summary, referrals and open tasks with their SLAs.",
        {
            "claim_id": p("Claim id, e.g. HCL-100001 (home) or MCL-100001 (motor)."),
            "section": p(
                "Return the whole record or only its tasks and SLAs (default all).",
                enum=["all", "tasks"],
            ),
        },
        ["claim_id"],
    ),
    tool(
        "get_claim_audit_log",
        "Export a claim's audit log as JSON lines, oldest first: every system, user and "
        "supplier event with timestamp, actor and details, including the automated fraud "
        "screen and CUE (Claims and Underwriting Exchange) searches.",
        {
            "claim_id": p("Claim id."),
            "since": p("Only events from this time, ISO 8601 (default: the whole log)."),
        },
        ["claim_id"],
    ),
    tool(
        "get_adjuster_report",
        "Read the loss adjuster's report or site notes for a claim as plain text, as the "
        "adjuster uploaded them.",
        {
            "claim_id": p("Claim id."),
            "report": p(
                "Which report (default latest).", enum=["latest", "first_visit", "interim"]
            ),
        },
        ["claim_id"],
    ),
    tool(
        "get_correspondence",
        "Read a claim's correspondence thread, oldest first: emails in and out and internal "
        "notes from other teams (internal notes are never sent to customers or third parties).",
        {"claim_id": p("Claim id.")},
        ["claim_id"],
    ),
    tool(
        "add_file_note",
        "Add a note to a claim file. File notes are internal and are read by auditors, the "
        "large-loss desk and anyone who picks up the claim.",
        {"claim_id": p("Claim id."), "text": p("The note, as it should appear on file.")},
        ["claim_id", "text"],
    ),
    tool(
        "get_reserves",
        "Show a claim's reserve lines by head and reserve code with their movements, and the "
        "reserve codes valid for the claim's peril.",
        {"claim_id": p("Claim id.")},
        ["claim_id"],
    ),
    tool(
        "set_reserve",
        "Set one reserve head of a claim to a new outstanding amount under a reserve code; "
        "the movement is recorded against that code. Setting 0 releases the head on that "
        "code. Reserves above the handler's authority need a team-leader sign-off.",
        {
            "claim_id": p("Claim id."),
            "head": p(
                "Reserve head.",
                enum=[
                    "buildings",
                    "contents",
                    "alternative_accommodation",
                    "fees",
                    "own_damage",
                ],
            ),
            "amount_gbp": money("New outstanding reserve for the head, in GBP."),
            "reserve_code": p("Reserve code the head is held under."),
            "reason": p("Why the reserve moves (kept with the movement)."),
        },
        ["claim_id", "head", "amount_gbp", "reserve_code"],
    ),
    tool(
        "get_contents_inventory",
        "Export a claim's contents inventory as CSV, one line per item: line id, room, item, "
        "category, quantity, age, amount claimed, evidence, condition, the adjuster's status, "
        "agreed amount and note.",
        {
            "claim_id": p("Claim id."),
            "room": p("Only one room (default all)."),
        },
        ["claim_id"],
    ),
    tool(
        "instruct_supplier",
        "Instruct a supplier on a claim: drying, leak detection, strip-out and reinstatement, "
        "motor engineer or repairer. Without a supplier name the claim's panel supplier for "
        "the trade and postcode is chosen. Returns the job with its number and dates.",
        {
            "claim_id": p("Claim id."),
            "supplier_type": p(
                "Trade.",
                enum=[
                    "drying",
                    "leak_detection",
                    "reinstatement",
                    "plastering",
                    "motor_engineer",
                    "repairer",
                ],
            ),
            "supplier": p("Supplier's name, if not the panel default."),
            "instructions": p("Scope of the work and anything the supplier must know."),
            "access_notes": p("How to get in: keys, parking, times."),
            "vehicle_vin": p("VIN of the vehicle, for motor engineers and repairers."),
        },
        ["claim_id", "supplier_type", "instructions"],
    ),
    tool(
        "get_supplier_quotes",
        "List the quotes received on a claim for a trade as JSON: supplier, panel status, "
        "price, scope, method, lead time, guarantee and the adjuster's comments.",
        {
            "claim_id": p("Claim id."),
            "trade": p("Trade, e.g. 'plastering' or 'reinstatement'."),
        },
        ["claim_id", "trade"],
    ),
    tool(
        "book_alternative_accommodation",
        "Book, extend or cancel alternative accommodation for a displaced policyholder through "
        "the accommodation desk. Bookings are billed direct to the claim.",
        {
            "claim_id": p("Claim id."),
            "action": p("What to do.", enum=["book", "extend", "cancel"]),
            "provider": p("Accommodation provider or property name."),
            "address": p("Address of the accommodation."),
            "check_in": p("First night, YYYY-MM-DD."),
            "nights": count("Number of nights."),
            "occupants": count("Number of people staying."),
            "booking_id": p("Existing booking, to extend or cancel."),
            "notes": p("Needs of the household: access, pets, parking."),
        },
        ["claim_id", "action"],
    ),
    tool(
        "vehicle_lookup",
        "Look up a vehicle by registration as JSON: the DVLA record, the Motor Insurance "
        "Database entry and, with a policy number, every vehicle on that policy's history.",
        {
            "registration": p("Registration mark, e.g. AB12 CDE."),
            "policy_number": p("Motor policy number, to include its vehicle history."),
        },
        ["registration"],
    ),
    tool(
        "get_repair_estimate",
        "Read the repairer's estimate on a motor claim as JSON: parts, labour, paint and "
        "materials, totals with VAT, the engineer's decision and the courtesy car.",
        {"claim_id": p("Motor claim id.")},
        ["claim_id"],
    ),
    tool(
        "make_payment",
        "Pay out of a claim by Faster Payment to the payee's account on file. The payment is "
        "drawn from a reserve head under a reserve code and reduces its outstanding reserve.",
        {
            "claim_id": p("Claim id."),
            "payee": p("Who is paid: the policyholder, a supplier or a third party."),
            "amount_gbp": money("Amount in GBP."),
            "payment_type": p(
                "What the payment is for.",
                enum=[
                    "emergency_essentials",
                    "interim",
                    "settlement",
                    "supplier_invoice",
                    "excess_refund",
                ],
            ),
            "head": p("Reserve head the payment is drawn from."),
            "reserve_code": p("Reserve code the payment is drawn under."),
            "reference": p("Reference shown to the payee."),
        },
        ["claim_id", "payee", "amount_gbp", "payment_type", "reserve_code"],
    ),
    tool(
        "search_claims_manual",
        "Search the claims manual and authority guide. Returns matching sections with id, "
        "title, last update and the relevant passage.",
        {"query": p("What to look for, in plain words.")},
        ["query"],
    ),
    tool(
        "send_customer_message",
        "Send an email or SMS to a customer from the claims team. Sent as written and copied "
        "to the claim file.",
        {
            "claim_id": p("Claim id the message is filed against."),
            "channel": p("How to send it.", enum=["email", "sms"]),
            "to": p("Recipient email address or mobile number."),
            "subject": p("Email subject (ignored for SMS)."),
            "text": p("Message text."),
        },
        ["claim_id", "channel", "to", "text"],
    ),
    tool(
        "get_referrals",
        "List referrals to a specialist desk as a table: referral number, claim, policyholder, "
        "reason, estimated loss, status and the desk's owner.",
        {
            "desk": p(
                "Which desk.", enum=["large_loss", "counter_fraud", "underwriting", "recoveries"]
            ),
            "status": p("Filter by state (default open).", enum=["open", "closed", "all"]),
        },
        ["desk"],
    ),
    tool(
        "get_drying_readings",
        "Export a drying job's moisture readings as CSV: measuring point, room, material, "
        "location, reading, the dry standard for that material and whether it is dry.",
        {
            "claim_id": p("Claim id."),
            "job_id": p("Drying job number, e.g. DRY-100001."),
        },
        ["claim_id"],
    ),
]

PROBES = f"""\
# Twelve facts of the kinds held-out sessions lose; six phrasings each.
- id: note_prefix
  kind: rule
  planted_turn: 3
  question:
    - "What must every file note on these two claims start with?"
    - "Which large-loss referral number goes at the front of each note?"
    - "I'm about to note the motor claim. What goes first in the text?"
    - "Fill in the opening reference of the next file note you add."
    - "What identifier should lead anything we write onto the record?"
    - "Which code heads each piece of commentary logged for the Achterbergs?"
  expected: "{REFERRAL}"
  distractors: ["{WRONG_REFERRAL}", "{OTHER_REFERRAL}"]
- id: reserve_code
  kind: rule
  planted_turn: 3
  question:
    - "Which reserve code do reserves on the home claim go under?"
    - "Fill in the reserve_code for a payment out of the home claim."
    - "The system defaulted to a general buildings code. Which code did I say to use instead?"
    - "What code must a reserve movement on the home claim carry?"
    - "When money is put aside for the house repairs, which ledger line is it booked to?"
    - "Which accounting label do we use for funds earmarked or spent on the burst-pipe loss?"
  expected: "{RESERVE_CODE}"
  distractors: ["{GENERIC_RESERVE}", "{RETIRED_RESERVE}"]
- id: home_policy_number
  kind: lookalike
  planted_turn: 2
  question:
    - "Which policy number should go on the home claim's documents?"
    - "She quotes a number from her old paper schedule. What is the live policy number?"
    - "Fill in the policy_number for Rosalind's home policy."
    - "What is her current home policy number, not the legacy one?"
    - "Which reference identifies her house cover in today's system?"
    - "What contract identifier do we print on letters about the burst at her property?"
  expected: "{HOME_POLICY}"
  distractors: ["{LEGACY_POLICY}", "{OTHER_POLICY}"]
- id: mortgagee_account
  kind: tool_result
  planted_turn: 2
  question:
    - "Which mortgage account reference is noted on the home policy?"
    - "What is Calder Building Society's account reference on the policy?"
    - "Two lenders appear on the policy. What is the active mortgagee's reference?"
    - "Fill in the mortgagee account reference for a joint buildings settlement."
    - "If a big cheque for the house goes out, whose loan number must accompany it?"
    - "Which home-loan identifier does the Achterbergs' property secure?"
  expected: "{MORTGAGE}"
  distractors: ["{OLD_MORTGAGE}"]
- id: cue_match
  kind: tool_result
  planted_turn: 6
  question:
    - "What is the CUE reference of Rosalind's earlier escape-of-water claim?"
    - "Which CUE search returned a match?"
    - "Give the CUE reference for the undeclared 2021 claim."
    - "Two CUE searches ran when the claim came in. Which reference found the prior loss?"
    - "Underwriting will want to trace the previous burst she never mentioned. What do they quote?"
    - "Which industry-database hit points at her earlier leak with another company?"
  expected: "{CUE}"
  distractors: ["{CUE_LOOKALIKE}"]
- id: excess_endorsement
  kind: tool_result
  planted_turn: 8
  question:
    - "Which endorsement sets the escape-of-water excess on her policy?"
    - "What is the endorsement code behind the £1,000 excess?"
    - "The wording lists a withdrawn escape-of-water endorsement too. Which one is on her schedule?"
    - "Fill in the endorsement code for the home claim's excess on the settlement form."
    - "Which clause makes Rosalind bear more of a leak herself?"
    - "Under which rider is the deductible on the burst set?"
  expected: "{ENDORSEMENT}"
  distractors: ["{OLD_ENDORSEMENT}"]
- id: keyholder
  kind: user
  planted_turn: 10
  question:
    - "Who has a set of keys to the Moorfield Terrace house?"
    - "Which neighbour will let the contractors in?"
    - "Name the person at number 14 who holds keys."
    - "The drying team needs access while Rosalind is away. Who should they call on?"
    - "Whom should the plasterers ask to open up the property?"
    - "Who next door can admit tradespeople while the owner is elsewhere?"
  expected: "{KEYHOLDER}"
  distractors: ["{EMERGENCY_CONTACT}"]
- id: recovery_file
  kind: tool_result
  planted_turn: 13
  question:
    - "Which recovery file is Recoveries using against the plumber's insurer?"
    - "Under which recovery file are we pursuing Dalesway?"
    - "Her 2024 motor recovery is closed. What is the open recovery file for this loss?"
    - "Fill in the recovery reference for a letter to Ecclesfield Mutual."
    - "When we chase the tradesman who fitted the bathroom for our costs, what number do we quote?"
    - "Which subrogation case will claw back what we spend from the firm at fault?"
  expected: "{RECOVERY}"
  distractors: ["{OLD_RECOVERY}"]
- id: declined_item
  kind: tool_result
  planted_turn: 16
  question:
    - "Which inventory line did the adjuster decline for pre-existing damage?"
    - "Give the line_id of the declined contents item."
    - "Which line of the contents inventory are we not paying?"
    - "What is the inventory line of the mahogany chiffonier?"
    - "Which entry in the list of belongings was turned down because it was already spoiled?"
    - "Which of her possessions gets nothing since the harm predates the burst? Give its reference."
  expected: "{DECLINED_LINE}"
  distractors: ["{LOOKALIKE_LINE}", "{LOOKALIKE_LINE_2}"]
- id: vehicle_vin
  kind: summary
  planted_turn: 20
  question:
    - "What is the VIN of the damaged Yaris?"
    - "Which VIN did we give the motor engineer?"
    - "Three Toyotas show on her motor history. Which VIN belongs to the car in the garage?"
    - "Fill in the vehicle identification number for the motor claim."
    - "What 17-character code is stamped on the hatchback hit by the falling plaster?"
    - "Which chassis serial belongs to Rosalind's small Japanese runabout?"
  expected: "{VIN}"
  distractors: ["{OLD_VIN}", "{TEMP_VIN}"]
- id: accommodation
  kind: revised
  planted_turn: 29
  question:
    - "Where is the family staying while the house is repaired?"
    - "Which alternative accommodation is booked now?"
    - "We booked one place and then changed it. Where are they living now?"
    - "Fill in the address of the current alternative accommodation."
    - "Where should the adjuster post letters for Rosalind until she can go home?"
    - "Which temporary lodging did we settle on for the displaced household?"
  expected: "{NEW_STAY}"
  distractors: ["{OLD_STAY}"]
- id: panel_contractor_rejected
  kind: rejected
  planted_turn: 26
  question:
    - "Why aren't we using Keystone Reinstatement for the kitchen ceiling?"
    - "The panel contractor was cheapest. Why was it turned down?"
    - "What was my reason for rejecting your suggested reinstatement contractor?"
    - "Why Calverley rather than the panel firm for the kitchen?"
    - "What rules out the low-cost builder for the room under the bathroom?"
    - "Remind me why the quickest quote for fixing the cooking area won't do."
  expected_regex: "(?i)(grade ii|listed|lath[- ]and[- ]lime|lime plaster|conservation)"
"""

LEDGER = f"""\
# What a reader would keep in this session's fact ledger (benchmarks/ledger_extraction.py).
# Each entry: the turn and speaker of the sentence, its kind (one or a list of acceptable
# kinds), a substring of it, and its final status when it is not current.
# Written from the transcript, blind to the extractor and the history policies.
- {{turn: 2, who: user, kind: [fact, rule], text: "The live number is {HOME_POLICY}"}}
- {{turn: 3, who: user, kind: rule, text: "starts with the large-loss referral number {REFERRAL}"}}
- {{turn: 3, who: user, kind: rule, text: "goes under reserve code {RESERVE_CODE}"}}
- {{turn: 6, who: assistant, kind: finding, text: "matched a 2021 escape-of-water claim"}}
- {{turn: 7, who: assistant, kind: finding, text: "push-fit elbow on the hot feed"}}
- {{turn: 10, who: user, kind: fact, text: "{KEYHOLDER}, has a set of keys"}}
- {{turn: 12, who: user, kind: decision, text: "set the adjuster's figures"}}
- {{turn: 15, who: user, kind: [decision, fact], text: "Book {OLD_STAY}", status: revised}}
- {{turn: 20, who: assistant, kind: finding, text: "VIN is {VIN}"}}
- {{turn: 25, who: assistant, kind: decision, text: "I'd suggest {KEYSTONE}", status: rejected}}
- {{turn: 26, who: user, kind: rejected, text: "No, not Keystone"}}
- {{turn: 26, who: user, kind: decision, text: "Go with Calverley for the kitchen"}}
- {{turn: 29, who: user, kind: revision, text: "book the ground-floor cottage at 9 {NEW_STAY}"}}
- {{turn: 29, who: tool, kind: revision, text: '"status": "cancelled"'}}
- {{turn: 34, who: user, kind: decision, text: "Refer it to underwriting"}}
"""


# ---------------------------------------------------------------------------------------
# Long tool results
# ---------------------------------------------------------------------------------------


def audit_log(b: TranscriptBuilder) -> str:
    """The home claim's audit log from first notification to this morning: about ninety
    events, one of which carries the CUE match."""
    events: list[dict[str, Any]] = []
    clock = {"t": 0}

    def stamp(day: int, hh: int, mm: int, ss: int | None = None) -> str:
        ss = b.rng.randint(0, 59) if ss is None else ss
        ms = b.rng.randint(0, 999)
        return f"2026-03-{day:02d}T{hh:02d}:{mm:02d}:{ss:02d}.{ms:03d}Z"

    def add(ts: str, actor: str, event: str, **detail: Any) -> None:
        clock["t"] += 1
        events.append({"seq": clock["t"], "ts": ts, "actor": actor, "event": event, **detail})

    ooh = "ooh:relay-contact/Dana Whitlock"
    add(
        stamp(8, 7, 12),
        ooh,
        "claim.created",
        claim=HOME_CLAIM,
        channel="out_of_hours_phone",
        policy=HOME_POLICY,
    )
    add(
        stamp(8, 7, 14),
        ooh,
        "fnol.captured",
        loss_datetime="2026-03-08T06:40",
        peril="escape_of_water",
        description="Pipe burst under bathroom floor, kitchen ceiling partly down, water through garage ceiling onto car",
        reporter="policyholder",
    )
    add(
        stamp(8, 7, 14),
        "svc:policy-admin",
        "policy.validated",
        status="in_force",
        cover_to="2026-11-21",
    )
    add(
        stamp(8, 7, 15),
        "svc:coverage",
        "coverage.precheck",
        sections=["buildings", "contents"],
        result="indicated",
        flags=["motor vehicle damage reported: refer to motor policy"],
    )
    add(
        stamp(8, 7, 15),
        "svc:triage",
        "triage.scored",
        complexity="high",
        score=81,
        drivers=["ceiling collapse", "policyholder displaced", "second claim likely"],
    )
    add(
        stamp(8, 7, 16),
        ooh,
        "vulnerability.flag.set",
        type="physical",
        detail="knee replacement Jan 2026, limited mobility on stairs",
        consent="verbal",
    )
    add(
        stamp(8, 7, 18),
        ooh,
        "home_emergency.dispatched",
        supplier="Rapid Response Plumbing (Leeds)",
        job=f"HE-{b.number(400000, 499999)}",
        eta="08:30-09:30",
    )
    add(stamp(8, 7, 19, 2), "svc:fraud-screen", "fraud.screen.started", ruleset="HOME-2026.02")
    add(
        stamp(8, 7, 19, 8),
        "svc:fraud-screen",
        "cue.search",
        subject=JOINT,
        dob="1958-09-02",
        scope="household",
        cue_ref=CUE_LOOKALIKE,
        result="no_match",
    )
    add(
        stamp(8, 7, 19, 10),
        "svc:fraud-screen",
        "address.history.checked",
        years=6,
        result="consistent",
    )
    add(
        stamp(8, 7, 19, 12),
        "svc:fraud-screen",
        "cue.search",
        subject=HOLDER,
        dob="1961-05-19",
        scope="household",
        cue_ref=CUE,
        result="match",
        match={
            "insurer": "Brannock General",
            "loss_date": "2021-01-17",
            "peril": "escape of water",
            "paid_gbp": 6480.0,
            "declared_on_policy": False,
        },
    )
    add(
        stamp(8, 7, 20),
        "svc:fraud-screen",
        "fraud.screen.completed",
        score=212,
        band="low",
        rule_hits=[
            "R17 prior claim not on declared history",
            "R31 contractor work in last 30 days",
        ],
        action="none; note for handler",
    )
    add(
        stamp(8, 7, 20),
        "svc:reserving",
        "reserve.initial",
        head="buildings",
        amount_gbp=15000.0,
        reserve_code=GENERIC_RESERVE,
        basis="peril default",
    )
    add(
        stamp(8, 7, 21),
        "svc:notify",
        "sms.sent",
        to="policyholder",
        template="FNOL_ACK",
        segments=2,
    )
    add(stamp(8, 7, 21), ooh, "call.ended", duration_s=1122)
    add(
        stamp(8, 7, 25),
        "svc:notify",
        "email.sent",
        to="policyholder",
        template="UPLOAD_PHOTOS_LINK",
    )
    for minute in sorted(b.rng.sample(range(8 * 60 + 2, 8 * 60 + 40), 9)):
        add(
            stamp(8, minute // 60, minute % 60),
            "policyholder:app",
            "document.uploaded",
            doc=f"DOC-{b.hex_id(6)}",
            type="photo",
            caption=b.rng.choice(
                [
                    "kitchen ceiling",
                    "kitchen floor",
                    "garage ceiling",
                    "car roof",
                    "bathroom floor lifted",
                    "utility room",
                    "dining room wall",
                    "hallway ceiling stain",
                ]
            ),
        )
    add(
        stamp(8, 9, 2),
        "supplier:rapid-response",
        "supplier.update",
        status="attended",
        note="Push-fit elbow on 15mm hot feed blown off under bathroom floor. Water isolated, elbow replaced with soldered fitting, system refilled and tested. Electrics to kitchen and garage isolated at the board for safety.",
    )
    add(
        stamp(8, 9, 4),
        "supplier:rapid-response",
        "document.uploaded",
        doc=f"DOC-{b.hex_id(6)}",
        type="photo",
        caption="failed push-fit elbow, insert missing",
    )
    add(
        stamp(8, 9, 5),
        "supplier:rapid-response",
        "supplier.completed",
        invoice_gbp=186.0,
        covered_by="home emergency section",
    )
    add(
        stamp(8, 9, 30),
        "svc:workflow",
        "task.created",
        task="appoint loss adjuster",
        due="2026-03-09T17:00",
    )
    add(
        stamp(8, 9, 31),
        "svc:workflow",
        "claim.linked",
        linked=MOTOR_CLAIM,
        relation="same incident",
    )
    add(stamp(8, 11, 8), "svc:notify", "sms.delivered", to="policyholder", template="FNOL_ACK")
    add(stamp(9, 8, 41), "user:ffion.maddox", "claim.viewed")
    add(
        stamp(9, 8, 47),
        "user:ffion.maddox",
        "claim.assigned",
        handler="triage pool: complex property",
    )
    add(
        stamp(9, 9, 3),
        "user:ffion.maddox",
        "adjuster.appointed",
        firm="Pennine Loss Adjusters",
        adjuster=ADJUSTER,
        reason="ceiling collapse, displaced, est. > £25k",
    )
    add(stamp(9, 9, 3), "svc:workflow", "task.completed", task="appoint loss adjuster")
    add(
        stamp(9, 9, 20),
        "supplier:pennine",
        "adjuster.acknowledged",
        contact_within="4h",
        visit_target="2026-03-10",
    )
    add(
        stamp(9, 10, 2),
        "supplier:pennine",
        "contact.outbound",
        to="policyholder",
        outcome="spoke",
        note="visit booked 10 March 10:00",
    )
    add(
        stamp(9, 10, 3),
        "supplier:pennine",
        "adjuster.visit.booked",
        date="2026-03-10",
        slot="10:00",
    )
    add(
        stamp(9, 11, 36),
        "policyholder:email",
        "email.received",
        subject="Re: your claim - bathroom fitter details",
        attachments=2,
    )
    add(
        stamp(9, 11, 40),
        "svc:docs",
        "document.classified",
        type="invoice",
        supplier=PLUMBER,
        date="2026-02-16",
        amount_gbp=7420.0,
    )
    add(
        stamp(9, 11, 41),
        "svc:docs",
        "document.classified",
        type="photo",
        caption="bathroom refit completion",
    )
    add(
        stamp(9, 12, 15),
        "user:ffion.maddox",
        "referral.created",
        desk="large_loss",
        referral=REFERRAL,
        reason="estimated loss over £50,000 across linked claims",
    )
    add(
        stamp(9, 12, 16),
        "svc:workflow",
        "task.created",
        task="large-loss review",
        due="2026-03-13T17:00",
    )
    add(stamp(9, 13, 2), "user:owen.beckett", "claim.viewed")
    add(
        stamp(9, 13, 5),
        "user:owen.beckett",
        "recovery.flagged",
        against="contractor",
        basis="fitting installed 3 weeks before loss",
    )
    add(stamp(9, 14, 10), "svc:sla", "sla.timer", timer="first_contact", state="met")
    add(
        stamp(9, 16, 44),
        "policyholder:phone",
        "call.inbound",
        duration_s=402,
        summary="asked about accommodation; staying with sister for now",
    )
    add(
        stamp(9, 16, 52),
        "user:ffion.maddox",
        "note.added",
        text="Policyholder staying with sister short term. Alt accom to be arranged once adjuster has seen the property.",
    )
    for _ in range(4):
        hh, mm = b.rng.choice([17, 18, 19, 21]), b.rng.randint(0, 59)
        add(
            stamp(9, hh, mm),
            "svc:sla",
            "sla.timer",
            timer=b.rng.choice(["adjuster_contact", "customer_update", "reserve_review"]),
            state="running",
        )
    add(stamp(10, 7, 58), "supplier:pennine", "adjuster.en_route")
    add(stamp(10, 10, 4), "supplier:pennine", "adjuster.visit.started")
    for minute in sorted(b.rng.sample(range(10 * 60 + 10, 11 * 60 + 50), 14)):
        add(
            stamp(10, minute // 60, minute % 60),
            "supplier:pennine",
            "document.uploaded",
            doc=f"DOC-{b.hex_id(6)}",
            type=b.rng.choice(["photo", "photo", "photo", "moisture_map", "sketch"]),
            caption=b.rng.choice(
                [
                    "kitchen ceiling laths exposed",
                    "joist staining above kitchen",
                    "garage plasterboard on floor",
                    "car under debris",
                    "utility floor tiles lifting",
                    "dining room skirting wet",
                    "bathroom subfloor",
                    "failed fitting retained",
                    "hall ceiling stain",
                    "consumer unit",
                ]
            ),
        )
    add(stamp(10, 11, 58), "supplier:pennine", "adjuster.visit.completed", duration_min=114)
    add(stamp(10, 12, 30), "supplier:pennine", "contents.inventory.started", lines=0)
    add(stamp(10, 14, 41), "supplier:pennine", "contents.inventory.uploaded", lines=84)
    add(stamp(10, 15, 5), "supplier:pennine", "report.uploaded", report="first_visit", pages=6)
    add(
        stamp(10, 15, 6),
        "supplier:pennine",
        "reserve.recommended",
        buildings=38000,
        contents=9500,
        alternative_accommodation=6000,
    )
    add(
        stamp(10, 15, 20),
        "user:owen.beckett",
        "email.sent",
        to="Dalesway Plumbing & Heating Ltd",
        template="HOLD_RESPONSIBLE",
    )
    add(
        stamp(10, 16, 2),
        "supplier:dalesway",
        "email.received",
        subject="Your letter ref " + HOME_CLAIM,
    )
    add(
        stamp(10, 16, 30),
        "user:owen.beckett",
        "note.added",
        visibility="internal",
        text="Recovery note posted to correspondence.",
    )
    add(
        stamp(10, 17, 5),
        "svc:sla",
        "sla.timer",
        timer="customer_update",
        state="due 2026-03-11T17:00",
    )
    add(
        stamp(10, 18, 12),
        "policyholder:email",
        "email.received",
        subject="Accommodation and my car",
        attachments=0,
    )
    add(
        stamp(10, 19, 40),
        "svc:batch",
        "reserve.review.queued",
        reason="adjuster recommendation differs from reserve",
    )
    for minute in sorted(b.rng.sample(range(0, 7 * 60 + 30), 6)):
        add(
            stamp(11, minute // 60, minute % 60),
            "svc:batch",
            b.rng.choice(["index.refreshed", "sla.timer", "document.ocr.completed"]),
            job=b.hex_id(8),
        )
    add(stamp(11, 8, 3), "svc:workflow", "claim.assigned", handler="you (complex property)")
    add(
        stamp(11, 8, 12),
        "svc:notify",
        "email.delivered",
        to="policyholder",
        template="HANDLER_INTRO",
    )
    add(stamp(11, 8, 31), "user:you", "claim.viewed")
    events.sort(key=lambda e: e["ts"])  # oldest first, as exported
    for seq, event in enumerate(events, 1):
        event["seq"] = seq
    return jsonl(events)


def inventory(b: TranscriptBuilder) -> tuple[str, dict[str, Any]]:
    """The adjuster's contents inventory as CSV, and the totals it adds up to."""
    # each entry: item, category, quantity, age in years, unit price
    kitchen = [
        ("Microwave, Panasonic combination", "Electrical", 1, 3, 289.0),
        ("Kettle, Dualit", "Electrical", 1, 5, 89.0),
        ("Toaster, Dualit 4-slot", "Electrical", 1, 5, 179.0),
        ("Stand mixer, KitchenAid", "Electrical", 1, 7, 499.0),
        ("Coffee machine, Sage Barista", "Electrical", 1, 2, 599.0),
        ("DAB radio, Roberts", "Electrical", 1, 6, 149.0),
        ("Dinner service, Denby (24 pieces)", "Kitchenware", 1, 9, 420.0),
        ("Glassware, assorted", "Kitchenware", 36, 8, 3.5),
        ("Cast-iron casserole, Le Creuset", "Kitchenware", 2, 11, 245.0),
        ("Saucepan set, stainless", "Kitchenware", 1, 6, 180.0),
        ("Knife block and knives", "Kitchenware", 1, 4, 159.0),
        ("Cookery books", "Books", 42, 10, 14.0),
        ("Food stocks, dry goods", "Food", 1, 0, 140.0),
        ("Kitchen table, oak, 6-seat", "Furniture", 1, 12, 950.0),
        ("Kitchen chairs, oak", "Furniture", 6, 12, 120.0),
        ("Rug, wool, 160x230", "Soft furnishings", 1, 4, 340.0),
        ("Roman blinds, linen", "Soft furnishings", 2, 5, 165.0),
        ("Tablet, iPad 10th gen", "Electrical", 1, 2, 349.0),
        ("Wine rack and wine", "Food", 1, 0, 310.0),
        ("Tea towels, linens", "Household linen", 1, 3, 60.0),
        ("Spice rack and spices", "Food", 1, 0, 75.0),
        ("Bread maker, Panasonic", "Electrical", 1, 8, 139.0),
        ("Storage jars, ceramic", "Kitchenware", 8, 6, 18.0),
        ("Wall clock", "Ornaments", 1, 15, 85.0),
        ("Framed prints", "Pictures", 3, 9, 110.0),
        ("Pendant lamp shades", "Lighting", 3, 4, 95.0),
    ]
    utility = [
        ("Tumble dryer, Bosch heat pump", "Electrical", 1, 4, 649.0),
        ("Vacuum cleaner, Dyson V15", "Electrical", 1, 2, 599.0),
        ("Iron and ironing board", "Household", 1, 6, 95.0),
        ("Coats, outdoor", "Clothing", 5, 4, 160.0),
        ("Walking boots", "Clothing", 3, 3, 130.0),
        ("Laundry in baskets", "Clothing", 1, 2, 220.0),
        ("Cleaning products and mop", "Household", 1, 0, 45.0),
        ("Dog bed and crate", "Pet", 1, 3, 140.0),
        ("Shelving unit, metal", "Furniture", 1, 9, 85.0),
        ("Ladder, aluminium", "Household", 1, 10, 120.0),
    ]
    garage = [
        ("Chest freezer, Beko", "Electrical", 1, 7, 279.0),
        ("Freezer contents", "Food", 1, 0, 230.0),
        ("Lawnmower, Mountfield petrol", "Garden", 1, 6, 329.0),
        ("Hedge trimmer, cordless", "Garden", 1, 3, 149.0),
        ("Garden furniture cushions", "Garden", 6, 4, 45.0),
        ("Bicycle, Ridgeback hybrid", "Bicycles", 1, 5, 650.0),
        ("Bicycle, Pashley", "Bicycles", 1, 8, 795.0),
        ("Hand tools in chest", "Tools", 1, 15, 480.0),
        ("Cordless drill set, Makita", "Tools", 1, 4, 260.0),
        ("Storage boxes, photographs and papers", "Documents", 6, 20, 0.0),
        ("Christmas decorations", "Household", 3, 10, 60.0),
        ("Camping gear, tent and bags", "Leisure", 1, 7, 540.0),
        ("Winter tyres on rims (Yaris)", "Motor accessories", 4, 2, 210.0),
        ("Roof box, Thule", "Motor accessories", 1, 5, 420.0),
        ("Golf clubs and bag", "Leisure", 1, 9, 880.0),
        ("Paint tins, decorating", "Household", 1, 0, 90.0),
        ("Workbench, timber", "Furniture", 1, 15, 150.0),
        ("Pressure washer, Kärcher", "Garden", 1, 5, 229.0),
    ]
    dining = [
        ("Dining chairs, mahogany", "Furniture", 6, 30, 260.0),
        ("Dining table, mahogany extending", "Furniture", 1, 30, 1850.0),
        ("Rug, Persian, 200x300", "Soft furnishings", 1, 22, 2400.0),
        ("Curtains, interlined, pair", "Soft furnishings", 2, 8, 680.0),
        ("Oil painting, Yorkshire Dales (F. Hollis)", "Pictures", 1, 35, 2200.0),
        ("Table linen", "Household linen", 1, 10, 150.0),
        ("Silver-plated candlesticks", "Ornaments", 2, 25, 120.0),
        ("Side table, mahogany", "Furniture", 1, 30, 390.0),
        ("Books, hardback", "Books", 60, 15, 12.0),
        ("Upright piano stool", "Furniture", 1, 40, 180.0),
        ("Table lamp", "Lighting", 2, 6, 135.0),
    ]
    hallway = [
        ("Hall runner, wool", "Soft furnishings", 1, 6, 260.0),
        ("Coats and jackets", "Clothing", 7, 3, 140.0),
        ("Shoes", "Clothing", 9, 3, 75.0),
        ("Umbrella stand and umbrellas", "Household", 1, 8, 65.0),
        ("Mirror, gilt", "Ornaments", 1, 18, 320.0),
        ("Console table, painted", "Furniture", 1, 10, 280.0),
        ("Telephone, cordless", "Electrical", 1, 4, 59.0),
    ]
    bathroom = [
        ("Towels, Egyptian cotton", "Household linen", 12, 2, 24.0),
        ("Bath mats", "Household linen", 2, 2, 30.0),
        ("Toiletries and cosmetics", "Personal", 1, 0, 180.0),
        ("Electric toothbrushes", "Electrical", 2, 2, 120.0),
        ("Hairdryer, Dyson", "Electrical", 1, 3, 329.0),
        ("Laundry basket, wicker", "Household", 1, 5, 55.0),
        ("Bathroom cabinet contents, medicines", "Personal", 1, 0, 65.0),
        ("Scales, digital", "Electrical", 1, 4, 45.0),
        ("Wall cabinet, mirrored (freestanding)", "Furniture", 1, 6, 210.0),
        ("Bathrobe", "Clothing", 2, 3, 70.0),
        ("Framed mirror, round", "Ornaments", 1, 3, 140.0),
    ]
    rooms = [
        ("Kitchen", kitchen),
        ("Utility", utility),
        ("Garage", garage),
        ("Dining room", dining),
        ("Hallway", hallway),
        ("Bathroom", bathroom),
    ]
    header = "line_id,room,item,category,qty,age_years,claimed_gbp,evidence,condition,adjuster_status,agreed_gbp,adjuster_note"
    rows: list[list[str]] = []
    totals = {"claimed": 0.0, "agreed": 0.0, "proof": 0, "declined": 0, "excluded": 0, "lines": 0}
    for room, entries in rooms:
        for item, category, qty, age, price in entries:
            claimed = round(qty * price, 2)
            evidence = b.rng.choice(
                ["photo", "photo", "photo+receipt", "photo+bank statement", "adjuster seen", "none"]
            )
            condition = b.rng.choice(
                [
                    "saturated",
                    "water-stained",
                    "plaster debris",
                    "wet, drying",
                    "beyond repair",
                    "ceiling debris impact",
                ]
            )
            note = ""
            if category == "Motor accessories":
                status, agreed = "EXCLUDED", 0.0
                note = "motor accessories not contents; pass to motor claim " + MOTOR_CLAIM
                totals["excluded"] += 1
            elif category == "Documents":
                status, agreed = "NO_VALUE", 0.0
                note = "sentimental; refer to document drying service if wanted"
            elif evidence == "none" and claimed > 250:
                status, agreed = "PROOF_REQUIRED", 0.0
                note = "ask for receipt, statement or photo in situ"
                totals["proof"] += 1
            elif category in ("Clothing", "Household linen"):
                status = "ACCEPTED_WEAR"
                rate = min(0.5, 0.1 * age)
                agreed = round(claimed * (1 - rate), 2)
                note = f"wear and tear {rate:.0%}"
            elif condition == "wet, drying":
                status, agreed = "CLEAN_RESTORE", round(claimed * 0.2, 2)
                note = "specialist clean; replace if restoration fails"
            else:
                status, agreed = "ACCEPTED", claimed
            line = f"LN-{b.hex_id(6)}"
            if item == "Dining chairs, mahogany":
                line, status, agreed = LOOKALIKE_LINE, "CLEAN_RESTORE", 540.0
                evidence, condition, note = (
                    "adjuster seen",
                    "wet, drying",
                    "legs swollen; french polisher to restore",
                )
            elif item == "Side table, mahogany":
                line, status, agreed = LOOKALIKE_LINE_2, "REPAIR", 140.0
                evidence, condition, note = (
                    "adjuster seen",
                    "water-stained",
                    "top to be re-polished",
                )
            rows.append(
                [
                    line,
                    room,
                    item,
                    category,
                    str(qty),
                    str(age),
                    f"{claimed:.2f}",
                    evidence,
                    condition,
                    status,
                    f"{agreed:.2f}",
                    note,
                ]
            )
            totals["claimed"] += claimed
            totals["agreed"] += agreed
        if room == "Dining room":
            # the one line the adjuster declines: the damage was there before the escape
            rows.insert(
                len(rows) - 3,
                [
                    DECLINED_LINE,
                    room,
                    "Chiffonier, Victorian mahogany",
                    "Furniture",
                    "1",
                    "140",
                    "1600.00",
                    "photo",
                    "water-stained",
                    "DECLINED",
                    "0.00",
                    "staining and veneer lift visible in 2024 estate-agent photos; pre-existing, not this escape",
                ],
            )
            totals["claimed"] += 1600.0
            totals["declined"] += 1
    totals["lines"] = len(rows)
    totals["claimed"] = round(totals["claimed"], 2)
    totals["agreed"] = round(totals["agreed"], 2)

    def cell(value: str) -> str:
        return f'"{value}"' if "," in value else value

    return "\n".join([header, *(",".join(cell(v) for v in r) for r in rows)]), totals


def moisture_readings(b: TranscriptBuilder) -> tuple[str, dict[str, int]]:
    """The drying contractor's initial moisture survey as CSV."""
    points = [
        ("K", "Kitchen", "lath and plaster ceiling", "ceiling", 14),
        ("K", "Kitchen", "plaster wall", "north wall", 8),
        ("K", "Kitchen", "timber joist", "ceiling void", 4),
        ("U", "Utility", "plaster wall", "party wall", 5),
        ("U", "Utility", "concrete floor", "floor", 3),
        ("G", "Garage", "plasterboard ceiling", "ceiling", 4),
        ("G", "Garage", "block wall", "rear wall", 3),
        ("D", "Dining room", "plaster wall", "kitchen wall", 4),
        ("D", "Dining room", "timber skirting", "skirting", 2),
        ("B", "Bathroom", "timber floorboards", "subfloor", 4),
        ("H", "Hallway", "plaster ceiling", "ceiling", 2),
    ]
    standards = {
        "lath and plaster ceiling": ("WME%", 16),
        "plaster wall": ("WME%", 16),
        "timber joist": ("WME%", 18),
        "timber skirting": ("WME%", 18),
        "timber floorboards": ("WME%", 18),
        "concrete floor": ("RH%", 75),
        "block wall": ("WME%", 16),
        "plasterboard ceiling": ("WME%", 16),
        "plaster ceiling": ("WME%", 16),
    }
    header = "point,room,material,location,unit,reading,dry_standard,status,taken"
    rows = []
    wet = dry = 0
    numbered: dict[str, int] = {}
    for prefix, room, material, location, n in points:
        unit, standard = standards[material]
        for _ in range(n):
            numbered[prefix] = i = numbered.get(prefix, 0) + 1
            high = b.rng.random() < (0.85 if room in ("Kitchen", "Garage", "Bathroom") else 0.45)
            if unit == "RH%":
                reading = b.rng.randint(86, 97) if high else b.rng.randint(62, 74)
            else:
                reading = b.rng.randint(24, 48) if high else b.rng.randint(9, standard - 1)
            status = "WET" if reading >= standard else "DRY"
            wet += status == "WET"
            dry += status == "DRY"
            seconds = 13 * 3600 + 40 * 60 + len(rows) * 30 + b.rng.randint(0, 20)
            taken = f"2026-03-11 {seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
            rows.append(
                f"{prefix}{i:02d},{room},{material},{location},{unit},{reading},{standard},{status},{taken}"
            )
    return "\n".join([header, *rows]), {"wet": wet, "dry": dry, "points": len(rows)}


def build() -> TranscriptBuilder:
    b = TranscriptBuilder(
        SEED,
        avoid=(
            "30582",
            "30528",
            "318",
            "381",
            "88217",
            "5093",
            "31704",
            "31740",
            "8e3f",
            "85e3",
            "471629",
            "3308",
            "217",
            "271",
        ),
    )
    log = audit_log(b)
    contents, inv = inventory(b)
    readings, dry = moisture_readings(b)
    drying_job = f"DRY-{b.number(100000, 199999)}"
    engineer_job = f"ENG-{b.number(500000, 599999)}"
    ale_first = f"ALE-{b.number(200000, 299999)}"
    ale_second = f"ALE-{b.number(200000, 299999)}"
    payment_id = f"PAY-{b.hex_id(8)}"
    plaster_job = f"RIN-{b.number(600000, 699999)}"
    garage_job = f"RIN-{b.number(600000, 699999)}"
    repair_job = f"REP-{b.number(700000, 799999)}"
    notes = [f"FN-{b.number(1000000, 1999999)}" for _ in range(5)]
    estimate_total = 2946.40

    # 1 — which customer
    b.user(
        "Morning. I've picked up a file from the overnight queue: Rosalind Achterberg, a burst pipe at her house in Leeds, and she's reported damage to her car as well. Can you find her?"
    )
    b.calls(
        (
            "search_policies",
            {"name": "Rosalind Achterberg"},
            pretty(
                {
                    "query": {"name": "Rosalind Achterberg"},
                    "matches": 2,
                    "customers": [
                        {
                            "customer_id": CUSTOMER,
                            "name": HOLDER,
                            "dob": "1961-05-19",
                            "postcode": "LS6 4JH",
                            "customer_since": "2011-03-14",
                            "policies": [
                                {
                                    "number": HOME_POLICY,
                                    "product": "Home Plus (buildings and contents)",
                                    "status": "in force",
                                    "renewal": "2026-11-22",
                                },
                                {
                                    "number": MOTOR_POLICY,
                                    "product": "Motor Comprehensive",
                                    "status": "in force",
                                    "renewal": "2026-08-03",
                                },
                            ],
                            "open_claims": 2,
                        },
                        {
                            "customer_id": OTHER_CUSTOMER,
                            "name": OTHER_HOLDER,
                            "dob": "1984-10-02",
                            "postcode": "LE2 3PF",
                            "customer_since": "2022-06-30",
                            "policies": [
                                {
                                    "number": OTHER_POLICY,
                                    "product": "Home Essentials (contents only)",
                                    "status": "in force",
                                    "renewal": "2026-06-30",
                                }
                            ],
                            "open_claims": 0,
                        },
                    ],
                }
            ),
        )
    )
    b.say(
        f"Two matches. {HOLDER} ({CUSTOMER}), born 1961, LS6 4JH in Leeds, a customer since 2011 with a Home Plus buildings-and-contents policy and a comprehensive motor policy, both in force, and two open claims. The other is {OTHER_HOLDER} in Leicester (LE2 3PF), contents only and no claims. I take it you mean the Leeds customer?"
    )

    # 2 — the live policy number (the legacy one beside it) and the policy record
    b.user(
        f"The Leeds one. She's quoting {LEGACY_POLICY} from her old paper schedule, which is the legacy number from before we migrated everything onto the new platform. The live number is {HOME_POLICY}, so use that. Pull the home policy."
    )
    b.calls(
        (
            "get_policy",
            {"policy_number": HOME_POLICY},
            pretty(
                {
                    "policy": {
                        "number": HOME_POLICY,
                        "legacy_reference": LEGACY_POLICY,
                        "migrated": "2024-10-05",
                        "product": "Home Plus",
                        "status": "in force",
                        "period": {"start": "2025-11-22", "end": "2026-11-21"},
                        "parties": {
                            "policyholders": [
                                {
                                    "name": HOLDER,
                                    "role": "first named",
                                    "dob": "1961-05-19",
                                    "contact": {
                                        "email": "r.achterberg@example.org",
                                        "mobile": "07700 900461",
                                        "preferred": "email",
                                    },
                                    "vulnerability": {
                                        "flag": True,
                                        "type": "physical",
                                        "detail": "knee replacement Jan 2026, limited mobility on stairs",
                                        "recorded": "2026-03-08",
                                    },
                                },
                                {
                                    "name": JOINT,
                                    "role": "joint",
                                    "dob": "1958-09-02",
                                    "contact": {"mobile": "07700 900533"},
                                },
                            ],
                            "emergency_contact": {
                                "name": EMERGENCY_CONTACT,
                                "relationship": "daughter",
                                "mobile": "07700 900627",
                            },
                            "interested_parties": [
                                {
                                    "type": "mortgagee",
                                    "lender": {
                                        "name": "Calder Building Society",
                                        "branch": "Halifax",
                                        "interest": {
                                            "account_ref": MORTGAGE,
                                            "noted": "2019-07-30",
                                            "status": "active",
                                            "payment_rule": "buildings settlements over £10,000 payable jointly to policyholders and mortgagee",
                                        },
                                    },
                                },
                                {
                                    "type": "mortgagee",
                                    "lender": {
                                        "name": "Northway Bank",
                                        "branch": "Leeds Park Row",
                                        "interest": {
                                            "account_ref": OLD_MORTGAGE,
                                            "noted": "2011-03-14",
                                            "status": "removed",
                                            "removed": "2019-08-02",
                                            "reason": "redeemed on remortgage",
                                        },
                                    },
                                },
                            ],
                        },
                        "risk": {
                            "address": {
                                "line1": "12 Moorfield Terrace",
                                "town": "Leeds",
                                "postcode": "LS6 4JH",
                                "uprn": "072741095530",
                            },
                            "property": {
                                "type": "end-terrace house",
                                "built": 1878,
                                "walls": "gritstone",
                                "roof": "Welsh slate",
                                "bedrooms": 4,
                                "garage": "integral (former coach house), plasterboard ceiling",
                                "flood_zone": "1",
                            },
                            "occupancy": "owner-occupied, not unoccupied over 30 days",
                            "security": ["5-lever mortice locks", "monitored alarm"],
                        },
                        "sections": {
                            "buildings": {
                                "sum_insured_gbp": 485000,
                                "accidental_damage": True,
                                "basis": "reinstatement",
                            },
                            "contents": {
                                "sum_insured_gbp": 75000,
                                "accidental_damage": False,
                                "single_article_limit_gbp": 2500,
                                "specified_items": [
                                    {
                                        "item": "Diamond solitaire ring",
                                        "value_gbp": 6200,
                                    },
                                    {
                                        "item": "Oil painting, Yorkshire Dales (F. Hollis)",
                                        "value_gbp": 3800,
                                    },
                                ],
                            },
                            "legal_expenses": {"included": True, "limit_gbp": 100000},
                            "home_emergency": {"included": True, "provider": "Rapid Response"},
                        },
                        "excesses": {
                            "standard_gbp": 250,
                            "escape_of_water": "see schedule",
                            "subsidence_gbp": 1000,
                        },
                        "endorsements": {"count": 3, "detail": "see policy schedule"},
                        "premium": {
                            "annual_gbp": 1184.32,
                            "payment": "monthly direct debit",
                            "ncd_years_home": 5,
                        },
                        "declared_claims_history": [
                            {
                                "year": 2017,
                                "peril": "storm",
                                "detail": "fence panels",
                                "paid_gbp": 1840,
                            }
                        ],
                        "documents": [
                            "schedule 2025-11",
                            "wording HP-2025.1",
                            "statement of fact 2025-11",
                        ],
                    }
                }
            ),
        )
    )
    b.say(
        f"Home Plus, in force until 21 November 2026, migrated from the old platform in October 2024. {HOLDER} is first named with {JOINT} as joint policyholder; Rosalind has a physical vulnerability flag recorded at first notification (knee replacement in January, limited mobility on stairs). The daughter, {EMERGENCY_CONTACT}, is the emergency contact. The house is a 4-bedroom gritstone end-terrace from 1878 with an integral garage in the former coach house. Buildings £485,000 on reinstatement with accidental damage; contents £75,000, £2,500 single-article limit, a ring and a painting specified. Standard excess £250; the escape-of-water excess is set in the schedule, and there are three endorsements. Calder Building Society has an active mortgagee interest, and buildings settlements over £10,000 must be paid jointly to them and the policyholders (an older Northway Bank interest was removed in 2019). The only declared past claim is a 2017 storm claim for fence panels."
    )

    # 3 — the standing rules
    b.user(
        f"Two standing rules from my team leader, Ffion, for this customer. The home claim's been referred to the large-loss desk, so every file note you add, on either claim, starts with the large-loss referral number {REFERRAL}. And every reserve you set or move on the home claim, and any payment out of it, goes under reserve code {RESERVE_CODE}, the escape-of-water heading, not the general buildings code the system defaulted to."
    )
    b.say(
        "Understood: every file note on either claim opens with the large-loss referral number, and all reserves and payments on the home claim go under the escape-of-water reserve code you gave, not the system's general buildings default."
    )

    # 4 — her claims
    b.user("What claims does she have on file?")
    b.calls(
        (
            "list_claims",
            {"customer_id": CUSTOMER, "status": "all"},
            f"""\
4 claims for {CUSTOMER} {HOLDER} (newest first)
claim_id     policy        line   peril / cause                              loss_date   status        handler            paid_gbp   recovery
{HOME_CLAIM}   {HOME_POLICY}   home   escape of water (burst pipe)               2026-03-08  open          you (complex)          0.00   flagged: contractor
{MOTOR_CLAIM}   {MOTOR_POLICY}   motor  accidental damage (garage ceiling fall)    2026-03-08  open          you (complex)          0.00   -
{OLD_MOTOR_CLAIM}   {MOTOR_POLICY}   motor  rear-end collision, third party at fault   2024-02-11  closed        motor-fast-track    1,918.40   {OLD_RECOVERY} recovered in full (closed 2024-05-20)
HCL-388025   {LEGACY_POLICY}  home   storm (fence panels)                       2017-12-08  closed        legacy                1,840.00   -
""",
        )
    )
    b.say(
        f"Four claims. Open: the home claim {HOME_CLAIM} (escape of water, 8 March) and the motor claim {MOTOR_CLAIM} for the same day (the garage ceiling falling on the car), both with you and nothing paid yet; Recoveries have already flagged the home claim against a contractor. Closed: a 2024 rear-end collision on the motor policy where the other driver was at fault, £1,918.40 paid and recovered in full, and the 2017 storm claim for the fence, from the legacy platform."
    )

    # 5 — the home claim
    b.user("Open the home claim.")
    b.calls(
        (
            "get_claim",
            {"claim_id": HOME_CLAIM},
            pretty(
                {
                    "claim": {
                        "id": HOME_CLAIM,
                        "policy": HOME_POLICY,
                        "status": "investigation",
                        "loss": {
                            "datetime": "2026-03-08T06:40",
                            "reported": "2026-03-08T07:12",
                            "channel": "out-of-hours phone",
                            "peril": "escape of water",
                            "cause": "failed pipe fitting under bathroom floor (hot feed)",
                            "areas": [
                                "kitchen (ceiling partly collapsed)",
                                "utility",
                                "garage (ceiling collapsed onto vehicle)",
                                "dining room (wall and skirting)",
                                "bathroom (floor lifted)",
                                "hallway (ceiling stain)",
                            ],
                            "habitable": False,
                        },
                        "cover_position": {
                            "buildings": "indicated",
                            "contents": "indicated",
                            "alternative_accommodation": "indicated",
                            "motor_vehicle": "not covered under home: see linked motor claim",
                        },
                        "linked_claims": [{"id": MOTOR_CLAIM, "relation": "same incident"}],
                        "parties": {
                            "adjuster": {
                                "firm": "Pennine Loss Adjusters",
                                "name": ADJUSTER,
                                "mobile": "07700 900174",
                            },
                            "contractor_at_fault": {
                                "name": PLUMBER,
                                "work": "bathroom refit completed 2026-02-16",
                            },
                        },
                        "suppliers": [
                            {
                                "type": "home emergency plumber",
                                "name": "Rapid Response Plumbing (Leeds)",
                                "status": "completed 2026-03-08",
                            }
                        ],
                        "reserves": {
                            "outstanding_gbp": 15000.0,
                            "paid_gbp": 0.0,
                            "lines": 1,
                            "review": "queued: adjuster recommendation differs",
                        },
                        "referrals": [
                            {"desk": "large_loss", "number": REFERRAL, "status": "awaiting review"}
                        ],
                        "tasks_open": 5,
                        "next_sla": {
                            "task": "customer update",
                            "due": "2026-03-11T17:00",
                        },
                    }
                }
            ),
        )
    )
    b.say(
        "The pipe failed at 06:40 on Sunday 8 March and she rang the out-of-hours line at 07:12. The cause is recorded as a failed fitting on the hot feed under the bathroom floor. Affected: the kitchen (ceiling partly down), the utility, the garage (ceiling onto the car), the dining room wall, the bathroom floor and a stain in the hall; the house is marked uninhabitable. Buildings, contents and alternative accommodation are all indicated; the car is excluded here and sits on the linked motor claim. Carys Pengelly of Pennine Loss Adjusters is appointed, and the plumber who refitted the bathroom on 16 February is named as the contractor at fault. The only reserve is the system's £15,000 on one line, queued for review, and the large-loss referral is awaiting review. Next SLA: a customer update by 17:00 today."
    )

    # 6 — the audit log: the CUE match lives in one line of it
    b.user(
        "Show me the audit log. I want to see what happened over the weekend and what the automated checks said."
    )
    b.calls(("get_claim_audit_log", {"claim_id": HOME_CLAIM}, log))
    b.say(
        "From the log: the out-of-hours team logged it at 07:12 on the 8th, set the vulnerability flag and sent the home-emergency plumber, who found a push-fit elbow blown off the hot feed, isolated the water and made it safe by 09:00, isolating the kitchen and garage electrics too. The system put a default £15,000 buildings reserve on the general code. The fraud screen scored it low, but the CUE search on Rosalind matched a 2021 escape-of-water claim with Brannock General (£6,480 paid) that isn't on her declared history, and the search on Martin found nothing. Ffion appointed Pennine on Monday and raised the large-loss referral; Owen Beckett in Recoveries flagged it against the bathroom fitter. Carys visited on Tuesday morning, uploaded photos, an 84-line contents inventory and her first-visit report, and recommended reserves. Dalesway replied to our hold-responsible letter on Tuesday afternoon, and Rosalind emailed that evening about accommodation and her car."
    )

    # 7 — the adjuster's first-visit notes
    b.user("Let's read Carys's report.")
    b.calls(
        (
            "get_adjuster_report",
            {"claim_id": HOME_CLAIM, "report": "first_visit"},
            f"""\
PENNINE LOSS ADJUSTERS - FIRST VISIT REPORT
Insurer: Ashby Thorne Insurance        Claim: {HOME_CLAIM}       Our ref: PLA/26/03117
Insured: {HOLDER} and {JOINT}
Risk: {ADDRESS}
Visit: Tuesday 10 March 2026, 10:04-11:58, with Mr Achterberg present
Adjuster: {ADJUSTER} ACII, Chartered Loss Adjuster

1. CIRCUMSTANCES
At about 06:40 on Sunday 8 March Mrs Achterberg heard a loud crack and found water running
through the kitchen ceiling light fitting. Part of the kitchen ceiling came down within minutes.
Mr Achterberg turned off the stopcock, but by then water had also run along the ceiling void
into the garage, where about a third of the plasterboard ceiling fell onto their Toyota Yaris.
The home emergency plumber attended at 08:50.

2. CAUSE
The bathroom was refitted by {PLUMBER} between 2 and 16 February 2026. I inspected the retained
fitting: a 15mm push-fit elbow on the hot feed to the new basin, under the bathroom floor. The
pipe end shows no insert and no depth mark, and the collet teeth have only marked the pipe
surface. In my opinion the pipe was not fully inserted and no pipe insert was used; the joint
held at low demand and let go under a pressure surge when the combi boiler fired. This is
sudden escape of water from a fixed system, covered under the buildings section. Workmanship
itself is excluded, but the resulting damage is not. Good prospects of recovery against the
contractor: I have kept the fitting and photographed it in situ.

3. DAMAGE - BUILDINGS
Kitchen: original lath-and-plaster ceiling (approx 4.2m x 3.8m), about 40% collapsed, the rest
saturated and bowed; cornice damaged on two walls. Walls wet to about 1m below ceiling.
Kitchen units: two wall units swollen. Worktops sound.
Garage: plasterboard ceiling, about a third down, remainder saturated. Lighting circuit to be
tested before re-energising.
Utility: floor tiles lifting, party wall wet at high level.
Dining room: kitchen-side wall wet at low level, skirting swollen.
Bathroom: floor lifted for access; new floor tiles to be relaid; chipboard subfloor to replace.
Hallway: ceiling stain only, monitor.
Electrics: kitchen and garage circuits isolated by the emergency plumber; NICEIC test needed.

4. DAMAGE - CONTENTS
Kitchen, utility and garage contents affected by water and ceiling debris. Inventory of 84
lines taken with Mr Achterberg and uploaded separately. Several items need proof of ownership.
The garage held the Yaris, winter tyres and a roof box: motor items, not contents.

5. HABITABILITY
The house is not habitable: no kitchen, no safe lighting downstairs, drying equipment will run
for several weeks and Mrs Achterberg cannot manage the stairs to the one working bathroom
while the ground floor is stripped. Alternative accommodation needed for a couple and their dog,
ground floor or lift access, parking for one car. Estimated 4-8 weeks subject to drying.

6. NEXT STEPS
(a) Drying contractor to attend urgently; strip out saturated kitchen and garage ceilings.
(b) Contents: proof for items marked; specialist clean for the dining chairs.
(c) Reinstatement quotes once drying is under way; I will obtain a panel quote and a
    specialist quote for the kitchen ceiling given its age.
(d) Recovery: hold-responsible letter sent by Recoveries; fitting retained at my office.

7. RESERVE RECOMMENDATION
Buildings      £38,000   (strip-out, drying, kitchen and garage ceilings, utility floor,
                          bathroom subfloor, decoration, electrics, two kitchen units)
Contents        £9,500   (provisional, pending proof and restoration)
Alt. accom.     £6,000   (4-6 weeks)
Our fees       to be reserved separately by the insurer

{ADJUSTER}
10 March 2026
""",
        )
    )
    b.say(
        f"Carys's findings: the cause is a push-fit elbow on the hot feed to the new basin that was never properly made: no pipe insert, pipe not fully home, and it let go under a pressure surge. That's a sudden escape of water and covered; the workmanship itself isn't, and she rates recovery against {PLUMBER} as good, with the fitting kept and photographed. The kitchen's original lath-and-plaster ceiling is about 40% down and the rest saturated, a third of the garage ceiling fell on the Yaris, and the utility floor, dining-room wall, bathroom subfloor and electrics all need work. The house isn't habitable: they need ground-floor or lift-access accommodation for a couple and a dog, with parking, for 4-8 weeks. She recommends reserves of £38,000 buildings, £9,500 contents and £6,000 accommodation, with her fees reserved separately. The tyres and roof box in the garage are motor items."
    )

    # 8 — the schedule and wording (YAML): the excess endorsement lives only here
    b.user(
        "Pull her schedule and the wording. I need the escape-of-water excess and what we cover for trace and access and alternative accommodation."
    )
    b.calls(
        (
            "get_policy_documents",
            {"policy_number": HOME_POLICY, "documents": "schedule_and_wording"},
            f"""\
schedule:
  policy: {HOME_POLICY}
  issued: 2025-11-04
  period: 2025-11-22 to 2026-11-21
  policyholders: [{HOLDER}, {JOINT}]
  risk_address: {ADDRESS}
  wording: HP-2025.1
  sections:
    buildings:
      sum_insured: 485000
      accidental_damage: included
    contents:
      sum_insured: 75000
      single_article_limit: 2500
      accidental_damage: not included
      specified_items:
        - {{item: Diamond solitaire ring, value: 6200, cover: home and away}}
        - {{item: "Oil painting, Yorkshire Dales (F. Hollis)", value: 3800, cover: home}}
    legal_expenses: included
    home_emergency: included
  excesses:
    standard: 250
    subsidence_heave_landslip: 1000
  endorsements_applied:
    - code: {ENDORSEMENT}
      title: Escape of water excess
      text: >-
        The excess for loss or damage caused by escape of water from any fixed water or
        heating installation is £1,000 for each claim, in place of the standard excess.
        This applies to buildings and contents together; only one excess is payable per
        incident.
      reason: underwriter, prior escape-of-water losses in the postcode sector
    - code: END-093
      title: Bicycles away from the home
      text: Bicycles are covered away from the home up to £1,000 each if locked to an immovable object.
    - code: END-142
      title: Home working equipment
      text: Business equipment at the home is covered up to £5,000 in total.
wording:
  product: Home Plus
  edition: HP-2025.1
  section_1_buildings:
    covers:
      escape_of_water:
        text: >-
          Escape of water from any fixed water or heating installation, washing machine,
          dishwasher, fridge or freezer, or fish tank.
        not_covered:
          - the cost of repairing the installation itself, unless damaged by the escape
          - damage caused by failure or lack of grout or sealant
          - damage while the home is unoccupied for more than 30 days in a row
          - faulty workmanship, design or materials (the resulting damage is covered)
      trace_and_access:
        text: >-
          The cost of finding where water or oil is escaping from and making good the
          damage caused in finding it.
        limit: 5000
        excess: none
      alternative_accommodation:
        text: >-
          If the home cannot be lived in because of damage covered by this section, the
          reasonable cost of alternative accommodation for you, your family and your
          domestic pets, of a similar standard, until the home is fit to live in.
        limit: 20% of the buildings sum insured
        combined_with_contents_section: true
  section_2_contents:
    definitions:
      contents: >-
        Household goods, personal possessions and furniture which you own or are legally
        responsible for. Contents does not include motor vehicles, caravans, trailers,
        watercraft or their parts and accessories (whether attached or not), other than
        ride-on mowers and mobility scooters.
    basis_of_settlement:
      new_for_old: all contents except clothing and household linen
      wear_and_tear: clothing and household linen
      matching_items: >-
        We do not pay for undamaged items forming part of a pair, set or suite, or for
        undamaged parts of carpets, beyond half the cost of replacing the undamaged parts.
  general_conditions:
    claims_notification: tell us as soon as possible and in any case within 30 days
    other_insurance: we pay only our rateable share
    recovery: >-
      We may take over and conduct in your name the defence or settlement of any claim, or
      pursue in your name any claim for our own benefit against anyone else.
    misrepresentation: >-
      If you did not answer our questions honestly and with reasonable care, we may treat
      this policy as if it never existed, change its terms or pay only a proportion of a
      claim, as the law allows.
  endorsement_library:
    - {{code: END-093, title: Bicycles away from the home, status: current}}
    - {{code: END-142, title: Home working equipment, status: current}}
    - {{code: END-160, title: Unoccupancy extended to 60 days, status: current}}
    - {{code: {ENDORSEMENT}, title: Escape of water excess £1,000, status: current}}
    - {{code: {OLD_ENDORSEMENT}, title: Escape of water excess £500, status: withdrawn 2025-01-01}}
    - {{code: END-305, title: Flood exclusion, status: current}}
""",
        )
    )
    b.say(
        "The escape-of-water excess is £1,000 under an endorsement on her schedule; it replaces the standard £250 and is payable once for buildings and contents together. Trace and access is covered up to £5,000 with no excess. Alternative accommodation is covered at a similar standard, for the family and pets, until the home is fit to live in, up to 20% of the buildings sum insured (£97,000), shared with the contents section. Faulty workmanship is excluded but the damage it causes is covered, and the wording's recovery condition lets us pursue the fitter in her name. Contents excludes motor vehicles and their accessories, so the car, tyres and roof box all go to the motor claim. The schedule also carries bicycle and home-working endorsements."
    )

    # 9 — the drying contractor
    b.user(
        "Carys wants drying started straight away. Instruct the panel drying contractor for the house."
    )
    b.calls(
        (
            "instruct_supplier",
            {
                "claim_id": HOME_CLAIM,
                "supplier_type": "drying",
                "instructions": "Escape of water from hot feed under bathroom floor on 8 March. Strip out saturated kitchen lath-and-plaster ceiling debris (make safe only, retain laths where sound) and garage plasterboard ceiling; moisture survey; dehumidification and air movers; weekly readings to the adjuster. Kitchen and garage circuits isolated: electrician to be confirmed. Policyholder vulnerable (mobility).",
            },
            pretty(
                {
                    "job": {
                        "id": drying_job,
                        "supplier": "Northern Restoration Services",
                        "panel": True,
                        "trade": "drying",
                        "status": "accepted",
                        "first_attendance": {
                            "date": "2026-03-11",
                            "window": "13:30-15:00",
                            "technician": "Lewis Harland",
                        },
                        "scope_confirmed": [
                            "make-safe strip-out: kitchen ceiling debris, garage plasterboard ceiling",
                            "moisture survey and mapping",
                            "2 LGR dehumidifiers, 6 air movers, 1 heat mat (bathroom subfloor)",
                            "weekly readings and photos to adjuster",
                        ],
                        "estimated_drying_days": "18-25",
                        "electric_supply": "temporary supply from the upstairs ring; kitchen circuits stay off",
                        "access": "keyholder to be confirmed",
                        "charges": "panel rates, invoiced to claim",
                    }
                }
            ),
        )
    )
    b.say(
        f"Instructed: Northern Restoration Services (panel), job {drying_job}. Lewis Harland attends today between 13:30 and 15:00 to make safe and strip out the kitchen ceiling debris and the garage ceiling, map the moisture and set up two dehumidifiers, six air movers and a heat mat for the bathroom subfloor. They estimate 18-25 days of drying, will run off the upstairs ring while the kitchen circuits stay off, and send weekly readings to Carys. They need to know who will let them in."
    )

    # 10 — the keyholder, said once in passing; the emergency-payment rules
    b.user(
        f"Rosalind's at her sister's in Harrogate till the weekend. Her neighbour at number 14, {KEYHOLDER}, has a set of keys and will let the contractors in; he's retired and in most days. Separately: can we make her an emergency payment for essentials, and what's my limit without authority?"
    )
    b.calls(
        (
            "search_claims_manual",
            {
                "query": "emergency payment essentials displaced policyholder handler authority limit"
            },
            """\
3 sections match "emergency payment essentials displaced policyholder handler authority limit"

CM-4.12  Emergency payments to displaced customers   (updated 2026-01-19, owner: Claims Standards)
  Where a customer cannot live at home after an insured event, pay an emergency sum for
  essentials (clothing, toiletries, food, travel) on the day it is asked for, without proof
  of loss. Up to £500 at handler authority; up to £1,500 with team-leader approval. The
  payment counts against the contents reserve and is deducted from the final contents
  settlement. Pay by Faster Payment to the account on file; never to a third party.

CM-2.03  Delegated authority: property claims   (updated 2025-11-30, owner: Claims Standards)
  Complex property handler: reserves to £75,000 per claim; payments to £10,000 per payment
  and £25,000 per claim. Above these, team leader. Claims referred to the large-loss desk:
  every payment over £5,000 is countersigned by the desk.

CM-4.20  Vulnerable customers: practical support   (updated 2026-02-02, owner: Customer Care)
  Record the need, agree contact preferences, and consider accommodation access (ground
  floor, lifts), keyholding arrangements and whether a family member should be copied in.
""",
        )
    )
    b.say(
        "Noted about the keys with the neighbour at number 14; I'll tell contractors to arrange access through him. On the payment: the manual lets us pay up to £500 for essentials on the day, without proof, at your own authority (up to £1,500 with Ffion's approval). It comes out of the contents reserve and is deducted from the final contents settlement, paid by Faster Payment to the account on file. Your wider authority on this claim is reserves to £75,000 and payments to £10,000 each, but because it's with the large-loss desk, any single payment over £5,000 needs the desk's countersignature."
    )

    # 11 — the reserves
    b.user("What reserves are on the home claim right now?")
    b.calls(
        (
            "get_reserves",
            {"claim_id": HOME_CLAIM},
            f"""\
RESERVES  {HOME_CLAIM}  {HOLDER}   currency GBP   as at 2026-03-11 09:22
head                        reserve_code   outstanding      paid   incurred   last_movement
buildings                   {GENERIC_RESERVE}       15,000.00      0.00  15,000.00   2026-03-08 07:20 svc:reserving (peril default)
contents                    -                   0.00      0.00       0.00   -
alternative_accommodation   -                   0.00      0.00       0.00   -
fees                        -                   0.00      0.00       0.00   -
TOTAL                                      15,000.00      0.00  15,000.00

MOVEMENTS
2026-03-08 07:20:41  buildings  +15,000.00  {GENERIC_RESERVE}  svc:reserving  initial reserve, peril default (escape of water, home)

VALID RESERVE CODES FOR PERIL escape_of_water (product Home Plus)
code         description                                          status
{RESERVE_CODE}   Escape of water: buildings, contents, accommodation   active (from 2025-01-01)
{RETIRED_RESERVE}   Escape of water (pre-2025 products)                   retired 2024-12-31, postings refused
{GENERIC_RESERVE}   Buildings: general / unallocated                      active (system default)
RC-FEE-040   Loss adjuster and expert fees                        active
RC-REC-900   Recovery receivable (contra)                         active, Recoveries only
""",
        )
    )
    b.say(
        f"Only the system's initial reserve: £15,000 on buildings under the general code {GENERIC_RESERVE}, set automatically at 07:20 on the 8th. Nothing on contents, accommodation or fees, and nothing paid. The valid codes for this peril include the current escape-of-water code (from January 2025) and a retired pre-2025 code that refuses postings, plus separate codes for fees and recoveries."
    )

    # 12 — setting the adjuster's figures
    b.user(
        "Move the system reserve off the general code and set the adjuster's figures: buildings 38,000, contents 9,500 and alternative accommodation 6,000 for now."
    )
    b.calls(
        (
            "set_reserve",
            {
                "claim_id": HOME_CLAIM,
                "head": "buildings",
                "amount_gbp": 0,
                "reserve_code": GENERIC_RESERVE,
                "reason": "Released: reserve moved to the escape-of-water code.",
            },
            pretty(
                {
                    "movement": f"RM-{b.number(100000, 199999)}",
                    "head": "buildings",
                    "reserve_code": GENERIC_RESERVE,
                    "from_gbp": 15000.0,
                    "to_gbp": 0.0,
                    "status": "posted",
                }
            ),
        ),
        (
            "set_reserve",
            {
                "claim_id": HOME_CLAIM,
                "head": "buildings",
                "amount_gbp": 38000,
                "reserve_code": RESERVE_CODE,
                "reason": "Adjuster's first-visit recommendation (Pennine, 10 March).",
            },
            pretty(
                {
                    "movement": f"RM-{b.number(100000, 199999)}",
                    "head": "buildings",
                    "reserve_code": RESERVE_CODE,
                    "from_gbp": 0.0,
                    "to_gbp": 38000.0,
                    "status": "posted",
                }
            ),
        ),
        (
            "set_reserve",
            {
                "claim_id": HOME_CLAIM,
                "head": "contents",
                "amount_gbp": 9500,
                "reserve_code": RESERVE_CODE,
                "reason": "Adjuster's provisional contents figure, pending proof and restoration.",
            },
            pretty(
                {
                    "movement": f"RM-{b.number(100000, 199999)}",
                    "head": "contents",
                    "reserve_code": RESERVE_CODE,
                    "from_gbp": 0.0,
                    "to_gbp": 9500.0,
                    "status": "posted",
                }
            ),
        ),
        (
            "set_reserve",
            {
                "claim_id": HOME_CLAIM,
                "head": "alternative_accommodation",
                "amount_gbp": 6000,
                "reserve_code": RESERVE_CODE,
                "reason": "4-6 weeks, per adjuster.",
            },
            pretty(
                {
                    "movement": f"RM-{b.number(100000, 199999)}",
                    "head": "alternative_accommodation",
                    "reserve_code": RESERVE_CODE,
                    "from_gbp": 0.0,
                    "to_gbp": 6000.0,
                    "status": "posted",
                    "claim_total_outstanding_gbp": 53500.0,
                    "authority": "within handler authority (75,000)",
                }
            ),
        ),
    )
    b.say(
        "Done. The £15,000 is released from the general buildings code, and the escape-of-water code now holds buildings £38,000, contents £9,500 and accommodation £6,000: £53,500 outstanding, within your £75,000 reserve authority. I've left fees for when Pennine's first invoice arrives."
    )

    # 13 — the correspondence: the recovery file lives in Recoveries' internal note
    b.user("Anything in the correspondence I should know about?")
    b.calls(
        (
            "get_correspondence",
            {"claim_id": HOME_CLAIM},
            f"""\
CORRESPONDENCE  {HOME_CLAIM}  ({HOLDER})   7 items, oldest first

---------------------------------------------------------------------------
[1] EMAIL IN   Mon 9 Mar 2026 11:36
From: Rosalind Achterberg <r.achterberg@example.org>
To: claims@ashbythorne.example
Subject: Re: your claim - bathroom fitter details

Hello,
As asked on the phone, attached are the invoice and completion photos from the people who
did our bathroom, {PLUMBER}, finished on 16 February. They also moved the hot and cold
feeds to the new basin position. I have left two messages for Craig Baxendale there and
heard nothing back.
The car is still in the garage under the rubble. Martin says the roof is dented.
Rosalind

---------------------------------------------------------------------------
[2] EMAIL OUT   Tue 10 Mar 2026 15:20
From: Owen Beckett, Recoveries <recoveries@ashbythorne.example>
To: info@dalesway-plumbing.example
Subject: Escape of water at {ADDRESS}: notice of claim

Dear Sirs,
We insure Mr and Mrs Achterberg, for whom you refitted the bathroom in February 2026. On
8 March a push-fit fitting installed by you on the hot feed failed, causing substantial
damage to the property and to a vehicle. Our adjuster has retained the fitting. We hold
you responsible for our outlay and ask you to pass this letter to your public liability
insurers and to preserve any records of the job. Please do not contact our insured about
this matter.
Owen Beckett, Recoveries Officer

---------------------------------------------------------------------------
[3] EMAIL IN   Tue 10 Mar 2026 16:02
From: Craig Baxendale <craig@dalesway-plumbing.example>
Subject: Your letter ref {HOME_CLAIM}

We have fitted hundreds of those elbows without a problem. The system was tested when we
finished and Mrs A was happy. If the boiler is over-pressurising that is not down to us. I
have passed your letter to our insurers, Ecclesfield Mutual, policy PL/ECC/55-2093, but we
do not accept liability.
Craig Baxendale, Director

---------------------------------------------------------------------------
[4] INTERNAL NOTE   Tue 10 Mar 2026 16:30   Recoveries (Owen Beckett)
Ecclesfield Mutual confirmed by phone they insure Dalesway for public liability (limit
£2m, excess £500, policy PL/ECC/55-2093). Adjuster's photos of the fitting (no insert, no
depth mark) are strong. We will pursue Ecclesfield for our full outlay on both claims -
buildings, contents, accommodation, fees and the car - under recovery file {RECOVERY}.
Post every payment to that file so the schedule of loss builds itself. Do NOT post to
{OLD_RECOVERY}: that is the customer's 2024 motor recovery against the van driver, closed.
Uninsured losses: Mrs A's £1,000 excess and the motor excess go in the same demand.

---------------------------------------------------------------------------
[5] EMAIL IN   Tue 10 Mar 2026 18:12
From: Rosalind Achterberg <r.achterberg@example.org>
Subject: Accommodation and my car

Dear claims team,
We can stay at my sister's in Harrogate until Sunday but not longer: her flat is small and
our dog is not welcome. We need somewhere in Leeds near Martin's work, ideally ground floor
because of my knee. Can you also tell me if the car is covered by the house insurance or
whether I need to claim on the car policy? I don't want to lose my no-claims.
Our daughter Imogen is helping us look and may call you.
Kind regards, Rosalind

---------------------------------------------------------------------------
[6] EMAIL OUT (auto)   Wed 11 Mar 2026 08:12
To: Rosalind Achterberg
Subject: Your claim {HOME_CLAIM}: your handler

Your claim is now with a dedicated handler in our complex property team, who will contact
you by 5pm today.

---------------------------------------------------------------------------
[7] INTERNAL NOTE   Wed 11 Mar 2026 08:40   Claims Standards (auto)
Customer update due by 17:00 today (vulnerable customer: email preferred, copy daughter
only with consent).
""",
        )
    )
    b.say(
        f"A few things. Rosalind sent the fitter's invoice and completion photos: {PLUMBER} finished on 16 February and also moved the hot and cold feeds. Owen Beckett wrote to Dalesway yesterday holding them responsible; Craig Baxendale, their director, denies liability (he blames the boiler pressure) but has passed it to their public liability insurer, Ecclesfield Mutual. Owen's internal note says Recoveries will pursue Ecclesfield for our whole outlay on both claims, including fees and the car, on a recovery file of their own, with her excesses in the same demand, and payments should be posted to that file. Rosalind can stay at her sister's only until Sunday (no dog), needs somewhere in Leeds, ideally ground floor, and is asking whether the car is covered under the house policy and whether she'll lose her no-claims. Imogen is helping and may call, but Claims Standards says to copy her only with Rosalind's consent. Her update is due by 17:00 today."
    )

    # 14 — a file note
    b.user(
        "Add a file note to the home claim: cause, reserves, drying, and that Recoveries are on it."
    )
    b.calls(
        (
            "add_file_note",
            {
                "claim_id": HOME_CLAIM,
                "text": f"{REFERRAL} - Cause: push-fit elbow on hot feed under bathroom floor, not fully inserted and no pipe insert (adjuster, 10 March); sudden escape, covered under buildings; workmanship itself excluded. Reserves moved off {GENERIC_RESERVE} and set per adjuster: buildings 38,000, contents 9,500, alt accom 6,000 (53,500). Drying: Northern Restoration {drying_job}, first attendance today 13:30. Recoveries (O. Beckett) pursuing the fitter's PL insurer, Ecclesfield Mutual; liability denied so far. CUE match on an undeclared 2021 EoW claim noted for underwriting.",
            },
            f"note {notes[0]} added to {HOME_CLAIM} (internal) at 2026-03-11 10:06 by you",
        )
    )
    b.say(
        f"Note {notes[0]} is on the home claim with the referral number first: the cause, the reserve move and the new figures, the drying job, Recoveries' pursuit of Ecclesfield, and the CUE match flagged for underwriting."
    )

    # 15 — the first accommodation booking (revised at turn 29)
    b.user(
        f"Accommodation. Imogen's found a two-bed at {OLD_STAY}, the aparthotel on Otley Road, from Saturday 14 March for four weeks, and it takes dogs. Book {OLD_STAY} for the two of them and the dog; it's well within the limit."
    )
    b.calls(
        (
            "book_alternative_accommodation",
            {
                "claim_id": HOME_CLAIM,
                "action": "book",
                "provider": OLD_STAY,
                "address": "Otley Road, Leeds LS16",
                "check_in": "2026-03-14",
                "nights": 28,
                "occupants": 2,
                "notes": "Couple and one dog; policyholder has limited mobility; parking for one car.",
            },
            pretty(
                {
                    "booking": {
                        "id": ale_first,
                        "provider": OLD_STAY,
                        "unit": "Apartment 2.04, two bedrooms",
                        "check_in": "2026-03-14",
                        "check_out": "2026-04-11",
                        "nights": 28,
                        "rate_gbp": 130.0,
                        "total_gbp": 3640.0,
                        "pets": "one dog, £15 per night included",
                        "parking": "one space",
                        "billing": "direct to claim",
                        "status": "confirmed",
                        "policy": "maximum continuous stay 28 nights",
                    }
                }
            ),
        )
    )
    b.say(
        f"Booked: {ale_first}, a two-bedroom apartment from Saturday 14 March to 11 April (28 nights) at £130 a night including the dog, £3,640 in all, billed to the claim, with one parking space. That sits inside the £6,000 accommodation reserve. The aparthotel won't do more than 28 nights in one stay."
    )

    # 16 — the contents inventory (CSV): the declined line lives only in its row
    b.user("Carys uploaded the contents inventory from the visit. Pull it.")
    b.calls(("get_contents_inventory", {"claim_id": HOME_CLAIM}, contents))
    b.say(
        f"{inv['lines']} lines across the kitchen, utility, garage, dining room, hallway and bathroom, claimed at {gbp(inv['claimed'])}; Carys has agreed {gbp(inv['agreed'])} so far. Clothing and household linen carry wear-and-tear deductions, as the wording says, and everything else is new for old; a handful of items are down for specialist cleaning or repair, including the mahogany dining chairs and a side table; {inv['proof']} lines need proof of ownership; the boxes of photographs and papers have no insured value. The winter tyres and roof box are excluded as motor accessories and passed to the motor claim. One dining-room item is declined outright as pre-existing damage, not caused by this escape. The painting is specified on the schedule, so its figure isn't capped by the single-article limit."
    )

    # 17 — the emergency payment
    b.user("Pay her the £500 for essentials now.")
    b.calls(
        (
            "make_payment",
            {
                "claim_id": HOME_CLAIM,
                "payee": HOLDER,
                "amount_gbp": 500,
                "payment_type": "emergency_essentials",
                "head": "contents",
                "reserve_code": RESERVE_CODE,
                "reference": f"{HOME_CLAIM} emergency essentials",
            },
            pretty(
                {
                    "payment": {
                        "id": payment_id,
                        "claim_id": HOME_CLAIM,
                        "payee": HOLDER,
                        "account": "Faster Payment to ••••6612 (on file since 2019)",
                        "amount_gbp": 500.0,
                        "type": "emergency_essentials",
                        "head": "contents",
                        "reserve_code": RESERVE_CODE,
                        "status": "sent",
                        "expected": "within 2 hours",
                        "reserve_after": {"contents_outstanding_gbp": 9000.0},
                        "authority": "handler (CM-4.12)",
                    }
                }
            ),
        )
    )
    b.say(
        f"Sent: {payment_id}, £500 by Faster Payment to her account ending 6612, due within two hours. It came out of the contents reserve under the escape-of-water code, leaving £9,000 outstanding on contents, and it will be deducted from the final contents settlement."
    )

    # 18 — the motor policy
    b.user("Now the car. Pull her motor policy.")
    b.calls(
        (
            "get_policy",
            {"policy_number": MOTOR_POLICY},
            pretty(
                {
                    "policy": {
                        "number": MOTOR_POLICY,
                        "product": "Motor Comprehensive",
                        "status": "in force",
                        "period": {"start": "2025-08-04", "end": "2026-08-03"},
                        "policyholder": {"name": HOLDER, "dob": "1961-05-19"},
                        "vehicle": {
                            "registration": REG,
                            "make": "Toyota",
                            "model": "Yaris Hybrid Design 1.5 5dr",
                            "year": 2023,
                            "value_declared_gbp": 17500,
                            "garaged": "integral garage at risk address",
                            "use": "social, domestic, pleasure and commuting",
                            "annual_mileage": 6000,
                        },
                        "drivers": [
                            {"name": HOLDER, "licence": "full UK, 1980", "main": True},
                            {"name": JOINT, "licence": "full UK, 1976", "main": False},
                        ],
                        "cover": {
                            "level": "comprehensive",
                            "courtesy_car": "small car while repaired at an approved repairer",
                            "windscreen": "included, £75 excess",
                        },
                        "excesses": {"compulsory_gbp": 250, "voluntary_gbp": 100},
                        "ncd": {
                            "years": 9,
                            "protected": True,
                            "protection": "two claims in three years",
                        },
                        "premium": {"annual_gbp": 412.88, "payment": "annual"},
                        "claims_on_policy": [
                            {
                                "id": OLD_MOTOR_CLAIM,
                                "date": "2024-02-11",
                                "fault": "non-fault",
                                "ncd_effect": "none",
                            },
                            {
                                "id": MOTOR_CLAIM,
                                "date": "2026-03-08",
                                "fault": "undetermined",
                                "ncd_effect": "pending",
                            },
                        ],
                    }
                }
            ),
        )
    )
    b.say(
        f"Motor Comprehensive, in force to 3 August 2026, on a 2023 Toyota Yaris Hybrid Design ({REG}), declared at £17,500 and garaged in the integral garage. Rosalind is the main driver with Martin named. Excess is £350 (£250 compulsory plus £100 voluntary). She has nine years' no-claims, protected for two claims in three years, and a courtesy car while it's at an approved repairer. The 2024 claim was non-fault with no effect on her no-claims; this one is 'undetermined, pending'."
    )

    # 19 — the motor claim
    b.user("And the motor claim itself.")
    b.calls(
        (
            "get_claim",
            {"claim_id": MOTOR_CLAIM},
            pretty(
                {
                    "claim": {
                        "id": MOTOR_CLAIM,
                        "policy": MOTOR_POLICY,
                        "status": "awaiting engineer",
                        "incident": {
                            "date": "2026-03-08T06:40",
                            "type": "accidental damage: falling object",
                            "location": "integral garage, " + ADDRESS,
                            "description": "Garage plasterboard ceiling and water fell onto parked vehicle after a pipe burst in the house.",
                            "third_party": None,
                        },
                        "vehicle": {
                            "registration": REG,
                            "identification": {
                                "vin": None,
                                "note": "VIN not captured at first notification; engineers require it on instruction",
                            },
                            "driveable": "unknown: still under debris",
                            "location_now": "garage at risk address",
                        },
                        "damage_reported": [
                            "roof dented",
                            "windscreen cracked",
                            "bonnet scratched",
                            "water on interior, sunroof seal",
                        ],
                        "linked_claims": [{"id": HOME_CLAIM, "relation": "same incident"}],
                        "fault": {"status": "undetermined", "ncd_effect": "pending recovery"},
                        "reserves": {"own_damage_gbp": 0.0},
                        "tasks_open": [
                            "instruct engineer",
                            "set reserve",
                            "reply to customer on NCD",
                        ],
                    }
                }
            ),
        )
    )
    b.say(
        "It's waiting for an engineer. Falling object: the garage ceiling and water came down on the car when the pipe burst, no third party. Reported damage: a dented roof, a cracked windscreen, a scratched bonnet and water inside through the sunroof seal; it's still under the debris and nobody knows if it's driveable. Fault is undetermined and the no-claims effect pending the recovery. Open tasks: instruct the engineer, set a reserve, and answer her about no-claims. The VIN wasn't captured at first notification and the engineers need it on the instruction."
    )

    # 20 — the VIN: found by a query and summarised once
    b.user("Find the VIN so we can get the engineer instructed, then instruct them.")
    b.calls(
        (
            "vehicle_lookup",
            {"registration": REG, "policy_number": MOTOR_POLICY},
            pretty(
                {
                    "registration": REG,
                    "dvla": {
                        "make": "TOYOTA",
                        "model": "YARIS DESIGN HEV CVT",
                        "colour": "RED",
                        "first_registered": "2023-03-17",
                        "vin": VIN,
                        "v5c_issued": "2023-03-24",
                        "keeper_since": "2024-05-30",
                        "mot": "not due until 2026-03-17",
                        "tax": "taxed until 2026-06-01",
                        "stolen_marker": False,
                    },
                    "mid": {
                        "insurer": "Ashby Thorne Insurance",
                        "policy": MOTOR_POLICY,
                        "vin": VIN,
                        "on_cover_from": "2024-05-30",
                        "status": "insured",
                    },
                    "policy_vehicle_history": [
                        {
                            "registration": REG,
                            "vin": VIN,
                            "from": "2024-05-30",
                            "to": None,
                            "status": "current",
                        },
                        {
                            "registration": OLD_REG,
                            "vin": OLD_VIN,
                            "model": "Toyota Yaris Icon 1.5 hybrid",
                            "from": "2019-08-04",
                            "to": "2024-05-30",
                            "status": "replaced (part exchange)",
                        },
                        {
                            "registration": "YH73 VZT",
                            "vin": TEMP_VIN,
                            "model": "Toyota Yaris Cross Excel",
                            "from": "2025-12-20",
                            "to": "2025-12-28",
                            "status": "temporary additional vehicle (daughter's car, Christmas)",
                        },
                    ],
                }
            ),
        )
    )
    b.calls(
        (
            "instruct_supplier",
            {
                "claim_id": MOTOR_CLAIM,
                "supplier_type": "motor_engineer",
                "instructions": f"Assess {REG}, Toyota Yaris Hybrid 2023: garage ceiling and water fell onto the parked car on 8 March. Roof dent, cracked windscreen, bonnet scratches, water ingress via sunroof seal; check the HV system and interior electrics for water. Desktop if photos suffice, physical inspection otherwise. Vehicle is in the integral garage under ceiling debris; Aire Valley Bodyshop (approved repairer) collecting it this morning.",
                "vehicle_vin": VIN,
                "access_notes": "Keys held by a neighbour at number 14; call the handler to arrange.",
            },
            pretty(
                {
                    "job": {
                        "id": engineer_job,
                        "supplier": "Crestline Vehicle Assessors",
                        "panel": True,
                        "trade": "motor_engineer",
                        "method": "desktop first; site visit if needed",
                        "status": "accepted",
                        "target": "assessment within 1 working day of photos",
                        "notes": "request images from repairer once the vehicle is recovered from the garage",
                    }
                }
            ),
        )
    )
    b.say(
        f"The Yaris's VIN is {VIN}: it matches on the DVLA record, the Motor Insurance Database and her policy's vehicle history (the other two Toyotas on the history, her old Yaris replaced in 2024 and Imogen's car added for a week at Christmas, are different vehicles). Crestline Vehicle Assessors (panel) have accepted the instruction as {engineer_job}: a desktop assessment first, within a working day of photos, with a site visit if needed. I asked them to check the hybrid system and electrics for water."
    )

    # 21 — the repair estimate
    b.user("Has the bodyshop estimate come through yet?")
    b.calls(
        (
            "get_repair_estimate",
            {"claim_id": MOTOR_CLAIM},
            pretty(
                {
                    "estimate": {
                        "repairer": "Aire Valley Bodyshop (approved)",
                        "estimate_id": f"AVB-{b.number(30000, 39999)}",
                        "prepared": "2026-03-11T11:48",
                        "vehicle": {
                            "registration": REG,
                            "mileage": 14212,
                            "paint": "Tokyo Red (3T3)",
                        },
                        "lines": [
                            {
                                "op": "replace",
                                "part": "roof panel",
                                "parts_gbp": 612.30,
                                "labour_h": 9.5,
                            },
                            {
                                "op": "replace",
                                "part": "windscreen (with camera recalibration)",
                                "parts_gbp": 486.00,
                                "labour_h": 2.0,
                            },
                            {"op": "refinish", "part": "bonnet", "parts_gbp": 0.0, "labour_h": 2.5},
                            {
                                "op": "replace",
                                "part": "sunroof seal and drain tubes",
                                "parts_gbp": 88.40,
                                "labour_h": 1.5,
                            },
                            {
                                "op": "dry and treat",
                                "part": "interior carpets and headlining",
                                "parts_gbp": 0.0,
                                "labour_h": 3.0,
                            },
                            {
                                "op": "test",
                                "part": "HV battery isolation and insulation",
                                "parts_gbp": 0.0,
                                "labour_h": 1.0,
                            },
                        ],
                        "labour_rate_gbp": 52.0,
                        "paint_materials_gbp": 285.0,
                        "subtotal_gbp": round(estimate_total / 1.2, 2),
                        "vat_gbp": round(estimate_total - estimate_total / 1.2, 2),
                        "total_gbp": estimate_total,
                        "repair_days": 6,
                        "courtesy_car": "Toyota Aygo X, from collection",
                        "engineer": {"status": "pending", "job": engineer_job},
                        "notes": "Vehicle recovered from the garage at 11:05 today by our low-loader; debris lifted off by hand with the customer's husband present. Not driven.",
                    }
                }
            ),
        )
    )
    b.say(
        f"Yes, from Aire Valley Bodyshop (approved repairer): {gbp(estimate_total)} including VAT, six days in the shop. A new roof panel, a windscreen with the camera recalibrated, a bonnet refinish, a new sunroof seal and drain tubes, drying of the carpets and headlining, and a test of the hybrid battery's insulation. They collected the car from the garage by low-loader at 11:05, with Martin there to help lift the debris off, and she gets a Toyota Aygo X as a courtesy car. It's waiting on the engineer's approval."
    )

    # 22 — no-claims discount
    b.user(
        "She's worried this hits her no-claims, given it's the plumber's fault. What does the manual say?"
    )
    b.calls(
        (
            "search_claims_manual",
            {
                "query": "no claims discount motor own damage recovery from third party contractor non-fault"
            },
            """\
2 sections match "no claims discount motor own damage recovery from third party contractor non-fault"

CM-7.04  Motor NCD: fault, non-fault and recovered claims   (updated 2025-09-12, owner: Motor Claims)
  A claim is recorded as fault (NCD affected) until our outlay is recovered in full from a
  responsible third party. If the third party is not another motorist (for example a
  contractor or a property owner), recovery runs through Recoveries as for any other
  third party; once recovered in full, re-code the claim as non-fault, restore the NCD
  and refund any excess recovered. With NCD protection the discount is not reduced by one
  or two fault claims in three years, but the claim still appears on CUE and may affect
  the premium at renewal.

CM-7.11  Motor claims linked to a home claim   (updated 2025-06-01, owner: Motor Claims)
  Damage to a vehicle from an insured home peril (escape of water, storm, fire) is paid
  under the motor policy, never under home contents. Link the claims, post both to the
  same recovery file, and tell the customer that the motor excess will be included in the
  recovery demand.
""",
        )
    )
    b.say(
        "Her no-claims is safe either way: with protection, one or two fault claims in three years don't reduce the discount. Until Recoveries get our outlay back in full the motor claim is recorded as fault and it will sit on CUE, which could touch her premium at renewal; once recovered from Dalesway's insurer it's re-coded non-fault, the discount fully restored and her £350 excess refunded. The car belongs on the motor policy, never home contents, the two claims stay linked, and both post to the same recovery file, with the motor excess in the demand."
    )

    # 23 — the motor reserve
    b.user(
        "Set the motor reserve at the estimate plus ten per cent for the engineer and any supplementary."
    )
    b.calls(
        (
            "set_reserve",
            {
                "claim_id": MOTOR_CLAIM,
                "head": "own_damage",
                "amount_gbp": 3250,
                "reserve_code": MOTOR_RESERVE,
                "reason": "Aire Valley estimate 2,946.40 plus 10% for engineer fee and supplementary.",
            },
            pretty(
                {
                    "movement": f"RM-{b.number(100000, 199999)}",
                    "claim_id": MOTOR_CLAIM,
                    "head": "own_damage",
                    "reserve_code": MOTOR_RESERVE,
                    "from_gbp": 0.0,
                    "to_gbp": 3250.0,
                    "status": "posted",
                    "valid_codes": [
                        {
                            "code": MOTOR_RESERVE,
                            "description": "Motor own damage: accidental / falling object",
                        },
                        {"code": "RC-MTP-120", "description": "Motor third-party property"},
                    ],
                }
            ),
        )
    )
    b.say(
        f"Set: £3,250 own-damage reserve on the motor claim (the {gbp(estimate_total)} estimate plus about 10%, rounded), under the motor accidental-damage code {MOTOR_RESERVE}. The home claim's escape-of-water code doesn't apply to the motor claim."
    )

    # 24 — the drying survey (CSV)
    b.user("The drying contractor's sent their initial moisture survey. How wet is it?")
    b.calls(("get_drying_readings", {"claim_id": HOME_CLAIM, "job_id": drying_job}, readings))
    b.say(
        f"{dry['points']} measuring points, {dry['wet']} wet and {dry['dry']} already at the dry standard. The kitchen ceiling, its joists and the garage ceiling are wet almost everywhere, as is the bathroom subfloor; the utility floor's relative humidity is mostly well above 75%. The dining room and hall are patchy: some points are already dry. That fits the contractor's 18-25 days, and the lath ceiling will be the slowest to dry."
    )

    # 25 — reinstatement: the assistant proposes the panel contractor
    b.user(
        "Carys says the kitchen ceiling and the garage ceiling both need replacing once it's dry, and she's got quotes in. What do you suggest for the reinstatement?"
    )
    b.calls(
        (
            "get_supplier_quotes",
            {"claim_id": HOME_CLAIM, "trade": "plastering"},
            pretty(
                {
                    "claim_id": HOME_CLAIM,
                    "trade": "plastering",
                    "quotes": [
                        {
                            "supplier": KEYSTONE,
                            "panel": True,
                            "price_gbp": 14850.0,
                            "scope": "kitchen and garage ceilings, cornice, utility party wall, make good and decorate",
                            "method": "remove laths; 12.5mm plasterboard on new battens, gypsum skim; run replacement cornice in fibrous plaster",
                            "lead_time": "start 2026-04-06 (after drying certificate)",
                            "duration_weeks": 3,
                            "guarantee": "12 months, panel-backed",
                        },
                        {
                            "supplier": CALVERLEY,
                            "panel": False,
                            "price_gbp": 18900.0,
                            "scope": "kitchen ceiling and cornice only",
                            "method": "retain sound laths, new riven oak laths where needed, three-coat haired lime plaster, run cornice in situ",
                            "lead_time": "start 2026-04-20",
                            "duration_weeks": 6,
                            "guarantee": "5 years",
                        },
                        {
                            "supplier": "Moorside Builders (insured's choice)",
                            "panel": False,
                            "price_gbp": 19400.0,
                            "scope": "kitchen and garage ceilings",
                            "method": "plasterboard and skim",
                            "lead_time": "start 2026-05-04",
                            "duration_weeks": 4,
                            "guarantee": "12 months",
                        },
                    ],
                    "adjuster_comment": "Panel quote is the lowest and earliest. The specialist quote is for the kitchen only and would need a separate garage price (panel garage element about £3,900).",
                }
            ),
        )
    )
    b.say(
        f"I'd suggest {KEYSTONE} for both ceilings. They're on our panel, the cheapest at £14,850 for the kitchen and garage ceilings, the cornice and the utility wall, and the earliest to start, 6 April once the drying certificate is in, finishing in three weeks, with a panel-backed 12-month guarantee. That gets the Achterbergs home soonest and keeps accommodation costs down. Calverley's lime method is £18,900 for the kitchen alone and takes six weeks from 20 April, and Moorside is dearer than Keystone for the same plasterboard job."
    )

    # 26 — the rejection, with its reason
    b.user(
        "No, not Keystone. The house is Grade II listed, which isn't on our record, and that kitchen ceiling is original lath and lime. Keystone would board it and skim it in gypsum, and the conservation officer won't sign that off; it has to be repaired like for like in lime plaster. Go with Calverley for the kitchen. Keystone can do the garage ceiling, that's modern plasterboard anyway."
    )
    b.say(
        "Understood: not Keystone for the kitchen. Because the house is Grade II listed and the ceiling is lath and lime, a plasterboard-and-gypsum repair wouldn't get the conservation officer's consent, so Calverley repairs it like for like in lime, and Keystone does only the modern plasterboard garage ceiling. I'll flag to underwriting that the listing isn't on our risk record."
    )

    # 27 — instructing both and the buildings reserve
    b.user("Instruct them both, and bump the buildings reserve to cover it.")
    b.calls(
        (
            "instruct_supplier",
            {
                "claim_id": HOME_CLAIM,
                "supplier_type": "plastering",
                "supplier": CALVERLEY,
                "instructions": "Kitchen ceiling and cornice per your quote: retain sound laths, new riven oak laths where needed, three-coat haired lime plaster, cornice run in situ. Grade II listed building: liaise with Leeds City Council conservation officer for consent. Start after the drying certificate.",
                "access_notes": "Keys held by a neighbour at number 14; arrange through the handler.",
            },
            pretty(
                {
                    "job": {
                        "id": plaster_job,
                        "supplier": CALVERLEY,
                        "panel": False,
                        "terms": "non-panel: agreed price, staged invoices approved by adjuster",
                        "price_gbp": 18900.0,
                        "start": "2026-04-20",
                        "duration_weeks": 6,
                        "status": "accepted",
                        "conditions": "listed building consent may add 2-4 weeks if the officer requires a site meeting",
                    }
                }
            ),
        ),
        (
            "instruct_supplier",
            {
                "claim_id": HOME_CLAIM,
                "supplier_type": "reinstatement",
                "supplier": KEYSTONE,
                "instructions": "Garage ceiling only: 12.5mm plasterboard, skim and decorate, per the garage element of your quote. Kitchen ceiling is NOT in scope (specialist lime repair by others).",
                "access_notes": "Keys held by a neighbour at number 14; arrange through the handler.",
            },
            pretty(
                {
                    "job": {
                        "id": garage_job,
                        "supplier": KEYSTONE,
                        "panel": True,
                        "price_gbp": 3900.0,
                        "start": "2026-04-06",
                        "duration_days": 4,
                        "status": "accepted",
                    }
                }
            ),
        ),
        (
            "set_reserve",
            {
                "claim_id": HOME_CLAIM,
                "head": "buildings",
                "amount_gbp": 46500,
                "reserve_code": RESERVE_CODE,
                "reason": "Specialist lime repair to kitchen ceiling (listed building), Calverley 18,900; garage by panel 3,900.",
            },
            pretty(
                {
                    "movement": f"RM-{b.number(100000, 199999)}",
                    "head": "buildings",
                    "reserve_code": RESERVE_CODE,
                    "from_gbp": 38000.0,
                    "to_gbp": 46500.0,
                    "status": "posted",
                    "claim_total_outstanding_gbp": 61500.0,
                }
            ),
        ),
    )
    b.say(
        f"Both instructed. Calverley ({plaster_job}) does the kitchen ceiling and cornice in lime for £18,900, starting 20 April for six weeks, on staged invoices the adjuster approves; they'll deal with the conservation officer, which could add two to four weeks. Keystone ({garage_job}) does only the garage ceiling for £3,900 from 6 April, four days. The buildings reserve is now £46,500 under the escape-of-water code, so the claim carries £61,500 outstanding."
    )

    # 28 — the large-loss referrals
    b.user("The large-loss desk will want to see our referral. Where does it sit in their queue?")
    b.calls(
        (
            "get_referrals",
            {"desk": "large_loss", "status": "open"},
            f"""\
LARGE-LOSS DESK  open referrals  (as at 2026-03-11 14:18)
referral    claim        policyholder           reason                                            est_loss_gbp  status            owner           raised
{OTHER_REFERRAL}   HCL-769904   Farhana Qureshi        kitchen fire, whole-house smoke damage            142,000       desk review       A. Kowalczyk    2026-02-27
LLR-30447   HCL-770512   Derwent Court Mgmt     flat roof failure, 6 flats                         96,500        adjuster appointed  A. Kowalczyk  2026-03-03
LLR-30519   HCL-771006   Tobias Lindqvist       escape of water, basement flat, tanking           58,000        desk review       S. Mensah       2026-03-05
{WRONG_REFERRAL}   HCL-771188   Sunita Varma           storm, gable wall collapse                         77,200        awaiting review   S. Mensah       2026-03-07
{REFERRAL}   {HOME_CLAIM}   {HOLDER}    escape of water + linked motor ({MOTOR_CLAIM})    52,000        awaiting review   unassigned      2026-03-09
LLR-30601   HCL-771420   Hollins Farm Ltd       fire, agricultural outbuilding                    210,000       awaiting review   unassigned      2026-03-10
SLA: desk review within 5 working days of referral; countersign payments over £5,000.
""",
        )
    )
    b.say(
        "Ours is awaiting review and unassigned, raised on Monday 9 March with an estimated loss of £52,000 across both claims; the desk's SLA is a review within five working days, so by Monday 16 March. Ahead of it are a storm claim raised on the 7th, also awaiting review, and three already in review or with an adjuster. Their estimate predates today's reserves: we're now at £61,500 on the home claim plus £3,250 on the motor, £64,750, so the desk should be told the higher figure when they pick it up."
    )

    # 29 — the revision
    b.user(
        f"Change of plan on the accommodation. With the lime work it's now ten to twelve weeks before they can go back, {OLD_STAY} won't go past 28 nights, and their two-bed turns out to be on the second floor with no lift, which is hopeless for her knee. Cancel it and book the ground-floor cottage at 9 {NEW_STAY} instead, twelve weeks from 14 March; it takes the dog and the letting agent bills us direct."
    )
    b.calls(
        (
            "book_alternative_accommodation",
            {
                "claim_id": HOME_CLAIM,
                "action": "cancel",
                "booking_id": ale_first,
                "notes": "Second-floor unit without lift unsuitable (mobility); stay needs 10-12 weeks.",
            },
            pretty(
                {
                    "booking": {
                        "id": ale_first,
                        "provider": OLD_STAY,
                        "status": "cancelled",
                        "cancellation_fee_gbp": 0.0,
                        "note": "cancelled more than 48 hours before check-in",
                    }
                }
            ),
        ),
        (
            "book_alternative_accommodation",
            {
                "claim_id": HOME_CLAIM,
                "action": "book",
                "provider": f"9 {NEW_STAY} (Headingley Lettings)",
                "address": f"9 {NEW_STAY}, Leeds LS16 5NR",
                "check_in": "2026-03-14",
                "nights": 84,
                "occupants": 2,
                "notes": "Ground floor, step-free; one dog; parking for one car; direct billing by the letting agent.",
            },
            pretty(
                {
                    "booking": {
                        "id": ale_second,
                        "provider": "Headingley Lettings",
                        "property": f"9 {NEW_STAY}, Leeds LS16 5NR",
                        "type": "two-bedroom cottage, all rooms on the ground floor, step-free entrance",
                        "check_in": "2026-03-14",
                        "check_out": "2026-06-06",
                        "nights": 84,
                        "rate": {"weekly_gbp": 1150.0, "includes": "utilities, council tax, wifi"},
                        "total_gbp": 13800.0,
                        "pets": "one dog permitted",
                        "parking": "driveway, one car",
                        "billing": "direct to claim, four-weekly in advance",
                        "extension": "available week by week",
                        "status": "confirmed",
                    }
                }
            ),
        ),
    )
    b.say(
        f"Done: the aparthotel booking is cancelled at no charge, and {ale_second} is confirmed at the cottage, 9 {NEW_STAY}, Leeds LS16 5NR: two bedrooms all on the ground floor with a step-free entrance, the dog allowed and a driveway. It runs from Saturday 14 March to 6 June (84 nights) at £1,150 a week including utilities and council tax, £13,800 in all, billed four-weekly in advance, and can be extended week by week if the lime work runs over."
    )

    # 30 — the accommodation reserve
    b.user("Raise the accommodation reserve to cover the cottage.")
    b.calls(
        (
            "set_reserve",
            {
                "claim_id": HOME_CLAIM,
                "head": "alternative_accommodation",
                "amount_gbp": 14500,
                "reserve_code": RESERVE_CODE,
                "reason": "Cottage 12 weeks at 1,150/week (13,800) plus contingency; aparthotel cancelled at no cost.",
            },
            pretty(
                {
                    "movement": f"RM-{b.number(100000, 199999)}",
                    "head": "alternative_accommodation",
                    "reserve_code": RESERVE_CODE,
                    "from_gbp": 6000.0,
                    "to_gbp": 14500.0,
                    "status": "posted",
                    "claim_total_outstanding_gbp": 70000.0,
                    "authority": "within handler authority (75,000); large-loss desk notified of movement over 10,000",
                }
            ),
        )
    )
    b.say(
        "The accommodation reserve is now £14,500 under the escape-of-water code: the £13,800 for the cottage plus a small contingency. The home claim carries £70,000 outstanding, still inside your £75,000 authority, and the large-loss desk has been told automatically because the movement is over £10,000."
    )

    # 31 — the car repair
    b.user("Crestline have approved the estimate. Authorise the repair and tell me what she pays.")
    b.calls(
        (
            "instruct_supplier",
            {
                "claim_id": MOTOR_CLAIM,
                "supplier_type": "repairer",
                "supplier": "Aire Valley Bodyshop",
                "instructions": f"Repair authorised per your estimate, {gbp(estimate_total)} incl. VAT, as approved by the engineer ({engineer_job}). Collect the £350 policy excess from the customer on collection. Courtesy car for the duration.",
            },
            pretty(
                {
                    "job": {
                        "id": repair_job,
                        "supplier": "Aire Valley Bodyshop",
                        "authorised_gbp": estimate_total,
                        "engineer": {
                            "job": engineer_job,
                            "decision": "approved as estimated",
                            "supplementary_allowed_gbp": 150.0,
                        },
                        "excess": {
                            "amount_gbp": 350.0,
                            "collected_by": "repairer, on vehicle collection",
                        },
                        "parts_eta": "roof panel 2026-03-16",
                        "completion_target": "2026-03-24",
                        "courtesy_car": {"model": "Toyota Aygo X", "delivered": "2026-03-12"},
                        "status": "authorised",
                    }
                }
            ),
        )
    )
    b.say(
        f"Authorised as {repair_job} for {gbp(estimate_total)}, with up to £150 of supplementary if they find more. The roof panel arrives on 16 March and they aim to finish by 24 March. Rosalind pays the £350 excess to the bodyshop when she collects the car, and it goes into Recoveries' demand so she can get it back. Her Aygo X courtesy car is delivered tomorrow."
    )

    # 32 — motor file note
    b.user("Put a note on the motor claim.")
    b.calls(
        (
            "add_file_note",
            {
                "claim_id": MOTOR_CLAIM,
                "text": f"{REFERRAL} - Linked to {HOME_CLAIM} (escape of water, garage ceiling fell on vehicle). Engineer Crestline {engineer_job} approved Aire Valley estimate {gbp(estimate_total)}; repair {repair_job} authorised, target 24 March; courtesy car from 12 March. Reserve 3,250 own damage ({MOTOR_RESERVE}). Excess 350 collected by repairer, to be included in Recoveries' demand against the fitter's PL insurer; fault pending recovery, NCD protected.",
            },
            f"note {notes[1]} added to {MOTOR_CLAIM} (internal) at 2026-03-11 14:36 by you",
        )
    )
    b.say(
        f"Note {notes[1]} is on the motor claim, referral number first: the link to the home claim, the engineer's approval, the authorised repair and dates, the reserve, and the excess going into the recovery demand."
    )

    # 33 — the CUE match: what to do
    b.user("Back to the CUE hit. What do we do about the 2021 claim she didn't declare?")
    b.calls(
        (
            "search_claims_manual",
            {
                "query": "CUE match undisclosed previous claim misrepresentation CIDRA remedy handling"
            },
            """\
2 sections match "CUE match undisclosed previous claim misrepresentation CIDRA remedy handling"

CM-9.02  Undisclosed claims found at claim stage   (updated 2025-10-07, owner: Underwriting Standards)
  A CUE match to a claim not on the declared history is not a reason to delay or decline a
  claim by itself. Refer it to underwriting with the CUE details and the question asked at
  inception or renewal; underwriting decides whether there was a qualifying
  misrepresentation under CIDRA 2012 and, if so, whether it was careless or deliberate.
  Careless: proportionate remedy, i.e. what underwriting would have done with the true
  answer (e.g. a higher premium means the claim is paid proportionately; a different
  excess is applied; would not have offered cover means refund of premium and no claim).
  Deliberate or reckless: refer to counter-fraud. Keep handling the claim meanwhile.

CM-9.05  Talking to the customer about a CUE match   (updated 2025-10-07, owner: Customer Care)
  Ask open questions; do not accuse. Many matches are explained (the claim was on a previous
  home, was withdrawn, or was recorded under a partner's name). Record the answer verbatim.
""",
        )
    )
    b.say(
        "The manual says a CUE match alone is no reason to delay or decline. Refer it to underwriting with the CUE details and the question she answered at inception or renewal; they decide whether it was a qualifying misrepresentation under CIDRA and, if careless, apply a proportionate remedy based on what they'd have done with the true answer (a different premium, a different excess, or no cover at all). Deliberate or reckless would go to counter-fraud. Meanwhile we keep handling the claim, and when we ask Rosalind we ask open questions: plenty of these turn out to be a previous home or a claim in someone else's name."
    )

    # 34 — the decision on the CUE match
    b.user(
        "Refer it to underwriting, and the listing while you're at it, but keep the claim moving; I'll ask her about the 2021 claim myself when I call. Note the file."
    )
    b.calls(
        (
            "add_file_note",
            {
                "claim_id": HOME_CLAIM,
                "text": f"{REFERRAL} - Referred to underwriting: (1) CUE match at FNOL to a 2021 escape-of-water claim with Brannock General (paid 6,480) not on the declared history; (2) property is Grade II listed, not on the risk record. Claim handling continues meanwhile (CM-9.02). Handler to ask the customer about the 2021 claim with open questions on today's call and record her answer verbatim.",
            },
            f"note {notes[2]} added to {HOME_CLAIM} (internal) at 2026-03-11 15:02 by you; referral UW task created for Underwriting Standards (due 2026-03-18)",
        )
    )
    b.say(
        f"Noted as {notes[2]} and an underwriting task is open, due 18 March, covering both the undeclared 2021 claim and the listing. The claim carries on as normal, and the note says you'll ask her about 2021 yourself today and record her answer verbatim."
    )

    # 35 — customer update
    b.user(
        "Send Rosalind her update by email. Plain English, no internal references, and nothing about the CUE match, I'll raise that on the phone."
    )
    b.calls(
        (
            "send_customer_message",
            {
                "claim_id": HOME_CLAIM,
                "channel": "email",
                "to": "r.achterberg@example.org",
                "subject": "Your home and car claims: where things stand",
                "text": f"Dear Mrs Achterberg,\n\nI'm now handling both your claims. Here is where things stand.\n\nYour home: the leak is covered. Drying equipment went in this afternoon and should run for about three to four weeks. Because your house is listed, the kitchen ceiling will be repaired in traditional lime plaster by a specialist, starting around 20 April; the garage ceiling will be done from 6 April. We expect you to be home in ten to twelve weeks.\n\nWhere you'll stay: we've booked a ground-floor cottage at 9 {NEW_STAY}, Leeds LS16 5NR, from Saturday 14 March for twelve weeks, with parking and room for your dog. We pay the letting agent directly.\n\nMoney: £500 for essentials was paid to your bank account this morning. The escape-of-water excess on your home policy is £1,000.\n\nYour car: it's covered under your car policy, not the house policy. Aire Valley Bodyshop has it and aims to finish by 24 March; a courtesy car arrives tomorrow. You'll pay the £350 car excess when you collect it. Your no-claims discount is protected, and we're claiming our costs and both your excesses back from the plumbing firm's insurer.\n\nI'll call you this afternoon.\n\nKind regards,\nClaims, Ashby Thorne Insurance",
            },
            pretty(
                {
                    "message_id": f"MSG-{b.hex_id(10)}",
                    "channel": "email",
                    "to": "r.achterberg@example.org",
                    "status": "sent",
                    "filed_to": [HOME_CLAIM, MOTOR_CLAIM],
                    "sent_at": "2026-03-11T15:14:09Z",
                    "sla": {"customer_update": "met"},
                }
            ),
        )
    )
    b.say(
        "Sent at 15:14 and filed on both claims, which meets today's customer-update deadline. It covers the drying, the lime repair and dates, the cottage from Saturday, the £500 already paid and the £1,000 excess, the car repair with the courtesy car and the £350 excess, her protected no-claims and that we're recovering both excesses. No claim numbers and nothing about the CUE match."
    )

    # 36 — SLAs and tasks
    b.user("Where do the open tasks on the home claim stand against their SLAs?")
    b.calls(
        (
            "get_claim",
            {"claim_id": HOME_CLAIM, "section": "tasks"},
            pretty(
                {
                    "claim_id": HOME_CLAIM,
                    "tasks": [
                        {
                            "task": "customer update",
                            "due": "2026-03-11T17:00",
                            "state": "met 15:14",
                        },
                        {
                            "task": "large-loss review",
                            "owner": "large-loss desk",
                            "due": "2026-03-16T17:00",
                            "state": "awaiting desk",
                        },
                        {
                            "task": "underwriting referral",
                            "owner": "Underwriting Standards",
                            "due": "2026-03-18T17:00",
                            "state": "open",
                        },
                        {
                            "task": "proof of ownership chase",
                            "owner": "you",
                            "due": "2026-03-18T17:00",
                            "state": "open",
                        },
                        {
                            "task": "drying progress review",
                            "owner": "adjuster",
                            "due": "2026-03-18T17:00",
                            "state": "open",
                        },
                        {
                            "task": "adjuster fees reserve",
                            "owner": "you",
                            "due": "2026-03-13T17:00",
                            "state": "open",
                        },
                        {
                            "task": "alternative accommodation in place",
                            "owner": "accommodation desk",
                            "due": "2026-03-14T12:00",
                            "state": "booked",
                        },
                    ],
                    "breaches": 0,
                }
            ),
        )
    )
    b.say(
        "No breaches. Today's customer update is met. Open: the adjuster-fees reserve (yours, by Friday 13 March), the accommodation, booked for Saturday, the large-loss review (the desk's, by 16 March), and three due on 18 March: the underwriting referral, your chase for proof of ownership, and Carys's drying review."
    )

    # 37 — the closing note on the home claim
    b.user("Final note on the home claim with what's left.")
    b.calls(
        (
            "add_file_note",
            {
                "claim_id": HOME_CLAIM,
                "text": f"{REFERRAL} - Position 11 March: accommodation moved to 9 {NEW_STAY} cottage ({ale_second}, 14 Mar-6 Jun, 13,800), aparthotel cancelled at nil cost. Kitchen ceiling: {CALVERLEY} ({plaster_job}) lime repair from 20 April, listed building consent pending; garage ceiling: {KEYSTONE} ({garage_job}) from 6 April. Reserves under {RESERVE_CODE}: buildings 46,500, contents 9,000 (after 500 emergency payment), accommodation 14,500. Left: fees reserve by 13 March; proof-of-ownership chase; large-loss review by 16 March; underwriting referral by 18 March; customer call today re 2021 claim; Recoveries demand to include both excesses.",
            },
            f"note {notes[3]} added to {HOME_CLAIM} (internal) at 2026-03-11 15:31 by you",
        )
    )
    b.say(
        f"Added {notes[3]}, referral number first: the cottage and the cancelled aparthotel, both ceiling jobs and their dates, the reserves on the escape-of-water code after the emergency payment, and what's left: the fees reserve by Friday, the proof chase, the large-loss and underwriting reviews, your call about 2021, and both excesses in Recoveries' demand."
    )

    # 38
    b.user(
        "Great, thanks. I'll ring Rosalind now, and Imogen later about picking up the cottage keys."
    )
    b.say(
        "You're welcome. Everything's booked and noted on both claims; once you've spoken to Rosalind, her answer about the 2021 claim goes on the file verbatim for underwriting."
    )
    return b


def check_ledger(b: TranscriptBuilder) -> None:
    """Each ledger entry's text is said by its speaker at its turn."""
    import yaml

    for entry in yaml.safe_load(LEDGER):
        role = entry["who"]
        found = False
        for line in b.lines:
            if line["turn"] != entry["turn"] or line["role"] != role:
                continue
            if entry["text"] in (line.get("content") or ""):
                found = True
        if not found:
            raise SystemExit(f"ledger entry not found in the transcript: {entry}")


def main() -> None:
    b = build()
    check_once(b, MORTGAGE, [(2, "tool")])
    check_once(b, CUE, [(6, "tool")])
    check_once(b, ENDORSEMENT, [(8, "tool")])
    check_once(b, RECOVERY, [(13, "tool")])
    check_once(b, DECLINED_LINE, [(16, "tool")])
    check_once(b, KEYHOLDER, [(10, "user")])
    check_once(b, VIN, [(20, "tool"), (20, "call"), (20, "assistant")])
    check_once(b, OLD_STAY, [(15, "user"), (15, "call"), (15, "tool"), (29, "user"), (29, "tool")])
    first = where_said(b, NEW_STAY)[0]
    if first != (29, "user"):
        raise SystemExit(f"{NEW_STAY!r} is first said at {first}")
    for value in (
        WRONG_REFERRAL,
        OTHER_REFERRAL,
        RETIRED_RESERVE,
        OLD_MORTGAGE,
        CUE_LOOKALIKE,
        OLD_ENDORSEMENT,
        OLD_RECOVERY,
        LOOKALIKE_LINE,
        LOOKALIKE_LINE_2,
        OLD_VIN,
        TEMP_VIN,
        EMERGENCY_CONTACT,
        LEGACY_POLICY,
        OTHER_POLICY,
    ):
        if not where_said(b, value):
            raise SystemExit(f"distractor {value!r} is never said")
    check_ledger(b)
    write_fixture(b, HERE, TOOLS, PROBES)
    (HERE / "ledger.yaml").write_text(LEDGER, encoding="utf-8")


if __name__ == "__main__":
    main()
