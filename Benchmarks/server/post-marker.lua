-- wrk script: POST a tap (pixels inside room 2.01 of the sample drawing) to /drawings/bench/markers.
-- Each request moves the position a little so the store sees distinct markers.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

counter = 0
failures = 0

function request()
  counter = counter + 1
  local x = 250 + (counter * 7) % 400
  local y = 200 + (counter * 13) % 400
  local body = string.format('{"x":%d.5,"y":%d.25,"note":"load %d"}', x, y, counter)
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
