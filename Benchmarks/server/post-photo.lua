-- wrk script: POST a 5 MiB photo (a JPEG header and 5 MiB of bytes) to marker 1 of drawing bench. Each
-- request's bytes differ (its counter is written after the header), so every upload is hashed and stored
-- as new bytes, not found stored already.
wrk.method = "POST"
wrk.headers["Content-Type"] = "image/jpeg"

local threads = {}
local next_id = 0
function setup(thread)
  next_id = next_id + 1
  thread:set("thread_id", next_id)
  table.insert(threads, thread)
end

local size = 5 * 1024 * 1024
local header = "\255\216\255\224\0\16JFIF\0\1\1\0\0\1\0\1\0\0"
local filler = nil
counter = 0
failures = 0

function request()
  if filler == nil then filler = string.rep("\85", size - #header - 24) end
  counter = counter + 1
  local body = header .. string.format("%08d-%015d", thread_id or 0, counter) .. filler
  return wrk.format(nil, "/drawings/bench/markers/1/attachments", nil, body)
end

function response(status, headers, body)
  if status ~= 201 then failures = failures + 1 end
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("failures") end
  io.write(string.format("non-201 answers: %d of %d\n", total, summary.requests))
  io.write(string.format("photo upload: %.1f MB/s (%d uploads of %d bytes in %.2f s)\n",
    summary.requests * size / 1e6 / (summary.duration / 1e6), summary.requests, size, summary.duration / 1e6))
end
