import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore } from '../../../../../electron/core/store';
import type { PredictedPosition } from '../../../../../shared/draft';
import { seedStrategy, tempFolder } from '../../../../support/store-fixtures';

const predicted: PredictedPosition[] = [
  {
    symbol: 'KO',
    weight: '0',
    oldWeight: '10.50',
    action: 'REMOVE',
    doubt: null,
    heldQuantity: '12.000001',
    sellsAll: true,
    heldNotInTarget: false,
    source: 'draft',
    effect: 'sell-held',
  },
];

describe('migration 002-predictions', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('comes after 001 and adds the predictions table to a file at schema 1', () => {
    expect(MIGRATIONS[1]).toMatchObject({ version: 2, name: 'predictions' });
    const path = folder.file();
    openStore(path, { targetVersion: 1 }).close();
    const store = openStore(path);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(2);
    store.close();
    const db = new Database(path, { readonly: true });
    const columns = (db.pragma('table_info(execution_predictions)') as { name: string }[]).map(
      (c) => c.name,
    );
    expect(columns).toEqual([
      'id',
      'profile_id',
      'strategy_id',
      'draft_id',
      'journal_id',
      'request_body',
      'known_version_id',
      'target_state',
      'prediction',
      'version_id',
      'differences',
      'created_at',
      'compared_at',
    ]);
    db.close();
  });

  it('keeps decimals as strings, marks the draft with its version, survives the draft', () => {
    const store = openStore(folder.file());
    const { profileId, strategyId } = seedStrategy(store);
    const draft = store.drafts.create({ profileId, strategyId, name: 'D', rows: [] });
    const record = store.predictions.record({
      profileId,
      strategyId,
      draftId: draft.id,
      requestBody: '{"data":{"positions":[{"symbol":"KO","weight":"0"}]}}',
      knownVersionId: null,
      targetState: 'unknown',
      prediction: predicted,
    });
    expect(store.predictions.get(record.id)?.versionId).toBeNull();
    const versionId = '11111111-2222-4333-8444-555555555555';
    store.predictions.recordAnswer(record.id, versionId, [
      {
        symbol: 'PEP',
        predicted: null,
        service: { action: 'REMOVE', oldWeight: '10', weight: '0' },
      },
    ]);
    expect(store.predictions.get(record.id)?.versionId).toBe(versionId);
    const outcome = store.predictions.forVersion(profileId, versionId)!;
    expect(outcome.prediction).toEqual(predicted);
    expect(outcome.differences?.[0]?.service?.oldWeight).toBe('10');
    store.drafts.delete(draft.id);
    expect(store.predictions.forVersion(profileId, versionId)?.draftId).toBeNull();
    store.close();
  });
});
