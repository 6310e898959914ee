import type { ProfileView } from '../../../shared/views';
import type { Profile } from '../store';

/** A profile as the contract carries it: never its secret, only where it is kept and whether. */
export function profileView(
  profile: Profile,
  secret: { storage: 'keychain' | 'session'; present: boolean },
): ProfileView {
  return {
    id: profile.id,
    name: profile.name,
    baseUrl: profile.baseUrl,
    clientId: profile.clientId,
    environment: profile.environment,
    secretStorage: secret.storage,
    hasSecret: secret.present,
    grantedScopes: profile.grantedScopes,
    createdAt: profile.createdAt,
  };
}
