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

/* The run's range when the request names none. */
static void default_range(const view_state *v, view_params *p)
{
	if (p->have_range)
		return;
	p->from = ev_view_start(v->index);
	p->to = ev_view_end(v->index) > p->from ? ev_view_end(v->index)
						: p->from + 1;
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
		json_begin_array(j, "caps");
		for (size_t c = 0; c < p->n_caps; c++)
			json_uint(j, NULL, p->caps[c]);
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
}

static const char *meta(void *ctx, const http_request *req, FILE *body)
{
	const view_state *v = ctx;
	json_out j;

	(void)req;
	json_init_compact(&j, body);
	json_begin_object(&j, NULL);
	json_cstring(&j, "file", v->name);
	json_uint(&j, "start_ns", ev_view_start(v->index));
	json_uint(&j, "end_ns", ev_view_end(v->index));
	json_uint(&j, "bucket_ns", ev_view_bucket_ns(v->index));
	json_uint(&j, "capabilities", ev_view_cap_count(v->index));
	json_uint(&j, "texts", ev_view_text_count(v->index));
	json_uint(&j, "texts_dropped", ev_view_texts_dropped(v->index));
	json_uint(&j, "index_bytes", ev_view_memory(v->index));
	json_uint(&j, "log_bytes", v->reader ? ev_reader_offset(v->reader) : 0);
	json_bool(&j, "complete", v->complete);
	json_bool(&j, "live", v->live);
	json_bool(&j, "at_end", v->complete || v->waiting);
	write_processes(&j, v);
	json_end_object(&j);
	return "application/json";
}

/* `cap`'s figures in `width` spans of [from, to), from its events. */
static int exact_cells(const view_state *v, uint16_t cap, uint64_t from,
		       uint64_t to, size_t width, ev_view_cell *cells)
{
	ev_view_source src = { v->fd, ev_view_data_offset(v->index),
			       ev_view_block_at(v->index, cap, from), 0 };
	ev_reader *r;
	int rc;

	if (ev_reader_open_fn(&r, ev_view_source_read, &src, v->name,
			      EV_READER_RAW) < 0)
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

/* The heap's size, live bytes and allocation in the tile's spans. */
static void write_heap(json_out *j, const view_state *v, const view_params *p)
{
	ev_view_heap_cell *h = calloc(p->width, sizeof *h);
	const size_t size = sizeof *h;

	json_begin_object(j, "heap");
	if (h && ev_view_heap(v->index, p->from, p->to, p->width, h) == EV_OK) {
		write_field(j, "size_bytes", h, size,
			    offsetof(ev_view_heap_cell, size_bytes), p->width);
		write_field(j, "live_bytes", h, size,
			    offsetof(ev_view_heap_cell, live_bytes), p->width);
		write_field(j, "allocated_bytes", h, size,
			    offsetof(ev_view_heap_cell, allocated_bytes),
			    p->width);
	}
	json_end_object(j);
	free(h);
}

static const char *tiles(void *ctx, const http_request *req, FILE *body)
{
	const view_state *v = ctx;
	size_t caps = ev_view_cap_count(v->index);
	view_params p;
	ev_view_cell *cells;
	ev_view_spark_cell *sp;
	json_out j;

	if (params(req, body, &p) < 0)
		return "text/plain; charset=utf-8";
	default_range(v, &p);
	cells = calloc(p.width, sizeof *cells);
	sp = calloc(p.width, sizeof *sp);
	if (!cells || !sp) {
		free(cells);
		free(sp);
		return NULL;
	}
	json_init_compact(&j, body);
	json_begin_object(&j, NULL);
	json_uint(&j, "from", p.from);
	json_uint(&j, "to", p.to);
	json_uint(&j, "width", p.width);
	json_uint(&j, "bucket_ns", ev_view_bucket_ns(v->index));
	json_bool(&j, "exact", is_short(v, p.from, p.to));
	json_begin_array(&j, "caps");
	for (size_t cap = 0; cap < caps; cap++) {
		if (!is_short(v, p.from, p.to) ||
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
		write_sparks(&j, v, (uint16_t)cap, &p, sp);
		json_end_object(&j);
	}
	json_end_array(&j);
	write_heap(&j, v, &p);
	write_texts(&j, v, p.from, p.to, 2 * p.width);
	json_end_object(&j);
	free(cells);
	free(sp);
	return "application/json";
}

/* ---- /api/window ---- */

static void add_cell(ev_view_cell *sum, const ev_view_cell *c)
{
	sum->run_ns += c->run_ns;
	sum->gc_ns += c->gc_ns;
}

/* `cap`'s figures in [from, to): the whole buckets from the index, the
 * parts at either end from the events. */
static void window_cell(const view_state *v, uint16_t cap, uint64_t from,
			uint64_t to, ev_view_cell *c)
{
	uint64_t w = ev_view_bucket_ns(v->index);
	uint64_t a = (from + w - 1) / w * w, b = to / w * w;
	uint64_t lo = from > ev_view_start(v->index) ? from
						     : ev_view_start(v->index);
	uint64_t hi = to < ev_view_end(v->index) ? to : ev_view_end(v->index);
	ev_view_cell part;

	memset(c, 0, sizeof *c);
	if (is_short(v, from, to) || b <= a) {
		if (exact_cells(v, cap, from, to, 1, c) < 0)
			ev_view_tile(v->index, cap, from, to, 1, c);
		return;
	}
	ev_view_tile(v->index, cap, a, b, 1, c);
	if (from < a && exact_cells(v, cap, from, a, 1, &part) == 0)
		add_cell(c, &part);
	if (b < to && exact_cells(v, cap, b, to, 1, &part) == 0)
		add_cell(c, &part);
	c->idle_ns = hi > lo && hi - lo > c->run_ns + c->gc_ns
			     ? hi - lo - c->run_ns - c->gc_ns : 0;
}

static const char *window(void *ctx, const http_request *req, FILE *body)
{
	const view_state *v = ctx;
	view_params p;
	ev_view_cell c;
	json_out j;

	if (params(req, body, &p) < 0)
		return "text/plain; charset=utf-8";
	default_range(v, &p);
	json_init_compact(&j, body);
	json_begin_object(&j, NULL);
	json_uint(&j, "from", p.from);
	json_uint(&j, "to", p.to);
	json_begin_array(&j, "caps");
	for (size_t cap = 0; cap < ev_view_cap_count(v->index); cap++) {
		window_cell(v, (uint16_t)cap, p.from, p.to, &c);
		json_begin_object(&j, NULL);
		json_uint(&j, "cap", cap);
		json_uint(&j, "mutator_ns", c.run_ns);
		json_uint(&j, "gc_ns", c.gc_ns);
		json_uint(&j, "idle_ns", c.idle_ns);
		json_end_object(&j);
	}
	json_end_array(&j);
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

/* Reads `p.cap`'s events of [from, to) in the log's order, from its
 * block at `from` or, for a later page, from the cursor's block after its
 * event; up to `limit`. The next page's cursor goes in *next (its block
 * and last event, as file offsets); *more says there is one. */
static int scan_events(const view_state *v, const view_params *p,
		       json_out *j, uint64_t next[2], int *more)
{
	uint64_t at = p->have_cursor ? p->block
				     : ev_view_block_at(v->index, p->cap, p->from);
	ev_view_source src = { v->fd, ev_view_data_offset(v->index), at, 0 };
	uint64_t header = src.header_len, shown = 0;
	ev_text line = EV_TEXT_INIT;
	ev_block block = { 0, 0, 0, 0, 0 };
	ev_reader *r;
	ev_event ev;

	*more = 0;
	if (ev_reader_open_fn(&r, ev_view_source_read, &src, v->name,
			      EV_READER_RAW) < 0)
		return -1;
	while (ev_reader_next(r, &ev) == EV_OK) {
		uint64_t offset = at + (ev.offset - header);
		if (ev.offset - header > VIEW_MAX_SCAN) {
			*more = shown > 0;
			break;
		}
		if (ev.type == EV_BLOCK_MARKER || ev.cap != p->cap ||
		    ev.time < p->from ||
		    (p->have_cursor && offset <= p->after))
			continue;
		if (ev.time >= p->to)
			break;
		if (shown == p->limit) {
			*more = 1;
			break;
		}
		write_event(j, v, &ev, offset, &line);
		ev_reader_block(r, &block);
		next[0] = at + (block.offset - header);
		next[1] = offset;
		shown++;
	}
	ev_text_free(&line);
	ev_reader_free(r);
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
 * read from the cap's block at `from` (at most VIEW_MAX_SCAN bytes). */
static size_t thread_events(const view_state *v, const view_params *p,
			    uint16_t cap, json_out *j, size_t room,
			    ev_text *line)
{
	ev_view_source src = { v->fd, ev_view_data_offset(v->index),
			       ev_view_block_at(v->index, cap, p->from), 0 };
	ev_reader *r;
	ev_event ev;
	size_t n = 0;

	if (ev_reader_open_fn(&r, ev_view_source_read, &src, v->name,
			      EV_READER_RAW) < 0)
		return 0;
	while (n < room && ev_reader_next(r, &ev) == EV_OK &&
	       ev.offset - src.header_len <= VIEW_MAX_SCAN) {
		if (ev.type == EV_BLOCK_MARKER || ev.cap != cap ||
		    ev.time < p->from || !about_thread(&ev, p->tid))
			continue;
		if (ev.time >= p->to)
			break;
		write_event(j, v, &ev, src.at + (ev.offset - src.header_len),
			    line);
		n++;
	}
	ev_reader_free(r);
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
	if (!(t = ev_view_thread_of(v->index, p.tid))) {
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
};
const size_t view_n_routes = sizeof view_routes / sizeof view_routes[0];
