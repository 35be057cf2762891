/**
 * A classroom connection that stays up: it says who it is on every (re)connection, reconnects by
 * itself with a growing pause after a drop or a server restart, and sends an answer again until
 * the server acknowledges it. Pure: the WebSocket constructor is passed in (the browser's, or
 * `ws` in Node), so the same code runs in the app, in tests and in the load test.
 */
import type { AnswerValue, ClientMessage, RoomView, ServerMessage } from './protocol.ts';

/** The part of the WebSocket interface this uses (the browser's and `ws`'s both have it). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}
export type SocketFactory = (url: string) => SocketLike;

/** Who this connection is: it is said again after every reconnection. */
export type Identity =
  | { readonly role: 'teacher'; readonly room: string; readonly token: string }
  | { readonly role: 'student'; readonly room: string; readonly student?: string; readonly name?: string }
  | { readonly role: 'projector'; readonly room: string }
  | { readonly role: 'new-room'; readonly lesson: string; readonly step: number };

export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface ClientEvents {
  /** The room's state, each time it changes. */
  state?(state: RoomView): void;
  /** A room was created for a `new-room` identity: keep `token` (the teacher's key) safe. */
  created?(room: string, token: string): void;
  /** A student's own token, given on the first join: keep it to come back as the same student. */
  student?(token: string): void;
  /** The server acknowledged an answer. */
  ack?(question: number, round: number, value: AnswerValue): void;
  /** The server refused something, with its reason. */
  refused?(reason: string, detail: string): void;
  status?(status: ConnectionStatus): void;
}

const OPEN = 1;

export class ClassroomClient {
  private socket: SocketLike | undefined;
  private identity: Identity;
  private pendingAnswer: { question: number; round: number; value: AnswerValue } | undefined;
  private retry = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  status: ConnectionStatus = 'connecting';

  constructor(
    private readonly url: string,
    identity: Identity,
    private readonly factory: SocketFactory,
    private readonly events: ClientEvents = {},
    /** The pause before the n-th reconnection attempt, in ms. */
    private readonly backoff: (n: number) => number = (n) => Math.min(250 * 2 ** n, 5000) * (0.75 + Math.random() * 0.5),
  ) {
    this.identity = identity;
    this.open();
  }

  private setStatus(s: ConnectionStatus): void {
    this.status = s;
    this.events.status?.(s);
  }

  private open(): void {
    const socket = this.factory(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.retry = 0;
      this.setStatus('open');
      this.hello();
      if (this.pendingAnswer && this.identity.role === 'student') this.sendAnswer();
    };
    socket.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      let m: ServerMessage;
      try {
        m = JSON.parse(ev.data) as ServerMessage;
      } catch {
        return;
      }
      this.receive(m);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      if (this.stopped) {
        this.setStatus('closed');
        return;
      }
      this.setStatus('reconnecting');
      this.timer = setTimeout(() => this.open(), this.backoff(this.retry++));
    };
    socket.onerror = () => {
      /* onclose follows */
    };
  }

  private hello(): void {
    const id = this.identity;
    switch (id.role) {
      case 'teacher':
        this.send({ type: 'teacher', room: id.room, token: id.token });
        return;
      case 'student':
        this.send({
          type: 'join',
          room: id.room,
          ...(id.student !== undefined ? { student: id.student } : {}),
          ...(id.name !== undefined && id.name !== '' ? { name: id.name } : {}),
        });
        return;
      case 'projector':
        this.send({ type: 'watch', room: id.room });
        return;
      case 'new-room':
        this.send({ type: 'create', lesson: id.lesson, step: id.step });
        return;
    }
  }

  private receive(m: ServerMessage): void {
    switch (m.type) {
      case 'created':
        // From now on this connection is the teacher of that room, also after a reconnection.
        this.identity = { role: 'teacher', room: m.room, token: m.token };
        this.events.created?.(m.room, m.token);
        this.events.state?.(m.state);
        return;
      case 'joined':
        if (m.student !== undefined && this.identity.role === 'student') {
          this.identity = { ...this.identity, student: m.student };
          this.events.student?.(m.student);
        }
        this.events.state?.(m.state);
        return;
      case 'state':
        this.events.state?.(m.state);
        return;
      case 'ack': {
        const p = this.pendingAnswer;
        if (p && p.question === m.question && p.round === m.round) this.pendingAnswer = undefined;
        this.events.ack?.(m.question, m.round, m.value);
        return;
      }
      case 'refused':
        if (m.reason === 'stale-question' || m.reason === 'question-locked') this.pendingAnswer = undefined;
        this.events.refused?.(m.reason, m.detail);
        return;
      case 'pong':
        return;
    }
  }

  /** Sends a message now if connected; teacher actions made while offline are not queued. */
  send(m: ClientMessage): boolean {
    const s = this.socket;
    if (!s || s.readyState !== OPEN) return false;
    s.send(JSON.stringify(m));
    return true;
  }

  /** A student's answer: sent now, and again after a reconnection until it is acknowledged. */
  answer(question: number, round: number, value: AnswerValue): void {
    this.pendingAnswer = { question, round, value };
    this.sendAnswer();
  }

  private sendAnswer(): void {
    const p = this.pendingAnswer;
    if (!p || this.identity.role !== 'student') return;
    this.send({ type: 'answer', room: this.identity.room, question: p.question, round: p.round, value: p.value });
  }

  /** A teacher action with the room and token filled in. */
  teacher(
    action:
      | { type: 'step'; lesson: string; step: number }
      | { type: 'open'; question: Extract<ClientMessage, { type: 'open' }>['question'] }
      | { type: 'lock' | 'reveal' | 'reset' | 'close' },
  ): boolean {
    const id = this.identity;
    if (id.role !== 'teacher') return false;
    return this.send({ ...action, room: id.room, token: id.token });
  }

  close(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close(1000, 'bye');
    if (!this.socket) this.setStatus('closed');
  }
}
