import type { Migration } from './types';

/**
 * A failed or partly failed execution needs the manager's attention until they acknowledge it:
 * an executed version that ended FAILED, or that has a FAILED order, counts in the status bar and
 * on its strategy's dot until a row here says the manager saw it. The two partial indexes hold
 * only the failed versions and failed orders (few), so the status bar's count reads them alone.
 */
const migration: Migration = {
  version: 8,
  name: 'failures-acknowledged',
  up(db) {
    db.exec(`
      CREATE TABLE version_failures_acknowledged (
        profile_id TEXT NOT NULL,
        version_id TEXT NOT NULL,
        acknowledged_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, version_id),
        FOREIGN KEY (profile_id, version_id)
          REFERENCES versions (profile_id, id) ON DELETE CASCADE
      ) WITHOUT ROWID;
      CREATE INDEX versions_failed ON versions (profile_id, id, strategy_id)
        WHERE status = 'FAILED' AND executed_at IS NOT NULL;
      CREATE INDEX orders_failed ON orders (profile_id, version_id) WHERE status = 'FAILED';
    `);
  },
};

export default migration;
