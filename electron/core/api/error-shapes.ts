/**
 * Error body shapes beyond the two the app's own sandbox uses, read for what they say: JSON:API
 * error objects (`{errors: [{status, title, detail, code, source: {pointer}, meta}]}`), RFC 9457
 * problem details (`{title, detail, ...}`), `{error: "a sentence"}` and `{error: {...}}`, and
 * HTML or plain-text pages. The caller (error-mapping.ts) merges what these find.
 */

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An OAuth-style code: one word of letters, digits and `_.:-` (not a sentence). */
export const isCode = (text: string): boolean => /^[A-Za-z0-9_.:-]{1,80}$/.test(text);

/** A JSON pointer (RFC 6901) as a field name: `/data/positions/0/weight` → `data.positions[0].weight`. */
export function pointerField(pointer: string): string {
  const parts = pointer
    .replace(/^#?\/?/, '')
    .split('/')
    .filter((p) => p !== '')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** What one JSON:API error object says. */
export interface JsonApiError {
  /** `detail`, else `title`, else `message`. */
  words?: string;
  /** Where it points (`source.pointer` or `source.parameter`), as a field name. */
  field?: string;
  code?: string;
  versionId?: string;
  symbols?: string[];
}

export function readJsonApiError(item: Json): JsonApiError | null {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const words = text(item.detail) ?? text(item.title) ?? text(item.message);
  const source = isObject(item.source) ? item.source : undefined;
  const pointer = text(source?.pointer) ?? text(source?.parameter) ?? text(item.field);
  const meta = isObject(item.meta) ? item.meta : {};
  const code = text(item.code);
  if (!words && !code && !pointer) return null;
  const symbols = [meta.symbols, meta.unknown_symbols, item.symbols].find(Array.isArray);
  const versionId = versionIdIn(meta) ?? versionIdIn(item);
  return {
    ...(words && { words }),
    ...(pointer && { field: pointer.includes('/') ? pointerField(pointer) : pointer }),
    ...(code && { code }),
    ...(versionId && { versionId }),
    ...(symbols && {
      symbols: (symbols as unknown[]).filter((s): s is string => typeof s === 'string'),
    }),
  };
}

/** A version id where services put one: `version_id`, `versionId`, `meta.version_id`. */
export function versionIdIn(body: Json): string | undefined {
  for (const value of [
    body.version_id,
    body.versionId,
    isObject(body.meta) && body.meta.version_id,
  ])
    if (typeof value === 'string' && value.trim()) return value.trim();
  return undefined;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#39': "'",
};

/** The lines of text an HTML page shows (scripts, styles and markup dropped); null if not HTML. */
export function htmlLines(page: string): string[] | null {
  if (!/^<(!doctype|html|head|body|h\d|p|div|title|center|pre|span)\b/i.test(page)) return null;
  const body = /<body[^>]*>([\s\S]*?)(<\/body>|$)/i.exec(page)?.[1] ?? page;
  const text = body
    .replace(/<(script|style|head)\b[\s\S]*?(<\/\1>|$)/gi, ' ')
    .replace(/<\/?(p|div|h\d|li|br|tr|pre|center|title)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#39|[a-z]+);/gi, (m, name: string) => ENTITIES[name.toLowerCase()] ?? m)
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n) % 0x110000));
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => /[a-z]/i.test(line));
}

/** A symbol named in running text: upper case as the app sends it (AAPL, BRK.B). */
const SYMBOL = /^[A-Z0-9][A-Z0-9.\-/]{0,19}$/;

const unquote = (s: string) => s.replace(/^["'`“‘(]+|["'`”’),]+$/g, '');

/** Names after "...: " up to the end of the sentence, when every one of them is a symbol. */
function namesIn(list: string): string[] {
  const names = list
    .replace(/[.;!]\s*$/, '')
    .split(/\s*,\s*|\s+and\s+|\s+/)
    .map(unquote)
    .filter(Boolean);
  return names.length > 0 && names.every((n) => SYMBOL.test(n)) ? names : [];
}

/**
 * Symbols named in words, one sentence at a time: "unknown symbols: FOO, BAR", "does not
 * recognize the symbol FOO", "symbols not found: FOO", "the following symbols are unknown: FOO",
 * "symbol 'FOO' is not recognized", "FOO is not a known symbol". Empty when the text names none.
 */
export function symbolsInText(text: string): string[] {
  const found: string[] = [];
  for (const sentence of text.split(/\n|(?<=[.;!])\s+(?=[A-Z])/)) {
    const list =
      /\b(?:unknown|unrecogni[sz]ed|invalid|not recogni[sz]ed|unsupported|does not recogni[sz]e(?: the| these)?)\s+symbols?\b\s*:?\s*(.+)$/i.exec(
        sentence,
      ) ??
      /\bsymbols?\s+(?:not found|not recogni[sz]ed|unknown|not known|not supported)\s*:?\s*(.+)$/i.exec(
        sentence,
      ) ??
      /\b(?:following|these)\s+symbols?\s+(?:are|is)\s+(?:unknown|not recogni[sz]ed|not known|invalid|not supported)\s*:\s*(.+)$/i.exec(
        sentence,
      ) ??
      /\bno such symbols?\s*:?\s*(.+)$/i.exec(sentence);
    if (list) {
      found.push(...namesIn(list[1]!));
      continue;
    }
    // The name before the verdict: "symbol 'FOO' is not recognized", "FOO is not a valid symbol".
    const named =
      /\bsymbols?\s+(\S+(?:\s*,\s*\S+)*)\s+(?:is|are)\s+(?:not recogni[sz]ed|unknown|not known|invalid|not supported|not found)\b/i.exec(
        sentence,
      ) ??
      /^(?:the\s+)?(\S+)\s+is\s+not\s+a\s+(?:known|recogni[sz]ed|valid|supported)\s+symbol\b/i.exec(
        sentence.trim(),
      );
    if (named) found.push(...namesIn(named[1]!));
  }
  return [...new Set(found)];
}

/** Words that say a symbol is not known, without naming it (the name is where it points). */
export const SAYS_UNKNOWN_SYMBOL =
  /\b(unknown|unrecogni[sz]ed|not recogni[sz]ed|not (a )?(known|valid|supported|recogni[sz]ed)|invalid|not found|does not exist)\b/i;
