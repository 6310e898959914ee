import { describe, expect, it } from 'vitest';
import type { TeamConnections } from '../../../../electron/core/team/connection';
import { TeamGate } from '../../../../electron/core/team/gate';

/**
 * The team gate's writes to the team store, one flush at a time (a fake team store that answers
 * each statement a moment later, as a real one does): an execution recorded and then released
 * while its entry is still being written is written once, before its release.
 */
function fakeTeams() {
  const statements: string[] = [];
  const client = {
    query: async (sql: string) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      statements.push(sql.includes('version.executed') ? 'executed' : 'released');
      return { rows: [] };
    },
  };
  const teams = {
    teamOf: () => ({ profileId: 'p' }),
    deskName: () => 'desk-a',
    withTeam: (_profileId: string, _need: string, work: (c: typeof client) => Promise<unknown>) =>
      work(client),
  } as unknown as TeamConnections;
  return { teams, statements };
}

const claim = { profileId: 'p', strategyId: 's-1', idempotencyKey: 'key-1' };

describe('TeamGate', () => {
  it('writes an execution once and before its release, however the calls overlap', async () => {
    const { teams, statements } = fakeTeams();
    const gate = new TeamGate(teams);
    gate.executed(claim, 'version-1');
    gate.release(claim, 'ended: version version-1 COMPLETE');
    await gate.releaseAll();
    expect(statements).toEqual(['executed', 'released']);
    expect(gate.pendingReleases('p')).toBe(0);
    gate.close();
  });
});
