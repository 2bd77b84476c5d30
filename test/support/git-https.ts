// A real git server over HTTPS for the git source's tests: Node's https server with a throwaway
// self-signed certificate for localhost (made with openssl), passing each request to the real
// `git http-backend` (CGI), and answering 401 unless the request carries the expected
// Authorization header. It keeps every Authorization header it saw, for the test to check.
import { execFileSync, spawn } from 'node:child_process';
import https from 'node:https';
import type net from 'node:net';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { tempDir } from './temp';

export interface GitHttps {
  port: number;
  /** The certificate, for GIT_SSL_CAINFO. */
  caFile: string;
  url(name: string): string;
  authorizations: string[];
  stop(): Promise<void>;
}

function certificate(): { key: string; cert: string } {
  const dir = tempDir('steward-cert-');
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
  return { key, cert };
}

/** Serves the bare repositories under `base` at https://localhost:<port>/<name>, asking for `expected` (a whole Authorization header value). */
export async function startGitHttps(base: string, expected: string): Promise<GitHttps> {
  const files = certificate();
  const fs = await import('node:fs');
  const authorizations: string[] = [];
  const sockets = new Set<Duplex>();
  const server = https.createServer({ key: fs.readFileSync(files.key), cert: fs.readFileSync(files.cert) }, (request, response) => {
    const url = new URL(request.url ?? '/', 'https://localhost');
    authorizations.push(request.headers.authorization ?? '');
    if (request.headers.authorization !== expected) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"', 'content-type': 'text/plain' });
      response.end('who are you?\n');
      return;
    }
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: base,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: request.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
        REMOTE_USER: 'tester',
        REMOTE_ADDR: '127.0.0.1',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    request.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) return void response.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (name === 'status') status = Number(value.split(' ')[0]);
        else headers[name] = value;
      }
      response.writeHead(status, headers);
      response.write(head.subarray(end + 4));
    });
    cgi.on('close', () => response.end());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
  return {
    port,
    caFile: files.cert,
    url: (name) => `https://localhost:${port}/${name}`,
    authorizations,
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
