import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { z } from 'zod';
import {
  decimalString,
  holding,
  order,
  timestamp,
  uuid,
  version,
  versionPosition,
} from '../../shared/domain/resources';
import { SandboxState, type StrategyRec } from './state';

/**
 * The sandbox's state on disk, so that the embedded sandbox keeps what the
 * manager did across app restarts: strategies, holdings, cash, versions with
 * their orders and positions, the idempotency memory and the counters. Tokens
 * and faults are deliberately left out: a restart starts with neither.
 */

export const SANDBOX_STATE_FORMAT = 1;

const versionRec = version
  .omit({ orders: true, positions: true })
  .extend({ orders: z.array(order), positions: z.array(versionPosition) });

const strategyRec = z.object({
  id: uuid,
  organization: z.string().min(1),
  name: z.string(),
  description: z.string(),
  fee_percent: decimalString,
  is_liquidate_only: z.boolean(),
  liquidate_only_reason: z.string().nullable(),
  inserted_at: timestamp,
  updated_at: timestamp,
  cash: z.string().regex(/^-?\d+(\.\d+)?$/, 'cash must be a decimal string'),
  holdings: z.array(holding),
  versions: z.array(versionRec),
});

const rememberedExecute = z.object({
  slot: z.string().min(1),
  strategyId: uuid,
  fingerprint: z.string(),
  location: z.string().startsWith('/'),
  payload: z.string(),
});

export const sandboxStateFile = z
  .object({
    format: z.literal(SANDBOX_STATE_FORMAT),
    savedAt: timestamp,
    strategies: z.array(strategyRec),
    idempotency: z.array(rememberedExecute),
    executionsAccepted: z.record(z.string(), z.number().int().nonnegative()),
    tokenRequests: z.number().int().nonnegative(),
    apiRequests: z.number().int().nonnegative(),
  })
  .superRefine((file, issues) => {
    const ids = new Set<string>();
    for (const s of file.strategies) {
      if (ids.has(s.id)) issues.addIssue({ code: 'custom', message: `strategy ${s.id} twice` });
      ids.add(s.id);
      for (const v of s.versions) {
        if (v.strategy_id !== s.id) {
          issues.addIssue({
            code: 'custom',
            message: `version ${v.id} is filed under strategy ${s.id} but names ${v.strategy_id}`,
          });
        }
      }
    }
  });
export type SandboxStateFile = z.infer<typeof sandboxStateFile>;

/** A remembered 202 of an execute, replayed byte for byte for the same key. */
export interface RememberedExecute {
  strategyId: string;
  fingerprint: string;
  location: string;
  payload: string;
}

/** What a state file restores into a running sandbox. */
export interface SandboxSnapshot {
  state: SandboxState;
  idempotency: Map<string, RememberedExecute>;
  executionsAccepted: Map<string, number>;
  tokenRequests: number;
  apiRequests: number;
}

export function toStateFile(snapshot: SandboxSnapshot, savedAt: string): SandboxStateFile {
  return {
    format: SANDBOX_STATE_FORMAT,
    savedAt,
    strategies: [...snapshot.state.strategies.values()],
    idempotency: [...snapshot.idempotency].map(([slot, r]) => ({ slot, ...r })),
    executionsAccepted: Object.fromEntries(snapshot.executionsAccepted),
    tokenRequests: snapshot.tokenRequests,
    apiRequests: snapshot.apiRequests,
  };
}

export function fromStateFile(file: SandboxStateFile): SandboxSnapshot {
  return {
    state: new SandboxState(file.strategies as StrategyRec[]),
    idempotency: new Map(file.idempotency.map(({ slot, ...r }) => [slot, r])),
    executionsAccepted: new Map(Object.entries(file.executionsAccepted)),
    tokenRequests: file.tokenRequests,
    apiRequests: file.apiRequests,
  };
}

export type LoadResult =
  | { kind: 'missing' }
  | { kind: 'loaded'; snapshot: SandboxSnapshot }
  | { kind: 'corrupt'; reason: string; setAsidePath: string | null };

/**
 * Reads the state file. A file that is not valid JSON or not a valid state is
 * moved aside as `<file>.corrupt-<time>` (kept for a person to look at, never
 * overwritten) so the sandbox can start again from the demo data.
 */
export function loadStateFile(path: string, now: Date = new Date()): LoadResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'corrupt', reason: (error as Error).message, setAsidePath: null };
  }
  let reason: string;
  try {
    const parsed = sandboxStateFile.safeParse(JSON.parse(text));
    if (parsed.success) return { kind: 'loaded', snapshot: fromStateFile(parsed.data) };
    const issue = parsed.error.issues[0]!;
    reason = `${issue.path.join('.') || 'the file'}: ${issue.message}`;
  } catch (error) {
    reason = `not valid JSON (${(error as Error).message})`;
  }
  // Colons are not allowed in Windows file names.
  const setAsidePath = `${path}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
  try {
    renameSync(path, setAsidePath);
    return { kind: 'corrupt', reason, setAsidePath };
  } catch {
    return { kind: 'corrupt', reason, setAsidePath: null };
  }
}

/** Writes the whole state to a temp file, flushes it, then renames it over the old one. */
export function writeStateFile(path: string, file: SandboxStateFile): void {
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify(file));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/**
 * Saves after changes, at most once per `delayMs` (a rebalance step or an
 * execute marks the state dirty), and once more, synchronously, on flush.
 */
export class StateSaver {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;

  constructor(
    private readonly save: () => void,
    private readonly onError: (error: Error) => void,
    private readonly delayMs = 200,
  ) {}

  changed(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.delayMs);
    // A pending save must not keep a finished process alive; close() flushes anyway.
    this.timer.unref();
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty) return;
    this.dirty = false;
    try {
      this.save();
    } catch (error) {
      this.onError(error as Error);
    }
  }
}
