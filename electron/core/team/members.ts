import { escapeIdentifier, escapeLiteral, type ClientBase } from 'pg';
import { inTeamTransaction } from './transaction';
import { groupRoleOf, MEMBER_GROUP, TEAM_ROLES, type TeamRole } from './migrations';

/** A PostgreSQL login role name a member connects as: lower-case, as PostgreSQL folds it. */
const LOGIN_NAME = /^[a-z][a-z0-9_]{0,62}$/;

export function parseRoles(text: string): TeamRole[] {
  const roles = text
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r !== '');
  const unknown = roles.filter((r) => !(TEAM_ROLES as readonly string[]).includes(r));
  if (unknown.length > 0 || roles.length === 0)
    throw new Error(
      `Roles are a comma-separated list of ${TEAM_ROLES.join(', ')}; got "${text}"${
        unknown.length > 0 ? ` (not a role: ${unknown.join(', ')})` : ''
      }.`,
    );
  return [...new Set(roles as TeamRole[])];
}

/**
 * Creates a member's own login role in the team's groups, and lists them. Run by the team's
 * owner (CREATEROLE); the member then connects with these credentials from their desk, so the
 * database knows who acts.
 */
export async function addMember(
  client: ClientBase,
  member: { login: string; displayName: string; roles: readonly TeamRole[]; password: string },
): Promise<void> {
  if (!LOGIN_NAME.test(member.login))
    throw new Error(
      `A member's login is lower-case letters, digits and _ (at most 63), starting with a letter; got "${member.login}".`,
    );
  if (member.password.length < 12) throw new Error('A member password has at least 12 characters.');
  const groups = [MEMBER_GROUP, ...member.roles.map(groupRoleOf)].map(escapeIdentifier).join(', ');
  await inTeamTransaction(client, async () => {
    await client.query(
      `CREATE ROLE ${escapeIdentifier(member.login)} LOGIN PASSWORD ${escapeLiteral(member.password)} IN ROLE ${groups}`,
    );
    await client.query('INSERT INTO team.members (login, display_name) VALUES ($1, $2)', [
      member.login,
      member.displayName,
    ]);
  });
}
