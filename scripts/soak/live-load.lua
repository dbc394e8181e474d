-- wrk script for the live-clock soak: cycles the paths in SOAK_PATHS (space-separated; see
-- live-checks.ts) and checks every EVERY-th response while under load:
-- status 200, a body that ends as a whole JSON object or a whole .txt answer, and a
-- unixtime within 2 s of this machine's clock (TimeZoneDB's: timestamp - gmtOffset). Counts go to done() as one line:
--   soak: sent N checked N bad N first-bad <reason>
-- EVERY comes from the environment variable SOAK_EVERY (default 100).

local paths = {}
for path in string.gmatch(os.getenv("SOAK_PATHS") or "/timezone/UTC", "%S+") do
  table.insert(paths, path)
end
local every = tonumber(os.getenv("SOAK_EVERY") or "100")
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  sent, received, checked, bad, firstbad = 0, 0, 0, 0, ""
end

function request()
  sent = sent + 1
  return wrk.format("GET", paths[(sent % #paths) + 1])
end

local function verdict(status, body)
  if status ~= 200 then return "status " .. status end
  local unix = body:match('^{.*"unixtime":(%d+),.*"client_ip":[^,]*}$')
  if not unix then unix = body:match("unixtime: (%d+)\n") end
  if not unix then
    local offset, stamp = body:match('^{"status":"OK".*"gmtOffset":(%-?%d+),.*"timestamp":(%-?%d+),.*}$')
    if stamp then unix = tostring(tonumber(stamp) - tonumber(offset)) end
  end
  if not unix then return "malformed body ending " .. string.format("%q", body:sub(-16)) end
  if body:sub(1, 1) ~= "{" and body:sub(-1) ~= "\n" then return "truncated text body" end
  local skew = math.abs(tonumber(unix) - os.time())
  if skew > 2 then return "unixtime " .. unix .. " is " .. skew .. " s from the clock" end
  return nil
end

function response(status, headers, body)
  received = received + 1
  if received % every ~= 0 then return end
  checked = checked + 1
  local why = verdict(status, body)
  if why then
    bad = bad + 1
    if firstbad == "" then firstbad = why end
  end
end

function done(summary, latency, requests)
  local s, c, b, f = 0, 0, 0, ""
  for _, t in ipairs(threads) do
    s = s + t:get("sent")
    c = c + t:get("checked")
    b = b + t:get("bad")
    if f == "" then f = t:get("firstbad") end
  end
  io.write(string.format("soak: sent %d checked %d bad %d first-bad %s\n", s, c, b, f))
end
