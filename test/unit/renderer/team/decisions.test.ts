import { describe, expect, it } from 'vitest';
import type { SubmissionView } from '../../../../shared/team/contract';
import { DecisionNotices, decisionNotice } from '../../../../renderer/src/team/decisions';
import { fakeApi } from '../fake-api';

/** A submission of alice's as the team store reads it back, decided as the test says. */
function submission(over: Partial<SubmissionView> = {}): SubmissionView {
  return {
    id: '7d7c4a54-1b5e-4f7c-9a3e-2a1d5c6b8e90',
    kind: 'draft',
    subject: 'core-equity',
    title: 'Core Equity — Tilt',
    state: 'approved',
    submittedBy: 'alice',
    submittedFrom: 'desk-a',
    submittedAt: '2026-11-29T09:00:00.000Z',
    decidedBy: 'bob',
    decidedAt: '2026-11-29T09:05:00.000Z',
    note: 'within the band',
    expiresAt: '2026-11-30T09:05:00.000Z',
    positions: [{ symbol: 'VTI', weight: '60' }],
    lines: [],
    ...over,
  };
}

describe('the words of a decision told to the submitter', () => {
  it('names the decision, what was submitted and the note', () => {
    expect(decisionNotice(submission(), 'alice')).toEqual({
      title: 'Approved: Core Equity — Tilt',
      body: 'bob approved your submission: “within the band”. It can be executed as submitted, once.',
    });
    const batch = 'Batch: Balanced (revision 2) for Core Equity, Income';
    expect(
      decisionNotice(
        submission({ kind: 'batch', title: batch, state: 'rejected', note: 'too late today' }),
        'alice',
      ),
    ).toEqual({
      title: `Rejected: ${batch}`,
      body: 'bob rejected your submission: “too late today”. Nothing of it will be sent.',
    });
    expect(decisionNotice(submission({ note: '' }), 'alice')?.body).toBe(
      'bob approved your submission, without a note. It can be executed as submitted, once.',
    );
  });

  it('tells nothing to another member, nor of a submission waiting, used, or decided by oneself', () => {
    expect(decisionNotice(submission(), 'bob')).toBeNull();
    expect(decisionNotice(submission(), 'carol')).toBeNull();
    expect(
      decisionNotice(submission({ state: 'submitted', decidedBy: null, note: null }), 'alice'),
    ).toBeNull();
    expect(decisionNotice(submission({ state: 'used' }), 'alice')).toBeNull();
    expect(decisionNotice(submission({ decidedBy: 'alice' }), 'alice')).toBeNull();
  });
});

describe('the decisions told on a desk', () => {
  it('tells each decision on its own submission once, however many notices name it', async () => {
    let now = submission({ state: 'submitted', decidedBy: null, note: null });
    const fake = fakeApi({
      'team.get': () => ({ team: { member: 'alice' }, desk: 'desk-a' }),
      'team.submission': () => now,
    });
    const told: string[] = [];
    const notices = new DecisionNotices(fake.api, (title, body) => told.push(`${title} | ${body}`));
    const notice = {
      type: 'team-changed',
      profileId: '0b6f2f0e-8d7e-4a49-9a8a-3c1f2e4d5a6b',
      topic: 'submission',
      key: now.id,
      connected: true,
    } as const;
    await notices.apply(notice);
    expect(told).toEqual([]);
    now = submission();
    await Promise.all([notices.apply(notice), notices.apply(notice)]);
    now = submission({ state: 'used' });
    await notices.apply(notice);
    expect(told).toEqual([
      'Approved: Core Equity — Tilt | bob approved your submission: “within the band”. It can be executed as submitted, once.',
    ]);
    // Other notices are not read for it.
    await notices.apply({ ...notice, topic: 'entry', key: '12' });
    expect(fake.channels().filter((c) => c === 'team.submission')).toHaveLength(3);
  });
});
