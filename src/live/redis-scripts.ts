import { createHash } from 'node:crypto';
import type { createClient } from 'redis';

/**
 * The Lua scripts of the Redis live store: every operation whose check and write must not be
 * interleaved with another client's. Redis runs a script to completion before any other command.
 * Documents are hashes (see COMMIT); a script never fails between its first write and its
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
 * Sliding-window limit hits, shared by every script that counts them. `h` hits, KEYS[1..h] their
 * windows and KEYS[h + 1] the sequence that makes each hit a distinct member; ARGV from `a`: now,
 * window ms, limit per hit. checkHits records nothing and answers each verdict ({allowed 1/0,
 * count, retry-after ms}; earlier hits of the same step on the same window count as made) and
 * whether any was refused; countHitsAt then records them all.
 */
/** A document's version as the scripts store it (field v of its hash), 0 when absent: what a guard compares. */
const VERSION = `
local function versionOf(key) return tonumber(redis.call('HGET', key, 'v') or '0') end
`;

const HITS = `
local function checkHits(h, a)
  local verdicts, refused, pending = {}, false, {}
  for i = 1, h do
    local key, now, window, limit = KEYS[i], tonumber(ARGV[a]), tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
    a = a + 3
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
    local count = redis.call('ZCARD', key) + (pending[key] or 0)
    if count >= limit then
      local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
      local retry = 0
      if oldest[2] then retry = math.max(0, math.ceil(tonumber(oldest[2]) + window - now)) end
      refused = true
      verdicts[i] = {0, count, retry}
    else
      pending[key] = (pending[key] or 0) + 1
      verdicts[i] = {1, count + 1, 0}
    end
  end
  return verdicts, refused
end
local function countHitsAt(h, a)
  for i = 1, h do
    redis.call('ZADD', KEYS[i], ARGV[a + (i - 1) * 3], redis.call('INCR', KEYS[h + 1]))
    redis.call('PEXPIRE', KEYS[i], ARGV[a + (i - 1) * 3 + 1])
  end
end
`;

/**
 * The one script of a command (see Commit in live-store.ts): limit hits, guarded reads,
 * compare-and-set, publish and deadline in one step. KEYS: the hits' windows, then the hit
 * sequence (only when there are hits), the guards, the written documents, then the deadline queue
 * when there is a deadline to set. ARGV: the number of hits, of guards and of writes; the
 * deadline's member and due time ('' and '' when none); 3 per hit: now, window ms, limit; 1 per
 * guard: expected version; per write: expected version, mode ('s' one piece, 'p' all parts, 'u'
 * some parts, 'd' delete), TTL ms or '', the number of payload items, then the items (the JSON;
 * or field, JSON pairs, JSON '' removing the field); then optionally a channel and the messages.
 *
 * Answers {1, versions...}; {2, {{allowed, count, retry ms}...}} when a hit is refused (nothing
 * counted or written); {0, index of the conflicting guard or write, {HGETALL of every guard and
 * written document}} on a conflict (the hits are counted). A document is a hash: 'v' the version,
 * and 'd' the JSON, or one 'p:<field>' per part.
 */
export const COMMIT = lua(`
${VERSION}
${HITS}
local h, g, w = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local verdicts, refused = checkHits(h, 6)
if refused then return {2, verdicts} end
local function countHits() countHitsAt(h, 6) end
local a = 6 + 3 * h
local first = 1
if h > 0 then first = h + 2 end
local guardsAt = a
a = a + g
local writes = {}
for i = 1, w do
  local n = tonumber(ARGV[a + 3])
  writes[i] = {expected = tonumber(ARGV[a]), mode = ARGV[a + 1], ttl = ARGV[a + 2], from = a + 4, n = n}
  a = a + 4 + n
end
local conflict, wrongForm = 0, 0
for i = 1, g + w do
  local key, expected, version = KEYS[first + i - 1]
  if i <= g then
    expected, version = tonumber(ARGV[guardsAt + i - 1]), versionOf(key)
  elseif writes[i - g].mode == 'u' then
    -- The version and whether the document is in one piece, in one call: every lobby command's write.
    local held = redis.call('HMGET', key, 'v', 'd')
    expected, version = writes[i - g].expected, tonumber(held[1] or '0')
    if held[2] and wrongForm == 0 then wrongForm = i - g end
  else
    expected, version = writes[i - g].expected, versionOf(key)
  end
  if version ~= expected then conflict = i break end
end
if conflict > 0 then
  countHits()
  local current = {}
  for i = 1, g + w do current[i] = redis.call('HGETALL', KEYS[first + i - 1]) end
  return {0, conflict, current}
end
if wrongForm > 0 then
  return redis.error_reply('WRONGFORM ' .. KEYS[first + g + wrongForm - 1] .. ' was not written in parts')
end
-- A queue holding another kind of data fails here, before anything is written.
local queue = KEYS[first + g + w]
if queue then redis.call('ZSCORE', queue, ARGV[4]) end
countHits()
local result = {1}
for i = 1, w do
  local key, write = KEYS[first + g + i - 1], writes[i]
  if write.mode == 'd' then
    redis.call('DEL', key)
    result[#result + 1] = 0
  else
    local version = write.expected + 1
    if write.mode ~= 'u' and write.expected > 0 then redis.call('DEL', key) end
    if write.mode == 's' then
      redis.call('HSET', key, 'v', version, 'd', ARGV[write.from])
    else
      local set, gone = {'v', version}, {}
      for j = write.from, write.from + write.n - 1, 2 do
        if ARGV[j + 1] == '' then gone[#gone + 1] = 'p:' .. ARGV[j] else set[#set + 1] = 'p:' .. ARGV[j]; set[#set + 1] = ARGV[j + 1] end
      end
      redis.call('HSET', key, unpack(set))
      if #gone > 0 then redis.call('HDEL', key, unpack(gone)) end
    end
    if write.ttl == '' then redis.call('PERSIST', key) else redis.call('PEXPIRE', key, write.ttl) end
    result[#result + 1] = version
  end
end
if queue then redis.call('ZADD', queue, ARGV[5], ARGV[4]) end
local PUBLISH_AT = a
${PUBLISH_REST}
return result
`);

/** KEYS: the documents. Returns each one's hash (see COMMIT), empty for absent ones: one consistent snapshot. */
export const READ_DOCS = lua(`
local result = {}
for i = 1, #KEYS do result[i] = redis.call('HGETALL', KEYS[i]) end
return result
`);

/** KEYS: documents. Each one's version (the `v` field every form of document has), 0 where there is none. */
export const READ_VERSIONS = lua(`
local result = {}
for i = 1, #KEYS do result[i] = tonumber(redis.call('HGET', KEYS[i], 'v')) or 0 end
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
${HITS}
local verdicts, refused = checkHits(1, 1)
if not refused then countHitsAt(1, 1) end
return verdicts[1]
`);

/**
 * A numbered push (see NumberedPush in live-store.ts). KEYS: the hits' windows, then the hit
 * sequence (only when there are hits), the guarded document (only with a guard), the list, the
 * number's sequence. ARGV: the number of hits, the list's maximum length, 1 with a guard else 0,
 * 3 per hit (see HITS); with a guard its part, the number of values and the values (JSON), the
 * number of parts it must lack and their names; the entry's text before and after its number;
 * then optionally a channel and, per message, its text before and after the number. Answers
 * {1, number}; {2, verdicts} when a hit is refused, {3} when the guard does not hold (nothing
 * counted, numbered or pushed either way).
 */
export const PUSH_NUMBERED = lua(`
${VERSION}
${HITS}
local h = tonumber(ARGV[1])
local verdicts, refused = checkHits(h, 4)
if refused then return {2, verdicts} end
local e = 4 + 3 * h
local first = 1
if h > 0 then first = h + 2 end
local nv = tonumber(ARGV[e])
for i = 1, nv do
  if versionOf(KEYS[first + i - 1]) ~= tonumber(ARGV[e + i]) then return {3} end
end
e = e + 1 + nv
if ARGV[3] == '1' then
  local doc = KEYS[#KEYS - 2]
  local value = redis.call('HGET', doc, 'p:' .. ARGV[e])
  local held = false
  local n = tonumber(ARGV[e + 1])
  for i = e + 2, e + 1 + n do if value == ARGV[i] then held = true end end
  e = e + 2 + n
  local m = tonumber(ARGV[e])
  for i = e + 1, e + m do if redis.call('HEXISTS', doc, 'p:' .. ARGV[i]) == 1 then held = false end end
  e = e + 1 + m
  if not held then return {3} end
end
local list = KEYS[#KEYS - 1]
-- A list or counter key holding another kind of data fails here, before anything is written.
redis.call('LLEN', list)
local n = redis.call('INCR', KEYS[#KEYS])
countHitsAt(h, 4)
redis.call('RPUSH', list, ARGV[e] .. n .. ARGV[e + 1])
redis.call('LTRIM', list, -tonumber(ARGV[2]), -1)
for i = e + 3, #ARGV - 2, 2 do redis.call('PUBLISH', ARGV[e + 2], ARGV[i] .. n .. ARGV[i + 1]) end
return {1, n}
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
