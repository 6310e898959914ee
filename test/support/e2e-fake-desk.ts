import { randomUUID } from 'node:crypto';
import type { DeskEvent, DeskHandlers } from '../../shared/contract';
import { DeskError, type ProfileView, type StrategyView } from '../../shared/views';

/**
 * A small in-memory DeskHandlers for the browser host's own tests: it checks the host's
 * plumbing (auth, parsing, errors, events), not the desk. The end-to-end test uses the real desk.
 */
export function createFakeDesk() {
  const listeners = new Set<(event: DeskEvent) => void>();
  const profiles: ProfileView[] = [];
  const calls: { channel: string; input: unknown }[] = [];
  const now = new Date().toISOString();
  const strategy = (profileId: string, id: string): StrategyView => ({
    profileId,
    id,
    name: 'Core Equity',
    description: 'A fake strategy',
    feePercent: '0.25',
    isLiquidateOnly: false,
    liquidateOnlyReason: null,
    holdings: [],
    currentTarget: null,
    runningVersionId: null,
    syncedAt: now,
  });
  const notBuilt = (channel: string) => async () => {
    throw new DeskError({ kind: 'internal', message: `${channel} is not in the fake desk.` });
  };
  const track =
    <I, O>(channel: string, fn: (input: I) => Promise<O>) =>
    (input: I) => {
      calls.push({ channel, input });
      return fn(input);
    };

  const handlers: DeskHandlers = {
    profiles: {
      list: track('profiles.list', async () => profiles),
      create: track('profiles.create', async (input) => {
        const profile: ProfileView = {
          id: randomUUID(),
          name: input.name,
          baseUrl: input.baseUrl,
          clientId: input.clientId,
          environment: 'production',
          secretStorage: 'keychain',
          hasSecret: true,
          grantedScopes: null,
          createdAt: now,
        };
        profiles.push(profile);
        return profile;
      }),
      update: notBuilt('profiles.update'),
      check: notBuilt('profiles.check'),
      remove: notBuilt('profiles.remove'),
      testConnection: track('profiles.testConnection', async () => {
        throw new DeskError({
          kind: 'unauthorized',
          message: 'The service refused the client id or secret.',
          status: 401,
          serviceMessage: 'invalid_client',
        });
      }),
      useSandbox: notBuilt('profiles.useSandbox'),
    },
    strategies: {
      list: track('strategies.list', async () => []),
      add: notBuilt('strategies.add'),
      get: track('strategies.get', async (input) => strategy(input.profileId, input.strategyId)),
      // A plain Error: the host must not pass its message on.
      refresh: track('strategies.refresh', async () => {
        throw new Error('SQLITE_BUSY at /home/someone/secret-path');
      }),
      cancelRefresh: track('strategies.cancelRefresh', async () => ({ ok: true }) as const),
      // An answer outside the output schema: the host must refuse to pass it on.
      remove: track('strategies.remove', async () => ({ ok: 'yes' }) as unknown as { ok: true }),
    },
    drafts: {
      list: notBuilt('drafts.list'),
      create: notBuilt('drafts.create'),
      get: notBuilt('drafts.get'),
      saveRows: notBuilt('drafts.saveRows'),
      rename: notBuilt('drafts.rename'),
      remove: notBuilt('drafts.remove'),
    },
    versions: {
      list: notBuilt('versions.list'),
      get: notBuilt('versions.get'),
      import: notBuilt('versions.import'),
      checkNow: notBuilt('versions.checkNow'),
      acknowledgeFailure: notBuilt('versions.acknowledgeFailure'),
      execute: notBuilt('versions.execute'),
      retryExecution: notBuilt('versions.retryExecution'),
      dismissExecution: notBuilt('versions.dismissExecution'),
      journal: notBuilt('versions.journal'),
      delete: notBuilt('versions.delete'),
      prepareDelete: notBuilt('versions.prepareDelete'),
      prepareExecute: notBuilt('versions.prepareExecute'),
      prediction: notBuilt('versions.prediction'),
    },
    reports: { exportOrders: notBuilt('reports.exportOrders') },
    activity: {
      list: notBuilt('activity.list'),
      get: notBuilt('activity.get'),
      verify: notBuilt('activity.verify'),
      lastCheck: track('activity.lastCheck', async () => null),
      removedProfiles: track('activity.removedProfiles', async () => []),
      export: notBuilt('activity.export'),
    },
    book: {
      summary: notBuilt('book.summary'),
      rows: notBuilt('book.rows'),
      changeTags: notBuilt('book.changeTags'),
      selectionModels: notBuilt('book.selectionModels'),
      refresh: notBuilt('book.refresh'),
      cancelRefresh: notBuilt('book.cancelRefresh'),
      addMany: notBuilt('book.addMany'),
      cancelAdd: notBuilt('book.cancelAdd'),
      addOutcomes: notBuilt('book.addOutcomes'),
      copyOutcomes: notBuilt('book.copyOutcomes'),
      exposure: notBuilt('book.exposure'),
      exportStrategies: notBuilt('book.exportStrategies'),
      exportHoldings: notBuilt('book.exportHoldings'),
      settings: notBuilt('book.settings'),
      saveSettings: notBuilt('book.saveSettings'),
    },
    models: {
      list: notBuilt('models.list'),
      get: notBuilt('models.get'),
      create: notBuilt('models.create'),
      update: notBuilt('models.update'),
      copyToTeam: notBuilt('models.copyToTeam'),
      saveRevision: notBuilt('models.saveRevision'),
      revision: notBuilt('models.revision'),
      compare: notBuilt('models.compare'),
      importCsv: notBuilt('models.importCsv'),
      exportCsv: notBuilt('models.exportCsv'),
      assign: notBuilt('models.assign'),
      unassign: notBuilt('models.unassign'),
      followers: notBuilt('models.followers'),
      ofStrategy: notBuilt('models.ofStrategy'),
    },
    batches: {
      review: notBuilt('batches.review'),
      get: notBuilt('batches.get'),
      list: notBuilt('batches.list'),
      preview: notBuilt('batches.preview'),
      execute: notBuilt('batches.execute'),
      cancel: notBuilt('batches.cancel'),
      exportOrders: notBuilt('batches.exportOrders'),
      exportSummary: notBuilt('batches.exportSummary'),
    },
    attention: {
      queue: notBuilt('attention.queue'),
      dismiss: notBuilt('attention.dismiss'),
      schedules: notBuilt('attention.schedules'),
      setSchedule: notBuilt('attention.setSchedule'),
      removeSchedule: notBuilt('attention.removeSchedule'),
    },
    restrictions: {
      list: notBuilt('restrictions.list'),
      add: notBuilt('restrictions.add'),
      end: notBuilt('restrictions.end'),
      inForce: notBuilt('restrictions.inForce'),
      checkDraft: notBuilt('restrictions.checkDraft'),
      exportCsv: notBuilt('restrictions.exportCsv'),
      importCsv: notBuilt('restrictions.importCsv'),
      findings: notBuilt('restrictions.findings'),
    },
    team: {
      get: notBuilt('team.get'),
      join: notBuilt('team.join'),
      leave: notBuilt('team.leave'),
      members: notBuilt('team.members'),
      submissions: notBuilt('team.submissions'),
      submission: notBuilt('team.submission'),
      submit: notBuilt('team.submit'),
      decide: notBuilt('team.decide'),
      activity: notBuilt('team.activity'),
      submitBatch: notBuilt('team.submitBatch'),
    },
    app: {
      status: track('app.status', async () => {
        return {
          online: true,
          lastSyncAt: null,
          runningVersions: 0,
          needsAttention: 0,
          secretStorage: 'keychain' as const,
          secretStorageReason: null,
        };
      }),
      // The profiles only: the page reads a profile's book itself (the fake has none).
      firstScreen: track('app.firstScreen', async () => ({ profiles, book: null })),
    },
  };

  return {
    handlers,
    calls,
    subscribe(listener: (event: DeskEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(event: DeskEvent) {
      for (const l of listeners) l(event);
    },
    listenerCount: () => listeners.size,
  };
}
