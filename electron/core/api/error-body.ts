import {
  htmlLines,
  isCode,
  isObject,
  readJsonApiError,
  symbolsInText,
  versionIdIn,
  type Json,
} from './error-shapes';

/**
 * An error answer's body read into what the app acts on: a code, the service's words, field
 * messages, unknown symbols, a version id, a scope. Two documented formats (OAuth 2
 * `{error, error_description}` and `{errors: {detail, <field>: [...]}}`) and the other shapes
 * services use (error-shapes.ts) are read; anything else (HTML, text, empty, garbage) is
 * tolerated and only its short plain words are kept.
 */

export interface ParsedErrorBody {
  /** OAuth2 `error` code, e.g. invalid_client, insufficient_scope. */
  code?: string;
  /** `error_description` or `errors.detail` or `message`. */
  description?: string;
  /** Other fields of `errors`, as arrays of strings. */
  fields: Record<string, string[]>;
  unknownSymbols?: string[];
  versionId?: string;
  scope?: string;
}

const MAX_TEXT = 300;

export function short(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > MAX_TEXT ? `${t.slice(0, MAX_TEXT)}…` : t;
}

export function asStrings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v))
    return v.filter((x) => typeof x === 'string' || typeof x === 'number').map(String);
  return [];
}

/** A symbol named in running text: upper case as the app sends it (AAPL, BRK.B). */
export const SYMBOL = /^[A-Z0-9][A-Z0-9.\-/]{0,19}$/;

/** Field errors, nested ones (`{data: {positions: [...]}}`) under a dotted name. */
function collectFields(fields: Record<string, string[]>, key: string, value: unknown): void {
  // A list of objects (`positions: [{symbol: [...]}]`): each item under its index.
  if (Array.isArray(value) && value.some((v) => v && typeof v === 'object')) {
    value.forEach((item, i) => collectFields(fields, `${key}.${i}`, item));
    return;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [inner, v] of Object.entries(value as Record<string, unknown>))
      collectFields(fields, `${key}.${inner}`, v);
    return;
  }
  const list = asStrings(value);
  if (list.length) fields[key] = list.map(short);
}

export { symbolsInText };

export function parseErrorBody(text: string): ParsedErrorBody {
  const out: ParsedErrorBody = { fields: {} };
  const trimmed = text.trim();
  if (!trimmed) return out;
  let json: unknown;
  if (trimmed.startsWith('{')) {
    try {
      json = JSON.parse(trimmed);
    } catch {
      json = undefined;
    }
  }
  if (!isObject(json)) {
    readText(trimmed, out);
    return out;
  }
  readObject(json, out);
  // Nothing in a known place: the body itself is the service's own words.
  if (!out.description && !out.code && Object.keys(out.fields).length === 0 && !out.unknownSymbols)
    out.description = short(trimmed);
  return out;
}

/** A page or plain text: its words (markup and binary noise dropped), symbols line by line. */
function readText(trimmed: string, out: ParsedErrorBody): void {
  const lines = htmlLines(trimmed);
  if (lines) {
    if (lines.length) out.description = short(lines.join(' '));
  } else if (!/^[<{[]/.test(trimmed) && /[a-z]/i.test(trimmed) && /^[\x20-\x7e\s]+$/.test(trimmed))
    out.description = short(trimmed);
  const symbols = symbolsInText((lines ?? [trimmed]).join('\n'));
  if (symbols.length) out.unknownSymbols = symbols;
}

/** One JSON error object, and `{error: {...}}` inside it (one level down). */
function readObject(body: Json, out: ParsedErrorBody, depth = 0): void {
  if (typeof body.error === 'string') {
    // `{error: "invalid_scope"}` is a code; `{error: "Unknown symbols: FOO"}` is a sentence.
    if (isCode(body.error)) out.code ??= body.error;
    else out.description ??= short(body.error);
  } else if (isObject(body.error) && depth === 0) readObject(body.error, out, 1);
  if (typeof body.code === 'string' && isCode(body.code)) out.code ??= body.code;
  if (typeof body.error_description === 'string') out.description = short(body.error_description);
  if (typeof body.scope === 'string') out.scope = body.scope;
  const errors = body.errors;
  if (isObject(errors)) {
    for (const [key, value] of Object.entries(errors)) {
      if (key === 'detail') {
        if (typeof value === 'string') out.description ??= short(value);
      } else if (key === 'version_id') {
        if (typeof value === 'string' && value) out.versionId = value;
      } else if (key === 'symbols' && asStrings(value).every((v) => /^\S+$/.test(v))) {
        // A list of names; a list of sentences is read like any field's messages.
        out.unknownSymbols = asStrings(value);
      } else {
        collectFields(out.fields, key, value);
      }
    }
  } else if (Array.isArray(errors)) {
    readErrorList(errors, out);
  }
  // A list of names beside the message: `{symbols: [...]}`, `{unknown_symbols: [...]}`.
  for (const key of ['unknown_symbols', 'symbols'] as const) {
    const names = asStrings(body[key] ?? (isObject(errors) ? errors[key] : undefined));
    if (!out.unknownSymbols && names.length && names.every((v) => SYMBOL.test(v)))
      out.unknownSymbols = names;
  }
  out.versionId ??= versionIdIn(body);
  // RFC 9457 problem details and the common `{message}`: detail, message, then title.
  for (const key of ['message', 'detail', 'title'] as const)
    if (!out.description && typeof body[key] === 'string' && body[key].trim())
      out.description = short(body[key]);
}

/**
 * `errors` as a list: sentences; `{field, message}` pairs; JSON:API error objects (each detail
 * under the field its pointer names, or among the words when it points nowhere).
 */
function readErrorList(errors: unknown[], out: ParsedErrorBody): void {
  const list = asStrings(errors);
  if (list.length) out.description ??= short(list.join('; '));
  const words: string[] = [];
  errors.forEach((item, i) => {
    if (!isObject(item)) return;
    const { field, message } = item;
    if (typeof message === 'string' && !('detail' in item) && !('title' in item)) {
      const key = typeof field === 'string' && field ? field : String(i);
      out.fields[key] = [...(out.fields[key] ?? []), short(message)];
      return;
    }
    const read = readJsonApiError(item);
    if (!read) {
      collectFields(out.fields, String(i), item);
      return;
    }
    if (read.code && isCode(read.code)) out.code ??= read.code;
    if (read.versionId) out.versionId ??= read.versionId;
    const names = read.symbols?.filter((n) => SYMBOL.test(n)) ?? [];
    if (names.length) out.unknownSymbols = [...new Set([...(out.unknownSymbols ?? []), ...names])];
    if (!read.words) return;
    if (read.field) out.fields[read.field] = [...(out.fields[read.field] ?? []), short(read.words)];
    else words.push(read.words);
  });
  if (words.length) out.description ??= short(words.join('; '));
}
