/**
 * `npm run bench:classroom [-- --students N] [--fsync]`: a load test of the live classroom on this
 * machine. Starts the real server (`npm run classroom -- --socket-only`) as a child process on a
 * loopback port, joins N students (default 300) to one room as fast as they connect, opens a
 * question, has every student answer at a random moment within 3 s, and measures for each answer
 * the time from the student sending it to the teacher's view showing it. Prints the join time,
 * the latency's median, p95 and maximum, and the teacher's final count. Bounded: it stops by itself
 * after 120 s whatever happens, and only ever talks to 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClassroomClient } from '../src/classroom/client.ts';
import type { RoomView } from '../src/classroom/protocol.ts';
import { freePort, nodeClient, spawnServer } from '../server/testing.ts';

const argv = process.argv.slice(2);
const count = Number(argv[argv.indexOf('--students') + 1] ?? 300) || 300;
const fsync = argv.includes('--fsync');
const deadline = setTimeout(() => {
  console.error('classroom-load: gave up after 120 s');
  process.exit(1);
}, 120_000);

async function until(pred: () => boolean, what: string, ms = 60_000): Promise<void> {
  const start = performance.now();
  while (!pred()) {
    if (performance.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};

const dir = mkdtempSync(join(tmpdir(), 'classroom-load-'));
const port = await freePort();
const server = await spawnServer(port, join(dir, 'journal.jsonl'), fsync ? ['--fsync'] : []);
const clients: ClassroomClient[] = [];
try {
  let room = '';
  let teacherState: RoomView | undefined;
  const seenAt = new Map<string, number>();
  const teacher = nodeClient(port, { role: 'new-room', lesson: 'reduction', step: 3 }, {
    created: (r) => (room = r),
    state: (s) => {
      teacherState = s;
      const t = performance.now();
      for (const r of s.roster ?? []) if (r.answered && !seenAt.has(r.name)) seenAt.set(r.name, t);
    },
  });
  clients.push(teacher);
  await until(() => room !== '', 'the room');

  const joinStart = performance.now();
  const joined: boolean[] = [];
  const states: (RoomView | undefined)[] = [];
  for (let i = 0; i < count; i++) {
    const name = `student-${String(i).padStart(3, '0')}`;
    clients.push(
      nodeClient(port, { role: 'student', room, name }, {
        state: (s) => {
          states[i] = s;
          joined[i] = true;
        },
      }),
    );
  }
  await until(() => joined.filter(Boolean).length === count, `${count} students to join`, 30_000);
  const joinMs = performance.now() - joinStart;
  await until(() => teacherState?.students === count, 'the teacher to see every student');

  teacher.teacher({ type: 'open', question: { kind: 'choice', prompt: 'Which lanes share bank 0?', options: ['0 and 16', '0 and 1', '0 and 32', 'none'], answer: 2 } });
  await until(() => states.every((s) => s?.question !== undefined), 'the question on every student');
  const q = states[0]!.question!;
  const sentAt = new Map<string, number>();
  await Promise.all(
    clients.slice(1).map(
      (client, i) =>
        new Promise<void>((resolve) => {
          setTimeout(() => {
            const name = `student-${String(i).padStart(3, '0')}`;
            sentAt.set(name, performance.now());
            client.answer(q.id, q.round, { kind: 'choice', index: i % 4 });
            resolve();
          }, Math.random() * 3000);
        }),
    ),
  );
  await until(() => teacherState?.question?.answered === count, `the teacher's count to reach ${count}`);
  await until(() => seenAt.size === count, 'every answer on the teacher’s roster');
  const latencies = [...sentAt.entries()].map(([name, t]) => seenAt.get(name)! - t);
  console.log(`classroom load test: ${count} students, one room, server on 127.0.0.1 (${fsync ? 'fsync on every answer' : 'journal appended before each acknowledgement'})`);
  console.log(`  joined:  ${count} students in ${(joinMs / 1000).toFixed(2)} s`);
  console.log(`  answers: the teacher's count reached ${teacherState!.question!.answered}`);
  console.log(
    `  answer → teacher latency: median ${quantile(latencies, 0.5).toFixed(1)} ms, p95 ${quantile(latencies, 0.95).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
  );
} finally {
  for (const c of clients) c.close();
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
  clearTimeout(deadline);
}
