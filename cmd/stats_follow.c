/*
 * evtool stats --follow: the monitor that the live-profiling design
 * proposes as its first demonstration. While a log is written (follow.h)
 * it prints a line per interval of the log's own time: allocation rate,
 * live and total heap, collections and GC time in the interval, and
 * productivity so far; then the full summary.
 *
 * Intervals are of event time, not of the clock on the wall: an
 * interval's line comes when the first event after its end arrives, so
 * the lines are the same whether the log is read live or afterwards. The
 * RTS writes a capability's events a buffer at a time, so a line counts
 * the events that had arrived when it was printed; later ones count in
 * the next line. With --spans, each line is followed by one per name
 * whose spans ended in the interval.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "follow.h"
#include "progress.h"
#include "stats_cli.h"

typedef struct monitor {
	stats_file f;
	unsigned parts;
	uint64_t every_ns;
	uint64_t next_ns;   /* the end of the current interval */
	ev_stats_now last;  /* the totals at the last line */
	int lines;          /* printed so far */
	uint64_t *span_counts; /* --spans: each name's count at the last line */
	size_t n_span_counts;
} monitor;

static void print_heading(void)
{
	printf("%10s %12s %10s %10s %5s %9s %13s\n", "time", "alloc rate",
	       "live", "heap", "GCs", "GC time", "productivity");
}

/* The line of the interval from the last line to `end_ns`. */
static void print_line(monitor *m, uint64_t end_ns)
{
	ev_stats_now now;
	char rate[24], live[24], heap[24], gc[16];
	uint64_t span = end_ns > m->last.time_ns ? end_ns - m->last.time_ns : 0;
	double alloc;

	ev_stats_live_totals(m->f.st, &now);
	alloc = now.allocated_bytes > m->last.allocated_bytes
		? (double)(now.allocated_bytes - m->last.allocated_bytes) : 0;
	if (m->lines++ == 0)
		print_heading();
	progress_bytes(span ? alloc * 1e9 / (double)span : 0, rate,
		       sizeof rate);
	printf("%9.4fs %10s/s %10s %10s %5" PRIu64 " %9s %12.1f%%\n",
	       (double)end_ns / 1e9, rate,
	       progress_bytes((double)now.live_bytes, live, sizeof live),
	       progress_bytes((double)now.heap_bytes, heap, sizeof heap),
	       now.collections - m->last.collections,
	       stats_duration(now.gc_elapsed_ns - m->last.gc_elapsed_ns, gc,
			      sizeof gc),
	       end_ns ? 100.0 * (1.0 - (double)now.gc_elapsed_ns /
						(double)end_ns)
		      : 100.0);
	m->last = now;
	m->last.time_ns = end_ns;
	if (m->parts & STATS_SPANS)
		stats_follow_spans(m->f.st, &m->span_counts,
				   &m->n_span_counts);
}

static int on_begin(void *ctx, const ev_session *s)
{
	monitor *m = ctx;

	return ev_stats_consumer()->begin(m->f.st, s);
}

/* Before the event is added: an event past the current interval ends it
 * (and the empty ones after it: one line covers them). */
static int on_event(void *ctx, const ev_event *ev)
{
	monitor *m = ctx;

	if (ev->time >= m->next_ns && ev->type != EV_BLOCK_MARKER) {
		print_line(m, ev->time - ev->time % m->every_ns);
		m->next_ns = ev->time - ev->time % m->every_ns + m->every_ns;
	}
	return ev_stats_add(m->f.st, ev);
}

static int on_idle(void *ctx)
{
	(void)ctx;
	return fflush(stdout) == 0 ? EV_OK : EV_EIO;
}

/* The last, partial interval and the summary. */
static int on_finish(void *ctx, int status)
{
	monitor *m = ctx;
	const ev_diag *d = ev_stats_diag(m->f.st);
	ev_stats_now now;

	if (status == EV_EIO && ferror(stdout))
		return cli_stdout_failure();
	if (d->status < 0)
		return cli_read_failure(d, m->f.name);
	if (status != EV_END && status != EV_ETRUNCATED)
		return EXIT_OK; /* follow_run reports it */
	ev_stats_live_totals(m->f.st, &now);
	if (now.time_ns > m->last.time_ns)
		print_line(m, now.time_ns);
	if (ev_stats_finish(m->f.st) < 0)
		return cli_finish_failure(ev_stats_diag(m->f.st), m->f.name);
	stats_print_text(&m->f, m->lines > 0, m->parts);
	return fflush(stdout) == 0 ? EXIT_OK : cli_stdout_failure();
}

int stats_follow(const char *in, uint64_t every_ns, unsigned parts)
{
	static const ev_consumer consumer = { on_begin, on_event, NULL, NULL,
					      EV_CONSUME_MARKERS };
	static const follow_visitor visitor = { &consumer, on_idle, on_finish };
	monitor m = { { 0 }, parts, every_ns, every_ns, { 0 }, 0, NULL, 0 };
	int rc = stats_file_start(&m.f, in, parts);

	if (rc == EXIT_OK)
		rc = follow_run(in, &visitor, &m);
	ev_stats_free(m.f.st);
	free(m.span_counts);
	return rc;
}
