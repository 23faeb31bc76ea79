"""The session log: an append-only, durable SQLite event log per session, from which a session
is replayed, inspected and resumed after a crash."""
