-- wrk script for /sync under load (test/http/sync-load.test.ts). Every answer is checked:
-- status 200, the body's exact shape, t0 echoed byte for byte, t1 <= t2.
--   checker mode (`-- check`, run with -tN -cN: one connection per thread, so a thread's
--     state is its connection's): t0 varies in every allowed form and t2 must never go
--     backwards from one answer to the next on the connection.
--   load mode (`-- load`, many connections per thread): one fixed t0.
-- done() prints one line of totals: SYNC-CHECK requests=... checked=... bad_status=...

local mode = "check"
local n = 0
local pending = {}
local last_t2 = nil
local FIXED = "1795219200123.450"
checked, bad_status, bad_shape, bad_echo, bad_order, backwards, skipped = 0, 0, 0, 0, 0, 0, 0

local threads = {}
function setup(thread) table.insert(threads, thread) end

function init(args)
  if args[1] then mode = args[1] end
end

local function t0_for(i)
  local ms = 1795219200000 + i
  local k = i % 5
  if k == 0 then return tostring(ms)
  elseif k == 1 then return string.format("%d.%d", ms, i % 10)
  elseif k == 2 then return string.format("%d.%02d", ms, i % 100)
  elseif k == 3 then return string.format("%d.%03d", ms, i % 1000)
  else return tostring(i % 1000) end
end

function request()
  n = n + 1
  local t0 = mode == "check" and t0_for(n) or FIXED
  if mode == "check" then pending[#pending + 1] = t0 end
  return wrk.format("GET", "/sync?t0=" .. t0)
end

-- The oldest pending t0 equal to `echoed`, removed with any before it; false when none is.
-- (wrk calls request() once more on its first thread's state, to check it, without sending
-- it: that t0 is never answered and is skipped here, once.)
local function answered(echoed)
  for i = 1, #pending do
    if pending[i] == echoed then
      for _ = 1, i do table.remove(pending, 1) end
      skipped = skipped + (i - 1)
      return true
    end
  end
  return false
end

function response(status, headers, body)
  checked = checked + 1
  if status ~= 200 then bad_status = bad_status + 1 return end
  local echoed, s1, s2 = string.match(body, '^{"t0":([^,]+),"t1":(%d+%.%d%d%d),"t2":(%d+%.%d%d%d)}$')
  if not echoed then bad_shape = bad_shape + 1 return end
  if mode == "check" then
    if not answered(echoed) then bad_echo = bad_echo + 1 end
  elseif echoed ~= FIXED then
    bad_echo = bad_echo + 1
  end
  -- Doubles keep these apart: 0.001 ms is four times the spacing of doubles near 1.8e12.
  local t1, t2 = tonumber(s1), tonumber(s2)
  if t1 > t2 then bad_order = bad_order + 1 end
  if mode == "check" then
    if last_t2 ~= nil and t2 < last_t2 then backwards = backwards + 1 end
    last_t2 = t2
  end
end

function done(summary, latency, requests)
  local keys = { "checked", "bad_status", "bad_shape", "bad_echo", "bad_order", "backwards", "skipped" }
  local total = {}
  for _, k in ipairs(keys) do total[k] = 0 end
  for _, thread in ipairs(threads) do
    for _, k in ipairs(keys) do total[k] = total[k] + thread:get(k) end
  end
  io.write(string.format("SYNC-CHECK requests=%d", summary.requests))
  for _, k in ipairs(keys) do io.write(string.format(" %s=%d", k, total[k])) end
  io.write("\n")
end
