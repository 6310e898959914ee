import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A service on loopback that is the sandbox behind another client secret: every request is passed
 * on to the sandbox as it came, except that the token request's `client_secret` is exchanged
 * (`secret` for the sandbox's own). A profile can then hold a secret the sandbox does not know
 * ("1", one character, as the profile schema allows) and still read real strategies.
 */
export interface CredentialRelay {
  baseUrl: string;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startCredentialRelay(options: {
  /** The sandbox's address, e.g. http://127.0.0.1:41234 */
  target: string;
  /** The secret the profile holds. */
  secret: string;
  /** The one the sandbox knows. */
  sandboxSecret: string;
}): Promise<CredentialRelay> {
  const target = new URL(options.target);
  const server = createServer((req, res) => {
    void (async () => {
      let body = await readBody(req);
      if (req.url === '/api/auth/token' && body.length > 0) {
        const sent = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
        if (sent.client_secret === options.secret) sent.client_secret = options.sandboxSecret;
        body = Buffer.from(JSON.stringify(sent));
      }
      const headers = { ...req.headers, host: target.host };
      if (body.length > 0) headers['content-length'] = String(body.length);
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
