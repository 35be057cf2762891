/**
 * The classroom's rooms, as event sourcing: every change is an `Event`, checked first, written to
 * the journal, then applied. Replaying the journal after a restart applies the same events and so
 * rebuilds the same rooms. No sockets and no files here: `core.ts` wires connections, `journal.ts`
 * the file.
 */
import { createHash } from 'node:crypto';
import type { AnswerValue, Bin, QuestionSpec, QuestionView, RoomView } from '../src/classroom/protocol.ts';

export type Event =
  | { readonly e: 'create'; readonly room: string; readonly teacher: string; readonly lesson: string; readonly step: number; readonly at: number }
  | { readonly e: 'step'; readonly room: string; readonly lesson: string; readonly step: number; readonly at: number }
  | { readonly e: 'join'; readonly room: string; readonly student: string; readonly name: string; readonly at: number }
  | { readonly e: 'open'; readonly room: string; readonly question: number; readonly spec: QuestionSpec; readonly at: number }
  | {
      readonly e: 'answer';
      readonly room: string;
      readonly student: string;
      readonly question: number;
      readonly round: number;
      readonly value: AnswerValue;
      readonly at: number;
    }
  | { readonly e: 'lock' | 'reveal' | 'reset' | 'close'; readonly room: string; readonly at: number };

/** A hash of a token: rooms and the journal keep only these, never the tokens themselves. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

interface Student {
  readonly id: string;
  name: string;
}

interface Question {
  readonly id: number;
  readonly spec: QuestionSpec;
  round: number;
  phase: 'open' | 'locked' | 'revealed';
  /** This round's answers by student id. */
  answers: Map<string, AnswerValue>;
}

export class Room {
  readonly students = new Map<string, Student>();
  lesson: string;
  step: number;
  question: Question | undefined;
  lastQuestionId = 0;
  closed = false;
  lastActive: number;

  constructor(
    readonly code: string,
    readonly teacher: string,
    lesson: string,
    step: number,
    at: number,
  ) {
    this.lesson = lesson;
    this.step = step;
    this.lastActive = at;
  }

  /** The room as `role` may see it. `student` is the viewing student's id. */
  view(role: 'teacher' | 'student' | 'projector', connected: number, student?: string): RoomView {
    const q = this.question;
    const revealed = q?.phase === 'revealed';
    let question: QuestionView | undefined;
    if (q) {
      const spec = q.spec;
      const showResults = role === 'teacher' || revealed;
      question = {
        id: q.id,
        round: q.round,
        phase: q.phase,
        kind: spec.kind,
        prompt: spec.prompt,
        ...(spec.kind === 'choice' ? { options: spec.options } : {}),
        ...(spec.lessonQuestion !== undefined ? { lessonQuestion: spec.lessonQuestion } : {}),
        answered: q.answers.size,
        graded: spec.answer !== undefined,
        ...(showResults ? { bins: binsOf(q.answers) } : {}),
        ...(showResults && spec.answer !== undefined ? { answer: spec.answer } : {}),
      };
    }
    const mine = student !== undefined ? q?.answers.get(student) : undefined;
    return {
      room: this.code,
      lesson: this.lesson,
      step: this.step,
      students: this.students.size,
      connected,
      ...(question ? { question } : {}),
      ...(role === 'teacher'
        ? { roster: [...this.students.values()].map((s) => ({ name: s.name, answered: q?.answers.has(s.id) ?? false })) }
        : {}),
      ...(role === 'student' && mine ? { mine } : {}),
      ...(this.closed ? { closed: true } : {}),
    };
  }
}

/** The distribution of this round's answers, most given first, then by value. */
export function binsOf(answers: ReadonlyMap<string, AnswerValue>): Bin[] {
  const counts = new Map<number, number>();
  for (const a of answers.values()) {
    const v = a.kind === 'choice' ? a.index : a.value;
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return [...counts.entries()].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || a.value - b.value);
}

/** Why an event cannot be applied: the refusal the client gets. */
export class Refusal extends Error {
  constructor(
    readonly reason: import('../src/classroom/protocol.ts').RefusalReason,
    detail: string,
  ) {
    super(detail);
  }
}

/** All rooms. `check` says whether an event may happen; `apply` makes it happen (and never fails). */
export class Rooms {
  readonly rooms = new Map<string, Room>();

  get(code: string): Room | undefined {
    return this.rooms.get(code);
  }

  /** Throws a `Refusal` if `event` may not be applied now. */
  check(event: Event): void {
    if (event.e === 'create') {
      if (this.rooms.has(event.room)) throw new Refusal('invalid', 'that room code is taken');
      return;
    }
    const room = this.rooms.get(event.room);
    if (!room) throw new Refusal('no-such-room', 'there is no room with that code');
    if (room.closed) throw new Refusal('room-closed', 'the teacher has closed this room');
    const q = room.question;
    switch (event.e) {
      case 'step':
      case 'join':
      case 'open':
      case 'close':
        return;
      case 'lock':
        if (!q) throw new Refusal('no-question', 'no question is open');
        if (q.phase !== 'open') throw new Refusal('question-locked', 'the question is already locked');
        return;
      case 'reveal':
        if (!q) throw new Refusal('no-question', 'no question is open');
        if (q.phase === 'revealed') throw new Refusal('question-locked', 'the question is already revealed');
        return;
      case 'reset':
        if (!q) throw new Refusal('no-question', 'no question is open');
        if (q.round >= 9) throw new Refusal('invalid', 'a question has at most 9 votes');
        return;
      case 'answer': {
        if (!room.students.has(event.student)) throw new Refusal('not-joined', 'join the room first');
        if (!q) throw new Refusal('no-question', 'no question is open');
        if (q.id !== event.question || q.round !== event.round) {
          throw new Refusal('stale-question', 'that question or vote is over; answer the current one');
        }
        if (q.phase !== 'open') throw new Refusal('question-locked', 'the teacher has locked this question');
        const v = event.value;
        if (q.spec.kind !== v.kind) throw new Refusal('bad-answer', `this question takes a ${q.spec.kind === 'choice' ? 'choice' : 'number'}`);
        if (v.kind === 'choice' && q.spec.kind === 'choice' && v.index >= q.spec.options.length) {
          throw new Refusal('bad-answer', `choose one of the ${q.spec.options.length} options`);
        }
        return;
      }
    }
  }

  apply(event: Event): void {
    if (event.e === 'create') {
      this.rooms.set(event.room, new Room(event.room, event.teacher, event.lesson, event.step, event.at));
      return;
    }
    const room = this.rooms.get(event.room);
    if (!room) return;
    room.lastActive = event.at;
    const q = room.question;
    switch (event.e) {
      case 'step':
        room.lesson = event.lesson;
        room.step = event.step;
        return;
      case 'join': {
        const known = room.students.get(event.student);
        if (known) known.name = event.name;
        else room.students.set(event.student, { id: event.student, name: event.name });
        return;
      }
      case 'open':
        room.lastQuestionId = Math.max(room.lastQuestionId, event.question);
        room.question = { id: event.question, spec: event.spec, round: 1, phase: 'open', answers: new Map() };
        return;
      case 'answer':
        q?.answers.set(event.student, event.value);
        return;
      case 'lock':
        if (q) q.phase = 'locked';
        return;
      case 'reveal':
        if (q) q.phase = 'revealed';
        return;
      case 'reset':
        if (q) {
          q.round += 1;
          q.phase = 'open';
          q.answers = new Map();
        }
        return;
      case 'close':
        room.closed = true;
        return;
    }
  }

  /** Rooms untouched for `idleMs`, or closed and untouched for an hour, are forgotten. */
  expire(now: number, idleMs: number): string[] {
    const gone: string[] = [];
    for (const [code, room] of this.rooms) {
      const idle = now - room.lastActive;
      if (idle > idleMs || (room.closed && idle > 3_600_000)) {
        this.rooms.delete(code);
        gone.push(code);
      }
    }
    return gone;
  }

  /** The events that rebuild every room as it is now (for compacting the journal). */
  snapshot(): Event[] {
    const out: Event[] = [];
    for (const room of this.rooms.values()) {
      const at = room.lastActive;
      out.push({ e: 'create', room: room.code, teacher: room.teacher, lesson: room.lesson, step: room.step, at });
      for (const s of room.students.values()) out.push({ e: 'join', room: room.code, student: s.id, name: s.name, at });
      const q = room.question;
      if (q) {
        out.push({ e: 'open', room: room.code, question: q.id, spec: q.spec, at });
        for (let r = 1; r < q.round; r++) out.push({ e: 'reset', room: room.code, at });
        for (const [student, value] of q.answers) {
          out.push({ e: 'answer', room: room.code, student, question: q.id, round: q.round, value, at });
        }
        if (q.phase === 'locked') out.push({ e: 'lock', room: room.code, at });
        if (q.phase === 'revealed') out.push({ e: 'reveal', room: room.code, at });
      }
      if (room.closed) out.push({ e: 'close', room: room.code, at });
    }
    return out;
  }
}
