import { createReadStream, statSync } from 'node:fs';

/**
 * The lines of an export file as the verifier reads them: UTF-8, split on LF (a CRLF file, as
 * a transfer may leave it, reads the same), a byte order mark before the header ignored. A line
 * longer than any the app writes is refused before it is held in memory whole.
 */

/** Far above any entry (a version's end with every order runs to a few megabytes). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** What makes a file unreadable as an export, said plainly. */
export class ExportFileProblem extends Error {}

const BOM = '\uFEFF';

/** Why the file cannot be read at all, or null when it is a readable file. */
export function fileProblem(path: string): string | null {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? `There is no file at ${path}.`
      : `Cannot read ${path}: ${(error as Error).message}`;
  }
  return isFile ? null : `${path} is a folder or a device, not an export file.`;
}

export async function* exportLines(
  path: string,
  maxBytes = MAX_LINE_BYTES,
): AsyncGenerator<string, void, undefined> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let number = 0;
  let parts: Buffer[] = [];
  let size = 0;
  const line = (): string => {
    number += 1;
    const bytes = Buffer.concat(parts);
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : undefined;
    let text: string;
    try {
      text = decoder.decode(bytes.subarray(0, end));
    } catch {
      throw new ExportFileProblem(`Line ${number} is not UTF-8 text.`);
    }
    parts = [];
    size = 0;
    return number === 1 && text.startsWith(BOM) ? text.slice(1) : text;
  };
  for await (const chunk of createReadStream(path, {
    highWaterMark: 1024 * 1024,
  }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      size += end - start;
      if (size > maxBytes)
        throw new ExportFileProblem(
          `Line ${number + 1} is longer than ${maxBytes / 1024 / 1024} MiB: no line of an activity export is, so this is not one.`,
        );
      parts.push(chunk.subarray(start, end));
      if (newline === -1) break;
      yield line();
      start = newline + 1;
    }
  }
  // The last line may lack its newline; a final newline leaves nothing after it.
  if (size > 0) yield line();
}
