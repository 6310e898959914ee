import type { DeskHandlers } from '../../../shared/contract';
import {
  normalServiceAddress,
  serviceAddressProblem,
} from '../../../shared/profiles/service-address';
import { DeskError } from '../../../shared/views';
import { recordProfileChanged, recordProfileCreated, recordProfileRemoved } from '../activity';
import type { Profile, Store } from '../store';
import type { SecretStore } from '../secrets';
import type { Connections } from '../profiles/connections';
import type { TeamConnections } from '../team/connection';
import { notFound } from '../errors';
import type { Tracking } from '../tracking/tracking';
import { profileView } from '../views/profile';

/** The service address as stored (see shared/profiles/service-address.ts), or a clear refusal. */
export function checkServiceAddress(input: string): string {
  const problem = serviceAddressProblem(input);
  const address = normalServiceAddress(input);
  if (problem !== null || address === null) {
    throw new DeskError({
      kind: 'invalid-input',
      message: problem ?? `"${input}" is not a web address (e.g. https://service.example.com).`,
    });
  }
  return address;
}

/** Thrown when a profile's address changes and nobody said where its stored secret may go. */
export function secretNeededForNewAddress(from: string, to: string): DeskError {
  return new DeskError({
    kind: 'secret-needed-for-new-address',
    message:
      `The service address changed from ${from} to ${to}. Enter the client secret for the new ` +
      `address, or confirm that the stored secret may be sent there.`,
    details: { from, to },
  });
}

/**
 * A profile's removal or a change of its service address waits for no batch: while one of the
 * profile's batches sends, its executions are followed and answered through this profile at this
 * address, so either is refused in words (checked again just before the write, after any wait).
 */
function refuseWhileSending(store: Store, profileId: string, what: string): void {
  const sending = store.batches
    .unfinished()
    .filter((b) => b.profileId === profileId && b.state === 'sending').length;
  if (sending === 0) return;
  throw new DeskError({
    kind: 'busy',
    message: `${sending === 1 ? 'A batch' : `${sending} batches`} of this profile ${sending === 1 ? 'is' : 'are'} sending: ${what} once sending is over, or cancel the batch first.`,
  });
}

export interface ProfileServices {
  /** The whole store: profile changes are recorded in the activity log. */
  store: Store;
  secrets: SecretStore;
  connections: Connections;
  tracking: Pick<Tracking, 'stopFollowing'>;
  /** A removed profile leaves its team: its pool and its listening connection closed. */
  teams: Pick<TeamConnections, 'leave'>;
  /** "Try the built-in sandbox": its profile, set up or resumed. */
  useSandbox(): Promise<Profile>;
}

export function profileHandlers({
  store,
  secrets,
  connections,
  tracking,
  teams,
  useSandbox,
}: ProfileServices): DeskHandlers['profiles'] {
  const view = async (profile: Profile) =>
    profileView(profile, {
      storage: secrets.kind === 'keychain' ? 'keychain' : 'session',
      present: (await secrets.get(profile.id)) !== null,
    });
  const existing = (profileId: string) => {
    const profile = store.profiles.get(profileId);
    if (!profile) throw notFound('This profile');
    return profile;
  };

  return {
    async list() {
      return Promise.all(store.profiles.list().map(view));
    },
    async create({ name, baseUrl, clientId, secret }) {
      const profile = recordProfileCreated(store, () =>
        store.profiles.create({
          name: name.trim(),
          baseUrl: checkServiceAddress(baseUrl),
          clientId: clientId.trim(),
          environment: 'production',
        }),
      );
      try {
        await secrets.set(profile.id, secret);
      } catch (error) {
        // A profile whose secret could not be kept would fail later, far from the cause.
        recordProfileRemoved(store, profile.id, () => store.profiles.delete(profile.id));
        throw error;
      }
      return view(profile);
    },
    async update({ profileId, name, baseUrl, clientId, secret, sendSecretToNewAddress }) {
      const before = existing(profileId);
      const patch = {
        ...(name !== undefined && { name: name.trim() }),
        ...(baseUrl !== undefined && { baseUrl: checkServiceAddress(baseUrl) }),
        ...(clientId !== undefined && { clientId: clientId.trim() }),
      };
      const moves = patch.baseUrl !== undefined && patch.baseUrl !== before.baseUrl;
      const changeAddress = 'change its service address';
      if (moves) refuseWhileSending(store, profileId, changeAddress);
      // The stored secret was given for one service: it never follows the profile to another
      // address unless the manager enters it again or says it may.
      const storedSecretMoves =
        patch.baseUrl !== undefined &&
        patch.baseUrl !== before.baseUrl &&
        secret === undefined &&
        (await secrets.get(profileId)) !== null;
      if (storedSecretMoves && sendSecretToNewAddress !== true) {
        throw secretNeededForNewAddress(before.baseUrl, patch.baseUrl!);
      }
      if (secret !== undefined) await secrets.set(profileId, secret);
      const change = { secretReplaced: secret !== undefined, storedSecretMoves };
      if (moves) refuseWhileSending(store, profileId, changeAddress);
      const updated =
        recordProfileChanged(store, before, change, () =>
          store.profiles.update(profileId, patch),
        ) ?? existing(profileId);
      await connections.reset(profileId);
      return view(updated);
    },
    async remove({ profileId }) {
      existing(profileId);
      const removeIt = 'remove it';
      refuseWhileSending(store, profileId, removeIt);
      await connections.reset(profileId);
      // From here to the removal nothing waits: no batch of the profile starts in between.
      refuseWhileSending(store, profileId, removeIt);
      tracking.stopFollowing({ profileId });
      recordProfileRemoved(store, profileId, () => store.profiles.delete(profileId));
      await secrets.delete(profileId);
      // Its team's pool and LISTEN end with it, and its team password leaves the keychain.
      await teams.leave(profileId);
      return { ok: true as const };
    },
    async check({ profileId, baseUrl, clientId, secret, sendSecretToNewAddress }) {
      const address = checkServiceAddress(baseUrl);
      let useSecret = secret;
      if (useSecret === undefined) {
        const before = profileId === undefined ? null : existing(profileId);
        const stored = before ? await secrets.get(before.id) : null;
        if (before === null || stored === null) {
          throw new DeskError({ kind: 'invalid-input', message: 'Enter the client secret.' });
        }
        if (address !== before.baseUrl && sendSecretToNewAddress !== true) {
          throw secretNeededForNewAddress(before.baseUrl, address);
        }
        useSecret = stored;
      }
      // Any echo of the typed secret is taken out by the client that sent it.
      const grantedScopes = await connections.checkCredentials(address, clientId.trim(), useSecret);
      return { grantedScopes };
    },
    async testConnection({ profileId }) {
      existing(profileId);
      const grantedScopes = await connections.call(profileId, (c) => c.testConnection());
      store.profiles.setGrantedScopes(profileId, grantedScopes);
      return { grantedScopes };
    },
    async useSandbox() {
      return view(await useSandbox());
    },
  };
}
