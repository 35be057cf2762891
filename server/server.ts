/**
 * The classroom server: the built app (static files, the app's Content-Security-Policy) and a
 * WebSocket endpoint at `/classroom` on one origin, so the app's `connect-src 'self'` allows it.
 * `GET /classroom/health` tells the app that a classroom server is there (a static host answers
 * 404, and the app then hides the live class).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';
import { WebSocketServer, type WebSocket } from 'ws';
import { CSP } from '../csp.config.ts';
import { MAX_MESSAGE_BYTES, type ServerMessage } from '../src/classroom/protocol.ts';
import { ClassroomCore, type Limits } from './core.ts';
import { Journal } from './journal.ts';
import { Rooms } from './rooms.ts';

export const SOCKET_PATH = '/classroom';
export const HEALTH_PATH = '/classroom/health';

export interface ServerOptions {
  /** The built app to serve (a folder with index.html); none: the socket and health only. */
  readonly dist?: string;
  readonly port: number;
  readonly host?: string;
  /** The journal file. */
  readonly journal: string;
  /** Origins allowed besides the server's own (e.g. `http://localhost:5173` for the dev server). */
  readonly allowedOrigins?: readonly string[];
  readonly limits?: Partial<Limits>;
  readonly fsync?: boolean;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly core: ClassroomCore;
  readonly replayed: number;
  close(): Promise<void>;
}

/** Whether a WebSocket's `Origin` may connect: the server's own origin (by the Host it was reached at) or a listed one. */
export function originAllowed(req: IncomingMessage, allowed: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (typeof origin !== 'string') return false;
  if (allowed.includes(origin)) return true;
  const host = req.headers.host;
  return typeof host === 'string' && (origin === `http://${host}` || origin === `https://${host}`);
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const rooms = new Rooms();
  const { journal, replayed } = Journal.open(options.journal, rooms, options.limits?.idleMs ?? 12 * 3_600_000, { fsync: options.fsync ?? false });
  const core = new ClassroomCore(rooms, { journal, ...(options.limits ? { limits: options.limits } : {}) });
  const files = options.dist
    ? sirv(options.dist, {
        single: true,
        etag: true,
        setHeaders: (res) => {
          res.setHeader('Content-Security-Policy', CSP);
          res.setHeader('X-Content-Type-Options', 'nosniff');
        },
      })
    : undefined;
  const http: Server = createServer((req, res) => {
    if (req.url === HEALTH_PATH) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify({ classroom: true, version: 1 }));
      return;
    }
    if (files) {
      files(req, res, () => {
        res.writeHead(404).end();
      });
      return;
    }
    res.writeHead(404).end();
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES * 4 });
  const allowed = options.allowedOrigins ?? [];
  http.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== SOCKET_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    if (!originAllowed(req, allowed)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\n\r\nThis page’s origin may not join the classroom.\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    const handlers = core.connect({
      ip: req.socket.remoteAddress ?? 'unknown',
      send: (m: ServerMessage) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
      },
      close: (code, reason) => ws.close(code, reason),
    });
    if (!handlers) return;
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        ws.send(JSON.stringify({ type: 'refused', reason: 'not-json', detail: 'binary messages are not accepted' } satisfies ServerMessage));
        return;
      }
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
      handlers.message(text);
    });
    ws.on('close', () => handlers.closed());
    ws.on('error', () => ws.terminate());
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    core,
    replayed,
    close: () =>
      new Promise<void>((resolve) => {
        core.stop();
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        http.close(() => {
          journal.close();
          resolve();
        });
        http.closeAllConnections();
      }),
  };
}
