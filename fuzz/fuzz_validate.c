/*
 * Fuzz target: ev_validate over the input, with every check on; the
 * input's length picks whether a global time order is also required,
 * so that both paths are fuzzed without a control byte that the seed
 * logs would lack.
 */
#include <string.h>

#include "evtool/validate.h"
#include "fuzz.h"

typedef struct tally {
	uint64_t errors;
	uint64_t warnings;
} tally;

static int on_finding(const ev_finding *f, void *ctx)
{
	tally *t = ctx;

	FUZZ_ASSERT(f->check != NULL && f->message != NULL);
	FUZZ_ASSERT(strlen(f->message) < 4096);
	if (f->severity == EV_SEVERITY_ERROR)
		t->errors++;
	else
		t->warnings++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ev_validate_options o = EV_VALIDATE_OPTIONS_INIT;
	ev_validate_result res;
	ev_reader *r;
	tally t = { 0, 0 };
	int rc;

	o.sorted = (int)(size & 1);
	o.max_threads = (size & 2) ? 4 : 0;
	if (ev_reader_open_memory(&r, data, size, "fuzz", 0) < 0)
		return 0;
	rc = ev_validate(r, &o, on_finding, &t, &res);
	FUZZ_CHECK_STATUS(rc);
	if (rc >= 0) {
		FUZZ_ASSERT(res.errors == t.errors);
		FUZZ_ASSERT(res.warnings == t.warnings);
		FUZZ_ASSERT(res.verdict != EV_VERDICT_COMPLETE ||
			    res.errors == 0);
	}
	ev_reader_free(r);
	return 0;
}
