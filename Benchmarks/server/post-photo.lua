-- wrk script: POST a 5 MiB photo (a JPEG header and 5 MiB of bytes) to marker 1 of drawing bench. Each
-- request's bytes differ (its counter is written after the header), so every upload is hashed and stored
-- as new bytes, not found stored already.
wrk.method = "POST"
wrk.headers["Content-Type"] = "image/jpeg"

dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "created-counter.lua")

local size = 5 * 1024 * 1024
local header = "\255\216\255\224\0\16JFIF\0\1\1\0\0\1\0\1\0\0"
local filler = nil

function request()
  if filler == nil then filler = string.rep("\85", size - #header - 24) end
  counter = counter + 1
  local body = header .. string.format("%08d-%015d", thread_id or 0, counter) .. filler
  return wrk.format(nil, "/drawings/bench/markers/1/attachments", nil, body)
end

function done(summary, latency, requests)
  report_failures(summary)
  io.write(string.format("photo upload: %.1f MB/s (%d uploads of %d bytes in %.2f s)\n",
    summary.requests * size / 1e6 / (summary.duration / 1e6), summary.requests, size, summary.duration / 1e6))
end
