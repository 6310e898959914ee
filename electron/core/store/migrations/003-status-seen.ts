import type { Migration } from './types';

/**
 * When the app first saw each status of a version (live while tracking, or when it read the
 * version), so the step line keeps its times across reloads and restarts. Only statuses
 * actually seen have a row: a step without one did not happen as far as the app knows.
 */
const migration: Migration = {
  version: 3,
  name: 'status-seen',
  up(db) {
    db.exec(`
      CREATE TABLE version_status_seen (
        profile_id TEXT NOT NULL,
        version_id TEXT NOT NULL,
        status TEXT NOT NULL,
        first_seen_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, version_id, status),
        FOREIGN KEY (profile_id, version_id)
          REFERENCES versions (profile_id, id) ON DELETE CASCADE
      ) WITHOUT ROWID;
    `);
  },
};

export default migration;
