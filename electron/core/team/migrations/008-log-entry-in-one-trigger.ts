import type { TeamMigration } from './types';

/**
 * A log entry's write made cheaper, so a submission reaches the other desks sooner
 * (docs/team.md, "Figures"). Measured per entry on the server with auto_explain:
 *
 * - `team.json_text` was declared IMMUTABLE over `to_json`, which is STABLE, so PostgreSQL never
 *   inlined it: each of its ten calls in a submission ran as a SQL function, its body parsed and
 *   planned again in every transaction. Declared STABLE (what its body is), it is inlined into
 *   the expressions that call it; its text is the same.
 * - The per-day counts of 002 were a second trigger on each entry: an AFTER trigger queued and
 *   fired apart, with its own switch of user and search path. They are now kept by the chain's
 *   trigger, in the same transaction, right after the entry is chained: an entry refused is
 *   never counted, since its transaction fails whole.
 *
 * The entries' text, chain and counts are the same as before, character for character (test
 * `008-log-entry-in-one-trigger.test.ts`).
 */
const migration: TeamMigration = {
  version: 8,
  name: 'log-entry-in-one-trigger',
  async up(client) {
    await client.query(`
      ALTER FUNCTION team.json_text(text) STABLE;

      CREATE OR REPLACE FUNCTION team.chain_entry() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        DECLARE last record;
        BEGIN
          -- One writer at a time: the chain has one head.
          PERFORM pg_advisory_xact_lock(hashtext('team.activity'));
          SELECT a.seq, a.hash INTO last FROM team.activity a ORDER BY a.seq DESC LIMIT 1;
          NEW.seq := COALESCE(last.seq, 0) + 1;
          NEW.previous_hash := COALESCE(last.hash, repeat('0', 64));
          NEW.member := session_user;
          NEW.at := to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
          IF jsonb_typeof(NEW.payload::jsonb) <> 'object' THEN
            RAISE EXCEPTION 'An activity payload is a JSON object.' USING ERRCODE = '22023';
          END IF;
          NEW.hash := encode(sha256(convert_to(
            NEW.previous_hash || E'\\n' || team.entry_canonical(NEW), 'UTF8')), 'hex');
          -- The filters' counts (002), as the entry is written.
          INSERT INTO team.activity_counts AS c (day, kind, member, strategy_id, entries)
          VALUES (substr(NEW.at, 1, 10), NEW.kind, NEW.member, coalesce(NEW.strategy_id, ''), 1)
          ON CONFLICT (day, kind, member, strategy_id) DO UPDATE SET entries = c.entries + 1;
          INSERT INTO team.activity_totals AS t (kind, member, strategy_id, entries)
          VALUES (NEW.kind, NEW.member, coalesce(NEW.strategy_id, ''), 1)
          ON CONFLICT (kind, member, strategy_id) DO UPDATE SET entries = t.entries + 1;
          RETURN NEW;
        END
      $f$;
      DROP TRIGGER activity_counted ON team.activity;
      DROP FUNCTION team.count_entry();
    `);
  },
};

export default migration;
