import type { TeamMigration } from './types';

/**
 * The team's log written with its plans kept. `team.entry_canonical` and `team.log` were SQL
 * functions that cannot be inlined (a SET clause, SECURITY DEFINER), so every entry parsed and
 * planned their queries again: the chain's trigger took about 0.35 ms of a submission's 0.75 ms
 * on the server. As PL/pgSQL they are planned once per session. The text is the same, character
 * for character (the team's chain is checked against the desk's canonical form); only the
 * language changes.
 */
const migration: TeamMigration = {
  version: 6,
  name: 'log-plans',
  async up(client) {
    await client.query(`
      CREATE OR REPLACE FUNCTION team.entry_canonical(e team.activity) RETURNS text
        LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $f$
        BEGIN
          RETURN '{"at":' || team.json_text(e.at) || ',"desk":' || team.json_text(e.desk)
            || ',"kind":' || team.json_text(e.kind) || ',"member":' || team.json_text(e.member::text)
            || ',"payload":' || e.payload || ',"seq":' || e.seq
            || ',"strategyId":' || team.json_text(e.strategy_id)
            || ',"versionId":' || team.json_text(e.version_id) || '}';
        END
      $f$;
      CREATE OR REPLACE FUNCTION team.log(desk text, kind text, strategy_id text, payload text)
        RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        BEGIN
          INSERT INTO team.activity (seq, at, member, desk, kind, strategy_id, version_id, payload,
                                     previous_hash, hash)
          VALUES (0, '', session_user, log.desk, log.kind, log.strategy_id, NULL, log.payload,
                  '', '');
        END
      $f$;
    `);
  },
};

export default migration;
