/*
 * The archive writer: one gzip member per chunk of the log, compressed in
 * parallel with libdeflate, each member's header holding the log's
 * xxh3-64 and the member's place in the log (include/evtool/archive.h
 * describes the format).
 *
 * The caller's thread fills chunks, queues them, and writes compressed
 * chunks to the sink strictly in order; workers only deflate. Chunks live
 * in a ring of 2 per thread (the threading layer's, lib/common/pool.h),
 * so memory is bounded however long the log: when the ring is full, the
 * caller waits for the oldest chunk and writes it out before filling its
 * slot again. With one thread there are no workers: chunks are
 * compressed in the caller's thread, into the same bytes.
 *
 * A spooled writer (open_spooled, for the archive sink) learns the digest
 * only at the end: its members go to an unnamed temporary file with a
 * zero digest, and finishing copies them to the target, each header with
 * the digest put in, into the bytes an unspooled writer would write.
 *
 * The archive sink (ev_sink_open_archive) is here too, a staged sink of
 * lib/io/sink.c: calls go one way, this file -> lib/format (sinks);
 * the sink reaches the writer only through the evi_sink_stage pointers
 * given here.
 */
#include "archive_internal.h"

#include <errno.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "gzip.h"
#include "internal.h"
#include "pool.h"
#include "tempfile.h"

#define MAX_DEFAULT_THREADS 8u
#define MAX_CHUNK (256u * 1024u * 1024u)

/* libdeflate's level for each of evtool's (gzip's) levels 1-9: the
 * fastest whose archives of eventlogs are no larger than `gzip -N`'s.
 * libdeflate's levels compress smaller than zlib's of the same number,
 * and its level 5 (the first with lazy matching) is the first smaller
 * than `gzip -5` and `gzip -6` (on the benchmark log: 23.3% of the log,
 * `gzip -6` 25.1%, libdeflate 4 28.7%); 8 and 9 take libdeflate's 7 and
 * 8, as its 9 is three times slower than its 8 for 0.04% less. */
static const int libdeflate_level[10] = { 0, 1, 2, 3, 4, 5, 5, 6, 7, 8 };

/* One slot of the ring: the caller's, but from evi_ring_submit to
 * evi_ring_collect, when it is a worker's. */
typedef struct chunk {
	int last;       /* the log's last chunk */
	uint8_t *in;    /* chunk_size bytes of log */
	size_t in_len;
	uint8_t *out;   /* its raw deflate data */
	size_t out_len;
	size_t out_cap;
	uint32_t crc;   /* CRC-32 of in[0, in_len) */
} chunk;

struct evi_archive_writer {
	ev_sink *sink;     /* where members go */
	ev_sink *target;   /* spooled: where the archive goes at the end */
	int spool_fd;      /* spooled: the unnamed file `sink` writes to */
	uint64_t *members; /* spooled: each member's offset in the spool */
	size_t n_members;
	size_t members_cap;
	ev_diag diag;
	int status;     /* the first error; every later call returns it */
	int finished;
	int level;
	size_t chunk_size;
	uint64_t digest;   /* as declared at open; spooled: 0, a placeholder */
	XXH3_state_t *hash; /* of the bytes actually written */
	uint64_t bytes;
	uint32_t mtime;

	chunk *chunks;     /* the ring's slots; chunks[evi_ring_slot] fills */
	unsigned ring_size;
	evi_ring *ring;    /* the compressing workers */
	uint64_t written;  /* chunks written to the sink */

	/* One compressor per worker (worker 0: the caller's, with no
	 * workers), each made and used by its worker only. */
	struct libdeflate_compressor **compressors;
	unsigned n_compressors;
};

unsigned ev_archive_default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > (long)MAX_DEFAULT_THREADS ? MAX_DEFAULT_THREADS
					     : (unsigned)n;
}

static int fail(evi_archive_writer *w, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(evi_archive_writer *w, int status, const char *fmt, ...)
{
	va_list ap;

	if (w->status < 0)
		return w->status;
	w->status = status;
	/* EV_EINVAL: the input's bytes do not match its digest. */
	va_start(ap, fmt);
	evi_vfail(&w->diag,
		  status == EV_EINVAL ? EV_ORIGIN_INPUT : EV_ORIGIN_OUTPUT, 0,
		  status, w->bytes, 0, fmt, ap);
	va_end(ap);
	return status;
}

static int sink_failed(evi_archive_writer *w, int status)
{
	return fail(w, status, "%s", ev_sink_diag(w->sink)->message);
}

/* ---- compressing one chunk (any thread) ---- */

static struct libdeflate_compressor *new_compressor(int level)
{
	return libdeflate_alloc_compressor(libdeflate_level[level]);
}

/* The chunk as a whole raw deflate stream, and its CRC-32. */
static int deflate_chunk(struct libdeflate_compressor *z, chunk *c)
{
	c->out_len = libdeflate_deflate_compress(z, c->in, c->in_len, c->out,
						 c->out_cap);
	if (c->out_len == 0)
		return EV_EINVAL; /* the buffer is the bound: cannot happen */
	c->crc = (uint32_t)libdeflate_crc32(0, c->in, c->in_len);
	return EV_OK;
}

/* The workers' job: compresses the chunk of `slot` with the worker's
 * own compressor. */
static int compress_slot(void *ctx, unsigned slot, unsigned worker)
{
	evi_archive_writer *w = ctx;
	struct libdeflate_compressor **z = &w->compressors[worker];

	if (!*z && !(*z = new_compressor(w->level)))
		return EV_ENOMEM;
	return deflate_chunk(*z, &w->chunks[slot]);
}

/* ---- the caller's side of the ring ---- */

static chunk *filling(evi_archive_writer *w)
{
	return &w->chunks[evi_ring_slot(w->ring)];
}

static int allocate_chunk(evi_archive_writer *w, chunk *c)
{
	if (c->in)
		return EV_OK;
	/* libdeflate's bound for any compressor and level. */
	c->out_cap = libdeflate_deflate_compress_bound(NULL, w->chunk_size);
	c->in = malloc(w->chunk_size);
	c->out = malloc(c->out_cap);
	return c->in && c->out ? EV_OK : EV_ENOMEM;
}

/* Where a member's header holds the log's digest. */
static void store_digest(uint8_t *h, uint64_t digest)
{
	ev_store64(h + EVI_ARCHIVE_HEADER - 8u, digest);
}

/* A member's gzip header: a deflate member with one extra subfield, 'E'
 * 'V': the member's place in the log (EV_ARCHIVE_KIND_*) and the log's
 * xxh3-64 (big-endian, as the eventlog's own integers). */
static void encode_header(uint8_t *h, uint64_t digest, int level,
			  uint32_t mtime, int kind)
{
	h[0] = EVI_GZIP_ID1;
	h[1] = EVI_GZIP_ID2;
	h[2] = EVI_GZIP_DEFLATE;
	h[3] = EVI_GZIP_FEXTRA;
	evi_store_le32(h + 4, mtime);
	h[8] = level == 9 ? EVI_GZIP_XFL_BEST
			  : level == 1 ? EVI_GZIP_XFL_FAST : 0;
	h[9] = EVI_GZIP_OS_UNIX;
	evi_store_le16(h + 10, EVI_ARCHIVE_SUBFIELD);
	h[12] = EV_ARCHIVE_SUBFIELD_ID1;
	h[13] = EV_ARCHIVE_SUBFIELD_ID2;
	evi_store_le16(h + 14, EVI_ARCHIVE_SUBFIELD_DATA);
	h[16] = (uint8_t)kind;
	store_digest(h, digest);
}

static int member_kind(const evi_archive_writer *w, const chunk *c)
{
	if (w->written == 0)
		return c->last ? EV_ARCHIVE_KIND_WHOLE : EV_ARCHIVE_KIND_FIRST;
	return c->last ? EV_ARCHIVE_KIND_LAST : EV_ARCHIVE_KIND_MIDDLE;
}

/* A spooled writer remembers where each member starts in the spool, to
 * put the digest in its header at the end: 8 bytes per chunk. */
static int note_member(evi_archive_writer *w)
{
	if (evi_grow(&w->members, &w->members_cap, w->n_members + 1,
		     sizeof *w->members) < 0)
		return fail(w, EV_ENOMEM, "out of memory");
	w->members[w->n_members++] = ev_sink_bytes(w->sink);
	return EV_OK;
}

/* Writes a compressed chunk as one gzip member. */
static int write_member(evi_archive_writer *w, const chunk *c)
{
	uint8_t header[EVI_ARCHIVE_HEADER];
	uint8_t trailer[EVI_GZIP_TRAILER];
	int rc;

	if (w->target && (rc = note_member(w)) < 0)
		return rc;
	encode_header(header, w->digest, w->level, w->mtime,
		      member_kind(w, c));
	evi_store_le32(trailer, c->crc);
	evi_store_le32(trailer + 4, (uint32_t)c->in_len);
	if ((rc = ev_sink_write(w->sink, header, sizeof header)) < 0 ||
	    (rc = ev_sink_write(w->sink, c->out, c->out_len)) < 0 ||
	    (rc = ev_sink_write(w->sink, trailer, sizeof trailer)) < 0)
		return sink_failed(w, rc);
	return EV_OK;
}

/* Waits for the oldest chunk in flight and appends it to the sink. */
static int write_oldest(evi_archive_writer *w)
{
	unsigned slot;
	int rc = evi_ring_collect(w->ring, &slot);

	if (rc < 0)
		return fail(w, rc, "compressing failed: %s", ev_strerror(rc));
	if ((rc = write_member(w, &w->chunks[slot])) < 0)
		return rc;
	w->written++;
	return EV_OK;
}

/* Makes the next slot of the ring the filling chunk, writing out what it
 * held. */
static int start_chunk(evi_archive_writer *w)
{
	chunk *c;
	int rc;

	while (evi_ring_pending(w->ring) == w->ring_size)
		if ((rc = write_oldest(w)) < 0)
			return rc;
	c = filling(w);
	if (allocate_chunk(w, c) < 0)
		return fail(w, EV_ENOMEM, "out of memory");
	c->in_len = 0;
	return EV_OK;
}

/* Hands the filling chunk to a worker (or compresses it here). */
static int submit(evi_archive_writer *w, int last)
{
	filling(w)->last = last;
	evi_ring_submit(w->ring);
	return last ? EV_OK : start_chunk(w);
}

/* ---- the public functions ---- */

static int check_options(const ev_archive_options *o, int *level,
			 unsigned *threads, size_t *chunk_size)
{
	if (o->version != EV_ARCHIVE_OPTIONS_VERSION)
		return EV_EINVAL;
	*level = o->level ? o->level : EV_ARCHIVE_DEFAULT_LEVEL;
	*threads = o->threads ? o->threads : ev_archive_default_threads();
	*chunk_size = o->chunk_size ? o->chunk_size : EV_ARCHIVE_DEFAULT_CHUNK;
	if (*level < 1 || *level > 9 || *threads > EV_ARCHIVE_MAX_THREADS ||
	    *chunk_size < EV_ARCHIVE_MIN_CHUNK || *chunk_size > MAX_CHUNK)
		return EV_EINVAL;
	return EV_OK;
}

static int setup(evi_archive_writer *w, const ev_archive_options *opts)
{
	unsigned threads;
	int rc = check_options(opts, &w->level, &threads, &w->chunk_size);

	if (rc < 0)
		return rc;
	if (threads < 2)
		threads = 0; /* no workers: compressed at submit */
	w->ring_size = threads ? 2 * threads : 1;
	w->n_compressors = threads ? threads : 1;
	w->chunks = calloc(w->ring_size, sizeof *w->chunks);
	w->compressors = calloc(w->n_compressors, sizeof *w->compressors);
	w->hash = XXH3_createState();
	if (!w->chunks || !w->compressors || !w->hash ||
	    XXH3_64bits_reset(w->hash) != XXH_OK)
		return EV_ENOMEM;
	w->mtime = opts->mtime;
	if ((rc = evi_ring_new(&w->ring, w->ring_size, threads, compress_slot,
			       w)) < 0)
		return rc;
	return start_chunk(w);
}

/* A constructor's failure in setup(), into the caller's `diag`. */
static int setup_failed(ev_diag *diag, int rc)
{
	if (rc == EV_EINVAL)
		return evi_fail_at(diag, EV_ORIGIN_OPTIONS, rc, 0, 0,
				   "bad archive options");
	return evi_new_failed(diag, NULL, rc);
}

/* Sets `w` up from `opts` (NULL: the defaults) into *out, or frees it. */
static int set_up(evi_archive_writer *w, const ev_archive_options *opts,
		  evi_archive_writer **out, ev_diag *diag)
{
	static const ev_archive_options defaults = EV_ARCHIVE_OPTIONS_INIT;
	int rc = setup(w, opts ? opts : &defaults);

	if (rc < 0) {
		evi_archive_writer_free(w);
		return setup_failed(diag, rc);
	}
	*out = w;
	return EV_OK;
}

int evi_archive_writer_open(evi_archive_writer **out, ev_sink *sink,
			   uint64_t digest, const ev_archive_options *opts,
			   ev_diag *diag)
{
	evi_archive_writer *w = calloc(1, sizeof *w);

	*out = NULL;
	if (!w)
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	w->sink = sink;
	w->spool_fd = -1;
	w->digest = digest;
	return set_up(w, opts, out, diag);
}

/* An archive writer that does not know the log's digest beforehand: the
 * compressed members wait in an unnamed temporary file in `tmpdir` (NULL:
 * $TMPDIR, else /tmp) until evi_archive_writer_finish, which copies them
 * to `target` (which stays the caller's), each member's header holding
 * the digest of the bytes written. */
static int open_spooled(evi_archive_writer **out, ev_sink *target,
			const char *tmpdir, const ev_archive_options *opts,
			ev_diag *diag)
{
	evi_archive_writer *w = calloc(1, sizeof *w);
	int rc;

	*out = NULL;
	if (!w)
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	w->target = target;
	if ((rc = evi_temp_open(tmpdir, &w->spool_fd, diag)) < 0) {
		free(w);
		return rc;
	}
	if ((rc = ev_sink_open_fd(&w->sink, w->spool_fd, "<spool>",
				  NULL)) < 0) {
		evi_archive_writer_free(w);
		return setup_failed(diag, rc);
	}
	return set_up(w, opts, out, diag);
}

int evi_archive_writer_write(evi_archive_writer *w, const void *data,
			    size_t len)
{
	const uint8_t *p = data;

	if (w->status < 0)
		return w->status;
	if (w->finished)
		return fail(w, EV_EINVAL, "the archive is already finished");
	XXH3_64bits_update(w->hash, data, len);
	w->bytes += len;
	while (len > 0) {
		chunk *c = filling(w);
		size_t room = w->chunk_size - c->in_len;
		int rc;
		/* A full chunk is queued only when more bytes come: only
		 * then is it known not to be the last (its member's kind),
		 * and no member is empty (but the one of an empty log). */
		if (room == 0) {
			if ((rc = submit(w, 0)) < 0)
				return rc;
			continue;
		}
		if (room > len)
			room = len;
		memcpy(c->in + c->in_len, p, room);
		c->in_len += room;
		p += room;
		len -= room;
	}
	return EV_OK;
}

static int check_digest(evi_archive_writer *w)
{
	uint64_t got = XXH3_64bits_digest(w->hash);

	if (got != w->digest)
		return fail(w, EV_EINVAL,
			    "the %llu bytes archived have xxh3-64 %016llx, not "
			    "%016llx as declared: the input changed while it "
			    "was being archived",
			    (unsigned long long)w->bytes,
			    (unsigned long long)got,
			    (unsigned long long)w->digest);
	return EV_OK;
}

/* Copies the spool's bytes [from, to) to the target. */
static int copy_spool(evi_archive_writer *w, uint64_t from, uint64_t to)
{
	uint8_t buf[64 * 1024];
	ev_diag d;
	size_t got;
	int rc;

	while (from < to) {
		size_t want = to - from < sizeof buf ? (size_t)(to - from)
						     : sizeof buf;
		if ((rc = evi_pread_full(w->spool_fd, buf, want, from, &got,
					 &d)) < 0)
			return fail(w, rc, "%s", d.message);
		if (got < want)
			return fail(w, EV_EIO, "the archive's spool file is "
				    "%llu bytes, not %llu",
				    (unsigned long long)(from + got),
				    (unsigned long long)to);
		if ((rc = ev_sink_write(w->target, buf, got)) < 0)
			return fail(w, rc, "%s",
				    ev_sink_diag(w->target)->message);
		from += got;
	}
	return EV_OK;
}

/* A spooled archive's members went to the spool with a placeholder
 * digest: each goes to the target now with its header holding the
 * digest of the bytes written, the rest copied as it is. */
static int unspool(evi_archive_writer *w)
{
	uint64_t digest = XXH3_64bits_digest(w->hash);
	uint64_t end = ev_sink_bytes(w->sink);
	ev_diag d; /* not w->diag: fail() writes it from the message */
	int rc;

	if ((rc = ev_sink_commit(w->sink)) < 0)
		return sink_failed(w, rc);
	for (size_t i = 0; i < w->n_members; i++) {
		uint8_t header[EVI_ARCHIVE_HEADER];
		uint64_t at = w->members[i];
		uint64_t next = i + 1 < w->n_members ? w->members[i + 1] : end;
		size_t got;

		if ((rc = evi_pread_full(w->spool_fd, header, sizeof header, at,
					 &got, &d)) < 0)
			return fail(w, rc, "%s", d.message);
		if (got < sizeof header)
			return fail(w, EV_EIO, "the archive's spool file ends "
				    "in member %zu's header", i);
		store_digest(header, digest);
		if ((rc = ev_sink_write(w->target, header, sizeof header)) < 0)
			return fail(w, rc, "%s",
				    ev_sink_diag(w->target)->message);
		if ((rc = copy_spool(w, at + sizeof header, next)) < 0)
			return rc;
	}
	return EV_OK;
}

int evi_archive_writer_finish(evi_archive_writer *w)
{
	int rc;

	if (w->status < 0)
		return w->status;
	if (w->finished)
		return fail(w, EV_EINVAL, "the archive is already finished");
	/* Before the last member: an archive whose log does not match its
	 * digest is left without its end. A spooled archive's digest is
	 * the one of the bytes written, put in by unspool. */
	rc = w->target ? EV_OK : check_digest(w);
	if (rc == EV_OK)
		rc = submit(w, 1);
	while (rc == EV_OK && evi_ring_pending(w->ring))
		rc = write_oldest(w);
	if (rc == EV_OK && w->target)
		rc = unspool(w);
	evi_ring_free(w->ring); /* the workers end */
	w->ring = NULL;
	w->finished = 1;
	return rc;
}

uint64_t evi_archive_writer_bytes(const evi_archive_writer *w)
{
	return w->bytes;
}

void evi_archive_writer_free(evi_archive_writer *w)
{
	if (!w)
		return;
	evi_ring_free(w->ring); /* the workers end */
	for (unsigned i = 0; w->compressors && i < w->n_compressors; i++)
		libdeflate_free_compressor(w->compressors[i]);
	free(w->compressors);
	for (unsigned i = 0; w->chunks && i < w->ring_size; i++) {
		free(w->chunks[i].in);
		free(w->chunks[i].out);
	}
	free(w->chunks);
	if (w->hash)
		XXH3_freeState(w->hash);
	if (w->target)
		ev_sink_free(w->sink);
	free(w->members);
	if (w->spool_fd >= 0)
		close(w->spool_fd);
	free(w);
}

const ev_diag *evi_archive_writer_diag(const evi_archive_writer *w)
{
	return &w->diag;
}

/* ------------------------------------------------------------------------
 * The archive sink: a staged sink (lib/io/sink.c) whose stage is a
 * spooled archive writer.
 * ---------------------------------------------------------------------- */

static int stage_write(void *ctx, const void *data, size_t len)
{
	return evi_archive_writer_write(ctx, data, len);
}

static int stage_finish(void *ctx)
{
	return evi_archive_writer_finish(ctx);
}

static const ev_diag *stage_diag(const void *ctx)
{
	return evi_archive_writer_diag(ctx);
}

static void stage_free(void *ctx)
{
	evi_archive_writer_free(ctx);
}

static const evi_sink_stage archive_stage = {
	stage_write, stage_finish, stage_diag, stage_free
};

int ev_sink_open_archive(ev_sink **out, ev_sink *target, const char *tmpdir,
			 const ev_archive_options *opts, ev_diag *diag)
{
	evi_archive_writer *w;
	int rc = open_spooled(&w, target, tmpdir, opts, diag);

	if (rc < 0) {
		int saved = errno;

		*out = NULL;
		ev_sink_free(target);
		errno = saved;
		return rc;
	}
	rc = evi_sink_open_stage(out, target, &archive_stage, w);
	return rc < 0 ? evi_new_failed(diag, NULL, rc) : rc;
}
