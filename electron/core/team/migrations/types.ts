import type { ClientBase } from 'pg';

/**
 * One schema step of the team store. `up` runs inside one transaction together with the
 * recorded version, as the owner of the team schema (whoever ran `npm run team -- init`).
 */
export interface TeamMigration {
  readonly version: number;
  readonly name: string;
  up(client: ClientBase): Promise<void>;
}

/** The PostgreSQL roles a member may hold (docs/team.md), each a NOLOGIN group role. */
export const TEAM_ROLES = ['drafter', 'approver', 'trader', 'model-admin'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** The group role behind a team role; every member is also in `desk_member`. */
export function groupRoleOf(role: TeamRole): string {
  return `desk_${role.replace('-', '_')}`;
}
export const MEMBER_GROUP = 'desk_member';
