/*
 * Repairing and cutting logs (include/evtool/repair.h; doc/format.md sections
 * 2 and 4).
 *
 * The output is written in stream order, so by the time a block turns out
 * to be cut short, its marker, which declares the block's size and end
 * time, would already be out. Two designs fix that: patch the marker
 * afterwards, which needs a seekable output (not standard output, not a
 * pipe, and not a sink that is not a file), or hold the block back until
 * it is known to be complete. This file holds it back: the marker and the
 * block's events go into a block builder of the output writer
 * (writer_block.h, evi_block_begin_marker), written when the events
 * end exactly at the block's declared size (or at the data end, for the
 * last block of GHC >= 9.2, whose size covers that marker). A complete,
 * untouched block goes out byte for byte; one that was cut, or lost
 * events to a cut option, goes out with its size and end time rewritten.
 * It works on every sink and costs one copy of each block, and GHC's
 * blocks are at most 2 MiB (EV_MAX_BLOCK_SIZE), so that is the buffer. A
 * block that declares more (not GHC's) is written in pieces of at most
 * that size, each with a marker of its own, so memory stays bounded.
 * Events outside blocks (doc/format.md section 2) are written as they come.
 */
#include "evtool/repair.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtool/catalog.h"
#include "evtool/decode.h"
#include "evtool/validate.h" /* EV_VALIDATE_GC_END_TOLERANCE_NS */
#include "input.h"
#include "internal.h"
#include "wire.h"
#include "writer_block.h"

#define HOLD_MAX EV_MAX_BLOCK_SIZE

/* The block being held back. */
typedef struct held_block {
	int open;
	ev_block declared;   /* its marker as read */
	uint64_t end;        /* where the input says it ends */
	size_t marker_len;   /* bytes of the marker event */
	uint64_t events;     /* events held, the marker not counted */
	uint64_t min_time, max_time; /* of the events held */
	uint64_t input_bytes; /* input bytes of what is held */
	int changed;         /* events were left out: rewrite the marker */
	int splitting;       /* being split by size (split_held) */
	int piece;           /* a later piece of a block split by size */
} held_block;

/* How the events of a session ended. */
enum session_end {
	ENDED_NEXT = 1,  /* a data end, then another session's header */
	ENDED_LAST,      /* a data end, then the end of the input */
	ENDED_STOP,      /* a data end, and the session asked for is done */
	ENDED_INPUT,     /* the input ended (or was skipped to its end) */
	ENDED_LIMIT      /* max_bytes or max_events reached */
};

struct ev_repair {
	ev_repair_options opts;
	ev_repair_summary sum;
	ev_diag diag;
	char message[sizeof ((ev_diag *)0)->message];
	ev_reader *r;
	ev_sink *sink;
	ev_writer *w;      /* on sink, from the first header written */
	evi_block *held;   /* w's builder of the block held back */
	held_block hold;
	unsigned session;  /* 1-based, the session being read */
	int writing;       /* it is written to the sink */
	int have_first;    /* its first event was seen */
	uint64_t cutoff;   /* max_time: events at or after this are cut */
	uint64_t data_end; /* offset of the last data-end marker read */
	uint64_t stop_at;  /* where reading stopped at a limit */
	int have_time;
	int ran;
	ev_progress_fn progress; /* ev_repair_set_progress */
	void *progress_ctx;
};

int ev_repair_new(ev_repair **out, const ev_repair_options *opts, ev_diag *diag)
{
	ev_repair_options defaults = EV_REPAIR_OPTIONS_INIT;
	ev_repair *rp;

	*out = NULL;
	if (opts && opts->version != EV_REPAIR_OPTIONS_VERSION &&
	    opts->version != 1)
		return evi_options_failed(diag, "repair", opts->version,
					  EV_REPAIR_OPTIONS_VERSION);
	if (opts && opts->version == 2 &&
	    opts->time_base != EV_REPAIR_TIME_RELATIVE &&
	    opts->time_base != EV_REPAIR_TIME_RAW &&
	    opts->time_base != EV_REPAIR_TIME_WALL)
		return evi_fail_at(diag, EV_ORIGIN_OPTIONS, EV_EINVAL, 0, 0,
				   "unknown time base %u", opts->time_base);
	if (!(rp = calloc(1, sizeof *rp)))
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	rp->opts = defaults;
	/* A version 1 caller's struct ends before time_base. */
	if (opts)
		memcpy(&rp->opts, opts,
		       opts->version == 1
			       ? offsetof(ev_repair_options, time_base)
			       : sizeof *opts);
	rp->opts.version = EV_REPAIR_OPTIONS_VERSION;
	*out = rp;
	return EV_OK;
}

/* The WALL_CLOCK_TIME of session `session` (1-based) of the log `r`
 * reads, from its start to its end: *epoch, Unix ns at its time 0; the
 * sessions the log holds in *sessions. EV_EFORMAT, with `d` at the event,
 * when it is not a clock reading (ev_wall_clock_epoch); EV_EFORMAT when
 * the session has none; EV_EINVAL when there is no such session; the
 * reader's failure but truncation. */
static int find_epoch(ev_reader *r, unsigned session, int64_t *epoch,
		      unsigned *sessions, ev_diag *d)
{
	int found = 0, rc = ev_reader_read_header(r);
	unsigned n = 0;
	ev_event ev;

	while (rc == EV_OK) {
		n++;
		while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
			int wr;
			if (found || n != session)
				continue;
			wr = ev_wall_clock_epoch(&ev, epoch, d);
			if (wr == EV_EFORMAT) { /* the time cannot be placed */
				*sessions = n;
				d->origin = EV_ORIGIN_OPTIONS;
				return wr;
			}
			found = wr == EV_OK;
		}
		if (rc != EV_END)
			break;
		rc = ev_reader_next_session(r);
	}
	*sessions = n;
	if (rc != EV_END && rc != EV_ETRUNCATED) {
		*d = *ev_reader_diag(r);
		d->origin = EV_ORIGIN_INPUT;
		return rc;
	}
	if (!found && session > n)
		return evi_fail_at(d, EV_ORIGIN_OPTIONS, EV_EINVAL, 0, 0,
				   "there is no session %u: "
				   "the log holds %u session%s", session, n,
				   n == 1 ? "" : "s");
	if (!found)
		return evi_fail_at(d, EV_ORIGIN_OPTIONS, EV_EFORMAT, 0, 0,
				   "session %u has no "
				   "WALL_CLOCK_TIME event, so a wall-clock "
				   "time cannot be placed in it", session);
	return EV_OK;
}

/* Turns max_time, a Unix time (EV_REPAIR_TIME_WALL), into a raw
 * timestamp of the session asked for by its WALL_CLOCK_TIME (posted at
 * the timestamp it names, in the global block, which GHC writes last:
 * so the input is read once first): raw = wall - epoch, held to [0,
 * UINT64_MAX]. Each session has its own clock, so a log of several needs
 * opts.session. */
static int place_wall_time(ev_repair *rp, ev_input *in)
{
	unsigned session = rp->opts.session ? rp->opts.session : 1;
	unsigned sessions = 0;
	uint64_t wall_ns = rp->opts.max_time;
	int64_t epoch = 0;
	evi_input view;
	ev_reader *r;
	int rc = evi_input_prepare(in, NULL, 0, &view, &rp->diag);

	if (rc == EV_OK)
		rc = evi_input_reader(in, 0, &r, &rp->diag);
	if (rc < 0) {
		rp->diag.origin = view.temp_failed ? EV_ORIGIN_TEMP
						   : EV_ORIGIN_INPUT;
		return rc;
	}
	rc = find_epoch(r, session, &epoch, &sessions, &rp->diag);
	ev_reader_free(r);
	if (rc == EV_OK && sessions > 1 && !rp->opts.session)
		rc = evi_fail_at(&rp->diag, EV_ORIGIN_OPTIONS, EV_EINVAL, 0, 0,
				 "needs a session: the log holds %u sessions, "
				 "each with its own clock", sessions);
	if (rc < 0)
		return rc;
	if (epoch >= 0)
		rp->opts.max_time = wall_ns >= (uint64_t)epoch
					    ? wall_ns - (uint64_t)epoch : 0;
	else
		rp->opts.max_time = wall_ns > UINT64_MAX - (0 - (uint64_t)epoch)
					    ? UINT64_MAX
					    : wall_ns + (0 - (uint64_t)epoch);
	rp->opts.time_base = EV_REPAIR_TIME_RAW;
	return EV_OK;
}

void ev_repair_set_progress(ev_repair *rp, ev_progress_fn fn, void *ctx)
{
	rp->progress = fn;
	rp->progress_ctx = ctx;
}

void ev_repair_free(ev_repair *rp)
{
	if (!rp)
		return;
	ev_writer_free(rp->w);
	free(rp);
}

const ev_repair_summary *ev_repair_result(const ev_repair *rp)
{
	return &rp->sum;
}

const ev_diag *ev_repair_diag(const ev_repair *rp)
{
	return &rp->diag;
}

/* ---- failures and notices ---- */

static int fail(ev_repair *rp, int status, uint64_t offset, const char *fmt,
		...) __attribute__((format(printf, 4, 5)));

static int fail(ev_repair *rp, int status, uint64_t offset, const char *fmt,
		...)
{
	va_list ap;

	va_start(ap, fmt);
	evi_vfail(&rp->diag,
		  status == EV_EINVAL ? EV_ORIGIN_OPTIONS : EV_ORIGIN_INPUT, 0,
		  status, offset, rp->sum.events, fmt, ap);
	va_end(ap);
	return status;
}

static int reader_failed(ev_repair *rp, int status)
{
	rp->diag = *ev_reader_diag(rp->r);
	rp->diag.status = status;
	return status;
}

/* A failure of the writer: of its sink, or out of memory. */
static int output_failed(ev_repair *rp, int status)
{
	if (status == EV_ENOMEM)
		return fail(rp, status, 0, "out of memory");
	rp->diag = rp->w ? *ev_writer_diag(rp->w) : *ev_sink_diag(rp->sink);
	rp->diag.origin = EV_ORIGIN_OUTPUT;
	rp->diag.status = status;
	return status;
}

/* Tells the caller about a change; `n` has its kind, offset, length and
 * block filled, the message is formatted here. Sessions that are not
 * written make no notices. */
static void notify(ev_repair *rp, ev_repair_notice *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void notify(ev_repair *rp, ev_repair_notice *n, const char *fmt, ...)
{
	va_list ap;

	if (!rp->writing || !rp->opts.notify)
		return;
	va_start(ap, fmt);
	vsnprintf(rp->message, sizeof rp->message, fmt, ap);
	va_end(ap);
	n->session = rp->session;
	n->message = rp->message;
	rp->opts.notify(rp->opts.notify_ctx, n);
}

static void damaged(ev_repair *rp)
{
	if (rp->writing)
		rp->sum.damaged = 1;
}

/* ---- output ---- */

static void count_event(ev_repair *rp, const ev_event *ev, size_t wire)
{
	rp->sum.events++;
	rp->sum.kept_bytes += wire;
	if (!rp->have_time || ev->time < rp->sum.first_time)
		rp->sum.first_time = ev->time;
	if (!rp->have_time || ev->time > rp->sum.last_time)
		rp->sum.last_time = ev->time;
	rp->have_time = 1;
}

static int cut_by_time(ev_repair *rp, uint64_t time)
{
	return rp->opts.max_time != EV_REPAIR_NO_LIMIT && time >= rp->cutoff;
}

/* An event outside any block: written as it is (the writer keeps the
 * session's header, which says how). */
static int write_loose(ev_repair *rp, const ev_event *ev, size_t wire)
{
	int rc;

	if (cut_by_time(rp, ev->time)) {
		rp->sum.cut_events++;
		return EV_OK;
	}
	if ((rc = ev_writer_write(rp->w, ev)) < 0)
		return output_failed(rp, rc);
	count_event(rp, ev, wire);
	return EV_OK;
}

/* ---- the held block ---- */

static const char *cap_text(uint16_t cap, char *buf, size_t len)
{
	if (cap == EV_NO_CAP)
		return "the global block";
	snprintf(buf, len, "block of cap %u", cap);
	return buf;
}

/* The times of a rewritten marker: a later piece of a split block starts
 * at its earliest event, and the end time is the latest event's (at
 * least the start). Its size is what is held. */
static uint64_t new_start(const held_block *h)
{
	return h->piece ? h->min_time : h->declared.start_time;
}

static uint64_t new_end(const held_block *h)
{
	uint64_t start = new_start(h);

	return h->events && h->max_time > start ? h->max_time : start;
}

static void report_fixed(ev_repair *rp, const held_block *h)
{
	ev_repair_notice n = { EV_REPAIR_BLOCK_FIXED, 0, h->declared.offset, 0,
			       h->declared, 0, 0, NULL };
	char cap[32];

	n.new_size = (uint32_t)evi_block_bytes(rp->held);
	n.new_end_time = new_end(h);
	notify(rp, &n, "%s cut from %u to %u bytes, end time %llu ns "
	       "(declared %llu)",
	       cap_text(h->declared.cap, cap, sizeof cap), h->declared.size,
	       n.new_size, (unsigned long long)n.new_end_time,
	       (unsigned long long)h->declared.end_time);
}

/* Writes what is held. `at_data_end`: a genuine data-end marker follows
 * the last event held, so a block whose size covers it (GHC >= 9.2) is
 * complete. A block that lost all its events to max_time and was opened
 * at or after the cut is dropped. */
static int write_held(ev_repair *rp, int at_data_end)
{
	held_block *h = &rp->hold;
	size_t len;
	int exact, rc;

	if (!h->open)
		return EV_OK;
	h->open = 0;
	len = evi_block_bytes(rp->held);
	if (h->events == 0 &&
	    (h->piece || cut_by_time(rp, h->declared.start_time)))
		return EV_OK;
	exact = !h->changed && !h->piece &&
		(len == h->declared.size ||
		 (at_data_end && len + 2 == h->declared.size));
	if (!exact) {
		rp->sum.blocks_fixed++;
		if (!h->piece && !h->splitting)
			report_fixed(rp, h);
	}
	rc = evi_block_write(rp->held, !exact, new_start(h), new_end(h));
	if (rc < 0)
		return output_failed(rp, rc);
	rp->sum.blocks++;
	if (!h->piece)
		rp->sum.kept_bytes += h->marker_len;
	return EV_OK;
}

/* A block larger than the hold buffer (not one GHC writes) is written in
 * pieces: this one goes out and the next starts with its marker again
 * (the writer keeps it held), restamped when it is written. */
static int split_held(ev_repair *rp)
{
	held_block *h = &rp->hold;
	ev_repair_notice n = { EV_REPAIR_BLOCK_SPLIT, 0, h->declared.offset, 0,
			       h->declared, 0, 0, NULL };
	char cap[32];
	int rc;

	if (!h->piece) {
		notify(rp, &n, "%s declares %u bytes, more than %u: written as "
		       "blocks of at most %u bytes",
		       cap_text(h->declared.cap, cap, sizeof cap),
		       h->declared.size, HOLD_MAX, HOLD_MAX);
		damaged(rp);
	}
	h->changed = 1;
	h->splitting = 1;
	if ((rc = write_held(rp, 0)) < 0)
		return rc;
	h->open = 1;
	h->piece = 1;
	h->events = 0;
	h->changed = 0;
	return EV_OK;
}

/* How far an event may step back, as the validator has it by default:
 * GC_END and GC_START are stamped early (doc/format.md section 3), nothing
 * else. */
static uint64_t step_back_allowed(uint16_t type)
{
	return type == EV_GC_END || type == EV_GC_START
		       ? EV_VALIDATE_GC_END_TOLERANCE_NS : 0;
}

/* Why the time of `ev` is impossible in the held block, or NULL: after
 * the block's declared end (the RTS stamps the end when it flushes the
 * block), before its start, or before an event held before it, beyond
 * what GHC's early stamps explain (doc/format.md sections 2 and 3). Only the
 * bytes of a damaged event say that: 40 bytes of garbage over an event's
 * timestamp leave its type and length readable. */
static const char *impossible_time(const held_block *h, const ev_event *ev)
{
	uint64_t back = step_back_allowed(ev->type);

	if (ev->time > h->declared.end_time)
		return "after the end time its block declares";
	if (ev->time + back < h->declared.start_time)
		return "before its block starts";
	if (h->events && ev->time + back < h->max_time)
		return "before an earlier event of its block";
	return NULL;
}

/* Drops a held block's event whose time cannot be (EV_REPAIR_RESYNC). */
static void drop_event(ev_repair *rp, const ev_event *ev, size_t wire,
		       const char *why)
{
	held_block *h = &rp->hold;
	ev_repair_notice n = { EV_REPAIR_EVENT_DROPPED, 0, ev->offset, wire,
			       h->declared, 0, 0, NULL };
	char cap[32];

	h->changed = 1;
	damaged(rp);
	if (rp->writing)
		rp->sum.dropped_events++;
	notify(rp, &n, "dropped an event of type %u stamped %llu ns, %s "
	       "(%s at offset %llu: %llu to %llu ns): damage", ev->type,
	       (unsigned long long)ev->time, why,
	       cap_text(h->declared.cap, cap, sizeof cap),
	       (unsigned long long)h->declared.offset,
	       (unsigned long long)h->declared.start_time,
	       (unsigned long long)h->declared.end_time);
}

static int hold_event(ev_repair *rp, const ev_event *ev, size_t wire)
{
	held_block *h = &rp->hold;
	evi_wire_event out = evi_wire_event_of(ev, wire - ev->size ==
							EVI_VAR_HEADER);
	const char *why;
	int rc;

	if ((rp->opts.flags & EV_REPAIR_RESYNC) &&
	    (why = impossible_time(h, ev))) {
		drop_event(rp, ev, wire, why);
		return EV_OK;
	}
	if (cut_by_time(rp, ev->time)) {
		h->changed = 1;
		rp->sum.cut_events++;
		return EV_OK;
	}
	if (!evi_block_fits(rp->held, wire) && (rc = split_held(rp)) < 0)
		return rc;
	if (!evi_block_add(rp->held, &out))
		return output_failed(rp, ev_writer_diag(rp->w)->status);
	if (!h->events || ev->time < h->min_time)
		h->min_time = ev->time;
	if (!h->events || ev->time > h->max_time)
		h->max_time = ev->time;
	h->events++;
	count_event(rp, ev, wire);
	return EV_OK;
}

/* A BLOCK_MARKER (doc/format.md section 2: u32 size including the marker,
 * u64 end time, u16 cap) starts holding a block. */
static int open_held(ev_repair *rp, const ev_event *ev, size_t wire)
{
	held_block *h = &rp->hold;

	evi_wire_event marker = evi_wire_event_of(ev, wire - ev->size ==
							   EVI_VAR_HEADER);

	if (!rp->held &&
	    !(rp->held = evi_writer_new_block(rp->w, HOLD_MAX)))
		return fail(rp, EV_ENOMEM, ev->offset, "out of memory");
	evi_block_begin_marker(rp->held, &marker);
	memset(&h->declared, 0, sizeof h->declared);
	h->declared.offset = ev->offset;
	h->declared.size = ev_load32(ev->payload);
	h->declared.end_time = ev_load64(ev->payload + 4);
	h->declared.cap = ev_load16(ev->payload + 12);
	h->declared.start_time = ev->time;
	h->end = ev->offset + h->declared.size;
	h->marker_len = wire;
	h->events = 0;
	h->changed = 0;
	h->splitting = 0;
	h->piece = 0;
	h->open = 1;
	return h->declared.size == wire ? write_held(rp, 0) : EV_OK;
}

/* ---- damage ---- */

/* Skips to the next plausible block marker (ev_reader_resync). EV_OK:
 * reading goes on there; ENDED_INPUT: nothing plausible followed. The
 * bytes skipped start at what the reader returned last (`why` says what
 * was wrong there). */
static int resync(ev_repair *rp, const char *why)
{
	ev_repair_notice n = { EV_REPAIR_SKIPPED, 0, 0, 0, { 0, 0, 0, 0, 0 },
			       0, 0, NULL };
	uint64_t from, len;
	int rc = ev_reader_resync(rp->r, &from, &len);

	if (rc != EV_OK && rc != EV_ETRUNCATED)
		return rc == EV_EINVAL ? reader_failed(rp, EV_EFORMAT)
				       : reader_failed(rp, rc);
	n.offset = from;
	n.length = len;
	if (rp->writing) {
		rp->sum.skipped_bytes += len;
		rp->sum.skipped_ranges++;
	}
	damaged(rp);
	if (rc == EV_OK)
		notify(rp, &n, "skipped %llu damaged bytes (%s) up to the block "
		       "marker at offset %llu", (unsigned long long)len, why,
		       (unsigned long long)(from + len));
	else
		notify(rp, &n, "skipped %llu damaged bytes (%s) up to the end of "
		       "the input", (unsigned long long)len, why);
	return rc == EV_OK ? EV_OK : ENDED_INPUT;
}

/* Something inconsistent at `offset`: resynchronise when asked to, else
 * fail with the message. */
static int damage(ev_repair *rp, uint64_t offset, const char *why)
{
	if (!(rp->opts.flags & EV_REPAIR_RESYNC))
		return fail(rp, EV_EFORMAT, offset, "%s", why);
	return resync(rp, why);
}

/* ---- events ---- */

static int take_marker(ev_repair *rp, const ev_event *ev, size_t wire)
{
	held_block *h = &rp->hold;
	char why[160];
	int rc;

	if (h->open) {
		/* A marker before the held block's declared end: that size
		 * was wrong (the block was cut, or damage came before). */
		damaged(rp);
		if ((rc = write_held(rp, 0)) < 0)
			return rc;
	}
	if (ev_load32(ev->payload) < wire) {
		snprintf(why, sizeof why, "the block marker declares %u bytes, "
			 "less than the marker itself", ev_load32(ev->payload));
		return damage(rp, ev->offset, why);
	}
	return open_held(rp, ev, wire);
}

/* One complete event of a session being written. */
static int take_event(ev_repair *rp, const ev_event *ev, uint64_t end)
{
	held_block *h = &rp->hold;
	size_t wire = (size_t)(end - ev->offset);
	char why[200];
	int rc;

	if (ev->type == EV_BLOCK_MARKER && ev->size >= EVI_BLOCK_PAYLOAD)
		return take_marker(rp, ev, wire);
	if (!h->open)
		return write_loose(rp, ev, wire);
	if (end > h->end) {
		snprintf(why, sizeof why, "an event of type %u at offset %llu "
			 "runs past the end of its block (offset %llu, %u bytes, "
			 "ending at %llu)", ev->type,
			 (unsigned long long)ev->offset,
			 (unsigned long long)h->declared.offset,
			 h->declared.size, (unsigned long long)h->end);
		return damage(rp, ev->offset, why);
	}
	if ((rc = hold_event(rp, ev, wire)) < 0)
		return rc;
	return end == h->end ? write_held(rp, 0) : EV_OK;
}

/* The input ends (EV_ETRUNCATED): the rest is an incomplete tail, unless
 * it is damage. A log cut inside a block ends inside that block, so an
 * unfinished event with bytes past the held block's end runs past it: that
 * is damage. With EV_REPAIR_RESYNC, a tail in which a plausible block
 * marker follows was damage too (a garbage length made an event seem to
 * run past the end of the input). */
static int input_ended(ev_repair *rp)
{
	ev_repair_notice n = { EV_REPAIR_TRUNCATED, 0, 0, 0, { 0, 0, 0, 0, 0 },
			       0, 0, NULL };
	char why[sizeof rp->diag.message];
	uint64_t from, len;
	int rc;

	n.offset = ev_reader_offset(rp->r);
	n.length = ev_reader_pending(rp->r);
	if (rp->writing && rp->hold.open &&
	    n.offset + n.length > rp->hold.end) {
		snprintf(why, sizeof why, "an event at offset %llu runs past "
			 "the end of its block (offset %llu, %u bytes, ending at "
			 "%llu)", (unsigned long long)n.offset,
			 (unsigned long long)rp->hold.declared.offset,
			 rp->hold.declared.size,
			 (unsigned long long)rp->hold.end);
		return damage(rp, n.offset, why);
	}
	if (n.length && (rp->opts.flags & EV_REPAIR_RESYNC)) {
		rc = ev_reader_resync(rp->r, &from, &len);
		if (rc == EV_OK) {
			rp->sum.skipped_bytes += rp->writing ? len : 0;
			rp->sum.skipped_ranges += rp->writing ? 1 : 0;
			damaged(rp);
			n.kind = EV_REPAIR_SKIPPED;
			n.offset = from;
			n.length = len;
			notify(rp, &n, "skipped %llu damaged bytes (an event "
			       "that seemed to run past the end of the input) up "
			       "to the block marker at offset %llu",
			       (unsigned long long)len,
			       (unsigned long long)(from + len));
			return EV_OK;
		}
		if (rc != EV_ETRUNCATED)
			return reader_failed(rp, rc);
	}
	damaged(rp);
	if (rp->writing)
		rp->sum.tail_bytes += n.length;
	snprintf(why, sizeof why, "%s", ev_reader_diag(rp->r)->message);
	if (n.length)
		notify(rp, &n, "%s; dropped the %llu bytes after the last "
		       "complete event", why, (unsigned long long)n.length);
	else
		notify(rp, &n, "%s", why);
	return ENDED_INPUT;
}

/* After the data-end marker: is another session next, the end of the
 * input, or (with EV_REPAIR_RESYNC) garbage and more of this session? */
static int after_data_end(ev_repair *rp)
{
	ev_repair_notice n = { EV_REPAIR_HEADER_DROPPED, 0, 0, 0,
			       { 0, 0, 0, 0, 0 }, 0, 0, NULL };
	uint64_t from, len;
	int rc;

	rp->data_end = ev_reader_offset(rp->r) - 2;
	rp->stop_at = rp->opts.max_bytes;
	if (rp->data_end + 2 > rp->opts.max_bytes)
		return ENDED_LIMIT;
	rp->stop_at = rp->data_end + 2;
	if (rp->opts.session == rp->session)
		return ENDED_STOP;
	rc = ev_reader_next_session(rp->r);
	if (rc == EV_OK)
		return ENDED_NEXT;
	if (rc == EV_END)
		return ENDED_LAST;
	if (rc == EV_ETRUNCATED) {
		n.offset = rp->data_end + 2;
		n.length = ev_reader_pending(rp->r);
		damaged(rp);
		if (rp->writing)
			rp->sum.tail_bytes += n.length;
		notify(rp, &n, "the input ends inside the header of another "
		       "session (%llu bytes); dropped them",
		       (unsigned long long)n.length);
		return ENDED_LAST;
	}
	if (rc != EV_EFORMAT || !(rp->opts.flags & EV_REPAIR_RESYNC))
		return reader_failed(rp, rc);
	/* Resynchronising from the data end: a marker further on means the
	 * 0xffff was garbage inside this session; none means it was the end
	 * and only junk follows it. */
	rc = ev_reader_resync(rp->r, &from, &len);
	if (rc != EV_OK && rc != EV_ETRUNCATED)
		return reader_failed(rp, rc);
	n.kind = EV_REPAIR_SKIPPED;
	damaged(rp);
	if (rc == EV_OK) {
		n.offset = from;
		n.length = len;
		notify(rp, &n, "skipped %llu damaged bytes (a data-end marker "
		       "followed by garbage) up to the block marker at offset "
		       "%llu", (unsigned long long)len,
		       (unsigned long long)(from + len));
	} else {
		n.offset = rp->data_end + 2;
		n.length = from + len - n.offset;
		notify(rp, &n, "skipped %llu bytes of garbage after the "
		       "data-end marker, up to the end of the input",
		       (unsigned long long)n.length);
	}
	if (rp->writing) {
		rp->sum.skipped_bytes += n.length;
		rp->sum.skipped_ranges++;
	}
	return rc == EV_OK ? EV_OK : ENDED_LAST;
}

/* Reads the events of the current session up to its end; returns how it
 * ended (enum session_end) or an error. */
static int read_session(ev_repair *rp)
{
	ev_event ev;
	int rc;

	for (;;) {
		uint64_t end;
		rp->stop_at = ev_reader_offset(rp->r);
		if (rp->writing && rp->sum.events >= rp->opts.max_events)
			return ENDED_LIMIT;
		rc = ev_reader_next(rp->r, &ev);
		end = ev_reader_offset(rp->r);
		if (rc == EV_OK && end > rp->opts.max_bytes) {
			rp->stop_at = rp->opts.max_bytes;
			return ENDED_LIMIT;
		}
		if (rc == EV_OK && !rp->have_first) {
			rp->have_first = 1;
			if (rp->opts.time_base == EV_REPAIR_TIME_RAW)
				rp->cutoff = rp->opts.max_time;
			else
				rp->cutoff =
					ev.time > UINT64_MAX - rp->opts.max_time
						? UINT64_MAX
						: ev.time + rp->opts.max_time;
		}
		if (rc == EV_OK)
			rc = rp->writing ? take_event(rp, &ev, end) : EV_OK;
		else if (rc == EV_END)
			rc = after_data_end(rp);
		else if (rc == EV_ETRUNCATED)
			rc = input_ended(rp);
		else if (rc == EV_EFORMAT &&
			 (rp->opts.flags & EV_REPAIR_RESYNC)) {
			char why[sizeof rp->diag.message];
			snprintf(why, sizeof why, "%s",
				 ev_reader_diag(rp->r)->message);
			rc = resync(rp, why);
		} else {
			return reader_failed(rp, rc);
		}
		if (rc != EV_OK)
			return rc;
	}
}

/* ---- sessions ---- */

/* The session's header, as it was read: the writer (PRESERVE) copies it
 * as it is, and writes the events outside blocks under it. */
static int write_header(ev_repair *rp)
{
	const ev_header *header = ev_reader_header(rp->r);
	int rc = rp->w ? ev_writer_next_session(rp->w, header)
		       : ev_writer_open(&rp->w, rp->sink, header, NULL, NULL);

	if (rc < 0)
		return output_failed(rp, rc);
	rp->sum.sessions++;
	rp->sum.kept_bytes += evi_header_encoded_size(header);
	return EV_OK;
}

/* What is held, then the data-end marker (2 bytes, counted as kept when
 * the input had one). */
static int end_session(ev_repair *rp, int at_data_end)
{
	int rc = write_held(rp, at_data_end);

	if (rc == EV_OK && (rc = ev_writer_finish(rp->w)) < 0)
		return output_failed(rp, rc);
	if (rc == EV_OK && at_data_end)
		rp->sum.kept_bytes += 2;
	return rc;
}

static int first_header(ev_repair *rp)
{
	int rc = ev_reader_read_header(rp->r);
	const ev_diag *d = ev_reader_diag(rp->r);

	if (rc == EV_ETRUNCATED)
		return fail(rp, rc, d->offset, "%s: there are no events to "
			    "recover", d->message);
	if (rc < 0)
		return reader_failed(rp, rc);
	if (ev_reader_offset(rp->r) > rp->opts.max_bytes)
		return fail(rp, EV_EINVAL, rp->opts.max_bytes,
			    "a cut at byte %llu falls inside the header, which "
			    "ends at byte %llu",
			    (unsigned long long)rp->opts.max_bytes,
			    (unsigned long long)ev_reader_offset(rp->r));
	return EV_OK;
}

static int run_sessions(ev_repair *rp)
{
	for (rp->session = 1;; rp->session++) {
		int how, rc;
		rp->writing = rp->opts.session == 0 ||
			      rp->opts.session == rp->session;
		rp->have_first = 0;
		if (rp->writing && (rc = write_header(rp)) < 0)
			return rc;
		how = read_session(rp);
		if (how < 0)
			return how;
		if (rp->writing &&
		    (rc = end_session(rp, how == ENDED_NEXT ||
						  how == ENDED_LAST ||
						  how == ENDED_STOP)) < 0)
			return rc;
		if (how == ENDED_LIMIT || how == ENDED_STOP)
			rp->sum.stopped_early = 1;
		if (how != ENDED_NEXT)
			return EV_OK;
		if (ev_reader_offset(rp->r) > rp->opts.max_bytes) {
			rp->sum.stopped_early = 1;
			rp->stop_at = rp->opts.max_bytes;
			return EV_OK;
		}
	}
}

/* The repair proper, of the log `r` reads. */
static int repair_log(ev_repair *rp, ev_reader *r, ev_sink *sink)
{
	uint64_t written = ev_sink_bytes(sink);
	int rc;

	rp->r = r;
	rp->sink = sink;
	rc = first_header(rp);
	if (rc == EV_OK)
		rc = run_sessions(rp);
	if (rc == EV_OK && rp->opts.session > rp->session)
		rc = fail(rp, EV_EINVAL, ev_reader_offset(r),
			  "there is no session %u: the log holds %u session%s",
			  rp->opts.session, rp->session,
			  rp->session == 1 ? "" : "s");
	rp->sum.input_bytes = ev_reader_offset(r) + ev_reader_pending(r);
	if (rp->sum.stopped_early)
		rp->sum.input_bytes = rp->stop_at;
	rp->sum.output_bytes = ev_sink_bytes(sink) - written;
	rp->r = NULL;
	return rc;
}

int ev_repair_run(ev_repair *rp, ev_input *in, ev_sink *sink)
{
	ev_reader *r = NULL;
	int rc;

	if (rp->ran)
		return fail(rp, EV_EINVAL, 0, "a repair runs once");
	rp->ran = 1;
	if (rp->opts.time_base == EV_REPAIR_TIME_WALL &&
	    (rc = place_wall_time(rp, in)) < 0)
		return rc;
	rp->sum.cut_time = rp->opts.max_time;
	if ((rc = evi_input_reader(in, 0, &r, &rp->diag)) < 0) {
		rp->diag.origin = EV_ORIGIN_INPUT;
		if (!rp->diag.message[0] || rc != rp->diag.status)
			fail(rp, rc, 0, "cannot open: %s", ev_strerror(rc));
		return rc;
	}
	evi_reader_set_progress(r, rp->progress, rp->progress_ctx);
	rc = repair_log(rp, r, sink);
	ev_reader_free(r);
	return rc;
}
