/**
 * The live classroom's wire protocol: every message a client may send to the classroom server,
 * every message the server sends back, and the limits both sides hold to. Pure TypeScript (zod
 * schemas, no DOM and no Node), shared by the server (`server/`) and the app's client.
 *
 * This file holds the constants and types only (the browser loads it); the schemas that check
 * every message are in `schema.ts`, used by the server.
 *
 * Roles are bound to a connection by its first message: `create` or `teacher` (the teacher, who
 * holds the room's capability token), `join` (a student, who holds a student token of their own)
 * or `watch` (a projector: the question, the count and, after reveal, the distribution, never who
 * answered what). Every teacher action carries the token again, so a message forged on any other
 * connection is refused even if it guesses the shape.
 */
/** The largest message the server reads, in bytes of its UTF-8 text. */
export const MAX_MESSAGE_BYTES = 4096;
/** Room codes: 8 characters from an alphabet without look-alikes (0/O, 1/I/L, U/V): 29^8 ≈ 5.0e11. */
export const ROOM_ALPHABET = '23456789ABCDEFGHJKMNPQRSTWXYZ';
export const ROOM_CODE_LENGTH = 8;
export const MAX_NAME_LENGTH = 40;
export const MAX_PROMPT_LENGTH = 300;
export const MAX_OPTION_LENGTH = 80;
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 6;
/** Lesson ids and question ids: short, plain identifiers. */
export const ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Tokens are 32 random bytes in base64url (43 characters). */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** An answer: a number (finite) or the index of a choice. */
export type AnswerValue = { readonly kind: 'number'; readonly value: number } | { readonly kind: 'choice'; readonly index: number };

/**
 * A question the teacher opens: one of the lesson's own check questions (named by its id, with its
 * prompt in the teacher's language) or one typed on the spot. `answer`, the correct one, stays on
 * the server until reveal; a poll has none. `lessonQuestion` names the lesson question this is, so
 * the replay can play to its moment on reveal.
 */
export type QuestionSpec =
  | { readonly kind: 'number'; readonly prompt: string; readonly lessonQuestion?: string; readonly answer?: number }
  | { readonly kind: 'choice'; readonly prompt: string; readonly options: readonly string[]; readonly lessonQuestion?: string; readonly answer?: number };

type TeacherAction<K extends string, T = object> = { readonly type: K; readonly room: string; readonly token: string } & T;

/** Everything a client may send; anything else is refused with a reason. */
export type ClientMessage =
  | { readonly type: 'create'; readonly lesson: string; readonly step: number }
  | { readonly type: 'teacher'; readonly room: string; readonly token: string }
  | { readonly type: 'join'; readonly room: string; readonly student?: string; readonly name?: string }
  | { readonly type: 'watch'; readonly room: string }
  | TeacherAction<'step', { readonly lesson: string; readonly step: number }>
  | TeacherAction<'open', { readonly question: QuestionSpec }>
  | TeacherAction<'lock' | 'reveal' | 'reset' | 'close'>
  | { readonly type: 'answer'; readonly room: string; readonly question: number; readonly round: number; readonly value: AnswerValue }
  | { readonly type: 'ping' };

export type QuestionPhase = 'open' | 'locked' | 'revealed';

/** A bin of the answers' distribution: a choice's index or a number, and how many gave it. */
export interface Bin {
  readonly value: number;
  readonly count: number;
}

/** What every role sees of the current question. */
export interface QuestionView {
  readonly id: number;
  readonly round: number;
  readonly phase: QuestionPhase;
  readonly kind: 'number' | 'choice';
  readonly prompt: string;
  readonly options?: readonly string[];
  readonly lessonQuestion?: string;
  /** How many students have answered this round. */
  readonly answered: number;
  /** The distribution: always for the teacher, for others only once revealed. */
  readonly bins?: readonly Bin[];
  /** The correct answer: for the teacher always (if given), for others only once revealed. */
  readonly answer?: number;
  /** Whether the question has a correct answer at all (a poll has none). */
  readonly graded: boolean;
}

export interface RoomView {
  readonly room: string;
  readonly lesson: string;
  readonly step: number;
  /** Students in the room (connected or not). */
  readonly students: number;
  readonly connected: number;
  readonly question?: QuestionView;
  /** The teacher's view only: each student's name (if given) and answer this round. */
  readonly roster?: readonly { readonly name: string; readonly answered: boolean; readonly value?: AnswerValue }[];
  /** A student's view only: their own answer to the current round, as the server holds it. */
  readonly mine?: AnswerValue;
  /** Whether the room was closed by the teacher. */
  readonly closed?: boolean;
}

/** Everything the server sends. */
export type ServerMessage =
  | { readonly type: 'created'; readonly room: string; readonly token: string; readonly state: RoomView }
  | { readonly type: 'joined'; readonly role: 'teacher' | 'student' | 'projector'; readonly student?: string; readonly state: RoomView }
  | { readonly type: 'state'; readonly state: RoomView }
  | { readonly type: 'ack'; readonly question: number; readonly round: number; readonly value: AnswerValue }
  | { readonly type: 'refused'; readonly reason: RefusalReason; readonly detail: string }
  | { readonly type: 'pong' };

/** Why a message was refused; the client shows a message of its own for each. */
export type RefusalReason =
  | 'too-large'
  | 'not-json'
  | 'invalid'
  | 'rate-limited'
  | 'no-such-room'
  | 'not-allowed'
  | 'bad-token'
  | 'no-question'
  | 'question-locked'
  | 'stale-question'
  | 'bad-answer'
  | 'already-joined'
  | 'not-joined'
  | 'room-closed'
  | 'server-full';

