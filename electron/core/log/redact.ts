/** What stands in for a secret wherever one would have been shown or written. */
export const REDACTED = '[redacted]';

/**
 * Secrets are taken out of text that carries a service's words (an error's message, the body it
 * sent, a log line), never out of the app's own data: an id, a quantity or a kind is not where a
 * service echoes a credential, and a short secret ("1") would rewrite it everywhere.
 */

/**
 * The forms a secret can take in text a service echoes back: as sent, JSON-escaped (inside a raw
 * body kept as serviceMessage) and URL-encoded (inside an echoed form or query). Longest first,
 * so a secret that contains another is replaced whole.
 */
export function secretForms(secrets: readonly (string | null | undefined)[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(encodeURIComponent(secret));
  }
  return [...forms]
    .filter((f) => f.length > 0)
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/** `text` with every occurrence of every form replaced (forms from secretForms). */
export function redactForms(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

/** True when any form occurs in `text`. */
export function holdsForm(text: string, forms: readonly string[]): boolean {
  return forms.some((form) => text.includes(form));
}

/**
 * A copy of `value` with every occurrence of every secret replaced in every string, however deep
 * (object keys, array items, nested objects). Numbers, booleans and null pass unchanged. For the
 * log only: its lines are text written for whoever helps the manager, never data read back.
 */
export function redactDeep<T>(value: T, secrets: readonly (string | null | undefined)[]): T {
  const forms = secretForms(secrets);
  if (forms.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactForms(v, forms);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).map(([k, item]) => [
          redactForms(k, forms),
          walk(item),
        ]),
      );
    }
    return v;
  };
  return walk(value) as T;
}
