/**
 * The live classroom's wire protocol: every message a client may send to the classroom server,
 * every message the server sends back, and the limits both sides hold to. Pure TypeScript (zod
 * schemas, no DOM and no Node), shared by the server (`server/`) and the app's client.
 *
 * Roles are bound to a connection by its first message: `create` or `teacher` (the teacher, who
 * holds the room's capability token), `join` (a student, who holds a student token of their own)
 * or `watch` (a projector: the question, the count and, after reveal, the distribution, never who
 * answered what). Every teacher action carries the token again, so a message forged on any other
 * connection is refused even if it guesses the shape.
 */
import { z } from 'zod';

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
const ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Tokens are 32 random bytes in base64url (43 characters). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const roomCode = z
  .string()
  .length(ROOM_CODE_LENGTH)
  .refine((s) => [...s].every((c) => ROOM_ALPHABET.includes(c)), 'not a room code');
export const token = z.string().regex(TOKEN, 'not a token');
const lessonId = z.string().regex(ID, 'not a lesson id');
const step = z.number().int().min(1).max(500);
/** Plain text: no control characters (a display name is never rendered as HTML either). */
const plain = (max: number) =>
  z
    .string()
    .max(max)
    // eslint-disable-next-line no-control-regex
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'control characters are not allowed');

/** An answer: a number (finite) or the index of a choice. */
export const answerValue = z.union([
  z.object({ kind: z.literal('number'), value: z.number().finite() }).strict(),
  z.object({ kind: z.literal('choice'), index: z.number().int().min(0).max(MAX_OPTIONS - 1) }).strict(),
]);
export type AnswerValue = z.infer<typeof answerValue>;

/**
 * A question the teacher opens: one of the lesson's own check questions (named by its id, with its
 * prompt in the teacher's language) or one typed on the spot.
 */
export const questionSpec = z.union([
  z
    .object({
      kind: z.literal('number'),
      prompt: plain(MAX_PROMPT_LENGTH).min(1),
      /** The lesson question this is, if any (so the replay can play to its moment on reveal). */
      lessonQuestion: z.string().regex(ID).optional(),
      /** The correct answer, kept on the server until reveal; absent for a poll. */
      answer: z.number().finite().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('choice'),
      prompt: plain(MAX_PROMPT_LENGTH).min(1),
      options: z.array(plain(MAX_OPTION_LENGTH).min(1)).min(MIN_OPTIONS).max(MAX_OPTIONS),
      lessonQuestion: z.string().regex(ID).optional(),
      answer: z.number().int().min(0).max(MAX_OPTIONS - 1).optional(),
    })
    .strict(),
]);
export type QuestionSpec = z.infer<typeof questionSpec>;

const teacherAction = <K extends string, T extends z.ZodRawShape>(type: K, shape: T) =>
  z.object({ type: z.literal(type), room: roomCode, token, ...shape }).strict();

/** Everything a client may send. Anything else is refused with a reason. */
export const clientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('create'), lesson: lessonId, step }).strict(),
  z.object({ type: z.literal('teacher'), room: roomCode, token }).strict(),
  z
    .object({
      type: z.literal('join'),
      room: roomCode,
      /** The student's own token, to come back as the same student after a reload. */
      student: token.optional(),
      name: plain(MAX_NAME_LENGTH).optional(),
    })
    .strict(),
  z.object({ type: z.literal('watch'), room: roomCode }).strict(),
  teacherAction('step', { lesson: lessonId, step }),
  teacherAction('open', { question: questionSpec }),
  teacherAction('lock', {}),
  teacherAction('reveal', {}),
  teacherAction('reset', {}),
  teacherAction('close', {}),
  z
    .object({
      type: z.literal('answer'),
      room: roomCode,
      /** The question's id and vote round the student answers, so a late answer to an old round is refused. */
      question: z.number().int().min(1),
      round: z.number().int().min(1).max(9),
      value: answerValue,
    })
    .strict(),
  z.object({ type: z.literal('ping') }).strict(),
]);
export type ClientMessage = z.infer<typeof clientMessage>;

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

/** Parses a raw text message: the message, or a refusal with a reason a person can read. */
export function parseClientMessage(
  text: string,
): { ok: true; message: ClientMessage } | { ok: false; reason: RefusalReason; detail: string } {
  if (new TextEncoder().encode(text).length > MAX_MESSAGE_BYTES) {
    return { ok: false, reason: 'too-large', detail: `messages are limited to ${MAX_MESSAGE_BYTES} bytes` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not-json', detail: 'the message is not JSON' };
  }
  const parsed = clientMessage.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return { ok: false, reason: 'invalid', detail: `${where}${issue?.message ?? 'not a classroom message'}` };
  }
  return { ok: true, message: parsed.data };
}
