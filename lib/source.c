/*
 * Byte sources: plain or gzip, from a file descriptor or from memory.
 *
 * Gzip is recognised by its magic bytes (1f 8b) and inflated with zlib,
 * member after member, so concatenated gzip files work. Reads never block
 * on more than the underlying read(2), and an end of input is reported as
 * "no bytes now": a source over a growing file can be read again later.
 */
#include "source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zlib.h>

#include "gzip.h"
#include "internal.h"

#define STORED_CHUNK (256u * 1024u)
/* Bytes read to tell gzip from a plain log: one page, so that a plain
 * log is not read twice over a large buffer. */
#define SNIFF_CHUNK 4096u
/* zlib window bits: 15 for the window, +16 for the gzip wrapper only. */
#define GZIP_WINDOW_BITS (15 + 16)

struct evi_source {
	int fd;
	int close_fd;
	const uint8_t *mem;
	size_t mem_len;
	size_t mem_pos;
	ev_diag *diag;
	XXH3_state_t *digest;
	uint64_t stored_bytes;

	int kind_known;
	int raw;
	int gzip;
	int member_done;
	int pending; /* an error found after returning the bytes before it */
	z_stream z;
	int z_ready;

	/* Stored bytes read ahead: the sniffed magic, or gzip input. */
	uint8_t *ahead;
	size_t ahead_cap;
	size_t ahead_pos;
	size_t ahead_len;
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
	if (digest) {
		s->digest = XXH3_createState();
		if (!s->digest || XXH3_64bits_reset(s->digest) != XXH_OK) {
			evi_source_free(s);
			return EV_ENOMEM;
		}
	}
	*out = s;
	return EV_OK;
}

void evi_source_free(evi_source *s)
{
	if (!s)
		return;
	if (s->z_ready)
		inflateEnd(&s->z);
	if (s->close_fd && s->fd >= 0)
		close(s->fd);
	if (s->digest)
		XXH3_freeState(s->digest);
	free(s->ahead);
	free(s);
}

/* Reads stored bytes (as they are in the file) into dst. */
static int read_stored(evi_source *s, uint8_t *dst, size_t cap, size_t *got)
{
	*got = 0;
	if (s->fd < 0) {
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
		XXH3_64bits_update(s->digest, dst, *got);
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
	if (s->ahead_len < 2 && s->fd >= 0 && !s->raw &&
	    (s->ahead_len == 0 || s->ahead[0] == EVI_GZIP_ID1))
		return EV_OK; /* not known yet: wait for more bytes */
	s->kind_known = 1;
	s->gzip = !s->raw && evi_is_gzip(s->ahead, s->ahead_len);
	if (s->gzip) {
		if (ensure_ahead_buffer(s, STORED_CHUNK) < 0 ||
		    inflateInit2(&s->z, GZIP_WINDOW_BITS) != Z_OK)
			return EV_ENOMEM;
		s->z_ready = 1;
		s->z.next_in = s->ahead;
		s->z.avail_in = (uInt)s->ahead_len;
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

static int refill_compressed(evi_source *s, size_t *got)
{
	int rc = read_stored(s, s->ahead, STORED_CHUNK, got);

	s->z.next_in = s->ahead;
	s->z.avail_in = (uInt)*got;
	return rc;
}

/* After one gzip member ends, more stored bytes start another member. */
static int start_next_member(evi_source *s)
{
	if (s->z.avail_in > 0 && s->z.next_in[0] != EVI_GZIP_ID1)
		return evi_fail(s->diag, EV_EFORMAT, 0, 0,
				"gzip: unexpected bytes after the compressed data "
				"(stored offset %llu)",
				(unsigned long long)(s->stored_bytes -
						     s->z.avail_in));
	if (inflateReset(&s->z) != Z_OK)
		return EV_ENOMEM;
	s->member_done = 0;
	return EV_OK;
}

static int inflate_failed(evi_source *s, size_t got)
{
	evi_fail(s->diag, EV_EFORMAT, 0, 0,
		 "gzip data is corrupt (%s) near stored offset %llu",
		 s->z.msg ? s->z.msg : "zlib error",
		 (unsigned long long)(s->stored_bytes - s->z.avail_in));
	/* Hand out the good bytes first; fail on the next call. */
	s->pending = got > 0;
	return got > 0 ? EV_OK : EV_EFORMAT;
}

static int read_gzip(evi_source *s, uint8_t *dst, size_t cap, size_t *got)
{
	*got = 0;
	if (s->pending)
		return EV_EFORMAT;
	while (*got == 0) {
		int zrc;
		if (s->z.avail_in == 0) {
			size_t stored;
			int rc = refill_compressed(s, &stored);
			if (rc < 0 || stored == 0)
				return rc;
		}
		if (s->member_done) {
			int rc = start_next_member(s);
			if (rc < 0)
				return rc;
		}
		s->z.next_out = dst;
		s->z.avail_out = (uInt)(cap > UINT32_MAX ? UINT32_MAX : cap);
		zrc = inflate(&s->z, Z_NO_FLUSH);
		*got = (size_t)(s->z.next_out - dst);
		if (zrc == Z_STREAM_END)
			s->member_done = 1;
		else if (zrc != Z_OK && zrc != Z_BUF_ERROR)
			return inflate_failed(s, *got);
	}
	return EV_OK;
}

int evi_source_read(evi_source *s, uint8_t *dst, size_t cap, size_t *got)
{
	*got = 0;
	if (!s->kind_known) {
		int rc = sniff(s);
		if (rc < 0 || !s->kind_known)
			return rc;
	}
	return s->gzip ? read_gzip(s, dst, cap, got)
		       : read_plain(s, dst, cap, got);
}

int evi_source_memory(const evi_source *s, const uint8_t **data,
		      size_t *len)
{
	int gzip = !s->raw && evi_is_gzip(s->mem, s->mem_len);

	if (s->fd >= 0 || gzip)
		return 0;
	*data = s->mem;
	*len = s->mem_len;
	return 1;
}

int evi_source_is_gzip(const evi_source *s)
{
	if (s->kind_known)
		return s->gzip;
	return s->fd < 0 && !s->raw && evi_is_gzip(s->mem, s->mem_len);
}

int evi_source_gzip_incomplete(const evi_source *s)
{
	return s->gzip && !s->member_done;
}

uint64_t evi_source_input_bytes(const evi_source *s)
{
	return s->fd < 0 ? s->mem_pos : s->stored_bytes;
}

uint64_t evi_source_stored_size(const evi_source *s)
{
	struct stat st;
	off_t at;

	if (s->fd < 0 || fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
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
		*out = XXH3_64bits_digest(s->digest);
	return rc;
}
