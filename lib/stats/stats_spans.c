/*
 * Spans of the user's own code (include/evtool/stats_spans.h): USER_MSG
 * (19) "START name" / "STOP name" paired per Haskell thread, and the time
 * between consecutive USER_MARKERs (58) of one name on one thread. The
 * text of both is the payload's one TEXT field, the whole payload, as the
 * catalogue lays them out (checked once, by ev_stats_keep_spans, against
 * evi_catalog_layout: decoding each event costed as much as the rest of
 * the spans); the thread is the one running on the event's
 * capability (stats_threads.c's RUN_THREAD/STOP_THREAD state, or the
 * state a replay of reading in parallel gives), which stats.c passes in;
 * 0 when none is.
 *
 * Open spans are stacks keyed by (name, thread) in an id map, their
 * entries in one pool with a free list; durations go into the pause
 * histogram of stats_pauses.c, per name and per (name, thread).
 *
 * Layering: called by stats.c (events, the free) and stats_finish.c; it
 * calls stats_pauses.c's duration sets and lib/format.
 */
#include <stdlib.h>
#include <string.h>

#include "evtool/catalog.h"
#include "internal.h"
#include "stats_internal.h"
#include "text.h"

#define NO_NODE UINT32_MAX

/* The spans of one (name, thread): the public figures, their histogram. */
typedef struct span_set {
	ev_stats_span_figures pub;
	evi_pause_set hist;
	uint32_t name;  /* its name's index */
} span_set;

/* The spans of one name, every thread together. */
typedef struct span_name {
	ev_stats_span pub;
	evi_pause_set hist;
	size_t name_len;
	uint64_t hash;  /* of kind and text (name_hash) */
} span_name;

/* An open START (or the last marker) of one (name, thread). */
typedef struct open_node {
	uint64_t start;
	uint32_t below; /* the next older open one of the same key */
} open_node;

struct evi_spans {
	unsigned kinds;
	span_name *names;
	size_t n_names, names_alloc;
	evi_idmap name_index;         /* name_hash -> the first name of it */
	size_t last_name[2];          /* per kind, the name found last + 1 */
	span_set *threads;            /* (name, thread) sets, first seen first */
	size_t n_threads, threads_alloc;
	evi_idmap thread_index;       /* key -> index in threads */
	ev_stats_span_figures *published; /* per name, its threads' pub */
	evi_idmap open;               /* key -> its top node, or NO_NODE */
	size_t empty_keys;            /* keys of open whose stack is empty */
	open_node *nodes;
	size_t n_nodes, nodes_alloc;
	uint32_t free_node;           /* NO_NODE: none */
	size_t open_count;
	ev_stats_spans_summary summary;
	ev_stats_span_fn on_span;
	void *on_span_ctx;
};

/* Whether the catalogue lays out `type` as one text field from the
 * payload's first byte to its end, whatever its size. */
static int whole_payload_text(uint16_t type)
{
	const ev_layout *l = evi_catalog_layout(type, 0);

	return l && l->min_size == 0 && l->n_fields == 1 &&
	       l->fields[0].kind == EV_FIELD_TEXT;
}

int ev_stats_keep_spans(ev_stats *st, unsigned kinds)
{
	unsigned all = EV_STATS_SPANS_EVENTS | EV_STATS_SPANS_MARKERS;

	if (!whole_payload_text(EV_USER_MSG) ||
	    !whole_payload_text(EV_USER_MARKER))
		return evi_fail(&st->diag, EV_EINVAL, 0, 0, "ev_stats_keep_spans: "
				"the catalogue's user events are not text");
	if (st->an.started || !(kinds & all) || (kinds & ~all))
		return evi_fail(&st->diag, EV_EINVAL, 0, 0,
				"ev_stats_keep_spans: before the first event, "
				"with EV_STATS_SPANS_EVENTS or _MARKERS");
	if (!st->spans && !(st->spans = calloc(1, sizeof *st->spans)))
		return evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
	st->spans->kinds = kinds;
	st->spans->free_node = NO_NODE;
	return EV_OK;
}

void ev_stats_on_span(ev_stats *st, ev_stats_span_fn fn, void *ctx)
{
	if (!st->spans)
		return;
	st->spans->on_span = fn;
	st->spans->on_span_ctx = ctx;
}

/* ---- names ---- */

/* The key of name_index: the text's hash, seeded with the kind. */
static uint64_t name_hash(const uint8_t *text, size_t len, unsigned kind)
{
	return evi_hash_bytes(text, len, kind);
}

static int same(const span_name *n, const uint8_t *name, size_t len,
		unsigned kind)
{
	return n->pub.kind == kind && n->name_len == len &&
	       memcmp(n->pub.name, name, len) == 0;
}

static long find_name(const evi_spans *sp, const uint8_t *name, size_t len,
		      unsigned kind)
{
	uint64_t first;
	size_t last = kind ? sp->last_name[kind - 1] : 0;

	/* A program's START and STOP of one name come in turn: the last
	 * name found is the next one more often than not. */
	if (last && same(&sp->names[last - 1], name, len, kind))
		return (long)last - 1;
	/* The map holds the first name of each hash; another name of the
	 * same hash (rare) is found by the walk below. */
	if (kind && evi_idmap_get(&sp->name_index,
				  name_hash(name, len, kind), &first) &&
	    same(&sp->names[first], name, len, kind))
		return (long)first;
	for (size_t i = 0; i < sp->n_names; i++) {
		const span_name *n = &sp->names[i];
		if ((!kind || n->pub.kind == kind) && n->name_len == len &&
		    memcmp(n->pub.name, name, len) == 0)
			return (long)i;
	}
	return -1;
}

static int hist_init(ev_stats *st, evi_pause_set *hist)
{
	if (evi_duration_set_init(hist) < 0)
		return evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
	return EV_OK;
}

/* The index of name `text` of `kind`, added on first sight; -1 past
 * EV_STATS_MAX_SPAN_NAMES, or an error (st->diag). */
static long name_get(ev_stats *st, const uint8_t *text, size_t len,
		     unsigned kind, int *rc)
{
	evi_spans *sp = st->spans;
	span_name *n;
	char *copy;
	size_t copy_len;
	long i;

	*rc = EV_OK;
	/* As kept: cut, then compared. */
	len = evi_text_cut(text, len, EV_STATS_MAX_SPAN_NAME);
	if ((i = find_name(sp, text, len, kind)) >= 0) {
		sp->last_name[kind - 1] = (size_t)i + 1;
		return i;
	}
	if (sp->n_names == EV_STATS_MAX_SPAN_NAMES)
		return -1;
	if (evi_grow(&sp->names, &sp->names_alloc, sp->n_names + 1,
		     sizeof *sp->names) < 0 ||
	    !(copy = evi_text_copy(text, len, EV_STATS_MAX_SPAN_NAME,
				   &copy_len))) {
		*rc = evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
		return -1;
	}
	n = &sp->names[sp->n_names];
	memset(n, 0, sizeof *n);
	if ((*rc = hist_init(st, &n->hist)) < 0) {
		free(copy);
		return -1;
	}
	n->pub.name = copy;
	n->name_len = copy_len;
	n->pub.kind = kind;
	n->hash = name_hash((const uint8_t *)copy, copy_len, kind);
	if (evi_idmap_add(&sp->name_index, n->hash, sp->n_names, SIZE_MAX,
			  NULL) < 0) {
		*rc = evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
		free(copy);
		return -1;
	}
	return (long)sp->n_names++;
}

/* ---- the open spans ---- */

static uint64_t key_of(long name, uint32_t tid)
{
	return (uint64_t)name << 32 | tid;
}

/* In a key: the stack of STOPs read before any START of theirs (the
 * "start" of each is the STOP's time). Names are fewer than 2^30. */
#define PENDING_STOP (1ull << 62)

static int push_open(ev_stats *st, uint64_t key, uint64_t time)
{
	evi_spans *sp = st->spans;
	size_t top = evi_idmap_index(&sp->open, key);
	uint32_t node;

	if (sp->open_count == EV_STATS_MAX_OPEN_SPANS) {
		sp->summary.dropped++;
		return EV_OK;
	}
	if (sp->free_node != NO_NODE) {
		node = sp->free_node;
		sp->free_node = sp->nodes[node].below;
	} else {
		if (evi_grow(&sp->nodes, &sp->nodes_alloc, sp->n_nodes + 1,
			     sizeof *sp->nodes) < 0)
			return evi_fail(&st->diag, EV_ENOMEM, 0, 0,
					"out of memory");
		node = (uint32_t)sp->n_nodes++;
	}
	sp->nodes[node].start = time;
	if (top == SIZE_MAX) {
		sp->nodes[node].below = NO_NODE;
		if (evi_idmap_add(&sp->open, key, node, SIZE_MAX, NULL) < 0)
			return evi_fail(&st->diag, EV_ENOMEM, 0, 0,
					"out of memory");
	} else {
		sp->nodes[node].below = (uint32_t)sp->open.values[top];
		sp->empty_keys -= sp->nodes[node].below == NO_NODE;
		evi_idmap_set_at(&sp->open, top, node);
	}
	sp->open_count++;
	return EV_OK;
}

/* A key whose stack empties stays in the map (a program opens the same
 * name on the same thread again and again: no removal and re-adding per
 * span) until EMPTY_KEYS_KEPT of them: then they all go, so that
 * threads that come and go do not grow the map. */
#define EMPTY_KEYS_KEPT 4096u

static void drop_empty_keys(evi_spans *sp)
{
	for (size_t i = sp->open.count; i-- > 0;)
		if (sp->open.values[i] == NO_NODE) /* the last moves into i */
			evi_idmap_remove(&sp->open, sp->open.keys[i]);
	sp->empty_keys = 0;
}

/* The latest open start of `key` into *start, left open; 0 when none. */
static int peek_open(const evi_spans *sp, uint64_t key, uint64_t *start)
{
	size_t top = evi_idmap_index(&sp->open, key);

	if (top == SIZE_MAX || sp->open.values[top] == NO_NODE)
		return 0;
	*start = sp->nodes[sp->open.values[top]].start;
	return 1;
}

/* Takes the latest open start of `key` into *start; 0 when none. */
static int pop_open(evi_spans *sp, uint64_t key, uint64_t *start)
{
	size_t top = evi_idmap_index(&sp->open, key);
	uint32_t node;

	if (top == SIZE_MAX || sp->open.values[top] == NO_NODE)
		return 0;
	node = (uint32_t)sp->open.values[top];
	*start = sp->nodes[node].start;
	evi_idmap_set_at(&sp->open, top, sp->nodes[node].below);
	if (sp->nodes[node].below == NO_NODE &&
	    ++sp->empty_keys > EMPTY_KEYS_KEPT)
		drop_empty_keys(sp);
	sp->nodes[node].below = sp->free_node;
	sp->free_node = node;
	sp->open_count--;
	return 1;
}

/* ---- measured spans ---- */

/* The set of (name, thread), added on first sight; NULL past
 * EV_STATS_MAX_SPAN_THREADS or out of memory (*rc). */
static span_set *thread_set(ev_stats *st, long name, uint32_t tid, int *rc)
{
	evi_spans *sp = st->spans;
	uint64_t key = key_of(name, tid), i;
	span_set *t;

	*rc = EV_OK;
	if (evi_idmap_get(&sp->thread_index, key, &i))
		return &sp->threads[i];
	if (sp->n_threads == EV_STATS_MAX_SPAN_THREADS)
		return NULL;
	if (evi_grow(&sp->threads, &sp->threads_alloc, sp->n_threads + 1,
		     sizeof *sp->threads) < 0 ||
	    evi_idmap_add(&sp->thread_index, key, sp->n_threads, SIZE_MAX,
			  NULL) < 0) {
		*rc = evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
		return NULL;
	}
	t = &sp->threads[sp->n_threads];
	memset(t, 0, sizeof *t);
	t->pub.tid = tid;
	t->name = (uint32_t)name;
	if ((*rc = hist_init(st, &t->hist)) < 0)
		return NULL;
	sp->n_threads++;
	return t;
}

/* The span's duration into its histogram, which counts the figures a
 * reader sees as spans are added (stats --follow), as it does pauses'. */
static void set_add(ev_stats_span_figures *f, evi_pause_set *hist,
		    const ev_stats_pause *d)
{
	evi_duration_set_add(hist, d);
	f->count = hist->pub.count;
	f->total_ns = hist->pub.total_ns;
	f->min_ns = hist->pub.min_ns;
	f->max_ns = hist->pub.max_ns;
}

/* A span of name `name` on `tid` from `start` to ev->time (0 long when
 * the clock stepped back). */
static int measured(ev_stats *st, long name, uint32_t tid, uint64_t start,
		    uint64_t end, uint16_t cap)
{
	evi_spans *sp = st->spans;
	span_name *n = &sp->names[name];
	ev_stats_pause d = { start, end > start ? end - start : 0, 0, cap };
	span_set *t;
	int rc;

	if (n->pub.all.count == 0 || start < n->pub.first_ns)
		n->pub.first_ns = start;
	set_add(&n->pub.all, &n->hist, &d);
	sp->summary.spans++;
	if ((t = thread_set(st, name, tid, &rc)))
		set_add(&t->pub, &t->hist, &d);
	else if (rc == EV_OK)
		n->pub.other_threads_count++;
	if (sp->on_span) {
		ev_stats_span_end e = { &n->pub, tid, cap, d.start_ns,
					d.duration_ns };
		sp->on_span(sp->on_span_ctx, &e);
	}
	return rc;
}

/* ---- the events ---- */

/* A user event's text (whole_payload_text). */
typedef struct user_text {
	const uint8_t *bytes;
	size_t len;
} user_text;

static int starts_with(const user_text *v, const char *word, size_t n)
{
	return v->len > n && memcmp(v->bytes, word, n) == 0;
}

static int on_message(ev_stats *st, const user_text *text, uint32_t tid,
		      const ev_event *ev)
{
	int is_start = starts_with(text, "START ", 6);
	uint64_t start;
	long name;
	int rc;

	if (!is_start && !starts_with(text, "STOP ", 5))
		return EV_OK;
	name = name_get(st, text->bytes + (is_start ? 6 : 5),
			text->len - (is_start ? 6u : 5u),
			EV_STATS_SPANS_EVENTS, &rc);
	if (name < 0) {
		st->spans->summary.dropped += rc == EV_OK;
		return rc;
	}
	if (is_start) {
		uint64_t stop;
		/* A STOP read before its START: a thread that migrated, the
		 * block of the capability it stopped on first in the log. */
		if (peek_open(st->spans, key_of(name, tid) | PENDING_STOP,
			      &stop) && stop >= ev->time) {
			pop_open(st->spans, key_of(name, tid) | PENDING_STOP,
				 &stop);
			return measured(st, name, tid, ev->time, stop,
					ev->cap);
		}
		return push_open(st, key_of(name, tid), ev->time);
	}
	if (pop_open(st->spans, key_of(name, tid), &start))
		return measured(st, name, tid, start, ev->time, ev->cap);
	/* Kept for a START that may come later in the log; counted as a
	 * STOP without its START if none does. */
	return push_open(st, key_of(name, tid) | PENDING_STOP, ev->time);
}

static int on_marker(ev_stats *st, const user_text *text, uint32_t tid,
		     const ev_event *ev)
{
	uint64_t start;
	int rc;
	long name = name_get(st, text->bytes, text->len,
			     EV_STATS_SPANS_MARKERS, &rc);

	if (name < 0) {
		st->spans->summary.dropped += rc == EV_OK;
		return rc;
	}
	if (pop_open(st->spans, key_of(name, tid), &start) &&
	    (rc = measured(st, name, tid, start, ev->time, ev->cap)) < 0)
		return rc;
	return push_open(st, key_of(name, tid), ev->time);
}

unsigned evi_spans_kinds(const evi_spans *sp)
{
	return sp->kinds;
}

int evi_spans_add(ev_stats *st, const ev_event *ev, uint32_t tid)
{
	unsigned kinds = st->spans->kinds;
	user_text text = { ev->payload, ev->size };

	if (ev->type == EV_USER_MSG ? !(kinds & EV_STATS_SPANS_EVENTS)
				    : !(kinds & EV_STATS_SPANS_MARKERS))
		return EV_OK;
	return ev->type == EV_USER_MSG ? on_message(st, &text, tid, ev)
				       : on_marker(st, &text, tid, ev);
}

/* ---- the end ---- */

static void set_finish(ev_stats_span_figures *f, evi_pause_set *hist)
{
	if (f->count == 0)
		return;
	evi_duration_set_finish(hist);
	f->mean_ns = f->total_ns / f->count;
	f->p50_ns = hist->pub.p50_ns;
	f->p90_ns = hist->pub.p90_ns;
	f->p99_ns = hist->pub.p99_ns;
}

/* The STARTs still open: each counts as never stopped (markers' last
 * ones are not spans). */
static void count_unstopped(evi_spans *sp)
{
	for (size_t i = 0; i < sp->open.count; i++) {
		uint64_t key = sp->open.keys[i], n = 0;
		ev_stats_span *s = &sp->names[(key & ~PENDING_STOP) >> 32].pub;
		for (uint32_t node = (uint32_t)sp->open.values[i];
		     node != NO_NODE; node = sp->nodes[node].below)
			n++;
		if (key & PENDING_STOP) {
			s->unmatched_stops += n;
			sp->summary.unmatched_stops += n;
		} else if (s->kind == EV_STATS_SPANS_EVENTS) {
			s->unstopped += n;
			sp->summary.unstopped += n;
		}
	}
}

/* Each name's threads, in the order first seen, as one array. */
static int publish_threads(ev_stats *st)
{
	evi_spans *sp = st->spans;
	size_t at = 0;

	if (sp->n_threads &&
	    !(sp->published = malloc(sp->n_threads * sizeof *sp->published)))
		return evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
	for (size_t n = 0; n < sp->n_names; n++) {
		ev_stats_span *pub = &sp->names[n].pub;
		pub->threads = sp->published + at;
		for (size_t t = 0; t < sp->n_threads; t++)
			if (sp->threads[t].name == n)
				sp->published[at++] = sp->threads[t].pub;
		pub->n_threads = (size_t)(sp->published + at - pub->threads);
	}
	return EV_OK;
}

int evi_spans_finish(ev_stats *st)
{
	evi_spans *sp = st->spans;

	if (!sp)
		return EV_OK;
	count_unstopped(sp);
	for (size_t i = 0; i < sp->n_names; i++)
		set_finish(&sp->names[i].pub.all, &sp->names[i].hist);
	for (size_t i = 0; i < sp->n_threads; i++)
		set_finish(&sp->threads[i].pub, &sp->threads[i].hist);
	return publish_threads(st);
}

void evi_spans_free(evi_spans *sp)
{
	if (!sp)
		return;
	for (size_t i = 0; i < sp->n_names; i++) {
		free((char *)sp->names[i].pub.name);
		evi_duration_set_free(&sp->names[i].hist);
	}
	for (size_t i = 0; i < sp->n_threads; i++)
		evi_duration_set_free(&sp->threads[i].hist);
	free(sp->names);
	free(sp->threads);
	free(sp->published);
	free(sp->nodes);
	evi_idmap_free(&sp->thread_index);
	evi_idmap_free(&sp->name_index);
	evi_idmap_free(&sp->open);
	free(sp);
}

/* ---- the public accessors ---- */

size_t ev_stats_span_count(const ev_stats *st)
{
	return st->spans ? st->spans->n_names : 0;
}

const ev_stats_span *ev_stats_span_at(const ev_stats *st, size_t i)
{
	return i < ev_stats_span_count(st) ? &st->spans->names[i].pub : NULL;
}

long ev_stats_span_find(const ev_stats *st, const char *name, size_t len,
			unsigned kind)
{
	long i;

	if (!st->spans)
		return -1;
	if (kind)
		return find_name(st->spans, (const uint8_t *)name, len, kind);
	i = find_name(st->spans, (const uint8_t *)name, len,
		      EV_STATS_SPANS_EVENTS);
	return i >= 0 ? i
		      : find_name(st->spans, (const uint8_t *)name, len,
				  EV_STATS_SPANS_MARKERS);
}

void ev_stats_span_totals(const ev_stats *st,
			  ev_stats_spans_summary *out)
{
	memset(out, 0, sizeof *out);
	if (st->spans)
		*out = st->spans->summary;
}

const char *ev_stats_span_figure_name(unsigned f)
{
	return f < EV_STATS_SPAN_FIGURES ? evi_span_figure_names[f] : NULL;
}

double ev_stats_span_figure_value(const ev_stats_span_figures *fig,
				  unsigned f)
{
	const uint64_t v[EV_STATS_SPAN_FIGURES] = {
		fig->count, fig->total_ns, fig->mean_ns, fig->min_ns,
		fig->max_ns, fig->p50_ns, fig->p90_ns, fig->p99_ns
	};

	return f < EV_STATS_SPAN_FIGURES ? (double)v[f] : 0.0;
}
