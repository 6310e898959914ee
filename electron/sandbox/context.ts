import { TokenStore } from './auth';
import { buildDemoState } from './demo-data';
import { Progression } from './engine';
import { defaultFaults, type Faults, SlidingWindow } from './faults';
import type { RememberedExecute, SandboxSnapshot } from './persistence';
import { runningRebalance, type SandboxState } from './state';

/** Everything one running sandbox holds; reset() puts it back to the demo data. */
export class SandboxContext {
  state: SandboxState = buildDemoState();
  readonly tokens = new TokenStore();
  faults: Faults = defaultFaults();
  readonly tokenWindow = new SlidingWindow();
  readonly apiWindow = new SlidingWindow();
  /** Keyed by client id and Idempotency-Key: keys are scoped to the client. */
  idempotency = new Map<string, RememberedExecute>();
  executionsAccepted = new Map<string, number>();
  tokenRequests = 0;
  apiRequests = 0;
  stepMs: number;
  readonly progression: Progression;

  /** Called after every change of the state worth keeping (set by a persisted sandbox). */
  onChange: () => void = () => undefined;

  constructor(private readonly initialStepMs: number) {
    this.stepMs = initialStepMs;
    this.progression = new Progression(
      () => this.stepMs,
      () => this.changed(),
      () => this.faults.partial_fills,
    );
  }

  changed(): void {
    this.onChange();
  }

  /** The state as saved, without tokens or faults. */
  snapshot(): SandboxSnapshot {
    return {
      state: this.state,
      idempotency: this.idempotency,
      executionsAccepted: this.executionsAccepted,
      tokenRequests: this.tokenRequests,
      apiRequests: this.apiRequests,
    };
  }

  /** Takes a saved state and lets the rebalances that were running go on. */
  restore(snapshot: SandboxSnapshot): void {
    this.progression.clear();
    this.state = snapshot.state;
    this.idempotency = snapshot.idempotency;
    this.executionsAccepted = snapshot.executionsAccepted;
    this.tokenRequests = snapshot.tokenRequests;
    this.apiRequests = snapshot.apiRequests;
    for (const strategy of this.state.strategies.values()) {
      const running = runningRebalance(strategy);
      if (running) this.progression.resume(strategy, running);
    }
  }

  /** Demo data, no faults, zero counters, no idempotency memory, the start step time. */
  reset(): void {
    this.progression.clear();
    this.state = buildDemoState();
    this.clearFaults();
    this.idempotency.clear();
    this.executionsAccepted = new Map();
    this.tokenRequests = 0;
    this.apiRequests = 0;
    this.stepMs = this.initialStepMs;
    this.changed();
  }

  clearFaults(): void {
    this.faults = defaultFaults();
    this.tokenWindow.clear();
    this.apiWindow.clear();
  }

  private readonly sleepers = new Set<NodeJS.Timeout>();

  /** Injected latency; tracked so close() leaves no timer behind. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.sleepers.delete(timer);
        resolve();
      }, ms);
      this.sleepers.add(timer);
    });
  }

  /** Stops every timer: progression steps and pending latencies. */
  stopTimers(): void {
    this.progression.clear();
    for (const timer of this.sleepers) clearTimeout(timer);
    this.sleepers.clear();
  }

  countExecution(strategyId: string): void {
    this.executionsAccepted.set(strategyId, (this.executionsAccepted.get(strategyId) ?? 0) + 1);
  }
}

export function idempotencySlot(clientId: string, key: string): string {
  return `${clientId}\n${key}`;
}

/** JSON with object keys sorted: the same body however its keys were ordered or spaced. */
export function fingerprint(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
