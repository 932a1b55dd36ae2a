-- F9 (tests/fuzz/FINDINGS.md): a slider on a prismatic joint pulled by a spring whose law has a
-- pole (l / rate): DOPRI5 runs fast, then crawls at 5e-16 s steps near t = 8.09e-6 s, and the
-- pace averaged from t = 0 let it go on for 5.3e6 steps (40 s, minutes under ASan).  Now the
-- pace over the last 1e5 steps stops it at step 2e5.  Minimised from fuzz seed 104 case 598.
local s = mech.spatial{ gravity = { 0, 0, -9.81 } }
local slider = s:body{ name = "slider", mass = 0.05, inertia = { 1.4e-4, 0.13, 0.13 },
  euler = { "zyx", -2.0696777278396006, 0.08919354451345796, 3.159255675058245 },
  velocity = { -0.45313180945070974, -0.09508089170559697, 0.6805725800367493 } }
s:prismatic{ s.ground, slider, axis = { -0.0019013429534924242, 0.7664859469400316, 0.08588797881621568 } }
s:spring{ s.ground, slider, at = { { 0.1, 0.38, 0.22 }, { 0.41, -0.27, -0.41 } },
  law = function(l, rate) return l / rate end }
print(pcall(s.simulate, s, { t = 1e-3, quiet = true, record = { "slider.x" } }))
