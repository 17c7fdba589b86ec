/*
 * Fuzz target: a log that ev_validate accepts, merged with itself, must
 * give a log that ev_validate accepts, holding the events merge reports.
 *
 * The input is a log (the seeds are real ones, so no control byte): its
 * length picks how far the copy is shifted (0, 1 ns, -1 ns or 1 us), so
 * that its samples, brackets and stamps meet the original's at the same
 * time or just beside it. A log the validator rejects is not merged. One
 * of several sessions (corpus/merge_self/two-sessions: two runs one after
 * the other) is refused, and nothing written: merge takes one session
 * per input. Any other log merges into a valid log.
 */
#include <string.h>

#include "evtool/merge.h"
#include "evtool/validate.h"
#include "fuzz.h"

static const int64_t shifts[4] = { 0, 1, -1, 1000 };

/* The validator's findings on `len` bytes at `log`; 0 when it could not
 * run (memory), then `res` is untouched. */
static int validate(const uint8_t *log, size_t len, ev_validate_result *res)
{
	ev_validator *v;
	ev_input *in;
	int rc;

	if (ev_input_memory(&in, log, len, "log") < 0)
		return 0;
	if (ev_validator_new(&v, NULL) < 0) {
		ev_input_free(in);
		return 0;
	}
	rc = ev_validator_run(v, in);
	FUZZ_CHECK_STATUS(rc);
	*res = *ev_validator_result(v);
	ev_validator_free(v);
	ev_input_free(in);
	return rc >= 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ev_validate_result res;
	ev_merge *m = NULL;
	ev_input *a, *b;
	ev_sink *sink = NULL;
	const uint8_t *out;
	size_t len;
	int rc;

	if (!validate(data, size, &res) || res.errors > 0 || res.events == 0)
		return 0;
	if (ev_merge_new(&m, NULL) < 0)
		return 0;
	if (ev_input_memory(&a, data, size, "a") < 0 ||
	    ev_merge_add(m, a) < 0 ||
	    ev_input_memory(&b, data, size, "b") < 0 ||
	    ev_merge_add(m, b) < 0 ||
	    ev_merge_shift(m, 1, shifts[size & 3]) < 0 ||
	    ev_sink_open_memory(&sink) < 0)
		goto done;
	rc = ev_merge_run(m, sink);
	FUZZ_CHECK_STATUS(rc);
	if (ev_merge_diag(m)->reason == EV_REASON_SESSIONS) {
		FUZZ_ASSERT(rc == EV_EINVAL && res.sessions > 1);
		FUZZ_ASSERT(ev_merge_events_written(m) == 0);
		goto done;
	}
	if (rc < 0)
		goto done; /* a limit, or a shift beyond the clock */
	out = ev_sink_memory(sink, &len);
	if (validate(out, len, &res)) {
		FUZZ_ASSERT(res.errors == 0);
		FUZZ_ASSERT(res.verdict == EV_VERDICT_COMPLETE);
		FUZZ_ASSERT(res.events == ev_merge_events_written(m));
	}
done:
	ev_sink_free(sink);
	ev_merge_free(m);
	return 0;
}
