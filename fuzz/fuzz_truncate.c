/*
 * Fuzz target: ev_repair (`evtool truncate`). Every input is repaired
 * twice: as a plain truncation, and with EV_REPAIR_RESYNC and a cut
 * derived from the input's last bytes (bytes, events, time or one
 * session), so that resync and the cutting paths see the same inputs.
 * What a successful repair writes must itself read back as a complete
 * log with as many events as the summary says.
 */
#include <string.h>

#include "evtool/reader.h"
#include "evtool/repair.h"
#include "evtool/writer.h"
#include "fuzz.h"

static void on_notice(void *ctx, const ev_repair_notice *n)
{
	uint64_t *count = ctx;

	FUZZ_ASSERT(n->message != NULL);
	(*count)++;
}

/* The repaired log must be complete: sessions ending in their data-end
 * marker, nothing after the last one. */
static void check_output(const uint8_t *out, size_t len,
			 const ev_repair_summary *s)
{
	ev_reader *r;
	ev_event ev;
	uint64_t events = 0;
	int rc;

	if (ev_reader_open_memory(&r, out, len, "repaired", EV_READER_RAW,
				  NULL) < 0)
		return;
	for (;;) {
		while ((rc = ev_reader_next(r, &ev)) == EV_OK)
			if (!fuzz_is_marker(ev.type, ev.size))
				events++;
		FUZZ_ASSERT(rc == EV_END);
		rc = ev_reader_next_session(r);
		if (rc == EV_END)
			break;
		FUZZ_ASSERT(rc == EV_OK);
	}
	FUZZ_ASSERT(events == s->events);
	ev_reader_free(r);
}

static void repair_once(const uint8_t *data, size_t size,
			const ev_repair_options *o)
{
	ev_input *r = NULL;
	ev_sink *sink = NULL;
	ev_repair *rp = NULL;
	int rc;

	if (ev_input_memory(&r, data, size, "fuzz", NULL) < 0)
		return;
	if (ev_sink_open_memory(&sink, NULL) < 0)
		goto done;
	if (ev_repair_new(&rp, o, NULL) < 0)
		goto done;
	rc = ev_repair_run(rp, r, sink);
	FUZZ_CHECK_STATUS(rc);
	if (rc == EV_OK) {
		size_t len;
		const uint8_t *out = ev_sink_memory(sink, &len);
		const ev_repair_summary *s = ev_repair_result(rp);

		FUZZ_ASSERT(s->output_bytes == len);
		check_output(out, len, s);
	} else {
		(void)ev_repair_diag(rp)->message[0];
	}
done:
	ev_repair_free(rp);
	ev_sink_free(sink);
	ev_input_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ev_repair_options o = EV_REPAIR_OPTIONS_INIT;
	uint64_t notices = 0;
	uint8_t tail = size ? data[size - 1] : 0;

	o.notify = on_notice;
	o.notify_ctx = &notices;
	repair_once(data, size, &o);

	o.flags = EV_REPAIR_RESYNC;
	switch (tail & 7) {
	case 1:
		o.max_bytes = size > 0 ? (uint64_t)size * (tail >> 3) / 32 : 0;
		break;
	case 2:
		o.max_events = (uint64_t)(tail >> 3) * 17;
		break;
	case 3:
		o.max_time = (uint64_t)(tail >> 3) * 100000;
		break;
	case 4:
		o.session = 1u + ((tail >> 3) & 3);
		break;
	default:
		break;
	}
	repair_once(data, size, &o);
	return 0;
}
