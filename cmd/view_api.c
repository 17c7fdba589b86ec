/*
 * evtool view's JSON API (doc/view-api.md) and its page: every answer is
 * computed from the index (view_state) in time bounded by the request's
 * own bounds (a tile's width, a page of events, the hits of a search),
 * never by the log's size.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "stats_json.h"
#include "view.h"

extern const unsigned char view_page[];
extern const size_t view_page_len;

static const char *arg_of(void *ctx, const char *key)
{
	return http_request_arg(ctx, key);
}

/* The request's parameters, or a 400 with its message in `body`. */
static int params(const http_request *req, FILE *body, view_params *p)
{
	const char *why;

	if (view_params_parse(arg_of, (void *)req, p, &why) == 0)
		return 0;
	*req->status = 400;
	fprintf(body, "bad parameter: %s\n", why);
	return -1;
}

static const char *bad(const http_request *req, FILE *body, const char *why)
{
	*req->status = 400;
	fprintf(body, "%s\n", why);
	return "text/plain; charset=utf-8";
}

uint64_t view_start(const view_state *v)
{
	return v->preview ? ev_view_preview_start(v->preview)
			  : ev_view_start(v->index);
}

uint64_t view_end(const view_state *v)
{
	return v->preview ? ev_view_preview_end(v->preview)
			  : ev_view_end(v->index);
}

/* Capabilities: the preview's too while the index has not seen them. */
static size_t cap_count(const view_state *v)
{
	size_t n = ev_view_cap_count(v->index);

	if (v->preview && ev_view_preview_cap_count(v->preview) > n)
		n = ev_view_preview_cap_count(v->preview);
	return n;
}

/* The run's range when the request names none. */
static void default_range(const view_state *v, view_params *p)
{
	if (p->have_range)
		return;
	p->from = view_start(v);
	p->to = view_end(v) > p->from ? view_end(v) : p->from + 1;
}

/* params(), the range the whole log when none is given. */
static int range_params(const view_state *v, const http_request *req,
			FILE *body, view_params *p)
{
	if (params(req, body, p) < 0)
		return -1;
	default_range(v, p);
	return 0;
}

/* ---- /api/meta ---- */

/* The processes (once the index is complete): pid, program and caps. */
static void write_processes(json_out *j, const view_state *v)
{
	size_t n = v->complete ? ev_process_list_count(v->procs) : 0;

	json_begin_array(j, "processes");
	for (size_t i = 0; i < n; i++) {
		const ev_process *p = ev_process_list_at(v->procs, i);
		size_t len = 0;

		json_begin_object(j, NULL);
		json_uint(j, "capset", p->capset);
		if (p->have_pid)
			json_uint(j, "pid", p->pid);
		else
			json_null(j, "pid");
		/* The program: the first argument (NUL-separated). */
		while (p->args && len < p->args_len && p->args[len])
			len++;
		json_string(j, "program", p->args ? p->args : "", len);
		json_uint16_array(j, "caps", p->caps, p->n_caps);
		json_end_object(j);
	}
	json_end_array(j);
}

/* The names of the user's spans, in the order of their name_index. */
static void write_span_names(json_out *j, const view_state *v)
{
	json_begin_array(j, "span_names");
	for (size_t i = 0; i < ev_view_span_name_count(v->index); i++)
		json_cstring(j, NULL, ev_view_span_name(v->index, i));
	json_end_array(j);
	json_uint(j, "spans_dropped", ev_view_spans_dropped(v->index));
}

static const char *meta(void *ctx, const http_request *req, FILE *body)
{
	const view_state *v = ctx;
	json_out j;

	(void)req;
	json_init_compact(&j, body);
	json_begin_object(&j, NULL);
	json_cstring(&j, "file", v->name);
	json_uint(&j, "start_ns", view_start(v));
	json_uint(&j, "end_ns", view_end(v));
	json_uint(&j, "indexed_ns", ev_view_end(v->index));
	json_bool(&j, "preview", v->preview != NULL);
	json_uint(&j, "bucket_ns", ev_view_bucket_ns(v->index));
	json_uint(&j, "capabilities", cap_count(v));
	json_uint(&j, "texts", ev_view_text_count(v->index));
	json_uint(&j, "texts_dropped", ev_view_texts_dropped(v->index));
	json_uint(&j, "heap_samples", ev_view_samples_seen(v->index));
	json_uint(&j, "index_bytes", ev_view_memory(v->index));
	json_uint(&j, "log_bytes", v->from_cache ? v->log_size
			: v->reader ? ev_reader_offset(v->reader) : 0);
	json_bool(&j, "from_cache", v->from_cache);
	json_uint(&j, "sessions", v->sessions ? v->sessions : 1);
	json_bool(&j, "complete", v->complete);
	json_bool(&j, "live", v->live);
	json_bool(&j, "at_end", v->complete || v->waiting);
	write_processes(&j, v);
	write_span_names(&j, v);
	json_end_object(&j);
	return "application/json";
}

/* The flags of the API's readers of the log: a 64 KiB window, not
 * 1 MiB: an answer reads its events from a block's start to its range's
 * end, often less than that, and a window of 1 MiB cost every reader
 * its page faults and a read past what was needed. */
#define API_READER (EV_READER_RAW | EV_READER_SMALL_WINDOW)

/* A reader of `cap`'s blocks of the log from its block at `from` (over
 * *src), the others' hopped over. */
static int reader_at(const view_state *v, uint16_t cap, uint64_t from,
		     ev_view_cap_source *src, ev_reader **r)
{
	*src = (ev_view_cap_source){
		{ v->fd, ev_view_data_offset(v->index),
		  ev_view_block_at(v->index, cap, from), 0 }, cap, 0, 0 };
	return ev_reader_open_fn(r, ev_view_cap_source_read, src, v->name,
				 API_READER, NULL) < 0 ? EV_ENOMEM : EV_OK;
}

/* `cap`'s figures in `width` spans of [from, to), from its events. */
static int exact_cells(const view_state *v, uint16_t cap, uint64_t from,
		       uint64_t to, size_t width, ev_view_cell *cells)
{
	ev_view_cap_source src;
	ev_reader *r;
	int rc;

	if (reader_at(v, cap, from, &src, &r) < 0)
		return EV_ENOMEM;
	rc = ev_view_tile_exact(v->index, r, cap, from, to, width, cells);
	ev_reader_free(r);
	return rc;
}

/* Whether [from, to) is short enough to be drawn from its events: the
 * blocks that hold them span at most VIEW_EXACT_BYTES for every cap (the
 * time a request takes is that of reading them). */
static int is_short(const view_state *v, uint64_t from, uint64_t to)
{
	for (size_t cap = 0; cap < ev_view_cap_count(v->index); cap++) {
		uint64_t a = ev_view_block_at(v->index, (uint16_t)cap, from);
		uint64_t b = ev_view_block_at(v->index, (uint16_t)cap, to);
		if (b > a && b - a > VIEW_EXACT_BYTES)
			return 0;
	}
	return 1;
}

/* ---- /api/tiles ---- */

/* The start of an answer of `p->width` spans of the range (tiles, thread
 * rows): the range, the width and the buckets' width. */
static void begin_spans_answer(json_out *j, FILE *body, const view_params *p,
			       uint64_t bucket_ns)
{
	json_init_compact(j, body);
	json_begin_object(j, NULL);
	json_uint(j, "from", p->from);
	json_uint(j, "to", p->to);
	json_uint(j, "width", p->width);
	json_uint(j, "bucket_ns", bucket_ns);
}

static void write_tids(json_out *j, const ev_view_cell *c, size_t n)
{
	json_begin_array(j, "tid");
	for (size_t i = 0; i < n; i++)
		json_uint(j, NULL, c[i].tid);
	json_end_array(j);
}

/* The texts of [from, to), at most `max`. */
static void write_texts(json_out *j, const view_state *v, uint64_t from,
			uint64_t to, size_t max)
{
	static const char *const kinds[] = { "marker", "message", "label" };
	size_t n = 0;

	json_begin_array(j, "texts");
	for (size_t i = 0; i < ev_view_text_count(v->index) && n < max; i++) {
		const ev_view_text *t = ev_view_text_at(v->index, i);
		if (t->time < from || t->time >= to)
			continue;
		json_begin_object(j, NULL);
		json_uint(j, "time", t->time);
		if (t->cap == EV_NO_CAP)
			json_null(j, "cap");
		else
			json_uint(j, "cap", t->cap);
		json_cstring(j, "kind", kinds[t->kind]);
		if (t->kind == EV_VIEW_LABEL)
			json_uint(j, "tid", t->tid);
		json_cstring(j, "text", t->text);
		json_end_object(j);
		n++;
	}
	json_end_array(j);
}

/* The array `key` of the uint64_t at `offset` in each of the `n` items of
 * `size` bytes at `items` (UINT64_MAX as null). */
static void write_field(json_out *j, const char *key, const void *items,
			size_t size, size_t offset, size_t n)
{
	json_begin_array(j, key);
	for (size_t i = 0; i < n; i++) {
		uint64_t v;
		memcpy(&v, (const char *)items + i * size + offset, sizeof v);
		if (v == UINT64_MAX)
			json_null(j, NULL);
		else
			json_uint(j, NULL, v);
	}
	json_end_array(j);
}

/* Something listed by its weight (a span by its duration, a thread by
 * its running time), `id` its index or thread id. */
typedef struct pick {
	uint64_t id, weight;
} pick;

/* The heaviest first, then the lowest id. */
static int heavier_first(const void *a, const void *b)
{
	const pick *x = a, *y = b;
	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int lower_id(const void *a, const void *b)
{
	const pick *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The user's spans that overlap [from, to): all of them when they are at
 * most `max`, else the `max` longest (the others counted in spans_more),
 * in the order they ended. */
static void write_spans(json_out *j, const view_state *v, uint64_t from,
			uint64_t to, size_t max)
{
	size_t n = 0, total = ev_view_span_count(v->index);
	pick *keep = calloc(total ? total : 1, sizeof *keep);
	ev_view_span s;

	for (size_t i = 0; keep && i < total; i++)
		if (ev_view_span_at(v->index, i, &s) == EV_OK &&
		    s.start_ns < to && s.start_ns + s.duration_ns >= from)
			keep[n++] = (pick){ i, s.duration_ns };
	if (keep && n > max) {
		qsort(keep, n, sizeof *keep, heavier_first);
		qsort(keep, max, sizeof *keep, lower_id);
	}
	json_begin_array(j, "spans");
	for (size_t k = 0; keep && k < n && k < max; k++) {
		ev_view_span_at(v->index, keep[k].id, &s);
		json_begin_object(j, NULL);
		json_uint(j, "name", s.name_index);
		json_uint(j, "tid", s.tid);
		json_uint(j, "cap", s.cap);
		json_uint(j, "start_ns", s.start_ns);
		json_uint(j, "duration_ns", s.duration_ns);
		json_end_object(j);
	}
	json_end_array(j);
	json_uint(j, "spans_more", n > max ? n - max : 0);
	free(keep);
}

/* The GC's time in the tile's spans by phase, as ThreadScope draws them
 * (ev_view_gc_phase): they add up to gc_ns. */
static void write_gc_phases(json_out *j, const ev_view_cell *cells,
			    size_t width)
{
	static const char *const keys[EV_VIEW_GC_PHASES] = {
		"gc_sync_ns", "gc_work_ns", "gc_idle_ns", "gc_done_ns"
	};

	for (unsigned k = 0; k < EV_VIEW_GC_PHASES; k++)
		write_field(j, keys[k], cells, sizeof *cells,
			    offsetof(ev_view_cell, gc_phase_ns) +
				    k * sizeof cells->gc_phase_ns[0],
			    width);
}

/* `cap`'s sparks in the tile's spans: created, converted, pool size
 * (null where no count fell). */
static void write_sparks(json_out *j, const view_state *v, uint16_t cap,
			 const view_params *p, ev_view_spark_cell *sp)
{
	const size_t size = sizeof *sp;

	if (ev_view_sparks(v->index, cap, p->from, p->to, p->width, sp) < 0)
		return;
	write_field(j, "sparks_created", sp, size,
		    offsetof(ev_view_spark_cell, created), p->width);
	write_field(j, "sparks_converted", sp, size,
		    offsetof(ev_view_spark_cell, converted), p->width);
	write_field(j, "spark_pool", sp, size,
		    offsetof(ev_view_spark_cell, pool), p->width);
}

/* The arrays of a heap's size, live bytes and allocation per span. */
static void write_heap_cells(json_out *j, const ev_view_heap_cell *h,
			     size_t width)
{
	const size_t size = sizeof *h;

	write_field(j, "size_bytes", h, size,
		    offsetof(ev_view_heap_cell, size_bytes), width);
	write_field(j, "live_bytes", h, size,
		    offsetof(ev_view_heap_cell, live_bytes), width);
	write_field(j, "allocated_bytes", h, size,
		    offsetof(ev_view_heap_cell, allocated_bytes), width);
}

/* The heap's size, live bytes and allocation in the tile's spans. */
static void write_heap(json_out *j, const view_state *v, const view_params *p)
{
	ev_view_heap_cell *h = calloc(p->width, sizeof *h);

	json_begin_object(j, "heap");
	if (h && ev_view_heap(v->index, p->from, p->to, p->width, h) == EV_OK)
		write_heap_cells(j, h, p->width);
	json_end_object(j);
	free(h);
}

/* Each process's heap apart, by the capset its heap events name. */
static void write_proc_heaps(json_out *j, const view_state *v,
			     const view_params *p)
{
	ev_view_heap_cell *h = calloc(p->width, sizeof *h);

	json_begin_array(j, "heaps");
	for (size_t i = 0; h && i < ev_view_heap_count(v->index); i++) {
		uint32_t capset = ev_view_heap_capset(v->index, i);
		if (ev_view_heap_of(v->index, capset, p->from, p->to, p->width,
				    h) != EV_OK)
			continue;
		json_begin_object(j, NULL);
		json_uint(j, "capset", capset);
		write_heap_cells(j, h, p->width);
		json_end_object(j);
	}
	json_end_array(j);
	free(h);
}

static const char *tiles(void *ctx, const http_request *req, FILE *body)
{
	const view_state *v = ctx;
	size_t caps = cap_count(v);
	view_params p;
	ev_view_cell *cells;
	ev_view_spark_cell *sp;
	json_out j;
	int pv;

	if (range_params(v, req, body, &p) < 0)
		return "text/plain; charset=utf-8";
	cells = calloc(p.width, sizeof *cells);
	sp = calloc(p.width, sizeof *sp);
	if (!cells || !sp) {
		free(cells);
		free(sp);
		return NULL;
	}
	/* Past what the index has reached: the preview's picture. */
	pv = v->preview && p.to > ev_view_end(v->index);
	begin_spans_answer(&j, body, &p,
			   pv ? ev_view_preview_bucket_ns(v->preview)
			      : ev_view_bucket_ns(v->index));
	json_bool(&j, "exact", !pv && is_short(v, p.from, p.to));
	json_bool(&j, "preview", pv);
	json_begin_array(&j, "caps");
	for (size_t cap = 0; cap < caps; cap++) {
		if (pv)
			ev_view_preview_tile(v->preview, (uint16_t)cap, p.from,
					     p.to, p.width, cells);
		else if (!is_short(v, p.from, p.to) ||
			 exact_cells(v, (uint16_t)cap, p.from, p.to, p.width,
				     cells) < 0)
			ev_view_tile(v->index, (uint16_t)cap, p.from, p.to,
				     p.width, cells);
		json_begin_object(&j, NULL);
		json_uint(&j, "cap", cap);
		write_field(&j, "run_ns", cells, sizeof *cells,
			    offsetof(ev_view_cell, run_ns), p.width);
		write_field(&j, "gc_ns", cells, sizeof *cells,
			    offsetof(ev_view_cell, gc_ns), p.width);
		write_field(&j, "idle_ns", cells, sizeof *cells,
			    offsetof(ev_view_cell, idle_ns), p.width);
		write_tids(&j, cells, p.width);
		write_gc_phases(&j, cells, p.width);
		write_sparks(&j, v, (uint16_t)cap, &p, sp);
		json_end_object(&j);
	}
	json_end_array(&j);
	write_heap(&j, v, &p);
	write_proc_heaps(&j, v, &p);
	write_texts(&j, v, p.from, p.to, 2 * p.width);
	write_spans(&j, v, p.from, p.to, 2 * p.width);
	json_end_object(&j);
	free(cells);
	free(sp);
	return "application/json";
}

/* ---- /api/window ---- */

/* `cap`'s whole runs and GCs that end in [from, to) and start at or after
 * `since`, from its events (and the run open at `until`, the window's
 * end, when to == until). */
static int whole_exact(const view_state *v, uint16_t cap, uint64_t since,
		       uint64_t from, uint64_t to, uint64_t until,
		       ev_view_cell *c)
{
	ev_view_cap_source src;
	ev_reader *r;
	int rc;

	if (reader_at(v, cap, from, &src, &r) < 0)
		return EV_ENOMEM;
	rc = ev_view_whole_exact(v->index, r, cap, since, from, to, until, c);
	ev_reader_free(r);
	return rc;
}

static void add_cell(ev_view_cell *sum, const ev_view_cell *c)
{
	sum->run_ns += c->run_ns;
	sum->gc_ns += c->gc_ns;
}

/* `cap`'s figures in [from, to) as `evtool stats` gives them for the
 * slice `evtool filter --from --to` keeps (ev_view_whole): the whole
 * buckets from the index, the parts at either end from the events. */
static int window_cell(const view_state *v, uint16_t cap, uint64_t from,
		       uint64_t to, ev_view_cell *c)
{
	uint64_t w = ev_view_bucket_ns(v->index);
	/* The last part is never empty: it ends the run open at `to`. */
	uint64_t a = (from + w - 1) / w * w, b = (to - 1) / w * w;
	uint64_t lo = from > ev_view_start(v->index) ? from
						     : ev_view_start(v->index);
	uint64_t hi = to < ev_view_end(v->index) ? to : ev_view_end(v->index);
	ev_view_cell part;
	int rc;

	if (is_short(v, from, to) || b <= a) {
		rc = whole_exact(v, cap, from, from, to, to, c);
	} else if ((rc = ev_view_whole(v->index, cap, from, a, b, c)) == 0 &&
		   (from == a || (rc = whole_exact(v, cap, from, from, a, to,
						   &part)) == 0)) {
		if (from < a)
			add_cell(c, &part);
		if ((rc = whole_exact(v, cap, from, b, to, to, &part)) == 0)
			add_cell(c, &part);
	}
	c->idle_ns = hi > lo && hi - lo > c->run_ns + c->gc_ns
			     ? hi - lo - c->run_ns - c->gc_ns : 0;
	return rc;
}

/* `cap`'s HEAP_ALLOCATED totals in [from, to), from its events. */
static int alloc_exact(const view_state *v, uint16_t cap, uint64_t from,
		       uint64_t to, ev_view_alloc *a)
{
	ev_view_cap_source src;
	ev_reader *r;
	int rc;

	if (reader_at(v, cap, from, &src, &r) < 0)
		return EV_ENOMEM;
	rc = ev_view_alloc_exact(v->index, r, cap, from, to, a);
	ev_reader_free(r);
	return rc;
}

/* `cap`'s HEAP_ALLOCATED totals in [from, to) as window_cell splits the
 * range: the whole buckets from the index, the parts at either end from
 * the events. */
static int alloc_cell(const view_state *v, uint16_t cap, uint64_t from,
		      uint64_t to, ev_view_alloc *a)
{
	uint64_t w = ev_view_bucket_ns(v->index);
	uint64_t lo = (from + w - 1) / w * w, hi = (to - 1) / w * w;
	ev_view_alloc part;
	int rc;

	if (is_short(v, from, to) || hi <= lo)
		return alloc_exact(v, cap, from, to, a);
	memset(a, 0, sizeof *a);
	if (from < lo && (rc = alloc_exact(v, cap, from, lo, a)) < 0)
		return rc;
	if ((rc = ev_view_alloc_whole(v->index, cap, lo, hi, &part)) < 0)
		return rc;
	ev_view_alloc_join(a, &part);
	if ((rc = alloc_exact(v, cap, hi, to, &part)) < 0)
		return rc;
	ev_view_alloc_join(a, &part);
	return EV_OK;
}

/* Whether `evtool stats` takes [from, to) for a slice of process `p`'s
 * run (ev_view_slice_until): none of its caps has an event that is not
 * metadata soon after its start. -1 when the log cannot be read. */
static int is_slice(const view_state *v, const ev_process *p, uint64_t from,
		    uint64_t to)
{
	uint64_t start = p->have_start ? p->start_ns : ev_view_start(v->index);
	uint64_t until = ev_view_slice_until(start, from, to);
	ev_view_alloc a;

	for (size_t i = 0; until > from && i < p->n_caps; i++) {
		if (alloc_exact(v, p->caps[i], from, until, &a) < 0)
			return -1;
		if (a.have_work)
			return 0;
	}
	return 1;
}

/* Process `p`'s bytes allocated in [from, to) as stats of the slice
 * counts them: each cap's last total there, less its first in a slice.
 * The totals from `kept` (by cap, NULL: not all kept), else the buckets
 * and the events. */
static int window_allocated(const view_state *v, const ev_process *p,
			    uint64_t from, uint64_t to,
			    const ev_view_alloc *kept, uint64_t *bytes)
{
	size_t caps = ev_view_cap_count(v->index);
	int slice = is_slice(v, p, from, to);
	ev_view_alloc a;

	*bytes = 0;
	for (size_t i = 0; slice >= 0 && i < p->n_caps; i++) {
		if (kept && p->caps[i] < caps)
			a = kept[p->caps[i]];
		else if (kept)
			memset(&a, 0, sizeof a);
		else if (alloc_cell(v, p->caps[i], from, to, &a) < 0)
			return -1;
		if (a.have)
			*bytes += slice && a.last >= a.first ? a.last - a.first
							     : a.last;
	}
	return slice;
}

/* Each process's allocation and pauses in [from, to) (once the index is
 * complete: the processes are known then). */
static int write_window_processes(json_out *j, const view_state *v,
				  uint64_t from, uint64_t to)
{
	size_t n = v->complete ? ev_process_list_count(v->procs) : 0;
	size_t caps = ev_view_cap_count(v->index);
	ev_view_alloc *kept = calloc(caps ? caps : 1, sizeof *kept);

	if (!kept)
		return -1;
	if (ev_view_alloc_kept(v->index, from, to, kept, caps) != 1) {
		free(kept);
		kept = NULL;
	}
	json_begin_array(j, "processes");
	for (size_t i = 0; i < n; i++) {
		const ev_process *p = ev_process_list_at(v->procs, i);
		ev_stats_pauses pauses;
		uint64_t bytes;
		int complete, slice = window_allocated(v, p, from, to, kept,
						       &bytes);

		if (slice < 0 || ev_view_pauses(v->index, p->capset, from, to,
						&pauses, &complete) < 0) {
			free(kept);
			return -1;
		}
		json_begin_object(j, NULL);
		json_uint(j, "capset", p->capset);
		json_bool(j, "slice", slice);
		json_uint(j, "allocated_bytes", bytes);
		json_begin_object(j, "pauses");
		stats_json_pause_fields(j, &pauses);
		json_end_object(j);
		json_bool(j, "pauses_complete", complete);
		json_end_object(j);
	}
	json_end_array(j);
	free(kept);
	return 0;
}

static const char *window(void *ctx, const http_request *req, FILE *body)
{
	const view_state *v = ctx;
	view_params p;
	ev_view_cell c;
	json_out j;

	if (range_params(v, req, body, &p) < 0)
		return "text/plain; charset=utf-8";
	json_init_compact(&j, body);
	json_begin_object(&j, NULL);
	json_uint(&j, "from", p.from);
	json_uint(&j, "to", p.to);
	json_begin_array(&j, "caps");
	for (size_t cap = 0; cap < ev_view_cap_count(v->index); cap++) {
		if (window_cell(v, (uint16_t)cap, p.from, p.to, &c) < 0)
			return NULL;
		json_begin_object(&j, NULL);
		json_uint(&j, "cap", cap);
		json_uint(&j, "mutator_ns", c.run_ns);
		json_uint(&j, "gc_ns", c.gc_ns);
		json_uint(&j, "idle_ns", c.idle_ns);
		json_end_object(&j);
	}
	json_end_array(&j);
	if (write_window_processes(&j, v, p.from, p.to) < 0)
		return NULL;
	json_end_object(&j);
	return "application/json";
}

/* ---- /api/events ---- */

/* One event of the page: its time, cap, offset and `show` line. */
static void write_event(json_out *j, const view_state *v, const ev_event *ev,
			uint64_t offset, ev_text *line)
{
	line->len = 0;
	ev_show_event(v->show, ev, line);
	while (line->len && line->data[line->len - 1] == '\n')
		line->len--;
	json_begin_object(j, NULL);
	json_uint(j, "time", ev->time);
	json_uint(j, "offset", offset);
	json_uint(j, "type", ev->type);
	json_string(j, "show", line->data ? line->data : "", line->len);
	json_end_object(j);
}

static int cap_events_at(cap_events *ce, uint64_t at)
{
	ev_reader_free(ce->r);
	ce->r = NULL;
	ce->src.pos = 0;
	if (ev_view_source_seek(&ce->src, ce->cap, at, &ce->src.at) < 0)
		return EV_EIO;
	ce->block = ce->src.at;
	return ev_reader_open_fn(&ce->r, ev_view_source_read, &ce->src,
				 ce->v->name, API_READER, NULL);
}

int cap_events_open(cap_events *ce, const view_state *v,
			   uint16_t cap, uint64_t at)
{
	ce->v = v;
	ce->cap = cap;
	ce->src = (ev_view_source){ v->fd, ev_view_data_offset(v->index), at,
				    0 };
	ce->r = NULL;
	return cap_events_at(ce, at);
}

int cap_events_next(cap_events *ce, ev_event *ev, uint64_t *offset)
{
	ev_block block;
	int rc;

	while ((rc = ev_reader_next(ce->r, ev)) == EV_OK) {
		*offset = ce->src.at + (ev->offset - ce->src.header_len);
		if (ev->type == EV_BLOCK_MARKER) {
			if (!ev_reader_block(ce->r, &block) ||
			    block.cap == ce->cap)
				ce->block = *offset;
			else if ((rc = cap_events_at(ce, *offset)) < 0)
				return rc;
			continue;
		}
		if (ev->cap == ce->cap)
			return EV_OK;
	}
	return rc;
}

void cap_events_close(cap_events *ce)
{
	ev_reader_free(ce->r);
	ce->r = NULL;
}

/* Reads `p.cap`'s events of [from, to) in the log's order, from its
 * block at `from` or, for a later page, from the cursor's block after its
 * event; up to `limit`. The next page's cursor goes in *next (its block
 * and last event, as file offsets); *more says there is one. */
static int scan_events(const view_state *v, const view_params *p,
		       json_out *j, uint64_t next[2], int *more)
{
	uint64_t at = p->have_cursor ? p->block
				     : ev_view_block_at(v->index, p->cap, p->from);
	ev_text line = EV_TEXT_INIT;
	uint64_t shown = 0, offset;
	cap_events ce;
	ev_event ev;

	*more = 0;
	if (cap_events_open(&ce, v, p->cap, at) < 0) {
		cap_events_close(&ce);
		return -1;
	}
	while (cap_events_next(&ce, &ev, &offset) == EV_OK) {
		if (ev.time < p->from || (p->have_cursor && offset <= p->after))
			continue;
		if (ev.time >= p->to)
			break;
		if (shown == p->limit) {
			*more = 1;
			break;
		}
		write_event(j, v, &ev, offset, &line);
		next[0] = ce.block;
		next[1] = offset;
		shown++;
	}
	ev_text_free(&line);
	cap_events_close(&ce);
	return 0;
}

static const char *events(void *ctx, const http_request *req, FILE *body)
{
	const view_state *v = ctx;
	view_params p;
	uint64_t next[2] = { 0, 0 };
	int more;
	json_out j;

	if (params(req, body, &p) < 0)
		return "text/plain; charset=utf-8";
	if (!p.have_cap)
		return bad(req, body, "bad parameter: cap: needed");
	if (!v->show) {
		*req->status = 503;
		fputs("the log's header has not arrived yet\n", body);
		return "text/plain; charset=utf-8";
	}
	default_range(v, &p);
	json_init_compact(&j, body);
	json_begin_object(&j, NULL);
	json_begin_array(&j, "events");
	if (scan_events(v, &p, &j, next, &more) < 0)
		return NULL;
	json_end_array(&j);
	if (more) {
		json_begin_object(&j, "next");
		json_uint(&j, "block", next[0]);
		json_uint(&j, "after", next[1]);
		json_end_object(&j);
	} else {
		json_null(&j, "next");
	}
	json_end_object(&j);
	return "application/json";
}

/* ---- /api/thread ---- */

static void json_time(json_out *j, const char *key, uint64_t ns)
{
	if (ns == UINT64_MAX)
		json_null(j, key);
	else
		json_uint(j, key, ns);
}

/* Whether `ev` is about thread `tid`: a thread event (CREATE, RUN, STOP,
 * RUNNABLE, MIGRATE, WAKEUP, LABEL) whose first field is its id. */
static int about_thread(const ev_event *ev, uint32_t tid)
{
	switch (ev->type) {
	case EV_CREATE_THREAD:
	case EV_RUN_THREAD:
	case EV_STOP_THREAD:
	case EV_THREAD_RUNNABLE:
	case EV_MIGRATE_THREAD:
	case EV_THREAD_WAKEUP:
	case EV_THREAD_LABEL:
		return ev->size >= 4 && ev_load32(ev->payload) == tid;
	default:
		return 0;
	}
}

/* The events of thread `p.tid` in [from, to) on `cap`, at most `room`,
 * read from the cap's block at `from` (at most VIEW_THREAD_SCAN of the
 * cap's events). */
static size_t thread_events(const view_state *v, const view_params *p,
			    uint16_t cap, json_out *j, size_t room,
			    ev_text *line)
{
	uint64_t offset;
	cap_events ce;
	ev_event ev;
	size_t n = 0, read = 0;

	if (cap_events_open(&ce, v, cap,
			    ev_view_block_at(v->index, cap, p->from)) == 0)
		while (n < room && read++ < VIEW_THREAD_SCAN &&
		       cap_events_next(&ce, &ev, &offset) == EV_OK) {
			if (ev.time < p->from || !about_thread(&ev, p->tid))
				continue;
			if (ev.time >= p->to)
				break;
			write_event(j, v, &ev, offset, line);
			n++;
		}
	cap_events_close(&ce);
	return n;
}

static const char *thread(void *ctx, const http_request *req, FILE *body)
{
	const view_state *v = ctx;
	const ev_view_thread *t;
	ev_text line = EV_TEXT_INIT;
	view_params p;
	size_t room = VIEW_MAX_LIFE;
	json_out j;

	if (params(req, body, &p) < 0)
		return "text/plain; charset=utf-8";
	if (!p.have_tid)
		return bad(req, body, "bad parameter: tid: needed");
	if (!(t = ev_view_thread_find(v->index, p.tid))) {
		*req->status = 404;
		fputs("no such thread (or past the threads kept)\n", body);
		return "text/plain; charset=utf-8";
	}
	default_range(v, &p);
	json_init_compact(&j, body);
	json_begin_object(&j, NULL);
	json_uint(&j, "tid", t->tid);
	if (t->label)
		json_cstring(&j, "label", t->label);
	else
		json_null(&j, "label");
	json_time(&j, "created_ns", t->created_ns);
	json_time(&j, "first_run_ns", t->first_run_ns);
	json_time(&j, "last_stop_ns", t->last_stop_ns);
	json_time(&j, "finished_ns", t->finished_ns);
	json_uint(&j, "runs", t->runs);
	json_uint(&j, "run_ns", t->run_ns);
	json_uint(&j, "migrations", t->migrations);
	/* Its events in the range, cap by cap (the page sorts them). */
	json_begin_array(&j, "events");
	for (size_t cap = 0; v->show && cap < ev_view_cap_count(v->index) &&
			     room > 0; cap++)
		room -= thread_events(v, &p, (uint16_t)cap, &j, room, &line);
	json_end_array(&j);
	json_end_object(&j);
	ev_text_free(&line);
	return "application/json";
}

/* ---- /api/threads ---- */

/* The threads with rows, `tids` (*n of them). */
static uint32_t *row_threads(const view_state *v, const view_params *p,
			     size_t *n)
{
	size_t rows = ev_view_thread_rows(v->index);
	uint32_t *tids = calloc(rows ? rows : 1, sizeof *tids);
	ev_view_thread_cell c;

	*n = 0;
	/* A row is there when its tile is (EV_EINVAL else): asked of the
	 * range's first nanosecond, which costs one bucket, not all the
	 * range's. */
	for (size_t i = 0; tids && i < rows; i++) {
		const ev_view_thread *th = ev_view_thread_at(v->index, i);
		if (th && ev_view_thread_tile(v->index, th->tid, p->from,
					      p->from + 1, 1, &c) == EV_OK)
			tids[(*n)++] = th->tid;
	}
	return tids;
}

/* The rows of `tids` over [from, to) from their events, when the blocks
 * that hold them (from the rows' bucket at `from`) span at most
 * VIEW_EXACT_BYTES for every cap (is_short); else NULL. */
static ev_view_thread_replay *replay_threads(const view_state *v,
					     const view_params *p,
					     const uint32_t *tids, size_t n)
{
	ev_view_thread_replay *rp;
	ev_view_cap_source src;
	uint64_t start;
	ev_reader *r;
	int rc = EV_OK;

	if (ev_view_thread_replay_new(&rp, v->index, tids, n, p->from,
				      p->to) < 0)
		return NULL;
	start = ev_view_thread_replay_start(rp);
	if (!is_short(v, start, p->to)) {
		ev_view_thread_replay_free(rp);
		return NULL;
	}
	for (size_t cap = 0; rc == EV_OK && cap < ev_view_cap_count(v->index);
	     cap++) {
		if ((rc = reader_at(v, (uint16_t)cap, start, &src, &r)) < 0)
			break;
		rc = ev_view_thread_replay_read(rp, r, (uint16_t)cap);
		ev_reader_free(r);
	}
	if (rc < 0 || ev_view_thread_replay_finish(rp) < 0) {
		ev_view_thread_replay_free(rp);
		return NULL;
	}
	return rp;
}

/* The threads `tids` (k-th: index k), the asked one (`p->tid`) first,
 * then by their running time in the range: from the replay `rp`, or the
 * rows' buckets. */
static pick *pick_threads(const view_state *v, const view_params *p,
			  const uint32_t *tids, size_t n,
			  const ev_view_thread_replay *rp)
{
	pick *t = calloc(n ? n : 1, sizeof *t);
	ev_view_thread_cell c;

	for (size_t k = 0; t && k < n; k++) {
		if (rp)
			ev_view_thread_replay_tile(rp, k, 1, &c);
		else
			ev_view_thread_tile(v->index, tids[k], p->from, p->to,
					    1, &c);
		t[k] = (pick){ k, c.run_ns };
		if (p->have_tid && tids[k] == p->tid)
			t[k].weight = UINT64_MAX;
	}
	if (t)
		qsort(t, n, sizeof *t, heavier_first);
	return t;
}

/* Thread `k`'s states in the range, as its events give them: at most
 * `max` (the first), then how many more. */
static void write_intervals(json_out *j, const ev_view_thread_replay *rp,
			    size_t k, size_t max)
{
	static const char *const names[] = { "", "running", "runnable",
					      "blocked" };
	const ev_view_thread_interval *iv;
	size_t n = ev_view_thread_replay_intervals(rp, k, &iv);

	json_begin_array(j, "intervals");
	for (size_t i = 0; i < n && i < max; i++) {
		json_begin_object(j, NULL);
		json_uint(j, "from", iv[i].from);
		json_uint(j, "to", iv[i].to);
		json_cstring(j, "state", names[iv[i].state]);
		json_uint(j, "reason", iv[i].reason);
		json_end_object(j);
	}
	json_end_array(j);
	json_uint(j, "intervals_more", n > max ? n - max : 0);
}

/* One thread's row: per span its running, runnable and blocked time and
 * the reason that blocked it longest; from `rp` (its k-th thread), with
 * its intervals when it is the thread asked for, or the index's
 * buckets. */
static void write_thread_row(json_out *j, const view_state *v, uint32_t tid,
			     const view_params *p,
			     const ev_view_thread_replay *rp, size_t k,
			     ev_view_thread_cell *cells)
{
	const ev_view_thread *th = ev_view_thread_find(v->index, tid);
	const size_t size = sizeof *cells;

	if (rp)
		ev_view_thread_replay_tile(rp, k, p->width, cells);
	else
		ev_view_thread_tile(v->index, tid, p->from, p->to, p->width,
				    cells);
	json_begin_object(j, NULL);
	json_uint(j, "tid", tid);
	if (th && th->label)
		json_cstring(j, "label", th->label);
	else
		json_null(j, "label");
	write_field(j, "run_ns", cells, size,
		    offsetof(ev_view_thread_cell, run_ns), p->width);
	write_field(j, "runnable_ns", cells, size,
		    offsetof(ev_view_thread_cell, runnable_ns), p->width);
	write_field(j, "blocked_ns", cells, size,
		    offsetof(ev_view_thread_cell, blocked_ns), p->width);
	json_begin_array(j, "reason");
	for (size_t i = 0; i < p->width; i++)
		json_uint(j, NULL, cells[i].reason);
	json_end_array(j);
	if (rp && p->have_tid && tid == p->tid)
		write_intervals(j, rp, k, VIEW_MAX_EVENTS);
	json_end_object(j);
}

static const char *threads(void *ctx, const http_request *req, FILE *body)
{
	const view_state *v = ctx;
	ev_view_thread_cell *cells;
	ev_view_thread_replay *rp = NULL;
	uint32_t *tids;
	pick *picks = NULL;
	view_params p;
	size_t n;
	json_out j;

	if (range_params(v, req, body, &p) < 0)
		return "text/plain; charset=utf-8";
	cells = calloc(p.width, sizeof *cells);
	tids = row_threads(v, &p, &n);
	if (tids)
		rp = replay_threads(v, &p, tids, n);
	if (tids)
		picks = pick_threads(v, &p, tids, n, rp);
	if (!cells || !picks) {
		free(cells);
		free(tids);
		ev_view_thread_replay_free(rp);
		return NULL;
	}
	begin_spans_answer(&j, body, &p, ev_view_thread_bucket_ns(v->index));
	json_bool(&j, "exact", rp != NULL);
	json_uint(&j, "rows", n);
	json_uint(&j, "threads_without_rows",
		  ev_view_thread_count(v->index) - n +
			  ev_view_threads_dropped(v->index));
	json_begin_array(&j, "reasons");
	for (unsigned k = 0; k < EV_STATS_STOP_REASONS; k++)
		json_cstring(&j, NULL, ev_stats_stop_reason_name(k));
	json_end_array(&j);
	json_begin_array(&j, "threads");
	for (size_t i = 0; i < n && i < p.limit && i < VIEW_MAX_THREAD_ROWS; i++)
		write_thread_row(&j, v, tids[picks[i].id], &p, rp,
				 (size_t)picks[i].id, cells);
	json_end_array(&j);
	json_end_object(&j);
	free(cells);
	free(tids);
	free(picks);
	ev_view_thread_replay_free(rp);
	return "application/json";
}

/* ---- /api/search ---- */

/* Whether `needle` is in `hay`, ASCII letters in either case. */
static int contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++) {
		size_t i = 0;
		while (i < n && hay[i] &&
		       tolower((unsigned char)hay[i]) ==
			       tolower((unsigned char)needle[i]))
			i++;
		if (i == n)
			return 1;
	}
	return 0;
}

static const char *search(void *ctx, const http_request *req, FILE *body)
{
	static const char *const kinds[] = { "marker", "message", "label" };
	const view_state *v = ctx;
	view_params p;
	size_t hits = 0;
	json_out j;

	if (params(req, body, &p) < 0)
		return "text/plain; charset=utf-8";
	if (!p.query)
		return bad(req, body, "bad parameter: q: needed");
	json_init_compact(&j, body);
	json_begin_object(&j, NULL);
	json_begin_array(&j, "hits");
	for (size_t i = 0; i < ev_view_text_count(v->index); i++) {
		const ev_view_text *t = ev_view_text_at(v->index, i);
		if (!contains(t->text, p.query))
			continue;
		if (hits++ == VIEW_MAX_HITS)
			break;
		json_begin_object(&j, NULL);
		json_uint(&j, "time", t->time);
		json_cstring(&j, "kind", kinds[t->kind]);
		json_uint(&j, "tid", t->tid);
		json_cstring(&j, "text", t->text);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_bool(&j, "more", hits > VIEW_MAX_HITS);
	json_end_object(&j);
	return "application/json";
}

/* ---- /api/bands ---- */

/* The bands drawn: the VIEW_TOP_BANDS largest by their total over the
 * run (as eventlog2html draws the top bands), largest first, in
 * `order`; their number. */
static size_t top_bands(const ev_view_index *ix, size_t *order)
{
	size_t n = ev_view_band_count(ix), top = 0;

	for (size_t i = 0; i < n; i++) {
		size_t at = top < VIEW_TOP_BANDS ? top++ : VIEW_TOP_BANDS;
		uint64_t total = ev_view_band_total(ix, i);
		/* an insertion into the sorted top; the smallest falls off */
		while (at > 0 && ev_view_band_total(ix, order[at - 1]) < total) {
			if (at < VIEW_TOP_BANDS)
				order[at] = order[at - 1];
			at--;
		}
		if (at < VIEW_TOP_BANDS)
			order[at] = i;
	}
	return top;
}

/* One sample's bytes: the top bands', then the rest summed ("other"). */
static void write_sample(json_out *j, const ev_view_index *ix, size_t k,
			 const size_t *order, size_t top)
{
	uint64_t all = 0, shown = 0;

	for (size_t i = 0; i < ev_view_band_count(ix); i++)
		all += ev_view_sample_bytes(ix, k, i);
	json_begin_array(j, NULL);
	for (size_t i = 0; i < top; i++) {
		uint64_t b = ev_view_sample_bytes(ix, k, order[i]);
		json_uint(j, NULL, b);
		shown += b;
	}
	json_uint(j, NULL, all - shown);
	json_end_array(j);
}

static const char *bands(void *ctx, const http_request *req, FILE *body)
{
	const view_state *v = ctx;
	const ev_view_index *ix = v->index;
	size_t order[VIEW_TOP_BANDS], top = top_bands(ix, order);
	size_t n = ev_view_sample_count(ix), first = 0, last, count;
	const char *flag;
	view_params p;
	json_out j;

	if (range_params(v, req, body, &p) < 0)
		return "text/plain; charset=utf-8";
	/* The samples of the range and the one before it (it covers the
	 * range's start), at most `width` of them, evenly picked. */
	while (first + 1 < n && ev_view_sample_time(ix, first + 1) <= p.from)
		first++;
	for (last = first; last < n && ev_view_sample_time(ix, last) < p.to;)
		last++;
	count = last - first;
	flag = ev_stats_breakdown_flag(ev_view_band_breakdown(ix));
	json_init_compact(&j, body);
	json_begin_object(&j, NULL);
	json_cstring(&j, "breakdown", flag ? flag : "");
	json_uint(&j, "samples_seen", ev_view_samples_seen(ix));
	json_uint(&j, "samples_kept", n);
	json_begin_array(&j, "bands");
	for (size_t i = 0; i < top; i++)
		json_cstring(&j, NULL, ev_view_band_name(ix, order[i]));
	json_cstring(&j, NULL, "other");
	json_end_array(&j);
	json_begin_array(&j, "times");
	for (size_t i = 0; i < count && i < p.width; i++)
		json_uint(&j, NULL, ev_view_sample_time(
			ix, first + (count > p.width ? i * count / p.width : i)));
	json_end_array(&j);
	json_begin_array(&j, "bytes");
	for (size_t i = 0; i < count && i < p.width; i++)
		write_sample(&j, ix, first + (count > p.width ? i * count / p.width
							      : i), order, top);
	json_end_array(&j);
	json_end_object(&j);
	return "application/json";
}

/* ---- the page ---- */

static const char *page(void *ctx, const http_request *req, FILE *body)
{
	(void)ctx;
	(void)req;
	fwrite(view_page, 1, view_page_len, body);
	return "text/html; charset=utf-8";
}

const http_route view_routes[] = {
	{ "/", page },
	{ "/api/meta", meta },
	{ "/api/tiles", tiles },
	{ "/api/window", window },
	{ "/api/events", events },
	{ "/api/search", search },
	{ "/api/thread", thread },
	{ "/api/threads", threads },
	{ "/api/bands", bands },
};
const size_t view_n_routes = sizeof view_routes / sizeof view_routes[0];
