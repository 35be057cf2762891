/**
 * The live classroom in the app: whether a classroom server is there (the app served by
 * `npm run classroom` answers its health check; a static host does not, and then no live-class
 * control is shown), and a React hook around one reconnecting `ClassroomClient`.
 */
import { useEffect, useRef, useState } from 'react';
import { ClassroomClient, type ConnectionStatus, type Identity, type SocketLike } from '../../classroom/client.ts';
import type { AnswerValue, RoomView } from '../../classroom/protocol.ts';

const HEALTH = '/classroom/health';
let available: Promise<boolean> | undefined;

/** Whether this page was served by a classroom server (asked once per page load). */
export function classroomAvailable(): Promise<boolean> {
  available ??= fetch(HEALTH, { cache: 'no-store' })
    .then(async (r) => r.ok && ((await r.json()) as { classroom?: unknown }).classroom === true)
    .catch(() => false);
  return available;
}

export function useClassroomAvailable(): boolean | undefined {
  const [ok, setOk] = useState<boolean | undefined>();
  useEffect(() => {
    let live = true;
    void classroomAvailable().then((v) => live && setOk(v));
    return () => {
      live = false;
    };
  }, []);
  return ok;
}

/** The address students open to join (this origin's `/live`). */
export function joinUrl(room?: string): string {
  return `${location.origin}/live${room ? `/${room}` : ''}`;
}

function socketUrl(): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/classroom`;
}

/** Where the teacher's key and a student's token are kept in this browser. */
export const STORAGE = {
  teacher: (lesson: string) => `warpscope.live.teacher.${lesson}`,
  student: (room: string) => `warpscope.live.student.${room}`,
  /** The room this browser's teacher runs now: the projector window on the same machine watches it. */
  current: 'warpscope.live.current',
};

export function readStored<T>(key: string): T | undefined {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    if (value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage full or off: the class still works, it just cannot be resumed after a reload */
  }
}

export interface ClassroomConnection {
  readonly state: RoomView | undefined;
  readonly status: ConnectionStatus;
  /** The last refusal, for the person to read. */
  readonly refused: { reason: string; detail: string } | undefined;
  /** The last acknowledged answer. */
  readonly acked: { question: number; round: number; value: AnswerValue } | undefined;
  readonly client: ClassroomClient | undefined;
}

/**
 * One connection for `identity` (none while `identity` is undefined). `onCreated` and
 * `onStudent` hand out the keys to keep; the connection lives until the identity changes or the
 * component goes.
 */
export function useClassroom(
  identity: Identity | undefined,
  keep: { onCreated?: (room: string, token: string) => void; onStudent?: (token: string) => void } = {},
): ClassroomConnection {
  const [state, setState] = useState<RoomView | undefined>();
  const [status, setStatus] = useState<ConnectionStatus>('connecting');
  const [refused, setRefused] = useState<{ reason: string; detail: string } | undefined>();
  const [acked, setAcked] = useState<ClassroomConnection['acked']>();
  const [client, setClient] = useState<ClassroomClient | undefined>();
  const keepRef = useRef(keep);
  keepRef.current = keep;
  const key = identity ? JSON.stringify(identity) : '';
  useEffect(() => {
    if (!key) return;
    const id = JSON.parse(key) as Identity;
    const c = new ClassroomClient(socketUrl(), id, (url) => new WebSocket(url) as unknown as SocketLike, {
      state: (s) => {
        setState(s);
        setRefused(undefined);
      },
      created: (room, token) => keepRef.current.onCreated?.(room, token),
      student: (token) => keepRef.current.onStudent?.(token),
      ack: (question, round, value) => setAcked({ question, round, value }),
      refused: (reason, detail) => setRefused({ reason, detail }),
      status: setStatus,
    });
    setClient(c);
    return () => {
      c.close();
      setClient(undefined);
    };
  }, [key]);
  return { state, status, refused, acked, client };
}
