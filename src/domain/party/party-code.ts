/**
 * Party codes are read aloud and typed by hand, so 0/O and 1/I are left out. 32 symbols keep
 * every symbol equally likely from one random byte (256 is a multiple of 32).
 */
export const PARTY_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const PARTY_CODE_LENGTH = 6;
export const PARTY_CODE_PATTERN = /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{6}$/;

/** `randomBytes` comes from a secure source in the engine; only its first six bytes are used. */
export function generatePartyCode(randomBytes: Uint8Array): string {
  if (randomBytes.length < PARTY_CODE_LENGTH) {
    throw new RangeError(`generatePartyCode needs ${PARTY_CODE_LENGTH} random bytes, got ${randomBytes.length}`);
  }
  let code = '';
  for (let i = 0; i < PARTY_CODE_LENGTH; i++) code += PARTY_CODE_ALPHABET[randomBytes[i] % PARTY_CODE_ALPHABET.length];
  return code;
}
