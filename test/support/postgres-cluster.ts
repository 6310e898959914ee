import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * A throwaway PostgreSQL cluster for the team store's tests: `initdb` in a temporary folder, on a
 * free loopback port, dropped at the end. PostgreSQL refuses to run as root, so under root (CI)
 * the cluster runs as Debian's `postgres` user; elsewhere as whoever runs the tests.
 */

export interface PostgresFinding {
  name: string;
  available: boolean;
  why?: string;
  bin?: string;
}

/**
 * Where `initdb` and `pg_ctl` are: $PG_BIN, else $PGBIN (set on GitHub's Windows runners), else
 * Debian's newest /usr/lib/postgresql/<v>/bin, else the PATH.
 */
export function findPostgres(): PostgresFinding {
  const name = 'PostgreSQL (initdb, pg_ctl)';
  const debian = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
    : [];
  const candidates = [
    process.env.PG_BIN,
    process.env.PGBIN,
    ...debian,
    ...(process.env.PATH ?? '').split(delimiter),
  ].filter((dir): dir is string => !!dir);
  const has = (dir: string, tool: string) =>
    existsSync(join(dir, tool)) || existsSync(join(dir, `${tool}.exe`));
  const bin = candidates.find((dir) => has(dir, 'initdb') && has(dir, 'pg_ctl'));
  if (!bin)
    return { name, available: false, why: "install Debian's postgresql package, or set PG_BIN" };
  if (process.getuid?.() === 0 && unprivileged() === undefined)
    return { name, available: false, why: 'running as root, and no postgres user to run it as' };
  return { name, available: true, bin };
}

function unprivileged(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (id.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function run(command: string, args: string[], user: { uid: number; gid: number } | undefined) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output}`)),
    );
  });
}

export interface PostgresCluster {
  host: string;
  port: number;
  /** The cluster's superuser: stands for the team's owner who runs `team init`. */
  superuser: string;
  password: string;
  /** A connection string for `database` as `user` (the superuser by default). */
  url(database: string, user?: string, password?: string): string;
  /** Stops it (fast, or immediate as a crash would) and starts it again on the same port. */
  restart(mode?: 'fast' | 'immediate'): Promise<void>;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  drop(): Promise<void>;
}

export async function startPostgresCluster(found: PostgresFinding): Promise<PostgresCluster> {
  if (!found.bin) throw new Error(`${found.name} is not available: ${found.why}`);
  const bin = found.bin;
  const user = unprivileged();
  const folder = await mkdtemp(join(tmpdir(), 'desk-pg-'));
  const data = join(folder, 'data');
  const passwordFile = join(folder, 'password');
  const password = `pw-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
  await writeFile(passwordFile, password, { mode: 0o600 });
  if (user) {
    await chown(folder, user.uid, user.gid);
    await chown(passwordFile, user.uid, user.gid);
  }
  await chmod(folder, 0o700);
  const superuser = 'team_owner';
  await run(
    join(bin, 'initdb'),
    [
      '-D',
      data,
      '-U',
      superuser,
      `--pwfile=${passwordFile}`,
      '--auth=scram-sha-256',
      '-E',
      'UTF8',
      '--locale=C',
    ],
    user,
  );
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${folder}`,
    "-c listen_addresses='127.0.0.1'",
    // A test cluster: losing it in a power cut costs nothing.
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
  ].join(' ');
  const start = () =>
    run(
      join(bin, 'pg_ctl'),
      ['-D', data, '-l', join(folder, 'log'), '-o', options, '-w', 'start'],
      user,
    );
  const stop = (mode: 'fast' | 'immediate' = 'fast') =>
    run(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop'], user);
  await start();
  let running = true;
  return {
    host: '127.0.0.1',
    port,
    superuser,
    password,
    url: (database, who = superuser, secret = password) =>
      `postgres://${encodeURIComponent(who)}:${encodeURIComponent(secret)}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    async stop(mode) {
      await stop(mode);
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async restart(mode) {
      await stop(mode);
      await start();
    },
    async drop() {
      if (running) await stop('immediate').catch(() => undefined);
      running = false;
      await rm(folder, { recursive: true, force: true });
    },
  };
}
