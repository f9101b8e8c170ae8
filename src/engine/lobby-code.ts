import { PARTY_CODE_ALPHABET } from '../domain/party/party-code';

/** Six symbols from the same unambiguous alphabet as party codes (no 0/O, 1/I): about 10^9 codes. */
export const LOBBY_CODE_LENGTH = 6;

/** 32 symbols divide 256, so every symbol is equally likely from one random byte. */
export function lobbyCodeFrom(randomBytes: Uint8Array): string {
  if (randomBytes.length < LOBBY_CODE_LENGTH) throw new RangeError(`a lobby code needs ${LOBBY_CODE_LENGTH} random bytes`);
  let code = '';
  for (let i = 0; i < LOBBY_CODE_LENGTH; i++) code += PARTY_CODE_ALPHABET[randomBytes[i] % PARTY_CODE_ALPHABET.length];
  return code;
}
