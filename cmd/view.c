/*
 * evtool view: serves the timeline of a log to a browser (view.h). The
 * log is indexed in one streaming pass (lib/view, include/evtool/view.h)
 * while the server already answers, a slice of events at a time, so the
 * page shows the run so far and refines; a log that grows (a file still
 * being written) is followed. One thread: a poll over the server.
 *
 * The index goes back to a time's exact events by offset, so the log
 * must be a plain file it can read at any offset (view_input.c).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "view.h"

enum view_option {
	VIEW_OPT_LISTEN,
	VIEW_OPT_OPEN,
	VIEW_N_OPTIONS
};
CLI_CHECK_OPTIONS(VIEW_N_OPTIONS);

const cli_option view_options[VIEW_N_OPTIONS + 1] = {
	[VIEW_OPT_LISTEN] =
	{ "listen", 'l', "ADDR", "serve on ADDR: HOST:PORT, [IPv6]:PORT or a "
	  "port (default 127.0.0.1 and a free port, loopback only)" },
	[VIEW_OPT_OPEN] =
	{ "open", 0, NULL, "open the page in the desktop's browser "
	  "(xdg-open)" },
};

/* Events indexed between two turns of the server. */
#define INDEX_SLICE 65536u
/* Milliseconds between looks at a log that may still grow. */
#define TICK_MS 200

/* ---- indexing ---- */

/* Opens the reader and the index's start once the log's header is there
 * (a FIFO's may come later): EXIT_OK, v->waiting while it has not. */
static int begin(view_state *v)
{
	int rc;

	if (!v->reader) {
		if (v->src_fd >= 0 && (!v->src_known || v->src_gzip))
			return v->waiting = 1, EXIT_OK;
		if (ev_reader_open_fd(&v->reader, v->fd, v->name,
				      EV_READER_RAW) < 0)
			return cli_error(EXIT_SYSTEM, "out of memory");
	}
	if ((rc = ev_view_index_begin(v->index, v->reader)) == EV_ETRUNCATED) {
		v->waiting = 1;
		if (!v->live)
			return cli_reader_error(v->reader);
		return EXIT_OK;
	}
	if (rc < 0)
		return cli_reader_error(v->reader);
	if (ev_show_new(&v->show, ev_reader_header(v->reader), EV_SHOW_TEXT,
			0) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	return EXIT_OK;
}

/* Indexes up to INDEX_SLICE more events. EXIT_OK while more may come. */
static int index_some(view_state *v)
{
	ev_event ev;
	int rc = EV_OK;

	if (v->complete)
		return EXIT_OK;
	if (!v->show && ((rc = begin(v)) != EXIT_OK || !v->show))
		return rc;
	for (unsigned n = 0; n < INDEX_SLICE; n++) {
		if ((rc = ev_reader_next(v->reader, &ev)) != EV_OK)
			break;
		if (ev_view_index_add(v->index, &ev) < 0)
			return cli_read_failure(ev_view_index_diag(v->index),
						v->name);
		/* Its failures (a bad wall clock, too many capsets) leave the
		 * list usable: the page names fewer processes. */
		(void)ev_process_list_add(v->procs, &ev);
	}
	v->waiting = rc == EV_ETRUNCATED;
	/* A log that cannot grow any more ends here. */
	if (rc == EV_END || (v->waiting && !v->live)) {
		v->complete = 1;
		if (ev_process_list_finish(v->procs) < 0)
			return cli_error(EXIT_SYSTEM, "out of memory");
	}
	else if (rc < 0 && rc != EV_ETRUNCATED)
		return cli_reader_error(v->reader);
	return EXIT_OK;
}

/* ---- serving ---- */

/* 128 random bits as 32 hex digits. */
static int make_token(char out[33])
{
	unsigned char bytes[16];

	if (getrandom(bytes, sizeof bytes, 0) != (ssize_t)sizeof bytes)
		return cli_error(EXIT_SYSTEM, "no random bytes for the token: "
				 "%s", strerror(errno));
	for (size_t i = 0; i < sizeof bytes; i++)
		snprintf(out + 2 * i, 3, "%02x", bytes[i]);
	return EXIT_OK;
}

/* The page's URL on standard output; --open hands it to xdg-open. */
static void announce(const http_listen *l, unsigned port, const char *token,
		     int open_it)
{
	char host[INET6_ADDRSTRLEN], url[256];
	int v6 = l->addr.ss_family == AF_INET6;
	const void *a = v6
		? (const void *)&((const struct sockaddr_in6 *)&l->addr)->sin6_addr
		: (const void *)&((const struct sockaddr_in *)&l->addr)->sin_addr;

	if (!inet_ntop(l->addr.ss_family, a, host, sizeof host))
		strcpy(host, "?");
	snprintf(url, sizeof url, "http://%s%s%s:%u/?token=%s",
		 v6 ? "[" : "", host, v6 ? "]" : "", port, token);
	printf("%s\n", url);
	fflush(stdout);
	if (open_it && fork() == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		execlp("xdg-open", "xdg-open", url, (char *)NULL);
		_exit(127);
	}
}

static int serve(view_state *v, const http_listen *l, int open_it)
{
	http_server *server;
	char token[33];
	int rc;

	if ((rc = make_token(token)) != EXIT_OK ||
	    (rc = http_server_start(&server, l, view_routes, view_n_routes,
				    v)) != EXIT_OK)
		return rc;
	http_server_require_token(server, token);
	announce(l, http_server_port(server), token, open_it);
	signal(SIGCHLD, SIG_IGN);
	while (rc == EXIT_OK && !cli_interrupted) {
		struct pollfd pfd[2] = { { http_server_fd(server), POLLIN, 0 },
					 { v->src_fd, POLLIN, 0 } };
		int busy = !v->complete && !v->waiting;
		int timeout = busy ? 0 : http_server_timeout_ms(server);
		int ready;

		if (!busy && (timeout < 0 || timeout > TICK_MS))
			timeout = TICK_MS;
		ready = poll(pfd, v->src_fd >= 0 ? 2 : 1, timeout);
		if (ready < 0 && errno != EINTR)
			rc = cli_error(EXIT_SYSTEM, "poll: %s", strerror(errno));
		http_server_run(server);
		if (rc == EXIT_OK && v->src_fd >= 0 && pfd[1].revents)
			rc = view_input_pump(v);
		if (ready == 0 || pfd[1].revents)
			v->waiting = 0; /* look again at a log that grows */
		if (rc == EXIT_OK && !v->waiting)
			rc = index_some(v);
	}
	http_server_stop(server);
	return rc;
}

/* ---- options ---- */

int cmd_view(const cli_args *args)
{
	const char *addr = cli_value(args, VIEW_OPT_LISTEN);
	const char *path = args->positional[0];
	view_state v;
	http_listen listen;
	const char *why;
	int rc;

	memset(&v, 0, sizeof v);
	v.fd = v.src_fd = v.write_fd = -1;
	if (http_listen_parse(addr ? addr : "127.0.0.1:0", &listen, &why) != 0)
		return cli_usage_error(args->cmd, "--listen %s: %s", addr, why);
	v.name = args->n_positional > 1 ? "merged logs" : cli_input_name(path);
	if (ev_view_index_new(&v.index, 0) < 0 ||
	    ev_process_list_new(&v.procs) < 0) {
		ev_view_index_free(v.index);
		return cli_error(EXIT_SYSTEM, "out of memory");
	}
	rc = args->n_positional > 1
		     ? view_input_merge(&v, args->positional, args->n_positional)
		     : view_input_open(&v, path);
	if (rc == EXIT_OK &&
	    (rc = index_some(&v)) == EXIT_OK) {
		cli_catch_interrupts();
		signal(SIGPIPE, SIG_IGN);
		rc = serve(&v, &listen, cli_flag(args, VIEW_OPT_OPEN));
	}
	ev_show_free(v.show);
	ev_view_index_free(v.index);
	ev_process_list_free(v.procs);
	ev_reader_free(v.reader);
	view_input_close(&v);
	return rc;
}
