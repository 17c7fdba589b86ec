/*
 * The streaming reader: header parsing and event iteration over a window
 * of input bytes (doc/format.md sections 1, 2 and 4).
 *
 * The window holds the unread input; it only grows to fit the header or
 * one event (at most 12 + 65535 bytes), so memory is bounded whatever the
 * size of the log. Running out of input is never final: the position
 * stays at the last complete event (or at the start of the header) and a
 * later call retries, which is how a growing log is followed.
 */
#include "evtool/reader.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evtool/catalog.h"
#include "evtool/consumer.h"
#include "feed.h"
#include "gzip.h"
#include "internal.h"
#include "source.h"
#include "wire.h"

#define WINDOW_SIZE (1024u * 1024u)
#define MIN_WINDOW_SIZE (64u * 1024u)
/* Real headers are a few KiB; anything past this is hostile or garbage. */
#define MAX_HEADER_SIZE (8u * 1024u * 1024u)
#define MAX_DESC_LEN (64u * 1024u)
#define MAX_EXTRA_LEN (64u * 1024u)
/* ev_reader_resync: how far past a candidate block marker it looks, how
 * much input it keeps in view while scanning (at least twice that), how
 * many following events must fit the marker, the slack allowed on their
 * times (GC_END is stamped up to ~13 us early, doc/format.md section 3) and
 * the caps that are plausible without having been seen. */
#define RESYNC_LOOKAHEAD (256u * 1024u)
#define RESYNC_WINDOW (1024u * 1024u)
#define RESYNC_EVENTS 4u
#define RESYNC_SLACK_NS 1000000u
#define RESYNC_MAX_CAP 4096u

enum reader_state { READ_HEADER, READ_EVENTS, READ_END, READ_FAILED };

struct ev_reader {
	char *name;
	void (*on_free)(void *); /* evi_reader_on_free */
	void *on_free_ctx;
	evi_source *source;
	ev_diag diag;

	/* Unread input is buf[pos, end); buf[0] is at stream offset base. */
	uint8_t *store;
	size_t store_cap;
	const uint8_t *buf;
	size_t pos;
	size_t end;
	uint64_t base;
	int in_place;

	enum reader_state state;
	ev_header *header;
	evi_wire_table wire;
	unsigned session;
	uint64_t index;
	uint64_t blocks;
	int in_block;
	ev_block block;
	uint16_t max_cap;    /* highest cap of a block this session */
	uint64_t last_start; /* where the last event or failure began */

	/* Progress: stored bytes read are added to *progress (its own or a
	 * pipeline's, shared by several readers); progress_seen of them
	 * are counted already. */
	evi_progress *progress;
	evi_progress own_progress;
	uint64_t progress_seen;
};

static uint64_t stream_offset(const ev_reader *r)
{
	return r->base + r->pos;
}

uint64_t ev_reader_offset(const ev_reader *r)
{
	return stream_offset(r);
}

static int fail(ev_reader *r, int status, uint64_t offset, const char *fmt,
		...) __attribute__((format(printf, 4, 5)));

static int fail(ev_reader *r, int status, uint64_t offset, const char *fmt,
		...)
{
	va_list ap;

	va_start(ap, fmt);
	evi_vfail(&r->diag, EV_ORIGIN_INPUT, 0, status, offset, r->index, fmt,
		  ap);
	va_end(ap);
	if (status != EV_ETRUNCATED)
		r->state = READ_FAILED;
	return status;
}

/* The source filled in the message; the offset is how far the log could
 * be read (for gzip, the message names the stored offset too). */
static int source_failed(ev_reader *r, int status)
{
	char message[sizeof r->diag.message];
	ev_reason why = r->diag.reason;

	memcpy(message, r->diag.message, sizeof message);
	fail(r, status, r->base + r->end, "%s", message);
	return evi_because(&r->diag, why);
}

/* Moves the unread bytes to the front and makes room for `want` bytes. */
static int make_room(ev_reader *r, size_t want)
{
	size_t unread = r->end - r->pos;

	if (r->pos > 0) {
		memmove(r->store, r->store + r->pos, unread);
		r->base += r->pos;
		r->pos = 0;
		r->end = unread;
	}
	if (want > r->store_cap) {
		size_t cap = r->store_cap * 2 > want ? r->store_cap * 2 : want;
		uint8_t *grown = realloc(r->store, cap);
		if (!grown)
			return EV_ENOMEM;
		r->store = grown;
		r->buf = grown;
		r->store_cap = cap;
	}
	return EV_OK;
}

static void report_progress(ev_reader *r)
{
	uint64_t seen = evi_source_input_bytes(r->source);

	r->progress->done += seen - r->progress_seen;
	r->progress_seen = seen;
	r->progress->fn(r->progress->ctx, r->progress->done,
			r->progress->total);
}

/* Makes `n` unread bytes available: 1 if they are, 0 when the input has
 * fewer for now, negative on error. Invalidates pointers into buf. */
static int fill(ev_reader *r, size_t n)
{
	int rc;

	if (r->in_place)
		return 0;
	if ((rc = make_room(r, n)) < 0)
		return rc;
	while (r->end - r->pos < n) {
		size_t got;
		rc = evi_source_read(r->source, r->store + r->end,
				     r->store_cap - r->end, &got);
		if (rc < 0)
			return source_failed(r, rc);
		if (got == 0)
			return 0;
		r->end += got;
		if (r->progress)
			report_progress(r);
	}
	return 1;
}

static inline int need(ev_reader *r, size_t n)
{
	return r->end - r->pos >= n ? 1 : fill(r, n);
}

/* The window: WINDOW_SIZE, or less for a small regular file, so that
 * opening many small logs at once (merge) stays cheap; MIN_WINDOW_SIZE
 * when asked (EV_READER_SMALL_WINDOW). It grows when an event or a header
 * needs more. */
static size_t window_size(int fd, unsigned flags)
{
	struct stat st;
	size_t want;

	if (flags & EV_READER_SMALL_WINDOW)
		return MIN_WINDOW_SIZE;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size >= (off_t)WINDOW_SIZE)
		return WINDOW_SIZE;
	want = ((size_t)st.st_size + MIN_WINDOW_SIZE) & ~(MIN_WINDOW_SIZE - 1);
	return want < WINDOW_SIZE ? want : WINDOW_SIZE;
}

/* A reader over `fd`, or `len` bytes at `mem` (fd < 0), or what `fn`
 * gives (when not NULL). */
static int open_reader(ev_reader **out, int fd, int close_fd,
		       const uint8_t *mem, size_t len, ev_read_fn fn,
		       void *ctx, const char *name, unsigned flags,
		       ev_diag *diag)
{
	ev_reader *r = calloc(1, sizeof *r);
	int rc;

	*out = NULL;
	if (!r || !(r->name = strdup(name ? name : "<input>"))) {
		free(r);
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	}
	if (fn)
		rc = evi_source_open_fn(&r->source, fn, ctx,
					!!(flags & EV_READER_DIGEST),
					!!(flags & EV_READER_RAW), &r->diag);
	else
		rc = evi_source_open(&r->source, fd, close_fd, mem, len,
				     !!(flags & EV_READER_DIGEST),
				     !!(flags & EV_READER_RAW), &r->diag);
	if (rc == EV_OK && evi_source_memory(r->source, &r->buf, &r->end)) {
		r->in_place = 1;
	} else if (rc == EV_OK) {
		r->store_cap = window_size(fd, flags);
		r->store = malloc(r->store_cap);
		r->buf = r->store;
		rc = r->store ? EV_OK : EV_ENOMEM;
	}
	if (rc < 0) {
		if (close_fd)
			close(fd);
		evi_new_failed(diag, &r->diag, rc);
		ev_reader_free(r);
		return rc;
	}
	*out = r;
	return EV_OK;
}

int ev_reader_open_path(ev_reader **out, const char *path, unsigned flags,
			ev_diag *diag)
{
	int fd;

	if (strcmp(path, "-") == 0)
		return open_reader(out, STDIN_FILENO, 0, NULL, 0, NULL, NULL,
				   "<stdin>", flags, diag);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*out = NULL;
		return evi_fail(diag, EV_EIO, 0, 0, "cannot open: %s",
				strerror(errno));
	}
	return open_reader(out, fd, 1, NULL, 0, NULL, NULL, path, flags, diag);
}

int ev_reader_open_fd(ev_reader **out, int fd, const char *name,
		      unsigned flags, ev_diag *diag)
{
	return open_reader(out, fd, 0, NULL, 0, NULL, NULL, name, flags, diag);
}

int ev_reader_open_memory(ev_reader **out, const void *data, size_t len,
			  const char *name, unsigned flags, ev_diag *diag)
{
	return open_reader(out, -1, 0, data, len, NULL, NULL, name, flags,
			   diag);
}

int ev_reader_open_fn(ev_reader **out, ev_read_fn fn, void *ctx,
		      const char *name, unsigned flags, ev_diag *diag)
{
	if (!fn) {
		*out = NULL;
		return evi_fail(diag, EV_EINVAL, 0, 0, "no read function");
	}
	return open_reader(out, -1, 0, NULL, 0, fn, ctx, name, flags, diag);
}

void ev_reader_free(ev_reader *r)
{
	if (!r)
		return;
	evi_source_free(r->source);
	evi_header_free(r->header);
	free(r->store);
	free(r->name);
	if (r->on_free)
		r->on_free(r->on_free_ctx);
	free(r);
}

void evi_reader_on_free(ev_reader *r, void (*done)(void *), void *ctx)
{
	r->on_free = done;
	r->on_free_ctx = ctx;
}

/* ---- header ---- */

/* Cursor over the header being parsed, relative to the unread bytes. */
typedef struct header_cursor {
	ev_reader *r;
	size_t at;
} header_cursor;

/* 1 when `n` more bytes past the cursor are available, 0 if not yet. */
static int header_need(header_cursor *c, size_t n)
{
	if (c->at + n > MAX_HEADER_SIZE)
		return fail(c->r, EV_ELIMIT, stream_offset(c->r) + c->at,
			    "the header is larger than %u MiB; this is not a "
			    "GHC eventlog", MAX_HEADER_SIZE >> 20);
	return need(c->r, c->at + n);
}

static const uint8_t *header_bytes(const header_cursor *c)
{
	return c->r->buf + c->r->pos + c->at;
}

/* Whether the bytes available past the cursor (fewer than 4) can still
 * become `magic` when more arrive. */
static int magic_prefix_matches(const header_cursor *c, uint32_t magic)
{
	size_t have = c->r->end - c->r->pos - c->at;
	uint8_t want[4];

	ev_store32(want, magic);
	return memcmp(header_bytes(c), want, have < 4 ? have : 4) == 0;
}

/* A log compressed with a tool evtool does not read starts with that
 * tool's magic where "hdrb" belongs: say which, and how to undo it. */
static int refuse_foreign(header_cursor *c)
{
	const char *tool;

	if (c->at != 0 || stream_offset(c->r) != 0 ||
	    c->r->end - c->r->pos < 4 ||
	    !(tool = evi_foreign_compression(header_bytes(c), 4)))
		return 0;
	fail(c->r, EV_EFORMAT, 0, "%s-compressed data, not a GHC eventlog: "
	     "decompress it first, '%s -dc FILE | evtool ...' (evtool reads "
	     "plain and gzip logs)", tool, tool);
	return evi_because(&c->r->diag, EV_REASON_COMPRESSION);
}

static int expect_magic(header_cursor *c, uint32_t magic, const char *what)
{
	int rc = header_need(c, 4);
	char seen[32];
	uint8_t want[4];

	if (rc == 0 && !magic_prefix_matches(c, magic))
		return fail(c->r, EV_EFORMAT, stream_offset(c->r) + c->at,
			    "expected %s, found other bytes%s", what,
			    c->at == 0 ? ": not a GHC eventlog" : "");
	if (rc <= 0)
		return rc;
	if (ev_load32(header_bytes(c)) != magic) {
		if ((rc = refuse_foreign(c)) < 0)
			return rc;
		ev_store32(want, magic);
		evi_quote_magic(header_bytes(c), 4, seen, sizeof seen);
		return fail(c->r, EV_EFORMAT, stream_offset(c->r) + c->at,
			    "expected %s \"%.4s\", found \"%s\"%s", what,
			    (const char *)want, seen,
			    c->at == 0 ? ": not a GHC eventlog" : "");
	}
	c->at += 4;
	return 1;
}

/* One "etb\0 ... ete\0" entry; the caller has seen "etb\0". */
static int parse_type(header_cursor *c, ev_header *h)
{
	uint64_t start = stream_offset(c->r) + c->at - 4;
	uint32_t desc_len, extra_len;
	uint16_t id, size;
	int rc;

	if ((rc = header_need(c, 8)) <= 0)
		return rc;
	id = ev_load16(header_bytes(c));
	size = ev_load16(header_bytes(c) + 2);
	desc_len = ev_load32(header_bytes(c) + 4);
	if (desc_len > MAX_DESC_LEN)
		return fail(c->r, EV_EFORMAT, start,
			    "event type %u: description length %u is "
			    "implausible", id, desc_len);
	if ((rc = header_need(c, 8 + desc_len + 4)) <= 0)
		return rc;
	extra_len = ev_load32(header_bytes(c) + 8 + desc_len);
	if (extra_len > MAX_EXTRA_LEN)
		return fail(c->r, EV_EFORMAT, start,
			    "event type %u: extra info length %u is "
			    "implausible", id, extra_len);
	if ((rc = header_need(c, 8 + desc_len + 4 + extra_len)) <= 0)
		return rc;
	rc = evi_header_add(h, id, size == UINT16_MAX ? EV_SIZE_VARIABLE : size,
			   (const char *)header_bytes(c) + 8, desc_len,
			   header_bytes(c) + 12 + desc_len, extra_len);
	if (rc == EV_EINVAL)
		return fail(c->r, EV_EFORMAT, start,
			    "event type %u is declared twice", id);
	if (rc < 0)
		return fail(c->r, rc, start, "%s", ev_strerror(rc));
	c->at += 8 + desc_len + 4 + extra_len;
	return expect_magic(c, EVI_ET_END, "event type end");
}

static int parse_types(header_cursor *c, ev_header *h)
{
	for (;;) {
		int rc = header_need(c, 4);
		uint32_t magic;
		if (rc <= 0)
			return rc;
		magic = ev_load32(header_bytes(c));
		if (magic == EVI_HET_END) {
			c->at += 4;
			return 1;
		}
		if ((rc = expect_magic(c, EVI_ET_BEGIN,
				       "an event type \"etb\\0\" or the list "
				       "end")) <= 0)
			return rc;
		if ((rc = parse_type(c, h)) <= 0)
			return rc;
	}
}

static int parse_header_bytes(header_cursor *c, ev_header *h)
{
	int rc;

	if ((rc = expect_magic(c, EVI_HEADER_BEGIN, "header begin")) <= 0 ||
	    (rc = expect_magic(c, EVI_HET_BEGIN, "event type list begin")) <= 0 ||
	    (rc = parse_types(c, h)) <= 0 ||
	    (rc = expect_magic(c, EVI_HEADER_END, "header end")) <= 0)
		return rc;
	return expect_magic(c, EVI_DATA_BEGIN, "data begin");
}


/* Nothing at all was read: no eventlog. The reader stays at the header,
 * so that a follower may retry (a live log that has not begun). */
static int input_empty(ev_reader *r)
{
	fail(r, EV_EFORMAT, 0, "the file is empty: it holds no eventlog");
	r->state = READ_HEADER;
	return evi_because(&r->diag, EV_REASON_EMPTY_INPUT);
}

static int header_truncated(ev_reader *r, size_t have)
{
	if (have == 0 && ev_reader_input_bytes(r) == 0)
		return input_empty(r);
	return fail(r, EV_ETRUNCATED, stream_offset(r),
		    "the input ends inside the header (%zu bytes of it "
		    "read)%s", have,
		    evi_source_gzip_incomplete(r->source)
			    ? "; the gzip stream is cut short" : "");
}

int ev_reader_read_header(ev_reader *r)
{
	header_cursor c = { r, 0 };
	ev_header *h;
	int rc;

	if (r->state == READ_FAILED)
		return r->diag.status;
	if (r->state != READ_HEADER)
		return EV_OK;
	if ((rc = evi_header_new(&h, NULL)) < 0)
		return fail(r, rc, stream_offset(r), "%s", ev_strerror(rc));
	rc = parse_header_bytes(&c, h);
	if (rc <= 0) {
		evi_header_free(h);
		return rc < 0 ? rc : header_truncated(r, r->end - r->pos);
	}
	r->pos += c.at;
	r->header = h;
	r->state = READ_EVENTS;
	evi_wire_table_init(&r->wire, r->header);
	return EV_OK;
}

const ev_header *ev_reader_header(const ev_reader *r)
{
	return r->header;
}

/* ---- events ---- */

static int events_truncated(ev_reader *r, size_t need_bytes)
{
	size_t have = r->end - r->pos;
	const char *gz = evi_source_gzip_incomplete(r->source)
				 ? "; the gzip stream is cut short" : "";

	/* r->index counts block markers too; "events" here are what `evtool
	 * info` counts, the events without the markers. */
	if (have == 0)
		return fail(r, EV_ETRUNCATED, stream_offset(r),
			    "the log ends without the data-end marker "
			    "(after %llu events)%s",
			    (unsigned long long)(r->index - r->blocks), gz);
	return fail(r, EV_ETRUNCATED, stream_offset(r),
		    "the log ends inside an event (%zu of %zu bytes "
		    "present)%s", have, need_bytes, gz);
}

static int32_t wire_size(const ev_reader *r, uint16_t type)
{
	return evi_wire_size(&r->wire, type);
}

/* A BLOCK_MARKER opens a block: doc/format.md section 2. */
static void enter_block(ev_reader *r, ev_event *ev)
{
	r->in_block = 1;
	r->blocks++;
	r->block.offset = ev->offset;
	r->block.size = ev_load32(ev->payload);
	r->block.end_time = ev_load64(ev->payload + 4);
	r->block.cap = ev_load16(ev->payload + 12);
	r->block.start_time = ev->time;
	if (r->block.cap != EV_NO_CAP && r->block.cap > r->max_cap)
		r->max_cap = r->block.cap;
	ev->cap = r->block.cap;
}

static void attribute_cap(ev_reader *r, ev_event *ev)
{
	if (ev->type == EV_BLOCK_MARKER && ev->size >= EVI_BLOCK_PAYLOAD) {
		enter_block(r, ev);
		return;
	}
	if (r->in_block && ev->offset >= r->block.offset + r->block.size)
		r->in_block = 0;
	ev->cap = r->in_block ? r->block.cap : EV_NO_CAP;
}

/* At the data end of a gzip log, reads on until the source has no more
 * bytes now or gives one more: a corrupt member (a CRC-32 that does not
 * match) fails the log here instead of passing as complete. */
static int check_source_at_end(ev_reader *r)
{
	int rc;

	if (!evi_source_is_gzip(r->source))
		return EV_OK;
	rc = fill(r, r->end - r->pos + 1);
	return rc < 0 ? rc : EV_OK;
}

static int end_of_data(ev_reader *r)
{
	int rc;

	r->pos += 2;
	r->in_block = 0;
	if ((rc = check_source_at_end(r)) < 0)
		return rc;
	r->state = READ_END;
	return EV_END;
}

/* Hands out the event whose `head`-byte header and `size`-byte payload are
 * wholly in the window at its position, and moves past it. */
static inline void take_event(ev_reader *r, ev_event *ev, uint16_t type,
			      uint32_t head, uint32_t size)
{
	const uint8_t *p = r->buf + r->pos;

	ev->type = type;
	ev->time = ev_load64(p + 2);
	ev->size = size;
	ev->payload = p + head;
	ev->offset = stream_offset(r);
	ev->index = r->index++;
	attribute_cap(r, ev);
	r->pos += head + size;
}

/* Out of read_event's way (its callers inline it): the failure on a type
 * the header does not declare. */
static __attribute__((cold, noinline)) int undeclared_type(ev_reader *r,
							    uint16_t type)
{
	fail(r, EV_EFORMAT, stream_offset(r),
	     "event type %u is not declared in the header", type);
	return evi_because(&r->diag, EV_REASON_UNDECLARED_TYPE);
}

static int read_event(ev_reader *r, ev_event *ev)
{
	uint32_t head = EVI_EVENT_HEADER, size;
	uint16_t type;
	int32_t wire;
	int rc;

	r->last_start = stream_offset(r);
	if ((rc = need(r, 2)) <= 0)
		return rc < 0 ? rc : events_truncated(r, 2);
	type = ev_load16(r->buf + r->pos);
	if (type == EVI_DATA_END)
		return end_of_data(r);
	wire = wire_size(r, type);
	if (wire == EVI_UNDECLARED)
		return undeclared_type(r, type);
	if (wire == EV_SIZE_VARIABLE) {
		head = EVI_VAR_HEADER;
		if ((rc = need(r, head)) <= 0)
			return rc < 0 ? rc : events_truncated(r, head);
		size = ev_load16(r->buf + r->pos + EVI_EVENT_HEADER);
	} else {
		size = (uint32_t)wire;
	}
	if ((rc = need(r, head + size)) <= 0)
		return rc < 0 ? rc : events_truncated(r, head + size);
	take_event(r, ev, type, head, size);
	return EV_OK;
}

/* The common case without a call, so that it needs no stack frame: an
 * event of a declared fixed-size type below EVI_SMALL_IDS wholly in the
 * window, taken as read_event takes it. 0 leaves everything else
 * (variable sizes, the data end, a short window, every error) to
 * read_event. */
static inline int read_small_event(ev_reader *r, ev_event *ev)
{
	size_t have = r->end - r->pos;
	uint16_t type;
	int32_t wire;

	if (have < EVI_EVENT_HEADER)
		return 0;
	type = ev_load16(r->buf + r->pos);
	if (type >= EVI_SMALL_IDS)
		return 0;
	wire = r->wire.small[type];
	if (wire < 0 || have - EVI_EVENT_HEADER < (size_t)wire)
		return 0; /* undeclared, variable, or not all here */
	r->last_start = stream_offset(r);
	take_event(r, ev, type, EVI_EVENT_HEADER, (uint32_t)wire);
	return 1;
}

int ev_reader_next(ev_reader *r, ev_event *ev)
{
	if (r->state == READ_EVENTS && read_small_event(r, ev))
		return EV_OK;
	switch (r->state) {
	case READ_HEADER: {
		int rc = ev_reader_read_header(r);
		if (rc < 0)
			return rc;
		return read_event(r, ev);
	}
	case READ_EVENTS:
		return read_event(r, ev);
	case READ_END:
		return EV_END;
	case READ_FAILED:
	default:
		return r->diag.status;
	}
}

int ev_reader_next_session(ev_reader *r)
{
	static const uint8_t magic[4] = { 'h', 'd', 'r', 'b' };
	size_t have;
	int rc;

	if (r->state != READ_END)
		return r->state == READ_FAILED ? r->diag.status : EV_EINVAL;
	rc = need(r, 4);
	if (rc < 0)
		return rc;
	have = r->end - r->pos;
	if (have == 0)
		return EV_END;
	if (memcmp(r->buf + r->pos, magic, have < 4 ? have : 4) != 0) {
		fail(r, EV_EFORMAT, stream_offset(r),
		     "unexpected bytes after the data-end marker");
		return evi_because(&r->diag, EV_REASON_TRAILING_DATA);
	}
	if (have < 4)
		return header_truncated(r, have);
	evi_header_free(r->header);
	r->header = NULL;
	r->state = READ_HEADER;
	r->session++;
	r->index = 0;
	r->blocks = 0;
	r->max_cap = 0;
	return ev_reader_read_header(r);
}

/* ---- resynchronising after damage ---- */

/* The events after a candidate marker, from `at` on in the `avail` bytes
 * at `p`: they must have declared types, fit the block's time window
 * [lo, hi] and not run past its end `size`. 1 when up to RESYNC_EVENTS of
 * them (or all up to the block's exact end) do, or when the input ends
 * (`eof`) or the view does after at least one did. */
static int plausible_events(const ev_reader *r, const uint8_t *p,
			    size_t avail, int eof, size_t at, uint32_t size,
			    uint64_t lo, uint64_t hi)
{
	unsigned checked = 0;

	for (;;) {
		uint16_t type;
		int32_t wire;
		size_t head;
		uint64_t len, time;

		if (at == size || checked == RESYNC_EVENTS)
			return 1;
		if (at + 2 > avail)
			return eof || checked > 0;
		type = ev_load16(p + at);
		if (type == EVI_DATA_END) /* GHC >= 9.2: the block covers it */
			return at + 2 == size;
		wire = wire_size(r, type);
		if (wire == EVI_UNDECLARED || type == EV_BLOCK_MARKER)
			return 0;
		head = wire == EV_SIZE_VARIABLE ? EVI_VAR_HEADER
						: EVI_EVENT_HEADER;
		if (at + head > avail)
			return eof || checked > 0;
		time = ev_load64(p + at + 2);
		len = head + (wire == EV_SIZE_VARIABLE
				      ? ev_load16(p + at + EVI_EVENT_HEADER)
				      : (uint32_t)wire);
		if (time < lo || time > hi || at + len > size)
			return 0;
		checked++;
		at += len;
	}
}

/* An empty block (size = the marker alone) is followed by another
 * marker, the data end, or the end of the input. */
static int plausible_after_empty(const uint8_t *p, size_t avail, int eof,
				 size_t at)
{
	uint16_t next;

	if (at + 2 > avail)
		return eof;
	next = ev_load16(p + at);
	return next == EV_BLOCK_MARKER || next == EVI_DATA_END;
}

/* 1 when the `avail` bytes at `p` start with a plausible BLOCK_MARKER
 * (doc/format.md section 2: u32 size including the marker, u64 end time,
 * u16 cap) for ev_reader_resync. */
static int plausible_marker(const ev_reader *r, const uint8_t *p,
			    size_t avail, int eof)
{
	int32_t wire = wire_size(r, EV_BLOCK_MARKER);
	size_t marker;
	uint64_t start, end, lo, hi;
	uint32_t size;
	uint16_t cap;

	if (wire < (int32_t)EVI_BLOCK_PAYLOAD) /* undeclared or variable */
		return 0;
	marker = EVI_EVENT_HEADER + (size_t)wire;
	if (avail < marker)
		return 0;
	start = ev_load64(p + 2);
	size = ev_load32(p + EVI_EVENT_HEADER);
	end = ev_load64(p + EVI_EVENT_HEADER + 4);
	cap = ev_load16(p + EVI_EVENT_HEADER + 12);
	if (size < marker || size > EV_MAX_BLOCK_SIZE || end < start)
		return 0;
	if (cap != EV_NO_CAP && cap >= RESYNC_MAX_CAP && cap > r->max_cap)
		return 0;
	if (size == marker)
		return plausible_after_empty(p, avail, eof, marker);
	lo = start > RESYNC_SLACK_NS ? start - RESYNC_SLACK_NS : 0;
	hi = end < UINT64_MAX - RESYNC_SLACK_NS ? end + RESYNC_SLACK_NS
						: UINT64_MAX;
	return plausible_events(r, p, avail, eof, marker, size, lo, hi);
}

/* Looks for a plausible marker in the `have` unread bytes; candidates
 * must have RESYNC_LOOKAHEAD bytes in view unless the input ends (`eof`).
 * Returns the index of the marker, or the number of bytes that can be
 * dropped (with *found 0). */
static size_t scan_window(const ev_reader *r, size_t have, int eof,
			  int *found)
{
	const uint8_t *p = r->buf + r->pos;
	size_t limit = eof ? have : have - RESYNC_LOOKAHEAD;
	size_t i = 0;

	*found = 0;
	while (i < limit) {
		const uint8_t *zero = memchr(p + i, 0, limit - i);
		if (!zero)
			return limit;
		i = (size_t)(zero - p);
		if (i + 1 < have && p[i + 1] == EV_BLOCK_MARKER &&
		    plausible_marker(r, p + i, have - i, eof)) {
			*found = 1;
			return i;
		}
		i++;
	}
	return limit;
}

int ev_reader_resync(ev_reader *r, uint64_t *skipped_from,
		     uint64_t *skipped_len)
{
	uint64_t from = r->last_start;
	int found = 0, rc;

	*skipped_from = from;
	*skipped_len = 0;
	if (!r->header || r->state == READ_HEADER)
		return EV_EINVAL;
	if (r->state == READ_FAILED && r->diag.status != EV_EFORMAT)
		return r->diag.status;
	/* The scan starts one byte after `from`. Only the bytes of a data-end
	 * marker can have left the window (ev_reader_next_session reads on),
	 * and 0xff cannot start a marker: start at the window then. */
	if (from < r->base) {
		r->pos = 0;
	} else {
		r->pos = (size_t)(from - r->base);
		if ((rc = need(r, 1)) < 0)
			return rc;
		r->pos += (size_t)rc;
	}
	while (!found) {
		int more = need(r, RESYNC_WINDOW);
		if (more < 0)
			return more;
		r->pos += scan_window(r, r->end - r->pos, !more, &found);
		if (!more)
			break;
	}
	r->state = READ_EVENTS;
	r->in_block = 0;
	r->last_start = stream_offset(r);
	*skipped_len = stream_offset(r) - from;
	return found ? EV_OK : EV_ETRUNCATED;
}

size_t evi_reader_block_bytes(const ev_reader *r, const uint8_t **p)
{
	uint64_t at = stream_offset(r), end;
	size_t have = r->end - r->pos;

	if (r->state != READ_EVENTS || !r->in_block)
		return 0;
	end = r->block.offset + r->block.size;
	if (at >= end)
		return 0;
	if (end - at < have)
		have = (size_t)(end - at);
	*p = r->buf + r->pos;
	return have;
}

void evi_reader_skip(ev_reader *r, size_t bytes, uint64_t events,
		     uint64_t last_start)
{
	r->pos += bytes;
	r->index += events;
	r->last_start = last_start;
}

uint64_t ev_reader_pending(const ev_reader *r)
{
	return r->end - r->pos;
}

unsigned ev_reader_session(const ev_reader *r)
{
	return r->session;
}

int ev_reader_block(const ev_reader *r, ev_block *out)
{
	if (r->in_block && out)
		*out = r->block;
	return r->in_block;
}

uint64_t evi_reader_block_count(const ev_reader *r)
{
	return r->blocks;
}

int ev_reader_is_gzip(const ev_reader *r)
{
	return evi_source_is_gzip(r->source);
}

void evi_reader_progress(ev_reader *r, evi_progress *p)
{
	r->progress = p && p->fn && !r->in_place ? p : NULL;
	r->progress_seen = r->in_place ? 0 : evi_source_input_bytes(r->source);
}

void evi_reader_limit_window(ev_reader *r, size_t cap)
{
	uint8_t *smaller;

	if (r->in_place || r->end > 0 || r->store_cap <= cap ||
	    !(smaller = malloc(cap)))
		return;
	free(r->store);
	r->store = smaller;
	r->buf = smaller;
	r->store_cap = cap;
}

int evi_reader_unread_fd(const ev_reader *r, int *digest)
{
	if (r->in_place || r->state != READ_HEADER || r->base || r->end)
		return -1;
	return evi_source_unread_fd(r->source, digest);
}

int evi_reader_resume_at(ev_reader *r, uint64_t offset, uint64_t index,
			 uint64_t blocks)
{
	if (!r->in_place || r->state != READ_EVENTS || offset > r->end)
		return EV_EINVAL;
	r->pos = (size_t)offset;
	r->index = index;
	r->blocks = blocks;
	r->in_block = 0;
	r->last_start = offset;
	return EV_OK;
}

uint64_t evi_reader_stored_size(const ev_reader *r)
{
	return r->in_place ? 0 : evi_source_stored_size(r->source);
}

void evi_reader_set_progress(ev_reader *r, ev_progress_fn fn, void *ctx)
{
	r->own_progress.fn = fn;
	r->own_progress.ctx = ctx;
	r->own_progress.done = r->in_place ? 0
				: evi_source_input_bytes(r->source);
	r->own_progress.total = evi_reader_stored_size(r);
	evi_reader_progress(r, &r->own_progress);
}

uint64_t ev_reader_input_bytes(const ev_reader *r)
{
	return r->in_place ? stream_offset(r)
			   : evi_source_input_bytes(r->source);
}

int ev_reader_digest(ev_reader *r, uint64_t *out)
{
	int rc = evi_source_digest(r->source, out);

	if (rc < 0)
		return rc == EV_EINVAL ? rc : source_failed(r, rc);
	r->state = READ_END;
	return EV_OK;
}

const char *ev_reader_name(const ev_reader *r)
{
	return r->name;
}

const ev_diag *ev_reader_diag(const ev_reader *r)
{
	return &r->diag;
}

int ev_reader_feed(ev_reader *r, const ev_consumer *c, void *self)
{
	return evi_feed(r, c, self);
}
