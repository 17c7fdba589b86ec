/*
 * The .hp heap profile (hp2ps, eventlog2html) from a log's heap profile
 * events, as the RTS writes its own .hp beside them:
 *
 *     JOB "PROGRAM ARGS"            (PROGRAM_ARGS)
 *     DATE "Wed Nov 25 10:52 2026"  (WALL_CLOCK_TIME, UTC)
 *     SAMPLE_UNIT "seconds"
 *     VALUE_UNIT "bytes"
 *     BEGIN_SAMPLE 0.000000         (an empty first sample, as the RTS's)
 *     END_SAMPLE 0.000000
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
 * Layering: export.c -> this file -> export_out.c and export_cc.c; it
 * calls no function of export.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evtool/catalog.h"
#include "evtool/decode.h"
#include "export_internal.h"
#include "internal.h"

/* The RTS's default +RTS -L: the longest cost-centre stack name. */
#define CCS_LENGTH 25u
/* Bytes of the JOB line's program and arguments kept. */
#define JOB_MAX 1024u

typedef struct hp_state {
	evi_cc_table *ccs;
	unsigned session;
	int have_profile;
	uint8_t profile;
	int header_done;
	unsigned depth;         /* open HEAP_PROF_SAMPLE_BEGINs */
	uint64_t samples;
	uint64_t last_time;
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
	sample_line(t, "BEGIN_SAMPLE", 0);
	sample_line(t, "END_SAMPLE", 0);
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

/* Appends `s` to the band name in `buf` (len so far in *n), as the RTS's
 * buf_append: the count may run past the buffer, the bytes do not. */
static void band_append(char *buf, size_t *n, const char *s)
{
	for (; *s; s++, (*n)++)
		if (*n < CCS_LENGTH + 1)
			buf[*n] = *s;
}

/* A -hc band: the cost-centre stack of a HEAP_PROF_SAMPLE_COST_CENTRE. */
static void put_ccs_band(ev_text *t, const hp_state *st, const uint8_t *ids,
			 unsigned depth)
{
	char buf[CCS_LENGTH + 1];
	size_t n = 0;

	if (depth == 0) {
		evi_puts(t, "MAIN");
		return;
	}
	for (unsigned i = 0; i < depth && n < CCS_LENGTH + 1; i++) {
		uint32_t id = ev_load32(ids + 4 * i);
		const evi_cc *cc = evi_cc_find(st->ccs, st->session, id);
		char unknown[24];
		if (!cc) {
			snprintf(unknown, sizeof unknown, "cc%u", (unsigned)id);
			band_append(buf, &n, unknown);
		} else if (strcmp(cc->label, "CAF") == 0) {
			band_append(buf, &n, cc->module);
			band_append(buf, &n, ".CAF");
		} else {
			band_append(buf, &n, cc->label);
			if (i + 1 < depth)
				band_append(buf, &n, "/");
		}
	}
	if (n >= CCS_LENGTH + 1) {
		evi_put(t, buf, CCS_LENGTH - 4);
		evi_puts(t, "...");
	} else {
		evi_put(t, buf, n);
	}
}

static void band_value(ev_text *t, uint64_t bytes)
{
	evi_putc(t, '\t');
	evi_put_u64(t, bytes);
	evi_putc(t, '\n');
}

static void on_sample_string(ev_exporter *x, hp_state *st, const ev_event *ev)
{
	size_t len = 0;

	if (ev->size < 9 || ev->payload[0] != st->profile)
		return;
	while (9 + len < ev->size && ev->payload[9 + len])
		len++;
	evi_put(&x->out, ev->payload + 9, len);
	band_value(&x->out, ev_load64(ev->payload + 1));
}

static void on_sample_ccs(ev_exporter *x, hp_state *st, const ev_event *ev)
{
	unsigned depth;

	if (ev->size < 10 || ev->payload[0] != st->profile)
		return;
	depth = ev->payload[9];
	if (10u + 4u * depth > ev->size)
		depth = (ev->size - 10) / 4;
	put_ccs_band(&x->out, st, ev->payload + 10, depth);
	band_value(&x->out, ev_load64(ev->payload + 1));
}

static int hp_event(ev_exporter *x, void *state, const ev_event *ev)
{
	hp_state *st = state;

	st->last_time = ev->time;
	switch (ev->type) {
	case EV_PROGRAM_ARGS:
		if (!st->have_job && ev->size >= 4)
			set_job(st, ev);
		break;
	case EV_WALL_CLOCK_TIME:
		if (!st->date[0])
			set_date(st, ev);
		break;
	case EV_HEAP_PROF_BEGIN:
		if (ev->size < 1)
			break;
		if (!st->have_profile) {
			st->have_profile = 1;
			st->profile = ev->payload[0];
		} else if (ev->payload[0] != st->profile) {
			x->stats.other_heap_profiles++;
		}
		break;
	case EV_HEAP_PROF_COST_CENTRE:
		return evi_cc_define(st->ccs, st->session, ev, &x->diag);
	case EV_HEAP_PROF_SAMPLE_BEGIN:
	case EV_HEAP_BIO_PROF_SAMPLE_BEGIN:
		if (!st->have_profile || st->depth++)
			break;
		write_header(x, st);
		sample_line(&x->out, "BEGIN_SAMPLE", ev->time);
		st->samples++;
		x->stats.samples++;
		break;
	case EV_HEAP_PROF_SAMPLE_STRING:
		if (st->depth)
			on_sample_string(x, st, ev);
		break;
	case EV_HEAP_PROF_SAMPLE_COST_CENTRE:
		if (st->depth)
			on_sample_ccs(x, st, ev);
		break;
	case EV_HEAP_PROF_SAMPLE_END:
		if (st->depth && --st->depth == 0)
			sample_line(&x->out, "END_SAMPLE", ev->time);
		break;
	case EV_USER_MARKER:
		if (st->header_done && !st->depth)
			sample_line(&x->out, "MARK", ev->time);
		break;
	}
	return EV_OK;
}

static int hp_session(ev_exporter *x, void *state, unsigned session)
{
	hp_state *st = state;

	(void)x;
	st->session = session;
	return EV_OK;
}

static int hp_finish(ev_exporter *x, void *state)
{
	hp_state *st = state;

	if (!st->samples)
		return EV_EXPORT_NOTHING;
	if (st->depth)
		sample_line(&x->out, "END_SAMPLE", st->last_time);
	sample_line(&x->out, "BEGIN_SAMPLE", st->last_time);
	sample_line(&x->out, "END_SAMPLE", st->last_time);
	return evi_export_check(x);
}

static int hp_open(ev_exporter *x, void **state)
{
	hp_state *st = calloc(1, sizeof *st);

	(void)x;
	if (!st || evi_cc_table_new(&st->ccs) < 0) {
		free(st);
		return EV_ENOMEM;
	}
	*state = st;
	return EV_OK;
}

static void hp_free(void *state)
{
	hp_state *st = state;

	evi_cc_table_free(st->ccs);
	free(st);
}

const evi_export_ops evi_export_hp = {
	hp_open, hp_session, hp_event, hp_finish, hp_free
};
