import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RoomView, ServerMessage } from '../src/classroom/protocol.ts';
import { ClassroomCore } from './core.ts';
import { Journal } from './journal.ts';
import { Rooms } from './rooms.ts';

/** A fake connection that records what it is sent. */
function fakeConn(ip = '10.0.0.1') {
  const got: ServerMessage[] = [];
  let closed: string | undefined;
  return {
    conn: { ip, send: (m: ServerMessage) => got.push(m), close: (_c: number, r: string) => (closed = r) },
    got,
    get closed() {
      return closed;
    },
    last<T extends ServerMessage['type']>(type: T): Extract<ServerMessage, { type: T }> {
      for (let i = got.length - 1; i >= 0; i--) if (got[i]!.type === type) return got[i] as Extract<ServerMessage, { type: T }>;
      throw new Error(`no ${type} message among ${got.map((m) => m.type).join(', ')}`);
    },
    lastState(): RoomView {
      for (let i = got.length - 1; i >= 0; i--) {
        const m = got[i]!;
        if (m.type === 'state' || m.type === 'joined' || m.type === 'created') return m.state;
      }
      throw new Error('no state yet');
    },
  };
}

let now = 1_000_000;
function makeCore(journal?: Journal, rooms = new Rooms()) {
  // coalesceMs 0 still defers; tests flush with `await tick()`.
  return new ClassroomCore(rooms, { ...(journal ? { journal } : {}), limits: { coalesceMs: 0 }, now: () => now });
}
const tick = () => new Promise((r) => setTimeout(r, 5));

function classroom(core = makeCore()) {
  const teacher = fakeConn('10.0.0.9');
  const t = core.connect(teacher.conn)!;
  t.message(JSON.stringify({ type: 'create', lesson: 'reduction', step: 1 }));
  const created = teacher.last('created');
  const { room, token } = created;
  const join = (name?: string, ip = '10.0.0.2', student?: string) => {
    const s = fakeConn(ip);
    const h = core.connect(s.conn)!;
    h.message(JSON.stringify({ type: 'join', room, ...(name !== undefined ? { name } : {}), ...(student ? { student } : {}) }));
    return { ...s, h, say: (m: object) => h.message(JSON.stringify(m)) };
  };
  const act = (m: object) => t.message(JSON.stringify({ ...m, room, token }));
  return { core, teacher, t, room, token, join, act };
}

const QUESTION = { kind: 'choice', prompt: 'Which lanes conflict?', options: ['0 and 16', '0 and 1', 'none'], answer: 0 } as const;

describe('classroom core', () => {
  afterEach(() => {
    now = 1_000_000;
  });

  it('creates a room with an 8-character code and a 43-character teacher key', () => {
    const { room, token } = classroom();
    expect(room).toMatch(/^[2-9A-HJKMNP-TW-Z]{8}$/);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('students follow the step; the teacher sees who is there, projectors and students do not', async () => {
    const c = classroom();
    const ada = c.join('Ada');
    const bo = c.join();
    const projector = fakeConn();
    c.core.connect(projector.conn)!.message(JSON.stringify({ type: 'watch', room: c.room }));
    c.act({ type: 'step', lesson: 'reduction', step: 3 });
    expect(ada.lastState().step).toBe(3);
    expect(bo.lastState().step).toBe(3);
    expect(projector.lastState().step).toBe(3);
    await tick();
    const t = c.teacher.lastState();
    expect(t.students).toBe(2);
    expect(t.roster?.map((r) => r.name).sort()).toEqual(['', 'Ada']);
    expect(ada.lastState().roster).toBeUndefined();
    expect(projector.lastState().roster).toBeUndefined();
  });

  it('answers are acknowledged, counted, may change until locked, and results stay hidden until reveal', async () => {
    const c = classroom();
    const ada = c.join('Ada');
    const bo = c.join('Bo');
    const projector = fakeConn();
    c.core.connect(projector.conn)!.message(JSON.stringify({ type: 'watch', room: c.room }));
    c.act({ type: 'open', question: QUESTION });
    const q = ada.lastState().question!;
    expect(q.prompt).toBe('Which lanes conflict?');
    expect(q.answer).toBeUndefined();
    expect(q.bins).toBeUndefined();
    ada.say({ type: 'answer', room: c.room, question: q.id, round: 1, value: { kind: 'choice', index: 1 } });
    expect(ada.last('ack').value).toEqual({ kind: 'choice', index: 1 });
    ada.say({ type: 'answer', room: c.room, question: q.id, round: 1, value: { kind: 'choice', index: 0 } });
    bo.say({ type: 'answer', room: c.room, question: q.id, round: 1, value: { kind: 'choice', index: 0 } });
    await tick();
    const tq = c.teacher.lastState().question!;
    expect(tq.answered).toBe(2);
    expect(tq.bins).toEqual([{ value: 0, count: 2 }]);
    expect(tq.answer).toBe(0);
    const pq = projector.lastState().question!;
    expect(pq.answered).toBe(2);
    expect(pq.bins).toBeUndefined();
    expect(pq.answer).toBeUndefined();
    c.act({ type: 'lock' });
    bo.say({ type: 'answer', room: c.room, question: q.id, round: 1, value: { kind: 'choice', index: 2 } });
    expect(bo.last('refused').reason).toBe('question-locked');
    c.act({ type: 'reveal' });
    const revealed = projector.lastState().question!;
    expect(revealed.phase).toBe('revealed');
    expect(revealed.bins).toEqual([{ value: 0, count: 2 }]);
    expect(revealed.answer).toBe(0);
  });

  it('a second vote starts empty and takes only answers to the new round', async () => {
    const c = classroom();
    const ada = c.join('Ada');
    c.act({ type: 'open', question: QUESTION });
    const q = ada.lastState().question!;
    ada.say({ type: 'answer', room: c.room, question: q.id, round: 1, value: { kind: 'choice', index: 1 } });
    c.act({ type: 'lock' });
    c.act({ type: 'reset' });
    const q2 = ada.lastState().question!;
    expect(q2.round).toBe(2);
    expect(q2.phase).toBe('open');
    expect(ada.lastState().mine).toBeUndefined();
    ada.say({ type: 'answer', room: c.room, question: q.id, round: 1, value: { kind: 'choice', index: 2 } });
    expect(ada.last('refused').reason).toBe('stale-question');
    ada.say({ type: 'answer', room: c.room, question: q.id, round: 2, value: { kind: 'choice', index: 0 } });
    await tick();
    expect(c.teacher.lastState().question!.bins).toEqual([{ value: 0, count: 1 }]);
  });

  it('a student who comes back with their token is the same student, with their answer', () => {
    const c = classroom();
    const ada = c.join('Ada');
    const token = ada.last('joined').student!;
    c.act({ type: 'open', question: { kind: 'number', prompt: 'How many warps diverge?', answer: 4 } });
    const q = ada.lastState().question!;
    ada.say({ type: 'answer', room: c.room, question: q.id, round: 1, value: { kind: 'number', value: 4 } });
    ada.h.closed();
    const again = c.join(undefined, '10.0.0.2', token);
    expect(again.lastState().mine).toEqual({ kind: 'number', value: 4 });
    expect(again.last('joined').student).toBe(token);
    expect(c.teacher.lastState().students).toBe(1);
  });

  it('only the teacher controls the room: students and forged keys are refused and change nothing', () => {
    const c = classroom();
    const ada = c.join('Ada');
    const before = JSON.stringify(c.core.rooms.snapshot());
    for (const type of ['step', 'open', 'lock', 'reveal', 'reset', 'close']) {
      const extra = type === 'step' ? { lesson: 'reduction', step: 5 } : type === 'open' ? { question: QUESTION } : {};
      ada.say({ type, room: c.room, token: c.token, ...extra });
      expect(ada.last('refused').reason).toBe('not-allowed');
    }
    // Another connection claiming to be the teacher with a made-up key.
    const mallory = fakeConn('10.0.0.66');
    const h = c.core.connect(mallory.conn)!;
    h.message(JSON.stringify({ type: 'teacher', room: c.room, token: 'A'.repeat(43) }));
    expect(mallory.last('refused').reason).toBe('bad-token');
    h.message(JSON.stringify({ type: 'reveal', room: c.room, token: 'A'.repeat(43) }));
    expect(mallory.last('refused').reason).toBe('not-allowed');
    expect(JSON.stringify(c.core.rooms.snapshot())).toBe(before);
  });

  it('wrong room codes are limited per address, so codes cannot be guessed', () => {
    const core = makeCore();
    const guesser = fakeConn('10.9.9.9');
    const reasons: string[] = [];
    for (let i = 0; i < 25; i++) {
      const h = core.connect(guesser.conn)!;
      h.message(JSON.stringify({ type: 'join', room: 'ABCDEFGH' }));
      reasons.push(guesser.last('refused').reason);
      h.closed();
    }
    expect(reasons.slice(0, 20).every((r) => r === 'no-such-room')).toBe(true);
    expect(reasons.slice(20).every((r) => r === 'rate-limited')).toBe(true);
    now += 61_000;
    const h = core.connect(guesser.conn)!;
    h.message(JSON.stringify({ type: 'join', room: 'ABCDEFGH' }));
    expect(guesser.last('refused').reason).toBe('no-such-room');
  });

  it('a flood of messages is refused as rate-limited, and the connection recovers', () => {
    const c = classroom();
    const ada = c.join('Ada');
    for (let i = 0; i < 40; i++) ada.say({ type: 'ping' });
    expect(ada.got.filter((m) => m.type === 'refused' && m.reason === 'rate-limited').length).toBeGreaterThan(0);
    now += 2000;
    ada.say({ type: 'ping' });
    expect(ada.got.at(-1)!.type).toBe('pong');
  });

  it('restores every acknowledged answer from the journal after a restart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'classroom-'));
    try {
      const path = join(dir, 'journal.jsonl');
      const rooms = new Rooms();
      const { journal } = Journal.open(path, rooms, 3_600_000, {}, now);
      const c = classroom(makeCore(journal, rooms));
      const students = ['Ada', 'Bo', 'Cy'].map((n) => c.join(n));
      c.act({ type: 'open', question: { kind: 'number', prompt: 'sdata[0] after the barrier?', answer: 496 } });
      const q = students[0]!.lastState().question!;
      students.forEach((s, i) => s.say({ type: 'answer', room: c.room, question: q.id, round: 1, value: { kind: 'number', value: 490 + i * 3 } }));
      expect(students.every((s) => s.got.some((m) => m.type === 'ack'))).toBe(true);
      const before = JSON.stringify(rooms.snapshot());
      c.core.stop();
      journal.close();
      // A torn last line, as a crash in the middle of a write leaves.
      const text = readFileSync(path, 'utf8');
      expect(text.split('\n').filter((l) => l.includes('"e":"answer"'))).toHaveLength(3);
      appendFileSync(path, '{"e":"answer","room":"');
      const rooms2 = new Rooms();
      const { journal: j2, replayed } = Journal.open(path, rooms2, 3_600_000, {}, now);
      j2.close();
      expect(replayed).toBeGreaterThan(0);
      expect(JSON.stringify(rooms2.snapshot())).toBe(before);
      const q2 = rooms2.get(c.room)!.question!;
      expect([...q2.answers.values()].map((v) => (v.kind === 'number' ? v.value : -1)).sort()).toEqual([490, 493, 496]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a full server refuses a new connection with a reason', () => {
    const core = new ClassroomCore(new Rooms(), { limits: { maxConnections: 1 } });
    expect(core.connect(fakeConn().conn)).toBeDefined();
    const late = fakeConn();
    expect(core.connect(late.conn)).toBeUndefined();
    expect(late.last('refused').reason).toBe('server-full');
    expect(late.closed).toBe('server full');
  });
});
