-- The gap-safe readers' horizon, per database.
--
-- Rule (see 0001): a reader returns only rows whose tx_id is below a horizon H
-- such that every transaction of THIS database with an xid below H has ended as
-- of the reader's snapshot. pg_snapshot_xmin(pg_current_snapshot()) is such an
-- H, but cluster-wide: a transaction left open in another database of the same
-- server (it can never write this database's events) held every reader back.
--
-- H here is the lowest in-progress xid of the reader's snapshot that is not
-- known to belong to another database, else the snapshot's xmax. An xid is known
-- foreign when a backend of another database (or a prepared transaction of
-- another database) shows it as its xid. The scan of the backends runs after the
-- snapshot was taken, so an xid that ended in between is not seen at all: it is
-- then counted as ours (conservative: it only holds the horizon until the next
-- read). A backend's database never changes, so an xid of this database is never
-- taken for foreign; a stale view of the backends (cached for the transaction)
-- is therefore still sound. Every xid of this database below H has ended as of
-- the snapshot, so its rows are visible to the same statement.
--
-- STABLE on purpose: the function runs in the caller's statement snapshot,
-- which is the one pg_current_snapshot() returns and the one the caller's
-- `WHERE tx_id < tablehall_read_horizon()` reads with.
CREATE FUNCTION tablehall_read_horizon() RETURNS xid8 LANGUAGE sql STABLE AS $fn$
    WITH snap AS (SELECT pg_current_snapshot() AS s),
    foreign_xids AS (
        SELECT a.backend_xid AS x
          FROM pg_stat_get_activity(NULL::integer) AS a
         WHERE a.backend_xid IS NOT NULL
           AND a.datid IS DISTINCT FROM (SELECT d.oid FROM pg_database d WHERE d.datname = current_database())
        UNION ALL
        SELECT p.transaction FROM pg_prepared_xacts p WHERE p.database <> current_database()
    )
    SELECT least(
        pg_snapshot_xmax(snap.s),
        -- NOT EXISTS, not NOT IN: a NULL among the foreign xids must never hide one of ours
        (SELECT min(running.xid) FROM pg_snapshot_xip(snap.s) AS running(xid)
          WHERE NOT EXISTS (SELECT 1 FROM foreign_xids f WHERE f.x = running.xid::xid))
    )
      FROM snap
$fn$;
