import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { MAX_MESSAGE_BYTES, type ServerMessage } from '../src/classroom/protocol.ts';
import { seededRandom } from '../src/util/random.ts';
import { ClassroomCore } from './core.ts';
import { Rooms } from './rooms.ts';
import { startServer } from './server.ts';

/**
 * Hostile and malformed messages, drawn from a seeded generator: wrong types in every field, huge
 * strings, unknown kinds, forged and replayed keys, answers to questions that are not open,
 * actions from the wrong role. Each must be refused with a reason and change no room.
 */
function hostileMessages(count: number, seed: number, ctx: { room: string; otherRoom: string; studentToken: string; staleToken: string }) {
  const rand = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const junk = (): unknown =>
    pick<() => unknown>([
      () => null,
      () => true,
      () => -1,
      () => 1e308 * 10,
      () => 'x'.repeat(Math.floor(rand() * 200)),
      () => [1, 2, 3],
      () => ({ nested: { deeper: [{}] } }),
      () => '\u0000\u0007',
      () => 3.5,
      () => '<img src=x onerror=alert(1)>',
    ])();
  const kinds = ['create', 'teacher', 'join', 'watch', 'step', 'open', 'lock', 'reveal', 'reset', 'close', 'answer', 'ping'];
  const makers: (() => string)[] = [
    // Not JSON at all, or JSON that is not an object.
    () => pick(['', '{', 'null', '[]', '"join"', '42', 'undefined', '{"type":', '\u0000']),
    // Unknown kinds.
    () => JSON.stringify({ type: pick(['hack', 'admin', 'REVEAL', '', 'constructor', '__proto__']), room: ctx.room }),
    () => JSON.stringify({ room: ctx.room, token: ctx.studentToken }),
    // A known kind with a junk field.
    () => {
      const type = pick(kinds);
      const m: Record<string, unknown> = { type, room: ctx.room, token: ctx.studentToken, lesson: 'reduction', step: 2 };
      m[pick(['room', 'token', 'lesson', 'step', 'question', 'value', 'name', 'student', 'round'])] = junk();
      if (type === 'ping') m.extra = junk();
      return JSON.stringify(m);
    },
    // Extra keys (every message is strict), prototype keys.
    () => `{"type":"ping","__proto__":{"admin":true}}`,
    () => JSON.stringify({ type: 'watch', room: ctx.room, admin: true }),
    // Huge strings: past the message limit, or a name past its limit.
    () => JSON.stringify({ type: 'join', room: ctx.room, name: 'n'.repeat(MAX_MESSAGE_BYTES + Math.floor(rand() * 5000)) }),
    () => JSON.stringify({ type: 'join', room: ctx.room, name: 'n'.repeat(41 + Math.floor(rand() * 100)) }),
    () => JSON.stringify({ type: 'open', room: ctx.room, token: ctx.studentToken, question: { kind: 'choice', prompt: 'p', options: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] } }),
    // Forged and replayed keys: a student's own token, a made-up one, one from another room.
    () => JSON.stringify({ type: pick(['lock', 'reveal', 'reset', 'close']), room: ctx.room, token: pick([ctx.studentToken, ctx.staleToken, 'A'.repeat(43)]) }),
    () => JSON.stringify({ type: 'teacher', room: ctx.room, token: pick([ctx.studentToken, ctx.staleToken]) }),
    () => JSON.stringify({ type: 'step', room: ctx.otherRoom, token: ctx.studentToken, lesson: 'reduction', step: 9 }),
    // Answers to questions that do not exist, or malformed answers.
    () => JSON.stringify({ type: 'answer', room: ctx.room, question: 1 + Math.floor(rand() * 5), round: 1, value: { kind: 'number', value: 7 } }),
    () => JSON.stringify({ type: 'answer', room: ctx.room, question: 1, round: 1, value: { kind: 'choice', index: 99 } }),
    () => JSON.stringify({ type: 'answer', room: ctx.room, question: 1, round: 1, value: { kind: 'number', value: 'seven' } }),
    // Rooms that do not exist, codes of the wrong shape.
    () => JSON.stringify({ type: 'join', room: pick(['ABCDEFGH', 'abcdefgh', 'A', '00000000', 'ZZZZZZZZZ']) }),
    () => JSON.stringify({ type: 'create', lesson: pick(['../etc', 'A B', '', 'x'.repeat(80)]), step: 1 }),
    () => JSON.stringify({ type: 'create', lesson: 'reduction', step: pick([0, -3, 1.5, 501, 1e9]) }),
  ];
  return Array.from({ length: count }, () => pick(makers)());
}

describe('classroom fuzzing', () => {
  it('refuses 10 000 hostile messages, each with a reason, and no room changes', () => {
    // Generous rate limits here: this test is about validation, not flooding.
    const core = new ClassroomCore(new Rooms(), { limits: { burst: 1e9, perSecond: 1e9, failedJoinsPerMinute: 1e9, coalesceMs: 0 } });
    const sink: ServerMessage[] = [];
    const conn = (ip: string) => ({ ip, send: (m: ServerMessage) => sink.push(m), close: () => undefined });
    const t = core.connect(conn('10.0.0.1'))!;
    t.message(JSON.stringify({ type: 'create', lesson: 'reduction', step: 1 }));
    const created = sink.find((m) => m.type === 'created') as Extract<ServerMessage, { type: 'created' }>;
    const other = core.connect(conn('10.0.0.3'))!;
    other.message(JSON.stringify({ type: 'create', lesson: 'scan', step: 2 }));
    const otherRoom = sink.filter((m) => m.type === 'created')[1] as Extract<ServerMessage, { type: 'created' }>;
    const s = core.connect(conn('10.0.0.2'))!;
    s.message(JSON.stringify({ type: 'join', room: created.room, name: 'Ada' }));
    const joined = sink.find((m) => m.type === 'joined') as Extract<ServerMessage, { type: 'joined' }>;
    const before = JSON.stringify(core.rooms.snapshot());
    const messages = hostileMessages(10_000, 2026, { room: created.room, otherRoom: otherRoom.room, studentToken: joined.student!, staleToken: otherRoom.token });
    const reasons = new Map<string, number>();
    for (const [i, text] of messages.entries()) {
      // From a stranger, a student and a projector in turn.
      sink.length = 0;
      if (i % 3 === 0) s.message(text);
      else {
        const h = core.connect(conn(`10.1.${i % 200}.${i % 7}`))!;
        if (i % 3 === 2) h.message(JSON.stringify({ type: 'watch', room: created.room }));
        sink.length = 0;
        h.message(text);
        h.closed();
      }
      const refused = sink.filter((m): m is Extract<ServerMessage, { type: 'refused' }> => m.type === 'refused');
      if (refused.length !== 1 || sink.some((m) => m.type === 'state' || m.type === 'ack' || m.type === 'created' || m.type === 'joined')) {
        throw new Error(`message ${i} was not refused exactly once: ${text.slice(0, 200)} → ${JSON.stringify(sink).slice(0, 300)}`);
      }
      expect(refused[0]!.detail.length).toBeGreaterThan(0);
      reasons.set(refused[0]!.reason, (reasons.get(refused[0]!.reason) ?? 0) + 1);
    }
    core.stop();
    expect(JSON.stringify(core.rooms.snapshot())).toBe(before);
    // The generator reaches many kinds of refusal, not one.
    expect(reasons.size).toBeGreaterThanOrEqual(8);
  });

  it('over real sockets, hostile messages are refused and the server keeps serving', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'classroom-fuzz-'));
    const server = await startServer({ port: 0, host: '127.0.0.1', journal: join(dir, 'j.jsonl'), limits: { burst: 1e6, perSecond: 1e6, failedJoinsPerMinute: 1e6 } });
    try {
      const url = `ws://127.0.0.1:${server.port}/classroom`;
      const origin = `http://127.0.0.1:${server.port}`;
      const open = () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(url, { origin });
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        });
      const teacher = await open();
      const created = await new Promise<Extract<ServerMessage, { type: 'created' }>>((resolve) => {
        teacher.on('message', (d) => {
          const m = JSON.parse((d as Buffer).toString('utf8')) as ServerMessage;
          if (m.type === 'created') resolve(m);
        });
        teacher.send(JSON.stringify({ type: 'create', lesson: 'reduction', step: 1 }));
      });
      const before = JSON.stringify(server.core.rooms.snapshot());
      const messages = hostileMessages(1000, 7, { room: created.room, otherRoom: 'ABCDEFGH', studentToken: 'B'.repeat(43), staleToken: 'C'.repeat(43) });
      const sockets = await Promise.all(Array.from({ length: 10 }, open));
      let refusals = 0;
      const done = new Promise<void>((resolve) => {
        for (const ws of sockets) {
          ws.on('message', (d) => {
            const m = JSON.parse((d as Buffer).toString('utf8')) as ServerMessage;
            if (m.type === 'refused') refusals++;
            if (refusals === messages.length) resolve();
          });
        }
      });
      messages.forEach((text, i) => sockets[i % sockets.length]!.send(text));
      await done;
      expect(refusals).toBe(messages.length);
      expect(JSON.stringify(server.core.rooms.snapshot())).toBe(before);
      // Binary frames are refused too, and the server still answers a ping.
      const probe = await open();
      const replies: ServerMessage[] = [];
      probe.on('message', (d) => replies.push(JSON.parse((d as Buffer).toString('utf8')) as ServerMessage));
      probe.send(Buffer.from([1, 2, 3]));
      probe.send(JSON.stringify({ type: 'ping' }));
      await new Promise((r) => setTimeout(r, 200));
      expect(replies.map((m) => m.type)).toEqual(['refused', 'pong']);
      for (const ws of [...sockets, teacher, probe]) ws.close();
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
