/**
 * The schemas that check every message a client sends the classroom server (zod), and the parser
 * that refuses anything else with a reason. Server-side only: the app's client never loads zod.
 */
import { z } from 'zod';
import {
  ID_PATTERN,
  MAX_MESSAGE_BYTES,
  MAX_NAME_LENGTH,
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  MAX_PROMPT_LENGTH,
  MIN_OPTIONS,
  ROOM_ALPHABET,
  ROOM_CODE_LENGTH,
  TOKEN_PATTERN,
  type ClientMessage,
  type RefusalReason,
} from './protocol.ts';

export const roomCode = z
  .string()
  .length(ROOM_CODE_LENGTH)
  .refine((s) => [...s].every((c) => ROOM_ALPHABET.includes(c)), 'not a room code');
export const token = z.string().regex(TOKEN_PATTERN, 'not a token');
const lessonId = z.string().regex(ID_PATTERN, 'not a lesson id');
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
      lessonQuestion: z.string().regex(ID_PATTERN).optional(),
      /** The correct answer, kept on the server until reveal; absent for a poll. */
      answer: z.number().finite().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('choice'),
      prompt: plain(MAX_PROMPT_LENGTH).min(1),
      options: z.array(plain(MAX_OPTION_LENGTH).min(1)).min(MIN_OPTIONS).max(MAX_OPTIONS),
      lessonQuestion: z.string().regex(ID_PATTERN).optional(),
      answer: z.number().int().min(0).max(MAX_OPTIONS - 1).optional(),
    })
    .strict(),
]);

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
  // zod types an optional key as `T | undefined`; parsed JSON never holds undefined, so this is the same shape.
  return { ok: true, message: parsed.data as ClientMessage };
}
