/*
 * evtool monitor: follows many live logs at once and serves their figures
 * as Prometheus metrics (monitor.h), or with --once prints the metrics of
 * finished logs. One thread: a poll over the sources' descriptors and the
 * HTTP server's (http.h), and a tick every TICK_MS for growing files,
 * reconnections, directory scans and the end of ended sessions' series.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "follow.h"
#include "http.h"
#include "monitor.h"

enum monitor_option {
	MONITOR_OPT_LISTEN,
	MONITOR_OPT_ONCE,
	MONITOR_OPT_KEEP_ENDED,
	MONITOR_OPT_MAX_MARKERS,
	MONITOR_OPT_STALL,
	MONITOR_OPT_MAX_SOURCES,
	MONITOR_N_OPTIONS
};
CLI_CHECK_OPTIONS(MONITOR_N_OPTIONS);

const cli_option monitor_options[MONITOR_N_OPTIONS + 1] = {
	[MONITOR_OPT_LISTEN] =
	{ "listen", 'l', "ADDR", "serve on ADDR: HOST:PORT, [IPv6]:PORT or a "
	  "port (default " HTTP_DEFAULT_LISTEN ", loopback only)" },
	[MONITOR_OPT_ONCE] =
	{ "once", 0, NULL, "print the metrics of the finished logs given and "
	  "exit (a node_exporter textfile)" },
	[MONITOR_OPT_KEEP_ENDED] =
	{ "keep-ended", 0, "TIME", "serve an ended process's final values "
	  "this long (default 5m)" },
	[MONITOR_OPT_MAX_MARKERS] =
	{ "max-markers", 0, "N", "user marker names counted one by one per "
	  "process, the others as (other); 0 turns markers off (default "
	  "100)" },
	[MONITOR_OPT_STALL] =
	{ "stall", 0, "TIME", "report a live log that sends nothing this long "
	  "(default 1m)" },
	[MONITOR_OPT_MAX_SOURCES] =
	{ "max-sources", 0, "N", "sources followed at most, those found in "
	  "directories included (default 1000)" },
};

#define TICK_MS 100
#define DEFAULT_KEEP_NS (300ull * 1000000000ull)
#define DEFAULT_STALL_NS (60ull * 1000000000ull)
#define DEFAULT_MAX_MARKERS 100u
#define DEFAULT_MAX_SOURCES 1000u
/* Lines of the status page at most. */
#define STATUS_MAX_SOURCES 1000u

/* SIGINT and SIGTERM end the monitor cleanly (follow.h); SIGPIPE is
 * ignored: a scraper that goes away is the server's to notice. */
static void catch_interrupts(void)
{
	struct sigaction sa;

	cli_catch_interrupts();
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
}

/* ---- pages ---- */

typedef struct monitor {
	mon_sources sources;
	double keep_s;
} monitor;

static const char *metrics_page(void *ctx, const http_request *req,
				FILE *body)
{
	monitor *m = ctx;

	mon_sources_find_writers(&m->sources);
	if (mon_metrics_write(body, &m->sources, m->sources.ended,
			      req->openmetrics) < 0)
		return NULL;
	return req->openmetrics ? MON_OPENMETRICS_TYPE : MON_TEXT_TYPE;
}

static void put_html(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

static const char *status_page(void *ctx, const http_request *req,
			       FILE *body)
{
	static const char *const states[] = { "waiting", "reading", "done",
					      "failed" };
	monitor *m = ctx;
	double now = mon_now();
	size_t ended = 0;

	(void)req;
	for (mon_session *s = m->sources.ended; s; s = s->next)
		ended++;
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	      "<title>evtool monitor</title></head><body>\n"
	      "<h1>evtool monitor</h1>\n<p><a href=\"/metrics\">/metrics</a>"
	      "</p>\n", body);
	fprintf(body, "<p>%zu sources, %zu ended processes kept</p>\n"
		"<table><tr><th>source</th><th>state</th><th>sessions</th>"
		"<th>events</th><th>last input (s ago)</th><th>errors</th>"
		"</tr>\n", m->sources.n, ended);
	for (size_t i = 0; i < m->sources.n && i < STATUS_MAX_SOURCES; i++) {
		const mon_source *src = m->sources.items[i];
		fputs("<tr><td>", body);
		put_html(body, src->label);
		fprintf(body, "</td><td>%s%s</td><td>%" PRIu64 "</td><td>%"
			PRIu64 "</td><td>%.1f</td><td>%" PRIu64 "</td></tr>\n",
			states[src->state], src->stalled ? " (stalled)" : "",
			src->sessions, src->live ? src->live->events : 0,
			now - src->last_input_s, src->errors);
	}
	fputs("</table></body></html>\n", body);
	return "text/html; charset=utf-8";
}

static const http_route routes[] = {
	{ "/metrics", metrics_page },
	{ "/", status_page },
};

/* ---- the loop ---- */

static void poll_once(monitor *m, http_server *server, struct pollfd *fds,
		      size_t *owner)
{
	mon_sources *ms = &m->sources;
	size_t n = 1;
	int timeout = http_server_timeout_ms(server);

	fds[0].fd = http_server_fd(server);
	fds[0].events = POLLIN;
	for (size_t i = 0; i < ms->n; i++) {
		int fd = mon_source_poll_fd(ms, i);
		if (fd < 0)
			continue;
		fds[n].fd = fd;
		fds[n].events = POLLIN;
		owner[n++] = i;
	}
	if (timeout < 0 || timeout > TICK_MS)
		timeout = TICK_MS;
	if (poll(fds, n, timeout) < 0)
		return; /* EINTR: an interrupt, checked by the caller */
	/* The sources in reverse: a source ending may not move another. */
	for (size_t k = n; k-- > 1;)
		if (fds[k].revents)
			mon_source_pump(ms, owner[k], fds[k].revents);
	http_server_run(server);
}

/* "serving http://127.0.0.1:9464/metrics": where to point a scraper. */
static void announce(const http_listen *listen, unsigned port)
{
	char host[INET6_ADDRSTRLEN];
	int v6 = listen->addr.ss_family == AF_INET6;
	const void *a = v6
		? (const void *)&((const struct sockaddr_in6 *)&listen->addr)->sin6_addr
		: (const void *)&((const struct sockaddr_in *)&listen->addr)->sin_addr;

	if (!inet_ntop(listen->addr.ss_family, a, host, sizeof host))
		strcpy(host, "?");
	cli_message_start();
	fprintf(stderr, "serving http://%s%s%s:%u/metrics\n", v6 ? "[" : "",
		host, v6 ? "]" : "", port);
}

static int serve(monitor *m, const http_listen *listen)
{
	http_server *server;
	struct pollfd *fds = NULL;
	size_t *owner = NULL;
	double next_tick = 0;
	int rc = http_server_start(&server, listen, routes,
				   sizeof routes / sizeof routes[0], m);

	if (rc != EXIT_OK)
		return rc;
	announce(listen, http_server_port(server));
	if (!(fds = malloc((m->sources.max_sources + 1) * sizeof *fds)) ||
	    !(owner = malloc((m->sources.max_sources + 1) * sizeof *owner)))
		rc = cli_error(EXIT_SYSTEM, "out of memory");
	while (rc == EXIT_OK && !cli_interrupted) {
		double now = mon_now();
		if (now >= next_tick) {
			mon_sources_tick(&m->sources, m->keep_s);
			next_tick = now + TICK_MS / 1000.0;
		}
		poll_once(m, server, fds, owner);
	}
	free(fds);
	free(owner);
	http_server_stop(server);
	return rc;
}

/* ---- --once ---- */

/* Reads `path` to its end into sessions (newest first at *ended). */
static int read_once(const char *path, const mon_limits *limits,
		     mon_session **ended)
{
	ev_reader *r;
	mon_session *s = NULL;
	ev_event ev;
	uint64_t at = 0;
	int rc = cli_open_input(path, 0, &r);

	if (rc != EXIT_OK)
		return rc;
	while ((rc = ev_reader_read_header(r)) == EV_OK) {
		if (mon_session_new(&s, path, ev_reader_header(r), limits) < 0) {
			ev_reader_free(r);
			return cli_error(EXIT_SYSTEM, "out of memory");
		}
		s->bytes = ev_reader_offset(r) - at;
		at = ev_reader_offset(r);
		s->next = *ended;
		*ended = s;
		while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
			rc = mon_session_add(s, &ev, ev_reader_offset(r) - at);
			at = ev_reader_offset(r);
			if (rc < 0)
				break;
		}
		if (mon_session_end(s) < 0 && rc >= 0)
			rc = ev_stats_diag(s->st)->status;
		if (rc != EV_END || (rc = ev_reader_next_session(r)) != EV_OK)
			break;
	}
	if (rc == EV_END) {
		rc = EXIT_OK;
	} else if (rc == EV_ETRUNCATED && s) {
		cli_warn_at(cli_input_name(path), (int64_t)ev_reader_offset(r),
			    "the log ends without its data end (truncated); "
			    "its metrics are of its complete events");
		rc = EXIT_DROPPED;
	} else if (s && ev_stats_diag(s->st)->status < 0) {
		rc = cli_read_failure(ev_stats_diag(s->st), path);
	} else {
		rc = cli_reader_error(r);
	}
	ev_reader_free(r);
	return rc;
}

static int run_once(const cli_args *args, const mon_limits *limits)
{
	mon_session *ended = NULL, *next;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int rc = EXIT_OK, worst = EXIT_OK;

	for (int i = 0; i < args->n_positional && rc != EXIT_INVALID &&
			rc != EXIT_SYSTEM; i++) {
		rc = read_once(args->positional[i], limits, &ended);
		if (rc > worst)
			worst = rc;
	}
	if (worst == EXIT_OK || worst == EXIT_DROPPED) {
		if (!(f = open_memstream(&text, &len)) ||
		    mon_metrics_write(f, NULL, ended, 0) < 0 || fclose(f) != 0)
			worst = cli_error(EXIT_SYSTEM, "out of memory");
		else if (fwrite(text, 1, len, stdout) != len ||
			 fflush(stdout) != 0)
			worst = cli_error(EXIT_SYSTEM, "cannot write standard "
					  "output: %s", strerror(errno));
	}
	free(text);
	for (mon_session *s = ended; s; s = next) {
		next = s->next;
		mon_session_free(s);
	}
	return worst;
}

/* ---- options ---- */

static int parse_options(const cli_args *args, monitor *m,
			 http_listen *listen)
{
	const char *addr = cli_value(args, MONITOR_OPT_LISTEN);
	uint64_t keep = DEFAULT_KEEP_NS, stall = DEFAULT_STALL_NS;
	uint64_t markers = DEFAULT_MAX_MARKERS, sources = DEFAULT_MAX_SOURCES;
	const char *why;
	int rc;

	if ((rc = cli_duration(args, MONITOR_OPT_KEEP_ENDED, &keep)) ||
	    (rc = cli_duration(args, MONITOR_OPT_STALL, &stall)) ||
	    (rc = cli_count(args, MONITOR_OPT_MAX_MARKERS, 0, 100000,
			    &markers)) ||
	    (rc = cli_count(args, MONITOR_OPT_MAX_SOURCES, 1, 100000,
			    &sources)))
		return rc;
	if (http_listen_parse(addr ? addr : HTTP_DEFAULT_LISTEN, listen,
			      &why) != 0)
		return cli_usage_error(args->cmd, "--listen %s: %s", addr, why);
	if (cli_flag(args, MONITOR_OPT_ONCE) && addr)
		return cli_usage_error(args->cmd, "--once prints the metrics: "
				       "it serves nothing (no --listen)");
	m->keep_s = (double)keep / 1e9;
	m->sources.stall_s = (double)stall / 1e9;
	m->sources.limits.max_markers = (unsigned)markers;
	m->sources.max_sources = (size_t)sources;
	return EXIT_OK;
}

int cmd_monitor(const cli_args *args)
{
	monitor m;
	http_listen listen;
	int rc;

	memset(&m, 0, sizeof m);
	if ((rc = parse_options(args, &m, &listen)) != EXIT_OK)
		return rc;
	if (cli_flag(args, MONITOR_OPT_ONCE))
		return run_once(args, &m.sources.limits);
	for (int i = 0; i < args->n_positional && rc == EXIT_OK; i++)
		rc = mon_sources_add(&m.sources, args->positional[i]);
	catch_interrupts();
	if (rc == EXIT_OK)
		rc = serve(&m, &listen);
	mon_sources_free(&m.sources);
	return rc;
}
