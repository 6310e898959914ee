import type { PoolClient } from 'pg';
import type { DeskEvent } from '../../../shared/contract';
import { canonicalText } from '../../../shared/models/canonical';
import { validateModelRows } from '../../../shared/models/rules';
import type { Store, StoredModelRow } from '../store';
import { teamKey, type TeamConnections } from '../team/connection';
import { revisionHash } from './hash';
import { modelChanged, type AnnounceModelChange } from './views';

/**
 * The team's model library cached on the desk (docs/team.md): what the team store holds is read
 * into the desk's SQLite (models, immutable revisions with the team's ids and numbers, and which
 * strategies follow which), so reading and drafting go on offline. Read when the team store
 * announces a change (LISTEN/NOTIFY, team/listen.ts), when the listening connection comes back,
 * after this desk's own writes (one path, whoever saved), and once strategies were added here.
 * Each change is announced as the desk's own are (`model-changed`), with the profile whose team
 * it is.
 */

interface TeamModelRecord {
  id: string;
  name: string;
  description: string;
  created_at: Date;
}
interface TeamRevisionRecord {
  id: string;
  model_id: string;
  revision: number;
  canonical: string;
  hash: string;
  note: string;
  saved_by: string;
  saved_at: Date;
}
interface TeamAssignmentRecord {
  strategy_id: string;
  model_id: string;
  revision_id: string | null;
}

export class TeamModelCache {
  /** One read at a time per profile: a notice heard while one runs is read after it. */
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly teams: TeamConnections,
    private readonly announce: AnnounceModelChange,
    /** A revision whose rows do not hash to its hash (written around the desk): left out. */
    private readonly onUnreadable: (profileId: string, revisionId: string, why: string) => void,
  ) {}

  /**
   * What the team store announced for a profile in a team, read into the cache; and, once a
   * book's add ended, the team's assignments of the strategies it brought. Null: nothing to read.
   */
  heard(event: DeskEvent): Promise<void> | null {
    if (event.type === 'book-job-changed') {
      const { job, profileId } = event;
      return job.kind === 'add' && job.state !== 'running' ? this.strategiesAdded(profileId) : null;
    }
    if (event.type !== 'team-changed') return null;
    if (event.topic === 'model') return this.queue(event.profileId, (c) => this.models(c, event));
    if (event.topic === 'assignment')
      return this.queue(event.profileId, (c) => this.assignments(c, event.profileId));
    if (event.topic === 'connection' && event.connected) return this.readAll(event.profileId);
    return null;
  }

  /** Strategies read into the profile for the first time: the team's assignments naming them. */
  strategiesAdded(profileId: string): Promise<void> | null {
    return this.teams.teamOf(profileId) ? this.readAssignments(profileId) : null;
  }

  /** The whole library and its assignments (joining, or the listening connection back). */
  readAll(profileId: string): Promise<void> {
    return this.queue(profileId, async (client) => {
      await this.models(client, { profileId, key: null });
      await this.assignments(client, profileId);
    });
  }

  /** The named models (null: all) read now, after whatever read is running. */
  readModels(profileId: string, modelId: string | null): Promise<void> {
    return this.queue(profileId, (c) => this.models(c, { profileId, key: modelId }));
  }

  readAssignments(profileId: string): Promise<void> {
    return this.queue(profileId, (c) => this.assignments(c, profileId));
  }

  private queue(profileId: string, read: (client: PoolClient) => Promise<void>): Promise<void> {
    const before = this.running.get(profileId) ?? Promise.resolve();
    const next = before
      .catch(() => undefined)
      .then(() =>
        this.teams.withTeam(profileId, 'to read the team’s models', (client) => read(client)),
      );
    this.running.set(profileId, next);
    // The caller hears the failure; this bookkeeping must not be a second, unheard one.
    const done = () => {
      if (this.running.get(profileId) === next) this.running.delete(profileId);
    };
    next.then(done, done);
    return next;
  }

  /** Models (one, or all) and the revisions this desk has not cached yet. */
  private async models(
    client: PoolClient,
    { profileId, key }: { profileId: string; key: string | null },
  ): Promise<void> {
    const team = this.teams.teamOf(profileId);
    if (!team) return;
    const { rows: models } = await client.query<TeamModelRecord>(
      `SELECT id, name, description, created_at FROM team.models
        ${key === null ? '' : 'WHERE id = $1'} ORDER BY id`,
      key === null ? [] : [key],
    );
    const known = models.map((m) => this.store.models.latest(m.id)?.number ?? 0);
    const { rows: revisions } = await client.query<TeamRevisionRecord>(
      `SELECT r.id, r.model_id, r.revision, r.canonical, r.hash, r.note, r.saved_by, r.saved_at
         FROM team.model_revisions r
         JOIN unnest($1::uuid[], $2::int[]) AS k(model_id, known) ON k.model_id = r.model_id
        WHERE r.revision > k.known ORDER BY r.model_id, r.revision`,
      [models.map((m) => m.id), known],
    );
    const changed = this.store.transaction(() => {
      const moved = new Set<string>();
      for (const m of models)
        if (
          this.store.models.cacheModel({
            id: m.id,
            team: teamKey(team),
            name: m.name,
            description: m.description,
            createdAt: m.created_at.toISOString(),
          })
        )
          moved.add(m.id);
      for (const r of revisions) {
        const rows = readableRows(r);
        if (typeof rows === 'string') {
          this.onUnreadable(profileId, r.id, rows);
          continue;
        }
        const added = this.store.models.cacheRevision(
          r.model_id,
          {
            id: r.id,
            number: r.revision,
            createdAt: r.saved_at.toISOString(),
            note: r.note,
            hash: r.hash,
            total: validateModelRows(rows).total,
            savedBy: r.saved_by,
          },
          rows,
        );
        if (added) moved.add(r.model_id);
      }
      return [...moved];
    });
    for (const modelId of changed)
      this.announce(
        modelChanged(this.store, {
          change: 'revision-saved',
          profileId,
          revision: this.store.models.latest(modelId),
          modelIds: [modelId],
          strategies: this.store.models.latestFollowers(modelId),
        }),
      );
  }

  /**
   * Which of the profile's strategies follow which of the team's models, as the team store says:
   * a strategy the team assigned follows that model here (one following another model moves);
   * one following a team's model the team no longer assigns follows none. A strategy this desk
   * has not read yet is assigned once it is read (the next read of the assignments).
   */
  private async assignments(client: PoolClient, profileId: string): Promise<void> {
    const team = this.teams.teamOf(profileId);
    if (!team) return;
    const { rows } = await client.query<TeamAssignmentRecord>(
      'SELECT strategy_id, model_id, revision_id FROM team.assignments ORDER BY strategy_id',
    );
    const wanted = new Map(rows.map((r) => [r.strategy_id, r]));
    const key = teamKey(team);
    const moves = this.store.transaction(() => {
      const assigned: { strategyId: string; modelId: string; previous: string | null }[] = [];
      const unassigned: { strategyId: string; modelId: string }[] = [];
      const held = new Map(
        this.store.models.assignmentsOf(profileId).map((a) => [a.strategyId, a]),
      );
      for (const r of rows) {
        const before = held.get(r.strategy_id);
        if (before && before.modelId === r.model_id && before.revisionId === r.revision_id)
          continue;
        // Not read here yet, or a model (revision) not cached yet: its own notice brings it.
        if (!this.store.strategies.get(profileId, r.strategy_id)) continue;
        if (this.store.models.get(r.model_id)?.team !== key) continue;
        if (r.revision_id !== null && !this.store.models.revision(r.revision_id)) continue;
        if (!this.store.models.latest(r.model_id)) continue;
        this.store.models.assign(profileId, [r.strategy_id], r.model_id, r.revision_id);
        assigned.push({
          strategyId: r.strategy_id,
          modelId: r.model_id,
          previous: before?.modelId ?? null,
        });
      }
      for (const a of held.values()) {
        if (wanted.has(a.strategyId)) continue;
        if (this.store.models.get(a.modelId)?.team !== key) continue;
        this.store.models.unassign(profileId, a.strategyId);
        unassigned.push({ strategyId: a.strategyId, modelId: a.modelId });
      }
      return { assigned, unassigned };
    });
    const byModel = new Map<string, typeof moves.assigned>();
    for (const m of moves.assigned) byModel.set(m.modelId, [...(byModel.get(m.modelId) ?? []), m]);
    for (const [modelId, moved] of byModel)
      this.announce(
        modelChanged(this.store, {
          change: 'assigned',
          profileId,
          revision: this.store.models.latest(modelId),
          modelIds: [modelId, ...moved.flatMap((m) => (m.previous ? [m.previous] : []))],
          strategies: moved.map((m) => ({ profileId, strategyId: m.strategyId })),
        }),
      );
    if (moves.unassigned.length > 0)
      this.announce(
        modelChanged(this.store, {
          change: 'unassigned',
          profileId,
          revision: null,
          modelIds: moves.unassigned.map((m) => m.modelId),
          strategies: moves.unassigned.map((m) => ({ profileId, strategyId: m.strategyId })),
        }),
      );
  }
}

/**
 * A team revision's rows from its canonical text, or why they cannot be trusted: the text must be
 * canonical (what the desk itself writes) and hash to the revision's hash.
 */
function readableRows(r: TeamRevisionRecord): StoredModelRow[] | string {
  const rows = r.canonical
    .split('\n')
    .slice(0, -1)
    .map((line) => {
      const comma = line.lastIndexOf(',');
      return { symbol: line.slice(0, comma), weight: line.slice(comma + 1) };
    });
  let canonical: string;
  try {
    canonical = canonicalText(rows);
  } catch (error) {
    return `its rows are not canonical (${(error as Error).message})`;
  }
  if (canonical !== r.canonical) return 'its rows are not written in the canonical form';
  if (revisionHash(rows) !== r.hash) return 'its rows do not hash to its hash';
  return rows;
}
