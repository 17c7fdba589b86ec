/*
 * Byte sources: plain or gzip, from a file descriptor or from memory.
 *
 * Gzip is recognised by its magic bytes (1f 8b) and inflated member after
 * member, so concatenated gzip files work. A member of evtool's archives
 * (one with the 'EV' subfield: at most MEMBER_OUT bytes of log) is read
 * whole into the stored buffer, grown for it, and inflated at once with
 * libdeflate, about twice as fast as zlib; any other member (one large
 * member, as gzip and pigz write, a member still being written, a damaged
 * one) is streamed through zlib, which also names what is wrong, in the
 * memory it always took. Reads never block on more than the
 * underlying read(2), and an end of input is reported as "no bytes now":
 * a source over a growing file can be read again later.
 *
 * A large gzip file (at least THREAD_MIN stored bytes) is inflated ahead
 * in a thread of its own (read_ahead.h) while the caller parses the bytes
 * before: inflating costs as much as the rest of a `cat`, so the two
 * overlap. Built with ISA-L (EVTOOL_HAVE_ISAL), the thread streams
 * members with it instead of zlib, and zlib inflates a member again from
 * its start when ISA-L finds it damaged or the input ends in it. When the thread meets the end of the input (or an error) it
 * stops, and reading goes on in the caller's thread, so a file that grows
 * is still followed.
 */
#include "source.h"

#include <errno.h>
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#ifdef EVTOOL_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "evtool/archive.h"
#include "digest.h"
#include "gzip.h"
#include "common_internal.h"
#include "io_internal.h"
#include "read_ahead.h"

/* The stored buffer for gzip input; for evtool's archives, room for a
 * whole member of MEMBER_OUT bytes of log, even stored uncompressed. */
#define STORED_CHUNK (256u * 1024u)
#define MEMBER_OUT EV_ARCHIVE_DEFAULT_CHUNK
#define MEMBER_STORED (MEMBER_OUT + MEMBER_OUT / 8)
/* The longest gzip member header read (its name and comment included). */
#define MAX_HEADER (8u * 1024u * 1024u)
/* Inflating ahead in a thread from this stored size. */
#define THREAD_MIN (8u * 1024u * 1024u)
/* Bytes read to tell gzip from a plain log: one page, so that a plain
 * log is not read twice over a large buffer. */
#define SNIFF_CHUNK 4096u
/* zlib window bits: raw deflate (the gzip wrapper is read here, and the
 * CRC-32 computed with libdeflate's, several times faster than zlib's). */
#define RAW_WINDOW_BITS (-15)

enum gz_place { BETWEEN_MEMBERS, IN_DATA, AT_TRAILER };

struct evi_source {
	int fd;
	int close_fd;
	ev_read_fn fn; /* when not NULL, the bytes come from fn(fn_ctx) */
	void *fn_ctx;
	const uint8_t *mem;
	size_t mem_len;
	size_t mem_pos;
	ev_diag *diag;
	evi_digest *digest;
	uint64_t stored_bytes;

	int kind_known;
	int raw;
	int gzip;
	int seekable;  /* a regular file or memory: reading never blocks */
	enum gz_place place; /* of the member zlib streams */
	uint32_t crc;        /* its CRC-32 and length so far */
	uint32_t isize;
	int pending; /* an error found after returning the bytes before it */
	z_stream z;
	int z_ready;
	struct libdeflate_decompressor *whole;
	uint8_t *out;  /* a whole member's log bytes, out[out_pos, out_len) */
	size_t out_pos;
	size_t out_len;

	/* Stored bytes read ahead, ahead[ahead_pos, ahead_len): the sniffed
	 * magic, or gzip input. */
	uint8_t *ahead;
	size_t ahead_cap;
	size_t ahead_pos;
	size_t ahead_len;

#ifdef EVTOOL_HAVE_ISAL
	/* Reading ahead, a streamed member is inflated by ISA-L (about 1.5
	 * times zlib's speed); a damaged member, or one the input ends in, is
	 * inflated again by zlib from its start (skipping the bytes given),
	 * so that messages and offsets are zlib's (replay_with_zlib). */
	struct inflate_state *isal;
	int isal_on;            /* this member is ISA-L's */
	uint64_t member_out;    /* its bytes given so far */
	off_t member_at;        /* the file offset of its deflate data */
	uint64_t member_stored; /* stored_bytes there */
#endif
	/* The inflating thread, when not NULL: it owns everything above but
	 * the caller's diag; it reports into thread_diag. */
	evi_ahead *thread;
	ev_diag *caller_diag;
	ev_diag thread_diag;
	uint64_t shown_stored; /* stored bytes behind the bytes taken */
	uint64_t mark;         /* the most stored bytes a block was behind */
	uint64_t origin;       /* the file offset where the source began */
};

int evi_source_open(evi_source **out, int fd, int close_fd,
		    const uint8_t *mem, size_t len, int digest, int raw,
		    ev_diag *diag)
{
	evi_source *s = calloc(1, sizeof *s);

	*out = NULL;
	if (!s)
		return EV_ENOMEM;
	s->fd = fd;
	s->close_fd = close_fd;
	s->mem = mem;
	s->mem_len = len;
	s->diag = diag;
	s->raw = raw;
	if (digest && evi_digest_new(&s->digest) < 0) {
		evi_source_free(s);
		return EV_ENOMEM;
	}
	*out = s;
	return EV_OK;
}

int evi_source_open_fn(evi_source **out, ev_read_fn fn, void *ctx,
		       int digest, int raw, ev_diag *diag)
{
	int rc = evi_source_open(out, -1, 0, NULL, 0, digest, raw, diag);

	if (rc == EV_OK) {
		(*out)->fn = fn;
		(*out)->fn_ctx = ctx;
	}
	return rc;
}

/* Over a memory buffer: reading never blocks, and the reader may parse
 * the bytes in place. */
static int in_memory(const evi_source *s)
{
	return s->fd < 0 && !s->fn;
}

static void stop_thread(evi_source *s);

void evi_source_free(evi_source *s)
{
	if (!s)
		return;
	stop_thread(s);
	if (s->z_ready)
		inflateEnd(&s->z);
	if (s->whole)
		libdeflate_free_decompressor(s->whole);
#ifdef EVTOOL_HAVE_ISAL
	free(s->isal);
#endif
	free(s->out);
	if (s->close_fd && s->fd >= 0)
		close(s->fd);
	evi_digest_free(s->digest);
	free(s->ahead);
	free(s);
}

/* The bytes of a read function; its end is "no bytes now". */
static int read_fn(evi_source *s, uint8_t *dst, size_t cap, size_t *got)
{
	int rc = s->fn(s->fn_ctx, dst, cap, got);

	if (rc == EV_END)
		*got = 0;
	if (rc >= 0 || rc == EV_END)
		return EV_OK;
	return evi_fail(s->diag, rc, 0, 0, "reading failed: %s",
			ev_strerror(rc));
}

/* Reads stored bytes (as they are in the file) into dst. */
static int read_stored(evi_source *s, uint8_t *dst, size_t cap, size_t *got)
{
	*got = 0;
	if (s->fn) {
		int rc = read_fn(s, dst, cap, got);
		if (rc < 0)
			return rc;
	} else if (s->fd < 0) {
		size_t n = s->mem_len - s->mem_pos;
		if (n > cap)
			n = cap;
		memcpy(dst, s->mem + s->mem_pos, n);
		s->mem_pos += n;
		*got = n;
	} else {
		ssize_t n;
		do
			n = read(s->fd, dst, cap);
		while (n < 0 && errno == EINTR);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			n = 0; /* a non-blocking descriptor with nothing yet */
		if (n < 0)
			return evi_fail(s->diag, EV_EIO, 0, 0, "read failed: %s",
					strerror(errno));
		*got = (size_t)n;
	}
	if (s->digest && *got)
		evi_digest_update(s->digest, dst, *got);
	s->stored_bytes += *got;
	return EV_OK;
}

static int ensure_ahead_buffer(evi_source *s, size_t cap)
{
	uint8_t *grown;

	if (s->ahead_cap >= cap)
		return EV_OK;
	if (!(grown = realloc(s->ahead, cap)))
		return EV_ENOMEM;
	s->ahead = grown;
	s->ahead_cap = cap;
	return EV_OK;
}

/* Looks at the first two stored bytes to tell gzip from a plain log. */
static int sniff(evi_source *s)
{
	int rc = ensure_ahead_buffer(s, SNIFF_CHUNK);

	while (rc == EV_OK && s->ahead_len < 2) {
		size_t got;
		rc = read_stored(s, s->ahead + s->ahead_len,
				 SNIFF_CHUNK - s->ahead_len, &got);
		if (rc < 0)
			return rc;
		if (got == 0)
			break;
		s->ahead_len += got;
	}
	if (rc < 0)
		return rc;
	/* One byte that is not 1f already rules gzip out. */
	if (s->ahead_len < 2 && !in_memory(s) && !s->raw &&
	    (s->ahead_len == 0 || s->ahead[0] == EVI_GZIP_ID1))
		return EV_OK; /* not known yet: wait for more bytes */
	s->kind_known = 1;
	s->gzip = !s->raw && evi_is_gzip(s->ahead, s->ahead_len);
	if (s->gzip) {
		struct stat st;
		s->seekable = in_memory(s) ||
			      (s->fd >= 0 && fstat(s->fd, &st) == 0 &&
			       S_ISREG(st.st_mode));
		if (ensure_ahead_buffer(s, STORED_CHUNK) < 0 ||
		    inflateInit2(&s->z, RAW_WINDOW_BITS) != Z_OK)
			return EV_ENOMEM;
		s->z_ready = 1;
	}
	return EV_OK;
}

static int read_plain(evi_source *s, uint8_t *dst, size_t cap, size_t *got)
{
	if (s->ahead_pos < s->ahead_len) {
		size_t n = s->ahead_len - s->ahead_pos;
		if (n > cap)
			n = cap;
		memcpy(dst, s->ahead + s->ahead_pos, n);
		s->ahead_pos += n;
		*got = n;
		return EV_OK;
	}
	return read_stored(s, dst, cap, got);
}

static size_t unread(const evi_source *s)
{
	return s->ahead_len - s->ahead_pos;
}

/* Moves the unread stored bytes to the front and reads more: from a
 * regular file or memory until the buffer is full (so that a whole member
 * is there), from anything else once, as it may block. */
static int refill_compressed(evi_source *s)
{
	size_t got;
	int rc;

	memmove(s->ahead, s->ahead + s->ahead_pos, unread(s));
	s->ahead_len -= s->ahead_pos;
	s->ahead_pos = 0;
	while (s->ahead_len < s->ahead_cap) {
		rc = read_stored(s, s->ahead + s->ahead_len,
				 s->ahead_cap - s->ahead_len, &got);
		if (rc < 0)
			return rc;
		s->ahead_len += got;
		if (got == 0 || !s->seekable)
			break;
	}
	return EV_OK;
}

/* Inflates the member at ahead_pos at once, when it is all there and
 * small enough. 1: done, its bytes in `out`; 0: zlib must stream it. */
static int inflate_whole(evi_source *s)
{
	size_t used, n;

	if (!s->out && !(s->out = malloc(MEMBER_OUT)))
		return 0;
	if (!s->whole && !(s->whole = libdeflate_alloc_decompressor()))
		return 0;
	if (libdeflate_gzip_decompress_ex(s->whole, s->ahead + s->ahead_pos,
					  unread(s), s->out, MEMBER_OUT,
					  &used, &n) != LIBDEFLATE_SUCCESS)
		return 0;
	s->ahead_pos += used;
	s->out_pos = 0;
	s->out_len = n;
	return 1;
}

static int corrupt(evi_source *s, const char *what, size_t got)
{
	evi_fail(s->diag, EV_EFORMAT, 0, 0,
		 "gzip data is corrupt (%s) near stored offset %llu", what,
		 (unsigned long long)(s->stored_bytes - unread(s)));
	evi_because(s->diag, EV_REASON_COMPRESSION);
	/* Hand out the good bytes first; fail on the next call. */
	s->pending = got > 0;
	return got > 0 ? EV_OK : EV_EFORMAT;
}

/* An archive's member: the buffer grows to hold all of it, and is
 * filled. 0 when it cannot grow. */
static int make_room_for_member(evi_source *s)
{
	if (s->ahead_cap < MEMBER_STORED &&
	    ensure_ahead_buffer(s, MEMBER_STORED) < 0)
		return 0;
	return refill_compressed(s) == EV_OK;
}

/* A header longer than the buffer (a long name or comment): the buffer
 * grows, up to MAX_HEADER, and is filled again. */
static int grow_for_header(evi_source *s)
{
	if (s->ahead_cap < MAX_HEADER &&
	    ensure_ahead_buffer(s, 2 * s->ahead_cap) == EV_OK)
		return EV_OK;
	evi_fail(s->diag, EV_ELIMIT, 0, 0,
		 "gzip: a member header longer than %zu KiB (stored offset "
		 "%llu)", s->ahead_cap >> 10,
		 (unsigned long long)(s->stored_bytes - unread(s)));
	return evi_because(s->diag, EV_REASON_COMPRESSION);
}

static void start_isal(evi_source *s);

/* At a member boundary, with stored bytes: starts the next member. 1:
 * its header is not all there yet. */
static int start_member(evi_source *s)
{
	evi_gzip_header h;
	ev_diag d;
	int rc;

	if (s->ahead[s->ahead_pos] != EVI_GZIP_ID1) {
		evi_fail(s->diag, EV_EFORMAT, 0, 0,
			 "gzip: unexpected bytes after the compressed data "
			 "(stored offset %llu)",
			 (unsigned long long)(s->stored_bytes - unread(s)));
		return evi_because(s->diag, EV_REASON_COMPRESSION);
	}
	rc = evi_gzip_parse_header(&h, s->ahead + s->ahead_pos, unread(s),
				     &d);
	if (rc == EV_ETRUNCATED && unread(s) == s->ahead_cap)
		return grow_for_header(s);
	if (rc == EV_ETRUNCATED)
		return 1;
	if (rc < 0)
		return corrupt(s, d.message, 0);
	if (h.kind && make_room_for_member(s) && inflate_whole(s))
		return EV_OK;
	if (inflateReset(&s->z) != Z_OK)
		return EV_ENOMEM;
	s->ahead_pos += h.size;
	s->place = IN_DATA;
	s->crc = 0;
	s->isize = 0;
	start_isal(s);
	return EV_OK;
}

/* The member's trailer: its CRC-32 and length (modulo 2^32). */
static int check_trailer(evi_source *s)
{
	const uint8_t *t = s->ahead + s->ahead_pos;

	if (evi_le32(t) != s->crc)
		return corrupt(s, "incorrect data check", 0);
	if (evi_le32(t + 4) != s->isize)
		return corrupt(s, "incorrect length check", 0);
	s->ahead_pos += EVI_GZIP_TRAILER;
	s->place = BETWEEN_MEMBERS;
	return EV_OK;
}

static int inflate_stream(evi_source *s, uint8_t *dst, size_t cap,
			  size_t *got)
{
	int zrc;

	s->z.next_in = s->ahead + s->ahead_pos;
	s->z.avail_in = (uInt)unread(s);
	s->z.next_out = dst;
	s->z.avail_out = (uInt)(cap > UINT32_MAX ? UINT32_MAX : cap);
	zrc = inflate(&s->z, Z_NO_FLUSH);
	s->ahead_pos = (size_t)(s->z.next_in - s->ahead);
	*got = (size_t)(s->z.next_out - dst);
	s->crc = (uint32_t)libdeflate_crc32(s->crc, dst, *got);
	s->isize += (uint32_t)*got;
	if (zrc == Z_STREAM_END)
		s->place = AT_TRAILER;
	else if (zrc != Z_OK && zrc != Z_BUF_ERROR)
		return corrupt(s, s->z.msg ? s->z.msg : "zlib error", *got);
	return EV_OK;
}

#ifdef EVTOOL_HAVE_ISAL
/* A streamed member read ahead from a regular file: ISA-L's, with where
 * its deflate data starts, for a replay by zlib. */
static void start_isal(evi_source *s)
{
	off_t at;

	s->isal_on = 0;
	s->member_out = 0;
	if (!s->isal || (at = lseek(s->fd, 0, SEEK_CUR)) < 0 ||
	    (uint64_t)at < unread(s))
		return;
	isal_inflate_init(s->isal);
	s->isal->crc_flag = ISAL_DEFLATE;
	s->member_at = at - (off_t)unread(s);
	s->member_stored = s->stored_bytes - unread(s);
	s->isal_on = 1;
}

/* Inflates the member again with zlib from its start, dropping the
 * bytes ISA-L gave, which zlib gives too; what zlib gives past them waits
 * in `out`. From there on zlib streams the member, and names any damage
 * as before. */
static int replay_with_zlib(evi_source *s)
{
	uint64_t skipped = 0;
	size_t got;
	int rc;

	s->isal_on = 0;
	if (!s->out && !(s->out = malloc(MEMBER_OUT)))
		return EV_ENOMEM;
	if (lseek(s->fd, s->member_at, SEEK_SET) < 0)
		return evi_fail(s->diag, EV_EIO, 0, 0, "cannot seek: %s",
				strerror(errno));
	s->ahead_pos = s->ahead_len = 0;
	s->stored_bytes = s->member_stored;
	s->crc = 0;
	s->isize = 0;
	if (inflateReset(&s->z) != Z_OK)
		return EV_ENOMEM;
	while (s->place == IN_DATA) {
		if (unread(s) == 0 && (rc = refill_compressed(s)) < 0)
			return rc;
		if (unread(s) == 0)
			break;
		if ((rc = inflate_stream(s, s->out, MEMBER_OUT, &got)) < 0)
			return rc;
		if (skipped + got > s->member_out) {
			s->out_pos = (size_t)(s->member_out - skipped);
			s->out_len = got;
			break;
		}
		skipped += got;
		if (s->pending) /* damage before the bytes given end */
			return EV_EFORMAT;
	}
	return EV_OK;
}

static int inflate_isal(evi_source *s, uint8_t *dst, size_t cap,
			size_t *got)
{
	struct inflate_state *st = s->isal;
	int irc;

	st->next_in = s->ahead + s->ahead_pos;
	st->avail_in = (uint32_t)unread(s);
	st->next_out = dst;
	st->avail_out = (uint32_t)(cap > UINT32_MAX ? UINT32_MAX : cap);
	irc = isal_inflate(st);
	*got = (size_t)(st->next_out - dst);
	if (irc < 0) {
		/* Nothing of this call is given: zlib replays the member. */
		*got = 0;
		return replay_with_zlib(s);
	}
	s->ahead_pos = (size_t)(st->next_in - s->ahead);
	s->crc = (uint32_t)libdeflate_crc32(s->crc, dst, *got);
	s->isize += (uint32_t)*got;
	s->member_out += *got;
	if (st->block_state == ISAL_BLOCK_FINISH) {
		/* ISA-L read ahead into its bit buffer: the trailer starts
		 * that many whole bytes back. */
		s->ahead_pos -= (size_t)st->read_in_length / 8;
		s->isal_on = 0;
		s->place = AT_TRAILER;
	}
	return EV_OK;
}

static int isal_member(const evi_source *s)
{
	return s->isal_on;
}
#else
static void start_isal(evi_source *s)
{
	(void)s;
}

static int isal_member(const evi_source *s)
{
	(void)s;
	return 0;
}

static int inflate_isal(evi_source *s, uint8_t *dst, size_t cap,
			size_t *got)
{
	return inflate_stream(s, dst, cap, got);
}
#endif

static void take_whole(evi_source *s, uint8_t *dst, size_t cap, size_t *got)
{
	size_t n = s->out_len - s->out_pos;

	*got = n < cap ? n : cap;
	memcpy(dst, s->out + s->out_pos, *got);
	s->out_pos += *got;
}

static int read_gzip(evi_source *s, uint8_t *dst, size_t cap, size_t *got)
{
	int rc;

	*got = 0;
	if (s->pending)
		return EV_EFORMAT;
	while (*got == 0) {
		if (s->out_pos < s->out_len) {
			take_whole(s, dst, cap, got);
			break;
		}
		/* Between members, the buffer is filled first: a whole
		 * member must be in it to be inflated at once. */
		if (unread(s) < (s->place == BETWEEN_MEMBERS ? s->ahead_cap
				 : s->place == IN_DATA	     ? 1u
							     : EVI_GZIP_TRAILER) &&
		    (rc = refill_compressed(s)) < 0)
			return rc;
#ifdef EVTOOL_HAVE_ISAL
		/* The input ends inside ISA-L's member (for now): zlib decides
		 * what of it can be given, as without ISA-L. */
		if (unread(s) == 0 && s->isal_on && s->place == IN_DATA) {
			if ((rc = replay_with_zlib(s)) < 0)
				return rc;
			continue;
		}
#endif
		if (unread(s) == 0 ||
		    (s->place == AT_TRAILER && unread(s) < EVI_GZIP_TRAILER))
			break; /* no more stored bytes now */
		if (s->place == BETWEEN_MEMBERS)
			rc = start_member(s);
		else if (s->place == IN_DATA && isal_member(s))
			rc = inflate_isal(s, dst, cap, got);
		else if (s->place == IN_DATA)
			rc = inflate_stream(s, dst, cap, got);
		else
			rc = check_trailer(s);
		if (rc < 0)
			return rc;
		if (rc == 1)
			break; /* the header's end is still to come */
	}
	return EV_OK;
}

/* ---- inflating ahead in a thread ---- */

static int fill_ahead(void *ctx, uint8_t *dst, size_t cap, size_t *got)
{
	return read_gzip(ctx, dst, cap, got);
}

/* Never backwards, though a replay by zlib reads a member again. */
static uint64_t stored_mark(void *ctx)
{
	evi_source *s = ctx;

	if (s->stored_bytes > s->mark)
		s->mark = s->stored_bytes;
	return s->mark;
}

/* A large regular gzip file without a digest: inflate it ahead. Without
 * a thread (or memory for its blocks) it is read in the caller's. */
static void start_thread(evi_source *s)
{
	struct stat st;

	if (s->fd < 0 || s->digest || fstat(s->fd, &st) != 0 ||
	    !S_ISREG(st.st_mode) || st.st_size < (off_t)THREAD_MIN)
		return;
#ifdef EVTOOL_HAVE_ISAL
	s->isal = malloc(sizeof *s->isal); /* NULL: zlib, as before */
#endif
	s->caller_diag = s->diag;
	s->diag = &s->thread_diag;
	s->shown_stored = s->stored_bytes;
	s->origin = (uint64_t)st.st_size - evi_source_stored_size(s);
	if (!(s->thread = evi_ahead_start(fill_ahead, stored_mark, s)))
		s->diag = s->caller_diag;
}

/* Joins the thread; the caller's thread owns the source again. */
static void stop_thread(evi_source *s)
{
	if (!s->thread)
		return;
	evi_ahead_stop(s->thread);
	s->thread = NULL;
	s->diag = s->caller_diag;
}

static int read_ahead(evi_source *s, uint8_t *dst, size_t cap, size_t *got)
{
	int rc = evi_ahead_read(s->thread, dst, cap, got);

	if (*got > 0) {
		s->shown_stored = evi_ahead_mark(s->thread);
		return EV_OK;
	}
	/* The thread stopped at the end of the input for now, or at an
	 * error: reading goes on here. */
	stop_thread(s);
	if (rc < 0) {
		*s->diag = s->thread_diag;
		s->pending = rc == EV_EFORMAT;
		return rc;
	}
	return read_gzip(s, dst, cap, got);
}

int evi_source_read(evi_source *s, uint8_t *dst, size_t cap, size_t *got)
{
	*got = 0;
	if (!s->kind_known) {
		int rc = sniff(s);
		if (rc < 0 || !s->kind_known)
			return rc;
		if (s->gzip)
			start_thread(s);
	}
	if (s->thread)
		return read_ahead(s, dst, cap, got);
	return s->gzip ? read_gzip(s, dst, cap, got)
		       : read_plain(s, dst, cap, got);
}

int evi_source_unread_fd(const evi_source *s, int *digest)
{
	if (s->fn || s->fd < 0 || s->kind_known || s->stored_bytes)
		return -1;
	*digest = s->digest != NULL;
	return s->fd;
}

int evi_source_memory(const evi_source *s, const uint8_t **data,
		      size_t *len)
{
	int gzip = !s->raw && evi_is_gzip(s->mem, s->mem_len);

	if (!in_memory(s) || gzip)
		return 0;
	*data = s->mem;
	*len = s->mem_len;
	return 1;
}

int evi_source_is_gzip(const evi_source *s)
{
	if (s->kind_known)
		return s->gzip;
	return in_memory(s) && !s->raw && evi_is_gzip(s->mem, s->mem_len);
}

int evi_source_gzip_incomplete(const evi_source *s)
{
	/* While the thread runs, bytes it inflated are still to come. */
	return s->gzip && (s->thread || s->place != BETWEEN_MEMBERS ||
			   unread(s) > 0);
}

uint64_t evi_source_input_bytes(const evi_source *s)
{
	if (s->thread)
		return s->shown_stored;
	return in_memory(s) ? s->mem_pos : s->stored_bytes;
}

uint64_t evi_source_stored_size(const evi_source *s)
{
	struct stat st;
	off_t at;

	if (s->fd < 0 || fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	/* While the thread reads, where the source started, measured when
	 * it began. */
	if (s->thread)
		return (uint64_t)st.st_size > s->origin
			       ? (uint64_t)st.st_size - s->origin
			       : 0;
	/* The reader may start mid-file (a second reader on the same fd);
	 * what it read ahead (sniffing) is behind the position already. */
	at = lseek(s->fd, 0, SEEK_CUR);
	if (at < 0 || (uint64_t)at < s->stored_bytes || at > st.st_size)
		return (uint64_t)st.st_size;
	return (uint64_t)st.st_size - ((uint64_t)at - s->stored_bytes);
}

int evi_source_digest(evi_source *s, uint64_t *out)
{
	uint8_t chunk[16384];
	size_t got;
	int rc;

	if (!s->digest)
		return EV_EINVAL;
	do
		rc = read_stored(s, chunk, sizeof chunk, &got);
	while (rc == EV_OK && got > 0);
	if (rc == EV_OK)
		*out = evi_digest_value(s->digest);
	return rc;
}
