/** An uploaded map's file name as the game server will load it: `<name>.bsp`, the name lower-case. */
const MAP_FILE_NAME = /^([a-z0-9_]{3,64})\.bsp$/;

export type MapFileName = { ok: true; name: string } | { ok: false; reason: string };

export function parseMapFileName(fileName: string | undefined): MapFileName {
  const match = fileName === undefined ? null : MAP_FILE_NAME.exec(fileName);
  if (!match) {
    return { ok: false, reason: `file: the file name must match ^[a-z0-9_]{3,64}\\.bsp$ (lower-case letters, digits, _)` };
  }
  return { ok: true, name: match[1] };
}
