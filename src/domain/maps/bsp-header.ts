/**
 * The header of a Source engine map (.bsp), checked so that an upload is refused for what it is,
 * not for its name: `VBSP`, a version the game reads, then a directory of 64 lumps whose byte
 * ranges must lie inside the file (Valve Developer Community, "BSP (Source)"; docs/maps.md).
 *
 *   offset 0    ident     4 bytes  "VBSP"
 *   offset 4    version   int32 LE
 *   offset 8    lumps     64 x { fileofs int32, filelen int32, version int32, fourCC 4 bytes }
 *   offset 1032 mapRevision int32
 *
 * Incremental: the upload feeds its first bytes as they stream (`takeHeaderBytes`), so a file
 * that is not a map is refused as soon as its first 8 bytes arrive (`checkBspStart`), and the
 * lump directory is checked once the file's length is known (`checkBspHeader`).
 */

export const BSP_MAGIC = 'VBSP';
/**
 * TF2's engine (Source 2013) writes version 20 and still loads 19 (its MINBSPVERSION); 21 and
 * later are other games' formats (L4D2, CS:GO, Portal 2) whose lump layouts TF2 cannot read.
 */
export const ACCEPTED_BSP_VERSIONS: readonly number[] = [19, 20];
export const LUMP_COUNT = 64;
const LUMP_ENTRY_BYTES = 16;
const LUMPS_AT = 8;
export const BSP_HEADER_BYTES = LUMPS_AT + LUMP_COUNT * LUMP_ENTRY_BYTES + 4;
/** Lump 0 holds the entity text (spawn points, the world): a map without it loads nothing. */
const ENTITIES_LUMP = 0;

export type BspCheck = { ok: true; version: number; mapRevision: number } | { ok: false; reason: string };

const refuse = (reason: string): BspCheck => ({ ok: false, reason });

/** The first BSP_HEADER_BYTES bytes of a stream: what was collected so far plus the next chunk. */
export function takeHeaderBytes(collected: Uint8Array, chunk: Uint8Array): Uint8Array {
  if (collected.length >= BSP_HEADER_BYTES) return collected;
  const wanted = Math.min(BSP_HEADER_BYTES - collected.length, chunk.length);
  const next = new Uint8Array(collected.length + wanted);
  next.set(collected);
  next.set(chunk.subarray(0, wanted), collected.length);
  return next;
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Magic and version from the first bytes; null while fewer than 8 have arrived (and the magic so far matches). */
export function checkBspStart(prefix: Uint8Array): BspCheck | null {
  const magicBytes = Math.min(prefix.length, BSP_MAGIC.length);
  for (let i = 0; i < magicBytes; i++) {
    if (prefix[i] !== BSP_MAGIC.charCodeAt(i)) return refuse('not a Source map: the file does not start with the VBSP magic');
  }
  if (prefix.length < LUMPS_AT) return null;
  const version = view(prefix).getInt32(4, true);
  if (!ACCEPTED_BSP_VERSIONS.includes(version)) {
    return refuse(`BSP version ${version} is not one the game reads (accepted: ${ACCEPTED_BSP_VERSIONS.join(', ')})`);
  }
  return { ok: true, version, mapRevision: 0 };
}

/** The whole header check, given the file's first bytes and its full length. */
export function checkBspHeader(header: Uint8Array, fileLength: number): BspCheck {
  const start = checkBspStart(header);
  if (start === null || !start.ok) return start ?? refuse(`truncated: ${fileLength} bytes is shorter than the BSP header (${BSP_HEADER_BYTES} bytes)`);
  if (header.length < BSP_HEADER_BYTES || fileLength < BSP_HEADER_BYTES) {
    return refuse(`truncated: ${fileLength} bytes is shorter than the BSP header (${BSP_HEADER_BYTES} bytes)`);
  }
  const data = view(header);
  for (let lump = 0; lump < LUMP_COUNT; lump++) {
    const at = LUMPS_AT + lump * LUMP_ENTRY_BYTES;
    const offset = data.getInt32(at, true);
    const length = data.getInt32(at + 4, true);
    if (length < 0 || offset < 0) return refuse(`lump ${lump} has a negative offset or length (offset ${offset}, length ${length})`);
    if (length === 0) {
      if (lump === ENTITIES_LUMP) return refuse('the entities lump (0) is empty: not a playable map');
      continue;
    }
    if (offset < BSP_HEADER_BYTES) return refuse(`lump ${lump} starts at ${offset}, inside the ${BSP_HEADER_BYTES}-byte header`);
    if (offset + length > fileLength) {
      return refuse(`lump ${lump} (offset ${offset}, length ${length}) ends at ${offset + length}, past the end of the ${fileLength}-byte file (truncated or forged)`);
    }
  }
  return { ok: true, version: start.version, mapRevision: data.getInt32(LUMPS_AT + LUMP_COUNT * LUMP_ENTRY_BYTES, true) };
}
