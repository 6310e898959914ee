import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { ClientConfig, Pool, PoolClient } from 'pg';
import type { DeskEvent } from '../../../shared/contract';
import { DeskError } from '../../../shared/errors';
import type { SecretStore } from '../secrets';
import type { Store } from '../store';
import type { TeamConnection } from '../store/repositories/teams';
import { noTeamPassword, teamError } from './errors';
import { TeamListener, type ListenBackoff } from './listen';

/** What joining a team takes: where the team store is, as whom, and the member's password. */
export interface TeamJoin {
  profileId: string;
  host: string;
  port: number;
  database: string;
  member: string;
  password: string;
  caFile: string | null;
}

export interface TeamConnectionsDeps {
  store: Pick<Store, 'teams' | 'settings' | 'profiles'>;
  /** The keychain, as for the client secret: the member's password is kept under `teamSecretKey`. */
  secrets: SecretStore;
  emit(event: DeskEvent): void;
  /** A notice lost with the listening connection: logged, the desk goes on. */
  onListenProblem?(profileId: string, error: unknown): void;
  listenBackoff?: ListenBackoff;
}

/** The keychain entry of a profile's team password, beside its client secret. */
export const teamSecretKey = (profileId: string) => `team:${profileId}`;

const where = (c: Pick<TeamConnection, 'host' | 'port' | 'database'>) =>
  `${c.host}:${c.port}/${c.database}`;

/** Which team: its store's address. Profiles joined to the same one share its model library. */
export const teamKey = where;

/**
 * Each profile's connection to its team store (docs/team.md), beside its service client
 * (profiles/connections.ts): one `pg` Pool per profile, connected as the member's own login so
 * the database knows who acts, the password read from the keychain each time a connection opens;
 * and one listening client per profile (listen.ts) whose notices reach the hosts as
 * `team-changed`. A profile without a team costs nothing here: `pg` is loaded on first use.
 */
export class TeamConnections {
  private readonly pools = new Map<string, Pool>();
  private readonly listeners = new Map<string, TeamListener>();
  private readonly joined = new Map<string, TeamConnection>();
  private closed = false;

  constructor(private readonly deps: TeamConnectionsDeps) {
    for (const team of deps.store.teams.list()) this.joined.set(team.profileId, team);
  }

  /** The profile's team, or null: a desk on its own (nothing of the team runs). */
  teamOf(profileId: string): TeamConnection | null {
    return this.joined.get(profileId) ?? null;
  }

  /** The profiles of this desk in the team `key` (teamKey), in the order they joined. */
  profilesIn(key: string): string[] {
    return [...this.joined.values()].filter((t) => teamKey(t) === key).map((t) => t.profileId);
  }

  /** This desk as the team's log names it: the computer and a number kept in the data file. */
  deskName(): string {
    const key = 'team.desk';
    let name = this.deps.store.settings.get(key);
    if (name === null) {
      name = `${hostname()}-${randomUUID().slice(0, 8)}`;
      this.deps.store.settings.set(key, name);
    }
    return name;
  }

  /**
   * Joins a team: connects once with these details (the member's roles read back as the check),
   * then keeps the password in the keychain and the rest with the profile. Nothing is kept when
   * the team store refuses or cannot be reached.
   */
  async join(input: TeamJoin): Promise<TeamConnection> {
    if (!this.deps.store.profiles.get(input.profileId))
      throw new DeskError({ kind: 'not-found', message: 'This profile is not in this app.' });
    const config = await clientConfig(input, async () => input.password);
    const { Client } = await import('pg');
    const client = new Client(config);
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ login: string }>(
        'SELECT login FROM team.member_roles WHERE login = session_user',
      );
      if (rows.length === 0)
        throw new DeskError({
          kind: 'team-refused',
          message: `${input.member} is not a member of the team at ${where(input)}: the team's owner adds members (npm run team -- add-member).`,
        });
    } catch (error) {
      throw teamError(error, 'to join the team', where(input));
    } finally {
      await client.end().catch(() => undefined);
    }
    await this.deps.secrets.set(teamSecretKey(input.profileId), input.password);
    const { password: _password, ...details } = input;
    const team = this.deps.store.teams.set(details);
    await this.forget(input.profileId);
    this.joined.set(input.profileId, team);
    this.listen(team);
    return team;
  }

  /** Leaves the team: the profile is a desk on its own again; its password leaves the keychain. */
  async leave(profileId: string): Promise<void> {
    await this.forget(profileId);
    this.joined.delete(profileId);
    this.deps.store.teams.remove(profileId);
    await this.deps.secrets.delete(teamSecretKey(profileId));
  }

  /**
   * The profile's pool, connected as its member (null: the profile has no team). For the team's
   * other readers (the team's log in the Activity view): one pool per profile, never a second.
   */
  async teamPool(profileId: string): Promise<Pool | null> {
    const team = this.teamOf(profileId);
    if (!team) return null;
    let pool = this.pools.get(profileId);
    if (!pool) {
      const { Pool } = await import('pg');
      // Another call may have made it while pg loaded.
      pool = this.pools.get(profileId);
      if (pool) return pool;
      pool = new Pool({
        ...(await clientConfig(team, () => this.password(team))),
        max: 4,
        idleTimeoutMillis: 30_000,
      });
      // An idle client lost (the server restarted) is dropped by the pool; the next query opens one.
      pool.on('error', () => undefined);
      // The pool takes its own listener off a new client as it hands it over, while the server's
      // farewell (57P01, a store stopping) may come in the same read as the connection's ready:
      // every client keeps an ear of its own, so that farewell is never an uncaught error.
      pool.on('connect', (client) => client.on('error', () => undefined));
      this.pools.set(profileId, pool);
    }
    return pool;
  }

  /**
   * `work` on one client of the profile's team store. `need` says what for ("to submit for
   * approval"): without a team, unreachable, or refused, the error says so in words.
   */
  async withTeam<T>(
    profileId: string,
    need: string,
    work: (client: PoolClient, team: TeamConnection) => Promise<T>,
  ): Promise<T> {
    const team = this.teamOf(profileId);
    if (!team)
      throw new DeskError({
        kind: 'invalid-input',
        message: `This profile is not in a team: join one first (a team is needed ${need}).`,
      });
    const pool = (await this.teamPool(profileId))!;
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw teamError(error, need, where(team));
    }
    // A client handed out has no listener of the pool's: the server going away (stopped, the
    // network lost) mid-work would be an uncaught error. The work's query fails with it instead,
    // and the client is dropped.
    let lost = false;
    const onLost = () => (lost = true);
    client.on('error', onLost);
    let broken = false;
    try {
      return await work(client, team);
    } catch (error) {
      broken =
        !(typeof (error as { code?: unknown }).code === 'string') && !(error instanceof DeskError);
      throw teamError(error, need, where(team));
    } finally {
      // A client dropped may still hear the server's farewell while it ends (57P01): it stays
      // heard, never uncaught. One kept goes back to the pool, which listens for itself.
      if (!broken && !lost) client.off('error', onLost);
      client.release(broken || lost);
    }
  }

  /** Starts listening for every profile in a team (the desk's start). */
  listenAll(): void {
    for (const team of this.joined.values()) this.listen(team);
  }

  private listen(team: TeamConnection): void {
    if (this.closed || this.listeners.has(team.profileId)) return;
    const listener = new TeamListener(
      () => clientConfig(team, () => this.password(team)),
      (notice) =>
        this.deps.emit({
          type: 'team-changed',
          profileId: team.profileId,
          topic: notice.topic,
          key: notice.key,
          connected: true,
        }),
      (connected, problem) => {
        if (!connected) this.deps.onListenProblem?.(team.profileId, problem);
        // Back after a loss: what was announced meanwhile is read again by whoever shows it.
        this.deps.emit({
          type: 'team-changed',
          profileId: team.profileId,
          topic: 'connection',
          key: null,
          connected,
        });
      },
      this.deps.listenBackoff,
    );
    this.listeners.set(team.profileId, listener);
    listener.start();
  }

  private async password(team: TeamConnection): Promise<string> {
    const password = await this.deps.secrets.get(teamSecretKey(team.profileId));
    if (password === null) throw noTeamPassword(where(team));
    return password;
  }

  private async forget(profileId: string): Promise<void> {
    const pool = this.pools.get(profileId);
    const listener = this.listeners.get(profileId);
    this.pools.delete(profileId);
    this.listeners.delete(profileId);
    await Promise.allSettled([listener?.stop(), pool?.end()]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.joined.keys()].map((id) => this.forget(id)));
  }
}

/** A managed server's certificate is checked against the CA file and the host's name (verify-full). */
async function clientConfig(
  team: Pick<TeamConnection, 'host' | 'port' | 'database' | 'member' | 'caFile'>,
  password: () => Promise<string>,
): Promise<ClientConfig> {
  const ssl = team.caFile ? { ca: await readCa(team.caFile), rejectUnauthorized: true } : false;
  return {
    host: team.host,
    port: team.port,
    database: team.database,
    user: team.member,
    password,
    ssl,
    connectionTimeoutMillis: 5000,
    application_name: 'strategy-desk',
  };
}

async function readCa(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new DeskError({
      kind: 'invalid-input',
      message: `The team's CA file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    });
  }
}
