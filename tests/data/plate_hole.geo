// SPDX-License-Identifier: MIT
// Source of plate_hole_41.msh and plate_hole_22.msh (gmsh 4.8.4):
//   gmsh -2 plate_hole.geo -format msh41 -save_parametric -o plate_hole_41.msh
//   gmsh -2 plate_hole.geo -format msh22 -o plate_hole_22.msh
// plate 0.2 x 0.1 m with a central hole of radius 0.025 m, quadrangles
lc = 0.012;
Point(1) = {0, 0, 0, lc};
Point(2) = {0.2, 0, 0, lc};
Point(3) = {0.2, 0.1, 0, lc};
Point(4) = {0, 0.1, 0, lc};
Point(5) = {0.1, 0.05, 0, lc};
Point(6) = {0.125, 0.05, 0, lc};
Point(7) = {0.1, 0.075, 0, lc};
Point(8) = {0.075, 0.05, 0, lc};
Point(9) = {0.1, 0.025, 0, lc};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Circle(5) = {6, 5, 7};
Circle(6) = {7, 5, 8};
Circle(7) = {8, 5, 9};
Circle(8) = {9, 5, 6};
Curve Loop(1) = {1, 2, 3, 4};
Curve Loop(2) = {5, 6, 7, 8};
Plane Surface(1) = {1, 2};
Recombine Surface{1};
Physical Curve("bottom") = {1};
Physical Curve("top") = {3};
Physical Curve("hole") = {5, 6, 7, 8};
Physical Point("corner") = {1};
Physical Surface("plate") = {1};
