/*
 * evtool merge, part two: what the first pass decides. The output header
 * (the union of the inputs'), the clock shifts, the identifier bases, the
 * task renames and the synthesised creation events (merge.h; doc/format.md
 * section 6).
 *
 * Layering: the bottom of merge (merge_write.c -> merge.c -> this file).
 * It calls no function of merge.c or merge_write.c; the failure record
 * that all three fill (evi_merge_fail) lives here for that reason.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "merge_internal.h"
#include "wire.h"

#define NO_INPUT ((size_t)-1)

/* ---- the failure record ---- */

int evi_merge_fail(ev_merge *m, ev_origin origin, int status,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	evi_vfail(&m->diag, origin, 0, status, 0, 0, fmt, ap);
	va_end(ap);
	return status;
}

int evi_merge_refuse(ev_merge *m, ev_reason why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	evi_vfail(&m->diag, EV_ORIGIN_OPTIONS, 0, EV_EINVAL, 0, 0, fmt, ap);
	va_end(ap);
	return evi_because(&m->diag, why);
}

static const char *type_name(uint16_t id)
{
	const ev_type_info *info = ev_catalog_find(id);
	return info ? info->name : "not known to evtool";
}

/* ---- the output header ---- */

static int add_union_type(ev_merge *m, size_t input, uint16_t id,
			  int32_t wire, const char *desc, uint32_t desc_len,
			  const uint8_t *extra, uint32_t extra_len)
{
	evi_union_type *u;

	if (evi_grow(&m->types, &m->types_capacity, m->n_types + 1,
		     sizeof *m->types) < 0)
		return evi_merge_fail(m, EV_ORIGIN_INPUT, EV_ENOMEM,
				      "out of memory");
	u = &m->types[m->n_types];
	u->desc = malloc((size_t)desc_len + extra_len + 1);
	if (!u->desc)
		return evi_merge_fail(m, EV_ORIGIN_INPUT, EV_ENOMEM,
				      "out of memory");
	if (desc_len)
		memcpy(u->desc, desc, desc_len);
	if (extra_len)
		memcpy(u->desc + desc_len, extra, extra_len);
	u->id = id;
	u->wire = wire;
	u->first_wire = wire;
	u->input = input;
	u->desc_len = desc_len;
	u->extra_len = extra_len;
	m->type_slot[id] = (uint32_t)++m->n_types;
	return EV_OK;
}

static const char *input_name(const ev_merge *m, size_t i)
{
	return i == NO_INPUT ? "evtool's catalogue" : m->inputs[i].name;
}

/* How the events of a type declared with `from` payload bytes become
 * `to` bytes (from < to) under --widen, or EVI_WIDEN_NONE. Zero-filling
 * the tail is right only where the short form is a prefix of the long
 * one (doc/format.md sections 5 and 6): STOP_THREAD (6 -> 10 appends the
 * blocked-on info u32) and GC_STATS_GHC (50 -> 58 appends
 * par_balanced_copied u64). NONMOVING_HEAP_CENSUS is not: its 13-byte
 * form (before GHC 9.10) starts with `log2 u8`, the 14-byte form with
 * `blk size u16`, so it is converted (merge_write.c), and it grows by
 * appending from 14 bytes on. Other types have no known older layout
 * that evtool could vouch for, so they are refused. */
const uint16_t evi_merge_widenable[3] = { EV_STOP_THREAD, EV_GC_STATS_GHC,
					  EV_NONMOVING_HEAP_CENSUS };

enum evi_widen_kind evi_merge_widen_kind(uint16_t id, int32_t from,
					 int32_t to)
{
	if (from >= to)
		return EVI_WIDEN_NONE;
	switch (id) {
	case EV_STOP_THREAD:
		return from >= 6 ? EVI_WIDEN_ZERO : EVI_WIDEN_NONE;
	case EV_GC_STATS_GHC:
		return from >= 50 ? EVI_WIDEN_ZERO : EVI_WIDEN_NONE;
	case EV_NONMOVING_HEAP_CENSUS:
		if (from == 13)
			return EVI_WIDEN_CENSUS;
		return from >= 14 ? EVI_WIDEN_ZERO : EVI_WIDEN_NONE;
	default:
		return EVI_WIDEN_NONE;
	}
}

/* A type declared again with another payload size (`u` holds the
 * largest so far). Fixed sizes differ between GHC versions (doc/format.md
 * section 6); --widen declares the larger size when every declared size
 * converts to it (evi_merge_widen_kind). */
/* How much of a description a message quotes. */
static uint32_t short_desc(uint32_t len)
{
	return len < 60 ? len : 60;
}

/* One input declares a type variable-size, another fixed-size: for an
 * id GHC gives one kind, one of them is another producer's type of that
 * id (Mercury's runtime declares 39 variable-size), which the merged
 * header cannot declare beside GHC's. `t` is input i's declaration. */
static int kind_conflict(ev_merge *m, const evi_union_type *u, size_t i,
			 const ev_type_decl *t)
{
	const ev_type_info *info = ev_catalog_find(u->id);
	int u_var = u->first_wire == EV_SIZE_VARIABLE;
	int u_foreign = info && (info->sizes[0] == EV_SIZE_VARIABLE) != u_var;
	const char *kind = u_var ? "variable-size" : "fixed-size";
	const char *other = u_var ? "fixed-size" : "variable-size";

	if (!info)
		return evi_merge_refuse(m, EV_REASON_NO_CONVERSION,
					"event type %u is %s in %s but %s in "
					"%s: these logs cannot be merged",
					u->id, kind, input_name(m, u->input),
					other, m->inputs[i].name);
	return evi_merge_refuse(m, EV_REASON_NO_CONVERSION,
				"event type %u is another producer's %s type "
				"in %s (\"%.*s\"), GHC's %s %s in %s: these "
				"logs cannot be merged", u->id,
				u_foreign ? kind : other,
				u_foreign ? input_name(m, u->input)
					  : m->inputs[i].name,
				(int)(u_foreign ? short_desc(u->desc_len)
						: short_desc(t->desc_len)),
				u_foreign ? u->desc : t->desc,
				u_foreign ? other : kind, info->name,
				u_foreign ? m->inputs[i].name
					  : input_name(m, u->input));
}

static int size_conflict(ev_merge *m, evi_union_type *u, size_t i,
			 const ev_type_decl *t)
{
	int32_t wire = t->wire_size, wide;

	if (u->wire == EV_SIZE_VARIABLE || wire == EV_SIZE_VARIABLE)
		return kind_conflict(m, u, i, t);
	if (!(m->opts.flags & EV_MERGE_WIDEN))
		return evi_merge_refuse(m, EV_REASON_SIZE_DIFFERS,
					"event type %u (%s) has %d-byte "
					"payloads in %s but %d-byte payloads "
					"in %s", u->id, type_name(u->id),
					u->first_wire, input_name(m, u->input),
					wire, m->inputs[i].name);
	wide = wire > u->wire ? wire : u->wire;
	/* Every size declared so far is the first, the widest or the new
	 * one; each must convert to the widest. */
	if ((u->first_wire != wide &&
	     evi_merge_widen_kind(u->id, u->first_wire, wide) ==
		     EVI_WIDEN_NONE) ||
	    (u->wire != wide &&
	     evi_merge_widen_kind(u->id, u->wire, wide) == EVI_WIDEN_NONE) ||
	    (wire != wide &&
	     evi_merge_widen_kind(u->id, wire, wide) == EVI_WIDEN_NONE))
		return evi_merge_refuse(m, EV_REASON_NO_CONVERSION,
					"event type %u (%s) has %d-byte "
					"payloads in %s but %d-byte payloads "
					"in %s, and --widen knows no safe "
					"conversion to %d bytes for it (it "
					"zero-extends only STOP_THREAD and "
					"GC_STATS_GHC and converts "
					"NONMOVING_HEAP_CENSUS from 13 bytes)",
					u->id, type_name(u->id), u->first_wire,
					input_name(m, u->input), wire,
					m->inputs[i].name, wide);
	u->wire = wide;
	return EV_OK;
}

/* Declared sizes are compared as written (the header's wire size), so a
 * GHC 6.12 header, which declares 8-byte thread ids but writes 4
 * (doc/format.md section 4), merges with others and the output declares what
 * is written. */
/* Keeps input `in`'s narrowest size of a type --widen may convert. */
static void note_widenable(evi_merge_input *in, const ev_type_decl *t)
{
	for (size_t w = 0; w < 3; w++)
		if (t->id == evi_merge_widenable[w] &&
		    t->wire_size != EV_SIZE_VARIABLE &&
		    t->wire_size < in->widenable_wire[w])
			in->widenable_wire[w] = t->wire_size;
}

/* A type `h` declares in another shape than GHC's is another producer's
 * (ev_header_type_info): the merge reads no identifier in its events
 * (ref_free) and opens no sample group with them. A later input that
 * declares the id in GHC's shape differs in size, which size_conflict
 * refuses. */
static void note_foreign(ev_merge *m, const ev_header *h,
			 const ev_type_decl *t)
{
	if (t->id < 256 && ev_catalog_find(t->id) &&
	    !ev_header_type_info(h, t->id))
		m->foreign[t->id] = m->ref_free[t->id] = 1;
}

int evi_merge_union_header(ev_merge *m, size_t i, const ev_header *h)
{
	for (size_t w = 0; w < 3; w++)
		m->inputs[i].widenable_wire[w] = INT32_MAX;
	for (size_t k = 0; k < ev_header_count(h); k++) {
		const ev_type_decl *t = ev_header_at(h, k);
		uint32_t slot = m->type_slot[t->id];
		int rc;

		note_widenable(&m->inputs[i], t);
		note_foreign(m, h, t);

		if (t->id == EV_BLOCK_MARKER && t->wire_size != 14)
			return evi_merge_fail(m, EV_ORIGIN_INPUT,
					      EV_EFORMAT,
					      "%s: BLOCK_MARKER (18) is declared "
					      "with %d bytes, not 14",
					      m->inputs[i].name, t->wire_size);
		if (!slot)
			rc = add_union_type(m, i, t->id, t->wire_size, t->desc,
					    t->desc_len, t->extra,
					    t->extra_len);
		else if (m->types[slot - 1].wire == t->wire_size)
			rc = EV_OK;
		else
			rc = size_conflict(m, &m->types[slot - 1], i, t);
		if (rc < 0)
			return rc;
	}
	return EV_OK;
}

/* A type the output needs (block markers, synthesised creation events)
 * is declared from the catalogue when no input declared it. */
static int need_type(ev_merge *m, uint16_t id)
{
	const ev_type_info *info = ev_catalog_find(id);

	if (m->type_slot[id])
		return EV_OK;
	return add_union_type(m, NO_INPUT, id, info->sizes[0], info->desc,
			      (uint32_t)strlen(info->desc), NULL, 0);
}

/* The union's payload size of `id` is the one the catalogue knows, or no
 * input declares it: then events of that type can be synthesised. */
static int can_synthesise(const ev_merge *m, uint16_t id)
{
	uint32_t slot = m->type_slot[id];
	return !slot || m->types[slot - 1].wire == ev_catalog_find(id)->sizes[0];
}

static int compare_types(const void *a, const void *b)
{
	const evi_union_type *x = *(const evi_union_type *const *)a;
	const evi_union_type *y = *(const evi_union_type *const *)b;
	return (x->id > y->id) - (x->id < y->id);
}

/* The header, in ascending id order as GHC writes it. */
static int build_header(ev_merge *m)
{
	const evi_union_type **sorted = malloc(m->n_types * sizeof *sorted);
	int rc = evi_header_new(&m->header, NULL);

	if (!sorted || rc < 0) {
		free(sorted);
		return evi_merge_fail(m, EV_ORIGIN_INPUT, EV_ENOMEM,
				      "out of memory");
	}
	for (size_t k = 0; k < m->n_types; k++)
		sorted[k] = &m->types[k];
	qsort(sorted, m->n_types, sizeof *sorted, compare_types);
	for (size_t k = 0; k < m->n_types && rc == EV_OK; k++)
		rc = evi_header_add(m->header, sorted[k]->id, sorted[k]->wire,
				   sorted[k]->desc, sorted[k]->desc_len,
				   (const uint8_t *)sorted[k]->desc +
					   sorted[k]->desc_len,
				   sorted[k]->extra_len);
	free(sorted);
	if (rc < 0)
		return evi_merge_fail(m, EV_ORIGIN_INPUT, rc, "%s",
				      ev_strerror(rc));
	evi_wire_table_init(&m->out_wire, m->header);
	return EV_OK;
}

/* ---- clocks ---- */

static int has_events(const evi_merge_input *in)
{
	return in->limit > 0;
}

/* The shift that lines input `in` up before manual shifts: by wall clock,
 * its start minus the earliest start; by start, minus its first time. */
static int64_t aligned_shift(const ev_merge *m, const evi_merge_input *in,
			     int64_t earliest_origin)
{
	if (!has_events(in))
		return 0;
	switch (m->opts.align) {
	case EV_MERGE_ALIGN_WALL_CLOCK:
		if (in->info.aligned_by_start)
			return -(int64_t)in->info.first_time;
		return in->info.clock_origin - earliest_origin;
	case EV_MERGE_ALIGN_START:
		return -(int64_t)in->info.first_time;
	case EV_MERGE_ALIGN_NONE:
	default:
		return 0;
	}
}

static int no_wall_clock(ev_merge *m, const evi_merge_input *in)
{
	return evi_merge_refuse(m, EV_REASON_NO_WALL_CLOCK,
				"%s: no WALL_CLOCK_TIME event, so its clock "
				"cannot be lined up with the others' by "
				"wall-clock time; align the inputs by their "
				"first events or not at all, and shift them by "
				"hand if needed", in->name);
}

static int shift_overflow(ev_merge *m, const evi_merge_input *in)
{
	return evi_merge_fail(m, EV_ORIGIN_NONE, EV_ELIMIT,
			      "%s: shifting its timestamps by %lld ns goes "
			      "beyond the 64-bit clock", in->name,
			      (long long)in->info.shift);
}

/* Shifts are normalised so that no event lands before time 0: with the
 * wall clock that puts the earliest process start at 0. */
static int plan_shifts(ev_merge *m)
{
	int64_t earliest = INT64_MAX, low = INT64_MAX;

	for (size_t i = 0; i < m->n_inputs; i++) {
		const evi_merge_input *in = &m->inputs[i];
		if (!has_events(in))
			continue;
		if (in->info.last_time > (uint64_t)INT64_MAX)
			return shift_overflow(m, in);
		if (m->opts.align != EV_MERGE_ALIGN_WALL_CLOCK)
			continue;
		if (!in->info.has_wall_clock &&
		    !(m->opts.flags & EV_MERGE_START_FALLBACK))
			return no_wall_clock(m, in);
		if (!in->info.has_wall_clock) {
			m->inputs[i].info.aligned_by_start = 1;
			continue;
		}
		if (in->info.clock_origin < earliest)
			earliest = in->info.clock_origin;
	}
	for (size_t i = 0; i < m->n_inputs; i++) {
		evi_merge_input *in = &m->inputs[i];
		int64_t first;
		if (__builtin_add_overflow(aligned_shift(m, in, earliest),
					   in->manual_shift, &in->info.shift) ||
		    (has_events(in) &&
		     __builtin_add_overflow((int64_t)in->info.first_time,
					    in->info.shift, &first)))
			return shift_overflow(m, in);
		if (has_events(in) && first < low)
			low = first;
	}
	for (size_t i = 0; i < m->n_inputs; i++) {
		evi_merge_input *in = &m->inputs[i];
		int64_t last;
		if (low < 0 &&
		    __builtin_sub_overflow(in->info.shift, low, &in->info.shift))
			return shift_overflow(m, in);
		if (has_events(in) &&
		    __builtin_add_overflow((int64_t)in->info.last_time,
					   in->info.shift, &last))
			return shift_overflow(m, in);
	}
	return EV_OK;
}

/* ---- identifiers ---- */

/* Per kind: the largest output id its field can hold, and whether ids
 * count from 1 (thread 0 means none), from doc/format.md sections 5 and 6. */
static const struct id_kind {
	ev_ref_kind kind;
	uint64_t max_out;
	int from_one;
	const char *what;
} id_kinds[] = {
	{ EV_REF_CAP, EV_MERGE_MAX_CAPS - 1, 0, "capabilities (16-bit)" },
	{ EV_REF_CAPSET, UINT32_MAX, 0, "capsets (32-bit)" },
	{ EV_REF_THREAD, UINT32_MAX, 1, "thread ids (32-bit)" },
	{ EV_REF_COST_CENTRE, UINT32_MAX, 0, "cost-centre ids (32-bit)" },
	{ EV_REF_TICKY_COUNTER, UINT64_MAX, 0, "ticky counter ids (64-bit)" },
	{ EV_REF_HEAP_PROFILE, UINT8_MAX, 0, "heap profiles (8-bit)" },
};

/* Input i's ids of a kind follow input i-1's: base = the previous base
 * plus the previous input's largest id (+ 1 when ids count from 0). */
static int plan_bases(ev_merge *m)
{
	for (size_t k = 0; k < sizeof id_kinds / sizeof id_kinds[0]; k++) {
		const struct id_kind *kind = &id_kinds[k];
		uint64_t next = 0, last;
		for (size_t i = 0; i < m->n_inputs; i++) {
			ev_merge_ids *ids = &m->inputs[i].info.ids[kind->kind];
			ids->base = next;
			if (!ids->used)
				continue;
			if (__builtin_add_overflow(next, ids->max, &last) ||
			    last > kind->max_out ||
			    (!kind->from_one && last == UINT64_MAX))
				return evi_merge_fail(
					m, EV_ORIGIN_NONE, EV_ELIMIT,
					"%s: with the inputs before it, more "
					"%s than the format allows (at most "
					"%llu)", m->inputs[i].name, kind->what,
					(unsigned long long)kind->max_out +
						!kind->from_one);
			next = kind->from_one ? last : last + 1;
		}
	}
	return EV_OK;
}

/* Task ids are pointers (doc/format.md section 6): each keeps its value
 * unless an earlier input has it; a colliding one gets its input's index
 * in bits 48-63, the first value from there that no input has and no
 * renamed task took. User-space pointers stay below 2^48, so renamed ids
 * are told apart at a glance. */
static int plan_tasks(ev_merge *m)
{
	evi_idmap all = { 0 }, owner = { 0 };
	int rc = EV_OK;

	for (size_t i = 0; i < m->n_inputs && rc == EV_OK; i++)
		for (size_t k = 0; k < m->inputs[i].tasks.count && rc == EV_OK;
		     k++)
			rc = evi_idmap_add(&all, m->inputs[i].tasks.keys[k], 0,
					   SIZE_MAX, NULL);
	for (size_t i = 0; i < m->n_inputs && rc == EV_OK; i++) {
		evi_merge_input *in = &m->inputs[i];
		for (size_t k = 0; k < in->tasks.count && rc == EV_OK; k++)
			rc = evi_idmap_add(&owner, in->tasks.keys[k], i,
					   SIZE_MAX, NULL);
		for (size_t k = 0; k < in->tasks.count && rc == EV_OK; k++) {
			uint64_t who, c;
			evi_idmap_get(&owner, in->tasks.keys[k], &who);
			if (who == i)
				continue;
			c = in->tasks.keys[k] ^ ((uint64_t)(i & 0xffff) << 48);
			while (evi_idmap_get(&all, c, NULL) ||
			       evi_idmap_get(&owner, c, NULL))
				c++;
			evi_idmap_set_at(&in->tasks, k, c);
			in->info.tasks_renamed++;
			rc = evi_idmap_add(&owner, c, i, SIZE_MAX, NULL);
		}
		in->info.tasks = in->tasks.count;
	}
	evi_idmap_free(&all);
	evi_idmap_free(&owner);
	return rc < 0 ? evi_merge_fail(m, EV_ORIGIN_INPUT, rc,
				       "out of memory")
		      : EV_OK;
}

uint64_t evi_merge_map(const ev_merge *m, size_t i, ev_ref_kind kind,
		      uint64_t id)
{
	static const unsigned widths[] = { 2, 4, 4, 8, 4, 8, 1 };

	if (!m->planned || i >= m->n_inputs || (unsigned)kind > EV_REF_HEAP_PROFILE)
		return id;
	return evi_merge_map_id(m, &m->inputs[i], kind, id, widths[kind]);
}

/* ---- synthesised creation events ---- */

/* A capset id for a synthesised capset: GHC's own (`preferred`: 0 for the
 * OS process, 1 for the clock domain) unless the input created that id
 * for something else, else one past the largest it names. */
static uint64_t pick_capset(evi_merge_input *in, uint64_t preferred,
			    int has_avoid, uint64_t avoid)
{
	ev_merge_ids *ids = &in->info.ids[EV_REF_CAPSET];
	uint64_t c = preferred;

	if (evi_idmap_get(&in->capsets, c, NULL) || (has_avoid && c == avoid)) {
		c = ids->used ? ids->max + 1 : 0;
		if (has_avoid && c == avoid)
			c++;
	}
	if (!ids->used || c > ids->max)
		ids->max = c;
	ids->used = 1;
	return c;
}

/* Which caps are assigned to the input's own two capsets. */
static void mark_assigned(evi_merge_input *in)
{
	for (size_t k = 0; k < in->n_assigns; k++) {
		const evi_assign *a = &in->assigns[k];
		if (a->cap >= in->n_cap_flags)
			continue;
		if (a->capset == in->os_local)
			in->cap_flags[a->cap] |= EVI_CAP_IN_OS;
		if (a->capset == in->clock_local)
			in->cap_flags[a->cap] |= EVI_CAP_IN_CLOCK;
	}
}

/* Counts the creation events input `in` lacks (killed GHC <= 9.0 logs lose
 * the global block; streams started mid-run never had them, doc/format.md
 * section 4) and picks ids for its capsets. */
static void plan_synthesis(ev_merge *m, evi_merge_input *in)
{
	int capsets_ok = can_synthesise(m, EV_CAPSET_CREATE);
	int creates_ok = can_synthesise(m, EV_CAP_CREATE);
	int assigns_ok = can_synthesise(m, EV_CAPSET_ASSIGN_CAP);

	if (!has_events(in) || !capsets_ok)
		return;
	if (!in->has_os) {
		in->os_local = (uint32_t)pick_capset(in, 0, 0, 0);
		in->info.synthesised |= EV_MERGE_SYNTH_OS_CAPSET;
		in->info.synthesised_events++;
	}
	if (!in->has_clock) {
		in->clock_local = (uint32_t)pick_capset(in, 1, 1, in->os_local);
		in->info.synthesised |= EV_MERGE_SYNTH_CLOCK_CAPSET;
		in->info.synthesised_events++;
	}
	mark_assigned(in);
	for (size_t c = 0; c < in->n_cap_flags; c++) {
		uint8_t f = in->cap_flags[c];
		if (!(f & EVI_CAP_USED))
			continue;
		if (creates_ok && !(f & EVI_CAP_CREATED)) {
			in->info.synthesised |= EV_MERGE_SYNTH_CAP_CREATE;
			in->info.synthesised_events++;
		}
		for (uint8_t bit = EVI_CAP_IN_OS; bit <= EVI_CAP_IN_CLOCK;
		     bit <<= 1)
			if (assigns_ok && !(f & bit)) {
				in->info.synthesised |= EV_MERGE_SYNTH_CAP_ASSIGN;
				in->info.synthesised_events++;
			}
	}
}

/* Appends one synthesised event: a zeroed payload of the output's size
 * whose identifier fields (found by the catalogue) get `ids` in order. */
static void put_synth(ev_merge *m, evi_merge_input *in, uint16_t type,
		      uint64_t time, const uint64_t *ids, size_t n_ids)
{
	uint8_t *p = in->synth + in->synth_len;
	uint32_t size = (uint32_t)evi_merge_out_wire(m, type);
	size_t head = evi_wire_put_head(p, type, time, 0, size);
	evi_ref refs[4];
	size_t n;

	memset(p + head, 0, size);
	n = evi_payload_refs(type, p + head, size, refs, 4);
	for (size_t k = 0; k < n && k < n_ids && k < 4; k++)
		evi_ref_store(p + head, &refs[k], ids[k]);
	in->synth_len += head + size;
}

/* CAPSET_CREATE's type field: u16 after the u32 capset (section 5). */
static void put_capset_create(ev_merge *m, evi_merge_input *in,
			      uint64_t time, uint32_t local, uint16_t type)
{
	uint64_t id = evi_merge_map_id(m, in, EV_REF_CAPSET, local, 4);
	uint8_t *payload = in->synth + in->synth_len + EVI_EVENT_HEADER;

	put_synth(m, in, EV_CAPSET_CREATE, time, &id, 1);
	ev_store16(payload + 4, type);
}

/* The events, in the order GHC writes them at startup: both capsets, then
 * per cap CAP_CREATE and its assignment to each capset. */
static int encode_synthesis(ev_merge *m, evi_merge_input *in)
{
	uint64_t time = in->info.first_time + (uint64_t)in->info.shift;
	uint32_t os = in->os_local, clock = in->clock_local;

	if (!in->info.synthesised_events)
		return EV_OK;
	in->synth = malloc((size_t)in->info.synthesised_events * 16);
	if (!in->synth)
		return evi_merge_fail(m, EV_ORIGIN_INPUT, EV_ENOMEM,
				      "out of memory");
	if (in->info.synthesised & EV_MERGE_SYNTH_OS_CAPSET)
		put_capset_create(m, in, time, os, EVI_CAPSET_OS_PROCESS);
	if (in->info.synthesised & EV_MERGE_SYNTH_CLOCK_CAPSET)
		put_capset_create(m, in, time, clock, EVI_CAPSET_CLOCK_DOMAIN);
	for (size_t c = 0; c < in->n_cap_flags; c++) {
		uint8_t f = in->cap_flags[c];
		uint64_t ids[2];
		if (!(f & EVI_CAP_USED))
			continue;
		ids[0] = evi_merge_map_id(m, in, EV_REF_CAP, c, 2);
		if ((in->info.synthesised & EV_MERGE_SYNTH_CAP_CREATE) &&
		    !(f & EVI_CAP_CREATED) && can_synthesise(m, EV_CAP_CREATE))
			put_synth(m, in, EV_CAP_CREATE, time, ids, 1);
		if (!can_synthesise(m, EV_CAPSET_ASSIGN_CAP))
			continue;
		ids[1] = ids[0];
		ids[0] = evi_merge_map_id(m, in, EV_REF_CAPSET, os, 4);
		if (!(f & EVI_CAP_IN_OS))
			put_synth(m, in, EV_CAPSET_ASSIGN_CAP, time, ids, 2);
		ids[0] = evi_merge_map_id(m, in, EV_REF_CAPSET, clock, 4);
		if (!(f & EVI_CAP_IN_CLOCK))
			put_synth(m, in, EV_CAPSET_ASSIGN_CAP, time, ids, 2);
	}
	return EV_OK;
}

/* The first input usually keeps all its ids; its events need no
 * renumbering at all. */
static int is_identity(const ev_merge *m, const evi_merge_input *in)
{
	if (m->opts.flags & EV_MERGE_NO_RENUMBER)
		return 1;
	if (in->info.tasks_renamed)
		return 0;
	for (size_t k = 0; k <= EV_REF_HEAP_PROFILE; k++)
		if (in->info.ids[k].base != 0)
			return 0;
	return 1;
}

static int declare_needed_types(ev_merge *m)
{
	unsigned synth = 0;
	int rc = need_type(m, EV_BLOCK_MARKER);

	for (size_t i = 0; i < m->n_inputs; i++)
		synth |= m->inputs[i].info.synthesised;
	if (rc == EV_OK && (synth & (EV_MERGE_SYNTH_OS_CAPSET |
				     EV_MERGE_SYNTH_CLOCK_CAPSET)))
		rc = need_type(m, EV_CAPSET_CREATE);
	if (rc == EV_OK && (synth & EV_MERGE_SYNTH_CAP_CREATE))
		rc = need_type(m, EV_CAP_CREATE);
	if (rc == EV_OK && (synth & EV_MERGE_SYNTH_CAP_ASSIGN))
		rc = need_type(m, EV_CAPSET_ASSIGN_CAP);
	return rc;
}

/* The types whose events of `in` the output declares wider. */
static void note_widened(const ev_merge *m, evi_merge_input *in)
{
	in->info.n_widened = 0;
	for (size_t w = 0; w < 3; w++) {
		int32_t out = evi_merge_out_wire(m, evi_merge_widenable[w]);
		if (in->widenable_wire[w] != INT32_MAX &&
		    out != EV_SIZE_VARIABLE && out != EVI_UNDECLARED &&
		    in->widenable_wire[w] < out)
			in->info.widened[in->info.n_widened++] =
				evi_merge_widenable[w];
	}
}

int evi_merge_decide(ev_merge *m)
{
	int renumber = !(m->opts.flags & EV_MERGE_NO_RENUMBER);
	int rc = EV_OK;

	for (size_t i = 0; renumber && i < m->n_inputs; i++)
		plan_synthesis(m, &m->inputs[i]);
	if ((rc = plan_shifts(m)) < 0 ||
	    (renumber && (rc = plan_bases(m)) < 0) ||
	    (renumber && (rc = plan_tasks(m)) < 0) ||
	    (rc = declare_needed_types(m)) < 0 || (rc = build_header(m)) < 0)
		return rc;
	for (size_t i = 0; i < m->n_inputs && rc == EV_OK; i++) {
		evi_merge_input *in = &m->inputs[i];
		unsigned synth = in->info.synthesised;
		/* Without creation events, GHC's own numbers: 0 and 1. */
		if (!in->has_os && !(synth & EV_MERGE_SYNTH_OS_CAPSET))
			in->os_local = 0;
		if (!in->has_clock && !(synth & EV_MERGE_SYNTH_CLOCK_CAPSET))
			in->clock_local = 1;
		in->info.os_capset = (uint32_t)evi_merge_map_id(
			m, in, EV_REF_CAPSET, in->os_local, 4);
		in->info.clock_capset = (uint32_t)evi_merge_map_id(
			m, in, EV_REF_CAPSET, in->clock_local, 4);
		in->identity = is_identity(m, in);
		note_widened(m, in);
		rc = encode_synthesis(m, in);
	}
	return rc;
}
