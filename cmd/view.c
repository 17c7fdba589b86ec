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
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "view.h"

enum view_option {
	VIEW_OPT_LISTEN,
	VIEW_OPT_OPEN,
	VIEW_OPT_CACHE,
	VIEW_OPT_THREADS,
	VIEW_N_OPTIONS
};
CLI_CHECK_OPTIONS(VIEW_N_OPTIONS);

const cli_option view_options[VIEW_N_OPTIONS + 1] = {
	[VIEW_OPT_LISTEN] =
	{ "listen", 'l', "ADDR", "serve on ADDR: HOST:PORT, [IPv6]:PORT or a "
	  "port (default 127.0.0.1 and a free port, loopback only)" },
	[VIEW_OPT_OPEN] =
	{ "open", 0, NULL, "open the page in the desktop's browser "
	  "($BROWSER, else xdg-open)" },
	[VIEW_OPT_CACHE] =
	{ "cache", 0, "PATH", "keep the log's index in a file (in PATH when it "
	  "is a folder, else PATH) and use it while the log is unchanged" },
	[VIEW_OPT_THREADS] =
	{ "threads", 'T', "N", "read the preview with N threads (default, or "
	  "0: the cores available; 1: one)" },
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
				      EV_READER_RAW, NULL) < 0)
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
			0, NULL) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	return EXIT_OK;
}

/* A log of several sessions, merged into one (view_input_sessions), is
 * indexed anew. */
static int restart(view_state *v)
{
	ev_view_index_free(v->index);
	ev_process_list_free(v->procs);
	ev_show_free(v->show);
	ev_reader_free(v->reader);
	v->index = NULL;
	v->procs = NULL;
	v->show = NULL;
	v->reader = NULL;
	if (ev_view_index_new(&v->index, 0, NULL) < 0 ||
	    ev_process_list_new(&v->procs, NULL) < 0)
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
	if (rc == EV_END && !v->sessions) {
		int merged, err = view_input_sessions(v, &merged);
		if (err != EXIT_OK || merged)
			return err != EXIT_OK ? err : restart(v);
	}
	/* A log that cannot grow any more ends here. */
	if (rc == EV_END || (v->waiting && !v->live)) {
		v->complete = 1;
		ev_view_index_finish(v->index);
		ev_view_preview_free(v->preview);
		v->preview = NULL;
		if (ev_process_list_finish(v->procs) < 0)
			return cli_error(EXIT_SYSTEM, "out of memory");
		view_cache_save(v);
	}
	else if (rc < 0 && rc != EV_ETRUNCATED)
		return cli_reader_error(v->reader);
	return EXIT_OK;
}

/* The whole run's picture, coarse, before the index has read far: for a
 * plain regular file (the preview itself declines a log still being
 * written, without its data end, or of several sessions). */
static int preview(view_state *v, unsigned threads)
{
	ev_reader *r;
	int rc;

	if (ev_reader_open_fd(&r, v->fd, v->name, EV_READER_RAW, NULL) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	rc = ev_view_preview_new(&v->preview, r, threads);
	ev_reader_free(r);
	return rc == EV_ENOMEM ? cli_error(EXIT_SYSTEM, "out of memory")
			       : EXIT_OK;
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

/* Runs one $BROWSER command on `url`, as xdg-open does: split at
 * blanks, the URL put for its %s or else added as its last argument;
 * waits for it. Whether it exited 0. */
static int run_browser(char *command, const char *url)
{
	char *argv[64], *save = NULL, *word;
	char words[64][512];
	int argc = 0, has_url = 0, status;
	pid_t pid;

	for (word = strtok_r(command, " \t", &save); word && argc < 62;
	     word = strtok_r(NULL, " \t", &save)) {
		char *at = strstr(word, "%s");
		if (at) {
			snprintf(words[argc], sizeof words[argc], "%.*s%s%s",
				 (int)(at - word), word, url, at + 2);
			has_url = 1;
		} else {
			snprintf(words[argc], sizeof words[argc], "%s", word);
		}
		argv[argc] = words[argc];
		argc++;
	}
	if (!argc)
		return 0;
	if (!has_url)
		argv[argc++] = (char *)url;
	argv[argc] = NULL;
	if ((pid = fork()) == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Whether `name` is an executable in $PATH. */
static int in_path(const char *name)
{
	const char *path = getenv("PATH");
	char dir[4096];

	for (const char *p = path; p && *p;) {
		size_t len = strcspn(p, ":");
		snprintf(dir, sizeof dir, "%.*s/%s", (int)len, p, name);
		if (len && access(dir, X_OK) == 0)
			return 1;
		p += len + (p[len] == ':');
	}
	return 0;
}

/* Opens `url` in the desktop's browser, by xdg-open's rules: each
 * command of $BROWSER (colon-separated) in turn until one exits 0;
 * without $BROWSER, xdg-open. In a child, so that the server never waits
 * for a browser; its output goes to /dev/null. */
static void open_browser(const char *url)
{
	const char *browser = getenv("BROWSER");

	if ((!browser || !*browser) && !in_path("xdg-open")) {
		cli_message_start();
		fputs("--open: warning: no $BROWSER and no xdg-open: open "
		      "the URL yourself\n", stderr);
		return;
	}
	if (fork() != 0)
		return;
	int null = open("/dev/null", O_WRONLY);
	dup2(null, STDOUT_FILENO);
	dup2(null, STDERR_FILENO);
	signal(SIGCHLD, SIG_DFL);
	if (!browser || !*browser) {
		execlp("xdg-open", "xdg-open", url, (char *)NULL);
		_exit(127);
	}
	char *list = strdup(browser), *save = NULL;
	for (char *cmd = list ? strtok_r(list, ":", &save) : NULL; cmd;
	     cmd = strtok_r(NULL, ":", &save))
		if (run_browser(cmd, url))
			_exit(0);
	_exit(1);
}

/* The page's URL on standard output; --open hands it to the browser. */
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
	if (open_it)
		open_browser(url);
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
	unsigned threads;
	int rc;

	memset(&v, 0, sizeof v);
	v.fd = v.src_fd = v.write_fd = -1;
	if (http_listen_parse(addr ? addr : "127.0.0.1:0", &listen, &why) != 0)
		return cli_usage_error(args->cmd, "--listen %s: %s", addr, why);
	if ((rc = cli_threads(args, VIEW_OPT_THREADS, &threads)) != EXIT_OK)
		return rc;
	v.name = args->n_positional > 1 ? "merged logs" : cli_input_name(path);
	if (ev_view_index_new(&v.index, 0, NULL) < 0 ||
	    ev_process_list_new(&v.procs, NULL) < 0) {
		ev_view_index_free(v.index);
		return cli_error(EXIT_SYSTEM, "out of memory");
	}
	rc = args->n_positional > 1
		     ? view_input_merge(&v, args->positional, args->n_positional)
		     : view_input_open(&v, path);
	if (rc == EXIT_OK && cli_value(args, VIEW_OPT_CACHE))
		rc = args->n_positional > 1
			     ? cli_usage_error(args->cmd, "--cache: one log only")
			     : view_cache_open(&v, cli_value(args, VIEW_OPT_CACHE),
					       path);
	if (rc == EXIT_OK && !v.complete && args->n_positional == 1 &&
	    strcmp(path, "-") != 0 && v.live && v.src_fd < 0)
		rc = preview(&v, threads);
	if (rc == EXIT_OK &&
	    (rc = index_some(&v)) == EXIT_OK) {
		cli_catch_interrupts();
		signal(SIGPIPE, SIG_IGN);
		rc = serve(&v, &listen, cli_flag(args, VIEW_OPT_OPEN));
	}
	ev_show_free(v.show);
	ev_view_index_free(v.index);
	ev_view_preview_free(v.preview);
	ev_process_list_free(v.procs);
	ev_reader_free(v.reader);
	view_input_close(&v);
	free(v.cache_path);
	return rc;
}
