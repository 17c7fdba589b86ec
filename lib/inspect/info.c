/*
 * The analysis of `evtool info` (info.h): one pass over every session of
 * a log, counting events per type and capability, time inversions per
 * capability, sessions, capsets and, through process.h, the processes.
 * It is an event consumer (consumer.h) that any source drives
 * (ev_info_consumer); ev_info_read drives it from a reader through the
 * inline feed (feed.h), or counts the blocks in parallel (info_blocks.c).
 *
 * Layering: uses the reader, the catalogue, the decoder and the process
 * list; nothing in lib/ calls it.
 */
#include "evtool/info.h"

#include <stdlib.h>
#include <string.h>

#include "evtool/consumer.h"
#include "evtool/decode.h"
#include "feed.h"
#include "internal.h"
#include "info_blocks.h"


typedef struct cap_stats {
	uint64_t events;
	unsigned session; /* 1 + the session of last_time; 0: none yet */
	uint64_t last_time;
	uint64_t inversions;
	uint64_t gc_end_inversions;
} cap_stats;

struct ev_info {
	ev_info_options opts;
	ev_info_summary sum;
	ev_info_session *spans;  /* opts.max_listed_sessions */
	ev_info_capset *capsets; /* opts.max_listed_capsets */
	ev_process_list *procs;
	int procs_failed;        /* EV_ENOMEM while collecting them */
	ev_diag wall_problem;    /* a WALL_CLOCK_TIME that is no clock */
	int read;                /* a source began: ev_info_read or begin */
	int done;                /* finished: no source may drive it again */
	unsigned threads;        /* ev_info_set_threads */
	int in_session;          /* begun and not ended */
	uint64_t session_start;  /* the open session's header offset */
	uint64_t session_first;  /* sum.events when it began */
	uint64_t tail;           /* past the last event handed over, or
				    the header or data end before it */
	uint8_t variable[EV_ID_COUNT / 8]; /* the session's variable sizes */
	uint8_t cap_seen[EV_ID_COUNT / 8];
	uint8_t foreign[EV_ID_COUNT / 8]; /* declared with another meaning */
	uint8_t noted[EV_ID_COUNT / 8];   /* decoded: note_types */
	uint64_t per_type[EV_ID_COUNT];
	cap_stats per_cap[EV_ID_COUNT]; /* EV_NO_CAP: global or no block */
};

/* The types note_metadata and note_process decode (the others pass them
 * by), in a bit set: count_event calls them for these only, and the
 * parallel pass lists where they are. */
static void note_types(uint8_t *bits)
{
	static const uint16_t noted[] = {
		EV_CAPSET_CREATE, EV_CAP_CREATE, EV_STARTUP,
		EV_CAPSET_ASSIGN_CAP, EV_OSPROCESS_PID, EV_OSPROCESS_PPID,
		EV_RTS_IDENTIFIER, EV_PROGRAM_ARGS, EV_WALL_CLOCK_TIME
	};

	for (size_t i = 0; i < sizeof noted / sizeof noted[0]; i++)
		bits[noted[i] / 8] |= (uint8_t)(1u << (noted[i] % 8));
}

int ev_info_new(ev_info **out, const ev_info_options *opts, ev_diag *diag)
{
	ev_info_options defaults = EV_INFO_OPTIONS_INIT;
	ev_info *in;

	*out = NULL;
	if (!opts)
		opts = &defaults;
	if (opts->version != EV_INFO_OPTIONS_VERSION)
		return evi_options_failed(diag, "info", opts->version,
					  EV_INFO_OPTIONS_VERSION);
	if (!(in = calloc(1, sizeof *in)))
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	in->opts = *opts;
	note_types(in->noted);
	in->spans = calloc(opts->max_listed_sessions + 1u, sizeof *in->spans);
	in->capsets = calloc(opts->max_listed_capsets + 1u,
			     sizeof *in->capsets);
	if (!in->spans || !in->capsets ||
	    ev_process_list_new(&in->procs, NULL) < 0) {
		ev_info_free(in);
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	}
	in->sum.capsets = in->capsets;
	in->sum.session_list = in->spans;
	*out = in;
	return EV_OK;
}

void ev_info_free(ev_info *in)
{
	if (!in)
		return;
	ev_process_list_free(in->procs);
	free(in->spans);
	free(in->capsets);
	free(in);
}

/* ---- collecting ---- */

static void mark_cap(ev_info *in, uint16_t cap)
{
	if (cap != EV_NO_CAP)
		in->cap_seen[cap / 8] |= (uint8_t)(1u << (cap % 8));
}

int ev_info_cap_seen(const ev_info *in, uint16_t cap)
{
	return in->cap_seen[cap / 8] & (1u << (cap % 8));
}

static int is_foreign(const ev_info *in, unsigned id)
{
	return in->foreign[id / 8] & (1u << (id % 8));
}

static void add_capset(ev_info *in, uint32_t id, uint16_t type)
{
	ev_info_summary *s = &in->sum;

	if (s->n_capsets == in->opts.max_listed_capsets)
		return;
	for (unsigned i = 0; i < s->n_capsets; i++)
		if (in->capsets[i].id == id)
			return; /* a later session declaring it again */
	in->capsets[s->n_capsets].id = id;
	in->capsets[s->n_capsets].type = type;
	s->n_capsets++;
}

/* The integer field `name` of `d` in `out`: 1, or 0 when the payload
 * stops before it. */
static int field_num(const ev_decoded *d, const char *name, uint64_t *out)
{
	const ev_value *v = ev_decoded_field(d, name);

	if (!v)
		return 0;
	*out = v->num;
	return 1;
}

/* Capability and capset metadata, read through the catalogue's payload
 * layouts (field names as evi_catalog_layout gives them): a field that a
 * short payload does not reach is absent, and the event tells nothing.
 * The processes' own (pid, program, RTS, wall clock) are the process
 * list's. */
static void note_metadata(ev_info *in, const ev_event *ev)
{
	ev_decoded d;
	uint64_t a, b;

	switch (ev->type) {
	case EV_CAPSET_CREATE:
	case EV_CAP_CREATE:
	case EV_STARTUP:
		break;
	default:
		return; /* only these few are decoded: info is on the hot path */
	}
	if (is_foreign(in, ev->type) || !ev_decode(ev, &d))
		return;
	switch (ev->type) {
	case EV_CAPSET_CREATE:
		if (field_num(&d, "capset", &a) &&
		    field_num(&d, "capset_type", &b))
			add_capset(in, (uint32_t)a, (uint16_t)b);
		break;
	case EV_CAP_CREATE:
		if (field_num(&d, "cap", &a))
			mark_cap(in, (uint16_t)a);
		break;
	case EV_STARTUP:
		if (field_num(&d, "n_caps", &a))
			in->sum.startup_caps = (uint16_t)a;
		break;
	default:
		break;
	}
}

static void note_process(ev_info *in, const ev_event *ev)
{
	int rc;

	if (is_foreign(in, ev->type))
		return;
	rc = ev_process_list_add(in->procs, ev);
	if (rc == EV_ENOMEM && !in->procs_failed)
		in->procs_failed = rc; /* EV_ELIMIT keeps the first */
	if (rc == EV_EFORMAT && !in->wall_problem.status)
		in->wall_problem = *ev_process_list_diag(in->procs);
}

/* Times from `lo` to `hi` seen. */
static void note_span(ev_info_summary *s, uint64_t lo, uint64_t hi)
{
	if (!s->have_time || lo < s->first_time)
		s->first_time = lo;
	if (!s->have_time || hi > s->last_time)
		s->last_time = hi;
	s->have_time = 1;
}

/* Per capability, time should not go back (doc/format.md section 3),
 * except the GC_END that the RTS stamps early: does the event of `type`
 * at `time` go back from the cap's last one in this session? */
static void follow_cap(cap_stats *c, unsigned session, uint64_t time,
		       uint16_t type)
{
	if (c->session == session && time < c->last_time) {
		c->inversions++;
		if (type == EV_GC_END)
			c->gc_end_inversions++;
	}
}

static inline __attribute__((always_inline)) void
count_event(ev_info *in, const ev_event *ev)
{
	ev_info_summary *s = &in->sum;
	cap_stats *c;

	if (ev->type == EV_BLOCK_MARKER) {
		s->blocks++;
		mark_cap(in, ev->cap);
		return;
	}
	/* (The cast, a no-op, keeps gcc 12 from sign-extending the index
	 * in ev_info_read's loop: bench/README.md, issue 24.) */
	c = in->per_cap + (uint16_t)ev->cap;
	s->events++;
	in->per_type[ev->type]++;
	note_span(s, ev->time, ev->time);
	follow_cap(c, s->sessions, ev->time, ev->type);
	c->events++;
	c->session = s->sessions; /* clocks restart with each session */
	c->last_time = ev->time;
	if (in->noted[ev->type / 8] & (1u << (ev->type % 8))) {
		note_metadata(in, ev);
		note_process(in, ev);
	}
}

static void note_session(ev_info *in, uint64_t start, uint64_t end,
			 uint64_t events, int status)
{
	ev_info_session *s;

	if (in->sum.sessions > in->opts.max_listed_sessions)
		return;
	s = &in->spans[in->sum.sessions - 1];
	s->start = start;
	s->end = end;
	s->events = events;
	s->status = status;
	in->sum.n_listed_sessions = in->sum.sessions;
}

/* Types a header declares with another meaning than GHC's (another
 * program reusing the id): counted under their id as unknown types. */
static void note_foreign_types(ev_info *in, const ev_header *h)
{
	for (size_t i = 0; i < ev_header_count(h); i++) {
		uint16_t id = ev_header_at(h, i)->id;
		if (ev_catalog_find(id) && !ev_header_type_info(h, id))
			in->foreign[id / 8] |= (uint8_t)(1u << (id % 8));
	}
}

/* ---- the analysis as a consumer (consumer.h) ---- */

static int info_begin(void *self, const ev_session *ses)
{
	ev_info *in = self;
	ev_info_summary *s = &in->sum;

	if (in->done)
		return EV_EINVAL;
	in->read = 1;
	if (s->sessions++)
		ev_process_list_next_session(in->procs);
	note_foreign_types(in, ses->header);
	in->in_session = 1;
	in->session_start = in->tail = ses->offset;
	in->session_first = s->events;
	return EV_OK;
}

/* Inlined into ev_info_read's loop (feed.h): the file's events pay no
 * call for going through the protocol. */
static inline __attribute__((always_inline)) int
info_event(void *self, const ev_event *ev)
{
	count_event(self, ev);
	return EV_OK;
}

static int info_end(void *self, const ev_session *ses)
{
	ev_info *in = self;

	note_session(in, ses->offset, ses->end,
		     in->sum.events - in->session_first, EV_END);
	in->in_session = 0;
	in->tail = ses->end;
	return EV_OK;
}

/* The source stopped with `status`, `tail` past the last complete event
 * (or header, or data end): the session it stopped in, if any. */
static void stopped(ev_info *in, int status, uint64_t tail)
{
	if (in->in_session)
		note_session(in, in->session_start, tail,
			     in->sum.events - in->session_first, status);
	in->in_session = 0;
	in->sum.status = status;
	in->sum.log_bytes = tail;
}

/* ev_info_read's consumer: the reader says where the log stops. */
static const ev_consumer file_consumer = { info_begin, info_event, info_end,
					   NULL, EV_CONSUME_MARKERS };

/* The public consumer's begin and event also note where the events end,
 * which a reader would say. */
static int any_begin(void *self, const ev_session *ses)
{
	ev_info *in = self;
	const ev_header *h = ses->header;
	int rc = info_begin(self, ses);

	memset(in->variable, 0, sizeof in->variable);
	for (size_t i = 0; rc == EV_OK && i < ev_header_count(h); i++) {
		uint16_t id = ev_header_at(h, i)->id;
		if (ev_header_at(h, i)->wire_size == EV_SIZE_VARIABLE)
			in->variable[id / 8] |= (uint8_t)(1u << (id % 8));
	}
	return rc;
}

static int any_event(void *self, const ev_event *ev)
{
	ev_info *in = self;
	unsigned t = ev->type;

	count_event(in, ev);
	in->tail = ev->offset +
		   ev_event_wire_size(ev, in->variable[t / 8] & (1u << (t % 8)));
	return EV_OK;
}

static int finish(ev_info *in);

/* The analysis of the events given, cut log or not: the source's status
 * is the summary's, with where it stopped; finish passes it on. */
static int any_finish(void *self, int status)
{
	ev_info *in = self;
	ev_info_summary *s = &in->sum;
	int rc;

	if (in->done)
		return EV_EINVAL;
	in->read = 1;
	/* 0 or more: every session was handed over (merge and sort say
	 * EV_OK), as a reader's EV_END */
	stopped(in, status >= 0 ? EV_END : status, in->tail);
	if (status < 0) {
		evi_fail(&s->diag, status, in->tail, 0, "the source stopped: %s",
			 ev_strerror(status));
		s->diag.origin = EV_ORIGIN_INPUT;
	}
	return (rc = finish(in)) < 0 ? rc : status;
}

const ev_consumer *ev_info_consumer(void)
{
	static const ev_consumer consumer = { any_begin, any_event, info_end,
					      any_finish, EV_CONSUME_MARKERS };

	return &consumer;
}

static void sum_inversions(ev_info *in)
{
	for (unsigned cap = 0; cap < EV_ID_COUNT; cap++) {
		in->sum.inversions += in->per_cap[cap].inversions;
		in->sum.gc_end_inversions += in->per_cap[cap].gc_end_inversions;
	}
	for (unsigned cap = 0; cap < EV_NO_CAP; cap++)
		in->sum.caps_seen += ev_info_cap_seen(in, (uint16_t)cap) ? 1 : 0;
}

/* ---- the parallel path: blocks counted by workers ---- */

/* One block's figures, added as count_event adds its events one by one. */
static void add_block(ev_info *in, uint16_t cap, const evi_info_block *f)
{
	ev_info_summary *s = &in->sum;
	cap_stats *c = &in->per_cap[cap];

	s->blocks++;
	mark_cap(in, cap);
	if (!f->events)
		return;
	s->events += f->events;
	note_span(s, f->min_time, f->max_time);
	follow_cap(c, s->sessions, f->first_time, f->first_type);
	c->inversions += f->inversions;
	c->gc_end_inversions += f->gc_end_inversions;
	c->events += f->events;
	c->session = s->sessions;
	c->last_time = f->last_time;
}

/* The events the pass noted, decoded in file order. */
static void replay_noted(ev_info *in, const evi_info_pass *pass)
{
	uint64_t first_index = 0;
	size_t block = 0;

	for (size_t i = 0; i < pass->n_noted; i++) {
		ev_event ev = pass->noted[i].ev;

		for (; block < pass->noted[i].block; block++)
			first_index += pass->blocks[block].events + 1;
		ev.index += first_index;
		note_metadata(in, &ev);
		note_process(in, &ev);
	}
}

/* The summary of a log the workers read, as read_sequentially makes it. */
static void add_pass(ev_info *in, const evi_info_pass *pass)
{
	const evi_blocks *b = pass->b;
	ev_info_summary *s = &in->sum;

	s->sessions = 1;
	note_foreign_types(in, b->header);
	for (size_t i = 0; i < b->n; i++)
		add_block(in, b->spans[i].cap, &pass->blocks[i]);
	memcpy(in->per_type, pass->per_type, sizeof in->per_type);
	replay_noted(in, pass);
	note_session(in, 0, b->data_end + 2, s->events, EV_END);
	s->status = EV_END;
	s->log_bytes = b->data_end + 2;
	s->stored_bytes = b->len;
	s->digest = pass->digest;
	s->have_digest = b->digest_wanted;
}

/* EV_OK when the workers read the log; EV_END when it is the sequential
 * path's (ev_info_read had better read it: nothing of `in` changed). */
static int read_in_parallel(ev_info *in, ev_reader *r)
{
	evi_info_pass pass = { 0 };
	evi_blocks *b;
	int rc = evi_blocks_open(&b, r);

	if (rc != EV_OK)
		return rc;
	pass.b = b;
	pass.noted_types = in->noted;
	rc = evi_info_scan(&pass, in->threads);
	if (rc == EV_OK)
		add_pass(in, &pass);
	evi_info_pass_free(&pass);
	evi_blocks_free(b);
	return rc == EV_EFORMAT ? EV_END : rc;
}

void ev_info_set_threads(ev_info *in, unsigned threads)
{
	in->threads = threads;
}

/* What both paths finish with: the processes, the totals, a bad wall
 * clock. */
static int finish(ev_info *in)
{
	ev_info_summary *s = &in->sum;

	in->done = 1;
	if (ev_process_list_finish(in->procs) < 0 || in->procs_failed)
		return EV_ENOMEM;
	sum_inversions(in);
	/* Read to its end, but invalid: as merge, filter and truncate say. */
	if ((s->status == EV_END || s->status == EV_ETRUNCATED) &&
	    in->wall_problem.status) {
		s->status = in->wall_problem.status;
		s->diag = in->wall_problem;
	}
	return EV_OK;
}

int ev_info_read(ev_info *in, ev_reader *r)
{
	ev_info_summary *s = &in->sum;
	int rc;

	if (in->read)
		return EV_EINVAL;
	in->read = 1;
	if (in->threads > 1) {
		rc = read_in_parallel(in, r);
		if (rc != EV_END)
			return rc < 0 ? rc : finish(in);
	}
	rc = evi_feed_sessions(r, &file_consumer, in);
	stopped(in, rc, ev_reader_offset(r));
	s->gzip = ev_reader_is_gzip(r); /* known once bytes were read */
	s->diag = *ev_reader_diag(r);
	if (s->status == EV_ETRUNCATED && s->diag.offset < s->log_bytes)
		s->log_bytes = s->diag.offset;
	if ((rc = finish(in)) < 0)
		return rc;
	rc = ev_reader_digest(r, &s->digest);
	s->have_digest = rc == EV_OK;
	s->stored_bytes = ev_reader_input_bytes(r);
	return rc == EV_EINVAL ? EV_OK : rc; /* EV_EINVAL: no digest asked */
}

const ev_info_summary *ev_info_result(const ev_info *in)
{
	return &in->sum;
}

const ev_process_list *ev_info_processes(const ev_info *in)
{
	return in->procs;
}

uint64_t ev_info_type_events(const ev_info *in, uint16_t id)
{
	return in->per_type[id];
}

const char *ev_info_type_name(const ev_info *in, uint16_t id)
{
	const ev_type_info *t = ev_catalog_find(id);

	return t && !is_foreign(in, id) ? t->name : "UNKNOWN";
}

/* The lowest EV_CLASS_* bit of type `id` as counted, EV_CLASS_COUNT for
 * none. */
static unsigned class_bit(const ev_info *in, unsigned id)
{
	unsigned cls = is_foreign(in, id) ? (unsigned)EV_CLASS_OTHER
					  : (unsigned)ev_type_class((uint16_t)id);
	unsigned bit = 0;

	while (bit < EV_CLASS_COUNT && !(cls & (1u << bit)))
		bit++;
	return bit;
}

uint64_t ev_info_class_events(const ev_info *in, ev_class cls)
{
	uint64_t n = 0;

	for (unsigned id = 0; id < EV_ID_COUNT; id++)
		if (in->per_type[id] && class_bit(in, id) < EV_CLASS_COUNT &&
		    (1u << class_bit(in, id)) == (unsigned)cls)
			n += in->per_type[id];
	return n;
}

uint64_t ev_info_cap_events(const ev_info *in, uint16_t cap)
{
	return in->per_cap[cap].events;
}
