"""Generate the payroll fixture: a 34-turn pay query on a night-shift lead's February payslip.

A payroll specialist and the agent work a pay query for Priya Raman, night shift lead at
Halden Logistics' Doncaster site (EMP-30958; a look-alike employee EMP-30985, Priya Ramani at
Daventry, exists). Her February payslip is short: overtime never reached payroll and the
night premium was dropped. Facts of the kinds the held-out sessions lost, each planted once:

* turn 3, the user's standing rules: case notes start with the query reference HRQ-2187;
  every adjustment line is charged to cost centre CC-4471 (her home centre is CC-4301);
* turn 5, only inside a tool result (a reward-team note in the case thread, never restated):
  night hours are paid under premium code NP-DN-312 (the withdrawn NP-DN-213 sits beside it);
* turn 7, said once by the user and never again: the overtime was signed on paper by Gareth
  Pryce;
* turn 14, found by a query and summarised once by the assistant: the stuck timesheet is
  TS-4be2a9 (TS-4be29a, TS-a94be2 look alike);
* turn 9 → revised at turn 24: sign-off by Hannah Okafor → by Marcus Oyelaran;
* turn 18, a rejected decision with its reason: no one-off bonus, it would be taxed at the
  flat supplementary rate and is not pensionable;
* turn 2, a look-alike old domain: payslips go to priya.raman@halden-group.co.uk; the
  February payslip went to the pre-rename priya.raman@haldenlogistics.co.uk and bounced.

    python examples/transcripts/payroll/make.py   # rewrites the three files beside it

Written for issue 12 as the second transcript the ``retrieval`` policy is tuned on (with
``support``); ``pipeline``, ``incident`` and ``coding`` stay reported only.
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

SEED = 5207
EMPLOYEE = "EMP-30958"
QUERY_REF = "HRQ-2187"
COST_CENTRE = "CC-4471"
PREMIUM = "NP-DN-312"
TIMESHEET = "TS-4be2a9"
MANAGER = "Gareth Pryce"
EMAIL = "priya.raman@halden-group.co.uk"
OLD_EMAIL = "priya.raman@haldenlogistics.co.uk"
CASE = "PQ-61208"


TOOLS = [
    tool(
        "find_employee",
        "Find employees by name, payroll number or email. Returns up to 10 candidates with "
        "employee id, name, site, job title and status. Never guess an employee id.",
        {"query": p("Name, employee id or email, e.g. 'Raman' or 'EMP-10001'.")},
        ["query"],
    ),
    tool(
        "get_employee",
        "Read one employee record: job, site, contract hours, pay rate, line manager, "
        "payslip email, bank details (masked), tax code and flags.",
        {"employee_id": p("Employee id, e.g. EMP-10001.")},
        ["employee_id"],
    ),
    tool(
        "update_employee",
        "Change an employee's contact fields (payslip email). Returns old and new values.",
        {
            "employee_id": p("Employee id."),
            "payslip_email": p("New payslip delivery address."),
            "comment": p("Why the change is made (kept in the audit log)."),
        },
        ["employee_id"],
    ),
    tool(
        "search_cases",
        "Search HR and payroll cases by employee, status or text. Returns id, subject, status "
        "and last update, newest first.",
        {
            "employee_id": p("Only cases of this employee."),
            "status": p("open, closed or all (default all).", enum=["open", "closed", "all"]),
            "text": p("Free text to match in subject and thread."),
        },
        [],
    ),
    tool(
        "get_case",
        "Read a case with its whole thread: the employee's messages, replies and internal "
        "notes (internal notes are never shown to the employee).",
        {"case_id": p("Case id, e.g. PQ-10001.")},
        ["case_id"],
    ),
    tool(
        "add_case_note",
        "Add an internal note to a case. Notes are visible to HR and payroll staff only.",
        {"case_id": p("Case id."), "text": p("The note.")},
        ["case_id", "text"],
    ),
    tool(
        "list_payslips",
        "List an employee's payslips in a range: period, pay date, gross, net, delivery.",
        {
            "employee_id": p("Employee id."),
            "since": p("First pay period, YYYY-MM."),
        },
        ["employee_id"],
    ),
    tool(
        "get_payslip",
        "Read one payslip: every payment and deduction line with its pay code, year-to-date "
        "figures, rejected lines and the email delivery log.",
        {
            "employee_id": p("Employee id."),
            "period": p("Pay period, YYYY-MM; a future period returns the draft."),
        },
        ["employee_id", "period"],
    ),
    tool(
        "get_pay_policy",
        "Fetch the pay policy section for a topic (overtime, night work, arrears, sick pay, "
        "deductions): rules, rates, approval limits and timelines.",
        {"topic": p("What the section is about.")},
        ["topic"],
    ),
    tool(
        "get_payroll_calendar",
        "Read the payroll calendar for a month: regular and off-cycle runs, cut-offs, pay "
        "dates and who owns each run.",
        {"month": p("Month, YYYY-MM.")},
        ["month"],
    ),
    tool(
        "query_timesheets",
        "List an employee's timesheets for a date range: id, week, hours by type, approval "
        "state and whether payroll imported them.",
        {
            "employee_id": p("Employee id."),
            "since": p("First day, YYYY-MM-DD."),
            "until": p("Last day, YYYY-MM-DD."),
        },
        ["employee_id", "since"],
    ),
    tool(
        "get_timesheet",
        "Read one timesheet with its shifts, hour types, approval route and import log.",
        {"timesheet_id": p("Timesheet id, e.g. TS-1a2b3c.")},
        ["timesheet_id"],
    ),
    tool(
        "get_absence",
        "List an employee's absences (sickness, holiday, unpaid) in a date range.",
        {
            "employee_id": p("Employee id."),
            "since": p("First day, YYYY-MM-DD."),
        },
        ["employee_id", "since"],
    ),
    tool(
        "calculate_adjustment",
        "Compute gross arrears and the estimated tax and National Insurance on them from "
        "items such as 'overtime:11.5:2026-02'. Read-only.",
        {
            "employee_id": p("Employee id."),
            "items": {
                "type": "array",
                "items": {"type": "string"},
                "description": "What to pay, e.g. ['overtime:8:2026-02', 'night:40:2026-02'].",
            },
            "with_tax": {
                "type": "boolean",
                "description": "Also estimate tax and NI at the employee's tax code.",
            },
        },
        ["employee_id", "items"],
    ),
    tool(
        "create_adjustment",
        "Key a payroll adjustment line into a run. Irreversible once the run is closed.",
        {
            "employee_id": p("Employee id."),
            "pay_code": p("Pay code of the line."),
            "hours": {"type": "number", "description": "Hours paid."},
            "cost_centre": p("Cost centre charged."),
            "run": p("Payroll run id."),
        },
        ["employee_id", "pay_code", "hours", "cost_centre", "run"],
    ),
    tool(
        "request_signoff",
        "Ask a payroll approver to sign off a payment above the specialist's limit. Returns "
        "a request id.",
        {
            "approver": p("Who signs off (name)."),
            "amount": p("Gross amount with currency, e.g. '250.00 GBP'."),
            "reason": p("What is to be paid and why."),
        },
        ["approver", "amount", "reason"],
    ),
    tool(
        "get_signoff",
        "Read the state of a sign-off request.",
        {"request_id": p("Sign-off request id, e.g. SO-1001.")},
        ["request_id"],
    ),
    tool(
        "send_message",
        "Email an employee from the payroll mailbox. Sent as written.",
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
# Eight facts of the kinds the held-out sessions lost; six phrasings each.
- id: query_ref
  kind: rule
  planted_turn: 3
  question:
    - "You are about to add a note to the case. What must it start with?"
    - "Which reference goes at the front of every case note here?"
    - "Remind me of the query reference I asked you to use."
    - "Write the first word of the next case note you will add."
    - "What prefix do case notes in this pay query need?"
    - "Before the final note: which reference must it begin with?"
  expected: "{QUERY_REF}"
  distractors: ["HRQ-2178"]
- id: cost_centre
  kind: rule
  planted_turn: 3
  question:
    - "Which cost centre are the adjustment lines charged to?"
    - "Fill in the cost_centre field of the arrears adjustment. What value?"
    - "Her home cost centre is one thing; which one did I say the arrears go to?"
    - "What cost centre must every adjustment in this case use?"
    - "State the cost centre for the overtime correction."
    - "Before keying the lines: which budget code do they go against?"
  expected: "{COST_CENTRE}"
  distractors: ["CC-4301", "CC-4741"]
- id: premium_code
  kind: tool_result
  planted_turn: 5
  question:
    - "Which pay code must the night premium arrears be keyed under?"
    - "Fill in the pay_code of the night-premium line. What is it?"
    - "The old night code is withdrawn. Which code replaced it for her site?"
    - "Under which premium code are her night hours paid now?"
    - "What code did the reward team say night work at Doncaster uses?"
    - "Before keying the night premium, state its pay code."
  expected: "{PREMIUM}"
  distractors: ["NP-DN-213"]
- id: paper_approver
  kind: user
  planted_turn: 7
  question:
    - "Who signed her overtime sheets on paper?"
    - "Which manager approved the overtime on paper, according to Priya?"
    - "Name the person who signed off the extra hours on the paper sheets."
    - "Whose signature is on the paper overtime sheets?"
    - "Who did I say approved her overtime before the system did?"
    - "The paper sheets carry a manager's approval. Whose?"
  expected: "{MANAGER}"
- id: stuck_timesheet
  kind: summary
  planted_turn: 14
  question:
    - "Which timesheet holds the overtime that never reached payroll?"
    - "Give the id of the timesheet that got stuck in approval."
    - "Which timesheet do we have to re-route for approval?"
    - "Fill in the timesheet_id of the missing overtime."
    - "One February timesheet was never imported. Which id?"
    - "Name the timesheet whose hours are missing from the payslip."
  expected: "{TIMESHEET}"
  distractors: ["TS-4be29a", "TS-a94be2", "TS-2a94be"]
- id: signoff_approver
  kind: revised
  planted_turn: 24
  question:
    - "Who signs off the arrears payment?"
    - "Fill in the approver of the sign-off request. Which name?"
    - "Which approver does the arrears sign-off go to now?"
    - "Who did we agree approves this payment?"
    - "The payroll manager was mentioned for sign-off earlier. Who signs it off in the end?"
    - "Before the payment goes out: whose sign-off do we need?"
  expected: "Marcus Oyelaran"
  distractors: ["Hannah Okafor"]
- id: bonus_rejected
  kind: rejected
  planted_turn: 18
  question:
    - "Why are we not paying the arrears as a one-off bonus?"
    - "A bonus payment was considered. Why was it turned down?"
    - "What was the reason for rejecting the bonus route?"
    - "Why overtime arrears rather than a bonus?"
    - "Remind me why a bonus through the bonus module does not work here."
    - "What did I say against paying it as a bonus?"
  expected_regex: "(?i)(flat (supplementary )?rate|supplementary rate|pensionable|pension contribution)"
- id: payslip_email
  kind: lookalike
  planted_turn: 2
  question:
    - "To which address should the corrected payslip go?"
    - "What is Priya's current payslip email?"
    - "Fill in the 'to' field of the message to Priya. Which address?"
    - "Which email address is right for her payslips now?"
    - "The February payslip bounced. Where should payslips go instead?"
    - "State the employee's payslip delivery address."
  expected: "{EMAIL}"
  distractors: ["{OLD_EMAIL}", "sam.whitlock@halden-group.co.uk"]
"""


def build() -> TranscriptBuilder:
    b = TranscriptBuilder(SEED, avoid=("312", "2187", "4471", "4be2a9", "Pryce", "Oyelaran"))

    # 1 — which employee
    b.user(
        "Hi, I've got a pay query from a night shift lead called Priya Raman: she says her February pay is short. Can you find her?"
    )
    b.calls(
        (
            "find_employee",
            {"query": "Priya Raman"},
            """\
2 candidates for "Priya Raman"
employee_id  name           site                 job title                 status  since
EMP-30958    Priya Raman    Doncaster DC (DN4)   Shift Lead, Nights        active  2021-08-16
EMP-30985    Priya Ramani   Daventry DC (NN11)   Inventory Controller      active  2024-02-05
""",
        )
    )
    b.say(
        "Two matches: EMP-30958, Priya Raman, Shift Lead on nights at Doncaster DC, and EMP-30985, Priya Ramani, an inventory controller at Daventry. Which one is it?"
    )

    # 2 — the record (the payslip email; the old domain shows up later)
    b.user("The Doncaster one, nights.")
    b.calls(
        (
            "get_employee",
            {"employee_id": EMPLOYEE},
            f"""\
employee: {EMPLOYEE}  Priya Raman   Shift Lead, Nights   grade W4
site: Doncaster DC (DN4), Halden Logistics Ltd   home cost centre: CC-4301 (DN4 outbound)
contract: 40 h/week, 4-on-4-off night rota (19:00-07:00)   hourly rate: 15.40 GBP
line manager: vacant since 2026-02-02 (night operations manager left); approvals routed to
              site queue DN4-OPS
payslip_email: {EMAIL}   (changed 2025-10-01 when Halden Logistics became Halden Group)
bank: Nationwide, account ••••6612, verified 2021-08-10
tax code: 1257L (cumulative)   NI category: A   student loan: plan 2
flags: pay query open ({CASE})
""",
        )
    )
    b.say(
        "EMP-30958 is Priya Raman, Shift Lead on the Doncaster night rota (4-on-4-off, 19:00-07:00), 40 contracted hours a week at 15.40 GBP an hour, home cost centre CC-4301. Her line manager post has been vacant since 2 February, with approvals routed to the site queue. Tax code 1257L, plan 2 student loan, and a pay query is already open for her."
    )

    # 3 — the standing rules
    b.user(
        f"Two rules for this whole case, please. Every note you add to the case must start with our query reference {QUERY_REF}. And every adjustment line we key is charged to cost centre {COST_CENTRE}, the Doncaster nights budget, not her home cost centre."
    )
    b.say(
        "Understood: case notes start with the query reference you gave, and adjustments are charged to the nights budget rather than her home cost centre."
    )

    # 4 — cases
    b.user("What cases does she have?")
    b.calls(
        (
            "search_cases",
            {"employee_id": EMPLOYEE, "status": "all"},
            f"""\
3 cases for {EMPLOYEE} (newest first)
id         subject                                         status   updated
{CASE}   February pay short: overtime and night premium  open     2026-03-09 17:25
ER-60117   Move to 4-on-4-off night rota                   closed   2025-12-19 11:02
PQ-58830   P60 copy for mortgage application               closed   2025-06-03 09:40
""",
        )
    )
    b.say(
        f"Three cases: {CASE} 'February pay short: overtime and night premium' (open, updated 9 March), ER-60117 about her move to the 4-on-4-off night rota (closed in December) and PQ-58830, a P60 copy request (closed last June)."
    )

    # 5 — the case; the premium code lives only in the reward team's note
    b.user(f"Open {CASE}.")
    b.calls(
        (
            "get_case",
            {"case_id": CASE},
            f"""\
{CASE}  February pay short: overtime and night premium   status: open   priority: normal
employee: {EMPLOYEE} Priya Raman   created 2026-03-02 07:41 by employee   queue: payroll-L2

[2026-03-02 07:41] employee:
  Hi, my February payslip is about 600 pounds short. I did four extra night shifts in the
  week of 9 February to cover for the stock count and none of the overtime is there. The
  night premium line is missing too, it just says rejected. I've been here since 2021 and
  this has never happened. Thanks, Priya
[2026-03-02 10:15] reply (Tom Baxter, payroll L1):
  Hi Priya, thanks for getting in touch. I've passed this to our level 2 team, who will
  look at your timesheets and come back to you within three working days.
[2026-03-03 08:50] internal note (Tom Baxter):
  Escalated to L2. Overtime missing and a rejected premium line on the Feb slip. Timesheet
  approvals at DN4 have been going to the site queue since the night manager left.
[2026-03-04 14:32] internal note (reward team, Ayesha Noor):
  Doncaster night work moved to the new site agreement on 1 February (DN4 nights
  agreement, signed 2026-01-12). The old premium code NP-DN-213 was withdrawn on
  31 January and payroll rejects any line keyed with it. All DN4 night hours from
  1 February must be paid under premium code {PREMIUM} (20 % of the basic hourly rate
  for hours between 22:00 and 06:00). Arrears for February go under the same code.
[2026-03-05 09:12] internal note (Tom Baxter):
  HRQ-2178 was used on the Daventry rota query by mistake last week; ignore it here.
[2026-03-06 16:03] employee:
  Any news? I need to know whether it will be in March's pay.
[2026-03-06 16:40] reply (Tom Baxter, payroll L1):
  Sorry for the wait, Priya: level 2 has your case and will be in touch shortly.
[2026-03-09 17:25] internal note (queue bot):
  SLA warning: first level 2 response due 2026-03-10 12:00.
""",
        )
    )
    b.say(
        f"{CASE} was opened by Priya on 2 March: about 600 GBP short in February, with four extra night shifts in the week of 9 February (stock count cover) missing and the night premium line shown as rejected. L1 acknowledged and escalated; an internal note says timesheet approvals at Doncaster go to the site queue since the night manager left, the reward team left a note about the premium code for Doncaster night work since 1 February, and the queue bot warns our first response is due tomorrow at 12:00."
    )

    # 6 — payslips
    b.user("List her payslips since December.")
    b.calls(
        (
            "list_payslips",
            {"employee_id": EMPLOYEE, "since": "2025-12"},
            f"""\
period   pay date    gross        net          delivery
2025-12  2025-12-24  3,118.42 GBP 2,395.10 GBP delivered  {EMAIL}
2026-01  2026-01-30  3,254.07 GBP 2,487.66 GBP delivered  {EMAIL}
2026-02  2026-02-27  2,668.80 GBP 2,099.52 GBP BOUNCED    (see payslip)
2026-03  2026-03-27  -            -            draft
""",
        )
    )
    b.say(
        "December (3,118.42 GBP gross) and January (3,254.07 GBP) look normal; February dropped to 2,668.80 GBP gross, 2,099.52 GBP net, and its email bounced. March is a draft."
    )

    # 7 — the user's own fact (said once, never again), and the February payslip
    b.user(
        f"She told me on the phone that the extra shifts were signed off on paper by {MANAGER}, the interim night manager, so the hours are definitely approved. Show me the February payslip."
    )
    b.calls(
        (
            "get_payslip",
            {"employee_id": EMPLOYEE, "period": "2026-02"},
            f"""\
payslip 2026-02   Priya Raman ({EMPLOYEE})   pay date 2026-02-27   tax code 1257L
payments                                   code        hours    rate       amount
  Basic pay (contract)                     BAS-01      173.33   15.40      2,669.28 GBP
  Overtime 1.5x                            OT-15         0.00   23.10          0.00 GBP
  Night premium                            NP-DN-213    96.00    3.08          REJECTED
  Holiday pay adjustment                   HOL-ADJ      -0.03   15.40         -0.48 GBP
  gross                                                                     2,668.80 GBP
deductions
  Income tax (PAYE)                                                           -323.40 GBP
  National Insurance (A)                                                      -137.46 GBP
  Pension (NEST) 5 %                                                          -108.42 GBP
  net                                                                       2,099.52 GBP
rejected lines:
  NP-DN-213  96.00 h  "pay code withdrawn 2026-01-31; line not paid"
year to date: gross 30,117.55 GBP  tax 3,902.20 GBP  NI 1,598.13 GBP
delivery log:
  2026-02-27 06:10:02  email to {OLD_EMAIL}  status: bounced (550 no such user)
  2026-02-27 06:10:02  recipient taken from payslip template PT-2 (not from the record)
""",
        )
    )
    b.say(
        "February paid basic only: 173.33 contract hours at 15.40 GBP. The overtime line shows 0 hours, and the night premium (96 night hours at 3.08 GBP) was rejected because it was keyed with a code withdrawn on 31 January, so it was never paid. The payslip email went to an address at the old Halden Logistics domain, taken from a payslip template rather than her record, and bounced."
    )

    # 8 — policy
    b.user("What does the pay policy say about overtime and night work?")
    b.calls(
        (
            "get_pay_policy",
            {"topic": "overtime and night work"},
            """\
Pay policy, section 5: overtime and night work (version 2026-02, owner: reward team)
5.1  Hours worked beyond the rostered shift pattern are overtime and paid at 1.5x the basic
     hourly rate, once the timesheet is approved by the line manager or their delegate.
5.2  Night work (22:00-06:00) attracts the night premium of the site agreement; the pay
     code is set by the agreement and listed in the reward team's code register.
5.3  Overtime worked on a night shift earns the night premium on top of the 1.5x rate.
5.4  Hours not imported by the monthly cut-off are paid as arrears in a later run; the
     employee must be told when.
5.5  Arrears above 250.00 GBP gross need sign-off by a payroll approver before they are
     keyed (request_signoff).
5.6  Cost centres: overtime is charged to the site's operating budget unless the payroll
     lead directs otherwise (e.g. CC-4741 DN4 inbound, CC-4301 DN4 outbound).
""",
        )
    )
    b.say(
        "Section 5: overtime is 1.5x the basic rate once the timesheet is approved by the line manager or a delegate; night hours (22:00-06:00) get the site agreement's premium, and overtime on a night shift gets both. Hours that miss the cut-off are paid as arrears in a later run (and the employee must be told when), and arrears above 250.00 GBP gross need a payroll approver's sign-off first."
    )

    # 9 — the approver (revised at turn 24)
    b.user(
        "Sign-off for any arrears in this case goes to Hannah Okafor, the payroll manager; she's approved the Doncaster ones before."
    )
    b.say("Noted: arrears sign-off goes to Hannah Okafor.")

    # 10 — calendar
    b.user("When are the next payroll runs?")
    b.calls(
        (
            "get_payroll_calendar",
            {"month": "2026-03"},
            """\
payroll calendar 2026-03 (Halden Group UK, monthly paid)
run        type        cut-off              pay date     owner
OC-2603A   off-cycle   2026-03-11 14:00     2026-03-13   payroll L2
OC-2603B   off-cycle   2026-03-18 14:00     2026-03-20   payroll L2
M-2603     regular     2026-03-18 17:00     2026-03-27   payroll operations
notes: off-cycle runs pay arrears and leavers only; BACS needs 2 working days after cut-off
""",
        )
    )
    b.say(
        "Two off-cycle runs (cut-offs 11 and 18 March, paying on 13 and 20 March) and the regular March run M-2603 (cut-off 18 March at 17:00, paying on 27 March). Off-cycle runs are for arrears and leavers."
    )

    # 11 — earlier queries
    b.user("Has anything like this happened to other Doncaster night staff?")
    b.calls(
        (
            "search_cases",
            {"text": "night premium rejected DN4"},
            '4 cases match "night premium rejected DN4" (all open, created 2026-03-02..2026-03-06)\nPQ-61190  EMP-28114  Night premium missing Feb   open\nPQ-61211  EMP-31406  Feb pay missing premium      open\nPQ-61236  EMP-27750  night pay wrong?             open\nPQ-61244  EMP-33021  Premium line rejected        open',
        )
    )
    b.say(
        "Yes: four other Doncaster night workers opened cases between 2 and 6 March about a missing or rejected February night premium, so the withdrawn code hit the whole night rota, not just Priya."
    )

    # 12 — timesheets (the stuck one is not named yet)
    b.user("Pull her timesheets for February.")
    b.calls(
        (
            "query_timesheets",
            {"employee_id": EMPLOYEE, "since": "2026-02-01", "until": "2026-02-28"},
            f"""\
timesheet   week      rostered  overtime  night   approval                      imported
TS-a94be2   2026-W05     36.0      0.0     24.0   approved (site queue DN4-OPS)  yes
TS-4be29a   2026-W06     48.0      0.0     32.0   approved (site queue DN4-OPS)  yes
{TIMESHEET}   2026-W07     36.0     11.5     32.0   pending (route: N. Fenwick)    no
TS-2a94be   2026-W08     48.0      0.0     32.0   approved (site queue DN4-OPS)  yes
TS-9e61c0   2026-W09     12.0      0.0      8.0   approved (site queue DN4-OPS)  yes
totals                  180.0     11.5    128.0
""",
        )
    )
    b.say(
        "Five weekly timesheets for February. Four are approved through the site queue and imported. The one for week 7 (the week of 9 February) has 11.5 overtime hours and is still pending, routed to a named approver instead of the site queue, and was never imported. I'll open it to see why."
    )

    # 13 — absence
    b.user("Before that: any sickness or unpaid leave in February that would explain part of it?")
    b.calls(
        (
            "get_absence",
            {"employee_id": EMPLOYEE, "since": "2026-02-01"},
            "no absences recorded for EMP-30958 since 2026-02-01\nholiday balance: 14.5 days (2026 leave year)",
        )
    )
    b.say("No: no sickness, holiday or unpaid leave recorded since 1 February.")

    # 14 — the stuck timesheet found and summarised once
    b.user("OK. Open the week 7 timesheet.")
    b.calls(
        (
            "get_timesheet",
            {"timesheet_id": TIMESHEET},
            f"""\
timesheet {TIMESHEET}   {EMPLOYEE} Priya Raman   week 2026-W07 (2026-02-09..2026-02-15)
shifts:
  Mon 09  19:00-07:00  rostered   12.0 h   night 8.0
  Tue 10  19:00-07:00  rostered   12.0 h   night 8.0
  Wed 11  19:00-07:00  rostered   12.0 h   night 8.0
  Thu 12  19:00-06:30  overtime   11.5 h   night 8.0   (stock count cover)
approval route:
  2026-02-16 07:05  submitted by employee
  2026-02-16 07:05  routed to N. Fenwick (line manager on record at roster build)
  2026-02-16 07:05  N. Fenwick: account disabled 2026-02-02 -> request not delivered
  no delegate set; no escalation rule for disabled approvers
import log:
  2026-02-18 17:00  cut-off M-2602: skipped (approval pending)
  2026-02-25 00:00  reminder not sent (approver disabled)
""",
        )
    )
    b.say(
        f"Found it: {TIMESHEET} is the one. It holds the Thursday 12 February stock-count shift, 11.5 overtime hours (8 of them night hours), but it was routed to the night manager who left on 2 February; his account is disabled, there is no delegate, so nobody ever saw it and it missed the February cut-off. That explains the missing overtime; the night premium is the separate withdrawn-code problem."
    )

    # 15 — a note following the rule (the timesheet id is not repeated)
    b.user("Add a note to the case with where we are.")
    note = f"{QUERY_REF} - Overtime: the week 7 timesheet (11.5 h) went to a disabled approver and missed the Feb cut-off. Night premium: Feb line keyed under the withdrawn code and rejected (96 h). Arrears route, amount and sign-off pending."
    b.calls(
        (
            "add_case_note",
            {"case_id": CASE, "text": note},
            f"note added to {CASE} (internal) at 2026-03-10 09:41",
        )
    )
    b.say(
        "Added an internal note: the week 7 overtime went to a disabled approver and missed the cut-off, the February night premium was rejected under the withdrawn code, and the arrears route, amount and sign-off are still open."
    )

    # 16 — the amounts
    b.user("How much is she owed, gross?")
    b.calls(
        (
            "calculate_adjustment",
            {
                "employee_id": EMPLOYEE,
                "items": ["overtime:11.5:2026-02", "night:96:2026-02", "night:8:2026-02"],
            },
            """\
arrears for EMP-30958 (gross)
  overtime 1.5x   11.5 h x 23.10 GBP                 265.65 GBP
  night premium   96.0 h x 3.08 GBP (rostered)       295.68 GBP
  night premium    8.0 h x 3.08 GBP (on overtime)     24.64 GBP
  total                                              585.97 GBP
""",
        )
    )
    b.say(
        "585.97 GBP gross: 265.65 GBP for the 11.5 overtime hours at 23.10 GBP, 295.68 GBP night premium on her 96 rostered night hours, and 24.64 GBP premium on the 8 night hours of the overtime shift. That matches her 'about 600 pounds'."
    )

    # 17 — the option the assistant proposes
    b.user("How should we pay it out?")
    b.say(
        "The quickest route would be the bonus module: one line, no timesheet re-approval, and it can go in any run. I'd suggest paying the 585.97 GBP as a one-off bonus in the next off-cycle run."
    )

    # 18 — the rejection with its reason
    b.user(
        "No, we won't pay it as a bonus: a bonus goes through at the flat supplementary rate instead of her tax code, and it isn't pensionable, so she'd lose the employer pension contribution on it. It goes through as overtime and night premium arrears."
    )
    b.say(
        "Understood: no bonus, because of the flat supplementary rate and because it is not pensionable; we pay it as overtime and night premium arrears."
    )

    # 19 — tax estimate
    b.user("What will she get net, roughly?")
    b.calls(
        (
            "calculate_adjustment",
            {
                "employee_id": EMPLOYEE,
                "items": ["overtime:11.5:2026-02", "night:104:2026-02"],
                "with_tax": True,
            },
            """\
arrears for EMP-30958 at tax code 1257L (cumulative), paid in 2026-03
  gross                      585.97 GBP
  income tax (20 %)         -117.19 GBP
  NI (8 %)                   -46.88 GBP
  student loan plan 2 (9 %)  -52.73 GBP
  pension NEST (5 %)         -29.30 GBP
  estimated net              339.87 GBP
""",
        )
    )
    b.say(
        "About 339.87 GBP net: 585.97 GBP gross less 117.19 GBP tax, 46.88 GBP NI, 52.73 GBP student loan and 29.30 GBP pension, at her cumulative tax code."
    )

    # 20 — sign-off request (to the approver named at turn 9)
    b.user("That's over the 250 limit. Raise the sign-off.")
    b.calls(
        (
            "request_signoff",
            {
                "approver": "Hannah Okafor",
                "amount": "585.97 GBP",
                "reason": "Arrears for PQ-61208: 11.5 h February overtime missed the cut-off (approver disabled) and February night premium rejected under a withdrawn code.",
            },
            "sign-off request SO-5562 created for Hannah Okafor (pending); notified by email",
        )
    )
    b.say("Requested sign-off from Hannah Okafor for 585.97 GBP gross (SO-5562); it's pending.")

    # 21 — the bounced payslip
    b.user("While we wait: why did her February payslip bounce?")
    b.calls(
        (
            "get_case",
            {"case_id": "PQ-58830"},
            f"""\
PQ-58830  P60 copy for mortgage application   status: closed   employee: {EMPLOYEE}
[2025-06-02 12:30] employee: Could you send me a copy of my P60 for a mortgage application?
[2025-06-03 09:40] reply (payroll L1): Sent to your payslip email. Closing.
[2025-10-02 08:15] internal note (HR systems): group rename: payslip template PT-2 still
  carries per-employee recipients from before the rename; migration ticket HRS-3318 filed.
  Affected staff: see HRS-3318 (sam.whitlock@halden-group.co.uk reported the first case).
""",
        )
    )
    b.say(
        "Her record was updated at the group rename last October, but payslip template PT-2 kept the old per-employee recipients; HR systems flagged it then (HRS-3318) and it was evidently never migrated for her, so February's payslip went to the dead mailbox at the old domain."
    )

    # 22 — fix the template recipient
    b.user("Can you fix that on our side?")
    b.calls(
        (
            "update_employee",
            {
                "employee_id": EMPLOYEE,
                "payslip_email": EMAIL,
                "comment": "Re-save payslip email so template PT-2 picks up the current address (PQ-61208, HRS-3318).",
            },
            f"payslip_email: {EMAIL} -> {EMAIL} (unchanged)\npayslip template PT-2 recipient re-synced from record: ok\nnext payslip will be delivered to the record's payslip email",
        )
    )
    b.say(
        "Done: re-saving her payslip email re-synced template PT-2, so the next payslip goes to the address on her record."
    )

    # 23 — time
    b.user("What time is it? The off-cycle cut-off for this week is 14:00 tomorrow, right?")
    b.calls(
        ("get_current_time", {"timezone": "Europe/London"}, "2026-03-10 10:12:44 GMT (Tuesday)")
    )
    b.say(
        "It's 10:12 on Tuesday 10 March. Yes: OC-2603A closes tomorrow, Wednesday 11 March, at 14:00 and pays on Friday 13 March."
    )

    # 24 — the revision
    b.user(
        "Change of plans on the sign-off: Hannah is on leave from today until April, so the sign-off goes to Marcus Oyelaran instead. He's covering for her."
    )
    b.say("Got it: the sign-off goes to her cover instead; I'll re-raise the request to him.")

    # 25 — re-raise
    b.user("Yes, re-raise it.")
    b.calls(
        (
            "request_signoff",
            {
                "approver": "Marcus Oyelaran",
                "amount": "585.97 GBP",
                "reason": "Arrears for PQ-61208 (re-raised from SO-5562, approver on leave): February overtime and night premium.",
            },
            "sign-off request SO-5570 created for Marcus Oyelaran (pending); SO-5562 withdrawn",
        )
    )
    b.say(
        "Re-raised as SO-5570 to Marcus Oyelaran (pending); the first request SO-5562 is withdrawn."
    )

    # 26 — bank check
    b.user("Check her bank details are still verified before we pay anything.")
    b.calls(
        (
            "get_employee",
            {"employee_id": EMPLOYEE},
            f"""\
employee: {EMPLOYEE}  Priya Raman
bank: Nationwide, account ••••6612, verified 2021-08-10   last BACS: 2026-02-27 ok
payslip_email: {EMAIL}
pending changes: none
""",
        )
    )
    b.say(
        "Yes: the Nationwide account ending 6612 is verified and February's BACS payment went through fine."
    )

    # 27 — sign-off state
    b.user("Has the sign-off come back?")
    b.calls(
        (
            "get_signoff",
            {"request_id": "SO-5570"},
            "SO-5570  state: approved  by Marcus Oyelaran at 2026-03-10 10:31 GMT\ncomment: fine, pay in OC-2603A. Use the new DN4 night code, not the old one.",
        )
    )
    b.say(
        "Approved at 10:31 by Marcus Oyelaran for payment in OC-2603A, with a reminder to use the new Doncaster night code rather than the withdrawn one."
    )

    # 28 — March draft
    b.user("Is her March draft already picking up the new night code?")
    b.calls(
        (
            "get_payslip",
            {"employee_id": EMPLOYEE, "period": "2026-03"},
            f"""\
payslip 2026-03 (draft)   Priya Raman ({EMPLOYEE})   pay date 2026-03-27
payments                                   code        hours    rate       amount
  Basic pay (contract)                     BAS-01      173.33   15.40      2,669.28 GBP
  Night premium                            (agreement)  64.00    3.08        197.12 GBP
  gross (so far)                                                           2,866.40 GBP
notes: timesheets W10-W11 imported; W12-W13 pending; premium code taken from the DN4
       nights agreement automatically from 2026-03
""",
        )
    )
    b.say(
        "Yes: the March draft already pays the night premium (64 hours so far, 197.12 GBP) with the code taken from the new agreement automatically, so the problem is limited to February."
    )

    # 29 — the look-alike employee
    b.user("Just to be safe, the Daventry Priya isn't affected by any of this?")
    b.calls(
        (
            "list_payslips",
            {"employee_id": "EMP-30985", "since": "2026-01"},
            "period   pay date    gross        net          delivery\n2026-01  2026-01-30  2,240.00 GBP 1,802.14 GBP delivered  priya.ramani@halden-group.co.uk\n2026-02  2026-02-27  2,240.00 GBP 1,802.14 GBP delivered  priya.ramani@halden-group.co.uk",
        )
    )
    b.say(
        "No: EMP-30985 (Daventry) is salaried at 2,240.00 GBP a month with no overtime or night lines, and both payslips were delivered normally."
    )

    # 30 — the stuck approval route
    b.user("Who do the night timesheets route to now? I don't want this happening again.")
    b.calls(
        (
            "search_cases",
            {"text": "DN4 approver disabled delegate"},
            '1 case matches "DN4 approver disabled delegate"\nHRS-3402  Timesheet approvals to disabled managers (all sites)   open   owner: HR systems\nlast update 2026-03-09: fix in test; interim: site admins re-route by hand each Monday',
        )
    )
    b.say(
        "HR systems has an open case (HRS-3402) for timesheets routed to disabled managers across all sites; the fix is in test, and until then site admins re-route stuck timesheets by hand every Monday."
    )

    # 31 — message to the employee (no figures, no internal notes)
    b.user(
        "Send Priya a short update: approved, arrears paid this Friday, and her payslips go to the right address again. No amounts, I'll send the breakdown with the payslip."
    )
    body = "Hi Priya,\n\nthank you for your patience. We found why your February overtime and night premium were missing; the arrears are approved and will be paid in this Friday's off-cycle run. We have also fixed the address your payslips are sent to.\n\nKind regards,\nJess Holloway, Payroll"
    b.calls(
        (
            "send_message",
            {"to": EMAIL, "subject": f"Your pay query {CASE}", "body": body},
            f"message queued to {EMAIL} (id pm-20260310-4c1d)",
        )
    )
    b.say(
        "Sent Priya a short update at her payslip address: arrears approved and paid in Friday's off-cycle run, payslip address fixed; no amounts."
    )

    # 32 — SLA
    b.user("Are we inside the case SLA?")
    b.calls(
        ("get_current_time", {"timezone": "Europe/London"}, "2026-03-10 10:44:09 GMT (Tuesday)")
    )
    b.say(
        "Yes: it's 10:44 and the first level 2 response was due at 12:00; the update went out before that."
    )

    # 33 — what's left, in a note
    b.user(
        "I'll key the two arrears lines myself after lunch, before tomorrow's 14:00 cut-off. Make sure the case says what's left."
    )
    b.calls(
        (
            "add_case_note",
            {
                "case_id": CASE,
                "text": f"{QUERY_REF} - Signed off by M. Oyelaran (SO-5570), pay in OC-2603A. Left to do: key the overtime line (11.5 h) and the night premium line (104 h) before 2026-03-11 14:00, then send the breakdown with the payslip.",
            },
            f"note added to {CASE} (internal) at 2026-03-10 10:47",
        )
    )
    b.say(
        "Added a note listing what's left: the overtime and night premium lines before tomorrow's 14:00 cut-off, then the breakdown with the payslip."
    )

    # 34
    b.user("Great, thanks. That's all for now; I'll come back to key the lines.")
    b.say(
        "You're welcome. When you're back, both lines are ready to key: the sign-off is in and the case lists what's left."
    )
    return b


def main() -> None:
    b = build()
    check_once(b, PREMIUM, [(5, "tool")])
    check_once(b, MANAGER, [(7, "user")])
    check_once(b, TIMESHEET, [(12, "tool"), (14, "call"), (14, "tool"), (14, "assistant")])
    check_once(b, COST_CENTRE, [(3, "user")])
    check_once(b, QUERY_REF, [(3, "user"), (15, "call"), (33, "call")])
    write_fixture(b, HERE, TOOLS, PROBES)


if __name__ == "__main__":
    main()
