/*
 * evtool merge, part three: the second pass (merge.h, "Output order").
 *
 * Layering: the top of merge (this file -> merge.c -> merge_plan.c); it
 * opens the inputs again through merge.c and records failures through
 * merge_plan.c, and nothing in them calls into it.
 *
 * A log has one buffer per capability and one global buffer (cap 0xffff),
 * and each buffer's blocks must be in time order without overlap
 * (doc/format.md sections 2 and 3). After renumbering, a capability belongs
 * to one input, so its blocks can be copied whole, in the input's order;
 * but every input has a global buffer and the output has only one. So:
 *
 * - a capability's block is copied whole (cap renumbered, times shifted,
 *   marker times kept) through one of the output writer's block builders
 *   (writer_block.h) and written with its exact size;
 * - the events of the inputs' global buffers, and events outside any
 *   block, are merged one by one by aligned time into fresh global
 *   blocks (start and end: their first and last event) through the other.
 *
 * Each input reads one unit ahead: its next synthesised event, block
 * marker or global event. A heap orders the inputs by that unit's aligned
 * time, ties by input order. A capability block at the top is copied at
 * once. A global event at the top is written only when every input has
 * read up to its next global event ("resolved"), so that no input can
 * still hold an earlier one; inputs that have not are first advanced,
 * copying the capability blocks on the way. Before a capability block is
 * written the pending global block is, so each input's events keep their
 * file order in the output. Memory: the readers, the writer's two block
 * builders and the heap, whatever the sizes of the logs.
 *
 * Some global events are one unit over several events, which the RTS
 * posts back to back: a heap census (HEAP_PROF_SAMPLE_BEGIN 162 or
 * HEAP_BIO_PROF_SAMPLE_BEGIN 166, its HEAP_PROF_SAMPLE_COST_CENTRE 163
 * and HEAP_PROF_SAMPLE_STRING 164 events, HEAP_PROF_SAMPLE_END 165 from
 * GHC 8.4 on) and a ticky sample (TICKY_COUNTER_BEGIN_SAMPLE 212 and the
 * TICKY_COUNTER_SAMPLE 211 events after it, posted under one lock). Only
 * the 163/164/211 events name their process (a heap profile or counter
 * id, renumbered); 162/165/166/212 carry none, so a group is copied whole
 * once its first event is due (copy_group): merged event by event, the
 * groups of processes sampled at the same time would interleave and no
 * reader could tell whose sample an event is. A census that ends with
 * 165 runs from its begin to that end, with whatever else the input's
 * global buffer holds in between: the profiling timer posts its
 * PROF_SAMPLE_COST_CENTRE (167) events there while a census is written
 * (-hc -p), so a group cut at them would let another input's census begin
 * inside this one. Every other global event stands alone (IPE 169, 167
 * outside a census, the cost-centre and counter definitions 161 and 210).
 * The global buffer
 * must stay in time order, so an event of another input stamped inside a
 * group that was copied whole is written right after it, restamped with
 * the group's last time: by at most the group's length, which is some
 * microseconds for most of GHC's samples and a few milliseconds for a
 * slow one (testdata's heap-b has one of 2.9 ms), and counted in
 * ev_merge_input.restamped. Events of the same time keep the order of
 * their inputs, and a group's first event is due at its own time even
 * when another group ends then, so groups that touch at either end stay
 * apart too.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "merge_internal.h"
#include "wire.h"
#include "writer_block.h"

#define MAX_REFS 264

/* Output failures come from the writer (its sink). */
static int output_failed(ev_merge *m)
{
	const ev_diag *d = ev_writer_diag(m->writer);
	return evi_merge_fail(m, EV_ORIGIN_OUTPUT, d->status, "%s",
			      d->message[0] ? d->message
					    : ev_strerror(d->status));
}

static uint64_t shifted(const evi_merge_input *in, uint64_t t)
{
	return t + (uint64_t)in->info.shift;
}

/* Writes the pending global block, if it has events. */
static int flush_global(ev_merge *m)
{
	return evi_block_close(m->global_block) < 0 ? output_failed(m)
						    : EV_OK;
}

/* Every identifier field the catalogue finds in `from`, mapped
 * (merge_plan.c) into the copy at `to`. The values are read from the
 * input, not from the copy just written: loading what was just stored
 * with other widths stalls the CPU's store forwarding. */
static void renumber(const ev_merge *m, const evi_merge_input *in,
		     uint16_t type, const uint8_t *from, uint32_t size,
		     uint8_t *to)
{
	evi_ref refs[MAX_REFS];
	size_t n = evi_payload_refs(type, from, size, refs, MAX_REFS);

	for (size_t k = 0; k < n && k < MAX_REFS; k++)
		evi_ref_store(to, &refs[k],
			      evi_merge_map_id(m, in, refs[k].kind,
					       evi_ref_load(from, &refs[k]),
					       refs[k].width));
}

/* Adds one input event to `b`: shifted, renumbered, and zero-filled to
 * the output's size when that is larger (widening). */
static int append_event(ev_merge *m, evi_merge_input *in, evi_block *b,
			const ev_event *ev, uint64_t time)
{
	int32_t wire = evi_merge_out_wire(m, ev->type);
	int variable = wire == EV_SIZE_VARIABLE;
	uint32_t size = variable ? ev->size : (uint32_t)wire;
	evi_wire_event out = { ev->payload, time, size, ev->type,
			       (uint8_t)variable };
	int widen;
	uint8_t *p;

	if (wire == EVI_UNDECLARED || ev->size > size)
		return evi_merge_fail(m, EV_ORIGIN_INPUT, EV_EFORMAT,
				      "%s: offset %llu: event type %u does not "
				      "fit the merged header", in->name,
				      (unsigned long long)ev->offset, ev->type);
	widen = size != ev->size;
	p = widen ? evi_block_add_zeros(b, &out) : evi_block_add(b, &out);
	if (!p)
		return output_failed(m);
	if (widen && evi_merge_widen_kind(ev->type, (int32_t)ev->size,
					  (int32_t)size) == EVI_WIDEN_CENSUS) {
		/* NONMOVING_HEAP_CENSUS before GHC 9.10: log2 u8, then active,
		 * filled, live u32; from 9.10 blk size u16 = 1 << log2, then
		 * the same three (doc/format.md section 5). */
		uint8_t log2 = ev->payload[0];
		if (log2 > 15)
			return evi_merge_fail(m, EV_ORIGIN_INPUT,
					      EV_EFORMAT,
					      "%s: offset %llu: "
					      "NONMOVING_HEAP_CENSUS (207) has a "
					      "block size of 2^%u bytes, too "
					      "large for its 14-byte form",
					      in->name,
					      (unsigned long long)ev->offset,
					      log2);
		ev_store16(p, (uint16_t)(1u << log2));
		memcpy(p + 2, ev->payload + 1, 12);
	} else if (widen) {
		/* a prefix of the output's form (merge_plan.c) */
		memcpy(p, ev->payload, ev->size);
	}
	if (!in->identity && !evi_merge_ref_free(m, ev->type))
		renumber(m, in, ev->type, ev->payload, ev->size, p);
	m->events_written++;
	return EV_OK;
}

/* ---- reading ahead ---- */

static int changed(ev_merge *m, const evi_merge_input *in)
{
	return evi_merge_fail(m, EV_ORIGIN_INPUT, EV_EIO,
			      "%s: changed while it was being merged (%llu "
			      "events at the first reading, %llu now)",
			      in->name, (unsigned long long)in->limit,
			      (unsigned long long)in->read);
}

/* What the event just read is; EVI_UNIT_NONE for a global block's marker,
 * which is passed over (global blocks are rebuilt). */
static enum evi_unit_kind classify(const evi_merge_input *in)
{
	if (in->next.type == EV_BLOCK_MARKER)
		return in->next.cap == EV_NO_CAP ? EVI_UNIT_NONE
						 : EVI_UNIT_CAP_BLOCK;
	/* The reader gives an event its block's cap: none means the global
	 * block or no block at all. */
	return in->next.cap == EV_NO_CAP ? EVI_UNIT_GLOBAL : EVI_UNIT_IN_BLOCK;
}

/* Reads the input's next event into in->next and says what it is. The
 * second pass stops where the first did, so a log that grows meanwhile
 * is merged as planned. */
static int fetch(ev_merge *m, evi_merge_input *in)
{
	int rc;

	for (;;) {
		if (in->read == in->limit) {
			in->next_kind = EVI_UNIT_NONE;
			return EV_OK;
		}
		rc = ev_reader_next(in->reader, &in->next);
		if (rc == EV_OK) {
			in->read++;
			if ((in->next_kind = classify(in)) != EVI_UNIT_NONE)
				return EV_OK;
			continue;
		}
		if (rc == EV_END || rc == EV_ETRUNCATED)
			return changed(m, in);
		return evi_merge_reader_failed(m, in, in->reader);
	}
}

/* The synthesised events are fixed-size and come first (merge_plan.c). */
static uint64_t synth_time(const evi_merge_input *in)
{
	return ev_load64(in->synth + in->synth_pos + 2);
}

/* The synthesised event at synth_pos (merge_plan.c's put_synth: a head,
 * then a payload of the output's size), stamped `time`. */
static evi_wire_event synth_event(const ev_merge *m,
				  const evi_merge_input *in, uint64_t time)
{
	const uint8_t *p = in->synth + in->synth_pos;
	uint16_t type = ev_load16(p);
	evi_wire_event ev = { p + EVI_EVENT_HEADER, time,
			      (uint32_t)evi_merge_out_wire(m, type), type, 0 };
	return ev;
}

/* ---- units ---- */

/* A capability's block: the pending global block first (so that each
 * input's events keep their order), then its marker (cap renumbered,
 * times shifted) and the events the reader places inside it. */
static int copy_block(ev_merge *m, evi_merge_input *in)
{
	evi_block *b = m->cap_block;
	ev_block block;
	int rc = flush_global(m);

	if (rc < 0)
		return rc;
	ev_reader_block(in->reader, &block);
	evi_block_begin_times(b, (uint16_t)evi_merge_map_id(m, in, EV_REF_CAP,
							    block.cap, 2),
			      shifted(in, block.start_time),
			      shifted(in, block.end_time));
	while ((rc = fetch(m, in)) == EV_OK &&
	       in->next_kind == EVI_UNIT_IN_BLOCK)
		if ((rc = append_event(m, in, b, &in->next,
				       shifted(in, in->next.time))) < 0)
			return rc;
	if (rc < 0)
		return rc;
	return evi_block_close(b) < 0 ? output_failed(m) : EV_OK;
}

/* The time a global event of `in` stamped `t` (aligned) is written at:
 * not before the end of a group copied whole past it (see the top of this
 * file), which moves the events of a later group with it. Nothing else
 * moves: an input that steps back itself keeps its times. */
static uint64_t global_time(ev_merge *m, evi_merge_input *in, uint64_t t)
{
	uint64_t late;

	if (!m->held_until)
		return t;
	if (t >= m->held_until) {
		m->held_until = 0;
		return t;
	}
	late = m->held_until - t;
	in->info.restamped++;
	if (late > in->info.restamp_max_ns)
		in->info.restamp_max_ns = late;
	return m->held_until;
}

/* The input's event read ahead into the global block, and the next read. */
static int append_global(ev_merge *m, evi_merge_input *in)
{
	uint64_t t = global_time(m, in, shifted(in, in->next.time));
	int rc = append_event(m, in, m->global_block, &in->next, t);

	return rc < 0 ? rc : fetch(m, in);
}

/* Groups of global events copied whole (see the top of this file). */
enum group_kind {
	GROUP_NONE,
	GROUP_HEAP_SAMPLE,    /* a census of a log without 165 (GHC < 8.4) */
	GROUP_HEAP_BRACKETED, /* a census that ends with 165 */
	GROUP_TICKY_SAMPLE
};
/* Where an event stands to an open group. */
enum group_place { GROUP_OUT, GROUP_IN, GROUP_LAST };

/* The group the input's event read ahead opens, if any: a census is
 * bracketed when the session's header declares its end (165). A type
 * declared with another producer's layout opens none. */
static enum group_kind group_opened_by(const ev_merge *m,
				       const evi_merge_input *in)
{
	uint16_t type = in->next.type;

	switch (type) {
	case EV_HEAP_PROF_SAMPLE_BEGIN:
	case EV_HEAP_BIO_PROF_SAMPLE_BEGIN:
		if (m->foreign[type])
			return GROUP_NONE;
		return ev_header_find(ev_reader_header(in->reader),
				      EV_HEAP_PROF_SAMPLE_END)
			       ? GROUP_HEAP_BRACKETED
			       : GROUP_HEAP_SAMPLE;
	case EV_TICKY_COUNTER_BEGIN_SAMPLE:
		return m->foreign[type] ? GROUP_NONE : GROUP_TICKY_SAMPLE;
	default:
		return GROUP_NONE;
	}
}

/* A bracketed census holds everything up to its end; the next census's
 * begin closes one cut short (a killed run). Otherwise only the group's
 * own events extend it, so a sample of an RTS before
 * HEAP_PROF_SAMPLE_END ends at the first other event and holds no other
 * input back for long. */
static enum group_place group_place(enum group_kind g, uint16_t type)
{
	switch (g) {
	case GROUP_TICKY_SAMPLE:
		return type == EV_TICKY_COUNTER_SAMPLE ? GROUP_IN : GROUP_OUT;
	case GROUP_HEAP_BRACKETED:
		if (type == EV_HEAP_PROF_SAMPLE_END)
			return GROUP_LAST;
		return type == EV_HEAP_PROF_SAMPLE_BEGIN ||
				       type == EV_HEAP_BIO_PROF_SAMPLE_BEGIN
			       ? GROUP_OUT
			       : GROUP_IN;
	default:
		if (type == EV_HEAP_PROF_SAMPLE_COST_CENTRE ||
		    type == EV_HEAP_PROF_SAMPLE_STRING)
			return GROUP_IN;
		return type == EV_HEAP_PROF_SAMPLE_END ? GROUP_LAST : GROUP_OUT;
	}
}

/* The rest of a group of `in` whose first event was just written: its
 * events, and the capability blocks of `in` the file holds among them
 * (the global buffer may be flushed in the middle of a sample). */
static int copy_group(ev_merge *m, evi_merge_input *in, enum group_kind g)
{
	enum group_place place;
	int rc = EV_OK;

	for (;;) {
		if (in->next_kind == EVI_UNIT_CAP_BLOCK) {
			if ((rc = copy_block(m, in)) < 0)
				return rc;
			continue;
		}
		if (in->next_kind != EVI_UNIT_GLOBAL ||
		    (place = group_place(g, in->next.type)) == GROUP_OUT)
			return EV_OK;
		if ((rc = append_global(m, in)) < 0)
			return rc;
		m->held_until = evi_block_latest(m->global_block);
		if (place == GROUP_LAST)
			return EV_OK;
	}
}

/* HEAP_PROF_SAMPLE_END (165): u64 era, that of its census's begin. */
#define CENSUS_END_SIZE 8u

/* Ends a census of an input whose (older) runtime wrote no
 * HEAP_PROF_SAMPLE_END when the output declares it (another input's
 * runtime wrote it): every census of the merged log then ends, as a
 * reader of that header (and the validator) expects; unended, the next
 * census of that input would begin inside this one. Stamped with the
 * census's last time, `last`. */
static int end_census(ev_merge *m, evi_merge_input *in, uint64_t era,
		      uint64_t last)
{
	uint8_t payload[CENSUS_END_SIZE];
	evi_wire_event end = { payload, last, CENSUS_END_SIZE,
			       EV_HEAP_PROF_SAMPLE_END, 0 };

	ev_store64(payload, era);
	if (!evi_block_add(m->global_block, &end))
		return output_failed(m);
	m->events_written++;
	m->held_until = last;
	in->info.censuses_ended++;
	return EV_OK;
}

/* A census of `in` that begins with the event read ahead and that the
 * output must end for it (end_census); its era in `era`. */
static int census_to_end(const ev_merge *m, const evi_merge_input *in,
			 enum group_kind g, uint64_t *era)
{
	if (g != GROUP_HEAP_SAMPLE || in->next.size < 8 ||
	    evi_merge_out_wire(m, EV_HEAP_PROF_SAMPLE_END) != CENSUS_END_SIZE)
		return 0;
	*era = ev_load64(in->next.payload);
	return 1;
}

/* One global event (or synthesised one) into the global block; a group's
 * first event brings the whole group. */
static int copy_global(ev_merge *m, evi_merge_input *in)
{
	evi_block *g = m->global_block;
	enum group_kind group;
	evi_wire_event synth;
	int rc;

	if (in->next_kind != EVI_UNIT_SYNTH) {
		uint64_t era = 0, begun;
		int to_end;
		group = group_opened_by(m, in);
		to_end = census_to_end(m, in, group, &era);
		if ((rc = append_global(m, in)) < 0 ||
		    group == GROUP_NONE)
			return rc;
		begun = evi_block_latest(g);
		if ((rc = copy_group(m, in, group)) < 0 || !to_end)
			return rc;
		return end_census(m, in, era,
				  m->held_until > begun ? m->held_until
							: begun);
	}
	synth = synth_event(m, in, global_time(m, in, synth_time(in)));
	if (!evi_block_add(g, &synth))
		return output_failed(m);
	m->events_written++;
	if ((in->synth_pos += evi_wire_len(&synth)) < in->synth_len)
		return EV_OK;
	return fetch(m, in);
}

/* ---- the heap of inputs ---- */

static uint64_t unit_key(const evi_merge_input *in)
{
	return in->next_kind == EVI_UNIT_SYNTH ? synth_time(in)
					       : shifted(in, in->next.time);
}

/* Earlier aligned time first; ties by input order. */
static int before(const ev_merge *m, size_t a, size_t b)
{
	uint64_t ka = unit_key(&m->inputs[a]), kb = unit_key(&m->inputs[b]);
	return ka < kb || (ka == kb && a < b);
}

static void heap_push(ev_merge *m, size_t input)
{
	size_t at = m->heap_len++;

	while (at > 0 && before(m, input, m->heap[(at - 1) / 2])) {
		m->heap[at] = m->heap[(at - 1) / 2];
		at = (at - 1) / 2;
	}
	m->heap[at] = input;
}

static size_t heap_pop(ev_merge *m)
{
	size_t top = m->heap[0], last = m->heap[--m->heap_len], at = 0;

	for (;;) {
		size_t child = 2 * at + 1;
		if (child >= m->heap_len)
			break;
		if (child + 1 < m->heap_len &&
		    before(m, m->heap[child + 1], m->heap[child]))
			child++;
		if (!before(m, m->heap[child], last))
			break;
		m->heap[at] = m->heap[child];
		at = child;
	}
	if (m->heap_len)
		m->heap[at] = last;
	return top;
}

/* Puts input `i` back in the heap unless it is finished; a finished
 * input's reader (its window) is freed at once. */
static void requeue(ev_merge *m, size_t i)
{
	evi_merge_input *in = &m->inputs[i];

	if (in->next_kind == EVI_UNIT_NONE) {
		ev_reader_free(in->reader);
		in->reader = NULL;
		in->mem = NULL;
		in->mem_len = 0;
		return;
	}
	if (in->next_kind == EVI_UNIT_CAP_BLOCK)
		m->unresolved++;
	heap_push(m, i);
}

/* Advances every input that is at a capability block to its next global
 * event (or its end), copying the blocks, then rebuilds the heap. */
static int resolve_all(ev_merge *m)
{
	int rc = EV_OK;

	m->heap_len = 0;
	m->unresolved = 0;
	for (size_t i = 0; i < m->n_inputs; i++) {
		evi_merge_input *in = &m->inputs[i];
		while (rc == EV_OK && in->next_kind == EVI_UNIT_CAP_BLOCK)
			rc = copy_block(m, in);
		if (rc < 0)
			return rc;
		if (in->reader || in->next_kind != EVI_UNIT_NONE)
			requeue(m, i);
	}
	return EV_OK;
}

/* ---- the pass ---- */

/* Opens input `in` for the second pass and reads its first unit ahead. */
static int start_input(ev_merge *m, evi_merge_input *in)
{
	int rc;

	in->next_kind = EVI_UNIT_NONE;
	if (!in->header_ok)
		return EV_OK;
	if ((rc = evi_merge_open_reader(m, in, &in->reader)) < 0)
		return rc;
	evi_merge_count_cached(m, in);
	if (ev_reader_read_header(in->reader) < 0)
		return evi_merge_reader_failed(m, in, in->reader);
	if (in->synth_len) {
		in->next_kind = EVI_UNIT_SYNTH;
		return EV_OK;
	}
	return fetch(m, in);
}

/* One step: the unit of the input at the top of the heap. */
static int step(ev_merge *m)
{
	size_t i = m->heap[0];
	evi_merge_input *in = &m->inputs[i];
	int rc;

	if (in->next_kind == EVI_UNIT_CAP_BLOCK) {
		heap_pop(m);
		m->unresolved--;
		rc = copy_block(m, in);
	} else if (m->unresolved) {
		return resolve_all(m);
	} else {
		heap_pop(m);
		rc = copy_global(m, in);
	}
	if (rc == EV_OK)
		requeue(m, i);
	return rc;
}

static int merge_inputs(ev_merge *m)
{
	int rc = EV_OK;

	for (size_t i = 0; i < m->n_inputs && rc == EV_OK; i++)
		if ((rc = start_input(m, &m->inputs[i])) == EV_OK)
			requeue(m, i);
	while (rc == EV_OK && m->heap_len)
		rc = step(m);
	return rc < 0 ? rc : flush_global(m);
}

/* The output: the header as planned, written as it is (PRESERVE), the
 * blocks through two of the writer's builders, the data end. */
static int write_output(ev_merge *m, ev_writer *w)
{
	int rc;

	m->writer = w;
	m->cap_block = evi_writer_new_block(w, EV_MERGE_MAX_BLOCK);
	m->global_block = evi_writer_new_block(w, EV_MERGE_MAX_BLOCK);
	if (!m->cap_block || !m->global_block)
		return evi_merge_fail(m, EV_ORIGIN_OUTPUT, EV_ENOMEM,
				      "out of memory");
	if ((rc = merge_inputs(m)) < 0)
		return rc;
	return ev_writer_finish(w) < 0 ? output_failed(m) : EV_OK;
}

int ev_merge_run(ev_merge *m, ev_sink *sink)
{
	ev_writer *w;
	int rc;

	if (!m->planned && (rc = ev_merge_plan(m)) < 0)
		return rc;
	if (m->written)
		return evi_merge_fail(m, EV_ORIGIN_OPTIONS, EV_EINVAL,
				      "the merge was already written");
	m->written = 1;
	m->heap = malloc(m->n_inputs * sizeof *m->heap);
	if (!m->heap)
		return evi_merge_fail(m, EV_ORIGIN_OUTPUT, EV_ENOMEM,
				      "out of memory");
	if ((rc = ev_writer_open(&w, sink, m->header, NULL, NULL)) < 0) {
		const ev_diag *d = ev_sink_diag(sink);
		return evi_merge_fail(m, EV_ORIGIN_OUTPUT, rc, "%s",
				      d->message[0] && rc != EV_ENOMEM
					      ? d->message
					      : ev_strerror(rc));
	}
	rc = write_output(m, w);
	m->cap_block = NULL;
	m->global_block = NULL;
	m->writer = NULL;
	ev_writer_free(w);
	return rc;
}
