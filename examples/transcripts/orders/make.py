"""Generate the orders fixture: a 32-turn lost-parcel investigation on a marketplace, 16 tools.

A marketplace operations agent and the assistant work a lost order for Mira Sandoval
(ORD-58213-K, an espresso machine; a look-alike order ORD-58231-K of another customer
exists). Tools answer in JSON, as many real APIs do. Facts of the kinds the held-out
sessions lost, each planted once:

* turn 3, the user's standing rules: order notes start with the escalation tag OPS-8842;
  carrier claims are filed under the shipper account CA-77190;
* turn 7, only inside a tool result (a relabel event in a depot's JSON event log, never
  restated): the parcel's current tracking number is TRK-5520-8814 (the original
  TRK-5520-8841 is everywhere else);
* turn 9, said once by the user and never again: the machine is a gift for a wedding on
  14 June;
* turn 15, found by a query and summarised once by the assistant: the unit that shipped is
  serial SN-7Q4-0915 (SN-7Q4-0951, SN-7Q4-1509 look alike);
* turn 10 → revised at turn 24: the replacement goes with DPD → with UPS Express;
* turn 18, a rejected decision with its reason: no voucher, her company pays by purchase
  order and vouchers cannot be redeemed on purchase-order accounts;
* turn 2, a look-alike address: the order ships to Kastanienallee 12; the label was printed
  for Kastanienallee 21.

    python examples/transcripts/orders/make.py   # rewrites the three files beside it

Written on 2026-12-04 after ``retrieval``'s parameters were fixed, to report them on a
transcript nobody tuned on (its author knew the policy; see docs/results/policies.md).
"""

# ruff: noqa: E501 (tool outputs are records and documents, kept as they would print)
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from build import (  # noqa: E402
    TranscriptBuilder,
    check_once,
    p,
    tool,
    write_fixture,
)

SEED = 6113
ORDER = "ORD-58213-K"
TAG = "OPS-8842"
SHIPPER = "CA-77190"
TRACKING = "TRK-5520-8841"
RELABEL = "TRK-5520-8814"
SERIAL = "SN-7Q4-0915"
ADDRESS = "Kastanienallee 12"
WRONG_ADDRESS = "Kastanienallee 21"


def js(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


TOOLS = [
    tool(
        "search_orders",
        "Search orders by customer name, email, order id or free text in notes. Returns up to "
        "10 orders with id, customer, date, total and status.",
        {"query": p("Name, email, order id or text.")},
        ["query"],
    ),
    tool(
        "get_order",
        "Read one order as JSON: customer, items, payment, shipping address, shipments, notes.",
        {"order_id": p("Order id, e.g. ORD-10001-A.")},
        ["order_id"],
    ),
    tool(
        "get_customer",
        "Read a customer account as JSON: contact, account type, payment terms, order count.",
        {"customer_id": p("Customer id, e.g. CUS-1001.")},
        ["customer_id"],
    ),
    tool(
        "get_shipment",
        "Read a shipment as JSON: carrier, service, tracking number, label, parcel contents.",
        {"shipment_id": p("Shipment id, e.g. SHP-1001.")},
        ["shipment_id"],
    ),
    tool(
        "track_parcel",
        "Carrier tracking events for a tracking number, newest last.",
        {"tracking_number": p("Tracking number, e.g. TRK-1000-0001.")},
        ["tracking_number"],
    ),
    tool(
        "get_depot_events",
        "A carrier depot's raw event log for one shipment, one JSON object per line.",
        {"shipment_id": p("Shipment id."), "depot": p("Depot code, e.g. LEJ-04.")},
        ["shipment_id", "depot"],
    ),
    tool(
        "get_policy",
        "Fetch a marketplace policy section (lost parcels, replacements, vouchers, carrier "
        "claims): rules, limits and deadlines.",
        {"topic": p("What the section is about.")},
        ["topic"],
    ),
    tool(
        "get_inventory",
        "Stock of a SKU by warehouse as JSON: on hand, reserved, next inbound.",
        {"sku": p("Stock keeping unit, e.g. SKU-1001.")},
        ["sku"],
    ),
    tool(
        "list_pick_records",
        "Warehouse pick records for a SKU on a day: pick id, order, serial number, packer.",
        {"sku": p("SKU."), "date": p("Day, YYYY-MM-DD.")},
        ["sku", "date"],
    ),
    tool(
        "get_pick_record",
        "Read one pick record as JSON: order, serial, scans, packer, parcel weight.",
        {"pick_id": p("Pick id, e.g. PK-1001.")},
        ["pick_id"],
    ),
    tool(
        "add_order_note",
        "Add an internal note to an order (staff only).",
        {"order_id": p("Order id."), "text": p("The note.")},
        ["order_id", "text"],
    ),
    tool(
        "open_carrier_claim",
        "File a loss claim with the carrier for a shipment. Returns a claim id.",
        {
            "shipment_id": p("Shipment id."),
            "shipper_account": p("Our shipper account number with the carrier."),
            "value": p("Declared value with currency, e.g. '120.00 EUR'."),
            "reason": p("What happened."),
        },
        ["shipment_id", "shipper_account", "value", "reason"],
    ),
    tool(
        "get_claim",
        "Read the state of a carrier claim.",
        {"claim_id": p("Claim id, e.g. CLM-1001.")},
        ["claim_id"],
    ),
    tool(
        "create_shipment",
        "Ship items of an order again (a replacement) with a carrier service. Returns a "
        "shipment id and the label.",
        {
            "order_id": p("Order id."),
            "carrier_service": p("Carrier and service, e.g. 'DHL Paket'."),
            "address": p("Delivery address as one line."),
            "reservation_id": p("Stock reservation to ship from."),
        },
        ["order_id", "carrier_service", "address"],
    ),
    tool(
        "reserve_stock",
        "Reserve units of a SKU in a warehouse for an order. Returns a reservation id.",
        {
            "sku": p("SKU."),
            "warehouse": p("Warehouse code."),
            "order_id": p("Order id the units are for."),
        },
        ["sku", "warehouse", "order_id"],
    ),
    tool(
        "email_customer",
        "Email a customer from the marketplace support address. Sent as written.",
        {"to": p("Recipient."), "subject": p("Subject."), "body": p("Plain-text body.")},
        ["to", "subject", "body"],
    ),
    tool(
        "get_current_time",
        "Return the current date and time in a time zone.",
        {"timezone": p("IANA time zone, default UTC.")},
        [],
    ),
]

PROBES = f"""\
# Eight facts of the kinds the held-out sessions lost; six phrasings each.
- id: note_tag
  kind: rule
  planted_turn: 3
  question:
    - "You are about to add a note to the order. What must it start with?"
    - "Which escalation tag goes at the front of every order note here?"
    - "Remind me of the tag I asked you to put on notes."
    - "Write the first word of the next order note you will add."
    - "What prefix do notes on this order need?"
    - "Before the final note: which tag must it begin with?"
  expected: "{TAG}"
  distractors: ["OPS-8824"]
- id: shipper_account
  kind: rule
  planted_turn: 3
  question:
    - "Under which shipper account are carrier claims filed?"
    - "Fill in the shipper_account field of the claim. What value?"
    - "Which account number did I say the carrier claim goes under?"
    - "What shipper account must every claim in this case use?"
    - "State our carrier account for the loss claim."
    - "Before filing with the carrier: which account number goes on it?"
  expected: "{SHIPPER}"
  distractors: ["CA-77109"]
- id: current_tracking
  kind: tool_result
  planted_turn: 7
  question:
    - "What is the parcel's tracking number now?"
    - "The depot relabelled the parcel. Under which tracking number does it travel?"
    - "Which tracking number should I give the depot when I call them?"
    - "Fill in the tracking_number to follow the parcel after the relabel."
    - "The original tracking stopped updating. What is the new one?"
    - "State the tracking number on the new label."
  expected: "{RELABEL}"
  distractors: ["{TRACKING}"]
- id: wedding_date
  kind: user
  planted_turn: 9
  question:
    - "By when must the machine reach the customer?"
    - "What is the date of the wedding the machine is for?"
    - "When is the event the gift is meant for?"
    - "What deadline did the customer give us on chat?"
    - "Which day does the replacement have to arrive before?"
    - "State the date the customer needs the espresso machine by."
  expected: "14 June"
- id: picked_serial
  kind: summary
  planted_turn: 15
  question:
    - "Which serial number was in the lost parcel?"
    - "Give the serial of the unit that shipped to the customer."
    - "Which unit do we report as lost, by serial number?"
    - "Fill in the serial_number of the lost machine."
    - "The pick records list several units. Which serial was hers?"
    - "Name the serial number the warehouse packed for this order."
  expected: "{SERIAL}"
  distractors: ["SN-7Q4-0951", "SN-7Q4-1509"]
- id: replacement_carrier
  kind: revised
  planted_turn: 24
  question:
    - "Which carrier service does the replacement go with?"
    - "Fill in the carrier_service of the replacement shipment."
    - "How are we shipping the replacement machine?"
    - "Which carrier did we settle on for the replacement?"
    - "A carrier was named earlier for the replacement. Which one is it in the end?"
    - "Before creating the shipment: which carrier and service?"
  expected: "UPS Express"
  distractors: ["DPD"]
- id: voucher_rejected
  kind: rejected
  planted_turn: 18
  question:
    - "Why are we not offering the customer a voucher?"
    - "A voucher was considered. Why was it turned down?"
    - "What was the reason for rejecting the voucher?"
    - "Why a replacement rather than a voucher?"
    - "Remind me why a voucher does not work for this customer."
    - "What did I say against the voucher option?"
  expected_regex: "(?i)(purchase[- ]order|can(no|')t be redeemed)"
- id: delivery_address
  kind: lookalike
  planted_turn: 2
  question:
    - "To which address should the replacement be shipped?"
    - "What is the customer's delivery address?"
    - "Fill in the address of the replacement shipment."
    - "Where does the customer actually live, street and number?"
    - "The label was printed wrong. What is the right street address?"
    - "State the delivery address for the new parcel."
  expected: "{ADDRESS}"
  distractors: ["{WRONG_ADDRESS}"]
"""

DEPOT_LOG = [
    {"ts": "2026-06-03T19:02:11Z", "event": "inbound_scan", "tracking": TRACKING, "belt": 3},
    {"ts": "2026-06-03T19:02:12Z", "event": "weight_check", "tracking": TRACKING, "kg": 9.42},
    {"ts": "2026-06-03T19:05:40Z", "event": "sort", "tracking": TRACKING, "chute": "B-17"},
    {"ts": "2026-06-03T21:48:03Z", "event": "load", "tracking": TRACKING, "tour": "T-311"},
    {
        "ts": "2026-06-04T08:12:55Z",
        "event": "delivery_attempt",
        "tracking": TRACKING,
        "result": "address_not_found",
        "driver": "D-2207",
    },
    {"ts": "2026-06-04T17:30:21Z", "event": "return_to_depot", "tracking": TRACKING, "belt": 1},
    {
        "ts": "2026-06-04T17:31:02Z",
        "event": "exception_queue",
        "tracking": TRACKING,
        "code": "EX-ADDR",
    },
    {
        "ts": "2026-06-05T07:14:18Z",
        "event": "label_check",
        "tracking": TRACKING,
        "result": "label_damaged",
    },
    {
        "ts": "2026-06-05T07:16:44Z",
        "event": "relabel",
        "old_tracking": TRACKING,
        "new_tracking": RELABEL,
        "operator": "OP-118",
        "note": "original label torn, reprinted from manifest",
    },
    {
        "ts": "2026-06-05T07:16:45Z",
        "event": "address_source",
        "tracking": RELABEL,
        "source": "manifest",
        "street": WRONG_ADDRESS,
    },
    {"ts": "2026-06-05T09:40:09Z", "event": "sort", "tracking": RELABEL, "chute": "B-09"},
    {"ts": "2026-06-05T21:51:37Z", "event": "load", "tracking": RELABEL, "tour": "T-318"},
    {
        "ts": "2026-06-06T09:03:12Z",
        "event": "delivery_attempt",
        "tracking": RELABEL,
        "result": "address_not_found",
        "driver": "D-2231",
    },
    {"ts": "2026-06-06T16:55:48Z", "event": "return_to_depot", "tracking": RELABEL, "belt": 2},
    {
        "ts": "2026-06-06T16:56:30Z",
        "event": "hold",
        "tracking": RELABEL,
        "shelf": "H-04-22",
        "until": "2026-06-13",
    },
    {"ts": "2026-06-07T06:00:00Z", "event": "inventory_sweep", "shelf": "H-04-22", "items": 14},
    {
        "ts": "2026-06-08T06:00:00Z",
        "event": "inventory_sweep",
        "shelf": "H-04-22",
        "items": 13,
        "missing": 1,
    },
    {
        "ts": "2026-06-08T06:02:19Z",
        "event": "exception_queue",
        "code": "EX-MISSING",
        "shelf": "H-04-22",
    },
]


def build() -> TranscriptBuilder:
    b = TranscriptBuilder(SEED, avoid=("8842", "77190", "8814", "0915", "14 June"))

    # 1 — which order
    b.user(
        "Hi! Escalation from the chat team: a customer called Mira Sandoval says her espresso machine never arrived. Can you find the order?"
    )
    b.calls(
        (
            "search_orders",
            {"query": "Mira Sandoval"},
            js(
                {
                    "results": [
                        {
                            "order_id": ORDER,
                            "customer": "Mira Sandoval (CUS-40716)",
                            "date": "2026-06-02",
                            "total": "689.00 EUR",
                            "status": "shipped",
                        },
                        {
                            "order_id": "ORD-58231-K",
                            "customer": "Mirja Sandvall (CUS-40761)",
                            "date": "2026-06-02",
                            "total": "74.90 EUR",
                            "status": "delivered",
                        },
                    ]
                }
            ),
        )
    )
    b.say(
        "Two orders from 2 June: ORD-58213-K for Mira Sandoval (689.00 EUR, shipped) and ORD-58231-K for a different customer, Mirja Sandvall (74.90 EUR, delivered). The first is the one."
    )

    # 2 — the order (the right address)
    b.user("Yes, the 689 euro one. Show it.")
    b.calls(
        (
            "get_order",
            {"order_id": ORDER},
            js(
                {
                    "order_id": ORDER,
                    "customer_id": "CUS-40716",
                    "placed": "2026-06-02T10:41:09Z",
                    "items": [
                        {
                            "sku": "SKU-2290-ES",
                            "name": "Lumen Duo espresso machine, brushed steel",
                            "qty": 1,
                            "price": "689.00 EUR",
                        }
                    ],
                    "payment": {
                        "method": "invoice",
                        "terms": "net 30",
                        "po_number": "PO-HB-2026-118",
                    },
                    "shipping_address": {
                        "name": "Mira Sandoval",
                        "street": ADDRESS,
                        "postcode": "10435",
                        "city": "Berlin",
                        "country": "DE",
                    },
                    "shipments": [
                        {"shipment_id": "SHP-77421", "carrier": "GLS", "status": "exception"}
                    ],
                    "notes": [],
                }
            ),
        )
    )
    b.say(
        "ORD-58213-K: one Lumen Duo espresso machine at 689.00 EUR, paid on invoice (net 30), shipped with GLS as SHP-77421 to Mira Sandoval in Berlin 10435. The shipment is in an exception state."
    )

    # 3 — the standing rules
    b.user(
        f"Two rules for this whole case, please. Every note you add to the order starts with our escalation tag {TAG}. And any carrier claim is filed under our shipper account {SHIPPER}, not the marketplace default."
    )
    b.say(
        "Understood: notes carry the escalation tag you gave, and claims go under that shipper account."
    )

    # 4 — the customer
    b.user("Who is she, account-wise?")
    b.calls(
        (
            "get_customer",
            {"customer_id": "CUS-40716"},
            js(
                {
                    "customer_id": "CUS-40716",
                    "name": "Mira Sandoval",
                    "email": "mira.sandoval@hbk-architekten.de",
                    "company": "Hansen Brandt Kollektiv Architekten",
                    "account_type": "company",
                    "payment_terms": "invoice, net 30",
                    "orders": 7,
                    "since": "2024-03-11",
                }
            ),
        )
    )
    b.say(
        "A company account: Mira Sandoval at Hansen Brandt Kollektiv Architekten, customer since March 2024 with 7 orders, paying on invoice with 30 days' terms."
    )

    # 5 — shipment (the wrong label address)
    b.user("Open the shipment.")
    b.calls(
        (
            "get_shipment",
            {"shipment_id": "SHP-77421"},
            js(
                {
                    "shipment_id": "SHP-77421",
                    "order_id": ORDER,
                    "carrier": "GLS",
                    "service": "GLS Business Parcel",
                    "tracking_number": TRACKING,
                    "label": {
                        "printed": "2026-06-03T14:20:51Z",
                        "name": "Mira Sandoval",
                        "street": WRONG_ADDRESS,
                        "postcode": "10435",
                        "city": "Berlin",
                    },
                    "label_source": "warehouse re-key after printer jam (operator WH-31)",
                    "contents": [{"sku": "SKU-2290-ES", "qty": 1}],
                    "weight_kg": 9.42,
                    "status": "exception",
                }
            ),
        )
    )
    b.say(
        "SHP-77421 went with GLS Business Parcel, 9.42 kg. The label was re-keyed by hand after a printer jam and carries a different house number from the order's address, which would explain a failed delivery."
    )

    # 6 — tracking
    b.user("Track it.")
    b.calls(
        (
            "track_parcel",
            {"tracking_number": TRACKING},
            f"""\
{TRACKING}  GLS  Berlin
2026-06-03 19:02  parcel received at depot LEJ-04
2026-06-03 21:48  out for delivery (next day)
2026-06-04 08:12  delivery attempt failed: address not found
2026-06-04 17:30  back at depot LEJ-04
2026-06-05 07:14  parcel checked at depot
(no further events for this tracking number)
""",
        )
    )
    b.say(
        "One failed attempt on 4 June (address not found), back at depot LEJ-04 that evening, checked on the 5th, and nothing since under this tracking number."
    )

    # 7 — depot log: the relabel lives only here
    b.user("Nothing since the 5th? Pull the depot's raw events.")
    b.calls(
        (
            "get_depot_events",
            {"shipment_id": "SHP-77421", "depot": "LEJ-04"},
            "\n".join(json.dumps(e) for e in DEPOT_LOG),
        )
    )
    b.say(
        "The depot found the label damaged on 5 June and put a new one on it, reprinted from the manifest, so the parcel has travelled under a different tracking number since, still to the wrong house number. A second attempt failed on 6 June; it was shelved on hold, and on 8 June the shelf sweep counted one item missing."
    )

    # 8 — policy
    b.user("What does our policy say for parcels lost by the carrier?")
    b.calls(
        (
            "get_policy",
            {"topic": "lost parcels"},
            """\
Marketplace policy, section 7: lost parcels (version 2026-04, owner: marketplace ops)
7.1  A parcel is lost when the carrier reports it missing or shows no scan for 5 days.
7.2  Replace the item from stock at no cost, or refund it, as the customer chooses.
7.3  Goodwill: a voucher of up to 20 % of the order value may be offered instead of
     a replacement when stock is short.
7.4  File a loss claim with the carrier within 14 days of the last scan; claims go under
     the marketplace default shipper account CA-77109 unless the case owner says otherwise.
7.5  Refund the shipping fee on any lost parcel.
""",
        )
    )
    b.say(
        "Section 7: a parcel with no scan for five days counts as lost; we replace it from stock or refund, as the customer prefers; a goodwill voucher of up to 20 % is possible instead of a replacement when stock is short; a loss claim must be filed within 14 days of the last scan; and the shipping fee is refunded."
    )

    # 9 — the user's own fact (said once, never again)
    b.user(
        "Context from the chat: the machine is a gift for her sister's wedding on 14 June, so whatever we do has to arrive before that."
    )
    b.say("Understood, that sets the deadline for whatever we send.")

    # 10 — the carrier (revised at turn 24)
    b.user(
        "Plan for now: the replacement goes out with DPD standard from whichever warehouse has stock."
    )
    b.say("Noted: replacement with DPD standard.")

    # 11 — stock
    b.user("Check stock of the machine.")
    b.calls(
        (
            "get_inventory",
            {"sku": "SKU-2290-ES"},
            js(
                {
                    "sku": "SKU-2290-ES",
                    "warehouses": [
                        {
                            "code": "LEJ-1",
                            "on_hand": 0,
                            "reserved": 0,
                            "next_inbound": "2026-06-19",
                        },
                        {"code": "BRE-2", "on_hand": 3, "reserved": 1, "next_inbound": None},
                        {
                            "code": "MUC-1",
                            "on_hand": 1,
                            "reserved": 1,
                            "next_inbound": "2026-06-24",
                        },
                    ],
                }
            ),
        )
    )
    b.say(
        "Only Bremen (BRE-2) has free stock: 3 on hand, 1 reserved. Leipzig is empty until the 19th and Munich's single unit is reserved."
    )

    # 12 — other cases through the depot
    b.user("Any other escalations through depot LEJ-04 this week?")
    b.calls(
        (
            "search_orders",
            {"query": "LEJ-04 exception"},
            js(
                {
                    "results": [
                        {
                            "order_id": "ORD-58190-C",
                            "customer": "CUS-39911",
                            "status": "exception",
                            "note": "OPS-8824 relabel, delivered late",
                        },
                        {
                            "order_id": "ORD-58244-F",
                            "customer": "CUS-41002",
                            "status": "exception",
                            "note": "address not found",
                        },
                    ]
                }
            ),
        )
    )
    b.say(
        "Two more exceptions at LEJ-04 this week: one relabelled and delivered late, one address-not-found still open. The depot seems to be struggling."
    )

    # 13 — pick records (the serial not named yet)
    b.user("Pull the warehouse pick records for that SKU on 3 June.")
    b.calls(
        (
            "list_pick_records",
            {"sku": "SKU-2290-ES", "date": "2026-06-03"},
            f"""\
pick_id   time   order         serial        packer  station
PK-90412  09:14  ORD-58177-B   SN-7Q4-1509   WH-22   P3
PK-90455  11:02  ORD-58204-A   SN-7Q4-0951   WH-31   P1
PK-90467  13:47  {ORDER}   {SERIAL}   WH-31   P1
PK-90481  15:20  ORD-58236-D   SN-7Q4-0159   WH-22   P3
""",
        )
    )
    b.say(
        "Four machines were picked on 3 June. Packer WH-31 at station P1 did two of them; I'll open the one for our order to check the scans."
    )

    # 14 — an aside
    b.user("How many orders has she placed with us before this one?")
    b.say("Seven orders in total since March 2024, so six before this one.")

    # 15 — the serial found and summarised once
    b.user("OK, open the pick record for our order.")
    b.calls(
        (
            "get_pick_record",
            {"pick_id": "PK-90467"},
            js(
                {
                    "pick_id": "PK-90467",
                    "order_id": ORDER,
                    "serial": SERIAL,
                    "scans": [
                        {"ts": "2026-06-03T13:47:02Z", "scan": "bin", "bin": "BRE-A-14"},
                        {"ts": "2026-06-03T13:49:31Z", "scan": "serial", "value": SERIAL},
                        {"ts": "2026-06-03T14:20:51Z", "scan": "label", "value": TRACKING},
                    ],
                    "packer": "WH-31",
                    "weight_kg": 9.42,
                }
            ),
        )
    )
    b.say(
        f"Confirmed: {SERIAL} is the unit that shipped in her parcel; it was scanned at 13:49 and labelled at 14:20 under the original tracking number, and the weight matches the carrier's 9.42 kg."
    )

    # 16 — note, following the rule (no serial)
    b.user("Add a note to the order with where we are.")
    b.calls(
        (
            "add_order_note",
            {
                "order_id": ORDER,
                "text": f"{TAG} - Label re-keyed with the wrong house number; GLS relabelled at LEJ-04 on 5 June, two failed attempts, item missing from hold shelf on 8 June. Replacement from BRE-2 and carrier claim pending.",
            },
            json.dumps({"ok": True, "note_id": "N-30117", "created": "2026-06-09T08:55:12Z"}),
        )
    )
    b.say(
        "Added the note: wrong house number on the label, relabel and two failed attempts at LEJ-04, item missing from the hold shelf; replacement and claim pending."
    )

    # 17 — the option the assistant proposes
    b.user("What are our options here?")
    b.say(
        "Replacement from Bremen or a refund, per 7.2. Since Bremen's stock is thin, I'd suggest offering a 20 % voucher instead of the replacement, as 7.3 allows, and refunding the shipping fee."
    )

    # 18 — the rejection with its reason
    b.user(
        "No, we won't offer a voucher: her company pays by purchase order, and vouchers can't be redeemed on purchase-order accounts. We replace the machine."
    )
    b.say(
        "Understood: no voucher, since it can't be redeemed on her purchase-order account; we replace the machine."
    )

    # 19 — reserve
    b.user("Reserve a unit in Bremen.")
    b.calls(
        (
            "reserve_stock",
            {"sku": "SKU-2290-ES", "warehouse": "BRE-2", "order_id": ORDER},
            json.dumps(
                {
                    "reservation_id": "RSV-61804",
                    "warehouse": "BRE-2",
                    "units": 1,
                    "expires": "2026-06-12T00:00:00Z",
                }
            ),
        )
    )
    b.say("Reserved one unit in Bremen as RSV-61804; the reservation holds until 12 June.")

    # 20 — the claim
    b.user("File the loss claim with GLS.")
    b.calls(
        (
            "open_carrier_claim",
            {
                "shipment_id": "SHP-77421",
                "shipper_account": SHIPPER,
                "value": "689.00 EUR",
                "reason": "Parcel missing from hold shelf H-04-22 at depot LEJ-04 after relabel on 2026-06-05; last scan 2026-06-08.",
            },
            json.dumps({"claim_id": "CLM-22510", "status": "submitted", "carrier": "GLS"}),
        )
    )
    b.say(
        "Filed with GLS as CLM-22510 for 689.00 EUR under the shipper account you specified; status submitted."
    )

    # 21 — shipping fee
    b.user("Refund the shipping fee as well, per the policy.")
    b.say(
        "The order shows no separate shipping fee: delivery was included in the 689.00 EUR, so there is nothing to refund there."
    )

    # 22 — time
    b.user("What time is it in Berlin?")
    b.calls(
        ("get_current_time", {"timezone": "Europe/Berlin"}, "2026-06-09 11:02:37 CEST (Tuesday)")
    )
    b.say("It's 11:02 on Tuesday 9 June in Berlin.")

    # 23 — claim state
    b.user("Has GLS picked up the claim?")
    b.calls(
        (
            "get_claim",
            {"claim_id": "CLM-22510"},
            json.dumps(
                {
                    "claim_id": "CLM-22510",
                    "status": "in_review",
                    "handler": "GLS claims Berlin",
                    "decision_due": "2026-06-16",
                }
            ),
        )
    )
    b.say("Yes, it's in review with GLS claims Berlin, decision due by 16 June.")

    # 24 — the revision
    b.user(
        "Correction on the carrier: DPD standard takes three to four days from Bremen, that's cutting it too close, so the replacement goes with UPS Express instead."
    )
    b.say("Got it: the replacement ships express instead of standard; I'll use that service.")

    # 25 — ship the replacement (right address)
    b.user("Create the replacement shipment.")
    b.calls(
        (
            "create_shipment",
            {
                "order_id": ORDER,
                "carrier_service": "UPS Express",
                "address": f"Mira Sandoval, {ADDRESS}, 10435 Berlin, DE",
                "reservation_id": "RSV-61804",
            },
            json.dumps(
                {
                    "shipment_id": "SHP-77690",
                    "tracking_number": "1Z-60B2-4720-0042",
                    "pickup": "2026-06-09T16:00:00+02:00",
                    "eta": "2026-06-10",
                }
            ),
        )
    )
    b.say(
        "Created SHP-77690 with UPS Express from Bremen, pickup today at 16:00, expected tomorrow."
    )

    # 26 — check the label
    b.user("Check the label this time.")
    b.calls(
        (
            "get_shipment",
            {"shipment_id": "SHP-77690"},
            js(
                {
                    "shipment_id": "SHP-77690",
                    "carrier": "UPS",
                    "service": "Express",
                    "label": {
                        "printed": "2026-06-09T11:10:02Z",
                        "name": "Mira Sandoval",
                        "street": ADDRESS,
                        "postcode": "10435",
                        "city": "Berlin",
                    },
                    "label_source": "order address (automatic)",
                    "status": "label_created",
                }
            ),
        )
    )
    b.say(
        "This time the label was printed automatically from the order's address and matches it exactly."
    )

    # 27 — email the customer (no serial, no date)
    b.user(
        "Email her: sorry, a replacement ships today by express and should arrive tomorrow. Keep it short."
    )
    b.calls(
        (
            "email_customer",
            {
                "to": "mira.sandoval@hbk-architekten.de",
                "subject": "Your espresso machine (ORD-58213-K)",
                "body": "Dear Ms Sandoval,\n\nwe are sorry your parcel went astray. A replacement ships today by express and should reach you tomorrow.\n\nKind regards,\nMarketplace support",
            },
            json.dumps({"queued": True, "message_id": "em-20260609-5c2e"}),
        )
    )
    b.say(
        "Sent her a short apology: the replacement ships today by express and should arrive tomorrow."
    )

    # 28 — claim decision
    b.user("Any news on the claim?")
    b.calls(
        (
            "get_claim",
            {"claim_id": "CLM-22510"},
            json.dumps(
                {
                    "claim_id": "CLM-22510",
                    "status": "approved",
                    "amount": "689.00 EUR",
                    "paid_to": "shipper account",
                    "decided": "2026-06-09T11:31:00Z",
                }
            ),
        )
    )
    b.say("GLS approved the claim at 11:31 for the full 689.00 EUR, paid to the shipper account.")

    # 29 — the look-alike order
    b.user("Just to be safe: the Sandvall order from the same day is fine?")
    b.calls(
        (
            "get_order",
            {"order_id": "ORD-58231-K"},
            js(
                {
                    "order_id": "ORD-58231-K",
                    "customer_id": "CUS-40761",
                    "items": [{"sku": "SKU-1182-MF", "name": "Milk frother", "qty": 1}],
                    "shipments": [
                        {"shipment_id": "SHP-77433", "carrier": "DHL", "status": "delivered"}
                    ],
                }
            ),
        )
    )
    b.say(
        "Yes: ORD-58231-K is a milk frother for another customer, shipped with DHL and delivered."
    )

    # 30 — depot follow-up
    b.user("Should we tell anyone about the depot?")
    b.say(
        "I'd flag LEJ-04 to the carrier account manager: three exceptions in a week, two involving relabels."
    )

    # 31 — what's left, in a note
    b.user(
        "I'll call the GLS depot myself after lunch about the missing parcel. Make sure the order note says what's left."
    )
    b.calls(
        (
            "add_order_note",
            {
                "order_id": ORDER,
                "text": f"{TAG} - Replacement SHP-77690 (UPS Express) ships today; claim CLM-22510 approved. Left to do: call depot LEJ-04 about the missing parcel and cancel it if found.",
            },
            json.dumps({"ok": True, "note_id": "N-30124", "created": "2026-06-09T11:40:03Z"}),
        )
    )
    b.say(
        "Added a note: replacement shipping today, claim approved, and the call to the depot still to do."
    )

    # 32
    b.user("Great, thanks, that's all for now.")
    b.say(
        "You're welcome. The replacement is on its way and the note lists the depot call as the last open item."
    )
    return b


def main() -> None:
    b = build()
    check_once(b, RELABEL, [(7, "tool")])
    check_once(b, "14 June", [(9, "user")])
    check_once(b, SERIAL, [(13, "tool"), (15, "tool"), (15, "assistant")])
    check_once(b, SHIPPER, [(3, "user"), (20, "call")])
    check_once(b, TAG, [(3, "user"), (16, "call"), (31, "call")])
    write_fixture(b, HERE, TOOLS, PROBES)


if __name__ == "__main__":
    main()
