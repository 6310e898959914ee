import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../../electron/core/api/errors';
import { isOwnFault } from '../../../../electron/core/batches/outcomes';
import { StoppedBeforeSending } from '../../../../electron/core/batches/send-run';
import { ExecutionBlockedError } from '../../../../electron/core/execution/errors';
import { StoreError } from '../../../../electron/core/store/errors';

/** A real SQLite error: a write refused by a trigger, as a failing store refuses one. */
function sqliteError(): Promise<unknown> {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE t (x); CREATE TRIGGER no BEFORE INSERT ON t
    BEGIN SELECT RAISE(ABORT, 'refused'); END`);
  const insert = db.prepare('INSERT INTO t VALUES (1)');
  return Promise.resolve()
    .then(() => insert.run())
    .then(
      () => null,
      (e: unknown) => e,
    );
}

describe('isOwnFault: what stops a batch, and what is only its item', () => {
  it('is the store, SQLite or the disk refusing a write', async () => {
    expect(isOwnFault(await sqliteError())).toBe(true);
    expect(isOwnFault(new StoreError('store-damaged', 'The data file cannot be read.'))).toBe(true);
    expect(isOwnFault(Object.assign(new Error('no space'), { code: 'ENOSPC' }))).toBe(true);
  });

  it('is not the service, a check or the batch stopping', () => {
    expect(isOwnFault(new ServiceError({ kind: 'network', message: 'reset' }))).toBe(false);
    expect(isOwnFault(new ExecutionBlockedError('sent'))).toBe(false);
    expect(isOwnFault(new StoppedBeforeSending('Cancelled before it was sent.'))).toBe(false);
    expect(isOwnFault(new Error('plain'))).toBe(false);
  });
});
