import type { DeskHandlers } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';
import type { Profile } from '../store';
import type { DeskContext } from './context';
import { notFound } from './errors';
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
      const profile = ctx.store.profiles.create({
        name: name.trim(),
        baseUrl: checkServiceAddress(baseUrl),
        clientId: clientId.trim(),
        environment: 'production',
      });
      try {
        await ctx.secrets.set(profile.id, secret);
      } catch (error) {
        // A profile whose secret could not be kept would fail later, far from the cause.
        ctx.store.profiles.delete(profile.id);
        throw error;
      }
      return view(profile);
    },
    async update({ profileId, name, baseUrl, clientId, secret }) {
      existing(profileId);
      const patch = {
        ...(name !== undefined && { name: name.trim() }),
        ...(baseUrl !== undefined && { baseUrl: checkServiceAddress(baseUrl) }),
        ...(clientId !== undefined && { clientId: clientId.trim() }),
      };
      if (secret !== undefined) await ctx.secrets.set(profileId, secret);
      const updated = ctx.store.profiles.update(profileId, patch) ?? existing(profileId);
      await ctx.connections.reset(profileId);
      return view(updated);
    },
    async remove({ profileId }) {
      existing(profileId);
      for (const v of ctx.store.versions.listActive()) {
        if (v.profile_id === profileId) ctx.tracker.untrack(v.id);
      }
      await ctx.connections.reset(profileId);
      ctx.store.profiles.delete(profileId);
      await ctx.secrets.delete(profileId);
      return { ok: true as const };
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
