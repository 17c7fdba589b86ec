/*
 * Fuzz target: what evtool's HTTP server decides from text
 * (cmd/http_request.c): a --listen value, a Host header, an Accept header
 * and a request path, taken from the input's first four lines. Each
 * answer must be one of the documented ones, whatever the bytes; a server
 * on an address other than loopback answers to no DNS name.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../cmd/http_request.h"
#include "fuzz.h"

#define PARTS 4

/* A server on another address answers to its --listen text itself, and
 * never to a DNS name (IP literals only, or localhost on a wildcard). */
static void check_address_host(const char *text, const char *host,
			       const http_listen *l)
{
	if (strchr(text, ':'))
		FUZZ_ASSERT(http_host_allowed(text, l) == 1);
	if (host && *host && http_host_allowed(host, l))
		FUZZ_ASSERT(strspn(host, "0123456789abcdefABCDEF.:[]") ==
				    strlen(host) ||
			    (l->wildcard && strncasecmp(host, "localhost", 9) == 0));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = { "/metrics", "/" };
	char *text = malloc(size + 1), *part[PARTS] = { NULL };
	http_listen listen;
	const char *why = NULL;
	int route, parsed;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	part[0] = text;
	for (int i = 1; i < PARTS; i++) {
		char *nl = part[i - 1] ? strchr(part[i - 1], '\n') : NULL;
		if (nl)
			*nl = '\0';
		part[i] = nl ? nl + 1 : NULL;
	}
	parsed = http_listen_parse(part[0], &listen, &why);
	FUZZ_ASSERT(parsed == 0 || (parsed == -1 && why && *why));
	if (parsed == 0) {
		FUZZ_ASSERT(listen.port <= 65535);
		FUZZ_ASSERT(listen.addr_len > 0);
		FUZZ_ASSERT(http_host_allowed(part[1], &listen) <= 1);
		if (!listen.loopback)
			check_address_host(part[0], part[1], &listen);
	}
	FUZZ_ASSERT(http_prefers_openmetrics(part[2]) == 0 ||
		    http_prefers_openmetrics(part[2]) == 1);
	route = http_route_find(part[3], paths, 2);
	FUZZ_ASSERT(route >= -1 && route < 2);
	if (route >= 0)
		FUZZ_ASSERT(strcmp(part[3], paths[route]) == 0);
	free(text);
	return 0;
}
