/*
 * Fuzz target: the query parameters of evtool view's API
 * (cmd/view_params.c), from a query string "k=v&k=v..." as the input
 * (the first value of a key counts, as libmicrohttpd gives it). Whatever
 * the bytes, it either refuses with a reason or gives parameters within
 * their documented bounds, so no request asks for unbounded work.
 */
#include <stdlib.h>
#include <string.h>

#include "../cmd/view.h"
#include "fuzz.h"

#define MAX_ARGS 32

typedef struct args {
	const char *key[MAX_ARGS], *value[MAX_ARGS];
	size_t n;
} args;

static const char *arg(void *ctx, const char *key)
{
	const args *a = ctx;

	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->key[i], key) == 0)
			return a->value[i];
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *p, *save = NULL;
	view_params vp;
	const char *why = NULL;
	args a = { { NULL }, { NULL }, 0 };

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (p = strtok_r(text, "&", &save); p && a.n < MAX_ARGS;
	     p = strtok_r(NULL, "&", &save)) {
		char *eq = strchr(p, '=');
		a.key[a.n] = p;
		a.value[a.n++] = eq ? eq + 1 : "";
		if (eq)
			*eq = '\0';
	}
	if (view_params_parse(arg, &a, &vp, &why) == 0) {
		FUZZ_ASSERT(!vp.have_range || vp.to > vp.from);
		FUZZ_ASSERT(vp.width >= 1 && vp.width <= VIEW_MAX_WIDTH);
		FUZZ_ASSERT(vp.limit >= 1 && vp.limit <= VIEW_MAX_EVENTS);
		FUZZ_ASSERT(!vp.have_tid || vp.tid >= 1);
		FUZZ_ASSERT(!vp.query ||
			    (*vp.query && strlen(vp.query) <= EV_VIEW_TEXT_MAX));
	} else {
		FUZZ_ASSERT(why && *why);
	}
	free(text);
	return 0;
}
