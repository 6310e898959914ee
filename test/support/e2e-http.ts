import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: () => { ok: boolean; value?: unknown; error?: { kind: string; message: string } };
}

/**
 * A request with full control of every header (Host, Origin, Sec-Fetch-Site), as a hostile
 * page or a rebinding DNS name would send it; fetch would not let us forge these.
 */
export function rawRequest(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { Host: `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: () => JSON.parse(body),
          });
        });
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** A call to the contract as the renderer makes it. */
export function apiCall(
  port: number,
  channel: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<RawResponse> {
  return rawRequest(port, {
    method: 'POST',
    path: `/api/${channel}`,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}
