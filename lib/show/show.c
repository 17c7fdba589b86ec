/*
 * `ghc-events show` text (show.h), from the ghc-events library's
 * buildEventInfo, buildEvent and buildTime (src/GHC/RTS/Events.hs) and the
 * current reference outputs (doc/format.md section 7).
 *
 * Most types are one template over their decoded fields: "%" then a
 * conversion letter and a field index:
 *   %dN decimal   %xN hex   %PN decimal of the value + 1
 *   %tN text (lenient UTF-8)   %LN Latin-1 text (ghc-events' getString)
 *   %lN Haskell show of a string list   %sN cost-centre stack "1, 2, 3"
 *   %pN printable form of binary bytes   %DN leading decimal of a text
 *   %mN Eden message tag name   %cN capset type name
 * The few whose text depends on the form of the payload have functions.
 *
 * Layering, calls going one way only: show.c -> show_json.c ->
 * show_strings.c, and down into lib/format (text.c for the text,
 * stop_status.c for the STOP_THREAD status codes both forms name);
 * nothing below calls up into this file.
 */
#include "evtool/show.h"

#include <stdlib.h>

#include "evtool/catalog.h"
#include "internal.h"
#include "show_internal.h"

struct ev_show {
	const ev_header *header;
	ev_show_format format;
	unsigned flags;
	unsigned quirks; /* evi_header_quirks: the STOP_THREAD numbering */
};

typedef void (*render_fn)(const ev_show *s, const ev_decoded *d,
			  ev_text *out);

typedef struct renderer {
	const char *tmpl;
	render_fn fn;
} renderer;

/* ------------------------------------------------------------------------
 * Templates
 * ---------------------------------------------------------------------- */

static void put_latin1(ev_text *t, const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (p[i] < 0x80) {
			evi_putc(t, (char)p[i]);
		} else {
			evi_putc(t, (char)(0xc0 | p[i] >> 6));
			evi_putc(t, (char)(0x80 | (p[i] & 0x3f)));
		}
	}
}

/* ghc-events' buildCostCentreStack: "1, 2, 3". */
static void put_stack(ev_text *t, const ev_value *v)
{
	for (uint64_t i = 0; i < v->num; i++) {
		if (i)
			evi_puts(t, ", ");
		evi_put_u64(t, ev_load32(v->bytes + 4 * i));
	}
}

/* IPE's closure description is a number written as text; ghc-events
 * reads its leading digits (Data.Text.Read.decimal). */
static void put_leading_decimal(ev_text *t, const ev_value *v)
{
	uint32_t n = 0;

	while (n < v->len && v->bytes[n] >= '0' && v->bytes[n] <= '9')
		n++;
	evi_put(t, v->bytes, n);
}

/* Eden's MessageTag: tags count from 0x50 (ghc-events toMsgTag). */
static void put_message_tag(ev_text *t, uint64_t tag)
{
	static const char *const names[] = {
		"Ready", "NewPE", "PETIDS", "Finish", "FailPE", "RFork",
		"Connect", "DataMes", "Head", "Constr", "Part", "Terminate",
		"Packet"
	};

	if (tag >= 0x50 && tag - 0x50 < sizeof names / sizeof names[0])
		evi_puts(t, names[tag - 0x50]);
	else
		evi_put_u64(t, tag);
}

static void put_value(ev_text *t, char conv, const ev_value *v)
{
	switch (conv) {
	case 'x':
		evi_put_hex(t, v->num);
		break;
	case 'P':
		evi_put_u64(t, v->num + 1);
		break;
	case 't':
		evi_put_text(t, v->bytes, v->len);
		break;
	case 'L':
		put_latin1(t, v->bytes, v->len);
		break;
	case 'l':
		evi_put_haskell_list(t, v->bytes, v->len);
		break;
	case 's':
		put_stack(t, v);
		break;
	case 'p':
		evi_put_printable(t, v->bytes, v->len);
		break;
	case 'D':
		put_leading_decimal(t, v);
		break;
	case 'm':
		put_message_tag(t, v->num);
		break;
	case 'c':
		evi_puts(t, evi_capset_type_name(v->num));
		break;
	default:
		evi_put_u64(t, v->num);
		break;
	}
}

static void put_template(ev_text *t, const char *tmpl, const ev_decoded *d)
{
	static const ev_value absent;
	const char *run = tmpl;

	for (const char *p = tmpl; *p; p++) {
		unsigned i;
		if (*p != '%')
			continue;
		evi_put(t, run, (size_t)(p - run));
		i = (unsigned)(p[2] - '0');
		put_value(t, p[1], i < d->n ? &d->values[i] : &absent);
		p += 2;
		run = p + 1;
	}
	evi_puts(t, run);
}

/* ------------------------------------------------------------------------
 * Types whose text depends on the payload's form
 * ---------------------------------------------------------------------- */

static void render_stop_thread(const ev_show *s, const ev_decoded *d,
			       ev_text *out)
{
	unsigned status = evi_stop_status(ev_decoded_num(d, 1), s->quirks);
	int has_info = d->n > 2;

	evi_puts(out, "stopping thread ");
	evi_put_u64(out, ev_decoded_num(d, 0));
	evi_puts(out, " (");
	if (status == 8 && has_info) {
		evi_puts(out, "blocked on black hole owned by thread ");
		evi_put_u64(out, ev_decoded_num(d, 2));
	} else {
		evi_puts(out, evi_stop_status_text((unsigned)status));
		if (status == 2 && has_info) {
			evi_puts(out, ", size ");
			evi_put_u64(out, ev_decoded_num(d, 2));
		}
	}
	evi_putc(out, ')');
}

static void render_gc_stats(const ev_show *s, const ev_decoded *d,
			    ev_text *out)
{
	(void)s;
	put_template(out, "GC stats for heap capset %d0: generation %d1, "
		     "%d2 bytes copied, %d3 bytes slop, %d4 bytes "
		     "fragmentation, %d5 par threads, %d6 bytes max par "
		     "copied, %d7 bytes total par copied", d);
	if (d->n > 8)
		put_template(out, ", %d8 bytes balanced par copied", d);
}

static void render_heap_prof_begin(const ev_show *s, const ev_decoded *d,
				   ev_text *out)
{
	static const char *const breakdowns[] = {
		"cost centre", "module", "closure description",
		"type description", "retainer", "biography", "closure type",
		"info table", "era"
	};
	uint64_t by = ev_decoded_num(d, 2);
	int filtered = 0;

	(void)s;
	put_template(out, "start heap profiling %d0 at sampling period %d1 "
		     "broken down by ", d);
	if (by >= 1 && by <= 9)
		evi_puts(out, breakdowns[by - 1]);
	else
		evi_put_u64(out, by);
	/* Every non-empty filter followed by ", " (buildFilters). */
	for (unsigned i = 3; i < d->n; i++) {
		if (!d->values[i].len)
			continue;
		if (!filtered++)
			evi_puts(out, " filtered by ");
		evi_put_text(out, d->values[i].bytes, d->values[i].len);
		evi_puts(out, ", ");
	}
}

static void render_cost_centre(const ev_show *s, const ev_decoded *d,
			       ev_text *out)
{
	(void)s;
	put_template(out, "cost centre %d0 %t1 in %t2 at %t3", d);
	if (ev_decoded_num(d, 4) & 1) /* HeapProfFlags: bit 0 is CAF */
		evi_puts(out, " CAF");
}

/* Before GHC 9.10 the census carried log2 of the block size. */
static void render_census(const ev_show *s, const ev_decoded *d,
			  ev_text *out)
{
	(void)s;
	evi_puts(out, "nonmoving heap census ");
	if (d->layout->min_size == 13)
		evi_put_u64(out, (uint64_t)1 << (ev_decoded_num(d, 0) & 63));
	else
		evi_put_u64(out, ev_decoded_num(d, 0));
	put_template(out, ": %d1 active segments, %d2 filled segments, "
		     "%d3 live blocks", d);
}

/* ------------------------------------------------------------------------
 * The table
 * ---------------------------------------------------------------------- */

#define T(id, text) [id] = { text, NULL }
#define F(id, fn) [id] = { NULL, fn }

static const renderer renderers[256] = {
	T(EV_CREATE_THREAD, "creating thread %d0"),
	T(EV_RUN_THREAD, "running thread %d0"),
	F(EV_STOP_THREAD, render_stop_thread),
	T(EV_THREAD_RUNNABLE, "thread %d0 is runnable"),
	T(EV_MIGRATE_THREAD, "migrating thread %d0 to cap %d1"),
	/* GHC 6.12's spark events; ghc-events reads them as SparkRun and
	 * SparkSteal (the thread field is not shown) */
	T(EV_RUN_SPARK, "running a local spark"),
	T(EV_STEAL_SPARK, "stealing a spark from cap %d1"),
	T(EV_SHUTDOWN, "shutting down"),
	T(EV_THREAD_WAKEUP, "waking up thread %d0 on cap %d1"),
	T(EV_GC_START, "starting GC"),
	T(EV_GC_END, "finished GC"),
	T(EV_REQUEST_SEQ_GC, "requesting sequential GC"),
	T(EV_REQUEST_PAR_GC, "requesting parallel GC"),
	T(EV_CREATE_SPARK_THREAD, "creating spark thread %d0"),
	T(EV_LOG_MSG, "%t0"),
	T(EV_STARTUP, "startup: %d0 capabilities"),
	/* ghc-events ends this one with a newline of its own */
	T(EV_BLOCK_MARKER, "event block: cap %d2, end time: %d1\n"),
	T(EV_USER_MSG, "%t0"),
	T(EV_GC_IDLE, "GC idle"),
	T(EV_GC_WORK, "GC working"),
	T(EV_GC_DONE, "GC done"),
	T(23, "compiler version is %L0"),
	T(24, "program invocation: %L0"),
	T(EV_CAPSET_CREATE, "created capset %d0 of type %c1"),
	T(EV_CAPSET_DELETE, "deleted capset %d0"),
	T(EV_CAPSET_ASSIGN_CAP, "assigned cap %d1 to capset %d0"),
	T(EV_CAPSET_REMOVE_CAP, "removed cap %d1 from capset %d0"),
	T(EV_RTS_IDENTIFIER, "capset %d0: RTS version \"%t1\""),
	T(EV_PROGRAM_ARGS, "capset %d0: args: %l1"),
	T(EV_PROGRAM_ENV, "capset %d0: env: %l1"),
	T(EV_OSPROCESS_PID, "capset %d0: pid %d1"),
	T(EV_OSPROCESS_PPID, "capset %d0: parent pid %d1"),
	T(EV_SPARK_COUNTERS, "spark stats: %d0 created, %d3 converted, %d6 "
	  "remaining (%d2 overflowed, %d1 dud, %d4 GC'd, %d5 fizzled)"),
	T(EV_SPARK_CREATE, "spark created"),
	T(EV_SPARK_DUD, "dud spark discarded"),
	T(EV_SPARK_OVERFLOW, "overflowed spark discarded"),
	T(EV_SPARK_RUN, "running a local spark"),
	T(EV_SPARK_STEAL, "stealing a spark from cap %d0"),
	T(EV_SPARK_FIZZLE, "spark fizzled"),
	T(EV_SPARK_GC, "spark GCed"),
	T(EV_WALL_CLOCK_TIME, "capset %d0: wall clock time %d1s %d2ns "
	  "(unix epoch)"),
	T(EV_THREAD_LABEL, "thread %d0 has label \"%t1\""),
	T(EV_CAP_CREATE, "created cap %d0"),
	T(EV_CAP_DELETE, "deleted cap %d0"),
	T(EV_CAP_DISABLE, "disabled cap %d0"),
	T(EV_CAP_ENABLE, "enabled cap %d0"),
	T(EV_HEAP_ALLOCATED, "allocated on heap capset %d0: %d1 total bytes "
	  "till now"),
	T(EV_HEAP_SIZE, "size of heap capset %d0: %d1 bytes"),
	T(EV_HEAP_LIVE, "live data in heap capset %d0: %d1 bytes"),
	T(EV_HEAP_INFO_GHC, "heap stats for heap capset %d0: generations "
	  "%d1, %d2 bytes max heap size, %d3 bytes alloc area size, %d4 "
	  "bytes mblock size, %d5 bytes block size"),
	F(EV_GC_STATS_GHC, render_gc_stats),
	T(EV_GC_GLOBAL_SYNC, "all caps stopped for GC"),
	T(EV_TASK_CREATE, "task 0x%x0 created on cap %d1 with OS kernel "
	  "thread %d2"),
	T(EV_TASK_MIGRATE, "task 0x%x0 migrated from cap %d1 to cap %d2"),
	T(EV_TASK_DELETE, "task 0x%x0 deleted"),
	T(EV_USER_MARKER, "marker: %t0"),
	T(60, "starting to receive"),
	T(61, "stop receiving"),
	T(62, "creating process %d0"),
	T(63, "killing process %d0"),
	T(64, "assigning thread %d0 to process %d1"),
	T(65, "creating machine %d0 at %d1"),
	T(66, "killing machine %d0"),
	T(67, "sending message with tag %m0 from process %d1, thread %d2 to "
	  "machine %d3, process %d4 on inport %d5"),
	T(68, "receiving message with tag %m0 at process %d1, inport %d2 "
	  "from machine %d3, process %d4, thread %d5 with size %d6"),
	T(69, "sending/receiving message with tag %m0 from process %d1, "
	  "thread %d2 to process %d3 on inport %d4"),
	T(EV_MEM_RETURN, "memory returned (mblocks): current(%d1) "
	  "needed(%d2) returned(%d3)"),
	T(EV_BLOCKS_SIZE, "blocks size of heap capset %d0: %d1 bytes"),
	T(100, "Start a parallel conjunction 0x%x0, static_id: %d1"),
	T(101, "End par conjunction: 0x%x0"),
	T(102, "End par conjunct: 0x%x0"),
	T(103, "Create spark for conjunction: 0x%x0 spark: 0x%x1"),
	T(104, "Create future 0x%x0 named %d1"),
	T(105, "Wait didn't suspend for future: 0x%x0"),
	T(106, "Wait suspended on future: 0x%x0"),
	T(107, "Signaled future 0x%x0"),
	T(108, "Looking for global thread to resume"),
	T(109, "Trying to steal a spark"),
	T(110, "Releasing thread %d0 to the free pool"),
	T(111, "Capability going to sleep"),
	T(112, "Looking for a local spark to execute"),
	T(113, "About to call the program entry point"),
	T(140, "perf event %d0 named \"%t1\""),
	T(141, "perf event counter %d0 incremented by %P2 in OS thread %d1"),
	T(142, "perf event tracepoint %d0 reached in OS thread %d1"),
	F(EV_HEAP_PROF_BEGIN, render_heap_prof_begin),
	F(EV_HEAP_PROF_COST_CENTRE, render_cost_centre),
	T(EV_HEAP_PROF_SAMPLE_BEGIN, "start heap prof sample %d0"),
	T(EV_HEAP_PROF_SAMPLE_COST_CENTRE, "heap prof sample %d0, residency "
	  "%d1, cost centre stack %s3"),
	T(EV_HEAP_PROF_SAMPLE_STRING, "heap prof sample %d0, residency %d1, "
	  "label %t2"),
	T(EV_HEAP_PROF_SAMPLE_END, "end prof sample %d0"),
	T(EV_HEAP_BIO_PROF_SAMPLE_BEGIN, "start heap prof sample %d0 at time "
	  "%d1"),
	T(EV_PROF_SAMPLE_COST_CENTRE, "cap no %d0, prof sample %d1, cost "
	  "centre stack %s3"),
	T(EV_PROF_BEGIN, "start time profiling, tick interval %d0 (ns)"),
	T(EV_IPE, "Info Table: %x0:%D2:%t1 - %t6"),
	T(EV_USER_BINARY_MSG, "binary message %p0"),
	T(EV_CONC_MARK_BEGIN, "concurrent mark began"),
	T(EV_CONC_MARK_END, "concurrent mark ended: marked %d0 objects"),
	T(EV_CONC_SYNC_BEGIN, "post-mark synchronization began"),
	T(EV_CONC_SYNC_END, "post-mark synchronization ended"),
	T(EV_CONC_SWEEP_BEGIN, "concurrent sweep began"),
	T(EV_CONC_SWEEP_END, "concurrent sweep ended"),
	T(EV_CONC_UPD_REM_SET_FLUSH, "update remembered set flushed by %d0"),
	F(EV_NONMOVING_HEAP_CENSUS, render_census),
	T(EV_NONMOVING_PRUNED_SEGMENTS, "nonmoving segments pruned: %d0 "
	  "pruned segments, %d1 free segments retained"),
	T(EV_TICKY_COUNTER_DEF, "ticky counter definition %d0, arity: %d1, "
	  "def kinds: %t2, name: %t3, itbl: %x4"),
	T(EV_TICKY_COUNTER_SAMPLE, "ticky counter sample %d0: entry count: "
	  "%d1, %d2 allocs, %d3 allocd"),
	T(EV_TICKY_COUNTER_BEGIN_SAMPLE, "ticky begin counter sample"),
};

/* ------------------------------------------------------------------------
 * Lines
 * ---------------------------------------------------------------------- */

/* ghc-events' padSpaces: numbers justified to three columns. */
static void put_padding(ev_text *t, uint64_t n)
{
	if (n < 10)
		evi_puts(t, "  ");
	else if (n < 100)
		evi_putc(t, ' ');
}

/* buildTime PrettyTime: "  1s  23ms 456.7  us". */
static void put_pretty_time(ev_text *t, uint64_t ns)
{
	uint64_t secs = ns / 1000000000u, msecs = ns / 1000000u % 1000u;
	uint64_t usecs = ns / 1000u % 1000u, rest = ns % 1000u;

	put_padding(t, secs);
	evi_put_u64(t, secs);
	evi_puts(t, "s ");
	put_padding(t, msecs);
	evi_put_u64(t, msecs);
	evi_puts(t, "ms ");
	put_padding(t, usecs);
	evi_put_u64(t, usecs);
	evi_putc(t, '.');
	evi_put_u64(t, rest);
	put_padding(t, rest);
	evi_puts(t, "us");
}

/* A block marker carries its own cap (ghc-events mkCap: none for the
 * global buffer's 0xffff); other events have their block's. */
static uint16_t shown_cap(const ev_event *ev, const ev_decoded *d)
{
	if (ev->type == EV_BLOCK_MARKER && d->layout)
		return (uint16_t)ev_decoded_num(d, 2);
	return ev->cap;
}

/* An event ghc-events has no parser for prints its header description. */
static void put_unknown(const ev_show *s, const ev_event *ev, ev_text *out)
{
	const ev_type_decl *decl = ev_header_find(s->header, ev->type);

	if (decl)
		evi_put_text(out, (const uint8_t *)decl->desc, decl->desc_len);
}

static void put_text_event(const ev_show *s, const ev_event *ev,
			   ev_text *out)
{
	const renderer *r = ev->type < 256 ? &renderers[ev->type] : NULL;
	ev_decoded d;
	uint16_t cap;

	ev_decode(ev, &d);
	if (s->flags & EV_SHOW_PRETTY_TIME)
		put_pretty_time(out, ev->time);
	else
		evi_put_u64(out, ev->time);
	evi_puts(out, ": ");
	if ((cap = shown_cap(ev, &d)) != EV_NO_CAP) {
		evi_puts(out, "cap ");
		evi_put_u64(out, cap);
		evi_puts(out, ": ");
	}
	if (!d.layout || !r || (!r->tmpl && !r->fn) ||
	    !ev_header_type_info(s->header, ev->type))
		put_unknown(s, ev, out);
	else if (r->fn)
		r->fn(s, &d, out);
	else
		put_template(out, r->tmpl, &d);
	evi_putc(out, '\n');
}

/* ------------------------------------------------------------------------
 * The public interface
 * ---------------------------------------------------------------------- */

int ev_show_new(ev_show **out, const ev_header *h, ev_show_format format,
		unsigned flags, ev_diag *diag)
{
	ev_show *s;

	*out = NULL;
	if (format != EV_SHOW_TEXT && format != EV_SHOW_NDJSON)
		return evi_fail_at(diag, EV_ORIGIN_OPTIONS, EV_EINVAL, 0, 0,
				   "unknown show format %d", (int)format);
	if (!(s = calloc(1, sizeof *s)))
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	s->header = h;
	s->format = format;
	s->flags = flags;
	s->quirks = evi_header_quirks(h);
	*out = s;
	return EV_OK;
}

void ev_show_free(ev_show *s)
{
	free(s);
}

int ev_show_header(const ev_show *s, ev_text *out)
{
	if (s->format == EV_SHOW_NDJSON)
		return EV_OK;
	evi_puts(out, "Event Types:\n");
	for (size_t i = 0; i < ev_header_count(s->header); i++) {
		const ev_type_decl *t = ev_header_at(s->header, i);
		evi_put_u64(out, t->id);
		evi_puts(out, ": ");
		evi_put_text(out, (const uint8_t *)t->desc, t->desc_len);
		evi_puts(out, " (size ");
		if (t->size == EV_SIZE_VARIABLE)
			evi_puts(out, "variable");
		else
			evi_put_u64(out, (uint64_t)t->size);
		evi_puts(out, ")\n");
	}
	evi_puts(out, "\nEvents:\n");
	return out->failed ? EV_ENOMEM : EV_OK;
}

int ev_show_event(const ev_show *s, const ev_event *ev, ev_text *out)
{
	if (s->format == EV_SHOW_NDJSON)
		evi_show_json_event(ev, s->header, s->quirks, out);
	else
		put_text_event(s, ev, out);
	return out->failed ? EV_ENOMEM : EV_OK;
}

int ev_show_footer(const ev_show *s, ev_text *out)
{
	if (s->format == EV_SHOW_TEXT)
		evi_putc(out, '\n');
	return out->failed ? EV_ENOMEM : EV_OK;
}
