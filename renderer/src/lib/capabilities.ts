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
