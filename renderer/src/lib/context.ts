import { createContext } from 'svelte';
import type { DeskApi } from '../../../shared/contract';
import type { Connectivity } from './stores/connectivity.svelte';
import type { Journal } from './stores/journal.svelte';
import type { Profiles } from './stores/profiles.svelte';
import type { DeskSession } from './stores/session.svelte';
import type { Strategies } from './stores/strategies.svelte';
import type { StrategyDetail } from './stores/strategy-detail.svelte';

/** What every screen may read without it being passed down: the desk and the app's stores. */
export interface DeskContext {
  api: DeskApi;
  session: DeskSession;
  profiles: Profiles;
  strategies: Strategies;
  connectivity: Connectivity;
  journal: Journal;
}

const [getContext, setContext] = createContext<DeskContext>();

/** Provides the context to the app's component tree; called once, by the root. */
export function setDeskContext(session: DeskSession): DeskContext {
  return setContext({
    api: session.api,
    session,
    profiles: session.profiles,
    strategies: session.strategies,
    connectivity: session.connectivity,
    journal: session.journal,
  });
}

/** The desk and the stores, from any component under the root. */
export function getDeskContext(): DeskContext {
  return getContext();
}

const [getDetail, setDetail] = createContext<StrategyDetail>();

/** Provides the open strategy to its pane's tabs; called by the pane, which is keyed by it. */
export function setStrategyDetail(detail: StrategyDetail): StrategyDetail {
  return setDetail(detail);
}

/** The strategy open in the pane this component is in. */
export function getStrategyDetail(): StrategyDetail {
  return getDetail();
}
