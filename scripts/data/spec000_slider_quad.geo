// SPDX-License-Identifier: MIT
// The stick-slip oscillator's slider of [Zheng & Wang, Sec. 4.1] (0.6 x 0.5 m, lower-left corner
// at the origin) as a transfinite mesh of 5 x 5 quadrangles: the nodes of the paper's
// Fig. 6 in gmsh's own numbering.  Source of spec000_slider_quad.msh (gmsh 4.8.4):
//   gmsh -2 spec000_slider_quad.geo -format msh41 -o spec000_slider_quad.msh
Point(1) = {0, 0, 0};
Point(2) = {0.6, 0, 0};
Point(3) = {0.6, 0.5, 0};
Point(4) = {0, 0.5, 0};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve{1, 2, 3, 4} = 6;
Transfinite Surface{1};
Recombine Surface{1};
Physical Curve("bottom") = {1};
Physical Curve("right") = {2};
Physical Curve("top") = {3};
Physical Curve("left") = {4};
Physical Surface("slider") = {1};
