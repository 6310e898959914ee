import type { Store } from '../store';
import { Restrictions, type NewRestriction } from '../restrictions';

/**
 * The one restriction the sandbox profile starts with (README, the demo table): TSLA must not be
 * bought anywhere in the profile. A draft of Core Equity giving TSLA a weight breaks it for
 * certain; Small Cap Growth, which holds TSLA, breaks it possibly whenever TSLA keeps a weight.
 */
export const DEMO_RESTRICTION: NewRestriction = {
  kind: 'do-not-buy',
  symbol: 'TSLA',
  scope: { type: 'profile' },
  reason: 'Demo: the issuer is under compliance review',
  setBy: 'Demo compliance',
};

export function seedDemoRestriction(
  store: Pick<Store, 'restrictions' | 'profiles' | 'strategies' | 'drafts'>,
  profileId: string,
  now: () => string,
): void {
  new Restrictions(store, now).add(profileId, [DEMO_RESTRICTION]);
}
