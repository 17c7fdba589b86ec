/*
 * Trace Event Format JSON (perfetto, chrome://tracing, speedscope), from
 * events in time order:
 *
 * - one process ("pid") per OS-process capset of a session, named by its
 *   program and OS pid (process_name metadata); capabilities no capset
 *   claims belong to one unnamed process per session;
 * - one track ("tid" cap + 1, thread_name "cap N") per capability;
 * - a Haskell thread's run, RUN_THREAD to STOP_THREAD on its capability,
 *   is a complete ("X") slice named by the thread's label (THREAD_LABEL),
 *   else "thread N", with the thread id and the stop reason (ghc-events'
 *   constructor names) as arguments;
 * - a collection, GC_START to GC_END, is a slice "GC" holding its
 *   GC_WORK/GC_IDLE phases as slices and, on the capability that led it,
 *   the GC_STATS_GHC fields (which GHC posts after GC_END) as arguments;
 *   GC requests and the global sync are instant events;
 * - user markers and messages are instant ("i") events;
 * - the user's spans, "START name" to "STOP name" user messages of one
 *   Haskell thread (paired by an ev_stats, include/evtool/stats_spans.h),
 *   are complete slices "name" (category "span") on a track of that
 *   thread and name, "thread N: name" (tid 65536 + a track number): the
 *   spans of one name and thread nest or follow each other, those of
 *   several names may overlap;
 * - HEAP_SIZE, HEAP_LIVE, the sum of the capabilities' HEAP_ALLOCATED and
 *   each capability's SPARK_COUNTERS are counter ("C") events.
 *
 * Slices on one track never overlap: a slice starts no earlier than the
 * previous one on its track ended (GC_END can step back by microseconds).
 * State is per capability and per process, plus a bounded table of labels.
 *
 * Layering: export.c -> this file -> export_out.c; it calls no function
 * of export.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtool/catalog.h"
#include "evtool/decode.h"
#include "evtool/stats_spans.h"
#include "export_internal.h"
#include "idmap.h"
#include "internal.h"

/* Bytes of a label or program name kept (cut at a UTF-8 boundary). */
#define NAME_MAX_BYTES 255u
/* Processes of one session (capsets are checked before they are added). */
#define MAX_PROCS 65536u
/* The JSON tid of events outside any capability's block. */
#define GLOBAL_TID 0u

typedef struct tef_proc {
	uint32_t capset;
	uint32_t pid;          /* JSON pid */
	int have_os_pid;
	uint32_t os_pid;
	char *name;            /* program, from PROGRAM_ARGS; NULL: none */
	uint64_t allocated;    /* sum of its caps' HEAP_ALLOCATED */
} tef_proc;

enum gc_phase { PHASE_NONE, PHASE_WORK, PHASE_IDLE };

typedef struct tef_cap {
	int seen;
	uint32_t proc;         /* index + 1 in procs; 0: the default process */
	uint64_t last_end;     /* end of the last slice on the track */
	uint64_t last_time;
	int running;
	uint32_t thread;
	uint64_t run_start;
	int in_gc;
	uint64_t gc_start, gc_child_end;
	enum gc_phase phase;
	uint64_t phase_start;
	int gc_pending;        /* a finished GC, written when its stats come */
	uint64_t gc_end;
	uint64_t allocated;    /* last HEAP_ALLOCATED */
	/* ,"pid":..,"tid":.. of its records, rendered on first use and
	 * again when a capset claims it; place_len 0: not yet. */
	uint8_t place_len;
	char place[14u + 2u * EVI_U64_MAX];
} tef_cap;

/* A track of the user's spans: one Haskell thread and one name. */
typedef struct tef_span_track {
	uint32_t pid;
	uint32_t thread;
	const char *name;      /* the ev_stats's copy */
} tef_span_track;

/* The tids of span tracks: above every capability's (cap + 1). */
#define SPAN_TID_BASE 65536u

typedef struct tef_label {
	uint32_t len;
	char *json;            /* the label as a JSON string */
} tef_label;

typedef struct tef_state {
	int began;             /* the opening of the JSON was written */
	int need_comma;
	uint32_t next_pid;
	tef_proc *procs;
	size_t n_procs, procs_alloc;
	evi_idmap proc_index;  /* capset -> position in procs */
	uint32_t default_pid;  /* 0 until a cap of no process needs it */
	uint64_t default_allocated;
	tef_cap *caps;
	size_t n_caps;
	int global_seen;
	evi_idmap label_ids;   /* thread -> position in labels */
	tef_label *labels;     /* parallel to label_ids' entries */
	size_t labels_alloc;
	uint64_t last_time;
	unsigned quirks;       /* the session's header's: STOP_THREAD codes */
	evi_need_table need;   /* the payload sizes tef_event checks */
	ev_exporter *x;        /* for the spans' callback */
	ev_stats *spans;       /* pairs START/STOP (RUN/STOP_THREAD, USER_MSG) */
	evi_idmap span_names;  /* name text -> name number */
	evi_idmap span_track_ids; /* name number << 32 | thread -> track */
	tef_span_track *span_tracks;
	size_t n_span_tracks, span_tracks_alloc;
} tef_state;

/* ------------------------------------------------------------------------
 * Writing records
 * ---------------------------------------------------------------------- */

/* Appends a string literal without measuring it. */
#define put_lit(t, s) evi_put((t), "" s, sizeof(s) - 1)

static void put_string(ev_text *t, const char *s)
{
	evi_put_json_string(t, (const uint8_t *)s, strlen(s));
}

/*
 * Records are written into room reserved up front (evi_out_room), one size
 * check per record: its fixed text and numbers take at most these bytes.
 */
/* The separator and {"ph":"PH","name": */
#define HEAD_MAX 19u
/* ,"ts":..,"pid":..,"tid":.. */
#define WHERE_MAX (21u + EVI_US_MAX + 2u * EVI_U64_MAX)
/* ,"cat":"thread","dur":.. and the place */
#define SLICE_MAX (15u + 7u + EVI_US_MAX + WHERE_MAX)
/* A thread's run but its label: "thread N", slice, its args and the end. */
#define THREAD_SLICE_MAX (HEAD_MAX + 9u + EVI_U64_MAX + SLICE_MAX + 18u \
			  + EVI_U64_MAX + 10u + EVI_STOP_NAME_MAX + 2u)

/* Starts a record at p: the separator, then {"ph":"PH","name": */
static char *fmt_record(ev_exporter *x, tef_state *st, char *p, char ph)
{
	if (st->need_comma)
		*p++ = ',';
	p = evi_fmt_lit(p, "\n{\"ph\":\"");
	*p++ = ph;
	p = evi_fmt_lit(p, "\",\"name\":");
	st->need_comma = 1;
	x->stats.records++;
	return p;
}

static void record(ev_exporter *x, tef_state *st, char ph)
{
	char *p = evi_out_room(&x->out, HEAD_MAX);

	if (p)
		evi_out_end(&x->out, fmt_record(x, st, p, ph));
}

static char *fmt_where(char *p, uint64_t ts, uint32_t pid, uint32_t tid)
{
	p = evi_fmt_lit(p, ",\"ts\":");
	p = evi_fmt_us(p, ts);
	p = evi_fmt_lit(p, ",\"pid\":");
	p = evi_fmt_u64(p, pid);
	p = evi_fmt_lit(p, ",\"tid\":");
	return evi_fmt_u64(p, tid);
}

static void put_where(ev_text *t, uint64_t ts, uint32_t pid, uint32_t tid)
{
	char *p = evi_out_room(t, WHERE_MAX);

	if (p)
		evi_out_end(t, fmt_where(p, ts, pid, tid));
}

static void put_num_arg(ev_text *t, const char *name, uint64_t v, int first)
{
	evi_puts(t, first ? "\"" : ",\"");
	evi_puts(t, name);
	put_lit(t, "\":");
	evi_put_u64(t, v);
}

/* ------------------------------------------------------------------------
 * Processes and capabilities
 * ---------------------------------------------------------------------- */

static tef_proc *proc_find(tef_state *st, uint32_t capset)
{
	uint64_t i;

	return evi_idmap_get(&st->proc_index, capset, &i) ? &st->procs[i] : NULL;
}

static int proc_get(ev_exporter *x, tef_state *st, uint32_t capset,
		    tef_proc **out)
{
	tef_proc *p = proc_find(st, capset);

	if (!p && st->n_procs < MAX_PROCS) {
		if (st->n_procs == st->procs_alloc &&
		    evi_grow_zeroed(&x->diag, &st->procs, &st->procs_alloc,
				    st->n_procs, sizeof *st->procs) < 0)
			return x->diag.status;
		if (evi_idmap_add(&st->proc_index, capset, st->n_procs,
				  MAX_PROCS, NULL) < 0)
			return evi_fail(&x->diag, EV_ENOMEM, 0, 0,
					"out of memory");
		p = &st->procs[st->n_procs++];
		memset(p, 0, sizeof *p);
		p->capset = capset;
		p->pid = ++st->next_pid;
		x->stats.processes++;
	}
	*out = p;
	return EV_OK;
}

static inline tef_cap *cap_get(ev_exporter *x, tef_state *st, uint16_t cap)
{
	/* The test first: this runs for every event. */
	if (cap >= st->n_caps &&
	    evi_grow_zeroed(&x->diag, &st->caps, &st->n_caps, cap,
			    sizeof *st->caps) < 0)
		return NULL;
	st->caps[cap].seen = 1;
	return &st->caps[cap];
}

static uint32_t default_pid(tef_state *st)
{
	if (!st->default_pid)
		st->default_pid = ++st->next_pid;
	return st->default_pid;
}

/* The JSON pid of capability `cap`: its process, or the default one when
 * no capset claimed it; global events (EV_NO_CAP) go to the first process. */
static uint32_t pid_of_cap(tef_state *st, uint16_t cap)
{
	if (cap == EV_NO_CAP && st->n_procs)
		return st->procs[0].pid;
	if (cap == EV_NO_CAP || cap >= st->n_caps || !st->caps[cap].proc)
		return default_pid(st);
	return st->procs[st->caps[cap].proc - 1].pid;
}

static uint32_t tid_of_cap(uint16_t cap)
{
	return cap == EV_NO_CAP ? GLOBAL_TID : (uint32_t)cap + 1;
}

/* ------------------------------------------------------------------------
 * Thread labels of live threads, bounded: an idmap of thread ids and an
 * array parallel to its entries
 * ---------------------------------------------------------------------- */

static tef_label *label_find(const tef_state *st, uint32_t thread)
{
	size_t i = evi_idmap_index(&st->label_ids, thread);

	return i == SIZE_MAX ? NULL : &st->labels[i];
}

/* Forgets the label of `thread` (it finished), if it has one. */
static void label_remove(tef_state *st, uint32_t thread)
{
	size_t i = evi_idmap_remove(&st->label_ids, thread);

	if (i == SIZE_MAX)
		return;
	free(st->labels[i].json);
	st->labels[i] = st->labels[st->label_ids.count];
}

/* The label as a JSON string literal, cut to NAME_MAX_BYTES. */
static char *label_json(const uint8_t *p, size_t len, uint32_t *json_len)
{
	ev_text t = EV_TEXT_INIT;
	char *cut = evi_text_copy(p, len, NAME_MAX_BYTES, NULL);

	if (!cut)
		return NULL;
	evi_put_json_string(&t, (const uint8_t *)cut, strlen(cut));
	free(cut);
	if (t.failed) {
		ev_text_free(&t);
		return NULL;
	}
	/* Exactly its size: the text buffer starts at 4 KiB. */
	*json_len = (uint32_t)t.len;
	cut = realloc(t.data, t.len);
	return cut ? cut : t.data;
}

static int label_set(ev_exporter *x, tef_state *st, uint32_t thread,
		     const uint8_t *p, size_t len)
{
	tef_label *l = label_find(st, thread);
	uint32_t json_len;
	char *json;

	if (!l && st->label_ids.count >= EV_EXPORT_MAX_LABELS) {
		x->stats.labels_dropped++;
		return EV_OK;
	}
	if (!(json = label_json(p, len, &json_len)))
		return evi_fail(&x->diag, EV_ENOMEM, 0, 0, "out of memory");
	if (!l) {
		size_t i = st->label_ids.count;
		if (evi_grow_zeroed(&x->diag, &st->labels, &st->labels_alloc,
				    i, sizeof *st->labels) < 0) {
			free(json);
			return x->diag.status;
		}
		if (evi_idmap_add(&st->label_ids, thread, 0,
				  EV_EXPORT_MAX_LABELS, NULL) < 0) {
			free(json);
			return evi_fail(&x->diag, EV_ENOMEM, 0, 0,
					"out of memory");
		}
		l = &st->labels[i];
		l->json = NULL;
	}
	free(l->json);
	l->json = json;
	l->len = json_len;
	return EV_OK;
}

static void labels_clear(tef_state *st)
{
	for (size_t i = 0; i < st->label_ids.count; i++)
		free(st->labels[i].json);
	evi_idmap_free(&st->label_ids);
}

/* ------------------------------------------------------------------------
 * Slices
 * ---------------------------------------------------------------------- */

/* ,"ts":..,"pid":..,"tid":.. of a capability's record at p. */
static char *fmt_cap_where(char *p, tef_state *st, uint16_t cap, uint64_t ts)
{
	tef_cap *c = &st->caps[cap];

	if (!c->place_len) {
		char *end = evi_fmt_lit(c->place, ",\"pid\":");
		end = evi_fmt_u64(end, pid_of_cap(st, cap));
		end = evi_fmt_lit(end, ",\"tid\":");
		end = evi_fmt_u64(end, tid_of_cap(cap));
		c->place_len = (uint8_t)(end - c->place);
	}
	p = evi_fmt_lit(p, ",\"ts\":");
	p = evi_fmt_us(p, ts);
	/* Whole: WHERE_MAX has room for the longest. */
	memcpy(p, c->place, sizeof c->place);
	return p + c->place_len;
}

/* Writes ,"cat":CAT,"dur":..,"ts":..,"pid":..,"tid":.. (a slice's record
 * after its name, open for its args) at p; CAT is "gc" if `gc`, else
 * "thread". */
static char *fmt_slice(char *p, tef_state *st, uint16_t cap, int gc,
		       uint64_t start, uint64_t end)
{
	if (gc)
		p = evi_fmt_lit(p, ",\"cat\":\"gc\",\"dur\":");
	else
		p = evi_fmt_lit(p, ",\"cat\":\"thread\",\"dur\":");
	p = evi_fmt_us(p, end - start);
	return fmt_cap_where(p, st, cap, start);
}

static void slice_open(ev_exporter *x, tef_state *st, uint16_t cap, int gc,
		       uint64_t start, uint64_t end)
{
	char *p = evi_out_room(&x->out, SLICE_MAX);

	if (p)
		evi_out_end(&x->out, fmt_slice(p, st, cap, gc, start, end));
}

static void thread_slice(ev_exporter *x, tef_state *st, uint16_t cap,
			 tef_cap *c, uint64_t end, int have_status,
			 unsigned status)
{
	const tef_label *l = label_find(st, c->thread);
	char *p = evi_out_room(&x->out,
			       THREAD_SLICE_MAX + (l ? l->len : 0));
	char *id = NULL;       /* the thread's number in its name */
	size_t id_len = 0;

	if (end < c->run_start)
		end = c->run_start;
	c->last_end = end;
	c->running = 0;
	if (!p)
		return;
	p = fmt_record(x, st, p, 'X');
	if (l) {
		memcpy(p, l->json, l->len);
		p += l->len;
	} else {
		p = evi_fmt_lit(p, "\"thread ");
		id = p;
		p = evi_fmt_u64(p, c->thread);
		id_len = (size_t)(p - id);
		*p++ = '"';
	}
	p = fmt_slice(p, st, cap, 0, c->run_start, end);
	p = evi_fmt_lit(p, ",\"args\":{\"thread\":");
	if (id) {
		memcpy(p, id, id_len);
		p += id_len;
	} else {
		p = evi_fmt_u64(p, c->thread);
	}
	if (have_status) {
		const evi_stop_name *s = evi_stop_status_constructor(status);
		p = evi_fmt_lit(p, ",\"stop\":\"");
		/* Its closing quote and "}}" follow: room for the padding. */
		memcpy(p, s->name, sizeof s->name);
		p += s->len;
		*p++ = '"';
	}
	evi_out_end(&x->out, evi_fmt_lit(p, "}}"));
}

static void phase_end(ev_exporter *x, tef_state *st, uint16_t cap,
		      tef_cap *c, uint64_t t)
{
	uint64_t start = c->phase_start;

	if (c->phase == PHASE_NONE)
		return;
	if (start < c->gc_child_end)
		start = c->gc_child_end;
	if (t < start)
		t = start;
	record(x, st, 'X');
	evi_puts(&x->out, c->phase == PHASE_WORK ? "\"GC work\"" : "\"GC idle\"");
	slice_open(x, st, cap, 1, start, t);
	evi_putc(&x->out, '}');
	c->gc_child_end = t;
	c->phase = PHASE_NONE;
}

/* The GC slice, with the fields of GC_STATS_GHC `stats` if not NULL. */
static void gc_slice(ev_exporter *x, tef_state *st, uint16_t cap, tef_cap *c,
		     const ev_decoded *stats)
{
	ev_text *t = &x->out;
	uint64_t end = c->gc_end;

	if (end < c->gc_child_end)
		end = c->gc_child_end;
	record(x, st, 'X');
	put_lit(t, "\"GC\"");
	slice_open(x, st, cap, 1, c->gc_start, end);
	if (stats) {
		put_lit(t, ",\"args\":{");
		/* Field 0 is the capset: the process says that. */
		for (unsigned i = 1; i < stats->n; i++)
			put_num_arg(t, stats->values[i].field->name,
				    stats->values[i].num, i == 1);
		evi_putc(t, '}');
	}
	evi_putc(t, '}');
	c->last_end = end;
	c->gc_pending = 0;
}

static void flush_pending_gc(ev_exporter *x, tef_state *st, uint16_t cap,
			     tef_cap *c)
{
	if (c->gc_pending)
		gc_slice(x, st, cap, c, NULL);
}

static void close_open(ev_exporter *x, tef_state *st, uint16_t cap,
		       tef_cap *c, uint64_t t)
{
	if (c->running)
		thread_slice(x, st, cap, c, t, 0, 0);
	if (c->in_gc) {
		phase_end(x, st, cap, c, t);
		c->gc_end = t;
		c->gc_pending = 1;
		c->in_gc = 0;
	}
	flush_pending_gc(x, st, cap, c);
}

/* Closes whatever is open on a capability at time `t` (at a thread's run
 * most often nothing: the check comes first). */
static inline void cap_close(ev_exporter *x, tef_state *st, uint16_t cap,
			     tef_cap *c, uint64_t t)
{
	if (c->running || c->in_gc || c->gc_pending)
		close_open(x, st, cap, c, t);
}

static uint64_t slice_start(const tef_cap *c, uint64_t t)
{
	return t < c->last_end ? c->last_end : t;
}

/* ------------------------------------------------------------------------
 * Instants and counters
 * ---------------------------------------------------------------------- */

static void instant(ev_exporter *x, tef_state *st, const ev_event *ev,
		    const char *cat, const uint8_t *text, size_t len)
{
	ev_text *t = &x->out;

	if (ev->cap == EV_NO_CAP)
		st->global_seen = 1;
	record(x, st, 'i');
	evi_put_json_string(t, text, len);
	put_lit(t, ",\"cat\":\"");
	evi_puts(t, cat);
	put_lit(t, "\",\"s\":\"t\"");
	put_where(t, ev->time, pid_of_cap(st, ev->cap), tid_of_cap(ev->cap));
	evi_putc(t, '}');
}

static void instant_named(ev_exporter *x, tef_state *st, const ev_event *ev,
			  const char *name)
{
	instant(x, st, ev, "gc", (const uint8_t *)name, strlen(name));
}

/* {"ph":"C","name":NAME,"ts":..,"pid":..,"args":{ left open */
static void counter_open(ev_exporter *x, tef_state *st, const char *name,
			 uint64_t ts, uint32_t pid)
{
	ev_text *t = &x->out;

	record(x, st, 'C');
	put_string(t, name);
	put_lit(t, ",\"ts\":");
	evi_put_us(t, ts);
	put_lit(t, ",\"pid\":");
	evi_put_u64(t, pid);
	put_lit(t, ",\"args\":{");
}

/* A heap figure of a process; HEAP_ALLOCATED is each cap's running total,
 * and the process's allocation is their sum. A capset that is no known
 * process counts for the default process. */
static int heap_counter(ev_exporter *x, tef_state *st, const ev_event *ev,
			const char *name)
{
	tef_proc *p = proc_find(st, ev_load32(ev->payload));
	uint64_t bytes = ev_load64(ev->payload + 4);
	uint64_t *total = p ? &p->allocated : &st->default_allocated;

	if (ev->type == EV_HEAP_ALLOCATED && ev->cap != EV_NO_CAP) {
		tef_cap *c = cap_get(x, st, ev->cap);
		if (!c)
			return x->diag.status;
		*total += bytes - c->allocated;
		c->allocated = bytes;
		bytes = *total;
	}
	counter_open(x, st, name, ev->time, p ? p->pid : default_pid(st));
	put_num_arg(&x->out, "bytes", bytes, 1);
	put_lit(&x->out, "}}");
	return EV_OK;
}

/* SPARK_COUNTERS (doc/format.md s. 5): seven u64 totals of one capability. */
static void spark_counter(ev_exporter *x, tef_state *st, const ev_event *ev)
{
	static const char *const names[] = {
		"created", "dud", "overflowed", "converted", "gcd", "fizzled",
		"remaining"
	};
	char name[32];

	if (ev->cap == EV_NO_CAP)
		return;
	snprintf(name, sizeof name, "sparks cap %u", (unsigned)ev->cap);
	counter_open(x, st, name, ev->time, pid_of_cap(st, ev->cap));
	for (unsigned i = 0; i < 7; i++)
		put_num_arg(&x->out, names[i], ev_load64(ev->payload + 8 * i),
			    i == 0);
	put_lit(&x->out, "}}");
}

/* ------------------------------------------------------------------------
 * Events
 * ---------------------------------------------------------------------- */

static int on_process_event(ev_exporter *x, tef_state *st, const ev_event *ev)
{
	tef_proc *p = NULL;
	int rc;

	if (ev->type == EV_CAPSET_ASSIGN_CAP) {
		uint16_t cap = ev_load16(ev->payload + 4);
		tef_cap *c;
		if (!(p = proc_find(st, ev_load32(ev->payload))) ||
		    cap == EV_NO_CAP)
			return EV_OK; /* a clock domain, or no cap */
		if (!(c = cap_get(x, st, cap)))
			return x->diag.status;
		c->proc = (uint32_t)(p - st->procs) + 1;
		c->place_len = 0;
		return EV_OK;
	}
	if (ev->type == EV_CAPSET_CREATE &&
	    ev_load16(ev->payload + 4) != EV_CAPSET_OS_PROCESS)
		return EV_OK;
	if ((rc = proc_get(x, st, ev_load32(ev->payload), &p)) < 0 || !p)
		return rc;
	if (ev->type == EV_OSPROCESS_PID) {
		p->have_os_pid = 1;
		p->os_pid = ev_load32(ev->payload + 4);
	} else if (ev->type == EV_PROGRAM_ARGS && !p->name) {
		/* The program's base name: its first argument's last part. */
		const uint8_t *arg = ev->payload + 4;
		size_t len = 0, base = 0;
		while (4 + len < ev->size && arg[len])
			if (arg[len++] == '/')
				base = len;
		arg += base;
		len -= base;
		if (!(p->name = evi_text_copy(arg, len, NAME_MAX_BYTES, NULL)))
			return evi_fail(&x->diag, EV_ENOMEM, 0, 0,
					"out of memory");
	}
	return EV_OK;
}

static void on_run(ev_exporter *x, tef_state *st, const ev_event *ev,
		   tef_cap *c)
{
	cap_close(x, st, ev->cap, c, ev->time);
	c->running = 1;
	c->thread = ev_load32(ev->payload);
	c->run_start = slice_start(c, ev->time);
}

static void on_stop(ev_exporter *x, tef_state *st, const ev_event *ev,
		    tef_cap *c)
{
	uint32_t thread = ev_load32(ev->payload);
	unsigned status = evi_stop_status(ev_load16(ev->payload + 4),
					  st->quirks);

	if (c->running && c->thread == thread)
		thread_slice(x, st, ev->cap, c, ev->time, 1, status);
	if (status == EVI_STOP_FINISHED)
		label_remove(st, thread);
}

static void on_gc(ev_exporter *x, tef_state *st, const ev_event *ev,
		  tef_cap *c)
{
	switch (ev->type) {
	case EV_GC_START:
		cap_close(x, st, ev->cap, c, ev->time);
		c->in_gc = 1;
		c->gc_start = c->gc_child_end = slice_start(c, ev->time);
		c->phase = PHASE_NONE;
		break;
	case EV_GC_WORK:
	case EV_GC_IDLE:
	case EV_GC_DONE:
		if (!c->in_gc)
			break;
		phase_end(x, st, ev->cap, c, ev->time);
		c->phase = ev->type == EV_GC_WORK ? PHASE_WORK
			 : ev->type == EV_GC_IDLE ? PHASE_IDLE : PHASE_NONE;
		c->phase_start = ev->time;
		break;
	case EV_GC_END:
		if (!c->in_gc)
			break;
		phase_end(x, st, ev->cap, c, ev->time);
		c->in_gc = 0;
		c->gc_end = ev->time < c->gc_start ? c->gc_start : ev->time;
		c->gc_pending = 1;
		break;
	}
}

static void on_gc_stats(ev_exporter *x, tef_state *st, const ev_event *ev,
			tef_cap *c)
{
	ev_decoded d;

	if (c->gc_pending && ev_decode(ev, &d))
		gc_slice(x, st, ev->cap, c, &d);
}

/* Events of a capability's track. */
static int on_cap_event(ev_exporter *x, tef_state *st, const ev_event *ev)
{
	tef_cap *c = cap_get(x, st, ev->cap);

	if (!c)
		return x->diag.status;
	c->last_time = ev->time;
	switch (ev->type) {
	case EV_RUN_THREAD:
		on_run(x, st, ev, c);
		break;
	case EV_STOP_THREAD:
		on_stop(x, st, ev, c);
		break;
	case EV_GC_START:
	case EV_GC_END:
	case EV_GC_WORK:
	case EV_GC_IDLE:
	case EV_GC_DONE:
		on_gc(x, st, ev, c);
		break;
	case EV_GC_STATS_GHC:
		on_gc_stats(x, st, ev, c);
		break;
	}
	return EV_OK;
}

/* How tef_event takes each type (all it handles are below 64): on a
 * capability's track (on_cap_event), elsewhere (other_event) or not at
 * all. */
#define TYPES 64u
enum take { SKIP, CAP_TRACK, OTHER };
static const uint8_t takes[TYPES] = {
	[EV_RUN_THREAD] = CAP_TRACK, [EV_STOP_THREAD] = CAP_TRACK,
	[EV_GC_START] = CAP_TRACK, [EV_GC_END] = CAP_TRACK,
	[EV_GC_WORK] = CAP_TRACK, [EV_GC_IDLE] = CAP_TRACK,
	[EV_GC_DONE] = CAP_TRACK, [EV_GC_STATS_GHC] = CAP_TRACK,
	[EV_THREAD_LABEL] = OTHER, [EV_PROGRAM_ARGS] = OTHER,
	[EV_CAPSET_CREATE] = OTHER, [EV_CAPSET_ASSIGN_CAP] = OTHER,
	[EV_OSPROCESS_PID] = OTHER,
	[EV_REQUEST_SEQ_GC] = OTHER, [EV_REQUEST_PAR_GC] = OTHER,
	[EV_GC_GLOBAL_SYNC] = OTHER, [EV_USER_MARKER] = OTHER,
	[EV_USER_MSG] = OTHER, [EV_HEAP_SIZE] = OTHER,
	[EV_HEAP_LIVE] = OTHER, [EV_HEAP_ALLOCATED] = OTHER,
	[EV_SPARK_COUNTERS] = OTHER
};

/* The events of no capability's track (ev->size checked). */
static int other_event(ev_exporter *x, tef_state *st, const ev_event *ev)
{
	switch (ev->type) {
	case EV_THREAD_LABEL:
		return label_set(x, st, ev_load32(ev->payload), ev->payload + 4,
				 ev->size - 4);
	case EV_CAPSET_CREATE:
	case EV_CAPSET_ASSIGN_CAP:
	case EV_OSPROCESS_PID:
	case EV_PROGRAM_ARGS:
		return on_process_event(x, st, ev);
	case EV_REQUEST_SEQ_GC:
		instant_named(x, st, ev, "request seq GC");
		break;
	case EV_REQUEST_PAR_GC:
		instant_named(x, st, ev, "request par GC");
		break;
	case EV_GC_GLOBAL_SYNC:
		instant_named(x, st, ev, "GC global sync");
		break;
	case EV_USER_MARKER:
		instant(x, st, ev, "marker", ev->payload, ev->size);
		break;
	case EV_USER_MSG:
		instant(x, st, ev, "message", ev->payload, ev->size);
		break;
	case EV_HEAP_SIZE:
		return heap_counter(x, st, ev, "heap size");
	case EV_HEAP_LIVE:
		return heap_counter(x, st, ev, "heap live");
	case EV_HEAP_ALLOCATED:
		return heap_counter(x, st, ev, "allocated");
	case EV_SPARK_COUNTERS:
		spark_counter(x, st, ev);
		break;
	}
	return EV_OK;
}

/* ------------------------------------------------------------------------
 * The user's spans
 * ---------------------------------------------------------------------- */

/* The track of `thread` and `name`, added on first sight; its number,
 * or -1 out of memory. */
static long span_track(tef_state *st, uint32_t pid, uint32_t thread,
		       const char *name)
{
	uint64_t name_no, track;
	int added;

	if (evi_idmap_add(&st->span_names, (uint64_t)(uintptr_t)name,
			  st->span_names.count, SIZE_MAX, NULL) < 0)
		return -1;
	evi_idmap_get(&st->span_names, (uint64_t)(uintptr_t)name, &name_no);
	if (evi_idmap_add(&st->span_track_ids, name_no << 32 | thread,
			  st->n_span_tracks, SIZE_MAX, &added) < 0)
		return -1;
	evi_idmap_get(&st->span_track_ids, name_no << 32 | thread, &track);
	if (!added)
		return (long)track;
	if (evi_grow(&st->span_tracks, &st->span_tracks_alloc,
		     st->n_span_tracks + 1, sizeof *st->span_tracks) < 0)
		return -1;
	st->span_tracks[st->n_span_tracks++] =
		(tef_span_track){ pid, thread, name };
	return (long)track;
}

/* ev_stats_on_span: a slice on the track of its thread and name. */
static void on_span(void *ctx, const ev_stats_span_end *s)
{
	tef_state *st = ctx;
	ev_exporter *x = st->x;
	uint32_t pid = pid_of_cap(st, s->cap);
	long track = span_track(st, pid, s->tid, s->span->name);
	char *p;

	if (track < 0) {
		evi_fail(&x->diag, EV_ENOMEM, 0, 0, "out of memory");
		return;
	}
	record(x, st, 'X');
	put_string(&x->out, s->span->name);
	if (!(p = evi_out_room(&x->out, SLICE_MAX + 14u + EVI_U64_MAX)))
		return;
	p = evi_fmt_lit(p, ",\"cat\":\"span\",\"dur\":");
	p = evi_fmt_us(p, s->duration_ns);
	p = fmt_where(p, s->start_ns, pid, SPAN_TID_BASE + (uint32_t)track);
	p = evi_fmt_lit(p, ",\"args\":{\"thread\":");
	p = evi_fmt_u64(p, s->tid);
	evi_out_end(&x->out, evi_fmt_lit(p, "}}"));
}

/* The events the spans need, to the ev_stats that pairs them. */
static int span_event(ev_exporter *x, tef_state *st, const ev_event *ev)
{
	if (ev_stats_add(st->spans, ev) < 0) {
		x->diag = *ev_stats_diag(st->spans);
		return x->diag.status;
	}
	return x->diag.status < 0 ? x->diag.status : EV_OK;
}

static int tef_event(ev_exporter *x, void *state, const ev_event *ev)
{
	tef_state *st = state;
	unsigned take;
	int rc;

	st->last_time = ev->time;
	if ((ev->type == EV_RUN_THREAD || ev->type == EV_STOP_THREAD ||
	     ev->type == EV_USER_MSG) &&
	    (rc = span_event(x, st, ev)) < 0)
		return rc;
	if (ev->type >= TYPES || (take = takes[ev->type]) == SKIP)
		return EV_OK;
	if ((rc = evi_need_fast(&st->need, &x->diag, ev,
				"the export needs")) < 0)
		return rc;
	if (take == CAP_TRACK)
		return ev->cap == EV_NO_CAP ? EV_OK : on_cap_event(x, st, ev);
	return other_event(x, st, ev);
}

/* ------------------------------------------------------------------------
 * Sessions and the document
 * ---------------------------------------------------------------------- */

static void metadata(ev_exporter *x, tef_state *st, const char *what,
		     uint32_t pid, int have_tid, uint32_t tid)
{
	ev_text *t = &x->out;

	record(x, st, 'M');
	evi_putc(t, '"');
	evi_puts(t, what);
	put_lit(t, "\",\"pid\":");
	evi_put_u64(t, pid);
	if (have_tid) {
		put_lit(t, ",\"tid\":");
		evi_put_u64(t, tid);
	}
	put_lit(t, ",\"args\":{\"name\":");
}

static void name_process(ev_exporter *x, tef_state *st, const tef_proc *p)
{
	char name[NAME_MAX_BYTES + 32];
	int n;

	metadata(x, st, "process_name", p->pid, 0, 0);
	if (p->have_os_pid)
		n = snprintf(name, sizeof name, "%s (pid %u)",
			     p->name ? p->name : "GHC process",
			     (unsigned)p->os_pid);
	else
		n = snprintf(name, sizeof name, "%s",
			     p->name ? p->name : "GHC process");
	evi_put_json_string(&x->out, (const uint8_t *)name, (size_t)n);
	put_lit(&x->out, "}}");
}

static void name_span_tracks(ev_exporter *x, tef_state *st)
{
	char name[EV_STATS_MAX_SPAN_NAME + 32];

	for (size_t i = 0; i < st->n_span_tracks; i++) {
		const tef_span_track *k = &st->span_tracks[i];
		int n = snprintf(name, sizeof name, "thread %u: %s",
				 (unsigned)k->thread, k->name);
		metadata(x, st, "thread_name", k->pid, 1,
			 SPAN_TID_BASE + (uint32_t)i);
		evi_put_json_string(&x->out, (const uint8_t *)name,
				    (size_t)n < sizeof name ? (size_t)n
							    : sizeof name - 1);
		put_lit(&x->out, "}}");
	}
	st->n_span_tracks = 0;
	evi_idmap_free(&st->span_track_ids);
}

/* Closes what is open and names the session's processes and tracks. */
static void end_session(ev_exporter *x, tef_state *st)
{
	for (size_t i = 0; i < st->n_caps; i++)
		if (st->caps[i].seen)
			cap_close(x, st, (uint16_t)i, &st->caps[i],
				  st->last_time);
	for (size_t i = 0; i < st->n_procs; i++)
		name_process(x, st, &st->procs[i]);
	if (st->default_pid) {
		metadata(x, st, "process_name", st->default_pid, 0, 0);
		put_lit(&x->out, "\"GHC process\"}}");
	}
	for (size_t i = 0; i < st->n_caps; i++) {
		char name[16];
		if (!st->caps[i].seen)
			continue;
		metadata(x, st, "thread_name", pid_of_cap(st, (uint16_t)i), 1,
			 tid_of_cap((uint16_t)i));
		snprintf(name, sizeof name, "\"cap %u\"}}", (unsigned)i);
		evi_puts(&x->out, name);
	}
	if (st->global_seen) {
		metadata(x, st, "thread_name", pid_of_cap(st, EV_NO_CAP), 1,
			 GLOBAL_TID);
		put_lit(&x->out, "\"global\"}}");
	}
	name_span_tracks(x, st);
	for (size_t i = 0; i < st->n_procs; i++)
		free(st->procs[i].name);
	st->n_procs = 0;
	evi_idmap_free(&st->proc_index);
	st->global_seen = 0;
	st->default_pid = 0;
	st->default_allocated = 0;
	if (st->caps)
		memset(st->caps, 0, st->n_caps * sizeof *st->caps);
	labels_clear(st);
}

static void begin(ev_exporter *x, tef_state *st)
{
	if (st->began)
		return;
	evi_puts(&x->out, "{\"displayTimeUnit\":\"ns\",\"otherData\":"
		 "{\"exporter\":\"evtool " EV_VERSION_STRING "\"},"
		 "\"traceEvents\":[");
	st->began = 1;
}

static int tef_session(ev_exporter *x, void *state, unsigned session,
		       unsigned quirks)
{
	tef_state *st = state;

	(void)session;
	begin(x, st);
	end_session(x, st);
	st->quirks = quirks;
	return evi_export_check(x);
}

static int tef_finish(ev_exporter *x, void *state)
{
	tef_state *st = state;

	begin(x, st);
	end_session(x, st);
	put_lit(&x->out, "\n]}\n");
	return evi_export_check(x);
}

static int tef_open(ev_exporter *x, void **state)
{
	tef_state *st = calloc(1, sizeof *st);

	if (!st)
		return EV_ENOMEM;
	if (ev_stats_new(&st->spans, NULL) < 0 ||
	    ev_stats_keep_spans(st->spans, EV_STATS_SPANS_EVENTS) < 0) {
		ev_stats_free(st->spans);
		free(st);
		return EV_ENOMEM;
	}
	st->x = x;
	ev_stats_on_span(st->spans, on_span, st);
	evi_need_table_init(&st->need);
	*state = st;
	return EV_OK;
}

static void tef_free(void *state)
{
	tef_state *st = state;

	for (size_t i = 0; i < st->n_procs; i++)
		free(st->procs[i].name);
	labels_clear(st);
	free(st->labels);
	evi_idmap_free(&st->proc_index);
	free(st->procs);
	free(st->caps);
	ev_stats_free(st->spans);
	evi_idmap_free(&st->span_names);
	evi_idmap_free(&st->span_track_ids);
	free(st->span_tracks);
	free(st);
}

const evi_export_ops evi_export_tef = {
	tef_open, tef_session, tef_event, tef_finish, tef_free, NULL
};
