import { afterAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClassroomClient } from '../src/classroom/client.ts';
import type { RoomView } from '../src/classroom/protocol.ts';
import { freePort, nodeClient, spawnServer } from './testing.ts';

/** Resolves when `pred` holds, polling; fails after `ms`. */
async function until(pred: () => boolean, what: string, ms = 15_000): Promise<void> {
  const start = Date.now();
  while (!pred()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('classroom server faults', () => {
  const dir = mkdtempSync(join(tmpdir(), 'classroom-fault-'));
  const children: ChildProcess[] = [];
  const clients: ClassroomClient[] = [];
  afterAll(() => {
    for (const c of clients) c.close();
    for (const p of children) p.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('killed and restarted mid-question: every acknowledged answer is still counted, and clients reconnect by themselves', async () => {
    const port = await freePort();
    const journal = join(dir, 'journal.jsonl');
    children.push(await spawnServer(port, journal));
    const fast = () => 100;
    let teacherState: RoomView | undefined;
    let room = '';
    const teacher = nodeClient(port, { role: 'new-room', lesson: 'reduction', step: 1 }, {
      state: (s) => (teacherState = s),
      created: (r) => (room = r),
    }, fast);
    clients.push(teacher);
    await until(() => room !== '', 'the room');
    const students = ['Ada', 'Bo', 'Cy'].map((name) => {
      const seen: { state?: RoomView; acks: number; status: string[] } = { acks: 0, status: [] };
      const client = nodeClient(port, { role: 'student', room, name }, {
        state: (s) => (seen.state = s),
        ack: () => seen.acks++,
        status: (s) => seen.status.push(s),
      }, fast);
      clients.push(client);
      return { client, seen };
    });
    await until(() => students.every((s) => s.seen.state !== undefined), 'the students to join');
    teacher.teacher({ type: 'open', question: { kind: 'number', prompt: 'How many bank conflicts?', answer: 2 } });
    await until(() => students.every((s) => s.seen.state?.question !== undefined), 'the question on every student');
    const q = students[0]!.seen.state!.question!;
    students.forEach((s, i) => s.client.answer(q.id, q.round, { kind: 'number', value: i }));
    await until(() => students.every((s) => s.seen.acks === 1), 'three acknowledgements');

    // Kill -9: no chance to flush anything that was not already written.
    const first = children[0]!;
    const exited = new Promise((r) => first.once('exit', r));
    first.kill('SIGKILL');
    await exited;
    await until(() => students.every((s) => s.seen.status.includes('reconnecting')), 'the clients to notice');
    children.push(await spawnServer(port, journal));

    // Nobody reconnects by hand: the clients do it themselves and say who they are again.
    await until(() => teacher.status === 'open' && students.every((s) => s.client.status === 'open'), 'the clients to reconnect');
    await until(() => teacherState?.question?.answered === 3 && teacherState.connected === 3, 'the teacher to see 3 answers and 3 students');
    expect(teacherState!.question!.bins).toEqual([
      { value: 0, count: 1 },
      { value: 1, count: 1 },
      { value: 2, count: 1 },
    ]);
    expect(teacherState!.students).toBe(3);
    // The students are the same students (their tokens), with their answers.
    await until(() => students.every((s, i) => s.seen.state?.mine?.kind === 'number' && s.seen.state.mine.value === i), 'each student’s own answer');
    // The room goes on: a changed answer and a reveal after the restart.
    students[0]!.client.answer(q.id, q.round, { kind: 'number', value: 2 });
    await until(() => students[0]!.seen.acks === 2, 'the changed answer’s acknowledgement');
    teacher.teacher({ type: 'reveal' });
    await until(() => students.every((s) => s.seen.state?.question?.phase === 'revealed'), 'the reveal');
    expect(students[1]!.seen.state!.question!.bins).toEqual([
      { value: 2, count: 2 },
      { value: 1, count: 1 },
    ]);
  }, 90_000);
});
