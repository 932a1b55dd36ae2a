-- F7 (tests/fuzz/FINDINGS.md): a slider in a guide with clearance, its law K = 9.6e15 N/m,
-- run with BDF: the corners rest on the guide with their gaps within rounding of 0, and
-- every crossing cut the step and restarted CVODE, whose first step moved the gap back
-- across 0: 1e-11 s gained per two steps, 1.3e8 steps (ten minutes or more) to t = 0.01 s,
-- within the pace limit.  Now it stops at step 2013 ("a contact chatters").  The fuzzer
-- kept it as slow: seed 1, case 1048 (its step 38), in a 300-s run.
local sys = mech.planar{ gravity = { 0, -9.81 } }
local slider = sys:body{ name = "slider", mass = 2, inertia = 0.002, at = { 0, -0.001 },
  velocity = { -0.6547613736743374, 0 } }
sys:prismatic{ name = "guide", sys.ground, slider, at = { 0, 0 }, axis = { 1, 0 }, clearance = { gap = 0.001,
  length = 0.1, height = 0.05, law = mech.contact.lankarani_nikravesh{ K = 9.58793181138489e+15,
  restitution = 0.11543848662758782, n = 1, v_min = 3.6985091561227986e-05 } } }
sys:force{ name = "push9", slider, amplitude = { 5, 0 }, omega = 27.930495850261565 }
sys:simulate{ t = 0.01, method = "bdf", quiet = true, report = 0.00012048192771084338, max_order = 5,
  record = { "system.potential" } }
