"""What Mongo and Redis code is shown to only read.

The SQL rules know the statements that write; a Mongo shell's JavaScript and Redis's command
set are open-ended (``rs.reconfig({…}, {force: true})``, ``db.adminCommand({shutdown: 1})``,
``REPLICAOF``, ``DEBUG SEGFAULT``), so for them the rule is the other way round: code whose
every call (Mongo) or whose command (Redis) is a known read passes; anything else asks, with
the call named. A write the SQL rules already judge (``DEL``, ``.drop(``) keeps their reason.
"""

from __future__ import annotations

import re

# Methods of the Mongo shell that read: queries, cursors, statistics, replica-set status.
_MONGO_READS = frozenset({
    "find", "findOne", "count", "countDocuments", "estimatedDocumentCount", "distinct",
    "aggregate", "getCollectionNames", "getCollectionInfos", "getCollection", "getIndexes",
    "getIndexKeys", "stats", "status", "serverStatus", "isMaster", "hello", "printjson",
    "print", "toArray", "limit", "sort", "skip", "pretty", "explain", "getName", "getSiblingDB",
    "version", "hostInfo", "currentOp", "getMongo", "getDBNames", "conf", "config",
    "printReplicationInfo", "printSecondaryReplicationInfo", "getReplicationInfo",
    "printSlaveReplicationInfo", "forEach", "map", "stringify", "parse", "ObjectId", "ISODate",
    "Date", "NumberLong", "NumberInt", "NumberDecimal", "UUID", "tojson", "itcount", "next",
    "hasNext", "size", "getUsers", "getUser", "getRoles", "dataSize", "storageSize",
    "totalIndexSize", "totalSize", "isCapped", "latencyStats", "getShardDistribution",
    "listCollections", "listDatabases", "projection", "batchSize", "maxTimeMS", "hint",
    "collation", "comment", "readPref", "allowDiskUse", "keys", "values", "entries", "log",
    "getProfilingStatus", "getLogComponents", "isWritablePrimary",
    "getDB", "serverBuildInfo", "serverCmdLineOpts", "adminCommand", "runCommand",
    # the language's own words before a parenthesis
    "function", "if", "for", "while", "switch", "catch", "return", "typeof",
})  # fmt: skip
_MONGO_WRITE_STAGES = re.compile(r"\$(out|merge)\b")
# Database commands that only report (db.adminCommand({serverStatus: 1})).
_MONGO_READ_COMMANDS = frozenset({
    "serverstatus", "listdatabases", "ping", "buildinfo", "replsetgetstatus", "getlog",
    "hostinfo", "currentop", "dbstats", "collstats", "listcollections", "getparameter",
    "ismaster", "hello", "connectionstatus", "getcmdlineopts", "top", "features",
    "replsetgetconfig", "listindexes", "count", "find", "aggregate", "distinct",
})  # fmt: skip
_CALL = re.compile(r"([A-Za-z_$][\w$]*)\s*\(")
_FIRST_KEY = re.compile(r"(?:adminCommand|runCommand)\s*\(\s*(?:\{\s*['\"]?(\w+)|['\"](\w+))")


def mongo_write(code: str) -> str | None:
    """The first call of Mongo shell ``code`` that is not a known read, or None."""
    for match in _FIRST_KEY.finditer(code):
        command = (match.group(1) or match.group(2) or "").lower()
        if command not in _MONGO_READ_COMMANDS:
            return f"{match.group(0).split('(')[0]}({command})"
    stage = _MONGO_WRITE_STAGES.search(code)
    if stage is not None:
        return stage.group(0)
    return next((str(name) for name in _CALL.findall(code) if name not in _MONGO_READS), None)


# Redis commands that read (and the two-word ones by their first word, checked further below).
_REDIS_READS = frozenset({
    "get", "mget", "getrange", "strlen", "exists", "type", "ttl", "pttl", "expiretime",
    "keys", "scan", "randomkey", "dbsize", "hget", "hmget", "hgetall", "hkeys", "hvals", "hlen",
    "hexists", "hscan", "hstrlen", "lrange", "llen", "lindex", "lpos", "smembers", "scard",
    "sismember", "smismember", "sscan", "srandmember", "sinter", "sunion", "sdiff", "zrange",
    "zrangebyscore", "zrevrange", "zrevrangebyscore", "zcard", "zscore", "zmscore", "zrank",
    "zrevrank", "zcount", "zscan", "zlexcount", "xrange", "xrevrange", "xlen", "xinfo",
    "xpending", "xread", "info", "ping", "echo", "time", "lastsave", "role", "pubsub",
    "subscribe", "psubscribe", "ssubscribe", "bitcount", "bitpos", "getbit", "pfcount",
    "geopos", "geodist", "geosearch", "georadius_ro", "json.get", "json.type", "ft.search",
    "ft.info", "ft._list", "ts.range", "ts.get", "ts.info", "lolwut", "dump",
})  # fmt: skip
_REDIS_READ_PAIRS = {
    "memory": {"usage", "stats", "doctor", "malloc-stats"},
    "slowlog": {"get", "len"},
    "client": {"list", "info", "getname", "id", "trackinginfo"},
    "config": {"get"},
    "latency": {"latest", "history", "doctor", "graph", "histogram"},
    "command": {"count", "docs", "info", "list", "getkeys"},
    "object": {"encoding", "freq", "idletime", "refcount"},
    "cluster": {"info", "nodes", "slots", "shards", "myid", "countkeysinslot", "keyslot"},
    "acl": {"whoami", "cat", "list", "users"},
    "module": {"list"},
    "function": {"list", "stats"},
    "script": {"exists"},
}
# The client's own read modes: keys sampled or scanned, statistics and latency shown.
REDIS_READ_MODES = frozenset({"--scan", "--bigkeys", "--memkeys", "--hotkeys", "--keystats",
                              "--stat", "--latency", "--latency-history", "--latency-dist",
                              "--intrinsic-latency"})  # fmt: skip
# redis-cli options and the ones among them that take a value.
REDIS_VALUED = frozenset({"-h", "-p", "-a", "-n", "-u", "-s", "-r", "-i", "-d", "-D", "--user",
                          "--pass", "--askpass", "--cacert", "--cacertdir", "--cert", "--key",
                          "--sni", "--pattern", "--count", "--intrinsic-latency", "--eval",
                          "--rdb", "--functions-rdb", "--memkeys-samples", "--quoted-pattern",
                          "-3"})  # fmt: skip
# Modes that send or stream beyond one read: the whole data set to a file, every write of
# the server, commands from stdin, a Lua script.
_REDIS_MODES = frozenset({"--rdb", "--functions-rdb", "--replica", "--pipe", "--eval", "-x",
                          "monitor"})  # fmt: skip


def redis_command(args: tuple[str, ...]) -> list[str]:
    """The command words a redis-cli call sends (its options and their values left out)."""
    words: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        if not words and word.startswith("-"):
            index += 2 if word in REDIS_VALUED else 1
            continue
        words.append(word)
        index += 1
    return words


def redis_write(args: tuple[str, ...]) -> str | None:
    """What a redis-cli call does that is not a known read, or None."""
    mode = next((a for a in args if a in _REDIS_MODES or a.lower() == "monitor"), None)
    if mode is not None:
        return mode
    words = redis_command(args)
    if not words:
        return None  # --scan, --bigkeys, --stat, --latency: the client's own read modes
    first = words[0].lower()
    if first in _REDIS_READS:
        return None
    pair = _REDIS_READ_PAIRS.get(first)
    if pair is not None and len(words) > 1 and words[1].lower() in pair:
        return None
    return " ".join(words[:2])
