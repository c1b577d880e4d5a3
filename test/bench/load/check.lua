-- wrk script: sends one fixed request and counts answers that are not a valid result.
-- Argument: a spec file written by wrk.ts, one "key value" per line (see specText there).
-- Mirrors check.ts: size bounds, substrings that must or must not occur, exact counts.

local spec = { headers = {}, contains = {}, absent = {}, counts = {}, min = 0, max = 1e18 }
local body = ""
local req
local threads = {}

-- Per-thread counters; globals so that done() can read them with thread:get().
non2xx = 0
invalid = 0

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  for line in io.lines(args[1]) do
    local key, value = line:match("^(%S+) (.*)$")
    if key == "header" then
      local name, v = value:match("^([^:]+): (.*)$")
      spec.headers[name] = v
    elseif key == "body" then
      body = value
    elseif key == "min" then
      spec.min = tonumber(value)
    elseif key == "max" then
      spec.max = tonumber(value)
    elseif key == "contains" then
      table.insert(spec.contains, value)
    elseif key == "absent" then
      table.insert(spec.absent, value)
    elseif key == "count" then
      local times, needle = value:match("^(%d+) (.*)$")
      table.insert(spec.counts, { needle = needle, times = tonumber(times) })
    end
  end
  req = wrk.format("POST", nil, spec.headers, body)
end

function request()
  return req
end

local function occurrences(text, needle)
  local n, from = 0, 1
  while true do
    local s, e = string.find(text, needle, from, true)
    if not s then return n end
    n = n + 1
    from = e + 1
  end
end

local function valid(text)
  if #text < spec.min or #text > spec.max then return false end
  for _, needle in ipairs(spec.contains) do
    if not string.find(text, needle, 1, true) then return false end
  end
  for _, needle in ipairs(spec.absent) do
    if string.find(text, needle, 1, true) then return false end
  end
  for _, c in ipairs(spec.counts) do
    if occurrences(text, c.needle) ~= c.times then return false end
  end
  return true
end

-- Answers that passed every check, by content. A server answers the same request with the same
-- bytes, so most answers are judged by one table lookup (the string is interned when wrk hands
-- it over, which already compares it with an equal one byte for byte) instead of scanning a
-- large body several times; the load generator then stays cheaper than the server it measures.
local known_good = {}
local known_count = 0
local KNOWN_MAX = 16

local function checked(text)
  if known_good[text] then return true end
  if not valid(text) then return false end
  if known_count < KNOWN_MAX then
    known_good[text] = true
    known_count = known_count + 1
  end
  return true
end

function response(status, headers, text)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
  elseif not checked(text) then
    invalid = invalid + 1
  end
end

function done(summary, latency, requests)
  local bad_status, bad_body = 0, 0
  for _, thread in ipairs(threads) do
    bad_status = bad_status + thread:get("non2xx")
    bad_body = bad_body + thread:get("invalid")
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"answers":%d,"durationUs":%d,"p50":%d,"p90":%d,"p99":%d,' ..
      '"non2xx":%d,"invalid":%d,"errors":%d}\n',
    summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(90), latency:percentile(99),
    bad_status, bad_body, e.connect + e.read + e.write + e.timeout))
end
