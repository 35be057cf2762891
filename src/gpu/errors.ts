import type { SourceLocation } from '../kernel/types.ts';

/** Everything that can go wrong on the GPU side, as values the UI can show. */
export type GpuErrorKind =
  | 'no-webgpu'
  | 'no-adapter'
  | 'device-request'
  | 'compile'
  | 'validation'
  | 'out-of-memory'
  | 'internal'
  | 'device-lost'
  | 'limits'
  | 'bindings'
  | 'watchdog'
  | 'timeout'
  | 'cancelled';

/** One compiler message with its place in the WGSL source. */
export interface ShaderMessage extends SourceLocation {
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  /** The source line the message points at, for showing with a caret. */
  readonly sourceLine?: string;
}

/**
 * A GPU failure: what happened, where (file, line, column for shader errors), and what to do.
 * Thrown by the executor; `isGpuError` tells it apart from programming errors.
 */
export class GpuError extends Error {
  override readonly name = 'GpuError';
  readonly kind: GpuErrorKind;
  /** What the person can do about it. */
  readonly hint: string;
  /** Compiler messages, for `compile` errors; empty otherwise. */
  readonly messages: readonly ShaderMessage[];
  /** The first error's location, when there is one. */
  readonly location: SourceLocation | undefined;

  constructor(
    kind: GpuErrorKind,
    message: string,
    hint: string,
    messages: readonly ShaderMessage[] = [],
    location?: SourceLocation,
  ) {
    super(message);
    this.kind = kind;
    this.hint = hint;
    this.messages = messages;
    const first = messages.find((m) => m.severity === 'error') ?? messages[0];
    this.location = first
      ? { line: first.line, column: first.column, ...(first.file ? { file: first.file } : {}) }
      : location;
  }
}

export function isGpuError(value: unknown): value is GpuError {
  return value instanceof GpuError;
}

/** Compiler messages a view shows before "and N more". */
export const SHOWN_MESSAGES = 5;
/** Characters of a source line shown around a message's column. */
export const EXCERPT_WIDTH = 120;

/**
 * The part of `line` around 1-based `column` worth showing under a message: at most `width`
 * characters, with an ellipsis on each side that was cut, and the caret's 1-based column in it.
 * A 1 MB line yields a hundred characters, not a megabyte per message.
 */
export function excerptAround(line: string, column: number, width = EXCERPT_WIDTH): { text: string; caret: number } {
  const col = Math.min(Math.max(1, column), line.length + 1);
  if (line.length <= width) return { text: line, caret: col };
  const half = Math.floor(width / 2);
  let start = Math.max(0, col - 1 - half);
  const end = Math.min(line.length, start + width);
  start = Math.max(0, end - width);
  const head = start > 0 ? '…' : '';
  const tail = end < line.length ? '…' : '';
  return { text: `${head}${line.slice(start, end)}${tail}`, caret: col - start + head.length };
}

/** Formats a compile error the way compilers print them: `file:line:column: error: message`. */
export function formatShaderMessage(m: ShaderMessage): string {
  const where = `${m.file ?? 'kernel.wgsl'}:${m.line}:${m.column}`;
  if (m.sourceLine === undefined) return `${where}: ${m.severity}: ${m.message}`;
  const { text, caret } = excerptAround(m.sourceLine, m.column);
  return `${where}: ${m.severity}: ${m.message}\n  ${text}\n  ${' '.repeat(caret - 1)}^`;
}

export const HINTS = {
  noWebgpu:
    'This browser exposes no WebGPU. Use Chrome or Edge 113 or newer; on Linux start Chrome with --enable-unsafe-webgpu (and --enable-features=Vulkan). Firefox Nightly and Safari Technology Preview also have it behind a setting. Everything else still works on the simulator.',
  noAdapter:
    'WebGPU is present but no adapter was granted: the GPU may be blocklisted or the driver too old. Check chrome://gpu, update the driver, or enable chrome://flags/#enable-unsafe-webgpu. The simulator still works.',
  compile: 'Fix the WGSL at the line and column shown, then run again. Your edit is kept.',
  noF16:
    "This adapter does not offer WebGPU's 'shader-f16' feature, so `enable f16;` cannot compile here. Compute in f32 (quantizeToF16 rounds to half precision; pack2x16float stores halves), or use a GPU whose adapter lists shader-f16. Your edit is kept.",
  validation:
    'The kernel and its bindings do not fit together (a buffer type, size or access mode, or the dispatch size). The message names the object; check the binding declarations against the data.',
  outOfMemory: 'The GPU ran out of memory: choose a smaller N or close other GPU-heavy tabs, then run again.',
  deviceLost:
    'The GPU device was lost (driver reset, a kernel ran too long, or the tab was backgrounded). The next run asks for a new device automatically.',
  timeout:
    'The GPU device was given up and a new one is requested; your edit is kept. Either a loop runs very long or the adapter is slow at this size (a software adapter is slow at any size): choose a smaller n first.',
  cancelled: 'The GPU device was given up and a new one is requested; your edit is kept.',
  limits: 'Choose a smaller size or workgroup size; the numbers above are what this adapter allows.',
} as const;
