-- Hash scheme 2: the hash chain covers each event's metadata too (who acted,
-- the recorded command, its draws). Rows written before keep scheme 1
-- (sha256(prev_hash || '\n' || type || '\n' || payload)) and still verify; a
-- stream never goes back from scheme 2 to 1. Only the hashing and the new
-- column differ from 0001's function.

ALTER TABLE events ADD COLUMN IF NOT EXISTS hash_scheme smallint NOT NULL DEFAULT 1;

CREATE OR REPLACE FUNCTION tablehall_append(
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
            -- Hash chain, scheme 2: hash = sha256('2' || '\n' || prev_hash || '\n' || type
            -- || '\n' || payload || '\n' || metadata), hex, where metadata is the
            -- stored jsonb's text (what `metadata::text` reads back).
            v_prevs := '{}'; v_hashes := '{}';
            FOR v_k IN v_offsets[v_i] + 1 .. v_offsets[v_i] + v_n LOOP
                v_prevs := v_prevs || v_hash;
                v_hash := encode(sha256(convert_to(
                    '2' || E'\n' || coalesce(v_hash, '') || E'\n' || p_types[v_k] || E'\n' || p_payloads[v_k]
                    || E'\n' || (coalesce(p_metadata[v_k], '{}')::jsonb)::text, 'UTF8')), 'hex');
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
                                payload, metadata, prev_hash, hash, hash_scheme)
            VALUES (v_pos[1], v_stream, v_expected + 1, v_tx, p_types[v_k + 1],
                    p_schema_versions[v_k + 1], p_payloads[v_k + 1]::json,
                    coalesce(p_metadata[v_k + 1], '{}')::jsonb, v_prevs[1], v_hashes[1], 2);
        ELSE
            INSERT INTO events (position, stream_id, version, tx_id, type, schema_version,
                                payload, metadata, prev_hash, hash, hash_scheme)
            SELECT v_pos[g], v_stream, v_expected + g, v_tx, p_types[v_k + g],
                   p_schema_versions[v_k + g], p_payloads[v_k + g]::json,
                   coalesce(p_metadata[v_k + g], '{}')::jsonb, v_prevs[g], v_hashes[g], 2
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
