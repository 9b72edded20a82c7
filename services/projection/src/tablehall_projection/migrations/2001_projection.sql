-- The projection service's read models. Each read model commits its rows and
-- its checkpoint (the last global position applied) in one transaction.

CREATE TABLE IF NOT EXISTS projection_checkpoints (
    name        text        PRIMARY KEY,
    position    bigint      NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- "tables": the lobby list and table summaries.
CREATE TABLE IF NOT EXISTS proj_tables (
    table_id        text        PRIMARY KEY,
    first_position  bigint      NOT NULL,
    status          text        NOT NULL,          -- open | playing | finished
    game            text        NOT NULL DEFAULT '',
    rules_version   text        NOT NULL DEFAULT '',
    seats           jsonb       NOT NULL DEFAULT '[]',
    options         jsonb       NOT NULL DEFAULT '{}',
    version         integer     NOT NULL,
    spectator_delay integer     NOT NULL DEFAULT 0,
    started_at_ms   bigint      NOT NULL DEFAULT 0,
    ended_at_ms     bigint      NOT NULL DEFAULT 0,
    lobby           jsonb       NOT NULL DEFAULT '{}',
    last_event_type text        NOT NULL
);
CREATE INDEX IF NOT EXISTS proj_tables_list ON proj_tables (status, first_position DESC);

-- "journal": the tables' journals; audience NULL = everybody, else the seats.
CREATE TABLE IF NOT EXISTS proj_journal (
    table_id    text     NOT NULL,
    version     integer  NOT NULL,
    idx         smallint NOT NULL,
    code        text     NOT NULL,
    params      jsonb    NOT NULL,
    ru          text     NOT NULL,
    en          text     NOT NULL,
    audience    integer[],
    PRIMARY KEY (table_id, version, idx)
);

-- "standings": a row per change of places (so a delayed spectator reads the
-- places as of its delayed version), and players' finished games.
CREATE TABLE IF NOT EXISTS proj_standings (
    table_id    text     NOT NULL,
    version     integer  NOT NULL,
    places      jsonb    NOT NULL,
    final       boolean  NOT NULL,
    scores      jsonb    NOT NULL DEFAULT '{}',
    PRIMARY KEY (table_id, version)
);

CREATE TABLE IF NOT EXISTS proj_player_games (
    table_id        text    NOT NULL,
    seat            integer NOT NULL,
    user_id         text    NOT NULL,
    game            text    NOT NULL,
    place           integer NOT NULL,
    players         integer NOT NULL,
    reason          text    NOT NULL,
    ended_at_ms     bigint  NOT NULL,
    ended_position  bigint  NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX IF NOT EXISTS proj_player_games_user ON proj_player_games (user_id, ended_position DESC);
