/*
 * The text evtool's HTTP server decides on (http_request.h): --listen,
 * Host and Accept. Everything here is bounded by its input and allocates
 * nothing; fuzz/fuzz_http.c feeds it arbitrary bytes.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "http_request.h"

/* "0" to "65535", digits only; -1 otherwise. */
static long parse_port(const char *s, size_t len)
{
	long port = 0;

	if (len == 0 || len > 5)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		port = port * 10 + (s[i] - '0');
	}
	return port <= 65535 ? port : -1;
}

static int set_ipv4(http_listen *out, const char *host, unsigned port)
{
	struct sockaddr_in *in = (struct sockaddr_in *)&out->addr;

	if (inet_pton(AF_INET, host, &in->sin_addr) != 1)
		return -1;
	in->sin_family = AF_INET;
	in->sin_port = htons((uint16_t)port);
	out->addr_len = sizeof *in;
	out->loopback = (ntohl(in->sin_addr.s_addr) >> 24) == 127;
	out->wildcard = in->sin_addr.s_addr == htonl(INADDR_ANY);
	return 0;
}

static int set_ipv6(http_listen *out, const char *host, unsigned port)
{
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&out->addr;

	if (inet_pton(AF_INET6, host, &in6->sin6_addr) != 1)
		return -1;
	in6->sin6_family = AF_INET6;
	in6->sin6_port = htons((uint16_t)port);
	out->addr_len = sizeof *in6;
	out->loopback = IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
	out->wildcard = IN6_IS_ADDR_UNSPECIFIED(&in6->sin6_addr);
	return 0;
}

int http_listen_parse(const char *text, http_listen *out, const char **why)
{
	const char *colon = strrchr(text, ':');
	char host[64];
	size_t host_len;
	long port;

	memset(out, 0, sizeof *out);
	out->text = text;
	if (!colon) /* a bare port: loopback */
		colon = text - 1;
	port = parse_port(colon + 1, strlen(colon + 1));
	if (port < 0)
		return *why = "the port must be a number from 0 to 65535", -1;
	out->port = (unsigned)port;
	host_len = colon < text ? 0 : (size_t)(colon - text);
	if (host_len >= sizeof host)
		return *why = "the address is too long", -1;
	memcpy(host, text, host_len);
	host[host_len] = '\0';
	if (host_len == 0 || strcasecmp(host, "localhost") == 0)
		return set_ipv4(out, "127.0.0.1", out->port);
	if (host[0] == '[' && host[host_len - 1] == ']' && host_len > 2) {
		host[host_len - 1] = '\0';
		if (set_ipv6(out, host + 1, out->port) == 0)
			return 0;
	} else if (set_ipv4(out, host, out->port) == 0) {
		return 0;
	}
	return *why = "the address must be an IPv4 address, [IPv6] or "
		      "localhost", -1;
}

/* Copies `name` (len bytes) into `text` as a string; 0 if it is too long. */
static int copy_name(char *text, size_t size, const char *name, size_t len)
{
	if (len >= size)
		return 0;
	memcpy(text, name, len);
	text[len] = '\0';
	return 1;
}

/* Whether `name` (len bytes, without its port) is a loopback name. */
static int loopback_name(const char *name, size_t len)
{
	char text[64];
	struct in_addr a;

	if (len == 9 && strncasecmp(name, "localhost", 9) == 0)
		return 1;
	if (len == 5 && memcmp(name, "[::1]", 5) == 0)
		return 1;
	return copy_name(text, sizeof text, name, len) &&
	       inet_pton(AF_INET, text, &a) == 1 &&
	       (ntohl(a.s_addr) >> 24) == 127;
}

/* Whether `name` (len bytes, without its port) is an IP literal: an IPv4
 * address or a bracketed IPv6 one. Its address goes to *a (AF_INET or
 * AF_INET6, with no port). */
static int ip_literal(const char *name, size_t len,
		      struct sockaddr_storage *a)
{
	char text[64];

	memset(a, 0, sizeof *a);
	if (len > 2 && name[0] == '[' && name[len - 1] == ']') {
		a->ss_family = AF_INET6;
		return copy_name(text, sizeof text, name + 1, len - 2) &&
		       inet_pton(AF_INET6, text,
				 &((struct sockaddr_in6 *)a)->sin6_addr) == 1;
	}
	a->ss_family = AF_INET;
	return copy_name(text, sizeof text, name, len) &&
	       inet_pton(AF_INET, text,
			 &((struct sockaddr_in *)a)->sin_addr) == 1;
}

/* Whether `name` (len bytes, without its port) names the address of `l`:
 * an IP literal of that address, or any IP literal or localhost when `l`
 * is a wildcard (a name of no DNS, so no rebinding). */
static int listen_name(const char *name, size_t len, const http_listen *l)
{
	struct sockaddr_storage a;

	if (!ip_literal(name, len, &a))
		return l->wildcard && loopback_name(name, len);
	if (l->wildcard)
		return 1;
	if (a.ss_family != l->addr.ss_family)
		return 0;
	if (a.ss_family == AF_INET6)
		return memcmp(&((struct sockaddr_in6 *)&a)->sin6_addr,
			      &((const struct sockaddr_in6 *)&l->addr)->sin6_addr,
			      sizeof(struct in6_addr)) == 0;
	return ((struct sockaddr_in *)&a)->sin_addr.s_addr ==
	       ((const struct sockaddr_in *)&l->addr)->sin_addr.s_addr;
}

int http_host_allowed(const char *host, const http_listen *l)
{
	size_t len, name_len;
	const char *port;
	long number = -1;

	if (!host)
		return 1;
	len = strlen(host);
	/* The port follows the last ':' after an IPv6 literal's ']'. */
	port = strrchr(host, ':');
	if (port && strchr(port, ']'))
		port = NULL;
	name_len = port ? (size_t)(port - host) : len;
	if (port && (number = parse_port(port + 1, len - name_len - 1)) < 0)
		return 0;
	if (l->loopback)
		return loopback_name(host, name_len);
	return (!port || (unsigned long)number == l->port) &&
	       listen_name(host, name_len, l);
}

/* ---- Accept ---- */

/* How closely a media range matches the type we look for: 3 exactly, 2
 * its "type/<star>", 1 "<star>/<star>", 0 not at all. */
static int match_rank(const char *range, size_t len, const char *type)
{
	const char *slash = strchr(type, '/');
	size_t major = (size_t)(slash - type);

	if (len == strlen(type) && strncasecmp(range, type, len) == 0)
		return 3;
	if (len == major + 2 && strncasecmp(range, type, major + 1) == 0 &&
	    range[major + 1] == '*')
		return 2;
	return len == 3 && memcmp(range, "*/*", 3) == 0;
}

/* A q value in thousandths ("1", "0.5", "0.125"), or -1 if malformed. */
static int parse_q(const char *s, size_t len)
{
	int q;

	if (len == 0 || (s[0] != '0' && s[0] != '1'))
		return -1;
	q = (s[0] - '0') * 1000;
	if (len == 1)
		return q;
	if (s[1] != '.' || len > 5)
		return -1;
	for (size_t i = 2; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		q += (s[i] - '0') * (i == 2 ? 100 : i == 3 ? 10 : 1);
	}
	return q <= 1000 ? q : -1;
}

static size_t trim(const char **s, size_t len)
{
	while (len && (**s == ' ' || **s == '\t'))
		(*s)++, len--;
	while (len && ((*s)[len - 1] == ' ' || (*s)[len - 1] == '\t'))
		len--;
	return len;
}

/* The q of one element "type/subtype;p=v;q=0.5" (1000 when none), or
 * -1 when its q is malformed. Sets *range and *range_len. */
static int element_q(const char *e, size_t len, const char **range,
		     size_t *range_len)
{
	const char *semi = memchr(e, ';', len);
	int q = 1000;

	*range = e;
	*range_len = trim(range, semi ? (size_t)(semi - e) : len);
	while (semi) {
		const char *param = semi + 1;
		size_t rest = len - (size_t)(param - e), plen;
		semi = memchr(param, ';', rest);
		plen = trim(&param, semi ? (size_t)(semi - param) : rest);
		if (plen >= 2 && (param[0] == 'q' || param[0] == 'Q') &&
		    param[1] == '=')
			q = parse_q(param + 2, plen - 2);
	}
	return q;
}

/* The q the header gives `type`: its most specific match's (the highest
 * among equally specific ones), 0 when nothing matches. */
static int q_of(const char *accept, const char *type)
{
	int best_rank = 0, best_q = 0;
	const char *e = accept;

	while (*e) {
		const char *comma = strchr(e, ',');
		size_t len = comma ? (size_t)(comma - e) : strlen(e), range_len;
		const char *range;
		int q = element_q(e, len, &range, &range_len);
		int rank = match_rank(range, range_len, type);
		if (q >= 0 && rank > 0 &&
		    (rank > best_rank || (rank == best_rank && q > best_q))) {
			best_rank = rank;
			best_q = q;
		}
		e += len + (comma != NULL);
	}
	return best_q;
}

int http_prefers_openmetrics(const char *accept)
{
	if (!accept)
		return 0;
	return q_of(accept, "application/openmetrics-text") >
	       q_of(accept, "text/plain");
}

int http_route_find(const char *path, const char *const *paths, size_t n)
{
	for (size_t i = 0; path && i < n; i++)
		if (strcmp(path, paths[i]) == 0)
			return (int)i;
	return -1;
}
