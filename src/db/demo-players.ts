/** The platform id of the i-th demo player (0-based): the seed creates them, the demo lobby seats them. */
export function demoPlatformId(i: number): string {
  return `76561198000000${String(i + 1).padStart(3, '0')}`;
}
