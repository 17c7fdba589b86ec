/*
 * lib/io's declarations shared by the layers above it (the writer, the
 * archive sink); not installed.
 */
#ifndef EVTOOL_LIB_IO_INTERNAL_H
#define EVTOOL_LIB_IO_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "evtool/common.h"

typedef struct ev_sink ev_sink;

/* Room for `len` more bytes in the sink's buffer, counted as written: the
 * caller fills them before the next sink call. NULL on a write error (see
 * ev_sink_diag) or when `len` exceeds the buffer, which is never the case
 * up to EVI_SINK_RESERVE_MAX bytes. */
#define EVI_SINK_RESERVE_MAX (64u * 1024u)
uint8_t *evi_sink_reserve(ev_sink *s, size_t len);

/* What a staged sink passes its bytes through instead of writing them
 * (the archive sink): `write` and `finish` return EV_OK or a failure
 * described by `diag`; `free` releases `ctx`. */
typedef struct evi_sink_stage {
	int (*write)(void *ctx, const void *data, size_t len);
	int (*finish)(void *ctx);
	const ev_diag *(*diag)(const void *ctx);
	void (*free)(void *ctx);
} evi_sink_stage;

/* A sink whose bytes go through `stage` (with `ctx`), which writes them
 * to `target`; committing finishes the stage, then commits `target`.
 * The sink owns `target` and `ctx`; on failure both are freed. */
int evi_sink_open_stage(ev_sink **out, ev_sink *target,
			const evi_sink_stage *stage, void *ctx);

#endif
