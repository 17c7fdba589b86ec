/*
 * Unit tests for merging logs (lib/merge*.c, include/evtool/merge.h).
 *
 * Most tests merge the testdata processes merge-a/b/c (GHC 9.0.2, -N1,
 * -N2, -N3, started ~50 ms apart) and then map every output event back
 * through the renumbering, with an inverse mapping written here from the
 * plan's bases (not the library's code), to find exactly each input's
 * events in each input's order.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "evtool/evtool.h"
#include "internal.h"
#include "merge_internal.h"
#include "support.h"

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif
#ifndef EVTOOL_CORPUS
#define EVTOOL_CORPUS "../shared/corpus"
#endif

#define MAX_INPUTS 4
#define MAX_IDS 64
#define NS_PER_SEC 1000000000ll

/* ------------------------------------------------------------------------
 * Logs in memory
 * ---------------------------------------------------------------------- */

/* One event as read, payload copied. */
typedef struct tev {
	uint16_t type;
	uint16_t cap;
	uint64_t time;
	uint32_t size;
	uint8_t *payload;
} tev;

typedef struct tlog {
	tev *ev;
	size_t n;
	size_t capacity;
	int complete;   /* every session ended with the data end */
	unsigned sessions;
} tlog;

static void push_event(tlog *l, const ev_event *e)
{
	tev *t;

	if (l->n == l->capacity) {
		l->capacity = l->capacity ? l->capacity * 2 : 1024;
		l->ev = realloc(l->ev, l->capacity * sizeof *l->ev);
		assert_non_null(l->ev);
	}
	t = &l->ev[l->n++];
	t->type = e->type;
	t->cap = e->cap;
	t->time = e->time;
	t->size = e->size;
	t->payload = malloc(e->size ? e->size : 1);
	assert_non_null(t->payload);
	memcpy(t->payload, e->payload, e->size);
}

/* Every complete event of every session, block markers included. */
static void load_log(const uint8_t *data, size_t len, tlog *out)
{
	ev_reader *r;
	ev_event e;
	int rc;

	memset(out, 0, sizeof *out);
	assert_int_equal(ev_reader_open_memory(&r, data, len, "log", 0,
					       NULL), EV_OK);
	out->complete = 1;
	for (;;) {
		out->sessions++;
		while ((rc = ev_reader_next(r, &e)) == EV_OK)
			push_event(out, &e);
		if (rc == EV_ETRUNCATED) {
			out->complete = 0;
			break;
		}
		assert_int_equal(rc, EV_END);
		if ((rc = ev_reader_next_session(r)) == EV_END)
			break;
		assert_int_equal(rc, EV_OK);
	}
	ev_reader_free(r);
}

static void free_log(tlog *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->ev[i].payload);
	free(l->ev);
	memset(l, 0, sizeof *l);
}

static int is_marker(const tev *e)
{
	return e->type == EV_BLOCK_MARKER;
}

/* Events that are not block markers. */
static size_t count_events(const tlog *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		n += !is_marker(&l->ev[i]);
	return n;
}

/* Events of one type. */
static size_t count_type(const tlog *l, uint16_t type)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		n += l->ev[i].type == type;
	return n;
}

static uint8_t *testdata(const char *name, size_t *len)
{
	char *path = ts_path(EVTOOL_TESTDATA, name);
	uint8_t *data = ts_read_file(path, len);

	assert_non_null(data);
	free(path);
	return data;
}

/* ------------------------------------------------------------------------
 * Merging
 * ---------------------------------------------------------------------- */

typedef struct tinput {
	const char *name;
	const uint8_t *data;
	size_t len;
} tinput;

static ev_merge *new_merge(const ev_merge_options *opts, const tinput *in,
			   size_t n)
{
	ev_merge *m;

	assert_int_equal(ev_merge_new(&m, opts, NULL), EV_OK);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ev_merge_add(m, ts_memory_input(in[i].data,
								 in[i].len,
								 in[i].name)),
				 EV_OK);
	return m;
}

/* Plans and writes `m` into memory; the bytes are the caller's. */
static uint8_t *write_merge(ev_merge *m, size_t *len)
{
	ev_sink *sink;
	const uint8_t *bytes;
	uint8_t *copy;

	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	if (ev_merge_plan(m) < 0)
		fail_msg("plan: %s", ev_merge_diag(m)->message);
	if (ev_merge_run(m, sink) < 0)
		fail_msg("write: %s", ev_merge_diag(m)->message);
	assert_int_equal(ev_sink_commit(sink), EV_OK);
	bytes = ev_sink_memory(sink, len);
	copy = malloc(*len);
	assert_non_null(copy);
	memcpy(copy, bytes, *len);
	ev_sink_free(sink);
	return copy;
}

/* ------------------------------------------------------------------------
 * The inverse mapping: output id -> (input, input id)
 * ---------------------------------------------------------------------- */

typedef struct task_back {
	uint64_t out;
	uint64_t in;
	size_t input;
} task_back;

typedef struct tplan {
	size_t n;
	const ev_merge_input *in[MAX_INPUTS];
	int64_t shift[MAX_INPUTS]; /* the shifts the test expects */
	task_back tasks[512];
	size_t n_tasks;
} tplan;

/* Task ids are renamed only on collision, so their inverse is a table,
 * built from the tasks each input names. */
static void add_task(tplan *p, ev_merge *m, size_t i, uint64_t task)
{
	uint64_t out = evi_merge_map(m, i, EV_REF_TASK, task);

	for (size_t k = 0; k < p->n_tasks; k++) {
		if (p->tasks[k].input == i && p->tasks[k].in == task)
			return;
		if (p->tasks[k].out == out)
			fail_msg("task %llu of input %zu and task %llu of input "
				 "%zu both become %llu",
				 (unsigned long long)task, i,
				 (unsigned long long)p->tasks[k].in,
				 p->tasks[k].input, (unsigned long long)out);
	}
	assert_true(p->n_tasks < sizeof p->tasks / sizeof p->tasks[0]);
	p->tasks[p->n_tasks++] = (task_back){ out, task, i };
}

static void make_plan(tplan *p, ev_merge *m, const tlog *inputs, size_t n)
{
	evi_ref refs[300];

	memset(p, 0, sizeof *p);
	p->n = n;
	for (size_t i = 0; i < n; i++) {
		p->in[i] = ev_merge_input_at(m, i);
		assert_non_null(p->in[i]);
		p->shift[i] = p->in[i]->shift;
		for (size_t k = 0; k < inputs[i].n; k++) {
			const tev *e = &inputs[i].ev[k];
			size_t nr = evi_payload_refs(e->type, e->payload,
						    e->size, refs, 300);
			for (size_t r = 0; r < nr; r++)
				if (refs[r].kind == EV_REF_TASK)
					add_task(p, m, i,
						 evi_ref_load(e->payload, &refs[r]));
		}
	}
}

static int in_range(const ev_merge_input *in, ev_ref_kind kind, uint64_t v)
{
	const ev_merge_ids *ids = &in->ids[kind];
	uint64_t low = ids->base + (kind == EV_REF_THREAD ? 1 : 0);

	return ids->used && v >= low && v <= ids->base + ids->max;
}

static int none_value(ev_ref_kind kind, uint64_t v, unsigned width)
{
	if (kind == EV_REF_CAP)
		return v == (width == 2 ? 0xffffu : 0xffffffffu);
	return kind == EV_REF_THREAD && v == 0;
}

/* The input an output id belongs to, or -1. */
static int owner_of(const tplan *p, ev_ref_kind kind, uint64_t v)
{
	int found = -1;

	if (kind == EV_REF_TASK) {
		for (size_t k = 0; k < p->n_tasks; k++)
			if (p->tasks[k].out == v)
				return (int)p->tasks[k].input;
		return -1;
	}
	for (size_t i = 0; i < p->n; i++)
		if (in_range(p->in[i], kind, v)) {
			assert_int_equal(found, -1); /* ranges are disjoint */
			found = (int)i;
		}
	return found;
}

/* Which input an output event came from: its block's cap, else the
 * first identifier in its payload; -2 for a global block's marker (global
 * blocks are rebuilt), -1 when nothing says. */
static int attribute(const tplan *p, const tev *e)
{
	evi_ref refs[300];
	size_t n;

	if (is_marker(e))
		return e->cap == EV_NO_CAP
			       ? -2 : owner_of(p, EV_REF_CAP, e->cap);
	if (e->cap != EV_NO_CAP)
		return owner_of(p, EV_REF_CAP, e->cap);
	n = evi_payload_refs(e->type, e->payload, e->size, refs, 300);
	for (size_t r = 0; r < n; r++) {
		uint64_t v = evi_ref_load(e->payload, &refs[r]);
		int who;
		if (none_value(refs[r].kind, v, refs[r].width))
			continue;
		if ((who = owner_of(p, refs[r].kind, v)) >= 0)
			return who;
	}
	return -1;
}

static uint64_t unmap_id(const tplan *p, size_t i, ev_ref_kind kind,
			 uint64_t v, unsigned width)
{
	if (none_value(kind, v, width))
		return v;
	if (kind == EV_REF_TASK) {
		for (size_t k = 0; k < p->n_tasks; k++)
			if (p->tasks[k].out == v && p->tasks[k].input == i)
				return p->tasks[k].in;
		fail_msg("task %llu is no task of input %zu",
			 (unsigned long long)v, i);
	}
	assert_true(in_range(p->in[i], kind, v));
	return v - p->in[i]->ids[kind].base;
}

/* The output event `e` of input `i`, mapped back: times unshifted, ids
 * unrenumbered. The payload is the caller's to free. */
static tev unmap_event(const tplan *p, size_t i, const tev *e)
{
	tev u = *e;
	evi_ref refs[300];
	size_t n;

	u.payload = malloc(e->size ? e->size : 1);
	assert_non_null(u.payload);
	memcpy(u.payload, e->payload, e->size);
	u.time = e->time - (uint64_t)p->shift[i];
	if (e->cap != EV_NO_CAP)
		u.cap = (uint16_t)unmap_id(p, i, EV_REF_CAP, e->cap, 2);
	if (is_marker(e)) {
		/* u32 size, u64 end time, u16 cap (doc/format.md section 2) */
		ev_store64(u.payload + 4,
			   ev_load64(e->payload + 4) - (uint64_t)p->shift[i]);
		ev_store16(u.payload + 12, u.cap);
		return u;
	}
	n = evi_payload_refs(e->type, e->payload, e->size, refs, 300);
	for (size_t r = 0; r < n; r++)
		evi_ref_store(u.payload, &refs[r],
			   unmap_id(p, i, refs[r].kind,
				    evi_ref_load(e->payload, &refs[r]),
				    refs[r].width));
	return u;
}

static void assert_same_event(const tev *want, const tev *got, size_t input,
			      size_t index)
{
	if (want->type != got->type || want->cap != got->cap ||
	    want->time != got->time || want->size != got->size ||
	    memcmp(want->payload, got->payload, want->size) != 0)
		fail_msg("input %zu, event %zu: want type %u cap %u time %llu "
			 "size %u, got type %u cap %u time %llu size %u%s",
			 input, index, want->type, want->cap,
			 (unsigned long long)want->time, want->size, got->type,
			 got->cap, (unsigned long long)got->time, got->size,
			 want->size == got->size ? " (payloads differ)" : "");
}

/* An event some identifier ties to its process: a cap, or a payload
 * field naming something. Heap-sample brackets, PROF_BEGIN and the like
 * name nothing; in a log merged from copies of one log they cannot be
 * told apart. */
static int identified(const tev *e)
{
	evi_ref refs[300];
	size_t n;

	if (e->cap != EV_NO_CAP)
		return 1;
	n = evi_payload_refs(e->type, e->payload, e->size, refs, 300);
	for (size_t r = 0; r < n; r++)
		if (!none_value(refs[r].kind, evi_ref_load(e->payload, &refs[r]),
				refs[r].width))
			return 1;
	return 0;
}

/* Whether check_inverse passes over events that no id identifies. */
static int only_identified;

/* Input events the output must hold in order: all but the markers of
 * global blocks, which the merge rebuilds. */
static int expected(const tev *e)
{
	if (is_marker(e))
		return e->cap != EV_NO_CAP;
	return !only_identified || identified(e);
}

/* Maps every output event back and finds exactly each input's events, in
 * each input's order. */
static void check_inverse(const tplan *p, const tlog *inputs,
			  const tlog *out)
{
	size_t pos[MAX_INPUTS] = { 0 };
	uint64_t restamped[MAX_INPUTS] = { 0 };

	for (size_t k = 0; k < out->n; k++) {
		const tev *e = &out->ev[k];
		int who = attribute(p, e);
		const tlog *in;
		tev u;
		if (who == -2 || (only_identified && !is_marker(e) &&
				  !identified(e)))
			continue;
		if (who < 0)
			fail_msg("output event %zu (type %u) belongs to no "
				 "input", k, e->type);
		in = &inputs[who];
		while (pos[who] < in->n && !expected(&in->ev[pos[who]]))
			pos[who]++;
		if (pos[who] >= in->n)
			fail_msg("output event %zu: input %d has no more events",
				 k, who);
		u = unmap_event(p, (size_t)who, e);
		/* A global event stamped inside another input's heap or ticky
		 * sample is written after it, restamped by at most what the
		 * merge says. */
		if (e->cap == EV_NO_CAP && u.time > in->ev[pos[who]].time &&
		    u.time - in->ev[pos[who]].time <=
			    p->in[who]->restamp_max_ns) {
			restamped[who]++;
			u.time = in->ev[pos[who]].time;
		}
		assert_same_event(&in->ev[pos[who]], &u, (size_t)who, pos[who]);
		free(u.payload);
		pos[who]++;
	}
	for (size_t i = 0; i < p->n; i++) {
		while (pos[i] < inputs[i].n && !expected(&inputs[i].ev[pos[i]]))
			pos[i]++;
		assert_int_equal(pos[i], inputs[i].n);
		if (only_identified)
			assert_true(restamped[i] <= p->in[i]->restamped);
		else
			assert_int_equal(restamped[i], p->in[i]->restamped);
	}
}

/* ------------------------------------------------------------------------
 * Checks of the output's structure and id sets
 * ---------------------------------------------------------------------- */

/* Per buffer (each cap and the global one): blocks in time order without
 * overlap, events inside their block's window, time order within the
 * buffer except GC_END's early stamps (doc/format.md sections 2 and 3). */
static void check_blocks(const tlog *out)
{
	static uint64_t last_end[65536], last_time[65536];
	static uint8_t seen[65536];
	uint64_t start = 0, end = 0;

	memset(seen, 0, sizeof seen);
	memset(last_time, 0, sizeof last_time);
	assert_true(out->complete);
	for (size_t k = 0; k < out->n; k++) {
		const tev *e = &out->ev[k];
		if (is_marker(e)) {
			start = e->time;
			end = ev_load64(e->payload + 4);
			assert_true(start <= end);
			if (seen[e->cap])
				assert_true(start >= last_end[e->cap]);
			seen[e->cap] = 1;
			last_end[e->cap] = end;
			continue;
		}
		assert_true(seen[e->cap]); /* every event is in a block */
		assert_true(e->time >= start && e->time <= end);
		if (e->type != EV_GC_END)
			assert_true(e->time + 20000 >= last_time[e->cap]);
		if (e->time > last_time[e->cap])
			last_time[e->cap] = e->time;
	}
}

typedef struct idset {
	uint8_t caps[MAX_IDS];
	uint8_t capsets[MAX_IDS];
} idset;

static void note_ids(idset *s, const tev *e)
{
	evi_ref refs[300];
	size_t n;

	if (e->cap != EV_NO_CAP) {
		assert_true(e->cap < MAX_IDS);
		s->caps[e->cap] = 1;
	}
	if (is_marker(e))
		return;
	n = evi_payload_refs(e->type, e->payload, e->size, refs, 300);
	for (size_t r = 0; r < n; r++) {
		uint64_t v = evi_ref_load(e->payload, &refs[r]);
		if (refs[r].kind == EV_REF_CAP && !none_value(EV_REF_CAP, v,
							    refs[r].width)) {
			assert_true(v < MAX_IDS);
			s->caps[v] = 1;
		} else if (refs[r].kind == EV_REF_CAPSET) {
			assert_true(v < MAX_IDS);
			s->capsets[v] = 1;
		}
	}
}

/* The caps and capsets each input has in the output are disjoint from
 * every other input's, and are its own shifted by its bases. */
static void check_disjoint(const tplan *p, const tlog *inputs,
			   const tlog *out)
{
	idset got[MAX_INPUTS], want[MAX_INPUTS];

	memset(got, 0, sizeof got);
	memset(want, 0, sizeof want);
	for (size_t k = 0; k < out->n; k++) {
		int who = attribute(p, &out->ev[k]);
		if (who >= 0)
			note_ids(&got[who], &out->ev[k]);
	}
	for (size_t i = 0; i < p->n; i++) {
		idset own = { { 0 }, { 0 } };
		for (size_t k = 0; k < inputs[i].n; k++)
			note_ids(&own, &inputs[i].ev[k]);
		for (size_t v = 0; v < MAX_IDS; v++) {
			uint64_t cb = p->in[i]->ids[EV_REF_CAP].base;
			uint64_t sb = p->in[i]->ids[EV_REF_CAPSET].base;
			if (own.caps[v])
				want[i].caps[v + cb] = 1;
			if (own.capsets[v])
				want[i].capsets[v + sb] = 1;
		}
		assert_memory_equal(&got[i], &want[i], sizeof got[i]);
		for (size_t j = 0; j < i; j++)
			for (size_t v = 0; v < MAX_IDS; v++) {
				assert_false(got[i].caps[v] && got[j].caps[v]);
				assert_false(got[i].capsets[v] &&
					     got[j].capsets[v]);
			}
	}
}

/* ------------------------------------------------------------------------
 * The testdata processes
 * ---------------------------------------------------------------------- */

/* WALL_CLOCK_TIME (43): u32 capset, u64 sec, u32 nsec; the Unix time of
 * the log's time 0 is sec * 1e9 + nsec - the event's time. */
static int64_t clock_origin(const tlog *l)
{
	for (size_t k = 0; k < l->n; k++)
		if (l->ev[k].type == EV_WALL_CLOCK_TIME)
			return (int64_t)ev_load64(l->ev[k].payload + 4) *
				       NS_PER_SEC +
			       ev_load32(l->ev[k].payload + 12) -
			       (int64_t)l->ev[k].time;
	fail_msg("no WALL_CLOCK_TIME");
	return 0;
}

typedef struct fixture {
	uint8_t *data[MAX_INPUTS];
	size_t len[MAX_INPUTS];
	tlog log[MAX_INPUTS];
	tinput in[MAX_INPUTS];
	size_t n;
} fixture;

static void open_fixture(fixture *f, const char *const *names, size_t n)
{
	memset(f, 0, sizeof *f);
	f->n = n;
	for (size_t i = 0; i < n; i++) {
		f->data[i] = testdata(names[i], &f->len[i]);
		load_log(f->data[i], f->len[i], &f->log[i]);
		f->in[i] = (tinput){ names[i], f->data[i], f->len[i] };
	}
}

static void close_fixture(fixture *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->data[i]);
		free_log(&f->log[i]);
	}
}

/* Merges the fixture's inputs by wall clock and checks everything: the
 * shifts against the inputs' own WALL_CLOCK_TIMEs, the structure, the id
 * sets and the inverse mapping. */
static void merge_and_check(const char *const *names, size_t n)
{
	fixture f;
	ev_merge *m;
	tlog out;
	tplan p;
	uint8_t *bytes;
	size_t len, total = 0;
	int64_t origin[MAX_INPUTS], earliest = INT64_MAX;

	open_fixture(&f, names, n);
	m = new_merge(NULL, f.in, n);
	bytes = write_merge(m, &len);
	load_log(bytes, len, &out);
	make_plan(&p, m, f.log, n);
	for (size_t i = 0; i < n; i++) {
		origin[i] = clock_origin(&f.log[i]);
		if (origin[i] < earliest)
			earliest = origin[i];
		total += count_events(&f.log[i]);
		assert_false(p.in[i]->truncated);
		assert_int_equal(p.in[i]->synthesised, 0);
	}
	for (size_t i = 0; i < n; i++)
		p.shift[i] = origin[i] - earliest; /* the test's own shifts */
	check_inverse(&p, f.log, &out);
	check_disjoint(&p, f.log, &out);
	check_blocks(&out);
	assert_int_equal(count_events(&out), total);
	assert_int_equal(ev_merge_events_written(m), total);
	ev_merge_free(m);
	free(bytes);
	free_log(&out);
	close_fixture(&f);
}

static void test_merge_two_processes(void **state)
{
	static const char *const names[] = { "merge-a.eventlog",
					     "merge-b.eventlog" };
	(void)state;
	merge_and_check(names, 2);
}

static void test_merge_three_processes(void **state)
{
	static const char *const names[] = { "merge-a.eventlog",
					     "merge-b.eventlog",
					     "merge-c.eventlog" };
	(void)state;
	merge_and_check(names, 3);
}

/* ------------------------------------------------------------------------
 * The merged inputs as a source (ev_merge_visit)
 * ---------------------------------------------------------------------- */

/* What a visit hands over, as a tlog, and how the protocol went. */
typedef struct visited {
	tlog log;
	unsigned begins, ends, finishes;
	int finish_status;
	size_t stop_at; /* not 0: EV_EIO at that event */
	const ev_header *header;
} visited;

static int visit_begin(void *self, const ev_session *s)
{
	unsigned session = s->index;
	const ev_header *h = s->header;
	visited *v = self;

	assert_int_equal(session, 0);
	v->begins++;
	v->header = h;
	return EV_OK;
}

static int visit_event(void *self, const ev_event *ev)
{
	visited *v = self;

	push_event(&v->log, ev);
	return v->log.n == v->stop_at ? EV_EIO : EV_OK;
}

static int visit_end(void *self, const ev_session *s)
{
	unsigned session = s->index;
	visited *v = self;

	assert_int_equal(session, 0);
	v->ends++;
	return EV_OK;
}

static int visit_finish(void *self, int status)
{
	visited *v = self;

	v->finishes++;
	v->finish_status = status;
	return status;
}

static const ev_consumer visit_all = { visit_begin, visit_event, visit_end,
				       visit_finish, EV_CONSUME_MARKERS };

/* Every event of the merged log, markers included, exactly as a reader of
 * ev_merge_run's output sees them; stats of the merged timeline equal
 * those of the written log; a consumer that stops ends the visit with
 * its status (the pass's thread ends too). */
static void test_merge_visit(void **state)
{
	static const char *const names[] = { "merge-a.eventlog",
					     "merge-b.eventlog",
					     "merge-c.eventlog" };
	fixture f;
	ev_merge *m;
	tlog written;
	visited v;
	uint8_t *bytes;
	size_t len;
	ev_stats *want, *got;
	ev_reader *r;

	(void)state;
	open_fixture(&f, names, 3);
	m = new_merge(NULL, f.in, 3);
	bytes = write_merge(m, &len);
	ev_merge_free(m);
	load_log(bytes, len, &written);

	memset(&v, 0, sizeof v);
	m = new_merge(NULL, f.in, 3);
	if (ev_merge_visit(m, &visit_all, &v) != EV_OK)
		fail_msg("visit: %s", ev_merge_diag(m)->message);
	assert_int_equal(v.begins, 1);
	assert_int_equal(v.ends, 1);
	assert_int_equal(v.finishes, 1);
	assert_int_equal(v.finish_status, EV_OK);
	assert_int_equal(v.log.n, written.n);
	for (size_t i = 0; i < written.n; i++) {
		assert_int_equal(v.log.ev[i].type, written.ev[i].type);
		assert_int_equal(v.log.ev[i].cap, written.ev[i].cap);
		assert_true(v.log.ev[i].time == written.ev[i].time);
		assert_int_equal(v.log.ev[i].size, written.ev[i].size);
		assert_memory_equal(v.log.ev[i].payload, written.ev[i].payload,
				    written.ev[i].size);
	}
	assert_int_equal(ev_merge_events_written(m),
			 count_events(&written));
	/* Once: the pass is spent. */
	assert_int_equal(ev_merge_visit(m, &visit_all, &v), EV_EINVAL);
	ev_merge_free(m);
	free_log(&v.log);

	assert_int_equal(ev_stats_new(&want, NULL), EV_OK);
	assert_int_equal(ev_reader_open_memory(&r, bytes, len, "merged", 0,
					       NULL),
			 EV_OK);
	assert_int_equal(ev_reader_feed(r, ev_stats_consumer(), want), EV_END);
	ev_reader_free(r);
	assert_int_equal(ev_stats_new(&got, NULL), EV_OK);
	m = new_merge(NULL, f.in, 3);
	assert_int_equal(ev_merge_visit(m, ev_stats_consumer(), got), EV_OK);
	ev_merge_free(m);
	assert_int_equal(ev_stats_process_count(got), 3);
	assert_int_equal(ev_stats_process_count(got),
			 ev_stats_process_count(want));
	for (size_t i = 0; i < ev_stats_process_count(want); i++) {
		const ev_stats_process *a = ev_stats_process_at(want, i);
		const ev_stats_process *b = ev_stats_process_at(got, i);

		assert_int_equal(b->capset, a->capset);
		assert_int_equal(b->caps, a->caps);
		assert_true(b->allocated_bytes == a->allocated_bytes &&
			    a->allocated_bytes > 0);
		assert_true(b->max_live_bytes == a->max_live_bytes);
		assert_true(b->collections == a->collections);
	}
	ev_stats_free(want);
	ev_stats_free(got);

	memset(&v, 0, sizeof v);
	v.stop_at = 10;
	m = new_merge(NULL, f.in, 3);
	assert_int_equal(ev_merge_visit(m, &visit_all, &v), EV_EIO);
	assert_int_equal(v.log.n, 10);
	assert_int_equal(v.finish_status, EV_EIO);
	assert_int_equal(ev_merge_diag(m)->origin, EV_ORIGIN_OUTPUT);
	ev_merge_free(m);
	free_log(&v.log);

	free(bytes);
	free_log(&written);
	close_fixture(&f);
}

/* The inputs in another order get other ids, and still map back. */
static void test_merge_order_of_inputs(void **state)
{
	static const char *const names[] = { "merge-c.eventlog",
					     "merge-a.eventlog",
					     "merge-b.eventlog" };
	(void)state;
	merge_and_check(names, 3);
}

/* Renumbering follows input order: caps of input i start after input
 * i-1's highest, capsets likewise, threads after its largest id. */
static void test_merge_bases(void **state)
{
	static const char *const names[] = { "merge-a.eventlog",
					     "merge-b.eventlog",
					     "merge-c.eventlog" };
	fixture f;
	ev_merge *m;
	const ev_merge_input *a, *b, *c;

	(void)state;
	open_fixture(&f, names, 3);
	m = new_merge(NULL, f.in, 3);
	assert_int_equal(ev_merge_plan(m), EV_OK);
	a = ev_merge_input_at(m, 0);
	b = ev_merge_input_at(m, 1);
	c = ev_merge_input_at(m, 2);
	/* -N1, -N2, -N3: caps 0 | 1-2 | 3-5 */
	assert_int_equal(a->ids[EV_REF_CAP].base, 0);
	assert_int_equal(a->ids[EV_REF_CAP].max, 0);
	assert_int_equal(b->ids[EV_REF_CAP].base, 1);
	assert_int_equal(b->ids[EV_REF_CAP].max, 1);
	assert_int_equal(c->ids[EV_REF_CAP].base, 3);
	assert_int_equal(c->ids[EV_REF_CAP].max, 2);
	/* capsets 0-1 | 2-3 | 4-5, each its own process and clock */
	assert_int_equal(a->os_capset, 0);
	assert_int_equal(a->clock_capset, 1);
	assert_int_equal(b->os_capset, 2);
	assert_int_equal(b->clock_capset, 3);
	assert_int_equal(c->os_capset, 4);
	assert_int_equal(c->clock_capset, 5);
	/* threads: b's start after a's largest */
	assert_int_equal(b->ids[EV_REF_THREAD].base, a->ids[EV_REF_THREAD].max);
	assert_int_equal(c->ids[EV_REF_THREAD].base,
			 b->ids[EV_REF_THREAD].base + b->ids[EV_REF_THREAD].max);
	assert_int_equal(evi_merge_map(m, 1, EV_REF_THREAD, 1),
			 a->ids[EV_REF_THREAD].max + 1);
	assert_int_equal(evi_merge_map(m, 1, EV_REF_THREAD, 0), 0);
	assert_int_equal(evi_merge_map(m, 2, EV_REF_CAP, 0xffff), 0xffff);
	assert_int_equal(a->events, count_events(&f.log[0]));
	ev_merge_free(m);
	close_fixture(&f);
}

/* ------------------------------------------------------------------------
 * Clock alignment
 * ---------------------------------------------------------------------- */

/* The shifts are the differences of the processes' WALL_CLOCK_TIME
 * origins; b and c started ~50 and ~100 ms after a (testdata/README.md);
 * and every WALL_CLOCK_TIME still gives its true wall-clock time: Unix
 * time - merged time is the same merged origin for all of them. */
static void test_merge_alignment(void **state)
{
	static const char *const names[] = { "merge-c.eventlog",
					     "merge-a.eventlog",
					     "merge-b.eventlog" };
	fixture f;
	ev_merge *m;
	tlog out;
	uint8_t *bytes;
	size_t len, clocks = 0;
	int64_t origin[3], earliest;

	(void)state;
	open_fixture(&f, names, 3);
	for (size_t i = 0; i < 3; i++)
		origin[i] = clock_origin(&f.log[i]);
	earliest = origin[1]; /* a started first */
	assert_true(origin[1] < origin[2] && origin[2] < origin[0]);
	m = new_merge(NULL, f.in, 3);
	bytes = write_merge(m, &len);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(ev_merge_input_at(m, i)->shift,
				 origin[i] - earliest);
	assert_int_equal(ev_merge_input_at(m, 1)->shift, 0);
	assert_in_range(ev_merge_input_at(m, 2)->shift, 40000000, 60000000);
	assert_in_range(ev_merge_input_at(m, 0)->shift, 90000000, 115000000);
	load_log(bytes, len, &out);
	for (size_t k = 0; k < out.n; k++) {
		const tev *e = &out.ev[k];
		if (e->type != EV_WALL_CLOCK_TIME)
			continue;
		assert_int_equal((int64_t)ev_load64(e->payload + 4) * NS_PER_SEC +
					 ev_load32(e->payload + 12) -
					 (int64_t)e->time,
				 earliest);
		clocks++;
	}
	assert_int_equal(clocks, 3);
	ev_merge_free(m);
	free(bytes);
	free_log(&out);
	close_fixture(&f);
}

static int64_t first_time(const tlog *l)
{
	uint64_t t = UINT64_MAX;

	for (size_t k = 0; k < l->n; k++) {
		if (l->ev[k].time < t)
			t = l->ev[k].time;
		if (is_marker(&l->ev[k]) &&
		    ev_load64(l->ev[k].payload + 4) < t)
			t = ev_load64(l->ev[k].payload + 4);
	}
	return (int64_t)t;
}

/* --align start puts each input's first timestamp at 0; none keeps the
 * timestamps; a manual shift moves one input relative to the others. */
static void test_merge_align_modes(void **state)
{
	static const char *const names[] = { "merge-a.eventlog",
					     "merge-b.eventlog" };
	ev_merge_options opts = EV_MERGE_OPTIONS_INIT;
	fixture f;
	ev_merge *m;
	int64_t wall;

	(void)state;
	open_fixture(&f, names, 2);
	wall = clock_origin(&f.log[1]) - clock_origin(&f.log[0]);

	opts.align = EV_MERGE_ALIGN_START;
	m = new_merge(&opts, f.in, 2);
	assert_int_equal(ev_merge_plan(m), EV_OK);
	for (size_t i = 0; i < 2; i++)
		assert_int_equal(ev_merge_input_at(m, i)->shift,
				 -first_time(&f.log[i]));
	ev_merge_free(m);

	opts.align = EV_MERGE_ALIGN_NONE;
	m = new_merge(&opts, f.in, 2);
	assert_int_equal(ev_merge_plan(m), EV_OK);
	assert_int_equal(ev_merge_input_at(m, 0)->shift, 0);
	assert_int_equal(ev_merge_input_at(m, 1)->shift, 0);
	ev_merge_free(m);

	/* +15 ms on b: on top of the wall-clock shift */
	m = new_merge(NULL, f.in, 2);
	assert_int_equal(ev_merge_shift(m, 1, 15000000), EV_OK);
	assert_int_equal(ev_merge_shift(m, 2, 1), EV_EINVAL);
	assert_int_equal(ev_merge_plan(m), EV_OK);
	assert_int_equal(ev_merge_input_at(m, 0)->shift, 0);
	assert_int_equal(ev_merge_input_at(m, 1)->shift, wall + 15000000);
	ev_merge_free(m);

	/* -1 s on a would put it before 0: both move later together */
	m = new_merge(NULL, f.in, 2);
	assert_int_equal(ev_merge_shift(m, 0, -NS_PER_SEC), EV_OK);
	assert_int_equal(ev_merge_plan(m), EV_OK);
	assert_int_equal(ev_merge_input_at(m, 0)->shift + first_time(&f.log[0]),
			 0);
	assert_int_equal(ev_merge_input_at(m, 1)->shift -
				 ev_merge_input_at(m, 0)->shift,
			 wall + NS_PER_SEC);
	ev_merge_free(m);
	close_fixture(&f);
}

/* ------------------------------------------------------------------------
 * A log with itself; GHC versions; flags
 * ---------------------------------------------------------------------- */

/* Two copies of one log become two processes: their own capsets, caps,
 * threads and (all colliding) tasks. */
static void test_merge_with_itself(void **state)
{
	static const char *const names[] = { "merge-a.eventlog",
					     "merge-a.eventlog" };
	fixture f;
	ev_merge *m;
	tlog out;
	tplan p;
	uint8_t *bytes;
	size_t len, processes = 0, pids = 0;
	const ev_merge_input *second;

	(void)state;
	open_fixture(&f, names, 2);
	m = new_merge(NULL, f.in, 2);
	bytes = write_merge(m, &len);
	load_log(bytes, len, &out);
	make_plan(&p, m, f.log, 2);
	second = p.in[1];
	assert_int_equal(second->shift, 0);
	assert_int_equal(second->ids[EV_REF_CAP].base, 1);
	assert_int_equal(second->os_capset, 2);
	assert_int_equal(second->clock_capset, 3);
	assert_true(second->tasks > 0);
	assert_int_equal(second->tasks_renamed, second->tasks);
	assert_int_equal(p.in[0]->tasks_renamed, 0);
	for (size_t k = 0; k < p.n_tasks; k++)
		if (p.tasks[k].input == 1)
			assert_int_equal(p.tasks[k].out >> 48, 1);
	for (size_t k = 0; k < out.n; k++) {
		const tev *e = &out.ev[k];
		if (e->type == EV_CAPSET_CREATE &&
		    ev_load16(e->payload + 4) == 2) {
			assert_int_equal(ev_load32(e->payload),
					 processes ? 2 : 0);
			processes++;
		}
		if (e->type == EV_OSPROCESS_PID) {
			assert_int_equal(ev_load32(e->payload), pids ? 2 : 0);
			pids++;
		}
	}
	assert_int_equal(processes, 2);
	assert_int_equal(pids, 2);
	check_inverse(&p, f.log, &out);
	check_disjoint(&p, f.log, &out);
	check_blocks(&out);
	ev_merge_free(m);
	free(bytes);
	free_log(&out);
	close_fixture(&f);
}

/* A heap sample (HEAP_PROF_SAMPLE_BEGIN 162 ... END 165) is one unit of
 * one process: in the merged log, the sample events between a begin and
 * its end (HEAP_PROF_SAMPLE_STRING 164, with its renumbered heap profile
 * id) all belong to one input, and no begin comes inside a sample. Two
 * real runs whose samples overlap in time once aligned (heap-a and heap-b,
 * kept by testdata/generate.sh for that), and a log merged with itself
 * (every sample overlaps its copy). The merge moves the events that fell
 * inside the other's sample past it and says so (check_inverse). */
/* Returns the number of heap samples in the merged log `out`, checking
 * that each is whole: no sample begins inside another (when the log has
 * HEAP_PROF_SAMPLE_END, GHC >= 8.4; before, a sample is its begin and the
 * sample events after it), and the events inside one that name their
 * process (HEAP_PROF_SAMPLE_STRING and _COST_CENTRE, by heap profile id)
 * all belong to one input. */
static size_t check_heap_samples(const tplan *p, const tlog *out)
{
	size_t samples = 0;
	int open = 0, owner = -1;
	int has_end = count_type(out, EV_HEAP_PROF_SAMPLE_END) > 0;

	for (size_t k = 0; k < out->n; k++) {
		const tev *e = &out->ev[k];
		if (e->type == EV_HEAP_PROF_SAMPLE_BEGIN ||
		    e->type == EV_HEAP_BIO_PROF_SAMPLE_BEGIN) {
			assert_false(open && has_end);
			open = 1;
			owner = -1;
			samples++;
		} else if (e->type == EV_HEAP_PROF_SAMPLE_END) {
			assert_true(open);
			open = 0;
		} else if (e->type == EV_HEAP_PROF_SAMPLE_STRING ||
			   e->type == EV_HEAP_PROF_SAMPLE_COST_CENTRE) {
			int who = attribute(p, e);
			assert_true(open && who >= 0);
			if (owner < 0)
				owner = who;
			assert_int_equal(who, owner);
		} else if (!has_end) {
			open = 0;
		}
	}
	assert_false(open && has_end);
	return samples;
}

static void check_samples_whole(const char *a, const char *b)
{
	const char *names[] = { a, b };
	fixture f;
	ev_merge *m;
	tlog out;
	tplan p;
	uint8_t *bytes;
	size_t len;

	open_fixture(&f, names, 2);
	m = new_merge(NULL, f.in, 2);
	bytes = write_merge(m, &len);
	load_log(bytes, len, &out);
	make_plan(&p, m, f.log, 2);
	assert_true(check_heap_samples(&p, &out) > 0);
	assert_true(p.in[0]->restamped + p.in[1]->restamped > 0);
	only_identified = 1; /* 162 and 165 name no process */
	check_inverse(&p, f.log, &out);
	only_identified = 0;
	check_blocks(&out);
	ev_merge_free(m);
	free(bytes);
	free_log(&out);
	close_fixture(&f);
}

static void test_merge_heap_samples_whole(void **state)
{
	(void)state;
	check_samples_whole("heap-a.eventlog", "heap-b.eventlog");
	check_samples_whole("heap-n1.eventlog", "heap-n1.eventlog");
}

/* STOP_THREAD: tid u32, status u16, info u32, where info is the owner of
 * the black hole the thread blocked on when status = 8 (doc/format.md
 * sections 5 and 6). Merging sparks-n2 with itself, the second copy's
 * owner is renumbered like its thread ids; owner 0 (none) stays 0. */
static void test_merge_blocked_on_thread(void **state)
{
	static const char *const names[] = { "sparks-n2.eventlog",
					     "sparks-n2.eventlog" };
	struct { uint32_t tid, owner; } want[8], got[2][8];
	size_t n_want = 0, n_got[2] = { 0, 0 };
	uint64_t base;
	fixture f;
	ev_merge *m;
	tlog out;
	uint8_t *bytes;
	size_t len;
	int nonzero_owner = 0;

	(void)state;
	open_fixture(&f, names, 2);
	for (size_t k = 0; k < f.log[0].n; k++) {
		const tev *e = &f.log[0].ev[k];
		if (e->type != EV_STOP_THREAD || e->size < 10 ||
		    ev_load16(e->payload + 4) != 8)
			continue;
		assert_true(n_want < 8);
		want[n_want].tid = ev_load32(e->payload);
		want[n_want].owner = ev_load32(e->payload + 6);
		nonzero_owner |= want[n_want].owner != 0;
		n_want++;
	}
	assert_true(n_want > 0);
	assert_true(nonzero_owner);

	m = new_merge(NULL, f.in, 2);
	bytes = write_merge(m, &len);
	load_log(bytes, len, &out);
	base = ev_merge_input_at(m, 1)->ids[EV_REF_THREAD].base;
	assert_int_equal(ev_merge_input_at(m, 1)->ids[EV_REF_CAP].base, 2);
	assert_true(base >= want[0].tid);
	for (size_t k = 0; k < out.n; k++) {
		const tev *e = &out.ev[k];
		size_t who;
		if (e->type != EV_STOP_THREAD || ev_load16(e->payload + 4) != 8)
			continue;
		/* input 0 has caps 0 and 1, input 1 caps 2 and 3 */
		who = e->cap >= 2;
		assert_true(n_got[who] < 8);
		got[who][n_got[who]].tid = ev_load32(e->payload);
		got[who][n_got[who]].owner = ev_load32(e->payload + 6);
		n_got[who]++;
	}
	assert_int_equal(n_got[0], n_want);
	assert_int_equal(n_got[1], n_want);
	for (size_t k = 0; k < n_want; k++) {
		assert_int_equal(got[0][k].tid, want[k].tid);
		assert_int_equal(got[0][k].owner, want[k].owner);
		assert_int_equal(got[1][k].tid, want[k].tid + base);
		assert_int_equal(got[1][k].owner,
				 want[k].owner ? want[k].owner + base : 0);
	}
	ev_merge_free(m);
	free(bytes);
	free_log(&out);
	close_fixture(&f);
}

/* --no-renumber copies ids: only times move. */
static void test_merge_no_renumber(void **state)
{
	static const char *const names[] = { "merge-a.eventlog",
					     "merge-b.eventlog" };
	ev_merge_options opts = EV_MERGE_OPTIONS_INIT;
	fixture f;
	ev_merge *m;
	tlog out;
	tplan p;
	uint8_t *bytes;
	size_t len, creates = 0;

	(void)state;
	opts.flags = EV_MERGE_NO_RENUMBER;
	open_fixture(&f, names, 2);
	m = new_merge(&opts, f.in, 2);
	bytes = write_merge(m, &len);
	load_log(bytes, len, &out);
	make_plan(&p, m, f.log, 2);
	assert_int_equal(evi_merge_map(m, 1, EV_REF_CAP, 1), 1);
	assert_int_equal(evi_merge_map(m, 1, EV_REF_THREAD, 5), 5);
	assert_int_equal(p.in[1]->os_capset, 0);
	for (size_t k = 0; k < out.n; k++)
		if (out.ev[k].type == EV_CAPSET_CREATE)
			assert_true(ev_load32(out.ev[k].payload) < 2 &&
				    ++creates <= 4);
	assert_int_equal(count_events(&out),
			 count_events(&f.log[0]) + count_events(&f.log[1]));
	ev_merge_free(m);
	free(bytes);
	free_log(&out);
	close_fixture(&f);
}

static uint8_t *corpus(const char *name, size_t *len)
{
	return ts_load(EVTOOL_CORPUS, name, len);
}

/* Payload bytes of the first event of `type` in `l`, or NULL. */
static const tev *first_of(const tlog *l, uint16_t type)
{
	for (size_t k = 0; k < l->n; k++)
		if (l->ev[k].type == type)
			return &l->ev[k];
	return NULL;
}

/* GHC 8.2's GC_STATS_GHC is 50 bytes, 8.4's and later 58: an error that
 * names the type and both sizes, unless widened, in either order. */
static void test_merge_size_conflict(void **state)
{
	uint8_t *old_log, *new_log, *bytes;
	size_t old_len, new_len, len;
	ev_merge_options widen = EV_MERGE_OPTIONS_INIT;
	const ev_type_decl *t;
	tlog out, old_in;
	ev_merge *m;

	(void)state;
	old_log = corpus("hello-ghc-8.2.2.eventlog", &old_len);
	new_log = corpus("hello-ghc-8.6.5.eventlog", &new_len);
	if (!old_log || !new_log) {
		free(old_log);
		free(new_log);
		skip();
	}
	for (int order = 0; order < 2; order++) {
		tinput in[2] = {
			{ "hello-ghc-8.2.2.eventlog", old_log, old_len },
			{ "hello-ghc-8.6.5.eventlog", new_log, new_len },
		};
		const char *msg;
		if (order) {
			tinput t0 = in[0];
			in[0] = in[1];
			in[1] = t0;
		}
		m = new_merge(NULL, in, 2);
		assert_int_equal(ev_merge_plan(m), EV_EINVAL);
		assert_int_equal(ev_merge_diag(m)->reason,
				 EV_REASON_SIZE_DIFFERS);
		assert_int_equal(ev_merge_diag(m)->origin, EV_ORIGIN_OPTIONS);
		msg = ev_merge_diag(m)->message;
		assert_non_null(strstr(msg, "53 (GC_STATS_GHC)"));
		assert_non_null(strstr(msg, order ? "58-byte payloads in "
						    "hello-ghc-8.6.5"
						  : "50-byte payloads in "
						    "hello-ghc-8.2.2"));
		assert_non_null(strstr(msg, order ? "50-byte payloads in "
						    "hello-ghc-8.2.2"
						  : "58-byte payloads in "
						    "hello-ghc-8.6.5"));
		ev_merge_free(m);

		widen.flags = EV_MERGE_WIDEN;
		widen.align = EV_MERGE_ALIGN_WALL_CLOCK;
		m = new_merge(&widen, in, 2);
		bytes = write_merge(m, &len);
		t = ev_header_find(ev_merge_header(m), EV_GC_STATS_GHC);
		assert_non_null(t);
		assert_int_equal(t->size, 58);
		/* the old input is the one widened, in GC_STATS_GHC only */
		assert_int_equal(ev_merge_input_at(m, order)->n_widened, 1);
		assert_int_equal(ev_merge_input_at(m, order)->widened[0],
				 EV_GC_STATS_GHC);
		assert_int_equal(ev_merge_input_at(m, !order)->n_widened, 0);
		load_log(bytes, len, &out);
		load_log(old_log, old_len, &old_in);
		/* 8.2.2's events: their 50 bytes (capset renumbered when it
		 * is the second input), then 8 zero bytes */
		size_t seen = 0;
		for (size_t k = 0; k < out.n; k++) {
			const tev *e = &out.ev[k];
			const tev *o = first_of(&old_in, EV_GC_STATS_GHC);
			uint32_t old_capset =
				ev_merge_input_at(m, order)->os_capset;
			static const uint8_t zeros[8];
			if (e->type != EV_GC_STATS_GHC ||
			    ev_load32(e->payload) != old_capset || seen++)
				continue;
			assert_int_equal(e->size, 58);
			assert_memory_equal(e->payload + 4, o->payload + 4, 46);
			assert_memory_equal(e->payload + 50, zeros, 8);
		}
		assert_int_equal(seen, 1); /* 8.2.2's one GC_STATS_GHC */
		assert_int_equal(count_events(&out), 45 + 45);
		free_log(&old_in);
		free_log(&out);
		free(bytes);
		ev_merge_free(m);
	}
	free(old_log);
	free(new_log);
}

/* The offset of the declared size (i16) of event type `id` in the header
 * of `data`: "etb\0", u16 id, i16 size (doc/format.md section 1). */
static size_t decl_size_at(const uint8_t *data, size_t len, uint16_t id)
{
	for (size_t k = 8; k + 8 <= len; k++)
		if (ev_load32(data + k) == 0x65746200u &&
		    ev_load16(data + k + 4) == id)
			return k + 6;
	fail_msg("type %u is not declared", id);
	return 0;
}

/* nonmoving-n2 (GHC 9.0.2, 13-byte NONMOVING_HEAP_CENSUS: log2 u8, three
 * u32) rewritten as GHC 9.10 writes it: declared 14 bytes, each event
 * `blk size u16` = 1 << log2 then the three u32 (doc/format.md section 5),
 * and every block marker's size grown by the bytes its census events
 * gained. The caller frees the result. */
static uint8_t *census_as_ghc_910(const uint8_t *data, size_t len,
				  size_t *out_len)
{
	ev_reader *r;
	ev_event e;
	uint64_t census[256], markers[64];
	size_t n_census = 0, n_markers = 0, o = 0, c = 0, b = 0;
	uint8_t *out;

	assert_int_equal(ev_reader_open_memory(&r, data, len, "in", 0,
					       NULL), EV_OK);
	while (ev_reader_next(r, &e) == EV_OK) {
		if (e.type == EV_NONMOVING_HEAP_CENSUS) {
			assert_int_equal(e.size, 13);
			assert_true(n_census < 256);
			census[n_census++] = e.offset;
		} else if (e.type == EV_BLOCK_MARKER) {
			assert_true(n_markers < 64);
			markers[n_markers++] = e.offset;
		}
	}
	ev_reader_free(r);
	assert_true(n_census > 0);
	out = malloc(len + n_census);
	assert_non_null(out);
	for (size_t k = 0; k < len;) {
		if (b < n_markers && k == markers[b]) {
			/* u16 type, u64 time, u32 size, ... */
			uint32_t size = ev_load32(data + k + 10);
			uint32_t grow = 0;
			for (size_t j = 0; j < n_census; j++)
				grow += census[j] >= k && census[j] < k + size;
			memcpy(out + o, data + k, 24);
			ev_store32(out + o + 10, size + grow);
			o += 24;
			k += 24;
			b++;
		} else if (c < n_census && k == census[c]) {
			memcpy(out + o, data + k, 10);
			ev_store16(out + o + 10, (uint16_t)(1u << data[k + 10]));
			memcpy(out + o + 12, data + k + 11, 12);
			o += 24;
			k += 23;
			c++;
		} else {
			out[o++] = data[k++];
		}
	}
	assert_int_equal(o, len + n_census);
	ev_store16(out + decl_size_at(out, o, EV_NONMOVING_HEAP_CENSUS), 14);
	*out_len = o;
	return out;
}

static uint64_t field_of(const tev *t, const char *name)
{
	ev_event e = { .type = t->type, .cap = t->cap, .size = t->size,
		       .time = t->time, .payload = t->payload };
	ev_decoded d;
	const ev_value *v;

	assert_int_equal(ev_decode(&e, &d), 1);
	v = ev_decoded_field(&d, name);
	if (!v)
		fail_msg("type %u (%u bytes) has no field %s", t->type,
			 t->size, name);
	return v->num;
}

/* NONMOVING_HEAP_CENSUS's 13-byte form starts with log2 u8, its 14-byte
 * form with blk size u16: --widen converts rather than zero-filling, so
 * the decoded census of both inputs survives. */
static void test_merge_widen_census(void **state)
{
	static const char *const fields[] = { "active_segments",
					      "filled_segments",
					      "live_blocks" };
	ev_merge_options widen = EV_MERGE_OPTIONS_INIT;
	uint8_t *old_log, *new_log, *bytes;
	size_t old_len, new_len, len, seen = 0;
	tlog old_in, new_in, out;
	ev_merge *m;
	const char *msg;

	(void)state;
	old_log = testdata("nonmoving-n2.eventlog", &old_len);
	new_log = census_as_ghc_910(old_log, old_len, &new_len);
	load_log(old_log, old_len, &old_in);
	load_log(new_log, new_len, &new_in);
	/* the rewritten input reads as a 14-byte census with the same
	 * values, and nothing else changed */
	assert_int_equal(new_in.n, old_in.n);
	assert_true(new_in.complete);
	for (size_t k = 0; k < old_in.n; k++) {
		const tev *o = &old_in.ev[k], *n = &new_in.ev[k];
		assert_int_equal(n->type, o->type);
		assert_int_equal(n->cap, o->cap);
		if (o->type != EV_NONMOVING_HEAP_CENSUS)
			continue;
		assert_int_equal(n->size, 14);
		assert_int_equal(field_of(n, "block_size"),
				 1u << field_of(o, "log2_block_size"));
	}

	tinput in[2] = { { "nonmoving-9.0", old_log, old_len },
			 { "nonmoving-9.10", new_log, new_len } };
	m = new_merge(NULL, in, 2);
	assert_int_equal(ev_merge_plan(m), EV_EINVAL);
	assert_int_equal(ev_merge_diag(m)->reason, EV_REASON_SIZE_DIFFERS);
	msg = ev_merge_diag(m)->message;
	assert_non_null(strstr(msg, "207 (NONMOVING_HEAP_CENSUS)"));
	assert_non_null(strstr(msg, "13-byte payloads in nonmoving-9.0"));
	assert_non_null(strstr(msg, "14-byte payloads in nonmoving-9.10"));
	ev_merge_free(m);

	widen.flags = EV_MERGE_WIDEN;
	m = new_merge(&widen, in, 2);
	bytes = write_merge(m, &len);
	assert_int_equal(ev_header_find(ev_merge_header(m),
					EV_NONMOVING_HEAP_CENSUS)->size, 14);
	/* the 9.0 input is the one widened, in the census only */
	assert_int_equal(ev_merge_input_at(m, 0)->n_widened, 1);
	assert_int_equal(ev_merge_input_at(m, 0)->widened[0],
			 EV_NONMOVING_HEAP_CENSUS);
	assert_int_equal(ev_merge_input_at(m, 1)->n_widened, 0);
	load_log(bytes, len, &out);
	/* Both inputs are one process at one wall clock: their census
	 * events tie and come in input order, each a 14-byte census with
	 * the original's values. */
	for (size_t k = 0, j = 0; k < out.n; k++) {
		const tev *e = &out.ev[k], *o;
		if (e->type != EV_NONMOVING_HEAP_CENSUS)
			continue;
		while (old_in.ev[j].type != EV_NONMOVING_HEAP_CENSUS)
			j++;
		o = &old_in.ev[j];
		assert_int_equal(e->size, 14);
		assert_int_equal(field_of(e, "block_size"),
				 1u << field_of(o, "log2_block_size"));
		for (size_t f = 0; f < 3; f++)
			assert_int_equal(field_of(e, fields[f]),
					 field_of(o, fields[f]));
		if (seen++ % 2)
			j++;
	}
	assert_int_equal(seen, 2 * 84);
	free_log(&out);
	free(bytes);
	ev_merge_free(m);

	/* A type with no safe conversion is refused even with --widen:
	 * THREAD_RUNNABLE (3) re-declared with 6 bytes (never emitted). */
	ev_store16(new_log + decl_size_at(new_log, new_len, 3), 6);
	m = new_merge(&widen, in, 2);
	assert_int_equal(ev_merge_plan(m), EV_EINVAL);
	assert_int_equal(ev_merge_diag(m)->reason, EV_REASON_NO_CONVERSION);
	assert_int_equal(ev_merge_diag(m)->origin, EV_ORIGIN_OPTIONS);
	msg = ev_merge_diag(m)->message;
	assert_non_null(strstr(msg, "3 (THREAD_RUNNABLE) has 4-byte payloads "
				    "in nonmoving-9.0 but 6-byte payloads in "
				    "nonmoving-9.10"));
	assert_non_null(strstr(msg, "no safe conversion"));
	ev_merge_free(m);

	free_log(&old_in);
	free_log(&new_in);
	free(old_log);
	free(new_log);
}

/* ------------------------------------------------------------------------
 * Damaged, compressed and restarted inputs
 * ---------------------------------------------------------------------- */

/* Offset of the k-th event of `type` (doc/format.md: the reader's offsets). */
static uint64_t offset_of(const uint8_t *data, size_t len, uint16_t type,
			  int after)
{
	ev_reader *r;
	ev_event e;
	uint64_t at = 0;
	int found = 0;

	assert_int_equal(ev_reader_open_memory(&r, data, len, "log", 0,
					       NULL), EV_OK);
	while (ev_reader_next(r, &e) == EV_OK) {
		if (found) {
			at = e.offset;
			break;
		}
		if (e.type == type &&
		    (type != EV_BLOCK_MARKER || e.cap == EV_NO_CAP)) {
			at = e.offset;
			if (!after)
				break;
			found = 1;
		}
	}
	ev_reader_free(r);
	assert_true(at > 0);
	return at;
}

/* An input that cannot be read fails the merge as that input, with the
 * reader's reason: merge-b with bytes after its data end, and the killed
 * run's gzip log with a bad compression method byte (RFC 1952: CM must
 * be 8), each second after merge-a. */
static void test_merge_input_reason(void **state)
{
	uint8_t *a_log, *b_log, *gz, *more;
	size_t a_len, b_len, gz_len;
	ev_merge_options opts = EV_MERGE_OPTIONS_INIT;
	ev_merge *m;

	(void)state;
	a_log = testdata("merge-a.eventlog", &a_len);
	b_log = testdata("merge-b.eventlog", &b_len);
	gz = testdata("killed-blocks.eventlog.gz", &gz_len);
	more = malloc(b_len + 8);
	assert_non_null(more);
	memcpy(more, b_log, b_len);
	memcpy(more + b_len, "garbage!", 8);
	gz[2] = 9;
	opts.align = EV_MERGE_ALIGN_START;
	{
		tinput in[2] = { { "merge-a.eventlog", a_log, a_len },
				 { "merge-b+garbage", more, b_len + 8 } };
		m = new_merge(&opts, in, 2);
		assert_int_equal(ev_merge_plan(m), EV_EFORMAT);
		assert_int_equal(ev_merge_diag(m)->origin, EV_ORIGIN_INPUT);
		assert_int_equal(ev_merge_diag(m)->input, 1);
		assert_int_equal(ev_merge_diag(m)->reason,
				 EV_REASON_TRAILING_DATA);
		assert_int_equal(ev_merge_diag(m)->offset, b_len);
		ev_merge_free(m);
	}
	{
		tinput in[2] = { { "merge-a.eventlog", a_log, a_len },
				 { "killed-blocks-bad-cm", gz, gz_len } };
		m = new_merge(&opts, in, 2);
		assert_int_equal(ev_merge_plan(m), EV_EFORMAT);
		assert_int_equal(ev_merge_diag(m)->origin, EV_ORIGIN_INPUT);
		assert_int_equal(ev_merge_diag(m)->input, 1);
		assert_int_equal(ev_merge_diag(m)->reason,
				 EV_REASON_COMPRESSION);
		ev_merge_free(m);
	}
	free(more);
	free(gz);
	free(b_log);
	free(a_log);
}

/* An empty input, or one cut inside its first header, is no process: an
 * error naming the input, with the reader's message, in either position. */
static void test_merge_header_cut_input(void **state)
{
	static const size_t cuts[] = { 0, 100 };
	uint8_t *a_log;
	size_t a_len;

	(void)state;
	a_log = testdata("merge-a.eventlog", &a_len);
	for (size_t k = 0; k < 2; k++)
		for (int second = 0; second < 2; second++) {
			ev_merge_options opts = EV_MERGE_OPTIONS_INIT;
			tinput in[2] = {
				{ "merge-a.eventlog", a_log, a_len },
				{ "cut.eventlog", a_log, cuts[k] },
			};
			char want[96];
			ev_merge *m;

			if (!second) {
				tinput t0 = in[0];
				in[0] = in[1];
				in[1] = t0;
			}
			opts.align = EV_MERGE_ALIGN_START;
			m = new_merge(&opts, in, 2);
			assert_int_equal(ev_merge_plan(m), EV_EFORMAT);
			assert_int_equal(ev_merge_diag(m)->origin,
					 EV_ORIGIN_INPUT);
			/* No byte at all: the reader's reason, kept. */
			assert_int_equal(ev_merge_diag(m)->reason,
					 cuts[k] == 0 ? EV_REASON_EMPTY_INPUT
						      : EV_REASON_NONE);
			if (cuts[k] == 0)
				snprintf(want, sizeof want, "cut.eventlog: "
					 "offset 0: the file is empty");
			else
				snprintf(want, sizeof want, "cut.eventlog: "
					 "offset 0: the input ends inside the "
					 "header (%zu bytes", cuts[k]);
			assert_non_null(strstr(ev_merge_diag(m)->message,
					       want));
			assert_int_equal(ev_merge_diag(m)->status, EV_EFORMAT);
			/* The one failure shape: which input, from 0. */
			assert_int_equal(ev_merge_diag(m)->origin,
					 EV_ORIGIN_INPUT);
			assert_int_equal(ev_merge_diag(m)->input, second);
			ev_merge_free(m);
		}
	free(a_log);
}

/* A log cut in the middle of an event (after its WALL_CLOCK_TIME) is
 * merged up to its last complete event and reported as truncated. */
static void test_merge_truncated_input(void **state)
{
	static const char *const names[] = { "merge-a.eventlog",
					     "merge-b.eventlog" };
	fixture f;
	ev_merge *m;
	tlog out;
	tplan p;
	uint8_t *bytes;
	size_t len, cut;

	(void)state;
	open_fixture(&f, names, 2);
	cut = (size_t)offset_of(f.data[1], f.len[1], EV_WALL_CLOCK_TIME, 1) + 3;
	f.len[1] = cut;
	free_log(&f.log[1]);
	load_log(f.data[1], cut, &f.log[1]);
	assert_false(f.log[1].complete);
	f.in[1].len = cut;
	m = new_merge(NULL, f.in, 2);
	bytes = write_merge(m, &len);
	load_log(bytes, len, &out);
	make_plan(&p, m, f.log, 2);
	assert_false(p.in[0]->truncated);
	assert_true(p.in[1]->truncated);
	assert_int_equal(p.in[1]->truncation.offset, cut - 3);
	assert_non_null(strstr(p.in[1]->truncation.message, "ends inside"));
	assert_int_equal(p.in[1]->events, count_events(&f.log[1]));
	p.shift[1] = clock_origin(&f.log[1]) - clock_origin(&f.log[0]);
	check_inverse(&p, f.log, &out);
	check_blocks(&out);
	ev_merge_free(m);
	free(bytes);
	free_log(&out);
	close_fixture(&f);
}

/* A log cut before its global block (a killed GHC 9.0 program) has no
 * wall clock: an error under the default that names it; aligned by
 * start, its missing creation events are synthesised. */
static void test_merge_missing_wall_clock(void **state)
{
	static const char *const names[] = { "merge-a.eventlog",
					     "merge-b.eventlog" };
	ev_merge_options opts = EV_MERGE_OPTIONS_INIT;
	fixture f;
	ev_merge *m;
	tlog out;
	uint8_t *bytes;
	size_t len, cut, got = 0;
	const ev_merge_input *b;
	/* synthesised in GHC's order: 2 capsets; per cap, CAP_CREATE and
	 * its assignment to each capset (caps 1-2, capsets 2-3) */
	static const struct {
		uint16_t type;
		uint32_t a;
		uint32_t b;
	} want[] = {
		{ EV_CAPSET_CREATE, 2, 2 }, { EV_CAPSET_CREATE, 3, 3 },
		{ EV_CAP_CREATE, 1, 0 },    { EV_CAPSET_ASSIGN_CAP, 2, 1 },
		{ EV_CAPSET_ASSIGN_CAP, 3, 1 }, { EV_CAP_CREATE, 2, 0 },
		{ EV_CAPSET_ASSIGN_CAP, 2, 2 }, { EV_CAPSET_ASSIGN_CAP, 3, 2 },
	};

	(void)state;
	open_fixture(&f, names, 2);
	cut = (size_t)offset_of(f.data[1], f.len[1], EV_BLOCK_MARKER, 0) + 5;
	f.in[1].len = cut;
	f.in[1].name = "merge-b-killed";
	m = new_merge(NULL, f.in, 2);
	assert_int_equal(ev_merge_plan(m), EV_EINVAL);
	assert_int_equal(ev_merge_diag(m)->reason, EV_REASON_NO_WALL_CLOCK);
	assert_non_null(strstr(ev_merge_diag(m)->message,
			       "merge-b-killed: no WALL_CLOCK_TIME"));
	assert_int_equal(ev_merge_diag(m)->origin, EV_ORIGIN_OPTIONS);
	ev_merge_free(m);

	opts.align = EV_MERGE_ALIGN_START;
	m = new_merge(&opts, f.in, 2);
	bytes = write_merge(m, &len);
	b = ev_merge_input_at(m, 1);
	assert_true(b->truncated);
	assert_int_equal(b->synthesised,
			 EV_MERGE_SYNTH_OS_CAPSET | EV_MERGE_SYNTH_CLOCK_CAPSET |
				 EV_MERGE_SYNTH_CAP_CREATE |
				 EV_MERGE_SYNTH_CAP_ASSIGN);
	assert_int_equal(b->synthesised_events, 8);
	assert_int_equal(b->os_capset, 2);
	assert_int_equal(b->clock_capset, 3);
	assert_int_equal(ev_merge_input_at(m, 0)->synthesised, 0);
	load_log(bytes, len, &out);
	check_blocks(&out);
	for (size_t k = 0; k < out.n; k++) {
		const tev *e = &out.ev[k];
		uint32_t x;
		if (e->time != 0 || e->cap != EV_NO_CAP || is_marker(e))
			continue; /* b's synthesised events are at time 0 */
		assert_true(got < 8);
		assert_int_equal(e->type, want[got].type);
		x = e->type == EV_CAP_CREATE ? ev_load16(e->payload)
					     : ev_load32(e->payload);
		assert_int_equal(x, want[got].a);
		if (e->type == EV_CAPSET_CREATE)
			assert_int_equal(ev_load16(e->payload + 4),
					 got == 0 ? 2 : 3);
		if (e->type == EV_CAPSET_ASSIGN_CAP)
			assert_int_equal(ev_load16(e->payload + 4), want[got].b);
		got++;
	}
	assert_int_equal(got, 8);
	assert_int_equal(count_events(&out), count_events(&f.log[0]) +
						     b->events + 8);
	ev_merge_free(m);
	free(bytes);
	free_log(&out);

	/* EV_MERGE_START_FALLBACK (evtool merge's default): the input with
	 * a wall clock keeps its wall-clock shift (0: the earliest start),
	 * the one without is aligned by its start and says so. */
	opts.align = EV_MERGE_ALIGN_WALL_CLOCK;
	opts.flags = EV_MERGE_START_FALLBACK;
	m = new_merge(&opts, f.in, 2);
	bytes = write_merge(m, &len);
	b = ev_merge_input_at(m, 1);
	assert_false(ev_merge_input_at(m, 0)->aligned_by_start);
	assert_true(ev_merge_input_at(m, 0)->has_wall_clock);
	assert_int_equal(ev_merge_input_at(m, 0)->shift, 0);
	assert_true(b->aligned_by_start);
	assert_int_equal(b->shift, -(int64_t)b->first_time);
	load_log(bytes, len, &out);
	check_blocks(&out);
	assert_int_equal(count_events(&out), count_events(&f.log[0]) +
						     b->events + 8);
	ev_merge_free(m);
	free(bytes);
	free_log(&out);
	close_fixture(&f);
}

/* A temporary folder of ours, removed by the test. */
static char *make_temp_dir(void)
{
	const char *base = getenv("TMPDIR");
	char *dir = ts_path(base && *base ? base : "/tmp",
			    "evtool-test-merge-XXXXXX");

	assert_non_null(mkdtemp(dir));
	return dir;
}

static char *write_gzip(const char *dir, const char *name,
			const uint8_t *data, size_t len)
{
	char *path = ts_path(dir, name);
	gzFile gz = gzopen(path, "wb");

	assert_non_null(gz);
	assert_int_equal(gzwrite(gz, data, (unsigned)len), (int)len);
	assert_int_equal(gzclose(gz), Z_OK);
	return path;
}

static uint8_t *merge_paths(const char *const *paths, size_t n, size_t *len)
{
	ev_merge *m;
	uint8_t *bytes;

	assert_int_equal(ev_merge_new(&m, NULL, NULL), EV_OK);
	for (size_t i = 0; i < n; i++)
		if (ev_merge_add(m, ts_input(paths[i])) < 0)
			fail_msg("%s", ev_merge_diag(m)->message);
	bytes = write_merge(m, len);
	ev_merge_free(m);
	return bytes;
}

/* A gzip input merges as its plain form does, byte for byte. */
static void test_merge_gzip_input(void **state)
{
	char *dir = make_temp_dir();
	char *a = ts_path(EVTOOL_TESTDATA, "merge-a.eventlog");
	char *b = ts_path(EVTOOL_TESTDATA, "merge-b.eventlog");
	uint8_t *b_data, *plain, *packed;
	size_t b_len, plain_len, packed_len;
	char *b_gz;

	(void)state;
	b_data = testdata("merge-b.eventlog", &b_len);
	b_gz = write_gzip(dir, "merge-b.eventlog.gz", b_data, b_len);
	{
		const char *plain_paths[] = { a, b };
		const char *packed_paths[] = { a, b_gz };
		plain = merge_paths(plain_paths, 2, &plain_len);
		packed = merge_paths(packed_paths, 2, &packed_len);
	}
	assert_int_equal(plain_len, packed_len);
	assert_memory_equal(plain, packed, plain_len);
	unlink(b_gz);
	rmdir(dir);
	free(b_gz);
	free(dir);
	free(a);
	free(b);
	free(b_data);
	free(plain);
	free(packed);
}

/* Progress of a merge: the last report. */
typedef struct tprogress {
	uint64_t done;
	uint64_t total;
	unsigned calls;
} tprogress;

static void note_progress(void *ctx, uint64_t done, uint64_t total)
{
	tprogress *p = ctx;

	assert_true(done >= p->done); /* never goes back */
	p->done = done;
	p->total = total;
	p->calls++;
}

/* Merges the files at `paths`, or (from_memory) the same bytes given with
 * ev_input_memory. */
static uint8_t *merge_files(const char *const *paths, size_t n,
			    int from_memory, tprogress *progress, size_t *len)
{
	uint8_t **data = calloc(n, sizeof *data);
	ev_merge *m;
	uint8_t *bytes;

	assert_non_null(data);
	assert_int_equal(ev_merge_new(&m, NULL, NULL), EV_OK);
	if (progress)
		ev_merge_set_progress(m, note_progress, progress);
	for (size_t i = 0; i < n; i++) {
		size_t data_len;
		int rc;
		if (from_memory) {
			data[i] = ts_read_file(paths[i], &data_len);
			assert_non_null(data[i]);
			rc = ev_merge_add(m, ts_memory_input(data[i], data_len,
							     paths[i]));
		} else {
			rc = ev_merge_add(m, ts_input(paths[i]));
		}
		if (rc < 0)
			fail_msg("%s", ev_merge_diag(m)->message);
	}
	bytes = write_merge(m, len);
	ev_merge_free(m);
	for (size_t i = 0; i < n; i++)
		free(data[i]);
	free(data);
	return bytes;
}

/* `copies` copies of prof-b merged into one log (one session), written
 * to dir/name. */
static char *write_copies(const char *dir, const char *name, size_t copies,
			  size_t *len)
{
	tinput in[8];
	size_t b_len;
	uint8_t *b = testdata("prof-b.eventlog", &b_len), *bytes;
	char *path = ts_path(dir, name);
	ev_merge *m;

	assert_true(copies <= 8);
	for (size_t i = 0; i < copies; i++)
		in[i] = (tinput){ "prof-b", b, b_len };
	m = new_merge(NULL, in, copies);
	bytes = write_merge(m, len);
	assert_true(ts_write_file(path, bytes, *len, "wb"));
	ev_merge_free(m);
	free(bytes);
	free(b);
	return path;
}

#define MIB (1024u * 1024u)

/* Files of up to 1 MiB are read once into memory and both passes parse
 * them there, while larger ones (and those past the 32 MiB that merge
 * holds so) are read from their files twice: every way gives the bytes
 * that the same logs given in memory give, and progress ends at its
 * total. */
static void test_merge_cached_inputs(void **state)
{
	char *dir = make_temp_dir();
	char *b = ts_path(EVTOOL_TESTDATA, "merge-b.eventlog");
	size_t small_len, big_len, files_len, memory_len;
	char *small = write_copies(dir, "small.eventlog", 4, &small_len);
	char *big = write_copies(dir, "big.eventlog", 7, &big_len);
	uint8_t *files, *memory;
	tprogress progress = { 0, 0, 0 };

	(void)state;
	assert_true(small_len <= MIB);
	assert_true(big_len > MIB);
	{
		const char *paths[] = { small, big, b, small };
		files = merge_files(paths, 4, 0, &progress, &files_len);
		memory = merge_files(paths, 4, 1, NULL, &memory_len);
	}
	assert_int_equal(files_len, memory_len);
	assert_memory_equal(files, memory, files_len);
	assert_true(progress.calls > 0);
	assert_int_equal(progress.total, 2 * (2 * small_len + big_len + 6271));
	assert_int_equal(progress.done, progress.total);
	free(files);
	free(memory);

	/* 34 inputs of nearly 1 MiB: the last ones are past the budget. */
	{
		const char *paths[34];
		for (size_t i = 0; i < 34; i++)
			paths[i] = small;
		files = merge_files(paths, 34, 0, NULL, &files_len);
		memory = merge_files(paths, 34, 1, NULL, &memory_len);
	}
	assert_int_equal(files_len, memory_len);
	assert_memory_equal(files, memory, files_len);
	free(files);
	free(memory);

	unlink(small);
	unlink(big);
	rmdir(dir);
	free(small);
	free(big);
	free(b);
	free(dir);
}

/* Merge passes over the events of types whose payload the catalogue
 * finds no identifier in when the payload is all zeros (1024 bytes), in
 * both passes. That holds only if such a type has no identifier in any
 * payload: whatever the bytes and the size, evi_payload_refs finds none. */
static void test_merge_ref_free_types(void **state)
{
	static const uint8_t zeros[1024];
	uint8_t payload[2048];
	uint32_t seed = 12345;

	(void)state;
	for (unsigned type = 0; type < 256; type++) {
		if (evi_payload_refs((uint16_t)type, zeros, sizeof zeros, NULL,
				    0) != 0)
			continue;
		for (unsigned trial = 0; trial < 64; trial++) {
			size_t size = trial == 0 ? sizeof payload
						 : (seed % sizeof payload);
			for (size_t k = 0; k < sizeof payload; k++) {
				seed = seed * 1103515245u + 12345u;
				payload[k] = trial == 1 ? 0xff
					     : trial == 2 ? (k % 2 ? 8 : 0)
						      : (uint8_t)(seed >> 16);
			}
			assert_int_equal(evi_payload_refs((uint16_t)type,
							 payload, size, NULL,
							 0),
					 0);
		}
	}
}

/* Cost-centre ids (HEAP_PROF_COST_CENTRE, the stacks of PROF_SAMPLE_
 * COST_CENTRE and HEAP_PROF_SAMPLE_COST_CENTRE), PROF_SAMPLE's u32 cap,
 * heap-profile ids and ticky counter ids are renumbered: corpus logs of
 * profiled and ticky programs, each merged with itself, map back. */
static void merge_corpus_with_itself(const char *name, ev_ref_kind kind)
{
	uint8_t *data, *bytes;
	size_t len, out_len;
	tinput in[2];
	tlog logs[2], out;
	tplan p;
	ev_merge *m;
	const ev_merge_ids *first, *second;

	if (!(data = corpus(name, &len))) {
		skip();
		return;
	}
	in[0] = in[1] = (tinput){ name, data, len };
	load_log(data, len, &logs[0]);
	load_log(data, len, &logs[1]);
	m = new_merge(NULL, in, 2);
	bytes = write_merge(m, &out_len);
	load_log(bytes, out_len, &out);
	make_plan(&p, m, logs, 2);
	first = &p.in[0]->ids[kind];
	second = &p.in[1]->ids[kind];
	assert_true(first->used && second->used);
	assert_int_equal(first->base, 0);
	assert_int_equal(second->base, first->max + 1);
	only_identified = 1;
	check_inverse(&p, logs, &out);
	only_identified = 0;
	check_blocks(&out);
	/* each copy's samples, every one whole */
	assert_int_equal(check_heap_samples(&p, &out),
			 2 * count_type(&logs[0], EV_HEAP_PROF_SAMPLE_BEGIN));
	assert_int_equal(count_events(&out), 2 * count_events(&logs[0]));
	ev_merge_free(m);
	free(bytes);
	free(data);
	free_log(&logs[0]);
	free_log(&logs[1]);
	free_log(&out);
}

static void test_merge_time_profile(void **state)
{
	(void)state;
	merge_corpus_with_itself("time-prof.eventlog", EV_REF_COST_CENTRE);
}

static void test_merge_heap_profile(void **state)
{
	(void)state;
	merge_corpus_with_itself("sleep.hd.eventlog", EV_REF_HEAP_PROFILE);
}

static void test_merge_ticky(void **state)
{
	(void)state;
	merge_corpus_with_itself("ticky-ticky.eventlog", EV_REF_TICKY_COUNTER);
}

/* ------------------------------------------------------------------------
 * Samples that coincide with their copies' (a property over real logs)
 * ---------------------------------------------------------------------- */

/* A bracketed group of the global buffer, as GHC posts it: a heap census
 * (HEAP_PROF_SAMPLE_BEGIN 162 or HEAP_BIO_PROF_SAMPLE_BEGIN 166, to
 * HEAP_PROF_SAMPLE_END 165 when the log has it, with whatever the buffer
 * holds in between; before GHC 8.4 the begin and its 163/164 events) or a
 * ticky sample (TICKY_COUNTER_BEGIN_SAMPLE 212 and its 211 events). Read
 * here from the format, not from the merge's code. */
#define COPIES 12          /* inputs of one merge: the log and 11 copies */
#define MAX_SHIFTS 240     /* per log, the first ones found */

typedef struct tgroups {
	size_t *sizes;     /* events of each group, markers not counted */
	size_t n;
	int64_t shifts[MAX_SHIFTS];
	size_t n_shifts;
	int nested;        /* a census began inside an open bracketed one */
} tgroups;

static int opens_group(uint16_t type)
{
	return type == EV_HEAP_PROF_SAMPLE_BEGIN ||
	       type == EV_HEAP_BIO_PROF_SAMPLE_BEGIN ||
	       type == EV_TICKY_COUNTER_BEGIN_SAMPLE;
}

/* Whether `type` belongs to a group opened by `opener`: a bracketed census
 * holds everything but another begin. */
static int in_group(uint16_t opener, int bracketed, uint16_t type)
{
	if (opener == EV_TICKY_COUNTER_BEGIN_SAMPLE)
		return type == EV_TICKY_COUNTER_SAMPLE;
	if (bracketed)
		return !opens_group(type);
	return type == EV_HEAP_PROF_SAMPLE_COST_CENTRE ||
	       type == EV_HEAP_PROF_SAMPLE_STRING;
}

static void add_shift(tgroups *g, int64_t ns)
{
	if (ns == 0)
		return;
	for (size_t k = 0; k < g->n_shifts; k++)
		if (g->shifts[k] == ns)
			return;
	if (g->n_shifts < MAX_SHIFTS)
		g->shifts[g->n_shifts++] = ns;
}

/* The shifts that make a copy's group meet this one: begin on begin (1
 * ns apart), a begin or end on the events between (the first and last
 * of them and every one that is no sample entry, such as the -p timer's
 * ticks), and either side of the group's length, both ways. */
static void note_group_shifts(tgroups *g, const tev *const *ev, size_t n)
{
	int64_t len = (int64_t)(ev[n - 1]->time - ev[0]->time);

	add_shift(g, 1);
	for (int64_t d = -1; d <= 1; d++) {
		add_shift(g, len + d);
		add_shift(g, -(len + d));
	}
	for (size_t k = 1; k + 1 < n; k++) {
		int64_t at = (int64_t)(ev[k]->time - ev[0]->time);
		uint16_t t = ev[k]->type;
		if (k == 1 || k + 2 == n ||
		    (t != EV_HEAP_PROF_SAMPLE_COST_CENTRE &&
		     t != EV_HEAP_PROF_SAMPLE_STRING &&
		     t != EV_TICKY_COUNTER_SAMPLE)) {
			add_shift(g, at);
			add_shift(g, -at);
		}
	}
}

/* The groups of `l`'s global buffer, in file order. */
static void find_groups(const tlog *l, tgroups *g)
{
	int bracketed = count_type(l, EV_HEAP_PROF_SAMPLE_END) > 0;
	const tev **open = malloc(l->n * sizeof *open);
	size_t n_open = 0;

	assert_non_null(open);
	memset(g, 0, sizeof *g);
	g->sizes = malloc((l->n + 1) * sizeof *g->sizes);
	assert_non_null(g->sizes);
	for (size_t k = 0; k <= l->n; k++) {
		const tev *e = k < l->n ? &l->ev[k] : NULL;
		if (e && (e->cap != EV_NO_CAP || is_marker(e)))
			continue;
		if (n_open && e && in_group(open[0]->type, bracketed, e->type)) {
			open[n_open++] = e;
			if (e->type != EV_HEAP_PROF_SAMPLE_END)
				continue;
		} else if (n_open && e && bracketed &&
			   open[0]->type != EV_TICKY_COUNTER_BEGIN_SAMPLE &&
			   e->type != EV_TICKY_COUNTER_BEGIN_SAMPLE) {
			g->nested = 1; /* a census begins inside one */
		}
		if (n_open) {
			note_group_shifts(g, open, n_open);
			g->sizes[g->n++] = n_open;
			n_open = 0;
			if (e && e->type == EV_HEAP_PROF_SAMPLE_END)
				continue;
		}
		if (e && opens_group(e->type))
			open[n_open++] = e;
	}
	free(open);
}

static int compare_sizes(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

/* The merged log holds `copies` times each group of the input, each
 * whole: as many events, none of another input's among them. */
static void check_groups_kept(const tgroups *in, const tlog *out,
			      size_t copies)
{
	tgroups got;
	size_t *want = malloc(in->n * copies * sizeof *want);

	assert_non_null(want);
	for (size_t c = 0; c < copies; c++)
		memcpy(want + c * in->n, in->sizes, in->n * sizeof *want);
	find_groups(out, &got);
	assert_false(got.nested);
	assert_int_equal(got.n, in->n * copies);
	qsort(want, got.n, sizeof *want, compare_sizes);
	qsort(got.sizes, got.n, sizeof *got.sizes, compare_sizes);
	for (size_t k = 0; k < got.n; k++)
		if (want[k] != got.sizes[k])
			fail_msg("a group of %zu events in the merge, where the "
				 "inputs have one of %zu", got.sizes[k],
				 want[k]);
	free(got.sizes);
	free(want);
}

/* Prints the first ten errors. */
static int print_finding(const ev_finding *f, void *ctx)
{
	unsigned *printed = ctx;

	if (f->severity == EV_SEVERITY_ERROR && (*printed)++ < 10)
		print_message("  offset %llu: %s [%s]\n",
			      (unsigned long long)f->offset, f->message,
			      f->check);
	return 0;
}

static ev_validate_result validate_bytes(const uint8_t *bytes, size_t len,
					 int print)
{
	ev_validate_result res;
	unsigned printed = 0;
	ev_reader *r;

	assert_int_equal(ev_reader_open_memory(&r, bytes, len, "merged", 0,
					       NULL),
			 EV_OK);
	ts_validate(r, NULL, print ? print_finding : NULL, &printed, &res);
	ev_reader_free(r);
	return res;
}

/* Two runs' logs concatenated: a log of two sessions, which validate
 * accepts. Merge refuses it as an input, alone, with itself or with
 * another log (EV_REASON_SESSIONS, naming the input and the offset of the
 * second session), and writes nothing: merged as one process it gave a
 * log validate rejects (blocks overlapping, threads finished that run
 * again). Its sessions taken apart are inputs like any other: their
 * merge is valid and holds the events of both. */
static void refuse_sessions(const tinput *in, size_t n, size_t which,
			    uint64_t offset)
{
	ev_merge *m = new_merge(NULL, in, n);
	const ev_diag *d = ev_merge_diag(m);

	assert_int_equal(ev_merge_plan(m), EV_EINVAL);
	assert_int_equal(d->reason, EV_REASON_SESSIONS);
	assert_int_equal(d->input, which);
	assert_int_equal(d->offset, offset);
	assert_non_null(strstr(d->message, in[which].name));
	assert_non_null(strstr(d->message, "session 2"));
	ev_merge_free(m);
}

static void test_merge_refuses_sessions(void **state)
{
	static const char *const names[] = { "merge-a.eventlog",
					     "merge-b.eventlog" };
	fixture f;
	tinput two[3], apart[2];
	tlog log;
	uint8_t *both, *bytes;
	size_t len;
	ev_validate_result res, whole;
	ev_merge *m;

	(void)state;
	open_fixture(&f, names, 2);
	both = malloc(f.len[0] + f.len[1]);
	assert_non_null(both);
	memcpy(both, f.data[0], f.len[0]);
	memcpy(both + f.len[0], f.data[1], f.len[1]);
	load_log(both, f.len[0] + f.len[1], &log);
	assert_int_equal(log.sessions, 2);
	whole = validate_bytes(both, f.len[0] + f.len[1], 1);
	assert_int_equal(whole.errors, 0);
	assert_int_equal(whole.sessions, 2);

	two[0] = two[1] = (tinput){ "two-runs", both, f.len[0] + f.len[1] };
	two[2] = (tinput){ "merge-b", f.data[1], f.len[1] };
	refuse_sessions(two, 1, 0, f.len[0]);
	refuse_sessions(two, 2, 0, f.len[0]);
	refuse_sessions(&two[1], 2, 0, f.len[0]);
	apart[0] = two[2];
	apart[1] = two[0];
	refuse_sessions(apart, 2, 1, f.len[0]);

	apart[0] = (tinput){ "session-1", both, f.len[0] };
	apart[1] = (tinput){ "session-2", both + f.len[0], f.len[1] };
	m = new_merge(NULL, apart, 2);
	bytes = write_merge(m, &len);
	res = validate_bytes(bytes, len, 1);
	assert_int_equal(res.errors, 0);
	assert_int_equal(res.events, whole.events);
	assert_int_equal(ev_merge_events_written(m), whole.events);
	ev_merge_free(m);
	free(bytes);
	free_log(&log);
	free(both);
	close_fixture(&f);
}

/* The log merged with the original and copies shifted by shifts[0..n). */
static void merge_shifted(const char *path, const uint8_t *data, size_t len,
			  const tgroups *groups, const int64_t *shifts,
			  size_t n)
{
	tinput in[COPIES];
	ev_validate_result res;
	ev_merge *m;
	uint8_t *bytes;
	size_t out_len;
	tlog out;

	for (size_t i = 0; i < n + 2; i++)
		in[i] = (tinput){ path, data, len };
	m = new_merge(NULL, in, n + 2); /* the log twice, then the shifts */
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ev_merge_shift(m, i + 2, shifts[i]), EV_OK);
	bytes = write_merge(m, &out_len);
	res = validate_bytes(bytes, out_len, 0);
	if (res.errors) {
		print_message("%s merged with copies shifted by", path);
		for (size_t i = 0; i < n; i++)
			print_message(" %lld", (long long)shifts[i]);
		print_message(" ns:\n");
		validate_bytes(bytes, out_len, 1);
		fail_msg("%llu errors", (unsigned long long)res.errors);
	}
	load_log(bytes, out_len, &out);
	check_groups_kept(groups, &out, n + 2);
	ev_merge_free(m);
	free_log(&out);
	free(bytes);
}

static void merge_with_coinciding_copies(const char *path, void *ctx)
{
	size_t len, *logs = ctx;
	uint8_t *data = ts_read_file(path, &len);
	ev_validate_result res;
	tgroups g;
	tlog l;

	assert_non_null(data);
	res = validate_bytes(data, len, 0);
	load_log(data, len, &l);
	find_groups(&l, &g);
	if (g.n && res.verdict == EV_VERDICT_COMPLETE) {
		(*logs)++;
		for (size_t k = 0; k < g.n_shifts; k += COPIES - 2)
			merge_shifted(path, data, len, &g, g.shifts + k,
				      g.n_shifts - k < COPIES - 2
					      ? g.n_shifts - k
					      : COPIES - 2);
	}
	free(g.sizes);
	free_log(&l);
	free(data);
}

/* Every real log with heap, biographical or ticky samples, merged with
 * itself and with copies of itself shifted so that each sample's begin,
 * end and the events between them meet a copy's, at 0, 1 ns and either
 * side of the sample's length (prof-a's census holds -p ticks; the corpus
 * adds -hd, -hy and ticky logs): every output validates and holds every
 * group whole. */
static void test_merge_coinciding_samples(void **state)
{
	size_t logs = 0;

	(void)state;
	ts_for_each_log(EVTOOL_TESTDATA, merge_with_coinciding_copies, &logs);
	/* heap-a, -b, -n1, hpt-n1, prof-a, -b, -n2, heapdiff-{a,b}-{hT,hc,hy} */
	assert_int_equal(logs, 13);
	ts_for_each_log(EVTOOL_CORPUS, merge_with_coinciding_copies, &logs);
}

/* A block larger than EV_MERGE_MAX_BLOCK (GHC writes at most 2 MiB) is
 * split into blocks of the same cap that do not overlap. */
static void test_merge_huge_block(void **state)
{
	static const char desc[] = "User message";
	ev_writer_options wopts = EV_WRITER_OPTIONS_INIT;
	ev_merge_options opts = EV_MERGE_OPTIONS_INIT;
	static uint8_t text[60000];
	ev_header *h;
	ev_sink *sink;
	ev_writer *w;
	const uint8_t *log;
	size_t len, out_len, blocks = 0, events = 0;
	uint8_t *bytes;
	tinput in[2];
	tlog out;
	ev_merge *m;

	(void)state;
	assert_int_equal(evi_header_new(&h, NULL), EV_OK);
	assert_int_equal(evi_header_add(h, EV_USER_MSG, EV_SIZE_VARIABLE, desc,
				       sizeof desc - 1, NULL, 0), EV_OK);
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	wopts.mode = EV_WRITE_REBLOCK;
	wopts.max_block_size = 16u << 20;
	assert_int_equal(ev_writer_open(&w, sink, h, &wopts, NULL), EV_OK);
	memset(text, 'x', sizeof text);
	for (unsigned k = 0; k < 150; k++) {
		ev_event e = { EV_USER_MSG, 0, sizeof text, 1000u * (k + 1),
			       text, 0, 0 };
		assert_int_equal(ev_writer_write(w, &e), EV_OK);
	}
	assert_int_equal(ev_writer_finish(w), EV_OK);
	log = ev_sink_memory(sink, &len);
	assert_true(len > 2 * EV_MERGE_MAX_BLOCK);
	in[0] = in[1] = (tinput){ "huge", log, len };
	opts.align = EV_MERGE_ALIGN_NONE;
	m = new_merge(&opts, in, 2);
	bytes = write_merge(m, &out_len);
	load_log(bytes, out_len, &out);
	check_blocks(&out);
	for (size_t k = 0; k < out.n; k++) {
		if (is_marker(&out.ev[k])) {
			assert_true(ev_load32(out.ev[k].payload) <=
				    EV_MERGE_MAX_BLOCK);
			blocks++;
		} else if (out.ev[k].type == EV_USER_MSG) {
			assert_int_equal(out.ev[k].size, sizeof text);
			events++;
		}
	}
	assert_int_equal(events, 300);
	/* per input: its 2 capsets, CAP_CREATE and 2 assignments of cap 0 */
	assert_int_equal(count_events(&out), 300 + 2 * 5);
	assert_true(blocks >= 6); /* 9 MB per input, at most 4 MiB a block */
	ev_merge_free(m);
	free(bytes);
	free_log(&out);
	ev_writer_free(w);
	ev_sink_free(sink);
	evi_header_free(h);
}

/* Misuse is an error value with a message, never a crash. */
static void test_merge_usage(void **state)
{
	ev_merge_options bad = EV_MERGE_OPTIONS_INIT;
	ev_merge *m;
	uint8_t junk[64] = "this is not an eventlog at all";
	ev_input *in;
	ev_sink *sink;

	(void)state;
	bad.version = 99;
	assert_int_equal(ev_merge_new(&m, &bad, NULL), EV_EINVAL);
	assert_null(m);
	ev_merge_free(NULL);

	assert_int_equal(ev_merge_new(&m, NULL, NULL), EV_OK);
	assert_int_equal(ev_merge_plan(m), EV_EINVAL);
	assert_int_equal(ev_input_open(&in, "/nonexistent/x.eventlog", NULL),
			 EV_EIO);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(ev_merge_add(m, ts_input("/")), EV_EIO);
	assert_non_null(strstr(ev_merge_diag(m)->message, "directory"));
	assert_int_equal(ev_merge_input_count(m), 0);
	assert_int_equal(ev_merge_add(m, ts_memory_input(junk, sizeof junk,
							 "junk")),
			 EV_OK);
	assert_int_equal(ev_merge_plan(m), EV_EFORMAT);
	assert_int_equal(ev_merge_diag(m)->origin, EV_ORIGIN_INPUT);
	assert_int_equal(ev_merge_diag(m)->input, 0);
	assert_non_null(strstr(ev_merge_diag(m)->message,
			       "junk: offset 0: expected header begin"));
	assert_null(ev_merge_input_at(m, 0));
	ev_merge_free(m);

	assert_int_equal(ev_merge_new(&m, NULL, NULL), EV_OK);
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	{
		size_t len;
		uint8_t *a = testdata("merge-a.eventlog", &len);
		assert_int_equal(ev_merge_add(m, ts_memory_input(a, len, "a")),
				 EV_OK);
		assert_int_equal(ev_merge_run(m, sink), EV_OK);
		assert_int_equal(ev_merge_run(m, sink), EV_EINVAL);
		assert_int_equal(ev_merge_add(m, ts_memory_input(a, len, "a")),
				 EV_EINVAL);
		free(a);
	}
	ev_sink_free(sink);
	ev_merge_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_two_processes),
		cmocka_unit_test(test_merge_visit),
		cmocka_unit_test(test_merge_three_processes),
		cmocka_unit_test(test_merge_order_of_inputs),
		cmocka_unit_test(test_merge_bases),
		cmocka_unit_test(test_merge_alignment),
		cmocka_unit_test(test_merge_align_modes),
		cmocka_unit_test(test_merge_with_itself),
		cmocka_unit_test(test_merge_heap_samples_whole),
		cmocka_unit_test(test_merge_blocked_on_thread),
		cmocka_unit_test(test_merge_no_renumber),
		cmocka_unit_test(test_merge_size_conflict),
		cmocka_unit_test(test_merge_widen_census),
		cmocka_unit_test(test_merge_truncated_input),
		cmocka_unit_test(test_merge_header_cut_input),
		cmocka_unit_test(test_merge_input_reason),
		cmocka_unit_test(test_merge_missing_wall_clock),
		cmocka_unit_test(test_merge_gzip_input),
		cmocka_unit_test(test_merge_cached_inputs),
		cmocka_unit_test(test_merge_ref_free_types),
		cmocka_unit_test(test_merge_refuses_sessions),
		cmocka_unit_test(test_merge_time_profile),
		cmocka_unit_test(test_merge_heap_profile),
		cmocka_unit_test(test_merge_ticky),
		cmocka_unit_test(test_merge_coinciding_samples),
		cmocka_unit_test(test_merge_huge_block),
		cmocka_unit_test(test_merge_usage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
