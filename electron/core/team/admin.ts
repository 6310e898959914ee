import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { addMember, parseRoles } from './members';
import { migrateTeamStore } from './migrate';

/**
 * `npm run team -- …`: setting a team up (docs/team.md). Run by the team's owner, a PostgreSQL
 * role that may create roles; members never run it. Prints what it did; returns the exit code.
 */

export const TEAM_USAGE = `Usage:
  npm run team -- init URL
  npm run team -- add-member LOGIN ROLES [--name "Display name"] [--url URL]
  npm run team -- members [--url URL]
  npm run team -- policy every|batches|none [--hours 24] [--url URL]
ROLES is a comma-separated list of drafter, approver, trader, model-admin.
URL is the owner's connection (postgres://owner@host:5432/team?sslmode=verify-full&sslrootcert=ca.pem);
without --url, TEAM_ADMIN_URL. The new member's password comes from TEAM_MEMBER_PASSWORD, else one
is made and printed once.`;

export interface TeamAdminIo {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const value = args[at + 1];
  args.splice(at, 2);
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value.`);
  return value;
}

async function connected<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function runTeamAdmin(argv: readonly string[], io: TeamAdminIo): Promise<number> {
  const args = [...argv];
  const command = args.shift();
  try {
    const url =
      option(args, '--url') ?? (command === 'init' ? args.shift() : io.env.TEAM_ADMIN_URL);
    if (!command || !url) {
      io.err(TEAM_USAGE);
      return 1;
    }
    switch (command) {
      case 'init': {
        const { from, to } = await connected(url, migrateTeamStore);
        io.out(
          from === to
            ? `The team store is already at schema version ${to}.`
            : `The team store is at schema version ${to} (was ${from}).`,
        );
        return 0;
      }
      case 'add-member': {
        const displayName = option(args, '--name');
        const [login, roles, ...extra] = args;
        if (!login || !roles || extra.length > 0) {
          io.err(TEAM_USAGE);
          return 1;
        }
        const given = io.env.TEAM_MEMBER_PASSWORD;
        const password = given ?? randomBytes(18).toString('base64url');
        const parsed = parseRoles(roles);
        await connected(url, (client) =>
          addMember(client, { login, displayName: displayName ?? login, roles: parsed, password }),
        );
        io.out(`Added ${login} (${parsed.join(', ')}).`);
        // Shown once, to be handed to the member; never stored by this command.
        if (given === undefined) io.out(`Password for ${login}: ${password}`);
        return 0;
      }
      case 'members': {
        const rows = await connected(url, async (client) => {
          const { rows } = await client.query<Record<string, unknown>>(
            'SELECT login, display_name, drafter, approver, trader, model_admin FROM team.member_roles ORDER BY login',
          );
          return rows;
        });
        for (const row of rows) {
          const roles = ['drafter', 'approver', 'trader', 'model_admin']
            .filter((r) => row[r] === true)
            .map((r) => r.replace('_', '-'));
          io.out(
            `${String(row.login)}\t${String(row.display_name)}\t${roles.join(', ') || '(no role)'}`,
          );
        }
        return 0;
      }
      case 'policy': {
        const hours = option(args, '--hours') ?? '24';
        const [policy, ...extra] = args;
        if (!policy || !['every', 'batches', 'none'].includes(policy) || extra.length > 0) {
          io.err(TEAM_USAGE);
          return 1;
        }
        if (!/^\d{1,4}$/.test(hours) || Number(hours) === 0)
          throw new Error(`--hours is a whole number of hours from 1 to 9999; got "${hours}".`);
        await connected(url, (client) =>
          client.query("SELECT team.set_policy($1, make_interval(hours => $2), 'team-admin')", [
            policy,
            Number(hours),
          ]),
        );
        io.out(`Approval needed for: ${policy}; an approval lasts ${hours} h.`);
        return 0;
      }
      default:
        io.err(TEAM_USAGE);
        return 1;
    }
  } catch (error) {
    io.err(`team ${command ?? ''}: ${(error as Error).message}`);
    return 1;
  }
}
