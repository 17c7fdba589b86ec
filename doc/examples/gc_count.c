/*
 * gc_count: counts the garbage collections of a running GHC program from
 * its live eventlog, through the event consumer protocol: a consumer
 * (begin, event, end) that a reader drives as the events arrive.
 *
 *     cc gc_count.c $(pkg-config --cflags --libs evtool) -o gc_count
 *     mkfifo run.fifo && ./gc_count < run.fifo &
 *     ./prog +RTS -l -olrun.fifo -RTS
 *
 * Prints the GC_START events of each session (one per capability that
 * took part in a collection) when it ends, then the total. Exit 0 when
 * the log was read to its end, 1 otherwise (with a message).
 */
#include <stdio.h>

#include <evtool/evtool.h>

typedef struct gc_count {
	unsigned long long session, total;
} gc_count;

static int begin(void *self, unsigned session, const ev_header *h)
{
	gc_count *c = self;

	(void)session;
	(void)h;
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

static int end(void *self, unsigned session)
{
	const gc_count *c = self;

	printf("session %u: %llu GC_START\n", session, c->session);
	return fflush(stdout) == 0 ? EV_OK : EV_EIO;
}

int main(void)
{
	static const ev_consumer consumer = { begin, event, end, 0 };
	gc_count count = { 0, 0 };
	ev_reader *r = NULL;
	int rc;

	if (ev_reader_open_path(&r, "-", 0) < 0) {
		fprintf(stderr, "gc_count: cannot read standard input\n");
		return 1;
	}
	rc = ev_reader_feed(r, &consumer, &count);
	if (rc != EV_END)
		fprintf(stderr, "gc_count: %s\n", ev_reader_diag(r)->status < 0
			? ev_reader_diag(r)->message : ev_strerror(rc));
	else
		printf("%llu GC_START\n", count.total);
	ev_reader_free(r);
	return rc == EV_END ? 0 : 1;
}
