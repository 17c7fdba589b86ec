/*
 * The .hp heap profile (hp2ps, eventlog2html) from a log's heap profile
 * events, as the RTS writes its own .hp beside them:
 *
 *     JOB "PROGRAM ARGS"            (PROGRAM_ARGS)
 *     DATE "Wed Nov 25 10:52 2026"  (WALL_CLOCK_TIME, UTC)
 *     SAMPLE_UNIT "seconds"
 *     VALUE_UNIT "bytes"
 *     BEGIN_SAMPLE 0.000000         (an empty first sample, as the RTS's;
 *     END_SAMPLE 0.000000            a slice's at its start, slice.h)
 *     BEGIN_SAMPLE T                (HEAP_PROF_SAMPLE_BEGIN)
 *     BAND<TAB>BYTES                (HEAP_PROF_SAMPLE_STRING/_COST_CENTRE)
 *     END_SAMPLE T                  (HEAP_PROF_SAMPLE_END)
 *     MARK T                        (USER_MARKER, between samples)
 *     ...
 *     BEGIN_SAMPLE T / END_SAMPLE T (an empty last sample at the last event)
 *
 * Only the first heap profile of the log (the first HEAP_PROF_BEGIN's
 * profile id) is exported. T is the event's elapsed time in seconds (the
 * RTS's own .hp has mutator CPU seconds, which no event carries). A -hc
 * band is the cost-centre stack as the RTS's fprint_ccs prints it, without
 * its "(ccsID)" prefix, which no event carries: innermost label first, "/"
 * between, a CAF as MODULE.CAF, MAIN alone as "MAIN", cut to 25 bytes
 * (the RTS's default -L) as 21 bytes and "...".
 *
 * The samples and their band names are read by lib/inspect/heap_samples.c,
 * as the report reads them.
 *
 * Layering: export.c -> this file -> export_out.c and
 * lib/inspect/heap_samples.c; it calls no function of export.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evtool/catalog.h"
#include "evtool/decode.h"
#include "export_internal.h"
#include "internal.h"
#include "slice.h"

/* Bytes of the JOB line's program and arguments kept. */
#define JOB_MAX 1024u

typedef struct hp_state {
	evi_heap_samples heap;  /* the profile's samples (heap_samples.h) */
	unsigned session;
	int header_done;
	uint64_t samples;
	uint64_t last_time;
	int have_first, have_work; /* the first event, and the first that */
	uint64_t first_ns, first_work_ns; /* is not metadata: a slice? */
	char job[JOB_MAX + 1];
	int have_job;
	char date[64];
} hp_state;

static void put_seconds(ev_text *t, uint64_t ns)
{
	char frac[8];

	evi_put_u64(t, ns / 1000000000u);
	snprintf(frac, sizeof frac, ".%06u", (unsigned)(ns / 1000u % 1000000u));
	evi_puts(t, frac);
}

static void sample_line(ev_text *t, const char *what, uint64_t ns)
{
	evi_puts(t, what);
	evi_putc(t, ' ');
	put_seconds(t, ns);
	evi_putc(t, '\n');
}

/* Where the profile starts: at the RTS's start, time 0, as the RTS's .hp;
 * a slice of a run at its start, so that hp2ps draws the window. */
static uint64_t profile_start(const hp_state *st)
{
	return st->have_work && evi_is_slice(st->first_ns, st->first_work_ns)
		       ? st->first_work_ns : 0;
}

static void write_header(ev_exporter *x, hp_state *st)
{
	ev_text *t = &x->out;

	if (st->header_done)
		return;
	evi_puts(t, "JOB \"");
	evi_puts(t, st->job);
	evi_puts(t, "\"\nDATE \"");
	evi_puts(t, st->date);
	evi_puts(t, "\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
	sample_line(t, "BEGIN_SAMPLE", profile_start(st));
	sample_line(t, "END_SAMPLE", profile_start(st));
	st->header_done = 1;
}

/* PROGRAM_ARGS as the JOB text: the arguments joined by spaces, with
 * quotes left out (hp2ps ends the string at one). */
static void set_job(hp_state *st, const ev_event *ev)
{
	size_t n = 0;

	for (uint32_t i = 4; i < ev->size && n < JOB_MAX; i++) {
		char c = (char)ev->payload[i];
		if (c == '"')
			continue;
		st->job[n++] = c ? c : ' ';
	}
	while (n && st->job[n - 1] == ' ')
		n--;
	st->job[n] = '\0';
	st->have_job = 1;
}

/* The date of the run: the clock reading of its first WALL_CLOCK_TIME,
 * when that is one (ev_wall_clock_epoch decides), to the minute. */
static void set_date(hp_state *st, const ev_event *ev)
{
	int64_t epoch;
	time_t secs;
	struct tm tm;

	if (ev_wall_clock_epoch(ev, &epoch, NULL) < 0)
		return;
	secs = (time_t)ev_load64(ev->payload + 4);
	if (gmtime_r(&secs, &tm))
		strftime(st->date, sizeof st->date, "%a %b %d %H:%M %Y", &tm);
}

static void band_value(ev_text *t, uint64_t bytes)
{
	evi_putc(t, '\t');
	evi_put_u64(t, bytes);
	evi_putc(t, '\n');
}

/* The heap-profile events, read by heap_samples.c. */
static int heap_event(ev_exporter *x, hp_state *st, const ev_event *ev)
{
	evi_heap_entry e;
	int kind = evi_heap_samples_event(&st->heap, st->session, ev, &e,
					  &x->diag);

	switch (kind) {
	case EVI_HEAP_OTHER_PROFILE:
		x->stats.other_heap_profiles++;
		break;
	case EVI_HEAP_BEGIN:
		write_header(x, st);
		sample_line(&x->out, "BEGIN_SAMPLE", ev->time);
		st->samples++;
		x->stats.samples++;
		break;
	case EVI_HEAP_ENTRY:
		evi_heap_band_name(&st->heap, st->session, &e, &x->out);
		band_value(&x->out, e.bytes);
		break;
	case EVI_HEAP_END:
		sample_line(&x->out, "END_SAMPLE", ev->time);
		break;
	default:
		return kind < 0 ? kind : EV_OK;
	}
	return EV_OK;
}

/* Until the first event that is not metadata: the first event, and it
 * (profile_start). */
static void note_start(hp_state *st, const ev_event *ev)
{
	if (!st->have_first)
		st->first_ns = ev->time;
	st->have_first = 1;
	if (!evi_type_is_metadata(ev->type)) {
		st->first_work_ns = ev->time;
		st->have_work = 1;
	}
}

static int hp_event(ev_exporter *x, void *state, const ev_event *ev)
{
	hp_state *st = state;

	st->last_time = ev->time;
	if (!st->have_work)
		note_start(st, ev);
	switch (ev->type) {
	case EV_PROGRAM_ARGS:
		if (!st->have_job && ev->size >= 4)
			set_job(st, ev);
		break;
	case EV_WALL_CLOCK_TIME:
		if (!st->date[0])
			set_date(st, ev);
		break;
	case EV_USER_MARKER:
		if (st->header_done && !st->heap.depth)
			sample_line(&x->out, "MARK", ev->time);
		break;
	default:
		return evi_heap_samples_type(ev->type) ? heap_event(x, st, ev)
						       : EV_OK;
	}
	return EV_OK;
}

/* The types hp_event acts on; of the others it reads the times of the
 * first, of the first that is not metadata and of the last. */
static int hp_reads(uint16_t type)
{
	return type == EV_PROGRAM_ARGS || type == EV_WALL_CLOCK_TIME ||
	       type == EV_USER_MARKER || evi_heap_samples_type(type);
}

static int hp_session(ev_exporter *x, void *state, unsigned session,
		      unsigned quirks)
{
	hp_state *st = state;

	(void)x;
	(void)quirks;
	st->session = session;
	return EV_OK;
}

static int hp_finish(ev_exporter *x, void *state)
{
	hp_state *st = state;

	if (!st->samples)
		return EV_EXPORT_NOTHING;
	if (st->heap.depth)
		sample_line(&x->out, "END_SAMPLE", st->last_time);
	sample_line(&x->out, "BEGIN_SAMPLE", st->last_time);
	sample_line(&x->out, "END_SAMPLE", st->last_time);
	return evi_export_check(x);
}

static int hp_open(ev_exporter *x, void **state)
{
	hp_state *st = calloc(1, sizeof *st);

	(void)x;
	if (!st || evi_heap_samples_init(&st->heap) < 0) {
		free(st);
		return EV_ENOMEM;
	}
	*state = st;
	return EV_OK;
}

static void hp_free(void *state)
{
	hp_state *st = state;

	evi_heap_samples_free(&st->heap);
	free(st);
}

const evi_export_ops evi_export_hp = {
	hp_open, hp_session, hp_event, hp_finish, hp_free, hp_reads
};
