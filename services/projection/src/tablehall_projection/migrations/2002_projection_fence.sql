-- A generation per read model, bumped by every rebuild and retry: a process
-- whose caches were filled at another (position, generation) drops them.
ALTER TABLE projection_checkpoints ADD COLUMN IF NOT EXISTS generation bigint NOT NULL DEFAULT 0;

-- Tables a read model could not apply: their events are skipped (every other
-- table goes on) until an operator retries them.
CREATE TABLE IF NOT EXISTS projection_quarantine (
    name        text        NOT NULL,
    stream_id   text        NOT NULL,
    position    bigint      NOT NULL,
    version     integer     NOT NULL,
    error       text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (name, stream_id)
);
