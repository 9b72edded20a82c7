-- The gap-safe readers' horizon without the backend scan when it cannot change the answer.
--
-- tablehall_read_horizon() (0003) excludes other databases' xids, which takes a scan of every
-- backend's status (pg_stat_get_activity): 0.3-1.8 ms a call here, paid by every read_all of
-- every follower (projections, the live hub, the publisher, the timer), several times a move.
--
-- The snapshot's own lowest running xid (else its xmax) is a horizon too, only a lower one: no
-- transaction below it is running, of any database. Reading `position > after ... LIMIT lim`
-- below it returns the same rows as below the per-database horizon whenever none of the first
-- `lim` visible rows after `after` has a tx_id at or above it (a row the lower horizon would hold
-- back); only then is the backend scan made. The rows read are always 0003's, so the reading rule
-- of 0001 holds unchanged.
--
-- PL/pgSQL, not SQL: a session plans its statements once (an SQL function's body is planned at
-- every call, which cost as much as the scan it saves). STABLE: it runs in the caller's snapshot,
-- the one pg_current_snapshot() returns and the caller's rows are read with.
CREATE FUNCTION tablehall_read_horizon_after(after bigint, lim integer) RETURNS xid8 LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    snap pg_snapshot := pg_current_snapshot();
    low xid8;
BEGIN
    SELECT least(pg_snapshot_xmax(snap), min(running.xid)) INTO low FROM pg_snapshot_xip(snap) AS running(xid);
    IF EXISTS (
        SELECT 1 FROM (SELECT e.tx_id FROM events e WHERE e.position > after ORDER BY e.position LIMIT lim) AS first_rows
         WHERE first_rows.tx_id >= low
    ) THEN
        RETURN tablehall_read_horizon();
    END IF;
    RETURN low;
END
$fn$;
