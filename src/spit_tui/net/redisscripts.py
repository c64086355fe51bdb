"""The Lua scripts the directory runs in Redis (net.redisdir): each is one
round trip, and atomic, so two hosts never both take a code or a waiting
player. What they read is untrusted (another host's entry, anything at all):
a value that is not an entry of the right shape counts as another host's,
and is never overwritten or deleted here; net.directory.read_entry checks
what a script returns before the host uses it.
"""

from __future__ import annotations

# KEYS: rooms' keys; ARGV: ttl ms, our id, then one entry per key. Writes an
# entry where there is none or it is ours; returns the keys another host holds.
PUT = """
local taken = {}
for i, key in ipairs(KEYS) do
  local cur = redis.pcall('GET', key)
  local ours = not cur
  if type(cur) == 'string' then
    local ok, v = pcall(cjson.decode, cur)
    ours = ok and type(v) == 'table' and v['id'] == ARGV[2]
  end
  if ours then
    redis.call('SET', key, ARGV[i + 2], 'PX', ARGV[1])
  else
    taken[#taken + 1] = key
  end
end
return taken
"""

# KEYS: rooms' keys; ARGV: our id, the queue, then one code per key. Deletes
# the entries that are ours, and takes the codes off the quick-match queue.
DROP = """
for i, key in ipairs(KEYS) do
  local cur = redis.pcall('GET', key)
  if type(cur) == 'string' then
    local ok, v = pcall(cjson.decode, cur)
    if ok and type(v) == 'table' and v['id'] == ARGV[1] then redis.call('DEL', key) end
  end
  redis.pcall('LREM', ARGV[2], 0, ARGV[i + 2])
end
return 0
"""

# KEYS: the queue; ARGV: the key prefix, our next code, the most codes to pop.
# The first queued room that still waits (its code and entry), else false
# after queueing our code.
QUICK = """
for i = 1, tonumber(ARGV[3]) do
  local code = redis.call('LPOP', KEYS[1])
  if not code then break end
  local cur = redis.pcall('GET', ARGV[1] .. code)
  if type(cur) == 'string' then
    local ok, v = pcall(cjson.decode, cur)
    if ok and type(v) == 'table' and type(v['free']) == 'number' and v['free'] >= 1
        and v['away'] == 0 then
      return {code, cur}
    end
  end
end
redis.call('RPUSH', KEYS[1], ARGV[2])
return false
"""
