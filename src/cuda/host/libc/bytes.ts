/**
 * stdout and stderr are byte streams; the run gives them as text. A character the program writes
 * as one byte (`putchar`, `%c`, `std::cout << c`) may be one byte of a UTF-8 sequence that later
 * bytes complete (a learner printing "é" as 0xC3, 0xA9), so a byte above 0x7F is carried as the
 * lone surrogate U+DC80–U+DCFF (never produced by decoding text) until the stream is decoded:
 * consecutive such bytes are decoded together as UTF-8, as a terminal shows them; a byte that
 * forms no character becomes U+FFFD, as a terminal shows it too.
 */
const decoder = new TextDecoder();

/** The text for one byte written alone. */
export const byteText = (b: number): string => {
  const v = b & 0xff;
  return String.fromCharCode(v < 0x80 ? v : 0xdc00 | v);
};

const isRaw = (code: number): boolean => code >= 0xdc80 && code <= 0xdcff;

/** Every run of carried bytes in `s`, decoded as UTF-8. */
export function decodeBytes(s: string): string {
  let i = 0;
  for (; i < s.length && !isRaw(s.charCodeAt(i)); i++);
  if (i === s.length) return s;
  let out = s.slice(0, i);
  while (i < s.length) {
    let j = i;
    while (j < s.length && isRaw(s.charCodeAt(j))) j++;
    if (j > i) {
      const bytes = new Uint8Array(j - i);
      for (let k = i; k < j; k++) bytes[k - i] = s.charCodeAt(k) & 0xff;
      out += decoder.decode(bytes);
      i = j;
    }
    while (j < s.length && !isRaw(s.charCodeAt(j))) j++;
    out += s.slice(i, j);
    i = j;
  }
  return out;
}

const encoder = new TextEncoder();

/** The bytes `s` stands for: text as UTF-8, each carried byte as itself (`sprintf` into memory, the counts `printf` returns). */
export function encodeBytes(s: string): Uint8Array {
  let i = 0;
  for (; i < s.length && !isRaw(s.charCodeAt(i)); i++);
  if (i === s.length) return encoder.encode(s);
  const parts: number[] = [];
  let from = 0;
  for (let k = 0; k <= s.length; k++) {
    if (k < s.length && !isRaw(s.charCodeAt(k))) continue;
    if (k > from) for (const b of encoder.encode(s.slice(from, k))) parts.push(b);
    if (k < s.length) parts.push(s.charCodeAt(k) & 0xff);
    from = k + 1;
  }
  return Uint8Array.from(parts);
}

/**
 * Decodes a stream given in pieces: a run of carried bytes at the end of a piece is held back
 * until the next piece (or `end`) shows where it stops.
 */
export class ByteDecoder {
  private held = '';

  push(piece: string): string {
    const s = this.held + piece;
    let k = s.length;
    while (k > 0 && isRaw(s.charCodeAt(k - 1))) k--;
    this.held = s.slice(k);
    return decodeBytes(s.slice(0, k));
  }

  end(): string {
    const s = this.held;
    this.held = '';
    return decodeBytes(s);
  }
}
