import type { Migration } from './types';

/**
 * Why a batch stopped sending, at batch level (docs/batches.md): a fault of the app's own (the
 * store refused a write) or the app stopping while it sent. The batch's words, its notification
 * and its end's activity entry say it; each unsent item keeps its own reason as before. Only a
 * batch that stopped holds one; batches stopped before this version have none.
 */
const migration: Migration = {
  version: 12,
  name: 'batch-stop-reason',
  up(db) {
    db.exec(`
      ALTER TABLE batches ADD COLUMN stop_reason TEXT
        CHECK (stop_reason IS NULL OR (state = 'stopped' AND length(stop_reason) > 0));
    `);
  },
};

export default migration;
