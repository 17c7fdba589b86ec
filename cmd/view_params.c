/*
 * The query parameters of evtool view's API (view.h): decimal numbers
 * only, within their bounds, so that no request can ask for unbounded
 * work or memory. No I/O, no allocation: fuzz_http feeds it any bytes.
 */
#include <string.h>

#include "view.h"

/* A decimal number of at most 19 digits (no sign, no space). */
static int parse_u64(const char *text, uint64_t *out)
{
	uint64_t v = 0;
	size_t n = 0;

	for (; text[n]; n++) {
		if (text[n] < '0' || text[n] > '9' || n >= 19)
			return -1;
		v = v * 10 + (uint64_t)(text[n] - '0');
	}
	*out = v;
	return n ? 0 : -1;
}

/* Parameter `key` as a number in [min, max]; absent leaves *out. */
static int number(view_arg_fn arg, void *ctx, const char *key, uint64_t min,
		  uint64_t max, uint64_t *out, int *present, const char **why)
{
	const char *text = arg(ctx, key);
	uint64_t v;

	if (present)
		*present = text != NULL;
	if (!text)
		return 0;
	if (parse_u64(text, &v) < 0 || v < min || v > max) {
		*why = key;
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_cap(view_arg_fn arg, void *ctx, view_params *p,
		     const char **why)
{
	const char *text = arg(ctx, "cap");
	uint64_t v;

	p->have_cap = text != NULL;
	if (!text)
		return 0;
	if (strcmp(text, "global") == 0) {
		p->cap = EV_NO_CAP;
		return 0;
	}
	if (parse_u64(text, &v) < 0 || v >= EV_NO_CAP) {
		*why = "cap: a capability number or \"global\"";
		return -1;
	}
	p->cap = (uint16_t)v;
	return 0;
}

int view_params_parse(view_arg_fn arg, void *ctx, view_params *out,
		      const char **why)
{
	view_params p = { 0, 0, 0, 1, 0, 0, 100, 0, 0, 0, NULL, 0, 0 };
	uint64_t width = 1, limit = 100, tid = 0;
	int have_from, have_to, have_block, have_after;

	if (number(arg, ctx, "from", 0, UINT64_MAX / 2, &p.from, &have_from,
		   why) < 0 ||
	    number(arg, ctx, "to", 1, UINT64_MAX / 2, &p.to, &have_to,
		   why) < 0 ||
	    number(arg, ctx, "width", 1, VIEW_MAX_WIDTH, &width, NULL,
		   why) < 0 ||
	    number(arg, ctx, "limit", 1, VIEW_MAX_EVENTS, &limit, NULL,
		   why) < 0 ||
	    number(arg, ctx, "block", 0, UINT64_MAX / 2, &p.block,
		   &have_block, why) < 0 ||
	    number(arg, ctx, "after", 0, UINT64_MAX / 2, &p.after,
		   &have_after, why) < 0 ||
	    number(arg, ctx, "tid", 1, UINT32_MAX, &tid, &p.have_tid,
		   why) < 0)
		return -1;
	p.tid = (uint32_t)tid;
	if (have_block != have_after || (have_block && p.after < p.block)) {
		*why = "block and after: both or neither, after >= block";
		return -1;
	}
	p.have_cursor = have_block;
	if (have_from != have_to) {
		*why = "from and to: both or neither";
		return -1;
	}
	if (have_from && p.to <= p.from) {
		*why = "to: after from";
		return -1;
	}
	if (parse_cap(arg, ctx, &p, why) < 0)
		return -1;
	p.query = arg(ctx, "q");
	if (p.query && (!*p.query || strlen(p.query) > EV_VIEW_TEXT_MAX)) {
		*why = "q: 1 to 128 bytes";
		return -1;
	}
	p.have_range = have_from;
	p.width = (size_t)width;
	p.limit = (size_t)limit;
	*out = p;
	return 0;
}
