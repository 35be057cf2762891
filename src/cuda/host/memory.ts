/**
 * The host program's memory: byte-addressed, little-endian, with C's typed loads and stores, and
 * every access checked. Each allocation (a `malloc`, a `new[]`, a local array, a string literal, a
 * `cudaMalloc`) is its own block, and an address is `block · 2^32 + offset`, so pointer arithmetic
 * is ordinary arithmetic on numbers while every access knows which block it meant: an access past
 * the end of a block (however far: `mask[4100]` of a 100-element array) is caught at once, as are
 * NULL, freed blocks and device memory read on the host. Block 0 is NULL; between any two blocks
 * lies the rest of a 4 GiB address range that nothing maps (the guard region).
 */
import { encodeBytes } from './libc/bytes.ts';

/** The size of each block's address range: addresses are `id * BLOCK_SPAN + offset`. */
export const BLOCK_SPAN = 4294967296;

export type BlockKind = 'heap' | 'new' | 'stack' | 'global' | 'string' | 'device' | 'managed' | 'constant';

export interface BlockInfo {
  readonly kind: BlockKind;
  /** What the program called it: a variable's name, or `malloc`. */
  readonly label: string;
  /** The CUDA line that allocated it. */
  readonly line: number;
  /** The element type the program gave it, for messages (`float`, `int`). */
  readonly elementType?: string;
  readonly elementBytes?: number;
}

export class Block {
  readonly u8: Uint8Array;
  readonly i8: Int8Array;
  readonly dv: DataView;
  readonly i32: Int32Array | undefined;
  readonly u32: Uint32Array | undefined;
  readonly f32: Float32Array | undefined;
  readonly f64: Float64Array | undefined;
  freed = false;
  /** Host code may access it: live and not device memory (the interpreter's fast paths test this one flag). */
  hostOk: boolean;
  /** Device memory (`cudaMalloc`, `__device__`, `__constant__`): host code may not touch it. */
  readonly isDevice: boolean;
  constructor(
    readonly id: number,
    readonly size: number,
    readonly info: BlockInfo,
  ) {
    // Round the buffer up to 8 bytes so the wide views exist; the size check uses `size`.
    const buf = new ArrayBuffer(Math.ceil(size / 8) * 8);
    this.u8 = new Uint8Array(buf);
    this.i8 = new Int8Array(buf);
    this.dv = new DataView(buf);
    this.i32 = new Int32Array(buf);
    this.u32 = new Uint32Array(buf);
    this.f32 = new Float32Array(buf);
    this.f64 = new Float64Array(buf);
    this.isDevice = info.kind === 'device' || info.kind === 'constant';
    this.hostOk = !this.isDevice;
  }
}

export type FaultKind = 'null' | 'out-of-bounds' | 'freed' | 'device-on-host' | 'wild' | 'bad-free' | 'double-free';

/** A memory fault of the host program; the interpreter adds the CUDA line. */
export class HostFault extends Error {
  constructor(
    readonly fault: FaultKind,
    message: string,
  ) {
    super(message);
  }
}

function describeOffset(b: Block, offset: number, bytes: number): string {
  const el = b.info.elementBytes;
  const what = b.info.kind === 'string' ? 'a string literal' : `'${b.info.label}'`;
  const where = b.info.line > 0 ? ` (allocated at line ${b.info.line})` : '';
  if (el && offset % el === 0) {
    const count = Math.floor(b.size / el);
    return `element ${offset / el} of ${what}, which has ${count} ${b.info.elementType ?? ''} element${count === 1 ? '' : 's'}${where}`.replace(/ {2}/g, ' ');
  }
  return `byte ${offset}..${offset + bytes - 1} of ${what}, which has ${b.size} bytes${where}`;
}

export class Memory {
  /** Blocks by id (read by the interpreter's inlined fast paths; only `allocate` adds to it). */
  readonly blocks: (Block | undefined)[] = [undefined];
  /** Bytes allocated and not freed, by kind (for leaks and `cudaMemGetInfo`). */
  liveDeviceBytes = 0;

  allocate(size: number, info: BlockInfo): number {
    const id = this.blocks.length;
    if (id >= 2097152) throw new HostFault('wild', 'the program made more than 2 million allocations');
    this.blocks.push(new Block(id, Math.max(0, Math.floor(size)), info));
    if (info.kind === 'device') this.liveDeviceBytes += size;
    return id * BLOCK_SPAN;
  }

  /** The block an address points into (freed or not), or undefined for NULL and wild values. */
  blockOf(addr: number): Block | undefined {
    if (!(addr >= BLOCK_SPAN)) return undefined;
    return this.blocks[Math.floor(addr / BLOCK_SPAN)];
  }

  free(addr: number, how: 'free' | 'delete' | 'cudaFree'): void {
    if (addr === 0) return;
    const b = this.blockOf(addr);
    const offset = addr - (b ? b.id * BLOCK_SPAN : 0);
    if (!b || offset !== 0) throw new HostFault('bad-free', `${how}() of a pointer that no allocation returned`);
    if (b.freed) throw new HostFault('double-free', `${how}() of '${b.info.label}' twice (double free)`);
    b.freed = true;
    b.hostOk = false;
    if (b.info.kind === 'device') this.liveDeviceBytes -= b.size;
  }

  /**
   * The block for an access of `bytes` at `addr` by host code, with the access checked.
   * `who` is 'host' for C code and 'copy' for library calls such as memcpy (same checks).
   */
  check(addr: number, bytes: number, write: boolean, allowDevice = false): Block {
    // The common case first: a live host block, in bounds.
    const fast = this.blocks[Math.floor(addr / BLOCK_SPAN)];
    if (fast !== undefined && fast.hostOk) {
      const o = addr - fast.id * BLOCK_SPAN;
      if (o >= 0 && o + bytes <= fast.size) return fast;
    }
    if (addr === 0) throw new HostFault('null', `${write ? 'write to' : 'read from'} a NULL pointer (segmentation fault)`);
    const b = this.blockOf(addr);
    if (!b) throw new HostFault('wild', `${write ? 'write to' : 'read from'} an address that points into no allocation (segmentation fault)`);
    const offset = addr - b.id * BLOCK_SPAN;
    if (b.freed) throw new HostFault('freed', `${write ? 'write to' : 'read from'} '${b.info.label}' after it was freed (use after free)`);
    if (b.isDevice && !allowDevice) {
      throw new HostFault('device-on-host', `host code ${write ? 'wrote to' : 'read'} device memory '${b.info.label}' (allocated with cudaMalloc): copy it with cudaMemcpy first, or allocate it with cudaMallocManaged (segmentation fault)`);
    }
    if (offset < 0 || offset + bytes > b.size) {
      throw new HostFault('out-of-bounds', `${write ? 'write to' : 'read from'} ${describeOffset(b, offset, bytes)}: out of bounds (buffer overflow)`);
    }
    return b;
  }

  /** The fault of an access of `bytes` at `offset` outside live host block `b`. */
  outOfBounds(b: Block, offset: number, bytes: number, write: boolean): never {
    throw new HostFault('out-of-bounds', `${write ? 'write to' : 'read from'} ${describeOffset(b, offset, bytes)}: out of bounds (buffer overflow)`);
  }

  // ---- typed loads and stores (little-endian, as x86) ----
  load(addr: number, kind: ScalarKind): number | bigint {
    const b = this.check(addr, SCALAR_BYTES[kind], false);
    const o = addr - b.id * BLOCK_SPAN;
    switch (kind) {
      case 'i8':
        return b.i8[o]!;
      case 'u8':
        return b.u8[o]!;
      case 'i16':
        return b.dv.getInt16(o, true);
      case 'u16':
        return b.dv.getUint16(o, true);
      case 'i32':
        return (o & 3) === 0 ? b.i32![o >> 2]! : b.dv.getInt32(o, true);
      case 'u32':
        return (o & 3) === 0 ? b.u32![o >> 2]! : b.dv.getUint32(o, true);
      case 'f32':
        return (o & 3) === 0 ? b.f32![o >> 2]! : b.dv.getFloat32(o, true);
      case 'f64':
        return (o & 7) === 0 ? b.f64![o >> 3]! : b.dv.getFloat64(o, true);
      case 'i64': {
        const v = b.dv.getBigInt64(o, true);
        return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
      }
      case 'u64': {
        const v = b.dv.getBigUint64(o, true);
        return v <= 9007199254740991n ? Number(v) : v;
      }
    }
  }

  store(addr: number, kind: ScalarKind, v: number | bigint): void {
    const b = this.check(addr, SCALAR_BYTES[kind], true);
    const o = addr - b.id * BLOCK_SPAN;
    const n = typeof v === 'bigint' ? Number(v) : v;
    switch (kind) {
      case 'i8':
      case 'u8':
        b.u8[o] = n;
        return;
      case 'i16':
      case 'u16':
        b.dv.setUint16(o, n & 0xffff, true);
        return;
      case 'i32':
      case 'u32':
        if ((o & 3) === 0) b.i32![o >> 2] = n;
        else b.dv.setInt32(o, n | 0, true);
        return;
      case 'f32':
        if ((o & 3) === 0) b.f32![o >> 2] = n;
        else b.dv.setFloat32(o, n, true);
        return;
      case 'f64':
        if ((o & 7) === 0) b.f64![o >> 3] = n;
        else b.dv.setFloat64(o, n, true);
        return;
      case 'i64':
      case 'u64':
        b.dv.setBigUint64(o, BigInt.asUintN(64, typeof v === 'bigint' ? v : BigInt(Math.trunc(n))), true);
    }
  }

  /** `len` bytes at `addr` (checked), as a view into the block. */
  bytes(addr: number, len: number, write: boolean, allowDevice = false): Uint8Array {
    if (len === 0) return new Uint8Array(0);
    const b = this.check(addr, len, write, allowDevice);
    const o = addr - b.id * BLOCK_SPAN;
    return b.u8.subarray(o, o + len);
  }

  /** A NUL-terminated string at `addr`, decoded as UTF-8. */
  cString(addr: number): string {
    const b = this.check(addr, 1, false);
    const o = addr - b.id * BLOCK_SPAN;
    let end = o;
    while (end < b.size && b.u8[end] !== 0) end++;
    if (end >= b.size) throw new HostFault('out-of-bounds', `a string in '${b.info.label}' has no terminating '\\0' before the end of its ${b.size} bytes`);
    return decoder.decode(b.u8.subarray(o, end));
  }

  /** A new block holding `text` as UTF-8 and a terminating NUL. */
  allocString(text: string, info: BlockInfo): number {
    const bytes = encodeBytes(text);
    const addr = this.allocate(bytes.length + 1, info);
    this.blocks[addr / BLOCK_SPAN]!.u8.set(bytes);
    return addr;
  }
}

const decoder = new TextDecoder();

export type ScalarKind = 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'u64' | 'f32' | 'f64';

export const SCALAR_BYTES: Readonly<Record<ScalarKind, number>> = { i8: 1, u8: 1, i16: 2, u16: 2, i32: 4, u32: 4, i64: 8, u64: 8, f32: 4, f64: 8 };
