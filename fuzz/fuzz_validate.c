/*
 * Fuzz target: ev_validator_run over the input, with every check on; the
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
	ev_validator *v;
	ev_input *in;
	tally t = { 0, 0 };
	int rc;

	o.sorted = (int)(size & 1);
	o.max_threads = (size & 2) ? 4 : 0;
	if (ev_input_memory(&in, data, size, "fuzz", NULL) < 0)
		return 0;
	if (ev_validator_new(&v, &o, NULL) < 0) {
		ev_input_free(in);
		return 0;
	}
	ev_validator_set_findings(v, on_finding, &t);
	rc = ev_validator_run(v, in);
	res = *ev_validator_result(v);
	ev_validator_free(v);
	FUZZ_CHECK_STATUS(rc);
	if (rc >= 0) {
		FUZZ_ASSERT(res.errors == t.errors);
		FUZZ_ASSERT(res.warnings == t.warnings);
		FUZZ_ASSERT(res.verdict != EV_VERDICT_COMPLETE ||
			    res.errors == 0);
	}
	ev_input_free(in);
	return 0;
}
