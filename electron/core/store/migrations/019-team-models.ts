import type { Migration } from './types';

/**
 * The team's model library cached on the desk (docs/team.md): a model of a team's library is a
 * row of `models` with its team (`host:port/database`, the team store it came from), its id and
 * its revisions' ids and numbers the team store's, so a desk reads and drafts from it offline and
 * every desk of the team names the same revision. NULL: a model of this desk's own library. A
 * revision of the team's names the member who saved it.
 */
const migration: Migration = {
  version: 19,
  name: 'team-models',
  up(db) {
    db.exec(`
      ALTER TABLE models ADD COLUMN team TEXT CHECK (team IS NULL OR team <> '');
      ALTER TABLE model_revisions ADD COLUMN saved_by TEXT;
      CREATE INDEX models_by_team ON models (team, name COLLATE NOCASE, id);
    `);
  },
};

export default migration;
