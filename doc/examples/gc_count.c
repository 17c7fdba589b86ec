/*
 * gc_count: counts the garbage collections of a running GHC program from
 * its live eventlog, through the event consumer protocol: a consumer
 * (begin, event, end, finish) that the follower drives as the events
 * arrive.
 *
 *     cc gc_count.c $(pkg-config --cflags --libs evtool) -o gc_count
 *     mkfifo run.fifo && ./gc_count run.fifo &
 *     ./prog +RTS -l -olrun.fifo -RTS
 *
 * Prints the GC_START events of the session (one per capability that
 * took part in a collection) when it ends, then the total. SOURCE is a
 * FIFO, a growing file, "unix:PATH" or "-" (the default, standard input).
 * Exit 0 when the log was read to its end, 1 otherwise (with a message).
 */
#include <stdio.h>

#include <evtool/evtool.h>

typedef struct gc_count {
	unsigned long long session, total;
} gc_count;

static int begin(void *self, const ev_session *s)
{
	gc_count *c = self;

	(void)s;
	c->session = 0;
	return EV_OK;
}

static int event(void *self, const ev_event *ev)
{
	gc_count *c = self;

	if (ev->type == EV_GC_START) {
		c->session++;
		c->total++;
	}
	return EV_OK;
}

static int end(void *self, const ev_session *s)
{
	const gc_count *c = self;

	printf("session %u: %llu GC_START\n", s->index, c->session);
	return fflush(stdout) == 0 ? EV_OK : EV_EIO;
}

/* Called once, last: the total of a log read to its end. */
static int finish(void *self, int status)
{
	const gc_count *c = self;

	if (status != EV_END)
		return status;
	printf("%llu GC_START\n", c->total);
	return fflush(stdout) == 0 ? status : EV_EIO;
}

int main(int argc, char **argv)
{
	static const ev_consumer consumer = { begin, event, end, finish, 0 };
	gc_count count = { 0, 0 };
	ev_follower *f;
	ev_diag why;
	int rc;

	if (ev_follower_new(&f, NULL, &why) < 0) {
		fprintf(stderr, "gc_count: %s\n", why.message);
		return 1;
	}
	rc = ev_follow_feed(f, argc > 1 ? argv[1] : "-", &consumer, &count);
	if (rc != EV_END)
		fprintf(stderr, "gc_count: %s\n", ev_follower_diag(f)->status < 0
			? ev_follower_diag(f)->message : ev_strerror(rc));
	ev_follower_free(f);
	return rc == EV_END ? 0 : 1;
}
