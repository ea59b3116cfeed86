// The PostgreSQL store's schema, created at start when it is missing. Every
// statement is idempotent, and the whole runs under an advisory lock, so
// replicas starting together create it once. SCHEMA_VERSION names what this
// build expects; a database that holds a newer version (written by a newer
// build) is refused rather than misread.
//
//   plantstore_plants   one row per plant: the id (bigint, the primary key,
//                       so the duplicate rule holds across replicas), the
//                       order of storing, the plant as the JSON the API
//                       echoes, its bytes as plantBytes() counts them
//   plantstore_usage    one row: the plants and bytes stored, which the caps
//                       are checked against in the same transaction as the
//                       insert
//   plantstore_schema   one row: the schema's version

export const SCHEMA_VERSION = 1;

/** A key of ours for pg_advisory_xact_lock: replicas starting at once take turns creating the schema. */
export const SCHEMA_LOCK_KEY = 7_140_517_001;

export const CREATE_SCHEMA = `
CREATE TABLE IF NOT EXISTS plantstore_schema (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  version integer NOT NULL
);
CREATE TABLE IF NOT EXISTS plantstore_plants (
  id bigint PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  -- The plant as the JSON text the API echoes: JSON escapes what a text
  -- column cannot hold (NUL, lone surrogates), so it comes back exactly.
  plant text NOT NULL,
  bytes bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS plantstore_plants_seq ON plantstore_plants (seq);
CREATE TABLE IF NOT EXISTS plantstore_usage (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  plants bigint NOT NULL,
  bytes bigint NOT NULL
);
INSERT INTO plantstore_usage (plants, bytes) VALUES (0, 0) ON CONFLICT DO NOTHING;

-- One create in one statement, so one round trip: the insert decides the
-- duplicate rule (the primary key; ON CONFLICT DO NOTHING waits for a
-- concurrent insert of the same id and then finds it taken), then the caps
-- are checked and counted on the usage row, whose lock makes concurrent
-- creates count one after the other. A create that does not fit takes its
-- row back before it commits, so no one ever sees it.
CREATE OR REPLACE FUNCTION plantstore_create(p_id bigint, p_plant text, p_bytes bigint, p_max_plants bigint, p_max_bytes bigint)
RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO plantstore_plants (id, plant, bytes) VALUES (p_id, p_plant, p_bytes) ON CONFLICT (id) DO NOTHING;
  IF NOT FOUND THEN
    RETURN 'exists';
  END IF;
  UPDATE plantstore_usage SET plants = plants + 1, bytes = bytes + p_bytes
    WHERE plants + 1 <= p_max_plants AND bytes + p_bytes <= p_max_bytes;
  IF NOT FOUND THEN
    DELETE FROM plantstore_plants WHERE id = p_id;
    RETURN 'full';
  END IF;
  RETURN 'created';
END $$;
`;
