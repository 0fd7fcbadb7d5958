-- wrk script: POST a punch item with EVERY field (pixels inside room 2.01 of the sample drawing, note,
-- author, uuid, status, category, priority, assignee, due, capturedAt) to /drawings/bench/markers.
-- Each request moves the position a little and carries its own uuid (run, thread number and counter), so
-- the store sees distinct items, also when the script runs again on the same store: every answer should be 201.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "created-counter.lua")
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

function done(summary, latency, requests)
  report_failures(summary)
end
