/*
 * The sorter (sort.h): per session, a first pass indexes where each
 * capability's events are and how far each capability's stream is from
 * time order; then either a k-way merge of the streams read in place, or
 * the external sort (sort_merge.c).
 *
 * doc/format.md section 3: within a block events are time-ordered except
 * GC_END, which steps back a few microseconds; blocks of one capability
 * are in time order; across capabilities there is no order. So each
 * capability's stream, read block after block in file order, is almost
 * sorted, and the first pass measures exactly how much: for every event
 * the number of earlier events of its stream stamped later than it. A
 * reorder window one wider than the largest such number sorts the stream
 * exactly (a heap of w + 1 events releases its minimum only when no
 * event still to come can be smaller).
 */
#include "evtool/sort.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evtool/catalog.h"
#include "input.h"
#include "internal.h"
#include "sort_internal.h"

#define N_CAPS 65536u
/* The latest times of a stream kept to measure its disorder: a power of
 * two, one more than the widest reorder window the merge accepts. */
#define RING 1024u
#define MAX_WINDOW (RING - 1u)
#define MIN_CURSOR_BUFFER (16u * 1024u)
#define MAX_CURSOR_BUFFER (1024u * 1024u)
/* What one waiting event of a window costs besides its payload. */
#define WINDOW_ENTRY 96u
/* Spans of a stream that need its window: room for this many at first;
 * more as the memory limit allows, then the window is used everywhere. */
#define FIRST_SPANS 64u

/* One capability's events in the session (EV_NO_CAP: the global buffer
 * and events outside blocks). */
typedef struct stream {
	uint16_t cap;
	evi_range *segs; /* contiguous runs of its events, in file order */
	size_t n_segs, segs_cap;
	uint64_t last_end;
	uint32_t max_wire;
	uint64_t *top;   /* the RING latest times, ascending, circular */
	uint64_t *top_ord; /* beside each, the ordinal of its event */
	uint32_t top_n, top_head;
	uint32_t window; /* most earlier events stamped later than one */
	uint64_t events; /* indexed so far: the ordinal of the next one */
	evi_span *spans; /* where the window is needed, in order */
	size_t n_spans, spans_cap;
	int everywhere;  /* too many spans to keep: the window everywhere */
} stream;

typedef struct sort_index {
	stream *streams;
	size_t n, cap;
	int32_t *stream_of; /* by cap: index in streams, or -1 */
	size_t bytes;       /* memory the index holds */
	size_t span_bytes;  /* of which spans grown beyond FIRST_SPANS */
	size_t limit;
	int gave_up;
	char why[160];
} sort_index;

struct ev_sorter {
	ev_sort_options opts;
	ev_sort_stats stats;
	ev_diag diag;
	sort_index index;
	evi_progress progress;
};

/* ------------------------------------------------------------------------
 * Life cycle
 * ---------------------------------------------------------------------- */

int ev_sorter_new(ev_sorter **out, const ev_sort_options *opts, ev_diag *diag)
{
	ev_sorter *s;

	*out = NULL;
	if (opts && (opts->version != EV_SORT_OPTIONS_VERSION ||
		     (opts->memory && opts->memory < EV_SORT_MIN_MEMORY) ||
		     opts->method > EV_SORT_EXTERNAL))
		return evi_fail_at(diag, EV_ORIGIN_OPTIONS, EV_EINVAL, 0, 0,
				   "sort options of version %u (this library "
				   "reads version %u), memory below %u bytes "
				   "or an unknown method", opts->version,
				   EV_SORT_OPTIONS_VERSION,
				   (unsigned)EV_SORT_MIN_MEMORY);
	if (!(s = calloc(1, sizeof *s)))
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	s->opts = (ev_sort_options)EV_SORT_OPTIONS_INIT;
	if (opts)
		s->opts = *opts;
	if (!s->opts.memory)
		s->opts.memory = EV_SORT_DEFAULT_MEMORY;
	s->index.stream_of = malloc(N_CAPS * sizeof *s->index.stream_of);
	if (!s->index.stream_of) {
		free(s);
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	}
	memset(s->index.stream_of, 0xff, N_CAPS * sizeof *s->index.stream_of);
	*out = s;
	return EV_OK;
}

static void index_clear(sort_index *ix)
{
	for (size_t i = 0; i < ix->n; i++) {
		ix->stream_of[ix->streams[i].cap] = -1;
		free(ix->streams[i].segs);
		free(ix->streams[i].top);
		free(ix->streams[i].top_ord);
		free(ix->streams[i].spans);
	}
	ix->n = 0;
	ix->bytes = 0;
	ix->span_bytes = 0;
	ix->gave_up = 0;
	ix->why[0] = '\0';
}

void ev_sorter_free(ev_sorter *s)
{
	if (!s)
		return;
	index_clear(&s->index);
	free(s->index.streams);
	free(s->index.stream_of);
	free(s);
}

const ev_sort_stats *ev_sorter_result(const ev_sorter *s)
{
	return &s->stats;
}

const ev_diag *ev_sorter_diag(const ev_sorter *s)
{
	return &s->diag;
}

/* ------------------------------------------------------------------------
 * The index
 * ---------------------------------------------------------------------- */

static void give_up(sort_index *ix, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void give_up(sort_index *ix, const char *fmt, ...)
{
	va_list ap;

	if (ix->gave_up)
		return;
	ix->gave_up = 1;
	va_start(ap, fmt);
	vsnprintf(ix->why, sizeof ix->why, fmt, ap);
	va_end(ap);
}

static int charge(sort_index *ix, size_t bytes)
{
	ix->bytes += bytes;
	if (ix->bytes <= ix->limit)
		return 1;
	give_up(ix, "indexing its capability streams takes more than half "
		"the memory limit");
	return 0;
}

static stream *new_stream(sort_index *ix, uint16_t cap)
{
	stream *st;

	if (!charge(ix, sizeof *st + 2 * RING * sizeof(uint64_t) +
			       FIRST_SPANS * sizeof(evi_span) +
			       MIN_CURSOR_BUFFER))
		return NULL;
	if (evi_grow(&ix->streams, &ix->cap, ix->n + 1,
		     sizeof *ix->streams) < 0)
		return NULL;
	st = &ix->streams[ix->n];
	memset(st, 0, sizeof *st);
	st->cap = cap;
	if (!(st->top = malloc(RING * sizeof *st->top)) ||
	    !(st->top_ord = malloc(RING * sizeof *st->top_ord)) ||
	    !(st->spans = malloc(FIRST_SPANS * sizeof *st->spans))) {
		free(st->top);
		free(st->top_ord);
		return NULL;
	}
	st->spans_cap = FIRST_SPANS;
	ix->stream_of[cap] = (int32_t)ix->n++;
	return st;
}

static uint64_t top_at(const stream *st, uint32_t i)
{
	return st->top[(st->top_head + i) & (RING - 1)];
}

static void top_put(stream *st, uint32_t i, uint64_t t, uint64_t ord)
{
	st->top[(st->top_head + i) & (RING - 1)] = t;
	st->top_ord[(st->top_head + i) & (RING - 1)] = ord;
}

static uint64_t ord_at(const stream *st, uint32_t i)
{
	return st->top_ord[(st->top_head + i) & (RING - 1)];
}

/* Room for one more span, the spans beyond the first FIRST_SPANS of
 * each stream taking at most an eighth of the index's memory limit: 0
 * when there is none (the window is then used everywhere, which sorts as
 * exactly, only slower, and leaves the rest of the index its room). */
static int room_for_span(sort_index *ix, stream *st)
{
	size_t more = st->spans_cap * sizeof *st->spans;
	evi_span *grown;

	if (st->n_spans < st->spans_cap)
		return 1;
	if (ix->span_bytes + more > ix->limit / 8 ||
	    ix->bytes + more > ix->limit ||
	    !(grown = realloc(st->spans, 2 * more)))
		return 0;
	ix->bytes += more;
	ix->span_bytes += more;
	st->spans = grown;
	st->spans_cap *= 2;
	return 1;
}

/* Event `k` is stamped earlier than the events kept from index `lo` of
 * the ring on: the window is needed from the first of them to k. Spans
 * that this one reaches (or touches) become one. A log with a GC_END
 * stepping back every 100,000 events or so (doc/format.md section 3)
 * has hundreds of spans over its length: each must be kept, or every
 * event of the stream goes through the window. */
static void add_span(sort_index *ix, stream *st, uint32_t lo, uint64_t k)
{
	uint64_t first = k;

	if (st->everywhere)
		return;
	for (uint32_t i = lo; i < st->top_n; i++)
		if (ord_at(st, i) < first)
			first = ord_at(st, i);
	while (st->n_spans && st->spans[st->n_spans - 1].last + 1 >= first) {
		st->n_spans--;
		if (st->spans[st->n_spans].first < first)
			first = st->spans[st->n_spans].first;
	}
	if (!room_for_span(ix, st)) {
		st->everywhere = 1;
		st->n_spans = 0;
		return;
	}
	st->spans[st->n_spans].first = first;
	st->spans[st->n_spans].last = k;
	st->n_spans++;
}

static void top_drop_first(stream *st)
{
	st->top_head = (st->top_head + 1) & (RING - 1);
	st->top_n--;
}

/* track_order for event `k`, stamped `t`, earlier than the latest. */
static void track_disorder(sort_index *ix, stream *st, uint64_t t,
			   uint64_t k)
{
	uint32_t lo = 0, hi = st->top_n;

	if (st->top_n == RING && top_at(st, 0) > t) {
		char name[16];
		if (st->cap == EV_NO_CAP)
			snprintf(name, sizeof name, "global");
		else
			snprintf(name, sizeof name, "%u", st->cap);
		give_up(ix, "capability %s goes back in time past more than "
			"%u of its events", name, MAX_WINDOW);
		return;
	}
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (top_at(st, mid) > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (st->top_n - lo > st->window)
		st->window = st->top_n - lo;
	add_span(ix, st, lo, k);
	if (st->top_n == RING) {
		top_drop_first(st);
		lo--;
	}
	for (uint32_t i = st->top_n; i > lo; i--)
		top_put(st, i, top_at(st, i - 1), ord_at(st, i - 1));
	top_put(st, lo, t, k);
	st->top_n++;
}

/* Keeps the RING latest times of the stream in order and measures how
 * many earlier events are stamped later than `t`. */
static inline void track_order(sort_index *ix, stream *st, uint64_t t)
{
	uint64_t k = st->events++;

	if (st->top_n && t < top_at(st, st->top_n - 1)) {
		track_disorder(ix, st, t, k);
		return;
	}
	if (st->top_n == RING)
		top_drop_first(st);
	top_put(st, st->top_n++, t, k);
}

static int add_segment(sort_index *ix, stream *st, uint64_t offset,
		       uint32_t wire)
{
	if (st->n_segs && st->last_end == offset) {
		st->segs[st->n_segs - 1].bytes += wire;
		return EV_OK;
	}
	if (!charge(ix, sizeof *st->segs))
		return EV_OK;
	if (evi_grow(&st->segs, &st->segs_cap, st->n_segs + 1,
		     sizeof *st->segs) < 0)
		return EV_ENOMEM;
	st->segs[st->n_segs].offset = offset;
	st->segs[st->n_segs].bytes = wire;
	st->n_segs++;
	return EV_OK;
}

static stream *stream_for(sort_index *ix, uint16_t cap)
{
	int32_t i = ix->stream_of[cap];

	return i >= 0 ? &ix->streams[i] : new_stream(ix, cap);
}

/* Records an event of `st` found at `offset` of the session's file. */
static inline int index_in(sort_index *ix, stream *st, uint64_t time,
			   uint64_t offset, uint32_t wire)
{
	if (add_segment(ix, st, offset, wire) < 0)
		return EV_ENOMEM;
	st->last_end = offset + wire;
	if (wire > st->max_wire)
		st->max_wire = wire;
	track_order(ix, st, time);
	return EV_OK;
}

static int index_event(sort_index *ix, const ev_event *ev, uint64_t offset,
		       uint32_t wire)
{
	stream *st = stream_for(ix, ev->cap);

	if (!st)
		return ix->gave_up ? EV_OK : EV_ENOMEM;
	return index_in(ix, st, ev->time, offset, wire);
}

/* The size on the wire of the event at `p`, whose `have` bytes are
 * buffered: 0 when it is not an ordinary event wholly there (a marker,
 * the data end, an undeclared or large type id: the reader's business). */
static inline size_t plain_event(const evi_wire_table *t, const uint8_t *p,
				 size_t have)
{
	uint16_t type = ev_load16(p);
	int32_t wire;
	size_t len;

	if (type >= EVI_SMALL_IDS || type == EV_BLOCK_MARKER)
		return 0;
	wire = t->small[type];
	if (wire >= 0)
		len = EVI_EVENT_HEADER + (size_t)wire;
	else if (wire == EV_SIZE_VARIABLE && have >= EVI_VAR_HEADER)
		len = EVI_VAR_HEADER + ev_load16(p + EVI_EVENT_HEADER);
	else
		return 0;
	return len <= have ? len : 0;
}

/* The loop of index_block_events over the events from p[*at] on, with
 * the stream's ring in locals: track_order for each event, the largest
 * size and where the last one starts. Returns how many it took. */
static uint64_t scan_in_order(sort_index *ix, stream *st, const uint8_t *p,
			      size_t have, size_t *at_io, size_t *last_at,
			      uint32_t *max_wire, const evi_wire_table *wire)
{
	uint64_t *top = st->top, *ord = st->top_ord, k = st->events;
	uint32_t head = st->top_head, cnt = st->top_n, big = *max_wire;
	uint64_t latest = cnt ? top_at(st, cnt - 1) : 0, n = 0;
	size_t at = *at_io, len;

	while (at + EVI_EVENT_HEADER <= have &&
	       (len = plain_event(wire, p + at, have - at)) > 0) {
		uint64_t t = ev_load64(p + at + 2);
		*last_at = at;
		if (len > big)
			big = (uint32_t)len;
		at += len;
		n++;
		if (cnt && t < latest) {
			st->top_head = head;
			st->top_n = cnt;
			st->events = k + 1;
			track_disorder(ix, st, t, k);
			head = st->top_head;
			cnt = st->top_n;
			k = st->events;
			latest = top_at(st, cnt - 1);
			if (ix->gave_up)
				break;
			continue;
		}
		if (cnt == RING)
			head = (head + 1) & (RING - 1);
		else
			cnt++;
		top[(head + cnt - 1) & (RING - 1)] = t;
		ord[(head + cnt - 1) & (RING - 1)] = k++;
		latest = t;
	}
	st->top_head = head;
	st->top_n = cnt;
	st->events = k;
	*at_io = at;
	*max_wire = big;
	return n;
}

/* Indexes the events of the current block that are in the reader's
 * window without decoding them one by one: a block is one capability's,
 * so only the sizes and times matter. Stops at whatever the reader must
 * see itself, which ev_reader_next then reads. */
static int index_block_events(sort_index *ix, ev_reader *r,
			      const evi_wire_table *wire)
{
	const uint8_t *p = NULL;
	size_t have = evi_reader_block_bytes(r, &p), at, len;
	uint64_t base = ev_reader_offset(r), n, last;
	size_t last_at = 0;
	uint32_t max_wire = 0;
	ev_block blk;
	evi_range *seg;
	stream *st;
	int rc;

	if (have < EVI_EVENT_HEADER || !ev_reader_block(r, &blk))
		return EV_OK;
	if (!(len = plain_event(wire, p, have)))
		return EV_OK;
	if (!(st = stream_for(ix, blk.cap)))
		return ix->gave_up ? EV_OK : EV_ENOMEM;
	/* The first event as index_in takes it; the others extend its
	 * segment. */
	if ((rc = index_in(ix, st, ev_load64(p + 2), base, (uint32_t)len)) < 0)
		return rc;
	if (ix->gave_up) {
		/* The index is of no more use (maybe it has no segment). */
		evi_reader_skip(r, len, 1, base);
		return EV_OK;
	}
	seg = &st->segs[st->n_segs - 1];
	at = len;
	n = 1 + scan_in_order(ix, st, p, have, &at, &last_at, &max_wire, wire);
	last = base + last_at;
	seg->bytes += at - len;
	st->last_end = base + at;
	if (max_wire > st->max_wire)
		st->max_wire = max_wire;
	evi_reader_skip(r, at, n, last);
	return EV_OK;
}

/* ------------------------------------------------------------------------
 * One run of the sorter over one input
 * ---------------------------------------------------------------------- */

typedef struct sort_job {
	ev_sorter *s;
	ev_input *in;
	const char *name;
	int fd;           /* the input, or its copy (the input's) */
	int copied;       /* fd is a temporary copy (a pipe, gzip) */
	ev_reader *r;
	ev_sink *out;
	const ev_consumer *visit; /* instead of `out` (ev_sorter_visit) */
	void *visit_ctx;
	uint64_t session_start;
	evi_wire_table wire;
	ev_writer *writer; /* one for every session: one block buffer */
} sort_job;

static int fail_diag(sort_job *job, ev_origin origin, const ev_diag *d)
{
	if (d != &job->s->diag)
		job->s->diag = *d;
	job->s->diag.origin = origin;
	return d->status < 0 ? d->status : EV_EIO;
}

static int fail_msg(sort_job *job, ev_origin origin, int status,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail_msg(sort_job *job, ev_origin origin, int status,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	evi_vfail(&job->s->diag, origin, 0, status, 0, 0, fmt, ap);
	va_end(ap);
	return status;
}

/* The input is read in place when it is a plain regular file; anything
 * else (standard input from a pipe, gzip) is copied first, inflated
 * (input.h), and the copy is read in place. */
static int open_input(sort_job *job)
{
	evi_input in;
	ev_diag d;
	int rc = evi_input_prepare(job->in, job->s->opts.tmpdir,
				   EVI_INPUT_INFLATE, &in, &d);

	job->name = ev_input_name(job->in);
	job->fd = in.fd;
	job->copied = in.copied;
	job->s->stats.copied_input = in.copied;
	job->s->stats.spilled_bytes += in.copied_bytes;
	if (rc < 0)
		return fail_diag(job, in.temp_failed ? EV_ORIGIN_TEMP
						     : EV_ORIGIN_INPUT, &d);
	if ((rc = ev_reader_open_fd(&job->r, job->fd, job->name, 0, NULL)) < 0)
		rc = fail_msg(job, EV_ORIGIN_INPUT, rc, "%s", ev_strerror(rc));
	return rc;
}

static void close_input(sort_job *job)
{
	ev_reader_free(job->r); /* the descriptor is the input's */
}

/* ---- reading a session ---- */

static uint32_t wire_bytes(const sort_job *job, const ev_event *ev)
{
	int variable = evi_wire_size(&job->wire, ev->type) == EV_SIZE_VARIABLE;

	return ev_event_wire_size(ev, variable);
}

/* Block markers are not events to sort, except for a consumer that asked
 * for them. */
static int skips(const sort_job *job, const ev_event *ev)
{
	return ev->type == EV_BLOCK_MARKER &&
	       !(job->visit && (job->visit->flags & EV_CONSUME_MARKERS));
}

/* The first pass: indexes, or collects runs when the external sort was
 * asked for. EV_END or EV_ETRUNCATED at the
 * end of the session's events. */
static int first_pass(sort_job *job, evi_runs *runs)
{
	sort_index *ix = &job->s->index;
	ev_event ev;
	int rc;

	for (;;) {
		int step = EV_OK;
		if (!runs && !ix->gave_up &&
		    (step = index_block_events(ix, job->r, &job->wire)) < 0)
			return fail_msg(job, EV_ORIGIN_NONE, step,
					"out of memory");
		if ((rc = ev_reader_next(job->r, &ev)) != EV_OK)
			break;
		if (skips(job, &ev))
			continue;
		if (runs)
			step = evi_runs_add(runs, &ev);
		else if (!ix->gave_up)
			step = index_event(ix, &ev, ev.offset,
					   wire_bytes(job, &ev));
		if (step < 0)
			return runs ? fail_diag(job, EV_ORIGIN_TEMP,
						&job->s->diag)
				    : fail_msg(job, EV_ORIGIN_NONE, step,
					       "out of memory");
	}
	if (rc == EV_END || rc == EV_ETRUNCATED)
		return rc;
	return fail_diag(job, EV_ORIGIN_INPUT, ev_reader_diag(job->r));
}

/* The external sort after a first pass that indexed: reads the session
 * again from its start with a second reader on the same file, and puts
 * the file position back for the first reader, which goes on with the
 * next session. */
static int collect_again(sort_job *job, evi_runs *runs)
{
	off_t resume = lseek(job->fd, 0, SEEK_CUR);
	ev_reader *r = NULL;
	ev_event ev;
	int rc = EV_OK;

	if (resume < 0 || lseek(job->fd, (off_t)job->session_start,
				SEEK_SET) < 0)
		return fail_msg(job, EV_ORIGIN_INPUT, EV_EIO, "cannot seek: %s",
				strerror(errno));
	if ((rc = ev_reader_open_fd(&r, job->fd, job->name, 0, NULL)) < 0)
		rc = fail_msg(job, EV_ORIGIN_INPUT, rc, "%s", ev_strerror(rc));
	while (rc == EV_OK && (rc = ev_reader_next(r, &ev)) == EV_OK)
		if (!skips(job, &ev) && (rc = evi_runs_add(runs, &ev)) < 0)
			rc = fail_diag(job, EV_ORIGIN_TEMP, &job->s->diag);
	if (rc == EV_END || rc == EV_ETRUNCATED)
		rc = EV_OK;
	else if (r && rc < 0 && job->s->diag.origin == EV_ORIGIN_NONE)
		rc = fail_diag(job, EV_ORIGIN_INPUT, ev_reader_diag(r));
	ev_reader_free(r);
	if (lseek(job->fd, resume, SEEK_SET) != resume && rc == EV_OK)
		rc = fail_msg(job, EV_ORIGIN_INPUT, EV_EIO, "cannot seek: %s",
			      strerror(errno));
	return rc;
}

/* ---- choosing and running a method ---- */

/* Fills the merge buffer of every stream, or says why the streams
 * cannot be merged within the memory limit. */
static const char *plan_merge(ev_sorter *s, size_t *buffers)
{
	sort_index *ix = &s->index;
	size_t need = 0, spare, extra;

	if (ix->gave_up)
		return ix->why;
	for (size_t i = 0; i < ix->n; i++) {
		const stream *st = &ix->streams[i];
		size_t min = 2 * (size_t)st->max_wire > MIN_CURSOR_BUFFER
				     ? 2 * (size_t)st->max_wire
				     : MIN_CURSOR_BUFFER;
		buffers[i] = min;
		need += min + sizeof(evi_range) * st->n_segs +
			sizeof(evi_span) * st->n_spans;
		if (st->window)
			need += ((size_t)st->window + 2) *
				(WINDOW_ENTRY + st->max_wire);
	}
	if (need > s->opts.memory) {
		snprintf(ix->why, sizeof ix->why, "its %zu capability streams "
			 "need %zu bytes to be merged in place", ix->n, need);
		return ix->why;
	}
	spare = s->opts.memory - need;
	extra = ix->n ? spare / ix->n : 0;
	for (size_t i = 0; i < ix->n; i++) {
		buffers[i] += extra;
		if (buffers[i] > MAX_CURSOR_BUFFER)
			buffers[i] = MAX_CURSOR_BUFFER;
		if (buffers[i] < 2 * (size_t)ix->streams[i].max_wire)
			buffers[i] = 2 * (size_t)ix->streams[i].max_wire;
	}
	return NULL;
}

/* Where sorted events go: a writer, or the caller's consumer. */
typedef struct emit_ctx {
	ev_writer *w;
	evi_block *block;             /* the writer's (re-blocking) */
	const evi_wire_table *wire;   /* the session's */
	const ev_consumer *visit;
	void *visit_ctx;
	uint64_t visited; /* events handed to the consumer, markers not counted */
	int failed;
	uint64_t events_before; /* the writer's count at the session's start */
} emit_ctx;

static int emit_event(void *ctx, const ev_event *ev)
{
	emit_ctx *e = ctx;
	evi_wire_event out = evi_wire_event_of(
		ev, evi_wire_size(e->wire, ev->type) == EV_SIZE_VARIABLE);
	int rc = evi_block_put(e->block, ev->cap, &out);

	e->failed = rc < 0;
	return rc;
}

static int visit_event(void *ctx, const ev_event *ev)
{
	emit_ctx *e = ctx;
	int rc = e->visit->event(e->visit_ctx, ev);

	if (rc < 0)
		e->failed = 1;
	else if (ev->type != EV_BLOCK_MARKER)
		e->visited++;
	return rc;
}

static int emit_run(void *ctx, const evi_run *run)
{
	emit_ctx *e = ctx;
	int rc = evi_block_put_run(e->block, run);

	e->failed = rc < 0;
	return rc;
}

static int merge_streams(sort_job *job, const size_t *buffers,
			 emit_ctx *emit)
{
	sort_index *ix = &job->s->index;
	evi_cursor **cursors = calloc(ix->n ? ix->n : 1, sizeof *cursors);
	int rc = cursors ? EV_OK : EV_ENOMEM;
	evi_pool *pool; /* the cursors' read ahead: one worker (none: in turn) */

	evi_pool_new(&pool, 1);

	for (size_t i = 0; i < ix->n; i++) {
		/* The rings measured the disorder; the merge has no use
		 * for them. */
		free(ix->streams[i].top);
		free(ix->streams[i].top_ord);
		ix->streams[i].top = NULL;
		ix->streams[i].top_ord = NULL;
	}
	for (size_t i = 0; rc == EV_OK && i < ix->n; i++) {
		const stream *st = &ix->streams[i];
		/* Read ahead when the buffer planned holds two of the size
		 * the merge needs (two largest events each). */
		int ahead = buffers[i] >= 2 * MIN_CURSOR_BUFFER &&
			    buffers[i] / 2 >= 2 * (size_t)st->max_wire;
		evi_cursor_spec spec = { job->fd, st->segs, st->n_segs, 0,
					 st->cap, 0,
					 ahead ? buffers[i] / 2 : buffers[i],
					 st->window, st->spans, st->n_spans,
					 &job->wire, ahead ? pool : NULL };
		rc = evi_cursor_new(&cursors[i], &spec, &job->s->diag);
	}
	if (rc == EV_OK)
		rc = evi_merge(cursors, ix->n,
			       emit->w ? emit_event : visit_event,
			       emit->w ? emit_run : NULL, emit);
	for (size_t i = 0; cursors && i < ix->n; i++)
		evi_cursor_free(cursors[i]);
	evi_pool_free(pool);
	free(cursors);
	return rc;
}

static void note_index(ev_sorter *s)
{
	sort_index *ix = &s->index;

	if (ix->n > s->stats.streams)
		s->stats.streams = (unsigned)ix->n;
	for (size_t i = 0; i < ix->n; i++)
		if (ix->streams[i].window > s->stats.widest_window)
			s->stats.widest_window = ix->streams[i].window;
}

static void note_runs(ev_sorter *s, const evi_runs *runs)
{
	uint64_t n, bytes;
	unsigned passes;

	evi_runs_counts(runs, &n, &passes, &bytes);
	s->stats.runs += n;
	s->stats.merge_passes += passes;
	s->stats.spilled_bytes += bytes;
}

/* Starts the session's output: a writer with the session's header, or
 * the consumer's begin. */
static int start_output(sort_job *job, emit_ctx *emit)
{
	ev_writer_options wo = EV_WRITER_OPTIONS_INIT;
	const ev_header *h = ev_reader_header(job->r);
	int rc;

	if (job->visit) {
		ev_session s = { job->s->stats.sessions - 1, h,
				 job->session_start, 0 };

		emit->visit = job->visit;
		emit->visit_ctx = job->visit_ctx;
		rc = job->visit->begin(job->visit_ctx, &s);
		return rc < 0 ? fail_msg(job, EV_ORIGIN_OUTPUT, rc, "%s",
					 ev_strerror(rc))
			      : EV_OK;
	}
	/* One writer for all sessions keeps its block buffer (up to
	 * 2 MiB): a log of many tiny sessions costs one. */
	wo.mode = EV_WRITE_REBLOCK;
	wo.max_block_size = job->s->opts.max_block_size;
	if (job->writer)
		rc = ev_writer_next_session(job->writer, h);
	else
		rc = ev_writer_open(&job->writer, job->out, h, &wo, NULL);
	if (rc < 0)
		return fail_msg(job, EV_ORIGIN_OUTPUT, rc, "%s",
				ev_strerror(rc));
	emit->w = job->writer;
	emit->block = evi_writer_block(job->writer);
	emit->wire = &job->wire;
	emit->events_before = ev_writer_events(job->writer);
	return EV_OK;
}

/* The session's end to the consumer: the first pass read it to its data
 * end. */
static int end_visit(sort_job *job, const emit_ctx *emit)
{
	ev_session s = { job->s->stats.sessions - 1, ev_reader_header(job->r),
			 job->session_start, ev_reader_offset(job->r) };

	return emit->visit->end(emit->visit_ctx, &s);
}

static int output_failed(sort_job *job, const emit_ctx *emit, int rc)
{
	if (emit->w)
		return fail_diag(job, EV_ORIGIN_OUTPUT, ev_writer_diag(emit->w));
	return fail_msg(job, EV_ORIGIN_OUTPUT, rc, "the consumer of the "
			"sorted events stopped: %s", ev_strerror(rc));
}

static int write_sorted(sort_job *job, evi_runs *runs, const size_t *buffers)
{
	emit_ctx emit = { NULL, NULL, NULL, NULL, NULL, 0, 0, 0 };
	int rc;

	if ((rc = start_output(job, &emit)) < 0)
		return rc;
	rc = runs ? evi_runs_finish(runs, emit.w ? emit_event : visit_event,
				    &emit)
		  : merge_streams(job, buffers, &emit);
	if (rc == EV_OK && emit.w && (rc = ev_writer_finish(emit.w)) < 0)
		emit.failed = 1;
	if (rc == EV_OK && emit.visit && emit.visit->end &&
	    (rc = end_visit(job, &emit)) < 0)
		emit.failed = 1;
	if (rc < 0 && emit.failed)
		rc = output_failed(job, &emit, rc);
	else if (rc < 0)
		rc = fail_diag(job, runs || job->copied ? EV_ORIGIN_TEMP
						       : EV_ORIGIN_INPUT,
			       &job->s->diag);
	job->s->stats.events += emit.w ? ev_writer_events(emit.w) -
						 emit.events_before
				       : emit.visited;
	return rc;
}

/* After an indexing first pass: merge in place, or fall back to the
 * external sort. */
static int sort_indexed(sort_job *job)
{
	ev_sorter *s = job->s;
	size_t *buffers = malloc((s->index.n ? s->index.n : 1) *
				 sizeof *buffers);
	const char *why;
	evi_runs *runs = NULL;
	int rc = EV_OK;

	if (!buffers)
		return fail_msg(job, EV_ORIGIN_NONE, EV_ENOMEM, "out of memory");
	why = plan_merge(s, buffers);
	if (!why)
		note_index(s);
	else
		snprintf(s->stats.fallback, sizeof s->stats.fallback, "%s",
			 why);
	if (why && s->opts.method == EV_SORT_MERGE)
		rc = fail_msg(job, EV_ORIGIN_OPTIONS, EV_ELIMIT, "cannot merge "
			      "the log in place: %s", why);
	else if (why && (rc = evi_runs_new(&runs, s->opts.memory,
					   s->opts.tmpdir, &job->wire,
					   &s->diag)) < 0)
		rc = fail_diag(job, EV_ORIGIN_NONE, &s->diag);
	else if (why)
		rc = collect_again(job, runs);
	if (rc == EV_OK)
		rc = write_sorted(job, runs, buffers);
	if (rc == EV_OK && runs)
		s->stats.external_sessions++;
	else if (rc == EV_OK)
		s->stats.merged_sessions++;
	if (runs)
		note_runs(s, runs);
	evi_runs_free(runs);
	free(buffers);
	return rc;
}

/* Sorts the session the reader is at. EV_END or EV_ETRUNCATED (the
 * input ended inside it) when done, else an error. */
static int sort_session(sort_job *job)
{
	ev_sorter *s = job->s;
	evi_runs *runs = NULL;
	int rc, end;

	evi_wire_table_init(&job->wire, ev_reader_header(job->r));
	index_clear(&s->index);
	s->index.limit = s->opts.memory / 2;
	if (s->opts.method == EV_SORT_EXTERNAL &&
	    evi_runs_new(&runs, s->opts.memory, s->opts.tmpdir, &job->wire,
			 &s->diag) < 0)
		return fail_diag(job, EV_ORIGIN_NONE, &s->diag);
	rc = end = first_pass(job, runs);
	if (end == EV_END || end == EV_ETRUNCATED)
		rc = EV_OK;
	if (rc == EV_OK && runs) {
		rc = write_sorted(job, runs, NULL);
		if (rc == EV_OK)
			s->stats.external_sessions++;
		note_runs(s, runs);
	} else if (rc == EV_OK) {
		rc = sort_indexed(job);
	}
	evi_runs_free(runs);
	index_clear(&s->index);
	return rc < 0 ? rc : end;
}

static int truncated(sort_job *job)
{
	job->s->stats.truncated = 1;
	fail_diag(job, EV_ORIGIN_INPUT, ev_reader_diag(job->r));
	return EV_ETRUNCATED;
}

static int sort_sessions(sort_job *job)
{
	int rc = ev_reader_read_header(job->r);

	if (rc < 0) {
		/* Empty, or cut inside its first header: there is no log to
		 * sort, and an empty output would not be one (the reader says
		 * how much of the header it read). */
		fail_diag(job, EV_ORIGIN_INPUT, ev_reader_diag(job->r));
		if (rc == EV_ETRUNCATED)
			job->s->diag.status = EV_EFORMAT;
		return job->s->diag.status;
	}
	for (;;) {
		job->s->stats.sessions++;
		rc = sort_session(job);
		if (rc == EV_ETRUNCATED)
			return truncated(job);
		if (rc != EV_END)
			return rc;
		job->session_start = ev_reader_offset(job->r);
		rc = ev_reader_next_session(job->r);
		if (rc == EV_END)
			return EV_OK;
		if (rc == EV_ETRUNCATED)
			return truncated(job);
		if (rc < 0)
			return fail_diag(job, EV_ORIGIN_INPUT,
					 ev_reader_diag(job->r));
	}
}

static int run_job(sort_job *job)
{
	ev_sorter *s = job->s;
	int rc;

	memset(&s->stats, 0, sizeof s->stats);
	memset(&s->diag, 0, sizeof s->diag);
	rc = open_input(job);
	if (rc == EV_OK) {
		s->progress.done = 0;
		s->progress.total = evi_reader_stored_size(job->r);
		evi_reader_progress(job->r, &s->progress);
		rc = sort_sessions(job);
	}
	close_input(job);
	ev_writer_free(job->writer);
	job->writer = NULL;
	return rc;
}

int ev_sorter_run(ev_sorter *s, ev_input *in, ev_sink *out)
{
	sort_job job;

	memset(&job, 0, sizeof job);
	job.s = s;
	job.in = in;
	job.out = out;
	return run_job(&job);
}

int ev_sorter_visit(ev_sorter *s, ev_input *in, const ev_consumer *v,
		    void *ctx)
{
	sort_job job;
	int status, rc;

	if (!v || !v->begin || !v->event)
		return EV_EINVAL;
	memset(&job, 0, sizeof job);
	job.s = s;
	job.in = in;
	job.visit = v;
	job.visit_ctx = ctx;
	status = run_job(&job);
	if (!v->finish)
		return status;
	/* A failure of the consumer's own is the output's, as its event's. */
	if ((rc = v->finish(ctx, status)) >= 0 || rc == status)
		return rc;
	return fail_msg(&job, EV_ORIGIN_OUTPUT, rc, "the consumer of the "
			"sorted events stopped: %s", ev_strerror(rc));
}

void ev_sorter_set_progress(ev_sorter *s, ev_progress_fn fn, void *ctx)
{
	s->progress.fn = fn;
	s->progress.ctx = ctx;
}

/* ------------------------------------------------------------------------
 * --check
 * ---------------------------------------------------------------------- */

int ev_sort_check(ev_reader *r, ev_sort_inversion *inv)
{
	ev_event ev;
	int have_prev = 0, rc;

	memset(inv, 0, sizeof *inv);
	for (;;) {
		while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
			if (ev.type == EV_BLOCK_MARKER)
				continue;
			if (have_prev && ev.time < inv->prev_time) {
				inv->session = ev_reader_session(r);
				inv->offset = ev.offset;
				inv->index = ev.index;
				inv->type = ev.type;
				inv->time = ev.time;
				return 1;
			}
			have_prev = 1;
			inv->prev_offset = ev.offset;
			inv->prev_index = ev.index;
			inv->prev_type = ev.type;
			inv->prev_time = ev.time;
		}
		if (rc != EV_END)
			return rc;
		rc = ev_reader_next_session(r);
		if (rc == EV_END)
			return 0;
		if (rc < 0)
			return rc;
		have_prev = 0; /* each session has its own clock */
	}
}
