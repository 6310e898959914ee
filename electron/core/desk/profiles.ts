import type { DeskHandlers } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';
import { recordProfileChanged, recordProfileCreated, recordProfileRemoved } from '../activity';
import type { Profile } from '../store';
import type { DeskContext } from './context';
import { redactDeep } from '../log/redact';
import { notFound, toDeskError } from './errors';
import { profileView } from './views';

/**
 * The service address: https for any host but this machine's loopback, where
 * the built-in sandbox and local test services live.
 */
export function checkServiceAddress(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new DeskError({
      kind: 'invalid-input',
      message: `"${input}" is not a web address (e.g. https://service.example.com).`,
    });
  }
  const loopback =
    url.hostname === 'localhost' ||
    url.hostname === '[::1]' ||
    /^127(\.\d{1,3}){3}$/.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new DeskError({
      kind: 'invalid-input',
      message:
        'The service address must start with https:// (plain http is allowed only for this machine).',
    });
  }
  if (url.username || url.password) {
    throw new DeskError({
      kind: 'invalid-input',
      message: 'The service address must not contain a user name or password.',
    });
  }
  if (url.search || url.hash) {
    throw new DeskError({
      kind: 'invalid-input',
      message: 'The service address must not contain a query or a fragment.',
    });
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
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

export function profileHandlers(
  ctx: DeskContext,
  useSandbox: () => Promise<Profile>,
): DeskHandlers['profiles'] {
  const view = async (profile: Profile) =>
    profileView(profile, {
      storage: ctx.secrets.kind === 'keychain' ? 'keychain' : 'session',
      present: (await ctx.secrets.get(profile.id)) !== null,
    });
  const existing = (profileId: string) => {
    const profile = ctx.store.profiles.get(profileId);
    if (!profile) throw notFound('This profile');
    return profile;
  };

  return {
    async list() {
      return Promise.all(ctx.store.profiles.list().map(view));
    },
    async create({ name, baseUrl, clientId, secret }) {
      const profile = recordProfileCreated(ctx.store, () =>
        ctx.store.profiles.create({
          name: name.trim(),
          baseUrl: checkServiceAddress(baseUrl),
          clientId: clientId.trim(),
          environment: 'production',
        }),
      );
      try {
        await ctx.secrets.set(profile.id, secret);
      } catch (error) {
        // A profile whose secret could not be kept would fail later, far from the cause.
        recordProfileRemoved(ctx.store, profile.id, () => ctx.store.profiles.delete(profile.id));
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
      // The stored secret was given for one service: it never follows the profile to another
      // address unless the manager enters it again or says it may.
      if (
        patch.baseUrl !== undefined &&
        patch.baseUrl !== before.baseUrl &&
        secret === undefined &&
        sendSecretToNewAddress !== true &&
        (await ctx.secrets.get(profileId)) !== null
      ) {
        throw secretNeededForNewAddress(before.baseUrl, patch.baseUrl);
      }
      if (secret !== undefined) await ctx.secrets.set(profileId, secret);
      const updated =
        recordProfileChanged(ctx.store, before, { secretReplaced: secret !== undefined }, () =>
          ctx.store.profiles.update(profileId, patch),
        ) ?? existing(profileId);
      await ctx.connections.reset(profileId);
      return view(updated);
    },
    async remove({ profileId }) {
      existing(profileId);
      for (const v of ctx.store.versions.listActive()) {
        if (v.profile_id === profileId) ctx.tracker.untrack(v.id);
      }
      await ctx.connections.reset(profileId);
      recordProfileRemoved(ctx.store, profileId, () => ctx.store.profiles.delete(profileId));
      await ctx.secrets.delete(profileId);
      return { ok: true as const };
    },
    async check({ profileId, baseUrl, clientId, secret, sendSecretToNewAddress }) {
      const address = checkServiceAddress(baseUrl);
      let useSecret = secret;
      if (useSecret === undefined) {
        const before = profileId === undefined ? null : existing(profileId);
        const stored = before ? await ctx.secrets.get(before.id) : null;
        if (before === null || stored === null) {
          throw new DeskError({ kind: 'invalid-input', message: 'Enter the client secret.' });
        }
        if (address !== before.baseUrl && sendSecretToNewAddress !== true) {
          throw secretNeededForNewAddress(before.baseUrl, address);
        }
        useSecret = stored;
      }
      const typed = useSecret;
      const grantedScopes = await ctx.connections
        .checkCredentials(address, clientId.trim(), typed)
        .catch((error: unknown) => {
          // A secret not saved yet is unknown to the desk's redaction: it is taken out here.
          throw DeskError.fromWire(redactDeep(toDeskError(error).toData(), [typed]));
        });
      return { grantedScopes };
    },
    async testConnection({ profileId }) {
      existing(profileId);
      const grantedScopes = await ctx.connections.call(profileId, (c) => c.testConnection());
      ctx.store.profiles.setGrantedScopes(profileId, grantedScopes);
      return { grantedScopes };
    },
    async useSandbox() {
      return view(await useSandbox());
    },
  };
}
