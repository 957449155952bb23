// A streamed, deterministic ZIP archive (deflate, fixed timestamps, Unix modes), written
// entry by entry so a large project never sits in memory twice. Entry names are the file
// set's checked relative paths, so no entry can name `..` or an absolute path.
import { constants, crc32, deflateRawSync } from "node:zlib";
import type { FileSet } from "../file-set.js";
import { checkRelativePath } from "../file-set.js";

// 1980-01-01 00:00 — the earliest DOS date: the same bytes for the same project, always.
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

interface CentralRecord {
  name: Buffer;
  crc: number;
  compressedSize: number;
  size: number;
  method: number;
  offset: number;
  mode: number;
}

interface Packed {
  data: Uint8Array;
  crc: number;
  stored: boolean;
}

// Files copied verbatim from a target's static/ folder are the same byte arrays in every
// export (the template folder is read once per process), and compressing them was half the
// CPU of a served export: their compressed form is kept, keyed by the array itself.
const packedStatics = new WeakMap<Uint8Array, Packed>();

// Generated files are new arrays each export, but most of them come out the same when a
// definition is exported again with a small edit (the page previews and downloads while
// someone types): their compressed form is kept by content (CRC and length, then compared
// byte for byte), least recently used out, bounded by bytes held. Same bytes in, same bytes
// out: the archive does not depend on what was cached.
const PACKED_CACHE_BYTES = 8 * 1024 * 1024;
const packedByContent = new Map<string, { bytes: Uint8Array; packed: Packed }>();
let packedCacheBytes = 0;
/** How often compressed bytes were reused (tests read it: same bytes out either way). */
export const zipCacheStats = { hits: 0 };
const held = (e: { bytes: Uint8Array; packed: Packed }) => e.bytes.length + (e.packed.stored ? 0 : e.packed.data.length);

function pack(bytes: Uint8Array, crc = crc32(bytes) >>> 0): Packed {
  const deflated = deflateRawSync(bytes, { level: 9 });
  const stored = deflated.length >= bytes.length;
  // zlib answers a view into its 16 kB output buffer: a copy of exact size is what a cache
  // may keep (else every small file kept holds 16 kB).
  return { data: stored ? bytes : new Uint8Array(deflated), crc, stored };
}

/**
 * Compressed bytes kept by content (CRC and length, then compared byte for byte): a whole
 * file's (a final deflate stream) or a piece's (FileEntry.pieces, sync-flushed), apart.
 */
function remembered(kind: "file" | "piece", bytes: Uint8Array, make: (crc: number) => Packed): Packed {
  const crc = crc32(bytes) >>> 0;
  const key = `${kind}:${crc}:${bytes.length}`;
  const hit = packedByContent.get(key);
  if (hit && Buffer.compare(hit.bytes, bytes) === 0) {
    zipCacheStats.hits++;
    packedByContent.delete(key); // re-insert: Map order is the recency order
    packedByContent.set(key, hit);
    return hit.packed;
  }
  const entry = { bytes, packed: make(crc) };
  if (held(entry) > PACKED_CACHE_BYTES / 16) return entry.packed;
  if (hit) packedCacheBytes -= held(hit); // same CRC and length, other bytes: the newer one stays
  packedByContent.delete(key);
  packedByContent.set(key, entry);
  packedCacheBytes += held(entry);
  for (const [oldKey, old] of packedByContent) {
    if (packedCacheBytes <= PACKED_CACHE_BYTES) break;
    packedByContent.delete(oldKey);
    packedCacheBytes -= held(old);
  }
  return entry.packed;
}

// A file in pieces (FileEntry.pieces: the pristine copy, where every static file's content
// comes back in every export) is compressed piece by piece: each piece is a run of deflate
// blocks of its own, ended by a sync flush (byte-aligned, not final), so pieces compressed in
// earlier exports can stand between new ones; an empty final block ends the stream. The file
// inflates to the same bytes; its compressed form is larger than one deflate of the whole
// (no match reaches across pieces: +22 % for the example's pristine copy, +9 % for its archive).
const FINAL_EMPTY_BLOCK = new Uint8Array([0x03, 0x00]);
const packedPieces = new WeakMap<Uint8Array, Packed>();

function packPiece(piece: Uint8Array): Uint8Array {
  const shared = packedPieces.get(piece);
  if (shared) return shared.data;
  // Kept by the array too: a shared piece is found by identity next time, a fresh one goes
  // with its array; a fresh piece that repeats (a team edited elsewhere) is found by content.
  const packed = remembered("piece", piece, (crc) => ({ data: new Uint8Array(deflateRawSync(piece, { level: 9, finishFlush: constants.Z_SYNC_FLUSH })), crc, stored: false }));
  packedPieces.set(piece, packed);
  return packed.data;
}

function packInPieces(bytes: Uint8Array, pieces: readonly Uint8Array[]): Packed {
  const crc = crc32(bytes) >>> 0;
  // The pieces must still be the bytes (an entry copied with other bytes keeps its pieces):
  // if not, the bytes are what is written, compressed whole.
  let piecesCrc = 0;
  let piecesLength = 0;
  for (const p of pieces) {
    piecesCrc = crc32(p, piecesCrc);
    piecesLength += p.length;
  }
  if (piecesLength !== bytes.length || piecesCrc >>> 0 !== crc) return remembered("file", bytes, (c) => pack(bytes, c));
  const parts = pieces.filter((p) => p.length > 0).map(packPiece);
  parts.push(FINAL_EMPTY_BLOCK);
  const size = parts.reduce((n, p) => n + p.length, 0);
  return size >= bytes.length ? { data: bytes, crc, stored: true } : { data: Buffer.concat(parts, size), crc, stored: false };
}

export async function writeZip(files: FileSet, write: (chunk: Uint8Array) => void | Promise<void>, prefix = ""): Promise<number> {
  // Plain ZIP (no ZIP64): plenty for a generated project, and refused rather than corrupted beyond.
  if (files.size > 0xffff || files.totalBytes() > 0xfffffff0) throw new Error("project too large for a ZIP archive");
  let offset = 0;
  const central: CentralRecord[] = [];
  const emit = async (chunk: Uint8Array) => {
    await write(chunk);
    offset += chunk.length;
  };
  for (const [path, entry] of files.entries()) {
    const name = Buffer.from(prefix + checkRelativePath(path), "utf8");
    let packed: Packed;
    if (entry.verbatim) {
      packed = packedStatics.get(entry.bytes) ?? pack(entry.bytes);
      if (!packedStatics.has(entry.bytes)) packedStatics.set(entry.bytes, packed);
    } else if (entry.pieces) {
      packed = packInPieces(entry.bytes, entry.pieces);
    } else {
      packed = remembered("file", entry.bytes, (crc) => pack(entry.bytes, crc));
    }
    const { data, stored } = packed;
    const rec: CentralRecord = { name, crc: packed.crc, compressedSize: data.length, size: entry.bytes.length, method: stored ? 0 : 8, offset, mode: entry.mode };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // flags: UTF-8 names
    local.writeUInt16LE(rec.method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(rec.crc, 14);
    local.writeUInt32LE(rec.compressedSize, 18);
    local.writeUInt32LE(rec.size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    await emit(local);
    await emit(name);
    await emit(data);
    central.push(rec);
  }
  const centralStart = offset;
  for (const rec of central) {
    const h = Buffer.alloc(46);
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, spec 2.0
    h.writeUInt16LE(20, 6);
    h.writeUInt16LE(0x0800, 8);
    h.writeUInt16LE(rec.method, 10);
    h.writeUInt16LE(DOS_TIME, 12);
    h.writeUInt16LE(DOS_DATE, 14);
    h.writeUInt32LE(rec.crc, 16);
    h.writeUInt32LE(rec.compressedSize, 20);
    h.writeUInt32LE(rec.size, 24);
    h.writeUInt16LE(rec.name.length, 28);
    h.writeUInt32LE(((0o100000 | rec.mode) << 16) >>> 0, 38); // regular file + permissions
    h.writeUInt32LE(rec.offset, 42);
    await emit(h);
    await emit(rec.name);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length, 8);
  end.writeUInt16LE(central.length, 10);
  end.writeUInt32LE(offset - centralStart, 12);
  end.writeUInt32LE(centralStart, 16);
  await emit(end);
  return offset;
}
