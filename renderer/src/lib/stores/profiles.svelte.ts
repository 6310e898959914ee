import type { DeskApi } from '../../../../shared/contract';
import type { ProfileView } from '../../../../shared/views';

const PROFILE_KEY = 'strategy-desk.profile';

export interface ProfileChanges {
  name?: string;
  baseUrl?: string;
  clientId?: string;
  secret?: string;
}

/** The profiles, the selected one (remembered across launches) and one just created. */
export class Profiles {
  list = $state<ProfileView[]>([]);
  selectedId = $state<string | null>(null);
  /** Set after a profile was created, so its page suggests testing the connection. */
  justCreated = $state<string | null>(null);

  readonly selected = $derived(this.list.find((p) => p.id === this.selectedId) ?? null);

  constructor(
    private readonly api: DeskApi,
    /** A change that may move the status bar (a secret, a connection test, a removal). */
    private readonly onStatusMoved: () => void,
  ) {}

  async reload(): Promise<void> {
    this.list = await this.api.profiles.list({});
  }

  /** The id of the profile selected when the app last closed, as it was kept. */
  rememberedId(): string | null {
    const id = localStorage.getItem(PROFILE_KEY);
    // Only what an id looks like is worth naming to the desk.
    return id !== null && /^[\w-]{1,100}$/.test(id) ? id : null;
  }

  /** The profile selected when the app last closed, else the first one. */
  remembered(): ProfileView | null {
    const id = this.rememberedId();
    return this.list.find((p) => p.id === id) ?? this.list[0] ?? null;
  }

  select(profileId: string | null): void {
    this.selectedId = profileId;
    if (profileId) localStorage.setItem(PROFILE_KEY, profileId);
    else localStorage.removeItem(PROFILE_KEY);
  }

  /** A profile made elsewhere (the form, the sandbox) joins the list. */
  put(profile: ProfileView): void {
    this.list = [...this.list.filter((p) => p.id !== profile.id), profile];
  }

  async update(profileId: string, changes: ProfileChanges): Promise<ProfileView> {
    const updated = await this.api.profiles.update({ profileId, ...changes });
    this.list = this.list.map((p) => (p.id === updated.id ? updated : p));
    this.onStatusMoved();
    return updated;
  }

  /**
   * Asks the service for a token; the granted scopes are stored with the profile (null: the
   * service did not say which).
   */
  async testConnection(profileId: string): Promise<string[] | null> {
    try {
      const { grantedScopes } = await this.api.profiles.testConnection({ profileId });
      await this.reload();
      return grantedScopes;
    } finally {
      this.onStatusMoved();
    }
  }

  /** Removes the profile (and, in the desk, its secret from the keychain). */
  async remove(profileId: string): Promise<void> {
    await this.api.profiles.remove({ profileId });
    await this.reload();
    this.onStatusMoved();
  }
}
