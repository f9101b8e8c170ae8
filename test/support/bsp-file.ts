/**
 * A small but well-formed Source map built byte by byte: the VBSP header, a 64-lump directory
 * and the lumps' bytes after it. Options forge the faults the upload must catch.
 */
export interface BspOptions {
  magic?: string;
  version?: number;
  /** Bytes of entity text in lump 0 (a real map's first lump). */
  entities?: string;
  /** Extra bytes of lump 1 (planes) to make the file as large as a test needs. */
  padding?: number;
  /** Overwrite one lump's directory entry (to point outside the file). */
  forgeLump?: { index: number; offset: number; length: number };
  /** A distinct revision number: same layout, different bytes, different sha256. */
  revision?: number;
}

const HEADER = 8 + 64 * 16 + 4;

export function buildBsp(options: BspOptions = {}): Buffer {
  const entities = Buffer.from(options.entities ?? '{\n"classname" "worldspawn"\n"mapversion" "1"\n}\n\0', 'latin1');
  const padding = options.padding ?? 256;
  const file = Buffer.alloc(HEADER + entities.length + padding);
  file.write(options.magic ?? 'VBSP', 0, 'latin1');
  file.writeInt32LE(options.version ?? 20, 4);
  const entry = (index: number, offset: number, length: number) => {
    file.writeInt32LE(offset, 8 + index * 16);
    file.writeInt32LE(length, 8 + index * 16 + 4);
  };
  entry(0, HEADER, entities.length);
  entry(1, HEADER + entities.length, padding);
  if (options.forgeLump) entry(options.forgeLump.index, options.forgeLump.offset, options.forgeLump.length);
  file.writeInt32LE(options.revision ?? 1, 8 + 64 * 16);
  entities.copy(file, HEADER);
  for (let i = HEADER + entities.length; i < file.length; i++) file[i] = i & 0xff;
  return file;
}
