import { z } from 'zod';
import { method, ok, profileRef, strategyRef } from '../contract-parts';
import { strategyListItem, strategyView } from '../views';

/** The strategies of a profile the app follows, each as last read from the service. */
export const strategiesContract = {
  list: method(profileRef, z.array(strategyListItem)),
  add: method(strategyRef, strategyView),
  get: method(strategyRef, strategyView),
  refresh: method(strategyRef, strategyView),
  /** Stops a refresh still waiting on the service; that refresh fails with kind `cancelled`. */
  cancelRefresh: method(strategyRef, ok),
  remove: method(strategyRef, ok),
};
