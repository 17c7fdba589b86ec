/*
 * speedscope's file format (https://www.speedscope.app/file-format-schema.json)
 * from the cost-centre time profile of a profiled run (+RTS -p -l):
 *
 *   {"$schema":...,"exporter":"evtool V","name":"PROGRAM",
 *    "activeProfileIndex":0,
 *    "profiles":[{"type":"sampled","name":"cap 0","unit":"nanoseconds",
 *                 "startValue":0,"endValue":W,"samples":[[0,3,7],...],
 *                 "weights":[1000000,...]},...],
 *    "shared":{"frames":[{"name":"Main.fib","file":"Main.hs","line":5,
 *                         "col":1},...]}}
 *
 * One "sampled" profile per capability (and session) of the
 * PROF_SAMPLE_COST_CENTRE events (167), each sample its stack root first
 * and weighted by PROF_BEGIN's tick interval (unit "none", weight 1,
 * without one). Frames are the HEAP_PROF_COST_CENTRE definitions (161),
 * named MODULE.LABEL as GHC's stack traces name them, with the file,
 * line and column of their source location. Samples are spilled to an
 * unnamed temporary file as they come and written at the end, profile by
 * profile, so memory stays bounded.
 *
 * Layering: export.c -> this file -> export_out.c and
 * lib/inspect/cost_centres.c; it calls no function of export.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evtool/catalog.h"
#include "export_internal.h"
#include "internal.h"
#include "tempfile.h"

/* Spill records are buffered and written in chunks of this size. */
#define SPILL_CHUNK (64u * 1024u)
/* A record: cap u16, depth u8, then depth u32 ids (root last). */
#define RECORD_HEAD 3u
#define RECORD_MAX (RECORD_HEAD + 4u * 255u)

typedef struct ss_profile {
	unsigned session;
	uint16_t cap;
	uint64_t samples;
	uint64_t spill_from;  /* offset of its session's first record */
} ss_profile;

typedef struct ss_state {
	evi_cc_table *ccs;
	unsigned session;
	int fd;                /* spill; -1 until the first sample */
	uint8_t *buf;          /* SPILL_CHUNK + RECORD_MAX */
	size_t buf_len;
	uint64_t spilled;      /* bytes written to fd */
	uint64_t session_from; /* spill offset where this session begins */
	ss_profile *profiles;
	size_t n_profiles, profiles_alloc;
	uint32_t *cap_profile; /* per cap of this session: index + 1 */
	size_t n_caps;
	uint64_t tick_ns;
	char name[256];
} ss_state;

/* ---- the spill ---- */

static int spill_flush(ev_exporter *x, ss_state *st)
{
	int rc;

	if (!st->buf_len)
		return EV_OK;
	rc = evi_pwrite_all(st->fd, st->buf, st->buf_len, st->spilled, &x->diag);
	st->spilled += st->buf_len;
	st->buf_len = 0;
	return rc;
}

static int spill_open(ev_exporter *x, ss_state *st)
{
	int rc;

	if (st->fd >= 0)
		return EV_OK;
	if ((rc = evi_temp_open(x->opts.tmpdir, &st->fd, &x->diag)) < 0)
		return rc;
	if (!(st->buf = malloc(SPILL_CHUNK + RECORD_MAX)))
		return evi_fail(&x->diag, EV_ENOMEM, 0, 0, "out of memory");
	return EV_OK;
}

/* ---- profiles ---- */

static int profile_of(ev_exporter *x, ss_state *st, uint16_t cap,
		      ss_profile **out)
{
	int rc;

	if (cap >= st->n_caps &&
	    (rc = evi_grow_zeroed(&x->diag, &st->cap_profile, &st->n_caps,
				  cap, sizeof *st->cap_profile)) < 0)
		return rc;
	if (!st->cap_profile[cap]) {
		ss_profile *p;
		if (st->n_profiles == st->profiles_alloc &&
		    (rc = evi_grow_zeroed(&x->diag, &st->profiles,
					  &st->profiles_alloc, st->n_profiles,
					  sizeof *st->profiles)) < 0)
			return rc;
		p = &st->profiles[st->n_profiles++];
		p->session = st->session;
		p->cap = cap;
		p->samples = 0;
		p->spill_from = st->session_from;
		st->cap_profile[cap] = (uint32_t)st->n_profiles;
	}
	*out = &st->profiles[st->cap_profile[cap] - 1];
	return EV_OK;
}

static int on_sample(ev_exporter *x, ss_state *st, const ev_event *ev)
{
	uint32_t cap;
	unsigned depth;
	ss_profile *p = NULL;
	uint8_t *r;
	int rc;

	if (ev->size < 13)
		return EV_OK;
	cap = ev_load32(ev->payload);
	depth = ev->payload[12];
	if (13u + 4u * depth > ev->size)
		depth = (ev->size - 13) / 4;
	if (cap >= EV_NO_CAP)
		return EV_OK;
	if ((rc = spill_open(x, st)) < 0 ||
	    (rc = profile_of(x, st, (uint16_t)cap, &p)) < 0)
		return rc;
	r = st->buf + st->buf_len;
	ev_store16(r, (uint16_t)cap);
	r[2] = (uint8_t)depth;
	memcpy(r + RECORD_HEAD, ev->payload + 13, 4u * depth);
	st->buf_len += RECORD_HEAD + 4u * depth;
	p->samples++;
	x->stats.samples++;
	return st->buf_len >= SPILL_CHUNK ? spill_flush(x, st) : EV_OK;
}

static int ss_event(ev_exporter *x, void *state, const ev_event *ev)
{
	ss_state *st = state;

	switch (ev->type) {
	case EV_HEAP_PROF_COST_CENTRE:
		return evi_cc_define(st->ccs, st->session, ev, &x->diag);
	case EV_PROF_SAMPLE_COST_CENTRE:
		return on_sample(x, st, ev);
	case EV_PROF_BEGIN:
		if (ev->size >= 8 && !st->tick_ns)
			st->tick_ns = ev_load64(ev->payload);
		break;
	case EV_PROGRAM_ARGS:
		if (!st->name[0] && ev->size > 4) {
			size_t n = ev->size - 4 < sizeof st->name - 1
					   ? ev->size - 4 : sizeof st->name - 1;
			memcpy(st->name, ev->payload + 4, n);
			st->name[n] = '\0'; /* the program, up to its NUL */
		}
		break;
	}
	return EV_OK;
}

/* The types ss_event acts on. */
static int ss_reads(uint16_t type)
{
	return type == EV_HEAP_PROF_COST_CENTRE ||
	       type == EV_PROF_SAMPLE_COST_CENTRE || type == EV_PROF_BEGIN ||
	       type == EV_PROGRAM_ARGS;
}

static int ss_session(ev_exporter *x, void *state, unsigned session,
		      unsigned quirks)
{
	ss_state *st = state;
	int rc;

	(void)quirks;
	if (st->fd >= 0 && (rc = spill_flush(x, st)) < 0)
		return rc;
	st->session = session;
	st->session_from = st->spilled;
	if (st->cap_profile)
		memset(st->cap_profile, 0, st->n_caps * sizeof *st->cap_profile);
	return EV_OK;
}

/* ---- writing ---- */

/* Frame index of cost centre `id`; an id with no definition gets one
 * ("cost centre N") so that every sample has frames. */
static int frame_of(ev_exporter *x, ss_state *st, unsigned session,
		    uint32_t id, uint32_t *out)
{
	const evi_cc *cc = evi_cc_find(st->ccs, session, id);
	int rc;

	if (!cc) {
		uint8_t payload[4 + 32];
		ev_event ev = { EV_HEAP_PROF_COST_CENTRE, EV_NO_CAP, 0, 0,
				payload, 0, 0 };
		int n = snprintf((char *)payload + 4, 28, "cost centre %u",
				 (unsigned)id);
		ev_store32(payload, id);
		ev.size = 4u + (uint32_t)n + 1u;
		if ((rc = evi_cc_define(st->ccs, session, &ev, &x->diag)) < 0)
			return rc;
		cc = evi_cc_find(st->ccs, session, id);
	}
	*out = cc->index;
	return EV_OK;
}

/* Calls back every record of profile `p` from the spill, in order. */
static int write_samples(ev_exporter *x, ss_state *st, const ss_profile *p)
{
	uint8_t *buf = st->buf;
	size_t have = 0, at = 0, got;
	uint64_t off = p->spill_from, left = p->samples;
	int rc, first = 1;

	while (left) {
		size_t need;
		if (have - at < RECORD_HEAD ||
		    have - at < RECORD_HEAD + 4u * buf[at + 2]) {
			memmove(buf, buf + at, have - at);
			have -= at;
			at = 0;
			if ((rc = evi_pread_full(st->fd, buf + have,
						 SPILL_CHUNK + RECORD_MAX - have,
						 off, &got, &x->diag)) < 0)
				return rc;
			if (!got)
				return evi_fail(&x->diag, EV_EIO, 0, 0,
						"temporary file: samples missing");
			off += got;
			have += got;
			continue;
		}
		need = RECORD_HEAD + 4u * buf[at + 2];
		if (ev_load16(buf + at) == p->cap) {
			unsigned depth = buf[at + 2];
			evi_puts(&x->out, first ? "[" : ",[");
			/* The RTS writes the innermost cost centre first. */
			for (unsigned i = depth; i-- > 0;) {
				uint32_t frame;
				if ((rc = frame_of(x, st, p->session,
						   ev_load32(buf + at + RECORD_HEAD + 4 * i),
						   &frame)) < 0)
					return rc;
				if (i + 1 < depth)
					evi_putc(&x->out, ',');
				evi_put_u64(&x->out, frame);
			}
			evi_putc(&x->out, ']');
			first = 0;
			left--;
			if ((rc = evi_export_flush(x, 0)) < 0)
				return rc;
		}
		at += need;
	}
	return EV_OK;
}

static int write_profile(ev_exporter *x, ss_state *st, const ss_profile *p,
			 int first)
{
	ev_text *t = &x->out;
	uint64_t weight = st->tick_ns ? st->tick_ns : 1;
	char name[48];
	int rc;

	evi_puts(t, first ? "\n{" : ",\n{");
	evi_puts(t, "\"type\":\"sampled\",\"name\":\"");
	if (p->session)
		snprintf(name, sizeof name, "session %u cap %u", p->session,
			 (unsigned)p->cap);
	else
		snprintf(name, sizeof name, "cap %u", (unsigned)p->cap);
	evi_puts(t, name);
	evi_puts(t, st->tick_ns ? "\",\"unit\":\"nanoseconds\""
				: "\",\"unit\":\"none\"");
	evi_puts(t, ",\"startValue\":0,\"endValue\":");
	evi_put_u64(t, weight * p->samples);
	evi_puts(t, ",\"samples\":[");
	if ((rc = write_samples(x, st, p)) < 0)
		return rc;
	evi_puts(t, "],\"weights\":[");
	for (uint64_t i = 0; i < p->samples; i++) {
		if (i)
			evi_putc(t, ',');
		evi_put_u64(t, weight);
		if ((rc = evi_export_flush(x, 0)) < 0)
			return rc;
	}
	evi_puts(t, "]}");
	x->stats.profiles++;
	return EV_OK;
}

static void put_text(ev_text *t, const char *s)
{
	evi_put_json_string(t, (const uint8_t *)s, strlen(s));
}

/* A frame: MODULE.LABEL, and file, line and column from "FILE:L:C-..". */
static void write_frame(ev_text *t, const evi_cc *cc)
{
	const char *loc = cc->srcloc, *colon = strchr(loc, ':');
	char *name;
	size_t ml = strlen(cc->module), ll = strlen(cc->label);

	evi_puts(t, "{\"name\":");
	if (!ml) {
		put_text(t, cc->label);
	} else if ((name = malloc(ml + ll + 2))) {
		memcpy(name, cc->module, ml);
		name[ml] = '.';
		memcpy(name + ml + 1, cc->label, ll + 1);
		put_text(t, name);
		free(name);
	} else {
		t->failed = 1;
	}
	if (*loc) {
		evi_puts(t, ",\"file\":");
		evi_put_json_string(t, (const uint8_t *)loc,
				    colon ? (size_t)(colon - loc) : strlen(loc));
	}
	if (colon && colon[1] >= '0' && colon[1] <= '9') {
		char *end;
		unsigned long line = strtoul(colon + 1, &end, 10);
		evi_puts(t, ",\"line\":");
		evi_put_u64(t, line);
		if (*end == ':' && end[1] >= '0' && end[1] <= '9') {
			evi_puts(t, ",\"col\":");
			evi_put_u64(t, strtoul(end + 1, NULL, 10));
		}
	}
	evi_putc(t, '}');
}

static int ss_finish(ev_exporter *x, void *state)
{
	ss_state *st = state;
	ev_text *t = &x->out;
	int rc;

	if (!st->n_profiles)
		return EV_EXPORT_NOTHING;
	if ((rc = spill_flush(x, st)) < 0)
		return rc;
	evi_puts(t, "{\"$schema\":\"https://www.speedscope.app/"
		 "file-format-schema.json\",\"exporter\":\"evtool "
		 EV_VERSION_STRING "\",\"name\":");
	evi_put_json_string(t, (const uint8_t *)st->name, strlen(st->name));
	evi_puts(t, ",\"activeProfileIndex\":0,\"profiles\":[");
	for (size_t i = 0; i < st->n_profiles; i++)
		if ((rc = write_profile(x, st, &st->profiles[i], i == 0)) < 0)
			return rc;
	evi_puts(t, "],\n\"shared\":{\"frames\":[");
	for (size_t i = 0; i < evi_cc_count(st->ccs); i++) {
		evi_puts(t, i ? ",\n" : "\n");
		write_frame(t, evi_cc_at(st->ccs, i));
		if ((rc = evi_export_flush(x, 0)) < 0)
			return rc;
	}
	evi_puts(t, "]}}\n");
	return evi_export_check(x);
}

static int ss_open(ev_exporter *x, void **state)
{
	ss_state *st = calloc(1, sizeof *st);

	(void)x;
	if (!st || evi_cc_table_new(&st->ccs) < 0) {
		free(st);
		return EV_ENOMEM;
	}
	st->fd = -1;
	*state = st;
	return EV_OK;
}

static void ss_free(void *state)
{
	ss_state *st = state;

	if (st->fd >= 0)
		close(st->fd);
	evi_cc_table_free(st->ccs);
	free(st->buf);
	free(st->profiles);
	free(st->cap_profile);
	free(st);
}

const evi_export_ops evi_export_speedscope = {
	ss_open, ss_session, ss_event, ss_finish, ss_free, ss_reads
};
