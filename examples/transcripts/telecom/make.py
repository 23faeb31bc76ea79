"""Generate the telecom fixture: a 38-turn household account at a mobile and broadband provider.

A Kestrel Mobile customer-care adviser and the agent work one household account, Joanna
Feeney's (KA-3307158, Bristol; a look-alike account KA-3307185, Joanne Feeny in Swindon,
exists), while she is on the phone: a disputed roaming bill from a week in Turkey, her son's
number ported in from Meridian Mobile, her daughter's broken phone under device insurance,
the broadband moving house and the family's plans. Tools answer the way real telco systems
do: nested JSON records, a CSV usage export of about a hundred rows, a JSON-lines port event
log, a case thread with internal notes, a YAML plan catalogue. Facts of the kinds the
held-out sessions lost, each planted once:

* turn 3, the user's standing rules (from the adviser's team lead): every case note starts
  with the complaint reference CMP-40962 (CMP-40926, another customer's complaint, was linked
  by mistake); goodwill credits go under reason code GW-ROAM-14 (the knowledge base lists the
  generic GW-GEN-01 and the retired GW-ROAM-41);
* turn 5, only in an internal note of the complaint thread (never restated): roaming
  assurance recovers the duplicate from Turkcell under wholesale claim WCL-8840-TR (the closed
  WCL-8804-TR beside it);
* turn 7, only in one row of a CSV usage export: the duplicated roaming data session's second
  copy is record UR-7c41d2 (the original is UR-5b08e3; UR-7c412d is an ordinary call);
* turn 16, only in one line of a JSON-lines port event log: Meridian's reference for the
  accepted port-out is MER-PO-661472 (the rejected first request's MER-PO-661427 beside it);
* turn 18, only four levels deep in a JSON policy record (``policy.cover.excess.code``): the
  insurance excess code is EXB-0795 (the legacy cover's EXB-0759 beside it);
* turn 27, only in the YAML plan catalogue: a four-line household gets discount MLD-20-4L (the
  account's current three-line MLD-15-3L look alike);
* turn 9, said once by the user in passing: her brother-in-law Fergal Moran is authorised on
  the account;
* turn 19, found by a query and summarised once by the assistant: the broken handset's IMEI is
  356938107245816 (356938107245861 and 356938107248516, from the same bundle, look alike);
* turn 24 → revised at turn 31: the fibre engineer comes on Thursday 9 July → Monday 13 July;
* turn 29, a rejected decision with its reason: no Family Share plan, because it cannot carry
  the spend cap the daughter's line must keep;
* turn 22, a look-alike address: the broadband moves to 23 Ashgrove Road (the install address
  on record is 7 Cotham Grove; the coverage check also returns 32 Ashgrove Road).

    python examples/transcripts/telecom/make.py   # rewrites the three files beside it

Written on 2026-12-06 for tuning, before any history policy was run on it.
"""

# ruff: noqa: E501 (tool outputs are records and documents, kept as they would print)
from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from build import (  # noqa: E402
    TranscriptBuilder,
    check_once,
    flag,
    money,
    p,
    pretty,
    tool,
    write_fixture,
)

SEED = 7346
ACCOUNT = "KA-3307158"
OTHER_ACCOUNT = "KA-3307185"
JOANNA = "07700 900412"
DECLAN = "07700 900587"
NIAMH = "07700 900733"
CIARAN = "07700 900268"
COMPLAINT = "CMP-40962"
WRONG_COMPLAINT = "CMP-40926"
GOODWILL = "GW-ROAM-14"
WHOLESALE = "WCL-8840-TR"
OLD_WHOLESALE = "WCL-8804-TR"
DUPLICATE = "UR-7c41d2"
ORIGINAL = "UR-5b08e3"
LOOKALIKE_RECORD = "UR-7c412d"
DONOR_REF = "MER-PO-661472"
OLD_DONOR_REF = "MER-PO-661427"
EXCESS = "EXB-0795"
OLD_EXCESS = "EXB-0759"
DISCOUNT = "MLD-20-4L"
OLD_DISCOUNT = "MLD-15-3L"
AUTHORISED = "Fergal Moran"
IMEI = "356938107245816"
IMEI_JOANNA = "356938107245861"
IMEI_DECLAN = "356938107248516"
NEW_ADDRESS = "23 Ashgrove Road"
NEIGHBOUR = "32 Ashgrove Road"
OLD_ADDRESS = "7 Cotham Grove"
INVOICE = "INV-2606-3307158"
POLICY = "KP-5571-0392"
OLD_PORT = "PIN-40717"
NEW_PORT = "PIN-41388"
ICCID = "8944110068213370915"
BUNDLE = "SLS-097731"


def jsonl(*records: dict[str, Any]) -> str:
    return "\n".join(json.dumps(r, ensure_ascii=False) for r in records)


TOOLS = [
    tool(
        "get_account",
        "Look up a customer account. With account_id returns the full record as JSON: holder, "
        "contact details, addresses, security and authorised contacts, billing and payment, "
        "products, discounts and flags. With a name or phone number returns the matching "
        "candidates only. Never guess an account id.",
        {
            "account_id": p("Account number, e.g. KA-1000001."),
            "name": p("Account holder's name, e.g. 'Feeney'."),
            "msisdn": p("Any mobile number on the account, e.g. '07700 900000'."),
        },
        [],
    ),
    tool(
        "list_lines",
        "List the mobile lines and broadband service of an account as JSON: number, user, "
        "plan, bolt-ons, spend cap, SIM, insurance; optionally the handset on each line.",
        {
            "account_id": p("Account number."),
            "include_devices": flag(
                "Also return each line's handset: make, model, IMEI, purchase date and bundle."
            ),
        },
        ["account_id"],
    ),
    tool(
        "get_usage_records",
        "Export a line's rated usage records as CSV, oldest first: record id, local start "
        "time, type, country, visited network, duration or volume, zone, pass, charge, the "
        "TAP file it was rated from and the rating date.",
        {
            "msisdn": p("Mobile number."),
            "since": p("First day, YYYY-MM-DD."),
            "until": p("Last day, YYYY-MM-DD (default today)."),
            "record_type": p(
                "Only one kind of record (default all).",
                enum=["all", "data", "voice", "sms", "bolt_on"],
            ),
            "roaming_only": flag("Only records rated in a roaming zone."),
        },
        ["msisdn", "since"],
    ),
    tool(
        "get_invoice",
        "Read an account's invoice for a billing month as JSON: every line's plan charges, "
        "usage and roaming items, discounts, credits, totals, due date and payment method. A "
        "future month returns the draft.",
        {
            "account_id": p("Account number."),
            "period": p("Billing month, YYYY-MM (the month the invoice is issued)."),
        },
        ["account_id", "period"],
    ),
    tool(
        "open_dispute",
        "Dispute charges on an invoice. The disputed amount is held back from the next direct "
        "debit until billing operations decide. Returns the dispute id and timeline.",
        {
            "account_id": p("Account number."),
            "invoice_id": p("Invoice id, e.g. INV-2601-1000001."),
            "msisdn": p("The line the charges are on, if one line."),
            "amount_gbp": money("Amount disputed in GBP."),
            "category": p(
                "What is wrong with the charge.",
                enum=["duplicate_charge", "wrong_rate", "not_used", "pass_not_applied", "other"],
            ),
            "description": p("What was charged wrongly and the evidence."),
            "case_id": p("Complaint or case to link the dispute to."),
        },
        ["account_id", "invoice_id", "amount_gbp", "category", "description"],
    ),
    tool(
        "apply_credit",
        "Put a credit on an account; it appears on the next invoice. Credits above the "
        "adviser limit need team-lead approval first.",
        {
            "account_id": p("Account number."),
            "amount_gbp": money("Credit in GBP."),
            "reason_code": p("Reason code of the credit."),
            "note": p("Why the credit is given (kept with the credit)."),
        },
        ["account_id", "amount_gbp", "reason_code", "note"],
    ),
    tool(
        "get_port_request",
        "Read number-port requests into Kestrel, by number or request id, as JSON; with "
        "include_events, the whole port journey of that number as a JSON-lines event log.",
        {
            "msisdn": p("The number being ported in."),
            "request_id": p("Port request id, e.g. PIN-10001."),
            "include_events": flag("Return the event log (JSON lines) instead of the summary."),
        },
        [],
    ),
    tool(
        "submit_port_request",
        "Submit a port-in request with the donor operator's PAC. The number moves to the "
        "given SIM on the port date; the PAC is validated with the donor first.",
        {
            "account_id": p("Account the number joins."),
            "msisdn": p("Number to port in."),
            "pac": p("Porting authorisation code from the donor, 3 letters and 6 digits."),
            "iccid": p("ICCID of the Kestrel SIM the number moves to."),
            "port_date": p("Requested port date, YYYY-MM-DD (default: earliest)."),
            "plan_code": p("Plan the ported line goes on, e.g. FLEX-30."),
        },
        ["account_id", "msisdn", "pac", "iccid"],
    ),
    tool(
        "get_insurance_claim",
        "Read device insurance as JSON. With msisdn: the line's policy (product, cover, "
        "excess, insured device, history) and its claims. With claim_id: that claim's state, "
        "excess payment, fulfilment and timeline.",
        {
            "msisdn": p("Mobile number of the insured line."),
            "claim_id": p("Claim id, e.g. CLM-100001."),
        },
        [],
    ),
    tool(
        "file_insurance_claim",
        "File a device insurance claim. Returns the claim id, the decision, the excess to pay "
        "and how the device will be repaired or replaced.",
        {
            "policy_number": p("Insurance policy number."),
            "imei": p("IMEI of the insured handset, 15 digits."),
            "incident_type": p(
                "What happened.",
                enum=["accidental_damage", "breakdown", "theft", "loss", "liquid_damage"],
            ),
            "incident_date": p("Day it happened, YYYY-MM-DD."),
            "description": p("What happened and the device's state."),
        },
        ["policy_number", "imei", "incident_type", "incident_date", "description"],
    ),
    tool(
        "check_address_coverage",
        "Check broadband coverage for an address as JSON: matching premises with UPRN, full "
        "fibre and FTTC availability, speeds, whether a fibre box (ONT) is installed and any "
        "existing line.",
        {
            "postcode": p("Postcode, e.g. BS1 4ST."),
            "building": p("House number or name to narrow the match."),
        },
        ["postcode"],
    ),
    tool(
        "create_home_move",
        "Start a broadband home move: cease at the old address and provide at the new one. "
        "Returns the order, dates and the engineer slots if an install is needed.",
        {
            "account_id": p("Account number."),
            "uprn": p("UPRN of the new premises, from check_address_coverage."),
            "move_date": p("Day the service should go live at the new address, YYYY-MM-DD."),
            "product_code": p("Broadband product at the new address, e.g. FIBRE-500."),
        },
        ["account_id", "uprn", "move_date", "product_code"],
    ),
    tool(
        "schedule_engineer",
        "Book or rebook an engineer appointment for an order. Rebooking (appointment_id "
        "given) cancels the old appointment and aligns the order's dates.",
        {
            "order_id": p("Order id, e.g. HM-100001."),
            "date": p("Appointment day, YYYY-MM-DD, from the order's free slots."),
            "slot": p("Morning (08:00-13:00) or afternoon (13:00-18:00).", enum=["AM", "PM"]),
            "appointment_id": p("Existing appointment to move, if rebooking."),
            "notes": p("Access notes for the engineer."),
        },
        ["order_id", "date", "slot"],
    ),
    tool(
        "get_case_history",
        "List an account's cases (complaints, service requests, sales, claims, orders) as a "
        "table, newest first: id, type, subject, status, dates, owner and SLA.",
        {
            "account_id": p("Account number."),
            "status": p("Filter by state (default all).", enum=["open", "closed", "all"]),
        },
        ["account_id"],
    ),
    tool(
        "get_case",
        "Read one case with its whole thread: the customer's messages, replies and internal "
        "notes (internal notes are never shown to the customer).",
        {"case_id": p("Case id, e.g. CMP-10001 or SRQ-100001.")},
        ["case_id"],
    ),
    tool(
        "add_case_note",
        "Add an internal note to a case. Notes are visible to Kestrel staff only.",
        {"case_id": p("Case id."), "text": p("The note.")},
        ["case_id", "text"],
    ),
    tool(
        "get_plan_catalog",
        "Read the current plan catalogue as YAML: plans with prices, allowances, contract, "
        "roaming and controls; bolt-ons; discounts with their codes.",
        {
            "segment": p(
                "Which part of the catalogue.",
                enum=["mobile", "family", "broadband", "bolt_ons"],
            ),
            "include_retired": flag("Also list plans no longer sold."),
        },
        ["segment"],
    ),
    tool(
        "change_plan",
        "Move a mobile line to another plan. Returns old and new plan, pro-rata charges and "
        "the effect on discounts and spend caps.",
        {
            "msisdn": p("Mobile number."),
            "plan_code": p("New plan code from the catalogue, e.g. FLEX-UNL."),
            "effective": p("Change now (pro-rata) or at the next bill.", enum=["now", "next_bill"]),
        },
        ["msisdn", "plan_code"],
    ),
    tool(
        "send_sms_to_customer",
        "Send an SMS from Kestrel to a number on the account. Sent as written; max 612 characters.",
        {"msisdn": p("Recipient number."), "text": p("Message text.")},
        ["msisdn", "text"],
    ),
    tool(
        "search_kb",
        "Search the customer-care knowledge base. Returns matching articles with id, title, "
        "last update and the relevant passage.",
        {"query": p("What to look for, in plain words.")},
        ["query"],
    ),
]

PROBES = f"""\
# Twelve facts of the kinds the held-out sessions lost; six phrasings each.
- id: note_reference
  kind: rule
  planted_turn: 3
  question:
    - "You are about to add a note to the case. What must it start with?"
    - "Which reference goes at the front of every case note on this account?"
    - "Remind me of the complaint reference I asked you to use."
    - "Write the first word of the next case note you will add."
    - "What prefix goes on anything we write into the ticket?"
    - "Before the final write-up on the ticket: which identifier must open it?"
  expected: "{COMPLAINT}"
  distractors: ["{WRONG_COMPLAINT}", "CMP-37415"]
- id: goodwill_code
  kind: rule
  planted_turn: 3
  question:
    - "Which reason code do goodwill credits on this account use?"
    - "Fill in the reason_code of the goodwill credit. What value?"
    - "The knowledge base lists a generic code; which one did I say goodwill goes under?"
    - "What code must any goodwill credit in this case carry?"
    - "If we compensate her for the inconvenience, how is that payment classified?"
    - "What label does a gesture for the hassle get booked with?"
  expected: "{GOODWILL}"
  distractors: ["GW-GEN-01", "GW-ROAM-41"]
- id: wholesale_claim
  kind: tool_result
  planted_turn: 5
  question:
    - "Which wholesale claim does roaming assurance recover the Turkcell duplicate under?"
    - "Under which claim is the partner-side recovery for the re-sent TAP file?"
    - "Fill in the wholesale claim for adding Joanna's account. Which id?"
    - "The May Vodafone batch is closed. Which claim is the open one for Turkcell?"
    - "What reference will finance use to get the money back from Turkcell?"
    - "After the call I'll add her to the carrier reimbursement case. What is its id?"
  expected: "{WHOLESALE}"
  distractors: ["{OLD_WHOLESALE}"]
- id: duplicate_record
  kind: tool_result
  planted_turn: 7
  question:
    - "Which usage record is the second copy of the duplicated roaming data session?"
    - "Give the record_id of the duplicate roaming charge."
    - "Which usage record came from the re-sent TAP file?"
    - "Name the usage record Declan was billed for twice: the later copy."
    - "Which entry of the export are we disputing?"
    - "Which row was billed in error?"
  expected: "{DUPLICATE}"
  distractors: ["{ORIGINAL}", "{LOOKALIKE_RECORD}"]
- id: donor_reference
  kind: tool_result
  planted_turn: 16
  question:
    - "What reference did Meridian give for the accepted port-out?"
    - "Which donor reference belongs to the resubmitted port request?"
    - "Fill in Meridian's port reference for Ciarán's number, current request."
    - "The first port attempt had a donor reference too. What is the one on the new request?"
    - "If his old network keeps billing Ciarán, which number should he quote to them?"
    - "What id did his former operator send back for the switch that went through?"
  expected: "{DONOR_REF}"
  distractors: ["{OLD_DONOR_REF}"]
- id: excess_code
  kind: tool_result
  planted_turn: 18
  question:
    - "Which excess code applies to Niamh's insurance claim?"
    - "Fill in the excess code for the Kestrel Protect claim."
    - "The legacy cover had a different excess code. What is the current one?"
    - "What is the code of the band B excess on her policy?"
    - "Which identifier goes with the fee Joanna pays before the replacement ships?"
    - "For the broken iPhone, which deductible reference applies?"
  expected: "{EXCESS}"
  distractors: ["{OLD_EXCESS}"]
- id: discount_code
  kind: tool_result
  planted_turn: 27
  question:
    - "Which multi-line discount code will the household get with four lines?"
    - "Once Ciarán's line is active, which discount code applies?"
    - "The account has a three-line discount code now. What is the four-line one?"
    - "Fill in the discount code for a four-line Flex household."
    - "After the port completes, how will the bigger family reduction be labelled?"
    - "What identifier will the bigger price cut carry once Ciarán has joined?"
  expected: "{DISCOUNT}"
  distractors: ["{OLD_DISCOUNT}", "MLD-10-2L"]
- id: authorised_contact
  kind: user
  planted_turn: 9
  question:
    - "Who else is authorised on the Feeney account?"
    - "Which relative did Joanna say is now authorised to speak for the account?"
    - "Name the brother-in-law who sent in the authority form."
    - "Who might ring about the move on Joanna's behalf?"
    - "If a man phones claiming to act for the household, whose name should we expect?"
    - "Which third party can we discuss the services with besides the holder?"
  expected: "{AUTHORISED}"
- id: handset_imei
  kind: summary
  planted_turn: 19
  question:
    - "What is the IMEI of Niamh's broken phone?"
    - "Which IMEI did we file the insurance claim with?"
    - "Fill in the imei field for Niamh's claim."
    - "Three iPhones came in the bundle. Which IMEI is Niamh's?"
    - "Give the serial of the daughter's damaged device, all digits."
    - "Which equipment identity goes with the teenager's dropped mobile?"
  expected: "{IMEI}"
  distractors: ["{IMEI_JOANNA}", "{IMEI_DECLAN}"]
- id: engineer_date
  kind: revised
  planted_turn: 31
  question:
    - "When is the engineer visiting the new house?"
    - "What date is the fibre install booked for?"
    - "Which day did we settle on for the engineer appointment?"
    - "Fill in the appointment date for the FTTP install."
    - "A date was booked and then changed. On which day does someone fit the fibre box?"
    - "When will a technician come to connect the Feeneys' new home?"
  expected: "13 July"
  distractors: ["9 July"]
- id: shared_plan_rejected
  kind: rejected
  planted_turn: 29
  question:
    - "Why aren't we putting the family on Family Share 100GB?"
    - "The shared plan was cheaper. Why was it turned down?"
    - "What was the reason for rejecting the shared data pool?"
    - "Why Flex with the multi-line discount rather than a shared plan?"
    - "What did I say against pooling everyone's allowance?"
    - "Remind me why the cheapest household tariff won't work here."
  expected_regex: "(?i)(spend(ing)? cap|bill cap)"
- id: new_address
  kind: lookalike
  planted_turn: 22
  question:
    - "Which address is the broadband moving to?"
    - "Where should the engineer go for the fibre install?"
    - "Fill in the new installation address for the home move."
    - "Her current install address is one thing; where is the family moving?"
    - "What is the street address of the Feeneys' next home?"
    - "Where will the router need to work from mid-July?"
  expected: "{NEW_ADDRESS}"
  distractors: ["{OLD_ADDRESS}", "{NEIGHBOUR}"]
"""

# Roaming rates outside the pass (World zone B) and the trip's tap-file sequence numbers.
DATA_PER_MB = 0.05
CALL_OUT_PER_MIN = 1.80
CALL_IN_PER_MIN = 1.20
TEXT_OUT = 0.45
TAP_SEQ = {8: 2381, 9: 2391, 10: 2395, 11: 2398, 12: 2402, 13: 2405, 14: 2408, 15: 2411, 16: 2414}
NETWORKS = (
    ("Turkcell", "TURTC"),
    ("Turkcell", "TURTC"),
    ("Turkcell", "TURTC"),
    ("Turkcell", "TURTC"),
    ("Turkcell", "TURTC"),
    ("Vodafone TR", "TURTS"),
    ("Vodafone TR", "TURTS"),
    ("Turk Telekom", "TURAC"),
)


def usage_export(b: TranscriptBuilder) -> tuple[str, dict[str, float]]:
    """Declan's usage for 8-16 June as CSV, and the roaming totals it adds up to."""
    rows: list[list[str]] = []
    totals = {"data_mb": 0.0, "data": 0.0, "call_min": 0, "calls": 0.0, "texts_n": 0, "texts": 0.0}

    def add(
        day: int, clock: str, kind: str, roaming: bool, in_pass: bool, network=("", "")
    ) -> None:
        offset = "+03:00" if roaming else "+01:00"
        duration, volume, charge = "", "", 0.0
        if kind == "data":
            mb = round(
                b.rng.choice(
                    (b.rng.uniform(0.2, 24), b.rng.uniform(8, 90), b.rng.uniform(60, 240))
                ),
                1,
            )
            volume = f"{mb:.1f}"
            if roaming and not in_pass:
                charge = round(mb * DATA_PER_MB, 2)
                totals["data_mb"] += mb
                totals["data"] += charge
        elif kind in ("voice_mo", "voice_mt"):
            seconds = b.rng.randint(18, 840)
            duration = str(seconds)
            if roaming and not in_pass:
                minutes = math.ceil(seconds / 60)
                rate = CALL_OUT_PER_MIN if kind == "voice_mo" else CALL_IN_PER_MIN
                charge = round(minutes * rate, 2)
                totals["call_min"] += minutes
                totals["calls"] += charge
        elif kind == "sms_mo" and roaming and not in_pass:
            charge = TEXT_OUT
            totals["texts_n"] += 1
            totals["texts"] += charge
        name, tadig = network if roaming else ("Kestrel", "")
        tap = (
            f"CD{tadig}GBRKS{TAP_SEQ[day] + (0 if tadig == 'TURTC' else 5000 if tadig == 'TURTS' else 7000):05d}"
            if roaming
            else ""
        )
        rows.append(
            [
                f"UR-{b.hex_id(6)}",
                f"2026-06-{day:02d} {clock}",
                offset,
                kind,
                "TUR" if roaming else "GBR",
                name,
                duration,
                volume,
                "World B" if roaming else "UK",
                "RF7" if in_pass else "",
                f"{charge:.2f}",
                tap,
                f"2026-06-{day + 1:02d}" if roaming else f"2026-06-{day:02d}",
            ]
        )

    def clocks(count: int, first: int, last: int) -> list[str]:
        minutes = sorted(b.rng.sample(range(first * 60, last * 60), count))
        return [f"{m // 60:02d}:{m % 60:02d}:{b.rng.randint(0, 59):02d}" for m in minutes]

    def kinds(count: int) -> list[str]:
        pool = ["data"] * 7 + ["voice_mo", "voice_mo", "voice_mt", "sms_mo"]
        return [b.rng.choice(pool) for _ in range(count)]

    # 8 June: Bristol in the morning, Istanbul from mid-afternoon, no pass yet
    for clock, kind in zip(clocks(3, 6, 9), ("data", "voice_mo", "data"), strict=True):
        add(8, clock, kind, roaming=False, in_pass=False)
    arrival = ("sms_mo", "voice_mt", "data", "sms_mo", "data", "voice_mo", "data")
    for clock, kind in zip(clocks(7, 16, 24), arrival, strict=True):
        add(8, clock, kind, roaming=True, in_pass=False, network=b.rng.choice(NETWORKS))
    # 9 June: a whole day out of pass; the 19:42 session is the one Turkcell sent twice
    for clock, kind in zip(clocks(11, 7, 24), kinds(11), strict=True):
        if clock[:2] == "19":
            continue
        add(9, clock, kind, roaming=True, in_pass=False, network=b.rng.choice(NETWORKS))
    session = [
        "2026-06-09 19:42:07",
        "+03:00",
        "data",
        "TUR",
        "Turkcell",
        "",
        "412.6",
        "World B",
        "",
    ]
    charge = round(412.6 * DATA_PER_MB, 2)
    totals["data_mb"] += 412.6 * 2
    totals["data"] += charge * 2
    original = [ORIGINAL, *session, f"{charge:.2f}", "CDTURTCGBRKS02391", "2026-06-10"]
    duplicate = [DUPLICATE, *session, f"{charge:.2f}", "CDTURTCGBRKS02417", "2026-06-17"]
    index = next((i for i, r in enumerate(rows) if r[1] > "2026-06-09 19:42:07"), len(rows))
    rows[index:index] = [original, duplicate]
    # 10-16 June: the seven-day pass from 08:03 on the 10th
    rows.append(
        [
            f"UR-{b.hex_id(6)}",
            "2026-06-10 08:03:12",
            "+03:00",
            "bolt_on",
            "TUR",
            "",
            "",
            "",
            "World B",
            "RF7",
            "25.00",
            "",
            "2026-06-10",
        ]
    )
    for day in range(10, 16):
        for clock, kind in zip(clocks(11, 8 if day > 10 else 9, 24), kinds(11), strict=True):
            add(day, clock, kind, roaming=True, in_pass=True, network=b.rng.choice(NETWORKS))
    for clock, kind in zip(clocks(5, 7, 13), kinds(5), strict=True):
        add(16, clock, kind, roaming=True, in_pass=True, network=b.rng.choice(NETWORKS))
    for clock, kind in zip(clocks(3, 18, 23), ("voice_mo", "data", "data"), strict=True):
        add(16, clock, kind, roaming=False, in_pass=False)
    # an ordinary in-pass call on 13 June carries the look-alike id
    call = next(r for r in rows if r[1].startswith("2026-06-13") and r[3] == "voice_mo")
    call[0] = LOOKALIKE_RECORD
    header = "record_id,start_local,utc_offset,type,country,network,duration_s,volume_mb,zone,pass,charge_gbp,tap_file,rated"
    totals["pass"] = 25.0
    totals["rows"] = len(rows)
    totals["duplicate"] = charge
    totals["roaming"] = round(
        totals["data"] + totals["calls"] + totals["texts"] + totals["pass"], 2
    )
    return "\n".join([header, *(",".join(r) for r in rows)]), totals


def gbp(value: float) -> str:
    return f"£{value:,.2f}"


def build() -> TranscriptBuilder:
    b = TranscriptBuilder(
        SEED,
        avoid=("40962", "8840", "7c41d2", "7c412d", "5b08e3", "661472", "0795", "245816", "20-4L"),
    )
    usage, t = usage_export(b)
    roaming = t["roaming"]
    plans = 18.00 + 25.00 + 12.00
    june_total = round(plans + 7.99 + 32.00 - 8.25 + roaming, 2)
    dispute_id = f"DSP-{b.number(300000, 399999)}"
    claim_id = f"CLM-{b.number(700000, 799999)}"
    move_id = f"HM-{b.number(500000, 599999)}"
    first_visit = f"APT-{b.number(800000, 899999)}"
    second_visit = f"APT-{b.number(800000, 899999)}"
    credit_id = f"CR-{b.number(100000, 199999)}"

    # 1 — which account
    b.user(
        "Hi, I've got a customer on the phone, Joanna Feeney, household account in Bristol. She's got a whole list of things today. Can you find her account?"
    )
    b.calls(
        (
            "get_account",
            {"name": "Joanna Feeney"},
            pretty(
                {
                    "query": {"name": "Joanna Feeney"},
                    "count": 2,
                    "candidates": [
                        {
                            "account_id": ACCOUNT,
                            "holder": "Joanna Feeney",
                            "type": "household",
                            "postcode": "BS6 6AL",
                            "mobile_lines": 3,
                            "broadband": True,
                            "status": "active",
                        },
                        {
                            "account_id": OTHER_ACCOUNT,
                            "holder": "Joanne Feeny",
                            "type": "individual",
                            "postcode": "SN2 8BW",
                            "mobile_lines": 1,
                            "broadband": False,
                            "status": "active",
                        },
                    ],
                }
            ),
        )
    )
    b.say(
        f"Two matches: {ACCOUNT}, Joanna Feeney, a household account in Bristol (BS6 6AL) with three mobile lines and broadband, and {OTHER_ACCOUNT}, Joanne Feeny in Swindon with a single line. I take it you mean the Bristol household?"
    )

    # 2 — the record (the install address that is about to move)
    b.user(
        "Yes, the Bristol one. She's passed security, date of birth and postcode. Pull the full record."
    )
    b.calls(
        (
            "get_account",
            {"account_id": ACCOUNT},
            pretty(
                {
                    "account": {
                        "id": ACCOUNT,
                        "type": "household",
                        "status": "active",
                        "customer_since": "2017-04-03",
                        "holder": {
                            "name": "Joanna Feeney",
                            "contact": {
                                "email": "joanna.feeney@example.net",
                                "mobile": JOANNA,
                                "preferred_channel": "sms",
                                "marketing": {"email": False, "sms": False},
                            },
                        },
                        "addresses": {
                            "billing": {
                                "line1": OLD_ADDRESS,
                                "town": "Bristol",
                                "postcode": "BS6 6AL",
                            },
                            "broadband_install": {
                                "line1": OLD_ADDRESS,
                                "town": "Bristol",
                                "postcode": "BS6 6AL",
                                "uprn": "000010239441",
                            },
                        },
                        "security": {
                            "verified_this_session": True,
                            "method": "DOB + postcode",
                            "authorised_contacts": [],
                            "third_party_forms": [
                                {
                                    "received": "2026-06-15",
                                    "status": "awaiting processing (5 working days)",
                                    "name": "withheld until processed",
                                }
                            ],
                            "port_out_protection": {"enabled": False},
                        },
                        "billing": {
                            "cycle_day": 18,
                            "payment": {
                                "method": "direct_debit",
                                "bank_account": "••••4410",
                                "collection_day": 2,
                            },
                            "balance_gbp": 0.0,
                            "last_invoice": {
                                "id": INVOICE,
                                "total_gbp": june_total,
                                "due": "2026-07-02",
                            },
                        },
                        "products": {
                            "mobile_lines": 3,
                            "broadband": {"product": "FIBRE-500", "name": "Kestrel Fibre 500"},
                            "discounts": [
                                {
                                    "code": OLD_DISCOUNT,
                                    "description": "multi-line 15% (3 lines)",
                                    "since": "2022-09-18",
                                }
                            ],
                        },
                        "flags": ["open complaint", "retention watch"],
                    }
                }
            ),
        )
    )
    b.say(
        f"Joanna has been with us since April 2017. Billing and the broadband install are both at {OLD_ADDRESS}, Bristol BS6 6AL. She pays by direct debit (account ending 4410) on the 2nd; the last bill was {gbp(june_total)}, due 2 July. Three mobile lines plus Kestrel Fibre 500, with the 15% multi-line discount. There are no authorised contacts on record yet, though a third-party authority form arrived on 15 June and is waiting to be processed. The account is flagged with an open complaint and a retention watch."
    )

    # 3 — the standing rules
    b.user(
        f"Two rules from my team lead for this account, please. Every note you add to a case today must start with the complaint reference {COMPLAINT}, since everything we do for her hangs off that complaint. And any goodwill credit we give her goes under reason code {GOODWILL}, not the generic goodwill code."
    )
    b.say(
        "Understood: every case note starts with the complaint's reference, and goodwill goes under the roaming goodwill reason code you gave, not the generic one."
    )

    # 4 — case history
    b.user("What's on her case history?")
    b.calls(
        (
            "get_case_history",
            {"account_id": ACCOUNT, "status": "all"},
            f"""\
5 cases for {ACCOUNT} (newest first)
case_id     type       subject                                               status   opened      updated           owner           sla
{COMPLAINT}   complaint  June bill: roaming charges on {DECLAN}            open     2026-06-19  2026-06-21 09:14  complaints-L2   first contact by 2026-06-23 18:44
SRQ-118204  service    Port-in {CIARAN} from Meridian Mobile             pending  2026-06-11  2026-06-12 09:15  porting         -
{BUNDLE}  sales      Family handset bundle, 3 x iPhone 15 128GB            closed   2026-03-14  2026-03-16 11:40  retail-BS1      -
SRQ-102245  service    Replacement eSIM for {NIAMH}                     closed   2026-01-06  2026-01-06 14:22  care-L1         -
CMP-37415   complaint  Broadband below minimum guaranteed speed (Cotham Gr)  closed   2025-11-04  2025-11-20 16:05  complaints-L2   -
""",
        )
    )
    b.say(
        f"Five cases. Open: the roaming complaint {COMPLAINT} about June's bill on {DECLAN} (first contact due tomorrow, 23 June, at 18:44), and a port-in of {CIARAN} from Meridian Mobile that has been pending since 12 June. Closed: the March handset bundle (three iPhone 15s), an eSIM replacement in January and a broadband speed complaint from last November."
    )

    # 5 — the complaint thread: the wholesale claim lives only in roaming assurance's note
    b.user("Open the roaming complaint.")
    b.calls(
        (
            "get_case",
            {"case_id": COMPLAINT},
            f"""\
{COMPLAINT}  June bill: roaming charges on {DECLAN}   status: open   priority: normal
account: {ACCOUNT} Joanna Feeney   opened 2026-06-19 18:44 via web chat   queue: complaints-L2
category: billing / roaming   ofcom_deadlock_date: 2026-08-14

[2026-06-19 18:44] customer (Joanna Feeney):
  Our June bill has {gbp(roaming)} of roaming on my husband Declan's phone from our week in
  Turkey. He bought the Roam Further pass, so I don't understand how it can be this much, and
  some of it looks like it has been charged twice. I've been with you since 2017 and I'm
  seriously thinking of moving everything to Meridian, where my son already is.
[2026-06-19 18:52] reply (Aaron Whitby, chat L1):
  I'm sorry about this, Joanna. I've raised a complaint and our complaints team will go
  through the roaming charges line by line and contact you within 2 working days.
[2026-06-19 18:55] internal note (Aaron Whitby):
  Raised from chat. Customer upset, mentions leaving. RF7 pass on {DECLAN} shows active
  10-16 June; she says they landed on the 8th.
[2026-06-19 19:03] internal note (Aaron Whitby):
  Linked by mistake to {WRONG_COMPLAINT} (Joanne Feeny, Swindon, {OTHER_ACCOUNT}). Unlinked.
[2026-06-20 08:30] internal note (retention bot):
  Retention watch set: household spend £{plans + 7.99 + 32.00 - 8.25:.2f}/month, tenure 9 years, competitor named.
[2026-06-20 10:17] customer:
  Also, can someone ring me before Friday week? The direct debit goes out on 2 July and I
  don't want to pay for your mistake.
[2026-06-20 10:41] reply (Aaron Whitby, chat L1):
  Noted, Joanna: the complaints team will call you before the direct debit date.
[2026-06-21 09:12] internal note (Roaming assurance, Kemal Aydin):
  Turkcell re-sent TAP file CDTURTCGBRKS02417 on 17 June after a transfer error. It repeats
  data sessions from 9 June that were already rated from file CDTURTCGBRKS02391, so Kestrel
  customers who roamed on Turkcell that day may be billed twice. Customer side: dispute the
  duplicate on the bill as usual (KB-1980). Partner side: we recover it under wholesale
  claim {WHOLESALE}; list affected accounts there, not on {OLD_WHOLESALE} (May's Vodafone TR
  batch, closed 2026-06-05).
[2026-06-21 09:14] internal note (queue bot):
  SLA: first L2 contact due 2026-06-23 18:44 (2 working days).
""",
        )
    )
    b.say(
        f"Joanna opened it by chat on 19 June: {gbp(roaming)} of roaming on Declan's line from a week in Turkey despite the Roam Further pass, some of it apparently charged twice, and she's thinking of moving the household to Meridian. L1 noted the RF7 pass only ran from 10 June although they landed on the 8th, and unlinked another customer's complaint that had been attached by mistake. She wants a call before the direct debit on 2 July. Roaming assurance added a note yesterday: Turkcell re-sent a TAP file on 17 June that repeats data sessions from 9 June, so some customers were billed twice; on our side it's an ordinary dispute, and they recover the money from Turkcell on a wholesale claim of their own. First L2 contact is due tomorrow at 18:44."
    )

    # 6 — lines (no devices yet)
    b.user("Which lines are on the account?")
    b.calls(
        (
            "list_lines",
            {"account_id": ACCOUNT},
            pretty(
                {
                    "account_id": ACCOUNT,
                    "lines": [
                        {
                            "msisdn": JOANNA,
                            "user": "Joanna Feeney",
                            "plan": {
                                "code": "FLEX-30",
                                "name": "Flex 30GB",
                                "monthly_gbp": 18.0,
                                "contract": "1-month rolling",
                            },
                            "bolt_ons": [],
                            "spend_cap_gbp": None,
                            "sim": {"type": "eSIM", "status": "active"},
                            "insurance": None,
                        },
                        {
                            "msisdn": DECLAN,
                            "user": "Declan Feeney",
                            "plan": {
                                "code": "FLEX-UNL",
                                "name": "Flex Unlimited",
                                "monthly_gbp": 25.0,
                                "contract": "1-month rolling",
                            },
                            "bolt_ons": [
                                {
                                    "code": "RF7",
                                    "name": "Roam Further 7 days",
                                    "start": "2026-06-10T08:03:12+03:00",
                                    "end": "2026-06-17T08:03:11+03:00",
                                    "status": "expired",
                                }
                            ],
                            "spend_cap_gbp": None,
                            "sim": {"type": "physical", "status": "active"},
                            "insurance": None,
                        },
                        {
                            "msisdn": NIAMH,
                            "user": "Niamh Feeney (16)",
                            "plan": {
                                "code": "FLEX-10",
                                "name": "Flex 10GB",
                                "monthly_gbp": 12.0,
                                "contract": "1-month rolling",
                            },
                            "bolt_ons": [],
                            "spend_cap_gbp": 15.0,
                            "controls": {"content_lock": True, "premium_sms_barred": True},
                            "sim": {"type": "eSIM", "status": "active"},
                            "insurance": {
                                "product": "Kestrel Protect",
                                "policy": POLICY,
                                "monthly_gbp": 7.99,
                            },
                        },
                    ],
                    "pending_lines": [
                        {"msisdn": CIARAN, "reason": "port-in", "request": "SRQ-118204"}
                    ],
                    "broadband": {
                        "service_id": "BB-2291470",
                        "product": "FIBRE-500",
                        "name": "Kestrel Fibre 500",
                        "monthly_gbp": 32.0,
                        "install_address": f"{OLD_ADDRESS}, Bristol BS6 6AL",
                        "router": "Kestrel Hub 6",
                    },
                }
            ),
        )
    )
    b.say(
        f"Three mobile lines: Joanna on Flex 30GB ({JOANNA}, £18), Declan on Flex Unlimited ({DECLAN}, £25; his RF7 Roam Further pass ran from 10 to 17 June) and Niamh, 16, on Flex 10GB ({NIAMH}, £12) with a £15 spend cap, content lock and Kestrel Protect insurance. Ciarán's {CIARAN} is pending as a port-in. Broadband is Kestrel Fibre 500 at Cotham Grove, £32 a month."
    )

    # 7 — the usage export (CSV): the duplicate's record id lives only in its row
    b.user("Declan was in Turkey from 8 to 16 June. Pull his usage for that trip.")
    b.calls(
        (
            "get_usage_records",
            {"msisdn": DECLAN, "since": "2026-06-08", "until": "2026-06-16"},
            usage,
        )
    )
    b.say(
        f"{t['rows']} records from 8 to 16 June. Out of the pass, on the evening of 8 June and all of 9 June, he used {t['data_mb']:.1f} MB of data ({gbp(t['data'])} at 5p per MB), {t['call_min']} call minutes ({gbp(t['calls'])}) and {t['texts_n']} texts ({gbp(t['texts'])}). The RF7 pass was bought at 08:03 on 10 June for £25.00, and everything from then on is at £0.00. One data session appears twice: 9 June at 19:42, 412.6 MB on Turkcell, {gbp(t['duplicate'])} each time, once from TAP file CDTURTCGBRKS02391 rated on 10 June and again from CDTURTCGBRKS02417 rated on 17 June, the file roaming assurance said Turkcell re-sent. The rest of the out-of-pass charges are genuine: he used data for two days before buying the pass."
    )

    # 8 — the June invoice
    b.user("Get the June invoice so I can see what she was billed.")
    b.calls(
        (
            "get_invoice",
            {"account_id": ACCOUNT, "period": "2026-06"},
            pretty(
                {
                    "invoice": {
                        "id": INVOICE,
                        "issued": "2026-06-18",
                        "periods": {
                            "usage": "2026-05-18..2026-06-17",
                            "charges": "2026-06-18..2026-07-17",
                        },
                        "due": "2026-07-02",
                        "payment": {
                            "method": "direct_debit",
                            "collection": "2026-07-02",
                            "status": "scheduled",
                        },
                        "sections": [
                            {
                                "msisdn": JOANNA,
                                "plan": {"code": "FLEX-30", "amount": 18.0},
                                "usage": {"domestic": 0.0, "roaming": 0.0},
                            },
                            {
                                "msisdn": DECLAN,
                                "plan": {"code": "FLEX-UNL", "amount": 25.0},
                                "usage": {
                                    "domestic": 0.0,
                                    "roaming": {
                                        "subtotal": roaming,
                                        "zone": "World B",
                                        "items": [
                                            {
                                                "description": "Roam Further 7 days (RF7)",
                                                "amount": 25.0,
                                            },
                                            {
                                                "description": "Data outside pass",
                                                "quantity": f"{t['data_mb']:.1f} MB",
                                                "amount": round(t["data"], 2),
                                            },
                                            {
                                                "description": "Calls outside pass",
                                                "quantity": f"{t['call_min']} min",
                                                "amount": round(t["calls"], 2),
                                            },
                                            {
                                                "description": "Texts outside pass",
                                                "quantity": f"{t['texts_n']}",
                                                "amount": round(t["texts"], 2),
                                            },
                                        ],
                                    },
                                },
                            },
                            {
                                "msisdn": NIAMH,
                                "plan": {"code": "FLEX-10", "amount": 12.0},
                                "insurance": {"product": "Kestrel Protect", "amount": 7.99},
                                "usage": {"domestic": 0.0, "roaming": 0.0},
                            },
                            {
                                "service": "BB-2291470",
                                "plan": {"code": "FIBRE-500", "amount": 32.0},
                            },
                        ],
                        "discounts": [
                            {
                                "code": OLD_DISCOUNT,
                                "description": "Multi-line 15% on 3 mobile plans",
                                "amount": -8.25,
                            }
                        ],
                        "credits": [],
                        "totals": {
                            "charges": round(plans + 7.99 + 32.0 + roaming, 2),
                            "discounts": -8.25,
                            "total": june_total,
                            "vat_included": round(june_total / 6, 2),
                        },
                    }
                }
            ),
        )
    )
    b.say(
        f"Invoice {INVOICE}, issued 18 June: {gbp(june_total)} including VAT, collected by direct debit on 2 July. Plans £55.00 less the £8.25 multi-line discount, Niamh's insurance £7.99, broadband £32.00, and {gbp(roaming)} of roaming on Declan's line: the £25.00 pass, {gbp(t['data'])} of data, {gbp(t['calls'])} of calls and {gbp(t['texts'])} of texts outside the pass. The duplicated session is inside the data figure."
    )

    # 9 — the user's fact, said once in passing, and the dispute
    b.user(
        f"She says her brother-in-law, {AUTHORISED}, is authorised on the account too now, she posted the form last week, so he may ring about the move. Anyway: open a dispute for the duplicated session."
    )
    b.calls(
        (
            "open_dispute",
            {
                "account_id": ACCOUNT,
                "invoice_id": INVOICE,
                "msisdn": DECLAN,
                "amount_gbp": t["duplicate"],
                "category": "duplicate_charge",
                "description": "Roaming data session of 2026-06-09 19:42 (+03:00) on Turkcell, 412.6 MB, billed twice: rated from TAP file CDTURTCGBRKS02391 and again from the re-sent CDTURTCGBRKS02417. Refund the second charge.",
                "case_id": COMPLAINT,
            },
            pretty(
                {
                    "dispute_id": dispute_id,
                    "status": "open",
                    "invoice_id": INVOICE,
                    "amount_gbp": t["duplicate"],
                    "category": "duplicate_charge",
                    "linked_case": COMPLAINT,
                    "effects": {
                        "direct_debit": {
                            "collection": "2026-07-02",
                            "reduced_by_gbp": t["duplicate"],
                        },
                        "collections": "paused for the disputed amount",
                    },
                    "timeline": {"decision_due": "2026-07-06", "owner": "billing-ops-roaming"},
                }
            ),
        )
    )
    b.say(
        f"Noted about the authority form; once it's processed he'll show as an authorised contact. Dispute {dispute_id} is open for {gbp(t['duplicate'])} on the June invoice, linked to the complaint. The 2 July direct debit will be reduced by that amount, and billing operations decide by 6 July."
    )

    # 10 — the knowledge base on goodwill
    b.user("What does the KB say about goodwill on roaming complaints?")
    b.calls(
        (
            "search_kb",
            {"query": "goodwill credit roaming complaint reason code"},
            """\
2 articles match "goodwill credit roaming complaint reason code"

KB-2217  Goodwill credits: limits and reason codes   (updated 2026-05-28, owner: Customer Operations)
  Advisers may credit up to £25.00 per account per complaint without team-lead approval;
  above that, raise a team-lead approval first. Credits appear on the next invoice.
  reason code   use                                                     status
  GW-GEN-01     general service failure, when no more specific code fits  active
  GW-BB-03      broadband fault or missed engineer appointment           active
  GW-PORT-02    number port delayed by Kestrel                           active
  GW-ROAM-41    roaming bill shock (pre-2025 tariffs)                    retired 2025-04-01
  Never put goodwill on a dispute: a dispute corrects a wrong charge, goodwill recognises the
  inconvenience. Record the complaint reference in the credit note.

KB-1980  Roaming: disputes and partner errors   (updated 2026-02-11, owner: Billing Operations)
  If a partner network duplicates usage, dispute the duplicate on the customer's invoice
  (category duplicate_charge). Roaming assurance recovers it from the partner separately;
  advisers do not contact partner networks.
""",
        )
    )
    b.say(
        "KB-2217: advisers can give up to £25.00 per complaint without a team lead's approval, and credits show on the next invoice. It lists a general code, a broadband code and a port-delay code; the only roaming code in the table was retired in April 2025, so I'll use the code your team lead gave. Goodwill must be a separate credit, never part of the dispute, and the credit note should carry the complaint reference. KB-1980 confirms the duplicate is disputed on the invoice and roaming assurance deals with the partner."
    )

    # 11 — a note following the rule
    b.user("Add a note to the complaint with where we are.")
    b.calls(
        (
            "add_case_note",
            {
                "case_id": COMPLAINT,
                "text": f"{COMPLAINT} - Usage 8-16 June checked. One Turkcell data session of 9 June (412.6 MB) was billed twice after Turkcell re-sent a TAP file; dispute {dispute_id} opened for {gbp(t['duplicate'])}, DD of 2 July reduced. The other out-of-pass charges are correct: data and calls on 8-9 June before RF7 was bought on 10 June.",
            },
            f"note N-{b.number(600000, 699999)} added to {COMPLAINT} (internal) at 2026-06-22 09:51",
        )
    )
    b.say(
        "Added an internal note: the duplicated Turkcell session, the dispute and the reduced direct debit, and that the rest of the out-of-pass roaming is genuine because the pass was only bought on 10 June."
    )

    # 12 — goodwill
    b.user("Put £10 goodwill on the account for the hassle.")
    b.calls(
        (
            "apply_credit",
            {
                "account_id": ACCOUNT,
                "amount_gbp": 10.0,
                "reason_code": GOODWILL,
                "note": f"{COMPLAINT}: duplicated Turkcell roaming session and time spent chasing it.",
            },
            pretty(
                {
                    "credit_id": credit_id,
                    "amount_gbp": 10.0,
                    "reason_code": GOODWILL,
                    "approval": "not required (within adviser limit of £25.00)",
                    "appears_on": "invoice of 2026-07-18",
                }
            ),
        )
    )
    b.say(f"Done: {credit_id}, £10.00 goodwill, on the 18 July invoice; no approval needed.")

    # 13 — SMS to the holder
    b.user("Text Joanna to confirm the dispute and the credit.")
    b.calls(
        (
            "send_sms_to_customer",
            {
                "msisdn": JOANNA,
                "text": f"Hi Joanna, it's Kestrel. We've disputed the roaming data session charged twice on 9 June ({gbp(t['duplicate'])}); your 2 July direct debit will be reduced by that amount. We've also added a £10.00 credit to your July bill for the trouble. Thanks for your patience.",
            },
            pretty(
                {
                    "message_id": f"SMS-{b.hex_id(10)}",
                    "to": JOANNA,
                    "status": "delivered",
                    "delivered_at": "2026-06-22T08:53:40Z",
                }
            ),
        )
    )
    b.say(
        "Sent and delivered to Joanna's mobile: the disputed duplicate, the reduced direct debit and the £10.00 credit."
    )

    # 14 — the port-in, first look
    b.user(
        "Next: her son Ciarán is moving his number over from Meridian. She says she started it a couple of weeks ago and nothing's happened."
    )
    b.calls(
        (
            "get_port_request",
            {"msisdn": CIARAN},
            pretty(
                {
                    "msisdn": CIARAN,
                    "requests": [
                        {
                            "id": OLD_PORT,
                            "case": "SRQ-118204",
                            "created": "2026-06-11T16:02:11+01:00",
                            "donor": {"operator": "Meridian Mobile", "account_type": "consumer"},
                            "pac": {"code": "QXT220481", "issued": "2026-05-08"},
                            "status": "rejected",
                            "rejection": {
                                "by": "donor",
                                "code": "PAC_EXPIRED",
                                "donor_ref": OLD_DONOR_REF,
                                "at": "2026-06-12T09:14:33+01:00",
                                "detail": "PAC older than 30 days",
                            },
                            "sim": {
                                "iccid": ICCID,
                                "type": "physical",
                                "status": "active on temporary number",
                                "delivered": "2026-06-13",
                            },
                            "plan": "FLEX-30",
                        }
                    ],
                }
            ),
        )
    )
    b.say(
        f"The request ({OLD_PORT}, made on 11 June) was rejected by Meridian the next morning because the PAC had expired: it was issued on 8 May and PACs last 30 days. Nobody picked it up since. The Kestrel SIM was delivered on 13 June and is active on a temporary number, so we only need a fresh PAC to resubmit."
    )

    # 15 — resubmit with a new PAC
    b.user(
        "She got a fresh PAC from Meridian this morning: KTV417063. Resubmit it for the earliest date, same SIM, and he goes on Flex 30GB."
    )
    b.calls(
        (
            "submit_port_request",
            {
                "account_id": ACCOUNT,
                "msisdn": CIARAN,
                "pac": "KTV417063",
                "iccid": ICCID,
                "plan_code": "FLEX-30",
            },
            pretty(
                {
                    "request_id": NEW_PORT,
                    "resubmission_of": OLD_PORT,
                    "status": "submitted",
                    "pac": {"code": "KTV417063", "format": "ok"},
                    "requested_port_date": "2026-06-23",
                    "sim": {"iccid": ICCID, "switch": "automatic on the port date"},
                    "plan": "FLEX-30",
                }
            ),
        )
    )
    b.say(
        f"Resubmitted as {NEW_PORT} with the new PAC for the earliest date, tomorrow 23 June, onto the SIM he already has, on Flex 30GB. It's waiting for Meridian to validate it."
    )

    # 16 — the port event log (JSON lines): the accepted port-out's donor reference
    b.user("Has Meridian accepted it yet?")
    b.calls(
        (
            "get_port_request",
            {"msisdn": CIARAN, "include_events": True},
            jsonl(
                {
                    "ts": "2026-06-11T15:02:11Z",
                    "request": OLD_PORT,
                    "event": "created",
                    "channel": "web",
                    "plan": "FLEX-30",
                },
                {
                    "ts": "2026-06-11T15:02:12Z",
                    "request": OLD_PORT,
                    "event": "sim_allocated",
                    "iccid": ICCID,
                    "type": "physical",
                },
                {
                    "ts": "2026-06-11T15:02:40Z",
                    "request": OLD_PORT,
                    "event": "pac_check",
                    "result": "format_ok",
                },
                {
                    "ts": "2026-06-11T15:03:05Z",
                    "request": OLD_PORT,
                    "event": "submitted_to_donor",
                    "donor": "Meridian Mobile",
                },
                {
                    "ts": "2026-06-11T15:03:51Z",
                    "request": OLD_PORT,
                    "event": "donor_ack",
                    "donor_ref": OLD_DONOR_REF,
                },
                {
                    "ts": "2026-06-12T08:14:33Z",
                    "request": OLD_PORT,
                    "event": "donor_reject",
                    "code": "PAC_EXPIRED",
                    "detail": "PAC issued 2026-05-08, valid 30 days",
                },
                {
                    "ts": "2026-06-12T08:14:35Z",
                    "request": OLD_PORT,
                    "event": "customer_notified",
                    "channel": "email",
                    "template": "port_rejected",
                    "delivery": "sent",
                },
                {
                    "ts": "2026-06-12T08:15:02Z",
                    "request": OLD_PORT,
                    "event": "task_created",
                    "queue": "porting",
                    "sla_hours": 24,
                },
                {
                    "ts": "2026-06-13T10:20:02Z",
                    "request": OLD_PORT,
                    "event": "sim_delivered",
                    "carrier": "Royal Mail",
                    "signed_by": "FEENEY",
                },
                {
                    "ts": "2026-06-13T18:47:10Z",
                    "request": OLD_PORT,
                    "event": "sim_activated",
                    "mode": "temporary_number",
                },
                {
                    "ts": "2026-06-14T08:15:02Z",
                    "request": OLD_PORT,
                    "event": "task_sla_breached",
                    "queue": "porting",
                },
                {
                    "ts": "2026-06-15T08:00:00Z",
                    "request": OLD_PORT,
                    "event": "reminder_suppressed",
                    "reason": "request rejected",
                },
                {
                    "ts": "2026-06-22T08:58:31Z",
                    "request": NEW_PORT,
                    "event": "created",
                    "channel": "agent",
                    "resubmission_of": OLD_PORT,
                    "plan": "FLEX-30",
                },
                {
                    "ts": "2026-06-22T08:58:32Z",
                    "request": NEW_PORT,
                    "event": "pac_check",
                    "result": "format_ok",
                },
                {
                    "ts": "2026-06-22T08:58:50Z",
                    "request": NEW_PORT,
                    "event": "submitted_to_donor",
                    "donor": "Meridian Mobile",
                },
                {
                    "ts": "2026-06-22T08:59:37Z",
                    "request": NEW_PORT,
                    "event": "donor_ack",
                    "donor_ref": DONOR_REF,
                },
                {
                    "ts": "2026-06-22T09:03:12Z",
                    "request": NEW_PORT,
                    "event": "donor_accept",
                    "port_date": "2026-06-23",
                    "window": "08:00-18:00",
                },
                {
                    "ts": "2026-06-22T09:03:14Z",
                    "request": NEW_PORT,
                    "event": "customer_notified",
                    "channel": "sms",
                    "to": JOANNA,
                    "template": "port_date_confirmed",
                    "delivery": "delivered",
                },
                {
                    "ts": "2026-06-22T09:03:15Z",
                    "request": OLD_PORT,
                    "event": "task_closed",
                    "reason": "superseded",
                },
            ),
        )
    )
    b.say(
        "Yes. Meridian acknowledged the new request within a minute and accepted it at 10:03: the number moves tomorrow, Tuesday 23 June, some time between 08:00 and 18:00, and Joanna has had the confirmation by SMS. Ciarán's Kestrel SIM switches from the temporary number automatically. The log also shows why nothing happened after the first rejection: a porting task was created on 12 June, breached its 24-hour SLA and was never worked."
    )

    # 17 — note on the port
    b.user("Note that on the complaint too, she raised the port on the call.")
    b.calls(
        (
            "add_case_note",
            {
                "case_id": COMPLAINT,
                "text": f"{COMPLAINT} - Port-in of {CIARAN} from Meridian: first request {OLD_PORT} rejected 12 June (PAC expired) and the porting task breached SLA unworked. Resubmitted today with a new PAC as {NEW_PORT}; Meridian accepted, port date 23 June, Flex 30GB.",
            },
            f"note N-{b.number(600000, 699999)} added to {COMPLAINT} (internal) at 2026-06-22 10:06",
        )
    )
    b.say(
        "Added: the expired PAC, the unworked porting task, and the resubmitted request accepted for tomorrow."
    )

    # 18 — the insurance policy: the excess code four levels deep
    b.user(
        "Now Niamh's phone. She dropped it on Saturday, the screen's black and it won't charge. It's insured with us, isn't it? What does the policy cover?"
    )
    b.calls(
        (
            "get_insurance_claim",
            {"msisdn": NIAMH},
            pretty(
                {
                    "msisdn": NIAMH,
                    "policy": {
                        "number": POLICY,
                        "product": "Kestrel Protect",
                        "status": "active",
                        "start": "2026-03-14",
                        "premium_gbp": 7.99,
                        "underwriter": "Harbour Devices Insurance Ltd",
                        "cover": {
                            "accidental_damage": True,
                            "breakdown_out_of_warranty": True,
                            "theft": True,
                            "loss": False,
                            "liquid_damage": True,
                            "excess": {
                                "band": "B",
                                "code": EXCESS,
                                "amount_gbp": 79.0,
                                "screen_only_gbp": 49.0,
                            },
                            "claims_limit": {"per_12_months": 2, "used": 0},
                            "loan_device": False,
                        },
                        "device": {
                            "make": "Apple",
                            "model": "iPhone 15 128GB",
                            "colour": "pink",
                            "imei": None,
                            "imei_note": f"not captured at sale (bundle {BUNDLE}); required to file a claim",
                        },
                        "history": {
                            "previous_cover": {
                                "product": "Kestrel Protect (legacy)",
                                "device": "iPhone 12 64GB",
                                "ended": "2026-03-13",
                                "excess": {"band": "B", "code": OLD_EXCESS, "amount_gbp": 59.0},
                            }
                        },
                    },
                    "claims": [],
                }
            ),
        )
    )
    b.say(
        f"Yes: Kestrel Protect (policy {POLICY}) since 14 March, £7.99 a month, underwritten by Harbour Devices. It covers accidental damage, breakdown, theft and liquid damage, not loss; the excess is band B, £79 (£49 for a screen-only repair), and she has used none of her two claims a year. One snag: the policy has no IMEI, it wasn't captured when the bundle was sold, and a claim needs one."
    )

    # 19 — the IMEI, found by a query and summarised once; the claim filed with it
    b.user(
        "Find her IMEI and file the claim: accidental damage, she dropped it on the patio on Saturday 20 June, screen black, won't charge or boot."
    )
    b.calls(
        (
            "list_lines",
            {"account_id": ACCOUNT, "include_devices": True},
            pretty(
                {
                    "account_id": ACCOUNT,
                    "lines": [
                        {
                            "msisdn": JOANNA,
                            "user": "Joanna Feeney",
                            "plan": "FLEX-30",
                            "device": {
                                "make": "Apple",
                                "model": "iPhone 15 128GB",
                                "colour": "black",
                                "imei": IMEI_JOANNA,
                                "purchased": "2026-03-14",
                                "bundle": BUNDLE,
                                "financed": {"monthly_gbp": 21.5, "months_left": 21},
                            },
                        },
                        {
                            "msisdn": DECLAN,
                            "user": "Declan Feeney",
                            "plan": "FLEX-UNL",
                            "device": {
                                "make": "Apple",
                                "model": "iPhone 15 128GB",
                                "colour": "blue",
                                "imei": IMEI_DECLAN,
                                "purchased": "2026-03-14",
                                "bundle": BUNDLE,
                                "financed": {"monthly_gbp": 21.5, "months_left": 21},
                            },
                        },
                        {
                            "msisdn": NIAMH,
                            "user": "Niamh Feeney (16)",
                            "plan": "FLEX-10",
                            "device": {
                                "make": "Apple",
                                "model": "iPhone 15 128GB",
                                "colour": "pink",
                                "imei": IMEI,
                                "purchased": "2026-03-14",
                                "bundle": BUNDLE,
                                "financed": {"monthly_gbp": 21.5, "months_left": 21},
                            },
                        },
                    ],
                    "broadband": {
                        "service_id": "BB-2291470",
                        "router": {"model": "Kestrel Hub 6", "serial": "KH6-0B71-3302"},
                    },
                }
            ),
        )
    )
    b.calls(
        (
            "file_insurance_claim",
            {
                "policy_number": POLICY,
                "imei": IMEI,
                "incident_type": "accidental_damage",
                "incident_date": "2026-06-20",
                "description": "Dropped on a stone patio on Saturday 20 June. Screen black, no display; phone will not charge or boot.",
            },
            pretty(
                {
                    "claim_id": claim_id,
                    "policy_number": POLICY,
                    "decision": "accepted",
                    "excess": {
                        "amount_gbp": 79.0,
                        "status": "unpaid",
                        "payment_link": "https://pay.kestrel.example/c/7QF3M",
                    },
                    "fulfilment": {
                        "method": "replacement",
                        "device": "iPhone 15 128GB (refurbished grade A, same colour if in stock)",
                        "dispatch": "within 1 working day of the excess being paid",
                        "return": "damaged phone back in the prepaid bag within 14 days",
                    },
                    "device_block": "not applied (damage claim)",
                }
            ),
        )
    )
    b.say(
        f"Niamh's handset is the pink iPhone 15 on {NIAMH}, IMEI {IMEI}; the three phones from the March bundle have almost identical IMEIs, so I matched it by her number. Claim {claim_id} is filed and accepted for accidental damage: a grade-A refurbished replacement goes out within one working day of the £79 excess being paid, and the broken phone goes back in a prepaid bag within 14 days."
    )

    # 20 — claim state (no IMEI any more)
    b.user("Will she get a loan phone in the meantime?")
    b.calls(
        (
            "get_insurance_claim",
            {"claim_id": claim_id},
            pretty(
                {
                    "claim_id": claim_id,
                    "state": "accepted_awaiting_excess",
                    "excess": {
                        "amount_gbp": 79.0,
                        "status": "unpaid",
                        "link_expires": "2026-06-29T23:59:00+01:00",
                    },
                    "loan_device": {
                        "eligible": False,
                        "reason": "not included in Kestrel Protect (Protect Plus only)",
                    },
                    "fulfilment": {
                        "method": "replacement",
                        "courier": "DPD",
                        "eta": "next working day after dispatch",
                    },
                    "timeline": [
                        {"at": "2026-06-22T09:11:47Z", "event": "claim filed by agent"},
                        {"at": "2026-06-22T09:11:49Z", "event": "auto-decision: accepted"},
                        {"at": "2026-06-22T09:11:50Z", "event": "excess link created"},
                    ],
                }
            ),
        )
    )
    b.say(
        "No: a loan phone is only part of Protect Plus, not her Kestrel Protect. The replacement goes by DPD the next working day after dispatch, so if the excess is paid today she'd have it on Wednesday or Thursday. Meanwhile her eSIM can be moved to any unlocked spare phone with a QR code from the app. The excess link is valid until 29 June."
    )

    # 21 — excess link by SMS
    b.user("Send Joanna the excess payment link, she'll pay it tonight.")
    b.calls(
        (
            "send_sms_to_customer",
            {
                "msisdn": JOANNA,
                "text": "Hi Joanna, it's Kestrel. Niamh's insurance claim is accepted. To release her replacement iPhone, please pay the £79.00 excess here: https://pay.kestrel.example/c/7QF3M (valid until 29 June). It ships within one working day of payment.",
            },
            pretty(
                {
                    "message_id": f"SMS-{b.hex_id(10)}",
                    "to": JOANNA,
                    "status": "delivered",
                    "delivered_at": "2026-06-22T09:14:02Z",
                }
            ),
        )
    )
    b.say("Delivered: the £79.00 excess link for Niamh's claim, valid until 29 June.")

    # 22 — the new address (look-alike neighbour in the coverage result)
    b.user(
        f"Right, the broadband. They're moving house on Friday 3 July, to {NEW_ADDRESS}, Bristol BS7 9LQ. Can we get fibre there?"
    )
    b.calls(
        (
            "check_address_coverage",
            {"postcode": "BS7 9LQ", "building": "23"},
            pretty(
                {
                    "postcode": "BS7 9LQ",
                    "matches": [
                        {
                            "uprn": "000010247718",
                            "address": f"{NEW_ADDRESS}, Bristol BS7 9LQ",
                            "match": "exact",
                            "technology": {
                                "fttp": {
                                    "available": True,
                                    "max_down_mbps": 900,
                                    "max_up_mbps": 110,
                                    "ont_installed": False,
                                    "install": "engineer required",
                                },
                                "fttc": {"available": True, "est_down_mbps": 62},
                            },
                            "existing_line": {"status": "none"},
                        },
                        {
                            "uprn": "000010247727",
                            "address": f"{NEIGHBOUR}, Bristol BS7 9LQ",
                            "match": "similar",
                            "technology": {
                                "fttp": {
                                    "available": True,
                                    "max_down_mbps": 900,
                                    "max_up_mbps": 110,
                                    "ont_installed": True,
                                    "install": "self-install",
                                },
                                "fttc": {"available": True, "est_down_mbps": 58},
                            },
                            "existing_line": {"status": "active", "provider": "other"},
                        },
                    ],
                    "products": ["FIBRE-150", "FIBRE-500", "FIBRE-900"],
                }
            ),
        )
    )
    b.say(
        "Yes: the exact match (UPRN 000010247718) gets full fibre up to 900 Mbps, so Fibre 500 is fine, but there is no fibre box (ONT) in the house yet, so an engineer has to install one. The search also returned number 32 on the same road, which already has a box, but that's a different house; I'll use the exact match."
    )

    # 23 — the home move order
    b.user("Set up the home move, keep her on Fibre 500, live from the 3rd.")
    b.calls(
        (
            "create_home_move",
            {
                "account_id": ACCOUNT,
                "uprn": "000010247718",
                "move_date": "2026-07-03",
                "product_code": "FIBRE-500",
            },
            pretty(
                {
                    "order_id": move_id,
                    "status": "awaiting_appointment",
                    "old_service": {
                        "service_id": "BB-2291470",
                        "address": f"{OLD_ADDRESS}, Bristol BS6 6AL",
                        "cease_date": "2026-07-03",
                    },
                    "new_service": {
                        "address": f"{NEW_ADDRESS}, Bristol BS7 9LQ",
                        "uprn": "000010247718",
                        "product": "FIBRE-500",
                        "engineer_required": True,
                    },
                    "router": "Kestrel Hub 6 moves with the customer",
                    "contract": "no change (1-month rolling)",
                    "available_slots": [
                        {"date": "2026-07-03", "slot": "PM"},
                        {"date": "2026-07-06", "slot": "AM"},
                        {"date": "2026-07-07", "slot": "PM"},
                        {"date": "2026-07-09", "slot": "AM"},
                        {"date": "2026-07-09", "slot": "PM"},
                        {"date": "2026-07-10", "slot": "AM"},
                        {"date": "2026-07-13", "slot": "PM"},
                        {"date": "2026-07-14", "slot": "AM"},
                    ],
                }
            ),
        )
    )
    b.say(
        f"Home move {move_id} is created: the Cotham Grove line stops on 3 July, and Fibre 500 at the new house needs an engineer for the fibre box. The router moves with them. Free slots: Friday 3 July afternoon, Monday 6 July morning, Tuesday 7 July afternoon, Thursday 9 July morning or afternoon, Friday 10 July morning, then the following week. Which one suits her?"
    )

    # 24 — the engineer date (revised at turn 31)
    b.user("Book Thursday 9 July, morning. Joanna's working from home that day.")
    b.calls(
        (
            "schedule_engineer",
            {
                "order_id": move_id,
                "date": "2026-07-09",
                "slot": "AM",
                "notes": "New FTTP install, ONT and router. Customer home all day; ring mobile on arrival.",
            },
            pretty(
                {
                    "appointment_id": first_visit,
                    "order_id": move_id,
                    "date": "2026-07-09",
                    "slot": "AM",
                    "window": "08:00-13:00",
                    "work": "FTTP install (ONT + activation)",
                    "status": "booked",
                    "reminder": "SMS the day before",
                }
            ),
        )
    )
    b.say(
        f"Booked: {first_visit}, Thursday 9 July between 08:00 and 13:00, for the fibre box and activation. Joanna gets a reminder text the day before."
    )

    # 25 — the old line and the router
    b.user("What happens to the old line at Cotham Grove? Does anything need sending back?")
    b.calls(
        (
            "search_kb",
            {"query": "home move old line cease router return"},
            """\
2 articles match "home move old line cease router return"

KB-3104  Broadband home moves   (updated 2026-04-30, owner: Broadband Operations)
  The old line ceases on the order's cease date; the customer keeps the same account,
  price and contract. The router moves with the customer: do not send a returns bag.
  If the install at the new address is later than the move date, advisers may keep the
  old line live until the install (set the cease date to the appointment day) or offer a
  4G Home Hub loan (free, 30 days). FTTP at the new address: the engineer fits the ONT and
  the customer plugs the router into it.

KB-3117  Returning equipment   (updated 2026-01-19)
  Only on cancellation: routers and boosters go back within 30 days or a £60 charge applies.
""",
        )
    )
    b.say(
        "Nothing goes back: on a home move the Kestrel Hub 6 moves with them and the old line simply stops on the cease date, with the same account, price and contract. A returns bag is only for cancellations. KB-3104 also says that if the install is after the move date we can keep the old line live until the appointment, or lend a free 4G Home Hub for 30 days; with the move on 3 July and the engineer on the 9th they'd be without fixed broadband for six days."
    )

    # 26 — note about the move
    b.user("Fine for now, she'll use her phone hotspot for a few days. Add a note about the move.")
    b.calls(
        (
            "add_case_note",
            {
                "case_id": COMPLAINT,
                "text": f"{COMPLAINT} - Home move {move_id}: broadband from {OLD_ADDRESS} to {NEW_ADDRESS}, Bristol BS7 9LQ, Fibre 500. Old line ceases 3 July; FTTP install booked {first_visit}, 9 July AM. Customer declined the 4G hub loan for the gap.",
            },
            f"note N-{b.number(600000, 699999)} added to {COMPLAINT} (internal) at 2026-06-22 10:24",
        )
    )
    b.say(
        "Added: the move order, the cease date, the booked install and that she declined the 4G hub for the gap."
    )

    # 27 — the plan catalogue (YAML): the four-line discount code lives only here
    b.user(
        "Last big one: she wants the family's plans sorted once Ciarán's number is in, so four lines. What's in the catalogue?"
    )
    b.calls(
        (
            "get_plan_catalog",
            {"segment": "family"},
            f"""\
catalogue: consumer-mobile / family
version: 2026.06
effective_from: 2026-06-01
currency: GBP
prices_include_vat: true
plans:
  - code: FLEX-10
    name: Flex 10GB
    monthly: 12.00
    data_gb: 10
    minutes: unlimited
    texts: unlimited
    contract: 1-month rolling
    roaming:
      europe: Roam Easy included (up to 30 days per trip)
      rest_of_world: Roam Further pass needed
    controls:
      spend_cap: true
      content_lock: true
  - code: FLEX-30
    name: Flex 30GB
    monthly: 18.00
    data_gb: 30
    minutes: unlimited
    texts: unlimited
    contract: 1-month rolling
    roaming:
      europe: Roam Easy included (up to 30 days per trip)
      rest_of_world: Roam Further pass needed
    controls:
      spend_cap: true
      content_lock: true
  - code: FLEX-UNL
    name: Flex Unlimited
    monthly: 25.00
    data_gb: unlimited
    minutes: unlimited
    texts: unlimited
    contract: 1-month rolling
    roaming:
      europe: Roam Easy included (up to 30 days per trip, 25GB fair use)
      rest_of_world: Roam Further pass needed
    controls:
      spend_cap: true
      content_lock: true
  - code: FAM-SHARE-100
    name: Family Share 100GB
    monthly_base: 45.00
    base_includes_lines: 2
    extra_line: 7.50
    lines: 2-6
    data_pool_gb: 100
    minutes: unlimited
    texts: unlimited
    contract: 24 months
    roaming:
      europe: Roam Easy included
      rest_of_world: Roam Further pass needed (per line)
    controls:
      per_line_data_limit: true
      content_lock: true
      spend_cap: false
    billing: one bill to the account holder for the whole pool
  - code: FAM-SHARE-UNL
    name: Family Share Unlimited
    monthly_base: 60.00
    base_includes_lines: 2
    extra_line: 12.00
    lines: 2-6
    data_pool_gb: unlimited
    contract: 24 months
    controls:
      per_line_data_limit: true
      content_lock: true
      spend_cap: false
discounts:
  multi_line:
    applies_to: [FLEX-10, FLEX-30, FLEX-UNL]
    basis: monthly plan price of every Flex line on the account
    tiers:
      - {{lines: 2, percent: 10, code: MLD-10-2L}}
      - {{lines: 3, percent: 15, code: {OLD_DISCOUNT}}}
      - {{lines: 4, percent: 20, code: {DISCOUNT}}}
      - {{lines: 5, percent: 25, code: MLD-25-5L}}
    note: the tier is recalculated automatically on the first bill after the line count changes
  loyalty:
    code: LOY-5Y
    rule: 5% off broadband after 5 years' tenure, not combinable with home-move offers
bolt_ons:
  - {{code: RF1, name: Roam Further 1 day, price: 5.00}}
  - {{code: RF7, name: Roam Further 7 days, price: 25.00}}
  - {{code: RF30, name: Roam Further 30 days, price: 60.00}}
""",
        )
    )
    b.say(
        "Two families of plans. Flex plans are priced per line, rolling monthly: Flex 10GB £12, Flex 30GB £18 and Flex Unlimited £25, all with Roam Easy in Europe, spend caps and content lock; the multi-line discount on Flex goes up with the number of lines: 15% at three lines today, 20% at four, applied automatically on the first bill after the line count changes. Family Share is one data pool on a 24-month contract: 100GB for £45 covering two lines plus £7.50 per extra line, or unlimited for £60 plus £12 per extra line, with per-line data limits and content lock."
    )

    # 28 — the option the assistant proposes
    b.user("What would you suggest?")
    b.say(
        "I'd suggest Family Share 100GB for all four lines: £45 for the first two plus £7.50 each for the other two, so £60.00 a month, against £64.00 on Flex (Joanna and Declan on Unlimited, Niamh on 10GB and Ciarán on 30GB is £80.00 less 20%). A 100GB pool is plenty for the four of them, and we could set a per-line data limit on Niamh's line to keep her usage in check."
    )

    # 29 — the rejection with its reason
    b.user(
        "No, not the shared plan. A data limit isn't the same thing: Niamh's line has to keep its £15 spend cap, and Family Share can't carry a spend cap. Joanna was very clear about that after Niamh ran up premium charges last year. And she doesn't want a 24-month contract anyway."
    )
    b.say(
        "Understood: no Family Share, because it can't carry the spend cap Niamh's line must keep, and Joanna doesn't want a 24-month term. We stay on Flex."
    )

    # 30 — the plan change
    b.user(
        "Keep them on Flex and let the multi-line discount do the work. Move Joanna up to Flex Unlimited, she keeps running out. Declan stays as he is, Niamh stays on Flex 10GB with her cap, and Ciarán's already going on Flex 30GB with the port."
    )
    b.calls(
        (
            "change_plan",
            {"msisdn": JOANNA, "plan_code": "FLEX-UNL", "effective": "now"},
            pretty(
                {
                    "msisdn": JOANNA,
                    "from": {"code": "FLEX-30", "monthly_gbp": 18.0},
                    "to": {"code": "FLEX-UNL", "monthly_gbp": 25.0},
                    "effective": "2026-06-22",
                    "prorata": {
                        "period": "2026-06-22..2026-07-17",
                        "amount_gbp": 6.07,
                        "on_invoice": "2026-07-18",
                    },
                    "spend_cap_gbp": None,
                    "discount": {
                        "current": OLD_DISCOUNT,
                        "next": "tier recalculated automatically on the first bill with 4 active Flex lines",
                    },
                }
            ),
        )
    )
    b.say(
        "Joanna is on Flex Unlimited from today: £25 a month, with £6.07 pro-rata for the rest of this billing month on the July invoice. Declan and Niamh are unchanged, Niamh keeps her £15 cap, and Ciarán joins on Flex 30GB with tomorrow's port. Once his line is active, the discount moves from 15% to 20% on its own: £80.00 of Flex plans becomes £64.00 a month."
    )

    # 31 — the revision
    b.user(
        "Change of plan on the engineer: the keys handover has slipped and they won't have the house until Saturday 11 July. Move the engineer to Monday 13 July, afternoon, and keep the Cotham Grove line running until then so they're never without broadband."
    )
    b.calls(
        (
            "schedule_engineer",
            {
                "order_id": move_id,
                "appointment_id": first_visit,
                "date": "2026-07-13",
                "slot": "PM",
                "notes": "New FTTP install, ONT and router. Keys from 11 July; ring mobile on arrival.",
            },
            pretty(
                {
                    "appointment_id": second_visit,
                    "replaces": {"appointment_id": first_visit, "status": "cancelled"},
                    "order_id": move_id,
                    "date": "2026-07-13",
                    "slot": "PM",
                    "window": "13:00-18:00",
                    "order": {
                        "move_date": "2026-07-13",
                        "old_service_cease": "2026-07-13",
                        "note": "cease aligned to the install day (no gap)",
                    },
                    "status": "booked",
                }
            ),
        )
    )
    b.say(
        f"Rebooked: {second_visit}, Monday 13 July between 13:00 and 18:00; the Thursday appointment is cancelled. The Cotham Grove line now stays live until the same day, so there's no gap."
    )

    # 32 — Niamh's cap
    b.user("Double-check Niamh's spend cap survived all this.")
    b.calls(
        (
            "list_lines",
            {"account_id": ACCOUNT},
            pretty(
                {
                    "account_id": ACCOUNT,
                    "lines": [
                        {
                            "msisdn": JOANNA,
                            "user": "Joanna Feeney",
                            "plan": {
                                "code": "FLEX-UNL",
                                "monthly_gbp": 25.0,
                                "since": "2026-06-22",
                            },
                            "spend_cap_gbp": None,
                        },
                        {
                            "msisdn": DECLAN,
                            "user": "Declan Feeney",
                            "plan": {"code": "FLEX-UNL", "monthly_gbp": 25.0},
                            "spend_cap_gbp": None,
                        },
                        {
                            "msisdn": NIAMH,
                            "user": "Niamh Feeney (16)",
                            "plan": {"code": "FLEX-10", "monthly_gbp": 12.0},
                            "spend_cap_gbp": 15.0,
                            "controls": {"content_lock": True, "premium_sms_barred": True},
                            "insurance": {"policy": POLICY, "open_claim": claim_id},
                        },
                    ],
                    "pending_lines": [
                        {
                            "msisdn": CIARAN,
                            "reason": "port-in",
                            "request": NEW_PORT,
                            "port_date": "2026-06-23",
                            "plan": "FLEX-30",
                        }
                    ],
                    "broadband": {
                        "service_id": "BB-2291470",
                        "product": "FIBRE-500",
                        "pending_order": move_id,
                    },
                }
            ),
        )
    )
    b.say(
        f"Yes: Niamh is still on Flex 10GB with the £15 spend cap, content lock and premium texts barred, and her open claim {claim_id} is on the line. Joanna shows Flex Unlimited since today and Ciarán is pending for tomorrow on Flex 30GB."
    )

    # 33 — Europe roaming (noise)
    b.user(
        "Declan's asking: they're in Spain for a week in August. Does Flex Unlimited cover that, or does he need a pass again?"
    )
    b.calls(
        (
            "search_kb",
            {"query": "roaming Spain Europe Flex Roam Easy fair use"},
            """\
1 article matches "roaming Spain Europe Flex Roam Easy fair use"

KB-1902  Roam Easy: using Flex plans in Europe   (updated 2026-03-02, owner: Product)
  Flex plans include Roam Easy in 47 European destinations (Zone Europe, incl. Spain, the
  Canaries and the Balearics): UK minutes, texts and data at no extra cost for up to 30
  days per trip. Fair use on Flex Unlimited: 25GB per month abroad, then 3p/MB.
  Not included: Turkey, Switzerland and Andorra are World zone B (Roam Further passes).
  No opt-in needed; customers get a welcome SMS on arrival.
""",
        )
    )
    b.say(
        "No pass needed for Spain: it's in Zone Europe, so Roam Easy covers his UK minutes, texts and data for up to 30 days per trip, with 25GB of data a month on Flex Unlimited before 3p per MB. Turkey was different because it's World zone B, which is why he needed the Roam Further pass there."
    )

    # 34 — the July draft
    b.user("What will her July bill look like, roughly?")
    july = round(25.0 + 6.07 + 25.0 + 12.0 + 7.99 + 18.0 + 15.0 - 16.0 + 32.0 - 10.0, 2)
    b.calls(
        (
            "get_invoice",
            {"account_id": ACCOUNT, "period": "2026-07"},
            pretty(
                {
                    "invoice": {
                        "id": "INV-2607-3307158",
                        "state": "draft",
                        "issue_date": "2026-07-18",
                        "sections": [
                            {
                                "msisdn": JOANNA,
                                "plan": {"code": "FLEX-UNL", "amount": 25.0},
                                "prorata": {
                                    "description": "FLEX-30 to FLEX-UNL from 22 Jun",
                                    "amount": 6.07,
                                },
                            },
                            {"msisdn": DECLAN, "plan": {"code": "FLEX-UNL", "amount": 25.0}},
                            {
                                "msisdn": NIAMH,
                                "plan": {"code": "FLEX-10", "amount": 12.0},
                                "insurance": {"amount": 7.99},
                            },
                            {
                                "msisdn": CIARAN,
                                "state": "pending port 2026-06-23",
                                "plan": {"code": "FLEX-30", "amount": 18.0},
                                "prorata": {"description": "23 Jun to 17 Jul", "amount": 15.0},
                            },
                            {
                                "service": "BB-2291470",
                                "plan": {"code": "FIBRE-500", "amount": 32.0},
                                "note": "home move pending, no charge",
                            },
                        ],
                        "discounts": [
                            {
                                "description": "Multi-line 20% on 4 Flex lines (from the port date)",
                                "amount": -16.0,
                            }
                        ],
                        "credits": [{"id": credit_id, "reason_code": GOODWILL, "amount": -10.0}],
                        "disputes": [
                            {
                                "id": dispute_id,
                                "invoice": INVOICE,
                                "amount": t["duplicate"],
                                "state": "open",
                                "effect": "held back from the 2 July collection",
                            }
                        ],
                        "estimated_total": july,
                        "caveats": [
                            "usage from 18 Jun not yet rated",
                            "dispute outcome not included",
                        ],
                    }
                }
            ),
        )
    )
    b.say(
        f"About {gbp(july)}: £80.00 of Flex plans less the 20% four-line discount (£16.00), £6.07 pro-rata for Joanna's upgrade and £15.00 pro-rata for Ciarán from 23 June, Niamh's insurance £7.99, broadband £32.00 (no charge for the move), less the £10.00 goodwill credit. Usage isn't rated yet, and the disputed {gbp(t['duplicate'])} is handled on the June bill."
    )

    # 35 — summary SMS
    b.user(
        "Send Joanna a text summarising everything: dispute, credit, port, claim, engineer and plans. No internal references."
    )
    b.calls(
        (
            "send_sms_to_customer",
            {
                "msisdn": JOANNA,
                "text": f"Hi Joanna, a summary from Kestrel: the double roaming charge ({gbp(t['duplicate'])}) is disputed and held back from your 2 July payment; £10 credit on your July bill. Ciarán's number moves to us tomorrow, 23 June. Niamh's replacement ships once the £79 excess is paid. Fibre engineer at your new home Monday 13 July, 1-6pm; Cotham Grove stays live until then. You're now on Flex Unlimited, and your multi-line discount rises to 20% with four lines.",
            },
            pretty(
                {
                    "message_id": f"SMS-{b.hex_id(10)}",
                    "to": JOANNA,
                    "status": "delivered",
                    "segments": 4,
                    "delivered_at": "2026-06-22T09:41:18Z",
                }
            ),
        )
    )
    b.say(
        "Delivered: the dispute and credit, tomorrow's port, the excess for Niamh's replacement, the 13 July engineer with the old line live until then, and the plan change with the bigger discount. No case or claim numbers."
    )

    # 36 — open cases and SLAs
    b.user("Where do her open cases stand against their SLAs?")
    b.calls(
        (
            "get_case_history",
            {"account_id": ACCOUNT, "status": "open"},
            f"""\
4 open cases for {ACCOUNT} (newest first)
case_id     type       subject                                          status             opened      owner            sla
{move_id}   order      Home move BB-2291470 to BS7 9LQ                  awaiting install   2026-06-22  bb-operations    install 2026-07-13 PM
{claim_id}  claim      Kestrel Protect: accidental damage, {NIAMH}  awaiting excess    2026-06-22  harbour-claims   dispatch 1 wd after excess
{COMPLAINT}   complaint  June bill: roaming charges on {DECLAN}       in progress        2026-06-19  complaints-L2    first contact met 2026-06-22; final response by 2026-07-03
SRQ-118204  service    Port-in {CIARAN} from Meridian Mobile        scheduled          2026-06-11  porting          port 2026-06-23
""",
        )
    )
    b.say(
        "All inside their SLAs: the complaint's first-contact deadline is met by today's call and its final response is due by 3 July; the port is scheduled for tomorrow; the claim dispatches a working day after the excess; the home move installs on 13 July."
    )

    # 37 — what's left, in a note
    b.user("Put a final note on the complaint with what's left.")
    b.calls(
        (
            "add_case_note",
            {
                "case_id": COMPLAINT,
                "text": f"{COMPLAINT} - Called customer 22 June. Left: dispute {dispute_id} decision due 6 July; final complaint response by 3 July; excess for {claim_id} (link sent); port {NEW_PORT} 23 June, then the 4-line discount applies; FTTP install 13 July PM ({second_visit}), old line live until then. Roaming assurance partner claim to be updated by the adviser after the call.",
            },
            f"note N-{b.number(600000, 699999)} added to {COMPLAINT} (internal) at 2026-06-22 10:47",
        )
    )
    b.say(
        "Added a final note listing what's left: the dispute decision and final response, the excess, tomorrow's port and the discount, the 13 July install, and the partner-claim update you're doing."
    )

    # 38
    b.user(
        "Brilliant, thanks. I'll ring Joanna back before the direct debit, and I'll add her account to roaming assurance's wholesale claim myself after the call."
    )
    b.say(
        "You're welcome. Everything else is booked: the dispute, the credit, tomorrow's port, the claim, the move and the plan change, and the complaint's notes say what's left for the callback."
    )
    return b


def main() -> None:
    b = build()
    check_once(b, WHOLESALE, [(5, "tool")])
    check_once(b, DUPLICATE, [(7, "tool")])
    check_once(b, DONOR_REF, [(16, "tool")])
    check_once(b, EXCESS, [(18, "tool")])
    check_once(b, DISCOUNT, [(27, "tool")])
    check_once(b, AUTHORISED, [(9, "user")])
    check_once(b, IMEI, [(19, "tool"), (19, "call"), (19, "assistant")])
    check_once(b, GOODWILL, [(3, "user"), (12, "call"), (12, "tool"), (34, "tool")])
    check_once(b, NEW_ADDRESS, [(22, "user"), (22, "tool"), (23, "tool"), (26, "call")])
    write_fixture(b, HERE, TOOLS, PROBES)


if __name__ == "__main__":
    main()
