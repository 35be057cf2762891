/**
 * How a program's stdout is compared with what the same program printed on the H100
 * (docs/runs/2026-11-26-h100-seed-programs/<label>.txt): pure functions, so a bundled script on
 * the GPU host can use them without this repository's files.
 */
import { createHash } from 'node:crypto';

export interface Reference {
  exit: number;
  stdout?: string;
  /** For a summarised stdout: SHA-256 of the stdout without its timing lines. */
  shaWithoutTiming?: string;
}

/** A stored reference run: `exit: N`, then the stdout after its `stdout: N bytes` line, or its hash. */
export function parseReference(text: string): Reference {
  const exit = Number(/^exit: (\d+)/m.exec(text)![1]);
  const sha = /^sha256 without timing lines: ([0-9a-f]+)$/m.exec(text);
  if (sha) return { exit, shaWithoutTiming: sha[1]! };
  const m = /^stdout: (\d+) bytes\n/m.exec(text)!;
  return { exit, stdout: text.slice(m.index + m[0].length) };
}

const TIMING = /time|Time|elapsed/;
/** Timing lines keep their words; their figures vary from run to run. */
export const maskTiming = (s: string): string => s.split('\n').map((l) => (TIMING.test(l) ? l.replace(/-?\d+(\.\d+)?(e[+-]\d+)?/g, '#') : l)).join('\n');
const withoutTiming = (s: string): string => s.split(/(?<=\n)/).filter((l) => !TIMING.test(l)).join('');

/** Whether `stdout` is what the reference printed, timing figures aside (as text, to show the difference). */
export function comparable(stdout: string, ref: Reference): { got: string; want: string } {
  if (ref.stdout !== undefined) return { got: maskTiming(stdout), want: maskTiming(ref.stdout) };
  return { got: createHash('sha256').update(withoutTiming(stdout)).digest('hex'), want: ref.shaWithoutTiming! };
}

/** 000-reduce prints the device's name first: the same stdout but for that name and the timing figures. */
const deviceLine = (s: string): string => s.replace(/^.*(; global mem:)/m, '<device>$1');
export const sameButDevice = (stdout: string, ref: Reference): boolean => ref.stdout !== undefined && maskTiming(deviceLine(stdout)) === maskTiming(deviceLine(ref.stdout));
