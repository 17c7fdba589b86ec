/*
 * Fuzz target: the reader. Parses the header and every event of every
 * session of the input, then (for inputs small enough to deflate
 * cheaply) the same bytes gzip-compressed, which must decode to exactly
 * the same events and the same final status.
 */
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "evtool/catalog.h"
#include "evtool/reader.h"
#include "fuzz.h"

/* Deflating every input would slow the fuzzer down; big inputs are
 * covered by the plain pass. */
#define GZIP_MAX_INPUT (64u * 1024u)

typedef struct read_summary {
	int status;
	uint64_t events;
	uint64_t blocks;
	uint64_t payload_sum;
	unsigned sessions;
	uint64_t offset;
} read_summary;

static void read_all(const uint8_t *data, size_t size, unsigned flags,
		     read_summary *out)
{
	ev_reader *r = NULL;
	ev_event ev;
	int rc;

	memset(out, 0, sizeof *out);
	rc = ev_reader_open_memory(&r, data, size, "fuzz", flags, NULL);
	FUZZ_CHECK_STATUS(rc);
	if (rc < 0) {
		out->status = rc;
		return;
	}
	for (;;) {
		while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
			ev_block block;
			const ev_header *h = ev_reader_header(r);

			FUZZ_ASSERT(h != NULL);
			FUZZ_ASSERT(ev.size <= 65535u);
			out->events++;
			out->blocks += ev.type == EV_BLOCK_MARKER;
			if (ev.size > 0) {
				/* Touch the payload: ASan catches a view
				 * past the window. */
				out->payload_sum += ev.payload[0];
				out->payload_sum += ev.payload[ev.size - 1];
			}
			if (ev_reader_block(r, &block))
				FUZZ_ASSERT(block.cap == ev.cap ||
					    ev.type == 18);
		}
		FUZZ_CHECK_STATUS(rc);
		if (rc != EV_END)
			break;
		out->sessions++;
		rc = ev_reader_next_session(r);
		FUZZ_CHECK_STATUS(rc);
		if (rc != EV_OK)
			break;
	}
	out->status = rc;
	out->offset = ev_reader_offset(r);
	(void)ev_reader_diag(r)->message[0];
	(void)ev_reader_pending(r);
	ev_reader_free(r);
}

static int deflate_gzip(const uint8_t *data, size_t size, uint8_t **out,
			size_t *out_len)
{
	z_stream z;
	uLong cap = compressBound((uLong)size) + 64;
	uint8_t *buf = malloc(cap);

	if (!buf)
		return -1;
	memset(&z, 0, sizeof z);
	/* 15 + 16: a gzip wrapper, as evtool archive and gzip(1) write. */
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK) {
		free(buf);
		return -1;
	}
	z.next_in = (Bytef *)(uintptr_t)data;
	z.avail_in = (uInt)size;
	z.next_out = buf;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		free(buf);
		return -1;
	}
	*out_len = z.total_out;
	deflateEnd(&z);
	*out = buf;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_summary plain, gz;
	uint8_t *packed;
	size_t packed_len;

	read_all(data, size, 0, &plain);
	if (size > GZIP_MAX_INPUT || size < 2)
		return 0;
	/* Input that already is gzip was inflated by the pass above; read
	 * it raw too, so the gzip sniffing cannot hide the raw parser. */
	if (data[0] == 0x1f && data[1] == 0x8b) {
		read_all(data, size, EV_READER_RAW, &gz);
		return 0;
	}
	if (deflate_gzip(data, size, &packed, &packed_len) < 0)
		return 0;
	read_all(packed, packed_len, 0, &gz);
	free(packed);
	FUZZ_ASSERT(gz.status == plain.status);
	FUZZ_ASSERT(gz.events == plain.events);
	FUZZ_ASSERT(gz.blocks == plain.blocks);
	FUZZ_ASSERT(gz.payload_sum == plain.payload_sum);
	FUZZ_ASSERT(gz.sessions == plain.sessions);
	FUZZ_ASSERT(gz.offset == plain.offset);
	return 0;
}
