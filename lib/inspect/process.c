/*
 * The processes of a log (process.h): one record per capset of each
 * session, filled from the capset events through the catalogue's layouts;
 * ev_process_list_finish keeps the OS processes and gives each the wall
 * clock of its clock domain.
 */
#include "evtool/process.h"

#include <stdlib.h>
#include <string.h>

#include "evtool/catalog.h"
#include "evtool/decode.h"

#include "internal.h"

#define CAP_BITS_BYTES (65536 / 8)

typedef struct capset_rec {
	ev_process pub;       /* caps filled in by finish */
	uint16_t type;        /* 0: never created */
	char *rts, *args;
	uint8_t *cap_bits;    /* CAP_BITS_BYTES, or NULL before any cap */
	int wall_bad;         /* its WALL_CLOCK_TIME was not a clock reading */
} capset_rec;

struct ev_process_list {
	capset_rec *recs;
	size_t n, alloc;
	unsigned session;
	size_t last;          /* the record found last: capset events cluster */
	ev_process *out;
	size_t n_out;
	uint16_t *caps;       /* every process's caps, one after another */
	int finished;
	ev_diag diag;         /* the last EV_EFORMAT of ev_process_list_add */
};

int ev_process_list_new(ev_process_list **out, ev_diag *diag)
{
	*out = calloc(1, sizeof **out);
	return *out ? EV_OK : evi_new_failed(diag, NULL, EV_ENOMEM);
}

void ev_process_list_free(ev_process_list *pl)
{
	if (!pl)
		return;
	for (size_t i = 0; i < pl->n; i++) {
		free(pl->recs[i].rts);
		free(pl->recs[i].args);
		free(pl->recs[i].cap_bits);
	}
	free(pl->recs);
	free(pl->out);
	free(pl->caps);
	free(pl);
}

void ev_process_list_next_session(ev_process_list *pl)
{
	pl->session++;
}

/* The record of `capset` in the current session, created when absent;
 * NULL past the limit or out of memory (`*rc` says which). */
static capset_rec *record(ev_process_list *pl, uint32_t capset, int *rc)
{
	capset_rec *r;

	if (pl->last < pl->n && pl->recs[pl->last].pub.capset == capset &&
	    pl->recs[pl->last].pub.session == pl->session)
		return &pl->recs[pl->last];
	for (size_t i = pl->n; i-- > 0 && pl->recs[i].pub.session ==
						  pl->session;)
		if (pl->recs[i].pub.capset == capset)
			return &pl->recs[pl->last = i];
	if (pl->n == EV_PROCESS_MAX_CAPSETS) {
		*rc = EV_ELIMIT;
		return NULL;
	}
	if (evi_grow(&pl->recs, &pl->alloc, pl->n + 1, sizeof *pl->recs) < 0) {
		*rc = EV_ENOMEM;
		return NULL;
	}
	r = &pl->recs[pl->last = pl->n++];
	memset(r, 0, sizeof *r);
	r->pub.session = pl->session;
	r->pub.capset = capset;
	return r;
}

/* A copy of the text field `name` of `d` in `*to` (the last event wins). */
static int keep_text(const ev_decoded *d, const char *name, char **to,
		     size_t *len)
{
	const ev_value *v = ev_decoded_field(d, name);
	char *copy;

	if (!v)
		return EV_OK;
	if (!(copy = malloc(v->len + 1)))
		return EV_ENOMEM;
	memcpy(copy, v->bytes, v->len);
	copy[v->len] = '\0';
	free(*to);
	*to = copy;
	*len = v->len;
	return EV_OK;
}

static int add_cap(capset_rec *r, uint64_t cap)
{
	if (cap >= EV_NO_CAP)
		return EV_OK;
	if (!r->cap_bits && !(r->cap_bits = calloc(1, CAP_BITS_BYTES)))
		return EV_ENOMEM;
	r->cap_bits[cap / 8] |= (uint8_t)(1u << (cap % 8));
	return EV_OK;
}

static int fill(capset_rec *r, const ev_event *ev, const ev_decoded *d,
		ev_diag *diag)
{
	const ev_value *a;

	switch (ev->type) {
	case EV_CAPSET_CREATE:
		if ((a = ev_decoded_field(d, "capset_type")))
			r->type = (uint16_t)a->num;
		r->pub.start_ns = ev->time;
		r->pub.have_start = 1;
		return EV_OK;
	case EV_CAPSET_ASSIGN_CAP:
		return (a = ev_decoded_field(d, "cap")) ? add_cap(r, a->num)
							: EV_OK;
	case EV_OSPROCESS_PID:
		if ((a = ev_decoded_field(d, "pid")))
			r->pub.pid = (uint32_t)a->num, r->pub.have_pid = 1;
		return EV_OK;
	case EV_OSPROCESS_PPID:
		if ((a = ev_decoded_field(d, "ppid")))
			r->pub.ppid = (uint32_t)a->num, r->pub.have_ppid = 1;
		return EV_OK;
	case EV_RTS_IDENTIFIER:
		return keep_text(d, "rts_id", &r->rts, &r->pub.rts_len);
	case EV_PROGRAM_ARGS:
		return keep_text(d, "args", &r->args, &r->pub.args_len);
	case EV_WALL_CLOCK_TIME:
		/* The first gives the Unix time of the log's time 0. */
		if (!r->pub.have_wall && !r->wall_bad) {
			int64_t epoch;
			int rc = ev_wall_clock_epoch(ev, &epoch, diag);
			if (rc == EV_EFORMAT)
				return r->wall_bad = 1, rc;
			if (rc == EV_OK) {
				r->pub.wall_epoch_ns = (uint64_t)epoch;
				r->pub.have_wall = 1;
			}
		}
		return EV_OK;
	default:
		return EV_OK;
	}
}

int ev_process_list_add(ev_process_list *pl, const ev_event *ev)
{
	const ev_value *capset;
	capset_rec *r;
	ev_decoded d;
	int rc = EV_OK;

	switch (ev->type) {
	case EV_CAPSET_CREATE:
	case EV_CAPSET_ASSIGN_CAP:
	case EV_OSPROCESS_PID:
	case EV_OSPROCESS_PPID:
	case EV_RTS_IDENTIFIER:
	case EV_PROGRAM_ARGS:
	case EV_WALL_CLOCK_TIME:
		break;
	default:
		return EV_OK;
	}
	if (pl->finished)
		return EV_EINVAL;
	if (!ev_decode(ev, &d) || !(capset = ev_decoded_field(&d, "capset")))
		return EV_OK; /* too short to say anything */
	if (!(r = record(pl, (uint32_t)capset->num, &rc)))
		return rc;
	return fill(r, ev, &d, &pl->diag);
}

/* ---- finish ---- */

static int is_process(const capset_rec *r)
{
	if (r->type == EV_CAPSET_OS_PROCESS)
		return 1;
	return r->type == 0 && (r->pub.have_pid || r->rts || r->args);
}

/* The wall clock of process `p` when it posted none: that of a clock
 * domain of its session sharing one of its capabilities. */
static void borrow_wall(const ev_process_list *pl, capset_rec *p)
{
	if (p->pub.have_wall || !p->cap_bits)
		return;
	for (size_t i = 0; i < pl->n; i++) {
		const capset_rec *c = &pl->recs[i];
		if (c->pub.session != p->pub.session || !c->pub.have_wall ||
		    !c->cap_bits || is_process(c))
			continue;
		for (size_t k = 0; k < CAP_BITS_BYTES; k++)
			if (c->cap_bits[k] & p->cap_bits[k]) {
				p->pub.have_wall = 1;
				p->pub.wall_epoch_ns = c->pub.wall_epoch_ns;
				return;
			}
	}
}

static size_t count_caps(const capset_rec *r)
{
	size_t n = 0;

	for (size_t k = 0; r->cap_bits && k < CAP_BITS_BYTES; k++)
		for (unsigned bit = 0; bit < 8; bit++)
			n += (r->cap_bits[k] >> bit) & 1u;
	return n;
}

static int by_session_capset(const void *a, const void *b)
{
	const ev_process *x = a, *y = b;

	if (x->session != y->session)
		return x->session < y->session ? -1 : 1;
	return x->capset < y->capset ? -1 : x->capset > y->capset;
}

int ev_process_list_finish(ev_process_list *pl)
{
	size_t n = 0, n_caps = 0, at = 0;

	if (pl->finished)
		return EV_EINVAL;
	pl->finished = 1;
	for (size_t i = 0; i < pl->n; i++)
		if (is_process(&pl->recs[i])) {
			n++;
			n_caps += count_caps(&pl->recs[i]);
		}
	pl->out = calloc(n ? n : 1, sizeof *pl->out);
	pl->caps = malloc((n_caps ? n_caps : 1) * sizeof *pl->caps);
	if (!pl->out || !pl->caps)
		return EV_ENOMEM;
	for (size_t i = 0; i < pl->n; i++) {
		capset_rec *r = &pl->recs[i];
		ev_process *p;
		if (!is_process(r))
			continue;
		borrow_wall(pl, r);
		p = &pl->out[pl->n_out++];
		*p = r->pub;
		p->rts = r->rts;
		p->args = r->args;
		p->caps = pl->caps + at;
		for (unsigned cap = 0; r->cap_bits && cap < EV_NO_CAP; cap++)
			if (r->cap_bits[cap / 8] & (1u << (cap % 8)))
				pl->caps[at++] = (uint16_t)cap;
		p->n_caps = (size_t)(pl->caps + at - p->caps);
	}
	qsort(pl->out, pl->n_out, sizeof *pl->out, by_session_capset);
	return EV_OK;
}

size_t ev_process_list_count(const ev_process_list *pl)
{
	return pl->n_out;
}

const ev_process *ev_process_list_at(const ev_process_list *pl, size_t i)
{
	return i < pl->n_out ? &pl->out[i] : NULL;
}

const ev_diag *ev_process_list_diag(const ev_process_list *pl)
{
	return &pl->diag;
}
