/*
 * The report accumulator: what each event adds to the time buckets.
 *
 * A capability runs Haskell code from RUN_THREAD to STOP_THREAD, is in
 * GC from GC_START to GC_END (GHC's rts/Trace.c traceEventGcStart and
 * traceEventGcEnd, posted by every GC thread) and idle otherwise, over
 * its process's run (report_finish.c), as stats counts it. A collection's pause is GC_END - GC_START
 * on the capability that posted its GC_STATS_GHC, as +RTS -s times it
 * (see stats.c). HEAP_ALLOCATED carries one capability's running total,
 * HEAP_SIZE and HEAP_LIVE the process's current figures (doc/format.md
 * section 5 for the payloads).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "evtool/stats_analysis.h"
#include "report_internal.h"
#include "text.h"

static evi_report_proc *proc_get(ev_report *rep, uint32_t capset);

/* A timed collection of the process of `capset`, from the report's
 * ev_stats: counted, with its pause, in the bucket where it began. */
static void on_pause(void *ctx, uint32_t capset, const ev_stats_pause *pause)
{
	ev_report *rep = ctx;
	evi_report_proc *p;
	ev_report_heap_bucket *h;

	if (rep->pause_status < 0)
		return;
	if (evi_report_cover(rep, pause->start_ns) < 0 ||
	    !(p = proc_get(rep, capset))) {
		rep->pause_status = rep->diag.status;
		return;
	}
	h = &p->heap[evi_grid_index(&rep->grid, pause->start_ns)];
	h->collections++;
	h->pause_ns += pause->duration_ns;
	if (pause->duration_ns > h->max_pause_ns)
		h->max_pause_ns = pause->duration_ns;
}

int ev_report_new(ev_report **out, const ev_report_options *opt, ev_diag *diag)
{
	ev_report_options def = EV_REPORT_OPTIONS_INIT;
	ev_report *rep;

	*out = NULL;
	if (!opt)
		opt = &def;
	if (opt->version != EV_REPORT_OPTIONS_VERSION || opt->buckets < 16 ||
	    opt->buckets > EV_REPORT_MAX_BUCKETS ||
	    opt->bands > EV_REPORT_MAX_LABELS)
		return evi_fail_at(diag, EV_ORIGIN_OPTIONS, EV_EINVAL, 0, 0,
				   "report options of version %u (this "
				   "library reads version %u), buckets "
				   "outside 16..%u or bands above %u",
				   opt->version, EV_REPORT_OPTIONS_VERSION,
				   EV_REPORT_MAX_BUCKETS, EV_REPORT_MAX_LABELS);
	if (!(rep = calloc(1, sizeof *rep)))
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	if (ev_stats_new(&rep->stats, NULL) < 0) {
		free(rep);
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	}
	if (evi_heap_samples_init(&rep->profile.heap) < 0) {
		ev_stats_free(rep->stats);
		free(rep);
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	}
	ev_stats_keep_threads(rep->stats);
	ev_stats_on_pause(rep->stats, on_pause, rep);
	if (ev_stats_keep_spans(rep->stats, EV_STATS_SPANS_EVENTS |
					    EV_STATS_SPANS_MARKERS) < 0) {
		ev_report_free(rep);
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	}
	ev_stats_on_span(rep->stats, evi_report_on_span, rep);
	if (ev_stats_keep_bands(rep->stats) < 0) {
		ev_report_free(rep);
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	}
	rep->opt = *opt;
	rep->grid.n = opt->buckets;
	rep->grid.width = 1;
	rep->procs.key_offset = offsetof(evi_report_proc, capset);
	rep->procs.record_size = sizeof(evi_report_proc);
	rep->procs.max = EV_REPORT_MAX_PROCESSES;
	*out = rep;
	return EV_OK;
}

void ev_report_free(ev_report *rep)
{
	if (!rep)
		return;
	for (size_t i = 0; i < rep->n_caps; i++)
		free(rep->caps[i].b);
	for (size_t i = 0; i < rep->procs.n; i++) {
		free(evi_report_proc_at(rep, i)->heap);
		free(evi_report_proc_at(rep, i)->rts_identifier);
		free(evi_report_proc_at(rep, i)->args);
		free(evi_report_proc_at(rep, i));
	}
	for (size_t i = 0; i < rep->n_markers; i++)
		free(rep->markers[i].text);
	evi_report_profile_free(&rep->profile);
	evi_report_spans_free(&rep->spans);
	free(rep->caps);
	evi_capsets_free(&rep->procs);
	free(rep->markers);
	free(rep->scratch);
	free(rep->out);
	free(rep->out_caps);
	free(rep->out_markers);
	free(rep->out_bands);
	free(rep->out_band_bytes);
	free(rep->out_sampled);
	ev_stats_free(rep->stats);
	free(rep);
}

static int nomem(ev_report *rep)
{
	return evi_fail(&rep->diag, EV_ENOMEM, 0, 0, "out of memory");
}

/* ---- processes and capabilities ---- */

/* The process of `capset`, created when absent; NULL with the error in
 * rep->diag. */
static evi_report_proc *proc_get(ev_report *rep, uint32_t capset)
{
	evi_report_proc *p = evi_capsets_get(&rep->procs, capset, &rep->diag);

	if (p && !p->heap && !(p->heap = evi_report_series(rep,
							   sizeof *p->heap))) {
		nomem(rep);
		return NULL;
	}
	return p;
}

/* The state of `cap`, grown on first sight; NULL with the error in
 * rep->diag. */
static evi_report_cap *cap_get(ev_report *rep, uint16_t cap)
{
	if (cap >= EV_REPORT_MAX_CAPS) {
		evi_fail(&rep->diag, EV_ELIMIT, 0, 0,
			 "capability %u: more than %u capabilities", cap,
			 EV_REPORT_MAX_CAPS);
		return NULL;
	}
	if (cap >= rep->n_caps &&
	    evi_grow_zeroed(&rep->diag, &rep->caps, &rep->n_caps, cap,
			    sizeof *rep->caps) < 0)
		return NULL;
	return &rep->caps[cap];
}

/* ---- the events ---- */

/* Moves the capability's clock to `t`, adding the time since its last
 * event to its current state. GC_END steps back a little (doc/format.md
 * section 3): time never runs backwards here. */
static void cap_advance(ev_report *rep, evi_report_cap *c, uint64_t t)
{
	if (!c->seen) {
		c->seen = 1;
		c->first = c->since = t;
		c->state = EVI_CAP_IDLE;
		return;
	}
	if (t > c->since) {
		evi_report_spread(rep, c->b, c->state, c->since, t);
		c->since = t;
	}
}

/* A GC lasts from GC_START to GC_END. The RTS stamps GC_END before the
 * GC_GLOBAL_SYNC and GC_STATS_GHC it writes just ahead of it (stats.c):
 * in file order they came first and moved the cap's clock past GC_END in
 * GC, so that time goes back to the state before the GC, as in time
 * order, where they come after GC_END. */
static void gc_end(ev_report *rep, evi_report_cap *c, uint64_t t)
{
	uint64_t from = t > c->gc_since ? t : c->gc_since;

	if (c->state == EVI_CAP_GC && from < c->since)
		evi_report_ungc(rep, c->b, c->state_before_gc, from, c->since);
	c->state = c->state_before_gc;
}

/* Events of a capability's buffer: its state and its GC. */
static int cap_event(ev_report *rep, const ev_event *ev)
{
	evi_report_cap *c = cap_get(rep, ev->cap);

	if (!c)
		return rep->diag.status;
	if (!c->b && !(c->b = evi_report_series(rep, sizeof *c->b)))
		return nomem(rep);
	cap_advance(rep, c, ev->time);
	switch (ev->type) {
	case EV_RUN_THREAD:
		c->state = EVI_CAP_RUNNING;
		break;
	case EV_STOP_THREAD:
		c->state = EVI_CAP_IDLE;
		break;
	case EV_GC_START:
		if (c->state != EVI_CAP_GC) {
			c->state_before_gc = c->state;
			c->gc_since = c->since;
		}
		c->state = EVI_CAP_GC;
		break;
	case EV_GC_END:
		gc_end(rep, c, ev->time);
		break;
	default:
		break;
	}
	return EV_OK;
}

static int on_capset_create(ev_report *rep, const ev_event *ev)
{
	evi_report_proc *p;

	if (ev_load16(ev->payload + 4) != EV_CAPSET_OS_PROCESS)
		return EV_OK;
	if (!(p = proc_get(rep, ev_load32(ev->payload))))
		return rep->diag.status;
	p->os_process = 1;
	return EV_OK;
}

static int on_capset_assign(ev_report *rep, const ev_event *ev)
{
	uint32_t capset = ev_load32(ev->payload);
	uint16_t cap = ev_load16(ev->payload + 4);
	const evi_report_proc *p = evi_capsets_find(&rep->procs, capset);
	evi_report_cap *c;

	/* Caps join a clock-domain capset too; only the process counts. */
	if (!p || !p->os_process || cap == EV_NO_CAP)
		return EV_OK;
	if (!(c = cap_get(rep, cap)))
		return rep->diag.status;
	c->claim.have_process = 1;
	c->claim.process = capset;
	return EV_OK;
}

static int on_identity(ev_report *rep, const ev_event *ev)
{
	evi_report_proc *p = proc_get(rep, ev_load32(ev->payload));
	const uint8_t *text = ev->payload + 4;
	size_t len = ev->size - 4u;

	if (!p)
		return rep->diag.status;
	p->os_process = 1;
	if (ev->type == EV_OSPROCESS_PID) {
		p->have_pid = 1;
		p->pid = ev_load32(ev->payload + 4);
	} else if (ev->type == EV_RTS_IDENTIFIER && !p->rts_identifier) {
		if (!(p->rts_identifier = evi_text_copy(text, len,
						    EV_REPORT_MAX_TEXT, NULL)))
			return nomem(rep);
	} else if (ev->type == EV_PROGRAM_ARGS && !p->args) {
		if (!(p->args = evi_text_copy(text, len, EV_REPORT_MAX_ARGS,
					      &p->args_len)))
			return nomem(rep);
	}
	return EV_OK;
}

/* HEAP_ALLOCATED, HEAP_SIZE, HEAP_LIVE and GC_STATS_GHC: the process
 * their capset names has heap statistics. */
static int on_heap(ev_report *rep, const ev_event *ev)
{
	evi_report_proc *p = proc_get(rep, ev_load32(ev->payload));
	evi_report_cap *c = NULL;
	ev_report_heap_bucket *h;
	uint64_t bytes;

	if (!p)
		return rep->diag.status;
	if (ev->cap != EV_NO_CAP)
		c = &rep->caps[ev->cap]; /* cap_event made it */
	p->have_heap = 1;
	if (c && (ev->type == EV_HEAP_ALLOCATED ||
		  ev->type == EV_GC_STATS_GHC)) {
		c->claim.have_heap = 1;
		c->claim.heap = p->capset;
	}
	if (ev->type == EV_GC_STATS_GHC)
		return EV_OK; /* its pause comes through on_pause */
	h = &p->heap[evi_grid_index(&rep->grid, ev->time)];
	bytes = ev_load64(ev->payload + 4);
	if (ev->type == EV_HEAP_ALLOCATED && c) {
		/* A running total: the bucket gets what it grew by. */
		h->allocated_bytes += c->have_alloc && bytes >= c->last_alloc
					      ? bytes - c->last_alloc : bytes;
		if (!c->have_alloc) {
			c->first_alloc = bytes;
			c->first_alloc_ns = ev->time;
			c->first_alloc_capset = p->capset;
		}
		c->have_alloc = 1;
		c->last_alloc = bytes;
	} else if (ev->type == EV_HEAP_SIZE) {
		if (bytes > h->heap_size_bytes)
			h->heap_size_bytes = bytes;
		h->have |= EV_REPORT_HAVE_SIZE;
	} else if (ev->type == EV_HEAP_LIVE) {
		if (bytes > h->live_bytes)
			h->live_bytes = bytes;
		h->have |= EV_REPORT_HAVE_LIVE;
	}
	return EV_OK;
}

static int on_marker(ev_report *rep, const ev_event *ev)
{
	evi_report_marker *m;

	if (rep->n_markers == EV_REPORT_MAX_MARKERS) {
		if (ev->cap != EV_NO_CAP)
			rep->caps[ev->cap].markers_dropped++;
		return EV_OK;
	}
	if (evi_grow(&rep->markers, &rep->markers_cap, rep->n_markers + 1,
		     sizeof *rep->markers) < 0)
		return nomem(rep);
	m = &rep->markers[rep->n_markers];
	if (!(m->text = evi_text_copy(ev->payload, ev->size,
				      EV_REPORT_MAX_TEXT, NULL)))
		return nomem(rep);
	m->time = ev->time;
	m->cap = ev->cap;
	rep->n_markers++;
	return EV_OK;
}

/* Whether the handlers read the payload fields of `type`. */
static int reads_fields(uint16_t type)
{
	switch (type) {
	case EV_CAPSET_CREATE:
	case EV_CAPSET_ASSIGN_CAP:
	case EV_OSPROCESS_PID:
	case EV_RTS_IDENTIFIER:
	case EV_PROGRAM_ARGS:
	case EV_GC_STATS_GHC:
	case EV_HEAP_ALLOCATED:
	case EV_HEAP_SIZE:
	case EV_HEAP_LIVE:
		return 1;
	default:
		return 0;
	}
}

/* The events that evi_type_is_untimed passes. */
static int dispatch(ev_report *rep, const ev_event *ev)
{
	switch (ev->type) {
	case EV_GC_STATS_GHC:
	case EV_HEAP_ALLOCATED:
	case EV_HEAP_SIZE:
	case EV_HEAP_LIVE:
		return on_heap(rep, ev);
	case EV_USER_MARKER:
		return on_marker(rep, ev);
	default:
		return evi_heap_samples_type(ev->type)
			? evi_report_profile_event(rep, ev) : EV_OK;
	}
}

/* The metadata the report reads: processes, their identity and
 * capabilities, heap-profile definitions. */
static int dispatch_metadata(ev_report *rep, const ev_event *ev)
{
	switch (ev->type) {
	case EV_CAPSET_CREATE:
		return on_capset_create(rep, ev);
	case EV_CAPSET_ASSIGN_CAP:
		return on_capset_assign(rep, ev);
	case EV_OSPROCESS_PID:
	case EV_RTS_IDENTIFIER:
	case EV_PROGRAM_ARGS:
		return on_identity(rep, ev);
	case EV_HEAP_PROF_BEGIN:
	case EV_HEAP_PROF_COST_CENTRE:
		return evi_report_profile_event(rep, ev);
	default:
		return EV_OK;
	}
}

/* Metadata (and a block marker, stamped as its block's first event)
 * neither widens the buckets nor moves a capability's clock: a slice
 * (filter --from) keeps the run's metadata from before its window, and
 * its charts draw the window, from its first event that is not metadata,
 * as stats times it (evi_type_is_untimed). */
static int add_untimed(ev_report *rep, const ev_event *ev)
{
	int rc;

	if ((rc = ev_stats_add(rep->stats, ev)) < 0) {
		rep->diag = *ev_stats_diag(rep->stats);
		return rc;
	}
	if ((rc = dispatch_metadata(rep, ev)) < 0) {
		rep->diag.offset = ev->offset;
		rep->diag.event_index = ev->index;
	}
	return rc;
}

int evi_report_add(ev_report *rep, const ev_event *ev)
{
	int rc;

	if (rep->finished)
		return evi_fail(&rep->diag, EV_EINVAL, ev->offset, ev->index,
				"event added after evi_report_finish");
	/* Block markers frame the events without being any: a re-blocked
	 * or sorted copy has others, and the same page. */
	if (ev->type == EV_BLOCK_MARKER)
		return EV_OK;
	if (reads_fields(ev->type) &&
	    (rc = evi_need_fields(&rep->diag, ev, "the report needs")) < 0)
		return rc;
	if (evi_type_is_untimed(ev->type))
		return add_untimed(rep, ev);
	/* The buckets first: a pause that ev_stats_add reports falls into
	 * buckets that cover the event that ends it. */
	if ((rc = evi_report_cover(rep, ev->time)) < 0)
		goto fail;
	if ((rc = ev_stats_add(rep->stats, ev)) < 0) {
		rep->diag = *ev_stats_diag(rep->stats);
		return rc;
	}
	if ((rc = rep->pause_status) < 0 || (rc = rep->spans.status) < 0)
		goto fail;
	if (ev->cap != EV_NO_CAP && (rc = cap_event(rep, ev)) < 0)
		goto fail;
	if ((rc = dispatch(rep, ev)) < 0)
		goto fail;
	return EV_OK;
fail:
	rep->diag.offset = ev->offset;
	rep->diag.event_index = ev->index;
	return rc;
}

static int consume_begin(void *self, const ev_session *s)
{
	ev_report *rep = self;

	rep->profile.sessions++;
	return ev_stats_consumer()->begin(rep->stats, s);
}

static int consume_event(void *self, const ev_event *ev)
{
	return evi_report_add(self, ev);
}

/* The report of the events given, cut log or not: on a failure there is
 * nothing to finish. */
static int consume_finish(void *self, int status)
{
	int rc;

	if (!ev_consumer_complete(status))
		return status;
	return (rc = evi_report_finish(self)) < 0 ? rc : status;
}

const ev_consumer *ev_report_consumer(void)
{
	static const ev_consumer consumer = { consume_begin, consume_event,
					      NULL, consume_finish,
					      EV_CONSUME_MARKERS };

	return &consumer;
}

const ev_stats *ev_report_stats(const ev_report *rep)
{
	return rep->stats;
}

const ev_diag *ev_report_diag(const ev_report *rep)
{
	return &rep->diag;
}
