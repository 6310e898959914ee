import type { Migration } from './types';

/**
 * The status bar asks every few seconds how many versions are rebalancing and when a strategy
 * was last synced: each answer is read from an index instead of a scan of every version and
 * strategy. The partial index holds only the versions still rebalancing (few), in the order the
 * tracker resumes them.
 */
const migration: Migration = {
  version: 5,
  name: 'status-bar-indexes',
  up(db) {
    db.exec(`
      CREATE INDEX versions_rebalancing ON versions (executed_at, id, profile_id)
        WHERE executed_at IS NOT NULL AND status IN ('PENDING', 'CREATING_ORDERS', 'IN_PROGRESS');
      CREATE INDEX strategies_by_synced_at ON strategies (synced_at);
    `);
  },
};

export default migration;
