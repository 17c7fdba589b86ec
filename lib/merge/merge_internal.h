/*
 * Declarations shared by the files of the merge (merge.c: inputs and the
 * first pass; merge_plan.c: header, renumbering and shifts; merge_write.c:
 * the second pass). Not installed.
 */
#ifndef EVTOOL_LIB_MERGE_INTERNAL_H
#define EVTOOL_LIB_MERGE_INTERNAL_H

#include "evtool/merge.h"
#include "evtool/reader.h"
#include "idmap.h"
#include "wire.h"

/* What a pass-two input has read ahead (see merge_write.c). */
enum evi_unit_kind {
	EVI_UNIT_NONE = 0,  /* the input is finished */
	EVI_UNIT_SYNTH,     /* its next synthesised creation event */
	EVI_UNIT_CAP_BLOCK, /* a BLOCK_MARKER of a capability's block */
	EVI_UNIT_GLOBAL,    /* an event of the global buffer or outside blocks */
	EVI_UNIT_IN_BLOCK   /* an event of the capability block being copied */
};

/* Per-capability facts of one input, for synthesis (cap_flags). */
enum evi_cap_flag {
	EVI_CAP_USED = 1u << 0,           /* a block or a payload names it */
	EVI_CAP_CREATED = 1u << 1,        /* CAP_CREATE (45) seen */
	EVI_CAP_IN_OS = 1u << 2,          /* assigned to its OS-process capset */
	EVI_CAP_IN_CLOCK = 1u << 3        /* assigned to its clock-domain capset */
};

/* CAPSET_CREATE (25) capset types (doc/format.md section 5). */
#define EVI_CAPSET_OS_PROCESS 2u
#define EVI_CAPSET_CLOCK_DOMAIN 3u

/* A CAPSET_ASSIGN_CAP (27) seen in the first pass. */
typedef struct evi_assign {
	uint32_t capset;
	uint16_t cap;
} evi_assign;

typedef struct evi_merge_input {
	ev_merge_input info;  /* the public view; info.name is `name` */
	char *name;
	ev_input *input;      /* owned (ev_merge_add) */
	int fd;               /* the input's; -1 for a memory input */
	uint64_t fd_start;    /* where the log starts in fd */
	const uint8_t *mem;
	size_t mem_len;
	int cached;           /* mem is the file's bytes, read once (arena) */
	int64_t manual_shift;
	int header_ok;        /* the first pass read a whole header */
	uint64_t limit;       /* events the first pass read, markers included */

	/* First-pass facts. */
	evi_idmap tasks;      /* task id -> output task id */
	evi_idmap capsets;    /* capset created -> its type */
	uint8_t *cap_flags;   /* evi_cap_flag by local cap */
	size_t n_cap_flags;
	evi_assign *assigns;
	size_t n_assigns;
	size_t assigns_capacity;
	int has_os;           /* a CAPSET_CREATE of an OS-process capset */
	uint32_t os_local;
	int has_clock;
	uint32_t clock_local;

	int identity;         /* every id maps to itself: skip renumbering */
	/* Its narrowest declared size of each type --widen may convert
	 * (evi_merge_widenable), INT32_MAX when it declares none. */
	int32_t widenable_wire[3];

	/* Synthesised creation events, encoded with output ids. */
	uint8_t *synth;
	size_t synth_len;
	size_t synth_pos;     /* the next one, in the second pass */

	/* Second pass. */
	ev_reader *reader;
	ev_event next;
	enum evi_unit_kind next_kind;
	uint64_t read;
} evi_merge_input;

/* One event type of the output header: the union of the inputs'. */
typedef struct evi_union_type {
	uint16_t id;
	int32_t wire;          /* output payload size or EV_SIZE_VARIABLE */
	size_t input;          /* the first input that declared it */
	int32_t first_wire;    /* and its size there */
	char *desc;            /* desc_len bytes, then extra_len bytes */
	uint32_t desc_len;
	uint32_t extra_len;
} evi_union_type;

struct ev_merge {
	ev_merge_options opts;
	evi_progress progress; /* both passes over every input */
	char *spool_dir;
	evi_merge_input *inputs;
	size_t n_inputs;
	size_t inputs_capacity;
	int stdin_used;
	int planned;
	int written;

	evi_union_type *types;
	size_t n_types;
	size_t types_capacity;
	uint32_t *type_slot;   /* by id: index + 1 into types, 0 if none */
	/* By small id: 1 when the catalogue names no identifier in that
	 * type's events whatever their payload, so both passes skip it. */
	uint8_t ref_free[256];
	/* By small id: 1 when an input declares that type in another shape
	 * than GHC's (ev_header_type_info: another producer's type of the
	 * same id, as Mercury's runtime declares 39). Its events are copied
	 * as they are: no identifier renumbered, no sample group opened. */
	uint8_t foreign[256];
	size_t cached_total;   /* bytes of small inputs held in memory */
	uint8_t *arena;        /* their bytes, one mapping (merge.c) */
	size_t arena_len;
	size_t window;         /* second pass: read window per file input */
	ev_header *header;
	evi_wire_table out_wire; /* the output header's wire sizes */

	/* Second pass (merge_write.c). */
	/* The output writer and two of its block builders (writer_block.h),
	 * while writing. */
	ev_writer *writer;
	struct evi_block *cap_block;    /* the block being copied */
	struct evi_block *global_block; /* the global events merged */
	size_t *heap;          /* inputs by the time of what they read ahead */
	size_t heap_len;
	size_t unresolved;     /* inputs in the heap at a capability block */
	/* The end of the last group copied whole (see merge_write.c); 0
	 * once the events written have passed it. */
	uint64_t held_until;
	uint64_t events_written;

	ev_diag diag;
};

/* Records a failure of what `origin` says (the options for inputs that
 * cannot be merged with them, EV_ORIGIN_NONE for a limit); returns
 * `status`. Its reason is set after it (evi_because). */
int evi_merge_fail(ev_merge *m, ev_origin origin, int status,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Records inputs that cannot be merged with the options given, as `why`
 * says (EV_ORIGIN_OPTIONS, EV_EINVAL); returns EV_EINVAL. */
int evi_merge_refuse(ev_merge *m, ev_reason why, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Reports a reader failure of input `in` as "NAME: offset N: message". */
int evi_merge_reader_failed(ev_merge *m, const evi_merge_input *in,
			    const ev_reader *r);

/* Nonzero when events of `type` can hold no identifier (ref_free). */
static inline int evi_merge_ref_free(const ev_merge *m, uint16_t type)
{
	return type < 256 && m->ref_free[type];
}

/* Adds a cached input's bytes to the progress of a pass: its in-place
 * readers count none. */
void evi_merge_count_cached(ev_merge *m, const evi_merge_input *in);

/* Opens a fresh reader over input `in` from its start. */
int evi_merge_open_reader(ev_merge *m, evi_merge_input *in, ev_reader **out);

/* Adds the header of input `i` to the output header's union. */
int evi_merge_union_header(ev_merge *m, size_t i, const ev_header *h);

/* How --widen turns a type's shorter events into the output's size. */
enum evi_widen_kind {
	EVI_WIDEN_NONE,   /* no safe conversion: refused */
	EVI_WIDEN_ZERO,   /* the short form is a prefix: zero-fill the tail */
	EVI_WIDEN_CENSUS  /* NONMOVING_HEAP_CENSUS 13 -> 14: log2 u8 -> blk u16 */
};

/* The event types evi_merge_widen_kind may convert, in the order of
 * evi_merge_input.widenable_wire. */
extern const uint16_t evi_merge_widenable[3];

/* The conversion of `id` events of `from` payload bytes to `to` bytes. */
enum evi_widen_kind evi_merge_widen_kind(uint16_t id, int32_t from,
					 int32_t to);

/* Everything ev_merge_plan decides after the first pass. */
int evi_merge_decide(ev_merge *m);

/* Payload size of `type` in the output header, EV_SIZE_VARIABLE, or
 * EVI_UNDECLARED when it is not declared. */
static inline int32_t evi_merge_out_wire(const ev_merge *m, uint16_t type)
{
	return evi_wire_size(&m->out_wire, type);
}

/* All ones in a cap field means "no capability" (EV_NO_CAP for u16). */
static inline int evi_is_no_cap(uint64_t value, unsigned width)
{
	return value == (width >= 8 ? UINT64_MAX : (1ull << (8 * width)) - 1);
}

/* The output id of a value of `kind` (a `width`-byte field) in `in`:
 * + the input's base for its kind, except "none" values (thread 0, a cap
 * field of all ones), and tasks, which are renamed only on collision
 * (merge_plan.c). Inline: it runs for every identifier of every event. */
static inline uint64_t evi_merge_map_id(const ev_merge *m,
					const evi_merge_input *in,
					ev_ref_kind kind, uint64_t value,
					unsigned width)
{
	uint64_t out;

	if (m->opts.flags & EV_MERGE_NO_RENUMBER)
		return value;
	switch (kind) {
	case EV_REF_CAP:
		if (evi_is_no_cap(value, width))
			return value;
		break;
	case EV_REF_THREAD:
		if (value == 0)
			return 0;
		break;
	case EV_REF_TASK:
		return evi_idmap_get(&in->tasks, value, &out) ? out : value;
	default:
		break;
	}
	return value + in->info.ids[kind].base;
}

/*
 * The output id of identifier `id` of kind `kind` in input `i`, as the
 * merge writes it (after ev_merge_plan). Task ids keep their value unless
 * an earlier input has the same one; then they get one no input has.
 */
uint64_t evi_merge_map(const ev_merge *m, size_t i, ev_ref_kind kind,
		      uint64_t id);

#endif
