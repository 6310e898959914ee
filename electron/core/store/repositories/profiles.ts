import { randomUUID } from 'node:crypto';
import type { Scope } from '../../../../shared/domain/resources';
import type { RepositoryContext } from './context';

export type Environment = 'sandbox' | 'production';

/** A connection to one service account. The client secret is never here: it is in the keychain. */
export interface Profile {
  id: string;
  name: string;
  baseUrl: string;
  clientId: string;
  environment: Environment;
  /** Scopes granted by the last token response; null until the first token. */
  grantedScopes: Scope[] | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewProfile {
  id?: string;
  name: string;
  baseUrl: string;
  clientId: string;
  environment: Environment;
}

export type ProfilePatch = Partial<Pick<Profile, 'name' | 'baseUrl' | 'clientId' | 'environment'>>;

interface ProfileRow {
  id: string;
  name: string;
  base_url: string;
  client_id: string;
  environment: Environment;
  granted_scopes: string | null;
  created_at: string;
  updated_at: string;
}

const fromRow = (r: ProfileRow): Profile => ({
  id: r.id,
  name: r.name,
  baseUrl: r.base_url,
  clientId: r.client_id,
  environment: r.environment,
  grantedScopes:
    r.granted_scopes === null ? null : (r.granted_scopes.split(' ').filter(Boolean) as Scope[]),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export type ProfilesRepository = ReturnType<typeof profilesRepository>;

export function profilesRepository({ db, now }: RepositoryContext) {
  const insert = db.prepare(
    `INSERT INTO profiles (id, name, base_url, client_id, environment, created_at, updated_at)
     VALUES (@id, @name, @baseUrl, @clientId, @environment, @now, @now)`,
  );
  const selectOne = db.prepare<[string], ProfileRow>('SELECT * FROM profiles WHERE id = ?');
  const selectAll = db.prepare<[], ProfileRow>(
    'SELECT * FROM profiles ORDER BY name COLLATE NOCASE, created_at, rowid',
  );
  const update = db.prepare(
    `UPDATE profiles SET name = @name, base_url = @baseUrl, client_id = @clientId,
       environment = @environment, updated_at = @now WHERE id = @id`,
  );
  const updateScopes = db.prepare(
    'UPDATE profiles SET granted_scopes = ?, updated_at = ? WHERE id = ?',
  );
  const remove = db.prepare('DELETE FROM profiles WHERE id = ?');

  return {
    create(input: NewProfile): Profile {
      const id = input.id ?? randomUUID();
      insert.run({ ...input, id, now: now() });
      return fromRow(selectOne.get(id)!);
    },
    get(id: string): Profile | null {
      const row = selectOne.get(id);
      return row ? fromRow(row) : null;
    },
    list(): Profile[] {
      return selectAll.all().map(fromRow);
    },
    /** Returns the updated profile, or null when there is no such profile. */
    update(id: string, patch: ProfilePatch): Profile | null {
      const current = this.get(id);
      if (!current) return null;
      update.run({ ...current, ...patch, id, now: now() });
      return this.get(id);
    },
    /** Null: the service did not say which scopes its last token granted. */
    setGrantedScopes(id: string, scopes: readonly string[] | null): boolean {
      return updateScopes.run(scopes === null ? null : scopes.join(' '), now(), id).changes > 0;
    },
    /**
     * Deletes the profile and, by cascade, its strategies, holdings, versions, orders, drafts and
     * journal. The caller removes the profile's secret from the SecretStore.
     */
    delete(id: string): boolean {
      return remove.run(id).changes > 0;
    },
  };
}
