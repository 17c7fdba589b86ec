/*
 * Reading archives: a reader that inflates member after member and checks
 * each member's CRC-32, length and digest. Member headers are parsed by
 * lib/io/gzip.c (evi_gzip_parse_header), which every gzip input
 * shares.
 *
 * The deflate data is inflated raw and the trailer is checked here, so that a mismatch message can
 * show both values. A member wholly in the stored buffer that inflates to
 * at most MEMBER_OUT bytes (every member of evtool's archives) is
 * inflated at once with libdeflate; any other, or one libdeflate finds
 * damaged, is streamed with zlib, which names the problem. A large
 * regular file (at least THREAD_MIN bytes) is read, inflated and checked
 * ahead in a thread of its own (read_ahead.h) while the caller uses the
 * bytes before; built with ISA-L, that thread streams members with it,
 * and zlib inflates a member again when ISA-L finds it damaged or cut.
 */
#include "evtool/archive.h"

#include <errno.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zlib.h>
#ifdef EVTOOL_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "gzip.h"
#include "internal.h"
#include "read_ahead.h"

/* Room for a whole member of MEMBER_OUT bytes of log, even stored. */
#define MEMBER_OUT EV_ARCHIVE_DEFAULT_CHUNK
#define STORED_BUFFER (MEMBER_OUT + MEMBER_OUT / 8)
#define RAW_WINDOW_BITS (-15)
/* Reading ahead in a thread from this stored size. */
#define THREAD_MIN (8u * 1024u * 1024u)

/* ---- the reader ---- */

enum reader_place { AT_HEADER, IN_DATA, AT_TRAILER };

struct ev_archive_reader {
	char *name;
	int fd;
	int close_fd;
	ev_diag diag;
	int status; /* 0 while reading, then EV_END or the error */

	/* Unread stored bytes are in[pos, end); in[0] is at offset base. */
	uint8_t *in;
	size_t pos;
	size_t end;
	uint64_t base;
	int eof;

	enum reader_place place;
	int fresh;              /* no deflate data of the member read yet */
	z_stream z;
	int z_ready;
	struct libdeflate_decompressor *whole;
	uint8_t *out;           /* a whole member's log, out[out_pos, out_len) */
	size_t out_pos;
	size_t out_len;
	evi_gzip_header member;
	uint64_t member_start; /* stored offset of the member's header */
	uint64_t member_bytes;
	uint32_t member_crc;
	/* The log being read, from the header of its first member to the
	 * trailer of its last. */
	int span_open;
	uint64_t span_digest;
	uint64_t span_start;    /* stored offset of its first member */
	unsigned span_first;    /* its first member's number */
	XXH3_state_t *span_hash;
	XXH3_state_t *all_hash;
	ev_archive_stats stats;
	/* Reading ahead: the thread owns all of the above while it runs, but
	 * all_hash, which the caller's thread updates with the bytes it takes
	 * (the CRC-32 and a log's digest are checked at member ends, by the
	 * thread; the whole content's digest only at the end). */
	evi_ahead *thread;
	int thread_tried;
	int caller_hashes;
#ifdef EVTOOL_HAVE_ISAL
	/* Reading ahead, a streamed member is inflated by ISA-L; a damaged
	 * one, or one the input ends in, again by zlib from its start
	 * (replay_with_zlib), so that messages and offsets are zlib's. */
	struct inflate_state *isal;
	int isal_on;
	off_t member_at;        /* the file offset of its deflate data */
	uint64_t member_stored; /* its stored offset */
	int replay_rc;          /* zlib's verdict, after the bytes in out */
#endif
};

static uint64_t stored_offset(const ev_archive_reader *r)
{
	return r->base + r->pos;
}

static int fail(ev_archive_reader *r, int status, uint64_t offset,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail(ev_archive_reader *r, int status, uint64_t offset,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	evi_vfail(&r->diag, EV_ORIGIN_INPUT, 0, status, offset, 0, fmt, ap);
	va_end(ap);
	return status;
}

/* Reads more stored bytes after the unread ones. 1: some came, 0: end of
 * input, negative: error. */
static int refill(ev_archive_reader *r)
{
	ssize_t n;

	if (r->pos > 0) {
		memmove(r->in, r->in + r->pos, r->end - r->pos);
		r->base += r->pos;
		r->end -= r->pos;
		r->pos = 0;
	}
	if (r->eof || r->end == STORED_BUFFER)
		return 0;
	do
		n = read(r->fd, r->in + r->end, STORED_BUFFER - r->end);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail(r, EV_EIO, stored_offset(r) + (r->end - r->pos),
			    "read failed: %s", strerror(errno));
	if (n == 0)
		r->eof = 1;
	r->end += (size_t)n;
	return n > 0;
}

/* 1 when `n` unread bytes are there, 0 when the input has fewer. */
static int need(ev_archive_reader *r, size_t n)
{
	while (r->end - r->pos < n) {
		int rc = refill(r);
		if (rc <= 0)
			return rc;
	}
	return 1;
}

static int open_reader(ev_archive_reader **out, int fd, int close_fd,
		       const char *name, ev_diag *diag)
{
	ev_archive_reader *r = calloc(1, sizeof *r);

	*out = NULL;
	if (r) {
		r->fd = fd;
		r->close_fd = close_fd;
		r->name = strdup(name ? name : "<input>");
		r->in = malloc(STORED_BUFFER);
		r->span_hash = XXH3_createState();
		r->all_hash = XXH3_createState();
	}
	if (!r || !r->name || !r->in || !r->span_hash || !r->all_hash ||
	    XXH3_64bits_reset(r->all_hash) != XXH_OK ||
	    inflateInit2(&r->z, RAW_WINDOW_BITS) != Z_OK) {
		if (r)
			r->close_fd = 0;
		ev_archive_reader_free(r);
		if (close_fd)
			close(fd);
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	}
	r->z_ready = 1;
	*out = r;
	return EV_OK;
}

int ev_archive_reader_open_path(ev_archive_reader **out, const char *path,
				ev_diag *diag)
{
	int fd;

	if (strcmp(path, "-") == 0)
		return open_reader(out, STDIN_FILENO, 0, "<stdin>", diag);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*out = NULL;
		return evi_fail(diag, EV_EIO, 0, 0, "cannot open: %s",
				strerror(errno));
	}
	return open_reader(out, fd, 1, path, diag);
}

int ev_archive_reader_open_fd(ev_archive_reader **out, int fd,
			      const char *name, ev_diag *diag)
{
	return open_reader(out, fd, 0, name, diag);
}

void ev_archive_reader_free(ev_archive_reader *r)
{
	if (!r)
		return;
	evi_ahead_stop(r->thread);
#ifdef EVTOOL_HAVE_ISAL
	free(r->isal);
#endif
	if (r->z_ready)
		inflateEnd(&r->z);
	if (r->whole)
		libdeflate_free_decompressor(r->whole);
	free(r->out);
	if (r->close_fd && r->fd >= 0)
		close(r->fd);
	if (r->span_hash)
		XXH3_freeState(r->span_hash);
	if (r->all_hash)
		XXH3_freeState(r->all_hash);
	free(r->in);
	free(r->name);
	free(r);
}

/* At the end of a log's last member: checks the log's digest against
 * its members' content. */
static int end_span(ev_archive_reader *r)
{
	uint64_t digest = XXH3_64bits_digest(r->span_hash);

	r->span_open = 0;
	if (digest == r->span_digest)
		return EV_OK;
	if (r->span_first == r->stats.members)
		return fail(r, EV_EFORMAT, r->span_start,
			    "xxh3-64 mismatch in gzip member %u: the content's "
			    "is %016llx, the header says %016llx (the CRC-32 "
			    "matches, so the header was damaged or rewritten)",
			    r->span_first, (unsigned long long)digest,
			    (unsigned long long)r->span_digest);
	return fail(r, EV_EFORMAT, r->span_start,
		    "xxh3-64 mismatch in gzip members %u-%u: their content's "
		    "is %016llx, the headers say %016llx (each member's "
		    "CRC-32 matches, so a header was damaged or rewritten)",
		    r->span_first, r->stats.members,
		    (unsigned long long)digest,
		    (unsigned long long)r->span_digest);
}

static int out_of_place(ev_archive_reader *r)
{
	if (r->span_open)
		return fail(r, EV_EFORMAT, r->member_start,
			    "gzip member %u is not the next member of the log "
			    "that gzip member %u started: members were lost, "
			    "reordered or mixed", r->stats.members + 1,
			    r->span_first);
	return fail(r, EV_EFORMAT, r->member_start,
		    "gzip member %u continues a log of xxh3-64 %016llx whose "
		    "first member is not before it: members were lost, "
		    "reordered or mixed", r->stats.members + 1,
		    (unsigned long long)r->member.digest);
}

/* A member continues the log being read, starts a log, or is plain
 * gzip. */
static int enter_span(ev_archive_reader *r)
{
	int kind = r->member.kind;
	int continues = kind == EV_ARCHIVE_KIND_MIDDLE ||
			kind == EV_ARCHIVE_KIND_LAST;

	if (continues != r->span_open ||
	    (continues && r->member.digest != r->span_digest))
		return out_of_place(r);
	if (continues || !r->member.has_digest)
		return EV_OK;
	if (XXH3_64bits_reset(r->span_hash) != XXH_OK)
		return fail(r, EV_ENOMEM, r->member_start, "out of memory");
	r->span_open = 1;
	r->span_digest = r->member.digest;
	r->span_start = r->member_start;
	r->span_first = r->stats.members + 1;
	if (r->stats.digests++ == 0)
		r->stats.stored_digest = r->member.digest;
	return EV_OK;
}

/* Counts the members that a digest covers. */
static int enter_log(ev_archive_reader *r)
{
	int rc = enter_span(r);

	if (rc == EV_OK && r->span_open)
		r->stats.digested++;
	return rc;
}

static int start_member(ev_archive_reader *r)
{
	int rc = enter_log(r);

	if (rc < 0)
		return rc;
	r->pos += r->member.size;
	if (inflateReset(&r->z) != Z_OK)
		return fail(r, EV_ENOMEM, stored_offset(r), "out of memory");
	r->member_crc = (uint32_t)crc32(0, NULL, 0);
	r->member_bytes = 0;
	r->stats.members++;
	r->place = IN_DATA;
	r->fresh = 1;
	return EV_OK;
}

static int header_failed(ev_archive_reader *r, const ev_diag *d)
{
	if (d->status == EV_ETRUNCATED && r->stats.members == 0 &&
	    r->end == r->pos)
		return fail(r, EV_EFORMAT, 0,
			    "the file is empty: no gzip data");
	if (d->status == EV_ETRUNCATED)
		return fail(r, EV_ETRUNCATED, stored_offset(r) + d->offset,
			    "the archive is cut short: %s", d->message);
	if (r->stats.members == 0)
		return fail(r, d->status, stored_offset(r) + d->offset, "%s",
			    d->message);
	return fail(r, d->status, stored_offset(r) + d->offset,
		    "gzip member %u: %s", r->stats.members + 1, d->message);
}

static int read_header(ev_archive_reader *r)
{
	ev_diag d;

	r->member_start = stored_offset(r);
	for (;;) {
		int rc = evi_gzip_parse_header(&r->member, r->in + r->pos,
						 r->end - r->pos, &d);
		if (rc == EV_OK)
			return start_member(r);
		if (rc != EV_ETRUNCATED)
			return header_failed(r, &d);
		if (r->end - r->pos == STORED_BUFFER)
			return fail(r, EV_ELIMIT, r->member_start,
				    "a gzip header longer than %u KiB",
				    STORED_BUFFER >> 10);
		if ((rc = refill(r)) < 0)
			return rc;
		if (rc == 0)
			return header_failed(r, &d);
	}
}

static void account(ev_archive_reader *r, const uint8_t *p, size_t n)
{
	if (n == 0)
		return;
	r->member_crc = (uint32_t)libdeflate_crc32(r->member_crc, p, n);
	if (r->span_open)
		XXH3_64bits_update(r->span_hash, p, n);
	if (!r->caller_hashes)
		XXH3_64bits_update(r->all_hash, p, n);
	r->member_bytes += n;
	r->stats.log_bytes += n;
}

static int corrupt(ev_archive_reader *r)
{
	return fail(r, EV_EFORMAT, stored_offset(r),
		    "the compressed data of gzip member %u is corrupt (%s); "
		    "%llu bytes of log were restored before it",
		    r->stats.members, r->z.msg ? r->z.msg : "zlib error",
		    (unsigned long long)r->stats.log_bytes);
}

/* The offset is where the input ends. */
static int cut_short(ev_archive_reader *r, const char *where)
{
	return fail(r, EV_ETRUNCATED, r->base + r->end,
		    "the archive is cut short: it ends inside %s of gzip "
		    "member %u, after %llu bytes of log",
		    where, r->stats.members,
		    (unsigned long long)r->stats.log_bytes);
}

/* Inflates the member's deflate data at once when all of it is in the
 * buffer and it is small enough. 1: done, its log in `out`. */
static int inflate_whole(ev_archive_reader *r)
{
	size_t used, n;

	while (r->end - r->pos < STORED_BUFFER && !r->eof)
		if (refill(r) < 0)
			return 0; /* zlib's streaming meets the error too */
	if (!r->out && !(r->out = malloc(MEMBER_OUT)))
		return 0;
	if (!r->whole && !(r->whole = libdeflate_alloc_decompressor()))
		return 0;
	if (libdeflate_deflate_decompress_ex(r->whole, r->in + r->pos,
					     r->end - r->pos, r->out,
					     MEMBER_OUT, &used, &n) !=
	    LIBDEFLATE_SUCCESS)
		return 0;
	r->pos += used;
	r->out_pos = 0;
	r->out_len = n;
	account(r, r->out, n);
	r->place = AT_TRAILER;
	return 1;
}

static void take_whole(ev_archive_reader *r, uint8_t *dst, size_t cap,
		       size_t *got)
{
	size_t n = r->out_len - r->out_pos;

	*got = n < cap ? n : cap;
	memcpy(dst, r->out + r->out_pos, *got);
	r->out_pos += *got;
}

#ifdef EVTOOL_HAVE_ISAL
/* After libdeflate declined the member (reading ahead only): ISA-L's. */
static void start_isal(ev_archive_reader *r)
{
	off_t at;

	r->isal_on = 0;
	if (!r->isal || (at = lseek(r->fd, 0, SEEK_CUR)) < 0 ||
	    (uint64_t)at < r->end - r->pos)
		return;
	isal_inflate_init(r->isal);
	r->isal->crc_flag = ISAL_DEFLATE;
	r->member_at = at - (off_t)(r->end - r->pos);
	r->member_stored = stored_offset(r);
	r->isal_on = 1;
}

/* Inflates the member again with zlib from its start: the bytes ISA-L
 * gave count for its CRC-32 and length only; what zlib gives past them
 * waits in `out`, and a damage zlib finds in that call is reported
 * after them. */
static int replay_with_zlib(ev_archive_reader *r)
{
	uint64_t given = r->member_bytes, skipped = 0;
	int zrc, rc;

	r->isal_on = 0;
	if (!r->out && !(r->out = malloc(MEMBER_OUT)))
		return fail(r, EV_ENOMEM, stored_offset(r), "out of memory");
	if (lseek(r->fd, r->member_at, SEEK_SET) < 0)
		return fail(r, EV_EIO, stored_offset(r), "cannot seek: %s",
			    strerror(errno));
	r->base = r->member_stored;
	r->pos = r->end = 0;
	r->eof = 0;
	r->member_crc = (uint32_t)crc32(0, NULL, 0);
	r->member_bytes = 0;
	if (inflateReset(&r->z) != Z_OK)
		return fail(r, EV_ENOMEM, stored_offset(r), "out of memory");
	for (;;) {
		size_t got, skip;
		if (r->pos == r->end && (rc = refill(r)) <= 0)
			return rc; /* at the end: inflate_some says so */
		r->z.next_in = r->in + r->pos;
		r->z.avail_in = (uInt)(r->end - r->pos);
		r->z.next_out = r->out;
		r->z.avail_out = MEMBER_OUT;
		zrc = inflate(&r->z, Z_NO_FLUSH);
		r->pos = (size_t)(r->z.next_in - r->in);
		got = (size_t)(r->z.next_out - r->out);
		skip = given - skipped < got ? (size_t)(given - skipped) : got;
		r->member_crc = (uint32_t)libdeflate_crc32(r->member_crc,
							   r->out, skip);
		r->member_bytes += skip;
		skipped += skip;
		if (got > skip) {
			account(r, r->out + skip, got - skip);
			r->out_pos = skip;
			r->out_len = got;
		}
		if (zrc == Z_STREAM_END)
			r->place = AT_TRAILER;
		else if (zrc != Z_OK && zrc != Z_BUF_ERROR)
			r->replay_rc = corrupt(r);
		if (got > skip || zrc != Z_OK)
			return EV_OK;
	}
}

static int inflate_isal(ev_archive_reader *r, uint8_t *dst, size_t cap,
			size_t *got)
{
	struct inflate_state *st = r->isal;
	int irc;

	if (r->pos == r->end) {
		int rc = refill(r);
		if (rc < 0)
			return rc;
		if (rc == 0)
			return replay_with_zlib(r);
	}
	st->next_in = r->in + r->pos;
	st->avail_in = (uint32_t)(r->end - r->pos);
	st->next_out = dst;
	st->avail_out = (uint32_t)(cap > UINT32_MAX ? UINT32_MAX : cap);
	irc = isal_inflate(st);
	if (irc < 0)
		return replay_with_zlib(r);
	r->pos = (size_t)(st->next_in - r->in);
	*got = (size_t)(st->next_out - dst);
	account(r, dst, *got);
	if (st->block_state == ISAL_BLOCK_FINISH) {
		/* The whole bytes of ISA-L's bit buffer are the trailer's. */
		r->pos -= (size_t)st->read_in_length / 8;
		r->isal_on = 0;
		r->place = AT_TRAILER;
	}
	return EV_OK;
}
#endif

static int inflate_some(ev_archive_reader *r, uint8_t *dst, size_t cap,
			size_t *got)
{
	if (r->fresh) {
		r->fresh = 0;
		if (inflate_whole(r))
			return EV_OK;
#ifdef EVTOOL_HAVE_ISAL
		start_isal(r);
#endif
	}
#ifdef EVTOOL_HAVE_ISAL
	if (r->isal_on)
		return inflate_isal(r, dst, cap, got);
#endif
	while (*got == 0) {
		int zrc;
		if (r->pos == r->end) {
			int rc = refill(r);
			if (rc < 0)
				return rc;
			if (rc == 0)
				return cut_short(r, "the compressed data");
		}
		r->z.next_in = r->in + r->pos;
		r->z.avail_in = (uInt)(r->end - r->pos);
		r->z.next_out = dst;
		r->z.avail_out = (uInt)(cap > UINT32_MAX ? UINT32_MAX : cap);
		zrc = inflate(&r->z, Z_NO_FLUSH);
		r->pos = (size_t)(r->z.next_in - r->in);
		*got = (size_t)(r->z.next_out - dst);
		account(r, dst, *got);
		if (zrc == Z_STREAM_END) {
			r->place = AT_TRAILER;
			return EV_OK;
		}
		if (zrc != Z_OK && zrc != Z_BUF_ERROR)
			return corrupt(r);
	}
	return EV_OK;
}

static int check_member(ev_archive_reader *r, uint32_t crc, uint32_t isize)
{
	if (crc != r->member_crc)
		return fail(r, EV_EFORMAT, stored_offset(r),
			    "CRC-32 mismatch in gzip member %u: the content's "
			    "is %08x, the trailer says %08x: the archive is "
			    "damaged", r->stats.members, r->member_crc, crc);
	if (isize != (uint32_t)r->member_bytes)
		return fail(r, EV_EFORMAT, stored_offset(r) + 4,
			    "length mismatch in gzip member %u: %llu bytes "
			    "inflated, the trailer says %u (modulo 2^32)",
			    r->stats.members,
			    (unsigned long long)r->member_bytes, isize);
	if (!r->span_open || r->member.kind == EV_ARCHIVE_KIND_FIRST ||
	    r->member.kind == EV_ARCHIVE_KIND_MIDDLE)
		return EV_OK;
	return end_span(r);
}

/* After a member: the end, another member, or bytes that are neither. */
static int after_member(ev_archive_reader *r)
{
	int rc = need(r, 1);

	if (rc < 0)
		return rc;
	if (rc == 0 && r->span_open)
		return fail(r, EV_ETRUNCATED, stored_offset(r),
			    "the archive is cut short: it ends after gzip "
			    "member %u, before the last member of the log "
			    "that gzip member %u started, after %llu bytes of "
			    "log", r->stats.members, r->span_first,
			    (unsigned long long)r->stats.log_bytes);
	if (rc == 0)
		return EV_END;
	if (r->in[r->pos] != EVI_GZIP_ID1)
		return fail(r, EV_EFORMAT, stored_offset(r),
			    "unexpected bytes after the end of the gzip data "
			    "(gzip member %u ended here)", r->stats.members);
	r->place = AT_HEADER;
	return EV_OK;
}

static int read_trailer(ev_archive_reader *r)
{
	int rc = need(r, EVI_GZIP_TRAILER);

	if (rc < 0)
		return rc;
	if (rc == 0)
		return cut_short(r, "the trailer");
	rc = check_member(r, evi_le32(r->in + r->pos),
			  evi_le32(r->in + r->pos + 4));
	if (rc < 0)
		return rc;
	r->pos += EVI_GZIP_TRAILER;
	return after_member(r);
}

static int read_here(ev_archive_reader *r, uint8_t *dst, size_t cap,
		     size_t *got)
{
	int rc = EV_OK;

	*got = 0;
	if (r->status)
		return r->status;
	while (rc == EV_OK && *got == 0) {
		if (r->out_pos < r->out_len)
			take_whole(r, dst, cap, got);
#ifdef EVTOOL_HAVE_ISAL
		else if (r->replay_rc)
			rc = r->replay_rc;
#endif
		else if (r->place == AT_HEADER)
			rc = read_header(r);
		else if (r->place == IN_DATA)
			rc = inflate_some(r, dst, cap, got);
		else
			rc = read_trailer(r);
	}
	r->stats.stored_bytes = stored_offset(r);
	if (rc == EV_OK)
		return EV_OK;
	if (!r->caller_hashes)
		r->stats.content_digest = XXH3_64bits_digest(r->all_hash);
	r->status = rc;
	/* Hand out the good bytes first; the next call reports the rest. */
	return *got > 0 ? EV_OK : rc;
}

static int fill_ahead(void *ctx, uint8_t *dst, size_t cap, size_t *got)
{
	int rc = read_here(ctx, dst, cap, got);

	return rc == EV_OK && *got == 0 ? EV_END : rc;
}

static void start_thread(ev_archive_reader *r)
{
	struct stat st;

	r->thread_tried = 1;
	if (fstat(r->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < (off_t)THREAD_MIN)
		return;
	r->caller_hashes = 1;
#ifdef EVTOOL_HAVE_ISAL
	r->isal = malloc(sizeof *r->isal); /* NULL: zlib, as before */
#endif
	if (!(r->thread = evi_ahead_start(fill_ahead, NULL, r)))
		r->caller_hashes = 0;
}

int ev_archive_reader_read(ev_archive_reader *r, void *dst, size_t cap,
			   size_t *got)
{
	int rc;

	*got = 0;
	if (cap == 0)
		return EV_EINVAL;
	if (!r->thread_tried)
		start_thread(r);
	if (!r->thread)
		return read_here(r, dst, cap, got);
	rc = evi_ahead_read(r->thread, dst, cap, got);
	if (*got > 0) {
		XXH3_64bits_update(r->all_hash, dst, *got);
		return EV_OK;
	}
	/* The thread stopped at the end or at an error, which read_here
	 * keeps in r->status; every byte it inflated was taken. */
	evi_ahead_stop(r->thread);
	r->thread = NULL;
	r->stats.content_digest = XXH3_64bits_digest(r->all_hash);
	return rc;
}

const ev_archive_stats *ev_archive_reader_result(const ev_archive_reader *r)
{
	return &r->stats;
}

const ev_diag *ev_archive_reader_diag(const ev_archive_reader *r)
{
	return &r->diag;
}

/* ---- checking ---- */

static int drain(ev_archive_reader *r, ev_diag *diag)
{
	uint8_t *buf = malloc(STORED_BUFFER);
	size_t got;
	int rc;

	if (!buf)
		return evi_fail(diag, EV_ENOMEM, 0, 0, "out of memory");
	while ((rc = ev_archive_reader_read(r, buf, STORED_BUFFER, &got)) ==
	       EV_OK)
		;
	free(buf);
	if (rc == EV_END)
		return EV_OK;
	*diag = r->diag;
	return rc;
}

int ev_archive_check_fd(int fd, const char *name, ev_archive_stats *stats,
			ev_diag *diag)
{
	ev_archive_reader *r;
	ev_diag scratch;
	ev_diag *d = diag ? diag : &scratch;
	int rc = ev_archive_reader_open_fd(&r, fd, name, NULL);

	memset(d, 0, sizeof *d);
	if (rc < 0)
		return evi_fail(d, rc, 0, 0, "%s", ev_strerror(rc));
	rc = drain(r, d);
	if (stats)
		*stats = r->stats;
	ev_archive_reader_free(r);
	return rc;
}

/* The log's bytes for its validation, as the archive reader inflates and
 * checks them. */
static int read_log(void *ctx, void *dst, size_t cap, size_t *got)
{
	return ev_archive_reader_read(ctx, dst, cap, got);
}

int ev_archive_test_fd(int fd, const char *name, ev_archive_test *out)
{
	ev_archive_reader *ar;
	ev_reader *r;
	int rc = ev_archive_reader_open_fd(&ar, fd, name, NULL);

	memset(out, 0, sizeof *out);
	if (rc < 0)
		return evi_fail(&out->archive, rc, 0, 0, "%s", ev_strerror(rc));
	if ((rc = ev_reader_open_fn(&r, read_log, ar, name,
				    EV_READER_RAW, NULL)) < 0) {
		evi_fail(&out->log, rc, 0, 0, "%s", ev_strerror(rc));
	} else {
		ev_archive_check_log(r, &out->log);
		ev_reader_free(r);
	}
	/* Every member is checked, whatever the log holds. */
	rc = drain(ar, &out->archive);
	out->stats = ar->stats;
	ev_archive_reader_free(ar);
	return rc < 0 ? rc : out->log.status;
}
