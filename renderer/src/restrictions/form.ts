import type { NewRestrictionInput } from './restrictions.svelte';
import type { RestrictionView } from '../../../shared/restrictions/contract';

/** The add form's fields as typed. */
export interface RestrictionFields {
  kind: RestrictionView['kind'];
  symbol: string;
  scope: 'profile' | 'strategy' | 'tag';
  strategyId: string;
  tag: string;
  reason: string;
  setBy: string;
  /** A day (yyyy-mm-dd) or empty: from now. */
  from: string;
  /** A day or empty: open-ended. */
  until: string;
}

export type FieldErrors = Partial<Record<keyof RestrictionFields, string>>;

const SYMBOL = /^[A-Z0-9][A-Z0-9.\-/]{0,63}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A day's start in the manager's time zone, as the desk's ISO timestamp. */
function dayStart(day: string): string | null {
  if (!DAY.test(day)) return null;
  const time = new Date(`${day}T00:00:00`);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

/**
 * The form's fields checked before anything is sent, each error naming its field; the desk checks
 * again (its refusal is shown too). A rule, or the errors.
 */
export function readRestrictionForm(
  fields: RestrictionFields,
): { ok: true; input: NewRestrictionInput } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const symbol = fields.symbol.trim().toUpperCase();
  if (symbol === '') errors.symbol = 'Symbol: enter the symbol.';
  else if (!SYMBOL.test(symbol))
    errors.symbol = `Symbol: "${fields.symbol.trim()}" is not a symbol (letters, digits, . - /).`;
  if (fields.scope === 'strategy' && fields.strategyId === '')
    errors.strategyId = 'Strategy: choose the strategy it applies to.';
  if (fields.scope === 'tag' && fields.tag.trim() === '')
    errors.tag = 'Tag: name the tag whose strategies it applies to.';
  if (fields.reason.trim() === '') errors.reason = 'Reason: say why the symbol is restricted.';
  if (fields.setBy.trim() === '') errors.setBy = 'Set by: say who sets it.';
  const from = fields.from.trim() === '' ? undefined : dayStart(fields.from.trim());
  if (from === null) errors.from = `From: "${fields.from}" is not a day.`;
  const until = fields.until.trim() === '' ? null : dayStart(fields.until.trim());
  if (until === null && fields.until.trim() !== '')
    errors.until = `Until: "${fields.until}" is not a day.`;
  else if (until !== null && until <= (from ?? new Date().toISOString()))
    errors.until = from
      ? 'Until: the day must come after From.'
      : 'Until: the day must be in the future (the rule starts now).';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const scope =
    fields.scope === 'strategy'
      ? { type: 'strategy' as const, strategyId: fields.strategyId }
      : fields.scope === 'tag'
        ? { type: 'tag' as const, tag: fields.tag.trim() }
        : { type: 'profile' as const };
  return {
    ok: true,
    input: {
      kind: fields.kind,
      symbol,
      scope,
      reason: fields.reason.trim(),
      setBy: fields.setBy.trim(),
      ...(from ? { from } : {}),
      until,
    },
  };
}
