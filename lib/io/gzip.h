/*
 * The gzip member format (RFC 1952) as libevtool's archives use it; not
 * installed. Gzip's integers are little-endian, unlike the eventlog's.
 */
#ifndef EVTOOL_LIB_GZIP_H
#define EVTOOL_LIB_GZIP_H

#include <stddef.h>
#include <stdint.h>

#include "evtool/common.h"

#define EVI_GZIP_ID1 0x1fu
#define EVI_GZIP_ID2 0x8bu
#define EVI_GZIP_DEFLATE 8u
/* FLG bits. */
#define EVI_GZIP_FTEXT 0x01u
#define EVI_GZIP_FHCRC 0x02u
#define EVI_GZIP_FEXTRA 0x04u
#define EVI_GZIP_FNAME 0x08u
#define EVI_GZIP_FCOMMENT 0x10u
#define EVI_GZIP_FRESERVED 0xe0u
/* XFL for levels 9 and 1; OS 3 is Unix. */
#define EVI_GZIP_XFL_BEST 2u
#define EVI_GZIP_XFL_FAST 4u
#define EVI_GZIP_OS_UNIX 3u

/* ID1 ID2 CM FLG MTIME(4) XFL OS, then the optional parts. */
#define EVI_GZIP_FIXED_HEADER 10u
/* CRC32 and ISIZE (the length modulo 2^32). */
#define EVI_GZIP_TRAILER 8u
/* Our subfield: SI1 SI2 LEN(2), then a version byte and the digest. */
#define EVI_ARCHIVE_SUBFIELD_DATA 9u
#define EVI_ARCHIVE_SUBFIELD (4u + EVI_ARCHIVE_SUBFIELD_DATA)
/* The whole header the writer emits: fixed part, XLEN, one subfield. */
#define EVI_ARCHIVE_HEADER (EVI_GZIP_FIXED_HEADER + 2u + EVI_ARCHIVE_SUBFIELD)

/* Whether `len` bytes at `p` start a gzip member (its two magic bytes). */
static inline int evi_is_gzip(const uint8_t *p, size_t len)
{
	return len >= 2 && p[0] == EVI_GZIP_ID1 && p[1] == EVI_GZIP_ID2;
}

/* The compression whose magic starts the `len` bytes at `p`, among those
 * evtool recognises but does not read, by the name of the command that
 * decompresses it (each takes -dc): zstd (frame magic 0xFD2FB528,
 * little-endian), xz ("\xfd" "7zXZ"), bzip2 ("BZh" and a block size
 * digit) or lz4 (frame magic 0x184D2204, little-endian). NULL for any
 * other bytes; 4 are enough to tell. */
static inline const char *evi_foreign_compression(const uint8_t *p,
						  size_t len)
{
	static const struct {
		const char *name;
		uint8_t magic[4];
	} known[] = {
		{ "zstd", { 0x28, 0xb5, 0x2f, 0xfd } },
		{ "xz", { 0xfd, '7', 'z', 'X' } },
		{ "lz4", { 0x04, 0x22, 0x4d, 0x18 } },
	};

	if (len < 4)
		return NULL;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (p[0] == known[i].magic[0] && p[1] == known[i].magic[1] &&
		    p[2] == known[i].magic[2] && p[3] == known[i].magic[3])
			return known[i].name;
	if (p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' && p[3] >= '1' &&
	    p[3] <= '9')
		return "bzip2";
	return NULL;
}

static inline uint16_t evi_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (uint16_t)p[1] << 8);
}

static inline uint32_t evi_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline void evi_store_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void evi_store_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* What a gzip member header says. */
typedef struct evi_gzip_header {
	int has_digest;   /* an 'E' 'V' subfield of a known kind */
	int kind;         /* its kind byte (EV_ARCHIVE_KIND_*), or 0 */
	uint64_t digest;  /* valid when has_digest */
	uint32_t mtime;
	uint32_t size;    /* header bytes: where the deflate data starts */
} evi_gzip_header;

/*
 * Parses the gzip member header at the start of `len` bytes at `data`.
 * EV_OK: `out` is filled. EV_ETRUNCATED: the bytes so far are a header's
 * beginning; more are needed. EV_EFORMAT: not a gzip header (wrong magic
 * or method, reserved flags, bad header CRC), or an 'E' 'V' subfield
 * that is not 9 bytes or has an unknown kind byte (gzip.c; every gzip
 * input and the archive reader read it). `diag` may be NULL.
 */
int evi_gzip_parse_header(evi_gzip_header *out, const void *data, size_t len,
			  ev_diag *diag);

#endif
