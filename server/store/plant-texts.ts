// The in-memory store's plant texts, kept outside the V8 heap: appended to
// buffers, each text found by its index. A million plants held as a million
// heap strings cost their headers, the old space's spare room, and a full
// collection's walk over each of them; here they are bytes in a few hundred
// buffers (measured: a million 36-character texts with their map, 214 MB
// RSS as strings, 78 MB here). A text replaced by a longer one is written
// anew and its old bytes are dead, as are a removed text's; the store
// counts them (deadBytes) and compacts (compacted(): the live texts copied
// into new buffers, byte for byte) before they outgrow the live ones.
//
// A text whose characters are all below U+0100 is kept in latin1 (a byte a
// character), any other in UTF-16 (two bytes a code unit, so every string
// comes back exactly): keptBytes() says which, and the store's byte budget
// counts exactly that (server/store/store.ts, plantBytes).

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
  /** Bytes of the buffers that no text holds any more (replaced or removed ones). */
  private dead = 0;

  /** The bytes of replaced and removed texts, which only compacted() gives back. */
  get deadBytes(): number {
    return this.dead;
  }

  /** Keeps `text`, which takes `bytes` (keptBytes(text), when the caller has it already); answers its index. */
  add(text: string, bytes: number = keptBytes(text)): number {
    if (this.count === this.start.length) this.grow();
    const index = this.count++;
    this.write(index, text, bytes);
    return index;
  }

  /**
   * The text at `index` becomes `text` (of `bytes`, keptBytes): written over
   * the old one when it fits there in the same encoding, else anew (the old
   * bytes are dead).
   */
  replace(index: number, text: string, bytes: number = keptBytes(text)): void {
    const old = this.length[index]!;
    const oldBytes = old & ~UTF16;
    const sameEncoding = (old & UTF16) === (bytes === text.length ? 0 : UTF16);
    if (sameEncoding && bytes <= oldBytes) {
      this.chunks[this.chunkOf[index]!]!.write(
        text,
        this.start[index]!,
        bytes,
        bytes === text.length ? 'latin1' : 'utf16le',
      );
      this.length[index] = (old & UTF16) | bytes;
      this.dead += oldBytes - bytes;
      return;
    }
    this.dead += oldBytes;
    this.write(index, text, bytes);
  }

  /** The text at `index` is gone; its bytes are dead. The index reads as the empty text. */
  remove(index: number): void {
    this.dead += this.length[index]! & ~UTF16;
    this.length[index] = 0;
  }

  /**
   * The texts of the indexes `keep` holds, in their order, copied byte for
   * byte into new buffers: index i of the answer is the i-th kept text.
   */
  compacted(keep: (index: number) => boolean): PlantTexts {
    const copy = new PlantTexts();
    for (let index = 0; index < this.count; index++) {
      if (!keep(index)) continue;
      const length = this.length[index]!;
      const bytes = length & ~UTF16;
      const start = this.start[index]!;
      const target = copy.place(copy.count, bytes);
      this.chunks[this.chunkOf[index]!]!.copy(target.chunk, target.at, start, start + bytes);
      copy.length[copy.count++] = length;
    }
    return copy;
  }

  private write(index: number, text: string, bytes: number): void {
    const latin1 = bytes === text.length;
    const { chunk, at } = this.place(index, bytes);
    chunk.write(text, at, bytes, latin1 ? 'latin1' : 'utf16le');
    this.length[index] = latin1 ? bytes : bytes | UTF16;
  }

  /** Room for `bytes` for the text at `index` (its chunk and start set); the buffer and where in it. */
  private place(index: number, bytes: number): { chunk: Buffer; at: number } {
    if (index >= this.start.length) this.grow();
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
    this.chunkOf[index] = chunkIndex;
    this.start[index] = at;
    return { chunk, at };
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
    this.dead = 0;
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
