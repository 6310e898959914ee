import type { RepositoryContext } from './context';

export type SettingsRepository = ReturnType<typeof settingsRepository>;

/** App-wide preferences as text; callers encode structured values (JSON) themselves. */
export function settingsRepository({ db }: RepositoryContext) {
  const selectOne = db.prepare<[string], { value: string }>(
    'SELECT value FROM settings WHERE key = ?',
  );
  const selectAll = db.prepare<[], { key: string; value: string }>(
    'SELECT key, value FROM settings ORDER BY key',
  );
  const upsert = db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const remove = db.prepare('DELETE FROM settings WHERE key = ?');

  return {
    get(key: string): string | null {
      return selectOne.get(key)?.value ?? null;
    },
    set(key: string, value: string): void {
      upsert.run(key, value);
    },
    delete(key: string): boolean {
      return remove.run(key).changes > 0;
    },
    all(): Record<string, string> {
      return Object.fromEntries(selectAll.all().map((r) => [r.key, r.value]));
    },
  };
}
