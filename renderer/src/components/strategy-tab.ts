import type { Component } from 'svelte';
import type { StrategyView } from '../../../shared/views';

/** What the strategy pane hands each of its tabs: the same for every tab. */
export type StrategyTabProps = {
  strategy: StrategyView;
  /** The tab changed the strategy (an execution, a deletion): the pane reads it again. */
  onChanged: () => void;
  /** Shows a version's detail in the Versions tab. */
  openVersion: (versionId: string) => void;
  /** The version the Versions tab shows in detail (null: its list). */
  versionId: string | null;
};

/**
 * One tab of the strategy pane; its name is its label and its id in the page. Its component is
 * loaded the first time the tab is shown (each tab is a chunk of its own), once.
 */
export type StrategyTab = { name: string; load: () => Promise<Component<StrategyTabProps>> };

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
