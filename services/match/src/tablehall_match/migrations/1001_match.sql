-- The match service's own tables (the event store's schema comes first).

-- A table's secret seed, readable only by the match service until the match
-- ends (then the seed is revealed in the stream's match.Ended event).
CREATE TABLE IF NOT EXISTS match_seeds (
    stream_id   text PRIMARY KEY,
    seed        bytea NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- One writer per table: the match instance holding the lease. A lease that
-- is not renewed expires and another instance takes the table over.
CREATE TABLE IF NOT EXISTS table_leases (
    stream_id   text PRIMARY KEY,
    owner       text NOT NULL,
    address     text NOT NULL,
    expires_at  timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS table_leases_owner ON table_leases (owner);
