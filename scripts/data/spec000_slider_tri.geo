// SPDX-License-Identifier: MIT
// The stick-slip oscillator's slider of [Zheng & Wang, Sec. 4.1] (0.6 x 0.5 m, lower-left corner
// at the origin) as an unstructured mesh of three-node triangles about 0.1 m across,
// with nodes at the heights where the paper's load (0.05 m) and spring (0.25 m) act.
// Source of spec000_slider_tri.msh (gmsh 4.8.4):
//   gmsh -2 spec000_slider_tri.geo -format msh22 -o spec000_slider_tri.msh
lc = 0.1;
Point(1) = {0, 0, 0, lc};
Point(2) = {0.6, 0, 0, lc};
Point(3) = {0.6, 0.05, 0, lc};
Point(4) = {0.6, 0.5, 0, lc};
Point(5) = {0, 0.5, 0, lc};
Point(6) = {0, 0.25, 0, lc};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 5};
Line(5) = {5, 6};
Line(6) = {6, 1};
Curve Loop(1) = {1, 2, 3, 4, 5, 6};
Plane Surface(1) = {1};
Physical Curve("bottom") = {1};
Physical Curve("right") = {2, 3};
Physical Curve("top") = {4};
Physical Curve("left") = {5, 6};
Physical Point("load") = {3};
Physical Point("spring") = {6};
Physical Surface("slider") = {1};
