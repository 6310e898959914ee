import { createHash, randomUUID } from 'node:crypto';
import type {
  RestrictionFindingView,
  RestrictionOverrideInput,
  RestrictionView,
  ViolationView,
} from '../../../shared/restrictions/contract';
import {
  classifyTarget,
  restrictionsInForce,
  type Restriction,
  type RestrictionKind,
  type RestrictionScope,
  type Violation,
} from '../../../shared/restrictions/rules';
import { DeskError } from '../../../shared/errors';
import { notFound } from '../errors';
import type { Store } from '../store';
import { canonicalJson } from '../store/repositories/activity-canonical';
import type { StoredRestriction } from '../store/repositories/restrictions';

/**
 * The desk's restrictions (docs/restrictions.md): kept per profile, checked wherever a target is
 * shown (the draft editor, the confirmation, a batch's review) with the rules of
 * shared/restrictions/rules.ts, enforced where every execution is armed (execution/execute.ts:
 * `forExecution`), and checked against the real orders once a rebalance ends (after-end.ts).
 */

export interface NewRestriction {
  kind: RestrictionKind;
  symbol: string;
  scope: RestrictionScope;
  reason: string;
  setBy: string;
  from?: string | undefined;
  until?: string | null | undefined;
}

/** What an execution is armed with: the list in force, its hash, the override given. */
export interface ExecutionRestrictionCheck {
  listHash: string;
  rules: Restriction[];
  violations: Violation[];
  override: RestrictionOverrideInput | null;
  /** What the execution's activity entry keeps (a canonical payload: strings only). */
  entry: {
    listHash: string;
    inForce: number;
    violations: { symbol: string; level: string }[];
    override: { symbols: string[]; note: string } | null;
  };
}

/** The canonical hash of a list of rules, as the activity log hashes its entries. */
export function listHashOf(rules: readonly Restriction[]): string {
  const sorted = [...rules].map(plainRule).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return createHash('sha256').update(canonicalJson(sorted)).digest('hex');
}

const plainRule = (r: Restriction): Restriction => ({
  id: r.id,
  kind: r.kind,
  symbol: r.symbol,
  scope: r.scope,
  reason: r.reason,
  setBy: r.setBy,
  from: r.from,
  until: r.until,
});

/** An ISO timestamp in the one form the store compares (UTC, milliseconds). */
export function instant(value: string, what: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time))
    throw new DeskError({
      kind: 'invalid-input',
      message: `${what} "${value}" is not a date and time.`,
    });
  return new Date(time).toISOString();
}

const SYMBOL = /^[A-Z0-9][A-Z0-9.\-/]{0,63}$/;

/** Where a refused cell is, for a column ("Line 3, column until: "), or nothing. */
export type Where = (column: string) => string;

export class Restrictions {
  constructor(
    private readonly store: Pick<Store, 'restrictions' | 'profiles' | 'strategies' | 'drafts'>,
    private readonly now: () => string,
  ) {}

  list(profileId: string): RestrictionView[] {
    this.profile(profileId);
    const at = this.now();
    return this.store.restrictions.list(profileId).map((r) => viewOf(r, at));
  }

  /**
   * Checks a rule as given; `where` names where a refused cell is (an imported file's line and
   * column), before the words.
   */
  ruleOf(profileId: string, input: NewRestriction, where: Where = () => ''): Restriction {
    const symbol = input.symbol.trim().toUpperCase();
    if (!SYMBOL.test(symbol))
      throw invalid(
        `${where('symbol')}"${input.symbol.trim()}" is not a symbol (letters, digits, . - /).`,
      );
    const from = input.from ? instant(input.from, `${where('from')}From`) : this.now();
    const until =
      input.until === undefined || input.until === null
        ? null
        : instant(input.until, `${where('until')}Until`);
    // Equal: a rule ended the moment it began (an export of one reads back as it was).
    if (until !== null && until < from)
      throw invalid(`${where('until')}Until (${until}) must not come before from (${from}).`);
    const reason = input.reason.trim();
    const setBy = input.setBy.trim();
    if (reason === '') throw invalid(`${where('reason')}Give the reason.`);
    if (setBy === '') throw invalid(`${where('set_by')}Say who sets it.`);
    const scope: RestrictionScope =
      input.scope.type === 'tag' ? { type: 'tag', tag: input.scope.tag.trim() } : input.scope;
    if (scope.type === 'tag' && scope.tag === '')
      throw invalid(`${where('strategy_or_tag')}Name the tag.`);
    if (scope.type === 'strategy' && !this.store.strategies.get(profileId, scope.strategyId))
      throw invalid(
        `${where('strategy_or_tag')}The strategy ${scope.strategyId} is not in this profile.`,
      );
    return { id: randomUUID(), kind: input.kind, symbol, scope, reason, setBy, from, until };
  }

  /** Adds every rule, or none when one is refused. `where(i)`: where the i-th rule came from. */
  add(
    profileId: string,
    inputs: readonly NewRestriction[],
    where: (i: number) => Where = () => () => '',
  ): RestrictionView[] {
    this.profile(profileId);
    const rules = inputs.map((input, i) => this.ruleOf(profileId, input, where(i)));
    const at = this.now();
    return this.store.restrictions.add(profileId, rules).map((r) => viewOf(r, at));
  }

  end(profileId: string, restrictionId: string): RestrictionView {
    this.profile(profileId);
    const at = this.now();
    const before = this.store.restrictions.get(profileId, restrictionId);
    if (!before) throw notFound('This restriction');
    if (!this.store.restrictions.end(profileId, restrictionId, at))
      throw invalid(`The restriction on ${before.symbol} is no longer in force: nothing to end.`);
    return viewOf(this.store.restrictions.get(profileId, restrictionId)!, at);
  }

  /** The rules in force for a strategy now, the symbols it holds as last read, and their hash. */
  inForce(profileId: string, strategyId: string, at = this.now()) {
    const tags = this.store.restrictions.tagsOf(profileId, strategyId);
    const current = this.store.restrictions.notOverBy(profileId, at);
    const bySymbol = restrictionsInForce(current, { strategyId, tags }, at);
    const rules = [...bySymbol.values()].flat();
    const held = this.store.strategies
      .holdings(profileId, strategyId)
      .filter((h) => !/^0*(\.0*)?$/.test(h.quantity))
      .map((h) => h.symbol.toUpperCase());
    return { bySymbol, rules, held: new Set(held), listHash: listHashOf(rules), at };
  }

  /** A target's rows against the rules in force for the strategy and its holdings as last read. */
  check(
    profileId: string,
    strategyId: string,
    rows: readonly { symbol: string; weight: string }[],
  ) {
    const inForce = this.inForce(profileId, strategyId);
    return { ...inForce, violations: classifyTarget(rows, inForce.held, inForce.bySymbol) };
  }

  checkDraft(draftId: string): { violations: ViolationView[]; listHash: string } {
    const draft = this.store.drafts.get(draftId);
    if (!draft) throw notFound('This draft');
    const { violations, listHash } = this.check(draft.profileId, draft.strategyId, draft.rows);
    return { violations: violations.map(violationView), listHash };
  }

  /**
   * What an execution may be armed with: refused (kind restricted, nothing journaled) while a
   * certain violation is not overridden by name, or any violation lacks the override's note.
   */
  forExecution(
    profileId: string,
    strategyId: string,
    rows: readonly { symbol: string; weight: string }[],
    override: RestrictionOverrideInput | undefined,
  ): ExecutionRestrictionCheck {
    const { rules, violations, listHash } = this.check(profileId, strategyId, rows);
    const named = new Set((override?.symbols ?? []).map((s) => s.trim().toUpperCase()));
    const note = override?.note.trim() ?? '';
    const open = violations.filter((v) => !named.has(v.symbol) || note === '');
    if (open.length > 0) {
      const certain = open.filter((v) => v.level === 'certain');
      const possible = open.filter((v) => v.level === 'possible');
      const words = [
        certain.length > 0 &&
          `it breaks a restriction for certain on ${certain.map((v) => v.symbol).join(', ')}`,
        possible.length > 0 &&
          `it may break a restriction on ${possible.map((v) => v.symbol).join(', ')} (no prices tell the order's direction)`,
      ].filter(Boolean);
      throw new DeskError({
        kind: 'restricted',
        message:
          `Not executed: ${words.join('; and ')}. Override each of these symbols by name with a ` +
          `note saying why, or change the target. Nothing was sent.\n` +
          open.map((v) => v.message).join('\n'),
        details: { violations: open.map((v) => ({ symbol: v.symbol, level: v.level })) },
      });
    }
    const used = violations.length > 0 && override ? override : null;
    return {
      listHash,
      rules,
      violations,
      override: used,
      entry: {
        listHash,
        inForce: rules.length,
        violations: violations.map((v) => ({ symbol: v.symbol, level: v.level })),
        override: used ? { symbols: [...named].sort(), note } : null,
      },
    };
  }

  /** Keeps the list an execution was armed with (in the transaction that journals it). */
  recordForExecution(
    journalId: string,
    profileId: string,
    strategyId: string,
    check: ExecutionRestrictionCheck,
  ): void {
    this.store.restrictions.recordExecutionList({
      journalId,
      profileId,
      strategyId,
      listHash: check.listHash,
      rules: check.rules.map(plainRule),
      overrideSymbols: check.entry.override?.symbols ?? null,
      overrideNote: check.entry.override?.note ?? null,
      armedAt: this.now(),
    });
  }

  findings(profileId: string, versionId: string): RestrictionFindingView[] {
    this.profile(profileId);
    return this.store.restrictions.findings(profileId, versionId).map((f) => ({
      versionId: f.versionId,
      orderId: f.orderId,
      symbol: f.symbol,
      side: f.side,
      orderStatus: f.orderStatus,
      quantity: f.quantity,
      restrictionId: f.restrictionId,
      restrictionKind: f.restrictionKind,
      overridden: f.overridden,
      message: f.message,
      foundAt: f.foundAt,
    }));
  }

  private profile(profileId: string) {
    const profile = this.store.profiles.get(profileId);
    if (!profile) throw notFound('This profile');
    return profile;
  }
}

export const violationView = (v: Violation): ViolationView => ({
  symbol: v.symbol,
  level: v.level,
  message: v.message,
  restrictionIds: v.restrictions.map((r) => r.id),
});

export function viewOf(r: StoredRestriction, at: string): RestrictionView {
  return {
    id: r.id,
    kind: r.kind,
    symbol: r.symbol,
    scope: r.scope,
    reason: r.reason,
    setBy: r.setBy,
    from: r.from,
    until: r.until,
    state: r.from > at ? 'upcoming' : r.until !== null && r.until <= at ? 'over' : 'in-force',
  };
}

function invalid(message: string): DeskError {
  return new DeskError({ kind: 'invalid-input', message });
}
