-- Event store schema: events, streams (version + hash-chain head), commands
-- (idempotency), snapshots, publisher checkpoints, and the append function.

CREATE TABLE events (
    -- Global order. Allocated only inside tablehall_append's short critical
    -- section so that position order equals transaction-id order (see below).
    position       bigint      NOT NULL PRIMARY KEY,
    event_id       uuid        NOT NULL DEFAULT gen_random_uuid() UNIQUE,
    stream_id      text        NOT NULL,
    version        integer     NOT NULL CHECK (version > 0),
    tx_id          xid8        NOT NULL,
    type           text        NOT NULL,
    schema_version integer     NOT NULL,
    -- json (not jsonb) keeps the caller's exact bytes: reads need no
    -- re-serialisation and the hash chain can be checked client-side.
    payload        json        NOT NULL,
    metadata       jsonb       NOT NULL DEFAULT '{}'::jsonb,
    recorded_at    timestamptz NOT NULL DEFAULT now(),
    prev_hash      text,
    hash           text        NOT NULL,
    -- Backstop for optimistic concurrency; the streams row lock is the primary guard.
    CONSTRAINT events_stream_version UNIQUE (stream_id, version)
);

CREATE SEQUENCE events_position_seq AS bigint OWNED BY events.position;

CREATE TABLE streams (
    stream_id  text    NOT NULL PRIMARY KEY,
    version    integer NOT NULL,
    last_hash  text
);

CREATE TABLE commands (
    command_id     text        NOT NULL PRIMARY KEY,
    stream_id      text        NOT NULL,
    first_version  integer     NOT NULL,
    last_version   integer     NOT NULL,
    first_position bigint      NOT NULL,
    last_position  bigint      NOT NULL,
    recorded_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE snapshots (
    stream_id      text        NOT NULL,
    version        integer     NOT NULL,
    state_type     text        NOT NULL,
    schema_version integer     NOT NULL,
    payload        bytea       NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (stream_id, version)
);

CREATE TABLE publisher_checkpoints (
    name       text        NOT NULL PRIMARY KEY,
    position   bigint      NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- Appends one or more requests (flattened arrays; p_counts[i] events for
-- request i) in the caller's transaction. Returns one row per request:
-- status 0 = appended, 1 = version conflict (nothing written), 2 = duplicate
-- command id (the original result is returned).
--
-- Gap safety: readers return only rows with tx_id < xmin of their snapshot.
-- That is only sound if no in-flight transaction can hold a position lower
-- than a committed one from an older xid, so the xid is assigned and all
-- positions are drawn together under a session advisory lock held for
-- microseconds (not until commit): position order == xid order.
CREATE FUNCTION tablehall_append(
    p_streams         text[],
    p_expected        integer[],
    p_commands        text[],
    p_counts          integer[],
    p_types           text[],
    p_schema_versions integer[],
    p_payloads        text[],
    p_metadata        text[]
) RETURNS TABLE (
    idx            integer,
    stream_id      text,
    status         smallint,
    first_version  integer,
    last_version   integer,
    first_position bigint,
    last_position  bigint,
    actual_version integer
) LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    v_total     integer := coalesce(array_length(p_types, 1), 0);
    v_nreq      integer := coalesce(array_length(p_streams, 1), 0);
    v_tx        xid8;
    v_positions bigint[];
    v_offsets   integer[] := '{}';
    v_off       integer := 0;
    v_pos_i     integer := 0;
    v_order     integer[];
    v_i         integer;
    v_n         integer;
    v_stream    text;
    v_expected  integer;
    v_cmd       text;
    v_current   integer;
    v_hash      text;
    v_prevs     text[];
    v_hashes    text[];
    v_pos       bigint[];
    v_k         integer;
    r           record;
BEGIN
    IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
        RAISE EXCEPTION 'tablehall_append must be the first write of its transaction (gap-safe ordering)'
            USING ERRCODE = 'TH001';
    END IF;

    BEGIN
        PERFORM pg_advisory_lock(7310411);
        v_tx := pg_current_xact_id();
        IF v_total = 1 THEN  -- the common case, without a query
            v_positions := ARRAY[nextval('events_position_seq')];
        ELSE
            SELECT array_agg(nextval('events_position_seq') ORDER BY g)
              INTO v_positions FROM generate_series(1, v_total) AS g;
        END IF;
        PERFORM pg_advisory_unlock(7310411);
    EXCEPTION WHEN OTHERS THEN
        -- e.g. a cancel landing inside the critical section: never leak the lock.
        PERFORM pg_advisory_unlock(7310411);
        RAISE;
    END;

    FOR v_i IN 1 .. v_nreq LOOP
        v_offsets := v_offsets || v_off;
        v_off := v_off + p_counts[v_i];
    END LOOP;

    -- Lock streams in a fixed order (stream id, then request order) so
    -- concurrent batches cannot deadlock and same-stream requests chain.
    IF v_nreq = 1 THEN
        v_order := ARRAY[1];
    ELSE
        SELECT array_agg(o.i ORDER BY p_streams[o.i] COLLATE "C", o.i) INTO v_order
          FROM generate_series(1, v_nreq) AS o(i);
    END IF;

    FOREACH v_i IN ARRAY coalesce(v_order, '{}') LOOP
        v_stream := p_streams[v_i];
        v_expected := p_expected[v_i];
        v_cmd := p_commands[v_i];
        v_n := p_counts[v_i];
        idx := v_i - 1;
        stream_id := v_stream;
        first_version := NULL; last_version := NULL; first_position := NULL;
        last_position := NULL; actual_version := NULL;

        IF v_cmd IS NOT NULL THEN
            SELECT * INTO r FROM commands c WHERE c.command_id = v_cmd;
            IF FOUND THEN
                status := 2; stream_id := r.stream_id;
                first_version := r.first_version; last_version := r.last_version;
                first_position := r.first_position; last_position := r.last_position;
                RETURN NEXT;
                CONTINUE;
            END IF;
        END IF;

        v_hash := NULL;
        v_current := 0;
        IF v_expected > 0 THEN
            SELECT s.version, s.last_hash INTO v_current, v_hash
              FROM streams s WHERE s.stream_id = v_stream FOR UPDATE;
            v_current := coalesce(v_current, 0);
        END IF;

        IF v_current = v_expected THEN
            -- Hash chain: hash = sha256(prev_hash || '\n' || type || '\n' || payload), hex.
            v_prevs := '{}'; v_hashes := '{}';
            FOR v_k IN v_offsets[v_i] + 1 .. v_offsets[v_i] + v_n LOOP
                v_prevs := v_prevs || v_hash;
                v_hash := encode(sha256(convert_to(
                    coalesce(v_hash, '') || E'\n' || p_types[v_k] || E'\n' || p_payloads[v_k], 'UTF8')), 'hex');
                v_hashes := v_hashes || v_hash;
            END LOOP;
            IF v_expected = 0 THEN
                -- Waits for a concurrent creator; does nothing if the stream exists.
                INSERT INTO streams AS s (stream_id, version, last_hash) VALUES (v_stream, v_n, v_hash)
                    ON CONFLICT (stream_id) DO NOTHING;
                IF NOT FOUND THEN
                    SELECT s.version INTO v_current FROM streams s WHERE s.stream_id = v_stream;
                END IF;
            ELSE
                UPDATE streams s SET version = v_expected + v_n, last_hash = v_hash
                 WHERE s.stream_id = v_stream;
            END IF;
        END IF;

        IF v_current <> v_expected THEN
            -- A concurrent retry of the same command may have committed while we waited.
            IF v_cmd IS NOT NULL THEN
                SELECT * INTO r FROM commands c WHERE c.command_id = v_cmd;
                IF FOUND THEN
                    status := 2; stream_id := r.stream_id;
                    first_version := r.first_version; last_version := r.last_version;
                    first_position := r.first_position; last_position := r.last_position;
                    RETURN NEXT;
                    CONTINUE;
                END IF;
            END IF;
            status := 1; actual_version := v_current;
            RETURN NEXT;
            CONTINUE;
        END IF;

        v_pos := v_positions[v_pos_i + 1 : v_pos_i + v_n];
        v_pos_i := v_pos_i + v_n;

        v_k := v_offsets[v_i];
        IF v_n = 1 THEN
            INSERT INTO events (position, stream_id, version, tx_id, type, schema_version,
                                payload, metadata, prev_hash, hash)
            VALUES (v_pos[1], v_stream, v_expected + 1, v_tx, p_types[v_k + 1],
                    p_schema_versions[v_k + 1], p_payloads[v_k + 1]::json,
                    coalesce(p_metadata[v_k + 1], '{}')::jsonb, v_prevs[1], v_hashes[1]);
        ELSE
            INSERT INTO events (position, stream_id, version, tx_id, type, schema_version,
                                payload, metadata, prev_hash, hash)
            SELECT v_pos[g], v_stream, v_expected + g, v_tx, p_types[v_k + g],
                   p_schema_versions[v_k + g], p_payloads[v_k + g]::json,
                   coalesce(p_metadata[v_k + g], '{}')::jsonb, v_prevs[g], v_hashes[g]
              FROM generate_series(1, v_n) AS g;
        END IF;

        IF v_cmd IS NOT NULL THEN
            INSERT INTO commands (command_id, stream_id, first_version, last_version,
                                  first_position, last_position)
            VALUES (v_cmd, v_stream, v_expected + 1, v_expected + v_n, v_pos[1], v_pos[v_n]);
        END IF;

        status := 0; first_version := v_expected + 1; last_version := v_expected + v_n;
        first_position := v_pos[1]; last_position := v_pos[v_n];
        RETURN NEXT;
    END LOOP;
END;
$fn$;
