/*
 * What evtool's local HTTP server (http.h) decides from text: the listen
 * address of --listen, whether a request's Host header names this server,
 * which format its Accept header prefers. No I/O and no allocation, so
 * that the fuzz target fuzz_http (fuzz/) can feed it any bytes.
 */
#ifndef EVTOOL_CMD_HTTP_REQUEST_H
#define EVTOOL_CMD_HTTP_REQUEST_H

#include <stddef.h>
#include <sys/socket.h>

/* The default of --listen: loopback only, the port of the Prometheus
 * exporters' registry range that evtool takes. */
#define HTTP_DEFAULT_LISTEN "127.0.0.1:9464"

/* A parsed --listen value. */
typedef struct http_listen {
	struct sockaddr_storage addr; /* AF_INET or AF_INET6, with the port */
	socklen_t addr_len;
	unsigned port;                /* 0: the kernel picks one */
	int loopback;                 /* 127.0.0.0/8 or ::1 */
	int wildcard;                 /* 0.0.0.0 or :: (every interface) */
	const char *text;             /* as given, for messages (borrowed) */
} http_listen;

/* Parses "HOST:PORT" (HOST an IPv4 address, "[IPv6]" or "localhost"), or
 * a bare PORT (loopback). Returns 0, or -1 with *why saying what is wrong
 * (static text). */
int http_listen_parse(const char *text, http_listen *out, const char **why);

/* Whether a request with Host header `host` (NULL: none, as HTTP/1.0
 * allows) may be served by a server listening on `l`. A loopback server
 * answers only to loopback names (localhost, 127.x.x.x, [::1], with any
 * port): a web page cannot reach it through a name of its own (DNS
 * rebinding). A server bound to another address answers only to that
 * address as an IP literal (IPv4, or [IPv6]); one bound to every interface
 * (0.0.0.0, ::) to any IP literal or localhost. There, a port given must
 * be l->port. */
int http_host_allowed(const char *host, const http_listen *l);

/* Whether the Accept header `accept` (NULL: none) prefers the OpenMetrics
 * text format (application/openmetrics-text) to Prometheus' text format
 * (text/plain): by their q values, wildcards included (RFC 9110 section
 * 12.5.1). Malformed parts are ignored. */
int http_prefers_openmetrics(const char *accept);

/* The index of `path` in `paths` (`n` exact paths, such as "/metrics"),
 * or -1. A path is served only as it is written: no decoding, no
 * trailing slash, no "..". */
int http_route_find(const char *path, const char *const *paths, size_t n);

#endif
