"""Generate the biobank fixture: a 32-turn sample shipment whose tools answer in structures.

A study coordinator and the agent ship the HEART-22 study's baseline plasma from the
Leeds biobank to the partner lab at Erasmus MC, Rotterdam. Every tool answers the way real
lab systems do: pretty-printed nested JSON objects, JSON-lines freezer and mail logs, CSV
manifests and YAML protocol sections. Facts of the kinds the held-out sessions lost, each
planted once, several deep inside a structure:

* turn 3, the user's standing rules: chain-of-custody notes start with the deviation
  reference DEV-6093; every shipment cost is billed to the grant code GR-20931 (the study's
  default code GR-20913 sits in the study record);
* turn 2, a look-alike address deep in a JSON object: the partner's sample-intake mailbox is
  intake@biobank-erasmus.nl (``contacts.partner_lab.notify.email``); the old
  intake@erasmus-biobank.nl bounced (it reappears in a JSON-lines mail log at turn 25);
* turn 5, only in a JSON object four levels deep: import permit IMP-77831-NL
  (``site.receiving.import_permit.number``; the expired IMP-77813-NL beside it);
* turn 7, only in one line of a JSON-lines freezer log: box BX-0447 was moved to freezer
  FRZ-14 during the alarm (FRZ-09 is where it was, FRZ-41 holds another box);
* turn 8, only in a YAML protocol section: the out-of-hours escalation contact is Leona
  Marchetti (the in-hours one is Tomasz Wierzbicki);
* turn 9, said once by the user: the receiving technician is Ines Carvalho;
* turn 11, only in one row of a CSV manifest: aliquot AQ-5512-07 is flagged LOW_VOLUME
  (AQ-5521-07 look alike);
* turn 13, found by a query and summarised once: participant HRT-0193 withdrew consent
  (HRT-0139, HRT-1093 look alike);
* turn 10 → revised at turn 23: courier World Courier → Marken;
* turn 17, a rejected decision with its reason: the low-volume aliquot is not pooled with its
  sibling, since pooling breaks the one-aliquot-one-consent traceability the ethics approval
  requires.

    python examples/transcripts/biobank/make.py   # rewrites the three files beside it

Written for issue 12 (2026-12-05) before any change to ``retrieval`` for structured tool
results; ``retrieval`` is tuned on it, ``support`` and ``payroll``.
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
    p,
    pretty,
    tool,
    write_fixture,
)

SEED = 6121
STUDY = "HEART-22"
DEVIATION = "DEV-6093"
GRANT = "GR-20931"
PERMIT = "IMP-77831-NL"
FREEZER = "FRZ-14"
ESCALATION = "Leona Marchetti"
TECHNICIAN = "Ines Carvalho"
ALIQUOT = "AQ-5512-07"
PARTICIPANT = "HRT-0193"
EMAIL = "intake@biobank-erasmus.nl"
OLD_EMAIL = "intake@erasmus-biobank.nl"
SHIPMENT = "SHP-7c20e4"
SITE = "ERASMUS-RTM"


def lines(*records: dict[str, Any]) -> str:
    return "\n".join(json.dumps(r, ensure_ascii=False) for r in records)


TOOLS = [
    tool(
        "find_study",
        "Find studies by code or title. Returns JSON: a list of studies with code, title, "
        "sponsor, status and principal investigator.",
        {"query": p("Study code or words of the title, e.g. 'HEART'.")},
        ["query"],
    ),
    tool(
        "get_study",
        "Read one study record as JSON: sponsor, ethics approval, finance codes, contacts "
        "of every site, sample types and visit schedule.",
        {"study": p("Study code, e.g. HEART-22.")},
        ["study"],
    ),
    tool(
        "search_deviations",
        "List protocol deviations of a study as a fixed-width table: reference, opened, "
        "status and title.",
        {
            "study": p("Study code."),
            "status": p("open, closed or all (default all).", enum=["open", "closed", "all"]),
        },
        ["study"],
    ),
    tool(
        "get_partner_site",
        "Read a partner site's record as JSON: address, receiving dock and hours, import "
        "permits, accepted temperatures and contacts.",
        {"site_id": p("Partner site id, e.g. ERASMUS-RTM.")},
        ["site_id"],
    ),
    tool(
        "list_boxes",
        "List the storage boxes holding a study's samples, as CSV: box, freezer, rack, "
        "shelf, sample count, visit.",
        {"study": p("Study code."), "visit": p("Visit name, e.g. baseline.")},
        ["study"],
    ),
    tool(
        "get_freezer_log",
        "Read a freezer's event log as JSON lines (one event per line): temperature "
        "readings, alarms, door openings and box movements.",
        {
            "freezer_id": p("Freezer id, e.g. FRZ-01."),
            "since": p("First timestamp, ISO 8601."),
            "until": p("Last timestamp, ISO 8601."),
        },
        ["freezer_id", "since"],
    ),
    tool(
        "get_protocol",
        "Read a section of a study's lab manual as YAML (storage, shipping, acceptance, "
        "escalation, customs).",
        {"study": p("Study code."), "section": p("Section name, e.g. storage.")},
        ["study", "section"],
    ),
    tool(
        "get_aliquots",
        "List the aliquots in a set of boxes as CSV: aliquot id, participant, box, "
        "position, matrix, volume, collection date and flags.",
        {
            "boxes": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Box ids, e.g. ['BX-0101'].",
            }
        },
        ["boxes"],
    ),
    tool(
        "search_shipments",
        "Search shipments by study and status. Returns JSON: each shipment with its boxes, "
        "courier, dates and state.",
        {
            "study": p("Study code."),
            "status": p(
                "draft, booked, delivered, cancelled or all.",
                enum=["draft", "booked", "delivered", "cancelled", "all"],
            ),
        },
        ["study"],
    ),
    tool(
        "get_shipment",
        "Read one shipment as JSON: boxes, manifest counts, courier, logger, documents "
        "and state history.",
        {"shipment_id": p("Shipment id, e.g. SHP-1a2b3c.")},
        ["shipment_id"],
    ),
    tool(
        "query_consents",
        "List consent changes in a study since a date, as CSV: participant, change, date "
        "and what happens to stored samples.",
        {"study": p("Study code."), "since": p("First day, YYYY-MM-DD.")},
        ["study", "since"],
    ),
    tool(
        "update_manifest",
        "Change a draft shipment's manifest: remove aliquots by id or by flag. Returns JSON "
        "with the counts before and after.",
        {
            "shipment_id": p("Shipment id."),
            "remove": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Aliquot ids to remove.",
            },
            "exclude_flag": p("Remove every aliquot carrying this flag, e.g. HEMOLYSIS."),
            "comment": p("Why (kept in the manifest history)."),
        },
        ["shipment_id"],
    ),
    tool(
        "get_courier_quote",
        "Ask a courier for a quote and pickup slots for a shipment. Returns JSON.",
        {
            "shipment_id": p("Shipment id."),
            "courier": p("Courier name."),
            "pickup_date": p("Wanted pickup day, YYYY-MM-DD."),
        },
        ["shipment_id", "courier"],
    ),
    tool(
        "update_shipment",
        "Change a draft shipment's courier, pickup date or cost code. Returns JSON with old "
        "and new values.",
        {
            "shipment_id": p("Shipment id."),
            "courier": p("Courier name."),
            "pickup_date": p("Pickup day, YYYY-MM-DD."),
            "cost_code": p("Finance code billed."),
        },
        ["shipment_id"],
    ),
    tool(
        "book_pickup",
        "Book the courier pickup for a shipment. Irreversible without the courier's "
        "cancellation fee.",
        {"shipment_id": p("Shipment id."), "slot": p("Pickup slot id from the quote.")},
        ["shipment_id", "slot"],
    ),
    tool(
        "add_custody_note",
        "Add a chain-of-custody note to a shipment (kept with the samples for audit).",
        {"shipment_id": p("Shipment id."), "text": p("The note.")},
        ["shipment_id", "text"],
    ),
    tool(
        "get_mail_log",
        "Read the biobank mailbox's delivery log as JSON lines: message, recipient, status.",
        {
            "recipient_domain": p("Only messages to this domain."),
            "since": p("First day, YYYY-MM-DD."),
        },
        [],
    ),
    tool(
        "get_current_time",
        "Return the current date and time in a time zone.",
        {"timezone": p("IANA time zone, default UTC.")},
        [],
    ),
]

PROBES = f"""\
# Eleven facts of the kinds the held-out sessions lost, five of them deep inside a structured
# tool result (nested JSON, JSON lines, CSV, YAML); six phrasings each.
- id: deviation_ref
  kind: rule
  planted_turn: 3
  question:
    - "You are about to add a custody note. What must it start with?"
    - "Which reference goes at the front of every chain-of-custody note?"
    - "Remind me of the deviation reference I asked you to use in notes."
    - "Write the first word of the next custody note you will add."
    - "What prefix do the custody notes for this shipment need?"
    - "Before the final note: which reference must it begin with?"
  expected: "{DEVIATION}"
  distractors: ["DEV-6039"]
- id: grant_code
  kind: rule
  planted_turn: 3
  question:
    - "Which finance code is the shipment billed to?"
    - "Fill in the cost_code field of the shipment. What value?"
    - "The study has a default code; which one did I say shipping goes to?"
    - "What code must every shipment cost in this study use?"
    - "State the grant code for the courier invoice."
    - "Before booking: which budget code does the pickup go against?"
  expected: "{GRANT}"
  distractors: ["GR-20913"]
- id: notify_email
  kind: lookalike
  planted_turn: 2
  question:
    - "To which address should the pre-alert for the partner lab go?"
    - "What is the partner lab's sample intake email?"
    - "Fill in the 'to' field of the pre-alert. Which address?"
    - "Which email address is right for the Rotterdam intake team now?"
    - "The last pre-alert bounced. Where should it go instead?"
    - "State the receiving lab's notification address."
  expected: "{EMAIL}"
  distractors: ["{OLD_EMAIL}"]
- id: import_permit
  kind: tool_result
  planted_turn: 5
  question:
    - "Which import permit number goes on the customs paperwork?"
    - "Fill in the import_permit field of the pro-forma. What is it?"
    - "The partner's old permit expired. What is the number of the valid one?"
    - "Under which import permit does Erasmus receive our samples?"
    - "What permit number does the partner site record give for receiving?"
    - "Before the courier collects: state the receiving site's import permit."
  expected: "{PERMIT}"
  distractors: ["IMP-77813-NL"]
- id: box_freezer
  kind: tool_result
  planted_turn: 7
  question:
    - "Which freezer is box BX-0447 in now?"
    - "Where was BX-0447 moved during the freezer alarm?"
    - "Fill in the freezer to pull BX-0447 from for packing. Which one?"
    - "BX-0447 is not in its usual freezer. Which freezer holds it?"
    - "State the current freezer of the box that was relocated."
    - "Before packing: which freezer do I open to get BX-0447?"
  expected: "{FREEZER}"
  distractors: ["FRZ-09", "FRZ-41"]
- id: escalation_contact
  kind: tool_result
  planted_turn: 8
  question:
    - "Who is the out-of-hours escalation contact in the lab manual?"
    - "If the shipment is stuck at night, whom do we call?"
    - "Name the person to escalate to outside working hours."
    - "Which contact does the protocol give for out-of-hours problems?"
    - "Who handles escalations after hours for this study?"
    - "The courier calls at 22:00 about a dry-ice problem. Who must be called?"
  expected: "{ESCALATION}"
  distractors: ["Tomasz Wierzbicki"]
- id: receiving_tech
  kind: user
  planted_turn: 9
  question:
    - "Who signs for the boxes at the receiving lab?"
    - "Which technician receives the shipment at Erasmus?"
    - "Name the person at the partner lab who will sign for the delivery."
    - "Whose signature will be on the receipt in Rotterdam?"
    - "Who did I say receives our samples over there?"
    - "The receiving lab has one technician for our boxes. Who?"
  expected: "{TECHNICIAN}"
- id: low_volume_aliquot
  kind: tool_result
  planted_turn: 11
  question:
    - "Which aliquot was flagged for low volume?"
    - "Give the id of the aliquot below the minimum volume."
    - "Fill in the aliquot_id that stays behind because of its volume."
    - "One aliquot is too small to ship. Which id?"
    - "Name the aliquot carrying the LOW_VOLUME flag."
    - "Which aliquot did we decide not to pool?"
  expected: "{ALIQUOT}"
  distractors: ["AQ-5521-07"]
- id: withdrawn_participant
  kind: summary
  planted_turn: 13
  question:
    - "Which participant withdrew consent?"
    - "Give the participant id whose samples must be destroyed."
    - "Whose aliquots came out of the manifest for consent reasons?"
    - "Fill in the participant of the consent withdrawal. Which id?"
    - "One participant asked for their samples to be destroyed. Which one?"
    - "Name the participant we must not ship samples from."
  expected: "{PARTICIPANT}"
  distractors: ["HRT-0139", "HRT-1093"]
- id: courier
  kind: revised
  planted_turn: 23
  question:
    - "Which courier carries the shipment?"
    - "Fill in the courier of the pickup booking. Which name?"
    - "Which courier did we settle on in the end?"
    - "Who is collecting the boxes?"
    - "The usual courier was mentioned earlier. Which courier is it now?"
    - "Before booking: which courier's slot do we take?"
  expected: "Marken"
  distractors: ["World Courier"]
- id: pooling_rejected
  kind: rejected
  planted_turn: 17
  question:
    - "Why are we not pooling the low-volume aliquot?"
    - "Pooling was considered. Why was it turned down?"
    - "What was the reason for rejecting pooling?"
    - "Why leave the aliquot behind rather than pool it with its sibling?"
    - "Remind me why pooling does not work here."
    - "What did I say against pooling?"
  expected_regex: "(?i)(traceab\\\\w*|one-aliquot-one-consent|ethics approval)"
"""


def build() -> TranscriptBuilder:
    b = TranscriptBuilder(
        SEED, avoid=("6093", "20931", "77831", "0193", "5512", "Marken", "Marchetti", "Carvalho")
    )

    # 1 — which study
    b.user(
        "Hi, we need to ship the HEART-22 baseline plasma to our partner lab in Rotterdam this week. Can you find the study?"
    )
    b.calls(
        (
            "find_study",
            {"query": "HEART"},
            pretty(
                {
                    "query": "HEART",
                    "count": 2,
                    "studies": [
                        {
                            "code": "HEART-22",
                            "title": "Inflammatory markers after first myocardial infarction",
                            "sponsor": "British Heart Foundation",
                            "status": "recruiting",
                            "pi": "Prof. Aisha Rahman",
                        },
                        {
                            "code": "HEART-21",
                            "title": "Troponin kinetics in chest-pain triage",
                            "sponsor": "NIHR",
                            "status": "follow-up",
                            "pi": "Dr Colm Brennan",
                        },
                    ],
                }
            ),
        )
    )
    b.say(
        "Two studies match: HEART-22 (inflammatory markers after a first heart attack, recruiting, Prof. Aisha Rahman) and HEART-21 (troponin kinetics, in follow-up). I take it you mean HEART-22?"
    )

    # 2 — the study record: the intake mailbox deep inside it
    b.user("Yes, HEART-22. Show me the full study record.")
    b.calls(
        (
            "get_study",
            {"study": STUDY},
            pretty(
                {
                    "code": STUDY,
                    "title": "Inflammatory markers after first myocardial infarction",
                    "ethics": {
                        "committee": "Yorkshire & Humber REC",
                        "reference": "23/YH/0417",
                        "approved": "2023-06-12",
                        "conditions": [
                            "samples traceable to one consent form",
                            "no transfer outside the EEA/UK",
                        ],
                    },
                    "finance": {
                        "default_cost_code": "GR-20913",
                        "grant": "BHF PG/23/11406",
                        "shipping_budget_gbp": 4200,
                    },
                    "contacts": {
                        "sponsor": {"name": "Dr Helen Ashdown", "email": "h.ashdown@bhf.org.uk"},
                        "biobank": {
                            "name": "Leeds Cardiovascular Biobank",
                            "manager": "Owen Pritchard",
                            "email": "lcb-shipping@leeds.ac.uk",
                        },
                        "partner_lab": {
                            "site_id": SITE,
                            "name": "Erasmus MC Clinical Chemistry",
                            "notify": {
                                "email": EMAIL,
                                "since": "2026-02-16",
                                "previous": {
                                    "email": OLD_EMAIL,
                                    "status": "bounces since 2026-02-16",
                                },
                            },
                            "phone": "+31 10 704 0000",
                        },
                    },
                    "samples": {
                        "types": ["EDTA plasma", "serum", "PAXgene RNA"],
                        "visits": ["baseline", "6 weeks", "6 months"],
                        "storage": "-80 C",
                    },
                    "participants": {"target": 240, "enrolled": 187},
                }
            ),
        )
    )
    b.say(
        "HEART-22 is approved by the Yorkshire & Humber REC (23/YH/0417) on condition that every sample stays traceable to one consent form and nothing leaves the EEA/UK. Finance: grant BHF PG/23/11406 with a 4,200 GBP shipping budget. The partner lab is Erasmus MC Clinical Chemistry (site ERASMUS-RTM); samples are EDTA plasma, serum and PAXgene RNA at three visits, 187 of 240 participants enrolled."
    )

    # 3 — the standing rules
    b.user(
        f"Two rules for this whole shipment, please. Every chain-of-custody note you add must start with our deviation reference {DEVIATION}, because the freezer alarm is still open. And every shipment cost is billed to the grant code {GRANT}, the shipping line of the grant, never to the study's default code."
    )
    b.say(
        "Understood: custody notes start with the deviation reference you gave, and shipping costs go to the grant's shipping line, not the default code."
    )

    # 4 — deviations (fixed-width table)
    b.user("What deviations are open on the study?")
    b.calls(
        (
            "search_deviations",
            {"study": STUDY, "status": "all"},
            f"""\
reference  opened      status  title
{DEVIATION}   2026-04-07  open    FRZ-09 alarm: -62 C for 41 min overnight, boxes moved
DEV-6039   2026-01-22  closed  Baseline visit outside window (participant HRT-0211)
DEV-5877   2025-11-03  closed  Centrifuge delay 45 min (site 2)
""",
        )
    )
    b.say(
        f"One open deviation: {DEVIATION}, the overnight FRZ-09 alarm on 7 April (-62 C for 41 minutes, boxes moved). Two older ones are closed: a baseline visit outside its window and a centrifuge delay."
    )

    # 5 — the partner site: the import permit four levels deep
    b.user("Get the partner site record, I want to know exactly how they receive.")
    b.calls(
        (
            "get_partner_site",
            {"site_id": SITE},
            pretty(
                {
                    "site": {
                        "id": SITE,
                        "name": "Erasmus MC Clinical Chemistry",
                        "address": {
                            "street": "Dr. Molewaterplein 40",
                            "building": "Na-building, level -1",
                            "postcode": "3015 GD",
                            "city": "Rotterdam",
                            "country": "NL",
                        },
                        "receiving": {
                            "dock": "Loading dock B, Wytemaweg entrance",
                            "hours": {
                                "days": "Tue-Thu",
                                "from": "08:00",
                                "to": "15:00",
                                "timezone": "Europe/Amsterdam",
                            },
                            "accepted": {
                                "frozen": ["dry ice"],
                                "ambient": False,
                                "max_transit_hours": 72,
                            },
                            "import_permit": {
                                "number": PERMIT,
                                "authority": "NVWA",
                                "issued": "2026-01-09",
                                "valid_until": "2027-01-08",
                                "scope": "human biological samples for research",
                            },
                            "previous_permits": [
                                {
                                    "number": "IMP-77813-NL",
                                    "status": "expired",
                                    "valid_until": "2025-12-31",
                                }
                            ],
                        },
                        "contacts": [
                            {
                                "role": "lab manager",
                                "name": "Dr Pieter van Dam",
                                "phone": "+31 10 704 3120",
                            },
                            {
                                "role": "customs broker",
                                "name": "Rhenus Customs Rotterdam",
                                "phone": "+31 10 487 2211",
                            },
                        ],
                    },
                    "updated": "2026-03-18T10:04:00Z",
                }
            ),
        )
    )
    b.say(
        "Erasmus MC Clinical Chemistry receives frozen samples on dry ice only, Tuesday to Thursday 08:00-15:00 (Amsterdam time) at loading dock B, Wytemaweg entrance, with at most 72 hours in transit. Their current import permit from the NVWA runs to January 2027; an older one expired at the end of 2025."
    )

    # 6 — boxes (CSV)
    b.user("Which boxes hold the baseline plasma?")
    b.calls(
        (
            "list_boxes",
            {"study": STUDY, "visit": "baseline"},
            """\
box_id,freezer,rack,shelf,samples,visit,matrix
BX-0447,FRZ-09,R2,S4,12,baseline,EDTA plasma
BX-0448,FRZ-09,R2,S5,12,baseline,EDTA plasma
BX-0452,FRZ-41,R1,S1,12,baseline,EDTA plasma
""",
        )
    )
    b.say(
        "Three boxes of baseline EDTA plasma, 12 samples each: BX-0447 and BX-0448 in FRZ-09 (rack R2) and BX-0452 in FRZ-41."
    )

    # 7 — the freezer log (JSON lines): the box moved during the alarm
    b.user("FRZ-09 is the freezer that alarmed. Did anything happen to our boxes that night?")
    readings: list[dict[str, Any]] = []
    for minute, temp in ((0, -79.8), (30, -79.6), (60, -79.9), (90, -79.7)):
        readings.append(
            {
                "ts": f"2026-04-07T00:{minute:02d}:00Z"
                if minute < 60
                else f"2026-04-07T01:{minute - 60:02d}:00Z",
                "freezer": "FRZ-09",
                "event": "reading",
                "temp_c": temp,
            }
        )
    events = [
        *readings,
        {"ts": "2026-04-07T02:00:00Z", "freezer": "FRZ-09", "event": "reading", "temp_c": -74.2},
        {
            "ts": "2026-04-07T02:06:12Z",
            "freezer": "FRZ-09",
            "event": "alarm",
            "level": "high",
            "temp_c": -68.5,
            "notified": "night-tech",
        },
        {"ts": "2026-04-07T02:10:00Z", "freezer": "FRZ-09", "event": "reading", "temp_c": -62.0},
        {
            "ts": "2026-04-07T02:12:40Z",
            "freezer": "FRZ-09",
            "event": "door_open",
            "by": "night-tech",
            "seconds": 95,
        },
        {
            "ts": "2026-04-07T02:14:51Z",
            "freezer": "FRZ-09",
            "event": "box_moved",
            "box": "BX-0452",
            "from": "FRZ-41/R1/S1",
            "to": "FRZ-41/R1/S1",
            "note": "scan check only, not moved",
        },
        {
            "ts": "2026-04-07T02:16:05Z",
            "freezer": "FRZ-09",
            "event": "box_moved",
            "box": "BX-0447",
            "from": "FRZ-09/R2/S4",
            "to": f"{FREEZER}/R3/S2",
            "by": "night-tech",
            "reason": "alarm, shelf S4 nearest the failed fan",
        },
        {
            "ts": "2026-04-07T02:17:30Z",
            "freezer": "FRZ-09",
            "event": "door_close",
            "by": "night-tech",
        },
        {"ts": "2026-04-07T02:30:00Z", "freezer": "FRZ-09", "event": "reading", "temp_c": -63.4},
        {"ts": "2026-04-07T02:47:00Z", "freezer": "FRZ-09", "event": "reading", "temp_c": -66.1},
        {
            "ts": "2026-04-07T02:51:22Z",
            "freezer": "FRZ-09",
            "event": "alarm_cleared",
            "temp_c": -70.0,
        },
        {"ts": "2026-04-07T03:00:00Z", "freezer": "FRZ-09", "event": "reading", "temp_c": -72.8},
        {"ts": "2026-04-07T03:30:00Z", "freezer": "FRZ-09", "event": "reading", "temp_c": -77.5},
        {"ts": "2026-04-07T04:00:00Z", "freezer": "FRZ-09", "event": "reading", "temp_c": -79.4},
        {
            "ts": "2026-04-07T08:12:09Z",
            "freezer": "FRZ-09",
            "event": "service",
            "by": "Thermo field service",
            "note": "fan 2 replaced",
        },
        {"ts": "2026-04-07T09:00:00Z", "freezer": "FRZ-09", "event": "reading", "temp_c": -79.9},
    ]
    b.calls(
        (
            "get_freezer_log",
            {
                "freezer_id": "FRZ-09",
                "since": "2026-04-07T00:00:00Z",
                "until": "2026-04-07T09:00:00Z",
            },
            lines(*events),
        )
    )
    b.say(
        "The alarm went off at 02:06 and the freezer bottomed out at -62 C around 02:10; it cleared at 02:51 and was back at -79 C by 04:00 after fan 2 was replaced in the morning. During the alarm the night technician moved BX-0447 out of FRZ-09 (the log line has its new position); BX-0448 stayed where it was."
    )

    # 8 — the storage protocol (YAML): the out-of-hours escalation contact
    b.user("Was that excursion within the protocol's limits?")
    b.calls(
        (
            "get_protocol",
            {"study": STUDY, "section": "storage"},
            f"""\
section: storage
version: 3.2
effective: 2025-09-01
storage:
  temperature_c: -80
  excursion:
    tolerance:
      max_c: -60
      max_minutes: 60
    action: document as a protocol deviation; samples remain usable
    beyond_tolerance: quarantine the box and ask the sponsor
  relocation:
    allowed: true
    record: every move in the freezer log with the new position
escalation:
  in_hours:
    name: Tomasz Wierzbicki
    role: biobank operations lead
    phone: "+44 113 343 8801"
  out_of_hours:
    name: {ESCALATION}
    role: on-call biobank scientist
    phone: "+44 7700 900 461"
    note: for alarms, courier incidents and dry-ice failures between 18:00 and 08:00
""",
        )
    )
    b.say(
        "Yes: the storage section (version 3.2) tolerates up to -60 C for 60 minutes, so -62 C for 41 minutes is inside tolerance. It has to be documented as a protocol deviation, which the open one covers, and the samples remain usable. Moving a box is allowed as long as the freezer log records the new position, which it does."
    )

    # 9 — the user's fact, said once
    b.user(
        f"For the record, the receiving technician at Erasmus is {TECHNICIAN}; she is the one who signs for the boxes, and she only works Tuesday to Thursday."
    )
    b.say(
        "Noted: the receiving technician signs for the boxes and works Tuesday to Thursday, which matches the dock's receiving days."
    )

    # 10 — the courier, first value
    b.user("Book it with World Courier, as usual; they did our last two shipments.")
    b.say("OK, World Courier. I'll ask them for a quote once the manifest is final.")

    # 11 — the aliquot manifest (CSV): one row flagged LOW_VOLUME
    b.user("Pull the aliquot manifest for the three boxes.")
    participants = [
        "HRT-0102",
        "HRT-0117",
        "HRT-0139",
        "HRT-0146",
        "HRT-0158",
        "HRT-0170",
        PARTICIPANT,
        "HRT-0205",
        "HRT-0211",
    ]
    rows = ["aliquot_id,participant,box,position,matrix,volume_ml,collected,flags"]
    boxes = ["BX-0447", "BX-0448", "BX-0452"]
    count = 0
    for index, participant in enumerate(participants):
        base = 5500 + index * 3 + (7 if index >= 4 else 0)
        for draw in (6, 7, 8, 9):
            count += 1
            aliquot = f"AQ-{base}-{draw:02d}"
            box = boxes[(count - 1) // 12]
            position = f"{'ABCDEFGH'[((count - 1) % 12) // 3]}{(count - 1) % 3 + 1}"
            volume = "0.50"
            flag = ""
            rows.append(
                f"{aliquot},{participant},{box},{position},EDTA plasma,{volume},2026-0{2 + index % 2}-{10 + index:02d},{flag}"
            )
    # the planted row and its look-alike, in place of two generated ones
    rows[22] = f"{ALIQUOT},HRT-0158,BX-0448,E1,EDTA plasma,0.15,2026-02-14,LOW_VOLUME"
    rows[9] = "AQ-5521-07,HRT-0117,BX-0447,D3,EDTA plasma,0.50,2026-03-11,"
    rows[31] = rows[31].rsplit(",", 1)[0] + ",HEMOLYSIS"
    b.calls(("get_aliquots", {"boxes": boxes}, "\n".join(rows)))
    b.say(
        "36 aliquots of EDTA plasma across the three boxes, 0.50 mL each except one flagged LOW_VOLUME at 0.15 mL; one other aliquot carries a HEMOLYSIS flag."
    )

    # 12 — the draft shipment (JSON array)
    b.user("Is there a shipment draft already?")
    b.calls(
        (
            "search_shipments",
            {"study": STUDY, "status": "all"},
            pretty(
                {
                    "count": 3,
                    "shipments": [
                        {
                            "id": SHIPMENT,
                            "state": "draft",
                            "created": "2026-04-06T15:22:00Z",
                            "boxes": boxes,
                            "destination": SITE,
                            "courier": None,
                            "cost_code": None,
                        },
                        {
                            "id": "SHP-1f93aa",
                            "state": "delivered",
                            "created": "2025-11-10T09:01:00Z",
                            "boxes": ["BX-0311", "BX-0312"],
                            "destination": SITE,
                            "courier": "World Courier",
                            "cost_code": GRANT.replace("31", "13"),
                        },
                        {
                            "id": "SHP-0b47c2",
                            "state": "cancelled",
                            "created": "2025-09-02T13:40:00Z",
                            "boxes": ["BX-0298"],
                            "destination": "KCL-LDN",
                            "courier": "World Courier",
                            "cost_code": GRANT.replace("31", "13"),
                        },
                    ],
                }
            ),
        )
    )
    b.say(
        f"Yes: {SHIPMENT} is a draft created on 6 April with all three boxes, destination Erasmus, no courier and no cost code yet. The other two are an earlier delivered shipment to Erasmus (November) and a cancelled one to King's College."
    )

    # 13 — consents (CSV): found by a query, summarised once
    b.user("Before anything ships: has anyone withdrawn consent?")
    b.calls(
        (
            "query_consents",
            {"study": STUDY, "since": "2026-01-01"},
            f"""\
participant,change,date,samples,recorded_by
HRT-0139,reconsent (new PIS v4),2026-01-19,keep,research nurse
HRT-1093,address change,2026-02-27,keep,research nurse
{PARTICIPANT},withdrawn,2026-04-02,destroy all stored samples,Dr Aisha Rahman
HRT-0171,reconsent (new PIS v4),2026-03-05,keep,research nurse
""",
        )
    )
    b.say(
        f"Yes: {PARTICIPANT} withdrew consent on 2 April and asked for all stored samples to be destroyed, so their four baseline aliquots must come out of the shipment. The other changes are a reconsent and an address change, no effect on samples."
    )

    # 14 — remove them
    b.user("Take that participant's aliquots out of the manifest.")
    removed = [r.split(",")[0] for r in rows[1:] if f",{PARTICIPANT}," in r]
    b.calls(
        (
            "update_manifest",
            {
                "shipment_id": SHIPMENT,
                "remove": removed,
                "comment": "consent withdrawn 2026-04-02; destroy per REC",
            },
            pretty(
                {
                    "shipment_id": SHIPMENT,
                    "aliquots_before": 36,
                    "removed": 4,
                    "aliquots_after": 32,
                    "history_entry": "mh-5590",
                }
            ),
        )
    )
    b.say(
        "Done: four aliquots removed, 32 left on the manifest, and the removal is in the manifest history with the reason."
    )

    # 15 — the low-volume aliquot against the acceptance rules (YAML)
    b.user("The low-volume aliquot: can the partner still use it?")
    b.calls(
        (
            "get_protocol",
            {"study": STUDY, "section": "acceptance"},
            """\
section: acceptance
version: 3.2
plasma:
  min_volume_ml: 0.25
  hemolysis: accept with flag; report free haemoglobin
  refrozen: reject
exceptions: none without sponsor approval
""",
        )
    )
    b.say(
        "No: the acceptance section needs at least 0.25 mL of plasma and allows no exceptions without the sponsor, so the 0.15 mL aliquot would be rejected on arrival. The hemolysed one is accepted with its flag."
    )

    # 16 — the proposal
    b.user("What are our options for it?")
    b.say(
        "Two: I suggest pooling it with its sibling aliquot from the same draw, which gives 0.65 mL and keeps the participant's baseline result; or we leave it behind in the freezer and mark it not shipped."
    )

    # 17 — the rejection with its reason
    b.user(
        "No, we won't pool them: pooling breaks the one-aliquot-one-consent traceability the ethics approval requires. Leave it behind."
    )
    b.calls(
        (
            "update_manifest",
            {
                "shipment_id": SHIPMENT,
                "exclude_flag": "LOW_VOLUME",
                "comment": "below 0.25 mL; not pooled (traceability)",
            },
            pretty(
                {
                    "shipment_id": SHIPMENT,
                    "aliquots_before": 32,
                    "removed": 1,
                    "aliquots_after": 31,
                    "history_entry": "mh-5591",
                }
            ),
        )
    )
    b.say("Left behind: the low-volume aliquot is off the manifest, 31 aliquots remain.")

    # 18 — a quote from the first courier
    b.user("Get a World Courier quote for a Tuesday pickup.")
    b.calls(
        (
            "get_courier_quote",
            {"shipment_id": SHIPMENT, "courier": "World Courier", "pickup_date": "2026-04-14"},
            pretty(
                {
                    "courier": "World Courier",
                    "quote": {
                        "id": "WC-Q-88120",
                        "service": "CryoShip 72",
                        "price": {
                            "amount": 1184.00,
                            "currency": "GBP",
                            "includes": ["dry ice 18 kg", "data logger"],
                        },
                        "slots": [
                            {
                                "slot": "WC-S-1",
                                "pickup": "2026-04-14T09:00:00+01:00",
                                "delivery": "2026-04-15T11:00:00+02:00",
                            },
                            {
                                "slot": "WC-S-2",
                                "pickup": "2026-04-14T14:00:00+01:00",
                                "delivery": "2026-04-16T10:00:00+02:00",
                            },
                        ],
                        "dry_ice_top_up": {
                            "available": "Mon-Wed",
                            "note": "no top-up on Thursdays at the Amsterdam hub",
                        },
                    },
                }
            ),
        )
    )
    b.say(
        "World Courier quotes 1,184.00 GBP for CryoShip 72 with 18 kg of dry ice and a logger; pickup on Tuesday 14 April at 09:00 (delivered Wednesday 11:00) or 14:00 (delivered Thursday 10:00). They can only top up dry ice Monday to Wednesday."
    )

    # 19 — packaging (YAML)
    b.user("What does the lab manual say about packing?")
    b.calls(
        (
            "get_protocol",
            {"study": STUDY, "section": "shipping"},
            """\
section: shipping
version: 3.2
packaging:
  standard: UN3373 biological substance, category B
  refrigerant: UN1845 dry ice
  dry_ice_kg:
    per_24h: 6
    minimum: 18
  logger: required, 5-minute interval, attached to the manifest
documents:
  - manifest signed by the biobank
  - pro-forma invoice with the receiving site's import permit
  - chain-of-custody form
""",
        )
    )
    b.say(
        "Pack as UN3373 category B on UN1845 dry ice, at least 18 kg (6 kg per 24 hours), with a 5-minute logger attached to the manifest. Documents: the signed manifest, a pro-forma invoice carrying the receiving site's import permit, and the chain-of-custody form."
    )

    # 20 — the first custody note
    b.user("Add the custody note for the freezer alarm now.")
    b.calls(
        (
            "add_custody_note",
            {
                "shipment_id": SHIPMENT,
                "text": f"{DEVIATION} - FRZ-09 alarm 2026-04-07 02:06-02:51, minimum -62 C for 41 min, within tolerance (storage v3.2). BX-0447 relocated during the alarm, position recorded in the freezer log; BX-0448 not moved.",
            },
            pretty(
                {"note_id": "cn-3307", "shipment_id": SHIPMENT, "added": "2026-04-09T10:12:00Z"}
            ),
        )
    )
    b.say("Added the custody note for the alarm, starting with the deviation reference.")

    # 21 — the logger
    b.user("Is a temperature logger assigned to the shipment?")
    b.calls(
        (
            "get_shipment",
            {"shipment_id": SHIPMENT},
            pretty(
                {
                    "id": SHIPMENT,
                    "state": "draft",
                    "manifest": {
                        "boxes": 3,
                        "aliquots": 31,
                        "removed": [
                            {"entry": "mh-5590", "count": 4},
                            {"entry": "mh-5591", "count": 1},
                        ],
                    },
                    "logger": {
                        "id": "LG-20417",
                        "interval_min": 5,
                        "battery": "92%",
                        "calibrated": "2026-01-15",
                    },
                    "documents": {
                        "manifest": "unsigned",
                        "proforma": None,
                        "custody_form": "started",
                    },
                    "history": [
                        {"ts": "2026-04-06T15:22:00Z", "state": "draft", "by": "Owen Pritchard"},
                    ],
                }
            ),
        )
    )
    b.say(
        "Yes: logger LG-20417 (5-minute interval, calibrated in January, battery 92 %). The manifest is still unsigned and there's no pro-forma yet."
    )

    # 22 — customs
    b.user("Anything special for Dutch customs?")
    b.calls(
        (
            "get_protocol",
            {"study": STUDY, "section": "customs"},
            """\
section: customs
version: 3.2
destination_NL:
  declaration: pro-forma, value 1 GBP per box, 'no commercial value'
  hs_code: "3002.12"
  permit: quote the receiving site's import permit number on the pro-forma
  broker: the receiving site's broker clears on arrival
""",
        )
    )
    b.say(
        "The pro-forma declares 1 GBP a box, no commercial value, HS code 3002.12, and must quote the receiving site's import permit number; their broker clears on arrival."
    )

    # 23 — the revision
    b.user(
        "Change of plan on the courier: switch to Marken instead. World Courier can't top up the dry ice on a Thursday, and a delayed delivery would need it."
    )
    b.calls(
        (
            "update_shipment",
            {"shipment_id": SHIPMENT, "courier": "Marken", "cost_code": GRANT},
            pretty(
                {
                    "shipment_id": SHIPMENT,
                    "changed": {
                        "courier": {"old": None, "new": "Marken"},
                        "cost_code": {"old": None, "new": GRANT},
                    },
                }
            ),
        )
    )
    b.say("Switched the draft to Marken and set the cost code to the grant's shipping line.")

    # 24 — the new courier's quote
    b.user("Get the Marken quote for Tuesday.")
    b.calls(
        (
            "get_courier_quote",
            {"shipment_id": SHIPMENT, "courier": "Marken", "pickup_date": "2026-04-14"},
            pretty(
                {
                    "courier": "Marken",
                    "quote": {
                        "id": "MK-Q-40716",
                        "service": "Cryo Express EU",
                        "price": {
                            "amount": 1249.50,
                            "currency": "GBP",
                            "includes": ["dry ice 20 kg", "re-icing any day"],
                        },
                        "slots": [
                            {
                                "slot": "MK-S-7",
                                "pickup": "2026-04-14T10:30:00+01:00",
                                "delivery": "2026-04-15T12:00:00+02:00",
                            },
                        ],
                    },
                }
            ),
        )
    )
    b.say(
        "Marken quotes 1,249.50 GBP for Cryo Express EU with 20 kg of dry ice and re-icing on any day; one slot, pickup Tuesday 14 April 10:30, delivered Wednesday 12:00."
    )

    # 25 — the mail log (JSON lines): the old address bounced
    b.user("Did our last pre-alert to Erasmus actually arrive?")
    b.calls(
        (
            "get_mail_log",
            {"recipient_domain": "erasmus", "since": "2025-11-01"},
            lines(
                {
                    "ts": "2025-11-10T09:30:12Z",
                    "message": "pre-alert SHP-1f93aa",
                    "to": OLD_EMAIL,
                    "status": "delivered",
                },
                {
                    "ts": "2025-11-12T14:02:40Z",
                    "message": "receipt confirmation request",
                    "to": OLD_EMAIL,
                    "status": "delivered",
                },
                {
                    "ts": "2026-03-02T08:15:09Z",
                    "message": "pre-alert (test)",
                    "to": OLD_EMAIL,
                    "status": "bounced",
                    "reason": "550 mailbox unavailable",
                },
                {
                    "ts": "2026-03-18T10:05:33Z",
                    "message": "site record update",
                    "to": "p.vandam@erasmusmc.nl",
                    "status": "delivered",
                },
            ),
        )
    )
    b.say(
        "The November pre-alert arrived, but a test pre-alert on 2 March bounced: it went to the old intake mailbox, which stopped working in February. The study record has the current one."
    )

    # 26 — book
    b.user("Book the Marken slot.")
    b.calls(
        (
            "book_pickup",
            {"shipment_id": SHIPMENT, "slot": "MK-S-7"},
            pretty(
                {
                    "booking": {
                        "id": "MK-B-55102",
                        "slot": "MK-S-7",
                        "waybill": "MKN 4471 0923 18",
                        "pickup": "2026-04-14T10:30:00+01:00",
                    },
                    "shipment_state": "booked",
                }
            ),
        )
    )
    b.say(
        "Booked: Marken waybill MKN 4471 0923 18, pickup Tuesday 14 April at 10:30; the shipment is now booked."
    )

    # 27 — budget
    b.user("How much of the shipping budget is left after this?")
    b.say(
        "The grant's shipping budget is 4,200 GBP; the November shipment cost 1,062.00 GBP and this one 1,249.50 GBP, so 1,888.50 GBP remains if nothing else was charged."
    )

    # 28 — the look-alike shipment
    b.user("The November shipment, SHP-1f93aa: that one had none of our baseline boxes, right?")
    b.calls(
        (
            "get_shipment",
            {"shipment_id": "SHP-1f93aa"},
            pretty(
                {
                    "id": "SHP-1f93aa",
                    "state": "delivered",
                    "manifest": {"boxes": 2, "aliquots": 24, "visit": "6 weeks"},
                    "boxes": ["BX-0311", "BX-0312"],
                    "delivered": "2025-11-12T10:41:00+01:00",
                }
            ),
        )
    )
    b.say("Right: SHP-1f93aa carried two 6-week boxes (BX-0311, BX-0312), no baseline samples.")

    # 29 — time
    b.user("What time is it in Rotterdam? I want to warn them today.")
    b.calls(
        (
            "get_current_time",
            {"timezone": "Europe/Amsterdam"},
            "2026-04-09 11:31:48 CEST (Thursday)",
        )
    )
    b.say("11:31 on Thursday in Rotterdam: the receiving team is in until 15:00 today.")

    # 30 — the manifest signature
    b.user("Owen will sign the manifest this afternoon. Anything else blocking?")
    b.say(
        "Only the documents: the signed manifest, the pro-forma with the import permit number, and the pre-alert to the intake mailbox. The pickup, the logger and the custody note are done."
    )

    # 31 — the final note
    b.user("Add a custody note saying what's left.")
    b.calls(
        (
            "add_custody_note",
            {
                "shipment_id": SHIPMENT,
                "text": f"{DEVIATION} - Booked with the courier for 2026-04-14 10:30 (MK-B-55102). Left to do: manifest signature (O. Pritchard), pro-forma with the import permit, pre-alert to the partner's intake mailbox.",
            },
            pretty(
                {"note_id": "cn-3311", "shipment_id": SHIPMENT, "added": "2026-04-09T10:35:00Z"}
            ),
        )
    )
    b.say(
        "Added the note listing what's left: the manifest signature, the pro-forma and the pre-alert."
    )

    # 32
    b.user("Great, thanks. I'll do the paperwork after lunch.")
    b.say(
        "You're welcome. When you're back, the pro-forma and the pre-alert are the two things to send; everything else is booked."
    )
    return b


def main() -> None:
    b = build()
    check_once(b, PERMIT, [(5, "tool")])
    check_once(b, FREEZER, [(7, "tool")])
    check_once(b, ESCALATION, [(8, "tool")])
    check_once(b, TECHNICIAN, [(9, "user")])
    check_once(b, ALIQUOT, [(11, "tool")])
    check_once(b, PARTICIPANT, [(11, "tool"), (13, "tool"), (13, "assistant")])
    check_once(b, EMAIL, [(2, "tool")])
    check_once(
        b, DEVIATION, [(3, "user"), (4, "tool"), (4, "assistant"), (20, "call"), (31, "call")]
    )
    check_once(b, GRANT, [(3, "user"), (23, "call"), (23, "tool")])
    write_fixture(b, HERE, TOOLS, PROBES)


if __name__ == "__main__":
    main()
