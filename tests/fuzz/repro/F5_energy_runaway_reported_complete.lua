-- F5 (tests/fuzz/FINDINGS.md): a slider in a guide with Dahl friction far too stiff for the
-- RK4 step is thrown at 6e5 m/s in the first steps and then slides on against the
-- friction: 600 m away at t = 1 ms, within 1e6 times the model's size, and the run said
-- "complete".  Now its energy balance (off by 5.9e11 J of the 2 J it was given) stops it.
-- Found in 28 min (seed 31, case 6380) by the fuzzer's runaway oracle.
local sys = mech.planar{ gravity = { 0, -9.81 }, baumgarte = { 19.789060482134392, 47.35895218748799 }, assemble = false }
local s = sys:body{ name = "slider", mass = 2, inertia = 0.002, at = { 0, -0.001 }, velocity = { -0.9719207327161907, 0 } }
sys:prismatic{ name = "guide", sys.ground, s, at = { 0, 0 }, axis = { 1, 0 }, clearance = { gap = 0.001, length = 0.1, height = 0.05, law = mech.contact.kelvin_voigt{ K = 24988955.34351901, c = 9.287675412328705 }, friction = mech.friction.dahl{ mu = 0.12103118433264931, sigma0 = 279993.53526059614 } } }
sys:simulate{ t = 0.001, method = "rk4", quiet = true, h = 2.777777777777778e-06, report = 5.555555555555556e-05, record = { "slider.x" } }
