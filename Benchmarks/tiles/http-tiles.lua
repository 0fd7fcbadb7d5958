-- wrk script: GET every path listed in $TILE_LIST (one a line) in turn, each thread from its own offset.
local paths = {}
for line in io.lines(os.getenv("TILE_LIST")) do
    if #line > 0 then paths[#paths + 1] = line end
end
local counter = 0
local index = 0

setup = function(thread)
    thread:set("id", counter)
    counter = counter + 1
end

init = function(args)
    index = (id or 0) * 997
end

request = function()
    index = index % #paths + 1
    return wrk.format("GET", paths[index])
end
