/*
 * One session of a live log as evtool monitor counts it (monitor.h): the
 * stats accumulator (include/evtool/stats.h) computes every figure that
 * `evtool stats` prints, live through ev_stats_live_process_at and finally
 * through ev_stats_finish, so that the metrics of an ended log are the
 * figures of `evtool stats --json`. What stats does not count is counted
 * here: the pause histogram (ev_stats_on_pause gives each pause), threads
 * created (CREATE_THREAD), user markers by name (USER_MARKER), programs
 * (PROGRAM_ARGS), events and bytes.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "monitor.h"

const uint64_t mon_bucket_ns[MON_BUCKETS] = {
	100000,    250000,    500000,     1000000,
	2500000,   5000000,   10000000,   25000000,
	50000000,  100000000, 250000000,  500000000,
	1000000000, 2500000000, 5000000000, 10000000000
};

double mon_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The process of `capset`, added on first sight (NULL past
 * MON_MAX_PROCS or out of memory: its program and pauses go uncounted,
 * its stats figures do not). */
static mon_proc *proc_get(mon_session *s, uint32_t capset)
{
	mon_proc *grown;

	for (size_t i = 0; i < s->n_procs; i++)
		if (s->procs[i].capset == capset)
			return &s->procs[i];
	if (s->n_procs == MON_MAX_PROCS ||
	    !(grown = realloc(s->procs, (s->n_procs + 1) * sizeof *grown)))
		return NULL;
	s->procs = grown;
	memset(&grown[s->n_procs], 0, sizeof *grown);
	grown[s->n_procs].capset = capset;
	return &grown[s->n_procs++];
}

static void on_pause(void *ctx, uint32_t capset, const ev_stats_pause *p)
{
	mon_proc *proc = proc_get(ctx, capset);
	mon_hist *h;

	if (!proc || p->gen >= EV_STATS_MAX_GENS)
		return;
	h = &proc->gens[p->gen];
	h->count++;
	h->sum_ns += p->duration_ns;
	for (unsigned b = 0; b < MON_BUCKETS; b++)
		h->le[b] += p->duration_ns <= mon_bucket_ns[b];
}

int mon_session_new(mon_session **out, const char *source,
		    const ev_header *h, const mon_limits *limits)
{
	mon_session *s = calloc(1, sizeof *s);
	ev_session first = { 0, h, 0, 0 };

	*out = NULL;
	if (!s || ev_stats_new(&s->st, NULL) < 0) {
		free(s);
		return EV_ENOMEM;
	}
	ev_stats_consumer()->begin(s->st, &first);
	ev_stats_on_pause(s->st, on_pause, s);
	s->source = source;
	s->limits = limits;
	s->counting_markers = limits->max_markers > 0;
	s->last_event_s = mon_now();
	*out = s;
	return EV_OK;
}

/* A NUL-free copy of `len` bytes at `text`, cut to MON_MAX_NAME - 1
 * (label escaping makes the cut bytes valid UTF-8 again). */
static void copy_name(char *dst, const uint8_t *text, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n + 1 < MON_MAX_NAME && text[i]; i++)
		dst[n++] = (char)text[i];
	dst[n] = '\0';
}

/* PROGRAM_ARGS: the program is the last path part of its first word. */
static void on_program(mon_session *s, const ev_event *ev)
{
	ev_decoded d;
	const ev_value *capset, *args;
	const uint8_t *name;
	size_t len;
	mon_proc *p;

	if (ev_decode(ev, &d) < 0 || !(capset = ev_decoded_field(&d, "capset")) ||
	    !(args = ev_decoded_field(&d, "args")) || !args->bytes ||
	    !(p = proc_get(s, (uint32_t)capset->num)) || p->program[0])
		return;
	len = strnlen((const char *)args->bytes, args->len);
	name = args->bytes;
	for (size_t i = 0; i < len; i++)
		if (args->bytes[i] == '/')
			name = args->bytes + i + 1;
	copy_name(p->program, name, len - (size_t)(name - args->bytes));
}

static void on_marker(mon_session *s, const ev_event *ev)
{
	char name[MON_MAX_NAME];
	ev_decoded d;
	const ev_value *v;
	mon_marker *grown;

	if (!s->counting_markers)
		return;
	if (ev_decode(ev, &d) < 0 || !(v = ev_decoded_field(&d, "marker")) ||
	    !v->bytes)
		return;
	copy_name(name, v->bytes, v->len);
	for (size_t i = 0; i < s->n_markers; i++)
		if (strcmp(s->markers[i].name, name) == 0) {
			s->markers[i].count++;
			return;
		}
	if (s->n_markers == s->limits->max_markers ||
	    !(grown = realloc(s->markers, (s->n_markers + 1) * sizeof *grown)) ||
	    !((s->markers = grown)[s->n_markers].name = strdup(name))) {
		s->other_markers++;
		return;
	}
	s->markers[s->n_markers++].count = 1;
}

int mon_session_add(mon_session *s, const ev_event *ev, uint64_t bytes)
{
	s->events++;
	s->bytes += bytes;
	if (ev->type == EV_CREATE_THREAD)
		s->threads_created++;
	else if (ev->type == EV_PROGRAM_ARGS)
		on_program(s, ev);
	else if (ev->type == EV_USER_MARKER)
		on_marker(s, ev);
	return ev_stats_add(s->st, ev);
}

int mon_session_end(mon_session *s)
{
	int rc = EV_OK;

	if (!s->finished) {
		s->finished = 1;
		rc = ev_stats_finish(s->st);
	}
	if (!s->source_copy && s->source) {
		if (!(s->source_copy = strdup(s->source)))
			rc = EV_ENOMEM;
		s->source = s->source_copy ? s->source_copy : "";
	}
	s->ended_s = mon_now();
	return rc;
}

void mon_session_free(mon_session *s)
{
	if (!s)
		return;
	ev_stats_free(s->st);
	for (size_t i = 0; i < s->n_markers; i++)
		free(s->markers[i].name);
	free(s->markers);
	free(s->procs);
	free(s->source_copy);
	free(s);
}

size_t mon_session_process_count(const mon_session *s)
{
	return s->finished ? ev_stats_process_count(s->st)
			   : ev_stats_live_process_count(s->st);
}

const mon_proc *mon_session_process(mon_session *s, size_t i,
				    ev_stats_process *out)
{
	if (s->finished)
		*out = *ev_stats_process_at(s->st, i);
	else if (ev_stats_live_process_at(s->st, i, out) < 0)
		memset(out, 0, sizeof *out);
	for (size_t k = 0; k < s->n_procs; k++)
		if (s->procs[k].capset == out->capset)
			return &s->procs[k];
	return NULL;
}
