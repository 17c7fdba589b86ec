/*
 * A log followed while it is written (follow.h): the source opened and
 * waited on, and the loop that hands over complete events as they
 * arrive.
 */
#include "evtool/follow.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

struct ev_follower {
	ev_follow_options opts;
	const char *name; /* in messages: "<stdin>" for "-" */
	int fd;
	int owned;   /* opened here, closed by ev_follower_free */
	int regular; /* a regular file grows; anything else is a stream */
	ev_reader *r;
	ev_diag diag;
};

int ev_follower_new(ev_follower **out, const ev_follow_options *opts,
		    ev_diag *diag)
{
	static const ev_follow_options defaults = EV_FOLLOW_OPTIONS_INIT;
	ev_follower *f = calloc(1, sizeof *f);

	*out = f;
	if (!f)
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	f->opts = opts ? *opts : defaults;
	if (!f->opts.poll_ms)
		f->opts.poll_ms = defaults.poll_ms;
	f->fd = -1;
	return EV_OK;
}

void ev_follower_free(ev_follower *f)
{
	if (!f)
		return;
	ev_reader_free(f->r);
	if (f->owned && f->fd >= 0)
		close(f->fd);
	free(f);
}

int ev_follower_stopped(const ev_follower *f)
{
	return f->opts.stop && *f->opts.stop;
}

const ev_reader *ev_follower_reader(const ev_follower *f)
{
	return f->r;
}

const ev_diag *ev_follower_diag(const ev_follower *f)
{
	return f->r && ev_reader_diag(f->r)->status < 0 ? ev_reader_diag(f->r)
							 : &f->diag;
}

static void sleep_ms(unsigned ms)
{
	struct timespec pause = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&pause, NULL);
}

static int system_failure(ev_follower *f, const char *what)
{
	return evi_fail_at(&f->diag, EV_ORIGIN_INPUT, EV_EIO, 0, 0, "%s%s",
			   what, strerror(errno));
}

/* Connects to the Unix socket at `path`, waiting for its program to
 * listen (eventlog-socket creates the socket when the RTS starts). */
static int connect_unix(ev_follower *f, const char *path)
{
	struct sockaddr_un addr;

	memset(&addr, 0, sizeof addr);
	addr.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof addr.sun_path)
		return evi_fail_at(&f->diag, EV_ORIGIN_INPUT, EV_EINVAL, 0, 0,
				   "socket path longer than %zu bytes",
				   sizeof addr.sun_path - 1);
	memcpy(addr.sun_path, path, strlen(path));
	for (;;) {
		f->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (f->fd < 0)
			return system_failure(f, "");
		if (connect(f->fd, (struct sockaddr *)&addr, sizeof addr) == 0)
			return EV_OK;
		close(f->fd);
		f->fd = -1;
		if (errno != ENOENT && errno != ECONNREFUSED && errno != EINTR)
			return system_failure(f, "cannot connect: ");
		if (ev_follower_stopped(f))
			return EV_ETRUNCATED;
		sleep_ms(f->opts.poll_ms);
	}
}

/* A FIFO's open blocks until a writer opens it. Streams are then read
 * without blocking, so that the stop flag is seen between reads.
 * EV_ETRUNCATED when stopped first. */
static int open_source(ev_follower *f, const char *source)
{
	size_t prefix = strlen(EV_FOLLOW_UNIX_PREFIX);
	struct stat st;
	int rc;

	f->owned = strcmp(source, "-") != 0;
	f->fd = f->owned ? -1 : STDIN_FILENO;
	if (strncmp(source, EV_FOLLOW_UNIX_PREFIX, prefix) == 0 &&
	    (rc = connect_unix(f, source + prefix)) != EV_OK)
		return rc;
	while (f->owned && f->fd < 0 &&
	       (f->fd = open(source, O_RDONLY | O_CLOEXEC)) < 0)
		if (errno != EINTR || ev_follower_stopped(f))
			return ev_follower_stopped(f)
				       ? EV_ETRUNCATED
				       : system_failure(f, "cannot open: ");
	if (ev_follower_stopped(f))
		return EV_ETRUNCATED;
	if (fstat(f->fd, &st) != 0)
		return system_failure(f, "");
	f->regular = S_ISREG(st.st_mode);
	if (!f->regular)
		fcntl(f->fd, F_SETFL, fcntl(f->fd, F_GETFL) | O_NONBLOCK);
	return EV_OK;
}

/* Waits for more input: 0 when there may be some, 1 when following
 * should stop (the stop flag, or a stream whose writer has gone). */
static int wait_for_input(const ev_follower *f)
{
	struct pollfd p = { f->fd, POLLIN, 0 };

	if (ev_follower_stopped(f))
		return 1;
	if (f->regular) {
		sleep_ms(f->opts.poll_ms);
		return ev_follower_stopped(f);
	}
	if (poll(&p, 1, (int)f->opts.poll_ms) > 0 && !(p.revents & POLLIN) &&
	    (p.revents & (POLLHUP | POLLERR)))
		return 1;
	return ev_follower_stopped(f);
}

/* Whether the header may still come: cut so far, or nothing yet. */
static int header_pending(const ev_reader *r, int rc)
{
	return rc == EV_ETRUNCATED ||
	       (rc == EV_EFORMAT &&
		ev_reader_diag(r)->reason == EV_REASON_EMPTY_INPUT);
}

static int read_header(ev_follower *f)
{
	int rc;

	while (header_pending(f->r, rc = ev_reader_read_header(f->r)))
		if (wait_for_input(f))
			break;
	/* Stopped before the log began: as after a cut. */
	return ev_follower_stopped(f) && header_pending(f->r, rc)
		       ? EV_ETRUNCATED : rc;
}

/* The first session in file order until the data end; stopping or a
 * stream that ends first is a cut (EV_ETRUNCATED). */
static int follow_events(ev_follower *f, const ev_consumer *c, void *self)
{
	int markers = (c->flags & EV_CONSUME_MARKERS) != 0;
	ev_session s = { 0, NULL, 0, 0 };
	ev_event ev;
	int rc = read_header(f);

	s.header = rc == EV_OK ? ev_reader_header(f->r) : NULL;
	if (rc == EV_OK)
		rc = c->begin(self, &s);
	while (rc == EV_OK) {
		rc = ev_reader_next(f->r, &ev);
		if (rc == EV_OK && (markers || ev.type != EV_BLOCK_MARKER)) {
			rc = c->event(self, &ev);
		} else if (rc == EV_ETRUNCATED) { /* no more for now */
			if (f->opts.idle && (rc = f->opts.idle(self)) < 0)
				break;
			rc = wait_for_input(f) ? EV_ETRUNCATED : EV_OK;
		}
	}
	s.end = ev_reader_offset(f->r);
	if (rc == EV_END && c->end && (rc = c->end(self, &s)) >= 0)
		rc = EV_END;
	return rc;
}

static int follow(ev_follower *f, const char *source, const ev_consumer *c,
		  void *self)
{
	int rc;

	if (!c || !c->begin || !c->event || f->fd >= 0 || f->r)
		return EV_EINVAL;
	f->name = strcmp(source, "-") == 0 ? "<stdin>" : source;
	if ((rc = open_source(f, source)) != EV_OK)
		return rc;
	if ((rc = ev_reader_open_fd(&f->r, f->fd, f->name, 0, NULL)) < 0)
		return rc; /* out of memory */
	return follow_events(f, c, self);
}

int ev_follow_feed(ev_follower *f, const char *source, const ev_consumer *c,
		   void *self)
{
	int rc = follow(f, source, c, self);

	return c && c->finish ? c->finish(self, rc) : rc;
}
