import type { Migration } from './types';

/**
 * A profile's team (docs/team.md): where its team store is and as whom the desk connects. The
 * member's password is not here: it is in the keychain, like the client secret. A profile
 * without a row has no team, and nothing of the team runs for it.
 */
const migration: Migration = {
  version: 15,
  name: 'team-connections',
  up(db) {
    db.exec(`
      CREATE TABLE team_connections (
        profile_id TEXT PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
        host TEXT NOT NULL CHECK (length(host) > 0),
        port INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
        database TEXT NOT NULL CHECK (length(database) > 0),
        member TEXT NOT NULL CHECK (length(member) > 0),
        ca_file TEXT CHECK (ca_file IS NULL OR length(ca_file) > 0),
        joined_at TEXT NOT NULL
      );
    `);
  },
};

export default migration;
