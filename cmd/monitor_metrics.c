/*
 * evtool monitor's metrics in Prometheus' text exposition format (0.0.4)
 * and OpenMetrics 1.0 (monitor.h). Names follow Prometheus' rules (base
 * units, _bytes, _seconds, _total for counters, snake_case, as promtool
 * checks) under ghc_; where eventlog-live has a name, evtool's is its
 * snake_case form (ghc_eventlog_HeapAllocated_bytes_total is
 * ghc_eventlog_heap_allocated_bytes_total), which the man page shows how
 * to rename for its dashboards. Every family is documented in
 * doc/evtool.1; the table below is the one list of them.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "monitor.h"

typedef enum family_id {
	F_ALLOCATED,
	F_LIVE,
	F_HEAP,
	F_MAX_LIVE,
	F_MAX_MEM,
	F_COPIED,
	F_COLLECTIONS,
	F_PAUSES,
	F_GC_SECONDS,
	F_MUT_SECONDS,
	F_PRODUCTIVITY,
	F_CAP_BUSY,
	F_THREADS_CREATED,
	F_THREADS_FINISHED,
	F_SPARKS_CREATED,
	F_SPARKS_CONVERTED,
	F_SPARKS_FIZZLED,
	F_SPARKS_GCD,
	F_SPARKS_DUD,
	F_SPARKS_OVERFLOWED,
	F_MARKERS,
	F_EVENTS,
	F_BYTES,
	F_LIVE_SESSION,
	F_AGE,
	F_SOURCE_STATE,
	F_SOURCE_SESSIONS,
	F_SOURCE_ERRORS,
	F_SOURCE_SKIPPED,
	F_SOURCE_STALLED,
	F_COUNT
} family_id;

typedef enum family_type { COUNTER, GAUGE, HISTOGRAM } family_type;

typedef struct family {
	const char *name; /* as sampled: a counter's ends in _total */
	family_type type;
	const char *help;
} family;

static const family families[F_COUNT] = {
	[F_ALLOCATED] = { "ghc_eventlog_heap_allocated_bytes_total", COUNTER,
		"Bytes allocated (the sum of each capability's last HEAP_ALLOCATED)." },
	[F_LIVE] = { "ghc_eventlog_heap_live_bytes", GAUGE,
		"Live bytes after the last major collection (HEAP_LIVE)." },
	[F_HEAP] = { "ghc_eventlog_heap_size_bytes", GAUGE,
		"Heap size (the last HEAP_SIZE)." },
	[F_MAX_LIVE] = { "ghc_max_live_bytes", GAUGE,
		"Maximum residency: the largest HEAP_LIVE." },
	[F_MAX_MEM] = { "ghc_max_mem_in_use_bytes", GAUGE,
		"Memory in use at its peak (+RTS -s total memory in use)." },
	[F_COPIED] = { "ghc_gc_copied_bytes_total", COUNTER,
		"Bytes copied by collections." },
	[F_COLLECTIONS] = { "ghc_gc_collections_total", COUNTER,
		"Collections per generation." },
	[F_PAUSES] = { "ghc_gc_pause_seconds", HISTOGRAM,
		"GC pauses per generation (GC_START to GC_END on the leading capability)." },
	[F_GC_SECONDS] = { "ghc_gc_seconds_total", COUNTER,
		"Elapsed time in GC pauses." },
	[F_MUT_SECONDS] = { "ghc_mutator_seconds_total", COUNTER,
		"Elapsed time outside GC pauses (MUT, with INIT and EXIT)." },
	[F_PRODUCTIVITY] = { "ghc_productivity_ratio", GAUGE,
		"Mutator time over elapsed time, 0 to 1." },
	[F_CAP_BUSY] = { "ghc_capability_busy_seconds_total", COUNTER,
		"Time each capability ran Haskell threads (usage=mutator) or collected (usage=gc)." },
	[F_THREADS_CREATED] = { "ghc_threads_created_total", COUNTER,
		"Haskell threads created (CREATE_THREAD)." },
	[F_THREADS_FINISHED] = { "ghc_threads_finished_total", COUNTER,
		"Haskell threads finished (STOP_THREAD, thread finished)." },
	[F_SPARKS_CREATED] = { "ghc_sparks_created_total", COUNTER,
		"Sparks created (SPARK_COUNTERS)." },
	[F_SPARKS_CONVERTED] = { "ghc_sparks_converted_total", COUNTER,
		"Sparks converted (run)." },
	[F_SPARKS_FIZZLED] = { "ghc_sparks_fizzled_total", COUNTER,
		"Sparks fizzled (evaluated by another thread first)." },
	[F_SPARKS_GCD] = { "ghc_sparks_gcd_total", COUNTER,
		"Sparks garbage-collected." },
	[F_SPARKS_DUD] = { "ghc_sparks_dud_total", COUNTER,
		"Sparks not created: already evaluated (dud)." },
	[F_SPARKS_OVERFLOWED] = { "ghc_sparks_overflowed_total", COUNTER,
		"Sparks not created: the spark pool was full." },
	[F_MARKERS] = { "ghc_user_markers_total", COUNTER,
		"User markers (traceMarker) by name; marker=\"(other)\" past --max-markers names." },
	[F_EVENTS] = { "ghc_eventlog_events_total", COUNTER,
		"Events read, block markers included." },
	[F_BYTES] = { "ghc_eventlog_read_bytes_total", COUNTER,
		"Bytes of the log read, header included." },
	[F_LIVE_SESSION] = { "ghc_eventlog_live", GAUGE,
		"1 while the log is being written, 0 once it ended (kept for --keep-ended)." },
	[F_AGE] = { "ghc_eventlog_last_event_age_seconds", GAUGE,
		"Seconds since the last event was read." },
	[F_SOURCE_STATE] = { "ghc_eventlog_source_state", GAUGE,
		"1 for the state the source is in: waiting, reading, done or failed." },
	[F_SOURCE_SESSIONS] = { "ghc_eventlog_source_sessions_total", COUNTER,
		"Sessions (runs of a program) read from the source." },
	[F_SOURCE_ERRORS] = { "ghc_eventlog_source_errors_total", COUNTER,
		"Damaged or truncated input, failed reads and connections." },
	[F_SOURCE_SKIPPED] = { "ghc_eventlog_source_skipped_bytes_total", COUNTER,
		"Damaged bytes skipped to resynchronise on the next block." },
	[F_SOURCE_STALLED] = { "ghc_eventlog_source_stalled", GAUGE,
		"1 when a live session sent nothing for --stall." },
};

static const char *const state_names[] = { "waiting", "reading", "done",
					   "failed" };

/* One process of one session: the series it labels. */
typedef struct view {
	mon_session *s;
	ev_stats_process p;
	const mon_proc *proc;
	int first;    /* the session's first process: session-wide series */
	char *labels; /* program="..",pid="..",source=".." */
	ev_stats_now now;
} view;

typedef struct writer {
	FILE *out;
	int openmetrics;
	view *views;
	size_t n_views;
	mon_sources *ms;
	double now_s;
} writer;

/* A label value: valid UTF-8 (ev_json_string makes invalid bytes U+FFFD),
 * with the escapes of the exposition formats (\\, \", \n); other control
 * characters become spaces. */
static int put_label_value(FILE *out, const char *s, size_t len)
{
	ev_text t = EV_TEXT_INIT;
	int rc = ev_json_string(&t, s, len);

	for (size_t i = 1; rc == EV_OK && i + 1 < t.len; i++) {
		char c = t.data[i];
		if (c != '\\') {
			fputc(c, out);
			continue;
		}
		c = t.data[++i];
		if (c == '"' || c == '\\' || c == 'n')
			fprintf(out, "\\%c", c);
		else
			fputc(' ', out);
		if (c == 'u')
			i += 4; /* \u00XX */
	}
	ev_text_free(&t);
	return rc == EV_OK ? 0 : -1;
}

static char *view_labels(const view *v)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	const mon_session *s = v->s;
	const char *program = v->proc && v->proc->program[0]
		? v->proc->program : s->have_writer ? s->writer_program : "";
	int rc;

	if (!f)
		return NULL;
	fputs("program=\"", f);
	rc = put_label_value(f, program, strlen(program));
	if (v->p.have_pid || s->have_writer)
		fprintf(f, "\",pid=\"%" PRIu32 "\",source=\"",
			v->p.have_pid ? v->p.pid : s->writer_pid);
	else
		fputs("\",pid=\"\",source=\"", f);
	rc |= put_label_value(f, v->s->source, strlen(v->s->source));
	fputc('"', f);
	if (fclose(f) != 0 || rc < 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* Whether a newer session has the labels of `v` (a log replayed with its
 * pid, a pid reused): the newer one is served, as a counter reset. */
static int shadowed(const writer *w, const view *v)
{
	for (size_t i = 0; i < w->n_views; i++)
		if (w->views[i].s != v->s &&
		    strcmp(w->views[i].labels, v->labels) == 0)
			return 1;
	return 0;
}

/* Views of the session's processes; -1 when out of memory. */
static int add_session(writer *w, mon_session *s, size_t *alloc)
{
	size_t n = mon_session_process_count(s);
	ev_stats_now now;

	ev_stats_now_get(s->st, &now);
	for (size_t i = 0; i < n; i++) {
		view *v;
		if (w->n_views == *alloc) {
			size_t cap = *alloc ? 2 * *alloc : 64;
			view *grown = realloc(w->views, cap * sizeof *grown);
			if (!grown)
				return -1;
			w->views = grown;
			*alloc = cap;
		}
		v = &w->views[w->n_views];
		memset(v, 0, sizeof *v);
		v->s = s;
		v->proc = mon_session_process(s, i, &v->p);
		v->first = i == 0;
		v->now = now;
		if (!(v->labels = view_labels(v)))
			return -1;
		if (shadowed(w, v)) {
			free(v->labels);
			continue;
		}
		w->n_views++;
	}
	return 0;
}

static void put_seconds(FILE *out, uint64_t ns)
{
	fprintf(out, "%" PRIu64 ".%09" PRIu64 "\n", ns / 1000000000u,
		ns % 1000000000u);
}

static void sample_u64(const writer *w, const family *f, const view *v,
		       uint64_t value)
{
	fprintf(w->out, "%s{%s} %" PRIu64 "\n", f->name, v->labels, value);
}

static void sample_seconds(const writer *w, const family *f, const view *v,
			   uint64_t ns)
{
	fprintf(w->out, "%s{%s} ", f->name, v->labels);
	put_seconds(w->out, ns);
}

/* mon_bucket_ns in seconds, as the le labels give them. */
static const char *const bucket_le[MON_BUCKETS] = {
	"0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01",
	"0.025", "0.05", "0.1", "0.25", "0.5", "1.0", "2.5", "5.0", "10.0"
};

static void put_histogram(const writer *w, const family *f, const view *v,
			  unsigned gen, const mon_hist *h)
{
	for (unsigned b = 0; b < MON_BUCKETS; b++)
		fprintf(w->out, "%s_bucket{%s,generation=\"%u\",le=\"%s\"} %"
			PRIu64 "\n", f->name, v->labels, gen, bucket_le[b],
			h->le[b]);
	fprintf(w->out, "%s_bucket{%s,generation=\"%u\",le=\"+Inf\"} %" PRIu64
		"\n", f->name, v->labels, gen, h->count);
	fprintf(w->out, "%s_sum{%s,generation=\"%u\"} ", f->name, v->labels,
		gen);
	put_seconds(w->out, h->sum_ns);
	fprintf(w->out, "%s_count{%s,generation=\"%u\"} %" PRIu64 "\n",
		f->name, v->labels, gen, h->count);
}

/* A session's capabilities, live or final. */
static void put_caps(const writer *w, const family *f, view *v)
{
	mon_session *s = v->s;
	size_t n = s->finished ? ev_stats_capability_count(s->st)
			       : ev_stats_live_cap_limit(s->st);

	for (size_t i = 0; i < n; i++) {
		ev_stats_capability c;
		if (s->finished)
			c = *ev_stats_capability_at(s->st, i);
		else if (ev_stats_live_capability(s->st, i, &c) < 0)
			continue;
		fprintf(w->out, "%s{%s,capability=\"%u\",usage=\"mutator\"} ",
			f->name, v->labels, c.cap);
		put_seconds(w->out, c.mutator_ns);
		fprintf(w->out, "%s{%s,capability=\"%u\",usage=\"gc\"} ",
			f->name, v->labels, c.cap);
		put_seconds(w->out, c.gc_ns);
	}
}

static void put_markers(const writer *w, const family *f, const view *v)
{
	const mon_session *s = v->s;

	for (size_t i = 0; i < s->n_markers; i++) {
		fprintf(w->out, "%s{%s,marker=\"", f->name, v->labels);
		put_label_value(w->out, s->markers[i].name,
				strlen(s->markers[i].name));
		fprintf(w->out, "\"} %" PRIu64 "\n", s->markers[i].count);
	}
	if (s->other_markers)
		fprintf(w->out, "%s{%s,marker=\"(other)\"} %" PRIu64 "\n",
			f->name, v->labels, s->other_markers);
}

/* The samples of family `id` for one process view. */
static void put_view(const writer *w, family_id id, view *v)
{
	const family *f = &families[id];
	const ev_stats_process *p = &v->p;

	switch (id) {
	case F_ALLOCATED: sample_u64(w, f, v, p->allocated_bytes); break;
	case F_LIVE: if (v->first) sample_u64(w, f, v, v->now.live_bytes); break;
	case F_HEAP: if (v->first) sample_u64(w, f, v, v->now.heap_bytes); break;
	case F_MAX_LIVE: sample_u64(w, f, v, p->max_live_bytes); break;
	case F_MAX_MEM: sample_u64(w, f, v, p->max_mem_bytes); break;
	case F_COPIED: sample_u64(w, f, v, p->copied_bytes); break;
	case F_COLLECTIONS:
		for (unsigned g = 0; g < p->n_gens; g++)
			fprintf(w->out, "%s{%s,generation=\"%u\"} %" PRIu64 "\n",
				f->name, v->labels, g, p->gens[g].collections);
		break;
	case F_PAUSES:
		for (unsigned g = 0; v->proc && g < p->n_gens; g++)
			put_histogram(w, f, v, g, &v->proc->gens[g]);
		break;
	case F_GC_SECONDS: sample_seconds(w, f, v, p->gc_elapsed_ns); break;
	case F_MUT_SECONDS: sample_seconds(w, f, v, p->mut_elapsed_ns); break;
	case F_PRODUCTIVITY:
		fprintf(w->out, "%s{%s} %.6f\n", f->name, v->labels,
			p->productivity);
		break;
	case F_CAP_BUSY: if (v->first) put_caps(w, f, v); break;
	case F_THREADS_CREATED:
		if (v->first)
			sample_u64(w, f, v, v->s->threads_created);
		break;
	case F_THREADS_FINISHED:
		if (v->first)
			sample_u64(w, f, v, ev_stats_thread_total(v->s->st)
				->stops_by_reason[EV_STATS_STOP_FINISHED]);
		break;
	case F_SPARKS_CREATED: sample_u64(w, f, v, p->sparks.created); break;
	case F_SPARKS_CONVERTED: sample_u64(w, f, v, p->sparks.converted); break;
	case F_SPARKS_FIZZLED: sample_u64(w, f, v, p->sparks.fizzled); break;
	case F_SPARKS_GCD: sample_u64(w, f, v, p->sparks.gcd); break;
	case F_SPARKS_DUD: sample_u64(w, f, v, p->sparks.dud); break;
	case F_SPARKS_OVERFLOWED: sample_u64(w, f, v, p->sparks.overflowed); break;
	case F_MARKERS: if (v->first) put_markers(w, f, v); break;
	case F_EVENTS: if (v->first) sample_u64(w, f, v, v->s->events); break;
	case F_BYTES: if (v->first) sample_u64(w, f, v, v->s->bytes); break;
	case F_LIVE_SESSION: sample_u64(w, f, v, !v->s->finished); break;
	case F_AGE:
		fprintf(w->out, "%s{%s} %.3f\n", f->name, v->labels,
			w->now_s - v->s->last_event_s);
		break;
	default:
		break;
	}
}

static void put_source(const writer *w, family_id id, const mon_source *src)
{
	const family *f = &families[id];

	if (id == F_SOURCE_STATE) {
		for (unsigned i = 0; i < 4; i++) {
			fprintf(w->out, "%s{source=\"", f->name);
			put_label_value(w->out, src->label, strlen(src->label));
			fprintf(w->out, "\",state=\"%s\"} %d\n", state_names[i],
				src->state == (mon_state)i);
		}
		return;
	}
	fprintf(w->out, "%s{source=\"", f->name);
	put_label_value(w->out, src->label, strlen(src->label));
	fprintf(w->out, "\"} %" PRIu64 "\n",
		id == F_SOURCE_SESSIONS ? src->sessions
		: id == F_SOURCE_ERRORS ? src->errors
		: id == F_SOURCE_SKIPPED ? src->skipped_bytes
					 : (uint64_t)src->stalled);
}

static int is_source_family(family_id id)
{
	return id >= F_SOURCE_STATE;
}

/* HELP and TYPE: OpenMetrics names a counter's family without _total. */
static void put_family_head(const writer *w, const family *f)
{
	static const char *const types[] = { "counter", "gauge", "histogram" };
	size_t len = strlen(f->name);

	if (w->openmetrics && f->type == COUNTER)
		len -= strlen("_total");
	fprintf(w->out, "# HELP %.*s %s\n# TYPE %.*s %s\n", (int)len, f->name,
		f->help, (int)len, f->name, types[f->type]);
}

static void put_families(writer *w)
{
	for (family_id id = 0; id < F_COUNT; id++) {
		if ((!w->ms && (id == F_AGE || is_source_family(id))))
			continue;
		put_family_head(w, &families[id]);
		if (is_source_family(id)) {
			for (size_t i = 0; i < w->ms->n; i++)
				put_source(w, id, w->ms->items[i]);
			continue;
		}
		for (size_t i = 0; i < w->n_views; i++)
			put_view(w, id, &w->views[i]);
	}
	if (w->openmetrics)
		fputs("# EOF\n", w->out);
}

int mon_metrics_write(FILE *out, mon_sources *ms, mon_session *ended,
		      int openmetrics)
{
	writer w = { out, openmetrics, NULL, 0, ms, mon_now() };
	size_t alloc = 0;
	int rc = 0;

	for (size_t i = 0; ms && i < ms->n && rc == 0; i++)
		if (ms->items[i]->live)
			rc = add_session(&w, ms->items[i]->live, &alloc);
	for (mon_session *s = ended; s && rc == 0; s = s->next)
		rc = add_session(&w, s, &alloc);
	if (rc == 0)
		put_families(&w);
	for (size_t i = 0; i < w.n_views; i++)
		free(w.views[i].labels);
	free(w.views);
	return rc;
}
