//! The Lua scripts. Each touches the keys of one hash tag (one Redis Cluster slot), and
//! reads the time from Redis (`TIME`), so that workers on machines whose clocks differ
//! share one schedule.

use std::sync::OnceLock;

use redis::Script;

macro_rules! script {
    ($name:ident, $doc:literal, $($body:tt)+) => {
        #[doc = $doc]
        pub(crate) static $name: Lua = Lua {
            name: stringify!($name),
            code: concat!(
                "local t = redis.call('TIME')\n",
                "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n",
                $($body)+
            ),
            script: OnceLock::new(),
        };
    };
}

/// One of the crate's Lua scripts: its name (for errors), its source, and the
/// [`Script`] that runs it (`EVALSHA`, then `EVAL` when Redis does not have it).
pub(crate) struct Lua {
    pub(crate) name: &'static str,
    pub(crate) code: &'static str,
    script: OnceLock<Script>,
}

impl std::ops::Deref for Lua {
    type Target = Script;

    fn deref(&self) -> &Script {
        self.script.get_or_init(|| Script::new(self.code))
    }
}

/// The Lua functions that queue URLs on a host (`ENQUEUE`, and `COMPLETE` for a page's own
/// host). `queue_links(seen, queue, meta, order, from, x)` reads ARGV from `from` on: at
/// most (URLs queued), the per-host budget (0: none), then seen member, entry, sequence
/// number, and with `x.mode` > 0 the URL's shape, …; queues the URLs not seen, within both
/// limits, in the queue and the order, and returns how many. A URL over a limit is not
/// marked seen. `x` is exploration in drop mode (`Frontier`'s `queue_links`): `mode` 0, no
/// shapes (`x` may be nil); 1, the shape of each URL not seen is added to `x.shapes`; 2 (a
/// duplicate's links), only a URL whose shape is not in `shapes` is wanted, and its shape
/// added; 3 (a duplicate that only just joined its cluster), every URL not seen is wanted,
/// and its shape added. A wanted URL is queued while the host's `explored` count (in
/// `meta`) is under the most for the mode (`x.explore`, half of it for mode 3:
/// `Explore::most`), counted, and its id added to `x.explored` (a set); else it is held
/// (`x.held`, a list of mode, seen member, entry), while fewer than `x.held_most` are, its
/// shape added only then. `release(seen, queue, meta, order, x, seq)`: an explored page
/// was kept and gives its fetch back, and the first held URL the count has room for and not
/// seen is queued as number `seq` (`Frontier::release_held`).
macro_rules! queue_links {
    () => {
        r"
local function most_for(mode, explore)
  if mode == 3 then return math.floor(explore / 2) end
  return explore
end
local function queue_links(seen, queue, meta, order, from, x)
  local n = 0
  local most = tonumber(ARGV[from])
  local budget = tonumber(ARGV[from + 1])
  local taken = tonumber(redis.call('HGET', meta, 'pages') or '0')
  local mode = x and x.mode or 0
  local step = mode > 0 and 4 or 3
  local explored = 0
  if mode >= 2 then explored = tonumber(redis.call('HGET', meta, 'explored') or '0') end
  local explored_before = explored
  for i = from + 2, #ARGV, step do
    local wanted = true
    local counted = false
    if mode > 0 and redis.call('SISMEMBER', seen, ARGV[i]) == 0 then
      if mode == 1 then
        redis.call('SADD', x.shapes, ARGV[i + 3])
      else
        local room = explored < most_for(mode, x.explore)
        if not room and redis.call('LLEN', x.held) >= x.held_most then
          wanted = false
        elseif redis.call('SADD', x.shapes, ARGV[i + 3]) == 0 and mode == 2 then
          wanted = false
        elseif not room then
          redis.call('RPUSH', x.held, tostring(mode) .. ARGV[i] .. ARGV[i + 1])
          wanted = false
        else
          explored = explored + 1
          counted = true
        end
      end
    end
    if n >= most or (budget > 0 and taken >= budget) then wanted = false end
    if wanted and redis.call('SADD', seen, ARGV[i]) == 1 then
      redis.call('ZADD', queue, ARGV[i + 2], ARGV[i + 1])
      redis.call('ZADD', order, ARGV[i + 2], string.sub(ARGV[i + 1], 1, 16))
      if counted then redis.call('SADD', x.explored, string.sub(ARGV[i + 1], 1, 16)) end
      n = n + 1
      taken = taken + 1
    end
  end
  if budget > 0 and n > 0 then redis.call('HSET', meta, 'pages', taken) end
  if explored ~= explored_before then redis.call('HSET', meta, 'explored', explored) end
  return n
end
local function release(seen, queue, meta, order, x, seq)
  local explored = tonumber(redis.call('HGET', meta, 'explored') or '0')
  if explored > 0 then explored = explored - 1 end
  local n = 0
  -- Read in pieces: the first held link usually has room.
  local start = 0
  local done = false
  while not done do
    local held = redis.call('LRANGE', x.held, start, start + 63)
    if #held == 0 then break end
    local gone = 0
    for i, h in ipairs(held) do
      local mode = tonumber(string.sub(h, 1, 1))
      if explored < most_for(mode, x.explore) then
        redis.call('LSET', x.held, start + i - 1 - gone, '')
        redis.call('LREM', x.held, 1, '')
        gone = gone + 1
        local member = string.sub(h, 2, 17)
        if redis.call('SISMEMBER', seen, member) == 0 then
          explored = explored + 1
          local id, rest = string.match(string.sub(h, 18), '^(%x+)\t%d+\t(.*)$')
          local budget = tonumber(ARGV[x.budget_at])
          local taken = tonumber(redis.call('HGET', meta, 'pages') or '0')
          if budget == 0 or taken < budget then
            redis.call('SADD', seen, member)
            redis.call('ZADD', queue, seq, id .. '\t' .. seq .. '\t' .. rest)
            redis.call('ZADD', order, seq, id)
            redis.call('SADD', x.explored, id)
            if budget > 0 then redis.call('HSET', meta, 'pages', taken + 1) end
            n = 1
          end
          done = true
          break
        end
      end
    end
    start = start + #held - gone
  end
  redis.call('HSET', meta, 'explored', explored)
  return n
end
"
    };
}

script!(
    PARAMS,
    "KEYS: params. ARGV: name, value, …. Sets the ones not set; returns every pair.",
    r"
for i = 1, #ARGV, 2 do redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) end
return redis.call('HGETALL', KEYS[1])
"
);

script!(
    ENQUEUE,
    "KEYS: seen, queue, meta, order. ARGV: at most (URLs queued by this call), per-host \
     budget (0: none), then seen member, entry, sequence number, …. Queues the URLs not \
     seen, within both limits, in the queue and the order; returns {how many, the order's \
     smallest sequence number or '', 1 if the order was empty before, 1 if the queue was}. \
     A URL over a limit is not marked seen.",
    queue_links!(),
    r"
local order_was_empty = redis.call('ZCARD', KEYS[4]) == 0 and 1 or 0
local queue_was_empty = redis.call('ZCARD', KEYS[2]) == 0 and 1 or 0
local n = queue_links(KEYS[1], KEYS[2], KEYS[3], KEYS[4], 1, nil)
local m = redis.call('ZRANGE', KEYS[4], 0, 0, 'WITHSCORES')
return {n, m[2] or '', order_was_empty, queue_was_empty}
"
);

script!(
    RESERVE,
    "KEYS: page counter. ARGV: wanted, budget. Takes up to `wanted` pages of the crawl's \
     budget; returns how many.",
    r"
local taken = tonumber(redis.call('GET', KEYS[1]) or '0')
local n = math.max(0, math.min(tonumber(ARGV[1]), tonumber(ARGV[2]) - taken))
if n > 0 then redis.call('INCRBY', KEYS[1], n) end
return n
"
);

script!(
    ROBOTS,
    "KEYS: robots, robots lock. ARGV: token, lock ms. The host's shared robots.txt: \
     {'have', value, ms left}, or {'fetch'} (this worker holds the lock: fetch it), or \
     {'wait'} (another worker is fetching it).",
    r"
local v = redis.call('GET', KEYS[1])
if v then return {'have', v, tostring(redis.call('PTTL', KEYS[1]))} end
local holder = redis.call('GET', KEYS[2])
if holder and holder ~= ARGV[1] then return {'wait'} end
redis.call('SET', KEYS[2], ARGV[1], 'PX', tonumber(ARGV[2]))
return {'fetch'}
"
);

script!(
    ROBOTS_PUT,
    "KEYS: robots, robots lock, meta. ARGV: token, value, ttl ms, Crawl-delay ms. Stores the \
     host's robots.txt for everyone (its Crawl-delay in `meta`) and lets the lock go.",
    r"
redis.call('SET', KEYS[1], ARGV[2], 'PX', tonumber(ARGV[3]))
if tonumber(ARGV[4]) > 0 then
  redis.call('HSET', KEYS[3], 'delay', ARGV[4])
else
  redis.call('HDEL', KEYS[3], 'delay')
end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1
"
);

script!(
    CLAIM,
    "KEYS: schedule. ARGV: how many, claim ms. The hosts due, each pushed back by the claim \
     time so that no other worker tries it meanwhile: host, claimed score, ….",
    r"
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
local out = {}
local at = now + tonumber(ARGV[2])
for _, h in ipairs(due) do
  redis.call('ZADD', KEYS[1], at, h)
  out[#out + 1] = h
  out[#out + 1] = tostring(at)
end
return out
"
);

script!(
    UNCLAIM,
    "KEYS: schedule. ARGV: host, claimed score. Drops an idle host, unless someone queued \
     URLs on it since the claim (its score changed).",
    r"
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 1
end
return 0
"
);

script!(
    LEASE,
    "KEYS: queue, leases, meta, records, robots. ARGV: lease ms, interval ms, in flight at \
     most, how many, shared robots (1/0), largest sequence number (`+inf`: any). Returns \
     expired leases to the queue, then: {'ok', next ms, entry, …} | {'wait', ms} | {'busy', \
     ms} | {'empty'}. Entries go out in sequence order. The interval is the larger of ARGV's \
     and the host's Crawl-delay; with an interval one URL at a time, and with shared robots \
     one in flight until the host's robots.txt is known.",
    r"
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
for _, e in ipairs(expired) do
  redis.call('ZREM', KEYS[2], e)
  redis.call('ZADD', KEYS[1], string.match(e, '^%x+\t(%d+)\t'), e)
end
local nxt = tonumber(redis.call('HGET', KEYS[3], 'next') or '0')
if now < nxt then return {'wait', tostring(nxt)} end
local interval = math.max(tonumber(ARGV[2]), tonumber(redis.call('HGET', KEYS[3], 'delay') or '0'))
local limit = tonumber(ARGV[3])
if ARGV[5] == '1' and (interval > 0 or redis.call('EXISTS', KEYS[5]) == 0) then limit = 1 end
local room = limit - redis.call('ZCARD', KEYS[2])
if room <= 0 then return {'busy', tostring(now + interval)} end
if interval > 0 then room = 1 end
room = math.min(room, tonumber(ARGV[4]))
local out = {'ok', tostring(now + interval)}
while #out - 2 < room do
  local first = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[6], 'LIMIT', 0, 1)
  local e = first[1]
  if not e then break end
  redis.call('ZREM', KEYS[1], e)
  if redis.call('HEXISTS', KEYS[4], string.sub(e, 1, 16)) == 0 then
    redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), e)
    out[#out + 1] = e
  end
end
if #out > 2 then
  redis.call('HSET', KEYS[3], 'next', now + interval)
  return out
end
if redis.call('ZCARD', KEYS[2]) == 0 and redis.call('ZCARD', KEYS[1]) == 0 then
  return {'empty'}
end
return {'busy', tostring(now + interval)}
"
);

script!(
    COMPLETE,
    "KEYS: leases, records, meta, order, late, seen, queue, shapes, held, explored. ARGV: \
     entry, id, record, interval ms, decision, backoff ms (0: the host answered), backoff cap \
     ms, judged out of order (1/0), exploration mode, explore (the host's budget), held at \
     most, the number for a held link (`queue_links`), then the page's links on its own \
     host as `ENQUEUE` takes them (at most, budget, seen member, entry, sequence number, and \
     with a mode its shape, …), queued first. Ends the lease, holds the host for an \
     interval (or its Crawl-delay) from now, or for a backoff doubling with each failure in \
     a row; writes the record unless one is there (a URL another worker took out of the \
     order meanwhile gets `out_of_order` added), and then, for a kept page that exploration \
     queued, gives its fetch back (`release`); takes the URL out of the order. Returns {1 if \
     written else 0, links queued, the order's first 32 sequence numbers, …}.",
    queue_links!(),
    r#"
local x = {
  mode = tonumber(ARGV[9]), explore = tonumber(ARGV[10]), held_most = tonumber(ARGV[11]),
  shapes = KEYS[8], held = KEYS[9], explored = KEYS[10], budget_at = 14,
}
local n = queue_links(KEYS[6], KEYS[7], KEYS[3], KEYS[4], 13, x)
redis.call('ZREM', KEYS[1], ARGV[1])
local wait = math.max(tonumber(ARGV[4]), tonumber(redis.call('HGET', KEYS[3], 'delay') or '0'))
if tonumber(ARGV[6]) > 0 then
  local fails = redis.call('HINCRBY', KEYS[3], 'fails', 1)
  wait = math.max(wait, math.min(tonumber(ARGV[7]), tonumber(ARGV[6]) * 2 ^ math.min(fails - 1, 30)))
else
  redis.call('HDEL', KEYS[3], 'fails')
end
local nxt = now + wait
if nxt > tonumber(redis.call('HGET', KEYS[3], 'next') or '0') then
  redis.call('HSET', KEYS[3], 'next', nxt)
end
local written = 0
local rec = ARGV[3]
local late = ARGV[8] == '1'
if redis.call('SREM', KEYS[5], ARGV[2]) == 1 and not late and string.sub(rec, -1) == '}' then
  late = true
  rec = string.sub(rec, 1, -2) .. ',"out_of_order":true}'
end
if redis.call('HSETNX', KEYS[2], ARGV[2], rec) == 1 then
  redis.call('HINCRBY', KEYS[3], 'n:' .. ARGV[5], 1)
  redis.call('HDEL', KEYS[3], 'rq:' .. ARGV[2])
  if late then redis.call('HINCRBY', KEYS[3], 'late', 1) end
  written = 1
  if x.mode == 1 and ARGV[5] == 'kept' and ARGV[12] ~= '0'
    and redis.call('SREM', x.explored, ARGV[2]) == 1 then
    n = n + release(KEYS[6], KEYS[7], KEYS[3], KEYS[4], x, ARGV[12])
  end
end
redis.call('ZREM', KEYS[4], ARGV[2])
local out = {tostring(written), tostring(n)}
local m = redis.call('ZRANGE', KEYS[4], 0, 31, 'WITHSCORES')
for i = 2, #m, 2 do out[#out + 1] = m[i] end
return out
"#
);

script!(
    LATER,
    "KEYS: leases, queue, meta. ARGV: entry, id, wait ms, requeues at most. The host asked \
     to wait: the URL goes back to the queue and the host waits (shared by every worker). \
     Returns the times this URL waited, or -1 past the limit (the lease stays: record it).",
    r"
local n = redis.call('HINCRBY', KEYS[3], 'rq:' .. ARGV[2], 1)
local nxt = now + tonumber(ARGV[3])
if nxt > tonumber(redis.call('HGET', KEYS[3], 'next') or '0') then
  redis.call('HSET', KEYS[3], 'next', nxt)
end
if n > tonumber(ARGV[4]) then return -1 end
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then
  redis.call('ZADD', KEYS[2], string.match(ARGV[1], '^%x+\t(%d+)\t'), ARGV[1])
end
return n
"
);

script!(
    GIVE_BACK,
    "KEYS: leases, queue. ARGV: entry. A lease handed back unfetched goes back to its place \
     in the queue.",
    r"
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then
  redis.call('ZADD', KEYS[2], string.match(ARGV[1], '^%x+\t(%d+)\t'), ARGV[1])
  return 1
end
return 0
"
);

script!(
    APPEND_AT,
    "KEYS: dedup log, records (host scope; none in global scope). ARGV: at, how many ids, \
     the entries' URL ids, entries... If the log holds exactly `at` entries, appends the \
     entries (maybe none) and returns {1}; else returns {0, entries from `at`}; {2} if a \
     page to log was recorded already (judged again, late).",
    r"
local at = tonumber(ARGV[1])
local ids = tonumber(ARGV[2])
if redis.call('LLEN', KEYS[1]) ~= at then
  return {0, redis.call('LRANGE', KEYS[1], at, -1)}
end
if KEYS[2] then
  for i = 3, 2 + ids do
    if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 1 then return {2} end
  end
end
for i = 3 + ids, #ARGV, 64 do
  redis.call('RPUSH', KEYS[1], unpack(ARGV, i, math.min(i + 63, #ARGV)))
end
return {1}
"
);

script!(
    ONCE,
    "KEYS: flag. ARGV: token, ms. Takes a once-per-crawl task (1) unless it is done or another \
     worker has it (0); a worker that dies with it lets it go after `ms`.",
    r"
local v = redis.call('GET', KEYS[1])
if v == 'done' or (v and v ~= ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[2]))
return 1
"
);

script!(
    RENEW,
    "KEYS: leases. ARGV: lease ms, entries…. Extends the leases still held to the lease time \
     from now (a page fetched and waiting for its turn is not leased again meanwhile).",
    r"
local deadline = now + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', deadline, ARGV[i]) end
return 1
"
);

script!(
    ALLOC,
    "KEYS: counter, bases. ARGV: page sequence number ('': none), n. Gives `n` sequence \
     numbers in a row: {the first, 0}; for a page, once: asked again (by a worker that judges \
     it again, whenever), {the same first number, 1}.",
    r"
if ARGV[1] ~= '' then
  local b = redis.call('HGET', KEYS[2], ARGV[1])
  if b then return {b, 1} end
end
local n = tonumber(ARGV[2])
local base = redis.call('INCRBY', KEYS[1], n) - n
if ARGV[1] ~= '' then redis.call('HSET', KEYS[2], ARGV[1], base) end
return {tostring(base), 0}
"
);

script!(
    SEEDS,
    "KEYS: seeds, counter. ARGV: seeds. Adds the seeds; the new ones get sequence numbers in \
     a row. Returns {the first number, the positions (1-based) of the new ones, …}.",
    r"
local added = {}
for i = 1, #ARGV do
  if redis.call('SADD', KEYS[1], ARGV[i]) == 1 then added[#added + 1] = i end
end
local base = redis.call('INCRBY', KEYS[2], #added) - #added
local out = {tostring(base)}
for _, i in ipairs(added) do out[#out + 1] = i end
return out
"
);

script!(
    HEADS,
    "KEYS: heads, schedule, hosts. ARGV: host, smallest sequence number ('': none left, '-': unchanged), schedule now (1/0), …. \
     Notes each host's smallest sequence number not judged, schedules the hosts that have \
     new URLs (ready now: LT, a later score only moves earlier; the lease script keeps the \
     host's interval); returns the page whose turn it is and the next host's: {host, \
     sequence number, host, sequence number} (or fewer).",
    r"
for i = 1, #ARGV, 3 do
  if ARGV[i + 1] == '' then
    redis.call('ZREM', KEYS[1], ARGV[i])
  elseif ARGV[i + 1] ~= '-' then
    redis.call('ZADD', KEYS[1], ARGV[i + 1], ARGV[i])
  end
  if ARGV[i + 2] == '1' then
    redis.call('ZADD', KEYS[2], 'LT', 0, ARGV[i])
    redis.call('SADD', KEYS[3], ARGV[i])
  end
end
return redis.call('ZRANGE', KEYS[1], 0, 1, 'WITHSCORES')
"
);

script!(
    PLACE,
    "KEYS: order, late, records. ARGV: URL id. Where the URL is: {sequence number | 'late' \
     | 'done' (recorded) | 'none', the order's smallest sequence number or ''}.",
    r"
local m = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local min = m[2] or ''
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if s then return {s, min} end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return {'late', min} end
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then return {'done', min} end
return {'none', min}
"
);

script!(
    RELEASE,
    "KEYS: order, late. ARGV: sequence number. Takes the URLs at that place out of the order \
     (judged when fetched, out of order); returns the order's smallest sequence number or ''.",
    r"
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1])) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('SADD', KEYS[2], id)
end
local m = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return m[2] or ''
"
);

/// Every script above: a worker has Redis compile them all when it joins
/// ([`SharedCrawl::join`](crate::SharedCrawl::join)), so a script Redis refuses is an error
/// there, not a warning at each use.
pub(crate) static ALL: [&Lua; 19] = [
    &PARAMS,
    &ENQUEUE,
    &RESERVE,
    &ROBOTS,
    &ROBOTS_PUT,
    &CLAIM,
    &UNCLAIM,
    &LEASE,
    &COMPLETE,
    &LATER,
    &GIVE_BACK,
    &APPEND_AT,
    &ONCE,
    &RENEW,
    &ALLOC,
    &SEEDS,
    &HEADS,
    &PLACE,
    &RELEASE,
];

#[cfg(test)]
mod tests {
    use super::ALL;

    #[test]
    fn every_script_is_in_all() {
        // The names after each `script!(` of this file, in order.
        let source = include_str!("scripts.rs");
        let defined: Vec<&str> = source
            .split("\nscript!(\n")
            .skip(1)
            .filter_map(|rest| rest.split(',').next())
            .map(str::trim)
            .collect();
        let listed: Vec<&str> = ALL.iter().map(|s| s.name).collect();
        assert_eq!(listed, defined);
    }
}
