// The PostgreSQL store's schema, created at start when it is missing. Every
// statement is idempotent, and the whole runs under an advisory lock, so
// replicas starting together create it once. SCHEMA_VERSION names what this
// build expects; a database that holds a newer version (written by a newer
// build) is refused rather than misread.
//
//   plantstore_plants        one row per plant: the id (bigint, the primary
//                            key, so the duplicate rule holds across
//                            replicas), the order of storing, the plant as
//                            the JSON the API echoes, its bytes as
//                            plantBytes() counts them
//   plantstore_usage_shards  USAGE_SHARDS rows: the plants and bytes counted
//                            on each shard, and each shard's slice of the
//                            caps (docs/replicas.md says why the caps stay
//                            exact); a plant is counted on the shard of its id
//   plantstore_schema        one row: the schema's version
//
// Version 1 counted every plant on one row, plantstore_usage, which every
// create of every replica locked until it committed. MIGRATE moves its count
// onto shard 0 and drops it, so that a server of version 1 still running
// fails (503) instead of counting beside the shards.

export const SCHEMA_VERSION = 2;

/** Rows the usage is counted on: creates of ids on different shards never wait for each other's commit. */
export const USAGE_SHARDS = 32;

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
-- plants, bytes: what the shard counted (a shard's count can go below zero
-- where a plant counted on shard 0 by the migration is removed from its own
-- shard: only the sum means anything). plants_slice, bytes_slice: the most
-- the shard may count without looking at the others. max_plants, max_bytes:
-- the caps the slices were cut from, the same on every row; NULL until the
-- first create cuts them.
CREATE TABLE IF NOT EXISTS plantstore_usage_shards (
  shard integer PRIMARY KEY,
  plants bigint NOT NULL DEFAULT 0,
  bytes bigint NOT NULL DEFAULT 0,
  plants_slice bigint NOT NULL DEFAULT 0,
  bytes_slice bigint NOT NULL DEFAULT 0,
  max_plants bigint,
  max_bytes bigint
);
INSERT INTO plantstore_usage_shards (shard) SELECT generate_series(0, ${USAGE_SHARDS - 1}) ON CONFLICT DO NOTHING;

-- Counts a change of (p_plants, p_bytes) on p_shard, within the caps, and
-- answers whether it fit. The fast way (p_fast) locks one row: the shard's
-- count stays within its slice, and the slices add up to the caps (they are
-- cut together, below), so the sum stays within the caps. Where the shard's
-- slice is spent (or was cut from other caps), the fast way raises PSLOW:
-- the caller rolls its transaction back and runs it again the slow way,
-- which locks every shard in the order of its number (holding none before:
-- a failed UPDATE can keep its row locked, hence the rollback, and no
-- deadlock), sums the counts, and refuses the change only when the sum says
-- so; else the free room is cut into new slices, the changed shard taking
-- the change and the remainder. A change that does not grow (a remove, a
-- smaller update) is counted without a check.
DROP FUNCTION IF EXISTS plantstore_create(bigint, text, bigint, bigint, bigint);
CREATE OR REPLACE FUNCTION plantstore_count(p_shard integer, p_plants bigint, p_bytes bigint, p_max_plants bigint, p_max_bytes bigint, p_fast boolean)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF p_plants <= 0 AND p_bytes <= 0 THEN
    UPDATE plantstore_usage_shards SET plants = plants + p_plants, bytes = bytes + p_bytes WHERE shard = p_shard;
    RETURN true;
  END IF;
  IF p_fast THEN
    UPDATE plantstore_usage_shards SET plants = plants + p_plants, bytes = bytes + p_bytes
      WHERE shard = p_shard AND max_plants = p_max_plants AND max_bytes = p_max_bytes
        AND plants + p_plants <= plants_slice AND bytes + p_bytes <= bytes_slice;
    IF FOUND THEN
      RETURN true;
    END IF;
    RAISE EXCEPTION 'the usage shard''s slice is spent: run again the slow way' USING ERRCODE = 'PSLOW';
  END IF;
  RETURN plantstore_cut(p_shard, p_plants, p_bytes, p_max_plants, p_max_bytes);
END $$;

-- The slow way; also called at start with no change, to cut the slices from
-- the server's caps before its first create.
CREATE OR REPLACE FUNCTION plantstore_cut(p_shard integer, p_plants bigint, p_bytes bigint, p_max_plants bigint, p_max_bytes bigint)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  used_plants bigint;
  used_bytes bigint;
  free_plants bigint;
  free_bytes bigint;
BEGIN
  PERFORM 1 FROM plantstore_usage_shards ORDER BY shard FOR UPDATE;
  SELECT sum(plants), sum(bytes) INTO used_plants, used_bytes FROM plantstore_usage_shards;
  free_plants := p_max_plants - used_plants - p_plants;
  free_bytes := p_max_bytes - used_bytes - p_bytes;
  IF (p_plants > 0 AND free_plants < 0) OR (p_bytes > 0 AND free_bytes < 0) THEN
    RETURN false;
  END IF;
  -- Caps lowered below what is stored: no room to cut, and none given.
  free_plants := GREATEST(free_plants, 0);
  free_bytes := GREATEST(free_bytes, 0);
  UPDATE plantstore_usage_shards SET
    plants = plants + CASE WHEN shard = p_shard THEN p_plants ELSE 0 END,
    bytes = bytes + CASE WHEN shard = p_shard THEN p_bytes ELSE 0 END,
    plants_slice = plants + free_plants / ${USAGE_SHARDS} + CASE WHEN shard = p_shard THEN p_plants + free_plants % ${USAGE_SHARDS} ELSE 0 END,
    bytes_slice = bytes + free_bytes / ${USAGE_SHARDS} + CASE WHEN shard = p_shard THEN p_bytes + free_bytes % ${USAGE_SHARDS} ELSE 0 END,
    max_plants = p_max_plants,
    max_bytes = p_max_bytes;
  RETURN true;
END $$;

-- The shard an id is counted on.
CREATE OR REPLACE FUNCTION plantstore_shard(p_id bigint) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT ((p_id % ${USAGE_SHARDS}) + ${USAGE_SHARDS})::integer % ${USAGE_SHARDS}
$$;

-- One create in one statement, so one round trip: the insert decides the
-- duplicate rule (the primary key; ON CONFLICT DO NOTHING waits for a
-- concurrent insert of the same id and then finds it taken), then the caps
-- are checked and counted on the id's shard. A create that does not fit
-- takes its row back before it commits, so no one ever sees it. Version 1's
-- (without p_fast) is dropped above: a server of version 1 still running
-- answers 503 rather than counting beside the shards.
CREATE OR REPLACE FUNCTION plantstore_create(p_id bigint, p_plant text, p_bytes bigint, p_max_plants bigint, p_max_bytes bigint, p_fast boolean)
RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO plantstore_plants (id, plant, bytes) VALUES (p_id, p_plant, p_bytes) ON CONFLICT (id) DO NOTHING;
  IF NOT FOUND THEN
    RETURN 'exists';
  END IF;
  IF NOT plantstore_count(plantstore_shard(p_id), 1, p_bytes, p_max_plants, p_max_bytes, p_fast) THEN
    DELETE FROM plantstore_plants WHERE id = p_id;
    RETURN 'full';
  END IF;
  RETURN 'created';
END $$;

-- Several creates in one statement, so in one transaction and one commit
-- (server/postgres-batch.ts); each one's outcome, in their order. Every
-- plant is inserted first, in the order of the ids, then counted, in the
-- order of the shards: a batch waits for a plant's row (a create of the
-- same id in another batch) only while it holds no shard, and takes shards
-- in ascending order, so no two batches wait for each other in a circle.
-- The store sends no two creates of one id in one batch (the second would
-- find the first's row, which a refusal by the caps then takes back).
CREATE OR REPLACE FUNCTION plantstore_create_batch(p_ids bigint[], p_plants text[], p_bytes bigint[], p_max_plants bigint, p_max_bytes bigint, p_fast boolean)
RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  results text[] := array_fill('exists'::text, ARRAY[cardinality(p_ids)]);
  i bigint;
BEGIN
  FOR i IN SELECT n FROM unnest(p_ids) WITH ORDINALITY AS u (id, n) ORDER BY id, n LOOP
    INSERT INTO plantstore_plants (id, plant, bytes) VALUES (p_ids[i], p_plants[i], p_bytes[i]) ON CONFLICT (id) DO NOTHING;
    IF FOUND THEN
      results[i] := 'created';
    END IF;
  END LOOP;
  FOR i IN SELECT n FROM unnest(p_ids) WITH ORDINALITY AS u (id, n) WHERE results[n] = 'created' ORDER BY plantstore_shard(id), n LOOP
    IF NOT plantstore_count(plantstore_shard(p_ids[i]), 1, p_bytes[i], p_max_plants, p_max_bytes, p_fast) THEN
      DELETE FROM plantstore_plants WHERE id = p_ids[i];
      results[i] := 'full';
    END IF;
  END LOOP;
  RETURN results;
END $$;
`;

/** Version 1's one usage row, onto shard 0 (its slice: what it counted, so no slice is over its count), then gone. */
export const MIGRATE = `
DO $$
BEGIN
  IF to_regclass('plantstore_usage') IS NOT NULL THEN
    LOCK TABLE plantstore_usage IN ACCESS EXCLUSIVE MODE;
    UPDATE plantstore_usage_shards AS shard0 SET plants = shard0.plants + old.plants, bytes = shard0.bytes + old.bytes,
        plants_slice = shard0.plants + old.plants, bytes_slice = shard0.bytes + old.bytes
      FROM plantstore_usage AS old WHERE shard0.shard = 0;
    -- No slice is cut from the caps until the next create cuts them all.
    UPDATE plantstore_usage_shards SET max_plants = NULL, max_bytes = NULL;
    DROP TABLE plantstore_usage;
  END IF;
END $$;
`;
