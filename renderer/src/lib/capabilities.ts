import type { AppStatus, ProfileView, StrategyView } from '../../../shared/views';

/**
 * Why an action cannot be taken now, in plain words, or null when it can.
 * Buttons stay visible and disabled with this reason as their explanation.
 */
export function executeBlockedReason(input: {
  profile: ProfileView | null;
  status: AppStatus | null;
  strategy: StrategyView;
  draftValid: boolean;
}): string | null {
  const { profile, status, strategy, draftValid } = input;
  if (!profile) return 'Choose a profile first.';
  if (status && !status.online) return 'Offline: executing needs a connection to the service.';
  const missing = missingScopes(profile, ['strategy_versions:create', 'strategy_versions:execute']);
  if (missing.length > 0) return `This client lacks the scope ${missing.join(' and ')}.`;
  if (strategy.runningVersionId) return 'A rebalance of this strategy is still running.';
  if (!draftValid) return 'The draft has problems: fix them first (see the list below the grid).';
  return null;
}

/** Scopes the profile's last token did not grant; none are missing while no token was seen. */
export function missingScopes(profile: ProfileView, needed: readonly string[]): string[] {
  if (profile.grantedScopes === null) return [];
  return needed.filter((scope) => !profile.grantedScopes!.includes(scope));
}

/** What each scope lets the app do, in the manager's words. */
export const SCOPE_LABELS: Readonly<Record<string, string>> = {
  'strategies:read': 'read strategies and their holdings',
  'strategy_versions:read': 'read versions and their orders',
  'strategy_versions:create': 'create versions',
  'strategy_versions:execute': 'execute versions',
  'strategy_versions:delete': 'delete versions not executed yet',
};

/**
 * Why an action needing these scopes is disabled ("This client lacks the scope X: it cannot
 * <what>."), or null when the profile's last token granted them all (or none was seen yet).
 */
export function scopeBlockedReason(
  profile: ProfileView | null,
  needed: readonly string[],
  what: string,
): string | null {
  if (!profile) return 'Choose a profile first.';
  const missing = missingScopes(profile, needed);
  if (missing.length === 0) return null;
  const scope = missing.length === 1 ? 'the scope' : 'the scopes';
  return `This client lacks ${scope} ${missing.join(' and ')}: it cannot ${what}.`;
}
