/**
 * The classroom's journal: one JSON event a line, appended before the event is acknowledged, so a
 * server killed at any moment restarts with every acknowledged answer. On start the journal is
 * replayed into the rooms and then compacted (rewritten with only the live rooms' state, through
 * a temporary file and a rename, so a crash during compaction leaves the old journal whole).
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Event, Rooms } from './rooms.ts';

export interface JournalOptions {
  /** Flush each append to the disk itself (fsync), not only to the operating system. Default false. */
  readonly fsync?: boolean;
}

export class Journal {
  private fd: number;

  private constructor(
    readonly path: string,
    fd: number,
    private readonly options: JournalOptions,
  ) {
    this.fd = fd;
  }

  /**
   * Replays the journal at `path` into `rooms` (a torn last line, from a crash mid-write, is
   * skipped), drops rooms idle for `idleMs`, compacts the file, and opens it for appending.
   * Returns the journal and how many events were replayed.
   */
  static open(path: string, rooms: Rooms, idleMs: number, options: JournalOptions = {}, now = Date.now()): { journal: Journal; replayed: number } {
    mkdirSync(dirname(path), { recursive: true });
    let replayed = 0;
    if (existsSync(path)) {
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        let event: Event;
        try {
          event = JSON.parse(line) as Event;
        } catch {
          continue;
        }
        try {
          rooms.check(event);
        } catch {
          continue;
        }
        rooms.apply(event);
        replayed++;
      }
    }
    rooms.expire(now, idleMs);
    const tmp = `${path}.tmp`;
    const tfd = openSync(tmp, 'w');
    const text = rooms
      .snapshot()
      .map((e) => `${JSON.stringify(e)}\n`)
      .join('');
    writeSync(tfd, text);
    fsyncSync(tfd);
    closeSync(tfd);
    renameSync(tmp, path);
    return { journal: new Journal(path, openSync(path, 'a'), options), replayed };
  }

  /** Appends one event; when this returns, the event survives the process being killed. */
  append(event: Event): void {
    writeSync(this.fd, `${JSON.stringify(event)}\n`);
    if (this.options.fsync) fsyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}
