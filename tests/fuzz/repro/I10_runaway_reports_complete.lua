-- Issue 14 item 10 (tests/fuzz/FINDINGS.md): a block sliding on a LuGre contact whose
-- bristles are too stiff for the RK4 step: the state blows up (x reaches -1.4e9 m within
-- a millisecond) and the run says "complete".  Found by the fuzzer's runaway oracle in
-- 7 s (seed 1, case 213).
local sys = mech.planar{ gravity = { 0, -9.81 } }
local b = sys:body{ name = "block", mass = 1, inertia = 0.01, at = { 0, 0.05 }, velocity = { 0.85, 0 } }
sys:contact{ b, body_at = { -0.05, -0.05 }, surface = { at = { 0, 0 }, normal = { 0, 1 } },
  law = mech.contact.lankarani_nikravesh{ K = 87783, restitution = 0.76 },
  friction = mech.friction.lugre{ mu = 0.27, mu_s = 0.6, vs = 0.0023, sigma0 = 3.1e6, sigma1 = 8.6, sigma2 = 0.9 } }
local run = sys:simulate{ t = 0.001, method = "rk4", h = 5.2e-6, quiet = true, record = { "block.x" } }
print(run.status, run["block.x"]:min()) --> complete  -1.4e9 (or worse)
