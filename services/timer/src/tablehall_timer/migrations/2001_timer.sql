-- The timer service's own tables (the event store's schema comes first).

-- One firing instance per table: the timer instance holding the lease fires
-- the table's deadlines and closes it when idle. A lease that is not renewed
-- expires and another instance takes the table over (and fires what fell due).
CREATE TABLE IF NOT EXISTS timer_leases (
    stream_id   text PRIMARY KEY,
    owner       text NOT NULL,
    expires_at  timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS timer_leases_owner ON timer_leases (owner);
