// The PostgreSQL store's schema, created at start when it is missing. Every
// statement is idempotent, and the whole runs under an advisory lock, so
// replicas starting together create it once. SCHEMA_VERSION names what this
// build expects; a database that holds a newer version (written by a newer
// build) is refused rather than misread.
//
//   plantstore_plants        one row per item of every resource: its place
//                            (the resource's key, '' for the plant resource,
//                            and its parent's key, '' at the top level) and
//                            its id (text: an integer id's decimal digits,
//                            a string id as sent), which together are the
//                            primary key, so the duplicate rule holds
//                            across replicas; the order of storing, the item
//                            as the JSON the API answers, its bytes as
//                            plantBytes() counts them
//   plantstore_usage_shards  USAGE_SHARDS rows: the items and bytes counted
//                            on each shard, and each shard's slice of the
//                            caps (docs/replicas.md says why the caps stay
//                            exact); an item is counted on the shard of its id
//   plantstore_counters      one row per resource whose ids the server
//                            assigns: the next number of its sequence
//   plantstore_schema        one row: the schema's version
//
// The text columns compare byte by byte (COLLATE "C"): an id is equal to
// itself only, whatever the database's locale, the comparisons cost a
// memcmp, and the items under a parent (`/1`, `/1/…`) are one range of the
// primary key.
//
// Version 1 counted every plant on one row, plantstore_usage, which every
// create of every replica locked until it committed. MIGRATE moves its count
// onto shard 0 and drops it, so that a server of version 1 still running
// fails (503) instead of counting beside the shards. Version 2 kept plants
// only, by a bigint id: MIGRATE makes its rows the plant resource's
// top-level items (resource and parent ''), its ids their decimal text, and
// drops version 2's functions, so that a server of version 2 still running
// fails (503) instead of writing beside the places.

export const SCHEMA_VERSION = 3;

/** Rows the usage is counted on: creates of ids on different shards never wait for each other's commit. */
export const USAGE_SHARDS = 32;

/** A key of ours for pg_advisory_xact_lock: replicas starting at once take turns creating the schema. */
export const SCHEMA_LOCK_KEY = 7_140_517_001;

/** The tables, in their newest shape (MIGRATE brings an older one to it; CREATE_FUNCTIONS follows both). */
export const CREATE_TABLES = `
CREATE TABLE IF NOT EXISTS plantstore_schema (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  version integer NOT NULL
);
CREATE TABLE IF NOT EXISTS plantstore_plants (
  resource text COLLATE "C" NOT NULL DEFAULT '',
  parent text COLLATE "C" NOT NULL DEFAULT '',
  id text COLLATE "C" NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  -- The item as the JSON text the API echoes: JSON escapes what a text
  -- column cannot hold (NUL, lone surrogates), so it comes back exactly.
  plant text NOT NULL,
  bytes bigint NOT NULL,
  PRIMARY KEY (resource, parent, id)
);
CREATE TABLE IF NOT EXISTS plantstore_counters (
  resource text COLLATE "C" PRIMARY KEY,
  next bigint NOT NULL
);
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
`;

/** The indexes and functions, once the tables have their newest shape. */
export const CREATE_FUNCTIONS = `
-- A page of one place's items, in the order stored.
CREATE INDEX IF NOT EXISTS plantstore_plants_place_seq ON plantstore_plants (resource, parent, seq);

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

-- The shard an id is counted on (only the shards' sum means anything: any
-- spread does). Version 2's, of a bigint id, is dropped by MIGRATE.
CREATE OR REPLACE FUNCTION plantstore_shard(p_id text) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT ((hashtext(p_id)::bigint % ${USAGE_SHARDS} + ${USAGE_SHARDS}) % ${USAGE_SHARDS})::integer
$$;

-- Several creates in one statement, so in one transaction and one commit
-- (server/store/postgres-batch.ts); each one's outcome, in their order. Every
-- item is inserted first, in the order of its place and id, then counted,
-- in the order of the shards: a batch waits for an item's row (a create of
-- the same id in another batch) only while it holds no shard, and takes
-- shards in ascending order, so no two batches wait for each other in a
-- circle. The insert decides the duplicate rule (the primary key; ON
-- CONFLICT DO NOTHING waits for a concurrent insert of the same id and then
-- finds it taken); a create that does not fit the caps takes its row back
-- before it commits, so no one ever sees it. The store sends no two creates
-- of one id of one place in one batch (the second would find the first's
-- row, which a refusal by the caps then takes back).
CREATE OR REPLACE FUNCTION plantstore_create_batch(p_resources text[], p_parents text[], p_ids text[], p_plants text[], p_bytes bigint[], p_max_plants bigint, p_max_bytes bigint, p_fast boolean)
RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  results text[] := array_fill('exists'::text, ARRAY[cardinality(p_ids)]);
  i bigint;
BEGIN
  FOR i IN SELECT n FROM unnest(p_resources, p_parents, p_ids) WITH ORDINALITY AS u (resource, parent, id, n)
           ORDER BY resource COLLATE "C", parent COLLATE "C", id COLLATE "C", n LOOP
    INSERT INTO plantstore_plants (resource, parent, id, plant, bytes) VALUES (p_resources[i], p_parents[i], p_ids[i], p_plants[i], p_bytes[i])
      ON CONFLICT (resource, parent, id) DO NOTHING;
    IF FOUND THEN
      results[i] := 'created';
    END IF;
  END LOOP;
  FOR i IN SELECT n FROM unnest(p_ids) WITH ORDINALITY AS u (id, n) WHERE results[n] = 'created' ORDER BY plantstore_shard(id), n LOOP
    IF NOT plantstore_count(plantstore_shard(p_ids[i]), 1, p_bytes[i], p_max_plants, p_max_bytes, p_fast) THEN
      DELETE FROM plantstore_plants WHERE resource = p_resources[i] AND parent = p_parents[i] AND id = p_ids[i];
      results[i] := 'full';
    END IF;
  END LOOP;
  RETURN results;
END $$;
`;

/**
 * Version 1's one usage row, onto shard 0 (its slice: what it counted, so no
 * slice is over its count), then gone. Version 2's table of plants by a
 * bigint id, into places: its rows the plant resource's top-level items,
 * its ids their decimal text (the key the server makes of an integer id),
 * and its functions of a bigint id dropped.
 */
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
  IF EXISTS (SELECT 1 FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = 'plantstore_plants' AND column_name = 'id' AND data_type = 'bigint') THEN
    LOCK TABLE plantstore_plants IN ACCESS EXCLUSIVE MODE;
    ALTER TABLE plantstore_plants DROP CONSTRAINT plantstore_plants_pkey;
    ALTER TABLE plantstore_plants
      ALTER COLUMN id TYPE text COLLATE "C" USING id::text,
      ADD COLUMN resource text COLLATE "C" NOT NULL DEFAULT '',
      ADD COLUMN parent text COLLATE "C" NOT NULL DEFAULT '';
    ALTER TABLE plantstore_plants ADD PRIMARY KEY (resource, parent, id);
    DROP INDEX IF EXISTS plantstore_plants_seq;
    -- The usage stays as counted: an item is now counted down on the shard of its id's text, and only the shards' sum means anything.
    DROP FUNCTION IF EXISTS plantstore_create(bigint, text, bigint, bigint, bigint, boolean);
    DROP FUNCTION IF EXISTS plantstore_create_batch(bigint[], text[], bigint[], bigint, bigint, boolean);
    DROP FUNCTION IF EXISTS plantstore_shard(bigint);
  END IF;
END $$;
`;
