/**
 * The single-pass scan's look-back, read from a trace: which tile the traced workgroup drew, what
 * it published in its status slot, and what it read in its predecessors' slots.
 *
 * Unlike `trace.ts`, this reads one kernel's status layout, the one `shaders/scan/single-pass.wgsl`
 * documents: `status[0]` is the ticket counter; tile t's slot is `status[1 + 4t …]`, its aggregate
 * (the tile's own sum) in words +0 (low half) and +1 (high half), its inclusive prefix (the sum of
 * the tile and everything before it) in +2 and +3. Each word is `(mark << 16) | half`, where the
 * mark says which dispatch wrote it (0: never written). Tests pin this against the kernel's runs.
 */
import { OpKind, type Trace } from '../../sim/index.ts';
import { memoryNamed } from '../../trace/names.ts';

/** The variants whose status words this file reads. */
export const LOOK_BACK_VARIANTS: readonly string[] = ['single-pass'];

export type SlotPart = 'aggregate' | 'inclusive';

/** One read or write of a whole value (both halves) in a tile's slot. */
export interface SlotEvent {
  /** The step of the second half: from here on the value is whole. */
  readonly step: number;
  /** The step of the first half. */
  readonly firstStep: number;
  readonly kind: 'publish' | 'read';
  readonly tile: number;
  readonly part: SlotPart;
  /** Whether both halves carried the dispatch's mark (a read of a slot not yet written is not). */
  readonly ready: boolean;
  /** The value, as the scan's element type; undefined when not ready. */
  readonly value: number | undefined;
}

/** What the traced workgroup's tile did with the status words. */
export interface LookBack {
  /** The tile the traced workgroup drew by ticket. */
  readonly tile: number;
  /** Tiles in the dispatch (slots in `status`). */
  readonly tiles: number;
  /** The dispatch's mark (1 or 2), from the tile's own publications. */
  readonly mark: number;
  /** In trace order. */
  readonly events: readonly SlotEvent[];
  /** The step of the ticket (`atomicAdd` on `status[0]`), or -1. */
  readonly ticketStep: number;
}

const asElement = (bits: number, element: 'u32' | 'i32' | 'f32' | undefined): number => {
  const word = new Uint32Array([bits >>> 0]);
  if (element === 'f32') return new Float32Array(word.buffer)[0]!;
  if (element === 'i32') return new Int32Array(word.buffer)[0]!;
  return word[0]!;
};

const computed = new WeakMap<Trace, LookBack | null>();

/**
 * The look-back of the first traced workgroup, or undefined when the trace has no `status` binding
 * or that workgroup never published (it drew no tile). Read once per trace: the lesson's moment,
 * its question and the panel all ask for it.
 */
export function lookBackOf(trace: Trace): LookBack | undefined {
  if (!computed.has(trace)) computed.set(trace, readLookBack(trace) ?? null);
  return computed.get(trace) ?? undefined;
}

function readLookBack(trace: Trace): LookBack | undefined {
  const status = memoryNamed(trace, 'status', 'storage');
  if (status < 0) return undefined;
  // The element type: storage bindings carry none in the trace; the tile in workgroup memory does.
  const element = trace.memories.find((m) => m.name === 'tile_mem')?.element;
  const workgroup = trace.workgroups[0];
  let ticketStep = -1;
  // Halves seen, waiting for their partner: key `${kind}:${word pair}`.
  const pending = new Map<string, { step: number; lo?: number; hi?: number }>();
  const raw: { step: number; firstStep: number; kind: 'publish' | 'read'; tile: number; part: SlotPart; lo: number; hi: number }[] = [];
  for (let s = 0; s < trace.stepCount; s++) {
    if (trace.stepMemory[s] !== status || trace.stepWorkgroup[s] !== workgroup) continue;
    const opKind = trace.opKind[trace.stepOp[s]!];
    for (let r = trace.stepRecStart[s]!; r < trace.stepRecStart[s + 1]!; r++) {
      const addr = trace.recAddr[r]!;
      if (addr === 0) {
        if (ticketStep < 0) ticketStep = s;
        continue;
      }
      const kind = opKind === OpKind.loadGlobal ? 'read' : 'publish';
      const pair = (addr - 1) >> 1;
      const key = `${kind}:${pair}`;
      const entry = pending.get(key) ?? { step: s };
      const word = trace.recValue[r]! >>> 0;
      if ((addr - 1) % 2 === 0) entry.lo = word;
      else entry.hi = word;
      if (entry.lo === undefined || entry.hi === undefined) {
        pending.set(key, entry);
        continue;
      }
      pending.delete(key);
      raw.push({ step: s, firstStep: entry.step, kind, tile: pair >> 1, part: pair % 2 === 0 ? 'aggregate' : 'inclusive', lo: entry.lo, hi: entry.hi });
    }
  }
  const own = raw.find((e) => e.kind === 'publish');
  if (!own) return undefined;
  const mark = own.lo >>> 16;
  const events = raw.map<SlotEvent>((e) => {
    const ready = e.lo >>> 16 === mark && e.hi >>> 16 === mark;
    const bits = ((e.hi & 0xffff) << 16) | (e.lo & 0xffff);
    return { step: e.step, firstStep: e.firstStep, kind: e.kind, tile: e.tile, part: e.part, ready, value: ready ? asElement(bits, element) : undefined };
  });
  const tiles = Math.floor((trace.memories[status]!.words - 1) / 4);
  return { tile: own.tile, tiles, mark, events, ticketStep };
}

/** The events whose value is whole by `step`. */
export function lookBackAt(look: LookBack, step: number): readonly SlotEvent[] {
  return look.events.filter((e) => e.step <= step);
}

/** The first read of a predecessor's slot that found it ready, or undefined. */
export function readyRead(look: LookBack): SlotEvent | undefined {
  return look.events.find((e) => e.kind === 'read' && e.ready);
}
