"""PostgreSQL implementations of the store protocols (psycopg 3 and psycopg_pool).

:mod:`.db` holds the pool and the reconnecting transaction; :mod:`.schema` the append-only
migration runner; :mod:`.log`, :mod:`.memory` and :mod:`.leases` the stores. Open them
through :func:`workset.stores.open_store` with a ``postgresql://`` URL.
"""
