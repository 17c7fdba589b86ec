/*
 * The sorter's moving parts (sort_internal.h): cursors that read events
 * from byte ranges of a file, their reorder windows, the k-way merge by
 * (time, tie order), and the sorted runs of the external sort.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "sort_internal.h"
#include "tempfile.h"

#define NO_SLOT UINT32_MAX
#define TAG_BYTES 2u
/* The largest record: cap tag, variable event header, 64 KiB payload. */
#define MAX_RECORD (TAG_BYTES + EVI_VAR_HEADER + 65535u)
/* Merge buffers of runs: at least this, so that fan-in stays sensible. */
#define MIN_RUN_BUFFER (16u * 1024u)
#define MAX_FAN_IN 256u
#define OUT_BUFFER (256u * 1024u)
/* Room a window's pending list has beyond the window, so that moving it
 * back to the start of its array is rare. */
#define PENDING_SLACK 1024u
/* Room before the bytes read ahead into a cursor's second buffer for
 * the unread end of the first (a cut event) to go in front of them. */
#define AHEAD_ROOM 4096u

/* ------------------------------------------------------------------------
 * Cursors
 * ---------------------------------------------------------------------- */

/* An event waiting in a reorder window. Its payload points into the
 * cursor's buffer until a refill would overwrite it; then it is copied
 * to `own`. */
typedef struct slot {
	ev_event ev;
	uint64_t order;
	uint8_t *own;
	uint32_t own_cap;
} slot;

struct evi_cursor {
	evi_cursor_spec spec;
	ev_diag *diag;
	size_t range;      /* index of the current range */
	uint64_t pos, end; /* unread file bytes of the current range */
	uint8_t *buf;
	size_t buf_cap, at, len; /* unread buffered bytes: buf[at, len) */
	uint64_t buf_off;        /* file offset of buf[0] */

	/* Reading ahead: the second buffer, and the read into it (from
	 * AHEAD_ROOM on), a job of spec.ahead's pool while `ahead`. */
	uint8_t *spare;
	evi_job job;
	uint64_t ahead_off;
	size_t ahead_want;
	ssize_t ahead_got;
	int ahead;

	uint32_t win_cap;  /* events held before the earliest is released */
	slot *slots;       /* win_cap + 1 */
	uint32_t *pending; /* waiting slots in (time, order) order: */
	uint32_t first, heap_n; /* pending[first, first + heap_n) */
	uint32_t *free_slots, n_free;
	uint32_t current;  /* the head's slot */
	int raw_done;
	uint64_t read;     /* events read: the ordinal of the next one */
	size_t span;       /* the current or next span, */
	uint64_t span_first, span_last; /* its ends (none: UINT64_MAX) */

	int has_head;
	const ev_event *head; /* a window slot's event, or `decoded` */
	ev_event decoded;
	uint64_t order;
};

static int corrupt(evi_cursor *c, const char *what)
{
	return evi_fail(c->diag, EV_EFORMAT, c->buf_off + c->at, 0,
			"%s (did the file change while it was sorted?)", what);
}

static void start_range(evi_cursor *c)
{
	const evi_range *r = &c->spec.ranges[c->range];

	c->pos = r->offset;
	c->end = r->offset + r->bytes;
	c->buf_off = r->offset;
	c->at = c->len = 0;
}

/*
 * Reading ahead. The merge takes a few events from each cursor in turn,
 * so a cursor's reads (pread of up to a buffer, all of the file once
 * more after the first pass) would stop the merge for as long as the
 * kernel copies; a second buffer is filled with the next bytes in the
 * background instead (a job of the sorter's pool, lib/common/pool.h: a
 * worker thread, on the other core), and the buffers swap at refill. Any read ahead that does not serve
 * (failed, short, or the cut event in front of it does not fit) is
 * dropped and the bytes are read in turn as before, which also reports
 * any error.
 */

/* The job: one pread into the spare buffer, as POSIX AIO's aio_read did. */
static int read_spare(void *ctx, unsigned job, unsigned worker)
{
	evi_cursor *c = ctx;
	ssize_t got;

	(void)job;
	(void)worker;
	do
		got = pread(c->spec.fd, c->spare + AHEAD_ROOM, c->ahead_want,
			    (off_t)c->ahead_off);
	while (got < 0 && errno == EINTR);
	c->ahead_got = got;
	return EV_OK;
}

/* Starts reading the bytes the next refill will want into the spare
 * buffer: the rest of the current range, or the start of the next. */
static void read_ahead(evi_cursor *c)
{
	uint64_t off = c->pos, left = c->end - c->pos;
	size_t room = c->buf_cap - AHEAD_ROOM;

	if (!c->spare || c->ahead)
		return;
	if (!left && c->range + 1 < c->spec.n_ranges) {
		off = c->spec.ranges[c->range + 1].offset;
		left = c->spec.ranges[c->range + 1].bytes;
	}
	if (!left)
		return;
	c->ahead_off = off;
	c->ahead_want = left < room ? (size_t)left : room;
	evi_pool_submit(c->spec.ahead, &c->job);
	c->ahead = 1;
}

/* Waits for the read ahead: the bytes it read, or -1. */
static ssize_t ahead_wait(evi_cursor *c)
{
	evi_pool_wait(c->spec.ahead, &c->job);
	c->ahead = 0;
	return c->ahead_got;
}

/* Refills from the read ahead, if it read what is wanted next: 1 when
 * it did (the unread bytes are put in front of it), 0 when the caller
 * reads in turn. */
static int take_ahead(evi_cursor *c)
{
	size_t unread = c->len - c->at;
	ssize_t got = ahead_wait(c);
	uint8_t *old = c->buf;

	if (got <= 0 || (size_t)got != c->ahead_want ||
	    c->ahead_off != c->pos || unread > AHEAD_ROOM)
		return 0;
	memcpy(c->spare + AHEAD_ROOM - unread, c->buf + c->at, unread);
	c->buf = c->spare;
	c->spare = old;
	c->buf_off = c->pos - unread;
	c->at = AHEAD_ROOM - unread;
	c->len = AHEAD_ROOM + (size_t)got;
	c->pos += (uint64_t)got;
	return 1;
}

int evi_cursor_new(evi_cursor **out, const evi_cursor_spec *spec,
		   ev_diag *diag)
{
	evi_cursor *c = calloc(1, sizeof *c);
	uint32_t pool;

	*out = NULL;
	if (!c)
		return evi_fail(diag, EV_ENOMEM, 0, 0, "out of memory");
	c->spec = *spec;
	c->diag = diag;
	c->buf_cap = spec->buffer < 4096 ? 4096 : spec->buffer;
	c->buf = malloc(c->buf_cap);
	if (spec->ahead && c->buf_cap > 2 * AHEAD_ROOM)
		c->spare = malloc(c->buf_cap); /* none: read in turn */
	c->job = (evi_job){ .work = read_spare, .ctx = c };
	c->win_cap = spec->window ? spec->window + 1 : 0;
	pool = c->win_cap + 1;
	c->current = NO_SLOT;
	if (c->win_cap) {
		c->slots = calloc(pool, sizeof *c->slots);
		c->pending = malloc((pool + PENDING_SLACK) *
				    sizeof *c->pending);
		c->free_slots = malloc(pool * sizeof *c->free_slots);
	}
	if (!c->buf || (c->win_cap && (!c->slots || !c->pending ||
				       !c->free_slots))) {
		evi_cursor_free(c);
		return evi_fail(diag, EV_ENOMEM, 0, 0, "out of memory");
	}
	for (uint32_t i = 0; c->win_cap && i < pool; i++)
		c->free_slots[c->n_free++] = pool - 1 - i;
	if (spec->n_ranges) {
		start_range(c);
		read_ahead(c);
	}
	c->span_first = c->span_last = UINT64_MAX;
	if (spec->n_spans) {
		c->span_first = spec->spans[0].first;
		c->span_last = spec->spans[0].last;
	}
	*out = c;
	return EV_OK;
}

void evi_cursor_free(evi_cursor *c)
{
	if (!c)
		return;
	if (c->ahead)
		ahead_wait(c);
	free(c->spare);
	for (uint32_t i = 0; c->slots && i <= c->win_cap; i++)
		free(c->slots[i].own);
	free(c->slots);
	free(c->pending);
	free(c->free_slots);
	free(c->buf);
	free(c);
}

/* Copies waiting events out of the buffer before it is overwritten: the
 * wire header with the payload, which stays preceded by it (what
 * evi_writer_copy relies on). */
static int protect_window(evi_cursor *c)
{
	for (uint32_t i = 0; i < c->heap_n; i++) {
		slot *s = &c->slots[c->pending[c->first + i]];
		size_t head = evi_wire_size(c->spec.wire, s->ev.type) ==
					      EV_SIZE_VARIABLE
				      ? EVI_VAR_HEADER
				      : EVI_EVENT_HEADER;
		size_t bytes = head + s->ev.size;
		const uint8_t *p = s->ev.payload - head;
		if (p < c->buf || p >= c->buf + c->buf_cap)
			continue;
		if (s->own_cap < bytes) {
			uint8_t *grown = realloc(s->own, bytes);
			if (!grown)
				return evi_fail(c->diag, EV_ENOMEM, 0, 0,
						"out of memory");
			s->own = grown;
			s->own_cap = (uint32_t)bytes;
		}
		memcpy(s->own, p, bytes);
		s->ev.payload = s->own + head;
	}
	return EV_OK;
}

static int refill(evi_cursor *c)
{
	size_t unread = c->len - c->at, want, got;
	int rc = protect_window(c);

	if (rc < 0)
		return rc;
	if (c->ahead && take_ahead(c)) {
		read_ahead(c);
		return EV_OK;
	}
	if (c->at > 0) {
		memmove(c->buf, c->buf + c->at, unread);
		c->buf_off += c->at;
		c->at = 0;
		c->len = unread;
	}
	want = c->buf_cap - c->len;
	if (want > c->end - c->pos)
		want = (size_t)(c->end - c->pos);
	rc = evi_pread_full(c->spec.fd, c->buf + c->len, want, c->pos, &got,
			    c->diag);
	if (rc < 0)
		return rc;
	if (got < want)
		return corrupt(c, "the file ends before the events it indexed");
	c->len += got;
	c->pos += got;
	read_ahead(c);
	return EV_OK;
}

/* 1 when `n` unread bytes are buffered, 0 at the end of the ranges. */
static int ensure(evi_cursor *c, size_t n)
{
	while (c->len - c->at < n) {
		int rc;
		if (c->pos == c->end) {
			if (c->len > c->at)
				return corrupt(c, "an event runs past the end "
					       "of its range");
			if (c->range + 1 >= c->spec.n_ranges)
				return 0;
			c->range++;
			start_range(c);
			continue;
		}
		if (n > c->buf_cap)
			return corrupt(c, "an event is larger than the "
				       "merge buffer");
		if ((rc = refill(c)) < 0)
			return rc;
	}
	return 1;
}

/* The next event in file order, decoded at buf[at]: `head` and `size`
 * tell its layout. */
static void decode_at(evi_cursor *c, ev_event *ev, uint64_t *order,
		      size_t tag, size_t head, uint32_t size)
{
	const uint8_t *p = c->buf + c->at;

	ev->type = ev_load16(p + tag);
	ev->time = ev_load64(p + tag + 2);
	ev->size = size;
	ev->payload = p + tag + head;
	ev->cap = c->spec.tagged ? ev_load16(p) : c->spec.cap;
	ev->offset = c->buf_off + c->at;
	ev->index = 0;
	*order = c->spec.tagged ? c->spec.run_order : ev->offset;
	c->at += tag + head + size;
}

/* The layout of the event at buf[at], whose first `have` bytes are
 * buffered: 1 and *head, *size when they tell, 0 when more bytes are
 * needed first, negative for an undeclared type. */
static int layout(evi_cursor *c, size_t tag, size_t have, size_t *head,
		  uint32_t *size)
{
	const uint8_t *p = c->buf + c->at;
	int32_t wire;

	if (have < tag + EVI_EVENT_HEADER)
		return 0;
	wire = evi_wire_size(c->spec.wire, ev_load16(p + tag));
	if (wire == EVI_UNDECLARED)
		return corrupt(c, "an undeclared event type");
	if (wire != EV_SIZE_VARIABLE) {
		*head = EVI_EVENT_HEADER;
		*size = (uint32_t)wire;
		return 1;
	}
	if (have < tag + EVI_VAR_HEADER)
		return 0;
	*head = EVI_VAR_HEADER;
	*size = ev_load16(p + tag + EVI_EVENT_HEADER);
	return 1;
}

/* The next event in file order: 1, 0 at the end, or an error. */
static int raw_next(evi_cursor *c, ev_event *ev, uint64_t *order)
{
	size_t tag = c->spec.tagged ? TAG_BYTES : 0, head = 0, need;
	uint32_t size = 0;
	int rc = layout(c, tag, c->len - c->at, &head, &size);

	if (rc == 1 && c->len - c->at >= tag + head + size) {
		decode_at(c, ev, order, tag, head, size);
		return 1;
	}
	if (rc < 0)
		return rc;
	/* Slow path: refill (or move to the next range) as needed. */
	for (need = tag + EVI_EVENT_HEADER;;) {
		if (c->range >= c->spec.n_ranges ||
		    (rc = ensure(c, need)) == 0)
			return need == tag + EVI_EVENT_HEADER
				       ? 0 : corrupt(c, "a cut event");
		if (rc < 0)
			return rc;
		rc = layout(c, tag, c->len - c->at, &head, &size);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			need = tag + EVI_VAR_HEADER;
			continue;
		}
		if (c->len - c->at >= tag + head + size)
			break;
		need = tag + head + size;
	}
	decode_at(c, ev, order, tag, head, size);
	return 1;
}

static int slot_less(const evi_cursor *c, uint32_t a, uint32_t b)
{
	const slot *x = &c->slots[a], *y = &c->slots[b];

	return x->ev.time < y->ev.time ||
	       (x->ev.time == y->ev.time && x->order < y->order);
}

/* Inserts a slot into the sorted pending list. Events mostly come in
 * order, so this is mostly an append; the list moves back to the start of
 * its array when it reaches the end. */
static void window_push(evi_cursor *c, uint32_t id)
{
	uint32_t *p, i;

	if (c->first + c->heap_n == c->win_cap + 1 + PENDING_SLACK) {
		memmove(c->pending, c->pending + c->first,
			c->heap_n * sizeof *c->pending);
		c->first = 0;
	}
	p = c->pending + c->first;
	for (i = c->heap_n; i > 0 && slot_less(c, id, p[i - 1]); i--)
		p[i] = p[i - 1];
	p[i] = id;
	c->heap_n++;
}

static uint32_t window_pop(evi_cursor *c)
{
	c->heap_n--;
	return c->pending[c->first++];
}

/* 1 when the next event to read is in no span: nothing before it
 * waits, and it can be handed out as read. */
static inline int outside_spans(evi_cursor *c)
{
	if (!c->spec.n_spans)
		return 0;
	if (c->read > c->span_last) {
		if (++c->span < c->spec.n_spans) {
			c->span_first = c->spec.spans[c->span].first;
			c->span_last = c->spec.spans[c->span].last;
		} else {
			c->span_first = c->span_last = UINT64_MAX;
		}
	}
	return c->read < c->span_first;
}

/* Fills the window to win_cap events, then releases the earliest. With
 * spans, the window is filled only with the events of the current span,
 * then emptied: every event after a span is stamped no earlier than
 * those in it (evi_span). */
static int windowed_next(evi_cursor *c)
{
	if (c->current != NO_SLOT) {
		c->free_slots[c->n_free++] = c->current;
		c->current = NO_SLOT;
	}
	while (!c->raw_done && c->heap_n < c->win_cap &&
	       !(c->spec.n_spans && outside_spans(c))) {
		uint32_t id = c->free_slots[--c->n_free];
		slot *s = &c->slots[id];
		int rc = raw_next(c, &s->ev, &s->order);
		if (rc <= 0) {
			c->free_slots[c->n_free++] = id;
			if (rc < 0)
				return rc;
			c->raw_done = 1;
			break;
		}
		c->read++;
		window_push(c, id);
	}
	c->has_head = c->heap_n > 0;
	if (c->has_head) {
		c->current = window_pop(c);
		c->head = &c->slots[c->current].ev;
		c->order = c->slots[c->current].order;
	}
	return EV_OK;
}

/* raw_next for the common case, inline: an untagged cursor's event of a
 * fixed-size type below EVI_SMALL_IDS, wholly buffered. 0 leaves every
 * other case to raw_next. */
static inline int plain_next(evi_cursor *c, ev_event *ev, uint64_t *order)
{
	const uint8_t *p = c->buf + c->at;
	size_t have = c->len - c->at;
	uint16_t type;
	int32_t wire;

	if (c->spec.tagged || have < EVI_EVENT_HEADER)
		return 0;
	type = ev_load16(p);
	if (type >= EVI_SMALL_IDS)
		return 0;
	wire = c->spec.wire->small[type];
	if (wire < 0 || have - EVI_EVENT_HEADER < (size_t)wire)
		return 0;
	ev->type = type;
	ev->time = ev_load64(p + 2);
	ev->size = (uint32_t)wire;
	ev->payload = p + EVI_EVENT_HEADER;
	ev->cap = c->spec.cap;
	ev->offset = c->buf_off + c->at;
	ev->index = 0;
	*order = ev->offset;
	c->at += EVI_EVENT_HEADER + (size_t)wire;
	return 1;
}

/* Moves the cursor to its next event in (time, order) order. */
static inline int advance(evi_cursor *c)
{
	int rc;

	if (c->win_cap && (c->heap_n || !outside_spans(c)))
		return windowed_next(c);
	if (c->current != NO_SLOT) {
		c->free_slots[c->n_free++] = c->current;
		c->current = NO_SLOT;
	}
	c->head = &c->decoded;
	rc = plain_next(c, &c->decoded, &c->order);
	if (!rc)
		rc = raw_next(c, &c->decoded, &c->order);
	c->has_head = rc == 1;
	c->read += c->has_head;
	return rc < 0 ? rc : EV_OK;
}

/* ------------------------------------------------------------------------
 * The k-way merge
 * ---------------------------------------------------------------------- */

/* A cursor in the merge heap, with its head's key beside it so that
 * comparisons stay in one small array. */
typedef struct heap_entry {
	uint64_t time, order;
	evi_cursor *c;
} heap_entry;

static int entry_less(const heap_entry *a, const heap_entry *b)
{
	return a->time < b->time || (a->time == b->time && a->order < b->order);
}

static void sift_down(heap_entry *h, size_t n, size_t i)
{
	heap_entry moving = h[i];

	for (;;) {
		size_t child = 2 * i + 1;
		if (child >= n)
			break;
		if (child + 1 < n && entry_less(&h[child + 1], &h[child]))
			child++;
		if (!entry_less(&h[child], &moving))
			break;
		h[i] = h[child];
		i = child;
	}
	h[i] = moving;
}

/* The smaller key of the root's children: what the root must stay
 * ahead of. */
static const heap_entry *runner_up(const heap_entry *h, size_t live)
{
	if (live < 2)
		return NULL;
	if (live > 2 && entry_less(&h[2], &h[1]))
		return &h[2];
	return &h[1];
}

/* The size of a plain event of type `type` (fixed size, below
 * EVI_SMALL_IDS, not a marker: what a run holds), or 0. */
static inline size_t plain_size(const evi_wire_table *t, uint16_t type)
{
	int32_t wire;

	if (type >= EVI_SMALL_IDS || type == EV_BLOCK_MARKER)
		return 0;
	wire = t->small[type];
	return wire >= 0 ? EVI_EVENT_HEADER + (size_t)wire : 0;
}

/* Hands `run` the head and the buffered events after it that come before
 * `next` (NULL: before any other cursor's), as read: 1 when it took them
 * (the cursor is then past them, without a head), 0 when not, or an
 * error. Only for a head read in order (not from a window) that is a
 * plain event, and up to the start of the next span. */
static int take_run(evi_cursor *c, const heap_entry *next,
		    evi_emit_run_fn run, void *ctx)
{
	const evi_wire_table *wire = c->spec.wire;
	const ev_event *ev = &c->decoded;
	size_t at = c->at, len;
	uint64_t first = ev->time, last = ev->time, n = 1, more = UINT64_MAX;
	evi_run r;
	int rc, closes = 0;

	if (c->head != &c->decoded || c->spec.tagged ||
	    !plain_size(wire, ev->type))
		return 0;
	if (c->win_cap)
		more = c->span_first - c->read;
	while (n - 1 < more && c->len - at >= EVI_EVENT_HEADER &&
	       (len = plain_size(wire, ev_load16(c->buf + at))) > 0 &&
	       c->len - at >= len) {
		uint64_t t = ev_load64(c->buf + at + 2);
		if (next && !(t < next->time ||
			      (t == next->time && c->buf_off + at < next->order))) {
			/* `next`'s cursor, another capability's, comes next. */
			closes = 1;
			break;
		}
		if (t < first)
			first = t;
		if (t > last)
			last = t;
		at += len;
		n++;
	}
	r.p = ev->payload - EVI_EVENT_HEADER;
	r.len = (size_t)(c->buf + at - r.p);
	r.n = n;
	r.first = first;
	r.last = last;
	r.cap = c->spec.cap;
	r.closes = closes;
	rc = run(ctx, &r);
	if (rc <= 0)
		return rc;
	c->at = at;
	c->read += n - 1;
	c->has_head = 0;
	return 1;
}

/* What take_run is to a writer, for a consumer of events (the consumer):
 * emits the head and then the buffered events after it that come before
 * `next`, each decoded in place into `decoded` as plain_next would, with
 * no window, slot or heap work between them. 1 when it took the head
 * (the cursor is then past them, without a head), 0 when the head was
 * not read in order (from a window, or a tagged cursor's), or an error.
 * Stops at the start of the next span, as take_run. */
static int take_events(evi_cursor *c, const heap_entry *next,
		       evi_emit_fn emit, void *ctx)
{
	const int32_t *small = c->spec.wire->small;
	ev_event *ev = &c->decoded;
	uint64_t n = 0, more = UINT64_MAX;
	int rc;

	if (c->head != &c->decoded || c->spec.tagged)
		return 0;
	if (c->win_cap)
		more = c->span_first - c->read;
	for (;;) {
		const uint8_t *p = c->buf + c->at;
		size_t have = c->len - c->at;
		uint64_t t;
		uint16_t type;
		int32_t size;

		if ((rc = emit(ctx, ev)) < 0)
			return rc;
		if (n >= more || have < EVI_EVENT_HEADER)
			break;
		type = ev_load16(p);
		if (type >= EVI_SMALL_IDS || (size = small[type]) < 0 ||
		    have - EVI_EVENT_HEADER < (size_t)size)
			break;
		t = ev_load64(p + 2);
		if (next && !(t < next->time ||
			      (t == next->time &&
			       c->buf_off + c->at < next->order)))
			break;
		ev->type = type;
		ev->time = t;
		ev->size = (uint32_t)size;
		ev->payload = p + EVI_EVENT_HEADER;
		ev->offset = c->buf_off + c->at;
		c->at += EVI_EVENT_HEADER + (size_t)size;
		n++;
	}
	c->read += n;
	c->has_head = 0;
	return 1;
}

/* Emits from the root cursor as long as it stays ahead of the runner-up
 * (consecutive events of one capability mostly do), then re-sorts. */
static int merge_heap(heap_entry *h, size_t live, evi_emit_fn emit,
		      evi_emit_run_fn run, void *ctx)
{
	int rc;

	for (size_t i = live / 2; i-- > 0;)
		sift_down(h, live, i);
	while (live > 0) {
		evi_cursor *c = h[0].c;
		const heap_entry *next = runner_up(h, live);
		do {
			rc = run ? take_run(c, next, run, ctx)
				 : take_events(c, next, emit, ctx);
			if (rc < 0 || (rc == 0 && (rc = emit(ctx, c->head)) < 0) ||
			    (rc = advance(c)) < 0)
				return rc;
			if (!c->has_head)
				break;
			h[0].time = c->head->time;
			h[0].order = c->order;
		} while (!next || entry_less(&h[0], next));
		if (!c->has_head)
			h[0] = h[--live];
		sift_down(h, live, 0);
	}
	return EV_OK;
}

int evi_merge(evi_cursor **cursors, size_t n, evi_emit_fn emit,
	      evi_emit_run_fn run, void *ctx)
{
	heap_entry *heap = malloc((n ? n : 1) * sizeof *heap);
	size_t live = 0;
	int rc = EV_OK;

	if (!heap)
		return n ? evi_fail(cursors[0]->diag, EV_ENOMEM, 0, 0,
				    "out of memory")
			 : EV_ENOMEM;
	for (size_t i = 0; rc == EV_OK && i < n; i++) {
		evi_cursor *c = cursors[i];
		if ((rc = advance(c)) == EV_OK && c->has_head) {
			heap[live].time = c->head->time;
			heap[live].order = c->order;
			heap[live++].c = c;
		}
	}
	if (rc == EV_OK)
		rc = merge_heap(heap, live, emit, run, ctx);
	free(heap);
	return rc;
}

/* ------------------------------------------------------------------------
 * Sorted runs
 * ---------------------------------------------------------------------- */

/* An event collected for the current run: its time and where its record
 * starts in the arena, which is also its file order. */
typedef struct run_key {
	uint64_t time;
	uint64_t at;
} run_key;

/* Buffered appends to one of the two run files. */
typedef struct run_file {
	int fd;
	uint64_t length;
} run_file;

struct evi_runs {
	const evi_wire_table *wire;
	const char *tmpdir;
	ev_diag *diag;
	size_t memory;

	uint8_t *arena;
	size_t arena_cap, arena_len;
	run_key *keys, *scratch;
	size_t n_keys, keys_cap;
	size_t max_record;

	run_file files[2];
	int current;      /* the file the runs are in */
	evi_range *runs;
	size_t n_runs, runs_cap;

	uint8_t *out;     /* pending appends to files[target] */
	size_t out_len, out_cap;
	int target;

	uint64_t runs_written;
	unsigned passes;
	uint64_t spilled;
};

int evi_runs_new(evi_runs **out, size_t memory, const char *tmpdir,
		 const evi_wire_table *wire, ev_diag *diag)
{
	evi_runs *r = calloc(1, sizeof *r);

	*out = NULL;
	if (!r)
		return evi_fail(diag, EV_ENOMEM, 0, 0, "out of memory");
	r->wire = wire;
	r->tmpdir = tmpdir;
	r->diag = diag;
	r->memory = memory;
	r->files[0].fd = r->files[1].fd = -1;
	/* Records take about 40% of the memory, keys (two arrays of 16
	 * bytes per event, for the merge sort) the rest; at least one
	 * largest record must fit. */
	r->arena_cap = memory * 2 / 5 > MAX_RECORD ? memory * 2 / 5
						   : MAX_RECORD;
	r->keys_cap = (memory - memory * 2 / 5) / (2 * sizeof(run_key));
	if (r->keys_cap < 64)
		r->keys_cap = 64;
	r->out_cap = memory / 4 < OUT_BUFFER ? memory / 4 : OUT_BUFFER;
	if (r->out_cap < MAX_RECORD)
		r->out_cap = MAX_RECORD;
	r->arena = malloc(r->arena_cap);
	r->keys = malloc(r->keys_cap * sizeof *r->keys);
	r->scratch = malloc(r->keys_cap * sizeof *r->scratch);
	r->out = malloc(r->out_cap);
	if (!r->arena || !r->keys || !r->scratch || !r->out) {
		evi_runs_free(r);
		return evi_fail(diag, EV_ENOMEM, 0, 0, "out of memory");
	}
	*out = r;
	return EV_OK;
}

static void release_collection(evi_runs *r)
{
	free(r->arena);
	free(r->keys);
	free(r->scratch);
	r->arena = NULL;
	r->keys = r->scratch = NULL;
}

void evi_runs_free(evi_runs *r)
{
	if (!r)
		return;
	release_collection(r);
	for (int i = 0; i < 2; i++)
		if (r->files[i].fd >= 0)
			close(r->files[i].fd);
	free(r->runs);
	free(r->out);
	free(r);
}

void evi_runs_counts(const evi_runs *r, uint64_t *runs, unsigned *passes,
		     uint64_t *bytes)
{
	*runs = r->runs_written;
	*passes = r->passes;
	*bytes = r->spilled;
}

static int key_less(const run_key *a, const run_key *b)
{
	return a->time < b->time || (a->time == b->time && a->at < b->at);
}

/* End of the ascending run that starts at `i`. */
static size_t run_end(const run_key *k, size_t i, size_t n)
{
	while (++i < n && !key_less(&k[i], &k[i - 1]))
		;
	return i;
}

static void merge_keys(const run_key *a, size_t na, const run_key *b,
		       size_t nb, run_key *out)
{
	size_t i = 0, j = 0;

	while (i < na && j < nb)
		*out++ = key_less(&b[j], &a[i]) ? b[j++] : a[i++];
	memcpy(out, a + i, (na - i) * sizeof *a);
	memcpy(out + (na - i), b + j, (nb - j) * sizeof *b);
}

/* Natural merge sort: merges neighbouring ascending runs until one is
 * left. Input from a few capabilities is mostly long ascending runs, so
 * this takes a few passes. Keys are unique (`at`), so any order of
 * merging gives the same result. Returns the sorted array. */
static run_key *sort_keys(run_key *k, run_key *tmp, size_t n)
{
	for (;;) {
		size_t i = 0, runs = 0;
		while (i < n) {
			size_t mid = run_end(k, i, n), end;
			runs += mid == n ? 1 : 2;
			if (mid == n) {
				memcpy(tmp + i, k + i, (n - i) * sizeof *k);
				break;
			}
			end = run_end(k, mid, n);
			merge_keys(k + i, mid - i, k + mid, end - mid, tmp + i);
			i = end;
		}
		if (runs <= 1)
			return k;
		run_key *swap = k;
		k = tmp;
		tmp = swap;
	}
}

static int open_file(evi_runs *r, int which)
{
	run_file *f = &r->files[which];

	if (f->fd < 0)
		return evi_temp_open(r->tmpdir, &f->fd, r->diag);
	f->length = 0;
	if (ftruncate(f->fd, 0) != 0)
		return evi_fail(r->diag, EV_EIO, 0, 0, "cannot truncate a "
				"temporary file: %s", strerror(errno));
	return EV_OK;
}

static int flush_out(evi_runs *r)
{
	run_file *f = &r->files[r->target];
	int rc;

	if (!r->out_len)
		return EV_OK;
	rc = evi_pwrite_all(f->fd, r->out, r->out_len, f->length, r->diag);
	f->length += r->out_len;
	r->spilled += r->out_len;
	r->out_len = 0;
	return rc;
}

static int append(evi_runs *r, const void *data, size_t len)
{
	int rc;

	if (r->out_len + len > r->out_cap && (rc = flush_out(r)) < 0)
		return rc;
	memcpy(r->out + r->out_len, data, len);
	r->out_len += len;
	return EV_OK;
}

/* Appends one record (u16 cap, event) to the target file. */
static int append_record(evi_runs *r, const ev_event *ev)
{
	int variable = evi_wire_size(r->wire, ev->type) == EV_SIZE_VARIABLE;
	size_t len = TAG_BYTES + (variable ? EVI_VAR_HEADER : EVI_EVENT_HEADER) +
		     ev->size;
	int rc;

	if (r->out_len + len > r->out_cap && (rc = flush_out(r)) < 0)
		return rc;
	ev_store16(r->out + r->out_len, ev->cap);
	evi_wire_put_event(r->out + r->out_len + TAG_BYTES, ev, variable);
	r->out_len += len;
	return EV_OK;
}

static int add_run(evi_runs *r, uint64_t start)
{
	uint64_t end = r->files[r->target].length;

	if (evi_grow(&r->runs, &r->runs_cap, r->n_runs + 1,
		     sizeof *r->runs) < 0)
		return evi_fail(r->diag, EV_ENOMEM, 0, 0, "out of memory");
	r->runs[r->n_runs].offset = start;
	r->runs[r->n_runs].bytes = end - start;
	r->n_runs++;
	r->runs_written++;
	return EV_OK;
}

/* Sorts the collected events and writes them as one run. */
static int spill_run(evi_runs *r)
{
	run_key *sorted;
	uint64_t start;
	int rc;

	if (!r->n_keys)
		return EV_OK;
	if (r->files[r->current].fd < 0 &&
	    (rc = open_file(r, r->current)) < 0)
		return rc;
	r->target = r->current;
	start = r->files[r->target].length;
	sorted = sort_keys(r->keys, r->scratch, r->n_keys);
	for (size_t i = 0; i < r->n_keys; i++) {
		const uint8_t *rec = r->arena + sorted[i].at;
		size_t next = sorted[i].at;
		int32_t wire = evi_wire_size(r->wire, ev_load16(rec + TAG_BYTES));
		next += TAG_BYTES + (wire == EV_SIZE_VARIABLE
				     ? EVI_VAR_HEADER +
				       ev_load16(rec + TAG_BYTES +
						 EVI_EVENT_HEADER)
				     : EVI_EVENT_HEADER + (size_t)wire);
		if ((rc = append(r, rec, next - sorted[i].at)) < 0)
			return rc;
	}
	if ((rc = flush_out(r)) < 0)
		return rc;
	r->n_keys = 0;
	r->arena_len = 0;
	return add_run(r, start);
}

int evi_runs_add(evi_runs *r, const ev_event *ev)
{
	int variable = evi_wire_size(r->wire, ev->type) == EV_SIZE_VARIABLE;
	size_t len = TAG_BYTES + (variable ? EVI_VAR_HEADER : EVI_EVENT_HEADER) +
		     ev->size;
	int rc;

	if ((r->arena_len + len > r->arena_cap || r->n_keys == r->keys_cap) &&
	    (rc = spill_run(r)) < 0)
		return rc;
	ev_store16(r->arena + r->arena_len, ev->cap);
	evi_wire_put_event(r->arena + r->arena_len + TAG_BYTES, ev, variable);
	r->keys[r->n_keys].time = ev->time;
	r->keys[r->n_keys].at = r->arena_len;
	r->n_keys++;
	r->arena_len += len;
	if (len > r->max_record)
		r->max_record = len;
	return EV_OK;
}

/* How many runs to merge at once, and each one's buffer. */
static size_t fan_in(const evi_runs *r, size_t *buffer)
{
	size_t per = 2 * r->max_record > MIN_RUN_BUFFER ? 2 * r->max_record
							: MIN_RUN_BUFFER;
	size_t n = (r->memory - r->out_cap) / per;

	if (r->memory < r->out_cap + 2 * per)
		n = 2;
	if (n > MAX_FAN_IN)
		n = MAX_FAN_IN;
	if (n < 2)
		n = 2;
	*buffer = (r->memory > r->out_cap ? r->memory - r->out_cap : 0) / n;
	if (*buffer < per)
		*buffer = per;
	return n;
}

static int merge_group(evi_runs *r, const evi_range *runs, size_t n,
		       size_t buffer, evi_emit_fn emit, void *ctx)
{
	evi_cursor **cursors;
	int rc;

	if (n == 0)
		return EV_OK;
	cursors = calloc(n, sizeof *cursors);
	rc = cursors ? EV_OK
		     : evi_fail(r->diag, EV_ENOMEM, 0, 0, "out of memory");

	for (size_t i = 0; rc == EV_OK && i < n; i++) {
		evi_cursor_spec spec = { r->files[r->current].fd, &runs[i], 1,
					 1, 0, i, buffer, 0, NULL, 0,
					 r->wire, NULL };
		rc = evi_cursor_new(&cursors[i], &spec, r->diag);
	}
	if (rc == EV_OK)
		rc = evi_merge(cursors, n, emit, NULL, ctx);
	for (size_t i = 0; cursors && i < n; i++)
		evi_cursor_free(cursors[i]);
	free(cursors);
	return rc;
}

static int emit_record(void *ctx, const ev_event *ev)
{
	return append_record(ctx, ev);
}

/* Merges groups of `width` runs into the other file: one pass. */
static int merge_pass(evi_runs *r, size_t width, size_t buffer)
{
	evi_range *runs = r->runs;
	size_t n = r->n_runs;
	int rc;

	r->runs = NULL;
	r->n_runs = r->runs_cap = 0;
	r->target = !r->current;
	rc = open_file(r, r->target);
	for (size_t i = 0; rc == EV_OK && i < n; i += width) {
		size_t group = n - i < width ? n - i : width;
		uint64_t start = r->files[r->target].length;
		if ((rc = merge_group(r, runs + i, group, buffer, emit_record,
				      r)) == EV_OK &&
		    (rc = flush_out(r)) == EV_OK)
			rc = add_run(r, start);
	}
	free(runs);
	r->passes++;
	r->current = r->target;
	return rc;
}

int evi_runs_finish(evi_runs *r, evi_emit_fn emit, void *ctx)
{
	size_t buffer, width;
	int rc;

	if ((rc = spill_run(r)) < 0)
		return rc;
	release_collection(r);
	width = fan_in(r, &buffer);
	while (r->n_runs > width)
		if ((rc = merge_pass(r, width, buffer)) < 0)
			return rc;
	r->passes++;
	return merge_group(r, r->runs, r->n_runs, buffer, emit, ctx);
}
