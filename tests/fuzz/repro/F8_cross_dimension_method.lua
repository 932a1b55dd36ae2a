-- FIXED (vm/lsystem.c): a method both dimensions have under one name, taken from a planar
-- system and called with a spatial one: ASan stack-buffer-overflow (READ of 8 bytes) in
-- lspatial_to_body < lsys_to_body < add_joint (vm/lsys_build.c:496): the planar prismatic
-- joint's default anchor double at[2] read as a 3-vector.  Fuzz seed 105 cases 657, 664, 868.
local s = mech.spatial{}
local sb = s:body{ name = "sb", mass = 1, inertia = {1,1,1}, at = {1, 2, 3} }
local f = mech.planar{}.prismatic
print(pcall(f, s, { s.ground, sb }))
