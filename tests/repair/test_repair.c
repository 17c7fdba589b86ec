/*
 * Unit tests for repairing and cutting logs (lib/repair/repair.c) and for the
 * reader's resynchronisation (ev_reader_resync, ev_reader_pending).
 *
 * The expected results come from the complete input: the events of a cut
 * log that must survive are those of the whole log that end within the
 * cut, with the offsets, caps and payloads the reader gives on the whole
 * log. Every output is read back and its blocks are checked: each block's
 * size lands exactly on an event boundary (or covers the data end) and
 * its end time covers its events.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evtool/evtool.h"
#include "support.h"

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif
#ifndef EVTOOL_CORPUS
#define EVTOOL_CORPUS "../shared/corpus"
#endif

#define MAX_NOTES 64

/* ------------------------------------------------------------------------
 * Helpers
 * ---------------------------------------------------------------------- */

/* One event as the reader saw it; its payload is `size` bytes ending at
 * `end` in the buffer it was read from. */
typedef struct rec {
	uint64_t offset, end, time;
	uint32_t size;
	uint16_t type, cap;
	unsigned session;
} rec;

typedef struct evlist {
	rec *v;
	size_t n;
	int status;          /* EV_END, EV_ETRUNCATED, or an error */
	uint64_t header_end; /* of the first session */
	unsigned sessions;
} evlist;

static void push(evlist *l, const rec *e)
{
	/* Capacity: the next power of two from 64. */
	if (l->n >= 64 && (l->n & (l->n - 1)) == 0) {
		l->v = realloc(l->v, 2 * l->n * sizeof *l->v);
		assert_non_null(l->v);
	} else if (!l->v) {
		l->v = malloc(64 * sizeof *l->v);
		assert_non_null(l->v);
	}
	l->v[l->n++] = *e;
}

/* Every event of every session of `buf`, block markers included. */
static evlist read_all(const uint8_t *buf, size_t len)
{
	evlist l = { NULL, 0, 0, 0, 0 };
	ev_reader *r;
	ev_event ev;
	int rc;

	assert_int_equal(ev_reader_open_memory(&r, buf, len, "buf", 0), EV_OK);
	rc = ev_reader_read_header(r);
	l.header_end = ev_reader_offset(r);
	while (rc == EV_OK) {
		l.sessions++;
		while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
			rec e = { ev.offset, ev_reader_offset(r), ev.time,
				  ev.size, ev.type, ev.cap, l.sessions };
			push(&l, &e);
		}
		if (rc == EV_END && (rc = ev_reader_next_session(r)) == EV_END)
			break;
	}
	l.status = rc;
	ev_reader_free(r);
	return l;
}

static int is_marker(const rec *e)
{
	return e->type == EV_BLOCK_MARKER && e->size >= 14;
}

/* The size a block marker declares (doc/format.md section 2). */
static uint64_t marker_size_of(const uint8_t *buf, const rec *m)
{
	return ev_load32(buf + m->end - m->size);
}

/* The events of `l` that are not block markers and pass `keep`. */
typedef int (*keep_fn)(const rec *e, const void *ctx);

static evlist events_only(const evlist *l, keep_fn keep, const void *ctx)
{
	evlist out = { NULL, 0, l->status, l->header_end, l->sessions };

	for (size_t i = 0; i < l->n; i++)
		if (!is_marker(&l->v[i]) && (!keep || keep(&l->v[i], ctx)))
			push(&out, &l->v[i]);
	return out;
}

static void free_list(evlist *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* Same events (type, time, cap, payload) in the same order. */
static void assert_same_events(const evlist *want, const uint8_t *want_buf,
			       const evlist *got, const uint8_t *got_buf)
{
	assert_int_equal(got->n, want->n);
	for (size_t i = 0; i < want->n; i++) {
		const rec *a = &want->v[i], *b = &got->v[i];
		if (a->type != b->type || a->time != b->time ||
		    a->cap != b->cap || a->size != b->size ||
		    memcmp(want_buf + a->end - a->size,
			   got_buf + b->end - b->size, a->size) != 0)
			fail_msg("event %zu differs: type %u/%u time %llu/%llu "
				 "cap %u/%u size %u/%u (offsets %llu, %llu)",
				 i, a->type, b->type,
				 (unsigned long long)a->time,
				 (unsigned long long)b->time, a->cap, b->cap,
				 a->size, b->size, (unsigned long long)a->offset,
				 (unsigned long long)b->offset);
	}
}

/* The output is complete, and every block's size lands on an event
 * boundary (or covers the data end) and its end time covers its events;
 * no event lies outside a block unless `loose_ok`. */
static void assert_well_blocked(const uint8_t *buf, size_t len, int loose_ok)
{
	ev_reader *r;
	ev_event ev;
	uint64_t block_end = 0, end_time = 0, block_at = 0;
	int open = 0, rc;

	assert_int_equal(ev_reader_open_memory(&r, buf, len, "out", 0), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	for (;;) {
		while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
			uint64_t end = ev_reader_offset(r);
			if (ev.type == EV_BLOCK_MARKER && ev.size >= 14) {
				if (open && ev.offset != block_end)
					fail_msg("block at %llu ends at %llu, the next "
						 "marker is at %llu",
						 (unsigned long long)block_at,
						 (unsigned long long)block_end,
						 (unsigned long long)ev.offset);
				block_at = ev.offset;
				block_end = ev.offset + ev_load32(ev.payload);
				end_time = ev_load64(ev.payload + 4);
				assert_true(block_end >= end);
				assert_true(end_time >= ev.time);
				open = block_end > end;
				continue;
			}
			if (!open) {
				if (!loose_ok)
					fail_msg("event at %llu outside any block",
						 (unsigned long long)ev.offset);
				continue;
			}
			if (end > block_end)
				fail_msg("event at %llu runs past its block at %llu",
					 (unsigned long long)ev.offset,
					 (unsigned long long)block_at);
			if (ev.time > end_time)
				fail_msg("event at %llu (time %llu) after its block's "
					 "end time %llu", (unsigned long long)ev.offset,
					 (unsigned long long)ev.time,
					 (unsigned long long)end_time);
			open = end < block_end;
		}
		assert_int_equal(rc, EV_END);
		/* Still open: only GHC >= 9.2's block that covers 0xffff. */
		if (open && ev_reader_offset(r) != block_end)
			fail_msg("block at %llu ends at %llu, the data end is at "
				 "%llu", (unsigned long long)block_at,
				 (unsigned long long)block_end,
				 (unsigned long long)(ev_reader_offset(r) - 2));
		open = 0;
		rc = ev_reader_next_session(r);
		if (rc == EV_END)
			break;
		assert_int_equal(rc, EV_OK);
	}
	ev_reader_free(r);
}

/* One repair of a memory buffer, with the notices it made. */
typedef struct run {
	int rc;
	uint8_t *out;
	size_t len;
	ev_repair_summary sum;
	ev_diag diag;
	ev_repair_notice notes[MAX_NOTES];
	size_t n_notes;
} run;

static void collect_notice(void *ctx, const ev_repair_notice *n)
{
	run *r = ctx;

	assert_non_null(n->message);
	assert_true(strlen(n->message) > 0);
	if (r->n_notes < MAX_NOTES) {
		r->notes[r->n_notes] = *n;
		r->notes[r->n_notes].message = NULL;
		r->n_notes++;
	}
}

static void repair_buffer(const uint8_t *in, size_t len,
			  const ev_repair_options *opts, run *out)
{
	ev_repair_options o = EV_REPAIR_OPTIONS_INIT;
	const uint8_t *bytes;
	ev_input *r;
	ev_sink *sink;
	ev_repair *rp;

	memset(out, 0, sizeof *out);
	if (opts)
		o = *opts;
	o.notify = collect_notice;
	o.notify_ctx = out;
	assert_int_equal(ev_input_memory(&r, in, len, "in"), EV_OK);
	assert_int_equal(ev_sink_open_memory(&sink), EV_OK);
	assert_int_equal(ev_repair_new(&rp, &o), EV_OK);
	out->rc = ev_repair_run(rp, r, sink);
	out->sum = *ev_repair_summary_of(rp);
	out->diag = *ev_repair_diag(rp);
	bytes = ev_sink_memory(sink, &out->len);
	out->out = malloc(out->len + 1);
	assert_non_null(out->out);
	memcpy(out->out, bytes, out->len);
	assert_int_equal(out->sum.output_bytes, out->len);
	ev_repair_free(rp);
	ev_sink_free(sink);
	ev_input_free(r);
}

static void free_run(run *r)
{
	free(r->out);
	r->out = NULL;
}

static size_t count_notes(const run *r, ev_repair_notice_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n_notes; i++)
		n += r->notes[i].kind == kind;
	return n;
}

static const ev_repair_notice *find_note(const run *r,
					 ev_repair_notice_kind kind)
{
	for (size_t i = 0; i < r->n_notes; i++)
		if (r->notes[i].kind == kind)
			return &r->notes[i];
	return NULL;
}

static uint8_t *load(const char *dir, const char *name, size_t *len)
{
	uint8_t *buf = ts_load(dir, name, len);

	if (!buf)
		fail_msg("cannot read %s/%s", dir, name);
	return buf;
}

static uint8_t *load_testdata(const char *name, size_t *len)
{
	return load(EVTOOL_TESTDATA, name, len);
}

/* ------------------------------------------------------------------------
 * Cuts: the repaired output holds exactly the complete events
 * ---------------------------------------------------------------------- */

static int ends_within(const rec *e, const void *ctx)
{
	return e->end <= *(const uint64_t *)ctx;
}

/* The last block marker of `all` that is complete within `cut`, or NULL. */
static const rec *last_marker_within(const evlist *all, uint64_t cut)
{
	const rec *m = NULL;

	for (size_t i = 0; i < all->n && all->v[i].end <= cut; i++)
		if (is_marker(&all->v[i]))
			m = &all->v[i];
	return m;
}

/* Reference findings (a cap or capset used but never created) are
 * expected when the cut dropped some of the creation events: GHC posts
 * CAP_CREATE, CAPSET_CREATE and CAPSET_ASSIGN_CAP in the global block,
 * which it writes last, so a prefix can hold cap 0's creation and not
 * cap 1's. */
static int is_reference_check(const char *check)
{
	return strcmp(check, "cap-ref") == 0 ||
	       strcmp(check, "cap-capset") == 0 ||
	       strcmp(check, "capset-ref") == 0;
}

typedef struct findings {
	char first[256];   /* the first finding that counts */
	unsigned counted;  /* findings that count */
	int refs_ok;       /* reference findings do not count */
} findings;

static int note_finding(const ev_finding *f, void *ctx)
{
	findings *fs = ctx;

	if (fs->refs_ok && is_reference_check(f->check))
		return 0;
	if (!fs->counted++)
		snprintf(fs->first, sizeof fs->first, "%s at %llu: %s",
			 f->check, (unsigned long long)f->offset, f->message);
	return 0;
}

/* Where the last creation event of `all` ends (0 when it has none). */
static uint64_t creations_end(const evlist *all)
{
	uint64_t end = 0;

	for (size_t i = 0; i < all->n; i++)
		if (all->v[i].type == EV_CAP_CREATE ||
		    all->v[i].type == EV_CAPSET_CREATE ||
		    all->v[i].type == EV_CAPSET_ASSIGN_CAP)
			end = all->v[i].end;
	return end;
}

/* A repaired log must pass ev_validate with every default check: complete,
 * no error, no warning; but for reference findings when the cut dropped
 * creation events that the full log holds. */
static void assert_validates(const uint8_t *log, size_t len, uint64_t cut,
			     const evlist *all)
{
	ev_validate_options opts = EV_VALIDATE_OPTIONS_INIT;
	ev_validate_result res;
	findings fs = { "", 0, cut < creations_end(all) };
	ev_reader *r;

	assert_int_equal(ev_reader_open_memory(&r, log, len, "repaired", 0),
			 EV_OK);
	assert_int_equal(ts_validate(r, &opts, note_finding, &fs, &res),
			 EV_OK);
	ev_reader_free(r);
	if (res.verdict == EV_VERDICT_TRUNCATED || fs.counted ||
	    (res.verdict == EV_VERDICT_INVALID && !fs.refs_ok))
		fail_msg("cut at %llu: the repaired log is %s (%llu errors, "
			 "%llu warnings): %s", (unsigned long long)cut,
			 ev_verdict_name(res.verdict),
			 (unsigned long long)res.errors,
			 (unsigned long long)res.warnings, fs.first);
}

/* Repairs the first `cut` bytes of the complete log `full` (whose events
 * are `all`) and checks the result against the events that end within
 * the cut, and that it validates. */
static void check_cut(const uint8_t *full, size_t full_len, const evlist *all,
		      uint64_t cut, int loose_ok)
{
	const rec *m = last_marker_within(all, cut);
	uint64_t last_end = all->header_end;
	evlist want, got_all, got;
	int inside_block;
	run r;

	repair_buffer(full, cut, NULL, &r);
	if (cut == 0) { /* no byte at all: no eventlog, with its reason */
		assert_int_equal(r.rc, EV_EFORMAT);
		assert_int_equal(r.diag.reason, EV_REASON_EMPTY_INPUT);
		free_run(&r);
		return;
	}
	if (cut < all->header_end) {
		assert_int_equal(r.rc, EV_ETRUNCATED);
		assert_int_equal(r.diag.status, EV_ETRUNCATED);
		assert_non_null(strstr(r.diag.message, "no events to recover"));
		free_run(&r);
		return;
	}
	if (r.rc != EV_OK)
		fail_msg("cut at %llu: %s", (unsigned long long)cut,
			 r.diag.message);
	for (size_t i = 0; i < all->n && all->v[i].end <= cut; i++)
		last_end = all->v[i].end;
	/* The cut falls inside the last block whose marker it keeps. */
	inside_block = m && m->offset + marker_size_of(full, m) > last_end;
	want = events_only(all, ends_within, &cut);
	got_all = read_all(r.out, r.len);
	assert_int_equal(got_all.status, EV_END);
	got = events_only(&got_all, NULL, NULL);
	assert_same_events(&want, full, &got, r.out);
	assert_well_blocked(r.out, r.len, loose_ok);
	assert_validates(r.out, r.len, cut, all);

	assert_int_equal(r.sum.events, want.n);
	assert_int_equal(r.sum.damaged, cut != full_len);
	assert_int_equal(r.sum.input_bytes, cut);
	if (cut == full_len) {
		assert_int_equal(r.len, full_len);
		assert_memory_equal(r.out, full, full_len);
		assert_int_equal(r.n_notes, 0);
	} else {
		/* The tail after the last complete event is dropped and
		 * reported; the block it cut, if any, is fixed. */
		assert_int_equal(r.sum.tail_bytes, cut - last_end);
		assert_int_equal(count_notes(&r, EV_REPAIR_TRUNCATED), 1);
		assert_int_equal(find_note(&r, EV_REPAIR_TRUNCATED)->offset,
				 last_end);
		assert_int_equal(find_note(&r, EV_REPAIR_TRUNCATED)->length,
				 cut - last_end);
		assert_int_equal(r.sum.blocks_fixed, inside_block);
		assert_int_equal(count_notes(&r, EV_REPAIR_BLOCK_FIXED),
				 inside_block);
		assert_int_equal(r.sum.kept_bytes, last_end);
		/* The output is the input up to the last complete event,
		 * except the fixed block's size and end time, then 0xffff. */
		assert_int_equal(r.len, last_end + 2);
		if (inside_block) {
			uint64_t fields = m->end - m->size;
			assert_memory_equal(r.out, full, fields);
			assert_int_equal(ev_load32(r.out + fields),
					 last_end - m->offset);
			assert_memory_equal(r.out + fields + 12,
					    full + fields + 12,
					    last_end - fields - 12);
		} else {
			assert_memory_equal(r.out, full, last_end);
		}
		assert_int_equal(r.out[last_end], 0xff);
		assert_int_equal(r.out[last_end + 1], 0xff);
	}
	free_list(&want);
	free_list(&got);
	free_list(&got_all);
	free_run(&r);
}

static void cut_everywhere(const char *name)
{
	size_t len;
	uint8_t *full = load_testdata(name, &len);
	evlist all = read_all(full, len);

	assert_int_equal(all.status, EV_END);
	for (uint64_t cut = 0; cut <= len; cut++)
		check_cut(full, len, &all, cut, 0);
	free_list(&all);
	free(full);
}

static void test_every_cut_of_small_logs(void **state)
{
	(void)state;
	cut_everywhere("user-n1.eventlog");
	cut_everywhere("sparks-n2.eventlog");
}

/* A stride through the log, plus the bytes around every block marker. */
static void cut_stride(const uint8_t *full, size_t len, const evlist *all)
{
	uint64_t stride = len / 97 + 1;

	for (uint64_t cut = all->header_end - 1; cut <= len; cut += stride)
		check_cut(full, len, all, cut, 0);
	for (size_t i = 0; i < all->n; i++) {
		static const int64_t around[] = { -1, 0, 1, 12, 23, 24, 25 };
		uint64_t size;
		if (!is_marker(&all->v[i]))
			continue;
		size = marker_size_of(full, &all->v[i]);
		for (size_t k = 0; k < sizeof around / sizeof around[0]; k++)
			check_cut(full, len, all,
				  (uint64_t)((int64_t)all->v[i].offset + around[k]),
				  0);
		for (int64_t k = -1; k <= 1; k++)
			if (all->v[i].offset + size + (uint64_t)k <= len)
				check_cut(full, len, all,
					  all->v[i].offset + size + (uint64_t)k, 0);
	}
	check_cut(full, len, all, len - 1, 0);
	check_cut(full, len, all, len, 0);
}

static void test_stride_cuts_of_larger_logs(void **state)
{
	static const char *const names[] = {
		"threads-n1.eventlog", "threads-n2.eventlog",
		"threads-n4.eventlog", "gc-n2.eventlog", "heap-n1.eventlog",
		"nonmoving-n2.eventlog", "merge-c.eventlog"
	};
	(void)state;

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		size_t len;
		uint8_t *full = load_testdata(names[i], &len);
		evlist all = read_all(full, len);
		assert_int_equal(all.status, EV_END);
		cut_stride(full, len, &all);
		free_list(&all);
		free(full);
	}
}

/* Complete corpus logs of other GHC versions (6.12 to 9.5) pass through
 * byte for byte; their cuts keep their complete events. */
static void corpus_log(const char *path, void *ctx)
{
	size_t len;
	uint8_t *full = ts_read_file(path, &len);
	evlist all;
	run r;

	(void)ctx;
	assert_non_null(full);
	all = read_all(full, len);
	if (all.status != EV_END) { /* testlog-part: cut, handled below */
		free_list(&all);
		free(full);
		return;
	}
	repair_buffer(full, len, NULL, &r);
	assert_int_equal(r.rc, EV_OK);
	assert_int_equal(r.len, len);
	assert_memory_equal(r.out, full, len);
	assert_int_equal(r.sum.damaged, 0);
	free_run(&r);
	for (int k = 1; k < 8; k++)
		check_cut(full, len, &all,
			  all.header_end + (len - all.header_end) * (uint64_t)k / 8,
			  1);
	free_list(&all);
	free(full);
}

static void test_corpus_logs(void **state)
{
	(void)state;
	if (ts_for_each_log(EVTOOL_CORPUS, corpus_log, NULL) == 0)
		skip();
}

/* The corpus's GHC ~7.0 log cut at 10 KiB mid-event, with STARTUP
 * outside any block: repaired to exactly its complete events. */
static void test_corpus_cut_log(void **state)
{
	size_t len;
	uint8_t *full = ts_load(EVTOOL_CORPUS, "testlog-part.eventlog", &len);
	evlist all, want, got_all, got;
	run r;

	(void)state;
	if (!full)
		skip();
	all = read_all(full, len);
	assert_int_equal(all.status, EV_ETRUNCATED);
	repair_buffer(full, len, NULL, &r);
	assert_int_equal(r.rc, EV_OK);
	assert_true(r.sum.damaged);
	want = events_only(&all, NULL, NULL);
	got_all = read_all(r.out, r.len);
	assert_int_equal(got_all.status, EV_END);
	got = events_only(&got_all, NULL, NULL);
	assert_same_events(&want, full, &got, r.out);
	assert_well_blocked(r.out, r.len, 1);
	assert_int_equal(r.sum.tail_bytes,
			 len - all.v[all.n - 1].end);
	free_list(&all);
	free_list(&want);
	free_list(&got);
	free_list(&got_all);
	free_run(&r);
	free(full);
}

/* The killed log with whole blocks (gzip): kept as it is, plus the data
 * end; the header-only killed log yields a log without events. */
static void test_killed_logs(void **state)
{
	ev_repair_options o = EV_REPAIR_OPTIONS_INIT;
	char *path = ts_path(EVTOOL_TESTDATA, "killed-blocks.eventlog.gz");
	ev_input *r;
	ev_sink *sink;
	ev_repair *rp;
	const ev_repair_summary *s;
	const uint8_t *out;
	size_t len;
	uint8_t *header_only;
	run hr;

	(void)state;
	if (ev_input_open(&r, path) != EV_OK) {
		free(path);
		skip();
	}
	assert_int_equal(ev_sink_open_memory(&sink), EV_OK);
	assert_int_equal(ev_repair_new(&rp, &o), EV_OK);
	assert_int_equal(ev_repair_run(rp, r, sink), EV_OK);
	s = ev_repair_summary_of(rp);
	assert_true(s->damaged);
	assert_int_equal(s->tail_bytes, 0);
	assert_int_equal(s->blocks_fixed, 0);
	assert_true(s->events > 1000);
	out = ev_sink_memory(sink, &len);
	assert_int_equal(len, s->input_bytes + 2);
	assert_int_equal(out[len - 2], 0xff);
	assert_int_equal(out[len - 1], 0xff);
	{
		evlist got = read_all(out, len);
		assert_int_equal(got.status, EV_END);
		free_list(&got);
	}
	assert_well_blocked(out, len, 0);
	ev_repair_free(rp);
	ev_sink_free(sink);
	ev_input_free(r);
	free(path);

	header_only = load_testdata("killed-sigkill.eventlog", &len);
	repair_buffer(header_only, len, NULL, &hr);
	assert_int_equal(hr.rc, EV_OK);
	assert_int_equal(hr.sum.events, 0);
	assert_true(hr.sum.damaged);
	assert_int_equal(hr.len, len + 2);
	free_run(&hr);
	free(header_only);
}

/* ------------------------------------------------------------------------
 * Resynchronising after damage
 * ---------------------------------------------------------------------- */

/* Index in `all` of the `nth` block marker. */
static size_t nth_marker(const evlist *all, unsigned nth)
{
	for (size_t i = 0; i < all->n; i++)
		if (is_marker(&all->v[i]) && nth-- == 0)
			return i;
	fail_msg("no block marker %u", nth);
	return 0;
}

typedef struct window {
	uint64_t from, to; /* events in [from, to) are lost */
} window;

static int outside_window(const rec *e, const void *ctx)
{
	const window *w = ctx;
	return e->offset < w->from || e->offset >= w->to;
}

/* Repairs `damaged` (a copy of `full` with a damaged region) with
 * EV_REPAIR_RESYNC and checks: one skipped range [from, to), the events
 * outside it kept, blocks well formed. */
static void check_resync(const uint8_t *full, const evlist *all,
			 const uint8_t *damaged_buf, size_t len,
			 uint64_t from, uint64_t to, uint64_t fixed,
			 uint64_t error_at)
{
	ev_repair_options o = EV_REPAIR_OPTIONS_INIT;
	window w = { from, to };
	evlist want, got_all, got;
	const ev_repair_notice *skip_note;
	run r;

	o.flags = EV_REPAIR_RESYNC;
	repair_buffer(damaged_buf, len, &o, &r);
	if (r.rc != EV_OK)
		fail_msg("resync failed: %s", r.diag.message);
	assert_true(r.sum.damaged);
	assert_int_equal(count_notes(&r, EV_REPAIR_SKIPPED), 1);
	skip_note = find_note(&r, EV_REPAIR_SKIPPED);
	assert_int_equal(skip_note->offset, from);
	assert_int_equal(skip_note->length, to - from);
	assert_int_equal(r.sum.skipped_bytes, to - from);
	assert_int_equal(r.sum.skipped_ranges, 1);
	assert_int_equal(r.sum.blocks_fixed, fixed);
	want = events_only(all, outside_window, &w);
	got_all = read_all(r.out, r.len);
	assert_int_equal(got_all.status, EV_END);
	got = events_only(&got_all, NULL, NULL);
	assert_same_events(&want, full, &got, r.out);
	assert_well_blocked(r.out, r.len, 0);
	free_list(&want);
	free_list(&got);
	free_list(&got_all);
	free_run(&r);

	/* Without EV_REPAIR_RESYNC, the damage is an error there. */
	repair_buffer(damaged_buf, len, NULL, &r);
	assert_int_equal(r.rc, EV_EFORMAT);
	assert_int_equal(r.diag.offset, error_at);
	assert_int_equal(r.diag.origin, EV_ORIGIN_INPUT);
	free_run(&r);
}

/* Garbage over events in the middle of a block, ending mid-event: the
 * block keeps its events before the damage (cut there), every later
 * block is recovered, and the skipped range runs from the first damaged
 * event to the next block marker. */
static void test_resync_garbage_in_block(void **state)
{
	size_t len;
	uint8_t *full = load_testdata("threads-n4.eventlog", &len);
	evlist all = read_all(full, len);
	size_t m = nth_marker(&all, 1), next = nth_marker(&all, 2), e;
	uint64_t d, stop;
	uint8_t *bad = malloc(len);
	uint32_t seed = 12345;

	(void)state;
	assert_non_null(bad);
	e = m + (next - m) / 2;
	d = all.v[e].offset;
	stop = all.v[e + 20].offset + 3; /* ends inside an event */
	assert_true(stop < all.v[next].offset);

	/* Constant garbage of an undeclared type. */
	memcpy(bad, full, len);
	memset(bad + d, 0xee, stop - d);
	check_resync(full, &all, bad, len, d, all.v[next].offset, 1, d);

	/* Random garbage (a fixed seed), starting with an undeclared type. */
	memcpy(bad, full, len);
	for (uint64_t i = d; i < stop; i++) {
		seed = seed * 1103515245u + 12345u;
		bad[i] = (uint8_t)(seed >> 16);
	}
	bad[d] = bad[d + 1] = 0xee;
	check_resync(full, &all, bad, len, d, all.v[next].offset, 1, d);

	/* Garbage over the next marker too: that block is lost, the one
	 * after it is found. */
	memcpy(bad, full, len);
	memset(bad + d, 0xee, all.v[next].offset + 10 - d);
	check_resync(full, &all, bad, len, d, all.v[nth_marker(&all, 3)].offset,
		     1, d);

	/* Damage that starts at a marker: the whole block is skipped. */
	memcpy(bad, full, len);
	memset(bad + all.v[m].offset, 0xee, 2);
	check_resync(full, &all, bad, len, all.v[m].offset,
		     all.v[next].offset, 0, all.v[m].offset);
	free(bad);
	free_list(&all);
	free(full);
}

/* The rec of the event whose bytes hold `offset`. */
static const rec *event_at(const evlist *all, uint64_t offset)
{
	for (size_t i = 0; i < all->n; i++)
		if (all->v[i].offset <= offset && offset < all->v[i].end)
			return &all->v[i];
	fail_msg("no event holds offset %llu", (unsigned long long)offset);
	return NULL;
}

static uint64_t last_time_of(const evlist *l)
{
	uint64_t t = 0;

	for (size_t i = 0; i < l->n; i++)
		if (!is_marker(&l->v[i]) && l->v[i].time > t)
			t = l->v[i].time;
	return t;
}

/* An event whose time is impossible in its block is damage, dropped and
 * reported with EV_REPAIR_RESYNC. (a) 40 bytes of garbage over the
 * middle of a real log: the event they start in keeps its type and reads
 * with a time of hours in a run of 20 ms, and would become its block's
 * end time. (b) One event's time set past its block's declared end,
 * (c) one set before the event ahead of it: only that event goes. */
static void test_resync_impossible_time(void **state)
{
	ev_repair_options o = EV_REPAIR_OPTIONS_INIT;
	size_t len, m;
	uint8_t *full = load_testdata("threads-n1.eventlog", &len);
	uint8_t *bad = malloc(len);
	evlist all = read_all(full, len), got;
	const rec *hit, *e;
	const ev_repair_notice *note;
	run r;

	(void)state;
	assert_non_null(bad);
	o.flags = EV_REPAIR_RESYNC;

	/* (a) */
	memcpy(bad, full, len);
	m = len / 2;
	for (size_t i = 0; i < 40; i++)
		bad[m + i] = (uint8_t)(i * 37 + 11);
	hit = event_at(&all, m);
	assert_true(m < hit->offset + 10); /* the garbage starts in its time */
	repair_buffer(bad, len, &o, &r);
	assert_int_equal(r.rc, EV_OK);
	assert_int_equal(r.sum.dropped_events, 1);
	assert_int_equal(count_notes(&r, EV_REPAIR_EVENT_DROPPED), 1);
	note = find_note(&r, EV_REPAIR_EVENT_DROPPED);
	assert_int_equal(note->offset, hit->offset);
	assert_int_equal(note->length, hit->end - hit->offset);
	assert_true(r.sum.last_time <= last_time_of(&all));
	got = read_all(r.out, r.len);
	assert_true(last_time_of(&got) <= last_time_of(&all));
	assert_validates(r.out, r.len, len, &all);
	free_list(&got);
	free_run(&r);

	/* (b) and (c): a THREAD_WAKEUP in the middle of the first block
	 * (one whose loss breaks no thread's run and stop) */
	e = &all.v[nth_marker(&all, 0) + 100];
	while (e->type != EV_THREAD_WAKEUP)
		e++;
	for (int k = 0; k < 2; k++) {
		uint64_t t = k == 0 ? UINT64_C(1) << 40 : (e - 1)->time - 1;
		memcpy(bad, full, len);
		assert_true(e < &all.v[nth_marker(&all, 1)]);
		ev_store64(bad + e->offset + 2, t);
		repair_buffer(bad, len, &o, &r);
		assert_int_equal(r.rc, EV_OK);
		assert_int_equal(r.sum.dropped_events, 1);
		assert_int_equal(r.sum.skipped_bytes, 0);
		note = find_note(&r, EV_REPAIR_EVENT_DROPPED);
		assert_non_null(note);
		assert_int_equal(note->offset, e->offset);
		got = read_all(r.out, r.len);
		assert_int_equal(got.n, all.n - 1);
		assert_validates(r.out, r.len, len, &all);
		free_list(&got);
		free_run(&r);
		/* Without EV_REPAIR_RESYNC the bytes are copied as they are. */
		repair_buffer(bad, len, NULL, &r);
		assert_int_equal(r.rc, EV_OK);
		assert_int_equal(r.sum.dropped_events, 0);
		free_run(&r);
	}
	free(bad);
	free_list(&all);
	free(full);
}

/* A garbage payload length makes an event run past the end of its block:
 * detected, and the rest of the block skipped. */
static void test_resync_event_past_block(void **state)
{
	size_t len;
	uint8_t *full = load_testdata("threads-n2.eventlog", &len);
	evlist all = read_all(full, len);
	size_t m = nth_marker(&all, 0), next = nth_marker(&all, 1), e = 0;
	uint8_t *bad = malloc(len);
	run r;

	(void)state;
	assert_non_null(bad);
	/* A variable-size event in the first block (a THREAD_LABEL). */
	for (size_t i = m + 1; i < next && !e; i++)
		if (all.v[i].end - all.v[i].offset == 12u + all.v[i].size)
			e = i;
	assert_true(e > 0);
	memcpy(bad, full, len);
	ev_store16(bad + all.v[e].offset + 10, 0xfff0);
	check_resync(full, &all, bad, len, all.v[e].offset, all.v[next].offset,
		     1, all.v[e].offset);
	repair_buffer(bad, len, NULL, &r);
	assert_non_null(strstr(r.diag.message, "runs past the end of its block"));
	free_run(&r);

	/* The same in the last block, where the garbage length also runs
	 * past the end of the input: still damage, not a cut. */
	e = 0;
	for (size_t i = all.n - 1; i > nth_marker(&all, 2) && !e; i--)
		if (all.v[i].end - all.v[i].offset == 12u + all.v[i].size)
			e = i;
	assert_true(e > 0);
	memcpy(bad, full, len);
	ev_store16(bad + all.v[e].offset + 10, 0xfff0);
	repair_buffer(bad, len, NULL, &r);
	assert_int_equal(r.rc, EV_EFORMAT);
	assert_int_equal(r.diag.offset, all.v[e].offset);
	free_run(&r);
	free(bad);
	free_list(&all);
	free(full);
}

/* A data-end marker inside a block followed by garbage, and garbage after
 * the real data end. */
static void test_resync_data_end(void **state)
{
	size_t len;
	uint8_t *full = load_testdata("threads-n2.eventlog", &len);
	evlist all = read_all(full, len);
	size_t m = nth_marker(&all, 0), next = nth_marker(&all, 1);
	size_t e = m + (next - m) / 2;
	uint8_t *bad = malloc(len + 100);
	run r;

	(void)state;
	assert_non_null(bad);
	memcpy(bad, full, len);
	memset(bad + all.v[e].offset, 0xff, 2);
	bad[all.v[e].offset + 2] = 0xee;
	/* Without resync: "unexpected bytes after the data-end marker". */
	check_resync(full, &all, bad, len, all.v[e].offset, all.v[next].offset,
		     1, all.v[e].offset + 2);

	/* Junk after a complete log: skipped, the log kept byte for byte. */
	memcpy(bad, full, len);
	memset(bad + len, 0xee, 100);
	{
		ev_repair_options o = EV_REPAIR_OPTIONS_INIT;
		o.flags = EV_REPAIR_RESYNC;
		repair_buffer(bad, len + 100, &o, &r);
	}
	assert_int_equal(r.rc, EV_OK);
	assert_int_equal(r.len, len);
	assert_memory_equal(r.out, full, len);
	assert_int_equal(count_notes(&r, EV_REPAIR_SKIPPED), 1);
	assert_int_equal(find_note(&r, EV_REPAIR_SKIPPED)->offset, len);
	assert_int_equal(find_note(&r, EV_REPAIR_SKIPPED)->length, 100);
	assert_true(r.sum.damaged);
	free_run(&r);
	repair_buffer(bad, len + 100, NULL, &r);
	assert_int_equal(r.rc, EV_EFORMAT);
	assert_int_equal(r.diag.offset, len);
	free_run(&r);
	free(bad);
	free_list(&all);
	free(full);
}

/* ev_reader_resync on its own: where it lands, what it reports. */
static void test_reader_resync(void **state)
{
	size_t len;
	uint8_t *full = load_testdata("threads-n4.eventlog", &len);
	evlist all = read_all(full, len);
	size_t m1 = nth_marker(&all, 1), m2 = nth_marker(&all, 2);
	uint64_t from, skipped;
	uint8_t *bad = malloc(len);
	ev_reader *r;
	ev_event ev;
	int rc;

	(void)state;
	assert_non_null(bad);

	/* Before a header: nothing to resynchronise with. */
	assert_int_equal(ev_reader_open_memory(&r, full, len, "x", 0), EV_OK);
	assert_int_equal(ev_reader_resync(r, &from, &skipped), EV_EINVAL);

	/* Disowning an event: the scan starts just after it. */
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	for (size_t i = 0; i <= m1 + 3; i++)
		assert_int_equal(ev_reader_next(r, &ev), EV_OK);
	assert_int_equal(ev_reader_resync(r, &from, &skipped), EV_OK);
	assert_int_equal(from, all.v[m1 + 3].offset);
	assert_int_equal(from + skipped, all.v[m2].offset);
	assert_int_equal(ev_reader_next(r, &ev), EV_OK);
	assert_int_equal(ev.type, EV_BLOCK_MARKER);
	assert_int_equal(ev.offset, all.v[m2].offset);
	assert_int_equal(ev.cap, all.v[m2].cap);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		;
	assert_int_equal(rc, EV_END);
	ev_reader_free(r);

	/* After a format error: the skipped range starts at the error. */
	memcpy(bad, full, len);
	memset(bad + all.v[m1 + 5].offset, 0xee, 40);
	assert_int_equal(ev_reader_open_memory(&r, bad, len, "x", 0), EV_OK);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		;
	assert_int_equal(rc, EV_EFORMAT);
	assert_int_equal(ev_reader_resync(r, &from, &skipped), EV_OK);
	assert_int_equal(from, all.v[m1 + 5].offset);
	assert_int_equal(from + skipped, all.v[m2].offset);
	assert_int_equal(ev_reader_next(r, &ev), EV_OK);
	assert_int_equal(ev.offset, all.v[m2].offset);
	ev_reader_free(r);

	/* No marker after the damage: skipped to the end of the input. */
	memcpy(bad, full, len);
	memset(bad + all.v[m1 + 5].offset, 0xee, len - all.v[m1 + 5].offset);
	assert_int_equal(ev_reader_open_memory(&r, bad, len, "x", 0), EV_OK);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		;
	assert_int_equal(rc, EV_EFORMAT);
	assert_int_equal(ev_reader_resync(r, &from, &skipped), EV_ETRUNCATED);
	assert_int_equal(from + skipped, len);
	assert_int_equal(ev_reader_pending(r), 0);
	assert_int_equal(ev_reader_next(r, &ev), EV_ETRUNCATED);
	ev_reader_free(r);

	/* ev_reader_pending: the incomplete tail of a cut log. */
	assert_int_equal(ev_reader_open_memory(&r, full, all.v[m1].end + 5, "x",
					       0), EV_OK);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		;
	assert_int_equal(rc, EV_ETRUNCATED);
	assert_int_equal(ev_reader_offset(r), all.v[m1].end);
	assert_int_equal(ev_reader_pending(r), 5);
	ev_reader_free(r);
	free(bad);
	free_list(&all);
	free(full);
}

/* Several MiB of garbage read through a file (not memory): the scan
 * slides its window over them and finds the marker after. */
static void test_reader_resync_large_gap(void **state)
{
	size_t len;
	uint8_t *full = load_testdata("threads-n4.eventlog", &len);
	evlist all = read_all(full, len);
	size_t m1 = nth_marker(&all, 1), m2 = nth_marker(&all, 2);
	uint64_t at = all.v[m1 + 7].offset, gap = 3u * 1024u * 1024u + 17u;
	uint64_t from, skipped;
	char *dir = ts_temp_dir(), *path;
	uint8_t *garbage = malloc(gap);
	ev_reader *r;
	ev_event ev;
	int rc;

	(void)state;
	assert_non_null(dir);
	assert_non_null(garbage);
	path = ts_path(dir, "gap.eventlog");
	memset(garbage, 0xee, gap);
	for (uint64_t i = 0; i < gap; i += 4099)
		garbage[i] = 0; /* zeros that do not start a marker */
	assert_true(ts_write_file(path, full, at, "wb"));
	assert_true(ts_write_file(path, garbage, gap, "ab"));
	assert_true(ts_write_file(path, full + all.v[m2].offset,
				  len - all.v[m2].offset, "ab"));
	assert_int_equal(ev_reader_open_path(&r, path, 0), EV_OK);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		;
	assert_int_equal(rc, EV_EFORMAT);
	assert_int_equal(ev_reader_resync(r, &from, &skipped), EV_OK);
	assert_int_equal(from, at);
	assert_int_equal(skipped, gap);
	assert_int_equal(ev_reader_next(r, &ev), EV_OK);
	assert_int_equal(ev.type, EV_BLOCK_MARKER);
	assert_int_equal(ev.offset, at + gap);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		;
	assert_int_equal(rc, EV_END);
	ev_reader_free(r);
	ts_remove_dir(dir);
	free(path);
	free(dir);
	free(garbage);
	free_list(&all);
	free(full);
}

/* ------------------------------------------------------------------------
 * Cutting a good log: by time, by events, by bytes
 * ---------------------------------------------------------------------- */

static int before_time(const rec *e, const void *ctx)
{
	return e->time < *(const uint64_t *)ctx;
}

static void test_cut_at_time(void **state)
{
	static const char *const names[] = { "threads-n4.eventlog",
					     "gc-n2.eventlog" };
	(void)state;

	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		size_t len;
		uint8_t *full = load_testdata(names[k], &len);
		evlist all = read_all(full, len), only = events_only(&all, NULL, NULL);
		uint64_t first = all.v[0].time, last = 0;

		for (size_t i = 0; i < all.n; i++)
			if (all.v[i].time > last)
				last = all.v[i].time;
		for (int step = 0; step <= 10; step++) {
			ev_repair_options o = EV_REPAIR_OPTIONS_INIT;
			uint64_t cutoff;
			evlist want, got_all, got;
			run r;
			o.max_time = (last - first) * (uint64_t)step / 9;
			cutoff = first + o.max_time;
			repair_buffer(full, len, &o, &r);
			assert_int_equal(r.rc, EV_OK);
			assert_false(r.sum.damaged);
			want = events_only(&all, before_time, &cutoff);
			got_all = read_all(r.out, r.len);
			assert_int_equal(got_all.status, EV_END);
			got = events_only(&got_all, NULL, NULL);
			assert_same_events(&want, full, &got, r.out);
			assert_well_blocked(r.out, r.len, 0);
			assert_int_equal(r.sum.cut_events, only.n - want.n);
			if (step >= 10) { /* past the last event: unchanged */
				assert_int_equal(r.len, len);
				assert_memory_equal(r.out, full, len);
			} else if (r.sum.last_time) {
				assert_true(r.sum.last_time < cutoff);
			}
			free_list(&want);
			free_list(&got);
			free_list(&got_all);
			free_run(&r);
		}
		free_list(&only);
		free_list(&all);
		free(full);
	}
}

typedef struct first_n {
	size_t n;
	size_t *seen;
} first_n;

static int within_first(const rec *e, const void *ctx)
{
	const first_n *f = ctx;

	(void)e;
	return (*f->seen)++ < f->n;
}

static void test_cut_by_events_and_bytes(void **state)
{
	size_t len;
	uint8_t *full = load_testdata("threads-n2.eventlog", &len);
	evlist all = read_all(full, len), only = events_only(&all, NULL, NULL);
	size_t total = only.n;

	(void)state;
	for (size_t n = 0; n <= total + 1; n += n < 30 ? 1 : 97) {
		ev_repair_options o = EV_REPAIR_OPTIONS_INIT;
		size_t seen = 0;
		first_n f = { n, &seen };
		evlist want, got_all, got;
		run r;
		o.max_events = n;
		repair_buffer(full, len, &o, &r);
		assert_int_equal(r.rc, EV_OK);
		assert_false(r.sum.damaged);
		/* Stopped before the data end, even when it is next. */
		assert_int_equal(r.sum.stopped_early, n <= total);
		want = events_only(&all, within_first, &f);
		got_all = read_all(r.out, r.len);
		got = events_only(&got_all, NULL, NULL);
		assert_same_events(&want, full, &got, r.out);
		assert_well_blocked(r.out, r.len, 0);
		free_list(&want);
		free_list(&got);
		free_list(&got_all);
		free_run(&r);
	}

	/* --bytes N is the repair of the first N bytes, byte for byte. */
	for (uint64_t n = all.header_end; n <= len + 5; n += 331) {
		ev_repair_options o = EV_REPAIR_OPTIONS_INIT;
		run cut, prefix;
		o.max_bytes = n;
		repair_buffer(full, len, &o, &cut);
		repair_buffer(full, n < len ? n : len, NULL, &prefix);
		assert_int_equal(cut.rc, EV_OK);
		assert_int_equal(prefix.rc, EV_OK);
		assert_int_equal(cut.len, prefix.len);
		assert_memory_equal(cut.out, prefix.out, cut.len);
		assert_false(cut.sum.damaged);
		assert_int_equal(cut.sum.input_bytes, n < len ? n : len);
		free_run(&cut);
		free_run(&prefix);
	}
	{
		ev_repair_options o = EV_REPAIR_OPTIONS_INIT;
		run r;
		o.max_bytes = all.header_end - 1;
		repair_buffer(full, len, &o, &r);
		assert_int_equal(r.rc, EV_EINVAL);
		assert_non_null(strstr(r.diag.message, "inside the header"));
		free_run(&r);
	}
	free_list(&only);
	free_list(&all);
	free(full);
}

/* ------------------------------------------------------------------------
 * Sessions, GHC 9.2's last block, oversized blocks
 * ---------------------------------------------------------------------- */

static void test_sessions(void **state)
{
	size_t a_len, b_len;
	uint8_t *a = load_testdata("user-n1.eventlog", &a_len);
	uint8_t *b = load_testdata("sparks-n2.eventlog", &b_len);
	size_t len = a_len + b_len;
	uint8_t *two = malloc(len);
	ev_repair_options o = EV_REPAIR_OPTIONS_INIT;
	evlist b_all = read_all(b, b_len);
	run r;

	(void)state;
	assert_non_null(two);
	memcpy(two, a, a_len);
	memcpy(two + a_len, b, b_len);

	repair_buffer(two, len, NULL, &r);
	assert_int_equal(r.rc, EV_OK);
	assert_int_equal(r.sum.sessions, 2);
	assert_int_equal(r.len, len);
	assert_memory_equal(r.out, two, len);
	free_run(&r);

	o.session = 1;
	repair_buffer(two, len, &o, &r);
	assert_int_equal(r.rc, EV_OK);
	assert_int_equal(r.len, a_len);
	assert_memory_equal(r.out, a, a_len);
	assert_true(r.sum.stopped_early);
	free_run(&r);

	o.session = 2;
	repair_buffer(two, len, &o, &r);
	assert_int_equal(r.rc, EV_OK);
	assert_int_equal(r.len, b_len);
	assert_memory_equal(r.out, b, b_len);
	assert_false(r.sum.damaged);
	free_run(&r);

	o.session = 3;
	repair_buffer(two, len, &o, &r);
	assert_int_equal(r.rc, EV_EINVAL);
	assert_non_null(strstr(r.diag.message, "no session 3"));
	assert_int_equal(r.len, 0);
	free_run(&r);

	/* The second session cut: the first kept whole, the second repaired;
	 * cut inside its header: dropped and reported. */
	for (uint64_t cut = a_len + 1; cut < len; cut += 101) {
		run part;
		repair_buffer(two, cut, NULL, &r);
		assert_int_equal(r.rc, EV_OK);
		assert_true(r.sum.damaged);
		assert_memory_equal(r.out, a, a_len);
		if (cut - a_len < b_all.header_end) {
			assert_int_equal(r.len, a_len);
			assert_int_equal(count_notes(&r, EV_REPAIR_HEADER_DROPPED),
					 1);
			assert_int_equal(r.sum.sessions, 1);
		} else {
			repair_buffer(b, cut - a_len, NULL, &part);
			assert_int_equal(r.len, a_len + part.len);
			assert_memory_equal(r.out + a_len, part.out, part.len);
			free_run(&part);
		}
		free_run(&r);
	}
	free_list(&b_all);
	free(two);
	free(a);
	free(b);
}

/* GHC >= 9.2: the last block's size covers the data-end marker. Such a
 * log passes through unchanged; cut, its block ends at the last event. */
static void test_block_covering_data_end(void **state)
{
	size_t len;
	uint8_t *log = load_testdata("user-n1.eventlog", &len);
	evlist all = read_all(log, len);
	const rec *last = &all.v[nth_marker(&all, 1)];
	uint8_t *size_at = log + last->end - last->size;
	run r;

	(void)state;
	assert_int_equal(last->offset + ev_load32(size_at), len - 2);
	ev_store32(size_at, ev_load32(size_at) + 2);
	repair_buffer(log, len, NULL, &r);
	assert_int_equal(r.rc, EV_OK);
	assert_false(r.sum.damaged);
	assert_int_equal(r.len, len);
	assert_memory_equal(r.out, log, len);
	free_run(&r);

	repair_buffer(log, len - 1, NULL, &r);
	assert_int_equal(r.rc, EV_OK);
	assert_int_equal(r.sum.blocks_fixed, 1);
	assert_int_equal(r.len, len);
	assert_int_equal(ev_load32(r.out + last->end - last->size),
			 len - 2 - last->offset);
	assert_well_blocked(r.out, r.len, 0);
	free_run(&r);
	free_list(&all);
	free(log);
}

/* A block declaring more than 2 MiB (no GHC writes one) is re-blocked in
 * pieces of at most 2 MiB; its events are kept in order, whole or cut. */
static void test_oversized_block(void **state)
{
	size_t hlen, n_events = 3u * 1024u * 1024u / 14u, len, at;
	uint8_t *small = load_testdata("threads-n1.eventlog", &hlen);
	evlist small_all = read_all(small, hlen);
	uint64_t header_end = small_all.header_end;
	uint8_t *log;
	run r;

	(void)state;
	len = header_end + 24 + n_events * 14 + 2;
	log = malloc(len);
	assert_non_null(log);
	memcpy(log, small, header_end);
	at = header_end;
	ev_store16(log + at, EV_BLOCK_MARKER);
	ev_store64(log + at + 2, 1000);
	ev_store32(log + at + 10, (uint32_t)(24 + n_events * 14));
	ev_store64(log + at + 14, 1000 + n_events);
	ev_store16(log + at + 22, 0);
	at += 24;
	for (size_t i = 0; i < n_events; i++, at += 14) {
		ev_store16(log + at, EV_RUN_THREAD);
		ev_store64(log + at + 2, 1000 + i);
		ev_store32(log + at + 10, (uint32_t)(i % 7 + 1));
	}
	ev_store16(log + at, 0xffff);

	/* Whole, cut in its second piece, cut before it had to be split. */
	for (int cut = 0; cut < 3; cut++) {
		size_t in_len = cut == 0 ? len
			      : cut == 1 ? len - 1000
					 : header_end + 24 + 1000 * 14 + 5;
		evlist want_all = read_all(log, in_len);
		evlist want = events_only(&want_all, NULL, NULL);
		evlist got_all, got;
		repair_buffer(log, in_len, NULL, &r);
		assert_int_equal(r.rc, EV_OK);
		assert_true(r.sum.damaged);
		assert_int_equal(count_notes(&r, EV_REPAIR_BLOCK_SPLIT),
				 cut < 2);
		assert_int_equal(count_notes(&r, EV_REPAIR_BLOCK_FIXED),
				 cut == 2);
		assert_int_equal(r.sum.blocks, cut < 2 ? 2 : 1);
		assert_int_equal(r.sum.events, want.n);
		got_all = read_all(r.out, r.len);
		assert_int_equal(got_all.status, EV_END);
		got = events_only(&got_all, NULL, NULL);
		assert_same_events(&want, log, &got, r.out);
		assert_well_blocked(r.out, r.len, 0);
		for (size_t i = 0; i < got_all.n; i++)
			if (is_marker(&got_all.v[i]))
				assert_true(ev_load32(r.out + got_all.v[i].end - 14) <=
					    EV_MAX_BLOCK_SIZE);
		free_list(&want_all);
		free_list(&want);
		free_list(&got_all);
		free_list(&got);
		free_run(&r);
	}
	free_list(&small_all);
	free(log);
	free(small);
}

static void test_options_and_reuse(void **state)
{
	ev_repair_options o = EV_REPAIR_OPTIONS_INIT;
	ev_repair *rp;
	size_t len;
	uint8_t *log = load_testdata("user-n1.eventlog", &len);
	ev_input *r;
	ev_sink *sink;

	(void)state;
	o.version = 99;
	assert_int_equal(ev_repair_new(&rp, &o), EV_EINVAL);
	assert_null(rp);
	ev_repair_free(NULL);
	assert_int_equal(ev_repair_new(&rp, NULL), EV_OK);
	assert_int_equal(ev_input_memory(&r, log, len, "x"), EV_OK);
	assert_int_equal(ev_sink_open_memory(&sink), EV_OK);
	assert_int_equal(ev_repair_run(rp, r, sink), EV_OK);
	assert_int_equal(ev_repair_run(rp, r, sink), EV_EINVAL);
	ev_sink_free(sink);
	ev_input_free(r);
	ev_repair_free(rp);
	free(log);
}

/* --at's times (parsed by ev_time_parse, tests/format/test_time.c): a wall-clock
 * time is placed by the session's WALL_CLOCK_TIME. In threads-n2, raw
 * 10227240 ns (10 ms after its first event) is
 * 2026-11-22T03:25:56.008437550Z, as the filter's tests pin it
 * (tests/cli/cases/filter-time-window.t). */
static void test_time_forms(void **state)
{
	ev_repair_options o = EV_REPAIR_OPTIONS_INIT;
	size_t len;
	uint8_t *log = load_testdata("threads-n2.eventlog", &len);
	run cut_rel, cut_raw, cut_wall, early, none;

	(void)state;
	/* A raw cut equals the relative cut from the first event (227240). */
	o.max_time = 10000000;
	repair_buffer(log, len, &o, &cut_rel);
	o.max_time = 10227240;
	o.time_base = EV_REPAIR_TIME_RAW;
	repair_buffer(log, len, &o, &cut_raw);
	assert_int_equal(cut_rel.rc, EV_OK);
	assert_int_equal(cut_raw.rc, EV_OK);
	assert_true(cut_raw.sum.cut_events > 0);
	assert_int_equal(cut_raw.sum.cut_time, 10227240);
	assert_int_equal(cut_raw.len, cut_rel.len);
	assert_memory_equal(cut_raw.out, cut_rel.out, cut_rel.len);
	/* The wall-clock time of that timestamp cuts the same. */
	o.max_time = 1795317956008437550ull;
	o.time_base = EV_REPAIR_TIME_WALL;
	repair_buffer(log, len, &o, &cut_wall);
	assert_int_equal(cut_wall.rc, EV_OK);
	assert_int_equal(cut_wall.sum.cut_time, 10227240);
	assert_int_equal(cut_wall.len, cut_raw.len);
	assert_memory_equal(cut_wall.out, cut_raw.out, cut_raw.len);
	/* Before the RTS started: raw 0. No session 2: the option's fault. */
	o.max_time = 1000;
	repair_buffer(log, len, &o, &early);
	assert_int_equal(early.rc, EV_OK);
	assert_int_equal(early.sum.cut_time, 0);
	o.session = 2;
	repair_buffer(log, len, &o, &none);
	assert_int_equal(none.rc, EV_EINVAL);
	assert_int_equal(none.diag.origin, EV_ORIGIN_OPTIONS);
	assert_non_null(strstr(none.diag.message, "no session 2"));
	free_run(&cut_rel);
	free_run(&cut_raw);
	free_run(&cut_wall);
	free_run(&early);
	free_run(&none);
	/* A bad time base is refused. */
	o.time_base = 7;
	{
		ev_repair *rp;
		assert_int_equal(ev_repair_new(&rp, &o), EV_EINVAL);
	}
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_cut_of_small_logs),
		cmocka_unit_test(test_stride_cuts_of_larger_logs),
		cmocka_unit_test(test_corpus_logs),
		cmocka_unit_test(test_corpus_cut_log),
		cmocka_unit_test(test_time_forms),
		cmocka_unit_test(test_killed_logs),
		cmocka_unit_test(test_resync_garbage_in_block),
		cmocka_unit_test(test_resync_event_past_block),
		cmocka_unit_test(test_resync_impossible_time),
		cmocka_unit_test(test_resync_data_end),
		cmocka_unit_test(test_reader_resync),
		cmocka_unit_test(test_reader_resync_large_gap),
		cmocka_unit_test(test_cut_at_time),
		cmocka_unit_test(test_cut_by_events_and_bytes),
		cmocka_unit_test(test_sessions),
		cmocka_unit_test(test_block_covering_data_end),
		cmocka_unit_test(test_oversized_block),
		cmocka_unit_test(test_options_and_reuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
