/*
 * Fuzz target: the exporter. Reads every event of every session of the
 * input (in file order: the exporter asks no order of its input, the
 * command feeds it time order) into the three formats at once, each
 * writing to a memory sink, then finishes them: every status must be a
 * documented one, and a format with nothing to export must have written
 * nothing.
 */
#include <string.h>

#include "evtool/export.h"
#include "evtool/reader.h"
#include "evtool/writer.h"
#include "fuzz.h"

#define FORMATS 3

static void finish(ev_exporter *x, ev_sink *sink)
{
	int rc = ev_exporter_finish(x);
	size_t len;

	FUZZ_ASSERT(rc == EV_OK || rc == EV_EXPORT_NOTHING || rc < 0);
	FUZZ_ASSERT(rc >= EV_ELIMIT);
	ev_sink_memory(sink, &len);
	if (rc == EV_EXPORT_NOTHING)
		FUZZ_ASSERT(len == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ev_exporter *x[FORMATS] = { NULL };
	ev_sink *sink[FORMATS] = { NULL };
	ev_reader *r = NULL;
	ev_event ev;
	int rc, live = 1;

	if (ev_reader_open_memory(&r, data, size, "fuzz", 0, NULL) < 0)
		return 0;
	for (int f = 0; f < FORMATS; f++) {
		ev_export_options o = EV_EXPORT_OPTIONS_INIT;
		o.format = (ev_export_format)f;
		FUZZ_ASSERT(ev_sink_open_memory(&sink[f], NULL) == EV_OK);
		FUZZ_ASSERT(ev_exporter_new(&x[f], &o, sink[f], NULL) == EV_OK);
	}
	for (unsigned session = 0; live; session++) {
		if (ev_reader_read_header(r) != EV_OK)
			break;
		for (int f = 0; f < FORMATS; f++)
			FUZZ_CHECK_STATUS(ev_exporter_session(
				x[f], session, ev_reader_header(r)));
		while ((rc = ev_reader_next(r, &ev)) == EV_OK)
			for (int f = 0; f < FORMATS; f++)
				FUZZ_CHECK_STATUS(ev_exporter_event(x[f], &ev));
		FUZZ_CHECK_STATUS(rc);
		live = rc == EV_END && ev_reader_next_session(r) == EV_OK;
	}
	for (int f = 0; f < FORMATS; f++) {
		finish(x[f], sink[f]);
		ev_exporter_free(x[f]);
		ev_sink_free(sink[f]);
	}
	ev_reader_free(r);
	return 0;
}
