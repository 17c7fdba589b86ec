/*
 * The validator's checks: structure, ordering and references (doc/format.md
 * sections 1 to 4 and 6), and the one pass over the sessions as an event
 * consumer (consumer.h): evv_consumer for any source, evv_run_log a
 * reader's through the inline feed (feed.h).
 * The semantic checks live in validate_sched.c; the validator object and
 * the choice of path in validator.c.
 *
 * Layering, calls going one way only: validator.c -> validate_blocks.c ->
 * this file -> validate_sched.c ->
 * validate_report.c and validate_table.c. This file calls down into
 * validate_sched.c (the semantic checks) and validate_report.c (findings,
 * per-cap state and type names, which both use); nothing below calls up
 * into it.
 *
 * One pass, in file order. Blocks of different caps are not in time order
 * relative to each other (doc/format.md section 3), so every time check is
 * per cap stream, and checks that need the whole log (was this cap ever
 * created?) are made at the end of the session from bounded state.
 */
#include "evtool/validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtool/catalog.h"
#include "evtool/header.h"
#include "feed.h"
#include "validate_internal.h"

/* ------------------------------------------------------------------------
 * Checks and names
 * ---------------------------------------------------------------------- */

static const ev_check_info checks[] = {
	{ "header", "the header is malformed (magic words, event-type list)" },
	{ "type-size", "a known event type is declared with a size that no "
		       "GHC version used" },
	{ "undeclared-type", "an event's type is not declared in the header" },
	{ "payload-size", "an event's payload is too short for its type's "
			  "layout" },
	{ "block-size", "a block marker declares fewer than 24 bytes or more "
			"than 2 MiB" },
	{ "block-end", "an event, a block marker or the data end crosses the "
		       "end of its block" },
	{ "block-time", "an event lies outside its block's time window, or a "
			"block ends before it starts" },
	{ "truncated", "the log ends before its data-end marker (a killed "
		       "program, a cut copy)" },
	{ "trailing-data", "bytes after the data end that are not another "
			   "session's header" },
	{ "input", "the input cannot be decoded (corrupt gzip)" },
	{ "time-order", "time goes back within a capability's events "
			"(GC_END and GC_START: beyond their tolerance)" },
	{ "block-overlap", "a capability's block starts before its previous "
			   "block ended" },
	{ "not-sorted", "with the sorted option: an event is earlier than one "
			"before it" },
	{ "cap-ref", "a capability used by a block or payload was never "
		     "created (CAP_CREATE, STARTUP)" },
	{ "cap-capset", "a capability in use is never assigned to a capset "
			"(warning)" },
	{ "capset-ref", "a capset named by an event was never created "
			"(CAPSET_CREATE)" },
	{ "thread-run", "a thread starts running on a capability that is "
			"running another thread" },
	{ "thread-stop", "a thread stops on a capability that is not running "
			 "it" },
	{ "thread-two-caps", "a thread runs on two capabilities at once" },
	{ "thread-migrate", "a thread is migrated while it runs" },
	{ "thread-finished", "a thread runs, stops or migrates after it "
			     "finished (STOP_THREAD status 5)" },
	{ "thread-create", "a thread is created twice, or runs before its "
			   "creation (warning)" },
	{ "gc-start", "GC_START while the capability is already in a GC" },
	{ "gc-end", "GC_END without a GC_START on the capability" },
	{ "task", "a task is created or deleted twice (warning)" },
	{ "heap-sample", "heap-profile sample events outside a begin/end "
			 "bracket, or brackets that do not match" },
	{ "limit", "more threads, tasks or capsets than the validator tracks "
		   "at once; their checks restart (warning)" }
};

size_t ev_validate_check_count(void)
{
	return sizeof checks / sizeof checks[0];
}

const ev_check_info *ev_validate_check_at(size_t i)
{
	return i < ev_validate_check_count() ? &checks[i] : NULL;
}

const char *ev_severity_name(ev_severity severity)
{
	return severity == EV_SEVERITY_WARNING ? "warning" : "error";
}

const char *ev_verdict_name(ev_verdict verdict)
{
	switch (verdict) {
	case EV_VERDICT_COMPLETE:
		return "complete";
	case EV_VERDICT_TRUNCATED:
		return "truncated";
	default:
		return "invalid";
	}
}

/* ------------------------------------------------------------------------
 * Findings
 * ---------------------------------------------------------------------- */

/* Errors about non-GHC event types (Eden, Mercury, unknown ids) are
 * warnings: their writers are not GHC's RTS, and Eden logs stamp one
 * event before its block opens. */
static ev_severity severity_for(uint8_t flags)
{
	return (flags & EVV_TF_OTHER) ? EV_SEVERITY_WARNING : EV_SEVERITY_ERROR;
}

/* ------------------------------------------------------------------------
 * Per-cap state
 * ---------------------------------------------------------------------- */

static void remember(evv_where *w, const ev_event *ev)
{
	w->offset = ev->offset;
	w->index = ev->index;
	w->time = ev->time;
	w->type = ev->type;
	w->cap = ev->cap;
	w->has_event = 1;
}

void evv_use_cap(evv *v, uint16_t cap, const ev_event *ev)
{
	evv_cap *cs;

	if (cap == EV_NO_CAP)
		return;
	cs = evv_cap_state(v, cap);
	if (!cs->used) {
		cs->used = 1;
		remember(&cs->first_use, ev);
	}
}

/* ------------------------------------------------------------------------
 * The header: what it says about the writer, and declared sizes
 * ---------------------------------------------------------------------- */

/* Nonzero when payloads of `id` name a cap or capset. */
static int has_cap_refs(uint16_t id)
{
	static const uint8_t zeros[64];
	evi_ref refs[8];
	size_t n = evi_payload_refs(id, zeros, sizeof zeros, refs, 8);

	for (size_t i = 0; i < n && i < 8; i++)
		if (refs[i].kind == EV_REF_CAP || refs[i].kind == EV_REF_CAPSET)
			return 1;
	return 0;
}

/* What the validator does with events of `id` besides the hot path. */
static uint8_t role_flags(uint16_t id)
{
	switch (id) {
	case EV_STARTUP:
	case EV_CAPSET_CREATE:
	case EV_CAPSET_ASSIGN_CAP:
	case EV_CAP_CREATE:
		return EVV_TF_CREATE;
	case EV_RTS_IDENTIFIER:
	case EV_PROGRAM_ARGS:
	case EV_PROGRAM_ENV:
	case EV_THREAD_LABEL:
	case EV_PROF_SAMPLE_COST_CENTRE:
		return EVV_TF_PAYLOAD;
	case EV_HEAP_PROF_SAMPLE_COST_CENTRE: /* layout and bracketing */
		return EVV_TF_PAYLOAD | EVV_TF_SCHED;
	case EV_CREATE_THREAD:
	case EV_RUN_THREAD:
	case EV_STOP_THREAD:
	case EV_MIGRATE_THREAD:
	case EV_GC_START:
	case EV_GC_END:
	case EV_TASK_CREATE:
	case EV_TASK_DELETE:
	case EV_HEAP_PROF_SAMPLE_BEGIN:
	case EV_HEAP_PROF_SAMPLE_STRING:
	case EV_HEAP_PROF_SAMPLE_END:
	case EV_HEAP_BIO_PROF_SAMPLE_BEGIN:
		return EVV_TF_SCHED;
	default:
		return 0;
	}
}

/* A type the header declares with another meaning than GHC's (another
 * program reusing the id: ev_header_type_info) is an unknown type: its
 * payload is not checked as GHC's ("type-size" reports the declaration). */
static uint8_t type_flags_of(const ev_header *h, uint16_t id)
{
	const ev_type_decl *decl = ev_header_find(h, id);
	const ev_type_info *info = ev_header_type_info(h, id);
	uint8_t f = info ? role_flags(id) : 0;

	if (decl && decl->wire_size == EV_SIZE_VARIABLE)
		f |= EVV_TF_VAR;
	if (!info || info->cls == EV_CLASS_OTHER)
		f |= EVV_TF_OTHER;
	if (id == EV_BLOCK_MARKER)
		f |= EVV_TF_MARKER;
	if (info && (id == EV_GC_GLOBAL_SYNC || id == EV_GC_STATS_GHC))
		f |= EVV_TF_LATE;
	if (info && has_cap_refs(id))
		f |= EVV_TF_REFS;
	return f;
}

static inline uint8_t type_flags(const evv *v, uint16_t type)
{
	return type < EVV_SMALL_IDS ? v->tf[type] : type_flags_of(v->h, type);
}

/* Where `ev` ends: the offset past its last byte. */
static uint64_t event_end(const evv *v, const ev_event *ev)
{
	return ev->offset +
	       ev_event_wire_size(ev, type_flags(v, ev->type) & EVV_TF_VAR);
}

/* GHC >= 7.8.3 (it declares HACK_BUG_T9003, id 59) posts RUN_THREAD when a
 * thread returns from a foreign call and STOP_THREAD when it leaves for
 * one; older runtimes did not always, so their scheduler findings are
 * warnings. GHC 6.12's header quirk marks it as old too. */
static int is_modern(const ev_header *h, unsigned quirks)
{
	const ev_type_decl *stop = ev_header_find(h, EV_STOP_THREAD);

	return !(quirks & EVI_QUIRK_GHC612) &&
	       ev_header_find(h, EV_HACK_BUG_T9003) != NULL &&
	       (!stop || stop->wire_size >= 10);
}

/* A declaration of a GHC event id as variable-size where every GHC gave
 * it a fixed size, or the reverse: another producer's type of that id. */
static int other_kind(const ev_type_info *info, int size)
{
	return info && (info->sizes[0] == EV_SIZE_VARIABLE) !=
			       (size == EV_SIZE_VARIABLE);
}

/* "type-size": doc/format.md section 5 lists the sizes GHC versions used.
 * Under the 6.12 quirk the size actually written is what counts. A size
 * above every known one may be a newer layout (fields are only ever
 * appended), so that is a warning. */
static void check_decl(evv *v, const ev_type_decl *d, uint64_t offset)
{
	const ev_type_info *info = ev_catalog_find(d->id);
	int size = v->quirk612 ? d->wire_size : d->size;
	int known_var = info && info->sizes[0] == EV_SIZE_VARIABLE;
	int largest = 0;
	ev_severity sev;

	if (!info)
		return;
	sev = info->cls == EV_CLASS_OTHER ? EV_SEVERITY_WARNING
					  : EV_SEVERITY_ERROR;
	if (other_kind(info, size)) {
		evv_report(v, sev, "type-size", NULL, offset,
			   "event type %u (%s) is declared %s, but GHC "
			   "writes it with a %s size: another producer's "
			   "type (as Mercury's 39), so findings about GHC's "
			   "runtime are warnings", d->id, info->name,
			   size == EV_SIZE_VARIABLE ? "variable-size"
						    : "fixed-size",
			   known_var ? "variable" : "fixed");
		return;
	}
	if (known_var || evi_catalog_size_known(info, size))
		return;
	for (unsigned i = 0; i < info->n_sizes; i++)
		if (info->sizes[i] > largest)
			largest = info->sizes[i];
	evv_report(v, size > largest ? EV_SEVERITY_WARNING : sev, "type-size",
		   NULL, offset,
		   "event type %u (%s) is declared with %d payload bytes, a "
		   "size no GHC version used (largest known: %d)%s", d->id,
		   info->name, size, largest,
		   size > largest ? "; a newer layout?" : "");
}

/* Declarations follow "hdrb" "hetb" in header order; each is "etb\0",
 * id, size, desc_len, desc, extra_len, extra, "ete\0" (doc/format.md s. 1). */
static void check_header(evv *v)
{
	uint64_t offset = v->session_start + 8;

	for (size_t i = 0; i < ev_header_count(v->h) && !v->stop; i++) {
		const ev_type_decl *d = ev_header_at(v->h, i);
		check_decl(v, d, offset);
		offset += 20u + (uint64_t)d->desc_len + d->extra_len;
	}
}

/* Whether GHC's runtime could have written header `h`: it declares every
 * GHC id in the kind (fixed or variable size) GHC gives it (doc/format.md
 * section 1). Another producer of the format declares ids of its own:
 * Mercury's runtime declares 39 variable-size ("Register an id->string
 * mapping"; GHC's 39 is SPARK_STEAL, 2 bytes). The rule looks at the
 * declarations, not at their order, so that a merge, which writes the
 * union of its inputs' declarations in ascending order, is judged as its
 * inputs are. */
static int ghc_header(const ev_header *h)
{
	for (size_t i = 0; i < ev_header_count(h); i++) {
		const ev_type_decl *d = ev_header_at(h, i);
		if (other_kind(ev_catalog_find(d->id), d->wire_size))
			return 0;
	}
	return 1;
}

static void begin_session(evv *v, const ev_header *h)
{
	unsigned quirks;

	v->h = h;
	quirks = evi_header_quirks(v->h);
	v->quirk612 = !!(quirks & EVI_QUIRK_GHC612);
	v->modern = is_modern(v->h, quirks);
	v->ghc_writer = ghc_header(v->h);
	v->has_sample_end =
		ev_header_find(v->h, EV_HEAP_PROF_SAMPLE_END) != NULL;
	for (unsigned id = 0; id < EVV_SMALL_IDS; id++)
		v->tf[id] = type_flags_of(v->h, (uint16_t)id);
	v->in_block = 0;
	v->global_hwm = 0;
	v->any_cap_create = v->any_capset_create = v->any_capset_assign = 0;
	v->have_startup = 0;
	v->startup_caps = 0;
	v->limit_reported = 0;
	v->session_ended = 0;
	memset(v->touched, 0, sizeof v->touched);
	evv_table_clear(&v->threads);
	evv_table_clear(&v->tasks);
	evv_table_clear(&v->capsets);
	v->res->sessions++;
	check_header(v);
}

void evv_begin_session(evv *v)
{
	begin_session(v, ev_reader_header(v->r));
}

/* ------------------------------------------------------------------------
 * Blocks (doc/format.md section 2)
 * ---------------------------------------------------------------------- */

/* How far an event may step back. GHC stamps GC_END (doc/format.md section
 * 3), and since 8.x GC_START, with a time taken before it posts them; if
 * posting opens a new block, they even precede the block's start. */
static uint64_t tolerance(const evv *v, uint16_t type)
{
	uint64_t tol = v->o.tolerance_ns;

	if ((type == EV_GC_END || type == EV_GC_START) &&
	    v->o.gc_end_tolerance_ns > tol)
		tol = v->o.gc_end_tolerance_ns;
	return tol;
}

/* GHC stamps GC_END with the clock reading of its collection's end, then
 * posts GC_GLOBAL_SYNC and GC_STATS_GHC (EVV_TF_LATE), then GC_END
 * (rts/Stats.c stat_endGC): these two may carry later times, and when
 * posting one of them (or GC_END, or GC_START, likewise stamped before it
 * is posted) fills the cap's buffer, the flush to the log's file (a slow
 * disk, a FIFO whose reader lags: no bound) comes before the new block's
 * start. GC_START and GC_END are checked against the cap's time before
 * those two, when they are its latest events. */
static int stamped_early(uint16_t type)
{
	return type == EV_GC_END || type == EV_GC_START;
}

/* The cap's time but for its latest EVV_TF_LATE events. */
static uint64_t settled_time(const evv_cap *cs)
{
	return cs->settled + cs->late_span == cs->hwm ? cs->settled : cs->hwm;
}

/* An EVV_TF_LATE event, before it moves the cap's time. */
static void late_event(evv_cap *cs, const ev_event *ev)
{
	uint64_t top = ev->time > cs->hwm ? ev->time : cs->hwm;

	cs->settled = settled_time(cs);
	/* a span past 32 bits (4.3 s) is not kept: the plain rule applies */
	cs->late_span = top - cs->settled <= UINT32_MAX
		? (uint32_t)(top - cs->settled) : 0;
	if (top - cs->settled > UINT32_MAX)
		cs->settled = top;
}

/* The marker's own fields: size, times, and its place in its cap's
 * sequence of blocks (`cs`). */
static void check_marker(evv *v, const ev_event *ev, uint32_t size,
			 uint64_t end_time, const evv_cap *cs)
{
	if (v->in_block && ev->offset < v->blk_end)
		evv_report(v, EV_SEVERITY_ERROR, "block-end", ev, 0,
			   "this block marker lies inside the block at offset "
			   "%llu, which declares %u bytes and so ends at %llu",
			   (unsigned long long)v->blk_offset, v->blk_size,
			   (unsigned long long)v->blk_end);
	if (size < EVI_BLOCK_EVENT || size > EV_MAX_BLOCK_SIZE)
		evv_report(v, EV_SEVERITY_ERROR, "block-size", ev, 0,
			   "the block declares %u bytes; a block holds its own "
			   "%u-byte marker and at most %u bytes", size,
			   EVI_BLOCK_EVENT, EV_MAX_BLOCK_SIZE);
	if (end_time < ev->time)
		evv_report(v, EV_SEVERITY_ERROR, "block-time", ev, 0,
			   "the block ends at %llu ns, before it starts",
			   (unsigned long long)end_time);
	/* A tool that re-blocks a log starts a block at its first event's
	 * time; an early-stamped GC_END there starts it before the previous
	 * block ended, by as much as GC_END may step back. Events are still
	 * checked against the cap's latest time across blocks. */
	if (cs->has_block &&
	    ev->time + tolerance(v, EV_GC_END) < cs->block_end_time)
		evv_report(v, EV_SEVERITY_ERROR, "block-overlap", ev, 0,
			   "this block starts at %llu ns, before the previous "
			   "block of %s ended (%llu ns)",
			   (unsigned long long)ev->time,
			   ev->cap == EV_NO_CAP ? "the global buffer"
						: "its cap",
			   (unsigned long long)cs->block_end_time);
}

/* A BLOCK_MARKER: u32 size (marker included), u64 end time, u16 cap
 * (doc/format.md section 2). The block is entered whatever its fields say,
 * as the reader does. */
static void block_marker(evv *v, const ev_event *ev)
{
	const uint8_t *p = ev->payload;
	uint32_t size = ev_load32(p);
	uint64_t end_time = ev_load64(p + 4);
	evv_cap *cs = evv_cap_state(v, ev_load16(p + 12));

	check_marker(v, ev, size, end_time, cs);
	cs->has_block = 1;
	cs->block_end_time = end_time > ev->time ? end_time : ev->time;
	evv_use_cap(v, ev_load16(p + 12), ev);
	v->res->blocks++;
	v->in_block = 1;
	v->blk_offset = ev->offset;
	v->blk_size = size;
	v->blk_end = ev->offset + size;
	v->blk_start_time = ev->time;
	v->blk_end_time = end_time;
	v->blk_cs = cs;
}

static void crossing(evv *v, const ev_event *ev, uint64_t end)
{
	evv_report(v, EV_SEVERITY_ERROR, "block-end", ev, 0,
		   "the event ends at offset %llu, past the end of its block "
		   "(the block at offset %llu declares %u bytes, so it ends at "
		   "%llu)", (unsigned long long)end,
		   (unsigned long long)v->blk_offset, v->blk_size,
		   (unsigned long long)v->blk_end);
}

/* Nonzero when the event lies outside its block's window beyond the
 * tolerance (then it is reported and left out of the order check). */
static int outside_window(evv *v, const ev_event *ev, uint8_t flags)
{
	uint64_t early = tolerance(v, ev->type), tol = v->o.tolerance_ns;
	uint64_t start = v->blk_start_time;

	/* Only a collection's late events precede it in its block: the
	 * block began with the flush that posting them caused. */
	if (stamped_early(ev->type) && settled_time(v->blk_cs) < start)
		start = settled_time(v->blk_cs);
	if (ev->time + early >= start &&
	    ev->time <= v->blk_end_time + tol)
		return 0;
	evv_report(v, severity_for(flags), "block-time", ev, 0,
		   "the event's time %llu ns lies outside its block's window "
		   "[%llu, %llu] ns (block at offset %llu)",
		   (unsigned long long)ev->time,
		   (unsigned long long)v->blk_start_time,
		   (unsigned long long)v->blk_end_time,
		   (unsigned long long)v->blk_offset);
	return 1;
}

/* Time went back within the cap's stream. GC_END may, within its own
 * tolerance, and then does not lower the high-water mark. After a finding
 * the mark follows the event, so that one bad timestamp is one finding. */
static void stepped_back(evv *v, const ev_event *ev, evv_cap *cs,
			 uint8_t flags)
{
	uint64_t back = cs->hwm - ev->time;

	if (stamped_early(ev->type))
		back = settled_time(cs) > ev->time ? settled_time(cs) - ev->time
						   : 0;
	if (back <= tolerance(v, ev->type))
		return;
	evv_report(v, severity_for(flags), "time-order", ev, 0,
		   "time goes back by %llu ns: an earlier event of %s is at "
		   "%llu ns%s", (unsigned long long)back,
		   ev->cap == EV_NO_CAP ? "the global buffer" : "this cap",
		   (unsigned long long)cs->hwm,
		   ev->type == EV_GC_END || ev->type == EV_GC_START
			   ? "; GHC stamps it early, but not this early" : "");
	cs->hwm = ev->time;
}

/* The hot path for events inside a block: bounds, window, order. */
static inline void in_block(evv *v, const ev_event *ev, uint8_t flags)
{
	uint64_t end = ev->offset + EVI_EVENT_HEADER +
		       ((flags & EVV_TF_VAR) ? 2u : 0u) + ev->size;
	evv_cap *cs = v->blk_cs;

	if (end > v->blk_end)
		crossing(v, ev, end);
	if ((ev->time < v->blk_start_time || ev->time > v->blk_end_time) &&
	    outside_window(v, ev, flags))
		return;
	if (ev->time >= cs->hwm)
		cs->hwm = ev->time;
	else
		stepped_back(v, ev, cs, flags);
}

/* The data end may sit where the last block ends (GHC <= 9.0) or be the
 * last two bytes of it (GHC >= 9.2), doc/format.md section 2. */
static void data_end(evv *v, uint64_t offset)
{
	if (!v->in_block || offset >= v->blk_end || v->blk_end == offset + 2)
		return;
	evv_report(v, EV_SEVERITY_ERROR, "block-end", NULL, offset,
		   "the data-end marker crosses the end of the block at "
		   "offset %llu, which declares %u bytes and so ends at %llu "
		   "(a last block ends where the data end starts or just "
		   "after it)", (unsigned long long)v->blk_offset, v->blk_size,
		   (unsigned long long)v->blk_end);
}

/* ------------------------------------------------------------------------
 * Payload layouts and references
 * ---------------------------------------------------------------------- */

static void short_payload(evv *v, const ev_event *ev, uint32_t need)
{
	evv_report(v, EV_SEVERITY_ERROR, "payload-size", ev, 0,
		   "the %s payload has %u bytes; its layout needs %u",
		   evv_type_name(ev->type), ev->size, need);
}

/* Fixed prefixes of variable-size events (doc/format.md section 5): capset
 * u32 for 29-31, thread u32 for 44; cost-centre stacks carry depth u8
 * then depth u32 ids. */
static void check_payload(evv *v, const ev_event *ev)
{
	const uint8_t *p = ev->payload;
	uint32_t need = 4;

	switch (ev->type) {
	case EV_HEAP_PROF_SAMPLE_COST_CENTRE: /* id u8, residency u64, depth */
		need = 10;
		if (ev->size >= need)
			need += 4u * p[9];
		break;
	case EV_PROF_SAMPLE_COST_CENTRE: /* cap u32, ticks u64, depth u8 */
		need = 13;
		if (ev->size >= need)
			need += 4u * p[12];
		break;
	default:
		break;
	}
	if (ev->size < need)
		short_payload(v, ev, need);
}

static evv_capset *capset_entry(evv *v, uint32_t id)
{
	evv_capset *c = evv_table_find(&v->capsets, id);

	if (c)
		return c;
	c = evv_table_insert(&v->capsets, id);
	if (!c && !v->limit_reported) {
		v->limit_reported = 1;
		evv_report(v, EV_SEVERITY_WARNING, "limit", NULL,
			   evv_offset(v), "more than %u capsets; capsets past that are not "
			   "checked", v->capsets.max);
	}
	return c;
}

static void use_capset(evv *v, uint32_t id, const ev_event *ev)
{
	evv_capset *c = capset_entry(v, id);

	if (c && !c->referenced) {
		c->referenced = 1;
		remember(&c->first_ref, ev);
	}
}

/* Cap and capset fields sit at fixed offsets (doc/format.md section 6), so
 * the small ids' fields are looked up once, when the validator starts. */
static void index_refs(evv *v, uint16_t id)
{
	static const uint8_t zeros[64];
	evi_ref refs[8];
	size_t n = evi_payload_refs(id, zeros, sizeof zeros, refs, 8);
	evv_refs *out = &v->refs[id];

	out->n = 0;
	for (size_t i = 0; i < n && i < 8; i++)
		if ((refs[i].kind == EV_REF_CAP ||
		     refs[i].kind == EV_REF_CAPSET) && out->n < EVV_MAX_REFS)
			out->ref[out->n++] = refs[i];
}

/* The cap and capset fields of `ev`'s type: the small ids' looked up
 * when the validator started, the others found now (into `found`). */
static inline size_t refs_of(const evv *v, const ev_event *ev,
			     evi_ref found[8], const evi_ref **refs)
{
	if (ev->type < EVV_SMALL_IDS) {
		*refs = v->refs[ev->type].ref;
		return v->refs[ev->type].n;
	}
	*refs = found;
	return evi_payload_refs(ev->type, ev->payload, ev->size, found, 8);
}

/* Hands each cap and capset `ev`'s payload names to cap() or capset():
 * one walk of the fields for check_refs and the parallel path. */
static inline __attribute__((always_inline)) void
each_ref(const evv *v, const ev_event *ev,
	 void (*cap)(void *, uint16_t, const ev_event *),
	 void (*capset)(void *, uint32_t, const ev_event *), void *ctx)
{
	evi_ref found[8];
	const evi_ref *refs;
	size_t n = refs_of(v, ev, found, &refs);

	for (size_t i = 0; i < n && i < 8; i++) {
		uint64_t value;
		if ((size_t)refs[i].offset + refs[i].width > ev->size)
			continue;
		value = evi_ref_load(ev->payload, &refs[i]);
		if (refs[i].kind == EV_REF_CAP && value < EV_NO_CAP)
			cap(ctx, (uint16_t)value, ev);
		else if (refs[i].kind == EV_REF_CAPSET)
			capset(ctx, (uint32_t)value, ev);
	}
}

static void cap_ref(void *v, uint16_t cap, const ev_event *ev)
{
	evv_use_cap(v, cap, ev);
}

static void capset_ref(void *v, uint32_t id, const ev_event *ev)
{
	use_capset(v, id, ev);
}

static void check_refs(evv *v, const ev_event *ev)
{
	each_ref(v, ev, cap_ref, capset_ref, v);
}

/* The parallel path's: which caps an event names, and whether capsets. */
struct cap_refs {
	void (*cap)(void *ctx, uint16_t cap);
	void *ctx;
	int capsets;
};

static void note_cap_ref(void *ctx, uint16_t cap, const ev_event *ev)
{
	struct cap_refs *refs = ctx;

	(void)ev;
	refs->cap(refs->ctx, cap);
}

static void note_capset_ref(void *ctx, uint32_t id, const ev_event *ev)
{
	(void)id;
	(void)ev;
	((struct cap_refs *)ctx)->capsets = 1;
}

int evv_cap_refs(const evv *v, const ev_event *ev,
		 void (*cap)(void *ctx, uint16_t cap), void *ctx)
{
	struct cap_refs refs = { cap, ctx, 0 };

	each_ref(v, ev, note_cap_ref, note_capset_ref, &refs);
	return refs.capsets;
}

/* Creation events, wherever they are: STARTUP (17), CAPSET_CREATE (25),
 * CAPSET_ASSIGN_CAP (27), CAP_CREATE (45). */
static void note_creation(evv *v, const ev_event *ev)
{
	const uint8_t *p = ev->payload;
	evv_capset *c;

	if (ev->type == EV_STARTUP && ev->size >= 2) {
		v->have_startup = 1;
		v->startup_caps = ev_load16(p);
	} else if (ev->type == EV_CAPSET_CREATE && ev->size >= 4) {
		v->any_capset_create = 1;
		if ((c = capset_entry(v, ev_load32(p))))
			c->created = 1;
	} else if (ev->type == EV_CAPSET_ASSIGN_CAP && ev->size >= 6) {
		v->any_capset_assign = 1;
		if (ev_load16(p + 4) != EV_NO_CAP)
			evv_cap_state(v, ev_load16(p + 4))->assigned = 1;
	} else if (ev->type == EV_CAP_CREATE && ev->size >= 2) {
		v->any_cap_create = 1;
		if (ev_load16(p) != EV_NO_CAP)
			evv_cap_state(v, ev_load16(p))->created = 1;
	}
}

/* Everything but the hot path: layouts, creations, references and the
 * semantic checks, for the few types that need them. */
static inline __attribute__((always_inline)) void
slow_event(evv *v, const ev_event *ev, uint8_t flags)
{
	if (flags & EVV_TF_PAYLOAD)
		check_payload(v, ev);
	if (flags & EVV_TF_CREATE)
		note_creation(v, ev);
	if (flags & EVV_TF_REFS)
		check_refs(v, ev);
	if ((flags & EVV_TF_SCHED) && v->o.semantics)
		evv_sched_event(v, ev, v->in_block ? v->blk_cs : NULL);
}

static void not_sorted(evv *v, const ev_event *ev)
{
	evv_report(v, EV_SEVERITY_ERROR, "not-sorted", ev, 0,
		   "the event's time %llu ns is earlier than the %llu ns of an "
		   "event before it",
		   (unsigned long long)ev->time,
		   (unsigned long long)v->global_hwm);
	v->global_hwm = ev->time;
}

/* An EVV_TF_LATE event of a block, before in_block sees it. */
static void rare_late_event(evv *v, const ev_event *ev)
{
	if (v->in_block && ev->offset < v->blk_end)
		late_event(v->blk_cs, ev);
}

static inline __attribute__((always_inline)) void
on_event(evv *v, const ev_event *ev)
{
	uint8_t flags = type_flags(v, ev->type);

	if (flags & (EVV_TF_MARKER | EVV_TF_LATE)) { /* one test when neither */
		if (!(flags & EVV_TF_MARKER))
			rare_late_event(v, ev);
		else if (ev->size >= EVI_BLOCK_PAYLOAD) {
			block_marker(v, ev);
			return;
		}
	}
	/* Mirrors the reader: an event at or past the block's end is
	 * outside it (doc/format.md section 2: events outside blocks exist). */
	if (v->in_block && ev->offset >= v->blk_end)
		v->in_block = 0;
	if (v->in_block)
		in_block(v, ev, flags);
	if (v->o.sorted) {
		if (ev->time + v->o.tolerance_ns < v->global_hwm)
			not_sorted(v, ev);
		else if (ev->time > v->global_hwm)
			v->global_hwm = ev->time;
	}
	if (flags & (EVV_TF_PAYLOAD | EVV_TF_CREATE | EVV_TF_REFS |
		     EVV_TF_SCHED))
		slow_event(v, ev, flags);
}

/* ------------------------------------------------------------------------
 * The parallel path's parts (validate_blocks.c)
 * ---------------------------------------------------------------------- */

uint8_t evv_cap_event(evv *v, const ev_event *ev)
{
	uint8_t flags = type_flags(v, ev->type);

	if (flags & (EVV_TF_MARKER | EVV_TF_LATE)) {
		if (!(flags & EVV_TF_MARKER))
			rare_late_event(v, ev);
		else if (ev->size >= EVI_BLOCK_PAYLOAD) {
			block_marker(v, ev);
			return flags;
		}
	}
	in_block(v, ev, flags);
	if (flags & EVV_TF_PAYLOAD)
		check_payload(v, ev);
	if ((flags & EVV_TF_SCHED) && v->o.semantics)
		evv_sched_cap_event(v, ev, v->blk_cs);
	return flags;
}

void evv_global_event(evv *v, const ev_event *ev, uint8_t flags)
{
	if (flags & EVV_TF_CREATE)
		note_creation(v, ev);
	if (flags & EVV_TF_REFS)
		check_refs(v, ev);
	if ((ev->type == EV_TASK_CREATE || ev->type == EV_TASK_DELETE) &&
	    (flags & EVV_TF_SCHED) && v->o.semantics)
		evv_task_event(v, ev);
}

uint8_t evv_type_flags(const evv *v, uint16_t type)
{
	return type_flags(v, type);
}

/* Whether the cap's machines in `machines` (EVV_MACHINE_*) are in the same
 * state in `a` and `b`, as far as any later event can tell (the times in
 * messages aside): then the same events give the same findings. */
int evv_cap_same(const evv_cap *a, const evv_cap *b, unsigned machines)
{
	if (a->hwm != b->hwm || settled_time(a) != settled_time(b) ||
	    a->has_block != b->has_block ||
	    a->block_end_time != b->block_end_time)
		return 0;
	if ((machines & EVV_MACHINE_RUN) &&
	    (a->run_state != b->run_state ||
	     (a->run_state == EVV_ACTIVE && a->running != b->running) ||
	     ((a->seen ^ b->seen) & (EVV_SEEN_RUN | EVV_SEEN_STOP))))
		return 0;
	if ((machines & EVV_MACHINE_GC) &&
	    (a->gc_state != b->gc_state ||
	     ((a->seen ^ b->seen) & (EVV_SEEN_GC_START | EVV_SEEN_GC_END))))
		return 0;
	if ((machines & EVV_MACHINE_SAMPLE) &&
	    (a->sample_state != b->sample_state ||
	     (a->sample_state == EVV_ACTIVE &&
	      a->sample_era != b->sample_era) ||
	     ((a->seen ^ b->seen) &
	      (EVV_SEEN_SAMPLE_BEGIN | EVV_SEEN_SAMPLE_END))))
		return 0;
	return 1;
}

void evv_cap_adopt(evv_cap *to, const evv_cap *from, unsigned machines)
{
	to->hwm = from->hwm;
	to->settled = from->settled;
	to->late_span = from->late_span;
	to->has_block = from->has_block;
	to->block_end_time = from->block_end_time;
	if (machines & EVV_MACHINE_RUN) {
		to->run_state = from->run_state;
		to->running = from->running;
		to->run_since = from->run_since;
		to->seen = (uint8_t)((to->seen & ~(EVV_SEEN_RUN | EVV_SEEN_STOP)) |
				     (from->seen & (EVV_SEEN_RUN | EVV_SEEN_STOP)));
	}
	if (machines & EVV_MACHINE_GC) {
		to->gc_state = from->gc_state;
		to->gc_since = from->gc_since;
		to->seen = (uint8_t)((to->seen &
				      ~(EVV_SEEN_GC_START | EVV_SEEN_GC_END)) |
				     (from->seen &
				      (EVV_SEEN_GC_START | EVV_SEEN_GC_END)));
	}
	if (machines & EVV_MACHINE_SAMPLE) {
		to->sample_state = from->sample_state;
		to->sample_era = from->sample_era;
		to->sample_offset = from->sample_offset;
		to->seen = (uint8_t)((to->seen & ~(EVV_SEEN_SAMPLE_BEGIN |
						   EVV_SEEN_SAMPLE_END)) |
				     (from->seen & (EVV_SEEN_SAMPLE_BEGIN |
						    EVV_SEEN_SAMPLE_END)));
	}
}

/* ------------------------------------------------------------------------
 * End of a session: references that needed the whole session
 * ---------------------------------------------------------------------- */

static void check_cap(evv *v, unsigned cap)
{
	const evv_cap *cs = &v->caps[cap];

	if (!cs->used)
		return;
	if (v->any_cap_create && !cs->created)
		evv_report_at(v, EV_SEVERITY_ERROR, "cap-ref",
			      &cs->first_use, "cap %u is used here but the log "
			      "never creates it (CAP_CREATE)", cap);
	else if (!v->any_cap_create && v->have_startup &&
		 cap >= v->startup_caps)
		evv_report_at(v, EV_SEVERITY_WARNING, "cap-ref",
			      &cs->first_use,
			      "cap %u is used here but STARTUP declared %u "
			      "capabilities", cap, v->startup_caps);
	if (v->any_capset_assign && !cs->assigned)
		evv_report_at(v, EV_SEVERITY_WARNING, "cap-capset",
			      &cs->first_use,
			      "cap %u is used here but never assigned to a "
			      "capset (CAPSET_ASSIGN_CAP)", cap);
}

/* Capsets named but never created, in file order. */
struct capset_refs {
	const evv_capset **list;
	size_t n;
};

static void collect_capset(void *entry, void *ctx)
{
	const evv_capset *c = entry;
	struct capset_refs *refs = ctx;

	if (c->referenced && !c->created)
		refs->list[refs->n++] = c;
}

static int by_first_ref(const void *a, const void *b)
{
	uint64_t x = (*(const evv_capset *const *)a)->first_ref.offset;
	uint64_t y = (*(const evv_capset *const *)b)->first_ref.offset;

	return x < y ? -1 : x > y;
}

static void check_capsets(evv *v)
{
	struct capset_refs refs = { NULL, 0 };

	if (!v->any_capset_create || v->capsets.count == 0)
		return;
	refs.list = malloc(v->capsets.count * sizeof *refs.list);
	if (!refs.list)
		return;
	evv_table_each(&v->capsets, collect_capset, &refs);
	qsort(refs.list, refs.n, sizeof *refs.list, by_first_ref);
	for (size_t i = 0; i < refs.n; i++)
		evv_report_at(v, EV_SEVERITY_ERROR, "capset-ref",
			      &refs.list[i]->first_ref,
			      "capset %u is named here but the log never "
			      "creates it (CAPSET_CREATE)",
			      (unsigned)refs.list[i]->slot.key);
	free(refs.list);
}

/* Only for a session that reached its data end: a truncated one may have
 * lost its creation events (GHC <= 9.0 writes the global block last). */
void evv_end_session(evv *v)
{
	for (unsigned word = 0; word < EVV_CAPS / 8; word++) {
		if (!v->touched[word])
			continue;
		for (unsigned bit = 0; bit < 8; bit++)
			if ((v->touched[word] & (1u << bit)) &&
			    word * 8 + bit != EV_NO_CAP)
				check_cap(v, word * 8 + bit);
	}
	check_capsets(v);
}

/* ------------------------------------------------------------------------
 * The driver: the one pass as an event consumer (consumer.h)
 * ---------------------------------------------------------------------- */

static int session_begins(void *self, const ev_session *s)
{
	evv *v = self;

	v->session = s->index;
	v->session_start = s->offset;
	v->in_session = 1;
	v->tail = s->offset;
	begin_session(v, s->header);
	return v->stop ? EVV_STOPPED : EV_OK;
}

/* Inlined into evv_run_log's loop (feed.h): the file's events pay no
 * call for going through the protocol. Block markers are framing, not
 * events (ghc-events does not show them): counted in res->blocks only. */
static inline __attribute__((always_inline)) int
session_event(void *self, const ev_event *ev)
{
	evv *v = self;

	if (ev->type != EV_BLOCK_MARKER)
		v->res->events++;
	on_event(v, ev);
	return v->stop ? EVV_STOPPED : EV_OK;
}

/* The session reached its data end: the checks that needed all of it. */
static int session_ends(void *self, const ev_session *s)
{
	evv *v = self;

	v->in_session = 0;
	v->tail = v->res->last_complete_offset = s->end;
	data_end(v, s->end - 2);
	v->session_ended = 1;
	evv_end_session(v);
	return v->stop ? EVV_STOPPED : EV_OK;
}

/* Another source has no reader that says where it stands (evv_offset):
 * each event notes where it ends, before its checks. */
static int any_event(void *self, const ev_event *ev)
{
	evv *v = self;

	v->tail = event_end(v, ev);
	return session_event(v, ev);
}

static int any_finish(void *self, int status)
{
	return evv_stopped(self, status);
}

const ev_consumer *evv_consumer(void)
{
	static const ev_consumer consumer = { session_begins, any_event,
					      session_ends, any_finish,
					      EV_CONSUME_MARKERS };

	return &consumer;
}

/* The log is cut: where the last complete event ends and why. */
static void cut_short(evv *v, uint64_t offset, const char *why)
{
	v->session_ended = 2;
	v->res->last_complete_offset = offset;
	evv_report(v, EV_SEVERITY_ERROR, "truncated", NULL, offset,
		   "%s; the last complete event ends at offset %llu", why,
		   (unsigned long long)offset);
}

/* Malformed input, which cannot be read on, is a finding (`check`, at
 * `offset`) and EV_OK. */
static int cannot_read(evv *v, const char *check, uint64_t offset,
		       const char *why)
{
	v->session_ended = 3;
	evv_report(v, EV_SEVERITY_ERROR, check, NULL, offset, "%s", why);
	return EV_OK;
}

int evv_stopped(evv *v, int status)
{
	char why[80];

	if (status >= 0) /* every session was handed over */
		return EV_OK;
	if (status == EVV_STOPPED || v->in_session)
		v->res->last_complete_offset = v->tail;
	if (status == EVV_STOPPED)
		return EV_OK;
	snprintf(why, sizeof why, "the source stopped: %s",
		 ev_strerror(status));
	if (status == EV_ETRUNCATED)
		cut_short(v, v->tail, why);
	else if (status == EV_EFORMAT || status == EV_ELIMIT)
		return cannot_read(v, v->in_session ? "input" : "header",
				   v->tail, why);
	return status == EV_ETRUNCATED ? EV_OK : status;
}

/* Which check a reader failure on malformed input belongs to: its
 * reason says when it is an undeclared type, bytes after the data end or
 * the compression (damaged gzip, another compressor); anything else is
 * about the header being parsed, or, among events, the input. */
static const char *failure_check(const evv *v, const char *otherwise)
{
	switch (ev_reader_diag(v->r)->reason) {
	case EV_REASON_UNDECLARED_TYPE:
		return "undeclared-type";
	case EV_REASON_TRAILING_DATA:
		return "trailing-data";
	case EV_REASON_COMPRESSION:
		return "input";
	default:
		return otherwise;
	}
}

/* What stopped the reader of evv_run_log, which says where and why: a
 * header (the first, or another session's) or an event that cannot be
 * read is a finding, as a cut log is; the rest (I/O, memory, a log
 * without a byte) the caller's failure. */
static int reader_stopped(evv *v, int rc)
{
	const ev_diag *d = ev_reader_diag(v->r);

	if (rc == EV_END)
		return EV_OK;
	if (rc == EVV_STOPPED || v->in_session)
		v->res->last_complete_offset = ev_reader_offset(v->r);
	if (rc == EVV_STOPPED)
		return EV_OK;
	if (rc == EV_EFORMAT && v->res->sessions == 0 &&
	    d->reason == EV_REASON_EMPTY_INPUT)
		return rc; /* no log to judge: the caller's failure */
	if (rc == EV_ETRUNCATED) {
		cut_short(v, d->offset, d->message);
		return EV_OK;
	}
	if (rc != EV_EFORMAT && rc != EV_ELIMIT)
		return rc;
	return cannot_read(v, failure_check(v, v->in_session ? "input"
							     : "header"),
			   d->offset, d->message);
}

/* The file path: the reader drives the consumer through the inline
 * feed, with its events' callback inlined into the loop. */
int evv_run_log(evv *v)
{
	static const ev_consumer file = { session_begins, session_event,
					  session_ends, NULL,
					  EV_CONSUME_MARKERS };

	v->session_start = 0;
	return reader_stopped(v, evi_feed_sessions(v->r, &file, v));
}

int evv_setup(evv *v, ev_reader *r, const ev_validate_options *opts,
	      ev_finding_fn fn, void *ctx, ev_validate_result *out)
{
	int rc = evv_init(v, opts, fn, ctx, out);

	v->r = r;
	return rc == EV_OK && !r ? EV_EINVAL : rc;
}

int evv_init(evv *v, const ev_validate_options *opts, ev_finding_fn fn,
	     void *ctx, ev_validate_result *out)
{
	ev_validate_options defaults = EV_VALIDATE_OPTIONS_INIT;

	memset(v, 0, sizeof *v);
	memset(out, 0, sizeof *out);
	v->o = opts ? *opts : defaults;
	if (v->o.version != EV_VALIDATE_OPTIONS_VERSION)
		return EV_EINVAL;
	for (unsigned id = 0; id < EVV_SMALL_IDS; id++)
		index_refs(v, (uint16_t)id);
	if (v->o.max_threads == 0)
		v->o.max_threads = EV_VALIDATE_MAX_THREADS;
	v->fn = fn;
	v->ctx = ctx;
	v->res = out;
	v->caps = malloc(EVV_CAPS * sizeof *v->caps);
	if (!v->caps)
		return EV_ENOMEM;
	evv_sched_init(v);
	evv_table_init(&v->capsets, sizeof(evv_capset), EVV_MAX_CAPSETS);
	return EV_OK;
}

void evv_teardown(evv *v)
{
	free(v->caps);
	v->caps = NULL;
	evv_table_free(&v->threads);
	evv_table_free(&v->tasks);
	evv_table_free(&v->capsets);
}
