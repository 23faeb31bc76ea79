"""Generate the incident fixture: a 40-turn payments-API incident investigation, 12 tools.

Seed 003's replay transcript. Two facts are planted and appear nowhere else: at turn 2 the
user's standing rule (tickets are filed with employee number 4417) and at turn 19 the
affected shard (pay-shard-7). Everything else is a realistic pool-exhaustion incident caused
by a bad deploy, with other 4-digit numbers and shard names as distractors.

    python examples/transcripts/incident/make.py   # rewrites the three files beside it

The output is deterministic (seeded); the checked-in files are the fixture.
"""

# ruff: noqa: E501 (tool outputs are tables and logs, kept as they would print)
from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from build import TranscriptBuilder, check_planted, tool, write_fixture  # noqa: E402

SEED = 3003
EMPLOYEE = "4417"
SHARD = "pay-shard-7"
EMPLOYEE_TURN = 2
SHARD_TURN = 19
START = datetime(2026, 3, 12, 9, 0, tzinfo=UTC)

TOOLS = [
    tool(
        "search_logs",
        "Search structured application logs. Use this to find error messages, stack traces "
        "or events for one service in a time range. Returns matching lines, newest last, "
        "with timestamp, level, pod and request id. Prefer a narrow time range and a level "
        "filter: broad searches are truncated to `limit` lines.",
        {
            "service": {"type": "string", "description": "Service name, e.g. payments-api."},
            "query": {
                "type": "string",
                "description": "Free-text or field query, e.g. 'pool_exhausted' or "
                "'status:503'. Empty matches every line.",
            },
            "level": {
                "type": "string",
                "enum": ["DEBUG", "INFO", "WARN", "ERROR"],
                "description": "Minimum log level to return.",
            },
            "since": {"type": "string", "description": "Start, ISO 8601 or relative (-30m)."},
            "until": {"type": "string", "description": "End, ISO 8601; default now."},
            "limit": {"type": "integer", "description": "Maximum lines (default 50)."},
        },
        ["service"],
    ),
    tool(
        "get_metrics",
        "Fetch a time series for one metric of one service from the metrics store. Returns "
        "one row per step with the value, plus min/max/last. Use for latency percentiles, "
        "error rates, saturation and SLO budgets.",
        {
            "service": {"type": "string", "description": "Service name."},
            "metric": {
                "type": "string",
                "description": "Metric name, e.g. http_request_duration_p99_ms, "
                "http_5xx_ratio, db_pool_wait_ms, slo_error_budget_remaining.",
            },
            "window": {"type": "string", "description": "How far back, e.g. 2h or 30m."},
            "step": {"type": "string", "description": "Resolution, e.g. 5m or 1m."},
        },
        ["service", "metric"],
    ),
    tool(
        "list_alerts",
        "List monitoring alerts with their severity, state and start time. Filter by service "
        "and state to see what is firing right now.",
        {
            "service": {"type": "string", "description": "Only alerts for this service."},
            "state": {
                "type": "string",
                "enum": ["firing", "resolved", "all"],
                "description": "Alert state (default firing).",
            },
        },
        [],
    ),
    tool(
        "get_deployment_history",
        "Show recent deployments of a service: version, build, time, author and change "
        "summary. Set include_diff to see the configuration changes a version introduced.",
        {
            "service": {"type": "string", "description": "Service name."},
            "limit": {"type": "integer", "description": "How many deployments (default 5)."},
            "version": {"type": "string", "description": "Only this version."},
            "include_diff": {
                "type": "boolean",
                "description": "Include the config diff against the previous version.",
            },
        },
        ["service"],
    ),
    tool(
        "describe_service",
        "Describe a service: owners, dependencies, runtime configuration and the state of "
        "its pods. Use to understand how a service is wired before digging into logs.",
        {
            "service": {"type": "string", "description": "Service name."},
            "include": {
                "type": "array",
                "items": {"type": "string", "enum": ["deps", "config", "pods"]},
                "description": "Sections to include (default all).",
            },
        },
        ["service"],
    ),
    tool(
        "query_db_stats",
        "Read database statistics collected from the Postgres exporters of a cluster: "
        "connections per shard, waiting clients, replication lag, slow queries. Only shards "
        "whose exporter is reporting appear.",
        {
            "cluster": {"type": "string", "description": "Database cluster, e.g. payments-pg."},
            "metric": {
                "type": "string",
                "enum": ["connections", "replication_lag", "slow_queries", "locks"],
                "description": "Which statistic.",
            },
        },
        ["cluster", "metric"],
    ),
    tool(
        "get_runbook",
        "Fetch the operations runbook for a topic: symptoms, checks and mitigation steps.",
        {"topic": {"type": "string", "description": "What the runbook is about."}},
        ["topic"],
    ),
    tool(
        "page_oncall",
        "Page the on-call engineer of a team through the paging system. Use only when a "
        "human must act now; every page wakes someone up.",
        {
            "team": {"type": "string", "description": "Team to page, e.g. database."},
            "message": {"type": "string", "description": "What is wrong and what you need."},
            "severity": {
                "type": "string",
                "enum": ["low", "high", "critical"],
                "description": "Urgency of the page.",
            },
        },
        ["team", "message"],
    ),
    tool(
        "create_ticket",
        "Open a ticket in the incident tracker. Returns the ticket id. Include a title, a "
        "severity, the owning team and the reporter's employee number.",
        {
            "title": {"type": "string", "description": "One-line summary."},
            "severity": {
                "type": "string",
                "enum": ["SEV-1", "SEV-2", "SEV-3", "SEV-4"],
                "description": "Incident severity.",
            },
            "team": {"type": "string", "description": "Owning team."},
            "reporter_employee_number": {
                "type": "string",
                "description": "Employee number the ticket is filed under.",
            },
            "description": {"type": "string", "description": "Details, timeline, impact."},
            "affected_components": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Services, shards or hosts affected.",
            },
        },
        ["title", "severity", "team", "reporter_employee_number"],
    ),
    tool(
        "update_ticket",
        "Add a comment to an existing ticket or change its status.",
        {
            "ticket_id": {"type": "string", "description": "Ticket id, e.g. CS-5120."},
            "comment": {"type": "string", "description": "Comment to add."},
            "status": {
                "type": "string",
                "enum": ["open", "investigating", "mitigated", "resolved"],
                "description": "New status, if it changes.",
            },
        },
        ["ticket_id"],
    ),
    tool(
        "get_current_time",
        "Return the current date and time.",
        {"timezone": {"type": "string", "description": "IANA zone, default UTC."}},
        [],
    ),
    tool(
        "run_diagnostic",
        "Run a read-only diagnostic check against a pod, host or synthetic target and return "
        "its output. Checks: db_pool (client connection pool state), pool_status (pgbouncer "
        "pools), e2e_checkout (synthetic checkout), dns, tls.",
        {
            "target": {"type": "string", "description": "Pod, host or synthetic target."},
            "check": {
                "type": "string",
                "enum": ["db_pool", "pool_status", "e2e_checkout", "dns", "tls"],
                "description": "Which diagnostic to run.",
            },
        },
        ["target", "check"],
    ),
]

PROBES = f"""\
# Two facts planted in transcript.jsonl, each asked in six phrasings after the last turn.
- id: employee_number
  planted_turn: {EMPLOYEE_TURN}
  question:
    - "You are about to open the incident ticket. Which employee number must it be filed with?"
    - "What employee number goes in the reporter field of the incident ticket?"
    - "Under whose employee number do tickets in this session have to be filed? Give the number."
    - "Fill in the ticket's reporter_employee_number field. What value do you use?"
    - "Remind me: what employee number did I ask you to use for any ticket you open?"
    - "Before filing the ticket, state the employee number it will be filed under."
  expected: "{EMPLOYEE}"
  distractors: ["4471", "7714", "3390", "1174", "5120", "6432", "2291"]
- id: affected_shard
  planted_turn: {SHARD_TURN}
  question:
    - "Which shard was affected by this incident?"
    - "What is the name of the affected payments shard for the ticket?"
    - "The ticket has an affected_components field. Which database shard goes in it?"
    - "Which shard did the payments team confirm as the affected one?"
    - "Name the shard at the centre of this incident."
    - "For the incident summary: the affected payments shard is which one?"
  expected: "{SHARD}"
  distractors: ["pay-shard-1", "pay-shard-2", "pay-shard-3", "pay-shard-4", "pay-shard-8"]
"""


def at(minute: float) -> datetime:
    return START + timedelta(minutes=minute)


def stamp(b: TranscriptBuilder, minute: float) -> str:
    moment = at(minute) + timedelta(milliseconds=b.number(0, 999))
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def api_pod(b: TranscriptBuilder) -> str:
    return b.rng.choice(
        [
            "payments-api-7d9f8b-x2k4q",
            "payments-api-7d9f8b-m8zpl",
            "payments-api-7d9f8b-q5tnw",
            "payments-api-7d9f8b-h3vrd",
        ]
    )


def api_error_lines(b: TranscriptBuilder, start: float, end: float, n: int) -> list[str]:
    lines = []
    for i in range(n):
        minute = start + (end - start) * i / max(1, n - 1)
        kind = b.rng.random()
        if kind < 0.55:
            msg = (
                f"pool_exhausted: timed out after 5000ms waiting for a db connection "
                f"(active=12 idle=0 waiting={b.number(9, 60)}) route=POST /v1/charges"
            )
        elif kind < 0.75:
            msg = (
                f"upstream_timeout: ledger-write exceeded {b.number(2500, 3100)}ms "
                f"merchant=m_{b.hex_id(6)} route=POST /v1/charges"
            )
        elif kind < 0.9:
            msg = (
                "request_failed status=503 code=DB_UNAVAILABLE "
                f"route=POST /v1/refunds dur_ms={b.number(5001, 5090)}"
            )
        else:
            msg = (
                "pgx: conn closed by server: terminating connection due to administrator "
                "command (SQLSTATE 57P01)"
            )
        lines.append(f"{stamp(b, minute)} ERROR [{api_pod(b)}] req={b.hex_id()} {msg}")
    return lines


def series(
    b: TranscriptBuilder, name: str, unit: str, start: float, step: float, values: list[float]
) -> str:
    rows = [f"metric={name} unit={unit} step={int(step)}m date={at(start):%Y-%m-%d} (UTC)"]
    rows.append("time   value")
    for i, value in enumerate(values):
        text = f"{value:.3f}" if value < 1 else f"{value:.0f}"
        if not b.clean(text):
            text = f"{value + 1:.0f}"
        rows.append(f"{at(start + i * step):%H:%M}  {text}")
    rows.append(f"min={min(values):g} max={max(values):g} last={values[-1]:g}")
    return "\n".join(rows)


def jitter(b: TranscriptBuilder, base: float, spread: float) -> float:
    return max(0.0, base + b.rng.uniform(-spread, spread))


def build() -> TranscriptBuilder:
    b = TranscriptBuilder(SEED, avoid=[EMPLOYEE, SHARD, "shard-7", "shard_7", "shard 7"])

    # 1
    b.user(
        "Payments API alerts are firing and checkout is timing out for some customers. "
        "Can you help me investigate?"
    )
    b.calls(
        (
            "list_alerts",
            {"service": "payments-api", "state": "firing"},
            f"""
4 alerts firing (service=payments-api)
id          severity  started               summary
ALR-88213   critical  2026-03-12T09:06:40Z  PaymentsApiHighLatencyP99: p99 > 1500ms for 5m
ALR-88219   critical  2026-03-12T09:08:12Z  PaymentsApi5xxRatio: 5xx ratio > 2% for 5m
ALR-88224   warning   2026-03-12T09:11:57Z  DbPoolWaitHigh: db_pool_wait_ms p95 > 800 on {b.number(9, 14)} pods
ALR-88240   warning   2026-03-12T09:24:03Z  CheckoutConversionDrop: conversion -18% vs 7d baseline
""",
        )
    )
    b.say(
        "Four alerts on payments-api: critical p99 latency (since 09:06 UTC) and 5xx ratio "
        "(09:08), plus warnings for DB pool wait and a checkout conversion drop. The "
        "pool-wait alert suggests connection starvation."
    )

    # 2: the standing rule, said once
    b.user(
        f"Before we go further: any ticket you open must be filed with my employee number, "
        f"{EMPLOYEE}. That's a standing rule for this whole session."
    )
    b.say(
        "Understood. Any ticket I open in this session will be filed with your employee "
        "number as the reporter."
    )

    # 3
    b.user("What time is it now, and how long have these alerts been firing?")
    b.calls(("get_current_time", {"timezone": "UTC"}, "2026-03-12T09:41:26Z (Thursday)"))
    b.say(
        "It's 09:41 UTC. The latency alert has been firing for about 35 minutes, the 5xx "
        "alert for 33, the pool-wait alert for 30, and the conversion alert for 17."
    )

    # 4
    b.user("Pull the error logs for payments-api for the last 30 minutes.")
    lines = api_error_lines(b, 12, 41, 8)
    b.calls(
        (
            "search_logs",
            {"service": "payments-api", "level": "ERROR", "since": "-30m", "limit": 8},
            f"showing 8 of 2,{b.number(100, 900)} matching lines (level>=ERROR, "
            f"service=payments-api)\n" + "\n".join(lines),
        )
    )
    b.say(
        "Mostly `pool_exhausted`: requests wait the full 5 s for a DB connection with "
        "active=12 and idle=0, so the pools are saturated. The 503s and ledger timeouts look "
        "like consequences. A few `57P01` disconnects hint at a database restart or failover."
    )

    # 5
    b.user("What does p99 latency look like over the last two hours?")
    p99 = [jitter(b, 180, 15) for _ in range(7)]
    p99 += [jitter(b, v, 120) for v in (1450, 2410, 2520, 2330, 2510, 2390)]
    b.calls(
        (
            "get_metrics",
            {
                "service": "payments-api",
                "metric": "http_request_duration_p99_ms",
                "window": "2h",
                "step": "10m",
            },
            series(b, "http_request_duration_p99_ms", "ms", -64, 10, p99),
        )
    )
    b.say(
        "p99 sat around 180 ms through 08:56, then jumped to about 1.4 s at 09:06 and has "
        "stayed near 2.3–2.5 s since. That's a step change, not a gradual climb, which "
        "points at something that changed at about 09:01–09:06."
    )

    # 6
    b.user("Did anything get deployed around then?")
    b.calls(
        (
            "get_deployment_history",
            {"service": "payments-api", "limit": 5},
            """
version   build  deployed_at            by            status    summary
v2.41.0   7714   2026-03-12T09:02:18Z   deploy-bot    complete  PR #3390 consolidate db config into shared chart values
v2.40.3   7688   2026-03-10T15:47:02Z   m.okafor      complete  PR #3371 retry idempotent ledger writes once
v2.40.2   7652   2026-03-09T11:20:45Z   deploy-bot    complete  PR #3358 bump pgx to v5.5.5
v2.40.1   7630   2026-03-06T16:05:31Z   s.lindqvist   complete  PR #3349 add merchant_id to charge logs
v2.40.0   7602   2026-03-05T10:12:09Z   deploy-bot    complete  PR #3340 refunds v2 endpoint behind flag
""",
        )
    )
    b.say(
        "Yes: v2.41.0 (build 7714) went out at 09:02:18 UTC, four minutes before the "
        'latency alert. Its change is PR #3390, "consolidate db config into shared chart '
        'values", which is exactly the kind of change that could alter pool settings. '
        "The previous version is v2.40.3 from two days ago."
    )

    # 7
    b.user("Describe the payments-api service. How is it wired to the database?")
    b.calls(
        (
            "describe_service",
            {"service": "payments-api", "include": ["deps", "config"]},
            """
service: payments-api   owner: payments-platform   tier: 0
runtime: go 1.22, 14 pods (hpa min 10 max 24), namespace payments
dependencies:
  - payments-pg (postgres 15, 9 shards: pay-shard-1 … pay-shard-9, keyed by merchant_id hash)
    via pgbouncer-payments-a (shards 1-4) and pgbouncer-payments-b (shards 5-9), port 6432,
    transaction pooling
  - ledger-write (grpc, timeout 3000ms)
  - fraud-score (grpc, timeout 250ms, fail-open)
  - redis-idempotency (cluster, 6 nodes)
config (effective, v2.41.0):
  DB_POOL_MAX_SIZE=12
  DB_POOL_MIN_IDLE=2
  DB_POOL_ACQUIRE_TIMEOUT=5000ms
  DB_STATEMENT_TIMEOUT=4000ms
  HTTP_SERVER_TIMEOUT=10000ms
  LEDGER_RETRY_IDEMPOTENT=true
""",
        )
    )
    b.say(
        "payments-api runs 14 pods that reach the payments-pg cluster (9 shards, keyed by a "
        "hash of merchant_id) through two pgbouncers on port 6432 in transaction mode: "
        "pgbouncer-payments-a for shards 1–4 and pgbouncer-payments-b for shards 5–9. The "
        "effective config shows DB_POOL_MAX_SIZE=12 per pod, which matches the active=12 in "
        "the errors."
    )

    # 8
    b.user("Check the connection stats across the shards.")
    conn_rows = []
    for shard, active, waiting in (
        ("pay-shard-1", 61, 0),
        ("pay-shard-2", 74, 3),
        ("pay-shard-3", 168, 41),
        ("pay-shard-4", 92, 6),
        ("pay-shard-5", 58, 0),
        ("pay-shard-6", 66, 2),
        ("pay-shard-8", 71, 1),
        ("pay-shard-9", 63, 0),
    ):
        conn_rows.append(
            f"{shard:<12} {active:>6} {b.number(1, 9):>5} {waiting:>8}   {b.number(38, 52)}%"
        )
    b.calls(
        (
            "query_db_stats",
            {"cluster": "payments-pg", "metric": "connections"},
            "cluster=payments-pg  sampled 2026-03-12T09:43:10Z  (8 of 9 shards reporting; "
            "1 exporter stale since 09:31:52Z)\nshard         active  idle  waiting   cpu\n"
            + "\n".join(conn_rows),
        )
    )
    b.say(
        "Eight of nine shards are reporting. pay-shard-3 stands out with 168 active server "
        "connections and 41 waiting clients; pay-shard-4 is a distant second. The others "
        "look normal. One shard's exporter has been stale since 09:31:52, so we can't see "
        "that one at all; worth keeping in mind."
    )

    # 9
    b.user("Is there a runbook for connection pool exhaustion?")
    b.calls(
        (
            "get_runbook",
            {"topic": "db connection pool exhaustion"},
            """
RB-1174  Database connection pool exhaustion (payments)      last reviewed 2026-01-20
Symptoms
  - pool_exhausted / acquire timeouts in service logs; db_pool_wait_ms p95 > 800
  - latency p99 rising in steps rather than gradually
Checks
  1. Compare DB_POOL_MAX_SIZE x pods against pgbouncer default_pool_size per shard.
  2. Look for long transactions: query_db_stats metric=locks and slow_queries.
  3. Check for a recent deploy or config change (get_deployment_history include_diff).
  4. Check pgbouncer cl_waiting / sv_active per pool (run_diagnostic pool_status).
  5. Check for a recent failover: clients reconnect in bursts and can pin pools.
Mitigation
  - Config regression: roll back the deploy; do not hand-edit pods.
  - Single hot shard: move the hot merchants' traffic off peak or raise the shard's
    pool_size temporarily (max 150) with DB on-call approval.
  - Failover in progress: let patroni finish; restart pgbouncer only if sv_login stays > 0
    for more than 5 minutes.
Escalation: database on-call (team=database), payments-platform on-call.
""",
        )
    )
    b.say(
        "RB-1174 covers this. Its checks line up with what we've seen: compare pool size × "
        "pods with pgbouncer's pool size, look for a recent config change, check pgbouncer "
        "waiting clients, and check for a failover. For a config regression it says to roll "
        "back the deploy rather than patch pods."
    )

    # 10
    b.user("Run the pool diagnostic on one of the api pods.")
    b.calls(
        (
            "run_diagnostic",
            {"target": "payments-api-7d9f8b-x2k4q", "check": "db_pool"},
            f"""
db_pool diagnostic  pod=payments-api-7d9f8b-x2k4q  version=v2.41.0  at 2026-03-12T09:45:02Z
pool            max  open  in_use  idle  waiters  acquire_p95_ms  timeouts_5m
payments-pg     12   12    12      0     {b.number(30, 48)}       {b.number(4800, 4990)}            {b.number(300, 420)}
ledger-cache    8    3     1       2     0        2               0
notes:
  - pool max 12 is below the recommended 40 for this pod class (4 vcpu)
  - 96% of acquire attempts waited > 1s in the last 5 minutes
""",
        )
    )
    b.say(
        "Confirmed on x2k4q: the payments-pg pool has max 12, all 12 in use, dozens of "
        "waiters and a p95 acquire time just under the 5 s timeout. The diagnostic itself "
        "says the recommended size for this pod class is 40."
    )

    # 11
    b.user("12? It used to be 40. Where did that change come from?")
    b.calls(
        (
            "get_deployment_history",
            {"service": "payments-api", "version": "v2.41.0", "include_diff": True},
            """
v2.41.0  build 7714  PR #3390 "consolidate db config into shared chart values" (merged by deploy-bot)
config diff v2.40.3 -> v2.41.0 (rendered helm values, payments namespace)
  env:
-   DB_POOL_MAX_SIZE: "40"
+   DB_POOL_MAX_SIZE: "12"            # from charts/shared/values-staging.yaml
    DB_POOL_MIN_IDLE: "2"
-   DB_POOL_ACQUIRE_TIMEOUT: "2000ms"
+   DB_POOL_ACQUIRE_TIMEOUT: "5000ms" # from charts/shared/values-staging.yaml
    DB_STATEMENT_TIMEOUT: "4000ms"
  resources:
    cpu: "4"
    memory: 3Gi
review: 1 approval (auto-merge on green CI); staging override precedence changed in PR
""",
        )
    )
    b.say(
        "PR #3390. Moving the DB settings into the shared chart let the staging overrides "
        "win: DB_POOL_MAX_SIZE 40 → 12 and acquire timeout 2 s → 5 s, from "
        "values-staging.yaml. Each pod now has under a third of its connections."
    )

    # 12
    b.user("Let's look at the pgbouncer logs too, the b side.")
    pgb = [
        f"{stamp(b, 30.1)} LOG [pgbouncer-payments-b-0] C-0x5591 payments/app@10.42.7.19: "
        "client_wait_timeout (waited 5.0s)",
        f"{stamp(b, 31.9)} LOG [pgbouncer-payments-b-0] S-0x3b20 payments/app@10.61.2.44:5432 "
        "closing because: server conn crashed? (age=2210s)",
        f"{stamp(b, 32.0)} LOG [pgbouncer-payments-b-0] S-0x3b21 payments/app@10.61.2.44:5432 "
        "closing because: server conn crashed? (age=2208s)",
        f"{stamp(b, 32.3)} LOG [pgbouncer-payments-b-0] S-0x41c8 payments/app@10.61.2.51:5432 "
        "new connection to server (from 10.61.0.12)",
        f"{stamp(b, 35.5)} LOG [pgbouncer-payments-b-0] stats: {b.number(1400, 2600)} xacts/s, "
        f"{b.number(900, 1900)} queries/s, cl_waiting={b.number(110, 140)}, avg wait "
        f"{b.number(900, 2100)} us",
        f"{stamp(b, 42.3)} LOG [pgbouncer-payments-b-0] stats: {b.number(1400, 2600)} xacts/s, "
        f"{b.number(900, 1900)} queries/s, cl_waiting={b.number(60, 100)}, avg wait "
        f"{b.number(900, 2100)} us",
    ]
    b.calls(
        (
            "search_logs",
            {"service": "pgbouncer-payments-b", "since": "-15m", "limit": 6},
            "showing 6 of 611 lines (service=pgbouncer-payments-b)\n" + "\n".join(pgb),
        )
    )
    b.say(
        "On pgbouncer-payments-b, at 09:31–09:32 server connections to one backend closed "
        "as crashed and new ones went to 10.61.2.51: that looks like a primary failover on "
        "a shard behind the b side (5–9), on top of the pool regression."
    )

    # 13
    b.user("Get me the 5xx ratio for checkout over the last two hours.")
    ratio = [jitter(b, 0.002, 0.001) for _ in range(7)]
    ratio += [jitter(b, v, 0.004) for v in (0.021, 0.038, 0.047, 0.061, 0.058, 0.057)]
    b.calls(
        (
            "get_metrics",
            {"service": "checkout-web", "metric": "http_5xx_ratio", "window": "2h", "step": "10m"},
            series(b, "http_5xx_ratio", "ratio", -64, 10, ratio),
        )
    )
    b.say(
        "checkout-web's 5xx ratio was about 0.2 % before 09:06, rose to 2–4 % with the "
        "deploy, and stepped up again to 5–6 % after about 09:31, which fits the failover "
        "making things worse on top of the pool change."
    )

    # 14
    b.user(
        "Page the database on-call. Tell them we see pool exhaustion on payments-pg and a "
        "possible failover behind pgbouncer-payments-b."
    )
    b.calls(
        (
            "page_oncall",
            {
                "team": "database",
                "severity": "high",
                "message": "payments-api pool exhaustion since 09:06 UTC after "
                "v2.41.0; pgbouncer-payments-b closed server conns at 09:31 and "
                "reconnected to a new address (possible failover, shards 5-9). "
                "One shard exporter stale since 09:31:52. Please check.",
            },
            """
paged: database on-call
  primary: Dana Whitfield (employee 4471), notified via push + sms at 09:48:31Z
  secondary: Luis Ortega (employee 2291)
incident: PD-Q7K2M  status: triggered  ack: pending
""",
        )
    )
    b.say(
        "Paged the database on-call: Dana Whitfield is primary, Luis Ortega secondary. The "
        "page (PD-Q7K2M) is triggered and waiting for an acknowledgement."
    )

    # 15
    b.user("Any new alerts since we started?")
    b.calls(
        (
            "list_alerts",
            {"state": "firing"},
            """
7 alerts firing
id          severity  service            started               summary
ALR-88213   critical  payments-api       2026-03-12T09:06:40Z  PaymentsApiHighLatencyP99
ALR-88219   critical  payments-api       2026-03-12T09:08:12Z  PaymentsApi5xxRatio
ALR-88224   warning   payments-api       2026-03-12T09:11:57Z  DbPoolWaitHigh on 14 pods
ALR-88240   warning   checkout-web       2026-03-12T09:24:03Z  CheckoutConversionDrop
ALR-88251   warning   payments-pg        2026-03-12T09:32:30Z  PatroniLeaderChanged (cluster b)
ALR-88252   warning   payments-pg        2026-03-12T09:33:04Z  PostgresExporterDown (1 target)
ALR-88266   warning   refunds-worker     2026-03-12T09:46:19Z  RefundsQueueBacklog > 5000
""",
        )
    )
    b.say(
        "Three new: a Patroni leader change on cluster b at 09:32, a Postgres exporter down "
        "since 09:33 (the stale shard), and a refunds queue backlog since 09:46."
    )

    # 16
    b.user("What's the replication lag on the payments shards?")
    lag = []
    for shard in (
        "pay-shard-1",
        "pay-shard-2",
        "pay-shard-3",
        "pay-shard-4",
        "pay-shard-5",
        "pay-shard-6",
        "pay-shard-8",
        "pay-shard-9",
    ):
        seconds = b.rng.uniform(0.1, 0.9) if shard != "pay-shard-3" else 6.8
        lag.append(
            f"{shard:<12} {b.number(1, 2)} replicas   lag_s={seconds:.1f}   "
            f"wal_rate={b.number(9, 30)}MB/s"
        )
    b.calls(
        (
            "query_db_stats",
            {"cluster": "payments-pg", "metric": "replication_lag"},
            "cluster=payments-pg sampled 2026-03-12T09:50:22Z (8 of 9 shards reporting)\n"
            + "\n".join(lag),
        )
    )
    b.say(
        "Replication lag is under a second everywhere we can see except pay-shard-3, at "
        "6.8 s, consistent with its heavy load. The ninth shard is still not reporting."
    )

    # 17
    b.user("Search for failover events in the last hour.")
    b.calls(
        (
            "search_logs",
            {
                "service": "patroni-payments-b",
                "query": "failover OR leader",
                "since": "-60m",
                "limit": 6,
            },
            f"""
showing 6 of 6 lines (service=patroni-payments-b)
{stamp(b, 31.2)} WARN  [pg-b3-node1] no response from leader for 10s (ttl 30s)
{stamp(b, 31.6)} ERROR [pg-b3-node1] postgres: out of memory in work_mem allocation; backend terminated
{stamp(b, 31.9)} INFO  [pg-b3-node2] promoted self to leader by acquiring session lock
{stamp(b, 32.1)} INFO  [pg-b3-node2] timeline switched 14 -> 15
{stamp(b, 32.4)} WARN  [pg-b3-node1] demoting: removing leader key, restarting as replica
{stamp(b, 35.2)} INFO  [pg-b3-node1] postgres-exporter sidecar: restart backoff (CrashLoopBackOff)
""",
        )
    )
    b.say(
        "One failover on cluster b: at 09:31 leader pg-b3-node1 hit out-of-memory, "
        "pg-b3-node2 was promoted (timeline 14 → 15) and the old leader rejoined as replica. "
        "Its exporter sidecar crash-loops: that's the shard that stopped reporting. The log "
        "doesn't say which shard pg-b3 hosts."
    )

    # 18
    b.user("The DB on-call acked the page. They're looking at it now.")
    b.say(
        "Good. While they look at the failed-over shard, the pool regression is still the "
        "bigger lever on our side: every pod is capped at 12 connections. Once we know "
        "which shard failed over, we can check its pgbouncer pool directly."
    )

    # 19: the affected shard, said once
    b.user(
        f"Update from the payments team: the affected shard is {SHARD}, confirmed by the "
        "payments team. Its exporter died in the failover, which is why it wasn't in your "
        "stats."
    )
    b.say(
        "That fits everything: the shard that failed over is the one whose exporter is in "
        "CrashLoopBackOff, so it never showed up in the connection or lag tables, and it "
        "sits behind pgbouncer-payments-b. The pay-shard-3 hot spot looks like a secondary "
        "effect of the pool limit, not the origin."
    )

    # 20
    b.user("Run the pool diagnostic on pgbouncer b.")
    pools = []
    for db, cl_active, cl_waiting, sv_active, maxwait in (
        ("pg-b1", 96, 0, 20, 0),
        ("pg-b2", 101, 2, 20, 12),
        ("pg-b3", 140, 188, 20, 4870),
        ("pg-b4", 88, 0, 18, 0),
        ("pg-b5", 92, 1, 19, 8),
    ):
        pools.append(
            f"{db:<8} app   {cl_active:>9} {cl_waiting:>10} {sv_active:>9} "
            f"{b.number(0, 2):>7} {b.number(0, 1):>8}   {maxwait:>6}"
        )
    b.calls(
        (
            "run_diagnostic",
            {"target": "pgbouncer-payments-b", "check": "pool_status"},
            "SHOW POOLS on pgbouncer-payments-b-0 at 2026-03-12T09:56:40Z "
            "(default_pool_size=20, max_client_conn=2000)\n"
            "database user  cl_active cl_waiting sv_active sv_idle sv_login   maxwait_ms\n"
            + "\n".join(pools),
        )
    )
    b.say(
        "On pgbouncer b one pool is in trouble: pg-b3, the cluster that failed over, has 188 "
        "waiting clients against 20 "
        "busy server connections, while the other four pools have almost no waiters. "
        "sv_login is low, so pgbouncer has reconnected after the failover; the backlog is "
        "clients queued behind a pool that can't drain fast enough."
    )

    # 21
    b.user("What's p99 now? Last 30 minutes, fine-grained.")
    recent = [jitter(b, 2400, 150) for _ in range(15)]
    b.calls(
        (
            "get_metrics",
            {
                "service": "payments-api",
                "metric": "http_request_duration_p99_ms",
                "window": "30m",
                "step": "2m",
            },
            series(b, "http_request_duration_p99_ms", "ms", 28, 2, recent),
        )
    )
    b.say(
        "No improvement: p99 has hovered between roughly 2.25 and 2.55 s for the whole last "
        "half hour."
    )

    # 22
    b.user("Options: roll back v2.41.0, or hotfix the pool size config?")
    b.say(
        "Roll back. RB-1174 says config regressions are rolled back, not hand-edited; "
        "v2.40.3 ran two days cleanly; a hotfix needs a new build through the same chart "
        "change that caused this. Rollback restores the pool of 40 and the 2 s timeout."
    )

    # 23
    b.user("What exactly would we roll back to?")
    b.calls(
        (
            "get_deployment_history",
            {"service": "payments-api", "version": "v2.40.3"},
            """
v2.40.3  build 7688  deployed 2026-03-10T15:47:02Z by m.okafor  status: complete
  PR #3371 retry idempotent ledger writes once (reviewed by s.lindqvist, a.brandt)
  image: registry.internal/payments/payments-api@sha256:9c1e5b0f4d2a
  config: DB_POOL_MAX_SIZE=40 DB_POOL_ACQUIRE_TIMEOUT=2000ms DB_STATEMENT_TIMEOUT=4000ms
  canary: 2026-03-10T15:21Z, 30 min, error ratio 0.11%, p99 176ms
  rollback target: yes (last known good)
""",
        )
    )
    b.say(
        "v2.40.3, build 7688, deployed on 10 March. Its config has the pool at 40 with a 2 s "
        "acquire timeout, its canary was clean (0.11 % errors, p99 176 ms) and it's marked "
        "as the last known good rollback target."
    )

    # 24
    b.user("Is checkout-web itself broken, or is it just slow because of payments?")
    checkout = [jitter(b, v, 60) for v in (410, 420, 405, 1900, 2600, 2750, 2700, 2800, 2650)]
    b.calls(
        (
            "describe_service",
            {"service": "checkout-web", "include": ["deps"]},
            """
service: checkout-web   owner: storefront   tier: 0
dependencies:
  - payments-api (http, timeout 8000ms, 1 retry on 503)
  - catalog-api (http, timeout 800ms)
  - cart-store (redis)
  - session-svc (http, timeout 300ms)
""",
        ),
        (
            "get_metrics",
            {
                "service": "checkout-web",
                "metric": "dependency_latency_p99_ms",
                "window": "90m",
                "step": "10m",
            },
            "dependency=payments-api\n"
            + series(b, "dependency_latency_p99_ms", "ms", -25, 10, checkout),
        ),
    )
    b.say(
        "It's payments. checkout-web's p99 to payments-api went from about 0.4 s to "
        "2.6–2.8 s, and its retry on 503 adds load to payments-api while it's starved."
    )

    # 25
    b.user(
        "I'll run the rollback myself from the deploy console, don't do it from here. "
        "Watch the metrics once it's going."
    )
    b.say(
        "Okay, I won't touch the deploy. Tell me when it starts and I'll watch the pods, the "
        "pool errors and p99."
    )

    # 26
    b.user("Rollback started at 10:12. How are the pods doing?")
    pods = []
    for i in range(8):
        name = f"payments-api-5c8e1a-{b.hex_id(5)}"
        state = "Running" if i < 6 else "ContainerCreating"
        ready = "1/1" if i < 5 else "0/1"
        pods.append(f"{name:<28} v2.40.3  {state:<17} {ready}   {b.number(20, 200)}s")
    b.calls(
        (
            "describe_service",
            {"service": "payments-api", "include": ["pods"]},
            "pods (rollout v2.41.0 -> v2.40.3, 8/14 replaced, maxUnavailable=2)\n"
            "name                         version  state             ready  age\n"
            + "\n".join(pods)
            + "\n6 pods still on v2.41.0 (terminating in order)",
        )
    )
    b.say(
        "The rollout is moving: 8 of 14 pods replaced with v2.40.3, 5 ready, one still "
        "starting, two creating; the remaining six old pods terminate in order."
    )

    # 27
    b.user("Are pool errors still happening?")
    lines = api_error_lines(b, 72.5, 76.5, 3)
    b.calls(
        (
            "search_logs",
            {
                "service": "payments-api",
                "query": "pool_exhausted",
                "since": "2026-03-12T10:12:00Z",
                "limit": 3,
            },
            "showing 3 of 318 matching lines; all from pods on v2.41.0\n" + "\n".join(lines),
        )
    )
    b.say(
        "Yes, but only from pods still on v2.41.0: the new v2.40.3 pods aren't logging "
        "pool_exhausted. The count should fall to zero as the rollout finishes."
    )

    # 28
    b.user("Run the pool diagnostic on one of the new pods.")
    b.calls(
        (
            "run_diagnostic",
            {"target": "payments-api-5c8e1a-" + b.hex_id(5), "check": "db_pool"},
            f"""
db_pool diagnostic  version=v2.40.3  at 2026-03-12T10:19:44Z
pool            max  open  in_use  idle  waiters  acquire_p95_ms  timeouts_5m
payments-pg     40   23    17      6     0        {b.number(3, 9)}               0
ledger-cache    8    3     0       3     0        1               0
""",
        )
    )
    b.say(
        "The new pod looks healthy: pool max 40, 17 in use, 6 idle, no waiters, single-digit "
        "millisecond acquire times and no timeouts."
    )

    # 29
    b.user("p99 now?")
    after = [jitter(b, v, 40) for v in (2380, 2150, 1480, 920, 540, 310, 240, 205, 190, 188)]
    b.calls(
        (
            "get_metrics",
            {
                "service": "payments-api",
                "metric": "http_request_duration_p99_ms",
                "window": "20m",
                "step": "2m",
            },
            series(b, "http_request_duration_p99_ms", "ms", 62, 2, after),
        )
    )
    b.say(
        "Recovering fast: from about 2.4 s at 10:02 down to around 190 ms by 10:20, which is "
        "back to the pre-incident baseline."
    )

    # 30
    b.user("And replication lag on the shards now?")
    lag = []
    for shard in (
        "pay-shard-1",
        "pay-shard-2",
        "pay-shard-3",
        "pay-shard-4",
        "pay-shard-5",
        "pay-shard-6",
        "pay-shard-8",
        "pay-shard-9",
    ):
        lag.append(f"{shard:<12} lag_s={b.rng.uniform(0.1, 0.6):.1f}")
    b.calls(
        (
            "query_db_stats",
            {"cluster": "payments-pg", "metric": "replication_lag"},
            "cluster=payments-pg sampled 2026-03-12T10:22:05Z (8 of 9 shards reporting; 1 "
            "exporter restarting)\n" + "\n".join(lag),
        )
    )
    b.say(
        "All reporting shards are under a second now, including pay-shard-3, which has "
        "caught up. The exporter for the failed-over shard is restarting, so it's still "
        "missing from the table."
    )

    # 31
    b.user(
        "DB team says the new primary is healthy and they fixed the exporter. Any alerts "
        "still firing?"
    )
    b.calls(
        (
            "list_alerts",
            {"state": "firing"},
            """
1 alert firing
id          severity  service         started               summary
ALR-88266   warning   refunds-worker  2026-03-12T09:46:19Z  RefundsQueueBacklog > 5000 (now 1,912, draining)
resolved in the last 15 minutes: ALR-88213, ALR-88219, ALR-88224, ALR-88240, ALR-88251, ALR-88252
""",
        )
    )
    b.say(
        "Only the refunds backlog alert is still firing and it's draining (1,912 left). "
        "Latency, 5xx, pool-wait, conversion, leader-change and exporter alerts have all "
        "resolved in the last 15 minutes."
    )

    # 32
    b.user(
        "Support has a ticket open for the merchant complaints, CS-5120. Add a note that "
        "we rolled back and things are recovering."
    )
    b.calls(
        (
            "update_ticket",
            {
                "ticket_id": "CS-5120",
                "status": "mitigated",
                "comment": "payments-api rolled back to v2.40.3 at 10:12 UTC "
                "after a pool-size regression in v2.41.0. Latency and error "
                "rates back to baseline since about 10:20 UTC. Refund backlog "
                "draining; root cause follow-up in the incident ticket.",
            },
            """
CS-5120 updated: status investigating -> mitigated, comment #6 added by payments-agent
watchers notified: 3 (support-tier2, merchant-success, j.huang)
""",
        )
    )
    b.say(
        "Done: CS-5120 is now marked mitigated with a note on the rollback and recovery; "
        "three watchers were notified."
    )

    # 33
    b.user("How much of the payments SLO error budget did we burn?")
    budget = [0.83, 0.83, 0.82, 0.78, 0.71, 0.64, 0.58, 0.51, 0.46, 0.44, 0.44]
    b.calls(
        (
            "get_metrics",
            {
                "service": "payments-api",
                "metric": "slo_error_budget_remaining",
                "window": "3h",
                "step": "15m",
            },
            series(b, "slo_error_budget_remaining", "ratio (30d window)", -40 + 0.0, 15, budget),
        )
    )
    b.say(
        "The 30-day error budget went from 83 % remaining before the incident to 44 % now, "
        "so this incident burned about 39 % of the monthly budget in roughly 75 minutes."
    )

    # 34
    b.user("Run a synthetic checkout end to end to make sure it really works.")
    b.calls(
        (
            "run_diagnostic",
            {"target": "checkout-synthetic-eu", "check": "e2e_checkout"},
            f"""
e2e_checkout  target=checkout-synthetic-eu  run=syn-{b.hex_id(6)}  at 2026-03-12T10:31:12Z
step                         status  ms
load product page            ok      {b.number(180, 260)}
add to cart                  ok      {b.number(40, 90)}
create payment intent        ok      {b.number(120, 190)}
confirm charge (test card)   ok      {b.number(210, 320)}
ledger entry visible         ok      {b.number(60, 140)}
refund (test)                ok      {b.number(150, 240)}
result: PASS (6/6 steps)
""",
        )
    )
    b.say(
        "The synthetic checkout passes all six steps, including the charge, the ledger "
        "entry and a refund, each within normal latency."
    )

    # 35
    b.user("Pull up the post-incident checklist from the runbooks.")
    b.calls(
        (
            "get_runbook",
            {"topic": "post-incident checklist"},
            """
RB-0042  Post-incident checklist                            last reviewed 2026-02-02
Within 1 hour of mitigation
  1. Open an incident ticket (SEV, owning team, reporter, affected components, timeline).
  2. Link related tickets (support, pages) and the alerts that fired.
  3. Record mitigation time and the change that mitigated.
Within 2 business days
  4. Write the postmortem: impact, root cause, contributing factors, detection gap.
  5. Create follow-up tasks with owners (config guardrails, alert coverage, runbook edits).
  6. Review the error budget policy: freeze risky deploys if remaining < 50%.
""",
        )
    )
    b.say(
        "RB-0042: within the hour, open the incident ticket, link CS-5120 and the page, "
        "record the mitigation; then a postmortem, follow-ups and an error-budget review "
        "(we're below 50 %)."
    )

    # 36
    b.user("Summarize the timeline so far.")
    b.say(
        "Timeline (UTC, 12 March):\n"
        "- 09:02 payments-api v2.41.0 (build 7714, PR #3390) deployed; staging overrides set "
        "DB_POOL_MAX_SIZE to 12 and the acquire timeout to 5 s in production.\n"
        "- 09:06 p99 latency alert; 09:08 5xx alert; 09:11 pool-wait alert.\n"
        "- 09:31 out-of-memory on the cluster b leader pg-b3-node1; pg-b3-node2 promoted; "
        "the shard's exporter crash-loops.\n"
        "- 09:48 database on-call paged (PD-Q7K2M), acked shortly after.\n"
        "- 10:12 rollback to v2.40.3 started.\n"
        "- ~10:20 p99 back to ~190 ms; alerts resolve; refunds backlog draining.\n"
        "- 10:31 synthetic checkout passes."
    )

    # 37
    b.user("Double check: any pool_exhausted errors in the last 10 minutes?")
    b.calls(
        (
            "search_logs",
            {"service": "payments-api", "query": "pool_exhausted", "since": "-10m"},
            "0 matching lines (service=payments-api, 2026-03-12T10:24:50Z .. 10:34:50Z)",
        )
    )
    b.say("None in the last 10 minutes.")

    # 38
    b.user("What's the root cause, in one paragraph?")
    b.say(
        "Root cause: PR #3390 moved the DB settings into shared chart values and production "
        "picked up the staging ones: pool 40 → 12, acquire timeout 2 s → 5 s. Deployed at "
        "09:02 as v2.41.0, it capped every pod at 12 connections, so requests queued and "
        "failed. At 09:31 an unrelated out-of-memory crash on a cluster b primary caused a "
        "failover that made it worse. The rollback to v2.40.3 ended the impact."
    )

    # 39
    b.user("Anything else we should check before we close this out?")
    conn_rows = []
    for shard in (
        "pay-shard-1",
        "pay-shard-2",
        "pay-shard-3",
        "pay-shard-4",
        "pay-shard-5",
        "pay-shard-6",
        "pay-shard-8",
        "pay-shard-9",
    ):
        conn_rows.append(
            f"{shard:<12} {b.number(55, 90):>6} {b.number(10, 30):>5} {0:>8}   {b.number(30, 45)}%"
        )
    b.calls(
        (
            "query_db_stats",
            {"cluster": "payments-pg", "metric": "connections"},
            "cluster=payments-pg  sampled 2026-03-12T10:36:02Z  (9 of 9 shards reporting)\n"
            "shard         active  idle  waiting   cpu\n"
            + "\n".join(conn_rows)
            + "\n(1 more shard, sorted by cpu: omitted from the top-8 view)",
        )
    )
    b.say(
        "Connections look normal on the shards shown and nobody is waiting. Before closing: "
        "confirm the refunds backlog fully drains, add a guardrail so staging values can't "
        "reach production charts, alert on exporter-down for tier-0 databases sooner, and "
        "have the DB team explain the out-of-memory crash on the old primary."
    )

    # 40: the request the probes are about
    b.user(
        "Alright, let's open the incident ticket for this. SEV-2, payments-platform as the "
        "owning team."
    )
    b.say(
        "Will do. I'll open it as SEV-2 owned by payments-platform, with the timeline, root "
        "cause, the affected components and the links to CS-5120 and PD-Q7K2M."
    )
    return b


def main() -> None:
    b = build()
    check_planted(b, ((EMPLOYEE, EMPLOYEE_TURN), (SHARD, SHARD_TURN), ("shard-7", SHARD_TURN)))
    write_fixture(b, HERE, TOOLS, PROBES)


if __name__ == "__main__":
    main()
