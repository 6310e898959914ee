import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore } from '../../../../../electron/core/store';
import { seedStrategy, tempFolder } from '../../../../support/store-fixtures';

describe('migration 020-book-journal-marks', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('takes a file at schema 19 to 20: the book marks a row for a journal write only when its outcome turns unknown or stops being so', () => {
    expect(MIGRATIONS.find((m) => m.version === 20)?.name).toBe('book-journal-marks');
    const path = folder.file();
    const old = openStore(path, { targetVersion: 19 });
    const { profileId, strategyId } = seedStrategy(old);
    old.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(20);
    const raw = new Database(path);
    const bookMarked = () =>
      raw
        .prepare('SELECT 1 FROM book_dirty WHERE profile_id = ? AND strategy_id = ?')
        .get(profileId, strategyId) !== undefined;
    const attentionMarked = () =>
      raw
        .prepare('SELECT 1 FROM attention_dirty WHERE profile_id = ? AND strategy_id = ?')
        .get(profileId, strategyId) !== undefined;
    const clearMarks = () => {
      raw.prepare('DELETE FROM book_dirty').run();
      raw.prepare('DELETE FROM attention_dirty').run();
    };
    const journal = () =>
      store.journal.create({
        profileId,
        strategyId,
        idempotencyKey: randomUUID(),
        requestBody: '{}',
      });

    // Journaled, sent, accepted: nothing the row shows moved. The queue still hears each write.
    clearMarks();
    const accepted = journal();
    expect([bookMarked(), attentionMarked()]).toEqual([false, true]);
    clearMarks();
    store.journal.markSent(accepted.id);
    expect([bookMarked(), attentionMarked()]).toEqual([false, true]);
    clearMarks();
    store.journal.markAccepted(accepted.id, { versionId: randomUUID(), location: null });
    expect([bookMarked(), attentionMarked()]).toEqual([false, true]);

    // An outcome turned unknown: the row's flag moves, so it is marked; and again when the
    // manager dismisses it.
    const unclear = journal();
    store.journal.markSent(unclear.id);
    clearMarks();
    store.journal.markUnknown(unclear.id, 'The service did not answer.');
    expect(bookMarked()).toBe(true);
    expect(store.book.hasUnknownExecution(profileId, strategyId)).toBe(true);
    clearMarks();
    store.journal.markDismissed(unclear.id);
    expect(bookMarked()).toBe(true);
    expect(store.book.hasUnknownExecution(profileId, strategyId)).toBe(false);

    // An unknown entry removed (its profile's history cleared) moves the flag too; a settled one
    // does not.
    const again = journal();
    store.journal.markSent(again.id);
    store.journal.markUnknown(again.id, 'The service did not answer.');
    clearMarks();
    raw.prepare('DELETE FROM execution_journal WHERE id = ?').run(accepted.id);
    expect(bookMarked()).toBe(false);
    raw.prepare('DELETE FROM execution_journal WHERE id = ?').run(again.id);
    expect(bookMarked()).toBe(true);
    raw.close();
    store.close();
  });
});
