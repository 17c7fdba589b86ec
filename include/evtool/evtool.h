/*
 * evtool: umbrella header for libevtool, a library that reads and writes
 * the binary event logs of the GHC runtime (`+RTS -l`).
 */
#ifndef EVTOOL_EVTOOL_H
#define EVTOOL_EVTOOL_H

#include "common.h"
#include "catalog.h"
#include "header.h"
#include "reader.h"
#include "writer.h"

#endif
