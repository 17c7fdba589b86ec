/*
 * Following a log while it is written: the sources (follow.h) and the
 * loop that waits for complete events.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "follow.h"

/* How often a regular file is looked at for more data, and a socket that
 * is not there yet for its program. */
#define FOLLOW_POLL_MS 100

typedef struct follow_input {
	const char *name; /* in messages (cli_input_name) */
	int fd;
	int owned;   /* opened here, closed at the end */
	int regular; /* a regular file grows; anything else is a stream */
} follow_input;

static void sleep_ms(long ms)
{
	struct timespec pause = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&pause, NULL);
}

/* Connects to the Unix socket at `path`, waiting for its program to
 * listen (eventlog-socket creates the socket when the RTS starts). */
static int connect_unix(const char *path, follow_input *fi)
{
	struct sockaddr_un addr;

	memset(&addr, 0, sizeof addr);
	addr.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof addr.sun_path)
		return cli_error(EXIT_USAGE, "%s: socket path longer than %zu "
				 "bytes", fi->name, sizeof addr.sun_path - 1);
	memcpy(addr.sun_path, path, strlen(path));
	for (;;) {
		fi->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fi->fd < 0)
			return cli_error(EXIT_SYSTEM, "%s: %s", fi->name,
					 strerror(errno));
		if (connect(fi->fd, (struct sockaddr *)&addr, sizeof addr) == 0)
			return EXIT_OK;
		close(fi->fd);
		fi->fd = -1;
		if (errno != ENOENT && errno != ECONNREFUSED && errno != EINTR)
			return cli_error(EXIT_SYSTEM, "%s: cannot connect: %s",
					 fi->name, strerror(errno));
		if (cli_interrupted)
			return EXIT_OK;
		sleep_ms(FOLLOW_POLL_MS);
	}
}

/* A FIFO's open blocks until a writer opens it. Streams are then read
 * without blocking, so that an interrupt is seen between reads. */
static int open_input(const char *in, follow_input *fi)
{
	size_t prefix = strlen(FOLLOW_UNIX_PREFIX);
	struct stat st;
	int rc;

	fi->owned = strcmp(in, "-") != 0;
	fi->fd = fi->owned ? -1 : STDIN_FILENO;
	if (strncmp(in, FOLLOW_UNIX_PREFIX, prefix) == 0) {
		if ((rc = connect_unix(in + prefix, fi)) != EXIT_OK ||
		    cli_interrupted)
			return rc;
	}
	while (fi->owned && fi->fd < 0 &&
	       (fi->fd = open(in, O_RDONLY | O_CLOEXEC)) < 0)
		if (errno != EINTR || cli_interrupted)
			return cli_interrupted ? EXIT_OK
					   : cli_error(EXIT_SYSTEM, "%s: cannot "
						       "open: %s", in,
						       strerror(errno));
	if (fstat(fi->fd, &st) != 0)
		return cli_error(EXIT_SYSTEM, "%s: %s", fi->name,
				 strerror(errno));
	fi->regular = S_ISREG(st.st_mode);
	if (!fi->regular)
		fcntl(fi->fd, F_SETFL, fcntl(fi->fd, F_GETFL) | O_NONBLOCK);
	return EXIT_OK;
}

/* Waits for more input: 0 when there may be some, 1 when following
 * should stop (an interrupt, or a stream whose writer has gone). */
static int wait_for_input(const follow_input *fi)
{
	struct pollfd p = { fi->fd, POLLIN, 0 };

	if (cli_interrupted)
		return 1;
	if (fi->regular) {
		sleep_ms(FOLLOW_POLL_MS);
		return cli_interrupted;
	}
	if (poll(&p, 1, FOLLOW_POLL_MS) > 0 && !(p.revents & POLLIN) &&
	    (p.revents & (POLLHUP | POLLERR)))
		return 1;
	return cli_interrupted;
}

static int read_header(ev_reader *r, const follow_input *fi)
{
	int rc;

	while (cli_header_pending(r, rc = ev_reader_read_header(r)))
		if (wait_for_input(fi))
			break;
	/* Stopped by the user before the log began: as after a cut. */
	return cli_interrupted && cli_header_pending(r, rc) ? EV_ETRUNCATED : rc;
}

/* Events in file order until the data end; an interrupt or a stream
 * that ends first is a truncation (EV_ETRUNCATED). */
static int follow_events(ev_reader *r, const follow_input *fi,
			 const follow_visitor *v, void *ctx)
{
	const ev_consumer *c = v->consumer;
	int markers = (c->flags & EV_CONSUME_MARKERS) != 0;
	ev_event ev;
	int rc = read_header(r, fi);

	if (rc == EV_OK)
		rc = c->begin(ctx, 0, ev_reader_header(r));
	while (rc == EV_OK) {
		rc = ev_reader_next(r, &ev);
		if (rc == EV_OK && (markers || ev.type != EV_BLOCK_MARKER))
			rc = c->event(ctx, &ev);
		else if (rc == EV_ETRUNCATED &&
			 (rc = v->idle(ctx)) == EV_OK && wait_for_input(fi))
			rc = EV_ETRUNCATED;
	}
	return rc;
}

/* The exit code for how following ended, reported. */
static int report(int status, const follow_input *fi, const ev_reader *r)
{
	if (status == EV_END || status == EV_OK)
		return EXIT_OK;
	if (status == EV_ETRUNCATED && cli_interrupted)
		return EXIT_OK; /* the user stopped following */
	if (status == EV_ETRUNCATED)
		return cli_read_failure(ev_reader_diag(r), fi->name);
	if (r && ev_reader_diag(r)->status < 0)
		return cli_reader_error(r);
	return cli_status_failure(status, fi->name);
}

int follow_run(const char *in, const follow_visitor *v, void *ctx)
{
	follow_input fi = { cli_input_name(in), -1, 0, 0 };
	ev_reader *r = NULL;
	int rc, status, finished;

	cli_catch_interrupts();
	if ((rc = open_input(in, &fi)) != EXIT_OK || cli_interrupted) {
		if (fi.owned && fi.fd >= 0)
			close(fi.fd);
		return rc;
	}
	status = ev_reader_open_fd(&r, fi.fd, fi.name, 0);
	if (status == EV_OK)
		status = follow_events(r, &fi, v, ctx);
	finished = v->finish(ctx, status);
	if (finished != EXIT_OK)
		rc = finished;
	else
		rc = report(status, &fi, r);
	ev_reader_free(r);
	if (fi.owned)
		close(fi.fd);
	return rc;
}
