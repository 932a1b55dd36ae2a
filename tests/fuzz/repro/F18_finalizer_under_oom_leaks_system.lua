-- F18: when memory runs out while the garbage collector calls a finalizer, Lua 5.4 loses the
-- finalizer (the object was taken off the list of objects to finalize before the call, and
-- the failed call only warns): the system's C memory leaks (LeakSanitizer: create <
-- new_system).  Run with build-asan/bin/mechlua (fault injection).
local fi = require "faultinject"
do local s = mech.planar{} end -- garbage, its __gc pending
fi.arm(1, "fail")              -- every allocation from now on fails
pcall(collectgarbage)          -- the collector calls __gc: the call itself cannot allocate
fi.disarm()
