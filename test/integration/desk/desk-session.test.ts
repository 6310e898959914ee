import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeskError, isKind } from '../../../shared/views';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../../electron/sandbox';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { deleteShown } from '../../support/delete-version';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const DIVIDEND = DEMO_STRATEGY_IDS.dividendGrowth;

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

async function rejection(promise: Promise<unknown>): Promise<DeskError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeskError);
  return error as DeskError;
}

describe('the desk, on the built-in sandbox, a real SQLite file and the keychain', () => {
  let h: DeskHarness;
  let profileId: string;

  // Everything the session writes to the console or the standard streams, to look for the secret in.
  const logged: string[] = [];
  const restore: (() => void)[] = [];
  beforeAll(async () => {
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream);
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        logged.push(String(chunk));
        return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write;
      restore.push(() => (stream.write = write));
    }
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      const original = console[level];
      console[level] = (...args: unknown[]) => {
        logged.push(args.map(String).join(' '));
        original(...args);
      };
      restore.push(() => (console[level] = original));
    }
    h = await openDeskHarness();
  });
  afterAll(async () => {
    for (const undo of restore) undo();
    await h?.close();
  });

  it('"Try the built-in sandbox" creates a profile and adds the demo strategies with their targets', async () => {
    const profile = await h.desk.profiles.useSandbox({});
    profileId = profile.id;
    expect(profile).toMatchObject({
      environment: 'sandbox',
      clientId: 'demo-manager',
      hasSecret: true,
    });
    expect(profile.grantedScopes).toHaveLength(5);
    const names = (await h.desk.strategies.list({ profileId })).map((s) => s.name).sort();
    expect(names).toEqual(['Core Equity', 'Dividend Growth', 'Fresh Start']);
    const core = await h.desk.strategies.get({ profileId, strategyId: CORE });
    expect(core.holdings.length).toBeGreaterThan(0);
    expect(core.currentTarget?.versionId).toBe(DEMO_VERSION_IDS.coreEquityExecuted);
    // A second click finds the same profile rather than a second one.
    expect((await h.desk.profiles.useSandbox({})).id).toBe(profileId);
    expect(await h.desk.profiles.list({})).toHaveLength(1);
  });

  it('drafts from the target, executes, follows the rebalance to COMPLETE and exports its orders', async () => {
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'Tilt',
      start: 'target',
    });
    const target = (await h.desk.strategies.get({ profileId, strategyId: CORE })).currentTarget!;
    expect(draft.rows.map((r) => [r.symbol, r.weight])).toEqual(
      target.positions.map((p) => [p.symbol, p.weight]),
    );
    // Drop the first symbol (it must be sent with weight 0) and add one.
    const rows = [...draft.rows.slice(1), { symbol: ' msft ', weight: '1.5', locked: false }];
    const hasMsft = target.positions.some((p) => p.symbol === 'MSFT');
    if (hasMsft) rows.pop();
    await h.desk.drafts.saveRows({ draftId: draft.id, rows });

    const { version, journalId } = await h.desk.versions.execute({ draftId: draft.id });
    expect(version.status).toBe('PENDING');
    expect(version.origin).toBe('created');
    const dropped = version.positions.find((p) => p.symbol === target.positions[0]!.symbol);
    expect(dropped).toMatchObject({ weight: '0', action: 'REMOVE' });
    expect((await h.desk.versions.journal({ profileId })).map((e) => e.id)).not.toContain(
      journalId,
    );

    const ended = await h.waitFor(
      (e) => e.type === 'version-status-changed' && e.versionId === version.id && e.ended,
    );
    expect(ended).toMatchObject({ status: 'COMPLETE' });
    const done = await h.desk.versions.get({ profileId, strategyId: CORE, versionId: version.id });
    expect(done.tracking).toBe(false);
    expect(done.orders.length).toBeGreaterThan(0);
    for (const order of done.orders) expect(['FILLED', 'IGNORED']).toContain(order.status);
    const seen = h.events
      .filter((e) => e.type === 'version-status-changed' && e.versionId === version.id)
      .map((e) => (e.type === 'version-status-changed' ? e.status : null));
    expect(seen.at(-1)).toBe('COMPLETE');

    // The new version is now the current target.
    const after = await h.desk.strategies.refresh({ profileId, strategyId: CORE });
    expect(after.currentTarget?.versionId).toBe(version.id);

    const exported = await h.desk.reports.exportOrders({
      profileId,
      selection: { kind: 'version', strategyId: CORE, versionId: version.id },
    });
    // In the data folder, like everything there: only the manager's account may read it.
    expect(statSync(exported!.path).mode & 0o777).toBe(0o600);
    const lines = readFileSync(exported!.path, 'utf8').split('\r\n');
    expect(lines[0]).toMatch(/^strategy_id,strategy_name,version_id,/);
    expect(lines.at(-1)).toBe('');
    expect(lines.length - 2).toBe(done.orders.length);
    expect(exported!.rows).toBe(done.orders.length);
    for (const order of done.orders) expect(lines.some((l) => l.includes(order.id))).toBe(true);

    // With no save dialog to ask, a second export of the same orders never replaces the first.
    const first = readFileSync(exported!.path, 'utf8');
    const again = await h.desk.reports.exportOrders({
      profileId,
      selection: { kind: 'version', strategyId: CORE, versionId: version.id },
    });
    expect(again!.path).toBe(exported!.path.replace(/\.csv$/, ' (2).csv'));
    expect(readFileSync(again!.path, 'utf8')).toBe(first);
    expect(readFileSync(exported!.path, 'utf8')).toBe(first);
  });

  it('names unknown symbols, and offers the unexecuted version in the way by its id', async () => {
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'Bad',
      start: 'target',
    });
    await h.desk.drafts.saveRows({
      draftId: draft.id,
      rows: [...draft.rows, { symbol: 'NOPE', weight: '0.5', locked: false }],
    });
    const unknown = await rejection(h.desk.versions.execute({ draftId: draft.id }));
    expect(unknown.kind).toBe('unknown-symbols');
    expect(isKind(unknown, 'unknown-symbols') && unknown.details?.unknownSymbols).toEqual(['NOPE']);
    expect(await h.desk.versions.journal({ profileId })).toEqual([]);

    const dividend = await h.desk.drafts.create({
      profileId,
      strategyId: DIVIDEND,
      name: 'D',
      start: 'target',
    });
    const blocked = await rejection(h.desk.versions.execute({ draftId: dividend.id }));
    expect(blocked.kind).toBe('unexecuted-version');
    expect(isKind(blocked, 'unexecuted-version') && blocked.details?.versionId).toBe(
      DEMO_VERSION_IDS.dividendGrowthScheduled,
    );
    await deleteShown(h.desk, {
      profileId,
      strategyId: DIVIDEND,
      versionId: DEMO_VERSION_IDS.dividendGrowthScheduled,
    });
    const { version } = await h.desk.versions.execute({ draftId: dividend.id });
    await h.waitFor(
      (e) => e.type === 'version-status-changed' && e.versionId === version.id && e.ended,
    );
  });

  it("knows a read-only client's scopes from its first call, without a connection test", async () => {
    const viewer = await h.desk.profiles.create({
      name: 'Viewer',
      baseUrl: h.sandbox()!.baseUrl,
      clientId: DEMO_CLIENTS.viewer.client_id,
      secret: DEMO_CLIENTS.viewer.client_secret,
    });
    expect(viewer.grantedScopes).toBeNull();
    await h.desk.strategies.add({ profileId: viewer.id, strategyId: CORE });
    const seen = (await h.desk.profiles.list({})).find((p) => p.id === viewer.id)!;
    expect([...seen.grantedScopes!].sort()).toEqual(['strategies:read', 'strategy_versions:read']);
    await h.desk.profiles.remove({ profileId: viewer.id });
  });

  it('keeps the secret in the keychain only: its bytes are nowhere under the data folder or in the logs', async () => {
    const secret = Buffer.from(DEMO_CLIENTS.manager.client_secret);
    expect(logged.join('\n')).not.toContain(DEMO_CLIENTS.manager.client_secret);
    const files = filesUnder(h.dataDir);
    expect(files.some((f) => f.endsWith('.sqlite'))).toBe(true);
    for (const file of files) expect(readFileSync(file).includes(secret), file).toBe(false);
    expect(await h.secrets.get(profileId)).toBe(DEMO_CLIENTS.manager.client_secret);
  });

  it('removing a profile removes its secret and everything cached for it', async () => {
    await h.desk.profiles.remove({ profileId });
    expect(await h.secrets.get(profileId)).toBeNull();
    expect(await h.desk.profiles.list({})).toEqual([]);
    expect(h.desk.store.strategies.list(profileId)).toEqual([]);
  });
});
