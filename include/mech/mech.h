/* SPDX-License-Identifier: MIT */
/* libmech: the mechanics core of mechlua.  Include this for the whole public API. */
#ifndef MECH_H
#define MECH_H

#include "mech_contact.h"
#include "mech_core.h"
#include "mech_fe.h"
#include "mech_integ.h"
#include "mech_mesh.h"
#include "mech_scene.h"
#include "mech_sim.h"
#include "mech_spatial.h"
#include "mech_system.h"

#endif
