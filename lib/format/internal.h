/*
 * The format layer's declarations (lib/format), shared by the layers
 * above it; not installed. It includes those of lib/common and lib/io,
 * which every file above them uses.
 */
#ifndef EVTOOL_LIB_INTERNAL_H
#define EVTOOL_LIB_INTERNAL_H

#include <string.h>

#include "evtool/catalog.h"
#include "evtool/common.h"
#include "evtool/reader.h"

#include "common_internal.h"
#include "io_internal.h"

/* The four-byte magic words of the header (doc/format.md section 1). */
#define EVI_HEADER_BEGIN 0x68647262u     /* "hdrb" */
#define EVI_HEADER_END 0x68647265u       /* "hdre" */
#define EVI_HET_BEGIN 0x68657462u        /* "hetb" */
#define EVI_HET_END 0x68657465u          /* "hete" */
#define EVI_ET_BEGIN 0x65746200u         /* "etb\0" */
#define EVI_ET_END 0x65746500u           /* "ete\0" */
#define EVI_DATA_BEGIN 0x64617462u       /* "datb" */
#define EVI_DATA_END 0xffffu             /* in place of an event type */

/* Event header on the wire: u16 type, u64 time; variable events add u16. */
#define EVI_EVENT_HEADER 10u
#define EVI_VAR_HEADER 12u
/* A BLOCK_MARKER payload: u32 size, u64 end time, u16 cap. */
#define EVI_BLOCK_PAYLOAD 14u
#define EVI_BLOCK_EVENT (EVI_EVENT_HEADER + EVI_BLOCK_PAYLOAD)

typedef struct ev_sink ev_sink;
typedef struct ev_reader ev_reader;
typedef struct ev_event ev_event;
typedef struct ev_header ev_header;

/* Progress of a pipeline that reads its input in several passes or
 * readers at once: each reader adds the stored bytes it reads to `done`
 * and calls fn(ctx, done, total). */
typedef struct evi_progress {
	ev_progress_fn fn;
	void *ctx;
	uint64_t done;
	uint64_t total;
} evi_progress;

/* Counts r's reads from now on in *p (NULL, or p->fn NULL: off). `p`
 * must outlive the reader or a later call. */
void evi_reader_progress(ev_reader *r, evi_progress *p);

/* Calls `fn(ctx, done, total)` after each read from the input: `done` is
 * ev_reader_input_bytes(), `total` the size of the input file from the
 * position where the reader started (0 for a pipe or memory). `fn` NULL
 * turns it off: the operations' progress (ev_filter_set_progress, ...). */
void evi_reader_set_progress(ev_reader *r, ev_progress_fn fn, void *ctx);

/* Number of BLOCK_MARKER events read in this session. */
uint64_t evi_reader_block_count(const ev_reader *r);

/* Makes the read window of `r`, opened and not yet read, at most `cap`
 * bytes (it still grows for a header or an event that needs more): for
 * many readers open at once. */
void evi_reader_limit_window(ev_reader *r, size_t cap);

/* The file descriptor `r` reads, when it has read nothing yet (no header
 * either); -1 otherwise (memory, a read function, a reader under way).
 * *digest: whether `r` was opened with EV_READER_DIGEST. */
int evi_reader_unread_fd(const ev_reader *r, int *digest);

/* Moves `r`, a reader over memory that has read its header, to
 * `offset`, as if it had read the `index` events (block markers
 * included) and the `blocks` block markers before it, to read on from
 * there: the parallel front end hands a log back to the sequential path
 * at the start of a block (blocks.h). EV_EINVAL otherwise. */
int evi_reader_resume_at(ev_reader *r, uint64_t offset, uint64_t index,
			 uint64_t blocks);

/* The stored bytes `r` will read to the end of its file; 0 if unknown. */
uint64_t evi_reader_stored_size(const ev_reader *r);

/* The bytes of the fixed-width fields of the oldest payload form of type
 * `id` (the catalogue's smallest layout, catalog_fields.c); 0 for a type
 * of no known layout. */
uint32_t evi_layout_min_size(uint16_t id);

/* EV_EFORMAT, with the event's place and type, when `ev`'s payload is
 * shorter than evi_layout_min_size (ghc-events cannot read it either);
 * `who` says who reads its fields ("the statistics need"). EV_OK
 * otherwise. The one rule of every reader of payload fields (stats,
 * report, export) for the events it reads. */
int evi_need_fields(ev_diag *d, const ev_event *ev, const char *who);

/* evi_layout_min_size of the ids below EVI_NEED_IDS, copied once by a
 * reader that checks every event (evi_need_fast). */
#define EVI_NEED_IDS 64u
typedef struct evi_need_table {
	uint16_t min_size[EVI_NEED_IDS];
} evi_need_table;

void evi_need_table_init(evi_need_table *t);

/* evi_need_fields, answered from `t` for the ids it holds. */
static inline int evi_need_fast(const evi_need_table *t, ev_diag *d,
				const ev_event *ev, const char *who)
{
	if (ev->type < EVI_NEED_IDS && ev->size >= t->min_size[ev->type])
		return EV_OK;
	return evi_need_fields(d, ev, who);
}

/* ---- the catalogue's lookups for the library (catalog.c) ---- */

/* The entry whose name matches `name` (case-insensitive), or NULL. */
const ev_type_info *evi_catalog_by_name(const char *name);

/* Nonzero when `size` is one that some GHC version used for `info`. */
int evi_catalog_size_known(const ev_type_info *info, int size);

/* The class named by `name`: a long name as ev_class_name() gives, or one
 * RTS flag letter ("s", "g", "p", "f", "u", "n", "T"). EV_CLASS_NONE if
 * unknown. */
ev_class evi_class_from_name(const char *name);

/* The layout of a payload of `size` bytes of type `id`: the form with the
 * largest min_size not above `size` (surplus bytes are appended fields a
 * newer GHC added), as ghc-events picks its parser. NULL when the type
 * has no known layout or the payload is shorter than every form:
 * ghc-events then shows the event as unknown. */
const ev_layout *evi_catalog_layout(uint16_t id, uint32_t size);

/* ---- metadata ---- */

/* evi_type_is_metadata: nonzero for the event types that describe rather
 * than happen, which `evtool filter` keeps whatever it selects: capset and
 * capability creation, assignment and removal (25-28, 45-48), STARTUP,
 * RTS identifier, program arguments and environment, pid and parent pid,
 * wall clock, heap info (52), heap-profile and time-profile begin (160,
 * 168), cost-centre (161), info-table (169), ticky-counter (210) and
 * perf-name (140) definitions, and THREAD_LABEL. */

#define EVI_BIT64(id) (UINT64_C(1) << ((id) & 63))

/* evi_type_is_metadata's types, all from STARTUP (17) to 255, as bitmaps
 * of ids 0-63 and 128-255 (none is in 64-127): the analyses ask for every
 * event, and the common ids cost a compare or two and a bit test. */
#define EVI_METADATA_0_63                                                   \
	(EVI_BIT64(EV_STARTUP) | EVI_BIT64(EV_CAPSET_CREATE) |              \
	 EVI_BIT64(EV_CAPSET_DELETE) | EVI_BIT64(EV_CAPSET_ASSIGN_CAP) |     \
	 EVI_BIT64(EV_CAPSET_REMOVE_CAP) | EVI_BIT64(EV_RTS_IDENTIFIER) |    \
	 EVI_BIT64(EV_PROGRAM_ARGS) | EVI_BIT64(EV_PROGRAM_ENV) |            \
	 EVI_BIT64(EV_OSPROCESS_PID) | EVI_BIT64(EV_OSPROCESS_PPID) |        \
	 EVI_BIT64(EV_WALL_CLOCK_TIME) | EVI_BIT64(EV_THREAD_LABEL) |        \
	 EVI_BIT64(EV_CAP_CREATE) | EVI_BIT64(EV_CAP_DELETE) |               \
	 EVI_BIT64(EV_CAP_DISABLE) | EVI_BIT64(EV_CAP_ENABLE) |              \
	 EVI_BIT64(EV_HEAP_INFO_GHC))
/* PERF_NAME names the perf counters of 141/142. */
#define EVI_METADATA_128_191                                                \
	(EVI_BIT64(EV_PERF_NAME) | EVI_BIT64(EV_HEAP_PROF_BEGIN) |          \
	 EVI_BIT64(EV_HEAP_PROF_COST_CENTRE) | EVI_BIT64(EV_PROF_BEGIN) |    \
	 EVI_BIT64(EV_IPE))
#define EVI_METADATA_192_255 EVI_BIT64(EV_TICKY_COUNTER_DEF)

static inline int evi_type_is_metadata(uint16_t id)
{
	if (id < EV_STARTUP) /* the scheduler's and GC's, the commonest */
		return 0;
	if (id < 64)
		return (int)(EVI_METADATA_0_63 >> id & 1);
	if (id < 128 || id >= 256)
		return 0;
	return (int)((id < 192 ? EVI_METADATA_128_191 : EVI_METADATA_192_255)
		     >> (id & 63) & 1);
}

/* Whether events of type `id` leave a run's time alone: metadata, and a
 * block marker (stamped as its block's first event, it frames events
 * without being one). What stats and report time a run and a slice by is
 * the other events. */
static inline int evi_type_is_untimed(uint16_t id)
{
	if (id < EV_STARTUP)
		return 0;
	if (id < 64)
		return (int)((EVI_METADATA_0_63 | EVI_BIT64(EV_BLOCK_MARKER)) >>
			     id & 1);
	return evi_type_is_metadata(id);
}

/* ---- STOP_THREAD statuses as ghc-events reads them (stop_status.c) ---- */

/* The statuses ghc-events names: evi_stop_status gives 0 to 20. */
#define EVI_STOP_STATUSES 21u

/* ghc-events' text for STOP_THREAD status `status`: "blocked on an MVar"
 * for 7, "No stop thread status" for codes it does not know. */
const char *evi_stop_status_text(unsigned status);

/* A STOP_THREAD status code as ghc-events reads it, 0 to 20, in the
 * numbering of a log whose header has `quirks` (evi_header_quirks: GHC
 * 7.8.2 numbered them differently). Every reader of a status uses it. */
unsigned evi_stop_status(uint64_t code, unsigned quirks);

/* ghc-events' name (ThreadStopStatus constructor) of a STOP_THREAD status
 * code, "BlockedOnBlackHoleOwnedBy" for code 8 with the owner field. */
const char *evi_stop_status_name(uint64_t code, int has_info,
				 unsigned quirks);

/* The status of a thread that has finished (rts/include/rts/Constants.h). */
#define EVI_STOP_FINISHED 5u

/* The longest ThreadStopStatus constructor (BlockedOnCCall_NoUnblockExc). */
#define EVI_STOP_NAME_MAX 27u

/* A constructor's name, NUL-padded to its array (a writer with the room
 * may copy the array whole), and its length. */
typedef struct evi_stop_name {
	char name[EVI_STOP_NAME_MAX + 1];
	size_t len;
} evi_stop_name;

/* The ThreadStopStatus constructor of status `status` (0 to 20, as
 * evi_stop_status gives it; NoStatus past 20). */
const evi_stop_name *evi_stop_status_constructor(unsigned status);

/* ---- identifier fields in payloads (catalog.c) ---- */

/* One identifier field inside a payload. */
typedef struct evi_ref {
	ev_ref_kind kind;
	uint16_t offset; /* byte offset in the payload */
	uint8_t width;   /* 1, 2, 4 or 8 bytes, big-endian */
} evi_ref;

/* The identifier fields present in one event payload of type `type` and
 * `size` bytes. Fields that lie beyond `size` are omitted, as are
 * conditional ones that do not apply (STOP_THREAD's info is a thread only
 * for status 8). Writes at most `max` entries to `out` and returns the
 * total number present, which may be larger than `max`. */
size_t evi_payload_refs(uint16_t type, const uint8_t *payload, size_t size,
			evi_ref *out, size_t max);

/* The value of `ref` in `payload`, and storing `value` (truncated to the
 * field's width) there; inline: merge calls them for every identifier of
 * every event, where a call costs as much as the work. */
/* The big-endian unsigned integer of 1, 2, 4 or 8 bytes at p. */
static inline uint64_t evi_load_width(const uint8_t *p, unsigned width)
{
	switch (width) {
	case 1:
		return p[0];
	case 2:
		return ev_load16(p);
	case 4:
		return ev_load32(p);
	default:
		return ev_load64(p);
	}
}

static inline uint64_t evi_ref_load(const uint8_t *payload, const evi_ref *ref)
{
	return evi_load_width(payload + ref->offset, ref->width);
}

static inline void evi_ref_store(uint8_t *payload, const evi_ref *ref,
				 uint64_t value)
{
	uint8_t *p = payload + ref->offset;

	switch (ref->width) {
	case 1:
		p[0] = (uint8_t)value;
		break;
	case 2:
		ev_store16(p, (uint16_t)value);
		break;
	case 4:
		ev_store32(p, (uint32_t)value);
		break;
	default:
		ev_store64(p, value);
		break;
	}
}

/* ---- for the sorter and cat's parallel copy: blocks whole ---- */

typedef struct ev_writer ev_writer;

/* PRESERVE mode: `len` bytes of whole blocks holding `events` events
 * (markers aside) that ev_writer_write would write event by event as
 * they are (blocks_copy.c: blocks the cursor read), written at once. */
int evi_writer_copy_bytes(ev_writer *w, const uint8_t *p, size_t len,
			  uint64_t events);

/* Calls done(ctx) when `r` is freed, after it: for a reader over memory
 * that something else owns (blocks_copy.c: the mapped log). */
void evi_reader_on_free(ev_reader *r, void (*done)(void *), void *ctx);

/*
 * Reading a block's events without decoding each (reader.c): the unread
 * bytes of the block the reader is in that are in its window (0 outside
 * a block), and moving past `bytes` of them, `events` whole events, the
 * last of which starts at `last_start`.
 */
size_t evi_reader_block_bytes(const ev_reader *r, const uint8_t **p);
void evi_reader_skip(ev_reader *r, size_t bytes, uint64_t events,
		     uint64_t last_start);

/* ---- building and encoding a header (header.c): the reader, the writer
 * and merge build the headers a caller reads ---- */

/* Quirk flags found in a header. */
enum evi_header_quirk {
	/* GHC 6.12: thread ids declared 8 bytes but written as 4, STARTUP
	 * declared 0 bytes but carrying 2. Detected by CREATE_THREAD's
	 * declared size of 8. */
	EVI_QUIRK_GHC612 = 1u << 0,
	/* GHC 7.8.2: STOP_THREAD statuses from 8 up numbered one higher (it
	 * inserted BlockedOnMVarRead at 8; ghc-events mkStopStatus782).
	 * Detected as ghc-events does: USER_MARKER declared, HACK_BUG_T9003
	 * not. */
	EVI_QUIRK_GHC782 = 1u << 1
};

/* Creates an empty header. Free it with evi_header_free(). */
int evi_header_new(ev_header **out, ev_diag *diag);

/* Deep copy of `src`. */
int evi_header_copy(ev_header **out, const ev_header *src);

/* Frees a header; NULL is fine. */
void evi_header_free(ev_header *h);

/* Declares a type. `size` is the declared size (EV_SIZE_VARIABLE for
 * variable). Declaring an id twice is EV_EINVAL. Types are kept in the
 * order added; GHC adds them in ascending id order. */
int evi_header_add(ev_header *h, uint16_t id, int32_t size,
		   const char *desc, uint32_t desc_len, const uint8_t *extra,
		   uint32_t extra_len);

/* EVI_QUIRK_* flags that apply to this header. */
unsigned evi_header_quirks(const ev_header *h);

/* Bytes that evi_header_encode() writes for this header. */
size_t evi_header_encoded_size(const ev_header *h);

/* Encodes the header from "hdrb" through "datb" into `buf`, which must
 * hold evi_header_encoded_size() bytes. Returns the bytes written. */
size_t evi_header_encode(const ev_header *h, uint8_t *buf);

#endif
