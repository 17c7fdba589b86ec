/*
 * Gzip member headers (RFC 1952) as evtool reads them, with the digest
 * subfield of evtool's archives: every gzip input (lib/io/source.c) and
 * the archive reader (lib/archive/) parse them here. The header is parsed
 * here rather than by zlib so that the extra field and every header
 * problem can be named.
 */
#include "evtool/archive.h"

#include <string.h>
#include <zlib.h>

#include "gzip.h"
#include "common_internal.h"
#include "io_internal.h"

#define EVENTLOG_MAGIC "hdrb"

static int header_truncated(ev_diag *d, size_t len)
{
	return evi_fail(d, EV_ETRUNCATED, len, 0,
			"the input ends inside a gzip header (%zu bytes of it)",
			len);
}

static int not_gzip(ev_diag *d, const uint8_t *p, size_t len)
{
	char seen[32];
	int eventlog = len >= 4 && memcmp(p, EVENTLOG_MAGIC, 4) == 0;
	const char *tool = evi_foreign_compression(p, len);

	evi_quote_magic(p, len < 4 ? len : 4, seen, sizeof seen);
	if (tool)
		return evi_fail(d, EV_EFORMAT, 0, 0, "not gzip data: %s-"
				"compressed data (it starts with \"%s\")",
				tool, seen);
	return evi_fail(d, EV_EFORMAT, 0, 0,
			"not gzip data: it starts with \"%s\"%s", seen,
			eventlog ? ", an uncompressed eventlog" : "");
}

/* Looks for our subfield among the extra field's (RFC 1952 2.3.1.1);
 * others are skipped, as gzip does. `x` starts at header offset `base`.
 * An 'E' 'V' subfield is ours, so one that is not exactly a version byte
 * and the 8-byte digest, or of a version this reader does not know, is
 * an error: read as plain gzip it would pass `--test` unchecked. */
static int parse_extra(evi_gzip_header *out, const uint8_t *x, size_t n,
		       size_t base, ev_diag *d)
{
	size_t at = 0;

	while (at + 4 <= n) {
		size_t len = evi_le16(x + at + 2);
		const uint8_t *data = x + at + 4;
		int ours = x[at] == EV_ARCHIVE_SUBFIELD_ID1 &&
			   x[at + 1] == EV_ARCHIVE_SUBFIELD_ID2;
		if (ours && (len != EVI_ARCHIVE_SUBFIELD_DATA ||
			     at + 4 + len > n))
			return evi_fail(d, EV_EFORMAT, base + at + 2, 0,
					"the 'EV' digest subfield declares %zu "
					"data bytes (%zu present), not %u: the "
					"header is damaged", len,
					n - at - 4 < len ? n - at - 4 : len,
					EVI_ARCHIVE_SUBFIELD_DATA);
		if (at + 4 + len > n)
			return EV_OK;
		if (ours && (data[0] < EV_ARCHIVE_KIND_WHOLE ||
			     data[0] > EV_ARCHIVE_KIND_LAST))
			return evi_fail(d, EV_EFORMAT, base + at + 4, 0,
					"the 'EV' digest subfield has kind %u, "
					"which this evtool does not know (it "
					"knows %u to %u)", data[0],
					EV_ARCHIVE_KIND_WHOLE,
					EV_ARCHIVE_KIND_LAST);
		if (ours) {
			out->has_digest = 1;
			out->kind = data[0];
			out->digest = ev_load64(data + 1);
		}
		at += 4 + len;
	}
	return EV_OK;
}

/* Moves *at past a NUL-terminated FNAME or FCOMMENT. */
static int skip_string(const uint8_t *p, size_t len, size_t *at, ev_diag *d)
{
	const uint8_t *nul = *at < len ? memchr(p + *at, 0, len - *at) : NULL;

	if (!nul)
		return header_truncated(d, len);
	*at = (size_t)(nul - p) + 1;
	return EV_OK;
}

static int parse_optional(evi_gzip_header *out, const uint8_t *p,
			  size_t len, ev_diag *d)
{
	unsigned flags = p[3];
	size_t at = EVI_GZIP_FIXED_HEADER;
	int rc;

	if (flags & EVI_GZIP_FEXTRA) {
		size_t xlen;
		if (len < at + 2)
			return header_truncated(d, len);
		xlen = evi_le16(p + at);
		at += 2;
		if (len < at + xlen)
			return header_truncated(d, len);
		if ((rc = parse_extra(out, p + at, xlen, at, d)) < 0)
			return rc;
		at += xlen;
	}
	if ((flags & EVI_GZIP_FNAME) && (rc = skip_string(p, len, &at, d)) < 0)
		return rc;
	if ((flags & EVI_GZIP_FCOMMENT) &&
	    (rc = skip_string(p, len, &at, d)) < 0)
		return rc;
	if (flags & EVI_GZIP_FHCRC) {
		if (len < at + 2)
			return header_truncated(d, len);
		if ((crc32(0, p, (uInt)at) & 0xffffu) != evi_le16(p + at))
			return evi_fail(d, EV_EFORMAT, at, 0,
					"the gzip header's CRC does not match: "
					"the header is damaged");
		at += 2;
	}
	out->size = (uint32_t)at;
	return EV_OK;
}

int ev_is_gzip(const void *data, size_t len)
{
	return evi_is_gzip(data, len);
}

int evi_gzip_parse_header(evi_gzip_header *out, const void *data,
			    size_t len, ev_diag *diag)
{
	const uint8_t *p = data;
	ev_diag scratch;
	ev_diag *d = diag ? diag : &scratch;

	memset(out, 0, sizeof *out);
	if ((len >= 1 && p[0] != EVI_GZIP_ID1) ||
	    (len >= 2 && p[1] != EVI_GZIP_ID2))
		return not_gzip(d, p, len);
	if (len < EVI_GZIP_FIXED_HEADER)
		return header_truncated(d, len);
	if (p[2] != EVI_GZIP_DEFLATE)
		return evi_fail(d, EV_EFORMAT, 2, 0,
				"gzip compression method %u is not deflate (8)",
				p[2]);
	if (p[3] & EVI_GZIP_FRESERVED)
		return evi_fail(d, EV_EFORMAT, 3, 0,
				"reserved gzip header flags are set (0x%02x)",
				p[3]);
	out->mtime = evi_le32(p + 4);
	return parse_optional(out, p, len, d);
}
