-- Shared by the wrk scripts here (loaded with dofile): numbers the threads (thread_id, and run_id for
-- the run) and counts answers other than 201, so a refused run is not mistaken for a fast one.
threads = {}
local next_id = 0
-- WRK_RUN_ID: several wrk processes at once (Benchmarks/postgres/posts.sh) each give their own.
local run_id = tonumber(os.getenv("WRK_RUN_ID") or "") or os.time() % 65536
function setup(thread)
  next_id = next_id + 1
  thread:set("thread_id", next_id)
  thread:set("run_id", run_id)
  table.insert(threads, thread)
end

counter = 0
failures = 0

function response(status, headers, body)
  if status ~= 201 then failures = failures + 1 end
end

-- Writes "non-201 answers: N of M" for the whole run.
function report_failures(summary)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("failures") end
  io.write(string.format("non-201 answers: %d of %d\n", total, summary.requests))
end
