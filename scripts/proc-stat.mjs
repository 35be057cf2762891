// A process's parent, CPU seconds (user + system) and start time from /proc (Linux), read by
// scripts/test-all.mjs and scripts/e2e-cpu.mjs to charge every process a command starts
// (Chromium's renderers included) to that command.
import { readFileSync } from 'node:fs';

/** USER_HZ: /proc's CPU times are in ticks of 1/100 s on Linux. */
const CLOCK_TICKS = 100;

/** `{ ppid, cpu, start }` of a process, or null once it is gone (or without /proc). */
export function readStat(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop().split(' ');
    // Fields 4 (ppid), 14 and 15 (utime, stime) and 22 (start time) of stat, counted from 1.
    return { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS, start: fields[19] };
  } catch {
    return null;
  }
}
