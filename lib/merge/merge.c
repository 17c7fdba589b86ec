/*
 * evtool merge, part one: the merge handle, its inputs, and the first pass
 * that reads each input once for what the plan needs (merge.h).
 *
 * Layering, calls going one way only: merge_write.c -> merge.c ->
 * merge_plan.c. This file calls down into the plan (the union header, the
 * decisions, the failure record) and never up into merge_write.c.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, madvise */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evtool/decode.h"
#include "gzip.h"
#include "internal.h"
#include "input.h"
#include "merge_internal.h"
#include "tempfile.h"

/* A regular file up to this size is read into memory once, in the first
 * pass, and both passes parse it in place: no read window, no second
 * open and read. At most MAX_CACHED_TOTAL bytes of inputs are held so,
 * all in one arena; the rest are read from their files twice. */
#define MAX_CACHED_INPUT (1024u * 1024u)
#define MAX_CACHED_TOTAL (16u * 1024u * 1024u)
/* The arena asks for huge pages from this size: a fresh 4 KiB page costs
 * the kernel about as much as copying it in, so 100 small inputs spent a
 * fifth of the merge taking pages. */
#define HUGE_PAGE (2u * 1024u * 1024u)
/* The second pass holds every input's reader at once: the inputs read
 * from their files share WINDOWS bytes of read windows, each at least
 * MIN_WINDOW (a window grows for an event that needs more). */
#define WINDOWS (16u * 1024u * 1024u)
#define MIN_WINDOW (16u * 1024u)
/* ref_free's probe: a zero payload this long holds every fixed field the
 * catalogue knows (doc/format.md section 6), and a cost-centre stack depth of
 * 0, so a type with any identifier field shows at least one. */
#define REF_PROBE_SIZE 1024u
/* Bounds on what the first pass remembers of one input for synthesis. */
#define MAX_CREATED_CAPSETS 65536u
#define MAX_ASSIGNS 131072u

int evi_merge_reader_failed(ev_merge *m, const evi_merge_input *in,
			    const ev_reader *r)
{
	const ev_diag *d = ev_reader_diag(r);
	char message[sizeof d->message];

	memcpy(message, d->message, sizeof message);
	evi_merge_fail(m, EV_ORIGIN_INPUT, d->status,
		       "%s: offset %llu: %s", in->name,
		       (unsigned long long)d->offset, message);
	m->diag.reason = d->reason;
	m->diag.input = (unsigned)(in - m->inputs);
	m->diag.offset = d->offset;
	m->diag.event_index = d->event_index;
	return d->status;
}

/* ---- the handle ---- */

/* Every catalogued type with identifier fields has one whatever the
 * payload (STOP_THREAD's blocked-on thread and cost-centre stacks come
 * after a fixed one), so a zero payload finds them all. The types the
 * first pass reads for more than identifiers (scan_event) are never
 * passed over. */
static void find_ref_free_types(ev_merge *m)
{
	static const uint8_t zeros[REF_PROBE_SIZE];
	static const uint16_t scanned[] = { EV_BLOCK_MARKER, EV_CAPSET_CREATE,
					    EV_CAPSET_ASSIGN_CAP, EV_CAP_CREATE,
					    EV_WALL_CLOCK_TIME };

	for (unsigned type = 0; type < 256; type++)
		m->ref_free[type] = evi_payload_refs((uint16_t)type, zeros,
						    sizeof zeros, NULL, 0) == 0;
	for (size_t i = 0; i < sizeof scanned / sizeof scanned[0]; i++)
		m->ref_free[scanned[i]] = 0;
}

int ev_merge_new(ev_merge **out, const ev_merge_options *opts, ev_diag *diag)
{
	ev_merge *m;
	static const ev_merge_options defaults = EV_MERGE_OPTIONS_INIT;

	*out = NULL;
	if (opts && (opts->version != EV_MERGE_OPTIONS_VERSION ||
		     opts->align > EV_MERGE_ALIGN_NONE))
		return evi_fail_at(diag, EV_ORIGIN_OPTIONS, EV_EINVAL, 0, 0,
				   "merge options of version %u (this "
				   "library reads version %u) or an unknown "
				   "alignment",
				   opts->version, EV_MERGE_OPTIONS_VERSION);
	if (!(m = calloc(1, sizeof *m)))
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	m->opts = opts ? *opts : defaults;
	if (m->opts.spool_dir && !(m->spool_dir = strdup(m->opts.spool_dir))) {
		free(m);
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	}
	m->opts.spool_dir = m->spool_dir;
	m->type_slot = calloc(UINT16_MAX + 1u, sizeof *m->type_slot);
	if (!m->type_slot) {
		ev_merge_free(m);
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	}
	find_ref_free_types(m);
	*out = m;
	return EV_OK;
}

static void free_input(evi_merge_input *in)
{
	ev_reader_free(in->reader);
	ev_input_free(in->input); /* and with it in->fd */
	evi_idmap_free(&in->tasks);
	evi_idmap_free(&in->capsets);
	free(in->cap_flags);
	free(in->assigns);
	free(in->synth);
	free(in->name);
}

void ev_merge_free(ev_merge *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n_inputs; i++)
		free_input(&m->inputs[i]);
	for (size_t i = 0; i < m->n_types; i++)
		free(m->types[i].desc);
	free(m->inputs);
	free(m->types);
	free(m->type_slot);
	evi_header_free(m->header);
	free(m->heap);
	free(m->spool_dir);
	if (m->arena)
		munmap(m->arena, m->arena_len);
	free(m);
}

size_t ev_merge_input_count(const ev_merge *m)
{
	return m->n_inputs;
}

const ev_diag *ev_merge_diag(const ev_merge *m)
{
	return &m->diag;
}

const ev_merge_input *ev_merge_input_at(const ev_merge *m, size_t i)
{
	return m->planned && i < m->n_inputs ? &m->inputs[i].info : NULL;
}

const ev_header *ev_merge_header(const ev_merge *m)
{
	return m->planned ? m->header : NULL;
}

uint64_t ev_merge_events_written(const ev_merge *m)
{
	return m->events_written;
}

int ev_merge_shift(ev_merge *m, size_t i, int64_t ns)
{
	if (i >= m->n_inputs || m->planned)
		return evi_merge_fail(m, EV_ORIGIN_OPTIONS, EV_EINVAL,
				      "cannot shift input %zu of %zu%s", i + 1,
				      m->n_inputs,
				      m->planned ? " after planning" : "");
	m->inputs[i].manual_shift = ns;
	return EV_OK;
}

/* ---- inputs ---- */

/* A new input slot named `name`, not yet counted in n_inputs. */
static int new_input(ev_merge *m, const char *name, evi_merge_input **out)
{
	evi_merge_input *in;

	if (m->planned)
		return evi_merge_fail(m, EV_ORIGIN_OPTIONS, EV_EINVAL,
				      "cannot add an input after planning");
	if (evi_grow(&m->inputs, &m->inputs_capacity, m->n_inputs + 1,
		     sizeof *m->inputs) < 0)
		return evi_merge_fail(m, EV_ORIGIN_INPUT, EV_ENOMEM,
				      "out of memory");
	in = &m->inputs[m->n_inputs];
	memset(in, 0, sizeof *in);
	in->fd = -1;
	if (!(in->name = strdup(name)))
		return evi_merge_fail(m, EV_ORIGIN_INPUT, EV_ENOMEM,
				      "out of memory");
	in->info.name = in->name;
	*out = in;
	return EV_OK;
}

int ev_merge_add(ev_merge *m, ev_input *input)
{
	evi_merge_input *in = NULL;
	evi_input view;
	ev_diag d;
	int rc;

	if (input->is_stdin && m->stdin_used)
		rc = evi_merge_fail(m, EV_ORIGIN_OPTIONS, EV_EINVAL,
				    "standard input ('-') can be read only "
				    "once");
	else
		rc = new_input(m, ev_input_name(input), &in);
	if (rc < 0) {
		ev_input_free(input);
		return rc;
	}
	in->input = input;
	if (input->fd < 0) {
		in->mem = input->data;
		in->mem_len = input->len;
	} else if ((rc = evi_input_prepare(input, m->spool_dir, 0, &view,
					   &d)) < 0) {
		rc = evi_merge_fail(m, EV_ORIGIN_INPUT, rc, "%s: %s",
				    in->name, d.message);
		free_input(in);
		return rc;
	} else {
		in->fd = view.fd;
		in->fd_start = view.start;
	}
	m->stdin_used |= input->is_stdin;
	m->n_inputs++;
	return EV_OK;
}

int evi_merge_open_reader(ev_merge *m, evi_merge_input *in, ev_reader **out)
{
	int rc;

	if (in->fd < 0)
		rc = ev_reader_open_memory(out, in->mem, in->mem_len, in->name,
					   0, NULL);
	else if (lseek(in->fd, (off_t)in->fd_start, SEEK_SET) < 0)
		return evi_merge_fail(m, EV_ORIGIN_INPUT, EV_EIO,
				      "%s: cannot rewind: %s", in->name,
				      strerror(errno));
	else
		rc = ev_reader_open_fd(out, in->fd, in->name, 0, NULL);
	if (rc < 0)
		return evi_merge_fail(m, EV_ORIGIN_INPUT, rc, "%s: %s",
				      in->name, ev_strerror(rc));
	if (m->planned && in->fd >= 0)
		evi_reader_limit_window(*out, m->window);
	evi_reader_progress(*out, &m->progress);
	return EV_OK;
}

void ev_merge_set_progress(ev_merge *m, ev_progress_fn fn, void *ctx)
{
	m->progress.fn = fn;
	m->progress.ctx = ctx;
}

/* Both passes read every input from its start to its end. */
static uint64_t progress_total(const ev_merge *m)
{
	uint64_t total = 0;
	struct stat st;

	for (size_t i = 0; i < m->n_inputs; i++) {
		const evi_merge_input *in = &m->inputs[i];
		if (in->fd < 0)
			continue;
		if (fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    (uint64_t)st.st_size > in->fd_start)
			total += (uint64_t)st.st_size - in->fd_start;
	}
	return 2 * total;
}

/* ---- the first pass ---- */

static void note_time(evi_merge_input *in, uint64_t t)
{
	if (t < in->info.first_time)
		in->info.first_time = t;
	if (t > in->info.last_time)
		in->info.last_time = t;
}

static int grow_cap_flags(ev_merge *m, evi_merge_input *in, uint64_t cap,
			  uint8_t flags)
{
	size_t n = (size_t)cap + 1;

	if (cap >= EV_MERGE_MAX_CAPS)
		return EV_OK; /* beyond any plan: the plan reports it */
	if (n > in->n_cap_flags) {
		size_t grown_n = n < 64 ? 64 : n * 2;
		uint8_t *grown;
		if (grown_n > EV_MERGE_MAX_CAPS)
			grown_n = EV_MERGE_MAX_CAPS;
		if (!(grown = realloc(in->cap_flags, grown_n)))
			return evi_merge_fail(m, EV_ORIGIN_INPUT,
					      EV_ENOMEM, "out of memory");
		memset(grown + in->n_cap_flags, 0, grown_n - in->n_cap_flags);
		in->cap_flags = grown;
		in->n_cap_flags = grown_n;
	}
	in->cap_flags[cap] |= flags;
	return EV_OK;
}

static inline int note_cap(ev_merge *m, evi_merge_input *in, uint64_t cap,
			   uint8_t flags)
{
	if (cap < in->n_cap_flags) {
		in->cap_flags[cap] |= flags;
		return EV_OK;
	}
	return grow_cap_flags(m, in, cap, flags);
}

static void note_id(evi_merge_input *in, ev_ref_kind kind, uint64_t v)
{
	ev_merge_ids *ids = &in->info.ids[kind];

	if (!ids->used || v > ids->max)
		ids->max = v;
	ids->used = 1;
}

static int note_task(ev_merge *m, evi_merge_input *in, uint64_t task)
{
	int rc = evi_idmap_add(&in->tasks, task, task, EV_MERGE_MAX_TASKS,
			       NULL);

	if (rc == EV_ELIMIT)
		return evi_merge_fail(m, EV_ORIGIN_NONE, rc,
				      "%s: more than %u distinct task ids, the "
				      "most the renaming table holds per input",
				      in->name, EV_MERGE_MAX_TASKS);
	if (rc < 0)
		return evi_merge_fail(m, EV_ORIGIN_INPUT, rc,
				      "out of memory");
	return EV_OK;
}

/* Every identifier the catalogue finds in the payload: the largest of
 * each kind sets the next input's base (merge_plan.c). */
static int note_refs(ev_merge *m, evi_merge_input *in, const ev_event *ev,
		     const evi_ref *refs, size_t n)
{
	int rc = EV_OK;

	for (size_t k = 0; k < n && rc == EV_OK; k++) {
		uint64_t v = evi_ref_load(ev->payload, &refs[k]);
		switch (refs[k].kind) {
		case EV_REF_CAP:
			if (evi_is_no_cap(v, refs[k].width))
				break;
			note_id(in, EV_REF_CAP, v);
			rc = note_cap(m, in, v, EVI_CAP_USED);
			break;
		case EV_REF_TASK:
			note_id(in, EV_REF_TASK, v);
			rc = note_task(m, in, v);
			break;
		case EV_REF_THREAD:
			if (v != 0) /* thread 0: none (STOP_THREAD's info) */
				note_id(in, EV_REF_THREAD, v);
			break;
		default:
			note_id(in, refs[k].kind, v);
			break;
		}
	}
	return rc;
}

/* CAPSET_CREATE (25): u32 capset, u16 type (doc/format.md section 5). The
 * first OS-process and clock-domain capsets are the input's own. */
static int note_capset_create(ev_merge *m, evi_merge_input *in,
			      const ev_event *ev, const evi_ref *refs, size_t n)
{
	uint32_t capset, type;
	int rc;

	if (n < 1 || ev->size < 6)
		return EV_OK;
	capset = (uint32_t)evi_ref_load(ev->payload, &refs[0]);
	type = ev_load16(ev->payload + 4);
	if (type == EVI_CAPSET_OS_PROCESS && !in->has_os) {
		in->has_os = 1;
		in->os_local = capset;
	} else if (type == EVI_CAPSET_CLOCK_DOMAIN && !in->has_clock) {
		in->has_clock = 1;
		in->clock_local = capset;
	}
	rc = evi_idmap_add(&in->capsets, capset, type, MAX_CREATED_CAPSETS,
			   NULL);
	if (rc == EV_ENOMEM)
		return evi_merge_fail(m, EV_ORIGIN_INPUT, rc,
				      "out of memory");
	return EV_OK; /* past the limit: only synthesis ids are at stake */
}

/* CAPSET_ASSIGN_CAP (27): refs are the capset, then the cap. */
static int note_assign(ev_merge *m, evi_merge_input *in, const ev_event *ev,
		       const evi_ref *refs, size_t n)
{
	if (n < 2 || in->n_assigns >= MAX_ASSIGNS)
		return EV_OK; /* unrecorded: at worst a redundant synthesis */
	if (evi_grow(&in->assigns, &in->assigns_capacity, in->n_assigns + 1,
		     sizeof *in->assigns) < 0)
		return evi_merge_fail(m, EV_ORIGIN_INPUT, EV_ENOMEM,
				      "out of memory");
	in->assigns[in->n_assigns].capset =
		(uint32_t)evi_ref_load(ev->payload, &refs[0]);
	in->assigns[in->n_assigns].cap =
		(uint16_t)evi_ref_load(ev->payload, &refs[1]);
	in->n_assigns++;
	return EV_OK;
}

/* The first WALL_CLOCK_TIME gives the Unix time of the log's time 0
 * (ev_wall_clock_epoch); one that is not a clock reading fails the merge. */
static int note_wall_clock(ev_merge *m, evi_merge_input *in,
			   const ev_event *ev)
{
	ev_diag d;
	int64_t epoch;
	int rc;

	if (in->info.has_wall_clock)
		return EV_OK;
	rc = ev_wall_clock_epoch(ev, &epoch, &d);
	if (rc == EV_EFORMAT)
		return evi_merge_fail(m, EV_ORIGIN_INPUT, rc,
				      "%s: offset %llu: %s", in->name,
				      (unsigned long long)d.offset, d.message);
	if (rc < 0)
		return EV_OK; /* too short to hold a clock */
	in->info.has_wall_clock = 1;
	in->info.clock_origin = epoch;
	return EV_OK;
}

/* Enough for any payload: a cost-centre stack has at most 255 entries
 * (u8 depth) after two other identifier fields. */
#define MAX_REFS 264

static int scan_event(ev_merge *m, evi_merge_input *in, ev_reader *r,
		      const ev_event *ev)
{
	evi_ref refs[MAX_REFS];
	ev_block block;
	size_t n;
	int rc;

	note_time(in, ev->time);
	if (ev->type == EV_BLOCK_MARKER && ev_reader_block(r, &block) &&
	    block.offset == ev->offset) {
		in->info.blocks++;
		note_time(in, block.end_time);
		if (block.cap == EV_NO_CAP)
			return EV_OK;
		note_id(in, EV_REF_CAP, block.cap);
		return note_cap(m, in, block.cap, EVI_CAP_USED);
	}
	in->info.events++;
	n = evi_payload_refs(ev->type, ev->payload, ev->size, refs, MAX_REFS);
	if (n > MAX_REFS)
		n = MAX_REFS;
	if ((rc = note_refs(m, in, ev, refs, n)) < 0)
		return rc;
	switch (ev->type) {
	case EV_CAPSET_CREATE:
		return note_capset_create(m, in, ev, refs, n);
	case EV_CAPSET_ASSIGN_CAP:
		return note_assign(m, in, ev, refs, n);
	case EV_CAP_CREATE:
		if (n < 1 || evi_is_no_cap(evi_ref_load(ev->payload, &refs[0]),
				       refs[0].width))
			return EV_OK;
		return note_cap(m, in, evi_ref_load(ev->payload, &refs[0]),
				EVI_CAP_CREATED);
	case EV_WALL_CLOCK_TIME:
		return note_wall_clock(m, in, ev);
	default:
		return EV_OK;
	}
}

/* An input that is empty or cut inside its first header is no log: there
 * is no process to merge, so it is an error naming the input (EV_EFORMAT
 * with the reader's message), not a process of 0 events. */
static int scan_header(ev_merge *m, size_t i, ev_reader *r)
{
	evi_merge_input *in = &m->inputs[i];
	int rc = ev_reader_read_header(r);

	if (rc < 0) {
		rc = evi_merge_reader_failed(m, in, r);
		if (rc == EV_ETRUNCATED)
			rc = m->diag.status = EV_EFORMAT;
		return rc;
	}
	in->header_ok = 1;
	in->info.sessions = 1;
	return evi_merge_union_header(m, i, ev_reader_header(r));
}

/* After the data end: the end, or another session, which is refused. A
 * session is a process of its own (its clock starts again, its
 * capabilities and threads are numbered again), and merge plans one
 * process per input: a restarted eventlog (or logs concatenated) merged
 * as one process gave a log that validate rejects (blocks overlapping,
 * threads running after they finished). `evtool truncate --session N`
 * extracts each session as an input of its own. */
static int scan_next_session(ev_merge *m, size_t i, ev_reader *r)
{
	evi_merge_input *in = &m->inputs[i];
	uint64_t offset = ev_reader_offset(r);
	int rc = ev_reader_next_session(r);

	if (rc == EV_OK) {
		rc = evi_merge_refuse(m, EV_REASON_SESSIONS,
				      "%s: offset %" PRIu64 ": session 2 "
				      "begins: merge takes one session per "
				      "input (a restarted eventlog or logs "
				      "concatenated); evtool truncate "
				      "--session N extracts session N",
				      in->name, offset);
		m->diag.input = (unsigned)i;
		m->diag.offset = offset;
		return rc;
	}
	if (rc == EV_ETRUNCATED) {
		in->info.truncated = 1;
		in->info.truncation = *ev_reader_diag(r);
		return EV_END;
	}
	return rc == EV_END ? EV_END : evi_merge_reader_failed(m, in, r);
}

static int scan_events(ev_merge *m, size_t i, ev_reader *r)
{
	evi_merge_input *in = &m->inputs[i];
	ev_event ev;
	int rc;

	for (;;) {
		while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
			in->limit++;
			/* Most events name no identifier (GC, spark counters):
			 * only their time matters here. */
			if (evi_merge_ref_free(m, ev.type)) {
				note_time(in, ev.time);
				in->info.events++;
				continue;
			}
			if ((rc = scan_event(m, in, r, &ev)) < 0)
				return rc;
		}
		if (rc == EV_ETRUNCATED) {
			in->info.truncated = 1;
			in->info.truncation = *ev_reader_diag(r);
			return EV_OK;
		}
		if (rc != EV_END)
			return evi_merge_reader_failed(m, in, r);
		if ((rc = scan_next_session(m, i, r)) != EV_OK)
			return rc == EV_END ? EV_OK : rc;
	}
}

/* The bytes of input `in` to read into memory: a regular file of at most
 * MAX_CACHED_INPUT bytes from its start; 0 for any other. */
static size_t cacheable_size(const evi_merge_input *in)
{
	struct stat st;

	if (in->fd < 0 || fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < 0 || (uint64_t)st.st_size < in->fd_start + 2 ||
	    (uint64_t)st.st_size - in->fd_start > MAX_CACHED_INPUT)
		return 0;
	return (size_t)((uint64_t)st.st_size - in->fd_start);
}

/* Maps `len` bytes, from a huge-page boundary when there are enough for
 * one (the head and tail around it are given back). NULL on failure. */
static uint8_t *map_arena(size_t len)
{
	size_t extra = len >= HUGE_PAGE ? HUGE_PAGE : 0, head;
	uint8_t *p = mmap(NULL, len + extra, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (!extra)
		return p;
	head = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
	if (head)
		munmap(p, head);
	if (extra - head)
		munmap(p + head + len, extra - head);
	p += head;
#ifdef MADV_HUGEPAGE
	madvise(p, len - len % HUGE_PAGE, MADV_HUGEPAGE);
#endif
	return p;
}

/* One arena for the inputs that cache_input will read into memory, as
 * many as fit in MAX_CACHED_TOTAL in order; none when it cannot be had
 * (they are read from their files). */
static void plan_arena(ev_merge *m)
{
	size_t total = 0;

	for (size_t i = 0; i < m->n_inputs; i++) {
		size_t size = cacheable_size(&m->inputs[i]);
		if (size <= MAX_CACHED_TOTAL - total)
			total += size;
	}
	if (total && (m->arena = map_arena(total)))
		m->arena_len = total;
}

void evi_merge_count_cached(ev_merge *m, const evi_merge_input *in)
{
	if (!in->cached || !m->progress.fn)
		return;
	m->progress.done += in->mem_len;
	m->progress.fn(m->progress.ctx, m->progress.done, m->progress.total);
}

/* Reads a small regular file into the arena, once for both passes (see
 * MAX_CACHED_INPUT): the input is then read like one in memory (its
 * file stays the ev_input's, closed with it). A gzip file (magic 1f 8b),
 * a file that grew past its room, a read error or no arena leave the
 * input to be read from its file as before, which reports any error. */
static void cache_input(ev_merge *m, evi_merge_input *in)
{
	ev_diag ignored;
	uint8_t *bytes;
	size_t size = cacheable_size(in), got;

	if (!size || !m->arena || size > m->arena_len - m->cached_total)
		return;
	bytes = m->arena + m->cached_total;
	if (evi_pread_full(in->fd, bytes, size, in->fd_start, &got,
			   &ignored) < 0 || got < size ||
	    evi_is_gzip(bytes, size))
		return;
	in->fd = -1; /* the input's: closed with it */
	in->cached = 1;
	in->mem = bytes;
	in->mem_len = size;
	m->cached_total += size;
	evi_merge_count_cached(m, in);
}

static int scan_input(ev_merge *m, size_t i)
{
	evi_merge_input *in = &m->inputs[i];
	ev_reader *r;
	int rc;

	in->info.first_time = UINT64_MAX;
	cache_input(m, in);
	if ((rc = evi_merge_open_reader(m, in, &r)) < 0)
		return rc;
	rc = scan_header(m, i, r);
	if (rc == EV_OK)
		rc = scan_events(m, i, r);
	ev_reader_free(r);
	if (in->limit == 0)
		in->info.first_time = 0;
	return rc == EV_END ? EV_OK : rc;
}

/* The second pass's read window for each input read from its file. */
static void plan_windows(ev_merge *m)
{
	size_t from_files = 0;

	for (size_t i = 0; i < m->n_inputs; i++)
		from_files += m->inputs[i].fd >= 0;
	m->window = from_files ? WINDOWS / from_files : WINDOWS;
	if (m->window < MIN_WINDOW)
		m->window = MIN_WINDOW;
}

int ev_merge_plan(ev_merge *m)
{
	int rc;

	if (m->planned)
		return EV_OK;
	if (m->n_inputs == 0)
		return evi_merge_fail(m, EV_ORIGIN_OPTIONS, EV_EINVAL,
				      "no inputs to merge");
	m->progress.done = 0;
	m->progress.total = progress_total(m);
	plan_arena(m);
	for (size_t i = 0; i < m->n_inputs; i++)
		if ((rc = scan_input(m, i)) < 0)
			return rc;
	if ((rc = evi_merge_decide(m)) < 0)
		return rc;
	plan_windows(m);
	m->planned = 1;
	return EV_OK;
}
