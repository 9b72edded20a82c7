-- Development sign-in: each name belongs to the client that claimed it first
-- (sha256 of the secret that client keeps).
CREATE TABLE IF NOT EXISTS lobby_dev_names (
    name         text PRIMARY KEY,
    secret_hash  bytea NOT NULL,
    claimed_at   timestamptz NOT NULL DEFAULT now()
);
