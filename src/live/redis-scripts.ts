import { createHash } from 'node:crypto';
import type { createClient } from 'redis';

/**
 * The Lua scripts of the Redis live store: every operation whose check and write must not be
 * interleaved with another client's. Redis runs a script to completion before any other command.
 * Documents are hashes {v: version, d: JSON}; a script never fails between its first write and its
 * last (all type errors surface in the reads that come first), so no half-applied write is left.
 */
export type RedisClient = ReturnType<typeof createClient>;

export interface LuaScript {
  source: string;
  sha1: string;
}

/**
 * The deadline fence every writing script starts with. Its last ARGV is the moment (Redis's clock,
 * ms) after which the client has given up on the call; a script that only runs later (Redis was
 * paused, the command sat in a buffer) refuses instead of applying what the caller was already
 * told had failed. '0' means no deadline.
 */
const FENCE = `
local deadline = tonumber(ARGV[#ARGV])
if deadline > 0 then
  local t = redis.call('TIME')
  if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > deadline then return redis.error_reply('DEADLINE the caller gave up') end
end
`;

const lua = (body: string): LuaScript => {
  const source = FENCE + body;
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
};

/**
 * PUBLISH inside a script goes out when the script runs, so every subscriber sees the messages of
 * all scripts in the order the scripts ran. ARGV after the script's own: channel, messages; the
 * very last ARGV is always the deadline of the FENCE, never a message.
 */
const PUBLISH_REST = `
if #ARGV - 1 > PUBLISH_AT then
  for i = PUBLISH_AT + 1, #ARGV - 1 do redis.call('PUBLISH', ARGV[PUBLISH_AT], ARGV[i]) end
end
`;

/**
 * KEYS: the documents, then the deadline queue when there is a deadline to set. ARGV: the number
 * of documents; the deadline's member and due time ('' and '' when none); then 4 per document:
 * expected version, 's' (set) or 'd' (delete), JSON, TTL ms or ''; then optionally a channel and
 * the messages to publish if the writes happen. The deadline is set (ZADD, as `schedule`) only if
 * the writes happen too.
 */
export const COMPARE_AND_SET = lua(`
local documents = tonumber(ARGV[1])
local queue = KEYS[documents + 1]
for i = 1, documents do
  local current = tonumber(redis.call('HGET', KEYS[i], 'v') or '0')
  if current ~= tonumber(ARGV[(i - 1) * 4 + 4]) then return {0, i} end
end
-- A queue holding another kind of data fails here, before anything is written.
if queue then redis.call('ZSCORE', queue, ARGV[2]) end
local result = {1}
for i = 1, documents do
  local base = (i - 1) * 4 + 3
  if ARGV[base + 2] == 'd' then
    redis.call('DEL', KEYS[i])
    result[#result + 1] = 0
  else
    local version = tonumber(ARGV[base + 1]) + 1
    redis.call('HSET', KEYS[i], 'v', version, 'd', ARGV[base + 3])
    if ARGV[base + 4] == '' then redis.call('PERSIST', KEYS[i]) else redis.call('PEXPIRE', KEYS[i], ARGV[base + 4]) end
    result[#result + 1] = version
  end
end
if queue then redis.call('ZADD', queue, ARGV[3], ARGV[2]) end
local PUBLISH_AT = 3 + documents * 4 + 1
${PUBLISH_REST}
return result
`);

/** KEYS: the documents. Returns version and JSON of each, false for absent ones: one consistent snapshot. */
export const READ_DOCS = lua(`
local result = {}
for i = 1, #KEYS do
  local fields = redis.call('HMGET', KEYS[i], 'v', 'd')
  result[#result + 1] = fields[1]
  result[#result + 1] = fields[2]
end
return result
`);

/**
 * KEYS: the queue. ARGV: now, limit, lease end. A claim is a lease: each due member's score moves
 * to the lease end, so it is due again then unless its worker completes it (COMPLETE_DUE) first.
 */
export const CLAIM_DUE = lua(`
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for i = 1, #due do redis.call('ZADD', KEYS[1], ARGV[3], due[i]) end
return due
`);

/** KEYS: the queue. ARGV: member, lease end. Removes the member only if nobody re-scheduled it since the claim. */
export const COMPLETE_DUE = lua(`
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then redis.call('ZREM', KEYS[1], ARGV[1]) return 1 end
return 0
`);

/** One plain command as a script, so it can carry the deadline fence. ARGV: command, its arguments after the keys. */
export const CALL = lua(`
local args = {ARGV[1]}
for i = 1, #KEYS do args[#args + 1] = KEYS[i] end
for i = 2, #ARGV - 1 do args[#args + 1] = ARGV[i] end
return redis.call(unpack(args))
`);

/**
 * A sliding-window log. KEYS: the window, the sequence that makes each hit a distinct member.
 * ARGV: now, window ms, limit. Returns allowed (1/0), count, retry-after ms.
 */
export const HIT_WINDOW = lua(`
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local retry = 0
  if oldest[2] then retry = math.max(0, math.ceil(tonumber(oldest[2]) + window - now)) end
  return {0, count, retry}
end
redis.call('ZADD', KEYS[1], ARGV[1], redis.call('INCR', KEYS[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, count + 1, 0}
`);

/** KEYS: the list. ARGV: JSON, max length; then optionally a channel and the messages to publish. */
export const PUSH_CAPPED = lua(`
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
local PUBLISH_AT = 3
${PUBLISH_REST}
return 1
`);

/**
 * Runs a script by its hash, sending the source only when the server has not cached it yet.
 * `deadline`: see FENCE (appended as the last ARGV; 0 = none).
 */
export async function runScript(client: RedisClient, script: LuaScript, keys: string[], args: string[], deadline = 0): Promise<unknown> {
  const fenced = { keys, arguments: [...args, String(deadline)] };
  try {
    return await client.evalSha(script.sha1, fenced);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return client.eval(script.source, fenced);
  }
}
