"""Generate the warehouse fixture: a 34-turn revenue-mart investigation, 20 tools.

An analytics engineer at Nordvik Living (a Nordic home-goods retailer) and the agent find why
the nightly revenue mart ``fct_daily_revenue`` (dbt on Snowflake, scheduled by Airflow, fed
by a Debezium CDC stream from the orders database) reports revenue 3-4 % above the payment
providers' settlements for Black Week. The cause is a performance PR that switched the
``int_order_lines`` incremental model from a merge to an append, so every edit of an order
line already loaded came back as a second row. Tools answer as the real systems print:
SQL result tables, a 100-line Airflow/dbt task log, nested JSON, CSV, JSON lines, YAML and a
diff. Many rounds find nothing. Facts planted once each:

* turn 3, the user's standing rules: every query carries the query tag qt-rvn-6184 (a
  colleague's qt-rvn-6148 shows in the query history); only the read-only role FIN_AUDIT_RO
  is used (FIN_AUDIT_RW, the close job's role, and TRANSFORMER appear elsewhere);
* turn 4, a look-alike old location in the runbook: status updates go to #dq-revenue-alerts;
  the old #data-alerts-finance is archived (it reappears in the Slack search at turn 12);
* turn 6, said once by the user in passing: Margit Ellingsen signed off the November flash;
* turn 7, only in one line of a 100-line dbt task log: the order-line uniqueness test
  warned with 14237 results (14273 is an event count in the CDC status at turn 8);
* turn 8, only four levels deep in the CDC status JSON: the connector reads replication slot
  dbz_orders_slot_14 (the dropped dbz_orders_slot_13 beside it and in Slack);
* turn 11, only in the YAML data contract: the settlement reconciliation check is
  dq-rev-0915 (an alert of dq-rev-0951 is in the Slack search);
* turn 16, found by a query and summarised once: order 50418273 has the most duplicated
  lines (50418237, 50481273 look alike in the same result);
* turn 18, only in one CSV row of the query history: the nightly insert into int_order_lines
  on 26 November was query 01b8a7f2-0604-3c2e-0000-7a1d00e4f1b6 (the next statement's id
  differs in two transposed characters);
* turn 15 → revised at turn 25: the rebuild runs on TRANSFORM_WH_M → BACKFILL_WH_L;
* turn 20, a rejected decision with its reason: no full refresh, because RAW_CDC keeps only
  30 days of change events and a full refresh would wipe the older history.

    python examples/transcripts/warehouse/make.py   # rewrites the three files beside it

Written on 2026-12-06 for tuning, before any history policy was run on it.
"""

# ruff: noqa: E501 (tool outputs are tables, logs and documents, kept as they would print)
from __future__ import annotations

import json
import re
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

SEED = 7419
TICKET = "DATA-3817"
TAG = "qt-rvn-6184"
OTHER_TAG = "qt-rvn-6148"
ROLE = "FIN_AUDIT_RO"
WRITE_ROLE = "FIN_AUDIT_RW"
WARNED = "14237"
WARNED_LIKE = "14273"
SLOT = "dbz_orders_slot_14"
OLD_SLOT = "dbz_orders_slot_13"
QUERY_ID = "01b8a7f2-0604-3c2e-0000-7a1d00e4f1b6"
QUERY_ID_LIKE = "01b8a7f2-0604-3c2e-0000-7a1d00e4f16b"
CHECK = "dq-rev-0915"
CHECK_LIKE = "dq-rev-0951"
SIGNER = "Margit Ellingsen"
ORDER = "50418273"
ORDER_LIKES = ("50418237", "50481273")
WAREHOUSE = "TRANSFORM_WH_M"
BACKFILL_WH = "BACKFILL_WH_L"
CHANNEL = "#dq-revenue-alerts"
OLD_CHANNEL = "#data-alerts-finance"
DAG = "nightly_revenue_mart"
BACKFILL_DAG = "revenue_backfill"
BACKFILL_RUN = "manual__2026-11-30T10:41:17+00:00"

# order date → PSP settlement (EUR), noise of the settlement against the true revenue (%),
# and the share of the mart's revenue that sits in duplicated rows (%)
DAYS = [
    ("2026-11-16", 1842310.55, 0.04, 0.00),
    ("2026-11-17", 1790442.10, -0.02, 0.00),
    ("2026-11-18", 1811903.72, 0.03, 0.06),
    ("2026-11-19", 1905118.40, 0.05, 0.52),
    ("2026-11-20", 2240776.93, 0.02, 2.91),
    ("2026-11-21", 2412590.18, -0.03, 3.44),
    ("2026-11-22", 2506221.64, 0.04, 3.58),
    ("2026-11-23", 2688903.05, 0.01, 3.46),
    ("2026-11-24", 2934117.80, 0.05, 3.89),
    ("2026-11-25", 3120442.37, -0.02, 3.73),
    ("2026-11-26", 3655080.12, 0.03, 3.55),
    ("2026-11-27", 6882413.90, 0.06, 3.22),
    ("2026-11-28", 4410228.61, -0.04, 3.87),
]


def lines(*records: dict[str, Any]) -> str:
    return "\n".join(json.dumps(r, ensure_ascii=False) for r in records)


def table(headers: list[str], rows: list[list[Any]], elapsed: str) -> str:
    """A result set the way the SnowSQL client prints it."""
    cells = [[str(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    out = [rule, "| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + " |"]
    out.append("|" + "+".join("-" * (w + 2) for w in widths) + "|")
    for row in cells:
        parts = []
        for cell, w in zip(row, widths, strict=True):
            numeric = cell.replace(".", "").replace("-", "").isdigit() and cell.count("-") != 2
            parts.append(cell.rjust(w) if numeric else cell.ljust(w))
        out.append("| " + " | ".join(parts) + " |")
    out.append(rule)
    out.append(f"{len(rows)} Row(s) produced. Time Elapsed: {elapsed}s")
    return "\n".join(out)


def money(value: float) -> str:
    return f"{value:.2f}"


TOOLS = [
    tool(
        "run_sql",
        "Run one read-only SQL statement on the Snowflake account (nordvik-eu1) and return the "
        "result set as a text table, at most 200 rows. The session runs under the given role "
        "and query tag.",
        {
            "sql": p("The SQL statement."),
            "role": p("Snowflake role for the session, e.g. ANALYST."),
            "query_tag": p("QUERY_TAG set on the session, for cost attribution."),
            "warehouse": p("Virtual warehouse to run on; defaults to the role's default."),
        },
        ["sql", "role"],
    ),
    tool(
        "list_dag_runs",
        "List recent runs of an Airflow DAG as JSON: run id, logical date, state, start, end "
        "and duration.",
        {
            "dag_id": p("DAG id, e.g. nightly_revenue_mart."),
            "since": p("Only runs that started after this day, YYYY-MM-DD."),
            "limit": {"type": "integer", "description": "Most runs to return (default 25)."},
        },
        ["dag_id"],
    ),
    tool(
        "get_dag_run",
        "Read one Airflow DAG run as JSON: conf, state, and every task instance with its "
        "state, try number and timings.",
        {"dag_id": p("DAG id."), "run_id": p("Run id, e.g. scheduled__2026-11-01T01:30:00+00:00.")},
        ["dag_id", "run_id"],
    ),
    tool(
        "get_task_log",
        "Fetch the log of one Airflow task try, as printed by the worker (Airflow lines with "
        "the task's own output, such as dbt's, inside).",
        {
            "dag_id": p("DAG id."),
            "run_id": p("Run id."),
            "task_id": p("Task id, e.g. dbt_build_revenue."),
            "try_number": {"type": "integer", "description": "Try number, starting at 1."},
        },
        ["dag_id", "run_id", "task_id"],
    ),
    tool(
        "list_models",
        "List dbt models of the analytics project as a table: name, schema, materialization, "
        "incremental strategy, unique key, tags and the last PR that changed them.",
        {
            "materialization": p(
                "Only models with this materialization.",
                enum=["view", "table", "incremental", "ephemeral"],
            ),
            "path": p("Only models under this folder, e.g. models/marts."),
        },
        [],
    ),
    tool(
        "get_model_sql",
        "Read a dbt model's SQL from the main branch, raw (with Jinja) or compiled for prod.",
        {
            "model": p("Model name, e.g. fct_daily_revenue."),
            "compiled": {"type": "boolean", "description": "Return the compiled SQL instead."},
        },
        ["model"],
    ),
    tool(
        "get_lineage",
        "Lineage of a dbt node from the prod manifest, as a JSON tree: models, sources, seeds "
        "and exposures with their materialization.",
        {
            "node": p("Model, source or exposure name."),
            "direction": p("upstream or downstream.", enum=["upstream", "downstream"]),
            "depth": {"type": "integer", "description": "How many levels to follow (default 3)."},
        },
        ["node", "direction"],
    ),
    tool(
        "get_table_schema",
        "Describe a Snowflake table as JSON: columns, clustering, row count, bytes, retention "
        "and the tasks or policies attached to it.",
        {
            "table": p("Fully qualified table, e.g. ANALYTICS.MARTS.FCT_DAILY_REVENUE."),
            "role": p("Snowflake role to describe it with."),
            "query_tag": p("QUERY_TAG for the metadata queries."),
        },
        ["table", "role"],
    ),
    tool(
        "get_freshness",
        "Run dbt source freshness for a source group and return CSV: table, loaded-at field, "
        "newest row, age and status, plus warn/error episodes of the last two weeks.",
        {"source": p("Source name, e.g. raw_cdc."), "since": p("Episodes since, YYYY-MM-DD.")},
        ["source"],
    ),
    tool(
        "list_cdc_lag",
        "Status of the Kafka Connect CDC pipelines as JSON: connector and task state, source "
        "replication details, per-table lag and the Snowflake sink.",
        {"connector": p("Only this connector, e.g. orders-pg-cdc.")},
        [],
    ),
    tool(
        "list_query_history",
        "Snowflake query history for objects since a time, from ACCOUNT_USAGE, as CSV: query "
        "id, start, user, role, warehouse, type, query tag, rows and status.",
        {
            "objects": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Fully qualified tables whose reads and writes to list.",
            },
            "since": p("Start time, ISO 8601."),
            "role": p("Snowflake role to read the history with."),
            "query_tag": p("QUERY_TAG for the history query itself."),
        },
        ["objects", "since", "role"],
    ),
    tool(
        "get_ticket",
        "Read a Jira issue as JSON: summary, status, people, description, custom fields, "
        "attachments and comments.",
        {"key": p("Issue key, e.g. DATA-1234.")},
        ["key"],
    ),
    tool(
        "add_ticket_comment",
        "Add a comment to a Jira issue (Markdown). Returns the new comment's id.",
        {"key": p("Issue key."), "body": p("The comment, in Markdown.")},
        ["key", "body"],
    ),
    tool(
        "get_runbook",
        "Read a runbook from the data team's handbook, as Markdown.",
        {"name": p("Runbook slug, e.g. revenue-mart-discrepancy.")},
        ["name"],
    ),
    tool(
        "search_slack",
        "Search Slack messages the data team can read. Returns JSON lines: time, channel, "
        "author and text of each hit, oldest first.",
        {
            "query": p("Search words; OR and quotes work."),
            "channel": p("Only this channel, e.g. #analytics-eng."),
            "since": p("Only messages after this day, YYYY-MM-DD."),
        },
        ["query"],
    ),
    tool(
        "post_slack_message",
        "Post a message to a Slack channel as the data-team bot. Returns JSON with the "
        "message timestamp.",
        {"channel": p("Channel, e.g. #analytics-eng."), "text": p("Message text (mrkdwn).")},
        ["channel", "text"],
    ),
    tool(
        "get_git_diff",
        "Show a merged or open pull request of the dbt repository: title, author, reviews and "
        "the unified diff.",
        {"pr": {"type": "integer", "description": "Pull request number."}},
        ["pr"],
    ),
    tool(
        "create_revert_pr",
        "Open a pull request that reverts a merged pull request of the dbt repository. "
        "Returns JSON with the new PR's number, branch and CI state.",
        {
            "pr": {"type": "integer", "description": "Number of the PR to revert."},
            "body": p("Description of the revert PR (Markdown)."),
        },
        ["pr", "body"],
    ),
    tool(
        "trigger_backfill",
        "Trigger the revenue_backfill Airflow DAG: delete a window of a dbt model and its "
        "downstream models and rebuild it with dbt, or fully refresh them. Returns JSON.",
        {
            "select": p("dbt selector, e.g. int_order_lines+."),
            "start_date": p("First day of the window, YYYY-MM-DD."),
            "end_date": p("Last day of the window, YYYY-MM-DD."),
            "window_column": p(
                "Column the window applies to in the first model (default order_date).",
                enum=["order_date", "_dbt_loaded_at"],
            ),
            "warehouse": p("Virtual warehouse the rebuild runs on."),
            "full_refresh": {
                "type": "boolean",
                "description": "Rebuild the selected models from scratch instead of a window.",
            },
        },
        ["select", "warehouse"],
    ),
    tool(
        "get_data_contract",
        "Read a data product's data contract (datacontract.com specification) as YAML: "
        "schema, semantics, quality checks, service levels and consumers.",
        {"name": p("Data product, e.g. fct_daily_revenue.")},
        ["name"],
    ),
]

PROBES = f"""\
# Eleven facts of the kinds the held-out sessions lost, four of them only inside a structured
# tool result (a long task log, nested JSON, a CSV row, YAML); six phrasings each.
- id: query_tag
  kind: rule
  planted_turn: 3
  question:
    - "What query tag must every SQL query in this investigation carry?"
    - "Fill in the query_tag argument of the next run_sql call. What value?"
    - "Which tag did I ask you to put on all of your queries?"
    - "Which label lets the cost team attribute our Snowflake credits correctly?"
    - "Before you look at the warehouse again: what marker goes on each statement you send?"
    - "Write down the tag you will attach to the reconciliation query."
  expected: "{TAG}"
  distractors: ["{OTHER_TAG}"]
- id: read_role
  kind: rule
  planted_turn: 3
  question:
    - "Which Snowflake role are you allowed to use here?"
    - "Fill in the role argument of the next SQL call. Which role?"
    - "Which role did I say is the only one you may use?"
    - "Under which identity do your warehouse sessions have to run?"
    - "As whom do you connect to Snowflake to verify the mart after the rebuild?"
    - "Name the read-only role for this investigation."
  expected: "{ROLE}"
  distractors: ["{WRITE_ROLE}", "TRANSFORMER"]
- id: alert_channel
  kind: lookalike
  planted_turn: 4
  question:
    - "Which Slack channel gets status updates about the revenue mart?"
    - "Fill in the channel argument of the next post. Which channel?"
    - "The old finance alerts channel was archived. Where do the revenue alerts go now?"
    - "Which channel do the people who follow revenue data quality read?"
    - "Where do we announce progress on this fix so finance sees it?"
    - "Where in Slack should I tell people the numbers are being rebuilt?"
  expected: "{CHANNEL.lstrip("#")}"
  distractors: ["{OLD_CHANNEL.lstrip("#")}"]
- id: flash_signoff
  kind: user
  planted_turn: 6
  question:
    - "Who signed off the November flash?"
    - "Which person in FP&A approved the numbers that are now wrong?"
    - "Whom should we warn first that signed-off figures will change?"
    - "Who approved the monthly forecast that includes the inflated revenue?"
    - "Which colleague gave the go-ahead on those figures last week?"
    - "Name the finance person whose sign-off this overstatement affects."
  expected: "{SIGNER}"
  distractors: ["Jesper Holm"]
- id: unique_test_count
  kind: tool_result
  planted_turn: 7
  question:
    - "How many failures did the uniqueness test on order_line_id report in the log of the 26 November run?"
    - "In the dbt log from the night of the 26th, what count did the warning carry?"
    - "Fill in the number of duplicate ids the nightly test found on the 26th."
    - "The nightly build passed with one warning. How many results did that warning report?"
    - "How many repeated keys had piled up by Thursday's build, according to the test output?"
    - "State the result count of the only non-passing check in that night's build."
  expected: "{WARNED}"
  distractors: ["{WARNED_LIKE}"]
- id: replication_slot
  kind: tool_result
  planted_turn: 8
  question:
    - "Which replication slot does the orders CDC connector read from now?"
    - "The DBA wants to monitor the connector's slot. What is it called?"
    - "Fill in the slot name for the Postgres replication alert. Which slot?"
    - "After the failover the old slot was dropped. What is the name of the new one?"
    - "Which logical decoding handle does Debezium hold on the primary database since Sunday?"
    - "Name the thing on the database primary that keeps the WAL for our change feed."
  expected: "{SLOT}"
  distractors: ["{OLD_SLOT}"]
- id: recon_check
  kind: tool_result
  planted_turn: 11
  question:
    - "What is the id of the data contract's reconciliation check against the PSP settlement?"
    - "Which quality check in the contract compares the mart with Adyen and Klarna?"
    - "Fill in the check id we need to enable so this alerts next time."
    - "The settlement check is written in the contract but disabled. What is its id?"
    - "Which rule would have caught this gap, had it been switched on?"
    - "Name the disabled test that matches daily takings to what the payment providers paid out."
  expected: "{CHECK}"
  distractors: ["{CHECK_LIKE}"]
- id: worst_order
  kind: summary
  planted_turn: 16
  question:
    - "Which order had the most duplicated lines?"
    - "Give the id of the order hit hardest by the duplicates."
    - "Fill in the order_id of the worst example for the postmortem."
    - "Which order had each of its lines counted five times?"
    - "Name the business customer's purchase that was overstated the most."
    - "What single basket contributed the largest extra amount?"
  expected: "{ORDER}"
  distractors: ["{ORDER_LIKES[0]}", "{ORDER_LIKES[1]}"]
- id: insert_query_id
  kind: tool_result
  planted_turn: 18
  question:
    - "What was the Snowflake query id of the nightly insert into int_order_lines on 26 November?"
    - "Which query id wrote the int_order_lines rows on the night of the 26th?"
    - "Fill in the query_id of the 26 November int_order_lines insert for the support case."
    - "Snowflake support asks which statement wrote the duplicated rows before dawn on Thursday. Give its id."
    - "Which identifier in the access history belongs to the dbt service's load of order lines on the 26th?"
    - "Give the id I can paste into the query profile to see Thursday's append."
  expected: "{QUERY_ID}"
  distractors: ["{QUERY_ID_LIKE}"]
- id: backfill_warehouse
  kind: revised
  planted_turn: 25
  question:
    - "Which warehouse does the backfill run on?"
    - "Fill in the warehouse argument of the backfill. Which one?"
    - "Which warehouse did we settle on for the rebuild in the end?"
    - "The usual dbt warehouse was mentioned earlier. Which one is it now?"
    - "On which compute cluster must the repair job execute?"
    - "Where do the rebuild's credits get burned?"
  expected: "{BACKFILL_WH}"
  distractors: ["{WAREHOUSE}"]
- id: full_refresh_rejected
  kind: rejected
  planted_turn: 20
  question:
    - "Why are we not doing a full refresh of int_order_lines?"
    - "A full refresh was proposed. Why was it turned down?"
    - "What was the reason for rejecting the full rebuild?"
    - "Why rebuild only a window instead of the whole table?"
    - "Why did I turn down recreating that intermediate table from nothing?"
    - "What did I say against the simplest fix?"
  expected_regex: "(?i)(30 days|retain\\\\w*|retention|wipe\\\\w*|older history)"
"""


def day_numbers() -> dict[str, dict[str, float]]:
    """Per order date: PSP settlement, true revenue, mart revenue, lines and extra rows."""
    out: dict[str, dict[str, float]] = {}
    for day, psp, noise, dup in DAYS:
        true = round(psp * (1 + noise / 100), 2)
        mart = round(true * (1 + dup / 100), 2)
        lines_ = round(true / 29.84)
        extra_rows = round((mart - true) / 27.41)
        out[day] = {
            "psp": psp,
            "true": true,
            "mart": mart,
            "lines": lines_,
            "extra_rows": extra_rows,
            "diff_pct": round(100 * (mart / psp - 1), 2),
            "dedup_pct": round(100 * (true / psp - 1), 2),
        }
    return out


def dbt_log(b: TranscriptBuilder) -> str:
    """The Airflow log of the dbt task on the night of 26 November: about 100 lines."""
    run_id = "scheduled__2026-11-25T01:30:00+00:00"
    pid = b.number(30000, 69999)
    job = b.number(770000, 779999)
    clock = [1 * 3600 + 31 * 60 + 9]

    def at(seconds: float = 0) -> str:
        clock[0] += seconds
        s = int(clock[0])
        return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"

    def af(stamp: str, source: str, text: str) -> str:
        return f"[2026-11-26, {stamp} UTC] {{{source}}} INFO - {text}"

    def dbt(text: str, advance: float = 0) -> str:
        stamp = at(advance)
        return af(stamp, "subprocess.py:93", f"{stamp}  {text}" if text else "")

    def dots(head: str, tail: str) -> str:
        return f"{head} {'.' * max(3, 78 - len(head))} [{tail}]"

    # (kind, name, seconds, result) in build order; tests of a model follow it
    nodes: list[tuple[str, str, float, str]] = [
        ("seed", "seeds.channel_map", 1.84, "INSERT 14"),
        ("view", "staging.stg_ordersdb__orders", 1.12, "SUCCESS 1"),
        ("view", "staging.stg_ordersdb__order_lines", 1.31, "SUCCESS 1"),
        ("view", "staging.stg_ordersdb__refunds", 0.98, "SUCCESS 1"),
        ("view", "staging.stg_finance__fx_daily", 0.87, "SUCCESS 1"),
        ("test", "unique_stg_ordersdb__orders_order_id", 6.02, "PASS"),
        ("test", "not_null_stg_ordersdb__orders_order_id", 2.77, "PASS"),
        ("test", "unique_stg_ordersdb__order_lines_order_line_id", 9.48, "PASS"),
        ("test", "not_null_stg_ordersdb__order_lines_order_line_id", 3.05, "PASS"),
        (
            "test",
            "accepted_values_stg_ordersdb__order_lines_line_status__placed__amended__cancelled__returned",
            4.66,
            "PASS",
        ),
        ("test", "unique_stg_ordersdb__refunds_refund_id", 1.92, "PASS"),
        ("test", "not_null_stg_ordersdb__refunds_refund_id", 1.14, "PASS"),
        ("test", "not_null_stg_finance__fx_daily_rate_date", 0.71, "PASS"),
        ("table", "marts.dim_channel", 2.41, "SUCCESS 1"),
        ("table", "marts.dim_fx_rates", 3.88, "SUCCESS 1"),
        ("test", "unique_dim_channel_channel", 0.66, "PASS"),
        ("test", "not_null_dim_channel_channel", 0.52, "PASS"),
        (
            "test",
            "dbt_utils_unique_combination_of_columns_dim_fx_rates_currency__rate_date",
            1.21,
            "PASS",
        ),
        ("test", "not_null_dim_fx_rates_rate_to_eur", 0.74, "PASS"),
        ("incremental", "intermediate.int_orders", 371.62, "SUCCESS 1"),
        ("test", "unique_int_orders_order_id", 11.37, "PASS"),
        ("test", "not_null_int_orders_order_id", 4.02, "PASS"),
        ("test", "relationships_int_orders_channel__channel__ref_dim_channel_", 3.18, "PASS"),
        ("incremental", "intermediate.int_order_lines", 41.27, "SUCCESS 111963"),
        ("test", "unique_int_order_lines_order_line_id", 3.41, f"WARN {WARNED}"),
        ("test", "not_null_int_order_lines_order_line_id", 2.96, "PASS"),
        ("test", "not_null_int_order_lines_order_id", 2.71, "PASS"),
        (
            "test",
            "relationships_int_order_lines_order_id__order_id__ref_int_orders_",
            38.55,
            "PASS",
        ),
        ("test", "not_null_int_order_lines_line_amount_eur", 2.44, "PASS"),
        ("test", "dbt_utils_expression_is_true_int_order_lines_line_amount_eur_0", 3.12, "PASS"),
        ("table", "intermediate.int_refunds_daily", 58.09, "SUCCESS 1"),
        ("test", "not_null_int_refunds_daily_refund_date", 0.93, "PASS"),
        ("incremental", "marts.fct_daily_revenue", 1240.36, "SUCCESS 1"),
        (
            "test",
            "dbt_utils_unique_combination_of_columns_fct_daily_revenue_order_date__channel",
            1.77,
            "PASS",
        ),
        ("test", "not_null_fct_daily_revenue_order_date", 0.81, "PASS"),
        ("test", "not_null_fct_daily_revenue_revenue_eur", 0.79, "PASS"),
        (
            "test",
            "accepted_values_fct_daily_revenue_channel__web__app__store_pickup__marketplace",
            0.95,
            "PASS",
        ),
        ("test", "dbt_utils_expression_is_true_fct_daily_revenue_revenue_eur_0", 0.88, "PASS"),
        ("test", "dbt_utils_recency_fct_daily_revenue_day_order_date__1", 0.69, "PASS"),
        ("test", "not_null_fct_daily_revenue_orders", 0.72, "PASS"),
    ]
    total = len(nodes)
    ti = f"<TaskInstance: {DAG}.dbt_build_revenue {run_id} [queued]>"
    out = [
        af("01:30:41", "local_task_job_runner.py:123", "::group::Pre task execution logs"),
        af(
            "01:30:41",
            "taskinstance.py:2073",
            f"Dependencies all met for dep_context=non-requeueable deps ti={ti}",
        ),
        af(
            "01:30:41",
            "taskinstance.py:2073",
            f"Dependencies all met for dep_context=requeueable deps ti={ti}",
        ),
        af("01:30:41", "taskinstance.py:2303", "Starting attempt 1 of 3"),
        af("01:30:41", "taskinstance.py:2327", "::endgroup::"),
        af(
            "01:30:42",
            "taskinstance.py:2327",
            "Executing <Task(BashOperator): dbt_build_revenue> on 2026-11-25 01:30:00+00:00",
        ),
        af("01:30:42", "standard_task_runner.py:63", f"Started process {pid} to run task"),
        af(
            "01:30:42",
            "standard_task_runner.py:90",
            f"Running: ['airflow', 'tasks', 'run', '{DAG}', 'dbt_build_revenue', '{run_id}', '--job-id', '{job}', '--raw', '--subdir', 'DAGS_FOLDER/{DAG}.py', '--cfg-path', '/tmp/tmp{b.hex_id(8)}']",
        ),
        af("01:30:42", "standard_task_runner.py:91", f"Job {job}: Subtask dbt_build_revenue"),
        af(
            "01:30:43",
            "task_command.py:426",
            f"Running <TaskInstance: {DAG}.dbt_build_revenue {run_id} [running]> on host airflow-worker-2.airflow-workers.data.svc.cluster.local",
        ),
        af(
            "01:30:43",
            "taskinstance.py:2644",
            f"Exporting env vars: AIRFLOW_CTX_DAG_OWNER='analytics-eng' AIRFLOW_CTX_DAG_ID='{DAG}' AIRFLOW_CTX_TASK_ID='dbt_build_revenue' AIRFLOW_CTX_EXECUTION_DATE='2026-11-25T01:30:00+00:00' AIRFLOW_CTX_TRY_NUMBER='1' AIRFLOW_CTX_DAG_RUN_ID='{run_id}'",
        ),
        af("01:30:43", "subprocess.py:63", "Tmp dir root location: /tmp"),
        af(
            "01:30:43",
            "subprocess.py:75",
            "Running command: ['/usr/bin/bash', '-c', 'cd /opt/dbt/nordvik_analytics && dbt build --target prod --select +fct_daily_revenue --exclude tag:hourly']",
        ),
        af("01:30:43", "subprocess.py:86", "Output:"),
        dbt("Running with dbt=1.8.7", 6),
        dbt("Registered adapter: snowflake=1.8.4", 1),
        dbt("Found 412 models, 24 seeds, 1187 data tests, 38 sources, 6 exposures, 1032 macros", 4),
        dbt(""),
        dbt("Concurrency: 8 threads (target='prod')", 2),
        dbt(""),
    ]
    for index, (kind, name, seconds, result) in enumerate(nodes, 1):
        if kind == "seed":
            start, done = f"START seed file {name}", f"OK loaded seed file {name}"
        elif kind == "test":
            start = f"START test {name}"
            done = f"{result} {name}" if result.startswith("WARN") else f"PASS {name}"
        else:
            start = f"START sql {kind} model {name}"
            done = f"OK created sql {kind} model {name}"
        tail = f"{result} in {seconds:.2f}s"
        out.append(dbt(dots(f"{index} of {total} {start}", "RUN"), 0.4))
        out.append(dbt(dots(f"{index} of {total} {done}", tail), seconds))
    out += [
        dbt("", 1),
        dbt(
            "Finished running 1 seed, 4 view models, 2 table models, 4 incremental models, 29 data tests in 0 hours 30 minutes and 52.14 seconds (1852.14s).",
            0,
        ),
        dbt(""),
        dbt("Done. PASS=39 WARN=1 ERROR=0 SKIP=0 TOTAL=40"),
        af(at(1), "subprocess.py:97", "Command exited with return code 0"),
        af(at(), "taskinstance.py:441", "::group::Post task execution logs"),
        af(
            at(),
            "taskinstance.py:1206",
            f"Marking task as SUCCESS. dag_id={DAG}, task_id=dbt_build_revenue, run_id={run_id}, execution_date=20261125T013000, start_date=20261126T013041, end_date=20261126T{at().replace(':', '')}",
        ),
        af(at(1), "local_task_job_runner.py:240", "Task exited with return code 0"),
        af(
            at(),
            "taskinstance.py:3503",
            "1 downstream tasks scheduled from follow-on schedule check",
        ),
        af(at(), "local_task_job_runner.py:222", "::endgroup::"),
    ]
    return "\n".join(out)


def build() -> TranscriptBuilder:
    b = TranscriptBuilder(
        SEED,
        avoid=(
            "6184",
            "6148",
            WARNED,
            WARNED_LIKE,
            "0915",
            "0951",
            "418273",
            "418237",
            "481273",
            "e4f1b6",
            "e4f16b",
            "slot_14",
            "Ellingsen",
        ),
    )
    days = day_numbers()

    # 1 — the ticket
    b.user(
        f"Morning. Finance says our revenue mart has been 3-4 % too high for the whole of last week. The ticket is {TICKET}, can you pull it up?"
    )
    b.calls(
        (
            "get_ticket",
            {"key": TICKET},
            pretty(
                {
                    "key": TICKET,
                    "fields": {
                        "summary": "fct_daily_revenue above PSP settlement by 3-4 % since ~20 Nov",
                        "issuetype": {"name": "Incident"},
                        "status": {"name": "In Progress", "since": "2026-11-30T07:58:02Z"},
                        "priority": {"name": "High"},
                        "reporter": {"displayName": "Jesper Holm", "team": "Finance Controlling"},
                        "assignee": {
                            "displayName": "Linnea Sjöberg",
                            "team": "Analytics Engineering",
                        },
                        "created": "2026-11-27T14:05:31Z",
                        "labels": ["revenue", "reconciliation", "november-close"],
                        "components": [{"name": "marts/finance"}],
                        "description": "Weekly PSP reconciliation (Adyen + Klarna settlements vs ANALYTICS.MARTS.FCT_DAILY_REVENUE, by order date) is off from order date 20 Nov: the mart is 2.9-3.9 % above the settled amounts, on every channel. Weeks 45 and 46 were within 0.1 %. It's Black Week so the amounts are large (about EUR 560k over 20-25 Nov). The November close starts Thursday 3 Dec.",
                        "customfield_10231": {
                            "impact": {
                                "finance": "November close, Black Week reporting",
                                "dashboards": ["Revenue Daily", "Margin Weekly"],
                                "severity_matrix": {"money": "high", "people": "finance, exec"},
                            }
                        },
                        "attachment": [
                            {
                                "filename": "psp_recon_w47_w48.xlsx",
                                "size": 90211,
                                "author": "Jesper Holm",
                                "created": "2026-11-27T14:06:02Z",
                            }
                        ],
                        "comment": {
                            "total": 2,
                            "comments": [
                                {
                                    "author": "Jesper Holm",
                                    "created": "2026-11-27T14:09:12Z",
                                    "body": "Diff by order date in the attachment: 20 Nov +2.9 %, 21 Nov +3.4 %, 22 Nov +3.6 %, 23 Nov +3.5 %, 24 Nov +3.9 %, 25 Nov +3.7 %. Refunds and chargebacks are not the reason, they are booked separately.",
                                },
                                {
                                    "author": "Rasmus Vik",
                                    "created": "2026-11-27T16:30:47Z",
                                    "body": "Data Platform: nothing on our side this week except the planned ordersdb failover on Sun 22 Nov 03:00-03:15 UTC (Debezium was restarted after it).",
                                },
                            ],
                        },
                    },
                }
            ),
        )
    )
    b.say(
        f"{TICKET} (High, opened Friday by Jesper Holm in Finance Controlling, assigned to you): the weekly reconciliation of fct_daily_revenue against the Adyen and Klarna settlements is off from order date 20 Nov, 2.9-3.9 % too high on every channel, about EUR 560k over 20-25 Nov, while weeks 45-46 matched within 0.1 %. Refunds and chargebacks are ruled out by finance. Data Platform reports only the planned ordersdb failover on Sunday 22 Nov, 03:00-03:15 UTC, after which Debezium was restarted. The November close starts Thursday 3 Dec."
    )

    # 2 — lineage
    b.user("Which models feed fct_daily_revenue?")
    b.calls(
        (
            "get_lineage",
            {"node": "fct_daily_revenue", "direction": "upstream", "depth": 4},
            pretty(
                {
                    "node": "model.nordvik_analytics.fct_daily_revenue",
                    "direction": "upstream",
                    "manifest": {"generated_at": "2026-11-30T01:31:20Z", "dbt_version": "1.8.7"},
                    "tree": {
                        "name": "fct_daily_revenue",
                        "resource_type": "model",
                        "relation": "ANALYTICS.MARTS.FCT_DAILY_REVENUE",
                        "materialized": "incremental",
                        "parents": [
                            {
                                "name": "int_order_lines",
                                "resource_type": "model",
                                "relation": "ANALYTICS.INTERMEDIATE.INT_ORDER_LINES",
                                "materialized": "incremental",
                                "parents": [
                                    {
                                        "name": "stg_ordersdb__order_lines",
                                        "resource_type": "model",
                                        "materialized": "view",
                                        "parents": [
                                            {
                                                "name": "raw_cdc.order_lines",
                                                "resource_type": "source",
                                                "relation": "ANALYTICS.RAW_CDC.ORDER_LINES",
                                            }
                                        ],
                                    },
                                    {
                                        "name": "int_orders",
                                        "resource_type": "model",
                                        "materialized": "incremental",
                                        "parents": "(listed below)",
                                    },
                                ],
                            },
                            {
                                "name": "int_orders",
                                "resource_type": "model",
                                "relation": "ANALYTICS.INTERMEDIATE.INT_ORDERS",
                                "materialized": "incremental",
                                "parents": [
                                    {
                                        "name": "stg_ordersdb__orders",
                                        "resource_type": "model",
                                        "materialized": "view",
                                        "parents": [
                                            {
                                                "name": "raw_cdc.orders",
                                                "resource_type": "source",
                                                "relation": "ANALYTICS.RAW_CDC.ORDERS",
                                            }
                                        ],
                                    }
                                ],
                            },
                            {
                                "name": "int_refunds_daily",
                                "resource_type": "model",
                                "materialized": "table",
                                "parents": [
                                    {
                                        "name": "stg_ordersdb__refunds",
                                        "resource_type": "model",
                                        "materialized": "view",
                                        "parents": [
                                            {
                                                "name": "raw_cdc.refunds",
                                                "resource_type": "source",
                                                "relation": "ANALYTICS.RAW_CDC.REFUNDS",
                                            }
                                        ],
                                    }
                                ],
                            },
                            {
                                "name": "dim_fx_rates",
                                "resource_type": "model",
                                "materialized": "table",
                                "parents": [
                                    {
                                        "name": "stg_finance__fx_daily",
                                        "resource_type": "model",
                                        "materialized": "view",
                                        "parents": [
                                            {
                                                "name": "finance.fx_daily",
                                                "resource_type": "source",
                                                "relation": "ANALYTICS.FINANCE.FX_DAILY",
                                                "loader": "fivetran",
                                            }
                                        ],
                                    }
                                ],
                            },
                            {
                                "name": "dim_channel",
                                "resource_type": "model",
                                "materialized": "table",
                                "parents": [{"name": "channel_map", "resource_type": "seed"}],
                            },
                        ],
                    },
                }
            ),
        )
    )
    b.say(
        "fct_daily_revenue (incremental, MARTS) reads five models: int_order_lines and int_orders (both incremental, INTERMEDIATE), int_refunds_daily, dim_fx_rates and dim_channel. The order models come from staging views over the CDC tables RAW_CDC.ORDER_LINES, ORDERS and REFUNDS; FX rates come from the Fivetran-loaded FINANCE.FX_DAILY and channels from a seed."
    )

    # 3 — the standing rules
    b.user(
        f"Before you run anything, two rules for this whole investigation. Every query you run must carry the query tag {TAG}, so FinOps can charge the compute to the incident. And only use the role {ROLE}, which is read-only; never TRANSFORMER or any other role that can write, not even for a quick check."
    )
    b.say(
        "Understood: every query goes out with your incident's query tag, and only under the read-only audit role, never TRANSFORMER or anything with write grants."
    )

    # 4 — the runbook: the alert channel moved
    b.user("Is there a runbook for revenue not reconciling?")
    b.calls(
        (
            "get_runbook",
            {"name": "revenue-mart-discrepancy"},
            f"""\
# Runbook: the revenue mart does not reconcile with PSP settlement

Owner: Analytics Engineering · last reviewed 2026-11-04 · applies to MARTS.FCT_DAILY_REVENUE, MARTS.FCT_ORDER_MARGIN

## Before you start
- Investigations run as {ROLE} (read-only on RAW_CDC, STAGING, INTERMEDIATE, MARTS, FINANCE). {WRITE_ROLE} exists only for the month-end close job (svc_fin_close); do not request it for investigations.
- Set a query tag on every session so the credits land on the incident.
- Status updates and data-quality alerts for the revenue marts go to {CHANNEL}. Until 2 Nov 2026 they went to {OLD_CHANNEL}; that channel is archived and nobody watches it.

## Triage
1. Compare FCT_DAILY_REVENUE with FINANCE.PSP_SETTLEMENT_DAILY by order_date. Settlement is final at T+2, so leave the last two days out. A gap on every channel points at the pipeline; a gap on one channel at its PSP or at the channel mapping.
2. Check the nightly_revenue_mart DAG: failed or retried runs, unusual durations.
3. Check the orders CDC stream: connector state, restarts, lag, snapshots. A re-snapshot re-emits every row as op='r'.
4. Check source freshness of raw_cdc and finance.
5. Check merged PRs touching models/intermediate and models/marts since the last good day.
6. Check FX: dim_fx_rates must have one rate per currency and day (SEK, NOK, DKK, EUR).

## Fixing data
- Never edit mart or intermediate tables by hand; every fix goes through dbt so it can be reproduced.
- Rebuild a window with the revenue_backfill DAG (selector, window, warehouse). It deletes the window of the first selected model and rebuilds it and everything selected downstream.
- Finance must be told before numbers in a signed-off period change.

## Contacts
- Analytics Engineering on call: PagerDuty service "AE Core"
- Data Platform (Snowflake, Airflow, Kafka Connect): #data-platform
- Finance Controlling: Jesper Holm
""",
        )
    )
    b.say(
        f"Yes, revenue-mart-discrepancy (reviewed 4 Nov). Triage order: compare the mart with PSP settlement by order date (leaving out the last two days, which settle at T+2), then the nightly DAG, the orders CDC stream (restarts, lag, re-snapshots), source freshness, PRs merged into models/intermediate and models/marts, and FX rates. Fixes go through dbt only, with the revenue_backfill DAG, and finance has to be told before signed-off numbers change. Status updates go to {CHANNEL}; the old finance alerts channel is archived."
    )

    # 5 — confirm the gap
    b.user("Confirm the gap yourself first: mart against settlement by day, from the 16th.")
    recon_sql = """\
select r.order_date,
       sum(r.revenue_eur)                                             as mart_revenue_eur,
       max(s.settled_eur)                                             as psp_settled_eur,
       round(100 * (sum(r.revenue_eur) / max(s.settled_eur) - 1), 2) as diff_pct
from analytics.marts.fct_daily_revenue r
join (select order_date, sum(settled_amount_eur) as settled_eur
        from analytics.finance.psp_settlement_daily
       group by 1) s using (order_date)
where r.order_date between '2026-11-16' and '2026-11-28'
group by 1
order by 1"""
    b.calls(
        (
            "run_sql",
            {"sql": recon_sql, "role": ROLE, "query_tag": TAG},
            table(
                ["ORDER_DATE", "MART_REVENUE_EUR", "PSP_SETTLED_EUR", "DIFF_PCT"],
                [
                    [d, money(v["mart"]), money(v["psp"]), f"{v['diff_pct']:.2f}"]
                    for d, v in days.items()
                ],
                "1.482",
            ),
        )
    )
    b.say(
        "Confirmed. 16-17 Nov match within 0.04 %, 18 and 19 Nov are slightly high (0.09 % and 0.57 %), and from order date 20 Nov every day is 2.9-3.9 % above settlement: 2.93 % on the 20th, 3.41-3.94 % through the 26th, 3.28 % on Black Friday and 3.83 % on the 28th. It starts two days before the failover."
    )

    # 6 — the user's fact, said once; the DAG runs
    b.user(
        f"{SIGNER} in FP&A signed off the November flash on Friday with these numbers in it, so this is getting urgent. Was the nightly DAG healthy last week?"
    )
    runs = []
    durations = {
        17: 73,
        18: 71,
        19: 76,
        20: 74,
        21: 38,
        22: 36,
        23: 39,
        24: 37,
        25: 38,
        26: 32,
        27: 37,
        28: 44,
        29: 40,
        30: 39,
    }
    for day, minutes in durations.items():
        start_s = 1 * 3600 + 30 * 60 + b.number(3, 9)
        end_s = start_s + minutes * 60 + b.number(5, 55)
        runs.append(
            {
                "dag_run_id": f"scheduled__2026-11-{day - 1:02d}T01:30:00+00:00",
                "logical_date": f"2026-11-{day - 1:02d}T01:30:00+00:00",
                "run_type": "scheduled",
                "state": "success",
                "start_date": f"2026-11-{day:02d}T{start_s // 3600:02d}:{start_s % 3600 // 60:02d}:{start_s % 60:02d}Z",
                "end_date": f"2026-11-{day:02d}T{end_s // 3600:02d}:{end_s % 3600 // 60:02d}:{end_s % 60:02d}Z",
                "duration_min": round((end_s - start_s) / 60, 1),
                "tries": {"max_try_number": 1, "failed_tasks": 0},
                "conf": {},
            }
        )
    b.calls(
        (
            "list_dag_runs",
            {"dag_id": DAG, "since": "2026-11-16", "limit": 14},
            pretty(
                {
                    "dag_id": DAG,
                    "schedule_interval": "30 1 * * *",
                    "owners": ["analytics-eng"],
                    "default_args": {
                        "retries": 2,
                        "pool": "dbt_prod",
                        "env": {"DBT_TARGET": "prod", "SNOWFLAKE_WAREHOUSE": WAREHOUSE},
                    },
                    "total_entries": len(runs),
                    "dag_runs": runs,
                }
            ),
        )
    )
    b.say(
        "Healthy as far as Airflow is concerned: all 14 runs since 17 Nov succeeded on the first try. What changed is the duration: 71-76 minutes up to the run that started on 20 Nov, then 32-44 minutes from the run that started at 01:30 UTC on 21 Nov, which is the first load of order date 20 Nov. Something in the build got much cheaper that night."
    )

    # 7 — the long dbt log: the uniqueness test warned (the count only here)
    b.user("Show me the log of the dbt task from the night of the 26th.")
    b.calls(
        (
            "get_task_log",
            {
                "dag_id": DAG,
                "run_id": "scheduled__2026-11-25T01:30:00+00:00",
                "task_id": "dbt_build_revenue",
                "try_number": 1,
            },
            dbt_log(b),
        )
    )
    b.say(
        "The dbt build on the 26th ran from 01:31 to 02:02 UTC: 1 seed, 4 views, 2 tables, 4 incremental models and 29 tests, PASS=39, WARN=1, ERROR=0. The slow steps are fct_daily_revenue (about 21 minutes) and int_orders' merge (6 minutes); int_order_lines, the biggest model, took only 41 seconds. One test ended at warning severity, which does not fail the task."
    )

    # 8 — CDC status: the replication slot four levels deep
    b.user(
        "That project has dozens of warn-level tests that always fire, ignore that for now. My money is on CDC: the ordersdb failover was on Sunday the 22nd. Check the connector."
    )
    b.calls(
        (
            "list_cdc_lag",
            {},
            pretty(
                {
                    "generated_at": "2026-11-30T08:14:22Z",
                    "kafka_connect": {"cluster": "kconnect-prod", "workers": 3, "version": "3.7.1"},
                    "connectors": {
                        "orders-pg-cdc": {
                            "type": "io.debezium.connector.postgresql.PostgresConnector",
                            "version": "2.7.3.Final",
                            "state": "RUNNING",
                            "source": {
                                "host": "ordersdb-primary.prod.internal",
                                "database": "ordersdb",
                                "replication": {
                                    "slot": SLOT,
                                    "plugin": "pgoutput",
                                    "publication": "dbz_orders_pub",
                                    "created": "2026-11-22T03:12:40Z",
                                    "confirmed_flush_lsn": "3A/7F21C0D8",
                                    "previous_slot": {
                                        "name": OLD_SLOT,
                                        "state": "dropped",
                                        "at": "2026-11-22T03:20:05Z",
                                    },
                                },
                                "snapshot": {
                                    "mode": "no_data",
                                    "last_snapshot": "2025-06-03T22:10:00Z",
                                },
                                "tables": ["public.orders", "public.order_lines", "public.refunds"],
                            },
                            "tasks": [
                                {
                                    "id": 0,
                                    "state": "RUNNING",
                                    "worker": "kconnect-2:8083",
                                    "restarts_7d": 1,
                                    "last_restart": {
                                        "at": "2026-11-22T03:12:31Z",
                                        "reason": "source failover (planned, CHG-40417)",
                                    },
                                }
                            ],
                            "topics": {
                                "ordersdb.public.orders": {
                                    "lag_seconds_p95": 4.1,
                                    "events_last_hour": 9120,
                                },
                                "ordersdb.public.order_lines": {
                                    "lag_seconds_p95": 4.8,
                                    "events_last_hour": int(WARNED_LIKE),
                                },
                                "ordersdb.public.refunds": {
                                    "lag_seconds_p95": 3.9,
                                    "events_last_hour": 611,
                                },
                            },
                            "sink": {
                                "connector": "snowflake-sink-orders",
                                "target": "ANALYTICS.RAW_CDC",
                                "ingestion": "snowpipe_streaming",
                                "lag_seconds_p95": 11.2,
                                "errors_7d": 0,
                            },
                        },
                        "customers-pg-cdc": {
                            "type": "io.debezium.connector.postgresql.PostgresConnector",
                            "version": "2.7.3.Final",
                            "state": "RUNNING",
                            "source": {
                                "host": "crm-primary.prod.internal",
                                "database": "crm",
                                "snapshot": {"mode": "no_data"},
                            },
                            "tasks": [
                                {
                                    "id": 0,
                                    "state": "RUNNING",
                                    "worker": "kconnect-1:8083",
                                    "restarts_7d": 0,
                                }
                            ],
                            "topics": {
                                "crm.public.customers": {
                                    "lag_seconds_p95": 2.7,
                                    "events_last_hour": 1840,
                                }
                            },
                            "sink": {
                                "connector": "snowflake-sink-crm",
                                "target": "ANALYTICS.RAW_CDC",
                                "lag_seconds_p95": 9.6,
                                "errors_7d": 0,
                            },
                        },
                    },
                }
            ),
        )
    )
    b.say(
        "The orders connector is RUNNING, with p95 lag under 5 s at the source and about 11 s into RAW_CDC, and no sink errors this week. It restarted once in the last 7 days, at 03:12 UTC on 22 Nov after the planned failover, and came back on a new replication slot; the old slot was dropped. The snapshot mode is no_data and the last snapshot is from June 2025, so the restart should not have re-read the tables. And the gap already starts with order date 20 Nov, two days before the failover."
    )

    # 9 — raw duplicates: nothing
    b.user(
        "Still, a new slot is exactly when Debezium can replay a window. Check RAW_CDC.ORDER_LINES for duplicated change events around then."
    )
    raw_rows = []
    for day in range(18, 30):
        count = b.number(92000, 160000) if day != 27 else b.number(268000, 281000)
        raw_rows.append([f"2026-11-{day:02d}", count, count, 0, 0])
    b.calls(
        (
            "run_sql",
            {
                "sql": """\
select _cdc_committed_at::date                               as commit_day,
       count(*)                                              as events,
       count(distinct _cdc_lsn, order_line_id)               as distinct_events,
       count(*) - count(distinct _cdc_lsn, order_line_id)    as duplicate_events,
       count_if(_cdc_op = 'r')                               as snapshot_reads
from analytics.raw_cdc.order_lines
where _cdc_committed_at >= '2026-11-18' and _cdc_committed_at < '2026-11-30'
group by 1
order by 1""",
                "role": ROLE,
                "query_tag": TAG,
            },
            table(
                ["COMMIT_DAY", "EVENTS", "DISTINCT_EVENTS", "DUPLICATE_EVENTS", "SNAPSHOT_READS"],
                raw_rows,
                "3.907",
            ),
        )
    )
    b.say(
        "No replay: from 18 to 29 Nov every change event in RAW_CDC.ORDER_LINES is unique by (LSN, order line), there are no duplicates on the 22nd or any other day, and there are no snapshot reads (op = 'r') at all. The CDC stream delivered each change exactly once."
    )

    # 10 — freshness: nothing
    b.user("OK, not CDC then. Check source freshness anyway, Black Friday was heavy on everything.")
    b.calls(
        (
            "get_freshness",
            {"source": "raw_cdc", "since": "2026-11-16"},
            """\
source,table,loaded_at_field,max_loaded_at,age_minutes,warn_after,error_after,status
raw_cdc,orders,_cdc_committed_at,2026-11-30 08:21:44,1,30 min,2 h,pass
raw_cdc,order_lines,_cdc_committed_at,2026-11-30 08:21:43,1,30 min,2 h,pass
raw_cdc,refunds,_cdc_committed_at,2026-11-30 08:19:02,3,30 min,2 h,pass
raw_cdc,customers,_cdc_committed_at,2026-11-30 08:20:57,2,30 min,2 h,pass
finance,fx_daily,_fivetran_synced,2026-11-30 06:02:10,140,26 h,48 h,pass
finance,psp_settlement_daily,_loaded_at,2026-11-30 05:45:37,156,26 h,48 h,pass
# episodes since 2026-11-16
source,table,status,from,to,max_age_minutes
raw_cdc,refunds,warn,2026-11-27 13:58:10,2026-11-27 15:12:44,74
finance,fx_daily,warn,2026-11-21 06:00:00,2026-11-21 09:41:20,1661
""",
        )
    )
    b.say(
        "Everything is fresh now (the CDC tables within 3 minutes, FX and settlement loaded this morning). Two short warn episodes in the last two weeks: refunds ran 74 minutes behind on Black Friday afternoon, and the FX feed was late on Saturday 21 Nov until 09:41. Neither adds revenue, and the FX delay doesn't match a gap on every channel, including the EUR ones."
    )

    # 11 — the data contract (YAML): the reconciliation check id only here
    b.user(
        "Pull the data contract for fct_daily_revenue, I want the exact definition finance signed up to."
    )
    b.calls(
        (
            "get_data_contract",
            {"name": "fct_daily_revenue"},
            f"""\
dataContractSpecification: 1.1.0
id: urn:datacontract:nordvik:fct_daily_revenue
info:
  title: Daily revenue by channel
  version: 3.1.0
  status: active
  owner: analytics-engineering
  contact:
    name: Analytics Engineering
    url: https://handbook.nordvik.internal/data/revenue
servers:
  production:
    type: snowflake
    account: nordvik-eu1
    database: ANALYTICS
    schema: MARTS
terms:
  usage: Finance close, Black Week reporting, Revenue Daily dashboard.
  limitations: Figures before T+2 are provisional; refunds are reported in revenue_refunded_eur, not deducted.
models:
  fct_daily_revenue:
    type: table
    description: One row per order date and sales channel.
    fields:
      order_date:
        type: date
        required: true
        primaryKey: true
      channel:
        type: text
        required: true
        primaryKey: true
        enum: [web, app, store_pickup, marketplace]
      revenue_eur:
        type: decimal
        precision: 18
        scale: 2
        description: Net merchandise revenue, the sum of order-line amounts after discounts, excluding VAT and shipping, converted at the order day's rate. Cancelled lines are excluded; every order line counts once.
      revenue_refunded_eur:
        type: decimal
        description: Refunds booked on the order date's orders.
      orders:
        type: integer
      lines:
        type: integer
quality:
  - id: dq-rev-0877
    type: sql
    description: Row count per order_date equals the number of active channels (4).
    severity: error
    enabled: true
  - id: {CHECK}
    type: custom
    engine: soda
    description: Daily revenue_eur within 0.5 % of PSP settlement (Adyen + Klarna) by order_date, evaluated at T+2.
    severity: error
    enabled: false
    note: waiting for the PSP settlement feed's SLA (FIN-DATA-412)
  - id: dq-rev-0902
    type: sql
    description: revenue_eur is never negative.
    severity: error
    enabled: true
servicelevels:
  availability:
    description: Published every day.
  freshness:
    threshold: 06:00 Europe/Stockholm
    timestampField: fct_daily_revenue._loaded_at
  retention:
    period: P7Y
  support:
    time: business hours
consumers:
  - name: finance-controlling
    use: month-end close and the monthly flash
  - name: looker
    use: Revenue Daily dashboard
""",
        )
    )
    b.say(
        "The contract (v3.1.0) defines revenue_eur as net merchandise revenue: order-line amounts after discounts, without VAT and shipping, at the order day's FX rate, cancelled lines excluded and every order line counted once; refunds are reported separately, not deducted. The reconciliation against the PSP settlement (0.5 % tolerance at T+2) is written into the contract but disabled, waiting for the settlement feed's SLA, which is why nothing alerted on a 3-4 % gap."
    )

    # 12 — Slack search: the PR, old channel messages, the look-alike check id
    b.user(
        "Search Slack for anything about fct_daily_revenue or int_order_lines since mid-October."
    )
    b.calls(
        (
            "search_slack",
            {
                "query": 'fct_daily_revenue OR int_order_lines OR "revenue mart"',
                "since": "2026-10-15",
            },
            lines(
                {
                    "ts": "2026-10-20T07:02:11Z",
                    "channel": OLD_CHANNEL,
                    "user": "soda-bot",
                    "text": "✅ fct_daily_revenue: 3 checks passed (row count, non-negative, recency)",
                },
                {
                    "ts": "2026-10-29T10:14:52Z",
                    "channel": OLD_CHANNEL,
                    "user": "rasmus.vik",
                    "text": f"Heads-up: from 2 Nov the revenue DQ alerts move to {CHANNEL}, this channel gets archived.",
                },
                {
                    "ts": "2026-11-12T09:31:05Z",
                    "channel": "#analytics-eng",
                    "user": "lukas.frost",
                    "text": "nightly_revenue_mart is at 74 min again, int_order_lines MERGE alone is ~47 min on 250M rows. Looking into append + lookback.",
                },
                {
                    "ts": "2026-11-20T15:44:09Z",
                    "channel": "#analytics-eng",
                    "user": "lukas.frost",
                    "text": "merged #1482 🎉 int_order_lines goes append-only, lines are immutable once placed so no need to MERGE. Ships with tonight's run.",
                },
                {
                    "ts": "2026-11-20T15:47:30Z",
                    "channel": "#analytics-eng",
                    "user": "mika.salo",
                    "text": "nice, that's half the nightly gone",
                },
                {
                    "ts": "2026-11-22T03:20:40Z",
                    "channel": "#data-platform",
                    "user": "rasmus.vik",
                    "text": f"ordersdb failover done (CHG-40417). Debezium reconnected on a new slot, dropped {OLD_SLOT}. No snapshot.",
                },
                {
                    "ts": "2026-11-27T09:05:13Z",
                    "channel": CHANNEL,
                    "user": "soda-bot",
                    "text": f"⚠️ {CHECK_LIKE} avg_order_value_eur outlier on fct_daily_revenue (web): 118.40 vs band 82-109",
                },
                {
                    "ts": "2026-11-27T09:11:48Z",
                    "channel": CHANNEL,
                    "user": "jesper.holm",
                    "text": "ack, that's Black Friday",
                },
                {
                    "ts": "2026-11-27T14:12:30Z",
                    "channel": "#finance-data",
                    "user": "jesper.holm",
                    "text": f"Opened {TICKET}: revenue mart ~3.5 % over PSP settlement since 20 Nov, every channel. Close starts 3 Dec.",
                },
            ),
        )
    )
    b.say(
        'One hit stands out: on Friday 20 Nov at 15:44 UTC Lukas Frost merged PR #1482, making int_order_lines append-only "because lines are immutable once placed", shipping with that night\'s run, which is the first short run and the first load of order date 20 Nov. The rest: the failover note on the 22nd (no snapshot), an average-order-value outlier alert on Black Friday that finance acknowledged as expected, the ticket announcement, and older messages in the archived channel.'
    )

    # 13 — the PR
    b.user("Show me #1482.")
    b.calls(
        (
            "get_git_diff",
            {"pr": 1482},
            """\
PR #1482  perf(int_order_lines): append-only incremental, drop the nightly MERGE
author: lukas.frost    state: merged 2026-11-20T15:40:52Z    base: main    merge commit: 9c2e4f7
reviews: mika.salo APPROVED 2026-11-20T14:58:10Z ("LGTM, big win")
checks: dbt-ci (slim) ✓  sqlfluff ✓
files: 2 changed, 17 insertions(+), 9 deletions(-)

diff --git a/models/intermediate/int_order_lines.sql b/models/intermediate/int_order_lines.sql
index 3b1e0a2..f7d91c4 100644
--- a/models/intermediate/int_order_lines.sql
+++ b/models/intermediate/int_order_lines.sql
@@ -1,12 +1,13 @@
 {{
   config(
     materialized='incremental',
-    incremental_strategy='merge',
-    unique_key='order_line_id',
-    merge_update_columns=['quantity', 'unit_price_eur', 'discount_eur', 'line_amount_eur', 'line_status', '_cdc_lsn', '_cdc_committed_at'],
+    -- order lines are immutable once placed: append new change events instead of a
+    -- MERGE over 250M rows (~47 min of the nightly run)
+    incremental_strategy='append',
     cluster_by=['order_date'],
     on_schema_change='append_new_columns',
     tags=['finance', 'nightly']
   )
 }}

 with lines as (
@@ -31,9 +32,15 @@ select
     l._cdc_committed_at,
     current_timestamp() as _dbt_loaded_at
 from lines l
 join {{ ref('int_orders') }} o using (order_id)
 {% if is_incremental() %}
-where l._cdc_committed_at > (select max(_cdc_committed_at) from {{ this }})
+where l._cdc_committed_at > (
+        select max(_cdc_committed_at) - interval '{{ var("order_lines_lookback_hours", 6) }} hours'
+        from {{ this }}
+    )
+  -- the lookback re-reads late events; skip the ones already appended
+  and l._cdc_lsn not in (
+        select _cdc_lsn from {{ this }}
+        where _cdc_committed_at > dateadd(day, -2, current_date)
+    )
 {% endif %}
diff --git a/models/intermediate/_int__models.yml b/models/intermediate/_int__models.yml
index 8a01c33..0d5be71 100644
--- a/models/intermediate/_int__models.yml
+++ b/models/intermediate/_int__models.yml
@@ -41,10 +41,12 @@ models:
   - name: int_order_lines
-    description: One row per order line, current state (merged from CDC).
+    description: One row per order line (append-only from CDC).
     columns:
       - name: order_line_id
         tests:
           - not_null
-          - unique
+          - unique:
+              config:
+                severity: warn   # a late duplicate may sit here until the next run
       - name: order_id
         tests:
           - not_null
""".replace(" }}\n\n with", " }}\n \n with"),
        )
    )
    b.say(
        "That's the cause, I'm fairly sure. #1482 replaces the merge on order_line_id with an append, on the assumption that order lines are immutable once placed. They aren't: quantity edits, price adjustments and partial cancellations all update an existing line, and each update arrives as a new change event with a new LSN. The LSN filter only stops the same event from being appended twice, so every edit of a line already in the table is appended as a second row for the same order_line_id. fct_daily_revenue sums the table, so an edited line counts twice, and a line cancelled after it was loaded still counts through its older copy. The PR also lowered the unique test on order_line_id to warn, which is the warning in the log of the 26th."
    )

    # 14 — prove it
    b.user("Makes sense. Prove it: how many order lines have more than one row, by order date?")
    dup_rows = []
    for d, v in days.items():
        dup_rows.append(
            [
                d,
                v["lines"],
                v["lines"] + v["extra_rows"],
                v["extra_rows"],
                money(v["mart"] - v["true"]),
            ]
        )
    extra_rows_total = sum(v["extra_rows"] for v in days.values())
    extra_eur_total = sum(v["mart"] - v["true"] for v in days.values())
    b.calls(
        (
            "run_sql",
            {
                "sql": """\
with ranked as (
    select order_date, order_line_id, line_amount_eur, line_status,
           row_number() over (partition by order_line_id order by _cdc_lsn desc) as rn
    from analytics.intermediate.int_order_lines
    where order_date between '2026-11-16' and '2026-11-28'
)
select order_date,
       count_if(rn = 1)                                              as order_lines,
       count(*)                                                      as line_rows,
       count_if(rn > 1)                                              as extra_rows,
       round(sum(iff(line_status <> 'cancelled', line_amount_eur, 0))
           - sum(iff(rn = 1 and line_status <> 'cancelled', line_amount_eur, 0)), 2) as extra_revenue_eur
from ranked
group by 1
order by 1""",
                "role": ROLE,
                "query_tag": TAG,
            },
            table(
                ["ORDER_DATE", "ORDER_LINES", "LINE_ROWS", "EXTRA_ROWS", "EXTRA_REVENUE_EUR"],
                dup_rows,
                "6.218",
            ),
        )
    )
    b.say(
        f"Proven. On 16-17 Nov every order line has exactly one row. From 18 Nov, extra rows appear and grow with each night's edits: {days['2026-11-20']['extra_rows']:,} on the 20th, {days['2026-11-24']['extra_rows']:,} on the 24th, {days['2026-11-27']['extra_rows']:,} on Black Friday; {extra_rows_total:,} extra rows in all, carrying EUR {extra_eur_total:,.2f} of revenue counted a second time. Per day, that extra revenue is almost exactly the gap to settlement."
    )

    # 15 — the first warehouse (old value) and the mart model
    b.user(
        f"OK. When we fix this, the rebuild runs on {WAREHOUSE}, that's the warehouse dbt always uses. Meanwhile show me fct_daily_revenue itself: does it dedupe anything?"
    )
    b.calls(
        (
            "get_model_sql",
            {"model": "fct_daily_revenue", "compiled": False},
            """\
-- models/marts/finance/fct_daily_revenue.sql
{{
  config(
    materialized='incremental',
    incremental_strategy='delete+insert',
    unique_key=['order_date', 'channel'],
    cluster_by=['order_date'],
    tags=['finance', 'nightly']
  )
}}

{% set lookback_days = var('revenue_lookback_days', 10) %}

with lines as (

    select *
    from {{ ref('int_order_lines') }}
    where line_status <> 'cancelled'
    {% if is_incremental() %}
      and order_date >= dateadd(day, -{{ lookback_days }}, current_date)
    {% endif %}

),

refunds as (

    select order_date, channel_code, sum(refunded_eur) as refunded_eur
    from {{ ref('int_refunds_daily') }}
    group by 1, 2

)

select
    l.order_date,
    c.channel,
    round(sum(l.line_amount_eur), 2)          as revenue_eur,
    round(coalesce(max(r.refunded_eur), 0), 2) as revenue_refunded_eur,
    count(distinct l.order_id)                 as orders,
    count(*)                                   as lines,
    current_timestamp()                        as _loaded_at
from lines l
join {{ ref('dim_channel') }} c
  on c.channel_code = l.channel_code
left join refunds r
  on r.order_date = l.order_date
 and r.channel_code = l.channel_code
group by 1, 2
""",
        )
    )
    b.say(
        "No deduplication: it sums line_amount_eur over every non-cancelled row of int_order_lines, and its lines column is count(*), so it is inflated too. It rebuilds the last 10 order days every night (delete+insert on order_date and channel), which is why 18-19 Nov picked up a little overstatement when older orders were edited. Fixing int_order_lines and rebuilding the mart for those days is enough; the mart's own logic is fine."
    )

    # 16 — found by a query, summarised once
    b.user("Which orders are hit the hardest?")
    top = [
        [ORDER, "web", "b2b", "2026-11-23", 40, 200, 5, "18204.00"],
        [ORDER_LIKES[0], "web", "b2b", "2026-11-23", 12, 48, 4, "9311.60"],
        ["50392210", "app", "consumer", "2026-11-20", 22, 77, 4, "7716.35"],
        ["50533987", "web", "b2b", "2026-11-24", 31, 93, 3, "6980.12"],
        [ORDER_LIKES[1], "marketplace", "consumer", "2026-11-24", 18, 54, 3, "6402.90"],
        ["50466105", "web", "consumer", "2026-11-24", 26, 70, 3, "5875.44"],
        ["50621348", "store_pickup", "consumer", "2026-11-27", 9, 27, 3, "5120.07"],
        ["50598712", "web", "b2b", "2026-11-26", 14, 38, 3, "4833.19"],
        ["50610044", "app", "consumer", "2026-11-27", 11, 31, 3, "4402.63"],
        ["50377459", "web", "consumer", "2026-11-20", 16, 41, 3, "4119.80"],
    ]
    b.calls(
        (
            "run_sql",
            {
                "sql": """\
with per_line as (
    select order_id, order_line_id, channel_code, customer_segment, order_date,
           count(*) as copies,
           sum(iff(line_status <> 'cancelled', line_amount_eur, 0))
             - max_by(iff(line_status <> 'cancelled', line_amount_eur, 0), _cdc_lsn) as extra_eur
    from analytics.intermediate.int_order_lines
    where order_date >= '2026-11-16'
    group by 1, 2, 3, 4, 5
)
select order_id, channel_code, customer_segment, order_date,
       count(*)                 as order_lines,
       sum(copies)              as line_rows,
       max(copies)              as max_copies,
       round(sum(extra_eur), 2) as extra_revenue_eur
from per_line
group by 1, 2, 3, 4
having max(copies) > 1
order by extra_revenue_eur desc
limit 10""",
                "role": ROLE,
                "query_tag": TAG,
            },
            table(
                [
                    "ORDER_ID",
                    "CHANNEL_CODE",
                    "CUSTOMER_SEGMENT",
                    "ORDER_DATE",
                    "ORDER_LINES",
                    "LINE_ROWS",
                    "MAX_COPIES",
                    "EXTRA_REVENUE_EUR",
                ],
                top,
                "4.733",
            ),
        )
    )
    b.say(
        f"The worst is order {ORDER}: a 40-line web order from a business customer, placed on 23 Nov, whose lines were edited on four later nights, so each line is in the table five times and EUR 18,204.00 is counted extra. The next nine have 3-4 copies per line and EUR 4,100-9,300 extra each; they are mostly large orders with quantity edits or partial cancellations, exactly the edits the PR assumed never happen."
    )

    # 17 — what the mart would say deduplicated
    b.user(
        "What would the mart show per day if we kept only the latest row per line? Compare with settlement."
    )
    b.calls(
        (
            "run_sql",
            {
                "sql": """\
with latest as (
    select *
    from analytics.intermediate.int_order_lines
    where order_date between '2026-11-16' and '2026-11-28'
    qualify row_number() over (partition by order_line_id order by _cdc_lsn desc) = 1
)
select l.order_date,
       round(sum(iff(l.line_status <> 'cancelled', l.line_amount_eur, 0)), 2) as deduped_revenue_eur,
       max(m.mart_revenue_eur)                                               as mart_revenue_eur,
       max(s.settled_eur)                                                    as psp_settled_eur,
       round(100 * (deduped_revenue_eur / psp_settled_eur - 1), 2)           as deduped_diff_pct
from latest l
join (select order_date, sum(revenue_eur) as mart_revenue_eur
        from analytics.marts.fct_daily_revenue group by 1) m using (order_date)
join (select order_date, sum(settled_amount_eur) as settled_eur
        from analytics.finance.psp_settlement_daily group by 1) s using (order_date)
group by 1
order by 1""",
                "role": ROLE,
                "query_tag": TAG,
            },
            table(
                [
                    "ORDER_DATE",
                    "DEDUPED_REVENUE_EUR",
                    "MART_REVENUE_EUR",
                    "PSP_SETTLED_EUR",
                    "DEDUPED_DIFF_PCT",
                ],
                [
                    [
                        d,
                        money(v["true"]),
                        money(v["mart"]),
                        money(v["psp"]),
                        f"{v['dedup_pct']:.2f}",
                    ]
                    for d, v in days.items()
                ],
                "7.051",
            ),
        )
    )
    b.say(
        "With only the latest row per line, every day from 16 to 28 Nov is within 0.06 % of settlement (between -0.04 % and +0.06 %), well inside the contract's 0.5 %. So the whole overstatement is the duplicated rows; nothing else in the mart is off."
    )

    # 18 — query history (CSV): the insert's query id only in one row
    b.user(
        "Before we touch anything: who has queried or written to these tables since the 21st? I want to be sure nobody patched things by hand."
    )
    log = next(line["content"] for line in b.lines if line.get("name") == "get_task_log")
    started = re.search(
        r"(\d\d:\d\d:\d\d)  \d+ of \d+ START sql incremental model intermediate\.int_order_lines",
        log,
    )
    mart_done = re.search(
        r"(\d\d:\d\d):(\d\d)  \d+ of \d+ OK created sql incremental model marts\.fct_daily_revenue",
        log,
    )
    assert started and mart_done
    history = [
        "query_id,start_time,user_name,role_name,warehouse_name,query_type,query_tag,object,rows_inserted,rows_deleted,execution_status"
    ]

    def qid() -> str:
        return f"01b8{b.hex_id(4)}-06{b.hex_id(2)}-{b.hex_id(4)}-0000-{b.hex_id(12)}"

    reads = {
        23: [
            "2026-11-23 08:02:17.441,LOOKER_SVC,LOOKER_READER,LOOKER_WH,SELECT,looker:revenue_daily,ANALYTICS.MARTS.FCT_DAILY_REVENUE,0,0,SUCCESS"
        ],
        24: [
            f"2026-11-24 13:40:09.112,MIKA.SALO,ANALYST,ADHOC_WH_S,SELECT,{OTHER_TAG},ANALYTICS.MARTS.FCT_DAILY_REVENUE,0,0,SUCCESS",
            f"2026-11-24 13:52:44.806,MIKA.SALO,ANALYST,ADHOC_WH_S,SELECT,{OTHER_TAG},ANALYTICS.INTERMEDIATE.INT_ORDER_LINES,0,0,SUCCESS",
        ],
        27: [
            f"2026-11-27 06:30:02.950,SVC_FIN_CLOSE,{WRITE_ROLE},FINANCE_WH,SELECT,fin-close-flash,ANALYTICS.MARTS.FCT_DAILY_REVENUE,0,0,SUCCESS",
            "2026-11-27 13:48:31.377,JESPER.HOLM,FINANCE_ANALYST,FINANCE_WH,SELECT,excel-odbc,ANALYTICS.MARTS.FCT_DAILY_REVENUE,0,0,SUCCESS",
        ],
        30: [
            f"2026-11-30 08:09:12.520,LINNEA.SJOBERG,{ROLE},ADHOC_WH_S,SELECT,{TAG},ANALYTICS.MARTS.FCT_DAILY_REVENUE,0,0,SUCCESS",
            f"2026-11-30 08:26:40.031,LINNEA.SJOBERG,{ROLE},ADHOC_WH_S,SELECT,{TAG},ANALYTICS.INTERMEDIATE.INT_ORDER_LINES,0,0,SUCCESS",
            f"2026-11-30 08:33:05.764,LINNEA.SJOBERG,{ROLE},ADHOC_WH_S,SELECT,{TAG},ANALYTICS.INTERMEDIATE.INT_ORDER_LINES,0,0,SUCCESS",
        ],
    }
    for night in range(21, 31):
        inserted = (
            111963
            if night == 26
            else (b.number(238000, 262000) if night == 28 else b.number(82000, 141000))
        )
        insert_id, delete_id, mart_id = qid(), qid(), qid()
        if night == 26:
            insert_id, delete_id = QUERY_ID, QUERY_ID_LIKE
        t_insert = f"2026-11-{night:02d} 01:{b.number(44, 52):02d}:{b.number(10, 59):02d}.{b.number(100, 999)}"
        if night == 26:
            t_insert = f"2026-11-26 {started.group(1)}.{b.number(100, 999)}"
        t_mart = f"2026-11-{night:02d} 02:{b.number(1, 9):02d}:{b.number(10, 59):02d}"
        if night == 26:
            t_mart = f"2026-11-26 {mart_done.group(1)}:{max(0, int(mart_done.group(2)) - 4):02d}"
        history.append(
            f"{insert_id},{t_insert},SVC_DBT_PROD,TRANSFORMER,{WAREHOUSE},INSERT,dbt-nightly,ANALYTICS.INTERMEDIATE.INT_ORDER_LINES,{inserted},0,SUCCESS"
        )
        history.append(
            f"{delete_id},{t_mart}.{b.number(100, 499)},SVC_DBT_PROD,TRANSFORMER,{WAREHOUSE},DELETE,dbt-nightly,ANALYTICS.MARTS.FCT_DAILY_REVENUE,0,40,SUCCESS"
        )
        history.append(
            f"{mart_id},{t_mart}.{b.number(500, 999)},SVC_DBT_PROD,TRANSFORMER,{WAREHOUSE},INSERT,dbt-nightly,ANALYTICS.MARTS.FCT_DAILY_REVENUE,40,0,SUCCESS"
        )
        for read in reads.get(night, []):
            history.append(f"{qid()},{read}")
    b.calls(
        (
            "list_query_history",
            {
                "objects": [
                    "ANALYTICS.INTERMEDIATE.INT_ORDER_LINES",
                    "ANALYTICS.MARTS.FCT_DAILY_REVENUE",
                ],
                "since": "2026-11-21T00:00:00Z",
                "role": ROLE,
                "query_tag": TAG,
            },
            "\n".join(history),
        )
    )
    b.say(
        "Nobody patched anything by hand. The only writes are the nightly dbt service user (role TRANSFORMER, tag dbt-nightly): one insert into int_order_lines and a delete plus insert of the mart's last 10 order days (40 rows) each night. Everything else is reads: Looker, the finance close job, Jesper Holm's Excel export, Mika Salo's queries on the 24th, and ours this morning under the audit role."
    )

    # 19 — the proposal
    b.user("Good. So what are our options to fix the data?")
    b.say(
        "Two parts. The code: revert #1482, so int_order_lines merges on order_line_id again and the unique test fails instead of warning. The data: I suggest a full refresh, `dbt build --full-refresh --select int_order_lines+`, right after the revert. It rebuilds int_order_lines from RAW_CDC with the merge logic, so every line ends up with exactly one row, including older orders edited since the 20th that a window by order date would miss, and it rebuilds all the downstream marts in the same run. It's the simplest fix and leaves no partial state."
    )

    # 20 — the rejection with its reason
    b.user(
        "No full refresh. RAW_CDC only retains 30 days of change events since the storage cut in October, so a full refresh would rebuild int_order_lines from those 30 days and wipe every order line older than that. Rebuild only what the bad runs touched."
    )
    b.calls(
        (
            "get_table_schema",
            {"table": "ANALYTICS.RAW_CDC.ORDER_LINES", "role": ROLE, "query_tag": TAG},
            pretty(
                {
                    "table": "ANALYTICS.RAW_CDC.ORDER_LINES",
                    "kind": "TABLE",
                    "owner": "CDC_LOADER",
                    "rows": 4_412_907,
                    "bytes": 3_118_224_384,
                    "columns": [
                        {"name": "ORDER_LINE_ID", "type": "NUMBER(38,0)", "nullable": False},
                        {"name": "ORDER_ID", "type": "NUMBER(38,0)", "nullable": False},
                        {"name": "PAYLOAD", "type": "VARIANT", "nullable": False},
                        {
                            "name": "_CDC_OP",
                            "type": "VARCHAR(1)",
                            "nullable": False,
                            "comment": "c, u, d or r (snapshot read)",
                        },
                        {"name": "_CDC_LSN", "type": "VARCHAR(32)", "nullable": False},
                        {"name": "_CDC_COMMITTED_AT", "type": "TIMESTAMP_TZ(9)", "nullable": False},
                        {"name": "_INGESTED_AT", "type": "TIMESTAMP_TZ(9)", "nullable": False},
                    ],
                    "clustering_key": "LINEAR(_CDC_COMMITTED_AT::DATE)",
                    "retention": {
                        "data_retention_time_in_days": 1,
                        "purge": {
                            "task": "ANALYTICS.RAW_CDC.PURGE_ORDER_LINES",
                            "schedule": "USING CRON 0 4 * * * UTC",
                            "keep_days": 30,
                            "enabled_since": "2026-10-12",
                            "change": "CHG-39802 storage cost reduction",
                        },
                    },
                    "stats": {
                        "min_cdc_committed_at": "2026-10-31T04:00:02Z",
                        "max_cdc_committed_at": "2026-11-30T08:24:51Z",
                    },
                }
            ),
        )
    )
    b.say(
        "Right, confirmed: a purge task has kept only the last 30 days since 12 Oct, and the oldest event in RAW_CDC.ORDER_LINES is from 31 Oct, while int_order_lines holds lines back to 2019. So no full refresh: we revert #1482 and rebuild only the rows the append runs wrote."
    )

    # 21 — what to target
    b.user(
        "What can we target the rebuild on? Order date won't catch the older orders that were edited."
    )
    b.calls(
        (
            "get_table_schema",
            {"table": "ANALYTICS.INTERMEDIATE.INT_ORDER_LINES", "role": ROLE, "query_tag": TAG},
            pretty(
                {
                    "table": "ANALYTICS.INTERMEDIATE.INT_ORDER_LINES",
                    "kind": "TABLE",
                    "owner": "TRANSFORMER",
                    "rows": 251_338_907,
                    "bytes": 27_906_112_512,
                    "columns": [
                        {"name": "ORDER_LINE_ID", "type": "NUMBER(38,0)"},
                        {"name": "ORDER_ID", "type": "NUMBER(38,0)"},
                        {"name": "ORDER_DATE", "type": "DATE"},
                        {"name": "CHANNEL_CODE", "type": "VARCHAR(16)"},
                        {"name": "CUSTOMER_SEGMENT", "type": "VARCHAR(16)"},
                        {"name": "SKU", "type": "VARCHAR(32)"},
                        {"name": "QUANTITY", "type": "NUMBER(10,0)"},
                        {"name": "UNIT_PRICE_EUR", "type": "NUMBER(18,4)"},
                        {"name": "DISCOUNT_EUR", "type": "NUMBER(18,4)"},
                        {"name": "LINE_AMOUNT_EUR", "type": "NUMBER(18,2)"},
                        {"name": "LINE_STATUS", "type": "VARCHAR(16)"},
                        {"name": "_CDC_LSN", "type": "VARCHAR(32)"},
                        {"name": "_CDC_COMMITTED_AT", "type": "TIMESTAMP_TZ(9)"},
                        {"name": "_DBT_LOADED_AT", "type": "TIMESTAMP_LTZ(9)"},
                    ],
                    "clustering_key": "LINEAR(ORDER_DATE)",
                    "retention": {"data_retention_time_in_days": 7},
                    "stats": {
                        "min_order_date": "2019-03-04",
                        "max_dbt_loaded_at_before_2026_11_21": "2026-11-20T01:49:37Z",
                        "min_dbt_loaded_at_since_2026_11_21": "2026-11-21T01:47:12Z",
                    },
                }
            ),
        )
    )
    b.say(
        "_dbt_loaded_at. Every row the append runs wrote, the duplicates and the new lines alike, has _dbt_loaded_at from 21 Nov 01:47 UTC on; the last merge run wrote at 01:49 on 20 Nov. So: delete the rows loaded since 21 Nov, then merge back every raw change event committed since the last good run, all well within raw's 30 days. Lines first loaded before the 21st keep their row and get their later edits merged in. The backfill DAG takes window_column=_dbt_loaded_at for the first model, and rebuilds the downstream models for the order dates it touched."
    )

    # 22 — revert PR
    b.user("Open the revert PR.")
    b.calls(
        (
            "create_revert_pr",
            {
                "pr": 1482,
                "body": f"Reverts #1482. int_order_lines appended every edit of an existing order line as a new row, so edited lines are counted more than once in fct_daily_revenue (3-4 % overstatement from order date 20 Nov, {TICKET}). Back to merge on order_line_id; the unique test on order_line_id goes back to error. The data is repaired separately with the revenue_backfill DAG (rows loaded since 2026-11-21).",
            },
            pretty(
                {
                    "number": 1497,
                    "title": 'Revert "perf(int_order_lines): append-only incremental, drop the nightly MERGE"',
                    "branch": "revert-1482-int-order-lines-append",
                    "base": "main",
                    "state": "open",
                    "url": "https://github.com/nordvik/dbt-analytics/pull/1497",
                    "checks": {
                        "dbt-ci (slim)": {"state": "pending"},
                        "sqlfluff": {"state": "pending"},
                    },
                    "reviewers_requested": ["mika.salo", "lukas.frost"],
                    "codeowners": ["@nordvik/analytics-eng"],
                }
            ),
        )
    )
    b.say(
        "Opened #1497 (branch revert-1482-int-order-lines-append), reviews requested from Mika Salo and Lukas Frost; CI (dbt slim build and sqlfluff) is running."
    )

    # 23 — other append models: nothing
    b.user("Are any other incremental models on append? I don't want a second one of these.")
    b.calls(
        (
            "list_models",
            {"materialization": "incremental"},
            """\
model                      schema        strategy        unique_key               tags                last_pr
int_clickstream_events     INTERMEDIATE  append          -                        hourly,events       #1391
int_email_sends            INTERMEDIATE  append          -                        nightly,crm         #1244
int_inventory_moves        INTERMEDIATE  append          -                        nightly,supply      #1310
int_orders                 INTERMEDIATE  merge           order_id                 nightly,finance     #1402
int_order_lines            INTERMEDIATE  append          -                        nightly,finance     #1482
int_shipments              INTERMEDIATE  merge           shipment_id              nightly,logistics   #1455
int_payments               INTERMEDIATE  merge           payment_id               nightly,finance     #1417
fct_daily_revenue          MARTS         delete+insert   order_date,channel       nightly,finance     #1388
fct_order_margin           MARTS         merge           order_id                 nightly,finance     #1429
fct_sessions               MARTS         delete+insert   session_date             hourly,web          #1391
rpt_basket_size            MARTS         delete+insert   order_date               nightly,commercial  #1363
11 models
""",
        )
    )
    b.say(
        "Three other models append: int_clickstream_events, int_email_sends and int_inventory_moves. All three are event logs whose rows are never updated (a click, a sent email, a stock movement), so append is right for them. int_order_lines is the only append model whose source rows change after they are written; everything else with mutable rows merges on its key."
    )

    # 24 — downstream
    b.user("What's downstream of int_order_lines that needs rebuilding?")
    b.calls(
        (
            "get_lineage",
            {"node": "int_order_lines", "direction": "downstream", "depth": 3},
            pretty(
                {
                    "node": "model.nordvik_analytics.int_order_lines",
                    "direction": "downstream",
                    "tree": {
                        "name": "int_order_lines",
                        "children": [
                            {
                                "name": "fct_daily_revenue",
                                "materialized": "incremental",
                                "children": [
                                    {
                                        "name": "Revenue Daily",
                                        "resource_type": "exposure",
                                        "type": "dashboard",
                                        "owner": "finance-controlling",
                                    },
                                    {
                                        "name": "fin_close_revenue_extract",
                                        "resource_type": "exposure",
                                        "type": "application",
                                        "owner": "finance-controlling",
                                    },
                                ],
                            },
                            {
                                "name": "fct_order_margin",
                                "materialized": "incremental",
                                "children": [
                                    {
                                        "name": "rpt_margin_by_category",
                                        "materialized": "table",
                                        "children": [
                                            {
                                                "name": "Margin Weekly",
                                                "resource_type": "exposure",
                                                "type": "dashboard",
                                            }
                                        ],
                                    }
                                ],
                            },
                            {
                                "name": "rpt_basket_size",
                                "materialized": "incremental",
                                "children": [],
                            },
                        ],
                    },
                }
            ),
        )
    )
    b.say(
        "Four models: fct_daily_revenue (feeding the Revenue Daily dashboard and the finance close extract), fct_order_margin and its rpt_margin_by_category (the Margin Weekly dashboard), and rpt_basket_size. The selector int_order_lines+ covers all of them."
    )

    # 25 — the revision
    b.user(
        f"Change of plan for the warehouse: run the backfill on {BACKFILL_WH}, not the usual one. Data Platform wants {WAREHOUSE} kept free for the finance close queries this week."
    )
    b.say(
        "Noted: the backfill goes on the backfill warehouse, and the usual dbt warehouse stays free for the close."
    )

    # 26 — heads-up in the new channel
    b.user("Post a heads-up in the revenue alerts channel from the runbook before we start.")
    b.calls(
        (
            "post_slack_message",
            {
                "channel": CHANNEL,
                "text": f":construction: *fct_daily_revenue is overstated by 3-4 % for order dates 20-28 Nov* ({TICKET}). Cause: since #1482, int_order_lines appends every edit of an order line as a new row. Fix: revert (#1497) and a rebuild of int_order_lines and its downstream marts for the rows loaded since 21 Nov. Revenue, margin and basket-size numbers for those days will change today; please don't export them until we post the all-clear here.",
            },
            pretty(
                {
                    "ok": True,
                    "channel": "C07RVDQ2M4K",
                    "channel_name": CHANNEL.lstrip("#"),
                    "ts": "1796033652.204519",
                    "permalink": "https://nordvik.slack.com/archives/C07RVDQ2M4K/p1796033652204519",
                }
            ),
        )
    )
    b.say(
        "Posted the heads-up in the revenue alerts channel, with the ticket, the cause, the fix and a request not to export those days until the all-clear."
    )

    # 27 — trigger the backfill on the revised warehouse
    b.user(
        "#1497 is approved and merged, Mika reviewed it. Trigger the backfill: int_order_lines and everything downstream, for the rows loaded from the 21st through today."
    )
    conf = {
        "select": "int_order_lines+",
        "start_date": "2026-11-21",
        "end_date": "2026-11-30",
        "window_column": "_dbt_loaded_at",
        "warehouse": BACKFILL_WH,
        "full_refresh": False,
    }
    b.calls(
        (
            "trigger_backfill",
            conf,
            pretty(
                {
                    "dag_id": BACKFILL_DAG,
                    "dag_run_id": BACKFILL_RUN,
                    "state": "queued",
                    "logical_date": "2026-11-30T10:41:17+00:00",
                    "conf": {
                        **conf,
                        "dbt_revision": "main@3e0b7d2 (#1497)",
                        "requested_by": "linnea.sjoberg",
                    },
                    "blocks": {"dag": DAG, "until": "this run finishes"},
                }
            ),
        )
    )
    b.say(
        f"Triggered: {BACKFILL_DAG} run {BACKFILL_RUN} is queued, on main with the revert, selecting int_order_lines+ for rows loaded from 21 to 30 Nov, no full refresh. It holds the nightly DAG until it finishes."
    )

    # 28 — progress (nested JSON)
    lines_loaded = sum(v["lines"] for d, v in days.items() if d >= "2026-11-20") + 95441
    deleted = lines_loaded + extra_rows_total + 1187
    b.user("How's it going?")
    b.calls(
        (
            "get_dag_run",
            {"dag_id": BACKFILL_DAG, "run_id": BACKFILL_RUN},
            pretty(
                {
                    "dag_run": {
                        "dag_id": BACKFILL_DAG,
                        "run_id": BACKFILL_RUN,
                        "state": "running",
                        "start_date": "2026-11-30T10:41:25Z",
                        "conf": conf,
                    },
                    "task_instances": [
                        {
                            "task_id": "validate_window",
                            "state": "success",
                            "try_number": 1,
                            "start_date": "2026-11-30T10:41:27Z",
                            "end_date": "2026-11-30T10:41:40Z",
                            "xcom": {
                                "window": {
                                    "column": "_dbt_loaded_at",
                                    "from": "2026-11-21T00:00:00Z",
                                    "to": "2026-11-30T23:59:59Z",
                                },
                                "raw_cdc_covers_from": "2026-10-31T04:00:02Z",
                            },
                        },
                        {
                            "task_id": "hold_nightly",
                            "state": "success",
                            "try_number": 1,
                            "start_date": "2026-11-30T10:41:41Z",
                            "end_date": "2026-11-30T10:41:43Z",
                            "xcom": {"paused": [DAG]},
                        },
                        {
                            "task_id": "delete_window",
                            "state": "success",
                            "try_number": 1,
                            "start_date": "2026-11-30T10:41:44Z",
                            "end_date": "2026-11-30T10:44:02Z",
                            "xcom": {
                                "relation": "ANALYTICS.INTERMEDIATE.INT_ORDER_LINES",
                                "rows_deleted": deleted,
                                "time_travel_until": "2026-12-07T10:44:02Z",
                            },
                        },
                        {
                            "task_id": "dbt_build_window",
                            "state": "running",
                            "try_number": 1,
                            "start_date": "2026-11-30T10:44:05Z",
                            "end_date": None,
                            "hostname": "airflow-worker-1.airflow-workers.data.svc.cluster.local",
                        },
                        {"task_id": "release_nightly", "state": None, "try_number": 0},
                        {"task_id": "notify", "state": None, "try_number": 0},
                    ],
                }
            ),
        )
    )
    b.say(
        f"Running. The window check passed (raw events reach back to 31 Oct, well before the window), the nightly DAG is held, and delete_window removed {deleted:,} rows loaded since 21 Nov from int_order_lines in just over two minutes (time travel keeps them until 7 Dec). dbt_build_window has been running since 10:44."
    )

    # 29 — the backfill's log
    b.user("Show me the log of the dbt task once it's done.")
    back = [
        ("incremental", "intermediate.int_order_lines", 1093.58),
        ("test", "unique_int_order_lines_order_line_id", 14.02),
        ("test", "not_null_int_order_lines_order_line_id", 3.37),
        ("test", "not_null_int_order_lines_order_id", 3.11),
        ("test", "relationships_int_order_lines_order_id__order_id__ref_int_orders_", 41.90),
        ("test", "not_null_int_order_lines_line_amount_eur", 2.85),
        ("test", "dbt_utils_expression_is_true_int_order_lines_line_amount_eur_0", 3.46),
        ("incremental", "marts.fct_daily_revenue", 402.17),
        ("incremental", "marts.fct_order_margin", 611.04),
        ("incremental", "marts.rpt_basket_size", 97.33),
        (
            "test",
            "dbt_utils_unique_combination_of_columns_fct_daily_revenue_order_date__channel",
            1.62,
        ),
        ("test", "not_null_fct_daily_revenue_revenue_eur", 0.84),
        (
            "test",
            "accepted_values_fct_daily_revenue_channel__web__app__store_pickup__marketplace",
            0.91,
        ),
        ("test", "dbt_utils_expression_is_true_fct_daily_revenue_revenue_eur_0", 0.77),
        ("test", "unique_fct_order_margin_order_id", 7.48),
        ("test", "not_null_fct_order_margin_margin_eur", 2.02),
        ("table", "marts.rpt_margin_by_category", 38.64),
        ("test", "not_null_rpt_margin_by_category_category", 0.58),
        ("test", "unique_rpt_basket_size_order_date", 0.66),
    ]
    clock = [10 * 3600 + 44 * 60 + 19]

    def stamp(advance: float = 0) -> str:
        clock[0] += advance
        s = int(clock[0])
        return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"

    def out(text: str, advance: float = 0, source: str = "subprocess.py:93") -> str:
        t = stamp(advance)
        body = f"{t}  {text}" if source == "subprocess.py:93" and text else text
        return f"[2026-11-30, {t} UTC] {{{source}}} INFO - {body}"

    log2 = [
        out("Starting attempt 1 of 1", 0, "taskinstance.py:2303"),
        out(
            "Executing <Task(BashOperator): dbt_build_window> on 2026-11-30 10:41:17+00:00",
            0,
            "taskinstance.py:2327",
        ),
        out(
            f"Running <TaskInstance: {BACKFILL_DAG}.dbt_build_window {BACKFILL_RUN} [running]> on host airflow-worker-1.airflow-workers.data.svc.cluster.local",
            1,
            "task_command.py:426",
        ),
        out(
            f"Running command: ['/usr/bin/bash', '-c', 'cd /opt/dbt/nordvik_analytics && DBT_SNOWFLAKE_WAREHOUSE={BACKFILL_WH} dbt build --target prod --select int_order_lines+ --vars \\'{{\"reprocess_from\": \"2026-11-20T01:49:37Z\", \"revenue_lookback_days\": 16}}\\'']",
            0,
            "subprocess.py:75",
        ),
        out("Output:", 0, "subprocess.py:86"),
        out("Running with dbt=1.8.7", 5),
        out("Registered adapter: snowflake=1.8.4", 1),
        out("Found 412 models, 24 seeds, 1187 data tests, 38 sources, 6 exposures, 1032 macros", 4),
        out("Concurrency: 8 threads (target='prod')", 1),
    ]
    for index, (kind, name, seconds) in enumerate(back, 1):
        head = f"{index} of {len(back)} START {'test' if kind == 'test' else f'sql {kind} model'} {name}"
        log2.append(out(f"{head} {'.' * max(3, 78 - len(head))} [RUN]", 0.5))
        if kind == "test":
            done, tail = f"{index} of {len(back)} PASS {name}", f"PASS in {seconds:.2f}s"
        else:
            done, tail = (
                f"{index} of {len(back)} OK created sql {kind} model {name}",
                f"SUCCESS 1 in {seconds:.2f}s",
            )
        log2.append(out(f"{done} {'.' * max(3, 78 - len(done))} [{tail}]", seconds))
    log2 += [
        out(
            "Finished running 3 incremental models, 1 table model, 15 data tests in 0 hours 39 minutes and 12.80 seconds (2352.80s).",
            1,
        ),
        out("Done. PASS=19 WARN=0 ERROR=0 SKIP=0 TOTAL=19"),
        out("Command exited with return code 0", 1, "subprocess.py:97"),
        out(
            f"Marking task as SUCCESS. dag_id={BACKFILL_DAG}, task_id=dbt_build_window, run_id={BACKFILL_RUN}",
            0,
            "taskinstance.py:1206",
        ),
    ]
    b.calls(
        (
            "get_task_log",
            {
                "dag_id": BACKFILL_DAG,
                "run_id": BACKFILL_RUN,
                "task_id": "dbt_build_window",
                "try_number": 1,
            },
            "\n".join(log2),
        )
    )
    b.say(
        f"Done at {stamp()} UTC, all green: int_order_lines merged back the raw events since the last good run (18 minutes on {BACKFILL_WH}), then fct_daily_revenue, fct_order_margin, rpt_basket_size and rpt_margin_by_category were rebuilt. PASS=19, WARN=0: the unique test on order_line_id is back at error severity and passes."
    )

    # 30 — reconcile again
    b.user("Re-run the reconciliation against settlement.")
    b.calls(
        (
            "run_sql",
            {"sql": recon_sql, "role": ROLE, "query_tag": TAG},
            table(
                ["ORDER_DATE", "MART_REVENUE_EUR", "PSP_SETTLED_EUR", "DIFF_PCT"],
                [
                    [d, money(v["true"]), money(v["psp"]), f"{v['dedup_pct']:.2f}"]
                    for d, v in days.items()
                ],
                "1.377",
            ),
        )
    )
    b.say(
        "Reconciled: every order date from 16 to 28 Nov is now within 0.06 % of the PSP settlement (-0.04 % to +0.06 %), the same as the deduplicated figures earlier. Black Friday went from +3.28 % to +0.06 %."
    )

    # 31 — guard rails (no tool)
    b.user(
        "Good. And the unique test: #1482 had turned it into a warning. Is that fixed by the revert too?"
    )
    b.say(
        "Yes: the revert restores the plain unique test on order_line_id at the project's default severity, error, so a duplicate would fail the nightly build instead of warning; the backfill's test run already used it. Two follow-ups I'd suggest: enable the contract's PSP settlement check once the settlement feed has its SLA, since it would have caught this on the 22nd, and add a test that int_order_lines has one row per order_line_id per load in CI, so a strategy change like #1482 fails before merge."
    )

    # 32 — ticket comment
    b.user("Write the summary on the ticket.")
    b.calls(
        (
            "add_ticket_comment",
            {
                "key": TICKET,
                "body": "**Cause.** PR #1482 (merged 20 Nov) switched `int_order_lines` from a merge on `order_line_id` to an append. Every edit of an order line already loaded (quantity change, price adjustment, partial cancellation) was appended as an extra row, so `fct_daily_revenue` counted edited lines more than once: +2.9 % to +3.9 % against PSP settlement for order dates 20-28 Nov, smaller amounts on 18-19 Nov. The PR also lowered the unique test on `order_line_id` to warn, so the nightly build stayed green. CDC, source freshness and FX were checked and are fine.\n\n**Fix.** Reverted in #1497. Rows of `int_order_lines` loaded since 21 Nov were deleted and rebuilt from RAW_CDC with `revenue_backfill` (window on `_dbt_loaded_at`, no full refresh because RAW_CDC keeps only 30 days), together with `fct_daily_revenue`, `fct_order_margin`, `rpt_margin_by_category` and `rpt_basket_size`.\n\n**Verification.** Mart vs PSP settlement for 16-28 Nov is now within ±0.06 % every day.\n\n**Follow-ups.** Enable the contract's PSP reconciliation check (FIN-DATA-412); CI test for one row per order line; finance to re-run the November flash.",
            },
            pretty(
                {
                    "id": "104882",
                    "created": "2026-11-30T11:58:40Z",
                    "author": "linnea.sjoberg (via workset)",
                    "self": f"https://nordvik.atlassian.net/rest/api/3/issue/{TICKET}/comment/104882",
                }
            ),
        )
    )
    b.say(
        "Added the summary to the ticket: cause, fix, verification and follow-ups, including the request for finance to re-run the November flash."
    )

    # 33 — Looker refresh (JSON lines)
    b.user("Did the Looker dashboard pick up the rebuilt numbers?")
    b.calls(
        (
            "search_slack",
            {
                "query": "revenue_daily OR margin_weekly",
                "channel": "#looker-alerts",
                "since": "2026-11-30",
            },
            lines(
                {
                    "ts": "2026-11-30T06:02:40Z",
                    "channel": "#looker-alerts",
                    "user": "looker",
                    "text": "datagroup revenue_daily_dg triggered (fct_daily_revenue._loaded_at changed)",
                },
                {
                    "ts": "2026-11-30T06:05:12Z",
                    "channel": "#looker-alerts",
                    "user": "looker",
                    "text": "PDT revenue_daily_pdt rebuilt in 2m31s",
                },
                {
                    "ts": "2026-11-30T11:31:02Z",
                    "channel": "#looker-alerts",
                    "user": "looker",
                    "text": "datagroup revenue_daily_dg triggered (fct_daily_revenue._loaded_at changed)",
                },
                {
                    "ts": "2026-11-30T11:33:47Z",
                    "channel": "#looker-alerts",
                    "user": "looker",
                    "text": "PDT revenue_daily_pdt rebuilt in 2m44s",
                },
                {
                    "ts": "2026-11-30T11:36:20Z",
                    "channel": "#looker-alerts",
                    "user": "looker",
                    "text": "datagroup margin_weekly_dg triggered (fct_order_margin._loaded_at changed)",
                },
                {
                    "ts": "2026-11-30T11:39:58Z",
                    "channel": "#looker-alerts",
                    "user": "looker",
                    "text": "PDT margin_weekly_pdt rebuilt in 3m37s",
                },
            ),
        )
    )
    b.say(
        "Yes: the Revenue Daily datagroup fired at 11:31 UTC when the mart's load time changed and its PDT was rebuilt by 11:33; Margin Weekly followed at 11:39. Both dashboards now read the rebuilt tables."
    )

    # 34 — the last line is the assistant's
    b.user("Thanks, that's all for now. I'll tell finance myself.")
    b.say(
        "You're welcome. For finance, in short: 20-28 Nov were overstated by 2.9-3.9 % because edited order lines were counted twice; the mart is rebuilt and now matches settlement within 0.06 %, so the November flash needs a re-run with today's numbers. Everything else is on the ticket, and the all-clear still needs posting in the alerts channel when you're happy."
    )
    return b


def main() -> None:
    b = build()
    check_once(b, WARNED, [(7, "tool")])
    check_once(b, WARNED_LIKE, [(8, "tool")])
    check_once(b, SLOT, [(8, "tool")])
    check_once(b, CHECK, [(11, "tool")])
    check_once(b, CHECK_LIKE, [(12, "tool")])
    check_once(b, QUERY_ID, [(18, "tool")])
    check_once(b, QUERY_ID_LIKE, [(18, "tool")])
    check_once(b, SIGNER, [(6, "user")])
    check_once(b, ORDER, [(16, "tool"), (16, "assistant")])
    for look_alike in ORDER_LIKES:
        check_once(b, look_alike, [(16, "tool")])
    check_once(b, OTHER_TAG, [(18, "tool")])
    check_once(
        b,
        BACKFILL_WH,
        [(25, "user"), (27, "call"), (27, "tool"), (28, "tool"), (29, "tool"), (29, "assistant")],
    )
    write_fixture(b, HERE, TOOLS, PROBES)


if __name__ == "__main__":
    main()
