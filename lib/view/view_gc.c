/*
 * The phases of a GC on a capability, as ThreadScope draws them
 * (Events/EventDuration.hs, gcStart, gcWork, gcIdle, gcDone): from
 * GC_START (9) the capability is in "sync" until its first GC_WORK (21),
 * GC_IDLE (20) or GC_DONE (22); each of those begins its phase ("work",
 * "idle", "done"; a repeat of the phase's own event changes nothing) until
 * the next other one, and GC_END (10) ends the last. ThreadScope also
 * turns the phase open at a STOP_THREAD (2) or SPARK_COUNTERS (34) back
 * into "sync" from its start (its `_other -> gcStart t0`): so does this.
 *
 * Where ThreadScope and `evtool stats --caps` part, the phases follow
 * stats, so that they share out its GC time exactly: a GC lasts from its
 * GC_START to its GC_END (a RUN_THREAD inside it, where ThreadScope ends
 * the GC, turns the phase into sync as the events above do), and a second
 * GC_START inside a GC starts it again (a phase open then is dropped, as
 * stats drops the time before; the phases that ended before it stay, so
 * sync, the rest of the GC's time, may then come out short).
 *
 * Called by view_index.c (the buckets) and view_replay.c (a short range
 * again from its events); it calls nothing.
 */
#include "internal.h"
#include "view_internal.h"

int evi_view_gc_phase(view_open *o, const ev_event *ev, view_piece *out)
{
	unsigned next;

	switch (ev->type) {
	case EV_GC_START:
		o->gc_phase = 1 + EV_VIEW_GC_SYNC;
		o->phase_start = ev->time;
		return 0;
	case EV_GC_WORK:
		next = EV_VIEW_GC_WORK;
		break;
	case EV_GC_IDLE:
		next = EV_VIEW_GC_IDLE;
		break;
	case EV_GC_DONE:
		next = EV_VIEW_GC_DONE;
		break;
	case EV_GC_END:
		next = EV_VIEW_GC_PHASES; /* none */
		break;
	case EV_RUN_THREAD:
	case EV_STOP_THREAD:
	case EV_SPARK_COUNTERS:
		if (o->gc_phase)
			o->gc_phase = 1 + EV_VIEW_GC_SYNC;
		return 0;
	default:
		return 0;
	}
	if (!o->gc_phase || o->gc_phase == 1 + next)
		return 0;
	out->from = o->phase_start;
	out->to = ev->time;
	out->phase = o->gc_phase - 1u;
	o->gc_phase = next == EV_VIEW_GC_PHASES ? 0 : (uint8_t)(1 + next);
	o->phase_start = ev->time;
	return out->to > out->from;
}

void evi_view_cell_sync(ev_view_cell *c)
{
	uint64_t rest = c->gc_ns;

	for (unsigned k = EV_VIEW_GC_WORK; k < EV_VIEW_GC_PHASES; k++)
		rest -= c->gc_phase_ns[k] < rest ? c->gc_phase_ns[k] : rest;
	c->gc_phase_ns[EV_VIEW_GC_SYNC] = rest;
}
