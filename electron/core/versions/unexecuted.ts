import { createHash, randomUUID } from 'node:crypto';
import { InvalidDraftError } from '../../../shared/draft';
import type { Version } from '../../../shared/domain/resources';
import type { DeskErrorWire } from '../../../shared/errors';
import type {
  DeleteConfirmation,
  DeletePreview,
  DraftComparison,
  VersionContentView,
} from '../../../shared/versions/unexecuted';
import { versionFields } from '../../../shared/version-views';
import { DeskError, isKind } from '../../../shared/views';
import { recordVersionDeleted, type SeenBeforeDelete } from '../activity';
import { isServiceError } from '../api';
import type { Draft, Store, StoredVersion } from '../store';
import { planOf, type ConfirmationDeps } from '../execution/confirmation';
import { compareVersionWithDraft } from './draft-vs-version';
import { notFound, toDeskError } from '../errors';

/**
 * Unexecuted versions in the way of an execution, and deleting one only once the manager has seen
 * it. `prepareDelete` reads the version from the service now and issues a key naming what it
 * showed; `delete` refuses without that key, reads the version once more and deletes it only if
 * it is still what was shown (so the activity entry holds the content as read just before
 * deleting). A version that could not be read is deleted only on the manager's acknowledgement,
 * and its entry says so. Every caller (the Drafts tab, Versions → Delete, later a batch) goes
 * through here: none can delete a version unseen.
 */

export interface UnexecutedDeps extends ConfirmationDeps {
  /** The whole store: a deletion is recorded in the activity log. */
  store: Store & ConfirmationDeps['store'];
}

type VersionRef = { profileId: string; strategyId: string; versionId: string };

/** What a key names: the state shown, and for a read the content's hash. */
type Shown = VersionRef &
  (
    | { state: 'read'; contentHash: string; version: Version; readAt: string }
    | { state: 'unreadable'; error: DeskErrorWire; readAt: string }
    | { state: 'gone'; readAt: string }
  );

/** Keys kept for confirmations still open; the oldest go first beyond this many. */
const KEPT_KEYS = 200;

const contentOf = (v: Version): VersionContentView => ({
  id: v.id,
  ...versionFields(v),
  positions: (v.positions ?? []).map((p) => ({
    symbol: p.symbol,
    oldWeight: p.old_weight,
    weight: p.weight,
    action: p.action,
  })),
});

const storedContentOf = (v: StoredVersion) => ({
  ...contentOf({ ...v, orders: [], positions: v.positions ?? [] }),
  syncedAt: v.synced_at,
});

const hashOf = (v: Version) =>
  createHash('sha256')
    .update(JSON.stringify(contentOf(v)))
    .digest('hex');

const shortId = (id: string) => `${id.slice(0, 8)}…`;

function notConfirmed(reason: 'not-shown' | 'unread-not-acknowledged', message: string) {
  return new DeskError({ kind: 'delete-not-confirmed', message, details: { reason } });
}

export class UnexecutedVersions {
  private readonly shown = new Map<string, Shown>();

  constructor(private readonly deps: UnexecutedDeps) {}

  /** A version read from the service (an import): in the way while it is not executed. */
  noteRead(profileId: string, version: Version, from: 'imported' | 'read', at: string): void {
    if (version.executed_at === null)
      this.deps.store.unexecuted.noteRead(profileId, version, from, at);
    else this.deps.store.unexecuted.forget(profileId, version.id);
  }

  /** Reads the version now and says what deleting it would delete. */
  async prepareDelete(ref: VersionRef, draftId?: string): Promise<DeletePreview> {
    const { store, connections } = this.deps;
    const { profileId, strategyId, versionId } = ref;
    const strategy = store.strategies.get(profileId, strategyId);
    if (!strategy) throw notFound('This strategy');
    let draft: Draft | null = null;
    if (draftId !== undefined) {
      draft = store.drafts.get(draftId);
      if (!draft || draft.profileId !== profileId || draft.strategyId !== strategyId)
        throw notFound('This draft');
    }
    const readAt = this.deps.now();
    const common = { versionId, strategyId, strategyName: strategy.name, readAt };
    const lastKnown = () => {
      const stored = store.versions.get(profileId, versionId, { positions: true });
      return stored && stored.strategy_id === strategyId ? storedContentOf(stored) : null;
    };
    let version: Version;
    try {
      version = await connections.call(profileId, (c) =>
        c.getVersion(strategyId, versionId, { positions: true }),
      );
    } catch (error) {
      if (isServiceError(error, 'not-found')) {
        store.unexecuted.forget(profileId, versionId);
        const key = this.issue({ ...ref, state: 'gone', readAt });
        return { ...common, state: 'gone', confirmationKey: key, lastKnown: lastKnown() };
      }
      // Only the service's failures: the app's own stay errors.
      if (!isServiceError(error)) throw error;
      const failure = toDeskError(error).toData();
      const key = this.issue({ ...ref, state: 'unreadable', error: failure, readAt });
      return {
        ...common,
        state: 'unreadable',
        confirmationKey: key,
        error: failure,
        lastKnown: lastKnown(),
      };
    }
    // The copy in the history (if any) follows what was read; the notice follows too.
    if (store.versions.get(profileId, versionId)?.strategy_id === strategyId)
      store.versions.recordRead(profileId, version, { syncedAt: readAt });
    this.noteRead(profileId, version, 'read', readAt);
    if (version.executed_at !== null)
      return { ...common, state: 'executed', content: contentOf(version) };
    const key = this.issue({
      ...ref,
      state: 'read',
      contentHash: hashOf(version),
      version,
      readAt,
    });
    return {
      ...common,
      state: 'read',
      confirmationKey: key,
      content: contentOf(version),
      comparison: draft ? this.compare(draft, version) : null,
    };
  }

  /**
   * Deletes the version the key names, if it is still what was shown; records what was seen.
   * A version already gone at the service leaves the history here too.
   */
  async delete(ref: VersionRef, confirmation: DeleteConfirmation | undefined): Promise<void> {
    const { profileId, strategyId, versionId } = ref;
    if (!confirmation)
      throw notConfirmed(
        'not-shown',
        `Nothing was deleted: version ${versionId} is deleted only once the app has read it and shown what it holds. Look at it first.`,
      );
    const shown = this.shown.get(confirmation.key);
    if (
      !shown ||
      shown.profileId !== profileId ||
      shown.strategyId !== strategyId ||
      shown.versionId !== versionId
    )
      throw notConfirmed(
        'not-shown',
        `Nothing was deleted: this confirmation does not name version ${versionId} as this app showed it (it may have been shown before the app restarted). Look at the version again.`,
      );
    if (shown.state === 'unreadable' && confirmation.unreadAcknowledged !== true)
      throw notConfirmed(
        'unread-not-acknowledged',
        `Nothing was deleted: the app could not read version ${versionId}, so deleting it needs your acknowledgement that you delete it without having seen what it holds.`,
      );
    // Taken while it is used: a second delete on the same key (a double click) finds none.
    this.shown.delete(confirmation.key);
    try {
      await this.deleteShown(shown);
    } catch (error) {
      // Still what was shown, only not deleted (the service failed): the same word may try again.
      if (!(error instanceof DeskError && isKind(error, 'confirmation-outdated')))
        this.shown.set(confirmation.key, shown);
      throw error;
    }
  }

  private async deleteShown(shown: Shown): Promise<void> {
    const { store, connections } = this.deps;
    const { profileId, strategyId, versionId } = shown;
    let seen: SeenBeforeDelete;
    let goneAlready = false;
    if (shown.state === 'unreadable') {
      seen = { kind: 'unread', error: shown.error, triedAt: shown.readAt };
    } else {
      // Read once more right before deleting: what goes is what was shown.
      const readAt = this.deps.now();
      const now = await connections
        .call(profileId, (c) => c.getVersion(strategyId, versionId, { positions: true }))
        .catch((error: unknown) => {
          if (isServiceError(error, 'not-found')) return null;
          throw error;
        });
      if (now === null) {
        goneAlready = true;
        seen =
          shown.state === 'read'
            ? { kind: 'read', version: shown.version, readAt: shown.readAt }
            : { kind: 'gone', readAt };
      } else if (shown.state === 'gone' || hashOf(now) !== shown.contentHash) {
        this.noteRead(profileId, now, 'read', readAt);
        throw new DeskError({
          kind: 'confirmation-outdated',
          message: `Version ${shortId(versionId)} is no longer what was shown: it changed at the service since it was read. Nothing was deleted; look at it again.`,
        });
      } else {
        seen = { kind: 'read', version: now, readAt };
      }
    }
    if (!goneAlready) {
      // A 404 means it went meanwhile (another client, or an earlier delete whose answer was lost).
      await connections
        .call(profileId, (c) => c.deleteVersion(strategyId, versionId))
        .catch((error: unknown) => {
          if (!isServiceError(error, 'not-found')) throw error;
          goneAlready = true;
        });
    }
    recordVersionDeleted(store, { profileId, strategyId, versionId, goneAlready, seen }, () => {
      store.unexecuted.forget(profileId, versionId);
      return store.versions.remove(profileId, versionId);
    });
  }

  private compare(draft: Draft, version: Version): DraftComparison | null {
    let plan: ReturnType<typeof planOf>;
    try {
      plan = planOf(this.deps, draft);
    } catch (error) {
      // A draft that cannot be executed as it is has nothing to compare yet.
      if (error instanceof InvalidDraftError) return null;
      throw error;
    }
    return compareVersionWithDraft(
      { positions: version.positions ?? [], cashWeight: version.cash_weight },
      {
        draftId: draft.id,
        draftName: draft.name,
        positions: plan.prediction.body.data.positions,
        cashWeight: plan.prediction.newCash,
      },
    );
  }

  private issue(shown: Shown): string {
    const key = randomUUID();
    this.shown.set(key, shown);
    if (this.shown.size > KEPT_KEYS) this.shown.delete(this.shown.keys().next().value!);
    return key;
  }
}
