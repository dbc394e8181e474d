-- wrk script for scripts/bench/rate-store.ts: counts answers by status (printed as
-- "status N COUNT" lines), and with the argument "distinct" names a new client in
-- X-Forwarded-For on every request (the service trusts it from loopback).
local threads = {}
local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end
function init(args)
  statuses = {}
  n = 0
  distinct = args[1] == "distinct"
  client = args[2] or "203.0.113.7"
end
function request()
  if distinct then
    n = n + 1
    wrk.headers["X-Forwarded-For"] = string.format("11.%d.%d.%d", id * 16 + math.floor(n / 65536) % 16, math.floor(n / 256) % 256, n % 256)
  else
    wrk.headers["X-Forwarded-For"] = client
  end
  return wrk.format()
end
function response(status)
  statuses[status] = (statuses[status] or 0) + 1
end
function done(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("statuses")) do total[k] = (total[k] or 0) + v end
  end
  for k, v in pairs(total) do io.write(string.format("status %d %d\n", k, v)) end
  io.write(string.format("p99_us %d\n", latency:percentile(99)))
  io.write(string.format("p50_us %d\n", latency:percentile(50)))
end
