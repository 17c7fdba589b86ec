/*
 * Fuzz target: ev_merge of two inputs held in memory.
 *
 * Input layout: byte 0 chooses the options (bits 0-1 the alignment,
 * bit 2 EV_MERGE_NO_RENUMBER, bit 3 EV_MERGE_WIDEN), bytes 1-4 are the
 * big-endian length of the first log (clamped to what follows), then the
 * first log, then the second. make_corpus.sh builds seeds that way from
 * pairs of test logs.
 */
#include <string.h>

#include "evtool/merge.h"
#include "evtool/reader.h"
#include "evtool/writer.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ev_merge_options o = EV_MERGE_OPTIONS_INIT;
	ev_merge *m = NULL;
	ev_input *in_a, *in_b;
	ev_sink *sink = NULL;
	const uint8_t *a, *b;
	size_t a_len, b_len;
	int rc;

	if (size < 5)
		return 0;
	o.align = (ev_merge_align)(data[0] & 3);
	if (o.align > EV_MERGE_ALIGN_NONE)
		o.align = EV_MERGE_ALIGN_START;
	o.flags = ((data[0] & 4) ? EV_MERGE_NO_RENUMBER : 0) |
		  ((data[0] & 8) ? EV_MERGE_WIDEN : 0);
	a_len = ev_load32(data + 1);
	if (a_len > size - 5)
		a_len = size - 5;
	a = data + 5;
	b = a + a_len;
	b_len = size - 5 - a_len;

	if (ev_merge_new(&m, &o, NULL) < 0)
		return 0;
	if (ev_input_memory(&in_a, a, a_len, "a", NULL) < 0 ||
	    ev_merge_add(m, in_a) < 0 ||
	    ev_input_memory(&in_b, b, b_len, "b", NULL) < 0 ||
	    ev_merge_add(m, in_b) < 0)
		goto done;
	if (data[0] & 16)
		(void)ev_merge_shift(m, 1, (int64_t)(data[0] >> 5) * 1000000 -
						   3000000);
	rc = ev_merge_plan(m);
	FUZZ_CHECK_STATUS(rc);
	if (rc < 0) {
		FUZZ_ASSERT(ev_merge_diag(m)->status == rc);
		goto done;
	}
	FUZZ_ASSERT(ev_merge_header(m) != NULL);
	if (ev_sink_open_memory(&sink, NULL) < 0)
		goto done;
	rc = ev_merge_run(m, sink);
	FUZZ_CHECK_STATUS(rc);
	if (rc == EV_OK) {
		/* The output must read back as a complete log. */
		size_t len;
		const uint8_t *out = ev_sink_memory(sink, &len);
		ev_reader *r;
		ev_event ev;
		uint64_t events = 0;

		if (ev_reader_open_memory(&r, out, len, "merged",
					  EV_READER_RAW, NULL) == EV_OK) {
			while ((rc = ev_reader_next(r, &ev)) == EV_OK)
				if (!fuzz_is_marker(ev.type, ev.size))
					events++;
			FUZZ_ASSERT(rc == EV_END);
			FUZZ_ASSERT(events == ev_merge_events_written(m));
			ev_reader_free(r);
		}
	}
done:
	ev_sink_free(sink);
	ev_merge_free(m);
	return 0;
}
