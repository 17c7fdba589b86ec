/*
 * Deciding (filter.h): what the selectors need to learn about a log
 * (first event, wall clock, markers, processes), the windows resolved from
 * it per session, and the verdict on one event.
 *
 * Layering: the bottom of the filter (filter_run.c -> filter.c -> this
 * file). It calls no function of filter.c or filter_run.c; the small
 * helpers both upper files use (the diagnostic, bitmaps, range lists,
 * which types are metadata) live here for that reason.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtool/catalog.h"
#include "evtool/decode.h"
#include "filter_internal.h"
#include "internal.h"

static const char redacted[] = "<redacted>";

/* ------------------------------------------------------------------------
 * Helpers for the whole filter (filter_internal.h)
 * ---------------------------------------------------------------------- */

int evi_filter_fail(ev_filter *f, int status, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = evi_vfail(&f->diag, EV_ORIGIN_OPTIONS, 0, status, 0, 0, fmt, ap);
	va_end(ap);
	return rc;
}

int evi_ranges_hold(const evi_range_list *l, uint64_t v)
{
	for (size_t i = 0; i < l->n; i++)
		if (v >= l->items[i].lo && v <= l->items[i].hi)
			return 1;
	return 0;
}

int evi_bitmap_new(uint8_t **bits)
{
	if (!*bits && !(*bits = calloc(1, EVI_FILTER_BITMAP_BYTES)))
		return EV_ENOMEM;
	return EV_OK;
}

static void free_process_sets(evi_session_facts *s)
{
	for (int d = 0; d < EVI_N_DIRECTIONS; d++) {
		free(s->process[d].caps);
		free(s->process[d].capsets);
		memset(&s->process[d], 0, sizeof s->process[d]);
	}
	s->process_ready = 0;
}

static void free_session(evi_session_facts *s)
{
	free(s->capsets);
	evi_idmap_free(&s->capset_ids);
	evi_idmap_free(&s->assigned);
	evi_idmap_free(&s->task_caps);
	free_process_sets(s);
}

/* ------------------------------------------------------------------------
 * Learning
 * ---------------------------------------------------------------------- */

static int has_process(const evi_selector *s)
{
	return s->pids.n > 0 || s->capsets.n > 0;
}

static int time_needs_facts(const evi_time *t)
{
	return t->kind == EVI_TIME_RELATIVE || t->kind == EVI_TIME_WALL;
}

unsigned evi_filter_learning_passes(const ev_filter *f)
{
	unsigned passes = 0;

	for (int d = 0; d < EVI_N_DIRECTIONS; d++) {
		const evi_selector *s = &f->sel[d];
		if (s->markers.set && s->markers.start && s->markers.end)
			return 2;
		if (s->markers.set || has_process(s) ||
		    time_needs_facts(&s->time.from) ||
		    time_needs_facts(&s->time.to))
			passes = 1;
	}
	return passes;
}

static evi_session_facts *session_at(ev_filter *f, unsigned session)
{
	if (session >= f->n_sessions) {
		size_t n = (size_t)session + 1;

		if (evi_grow(&f->sessions, &f->sessions_cap, n,
			     sizeof *f->sessions) < 0)
			return NULL;
		memset(f->sessions + f->n_sessions, 0,
		       (n - f->n_sessions) * sizeof *f->sessions);
		f->n_sessions = n;
	}
	return &f->sessions[session];
}

/* The capset `id` of the session, added when new; capset_ids maps each
 * id to its index in s->capsets. */
static int find_capset(evi_session_facts *s, uint32_t id, evi_capset_info **out)
{
	uint64_t at;
	int added, rc;

	if (evi_idmap_get(&s->capset_ids, id, &at)) {
		*out = &s->capsets[at];
		return EV_OK;
	}
	if (evi_grow(&s->capsets, &s->capsets_cap, s->n_capsets + 1,
		     sizeof *s->capsets) < 0)
		return EV_ENOMEM;
	if ((rc = evi_idmap_add(&s->capset_ids, id, s->n_capsets,
				EVI_FILTER_MAX_CAPSETS, &added)) < 0)
		return rc;
	memset(&s->capsets[s->n_capsets], 0, sizeof s->capsets[0]);
	s->capsets[s->n_capsets].id = id;
	*out = &s->capsets[s->n_capsets++];
	return EV_OK;
}

/* (capset, cap) as one key of s->assigned. */
static uint64_t assignment_key(uint32_t capset, uint16_t cap)
{
	return (uint64_t)capset << 16 | cap;
}

static int add_assignment(evi_session_facts *s, uint32_t capset, uint16_t cap)
{
	return evi_idmap_add(&s->assigned, assignment_key(capset, cap), 0,
			     EVI_FILTER_MAX_ASSIGNMENTS, NULL);
}

/* The first cap a task was created on. A task id (a pthread address) can
 * be reused within a process, on its own caps; merge renames the ids that
 * collide between processes, so one id stays within one process. */
static int add_task(evi_session_facts *s, uint64_t task, uint16_t cap)
{
	return evi_idmap_add(&s->task_caps, task, cap, EVI_FILTER_MAX_TASKS,
			     NULL);
}

/* The cap task `task` was created on, or -1 when no TASK_CREATE named
 * it. */
static int task_cap_of(const evi_session_facts *s, uint64_t task)
{
	uint64_t cap;

	return evi_idmap_get(&s->task_caps, task, &cap) ? (int)cap : -1;
}

/* CAPSET_CREATE (25: capset u32, type u16), OSPROCESS_PID (32: capset,
 * pid u32), CAPSET_ASSIGN_CAP (27: capset, cap u16), TASK_CREATE (55:
 * task u64, cap u16): doc/format.md s. 5. */
static int learn_process(evi_session_facts *s, const ev_event *ev)
{
	const uint8_t *p = ev->payload;
	evi_capset_info *c;
	int rc;

	switch (ev->type) {
	case EV_CAPSET_CREATE:
		if (ev->size < 6)
			return EV_OK;
		if ((rc = find_capset(s, ev_load32(p), &c)) < 0)
			return rc;
		c->type = ev_load16(p + 4);
		return EV_OK;
	case EV_OSPROCESS_PID:
		if (ev->size < 8)
			return EV_OK;
		if ((rc = find_capset(s, ev_load32(p), &c)) < 0)
			return rc;
		c->has_pid = 1;
		c->pid = ev_load32(p + 4);
		return EV_OK;
	case EV_CAPSET_ASSIGN_CAP:
		if (ev->size < 6)
			return EV_OK;
		return add_assignment(s, ev_load32(p), ev_load16(p + 4));
	case EV_TASK_CREATE:
		if (ev->size < 10)
			return EV_OK;
		return add_task(s, ev_load64(p), ev_load16(p + 8));
	default:
		return EV_OK;
	}
}

/* The text of a USER_MARKER (58: the whole payload), NUL-terminated. */
static const char *marker_text(ev_filter *f, const ev_event *ev)
{
	memcpy(f->text, ev->payload, ev->size);
	f->text[ev->size] = '\0';
	return f->text;
}

static int pattern_matches(const char *pattern, const char *text)
{
	if (!strpbrk(pattern, "*?["))
		return strcmp(pattern, text) == 0;
	return fnmatch(pattern, text, 0) == 0;
}

static int earlier(uint64_t t1, uint64_t i1, uint64_t t2, uint64_t i2)
{
	return t1 < t2 || (t1 == t2 && i1 < i2);
}

/* Pass 0 finds the first start marker (and the first end marker when
 * there is no start pattern); pass 1 the first end marker after it. */
static void learn_marker(ev_filter *f, unsigned pass, evi_session_facts *s,
			 const ev_event *ev)
{
	const char *text = marker_text(f, ev);

	for (int d = 0; d < EVI_N_DIRECTIONS; d++) {
		const evi_marker_spec *m = &f->sel[d].markers;
		evi_marker_facts *mf = &s->markers[d];
		if (!m->set)
			continue;
		if (pass == 0 && m->start && pattern_matches(m->start, text) &&
		    (!mf->start_found || earlier(ev->time, ev->index,
						 mf->start_time,
						 mf->start_index))) {
			mf->start_found = 1;
			mf->start_time = ev->time;
			mf->start_index = ev->index;
		}
		if (pass != (m->start ? 1u : 0u) || !m->end ||
		    !pattern_matches(m->end, text))
			continue;
		if (m->start && (!mf->start_found ||
				 !earlier(mf->start_time, mf->start_index,
					  ev->time, ev->index)))
			continue;
		if (!mf->end_found || earlier(ev->time, ev->index,
					      mf->end_time, mf->end_index)) {
			mf->end_found = 1;
			mf->end_time = ev->time;
			mf->end_index = ev->index;
		}
	}
}

static int any_process(const ev_filter *f)
{
	return has_process(&f->sel[EVI_INCLUDE]) ||
	       has_process(&f->sel[EVI_EXCLUDE]);
}

static int any_markers(const ev_filter *f)
{
	return f->sel[EVI_INCLUDE].markers.set ||
	       f->sel[EVI_EXCLUDE].markers.set;
}

static int uses_wall_clock(const ev_filter *f)
{
	for (int d = 0; d < EVI_N_DIRECTIONS; d++) {
		const evi_window_spec *w = &f->sel[d].time;
		if (w->set && (w->from.kind == EVI_TIME_WALL ||
			       w->to.kind == EVI_TIME_WALL))
			return 1;
	}
	return 0;
}

/* The session's first event time, and its first WALL_CLOCK_TIME, which
 * maps its clock to Unix time (ev_wall_clock_epoch). One that is not a
 * clock reading fails the filter when wall-clock times need it, as it
 * fails a merge. */
static int learn_clock(ev_filter *f, evi_session_facts *s, const ev_event *ev)
{
	int64_t epoch;
	int rc;

	if (!s->have_first || ev->time < s->first)
		s->first = ev->time;
	s->have_first = 1;
	if (s->have_wall || s->wall_bad || ev->type != EV_WALL_CLOCK_TIME)
		return EV_OK;
	rc = ev_wall_clock_epoch(ev, &epoch,
				 uses_wall_clock(f) ? &f->diag : NULL);
	if (rc == EV_EFORMAT) {
		s->wall_bad = 1;
		return uses_wall_clock(f) ? rc : EV_OK;
	}
	if (rc == EV_OK) {
		s->wall_epoch = (uint64_t)epoch;
		s->have_wall = 1;
	}
	return EV_OK;
}

int evi_filter_learn(ev_filter *f, unsigned pass, unsigned session,
		    const ev_event *ev)
{
	evi_session_facts *s = session_at(f, session);

	if (!s)
		return evi_filter_fail(f, EV_ENOMEM, "out of memory");
	if (ev->type == EV_BLOCK_MARKER)
		return EV_OK;
	if (pass == 0) {
		int rc;

		if ((rc = learn_clock(f, s, ev)) < 0)
			return rc;
		if (any_process(f) && (rc = learn_process(s, ev)) < 0)
			return rc == EV_ELIMIT
				       ? evi_filter_fail(f, rc, "session %u names more "
					      "than %u capsets, %u capability "
					      "assignments or %u tasks",
					      session + 1,
					      EVI_FILTER_MAX_CAPSETS,
					      EVI_FILTER_MAX_ASSIGNMENTS,
					      EVI_FILTER_MAX_TASKS)
				       : evi_filter_fail(f, rc, "out of memory");
	}
	if (ev->type == EV_USER_MARKER && any_markers(f))
		learn_marker(f, pass, s, ev);
	return EV_OK;
}

/* ------------------------------------------------------------------------
 * Resolving windows and processes for one session
 * ---------------------------------------------------------------------- */

/* A time spec as a timestamp of the session; 0 when it is before it. */
static int resolve_time(const evi_time *t, const evi_session_facts *s,
			uint64_t *out)
{
	switch (t->kind) {
	case EVI_TIME_RELATIVE:
		*out = (s->have_first ? s->first : 0) + t->ns;
		return EV_OK;
	case EVI_TIME_RAW:
		*out = t->ns;
		return EV_OK;
	case EVI_TIME_WALL:
		if (!s->have_wall)
			return EV_EINVAL;
		*out = t->ns > s->wall_epoch ? t->ns - s->wall_epoch : 0;
		return EV_OK;
	case EVI_TIME_NONE:
	default:
		return EV_OK;
	}
}

static int resolve_time_window(ev_filter *f, unsigned index,
			       evi_session_facts *s, int d)
{
	const evi_window_spec *w = &f->sel[d].time;
	evi_time_window *tw = &s->time[d];

	memset(tw, 0, sizeof *tw);
	if (!w->set)
		return EV_OK;
	tw->active = 1;
	if (resolve_time(&w->from, s, &tw->from) < 0 ||
	    resolve_time(&w->to, s, &tw->to) < 0) {
		if (!s->have_first)
			return tw->empty = 1, EV_OK; /* no events anyway */
		return evi_filter_fail(f, EV_EINVAL, "session %u of the log has no wall "
			    "clock (WALL_CLOCK_TIME), so wall-clock times "
			    "cannot be placed in it; give times from its first "
			    "event instead (e.g. 10ms)", index + 1);
	}
	tw->has_to = w->to.kind != EVI_TIME_NONE;
	tw->empty = tw->has_to && tw->to <= tw->from;
	return EV_OK;
}

static void resolve_marker_window(ev_filter *f, evi_session_facts *s, int d)
{
	const evi_marker_spec *m = &f->sel[d].markers;
	const evi_marker_facts *mf = &s->markers[d];
	evi_time_window *mw = &s->marks[d];

	memset(mw, 0, sizeof *mw);
	if (!m->set)
		return;
	mw->active = 1;
	if (m->start) {
		mw->empty = !mf->start_found;
		mw->from = mf->start_time;
	}
	if (m->end && mf->end_found) {
		mw->has_to = 1;
		mw->to_inclusive = 1;
		mw->to = mf->end_time;
	}
}

static int compare_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* `list` is sorted (see sort_capsets). */
static int capset_listed(const uint32_t *list, size_t n, uint32_t id)
{
	return n > 0 && bsearch(&id, list, n, sizeof *list, compare_u32);
}

static int add_capset_id(evi_process_set *p, uint32_t id)
{
	if (evi_grow(&p->capsets, &p->capsets_cap, p->n_capsets + 1,
		     sizeof *p->capsets) < 0)
		return EV_ENOMEM;
	p->capsets[p->n_capsets++] = id;
	return EV_OK;
}

/* Sorts the capsets of `p` and drops duplicates. */
static void sort_capsets(evi_process_set *p)
{
	size_t kept = 0;

	if (p->n_capsets == 0)
		return;
	qsort(p->capsets, p->n_capsets, sizeof *p->capsets, compare_u32);
	for (size_t i = 1; i < p->n_capsets; i++)
		if (p->capsets[i] != p->capsets[kept])
			p->capsets[++kept] = p->capsets[i];
	p->n_capsets = kept + 1;
}

/* CAPSET_CREATE type 2 is an OS process (doc/format.md s. 5). */
static size_t count_processes(const evi_session_facts *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n_capsets; i++)
		n += s->capsets[i].type == 2 || s->capsets[i].has_pid;
	return n;
}

/* The selected processes' capsets (by pid or id), then their caps, then
 * every capset holding one of those caps (the clock-domain capset of the
 * same process, which WALL_CLOCK_TIME names). */
static int resolve_process(ev_filter *f, evi_session_facts *s, int d)
{
	const evi_selector *sel = &f->sel[d];
	evi_process_set *p = &s->process[d];
	int rc = evi_bitmap_new(&p->caps);

	for (size_t i = 0; rc == EV_OK && i < s->n_capsets; i++) {
		const evi_capset_info *c = &s->capsets[i];
		if (evi_ranges_hold(&sel->capsets, c->id) ||
		    (c->has_pid && evi_ranges_hold(&sel->pids, c->pid)))
			rc = add_capset_id(p, c->id);
	}
	for (size_t i = 0; rc == EV_OK && i < sel->capsets.n; i++)
		if (sel->capsets.items[i].lo == sel->capsets.items[i].hi)
			rc = add_capset_id(p,
					   (uint32_t)sel->capsets.items[i].lo);
	sort_capsets(p);
	for (size_t i = 0; rc == EV_OK && i < s->assigned.count; i++)
		if (capset_listed(p->capsets, p->n_capsets,
				  (uint32_t)(s->assigned.keys[i] >> 16)))
			evi_bit_set(p->caps, (uint16_t)s->assigned.keys[i]);
	for (size_t i = 0; rc == EV_OK && i < s->assigned.count; i++)
		if (evi_bit_get(p->caps, (uint16_t)s->assigned.keys[i]))
			rc = add_capset_id(p,
					   (uint32_t)(s->assigned.keys[i] >> 16));
	sort_capsets(p);
	if (rc < 0)
		return evi_filter_fail(f, rc, "out of memory");
	/* With one process in the log, what names neither a cap nor a
	 * capset (heap samples, a TASK_DELETE of a task no TASK_CREATE
	 * placed) is that process's. */
	p->unattributed = count_processes(s) <= 1 && p->n_capsets > 0;
	return EV_OK;
}

static int resolve_session(ev_filter *f, unsigned index)
{
	evi_session_facts *s = session_at(f, index);
	int rc = EV_OK;

	if (!s)
		return evi_filter_fail(f, EV_ENOMEM, "out of memory");
	for (int d = 0; rc == EV_OK && d < EVI_N_DIRECTIONS; d++) {
		rc = resolve_time_window(f, index, s, d);
		resolve_marker_window(f, s, d);
	}
	s->resolved = rc == EV_OK;
	return rc;
}

/* A session's process sets take two cap bitmaps (16 KiB): only the
 * session being filtered holds them, so that a log of many tiny sessions
 * costs no more memory than one. */
static int ready_processes(ev_filter *f, unsigned index)
{
	evi_session_facts *s = &f->sessions[index];
	int rc = EV_OK;

	if (s->process_ready)
		return EV_OK;
	if (f->process_holder)
		free_process_sets(&f->sessions[f->process_holder - 1]);
	f->process_holder = 0;
	for (int d = 0; rc == EV_OK && d < EVI_N_DIRECTIONS; d++)
		if (has_process(&f->sel[d]))
			rc = resolve_process(f, s, d);
	if (rc < 0) {
		free_process_sets(s);
		return rc;
	}
	s->process_ready = 1;
	f->process_holder = (size_t)index + 1;
	return EV_OK;
}

int evi_filter_end_learning(ev_filter *f, unsigned pass)
{
	int rc = EV_OK;

	f->learned = pass + 1;
	if (f->learned < evi_filter_learning_passes(f))
		return EV_OK;
	for (size_t i = 0; rc == EV_OK && i < f->n_sessions; i++)
		rc = resolve_session(f, (unsigned)i);
	return rc;
}

/* ------------------------------------------------------------------------
 * Deciding
 * ---------------------------------------------------------------------- */

static int type_selected(const ev_filter *f, uint16_t type)
{
	ev_class cls = ev_type_class(type);

	for (int d = 0; d < EVI_N_DIRECTIONS; d++) {
		const evi_selector *s = &f->sel[d];
		int in_class = s->classes && (s->classes & (unsigned)cls);
		int in_type = s->types && evi_bit_get(s->types, type);
		if (d == EVI_INCLUDE && ((s->classes && !in_class) ||
				     (s->types && !in_type)))
			return 0;
		if (d == EVI_EXCLUDE && (in_class || in_type))
			return 0;
	}
	return 1;
}

static int build_rules(ev_filter *f)
{
	if (!(f->rules = malloc(EV_ID_COUNT)))
		return evi_filter_fail(f, EV_ENOMEM, "out of memory");
	for (unsigned id = 0; id < EV_ID_COUNT; id++) {
		uint8_t rule = type_selected(f, (uint16_t)id) ? EVI_RULE_SELECT
							       : EVI_RULE_DROP;
		if (f->keep_metadata && evi_type_is_metadata((uint16_t)id))
			rule = id == EV_THREAD_LABEL ? EVI_RULE_LABEL
						     : EVI_RULE_META;
		f->rules[id] = rule;
	}
	f->rules[EV_BLOCK_MARKER] = EVI_RULE_DROP;
	return EV_OK;
}

const uint8_t *evi_filter_rules(ev_filter *f)
{
	if (!f->rules && build_rules(f) < 0)
		return NULL;
	return f->rules;
}

/* The identifier fields of an event, computed once and only if needed. */
typedef struct event_refs {
	int done;
	size_t n;
	evi_ref ref[EVI_FILTER_MAX_REFS];
} event_refs;

static const event_refs *refs_of(const ev_event *ev, event_refs *r)
{
	if (!r->done) {
		r->n = evi_payload_refs(ev->type, ev->payload, ev->size, r->ref,
				       EVI_FILTER_MAX_REFS);
		if (r->n > EVI_FILTER_MAX_REFS)
			r->n = EVI_FILTER_MAX_REFS;
		r->done = 1;
	}
	return r;
}

static int first_ref(const ev_event *ev, event_refs *r, ev_ref_kind kind,
		     uint64_t *out)
{
	refs_of(ev, r);
	for (size_t i = 0; i < r->n; i++)
		if (r->ref[i].kind == kind) {
			*out = evi_ref_load(ev->payload, &r->ref[i]);
			return 1;
		}
	return 0;
}

/* The block's cap; without one, "global", or a cap the payload names. */
static int cap_matches(const uint8_t *caps, const ev_event *ev,
		       event_refs *r)
{
	if (ev->cap != EV_NO_CAP)
		return evi_bit_get(caps, ev->cap);
	if (evi_bit_get(caps, EV_NO_CAP))
		return 1;
	refs_of(ev, r);
	for (size_t i = 0; i < r->n; i++)
		if (r->ref[i].kind == EV_REF_CAP) {
			uint64_t cap = evi_ref_load(ev->payload, &r->ref[i]);
			if (cap < EV_NO_CAP && evi_bit_get(caps, (unsigned)cap))
				return 1;
		}
	return 0;
}

static int process_matches(const evi_session_facts *s, const evi_process_set *p,
			   const ev_event *ev, event_refs *r)
{
	uint64_t id;
	int cap;

	if (ev->cap != EV_NO_CAP)
		return evi_bit_get(p->caps, ev->cap);
	if (first_ref(ev, r, EV_REF_CAPSET, &id))
		return capset_listed(p->capsets, p->n_capsets, (uint32_t)id);
	if (first_ref(ev, r, EV_REF_CAP, &id))
		return id < EV_NO_CAP && evi_bit_get(p->caps, (unsigned)id);
	/* TASK_DELETE (57: task u64) belongs where its TASK_CREATE was */
	if (ev->type == EV_TASK_DELETE && ev->size >= 8 &&
	    (cap = task_cap_of(s, ev_load64(ev->payload))) >= 0 &&
	    cap != EV_NO_CAP)
		return evi_bit_get(p->caps, (unsigned)cap);
	return p->unattributed;
}

/* The subject thread: the first thread field (STOP_THREAD's second one
 * is the thread it is blocked on, which is about another thread). */
static int thread_matches(const evi_range_list *threads, const ev_event *ev,
			  event_refs *r)
{
	uint64_t tid;

	return first_ref(ev, r, EV_REF_THREAD, &tid) &&
	       evi_ranges_hold(threads, tid);
}

static int in_window(const evi_time_window *w, uint64_t t)
{
	if (w->empty || t < w->from)
		return 0;
	if (!w->has_to)
		return 1;
	return w->to_inclusive ? t <= w->to : t < w->to;
}

/* Past the end of window `w`: at or after a `to` that excludes its
 * stamp. */
static int after_window(const evi_time_window *w, uint64_t t)
{
	if (!w->active || !w->has_to)
		return 0;
	return w->to_inclusive ? t > w->to : t >= w->to;
}

/* Kept metadata stamped after the end of an include window (a time or
 * marker window) is dropped: it concerns nothing in the window (capsets
 * deleted at exit, labels of threads created later), and a slice's last
 * event is then its window's last, which stats, report and export take as
 * its end. Metadata before the window stays: it is the context (capsets,
 * arguments, clock, heap and profile definitions) that the window's events
 * need. */
static int before_window_end(const evi_session_facts *s, uint64_t t)
{
	return !after_window(&s->time[EVI_INCLUDE], t) &&
	       !after_window(&s->marks[EVI_INCLUDE], t);
}

/* One direction's verdict for one kind: include needs a match, exclude
 * needs none. */
static int passes(int d, int matched)
{
	return d == EVI_INCLUDE ? matched : !matched;
}

static int process_ok(const ev_filter *f, const evi_session_facts *s,
		      const ev_event *ev, event_refs *r)
{
	for (int d = 0; d < EVI_N_DIRECTIONS; d++)
		if (has_process(&f->sel[d]) &&
		    !passes(d, process_matches(s, &s->process[d], ev, r)))
			return 0;
	return 1;
}

static int thread_ok(const ev_filter *f, const ev_event *ev, event_refs *r)
{
	for (int d = 0; d < EVI_N_DIRECTIONS; d++)
		if (f->sel[d].threads.n &&
		    !passes(d, thread_matches(&f->sel[d].threads, ev, r)))
			return 0;
	return 1;
}

static int others_ok(const ev_filter *f, const evi_session_facts *s,
		     const ev_event *ev, event_refs *r)
{
	for (int d = 0; d < EVI_N_DIRECTIONS; d++) {
		const evi_selector *sel = &f->sel[d];
		if (sel->caps && !passes(d, cap_matches(sel->caps, ev, r)))
			return 0;
		if (s->time[d].active &&
		    !passes(d, in_window(&s->time[d], ev->time)))
			return 0;
		if (s->marks[d].active &&
		    !passes(d, in_window(&s->marks[d], ev->time)))
			return 0;
	}
	return thread_ok(f, ev, r) && process_ok(f, s, ev, r);
}

/* NUL-terminated strings after the capset u32 (PROGRAM_ARGS 30,
 * PROGRAM_ENV 31). Arguments after the first (the program) and the
 * values of NAME=value become "<redacted>"; if that would not fit a
 * payload, they become empty. Returns the new size. */
static size_t redact_strings(const ev_event *ev, uint8_t *out, int env,
			     int short_form)
{
	size_t at = 4, used = 4, index = 0;

	memcpy(out, ev->payload, 4);
	while (at < ev->size) {
		const uint8_t *s = ev->payload + at;
		const uint8_t *nul = memchr(s, '\0', ev->size - at);
		size_t len = nul ? (size_t)(nul - s) : ev->size - at;
		size_t keep = 0;
		if (env) {
			const uint8_t *eq = memchr(s, '=', len);
			keep = eq ? (size_t)(eq - s) + 1 : 0;
		} else if (index == 0) {
			keep = len;
		}
		memcpy(out + used, s, keep);
		used += keep;
		if (keep < len && !short_form) {
			memcpy(out + used, redacted, sizeof redacted - 1);
			used += sizeof redacted - 1;
		}
		if (nul)
			out[used++] = '\0';
		at += len + 1;
		index++;
	}
	return used;
}

static void redact(ev_filter *f, const ev_event *ev, ev_event *out)
{
	int env = ev->type == EV_PROGRAM_ENV;
	size_t size;

	if (ev->size < 4 || !(f->redact & (env ? EV_REDACT_ENV
					       : EV_REDACT_ARGS)))
		return;
	/* Each string grows by at most the marker's length: measure first
	 * when that could overflow the 64 KiB payload limit. */
	if (ev->size + (ev->size / 2 + 1) * (sizeof redacted - 1) >
	    EVI_FILTER_MAX_PAYLOAD) {
		size = redact_strings(ev, f->scratch, env, 1);
	} else {
		size = redact_strings(ev, f->scratch, env, 0);
	}
	out->payload = f->scratch;
	out->size = (uint32_t)size;
}

static int keep(ev_filter *f, const ev_event *ev, ev_event *out)
{
	*out = *ev;
	if (ev->type == EV_PROGRAM_ARGS || ev->type == EV_PROGRAM_ENV)
		redact(f, ev, out);
	return 1;
}

static evi_session_facts *facts_for(ev_filter *f, unsigned session)
{
	if (session >= f->n_sessions || !f->sessions[session].resolved) {
		if (f->learned < evi_filter_learning_passes(f)) {
			evi_filter_fail(f, EV_EINVAL, "the filter needs %u learning "
			     "pass(es) over the log before it can decide",
			     evi_filter_learning_passes(f));
			return NULL;
		}
		/* A session learning did not see: it has no events to
		 * place. */
		if (resolve_session(f, session) < 0)
			return NULL;
	}
	if (any_process(f) && ready_processes(f, session) < 0)
		return NULL;
	return &f->sessions[session];
}

int evi_filter_apply(ev_filter *f, unsigned session, const ev_event *ev,
		    ev_event *out)
{
	event_refs refs = { 0, 0, { { 0, 0, 0 } } };
	evi_session_facts *s;
	uint8_t rule;

	if (!f->rules && build_rules(f) < 0)
		return f->diag.status;
	rule = f->rules[ev->type];
	if (rule == EVI_RULE_DROP)
		return 0;
	if (!(s = facts_for(f, session)))
		return f->diag.status;
	switch (rule) {
	case EVI_RULE_META:
		return before_window_end(s, ev->time) &&
			       process_ok(f, s, ev, &refs)
			       ? keep(f, ev, out) : 0;
	case EVI_RULE_LABEL:
		return before_window_end(s, ev->time) &&
			       process_ok(f, s, ev, &refs) &&
			       thread_ok(f, ev, &refs)
			       ? keep(f, ev, out) : 0;
	default:
		return others_ok(f, s, ev, &refs) ? keep(f, ev, out) : 0;
	}
}

void evi_filter_free_sessions(ev_filter *f)
{
	for (size_t i = 0; i < f->n_sessions; i++)
		free_session(&f->sessions[i]);
	free(f->sessions);
	f->sessions = NULL;
	f->n_sessions = 0;
	f->sessions_cap = 0;
	f->process_holder = 0;
}
