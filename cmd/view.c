/*
 * evtool view: serves the timeline of a log to a browser (view.h). The
 * log is indexed in one streaming pass (lib/view, include/evtool/view.h)
 * while the server already answers, a slice of events at a time, so the
 * page shows the run so far and refines; a log that grows (a file still
 * being written) is followed. One thread: a poll over the server.
 *
 * The index goes back to a time's exact events by offset, so the log
 * must be a plain file it can read at any offset: a gzip log or standard
 * input is first inflated or copied into an unnamed temporary file
 * ($TMPDIR), never beside the user's log.
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

#include <zlib.h>

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

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void catch_interrupts(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/* ---- the input ---- */

/* Copies what gzread gives of `fd` (gzip inflated, anything else as it
 * is) into an unnamed temporary file; its descriptor, or -1. */
static int spool(int fd, const char *name)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	char buf[1 << 16];
	int out, n;
	gzFile gz;

	snprintf(path, sizeof path, "%s/evtool-view-XXXXXX",
		 dir && *dir ? dir : "/tmp");
	if ((out = mkstemp(path)) < 0)
		return cli_error(EXIT_SYSTEM, "cannot make a temporary file in "
				 "%s: %s", dir && *dir ? dir : "/tmp",
				 strerror(errno)), -1;
	unlink(path);
	if (!(gz = gzdopen(dup(fd), "rb"))) {
		close(out);
		return cli_error(EXIT_SYSTEM, "out of memory"), -1;
	}
	while ((n = gzread(gz, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -2;
			break;
		}
	gzclose(gz);
	if (n < 0) {
		close(out);
		return cli_error(EXIT_SYSTEM, "%s: cannot copy it to a temporary "
				 "file (%s)", name, n == -2 ? strerror(errno) :
				 "damaged gzip input"), -1;
	}
	lseek(out, 0, SEEK_SET);
	return out;
}

/* The plain log of `path` ("-": standard input), read-only. */
static int open_log(const char *path, view_state *v)
{
	int fd = strcmp(path, "-") == 0 ? dup(STDIN_FILENO)
					: open(path, O_RDONLY | O_CLOEXEC);
	unsigned char magic[2] = { 0, 0 };
	struct stat st;

	if (fd < 0)
		return cli_error(EXIT_SYSTEM, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    pread(fd, magic, 2, 0) >= 0 && !(magic[0] == 0x1f && magic[1] == 0x8b)) {
		v->fd = fd;
		v->live = 1;
		return EXIT_OK;
	}
	v->fd = spool(fd, cli_input_name(path));
	close(fd);
	return v->fd < 0 ? EXIT_SYSTEM : EXIT_OK;
}

/* ---- indexing ---- */

/* Indexes up to INDEX_SLICE more events. EXIT_OK while more may come. */
static int index_some(view_state *v)
{
	ev_event ev;
	int rc = EV_OK;

	if (v->complete)
		return EXIT_OK;
	for (unsigned n = 0; n < INDEX_SLICE; n++) {
		if ((rc = ev_reader_next(v->reader, &ev)) != EV_OK)
			break;
		if (ev_view_index_add(v->index, &ev) < 0)
			return cli_read_failure(ev_view_index_diag(v->index),
						v->name);
	}
	v->waiting = rc == EV_ETRUNCATED;
	/* A spooled copy does not grow: its end is the log's. */
	if (rc == EV_END || (v->waiting && !v->live))
		v->complete = 1;
	else if (rc < 0 && rc != EV_ETRUNCATED)
		return cli_reader_error(v->reader);
	return EXIT_OK;
}

static int start_index(view_state *v)
{
	int rc;

	if (ev_reader_open_fd(&v->reader, v->fd, v->name, EV_READER_RAW) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	if ((rc = ev_reader_read_header(v->reader)) < 0)
		return cli_reader_error(v->reader);
	if (ev_view_index_new(&v->index, 0) < 0 ||
	    ev_show_new(&v->show, ev_reader_header(v->reader), EV_SHOW_TEXT,
			0) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	return ev_view_index_begin(v->index, v->reader) < 0
		       ? cli_reader_error(v->reader) : EXIT_OK;
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
	while (rc == EXIT_OK && !interrupted) {
		struct pollfd pfd = { http_server_fd(server), POLLIN, 0 };
		int busy = !v->complete && !v->waiting;
		int timeout = busy ? 0 : http_server_timeout_ms(server);

		if (!busy && (timeout < 0 || timeout > TICK_MS))
			timeout = TICK_MS;
		int ready = poll(&pfd, 1, timeout);

		if (ready < 0 && errno != EINTR)
			rc = cli_error(EXIT_SYSTEM, "poll: %s", strerror(errno));
		http_server_run(server);
		if (ready == 0)
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
	if (http_listen_parse(addr ? addr : "127.0.0.1:0", &listen, &why) != 0)
		return cli_usage_error(args->cmd, "--listen %s: %s", addr, why);
	if (args->n_positional > 1)
		return cli_usage_error(args->cmd, "one log at a time");
	v.name = cli_input_name(path);
	if ((rc = open_log(path, &v)) == EXIT_OK &&
	    (rc = start_index(&v)) == EXIT_OK) {
		catch_interrupts();
		rc = serve(&v, &listen, cli_flag(args, VIEW_OPT_OPEN));
	}
	ev_show_free(v.show);
	ev_view_index_free(v.index);
	ev_reader_free(v.reader);
	if (v.fd > 0)
		close(v.fd);
	return rc;
}
