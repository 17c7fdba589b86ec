/*
 * evtool's local HTTP server (http.h) on libmicrohttpd, in the caller's
 * thread through libmicrohttpd's epoll set. The listening socket is
 * opened here, so that a failure to bind names its reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "cli.h"
#include "http.h"

/* Bytes of a connection's buffers (its request line and headers): a
 * larger request gets libmicrohttpd's 431. */
#define HTTP_CONNECTION_MEMORY (32u * 1024u)

struct http_server {
	struct MHD_Daemon *daemon;
	int listen_fd;
	unsigned port;
	http_listen listen; /* for the Host check */
	const http_route *routes;
	size_t n_routes;
	void *ctx;
	const char *token; /* NULL: none needed */
};

/* The cookie that carries the token after the first request. */
#define TOKEN_COOKIE "evtool_token"

/* A static text answer with `status`. */
static enum MHD_Result answer_text(struct MHD_Connection *c, unsigned status,
				   const char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
		strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result rc;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				"text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

const char *http_request_arg(const http_request *req, const char *key)
{
	return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND,
					   key);
}

/* Whether `given` is the token, in a time that does not tell how much of
 * it matched. */
static int token_matches(const char *token, const char *given)
{
	size_t n = strlen(token);
	unsigned diff = 0;

	if (!given || strlen(given) != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		diff |= (unsigned char)token[i] ^ (unsigned char)given[i];
	return diff == 0;
}

/* Whether the request carries the server's token; *in_query when it came
 * in the query (the answer then sets the cookie). */
static int has_token(const http_server *s, struct MHD_Connection *c,
		     int *in_query)
{
	const char *query = MHD_lookup_connection_value(
		c, MHD_GET_ARGUMENT_KIND, "token");

	/* A token in the query is the one that counts. */
	if (query)
		return *in_query = token_matches(s->token, query);
	return token_matches(s->token, MHD_lookup_connection_value(
			c, MHD_COOKIE_KIND, TOKEN_COOKIE));
}

/* Seconds of `clock` now. */
static double clock_s(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The Server-Timing header (W3C Server Timing) of an answer rendered
 * from `wall0` and `cpu0` to now: `answer` the time its handler took,
 * `cpu` the CPU time of the server's thread in it (the rest is waiting:
 * the disk, or other processes on the cores). */
static void add_server_timing(struct MHD_Response *r, double wall0,
			      double cpu0)
{
	char timing[96];

	snprintf(timing, sizeof timing, "answer;dur=%.3f, cpu;dur=%.3f",
		 (clock_s(CLOCK_MONOTONIC) - wall0) * 1e3,
		 (clock_s(CLOCK_THREAD_CPUTIME_ID) - cpu0) * 1e3);
	MHD_add_response_header(r, "Server-Timing", timing);
}

/* Renders the page of `route` and queues it (the buffer goes to
 * libmicrohttpd, which frees it once sent). */
static enum MHD_Result answer_page(http_server *s, struct MHD_Connection *c,
				   const http_route *route, const char *path,
				   int set_cookie)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT);
	unsigned status = MHD_HTTP_OK;
	http_request req = { path, http_prefers_openmetrics(accept), c,
			     &status };
	double wall0 = clock_s(CLOCK_MONOTONIC);
	double cpu0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	char *body = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&body, &len);
	const char *type = f ? route->page(s->ctx, &req, f) : NULL;
	struct MHD_Response *r;
	enum MHD_Result rc;

	if (f && fclose(f) != 0)
		type = NULL;
	if (!type || len > HTTP_MAX_BODY) {
		free(body);
		return answer_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR,
				   "the page could not be rendered (out of "
				   "memory or too large)\n");
	}
	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	add_server_timing(r, wall0, cpu0);
	if (set_cookie) {
		char cookie[256];
		snprintf(cookie, sizeof cookie, TOKEN_COOKIE "=%s; Path=/; "
			 "HttpOnly; SameSite=Strict", s->token);
		MHD_add_response_header(r, MHD_HTTP_HEADER_SET_COOKIE, cookie);
	}
	rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

static int has_body(struct MHD_Connection *c)
{
	const char *len = MHD_lookup_connection_value(
		c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);

	return (len && strcmp(len, "0") != 0) ||
	       MHD_lookup_connection_value(c, MHD_HEADER_KIND,
					   MHD_HTTP_HEADER_TRANSFER_ENCODING);
}

/* Why a request's Host is refused (http_host_allowed). */
static const char *host_refusal(const http_listen *l)
{
	if (l->loopback)
		return "this server answers to localhost only\n";
	if (l->wildcard)
		return "this server answers to an IP address or localhost "
		       "only\n";
	return "this server answers to its --listen address only\n";
}

/* Every request is answered on its first call, when its headers are in:
 * none of them has a body to wait for. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	http_server *s = cls;
	const char *paths[16];
	size_t n = s->n_routes < 16 ? s->n_routes : 16;
	int route, in_query = 0;

	(void)version;
	(void)upload;
	(void)upload_size;
	if (*con_cls) /* a body arrives after an answer: ignore it */
		return MHD_YES;
	*con_cls = s;
	if (!http_host_allowed(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							   MHD_HTTP_HEADER_HOST),
			       &s->listen))
		return answer_text(c, MHD_HTTP_FORBIDDEN,
				   host_refusal(&s->listen));
	if (s->token && !has_token(s, c, &in_query))
		return answer_text(c, MHD_HTTP_FORBIDDEN,
				   "this server needs its token: open the URL "
				   "that evtool printed\n");
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return answer_text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
				   "only GET and HEAD are served\n");
	if (has_body(c))
		return answer_text(c, MHD_HTTP_CONTENT_TOO_LARGE,
				   "requests have no body here\n");
	for (size_t i = 0; i < n; i++)
		paths[i] = s->routes[i].path;
	route = http_route_find(url, paths, n);
	if (route < 0)
		return answer_text(c, MHD_HTTP_NOT_FOUND, "not found\n");
	return answer_page(s, c, &s->routes[route], url, in_query);
}

/* The listening socket, bound to `l`, or -1 with a message. */
static int open_listener(const http_listen *l, unsigned *port)
{
	struct sockaddr_storage bound;
	socklen_t len = sizeof bound;
	int one = 1;
	int fd = socket(l->addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return cli_error(EXIT_SYSTEM, "cannot open a socket: %s",
				 strerror(errno)), -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(fd, (const struct sockaddr *)&l->addr, l->addr_len) != 0 ||
	    listen(fd, 64) != 0 ||
	    getsockname(fd, (struct sockaddr *)&bound, &len) != 0) {
		cli_error(EXIT_SYSTEM, "cannot listen on port %u: %s",
			  l->port, strerror(errno));
		close(fd);
		return -1;
	}
	*port = ntohs(bound.ss_family == AF_INET6
			      ? ((struct sockaddr_in6 *)&bound)->sin6_port
			      : ((struct sockaddr_in *)&bound)->sin_port);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return fd;
}

int http_server_start(http_server **out, const http_listen *l,
		      const http_route *routes, size_t n, void *ctx)
{
	http_server *s = calloc(1, sizeof *s);
	unsigned flags = MHD_USE_EPOLL;

	*out = NULL;
	if (!s)
		return cli_error(EXIT_SYSTEM, "out of memory");
	if ((s->listen_fd = open_listener(l, &s->port)) < 0) {
		free(s);
		return EXIT_SYSTEM;
	}
	if (l->addr.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	s->listen = *l;
	s->listen.port = s->port; /* the kernel's pick for port 0 */
	s->routes = routes;
	s->n_routes = n;
	s->ctx = ctx;
	s->daemon = MHD_start_daemon(
		flags, 0, NULL, NULL, on_request, s,
		MHD_OPTION_LISTEN_SOCKET, s->listen_fd,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)HTTP_MAX_CONNECTIONS,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT,
		(size_t)HTTP_CONNECTION_MEMORY,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_IDLE_TIMEOUT,
		MHD_OPTION_END);
	if (!s->daemon) {
		close(s->listen_fd);
		free(s);
		return cli_error(EXIT_SYSTEM, "cannot start the HTTP server");
	}
	if (!l->loopback) {
		cli_message_start();
		fprintf(stderr, "--listen %s: warning: not a loopback address: "
			"every machine that reaches it can read the pages\n",
			l->text);
	}
	*out = s;
	return EXIT_OK;
}

void http_server_require_token(http_server *s, const char *token)
{
	s->token = token;
}

int http_server_fd(const http_server *s)
{
	const union MHD_DaemonInfo *info =
		MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_EPOLL_FD);

	return info ? info->epoll_fd : -1;
}

int http_server_timeout_ms(http_server *s)
{
	MHD_UNSIGNED_LONG_LONG ms;

	if (MHD_get_timeout(s->daemon, &ms) != MHD_YES)
		return -1;
	return ms > 1000 ? 1000 : (int)ms;
}

void http_server_run(http_server *s)
{
	MHD_run(s->daemon);
}

unsigned http_server_port(const http_server *s)
{
	return s->port;
}

void http_server_stop(http_server *s)
{
	if (!s)
		return;
	MHD_stop_daemon(s->daemon);
	close(s->listen_fd);
	free(s);
}
