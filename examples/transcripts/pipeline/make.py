"""Generate the pipeline fixture: a 32-turn data-engineering investigation, 14 tools.

A data engineer and the agent chase a 9 % drop in the daily revenue dashboard through an
Airflow DAG, a loader, dbt models and warehouse partitions. Facts planted once each:

* turn 3, the user's standing rules: every SQL query carries the comment tag inv-5521, and
  queries go to the read replica ``analytics_ro``, never to ``prod_raw``;
* turn 6, only inside a tool result (one line of a 100-line loader log, never restated):
  the skipped landing file is part-00017 (part-00071 and part-00016 loaded fine);
* turn 14, found by a query and summarised once by the assistant: orders_clean dt=2026-03-12
  is 2,531 rows short (the query returns 18,346 against 20,877; only the assistant's summary
  says the difference);
* turn 8 → revised at turn 20: the dashboard's refresh deadline, 07:00 UTC → 06:30 UTC;
* turn 17, a rejected decision with its reason: no full March backfill, because it would
  rewrite the February close snapshot finance already signed off;
* turn 4, a look-alike old location: the loader reads ``s3://acme-landing/orders/``; it moved
  from ``s3://acme-legacy-landing/orders/`` on 1 February.

    python examples/transcripts/pipeline/make.py   # rewrites the three files beside it

Nothing was tuned on this transcript: it is reported on.
"""

# ruff: noqa: E501 (tool outputs are logs and tables, kept as they would print)
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

SEED = 5021
TAG = "inv-5521"
SKIPPED = "part-00017"
BUCKET = "s3://acme-landing/orders/"
OLD_BUCKET = "s3://acme-legacy-landing/orders/"


TOOLS = [
    tool(
        "list_dag_runs",
        "List recent runs of an Airflow DAG with state, start, end and duration per task.",
        {
            "dag_id": p("DAG id, e.g. orders_daily."),
            "limit": {"type": "integer", "description": "How many runs (default 5)."},
        },
        ["dag_id"],
    ),
    tool(
        "get_task_log",
        "Read the log of one task instance of a DAG run. Long logs are returned whole.",
        {
            "dag_id": p("DAG id."),
            "task_id": p("Task id, e.g. load_orders."),
            "run_id": p("Run id, e.g. scheduled__2026-03-13."),
        },
        ["dag_id", "task_id", "run_id"],
    ),
    tool(
        "get_dag_config",
        "Show a DAG's configuration: schedule, sources, targets, retries and owners.",
        {"dag_id": p("DAG id.")},
        ["dag_id"],
    ),
    tool(
        "run_sql",
        "Run a read-only SQL query on a warehouse and return up to 200 rows. Use the replica "
        "for investigations; every query is logged with its comment.",
        {
            "warehouse": p("Warehouse to run on.", enum=["analytics_ro", "prod_raw"]),
            "sql": p("The query."),
        },
        ["warehouse", "sql"],
    ),
    tool(
        "describe_table",
        "Describe a warehouse table: columns, partitioning, row count, last modified.",
        {"table": p("Schema-qualified table, e.g. clean.orders_clean.")},
        ["table"],
    ),
    tool(
        "list_partitions",
        "List a table's partitions with row counts and the load that wrote each.",
        {"table": p("Schema-qualified table."), "since": p("First partition date, YYYY-MM-DD.")},
        ["table"],
    ),
    tool(
        "get_lineage",
        "Show upstream and downstream lineage of a table or dashboard.",
        {"node": p("Table or dashboard name.")},
        ["node"],
    ),
    tool(
        "get_dbt_model",
        "Show a dbt model's SQL, materialisation, tests and last run result.",
        {"model": p("dbt model name, e.g. fct_revenue_daily.")},
        ["model"],
    ),
    tool(
        "search_code",
        "Search the data platform repository for a string; returns file, line and snippet.",
        {"query": p("Text to search for.")},
        ["query"],
    ),
    tool(
        "get_runbook",
        "Fetch a data platform runbook by topic: checks, fixes and who to notify.",
        {"topic": p("What the runbook is about.")},
        ["topic"],
    ),
    tool(
        "trigger_backfill",
        "Start a backfill of a DAG for a date range. Rewrites the target partitions.",
        {
            "dag_id": p("DAG id."),
            "start": p("First date, YYYY-MM-DD."),
            "end": p("Last date, YYYY-MM-DD."),
        },
        ["dag_id", "start", "end"],
    ),
    tool(
        "post_message",
        "Post a message to a team channel.",
        {"channel": p("Channel, e.g. #data-incidents."), "text": p("Message text.")},
        ["channel", "text"],
    ),
    tool(
        "create_incident",
        "Open a data incident with a title, severity and the affected assets.",
        {
            "title": p("One-line summary."),
            "severity": p("Severity.", enum=["low", "medium", "high"]),
            "assets": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Affected tables or dashboards.",
            },
        },
        ["title", "severity"],
    ),
    tool(
        "get_current_time",
        "Return the current date and time.",
        {"timezone": p("IANA zone, default UTC.")},
        [],
    ),
]

PROBES = f"""\
# Seven facts of the kinds the held-out sessions lost; six phrasings each.
- id: query_tag
  kind: rule
  planted_turn: 3
  question:
    - "Which comment tag must every SQL query in this investigation carry?"
    - "You are about to run another query. What tag goes in its comment?"
    - "Remind me of the investigation tag I asked you to put on queries."
    - "Write the comment you put at the top of each query here."
    - "What tag identifies this investigation's queries in the query log?"
    - "Before running the reconciliation query: which tag must it have?"
  expected: "{TAG}"
- id: warehouse_rule
  kind: rule
  planted_turn: 3
  question:
    - "Which warehouse are we allowed to query during this investigation?"
    - "Fill in the warehouse parameter for the next query. Which one?"
    - "Where do the investigation's queries have to run?"
    - "Can we run the check on prod_raw? If not, where instead?"
    - "Which warehouse did I tell you to use for all queries?"
    - "State the warehouse every query in this session must go to."
  expected: "analytics_ro"
  distractors: ["prod_raw"]
- id: skipped_file
  kind: tool_result
  planted_turn: 6
  question:
    - "Which landing file did the loader skip?"
    - "Name the parquet part that was not loaded on the 13th."
    - "Which file has to be re-delivered by the upstream team?"
    - "The loader dropped one file because of a checksum mismatch. Which one?"
    - "What part number was skipped during the load?"
    - "For the incident: which landing file is missing from the load?"
  expected: "{SKIPPED}"
  distractors: ["part-00071", "part-00016", "part-00018", "part-00007"]
- id: missing_rows
  kind: summary
  planted_turn: 14
  question:
    - "How many orders were missing from the 12 March partition?"
    - "By how many rows was orders_clean short for dt=2026-03-12?"
    - "The reconciliation found a gap. How many rows?"
    - "How many late orders did the skipped file hold?"
    - "For the incident: how many orders are missing from the 12th?"
    - "State the size of the gap between expected and loaded orders on 12 March."
  expected: "2,531"
  distractors: ["18,346", "20,877", "18,423"]
- id: refresh_deadline
  kind: revised
  planted_turn: 20
  question:
    - "By what time must the revenue dashboard be refreshed?"
    - "What is the dashboard's refresh deadline, in UTC?"
    - "When does the backfill have to finish for the dashboard SLA?"
    - "What SLA time do we have to meet for the dashboard?"
    - "Until when do we have to get the fixed numbers into the dashboard?"
    - "State the refresh deadline of the daily revenue dashboard."
  expected: "06:30"
  distractors: ["07:00"]
- id: backfill_rejected
  kind: rejected
  planted_turn: 17
  question:
    - "Why did we decide against a full backfill of March?"
    - "A full-month backfill was proposed. Why was it turned down?"
    - "What was the reason for not backfilling all of March?"
    - "Why backfill only some days instead of the whole month?"
    - "Remind me why a full March backfill is off the table."
    - "What did I say against the full backfill?"
  expected_regex: "(?i)(snapshot|sign(ed)?[- ]?off|month[- ]end|february close|close[sd]? (the )?books|finance)"
- id: landing_bucket
  kind: lookalike
  planted_turn: 4
  question:
    - "Which bucket does the loader read orders from now?"
    - "Where must the upstream team re-deliver the file? Give the bucket path."
    - "What is the current landing location for orders files?"
    - "Fill in the source path for the reload. Which S3 location?"
    - "Which S3 prefix is the orders source since February?"
    - "State the landing bucket and prefix the DAG uses."
  expected: "s3://acme-landing/orders"
  distractors: ["s3://acme-legacy-landing/orders"]
"""


def loader_log(b: TranscriptBuilder) -> str:
    lines = [
        "[2026-03-13 02:10:04,112] {taskinstance.py:1159} INFO - Dependencies all met for <TaskInstance: orders_daily.load_orders scheduled__2026-03-13 [queued]>",
        "[2026-03-13 02:10:04,380] {standard_task_runner.py:57} INFO - Started process 48211 to run task",
        f"[2026-03-13 02:10:05,002] {{loader.py:88}} INFO - listing {BUCKET}2026-03-13/ (expect 96 parts)",
        "[2026-03-13 02:10:05,845] {loader.py:97} INFO - found 96 objects, 7.64 GiB",
        "[2026-03-13 02:10:06,010] {loader.py:102} INFO - manifest _MANIFEST.json: 96 entries, exporter v4.2.1, batch 2026-03-13T01:55:00Z",
    ]
    at = 10
    for n in range(96):
        part = f"part-{n:05d}"
        rows = b.number(9_000, 12_000)
        at += b.number(2, 5)
        stamp = f"2026-03-13 02:{10 + at // 60:02d}:{at % 60:02d},{b.number(100, 999)}"
        if part == SKIPPED:
            lines.append(
                f"[{stamp}] {{loader.py:141}} WARN - checksum mismatch on {BUCKET}2026-03-13/{part}.parquet (manifest 9f2c41ab, object 9f2c14ab); object skipped, will not retry"
            )
            continue
        lines.append(
            f"[{stamp}] {{loader.py:133}} INFO - loaded {part}.parquet rows={rows} into raw.orders_raw (dt=2026-03-12..2026-03-13)"
        )
    lines += [
        "[2026-03-13 02:17:51,208] {loader.py:160} INFO - 95/96 objects loaded, 1 skipped",
        "[2026-03-13 02:17:51,209] {loader.py:171} INFO - late rows for dt=2026-03-12 routed to partition dt=2026-03-12",
        "[2026-03-13 02:17:51,877] {taskinstance.py:1400} INFO - Marking task as SUCCESS. dag_id=orders_daily, task_id=load_orders, execution_date=20260313T000000",
        "[2026-03-13 02:17:52,003] {local_task_job_runner.py:228} INFO - Task exited with return code 0",
    ]
    return "\n".join(lines)


def day(offset: int) -> str:
    """2026-03-13 plus ``offset`` days (negative: before)."""
    from datetime import date, timedelta

    return (date(2026, 3, 13) + timedelta(days=offset)).isoformat()


def mart_rows(b: TranscriptBuilder, first: int) -> str:
    rows = ["dt          orders   revenue_eur"]
    for offset in range(first, 1):
        if day(offset) == "2026-03-12":
            rows.append("2026-03-12  18,346   1,273,802.35")
            continue
        if day(offset) == "2026-03-13":
            rows.append("2026-03-13  20,702   1,395,110.08")
            continue
        orders = b.number(19_800, 21_400)
        revenue = orders * b.number(6_650, 6_820) / 100
        rows.append(f"{day(offset)}  {orders:,}   {revenue:,.2f}")
    return "\n".join(rows) + f"\n({len(rows) - 1} rows, 0.9 s)"


def dag_runs(b: TranscriptBuilder, n: int) -> str:
    rows = [
        "run_id                     state    start                end                  duration   load_orders  dbt_run"
    ]
    for offset in range(0, -n, -1):
        load, dbt = b.number(250, 300), b.number(1_080, 1_240)
        if offset == 0:
            load, dbt = 288, 1_180
        total = 123 + load + dbt + b.number(180, 220)
        rows.append(
            f"scheduled__{day(offset)}      success  {day(offset)} 02:10:00  {day(offset)} 02:{10 + total // 60:02d}:{total % 60:02d}  "
            f"{total // 60}m{total % 60:02d}s     {load // 60}m{load % 60:02d}s       {dbt // 60}m{dbt % 60:02d}s"
        )
    return "\n".join(rows)


def partitions(b: TranscriptBuilder, first: int) -> str:
    rows = ["partition      rows     written_by                              last_write"]
    for offset in range(first, 1):
        count = b.number(20_100, 21_500)
        if day(offset) == "2026-03-12":
            count = 18_423
        writers = (
            f"scheduled__{day(offset)}, __{day(offset + 1)}"
            if offset < 0
            else f"scheduled__{day(offset)}"
        )
        rows.append(
            f"dt={day(offset)}  {count:,}   {writers:<38}  {day(offset + (1 if offset < 0 else 0))} 02:1{b.number(2, 9)}"
        )
    return "\n".join(rows)


FX = (
    "USD",
    "GBP",
    "CHF",
    "SEK",
    "NOK",
    "DKK",
    "PLN",
    "CZK",
    "HUF",
    "JPY",
    "AUD",
    "CAD",
    "SGD",
    "BRL",
)


def fx_rows(b: TranscriptBuilder) -> str:
    rows = ["dt          currency  rate_eur    source"]
    for offset in range(-3, 1):
        for currency in FX:
            rate = b.number(10_000, 99_999) / 100_000
            rows.append(f"{day(offset)}  {currency}       {rate:.5f}     ecb_daily")
    return "\n".join(rows) + f"\n({len(rows) - 1} rows, 0.4 s)"


ORDERS_CLEAN_SQL = """\
model: orders_clean   materialized: incremental (insert_overwrite by dt)   schema: clean
sql:
  {{ config(materialized='incremental', incremental_strategy='insert_overwrite',
            partition_by={'field': 'dt', 'data_type': 'date'}, tags=['orders']) }}
  with src as (
      select * from {{ source('raw', 'orders_raw') }}
      {% if is_incremental() %} where dt >= (select max(dt) - 2 from {{ this }}) {% endif %}
  ),
  typed as (
      select order_id, customer_id, dt, cast(created_at as timestamp) as created_at,
             currency, cast(amount as numeric(18, 2)) as amount, status, channel, country_hint
      from src
  ),
  valid as (
      select * from typed where status not in ('test', 'fraud_blocked')
  ),
  enriched as (
      select v.*, c.country, c.segment, fx.rate_eur,
             v.amount * coalesce(fx.rate_eur, 1.0) as amount_eur
      from valid v
      join {{ ref('customers_clean') }} c using (customer_id)
      left join {{ ref('fx_rates_daily') }} fx on fx.dt = v.dt and fx.currency = v.currency
  )
  select * from enriched
tests: unique(order_id), not_null(customer_id), relationships(customer_id -> customers_clean),
       accepted_values(status), not_null(amount_eur)
last run: 2026-03-13 02:35 success (3 partitions rebuilt: dt=2026-03-11..13, 59,925 rows)"""


def dbt_test_log() -> str:
    tests = [
        "unique_orders_clean_order_id",
        "not_null_orders_clean_customer_id",
        "relationships_orders_clean_customer_id__customer_id__ref_customers_clean_",
        "accepted_values_orders_clean_status",
        "not_null_orders_clean_amount_eur",
        "unique_fct_revenue_daily_dt",
        "not_null_fct_revenue_daily_revenue_eur",
        "assert_revenue_within_3_sigma",
        "assert_orders_match_expected",
    ]
    lines = [
        "[2026-03-13 10:52:40,114] {dbt.py:61} INFO - Running with dbt=1.8.7",
        "[2026-03-13 10:52:41,002] {dbt.py:63} INFO - Found 41 models, 118 tests, 6 seeds, 12 sources",
    ]
    at = 43
    for n, test in enumerate(tests, start=1):
        at += 14 + n
        lines.append(
            f"[2026-03-13 10:{52 + at // 60:02d}:{at % 60:02d},{100 + 7 * n}] {{dbt.py:77}} INFO - {n} of 9 PASS {test} .......... [PASS in {1.2 + n / 10:.1f}s]"
        )
    lines += [
        "[2026-03-13 10:55:12,870] {dbt.py:88} INFO - Finished running 9 tests in 2m31s.",
        "[2026-03-13 10:55:12,871] {dbt.py:90} INFO - PASS=9 WARN=0 ERROR=0 SKIP=0",
        "[2026-03-13 10:55:13,002] {taskinstance.py:1400} INFO - Marking task as SUCCESS.",
    ]
    return "\n".join(lines)


def build() -> TranscriptBuilder:
    b = TranscriptBuilder(SEED, avoid=("5521", "00017", "2531"))

    # 1
    b.user(
        "The daily revenue dashboard shows a 9% drop for 12 March and finance is asking. Can you help me find out whether it's real or a pipeline problem?"
    )
    b.calls(
        (
            "get_lineage",
            {"node": "dash_revenue_daily"},
            "dash_revenue_daily (Looker)\n  <- mart.fct_revenue_daily (dbt, table)\n       <- clean.orders_clean (dbt, incremental, partitioned by dt)\n            <- raw.orders_raw (loader, partitioned by dt)\n                 <- orders_daily.load_orders (Airflow) <- S3 landing (orders)\n       <- clean.refunds_clean (dbt)\n       <- ref.fx_rates_daily (dbt seed + API)",
        )
    )
    b.say(
        "The dashboard reads mart.fct_revenue_daily, built by dbt from clean.orders_clean, which comes from raw.orders_raw, loaded by the Airflow DAG orders_daily from S3; refunds and FX rates also feed it. I'd start with the DAG runs."
    )

    # 2
    b.user("Go ahead, check the DAG runs.")
    b.calls(("list_dag_runs", {"dag_id": "orders_daily", "limit": 14}, dag_runs(b, 14)))
    b.say(
        "All fourteen recent runs of orders_daily succeeded in about half an hour; the 13 March run looks like the others, with load_orders under five minutes and dbt at about 20 minutes."
    )

    # 3 — rules
    b.user(
        f"Before you run anything: two rules for this investigation. Every SQL query must carry the comment tag /* {TAG} */ so the audit log groups them. And never query prod_raw: always use the analytics_ro replica."
    )
    b.say(
        "Understood: every query gets the investigation's comment tag, and all queries go to the read replica, not the production warehouse."
    )

    # 4 — the DAG config (the old bucket)
    b.user("Show me the DAG config.")
    b.calls(
        (
            "get_dag_config",
            {"dag_id": "orders_daily"},
            f"dag_id: orders_daily   schedule: 10 2 * * * (UTC)   owner: data-platform (oncall: #data-oncall)\nsource: {BUCKET}<date>/   format: parquet   manifest: _MANIFEST.json\n  (migrated from {OLD_BUCKET} on 2026-02-01; the legacy bucket is read-only and no longer written)\ntarget: raw.orders_raw partitioned by dt (late rows go to their own dt)\nretries: 2 (per task)   sla: none configured in Airflow\ndownstream: dbt selector tag:orders (orders_clean, fct_revenue_daily)",
        )
    )
    b.say(
        "orders_daily runs at 02:10 UTC, reads parquet files from the orders landing prefix in S3 (it was migrated to a new bucket on 1 February; the legacy one is read-only), and writes raw.orders_raw partitioned by dt, with late rows going to their own date's partition. dbt then builds orders_clean and fct_revenue_daily."
    )

    # 5 — the dashboard numbers
    b.user("What does the mart say for the last few days?")
    b.calls(
        (
            "run_sql",
            {
                "warehouse": "analytics_ro",
                "sql": f"/* {TAG} */ select dt, orders, revenue_eur from mart.fct_revenue_daily where dt >= '2026-02-12' order by dt",
            },
            mart_rows(b, -29),
        )
    )
    b.say(
        "Over the last 30 days the mart shows about 19,800 to 21,400 orders a day, except 12 March with 18,346 orders and 1,273,802.35 EUR, about 9 % below the neighbouring days. 13 March looks normal."
    )

    # 6 — the loader log; the skipped part lives only here
    b.user(
        "Look at the load_orders log for the 13 March run; that's the one that would have picked up late files for the 12th."
    )
    b.calls(
        (
            "get_task_log",
            {"dag_id": "orders_daily", "task_id": "load_orders", "run_id": "scheduled__2026-03-13"},
            loader_log(b),
        )
    )
    b.say(
        "The loader listed 96 objects for 13 March and loaded 95; one object was skipped after a checksum mismatch against the manifest and will not be retried. The run still ended as SUCCESS, and late rows for the 12th were routed to the dt=2026-03-12 partition, so a skipped file would hit the 12th's numbers."
    )

    # 7 — the runbook
    b.user("Is there a runbook for skipped landing files?")
    b.calls(
        (
            "get_runbook",
            {"topic": "skipped landing file checksum mismatch"},
            'Runbook DP-14: skipped landing objects\n1. Confirm the skip in the load_orders log (WARN checksum mismatch), e.g. last time (DI-0417):\n   "WARN - checksum mismatch on s3://acme-landing/orders/2026-02-21/part-00071.parquet".\n2. Ask the producing team (#orders-platform) to re-deliver the object to the current\n   landing bucket with a fresh manifest; never copy objects by hand.\n3. Re-run load_orders for the affected run, then backfill the dbt models for the affected\n   dt partitions only.\n4. Reconcile row counts raw vs clean vs mart for the partitions touched.\n5. Post a summary in #data-incidents.',
        )
    )
    b.say(
        "Runbook DP-14: confirm the skip in the log, ask #orders-platform to re-deliver the object to the current landing bucket with a fresh manifest (never copy by hand), re-run load_orders, backfill dbt for the affected dt partitions only, reconcile counts, and post a summary in #data-incidents."
    )

    # 8 — the deadline (revised at turn 20)
    b.user(
        "Finance needs the dashboard right by its SLA: refreshed by 07:00 UTC tomorrow at the latest."
    )
    b.say("Noted: the fixed numbers must be in the dashboard by 07:00 UTC tomorrow.")

    # 9 — raw partitions
    b.user("How do the raw partitions look?")
    b.calls(
        ("list_partitions", {"table": "raw.orders_raw", "since": "2026-02-24"}, partitions(b, -17))
    )
    b.say(
        "raw.orders_raw has around 20,100 to 21,500 rows per day, except dt=2026-03-12 with 18,423. Each partition is written by its own run and topped up by the next day's run with late rows."
    )

    # 10 — clean model
    b.user("What does the orders_clean model do with those rows?")
    b.calls(("get_dbt_model", {"model": "orders_clean"}, ORDERS_CLEAN_SQL))
    b.say(
        "orders_clean is an incremental dbt model that overwrites the last three dt partitions each run; it joins customers and FX rates and drops test and fraud-blocked orders. The last run (13 March, 02:35) rebuilt dt 11 to 13 successfully."
    )

    # 11 — refunds as a cause?
    b.user("Could refunds explain part of it?")
    b.calls(
        (
            "run_sql",
            {
                "warehouse": "analytics_ro",
                "sql": f"/* {TAG} */ select dt, count(*) refunds, sum(amount_eur) eur from clean.refunds_clean where dt between '2026-03-10' and '2026-03-13' group by dt order by dt",
            },
            "dt          refunds  eur\n2026-03-10  412      28,118.40\n2026-03-11  398      27,440.05\n2026-03-12  405      27,902.61\n2026-03-13  421      28,730.90\n(4 rows, 0.5 s)",
        )
    )
    b.say(
        "No: refunds are flat at about 400 a day and 28,000 EUR on each of those days, so they don't explain a drop on the 12th."
    )

    # 12 — FX
    b.user("And FX rates? A missing rate would null out revenue.")
    b.calls(
        (
            "run_sql",
            {
                "warehouse": "analytics_ro",
                "sql": f"/* {TAG} */ select dt, currency, rate_eur, source from ref.fx_rates_daily where dt between '2026-03-10' and '2026-03-13' order by dt, currency",
            },
            fx_rows(b),
        )
    )
    b.say(
        "FX is complete: 14 currencies with a rate on every day, so no revenue was nulled by a missing rate."
    )

    # 13 — customers join
    b.user("Let's rule out the customers join dropping rows.")
    b.calls(
        (
            "run_sql",
            {
                "warehouse": "analytics_ro",
                "sql": f"/* {TAG} */ select count(*) from raw.orders_raw o left join clean.customers_clean c using (customer_id) where o.dt = '2026-03-12' and c.customer_id is null",
            },
            "count\n0\n(1 row, 1.1 s)",
        )
    )
    b.say("The join drops nothing: every order on the 12th has a matching customer.")

    # 14 — the reconciliation query; the short partition is summarised once
    b.user("Reconcile raw against clean per partition, 10 to 13 March.")
    b.calls(
        (
            "run_sql",
            {
                "warehouse": "analytics_ro",
                "sql": f"/* {TAG} */ with r as (select dt, count(*) n from raw.orders_raw where dt between '2026-03-10' and '2026-03-13' and status not in ('test','fraud_blocked') group by dt), c as (select dt, count(*) n from clean.orders_clean where dt between '2026-03-10' and '2026-03-13' group by dt) select r.dt, r.n raw_rows, c.n clean_rows, expected.n expected_rows from r join c using (dt) join ops.expected_orders expected using (dt) order by dt",
            },
            "dt          raw_rows  clean_rows  expected_rows\n2026-03-10  20,611    20,611      20,634\n2026-03-11  20,877    20,877      20,902\n2026-03-12  18,346    18,346      20,877\n2026-03-13  20,702    20,702      20,718\n(4 rows, 2.4 s)",
        )
    )
    b.say(
        "Raw and clean agree on every day, so dbt isn't losing rows. The gap is upstream: orders_clean dt=2026-03-12 has 18,346 rows against 20,877 expected from the order service, 2,531 short, while the other days are within about 25 rows of the expected count. That partition is the one to fix."
    )

    # 15 — upstream contact
    b.user("Who owns the landing files?")
    b.calls(
        (
            "search_code",
            {"query": "orders landing owner"},
            "dags/orders_daily.py:12   # landing: produced by orders-platform (exporter v4), contact #orders-platform\ndocs/sources/orders.md:3   Owner: orders-platform team. Files land hourly; the daily manifest is final at 01:55 UTC.\nowners.yaml:41             orders_landing: {team: orders-platform, pager: orders-platform-oncall}",
        )
    )
    b.say(
        "The orders-platform team produces the landing files (exporter v4); their channel is #orders-platform and the daily manifest is final at 01:55 UTC."
    )

    # 16 — options
    b.user("How would you fix the numbers once the file is back?")
    b.say(
        "Simplest and safest: after the file is re-delivered, re-run load_orders for the 13 March run, then backfill the dbt models for dt=2026-03-12 only. Alternatively, a full backfill of orders_daily for all of March would also catch anything else we haven't seen."
    )

    # 17 — the rejection with its reason
    b.user(
        "No full March backfill: it would rewrite the February close snapshot that finance already signed off, since the snapshot models rebuild from March 1 on. Just the affected days."
    )
    b.say(
        "Agreed, no full backfill: it would rewrite the signed-off February close snapshot. We'll backfill only the affected days."
    )

    # 18 — snapshot check
    b.user("Double-check which models rebuild when we backfill the 12th only.")
    b.calls(
        (
            "search_code",
            {"query": "fct_revenue_daily snapshot"},
            "models/marts/fct_revenue_daily.sql:4   {{ config(materialized='incremental', unique_key='dt') }}\nmodels/finance/snap_close_monthly.sql:2   -- rebuilds the whole month of any dt it sees; feeds the signed-off close pack\nselectors.yml:18   tag:orders -> orders_clean, fct_revenue_daily (snap_close_monthly excluded)",
        )
    )
    b.say(
        "Backfilling dt=2026-03-12 with the tag:orders selector rebuilds orders_clean and fct_revenue_daily for that date only; the monthly close snapshot model is excluded from that selector."
    )

    # 19 — notify upstream
    b.user("Ask orders-platform to re-deliver the file.")
    b.calls(
        (
            "post_message",
            {
                "channel": "#orders-platform",
                "text": "Hi! The orders_daily loader skipped one object of the 2026-03-13 landing batch after a checksum mismatch against the manifest (see load_orders log, run scheduled__2026-03-13). Could you re-deliver it with a fresh manifest to the current landing bucket? It holds late orders for 12 March. Thanks!",
            },
            "posted to #orders-platform (ts 1773374402.118)\nreply from @nadia.o (orders-platform): on it, exporter re-run for that batch in ~20 min",
        )
    )
    b.say(
        "Posted in #orders-platform; Nadia replied that they'll re-run the exporter for that batch in about 20 minutes."
    )

    # 20 — the revision
    b.user(
        "Correction from the analytics lead: the dashboard SLA moved to 06:30 UTC last month, not 07:00. We have less time than I said."
    )
    b.say("Understood: the deadline is half an hour earlier than I had noted.")

    # 21 — time
    b.user("What time is it now?")
    b.calls(("get_current_time", {"timezone": "UTC"}, "2026-03-13 10:18:44 UTC (Friday)"))
    b.say(
        "It's 10:18 UTC on Friday 13 March, so there is plenty of time before tomorrow morning's deadline."
    )

    # 22 — incident
    b.user("Open a data incident so finance can follow along.")
    b.calls(
        (
            "create_incident",
            {
                "title": "Revenue dashboard short for 12 March: landing object skipped on load",
                "severity": "medium",
                "assets": [
                    "raw.orders_raw",
                    "clean.orders_clean",
                    "mart.fct_revenue_daily",
                    "dash_revenue_daily",
                ],
            },
            "incident DI-0482 created (medium), assets: 4, watchers: #data-incidents, finance-analytics",
        )
    )
    b.say(
        "Opened DI-0482 (medium) with the raw, clean and mart tables and the dashboard as assets; #data-incidents and finance-analytics are watching."
    )

    # 23 — legacy bucket question
    b.user("Could the file still be sitting in the old bucket?")
    b.calls(
        (
            "search_code",
            {"query": "acme-legacy-landing"},
            f'docs/sources/orders.md:9   {OLD_BUCKET} is read-only since 2026-02-01; nothing is written there any more.\nterraform/s3.tf:77          bucket = "acme-legacy-landing"  # retained 90 days, read-only',
        )
    )
    b.say(
        "No: the legacy bucket has been read-only since 1 February and nothing is written there any more, so the re-delivery will land in the current bucket."
    )

    # 24 — re-delivery arrived
    b.user("Nadia says it's re-delivered. Re-run the load and check the log.")
    b.calls(
        (
            "get_task_log",
            {
                "dag_id": "orders_daily",
                "task_id": "load_orders",
                "run_id": "manual__2026-03-13T10:41",
            },
            f"[2026-03-13 10:41:07,550] {{loader.py:88}} INFO - listing {BUCKET}2026-03-13/ (expect 96 parts)\n[2026-03-13 10:41:08,020] {{loader.py:112}} INFO - 95 objects already loaded (manifest hash unchanged), 1 new\n[2026-03-13 10:41:13,904] {{loader.py:133}} INFO - loaded 1 object into raw.orders_raw (dt=2026-03-12)\n[2026-03-13 10:41:14,002] {{loader.py:160}} INFO - 96/96 objects loaded, 0 skipped\n[2026-03-13 10:41:14,330] {{taskinstance.py:1400}} INFO - Marking task as SUCCESS.",
        )
    )
    b.say(
        "The manual re-run loaded the one new object, all into dt=2026-03-12, and the batch now reads 96 of 96 with nothing skipped."
    )

    # 25 — backfill the affected day
    b.user("Backfill the 12th then.")
    b.calls(
        (
            "trigger_backfill",
            {"dag_id": "orders_daily", "start": "2026-03-12", "end": "2026-03-12"},
            "backfill BF-2211 started: orders_daily 2026-03-12..2026-03-12 (tasks: dbt_run tag:orders, dbt_test)\nestimated duration 12 min",
        )
    )
    b.say(
        "Backfill BF-2211 is running for 12 March only (dbt tag:orders and tests); about 12 minutes."
    )

    # 26 — result
    b.user("Is it done?")
    b.calls(
        (
            "list_dag_runs",
            {"dag_id": "orders_daily", "limit": 1},
            "run_id                         state    start                end                  duration\nbackfill__2026-03-12 (BF-2211)  success  2026-03-13 10:44:02  2026-03-13 10:55:31  11m29s",
        )
    )
    b.say("Done: BF-2211 succeeded in 11.5 minutes.")

    # 27 — verify
    b.user("Re-check the mart for the 12th.")
    b.calls(
        (
            "run_sql",
            {
                "warehouse": "analytics_ro",
                "sql": f"/* {TAG} */ select dt, orders, revenue_eur from mart.fct_revenue_daily where dt between '2026-03-11' and '2026-03-13' order by dt",
            },
            "dt          orders   revenue_eur\n2026-03-11  20,877   1,401,265.92\n2026-03-12  20,877   1,404,118.77\n2026-03-13  20,702   1,395,110.08\n(3 rows, 0.7 s)",
        )
    )
    b.say(
        "The 12th now shows 20,877 orders and 1,404,118.77 EUR, in line with the neighbouring days: the drop is gone."
    )

    # 28 — tests
    b.user("Did the dbt tests pass on the backfill?")
    b.calls(
        (
            "get_task_log",
            {"dag_id": "orders_daily", "task_id": "dbt_test", "run_id": "backfill__2026-03-12"},
            dbt_test_log(),
        )
    )
    b.say("Yes: all 9 tests passed with no warnings.")

    # 29 — guard for next time
    b.user("How do we stop a skipped file from passing silently next time?")
    b.calls(
        (
            "search_code",
            {"query": "will not retry checksum"},
            "plugins/loader.py:141   log.warning('checksum mismatch ...; object skipped, will not retry')\nplugins/loader.py:160   log.info(f'{loaded}/{expected} objects loaded, {skipped} skipped')  # no failure on skipped > 0",
        )
    )
    b.say(
        "The loader only logs a warning and still succeeds when objects are skipped (plugins/loader.py lines 141 and 160). A guard would fail load_orders (or at least alert) when skipped > 0, so a partial batch can't pass as success."
    )

    # 30 — summary post
    b.user("Post a summary in #data-incidents.")
    b.calls(
        (
            "post_message",
            {
                "channel": "#data-incidents",
                "text": "DI-0482 resolved: the 13 March load skipped one landing object (checksum mismatch), so late orders for 12 March were missing (about 9 % of the day). Orders-platform re-delivered it, load re-run, dbt backfilled for dt=2026-03-12 only, tests pass, dashboard numbers corrected. Follow-up: make the loader fail on skipped objects.",
            },
            "posted to #data-incidents (ts 1773377840.552)",
        )
    )
    b.say(
        "Posted the summary in #data-incidents: cause, fix, verification and the follow-up on the loader guard."
    )

    # 31 — follow-up ticket wording
    b.user("Write down the follow-up for the loader in one sentence for the retro.")
    b.say(
        "Follow-up: change the orders loader so that any skipped landing object fails load_orders (or raises an alert) instead of logging a warning and succeeding."
    )

    # 32
    b.user("Perfect, thanks. I'll tell finance; we can close this after the morning refresh.")
    b.say("Great. After the morning refresh confirms the numbers, DI-0482 can be closed.")
    return b


def main() -> None:
    b = build()
    check_once(b, SKIPPED, [(6, "tool")])
    check_once(b, "2,531", [(14, "assistant")])
    check_once(b, "2531", [])
    check_once(b, "06:30", [(20, "user")])
    check_once(
        b,
        TAG,
        [
            (3, "user"),
            (5, "call"),
            (11, "call"),
            (12, "call"),
            (13, "call"),
            (14, "call"),
            (27, "call"),
        ],
    )
    write_fixture(b, HERE, TOOLS, PROBES)


if __name__ == "__main__":
    main()
