/*
 * evtool's local HTTP server, on libmicrohttpd (Debian's
 * libmicrohttpd-dev), for the commands that serve pages (evtool monitor):
 * one place for what every such server must do. It listens where
 * --listen says (loopback by default, with a warning otherwise), answers
 * GET and HEAD of its own paths only (404 for others, 405 for other
 * methods, 403 for a Host that does not name it, 413 for a request with a
 * body), never sends more than HTTP_MAX_BODY, and bounds its connections,
 * their memory and their time.
 *
 * It runs in the caller's thread: the caller polls http_server_fd()
 * beside its own descriptors and calls http_server_run() when it is
 * readable or http_server_timeout_ms() has passed. Pages are rendered
 * when asked, into a buffer the server sends and frees; a slow client
 * costs that buffer, never the caller's time.
 */
#ifndef EVTOOL_CMD_HTTP_H
#define EVTOOL_CMD_HTTP_H

#include <stddef.h>
#include <stdio.h>

#include "http_request.h"

/* The largest page served; a larger one is a 500. */
#define HTTP_MAX_BODY (32u << 20)
/* Connections served at once; more wait in the listen queue. */
#define HTTP_MAX_CONNECTIONS 8u
/* Seconds an idle connection is kept. */
#define HTTP_IDLE_TIMEOUT 10u

/* What a page handler is asked. */
typedef struct http_request {
	const char *path;
	int openmetrics; /* the Accept header prefers OpenMetrics */
	void *conn;      /* the connection, for http_request_arg */
	unsigned *status; /* 200; a handler may set a 4xx for its message */
} http_request;

/* The value of query parameter `key` of `req` (decoded), or NULL. */
const char *http_request_arg(const http_request *req, const char *key);

/* A page handler writes the page to `body` (a memory stream; its status
 * is 200 unless it sets *req->status) and returns its content type, or
 * NULL when it could not render it (500). */
typedef const char *(*http_page_fn)(void *ctx, const http_request *req,
				    FILE *body);

typedef struct http_route {
	const char *path; /* exact: "/metrics" */
	http_page_fn page;
} http_route;

typedef struct http_server http_server;

/* Starts listening on `l` and serving `routes` (`n`, with `ctx`). On a
 * non-loopback address it warns that the pages are reachable from other
 * machines. Returns EXIT_OK, or an exit code with a message. */
int http_server_start(http_server **out, const http_listen *l,
		      const http_route *routes, size_t n, void *ctx);

/* Makes every request need `token` (which must outlive the server), in
 * the query (?token=..., answered with a cookie that carries it after)
 * or in that cookie: 403 without it. */
void http_server_require_token(http_server *s, const char *token);

/* The descriptor to poll for reading (libmicrohttpd's epoll set). */
int http_server_fd(const http_server *s);

/* Milliseconds until http_server_run is due even without input (-1:
 * none). */
int http_server_timeout_ms(http_server *s);

/* Accepts, reads and answers what is ready; never blocks. */
void http_server_run(http_server *s);

/* The port listened on (the kernel's pick for port 0). */
unsigned http_server_port(const http_server *s);

/* Closes every connection and the listening socket; NULL is fine. */
void http_server_stop(http_server *s);

#endif
