import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { parseArgs } from './args.ts';
import { startServer, type RunningServer } from './server.ts';

describe('classroom server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'classroom-server-'));
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', journal: join(dir, 'j.jsonl'), allowedOrigins: ['http://localhost:5173'] });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Whether a WebSocket with this `Origin` (none: undefined) gets in. */
  const connects = (origin: string | undefined) =>
    new Promise<string>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/classroom`, origin ? { origin } : {});
      ws.once('open', () => {
        ws.close();
        resolve('open');
      });
      ws.once('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
      ws.once('error', () => resolve('error'));
    });

  it('lets in its own origin and listed ones, and refuses any other origin, or none, with 403', async () => {
    expect(await connects(`http://127.0.0.1:${server.port}`)).toBe('open');
    expect(await connects('http://localhost:5173')).toBe('open');
    expect(await connects('https://evil.example')).toBe('403');
    expect(await connects(`http://127.0.0.1:${server.port + 1}`)).toBe('403');
    expect(await connects(undefined)).toBe('403');
  });

  it('answers its health check, so the app knows a classroom server is there', async () => {
    const r = await fetch(`http://127.0.0.1:${server.port}/classroom/health`);
    expect(r.headers.get('content-type')).toContain('application/json');
    expect(await r.json()).toEqual({ classroom: true, version: 1 });
  });

  it('reads its command line: --port or PORT, with clear messages for bad values', () => {
    expect(parseArgs([], {})).toMatchObject({ port: 8080, host: '0.0.0.0' });
    expect(parseArgs([], { PORT: '9000' })).toMatchObject({ port: 9000 });
    expect(parseArgs(['--port', '7000'], { PORT: '9000' })).toMatchObject({ port: 7000 });
    expect(parseArgs(['--port', 'eighty'], {})).toBe('--port takes a port number from 0 to 65535, not “eighty”');
    expect(parseArgs([], { PORT: '70000' })).toBe('PORT must be a port number from 0 to 65535, not “70000”');
    expect(parseArgs(['--port'], {})).toBe('--port needs a value');
    expect(parseArgs(['--verbose'], {})).toMatch(/^unknown option --verbose; the options are/);
  });
});
