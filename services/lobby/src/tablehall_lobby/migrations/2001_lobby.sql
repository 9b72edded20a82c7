-- The lobby's own tables (the event store's schema comes first).

-- Read model of tables for listing and for fast loading: the lobby's state
-- of each table folded up to `version` of its stream. Updated right after
-- each lobby append, only ever forward (a row never goes back in version).
CREATE TABLE IF NOT EXISTS lobby_tables (
    table_id        text PRIMARY KEY,
    game            text NOT NULL,
    status          text NOT NULL,
    private         boolean NOT NULL,
    spectators_allowed boolean NOT NULL,
    seat_count      integer NOT NULL,
    seats_taken     integer NOT NULL,
    host_user_id    text NOT NULL,
    created_at_ms   bigint NOT NULL,
    version         bigint NOT NULL,
    state           jsonb NOT NULL,
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS lobby_tables_listing ON lobby_tables (status, created_at_ms DESC, table_id DESC);

-- A private table's PIN, hashed (PBKDF2-SHA256 with a per-table salt). Never
-- in an event, a listing or a log.
CREATE TABLE IF NOT EXISTS lobby_secrets (
    table_id    text PRIMARY KEY,
    salt        bytea NOT NULL,
    pin_hash    bytea NOT NULL,
    iterations  integer NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- PIN attempts per user and table within the current window (rate limit).
CREATE TABLE IF NOT EXISTS lobby_pin_attempts (
    table_id      text NOT NULL,
    user_id       text NOT NULL,
    attempts      integer NOT NULL,
    window_start  timestamptz NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
