import { describe, expect, it } from 'vitest';
import type { DeletePreview } from '../../../../shared/versions/unexecuted';
import { formatDateTime } from '../../../../renderer/src/lib/format';
import {
  comparisonSummary,
  deleteLabel,
  inTheWayText,
} from '../../../../renderer/src/versions/unexecuted';

const ID = 'a1c3e5f7-9b2d-4f6a-8c0e-3d5b7f9a1c03';
const AT = '2026-12-20T10:00:00.000000Z';

describe('the words for an unexecuted version in the way', () => {
  it('says what is known of it: its schedule once read, that it is unread when only named', () => {
    const known = {
      versionId: ID,
      learnedFrom: 'named' as const,
      learnedAt: AT,
      scheduledFor: null,
      insertedAt: null,
      readAt: null,
    };
    expect(inTheWayText(known)).toBe(
      'An unexecuted version (a1c3e5f7…, named by the service, not read yet) is in the way',
    );
    expect(inTheWayText({ ...known, readAt: AT, scheduledFor: AT })).toBe(
      `An unexecuted version scheduled for ${formatDateTime(AT)} (a1c3e5f7…) is in the way`,
    );
    expect(inTheWayText({ ...known, readAt: AT })).toBe(
      'An unexecuted version (a1c3e5f7…, not scheduled) is in the way',
    );
  });

  it('names the version (and its schedule) on the button that deletes it', () => {
    const base = {
      versionId: ID,
      strategyId: ID,
      strategyName: 'D',
      readAt: AT,
      confirmationKey: 'k',
    };
    const content = {
      id: ID,
      status: 'SCHEDULED' as const,
      cashWeight: '2',
      oldCashWeight: '2',
      scheduledFor: AT,
      executedAt: null,
      insertedAt: AT,
      positions: [],
    };
    const read: DeletePreview = { ...base, state: 'read', content, comparison: null };
    expect(deleteLabel(read, null)).toBe(
      `Delete version a1c3e5f7…, scheduled for ${formatDateTime(AT)}`,
    );
    expect(deleteLabel(read, 'execute')).toBe(
      `Delete version a1c3e5f7…, scheduled for ${formatDateTime(AT)}, and execute this draft`,
    );
    const unread: DeletePreview = {
      ...base,
      state: 'unreadable',
      error: { kind: 'network', message: 'x' },
      lastKnown: null,
    };
    expect(deleteLabel(unread, null)).toBe('Delete version a1c3e5f7… unseen');
  });

  it('sums up how the version and the draft differ', () => {
    const row = (
      symbol: string,
      difference: 'only-version' | 'only-draft' | 'weights-differ' | 'same',
    ) => ({
      symbol,
      versionWeight: '1',
      draftWeight: '1',
      versionAction: null,
      difference,
    });
    const summary = comparisonSummary({
      draftId: ID,
      draftName: 'D',
      rows: [
        row('CVX', 'only-version'),
        row('XOM', 'only-draft'),
        row('KO', 'weights-differ'),
        row('PG', 'same'),
      ],
      cash: { version: '2', draft: '2' },
    });
    expect(summary).toBe(
      'The version targets CVX, which the draft does not; the draft targets XOM, which the version does not; they give KO different weights; 1 other symbol the same.',
    );
  });
});
