/**
 * Test and load-test support: the classroom server as a real child process (so it can be killed),
 * and classroom clients over `ws`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import WebSocket from 'ws';
import { ClassroomClient, type ClientEvents, type Identity, type SocketLike } from '../src/classroom/client.ts';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts `npm run classroom -- --socket-only` as a child process and waits until it listens. */
export async function spawnServer(port: number, journal: string, extra: readonly string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['scripts/run-ts.mjs', 'server/main.ts', '--socket-only', '--host', '127.0.0.1', '--port', String(port), '--journal', journal, ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the classroom server did not start within 30 s')), 30_000);
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(`on port ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`the classroom server exited with ${code}: ${out}`)));
  });
  child.stdout?.resume();
  return child;
}

/** A classroom client in Node, over `ws`, with the `Origin` a browser on that server would send. */
export function nodeClient(port: number, identity: Identity, events: ClientEvents, backoff?: (n: number) => number): ClassroomClient {
  const factory = (url: string) => new WebSocket(url, { origin: `http://127.0.0.1:${port}` }) as unknown as SocketLike;
  return new ClassroomClient(`ws://127.0.0.1:${port}/classroom`, identity, factory, events, backoff);
}
