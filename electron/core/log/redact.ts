/** What stands in for a secret wherever one would have been shown or written. */
export const REDACTED = '[redacted]';

/**
 * The forms a secret can take in text a service echoes back: as sent, JSON-escaped (inside a raw
 * body kept as serviceMessage) and URL-encoded (inside an echoed form or query). Longest first,
 * so a secret that contains another is replaced whole.
 */
function secretForms(secrets: readonly (string | null | undefined)[]): string[] {
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

function redactText(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

/**
 * A copy of `value` with every occurrence of every secret replaced in every string, however deep
 * (object keys, array items, nested objects). Numbers, booleans and null pass unchanged.
 */
export function redactDeep<T>(value: T, secrets: readonly (string | null | undefined)[]): T {
  const forms = secretForms(secrets);
  if (forms.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, forms);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).map(([k, item]) => [
          redactText(k, forms),
          walk(item),
        ]),
      );
    }
    return v;
  };
  return walk(value) as T;
}

/**
 * `value` itself when no secret occurs anywhere in it (one serialization and a substring search
 * per form, the common case), else its redacted copy.
 */
export function redactIfPresent<T>(value: T, secrets: readonly (string | null | undefined)[]): T {
  const forms = secretForms(secrets);
  if (forms.length === 0 || value === undefined) return value;
  const text = JSON.stringify(value);
  if (text === undefined || !forms.some((form) => text.includes(form))) return value;
  return redactDeep(value, secrets);
}
