// The in-memory store's plant texts, kept outside the V8 heap: appended to
// buffers, each text found by its index. A million plants held as a million
// heap strings cost their headers, the old space's spare room, and a full
// collection's walk over each of them; here they are bytes in a few hundred
// buffers (measured: a million 36-character texts with their map, 214 MB
// RSS as strings, 78 MB here). Texts are only added, or all dropped at once
// (the store has no delete).
//
// A text whose characters are all below U+0100 is kept in latin1 (a byte a
// character), any other in UTF-16 (two bytes a code unit, so every string
// comes back exactly): keptBytes() says which, and the store's byte budget
// counts exactly that (server/store.ts, plantBytes).

/** The smallest buffer, and the largest one texts share; a longer text gets a buffer of its own. */
const FIRST_CHUNK_BYTES = 64 * 1024;
const LARGEST_CHUNK_BYTES = 1024 * 1024;
/** The top bit of a length marks a UTF-16 text. */
const UTF16 = 0x8000_0000;
const LATIN1 = /^[\u0000-\u00ff]*$/;

/** The bytes `text` takes here: one a character when every character is below U+0100 (latin1), else two a UTF-16 code unit. */
export function keptBytes(text: string): number {
  return LATIN1.test(text) ? text.length : 2 * text.length;
}

export class PlantTexts {
  private chunks: Buffer[] = [];
  private current: Buffer = Buffer.alloc(0);
  private currentIndex = -1;
  private used = 0;
  private chunkOf = new Uint32Array(1024);
  private start = new Uint32Array(1024);
  private length = new Uint32Array(1024);
  private count = 0;

  /** Keeps `text`, which takes `bytes` (keptBytes(text), when the caller has it already); answers its index. */
  add(text: string, bytes: number = keptBytes(text)): number {
    const latin1 = bytes === text.length;
    let chunk: Buffer;
    let chunkIndex: number;
    let at: number;
    if (bytes > LARGEST_CHUNK_BYTES / 4) {
      // A long text in a buffer of its own: the shared one is not left mostly empty.
      chunk = Buffer.allocUnsafe(bytes);
      chunkIndex = this.chunks.push(chunk) - 1;
      at = 0;
    } else {
      if (this.currentIndex < 0 || this.used + bytes > this.current.length) this.nextChunk(bytes);
      chunk = this.current;
      chunkIndex = this.currentIndex;
      at = this.used;
      this.used += bytes;
    }
    chunk.write(text, at, bytes, latin1 ? 'latin1' : 'utf16le');
    if (this.count === this.start.length) this.grow();
    const index = this.count++;
    this.chunkOf[index] = chunkIndex;
    this.start[index] = at;
    this.length[index] = latin1 ? bytes : bytes | UTF16;
    return index;
  }

  /** The bytes the text at `index` takes (keptBytes). */
  bytesAt(index: number): number {
    return this.length[index]! & ~UTF16;
  }

  /** The text kept at `index`. */
  text(index: number): string {
    const length = this.length[index]!;
    const bytes = length & ~UTF16;
    const start = this.start[index]!;
    return this.chunks[this.chunkOf[index]!]!.toString(length & UTF16 ? 'utf16le' : 'latin1', start, start + bytes);
  }

  /** Drops every text. */
  clear(): void {
    this.chunks = [];
    this.current = Buffer.alloc(0);
    this.currentIndex = -1;
    this.used = 0;
    this.chunkOf = new Uint32Array(1024);
    this.start = new Uint32Array(1024);
    this.length = new Uint32Array(1024);
    this.count = 0;
  }

  /** A new shared buffer for at least `bytes`, twice the last one up to LARGEST_CHUNK_BYTES: a few plants take little, many take few buffers. */
  private nextChunk(bytes: number): void {
    const size = Math.min(LARGEST_CHUNK_BYTES, Math.max(FIRST_CHUNK_BYTES, 2 * this.current.length, bytes));
    this.current = Buffer.allocUnsafe(size);
    this.currentIndex = this.chunks.push(this.current) - 1;
    this.used = 0;
  }

  private grow(): void {
    const double = (array: Uint32Array) => {
      const larger = new Uint32Array(2 * array.length);
      larger.set(array);
      return larger;
    };
    this.chunkOf = double(this.chunkOf);
    this.start = double(this.start);
    this.length = double(this.length);
  }
}
