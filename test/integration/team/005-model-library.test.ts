import { describe, expect } from 'vitest';
import type { Client } from 'pg';
import { canonicalText } from '../../../shared/models/canonical';
import { revisionHash } from '../../../electron/core/models/hash';
import { itWithPostgres as it, useTeamDatabase } from '../../support/team-cluster';

// Migration 005 of the team store: the model library's rules tried in raw SQL with each member's
// own credentials, as a member at psql would.

const team = useTeamDatabase();
const db = () => team.current!;

const MODEL = '6d1f3c1e-0a8b-4c1e-9a1e-1f2b3c4d5e6f';
const ROWS = [
  { symbol: 'msft', weight: '30' },
  { symbol: 'AAPL', weight: '20.50' },
];

describe('migration 005: the team’s model library', () => {
  it('names and saves a model only for a model admin, on the revision it was edited from', async () => {
    await db().addMember('alice', ['drafter', 'trader']);
    await db().addMember('carol', ['model-admin']);
    await db().addMember('dan', ['model-admin']);
    const alice = await db().as('alice');
    const carol = await db().as('carol');
    const dan = await db().as('dan');
    const name = (who: Client) =>
      who.query("SELECT team.save_model($1, 'Growth', 'Large caps', 'desk-c')", [MODEL]);
    const save = (who: Client, basedOn: string | null, canonical: string, note = '') =>
      who
        .query<{ id: string }>(
          "SELECT team.save_model_revision($1, $2, $3, $4, NULL, 'desk-c') AS id",
          [MODEL, basedOn, canonical, note],
        )
        .then((r) => r.rows[0]!.id);

    await expect(name(alice)).rejects.toMatchObject({ code: '42501' });
    await expect(save(carol, null, canonicalText(ROWS))).rejects.toMatchObject({ code: 'DK008' });
    await name(carol);
    await expect(save(alice, null, canonicalText(ROWS))).rejects.toMatchObject({ code: '42501' });
    const first = await save(carol, null, canonicalText(ROWS), 'first');
    // Dan edited from no revision: carol's save came in between.
    await expect(save(dan, null, canonicalText([{ symbol: 'AGG', weight: '10' }]))).rejects.toThrow(
      /Revision 1 of “Growth” was saved since this editor opened \(by carol, on desk-c\)/,
    );
    await expect(save(dan, first, canonicalText(ROWS))).rejects.toMatchObject({ code: 'DK007' });
    // Rows no desk can read are refused by the table itself.
    await expect(save(dan, first, 'AAPL;20\n')).rejects.toMatchObject({ code: '23514' });
    const second = await save(dan, first, canonicalText([{ symbol: 'AGG', weight: '10' }]));
    const { rows: saved } = await alice.query(
      `SELECT revision, hash, note, saved_by FROM team.model_revisions WHERE model_id = $1
        ORDER BY revision`,
      [MODEL],
    );
    expect(saved).toEqual([
      { revision: 1, hash: revisionHash(ROWS), note: 'first', saved_by: 'carol' },
      {
        revision: 2,
        hash: revisionHash([{ symbol: 'AGG', weight: '10' }]),
        note: '',
        saved_by: 'dan',
      },
    ]);
    const owner = await db().owner();
    await expect(owner.query("UPDATE team.model_revisions SET note = 'x'")).rejects.toMatchObject({
      code: 'DK010',
    });
    await expect(alice.query('DELETE FROM team.models')).rejects.toMatchObject({ code: '42501' });

    const assign = (who: Client, strategies: string[], revision: string | null) =>
      who.query("SELECT team.assign($1, $2, $3, 'desk-c')", [strategies, MODEL, revision]);
    await expect(assign(alice, ['s-1'], null)).rejects.toMatchObject({ code: '42501' });
    await expect(assign(carol, ['s-1'], MODEL)).rejects.toMatchObject({ code: 'DK008' });
    await assign(carol, ['s-1', 's-2'], null);
    await assign(carol, ['s-2'], first);
    const { rows: assigned } = await alice.query(
      'SELECT strategy_id, revision_id FROM team.assignments ORDER BY strategy_id',
    );
    expect(assigned).toEqual([
      { strategy_id: 's-1', revision_id: null },
      { strategy_id: 's-2', revision_id: first },
    ]);
    expect(second).not.toBe(first);
    const { rows: log } = await owner.query<{ kind: string; member: string }>(
      "SELECT kind, member FROM team.activity WHERE kind LIKE 'model.%' ORDER BY seq",
    );
    expect(log.map((e) => `${e.kind} ${e.member}`)).toEqual([
      'model.named carol',
      'model.saved carol',
      'model.saved dan',
      'model.assigned carol',
      'model.assigned carol',
      'model.assigned carol',
    ]);
  });

  it('announces a model named or saved on the desk_team channel', async () => {
    await db().addMember('erin', ['model-admin']);
    const erin = await db().as('erin');
    const listener = await db().owner();
    const heard: { topic: string; key: string }[] = [];
    listener.on('notification', (n) => heard.push(JSON.parse(n.payload ?? '{}')));
    await listener.query('LISTEN desk_team');
    const other = 'a0a0a0a0-0a8b-4c1e-9a1e-1f2b3c4d5e6f';
    await erin.query("SELECT team.save_model($1, 'Income', '', 'desk-e')", [other]);
    await erin.query("SELECT team.save_model_revision($1, NULL, 'AGG,40\n', '', NULL, 'desk-e')", [
      other,
    ]);
    await expect.poll(() => heard.filter((n) => n.topic === 'model').length).toBe(2);
    expect(heard.filter((n) => n.topic === 'model').map((n) => n.key)).toEqual([other, other]);
  });
});
