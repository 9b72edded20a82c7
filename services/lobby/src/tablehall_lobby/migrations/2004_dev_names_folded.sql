-- Development names are one user whatever their case: `P4HOST` is `p4host` (issue 30).
-- `folded` (lower case) is unique; a name claimed before in another case than an earlier
-- claim keeps its own exact claim (folded NULL), and nobody can claim a new spelling of it.
ALTER TABLE lobby_dev_names ADD COLUMN IF NOT EXISTS folded text;
UPDATE lobby_dev_names AS d SET folded = lower(d.name)
 WHERE d.folded IS NULL
   AND NOT EXISTS (
       SELECT 1 FROM lobby_dev_names AS e
        WHERE lower(e.name) = lower(d.name)
          AND (e.claimed_at, e.name) < (d.claimed_at, d.name)
   );
CREATE UNIQUE INDEX IF NOT EXISTS lobby_dev_names_folded ON lobby_dev_names (folded);
