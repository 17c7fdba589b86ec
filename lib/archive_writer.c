/*
 * The archive writer: one gzip member whose header holds the log's
 * xxh3-64, its deflate data made of chunks compressed in parallel
 * (include/evtool/archive.h describes the method).
 *
 * The caller's thread fills chunks, queues them, and writes compressed
 * chunks to the sink strictly in order; workers only deflate. Chunks live
 * in a ring of 2 per thread, so memory is bounded however long the log:
 * when the ring is full, the caller waits for the oldest chunk and writes
 * it out before filling its slot again. With one thread there are no
 * workers: chunks are compressed in the caller's thread, into the same
 * bytes.
 */
#include "evtool/archive.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>
#include <zlib.h>

#include "gzip.h"
#include "internal.h"
#include "tempfile.h"

#define MAX_DEFAULT_THREADS 8u
#define MAX_CHUNK (256u * 1024u * 1024u)
/* zlib's largest memory level: on eventlogs it compresses about 3%
 * smaller and 10% faster than the default 8, for 128 KiB more per
 * stream. Raw deflate: negative window bits. */
#define MEM_LEVEL 9
#define RAW_WINDOW_BITS (-15)

enum chunk_state { CHUNK_FREE, CHUNK_QUEUED, CHUNK_BUSY, CHUNK_DONE };

/* One slot of the ring. The caller's thread owns a FREE or DONE chunk, a
 * worker a BUSY one; `state` changes only under the writer's lock. */
typedef struct chunk {
	enum chunk_state state;
	int last;       /* ends the deflate stream (Z_FINISH) */
	int status;     /* EV_OK, or why compressing failed */
	uint8_t *in;    /* chunk_size bytes of log */
	size_t in_len;
	uint8_t *dict;  /* the previous chunk's last EVI_DEFLATE_WINDOW bytes */
	size_t dict_len;
	uint8_t *out;
	size_t out_len;
	size_t out_cap;
	uint32_t crc;   /* CRC-32 of in[0, in_len) */
} chunk;

struct ev_archive_writer {
	ev_sink *sink;     /* where compressed chunks go */
	ev_sink *target;   /* spooled: where the archive goes at the end */
	int spool_fd;      /* spooled: the unnamed file `sink` writes to */
	ev_diag diag;
	int status;     /* the first error; every later call returns it */
	int finished;
	int level;
	size_t chunk_size;
	uint64_t digest;   /* as declared at open */
	uint32_t mtime;
	XXH3_state_t *hash; /* of the bytes actually written */
	uint64_t bytes;
	uint32_t crc;      /* of the chunks written to the sink so far */
	uint8_t dict[EVI_DEFLATE_WINDOW];
	size_t dict_len;

	chunk *ring;
	unsigned ring_size;
	uint64_t filled;   /* chunks queued; ring[filled % size] is filling */
	uint64_t taken;    /* chunks a worker has started */
	uint64_t written;  /* chunks written to the sink */

	z_stream own;      /* the caller's stream when there are no workers */
	int own_ready;
	pthread_t *workers;
	unsigned n_workers;
	pthread_mutex_t lock;
	pthread_cond_t queued; /* a chunk was queued, or stop was set */
	pthread_cond_t done;   /* a worker finished a chunk */
	int stop;
	int sync_ready;
};

unsigned ev_archive_default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > (long)MAX_DEFAULT_THREADS ? MAX_DEFAULT_THREADS
					     : (unsigned)n;
}

static int fail(ev_archive_writer *w, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(ev_archive_writer *w, int status, const char *fmt, ...)
{
	va_list ap;

	if (w->status < 0)
		return w->status;
	w->status = status;
	w->diag.status = status;
	w->diag.offset = w->bytes;
	w->diag.event_index = 0;
	va_start(ap, fmt);
	vsnprintf(w->diag.message, sizeof w->diag.message, fmt, ap);
	va_end(ap);
	return status;
}

static int sink_failed(ev_archive_writer *w, int status)
{
	return fail(w, status, "%s", ev_sink_diag(w->sink)->message);
}

/* ---- compressing one chunk (any thread) ---- */

static int init_stream(z_stream *z, int level)
{
	memset(z, 0, sizeof *z);
	return deflateInit2(z, level, Z_DEFLATED, RAW_WINDOW_BITS, MEM_LEVEL,
			    Z_DEFAULT_STRATEGY) == Z_OK ? EV_OK : EV_ENOMEM;
}

static int grow_output(chunk *c)
{
	size_t cap = c->out_cap * 2;
	uint8_t *grown = realloc(c->out, cap);

	if (!grown)
		return EV_ENOMEM;
	c->out = grown;
	c->out_cap = cap;
	return EV_OK;
}

/* Raw deflate of the chunk, primed with the previous chunk's tail so that
 * matches reach back across the boundary as in a single-threaded stream.
 * A sync flush ends the chunk on a byte boundary with no final block, so
 * the next chunk's deflate data can follow it directly. */
static int deflate_chunk(z_stream *z, chunk *c)
{
	int flush = c->last ? Z_FINISH : Z_SYNC_FLUSH;

	if (deflateReset(z) != Z_OK)
		return EV_EINVAL;
	if (c->dict_len &&
	    deflateSetDictionary(z, c->dict, (uInt)c->dict_len) != Z_OK)
		return EV_EINVAL;
	z->next_in = c->in;
	z->avail_in = (uInt)c->in_len;
	c->out_len = 0;
	for (;;) {
		int zrc;
		if (c->out_len == c->out_cap && grow_output(c) < 0)
			return EV_ENOMEM;
		z->next_out = c->out + c->out_len;
		z->avail_out = (uInt)(c->out_cap - c->out_len);
		zrc = deflate(z, flush);
		c->out_len = c->out_cap - z->avail_out;
		if (zrc == Z_STREAM_END)
			break;
		if (zrc != Z_OK && zrc != Z_BUF_ERROR)
			return EV_EINVAL;
		/* zlib: a sync flush is complete when output space is left. */
		if (!c->last && z->avail_in == 0 && z->avail_out > 0)
			break;
	}
	c->crc = (uint32_t)crc32(0, c->in, (uInt)c->in_len);
	return EV_OK;
}

/* ---- the worker threads ---- */

static void *worker_main(void *arg)
{
	ev_archive_writer *w = arg;
	z_stream z;
	int ready = init_stream(&z, w->level);

	pthread_mutex_lock(&w->lock);
	for (;;) {
		chunk *c;
		int status;
		while (!w->stop && w->taken == w->filled)
			pthread_cond_wait(&w->queued, &w->lock);
		if (w->stop)
			break;
		c = &w->ring[w->taken++ % w->ring_size];
		c->state = CHUNK_BUSY;
		pthread_mutex_unlock(&w->lock);
		status = ready == EV_OK ? deflate_chunk(&z, c) : ready;
		pthread_mutex_lock(&w->lock);
		c->status = status;
		c->state = CHUNK_DONE;
		pthread_cond_broadcast(&w->done);
	}
	pthread_mutex_unlock(&w->lock);
	if (ready == EV_OK)
		deflateEnd(&z);
	return NULL;
}

/* Starts up to `threads` workers. Fewer (even none, when the system
 * refuses threads) only cost speed: the output is the same. */
static int start_workers(ev_archive_writer *w, unsigned threads)
{
	if (pthread_mutex_init(&w->lock, NULL) != 0)
		return EV_ENOMEM;
	if (pthread_cond_init(&w->queued, NULL) != 0) {
		pthread_mutex_destroy(&w->lock);
		return EV_ENOMEM;
	}
	if (pthread_cond_init(&w->done, NULL) != 0) {
		pthread_cond_destroy(&w->queued);
		pthread_mutex_destroy(&w->lock);
		return EV_ENOMEM;
	}
	w->sync_ready = 1;
	if (threads < 2)
		return EV_OK;
	if (!(w->workers = calloc(threads, sizeof *w->workers)))
		return EV_ENOMEM;
	while (w->n_workers < threads &&
	       pthread_create(&w->workers[w->n_workers], NULL, worker_main,
			      w) == 0)
		w->n_workers++;
	return EV_OK;
}

static void stop_workers(ev_archive_writer *w)
{
	if (!w->sync_ready)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = 1;
	pthread_cond_broadcast(&w->queued);
	pthread_mutex_unlock(&w->lock);
	for (unsigned i = 0; i < w->n_workers; i++)
		pthread_join(w->workers[i], NULL);
	w->n_workers = 0;
}

/* ---- the caller's side of the ring ---- */

static chunk *filling(ev_archive_writer *w)
{
	return &w->ring[w->filled % w->ring_size];
}

static int allocate_chunk(ev_archive_writer *w, chunk *c)
{
	if (c->in)
		return EV_OK;
	c->out_cap = compressBound((uLong)w->chunk_size) + 64;
	c->in = malloc(w->chunk_size);
	c->dict = malloc(EVI_DEFLATE_WINDOW);
	c->out = malloc(c->out_cap);
	return c->in && c->dict && c->out ? EV_OK : EV_ENOMEM;
}

static void wait_done(ev_archive_writer *w, chunk *c)
{
	pthread_mutex_lock(&w->lock);
	while (c->state != CHUNK_DONE)
		pthread_cond_wait(&w->done, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

/* Waits for the oldest chunk in flight and appends it to the sink. */
static int write_oldest(ev_archive_writer *w)
{
	chunk *c = &w->ring[w->written % w->ring_size];
	int rc;

	wait_done(w, c);
	if (c->status < 0)
		return fail(w, c->status, "compressing failed: %s",
			    ev_strerror(c->status));
	if ((rc = ev_sink_write(w->sink, c->out, c->out_len)) < 0)
		return sink_failed(w, rc);
	w->crc = (uint32_t)crc32_combine(w->crc, c->crc, (z_off_t)c->in_len);
	c->state = CHUNK_FREE;
	w->written++;
	return EV_OK;
}

/* Makes the next slot of the ring the filling chunk: writes out what it
 * held, and gives it the dictionary the previous chunk left. */
static int start_chunk(ev_archive_writer *w)
{
	chunk *c;
	int rc;

	while (w->written + w->ring_size <= w->filled)
		if ((rc = write_oldest(w)) < 0)
			return rc;
	c = filling(w);
	if (allocate_chunk(w, c) < 0)
		return fail(w, EV_ENOMEM, "out of memory");
	c->in_len = 0;
	c->last = 0;
	c->status = EV_OK;
	memcpy(c->dict, w->dict, w->dict_len);
	c->dict_len = w->dict_len;
	return EV_OK;
}

static void keep_dictionary(ev_archive_writer *w, const chunk *c)
{
	size_t n = c->in_len < EVI_DEFLATE_WINDOW ? c->in_len
						  : EVI_DEFLATE_WINDOW;

	memcpy(w->dict, c->in + c->in_len - n, n);
	w->dict_len = n;
}

/* Hands the filling chunk to a worker (or compresses it here). */
static int submit(ev_archive_writer *w, int last)
{
	chunk *c = filling(w);

	c->last = last;
	if (!last)
		keep_dictionary(w, c);
	if (w->n_workers == 0) {
		if (!w->own_ready && init_stream(&w->own, w->level) < 0)
			return fail(w, EV_ENOMEM, "out of memory");
		w->own_ready = 1;
		c->status = deflate_chunk(&w->own, c);
		c->state = CHUNK_DONE;
		w->filled++;
	} else {
		pthread_mutex_lock(&w->lock);
		c->state = CHUNK_QUEUED;
		w->filled++;
		pthread_cond_signal(&w->queued);
		pthread_mutex_unlock(&w->lock);
	}
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

/* The gzip header: a deflate member with one extra subfield, 'E' 'V',
 * holding the digest version and the xxh3-64 (big-endian, as the
 * eventlog's own integers). */
static void encode_header(uint8_t *h, uint64_t digest, int level,
			  uint32_t mtime)
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
	h[16] = EV_ARCHIVE_DIGEST_VERSION;
	ev_store64(h + 17, digest);
}

static int setup(ev_archive_writer *w, const ev_archive_options *opts)
{
	uint8_t header[EVI_ARCHIVE_HEADER];
	unsigned threads;
	int rc = check_options(opts, &w->level, &threads, &w->chunk_size);

	if (rc < 0)
		return rc;
	w->ring_size = threads < 2 ? 1 : 2 * threads;
	w->ring = calloc(w->ring_size, sizeof *w->ring);
	w->hash = XXH3_createState();
	if (!w->ring || !w->hash || XXH3_64bits_reset(w->hash) != XXH_OK)
		return EV_ENOMEM;
	if ((rc = start_workers(w, threads)) < 0 ||
	    (rc = start_chunk(w)) < 0)
		return rc;
	w->crc = (uint32_t)crc32(0, NULL, 0);
	w->mtime = opts->mtime;
	if (w->target)
		return EV_OK; /* the header comes at the end, with the digest */
	encode_header(header, w->digest, w->level, w->mtime);
	return ev_sink_write(w->sink, header, sizeof header);
}

int ev_archive_writer_open(ev_archive_writer **out, ev_sink *sink,
			   uint64_t digest, const ev_archive_options *opts)
{
	static const ev_archive_options defaults = EV_ARCHIVE_OPTIONS_INIT;
	ev_archive_writer *w = calloc(1, sizeof *w);
	int rc;

	*out = NULL;
	if (!w)
		return EV_ENOMEM;
	w->sink = sink;
	w->spool_fd = -1;
	w->digest = digest;
	if ((rc = setup(w, opts ? opts : &defaults)) < 0) {
		ev_archive_writer_free(w);
		return rc;
	}
	*out = w;
	return EV_OK;
}

int evi_archive_writer_open_spooled(ev_archive_writer **out, ev_sink *target,
				    const char *tmpdir,
				    const ev_archive_options *opts,
				    ev_diag *diag)
{
	static const ev_archive_options defaults = EV_ARCHIVE_OPTIONS_INIT;
	ev_archive_writer *w = calloc(1, sizeof *w);
	int rc;

	*out = NULL;
	if (!w)
		return evi_fail(diag, EV_ENOMEM, 0, 0, "out of memory");
	w->target = target;
	if ((rc = evi_temp_open(tmpdir, &w->spool_fd, diag)) < 0) {
		free(w);
		return rc;
	}
	if ((rc = ev_sink_open_fd(&w->sink, w->spool_fd, "<spool>")) < 0 ||
	    (rc = setup(w, opts ? opts : &defaults)) < 0) {
		ev_archive_writer_free(w);
		return evi_fail(diag, rc, 0, 0, "%s", rc == EV_EINVAL
				? "bad archive options" : ev_strerror(rc));
	}
	*out = w;
	return EV_OK;
}

int ev_archive_writer_write(ev_archive_writer *w, const void *data,
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
		/* A full chunk is queued only when more bytes come, because
		 * only then is it known not to be the last. */
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

static int check_digest(ev_archive_writer *w)
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

/* A spooled archive's digest is the one of the bytes written: its header
 * goes to the target now, then the spooled deflate data. The trailer
 * follows, written to the target like an unspooled archive's. */
static int unspool(ev_archive_writer *w)
{
	uint8_t header[EVI_ARCHIVE_HEADER], buf[64 * 1024];
	uint64_t at = 0;
	size_t got = sizeof buf;
	int rc;

	w->digest = XXH3_64bits_digest(w->hash);
	if ((rc = ev_sink_commit(w->sink)) < 0)
		return sink_failed(w, rc);
	ev_sink_free(w->sink);
	w->sink = w->target;
	encode_header(header, w->digest, w->level, w->mtime);
	if ((rc = ev_sink_write(w->sink, header, sizeof header)) < 0)
		return sink_failed(w, rc);
	while (got == sizeof buf) {
		if ((rc = evi_pread_full(w->spool_fd, buf, sizeof buf, at, &got,
					 &w->diag)) < 0)
			return fail(w, rc, "%s", w->diag.message);
		if ((rc = ev_sink_write(w->sink, buf, got)) < 0)
			return sink_failed(w, rc);
		at += got;
	}
	return EV_OK;
}

static int write_trailer(ev_archive_writer *w)
{
	uint8_t trailer[EVI_GZIP_TRAILER];
	int rc;

	evi_store_le32(trailer, w->crc);
	evi_store_le32(trailer + 4, (uint32_t)w->bytes);
	if ((rc = ev_sink_write(w->sink, trailer, sizeof trailer)) < 0)
		return sink_failed(w, rc);
	return EV_OK;
}

int ev_archive_writer_finish(ev_archive_writer *w)
{
	int rc;

	if (w->status < 0)
		return w->status;
	if (w->finished)
		return fail(w, EV_EINVAL, "the archive is already finished");
	rc = submit(w, 1);
	while (rc == EV_OK && w->written < w->filled)
		rc = write_oldest(w);
	if (rc == EV_OK)
		rc = w->target ? unspool(w) : check_digest(w);
	if (rc == EV_OK)
		rc = write_trailer(w);
	stop_workers(w);
	w->finished = 1;
	return rc;
}

uint64_t ev_archive_writer_bytes(const ev_archive_writer *w)
{
	return w->bytes;
}

void ev_archive_writer_free(ev_archive_writer *w)
{
	if (!w)
		return;
	stop_workers(w);
	if (w->sync_ready) {
		pthread_cond_destroy(&w->done);
		pthread_cond_destroy(&w->queued);
		pthread_mutex_destroy(&w->lock);
	}
	if (w->own_ready)
		deflateEnd(&w->own);
	for (unsigned i = 0; w->ring && i < w->ring_size; i++) {
		free(w->ring[i].in);
		free(w->ring[i].dict);
		free(w->ring[i].out);
	}
	free(w->ring);
	free(w->workers);
	if (w->hash)
		XXH3_freeState(w->hash);
	if (w->target && w->sink != w->target)
		ev_sink_free(w->sink);
	if (w->spool_fd >= 0)
		close(w->spool_fd);
	free(w);
}

const ev_diag *ev_archive_writer_diag(const ev_archive_writer *w)
{
	return &w->diag;
}
