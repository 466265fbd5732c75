// Every node's text → id while a bulk load defers the node-text index (sqlite-bulk-load.ts): the
// table stands in for that index, so it holds up to DEFERRED_NODE_LIMIT (24M) texts.
//
// Off the V8 heap on purpose. A Map of 16M strings made a 20M-edge import spend 42 s in the
// garbage collector (every major collection marks every key) and 49 s in Map lookups, against
// 0.7 s and 2.5 s at 2M edges: the stage's slope from 2M to 20M went past 1.15 (issue 38). Here the
// texts are bytes in large typed-array chunks and the hash table is one Uint32Array, which the
// collector never walks, and a probe touches one slot and the text it points at.
//
// Open addressing with linear probing, at most half full. A slot is four u32: the text's hash, its
// id (0: empty), and where the text is stored (chunk, byte offset). A stored text is a u32 header
// (length in UTF-16 units × 2, plus 1 if wide) followed by its units: one byte each when every unit
// is below 256 (ASER's texts are ASCII), two bytes each otherwise.
import type { NodeId } from '../graph-store.js';

/** Bytes of a text chunk (a text longer than this gets a chunk of its own). */
export const CHUNK_BYTES = 64 * 1024 * 1024;
/** u32 words per slot: hash, id, chunk, offset. */
const SLOT = 4;
const INITIAL_SLOTS = 1 << 12;

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
  private readonly chunks: Uint8Array[] = [];
  /** Bytes used in the last chunk. */
  private used = 0;

  /** @param chunkBytes the size of a text chunk (tests make it small). */
  constructor(private readonly chunkBytes = CHUNK_BYTES) {}

  get size(): number {
    return this.count;
  }

  get(text: string): NodeId | undefined {
    const slot = this.find(text, hashText(text));
    return slot < 0 ? undefined : this.slots[slot * SLOT + 1];
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
    for (; s[slot * SLOT + 1] !== 0; slot = (slot + 1) & this.mask) {
      if (s[slot * SLOT] === hash && this.storedEquals(s[slot * SLOT + 2]!, s[slot * SLOT + 3]!, text))
        return s[slot * SLOT + 1]!;
    }
    const id = newId();
    if (!(Number.isInteger(id) && id > 0 && id <= 0xffffffff))
      throw new RangeError(`node id ${id}: the text table holds ids from 1 to 2^32 - 1`);
    const [chunk, offset] = this.store(text);
    const at = slot * SLOT;
    s[at] = hash;
    s[at + 1] = id;
    s[at + 2] = chunk;
    s[at + 3] = offset;
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
      if (s[slot * SLOT] === hash && this.storedEquals(s[slot * SLOT + 2]!, s[slot * SLOT + 3]!, text)) return slot;
    }
    return -1;
  }

  private storedEquals(chunkIndex: number, offset: number, text: string): boolean {
    const chunk = this.chunks[chunkIndex]!;
    const header = chunk[offset]! | (chunk[offset + 1]! << 8) | (chunk[offset + 2]! << 16) | (chunk[offset + 3]! << 24);
    if (header >>> 1 !== text.length) return false;
    const at = offset + 4;
    if ((header & 1) === 0) {
      for (let i = 0; i < text.length; i++) if (chunk[at + i] !== text.charCodeAt(i)) return false;
    } else {
      for (let i = 0; i < text.length; i++)
        if ((chunk[at + 2 * i]! | (chunk[at + 2 * i + 1]! << 8)) !== text.charCodeAt(i)) return false;
    }
    return true;
  }

  /** Appends a text's header and units to the chunks; returns where. */
  private store(text: string): [chunk: number, offset: number] {
    const narrow = isNarrow(text);
    const bytes = 4 + text.length * (narrow ? 1 : 2);
    let chunk = this.chunks[this.chunks.length - 1];
    if (chunk === undefined || this.used + bytes > chunk.length) {
      chunk = new Uint8Array(Math.max(this.chunkBytes, bytes));
      this.chunks.push(chunk);
      this.used = 0;
    }
    const offset = this.used;
    const header = text.length * 2 + (narrow ? 0 : 1);
    chunk[offset] = header & 0xff;
    chunk[offset + 1] = (header >>> 8) & 0xff;
    chunk[offset + 2] = (header >>> 16) & 0xff;
    chunk[offset + 3] = header >>> 24;
    const at = offset + 4;
    if (narrow) {
      for (let i = 0; i < text.length; i++) chunk[at + i] = text.charCodeAt(i);
    } else {
      for (let i = 0; i < text.length; i++) {
        const unit = text.charCodeAt(i);
        chunk[at + 2 * i] = unit & 0xff;
        chunk[at + 2 * i + 1] = unit >>> 8;
      }
    }
    this.used += bytes;
    return [this.chunks.length - 1, offset];
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
      this.slots.set(old.subarray(from, from + SLOT), slot * SLOT);
    }
  }
}
