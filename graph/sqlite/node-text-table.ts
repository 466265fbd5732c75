// Every node's text → id while a bulk load defers the node-text index (sqlite-bulk-load.ts): the
// table stands in for that index, so it holds up to DEFERRED_NODE_LIMIT (64M) texts.
//
// Off the V8 heap on purpose. A Map of 16M strings made a 20M-edge import spend 42 s in the
// garbage collector (every major collection marks every key) and 49 s in Map lookups, against
// 0.7 s and 2.5 s at 2M edges: the stage's slope from 2M to 20M went past 1.15 (issue 38). Here the
// texts are bytes in large typed-array chunks and the hash table is one Uint32Array, which the
// collector never walks, and a probe touches one slot and, on a hash match, the record it points at.
//
// Open addressing with linear probing, at most half full. A slot is two u32: the text's 32-bit hash
// and where its record is stored (0: empty), in 4-byte units over all chunks (so up to 16 GiB of
// records; no single array over 2 GiB: the slots of 64M nodes are 1 GiB). A record is 4-byte
// aligned: the id (u32), a header (u32: length in UTF-16 units × 2, plus 1 if wide), then the units:
// one byte each when every unit is below 256 (ASER's texts are ASCII), two bytes each otherwise. A
// hash match is always checked against the stored text, so colliding hashes cost a comparison, never
// a wrong id. At 53M nodes of ~36 characters (ASER's core): 1 GiB of slots and ~2.5 GB of records
// (issue 48; 16-byte slots took 2 GiB, and 3 GiB while they doubled).
import type { NodeId } from '../graph-store.js';

/** Bytes of a text chunk (a power of two; a record longer than this gets a chunk of its own). */
export const CHUNK_BYTES = 64 * 1024 * 1024;
/** u32 words per slot: hash, record position. */
const SLOT = 2;
const INITIAL_SLOTS = 1 << 12;
/** Record header bytes: id, length. */
const RECORD_HEADER = 8;

/** FNV-1a over the UTF-16 units, then a final mix so that the low bits (the slot) depend on every unit. */
function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

function isNarrow(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
}

export class NodeTextTable {
  private slots = new Uint32Array(INITIAL_SLOTS * SLOT);
  private mask = INITIAL_SLOTS - 1;
  private count = 0;
  /** Record chunks; a record's position (in 4-byte units) is chunk index << chunkShift | unit offset. */
  private readonly chunks: Uint8Array[] = [];
  private readonly chunkShift: number;
  /** Bytes used in the last chunk. */
  private used = 0;

  /** @param chunkBytes the size of a text chunk, a power of two of at least 16 (tests make it small). */
  constructor(private readonly chunkBytes = CHUNK_BYTES) {
    if (!(
      Number.isInteger(chunkBytes) &&
      chunkBytes >= 16 &&
      (chunkBytes & (chunkBytes - 1)) === 0 &&
      chunkBytes <= 2 ** 30
    ))
      throw new RangeError(`text chunk of ${chunkBytes} bytes: a power of two from 16 to 2^30`);
    this.chunkShift = Math.log2(chunkBytes / 4);
    // Position 0 means an empty slot: the first chunk's first 4 bytes hold no record.
    this.chunks.push(new Uint8Array(chunkBytes));
    this.used = 4;
  }

  get size(): number {
    return this.count;
  }

  get(text: string): NodeId | undefined {
    const slot = this.find(text, hashText(text));
    return slot < 0 ? undefined : this.idAt(this.slots[slot * SLOT + 1]!);
  }

  /**
   * The id of `text`: the one the table holds, or, when it holds none, the one `newId()` gives, added.
   * One hash and one probe run for both (a bulk load calls it for every edge end). The new id must be
   * a positive integer below 2^32.
   */
  getOrAdd(text: string, newId: () => NodeId): NodeId {
    const hash = hashText(text);
    if ((this.count + 1) * 2 > this.mask + 1) this.grow();
    const s = this.slots;
    let slot = hash & this.mask;
    for (let at = s[slot * SLOT + 1]!; at !== 0; slot = (slot + 1) & this.mask, at = s[slot * SLOT + 1]!) {
      if (s[slot * SLOT] === hash && this.storedEquals(at, text)) return this.idAt(at);
    }
    const id = newId();
    if (!(Number.isInteger(id) && id > 0 && id <= 0xffffffff))
      throw new RangeError(`node id ${id}: the text table holds ids from 1 to 2^32 - 1`);
    s[slot * SLOT] = hash;
    s[slot * SLOT + 1] = this.store(text, id);
    this.count += 1;
    return id;
  }

  /** Adds a text that the table does not hold; `id` must be a positive integer below 2^32. */
  add(text: string, id: NodeId): void {
    let added = false;
    this.getOrAdd(text, () => ((added = true), id));
    if (!added) throw new Error(`the node text table already holds ${JSON.stringify(text)}`);
  }

  /**
   * Removes a text (after a rolled-back transaction; its stored bytes are not reclaimed). Backward-shift
   * deletion: later slots of the probe run move up, so that no lookup stops early at the hole.
   */
  delete(text: string): boolean {
    let hole = this.find(text, hashText(text));
    if (hole < 0) return false;
    const s = this.slots;
    for (let next = (hole + 1) & this.mask; s[next * SLOT + 1] !== 0; next = (next + 1) & this.mask) {
      const home = s[next * SLOT]! & this.mask;
      // The entry at `next` may fill the hole unless its home lies cyclically in (hole, next].
      const homeAfterHole = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (homeAfterHole) continue;
      s.copyWithin(hole * SLOT, next * SLOT, next * SLOT + SLOT);
      hole = next;
    }
    s.fill(0, hole * SLOT, hole * SLOT + SLOT);
    this.count -= 1;
    return true;
  }

  /** The slot holding `text`, or -1. */
  private find(text: string, hash: number): number {
    const s = this.slots;
    for (let slot = hash & this.mask; s[slot * SLOT + 1] !== 0; slot = (slot + 1) & this.mask) {
      if (s[slot * SLOT] === hash && this.storedEquals(s[slot * SLOT + 1]!, text)) return slot;
    }
    return -1;
  }

  private u32(chunk: Uint8Array, at: number): number {
    return (chunk[at]! | (chunk[at + 1]! << 8) | (chunk[at + 2]! << 16) | (chunk[at + 3]! << 24)) >>> 0;
  }

  private idAt(position: number): NodeId {
    const chunk = this.chunks[position >>> this.chunkShift]!;
    return this.u32(chunk, (position & ((1 << this.chunkShift) - 1)) * 4);
  }

  private storedEquals(position: number, text: string): boolean {
    const chunk = this.chunks[position >>> this.chunkShift]!;
    const offset = (position & ((1 << this.chunkShift) - 1)) * 4;
    const header = this.u32(chunk, offset + 4);
    if (header >>> 1 !== text.length) return false;
    const at = offset + RECORD_HEADER;
    if ((header & 1) === 0) {
      for (let i = 0; i < text.length; i++) if (chunk[at + i] !== text.charCodeAt(i)) return false;
    } else {
      for (let i = 0; i < text.length; i++)
        if ((chunk[at + 2 * i]! | (chunk[at + 2 * i + 1]! << 8)) !== text.charCodeAt(i)) return false;
    }
    return true;
  }

  private static putU32(chunk: Uint8Array, at: number, value: number): void {
    chunk[at] = value & 0xff;
    chunk[at + 1] = (value >>> 8) & 0xff;
    chunk[at + 2] = (value >>> 16) & 0xff;
    chunk[at + 3] = value >>> 24;
  }

  /** Appends a record (id, header, units) to the chunks; returns its position in 4-byte units. */
  private store(text: string, id: NodeId): number {
    const narrow = isNarrow(text);
    const bytes = RECORD_HEADER + text.length * (narrow ? 1 : 2);
    const padded = (bytes + 3) & ~3;
    let chunk = this.chunks[this.chunks.length - 1]!;
    if (this.used + padded > chunk.length) {
      // A record longer than a chunk gets one of its own, at offset 0: positions only name its start.
      chunk = new Uint8Array(Math.max(this.chunkBytes, padded));
      if (this.chunks.length >= 2 ** (32 - this.chunkShift))
        throw new RangeError(`the node text table holds at most ${2 ** 32 * 4} bytes of texts`);
      this.chunks.push(chunk);
      this.used = 0;
    }
    const offset = this.used;
    NodeTextTable.putU32(chunk, offset, id);
    NodeTextTable.putU32(chunk, offset + 4, text.length * 2 + (narrow ? 0 : 1));
    const at = offset + RECORD_HEADER;
    if (narrow) {
      for (let i = 0; i < text.length; i++) chunk[at + i] = text.charCodeAt(i);
    } else {
      for (let i = 0; i < text.length; i++) {
        const unit = text.charCodeAt(i);
        chunk[at + 2 * i] = unit & 0xff;
        chunk[at + 2 * i + 1] = unit >>> 8;
      }
    }
    this.used += padded;
    return (((this.chunks.length - 1) << this.chunkShift) | (offset >>> 2)) >>> 0;
  }

  /** Doubles the slots and re-places every entry by its stored hash (texts are not read again). */
  private grow(): void {
    const old = this.slots;
    const size = (this.mask + 1) * 2;
    this.slots = new Uint32Array(size * SLOT);
    this.mask = size - 1;
    for (let from = 0; from < old.length; from += SLOT) {
      if (old[from + 1] === 0) continue;
      let slot = old[from]! & this.mask;
      while (this.slots[slot * SLOT + 1] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot * SLOT] = old[from]!;
      this.slots[slot * SLOT + 1] = old[from + 1]!;
    }
  }
}
