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
 * whose spans ended in the interval. A line's figures are those the
 * summary would give for the events so far (ev_stats_live_process_at):
 * "-" where it would say "not recorded".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "follow.h"
#include "progress.h"
#include "stats_cli.h"

/* What `stats` would print for the events added so far, summed over the
 * processes: ev_stats_live_process_at applies ev_stats_finish's own rules
 * (a slice counts from its first event, a run without GC_STATS_GHC or
 * HEAP_* events has no GC or heap figures). */
typedef struct figures {
	uint64_t start_ns; /* where the figures count from */
	uint64_t allocated_bytes;
	uint64_t collections;
	uint64_t gc_elapsed_ns;
	uint64_t elapsed_ns;
	uint64_t mut_elapsed_ns;
	uint64_t live_samples;
	int have_heap;
} figures;

typedef struct monitor {
	stats_file f;
	unsigned parts;
	uint64_t every_ns;
	uint64_t next_ns;   /* the end of the current interval */
	figures last;       /* the figures at the last line */
	uint64_t last_ns;   /* the time of the last line */
	int lines;          /* printed so far */
	uint64_t *span_counts; /* --spans: each name's count at the last line */
	size_t n_span_counts;
} monitor;

static void print_heading(void)
{
	printf("%10s %12s %10s %10s %5s %9s %13s\n", "time", "alloc rate",
	       "live", "heap", "GCs", "GC time", "productivity");
}

/* The figures of the events added so far (the first line's interval
 * starts where they count from). */
static void get_figures(ev_stats *st, figures *out)
{
	size_t n = ev_stats_live_process_count(st);
	ev_stats_process p;

	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < n; i++) {
		if (ev_stats_live_process_at(st, i, &p) != EV_OK)
			continue;
		if (i == 0 || p.start_ns < out->start_ns)
			out->start_ns = p.start_ns;
		out->allocated_bytes += p.allocated_bytes;
		out->collections += p.collections;
		out->gc_elapsed_ns += p.gc_elapsed_ns;
		out->elapsed_ns += p.elapsed_ns;
		out->mut_elapsed_ns += p.mut_elapsed_ns;
		out->live_samples += p.live_samples;
		out->have_heap |= p.have_heap;
	}
}

/* A line's columns as text: "-" for a figure `stats` would not print. */
typedef struct columns {
	char rate[24], live[24], heap[24], gcs[24], gc[16], prod[16];
} columns;

/* The columns but the time, of the interval of `span_ns` since the line
 * whose figures were `last`: "-" for all without GC or heap events
 * ("GC and heap: not recorded"), and for the live heap before the first
 * HEAP_LIVE (no "maximum residency"). */
static void fill_columns(columns *c, const figures *fig, const figures *last,
			 const ev_stats_now *now, uint64_t span_ns)
{
	double alloc;

	*c = (columns){ "-", "-", "-", "-", "-", "-" };
	if (!fig->have_heap)
		return;
	alloc = fig->allocated_bytes > last->allocated_bytes
		? (double)(fig->allocated_bytes - last->allocated_bytes) : 0;
	progress_bytes(span_ns ? alloc * 1e9 / (double)span_ns : 0, c->rate,
		       sizeof c->rate - 2);
	strcat(c->rate, "/s");
	if (fig->live_samples > 0)
		progress_bytes((double)now->live_bytes, c->live, sizeof c->live);
	progress_bytes((double)now->heap_bytes, c->heap, sizeof c->heap);
	snprintf(c->gcs, sizeof c->gcs, "%" PRIu64,
		 fig->collections - last->collections);
	stats_duration(fig->gc_elapsed_ns - last->gc_elapsed_ns, c->gc,
		       sizeof c->gc);
	/* the summary's productivity: MUT over elapsed, 0 without time */
	snprintf(c->prod, sizeof c->prod, "%.1f%%", fig->elapsed_ns
		 ? 100.0 * (double)fig->mut_elapsed_ns / (double)fig->elapsed_ns
		 : 0.0);
}

/* The line of the interval from the last line to `end_ns`. */
static void print_line(monitor *m, uint64_t end_ns)
{
	ev_stats_now now;
	figures fig;
	columns c;

	get_figures(m->f.st, &fig);
	ev_stats_live_totals(m->f.st, &now);
	if (m->lines++ == 0) {
		print_heading();
		m->last_ns = fig.start_ns;
	}
	fill_columns(&c, &fig, &m->last, &now,
		     end_ns > m->last_ns ? end_ns - m->last_ns : 0);
	printf("%9.4fs %12s %10s %10s %5s %9s %13s\n", (double)end_ns / 1e9,
	       c.rate, c.live, c.heap, c.gcs, c.gc, c.prod);
	m->last = fig;
	m->last_ns = end_ns;
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
	if (now.time_ns > m->last_ns)
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
	monitor m = { { 0 }, parts, every_ns, every_ns, { 0 }, 0, 0, NULL, 0 };
	int rc = stats_file_start(&m.f, in, parts);

	if (rc == EXIT_OK)
		rc = follow_run(in, &visitor, &m);
	ev_stats_free(m.f.st);
	free(m.span_counts);
	return rc;
}
