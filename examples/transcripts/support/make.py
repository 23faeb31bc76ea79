"""Generate the support fixture: a 40-turn billing escalation with 20 billing tools.

A Tier-2 support specialist and the agent work a double charge for Northwind Florals GmbH
(ACC-20417; a look-alike account ACC-20471 exists). Facts of the kinds the held-out sessions
lost, each planted once:

* turn 3, the user's standing rules: ticket notes start with the case code BIL-7731; every
  refund in the case uses reason code RC-ESC-40 (the refund policy lists the usual codes);
* turn 5, only inside a tool result (an internal finance note in the ticket, never restated):
  refunds must reference SEPA mandate MND-5528-QX (the revoked one, MND-5582-QX, sits beside
  it);
* turn 14, found by a query and summarised once by the assistant: the duplicate charge is
  PAY-9d04b7 (a gateway retry of PAY-7f3a21; January's payment is PAY-7f3a12);
* turn 10 → revised at turn 26: refund to the Visa ending 4242 → the Mastercard ending 8810;
* turn 18, a rejected decision with its reason: no account credit, the account closes on
  31 March so a credit would never be used;
* turn 2, a look-alike old domain: the billing address is jonas.berger@northwind-florals.de;
  the February invoice went to the pre-rebrand jonas.berger@northwindflorals.com and bounced.

    python examples/transcripts/support/make.py   # rewrites the three files beside it

This is the transcript the ``retrieval`` policy and the ledger patterns were tuned on.
"""

# ruff: noqa: E501 (tool outputs are records and documents, kept as they would print)
from __future__ import annotations

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

SEED = 4011
ACCOUNT = "ACC-20417"
CASE = "BIL-7731"
REASON = "RC-ESC-40"
MANDATE = "MND-5528-QX"
DUPLICATE = "PAY-9d04b7"
EMAIL = "jonas.berger@northwind-florals.de"
OLD_EMAIL = "jonas.berger@northwindflorals.com"

S = {"type": "string"}


TOOLS = [
    tool(
        "lookup_customer",
        "Find customer accounts by company name, contact name, email or domain. Returns up to "
        "10 candidates with account id, legal name, city and status. Use it before anything "
        "else when you only have a name; do not guess account ids.",
        {"query": p("Name, email or domain, e.g. 'Northwind' or 'acme.de'.")},
        ["query"],
    ),
    tool(
        "get_account",
        "Read one account: legal name, contacts and billing email, plan, payment methods with "
        "their state, balance and flags.",
        {"account_id": p("Account id, e.g. ACC-10001.")},
        ["account_id"],
    ),
    tool(
        "update_account",
        "Change an account's billing contact fields. Returns the old and new values.",
        {
            "account_id": p("Account id."),
            "billing_email": p("New billing email address."),
            "comment": p("Why the change is made (kept in the audit log)."),
        },
        ["account_id"],
    ),
    tool(
        "search_tickets",
        "Search support tickets by account, status or text. Returns id, subject, status and "
        "last update, newest first.",
        {
            "account_id": p("Only tickets of this account."),
            "status": p(
                "open, pending, closed or all (default all).",
                enum=["open", "pending", "closed", "all"],
            ),
            "text": p("Free text to match in subject and body."),
        },
        [],
    ),
    tool(
        "get_ticket",
        "Read a ticket with its whole thread: customer messages, agent replies and internal "
        "notes (internal notes are never visible to the customer).",
        {"ticket_id": p("Ticket id, e.g. T-80001.")},
        ["ticket_id"],
    ),
    tool(
        "add_ticket_note",
        "Add an internal note to a ticket. Notes are visible to staff only.",
        {"ticket_id": p("Ticket id."), "text": p("The note.")},
        ["ticket_id", "text"],
    ),
    tool(
        "list_invoices",
        "List an account's invoices in a date range: number, date, total, status, delivery.",
        {
            "account_id": p("Account id."),
            "since": p("First invoice date, YYYY-MM-DD."),
            "until": p("Last invoice date, YYYY-MM-DD (default today)."),
        },
        ["account_id"],
    ),
    tool(
        "get_invoice",
        "Read one invoice: line items, tax, totals, payments applied and email delivery log.",
        {"invoice_id": p("Invoice number, e.g. INV-2026-0101.")},
        ["invoice_id"],
    ),
    tool(
        "list_payments",
        "List card and bank payments of an account: payment id, time, amount, method, status "
        "and the invoice each is applied to.",
        {
            "account_id": p("Account id."),
            "since": p("From this date, YYYY-MM-DD."),
            "invoice_id": p("Only payments applied to this invoice."),
        },
        ["account_id"],
    ),
    tool(
        "get_payment",
        "Read one payment with its gateway events (authorisation, capture, retries, "
        "idempotency key).",
        {"payment_id": p("Payment id, e.g. PAY-1a2b3c.")},
        ["payment_id"],
    ),
    tool(
        "get_subscription",
        "Read an account's subscription: plan, seats, billing cycle, scheduled and pending "
        "changes, sync state with billing.",
        {"account_id": p("Account id.")},
        ["account_id"],
    ),
    tool(
        "change_plan",
        "Change seats or plan of a subscription. Affects the next invoice; never past ones.",
        {
            "account_id": p("Account id."),
            "seats": {"type": "integer", "description": "New seat count."},
            "effective": p(
                "When the change applies: now or next_cycle.", enum=["now", "next_cycle"]
            ),
        },
        ["account_id", "seats"],
    ),
    tool(
        "get_contract",
        "Read the account's contract: term, renewal, notice period, cancellation requests.",
        {"account_id": p("Account id.")},
        ["account_id"],
    ),
    tool(
        "get_refund_policy",
        "Fetch the refund policy section for a situation (duplicate charge, overbilling, "
        "goodwill, cancellation): rules, approval limits, reason codes, timelines.",
        {"topic": p("What the refund is for.")},
        ["topic"],
    ),
    tool(
        "calculate_refund",
        "Compute refund amounts with VAT from line items or a seat difference. Read-only.",
        {
            "account_id": p("Account id."),
            "items": {
                "type": "array",
                "items": S,
                "description": "What to refund, e.g. ['PAY-1a2b3c', 'seats:3:2026-02'].",
            },
        },
        ["account_id", "items"],
    ),
    tool(
        "request_approval",
        "Ask a team lead to approve an action above the agent's limit. Returns a request id.",
        {
            "approver": p("Who approves (name)."),
            "amount": p("Amount with currency, e.g. '120.00 EUR'."),
            "reason": p("What is to be approved and why."),
        },
        ["approver", "amount", "reason"],
    ),
    tool(
        "get_approval",
        "Read the state of an approval request.",
        {"request_id": p("Approval request id, e.g. APR-1001.")},
        ["request_id"],
    ),
    tool(
        "issue_refund",
        "Refund a payment (fully or partly) to a payment method on file. Irreversible. The "
        "memo goes to the bank with the refund.",
        {
            "payment_id": p("The payment refunded."),
            "amount": p("Amount with currency."),
            "method": p("Payment method to refund to, e.g. 'mastercard 1234'."),
            "reason_code": p("Refund reason code from the refund policy."),
            "memo": p("Text sent to the bank with the refund."),
        },
        ["payment_id", "amount", "method", "reason_code"],
    ),
    tool(
        "send_email",
        "Email the customer from the support address. The text is sent as written.",
        {
            "to": p("Recipient address."),
            "subject": p("Subject line."),
            "body": p("Plain-text body."),
        },
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
# Seven facts of the kinds the held-out sessions lost; six phrasings each.
- id: case_code
  kind: rule
  planted_turn: 3
  question:
    - "You are about to add a note to the ticket. What must the note start with?"
    - "Which case code goes at the start of every ticket note in this case?"
    - "Remind me of the case code I gave you for this escalation."
    - "Write the first word of the next ticket note you will add."
    - "What prefix do ticket notes in this case need?"
    - "Before adding the final note: which code must it begin with?"
  expected: "{CASE}"
  distractors: ["BIL-7713"]
- id: reason_code
  kind: rule
  planted_turn: 3
  question:
    - "Which reason code must the refunds in this case use?"
    - "Fill in the reason_code field for the refund. What value?"
    - "The refund policy lists several reason codes. Which one do we use here?"
    - "What reason code did I tell you to put on every refund?"
    - "State the reason code for the duplicate-charge refund."
    - "Before issuing the refunds: which reason code goes on them?"
  expected: "{REASON}"
  distractors: ["RC-DUP-01", "RC-OVB-01", "RC-ESC-04", "RC-GDW-01"]
- id: mandate_reference
  kind: tool_result
  planted_turn: 5
  question:
    - "Which SEPA mandate reference must the refund memo carry?"
    - "What goes in the refund memo so the customer's bank accepts it?"
    - "The bank rejects refunds without a mandate reference. Which one is it?"
    - "Fill in the memo field of the refund: what reference do you put?"
    - "Which mandate ID did finance say the refund has to reference?"
    - "Before issuing the refund, state the mandate reference it needs."
  expected: "{MANDATE}"
  distractors: ["MND-5582-QX"]
- id: duplicate_payment
  kind: summary
  planted_turn: 14
  question:
    - "Which payment is the duplicate charge?"
    - "Give the payment id of the duplicate February charge."
    - "Which payment do we refund for the double charge?"
    - "Fill in the payment_id field of the duplicate-charge refund."
    - "The gateway retried one payment. Which payment id is the retry?"
    - "Name the payment that should not have been captured."
  expected: "{DUPLICATE}"
  distractors: ["PAY-7f3a21", "PAY-7f3a12", "PAY-9d047b", "PAY-b7d409"]
- id: refund_card
  kind: revised
  planted_turn: 26
  question:
    - "Which card should the refund go to? Give the last four digits."
    - "Fill in the refund method: which card, by its last four digits?"
    - "Where does the customer want the money back? Last four digits of the card."
    - "Which payment method on file receives the refund?"
    - "The customer told us where to refund. Which card ending?"
    - "Before issuing the refund, state the card it goes to (last four digits)."
  expected: "8810"
  distractors: ["4242"]
- id: credit_rejected
  kind: rejected
  planted_turn: 18
  question:
    - "Why are we not giving the customer an account credit instead of a refund?"
    - "An account credit was considered. Why was it turned down?"
    - "What was the reason for rejecting the account credit?"
    - "Why refund rather than credit the account?"
    - "Remind me why a credit on the next invoice does not work here."
    - "What did I say against the account-credit option?"
  expected_regex: "(?i)\\\\b(clos(e|es|ed|ing|ure)|cancel\\\\w*|terminat\\\\w*|end of (the )?(month|march)|31 march|march 31|leav\\\\w+|never (be )?used)"
- id: billing_email
  kind: lookalike
  planted_turn: 2
  question:
    - "To which address should the refund confirmation email go?"
    - "What is the customer's current billing email?"
    - "Fill in the 'to' field of the confirmation email. Which address?"
    - "Which email address is right for the customer now?"
    - "The February invoice bounced. Where should invoices go instead?"
    - "State the billing contact's email address."
  expected: "{EMAIL}"
  distractors: ["{OLD_EMAIL}", "aylin.demir@northwind-florals.de"]
"""


def build() -> TranscriptBuilder:
    b = TranscriptBuilder(SEED, avoid=("5528", "9d04b7", "8810", "7731", "ESC-40"))

    # 1 — which account
    b.user(
        "Morning! I'm picking up a billing escalation for Northwind Florals: they say they were charged twice in February. Can you find the account?"
    )
    b.calls(
        (
            "lookup_customer",
            {"query": "Northwind Florals"},
            """\
2 candidates for "Northwind Florals"
account_id  legal_name                     city      country  status  since
ACC-20417   Northwind Florals GmbH         Hamburg   DE       active  2023-04-18
ACC-20471   Northwind Floral Supply Ltd    Leeds     GB       active  2024-09-02
""",
        )
    )
    b.say(
        "Two accounts match: ACC-20417, Northwind Florals GmbH in Hamburg, and ACC-20471, Northwind Floral Supply Ltd in Leeds. Which one is the customer?"
    )

    # 2 — the account (the billing email; the old domain appears later)
    b.user("It's the Hamburg one.")
    b.calls(
        (
            "get_account",
            {"account_id": ACCOUNT},
            f"""\
account: {ACCOUNT}  Northwind Florals GmbH  (VAT DE318855102)
address: Spaldingstraße 64, 20097 Hamburg, DE
plan: Growth (annual, billed monthly)   seats: 12   currency: EUR
contacts:
  - Jonas Berger, Head of Finance, billing contact  <{EMAIL}>  +49 40 3095 1120
  - Aylin Demir, Operations, admin                 <aylin.demir@northwind-florals.de>
billing_email: {EMAIL}   (domain changed on 2025-11-03 after the company's rebrand)
payment_methods:
  - visa       •4242  exp 03/2026  default  state: active
  - mastercard •8810  exp 11/2028           state: active
balance: 0.00 EUR    dunning: none    flags: escalated (T-88214)
""",
        )
    )
    b.say(
        "ACC-20417 is Northwind Florals GmbH, Growth plan with 12 seats, billed monthly in EUR. Billing contact is Jonas Berger (Head of Finance). Two cards on file: a Visa ending 4242 (the default) and a Mastercard. Balance is zero and the account is flagged as escalated under ticket T-88214."
    )

    # 3 — the standing rules
    b.user(
        f"Two rules for this whole case, please. Every note you add to a ticket must start with the case code {CASE}. And every refund in this case must use reason code {REASON}, not the usual codes: finance tracks escalations separately."
    )
    b.say(
        "Understood: ticket notes in this case start with the case code, and refunds carry the escalation reason code you gave rather than the standard ones."
    )

    # 4 — tickets
    b.user("What tickets do we have on this account?")
    b.calls(
        (
            "search_tickets",
            {"account_id": ACCOUNT, "status": "all"},
            """\
3 tickets for ACC-20417 (newest first)
id        subject                                   status   updated
T-88214   Charged twice for February                open     2026-03-09 16:40
T-87190   Change of invoice address after rebrand   closed   2025-11-04 10:12
T-86655   Add 4 seats for the Leipzig shop          closed   2025-06-21 09:05
""",
        )
    )
    b.say(
        "Three tickets: T-88214 'Charged twice for February' (open, updated 9 March), T-87190 about the invoice address after their rebrand (closed in November) and T-86655 for adding four seats (closed last June)."
    )

    # 5 — the ticket; the mandate lives only in its internal note
    b.user("Open T-88214.")
    b.calls(
        (
            "get_ticket",
            {"ticket_id": "T-88214"},
            f"""\
T-88214  Charged twice for February   status: open  priority: high  account: {ACCOUNT}
created 2026-03-02 08:14 by customer (Jonas Berger)   assignee: tier2-billing

[2026-03-02 08:14] customer:
  Hello, our card was charged twice for the February invoice (INV-2026-0214), both on
  14 February. We only have 9 users since January as well, but the invoice still says 12.
  Please refund the double payment and correct the seats. Regards, Jonas Berger
[2026-03-02 11:30] agent (Lena K., tier1):
  Thanks Jonas, I can see two payments on 14 February and have passed this to our billing
  team. We'll come back to you within two business days.
[2026-03-03 09:02] internal note (Lena K.):
  Escalated to tier2-billing, two captures same day. Customer is polite but firm.
[2026-03-04 15:47] internal note (finance ops, R. Schulte):
  Customer's bank (Hamburger Sparkasse) bounces refunds that lack the SEPA mandate
  reference. The old mandate MND-5582-QX was revoked in January when they re-signed; any
  refund must carry the new mandate reference {MANDATE} in the memo, or it comes back
  after ~10 days and we pay the return fee.
[2026-03-06 10:05] customer:
  Any update? The double charge is quite a lot of money for a small business.
[2026-03-06 13:20] agent (Lena K., tier1):
  Sorry for the wait, Jonas: the billing team has your case and will contact you shortly.
[2026-03-09 16:40] internal note (tier2 queue bot):
  SLA warning: first tier2 response due 2026-03-10 12:00.
""",
        )
    )
    b.say(
        "T-88214 was opened on 2 March by Jonas Berger: two charges for the February invoice INV-2026-0214, both on 14 February, and the invoice still bills 12 seats although they have had 9 since January. Tier 1 acknowledged it and escalated to us; there is an internal finance note about how refunds to their bank must be referenced, and the queue bot warns that our first response is due tomorrow at 12:00."
    )

    # 6 — invoices
    b.user("Pull their invoices since January.")
    b.calls(
        (
            "list_invoices",
            {"account_id": ACCOUNT, "since": "2026-01-01"},
            """\
invoice        date        period           total        status   delivery
INV-2026-0114  2026-01-14  2026-01          1,199.52 EUR paid     delivered  jonas.berger@northwind-florals.de
INV-2026-0214  2026-02-14  2026-02          1,199.52 EUR paid     BOUNCED    (see invoice)
INV-2026-0314  2026-03-14  2026-03 (draft)  1,199.52 EUR draft    -
""",
        )
    )
    b.say(
        "January (INV-2026-0114) and February (INV-2026-0214) are both 1,199.52 EUR and paid; March (INV-2026-0314) is a draft at the same amount. The February invoice email bounced, which I'll look into."
    )

    # 7 — the February invoice (the old domain)
    b.user("Show me the February invoice.")
    b.calls(
        (
            "get_invoice",
            {"invoice_id": "INV-2026-0214"},
            f"""\
INV-2026-0214   Northwind Florals GmbH ({ACCOUNT})   issued 2026-02-14   due 2026-02-14 (card)
line items:
  Growth plan, 12 seats × 84.00 EUR, period 2026-02-01..2026-02-28      1,008.00 EUR
  subtotal                                                              1,008.00 EUR
  VAT 19 %                                                                191.52 EUR
  total                                                                 1,199.52 EUR
payments applied:
  2026-02-14 09:02:11  card visa •4242   1,199.52 EUR   captured
  2026-02-14 09:02:14  card visa •4242   1,199.52 EUR   captured
  overpaid: 1,199.52 EUR (held as unapplied cash)
delivery log:
  2026-02-14 09:05:40  email to {OLD_EMAIL}  status: bounced (550 mailbox unavailable)
  2026-02-14 09:05:41  no retry (recipient copied from invoice template v3)
""",
        )
    )
    b.say(
        "The February invoice bills 12 seats at 84.00 EUR: 1,008.00 EUR plus 191.52 EUR VAT, 1,199.52 EUR in total. Two card captures of that amount were applied three seconds apart (09:02:11 and 09:02:14), so one full amount is sitting as unapplied cash. The invoice email went to an address at their pre-rebrand domain, taken from an old invoice template, and bounced."
    )

    # 8 — seats
    b.user("They say they've only had 9 seats since January. Check the subscription.")
    b.calls(
        (
            "get_subscription",
            {"account_id": ACCOUNT},
            """\
subscription SUB-61730   plan: Growth   cycle: monthly (annual term)   price: 84.00 EUR / seat
seats: 12 (billing)   seats in use: 9 (since 2026-01-20)
changes:
  2026-01-20 10:44  seat change 12 -> 9 requested by aylin.demir@northwind-florals.de
                    effective: next_cycle (2026-02-01)
                    billing sync: FAILED (error BS-409: price book version mismatch)
  2025-06-21 09:05  seat change 8 -> 12 (T-86655)   billing sync: ok
pending: seat change 12 -> 9 not applied to billing
""",
        )
    )
    b.say(
        "They're right. A change from 12 to 9 seats was requested on 20 January for the next cycle (1 February), but the billing sync failed (BS-409, price book mismatch), so February was still billed for 12. The change is still pending and has never reached billing."
    )

    # 9 — overbilling amount
    b.user("So February is overbilled for 3 seats as well. How much is that with VAT?")
    b.calls(
        (
            "calculate_refund",
            {"account_id": ACCOUNT, "items": ["seats:3:2026-02"]},
            """\
refund calculation for ACC-20417
  seats:3:2026-02   3 × 84.00 EUR              252.00 EUR
  VAT 19 %                                      47.88 EUR
  total                                        299.88 EUR
""",
        )
    )
    b.say("Three seats for February come to 252.00 EUR plus 47.88 EUR VAT: 299.88 EUR.")

    # 10 — the card (revised at turn 26)
    b.user(
        "The customer wants any refund to go back to their Visa ending 4242, the card that was charged."
    )
    b.say("Noted: refunds to the Visa ending 4242, the card that was charged.")

    # 11 — policy
    b.user("What does the refund policy say for duplicate charges?")
    b.calls(
        (
            "get_refund_policy",
            {"topic": "duplicate charge"},
            """\
Refund policy, section 4: duplicate and erroneous charges (version 2026-01, owner: finance ops)
4.1  A charge captured twice for the same invoice is refunded in full to the original
     payment method, or to another method on file at the customer's written request.
4.2  Overbilling (seats, usage) is refunded or credited to the next invoice; credits
     expire when the account closes.
4.3  Limits: agents may refund up to 200.00 EUR per case alone; above that a team lead
     approves first (request_approval).
4.4  Reason codes: RC-DUP-01 duplicate card charge · RC-OVB-01 overbilling · RC-GDW-01
     goodwill · RC-ESC-04 legal escalation. Use the code of the main cause.
4.5  Timeline: card refunds reach the customer in 5-7 business days; tell customers
     "within 5-7 business days", never a date.
4.6  Every refund memo is sent to the bank as written.
""",
        )
    )
    b.say(
        "Section 4 of the policy: a duplicate capture is refunded in full to the original method, or another card on file if the customer asks in writing; overbilling can be refunded or credited to the next invoice (credits expire when an account closes); refunds over 200.00 EUR per case need a team lead's approval first; and customers are told 'within 5-7 business days', never a date. It lists standard reason codes per cause."
    )

    # 12 — payments (the duplicate is not named yet)
    b.user("List the payments since January.")
    b.calls(
        (
            "list_payments",
            {"account_id": ACCOUNT, "since": "2026-01-01"},
            """\
payment_id  time                 amount        method        status     invoice
PAY-7f3a12  2026-01-14 09:01:58  1,199.52 EUR  visa •4242    succeeded  INV-2026-0114
PAY-b7d409  2026-01-29 16:22:05     24.00 EUR  visa •4242    succeeded  ADD-ON-0129 (SMS pack)
PAY-7f3a21  2026-02-14 09:02:11  1,199.52 EUR  visa •4242    succeeded  INV-2026-0214
PAY-9d047b  2026-02-14 09:02:12     0.00 EUR   visa •4242    voided     INV-2026-0214 (auth only)
"""
            + DUPLICATE
            + """  2026-02-14 09:02:14  1,199.52 EUR  visa •4242    succeeded  INV-2026-0214
PAY-c31e88  2026-02-27 11:40:31     24.00 EUR  visa •4242    succeeded  ADD-ON-0227 (SMS pack)
""",
        )
    )
    b.say(
        "Six payments since January. Against INV-2026-0214 there are two successful captures of 1,199.52 EUR (09:02:11 and 09:02:14) plus a voided zero-amount authorisation in between; the rest are January's invoice payment and two 24.00 EUR SMS add-ons. I need the gateway events to tell which of the two captures is the retry."
    )

    # 13 — chargebacks
    b.user(
        "Before we go on: has the customer filed a chargeback with their bank? That would change things."
    )
    b.calls(
        (
            "search_tickets",
            {"account_id": ACCOUNT, "text": "chargeback dispute"},
            '0 tickets match "chargeback dispute" for ACC-20417.\nno disputes recorded by the payment gateway for this account in the last 180 days',
        )
    )
    b.say(
        "No chargeback: no ticket mentions one and the gateway has no dispute on record for this account in the last 180 days."
    )

    # 14 — the duplicate found by a query, summarised once
    b.user("OK. Check the gateway events on the second capture.")
    b.calls(
        (
            "get_payment",
            {"payment_id": DUPLICATE},
            f"""\
payment {DUPLICATE}   account {ACCOUNT}   1,199.52 EUR   visa •4242   status: succeeded
invoice: INV-2026-0214
gateway events:
  2026-02-14 09:02:11.802  authorise      request_id gw-71c0  idempotency_key inv-0214-att1
  2026-02-14 09:02:12.930  timeout        gateway did not confirm within 1,000 ms
  2026-02-14 09:02:14.115  authorise      request_id gw-71c4  idempotency_key inv-0214-att2  (retry)
  2026-02-14 09:02:14.620  capture        1,199.52 EUR
related: PAY-7f3a21 captured the same invoice at 09:02:11 (first attempt succeeded late)
flags: duplicate_capture=true   refundable: 1,199.52 EUR
""",
        )
    )
    b.say(
        f"Confirmed: {DUPLICATE} is the duplicate. The first attempt (PAY-7f3a21) timed out at the gateway but had in fact succeeded; the retry went out with a new idempotency key and was captured as well. {DUPLICATE} is flagged duplicate_capture and the full 1,199.52 EUR is refundable."
    )

    # 15 — a note following the rule (the duplicate id is not repeated)
    b.user("Add a note to the ticket with where we are.")
    note = f"{CASE} — Duplicate February capture confirmed from the gateway log (retry with a new idempotency key). Seat change 12->9 never reached billing (BS-409); February overbilled by 3 seats, 299.88 EUR incl. VAT. Refund method and approval pending."
    b.calls(
        (
            "add_ticket_note",
            {"ticket_id": "T-88214", "text": note},
            "note added to T-88214 (internal) at 2026-03-10 09:58",
        )
    )
    b.say(
        "Added an internal note to T-88214 with the confirmed duplicate capture, the failed seat sync and the 299.88 EUR overbilling, and that the refund method and approval are still open."
    )

    # 16 — contract
    b.user("Is the customer on an annual contract? Any notice period we should know about?")
    b.calls(
        (
            "get_contract",
            {"account_id": ACCOUNT},
            """\
contract CT-2023-0418-NF   Northwind Florals GmbH
term: annual, renews every 18 April   billing: monthly   notice: 30 days before renewal
cancellation: requested 2026-03-02 by jonas.berger@northwind-florals.de
              effective 2026-03-31 (early termination accepted, fee waived: T-88307)
final invoice: INV-2026-0314 (March), account closes 2026-03-31
""",
        )
    )
    b.say(
        "Annual term renewing each 18 April with 30 days' notice, billed monthly. But a cancellation was requested on 2 March and accepted early: the account closes on 31 March, with March's invoice as the final one (fee waived under T-88307)."
    )

    # 17 — the option the assistant proposes
    b.user("Interesting, they're leaving. What are our options for the seat overbilling?")
    b.say(
        "Per section 4.2, either refund the 299.88 EUR to a card, or apply it as an account credit against the March invoice INV-2026-0314. The credit is simpler operationally, since March is still a draft; I'd suggest the credit unless you prefer a refund."
    )

    # 18 — the rejection with its reason
    b.user(
        "No, we won't do an account credit: the account closes on 31 March, so a credit would never be used and would just expire. Refund the overbilling too."
    )
    b.say(
        "Understood: no credit for the overbilling, because the account closes on 31 March; both the duplicate and the overbilling get refunded."
    )

    # 19 — total
    b.user("What's the total refund then?")
    b.calls(
        (
            "calculate_refund",
            {"account_id": ACCOUNT, "items": ["duplicate:INV-2026-0214", "seats:3:2026-02"]},
            """\
refund calculation for ACC-20417
  duplicate capture on INV-2026-0214           1,199.52 EUR
  seats:3:2026-02   3 × 84.00 EUR + VAT 19 %         299.88 EUR
  total                                        1,499.40 EUR
""",
        )
    )
    b.say(
        "1,499.40 EUR in total: 1,199.52 EUR for the duplicate capture and 299.88 EUR for the three seats."
    )

    # 20 — approval
    b.user("That's over the 200 limit. Ask Tomasz for approval, he's the lead on shift.")
    b.calls(
        (
            "request_approval",
            {
                "approver": "Tomasz Wierzbicki",
                "amount": "1,499.40 EUR",
                "reason": "Refund for T-88214: duplicate February capture (1,199.52 EUR) and 3 overbilled seats (299.88 EUR); account closes 31 March so no credit.",
            },
            "approval request APR-3307 created for Tomasz Wierzbicki (pending); he is notified in the tier2 channel",
        )
    )
    b.say("Requested approval from Tomasz Wierzbicki for 1,499.40 EUR (APR-3307); it's pending.")

    # 21 — the bounced email
    b.user("While we wait: why did the February invoice bounce?")
    b.calls(
        (
            "get_ticket",
            {"ticket_id": "T-87190"},
            """\
T-87190  Change of invoice address after rebrand   status: closed   account: ACC-20417
[2025-11-03 14:02] customer: We are now Northwind Florals with a hyphen, new domain
  northwind-florals.de. Please send invoices to the new address from now on.
[2025-11-04 10:12] agent (tier1): Updated the billing email on the account. Closing.
[2025-11-04 10:15] internal note: BIL-7713 template audit: invoice template v3 still has
  the old recipient; ticket for billing-platform filed (BP-2291).
""",
        )
    )
    b.say(
        "Their billing email was changed on the account after the rebrand last November, but the invoice template (v3) kept the old recipient at the pre-rebrand domain; that was flagged to the billing platform team then (BP-2291) and evidently never fixed, so February's invoice went to the dead mailbox."
    )

    # 22 — template
    b.user("Can you fix it on our side?")
    b.calls(
        (
            "update_account",
            {
                "account_id": ACCOUNT,
                "billing_email": EMAIL,
                "comment": "Re-save billing email so invoice template v3 picks up the current address (T-88214, BP-2291).",
            },
            f"billing_email: {EMAIL} -> {EMAIL} (unchanged)\ninvoice template v3 recipient re-synced from account: ok\nnext invoice will be delivered to the account's billing email",
        )
    )
    b.say(
        "Done: re-saving the billing email re-synced the invoice template, so the next invoice goes to the account's current billing address."
    )

    # 23 — time
    b.user("What time is it in Hamburg? Finance closes the refund batch at 15:00 local.")
    b.calls(
        ("get_current_time", {"timezone": "Europe/Berlin"}, "2026-03-10 11:21:09 CET (Tuesday)")
    )
    b.say("It's 11:21 in Hamburg, so about three and a half hours before the 15:00 refund batch.")

    # 24 — approval state
    b.user("Did Tomasz approve yet?")
    b.calls(
        (
            "get_approval",
            {"request_id": "APR-3307"},
            "APR-3307  state: approved  by Tomasz Wierzbicki at 2026-03-10 11:24 CET\ncomment: ok, both parts. Mind the bank reference finance mentioned.",
        )
    )
    b.say(
        "Approved by Tomasz at 11:24 for both parts, with a reminder to mind the bank reference finance mentioned on the ticket."
    )

    # 25 — hold
    b.user(
        "Good. Hold off on the refund for a minute, I'm calling the customer to double-check the card."
    )
    b.say("Holding; nothing will be refunded until you're back.")

    # 26 — the revision
    b.user(
        "Correction from the call: the Visa ending 4242 expires this month and they've cancelled it, so refund to the Mastercard ending "
        + "88"
        + "10 instead. They'll confirm by email."
    )
    b.say(
        "Got it: the refund goes to the Mastercard on file instead of the Visa, which is being cancelled."
    )

    # 27 — methods
    b.user("Check that the Mastercard is actually on the account.")
    b.calls(
        (
            "get_account",
            {"account_id": ACCOUNT},
            f"""\
account: {ACCOUNT}  Northwind Florals GmbH
payment_methods:
  - visa       •4242  exp 03/2026  default  state: cancelled by customer 2026-03-10 11:31
  - mastercard •8810  exp 11/2028           state: active  (verified 2024-02-11)
billing_email: {EMAIL}
balance: -1,199.52 EUR (unapplied cash from INV-2026-0214)
""",
        )
    )
    b.say(
        "Yes: the Mastercard is active and verified; the Visa now shows as cancelled by the customer at 11:31."
    )

    # 28 — the March draft
    b.user("The March draft still says 12 seats, right?")
    b.calls(
        (
            "get_invoice",
            {"invoice_id": "INV-2026-0314"},
            """\
INV-2026-0314 (draft)   Northwind Florals GmbH (ACC-20417)   to be issued 2026-03-14
line items:
  Growth plan, 12 seats × 84.00 EUR, period 2026-03-01..2026-03-31      1,008.00 EUR
  VAT 19 %                                                                191.52 EUR
  total                                                                 1,199.52 EUR
notes: final invoice (contract ends 2026-03-31)
""",
        )
    )
    b.say("Yes, the March draft bills 12 seats for 1,199.52 EUR; it's marked as the final invoice.")

    # 29 — fix seats
    b.user("Set them to 9 now so March is right.")
    b.calls(
        (
            "change_plan",
            {"account_id": ACCOUNT, "seats": 9, "effective": "now"},
            "subscription SUB-61730: seats 12 -> 9 effective now\nbilling sync: ok (price book 2026-01)\nINV-2026-0314 (draft) recalculated: 9 × 84.00 EUR = 756.00 EUR + VAT 143.64 EUR = 899.64 EUR",
        )
    )
    b.say(
        "Seats are now 9 and the sync went through; the March draft is recalculated to 899.64 EUR (756.00 EUR plus 143.64 EUR VAT)."
    )

    # 30 — customer email confirms
    b.user("Jonas's email should be in; does the ticket show his confirmation?")
    b.calls(
        (
            "get_ticket",
            {"ticket_id": "T-88214"},
            f"""\
T-88214  Charged twice for February   status: open   (showing the last 3 entries)
[2026-03-10 09:58] internal note (agent): {note}
[2026-03-10 11:36] customer:
  Hi, as discussed on the phone: please refund to our Mastercard, our Visa is cancelled.
  Thank you for sorting this out. Jonas
[2026-03-10 11:37] system: customer message received by email from {EMAIL}
""",
        )
    )
    b.say(
        "Yes, Jonas wrote at 11:36 confirming the refund should go to the Mastercard because the Visa is cancelled; it came from his current address."
    )

    # 31 — VAT question
    b.user("He also asked whether they get a corrected VAT invoice for February. What's the rule?")
    b.calls(
        (
            "get_refund_policy",
            {"topic": "corrected invoices and VAT"},
            "Refund policy, section 6: corrected invoices\n6.1  A refund of an invoiced amount is documented with a credit note (Gutschrift) that\n     references the original invoice; it is issued automatically when the refund posts.\n6.2  A duplicate capture is not invoiced, so its refund needs no credit note.\n6.3  Credit notes are emailed to the account's billing email.",
        )
    )
    b.say(
        "Per section 6: the seat refund is an invoiced amount, so a credit note referencing INV-2026-0214 is issued automatically when that refund posts and emailed to the billing address; the duplicate capture was never invoiced, so it needs no credit note."
    )

    # 32 — other account? (look-alike)
    b.user("Just to be safe, the Leeds account isn't involved in any of this?")
    b.calls(
        (
            "list_payments",
            {"account_id": "ACC-20471", "since": "2026-02-01"},
            "payment_id  time                 amount      method         status     invoice\nPAY-44e0c2  2026-02-03 10:15:40  412.80 GBP  direct debit   succeeded  INV-2026-0203-L\nPAY-44e1d9  2026-03-03 10:15:38  412.80 GBP  direct debit   succeeded  INV-2026-0303-L",
        )
    )
    b.say(
        "No: ACC-20471 (Leeds) pays 412.80 GBP by direct debit once a month and has one payment per invoice; nothing of this case touches it."
    )

    # 33 — customer-facing wording
    b.user("When I reply, what can I tell him about timing?")
    b.say(
        "Per the policy: the refunds reach the card within 5-7 business days once issued. Don't give a specific date."
    )

    # 34 — SMS add-ons
    b.user(
        "He mentioned the SMS add-on too, but I think that's fine. Are those charges legitimate?"
    )
    b.calls(
        (
            "get_invoice",
            {"invoice_id": "ADD-ON-0227"},
            "ADD-ON-0227   SMS pack 500 messages   24.00 EUR incl. VAT   ordered 2026-02-27 by aylin.demir@northwind-florals.de   paid PAY-c31e88\ndelivered: 500 SMS credits, 212 used",
        )
    )
    b.say(
        "Yes, they're legitimate: Aylin Demir ordered SMS packs herself (the February one on the 27th, 24.00 EUR), and 212 of those credits have been used."
    )

    # 35 — draft reply email (no refund specifics, no internal note)
    b.user(
        "Send Jonas a short update: refunds approved, on their way, and the seats are fixed. No amounts yet, I'll send those with the credit note."
    )
    body = "Dear Jonas,\n\nthank you for your patience. Your refunds are approved and will be issued today; they reach your card within 5-7 business days. We have also corrected your subscription to 9 seats, so your final March invoice will bill 9 seats.\n\nKind regards,\nMaya Lindqvist, Billing Support"
    b.calls(
        (
            "send_email",
            {"to": EMAIL, "subject": "Your billing case T-88214", "body": body},
            f"email queued to {EMAIL} (message id mx-20260310-77fe1)",
        )
    )
    b.say(
        "Sent Jonas a short update to his billing address: refunds approved and on their way within 5-7 business days, and the subscription corrected to 9 seats; no amounts."
    )

    # 36 — SLA
    b.user("Are we inside the ticket SLA?")
    b.calls(
        ("get_current_time", {"timezone": "Europe/Berlin"}, "2026-03-10 11:52:30 CET (Tuesday)")
    )
    b.say(
        "Yes: it's 11:52 and the first tier-2 response was due at 12:00; our notes and the email went out before that."
    )

    # 37 — leftovers
    b.user("Anything else open on this account besides the refunds?")
    b.calls(
        (
            "search_tickets",
            {"account_id": ACCOUNT, "status": "open"},
            "1 open ticket for ACC-20417\nT-88214   Charged twice for February   open   2026-03-10 11:37",
        )
    )
    b.say(
        "Only T-88214 itself is open; the cancellation ticket T-88307 is handled separately and the others are closed."
    )

    # 38 — the refund itself waits for the batch
    b.user(
        "I'll issue the two refunds myself right after lunch, before the 15:00 batch. Make sure the ticket says what's left to do."
    )
    b.calls(
        (
            "add_ticket_note",
            {
                "ticket_id": "T-88214",
                "text": f"{CASE} — Approved by T. Wierzbicki (APR-3307). Left to do: issue the duplicate-capture refund and the 3-seat refund (299.88 EUR) before the 15:00 batch, then send the credit note for the seats.",
            },
            "note added to T-88214 (internal) at 2026-03-10 11:55",
        )
    )
    b.say(
        "Added a note listing what's left: the two refunds before the 15:00 batch, then the credit note for the seats."
    )

    # 39 — reminder of the close
    b.user("And the account still closes on the 31st regardless, yes?")
    b.say(
        "Yes, the cancellation stands: the account closes on 31 March and the corrected March invoice (899.64 EUR) is the final one."
    )

    # 40
    b.user("Great, thanks. That's all for now; I'll ping you when I'm back to issue them.")
    b.say(
        "You're welcome. When you're back, the refunds are ready to go: both are approved and the ticket lists what's left."
    )
    return b


def main() -> None:
    b = build()
    check_once(b, MANDATE, [(5, "tool")])
    check_once(b, DUPLICATE, [(12, "tool"), (14, "call"), (14, "tool"), (14, "assistant")])
    check_once(b, "8810", [(2, "tool"), (26, "user"), (27, "tool")])
    check_once(b, REASON, [(3, "user")])
    check_once(b, CASE, [(3, "user"), (15, "call"), (30, "tool"), (38, "call")])
    write_fixture(b, HERE, TOOLS, PROBES)


if __name__ == "__main__":
    main()
