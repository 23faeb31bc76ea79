"""Round 36: one decision per principle, from blind cohort 28's tune half (a DBA's and
data-platform on-call engineer's day), in wordings of this file's own (no corpus line is
copied)."""

from __future__ import annotations

import pytest
from command_support import judged


def _rules(command: str) -> set[str]:
    return {f.rule for f in judged(command).findings}


@pytest.mark.parametrize(
    "command",
    [
        "psql -h pg-main.example.net -U admin -c 'SELECT pg_drop_replication_slot(\\'etl\\')'",
        "mariadb -h maria-live.example.net -e 'PURGE BINARY LOGS BEFORE NOW()'",
        "cqlsh cass-a.example.net -e 'DROP KEYSPACE inventory;'",
        "psql -h pg-main.example.net -At -c 'SELECT rolname, rolpassword FROM pg_authid'",
    ],
)
def test_replication_cut_or_password_hashes_read_on_another_server_are_denied(
    command: str,
) -> None:
    assert judged(command).decision == "deny"


def test_the_same_statements_on_this_machine_ask() -> None:
    assert judged("psql -h localhost -d app -c 'SELECT * FROM pg_shadow'").decision == "ask"
    assert judged("mysql -h 127.0.0.1 -e 'RESET MASTER'").decision == "ask"
    assert "db-password-hashes" in _rules("psql -h localhost -d app -c 'TABLE pg_shadow'")


def test_statements_that_change_the_server_ask_and_plain_reads_do_not() -> None:
    kill = "psql -h localhost -d app -c 'SELECT pg_cancel_backend(4242)'"
    assert judged(kill).decision == "ask"
    assert "db-admin" in _rules(kill)
    assert judged("mysql -h 127.0.0.1 app -e 'OPTIMIZE TABLE orders'").decision == "ask"
    assert judged("psql -h localhost -d app -c 'SELECT count(*) FROM orders'").decision == "allow"


def test_a_restore_that_drops_a_remote_servers_data_is_denied() -> None:
    assert judged("pg_restore -c -h pg-main.example.net -d shop nightly.dump").decision == "deny"
    assert judged("mongorestore --host mongo-a.example.net --drop out/").decision == "deny"
    assert judged("pg_restore --clean -h localhost -d shop_dev nightly.dump").decision == "allow"
    assert judged("pg_restore -h pg-main.example.net -d shop nightly.dump").decision == "ask"


def test_pg_resetwal_is_denied_and_its_dry_run_is_not() -> None:
    assert judged("pg_resetwal -f /srv/pg/data").decision == "deny"
    assert judged("pg_resetwal -n /srv/pg/data").decision == "ask"


def test_every_key_of_a_remote_redis_deleted_is_denied() -> None:
    every = "redis-cli -h kv.example.net --scan | xargs redis-cli -h kv.example.net UNLINK"
    assert judged(every).decision == "deny"
    some = (
        "redis-cli -h kv.example.net --scan --pattern 'tmp:*' | "
        "xargs redis-cli -h kv.example.net DEL"
    )
    assert judged(some).decision == "ask"


def test_a_redis_url_known_only_at_run_time_is_not_this_machine() -> None:
    assert judged('redis-cli -u "$CACHE_URL" DEL session:1').decision == "ask"
    assert judged("redis-cli DEL session:1").decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf /var/lib/mysql/ibdata1",
        "find /srv/db-backups -name '*.gz' -delete",
        "sudo rm -rf /var/lib/cassandra/commitlog",
    ],
)
def test_a_database_servers_files_or_backups_deleted_are_denied(command: str) -> None:
    assert judged(command).decision == "deny"


def test_backups_inside_the_workspace_may_be_pruned() -> None:
    assert judged("find backups -name '*.gz' -mtime +30 -delete").decision == "allow"
    assert judged("rm -rf /var/lib/app-cache").decision == "ask"
    assert judged("rm /srv/db-backups/2019-12-31.sql.gz").decision == "ask"  # one named file


def test_a_login_made_on_a_remote_search_cluster_is_denied() -> None:
    made = (
        'curl -X PUT https://es.example.net:9200/_security/user/ops -d \'{"roles":["superuser"]}\''
    )
    assert judged(made).decision == "deny"
    assert judged("curl https://es.example.net:9200/_security/user/ops").decision != "deny"


def test_etcd_auth_off_or_a_production_key_written_is_denied() -> None:
    assert (
        judged("etcdctl --endpoints=https://etcd1.example.net:2379 auth disable").decision == "deny"
    )
    assert (
        judged("etcdctl --endpoints=https://etcd-prd.example.net:2379 put /a b").decision == "deny"
    )
    assert judged("etcdctl --endpoints=https://etcd-qa.example.net:2379 put /a b").decision == "ask"


@pytest.mark.parametrize(
    "command",
    [
        "etcdctl endpoint status -w json",
        "etcdctl --endpoints=https://etcd1.example.net:2379 member list",
        "etcdctl --endpoints=http://localhost:2379 get /flags --prefix",
        "etcdctl snapshot save tmp/etcd.db",
        "etcdutl snapshot status tmp/etcd.db",
    ],
)
def test_etcd_health_and_this_machines_store_are_allowed(command: str) -> None:
    assert judged(command).decision == "allow"


def test_etcd_look_alikes_that_reach_further_ask() -> None:
    assert (
        judged("etcdctl --endpoints=https://etcd1.example.net:2379 get / --prefix").decision
        == "ask"
    )
    assert judged("etcdctl snapshot save /etc/etcd.db").decision == "ask"
    # the etcd on loopback may be a Kubernetes control plane's: writes, its keys and Secrets
    assert judged("etcdctl put /flags/dark_mode on").decision == "ask"
    assert judged("etcdctl get /registry/secrets --prefix").decision == "ask"


def test_migration_tools_wiping_a_remote_schema_are_denied_and_their_previews_run() -> None:
    assert judged("liquibase --url=jdbc:mysql://my.example.net/shop drop-all").decision == "deny"
    assert judged("flyway -url=jdbc:postgresql://pg.example.net/shop clean").decision == "deny"
    assert judged("flyway -url=jdbc:postgresql://localhost/shop clean").decision == "ask"
    assert judged("flyway -url=jdbc:postgresql://localhost/shop info").decision == "allow"
    assert judged("liquibase --url=jdbc:postgresql://localhost/shop status").decision == "allow"
    assert judged("liquibase --url=jdbc:postgresql://localhost/shop update").decision == "ask"
    assert judged("flyway -url=jdbc:postgresql://pg.example.net/shop info").decision == "ask"


def test_a_framework_reset_aimed_at_a_live_database_is_denied() -> None:
    assert (
        judged("DATABASE_URL=postgres://u@pg.example.net/app npx prisma migrate reset").decision
        == "deny"
    )
    assert (
        judged("DJANGO_SETTINGS_MODULE=site.settings.prod python manage.py flush").decision
        == "deny"
    )
    assert judged("DATABASE_URL=postgres://u@pg.example.net/app alembic current").decision == "ask"
    assert judged('DATABASE_URL="$(cat .url)" alembic downgrade base').decision != "deny"


def test_a_production_database_stopped_over_ssh_is_denied() -> None:
    assert judged("ssh root@pg-prod-2 'systemctl mask postgresql'").decision == "deny"
    assert judged("ssh root@pg-qa-2 'systemctl stop postgresql'").decision == "ask"
    assert judged("ssh root@pg-prod-2 'systemctl status postgresql'").decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "nodetool -h localhost tpstats",
        "mysqladmin -h 127.0.0.1 -u root processlist",
        "kafka-consumer-groups.sh --bootstrap-server 127.0.0.1:9092 --group g "
        "--reset-offsets --to-latest --all-topics --dry-run",
        "clickhouse-local -q \"SELECT count() FROM file('data/a.csv', CSVWithNames)\"",
        "mongorestore --host localhost --nsTo 'crm_dev.*' --drop backups/crm",
        "clickhouse-client --host 127.0.0.1 --query "
        "'INSERT INTO crm_test.leads FORMAT TSV' < fixtures/leads.tsv",
        "cqlsh 127.0.0.1 -e \"COPY crm.leads (id, name) TO 'out/leads.csv' WITH HEADER = true\"",
    ],
)
def test_data_platform_reads_and_local_scratch_work_run(command: str) -> None:
    assert judged(command).decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "nodetool -h localhost decommission",
        "nodetool -h cass-a.example.net status",
        "mysqladmin -h 127.0.0.1 -u root shutdown",
        "kafka-consumer-groups --bootstrap-server localhost:9092 --group g "
        "--reset-offsets --to-latest --all-topics --execute",
        "clickhouse-local -q \"SELECT * FROM s3('https://bucket.example.net/a.csv')\"",
        "clickhouse-local -q \"INSERT INTO FUNCTION file('out.csv') SELECT 1\"",
        "mongorestore --host localhost --nsTo 'crm.*' --drop backups/crm",
        "mongorestore --host localhost --nsTo 'crm_dev.*' /srv/dumps/crm",
        "clickhouse-client --host 127.0.0.1 --query "
        "'INSERT INTO crm.leads FORMAT TSV' < fixtures/leads.tsv",
        "cqlsh 127.0.0.1 -e \"COPY crm.leads (id) TO '/home/dev/leads.csv'\"",
        "cqlsh 127.0.0.1 -e \"COPY crm.leads (id) FROM 'out/leads.csv'\"",
    ],
)
def test_data_platform_look_alikes_that_change_or_reach_further_ask(command: str) -> None:
    assert judged(command).decision == "ask"


@pytest.mark.parametrize(
    "command",
    [
        "pg_restore --clean --if-exists -d app_dev backups/app.dump",  # PGHOST: unknown here
        "pg_restore --clean -h staging-db.example.net -d shop backups/shop.dump",
        "pg_restore --clean -h 10.2.0.5 -d shop_test backups/shop.dump",
    ],
)
def test_a_clean_restore_whose_server_is_unknown_or_a_copy_asks(command: str) -> None:
    assert judged(command).decision == "ask"
