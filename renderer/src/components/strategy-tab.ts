import type { Component } from 'svelte';
import type { StrategyView } from '../../../shared/views';
import type { StrategyTabName } from '../lib/stores/session.svelte';

/**
 * What the strategy pane hands each of its tabs: the strategy as it is shown now. The rest comes
 * from the context: the open strategy's store (`getStrategyDetail`: read it again, its history,
 * its open version) and the session (which tab and version are open).
 */
export type StrategyTabProps = { strategy: StrategyView };

/**
 * One tab of the strategy pane; its name is its label and its id in the page. Its component is
 * loaded the first time the tab is shown (each tab is a chunk of its own), once.
 */
export type StrategyTab = {
  name: StrategyTabName;
  load: () => Promise<Component<StrategyTabProps>>;
};

/** A tab's component, loaded on first use and kept. */
export function lazyTab(
  load: () => Promise<{ default: Component<StrategyTabProps> }>,
): () => Promise<Component<StrategyTabProps>> {
  let loaded: Promise<Component<StrategyTabProps>> | undefined;
  return () =>
    (loaded ??= load().then(
      (m) => m.default,
      (error: unknown) => {
        loaded = undefined;
        throw error;
      },
    ));
}
