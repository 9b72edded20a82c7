-- Wrong PINs per table, whatever the identity, and until when PIN entry is
-- closed (epoch ms; the delay doubles with each wrong PIN past the free ones).
CREATE TABLE IF NOT EXISTS lobby_pin_guard (
    table_id         text PRIMARY KEY,
    failures         integer NOT NULL DEFAULT 0,
    locked_until_ms  bigint  NOT NULL DEFAULT 0,
    updated_at       timestamptz NOT NULL DEFAULT now()
);
