import type { ClientBase } from 'pg';

/** `work` in one transaction of the team store: all of it, or nothing (a lost connection too). */
export async function inTeamTransaction<T>(client: ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
