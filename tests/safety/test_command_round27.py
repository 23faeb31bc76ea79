"""Round 27: one decision per principle, from the classes of blind cohort 17's tune half (an
SRE's on-call shift and release day), in wordings of this file's own (no corpus line is
copied)."""

from __future__ import annotations

import pytest
from command_support import judged, rules


@pytest.mark.parametrize(
    "command",
    [
        "mongosh mongodb://mongo-a.example.net:27017/admin --eval 'rs.stepDown(120)'",
        "mongo --host db.example.net --eval 'db.adminCommand({setParameter: 1, x: 1})'",
        "mongosh --eval 'db.events.aggregate([{$match: {}}, {$merge: {into: \"copy\"}}])'",
    ],
)
def test_mongo_code_that_is_not_a_known_read_asks(command: str) -> None:
    analysis = judged(command)
    assert analysis.decision == "ask" and rules(analysis) & {"db-admin", "sql-write"}


@pytest.mark.parametrize(
    "command",
    [
        "mongosh mongodb://localhost/app --quiet --eval 'db.orders.countDocuments({paid: false})'",
        "mongosh --eval 'rs.status().members.forEach(function (m) { print(m.name) })'",
        "mongosh --eval 'db.adminCommand({ping: 1})'",
    ],
)
def test_mongo_code_that_only_reads_is_allowed(command: str) -> None:
    assert judged(command).decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "redis-cli -h cache.example.net SHUTDOWN NOSAVE",
        "redis-cli -h cache.example.net -p 6380 CLIENT KILL TYPE normal",
        "redis-cli -h cache.example.net --rdb /tmp/all.rdb",
    ],
)
def test_redis_commands_that_are_not_known_reads_ask(command: str) -> None:
    analysis = judged(command)
    assert analysis.decision == "ask" and "db-admin" in rules(analysis)


@pytest.mark.parametrize(
    "command",
    [
        "redis-cli -h cache.example.net -p 6380 TTL session:42",
        "redis-cli -h cache.example.net SLOWLOG GET 5",
        "redis-cli --memkeys",
    ],
)
def test_redis_reads_are_allowed(command: str) -> None:
    assert judged(command).decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "DATABASE_URL=postgres://ops@orders.db.example.com:5432/orders npx knex migrate:latest",
        "export MONGODB_URI=mongodb://app@shard0.example.net/app; npm run seed",
        "PGHOST=reports.example.org psql -c 'select 1'",
    ],
)
def test_a_program_pointed_at_another_machines_database_asks(command: str) -> None:
    analysis = judged(command)
    assert analysis.decision == "ask" and "remote-database" in rules(analysis)


@pytest.mark.parametrize(
    "command",
    [
        "DATABASE_URL=postgres://app:app@127.0.0.1:5432/app_test pytest -x",
        "DATABASE_URL=postgres://app@postgres:5432/app python manage.py migrate",
        "REDIS_URL=redis://cache.local:6379/0 npm test",
    ],
)
def test_a_program_pointed_at_a_local_database_is_allowed(command: str) -> None:
    assert judged(command).decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "kubectl --context kind-sandbox delete namespace perf-run-7",
        "kubectl --context minikube apply -k deploy/overlays/local",
        "helm --kube-context k3d-dev upgrade --install api ./charts/api",
        "kubectl --context=docker-desktop scale deploy/worker --replicas=0",
    ],
)
def test_changes_to_a_development_cluster_on_this_machine_are_allowed(command: str) -> None:
    assert judged(command).decision == "allow"


def test_a_shared_clusters_changes_still_ask_and_its_namespaces_are_not_deleted() -> None:
    assert judged("kubectl --context staging-us apply -f deploy/").decision == "ask"
    assert judged("kubectl --context ops-eu delete ns billing").decision == "deny"
    assert judged("kubectl --context kind-sandbox delete deploy --all").decision == "ask"


@pytest.mark.parametrize(
    "command",
    [
        "flux --context ops-eu get helmreleases -A",
        "amtool --alertmanager.url=https://am.example.net silence query",
        "promtool query instant https://metrics.example.net 'sum(up)'",
        "velero backup get",
        "patronictl -c conf/patroni.yml list",
        "rabbitmqctl -n rabbit@mq-1 list_exchanges",
        "k6 inspect load/smoke.js",
        "eksctl get cluster --region eu-west-1",
    ],
)
def test_on_call_tools_read_verbs_are_allowed(command: str) -> None:
    assert judged(command).decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "flux --context ops-eu suspend kustomization apps",
        "amtool --alertmanager.url=https://am.example.net silence add job=api --duration=2h",
        "velero restore create --from-backup nightly",
        "patronictl -c conf/patroni.yml switchover --force",
    ],
)
def test_on_call_tools_changes_ask(command: str) -> None:
    assert judged(command).decision == "ask"
