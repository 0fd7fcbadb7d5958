-- wrk script: POST a punch item with EVERY field (pixels inside room 2.01 of the sample drawing, note,
-- author, uuid, status, category, priority, assignee, due, capturedAt) to /drawings/bench/markers.
-- Each request moves the position a little and carries its own uuid (run, thread number and counter), so
-- the store sees distinct items, also when the script runs again on the same store: every answer should be 201.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

local threads = {}
local next_id = 0
local run_id = os.time() % 65536
function setup(thread)
  next_id = next_id + 1
  thread:set("thread_id", next_id)
  thread:set("run_id", run_id)
  table.insert(threads, thread)
end

counter = 0
failures = 0
local statuses = { "open", "in-progress", "ready" }
local priorities = { "low", "normal", "high", "critical" }

function request()
  counter = counter + 1
  local x = 250 + (counter * 7) % 400
  local y = 200 + (counter * 13) % 400
  local body = string.format(
    '{"x":%d.5,"y":%d.25,"note":"load %d","author":"wrk","uuid":"%08x-%04x-4000-8000-%012x","status":"%s",' ..
    '"category":"Drywall","priority":"%s","assignee":"crew %d","due":"2027-%02d-%02d","capturedAt":"2026-11-20T09:41:07.250+01:00"}',
    x, y, counter, thread_id or 0, run_id or 0, counter, statuses[counter % 3 + 1], priorities[counter % 4 + 1], counter % 7,
    counter % 12 + 1, counter % 28 + 1)
  return wrk.format(nil, "/drawings/bench/markers", nil, body)
end

-- Counts answers other than 201, so a refused run is not mistaken for a fast one.
function response(status, headers, body)
  if status ~= 201 then failures = failures + 1 end
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("failures") end
  io.write(string.format("non-201 answers: %d of %d\n", total, summary.requests))
end
