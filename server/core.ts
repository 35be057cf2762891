/**
 * The classroom server's logic over abstract connections: who is who, what each may do, rate
 * limits, and what everyone is sent. `server.ts` binds it to HTTP and WebSockets; tests drive it
 * directly.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { parseClientMessage } from '../src/classroom/schema.ts';
import {
  ROOM_ALPHABET,
  ROOM_CODE_LENGTH,
  type ClientMessage,
  type RefusalReason,
  type ServerMessage,
} from '../src/classroom/protocol.ts';
import type { Journal } from './journal.ts';
import { Refusal, Rooms, tokenHash, type Event, type Room } from './rooms.ts';

export interface Connection {
  /** Where it comes from (the socket's address), for the failed-join limit. */
  readonly ip: string;
  send(message: ServerMessage): void;
  close(code: number, reason: string): void;
}

export interface Limits {
  /** Messages a connection may send in a burst, and how many it earns back a second. */
  readonly burst: number;
  readonly perSecond: number;
  /** Joins of rooms that do not exist, per address per minute (what stops guessing room codes). */
  readonly failedJoinsPerMinute: number;
  /** Connections the server holds at once. */
  readonly maxConnections: number;
  /** Students in one room. */
  readonly maxStudents: number;
  /** Rooms untouched this long are forgotten. */
  readonly idleMs: number;
  /** How long teacher and projector updates are gathered before one is sent (answers arrive in bursts). */
  readonly coalesceMs: number;
}

export const DEFAULT_LIMITS: Limits = {
  burst: 30,
  perSecond: 10,
  failedJoinsPerMinute: 20,
  maxConnections: 4000,
  maxStudents: 1000,
  idleMs: 12 * 3_600_000,
  coalesceMs: 20,
};

type Role = { kind: 'none' } | { kind: 'teacher'; room: string } | { kind: 'student'; room: string; id: string } | { kind: 'projector'; room: string };

interface Client {
  readonly conn: Connection;
  role: Role;
  tokens: number;
  lastRefill: number;
}

export interface CoreOptions {
  readonly journal?: Journal;
  readonly limits?: Partial<Limits>;
  readonly now?: () => number;
  readonly random?: (bytes: number) => Buffer;
}

export class ClassroomCore {
  readonly rooms: Rooms;
  readonly limits: Limits;
  private readonly clients = new Set<Client>();
  private readonly byRoom = new Map<string, Set<Client>>();
  private readonly failedJoins = new Map<string, number[]>();
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly journal: Journal | undefined;
  private readonly now: () => number;
  private readonly random: (bytes: number) => Buffer;

  constructor(rooms: Rooms, options: CoreOptions = {}) {
    this.rooms = rooms;
    this.journal = options.journal;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.now = options.now ?? Date.now;
    this.random = options.random ?? randomBytes;
  }

  get connections(): number {
    return this.clients.size;
  }

  /** A new connection: returns its message and close handlers, or refuses it when the server is full. */
  connect(conn: Connection): { message(text: string): void; closed(): void } | undefined {
    if (this.clients.size >= this.limits.maxConnections) {
      conn.send({ type: 'refused', reason: 'server-full', detail: 'the classroom server is full; try again in a minute' });
      conn.close(1013, 'server full');
      return undefined;
    }
    const client: Client = { conn, role: { kind: 'none' }, tokens: this.limits.burst, lastRefill: this.now() };
    this.clients.add(client);
    return {
      message: (text) => this.receive(client, text),
      closed: () => this.disconnect(client),
    };
  }

  /** Stops pending timers (tests, shutdown). */
  stop(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
  }

  private refuse(client: Client, reason: RefusalReason, detail: string): void {
    client.conn.send({ type: 'refused', reason, detail });
  }

  private receive(client: Client, text: string): void {
    // Rate limit first: a flood costs the server a subtraction, not a parse.
    const t = this.now();
    client.tokens = Math.min(this.limits.burst, client.tokens + ((t - client.lastRefill) / 1000) * this.limits.perSecond);
    client.lastRefill = t;
    if (client.tokens < 1) {
      this.refuse(client, 'rate-limited', 'too many messages; slow down');
      return;
    }
    client.tokens -= 1;
    const parsed = parseClientMessage(text);
    if (!parsed.ok) {
      this.refuse(client, parsed.reason, parsed.detail);
      return;
    }
    try {
      this.handle(client, parsed.message);
    } catch (e) {
      if (e instanceof Refusal) this.refuse(client, e.reason, e.message);
      else throw e;
    }
  }

  /** Checks, journals and applies an event. Throws a `Refusal` if it may not happen. */
  private commit(event: Event): void {
    this.rooms.check(event);
    this.journal?.append(event);
    this.rooms.apply(event);
  }

  private newCode(): string {
    for (;;) {
      const bytes = this.random(ROOM_CODE_LENGTH);
      let code = '';
      // 256 is not a multiple of the alphabet's size: draw again on the few biased bytes.
      for (const b of bytes) if (b < 256 - (256 % ROOM_ALPHABET.length)) code += ROOM_ALPHABET[b % ROOM_ALPHABET.length];
      if (code.length === ROOM_CODE_LENGTH && !this.rooms.get(code)) return code;
    }
  }

  private handle(client: Client, m: ClientMessage): void {
    const at = this.now();
    // A connection says who it is once: creating, teaching, watching and joining are its first word.
    if ((m.type === 'create' || m.type === 'teacher' || m.type === 'watch' || m.type === 'join') && client.role.kind !== 'none') {
      throw new Refusal('already-joined', 'this connection is already in a room');
    }
    switch (m.type) {
      case 'ping':
        client.conn.send({ type: 'pong' });
        return;
      case 'create': {
        const token = this.random(32).toString('base64url');
        const room = this.newCode();
        this.commit({ e: 'create', room, teacher: tokenHash(token), lesson: m.lesson, step: m.step, at });
        this.enter(client, { kind: 'teacher', room });
        client.conn.send({ type: 'created', room, token, state: this.viewFor(client) });
        this.broadcast(room, 'all');
        return;
      }
      case 'teacher': {
        const room = this.roomForJoin(client, m.room);
        this.checkToken(room, m.token);
        this.enter(client, { kind: 'teacher', room: room.code });
        client.conn.send({ type: 'joined', role: 'teacher', state: this.viewFor(client) });
        return;
      }
      case 'watch': {
        const room = this.roomForJoin(client, m.room);
        this.enter(client, { kind: 'projector', room: room.code });
        client.conn.send({ type: 'joined', role: 'projector', state: this.viewFor(client) });
        return;
      }
      case 'join': {
        const room = this.roomForJoin(client, m.room);
        if (room.closed) throw new Refusal('room-closed', 'the teacher has closed this room');
        let token = m.student;
        let id = token !== undefined ? tokenHash(token) : undefined;
        if (id === undefined || !room.students.has(id)) {
          if (room.students.size >= this.limits.maxStudents) throw new Refusal('server-full', 'this room is full');
          if (id === undefined) {
            token = this.random(32).toString('base64url');
            id = tokenHash(token);
          }
        }
        const name = m.name ?? room.students.get(id)?.name ?? '';
        if (!room.students.has(id) || room.students.get(id)?.name !== name) this.commit({ e: 'join', room: room.code, student: id, name, at });
        this.enter(client, { kind: 'student', room: room.code, id });
        client.conn.send({ type: 'joined', role: 'student', ...(token !== undefined ? { student: token } : {}), state: this.viewFor(client) });
        this.broadcast(room.code, 'watchers');
        return;
      }
      case 'answer': {
        const role = client.role;
        if (role.kind !== 'student' || role.room !== m.room) throw new Refusal('not-allowed', 'only a student in this room can answer');
        this.commit({ e: 'answer', room: m.room, student: role.id, question: m.question, round: m.round, value: m.value, at });
        client.conn.send({ type: 'ack', question: m.question, round: m.round, value: m.value });
        this.broadcast(m.room, 'watchers');
        return;
      }
      default: {
        // Teacher actions: the connection must be the room's teacher, and the token must match.
        const role = client.role;
        if (role.kind !== 'teacher' || role.room !== m.room) throw new Refusal('not-allowed', 'only the teacher can do that');
        const room = this.rooms.get(m.room);
        if (!room) throw new Refusal('no-such-room', 'there is no room with that code');
        this.checkToken(room, m.token);
        switch (m.type) {
          case 'step':
            this.commit({ e: 'step', room: m.room, lesson: m.lesson, step: m.step, at });
            break;
          case 'open':
            this.commit({ e: 'open', room: m.room, question: room.lastQuestionId + 1, spec: m.question, at });
            break;
          case 'lock':
          case 'reveal':
          case 'reset':
          case 'close':
            this.commit({ e: m.type, room: m.room, at });
            break;
        }
        this.broadcast(m.room, 'all');
      }
    }
  }

  private checkToken(room: Room, token: string): void {
    const a = Buffer.from(tokenHash(token));
    const b = Buffer.from(room.teacher);
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw new Refusal('bad-token', 'that is not this room’s teacher key');
  }

  /** The room a join names, counting joins of rooms that do not exist against the address. */
  private roomForJoin(client: Client, code: string): Room {
    const t = this.now();
    const recent = (this.failedJoins.get(client.conn.ip) ?? []).filter((x) => t - x < 60_000);
    if (recent.length >= this.limits.failedJoinsPerMinute) {
      this.failedJoins.set(client.conn.ip, recent);
      throw new Refusal('rate-limited', 'too many wrong room codes; wait a minute');
    }
    const room = this.rooms.get(code);
    if (!room) {
      recent.push(t);
      this.failedJoins.set(client.conn.ip, recent);
      throw new Refusal('no-such-room', 'there is no room with that code; check it with your teacher');
    }
    return room;
  }

  private enter(client: Client, role: Exclude<Role, { kind: 'none' }>): void {
    client.role = role;
    let set = this.byRoom.get(role.room);
    if (!set) this.byRoom.set(role.room, (set = new Set()));
    set.add(client);
  }

  private disconnect(client: Client): void {
    this.clients.delete(client);
    if (client.role.kind === 'none') return;
    const room = client.role.room;
    this.byRoom.get(room)?.delete(client);
    if (client.role.kind === 'student') this.broadcast(room, 'watchers');
  }

  private connectedStudents(room: string): number {
    let n = 0;
    for (const c of this.byRoom.get(room) ?? []) if (c.role.kind === 'student') n++;
    return n;
  }

  private viewFor(client: Client) {
    const role = client.role;
    if (role.kind === 'none') throw new Error('viewFor: no role');
    const room = this.rooms.get(role.room);
    if (!room) throw new Error(`viewFor: no room ${role.room}`);
    const connected = this.connectedStudents(role.room);
    return role.kind === 'student' ? room.view('student', connected, role.id) : room.view(role.kind, connected);
  }

  /**
   * Sends the room's state: to everyone at once (`all`: the step or the question changed), or to
   * the teacher and projectors only (`watchers`: an answer or a join), gathered over
   * `coalesceMs` so a burst of answers costs one message each, not one per answer.
   */
  private broadcast(room: string, who: 'all' | 'watchers'): void {
    if (who === 'all') {
      const t = this.pending.get(room);
      if (t) {
        clearTimeout(t);
        this.pending.delete(room);
      }
      for (const c of this.byRoom.get(room) ?? []) c.conn.send({ type: 'state', state: this.viewFor(c) });
      return;
    }
    if (this.pending.has(room)) return;
    this.pending.set(
      room,
      setTimeout(() => {
        this.pending.delete(room);
        for (const c of this.byRoom.get(room) ?? []) if (c.role.kind !== 'student') c.conn.send({ type: 'state', state: this.viewFor(c) });
      }, this.limits.coalesceMs),
    );
  }
}
