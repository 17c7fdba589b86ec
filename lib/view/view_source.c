/*
 * A log read from one of its blocks (include/evtool/view.h): the header,
 * then the bytes from the block on, by pread, so that `evtool view` goes
 * back from its index to the exact events of a time; and the hop from a
 * block to the next of one capability, over the others' blocks.
 */
#include <errno.h>
#include <unistd.h>

#include "evtool/view.h"
#include "internal.h"

int ev_view_source_read(void *ctx, void *dst, size_t cap, size_t *got)
{
	ev_view_source *s = ctx;
	uint64_t where = s->pos < s->header_len
				 ? s->pos
				 : s->at + (s->pos - s->header_len);
	size_t want = cap;
	ssize_t n;

	if (s->pos < s->header_len && s->header_len - s->pos < want)
		want = (size_t)(s->header_len - s->pos);
	do
		n = pread(s->fd, dst, want, (off_t)where);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return EV_EIO;
	*got = (size_t)n;
	s->pos += (uint64_t)n;
	return n == 0 && want ? EV_END : EV_OK;
}

/* A block marker: u16 type 18, u64 time, then its payload, u32 size (the
 * marker's 24 bytes included), u64 end time, u16 cap (doc/format.md
 * section 2). */
#define MARKER_BYTES 24u
/* Markers read at once: runs of empty blocks (24 bytes each) are common. */
#define HOP_BUFFER 4096u

int ev_view_source_seek(const ev_view_source *s, uint16_t cap, uint64_t at,
			uint64_t *out)
{
	uint8_t buf[HOP_BUFFER];
	uint64_t base = 0, have = 0;

	for (;;) {
		const uint8_t *m;
		uint32_t size;

		if (at < base || at + MARKER_BYTES > base + have) {
			ssize_t n;
			do
				n = pread(s->fd, buf, sizeof buf, (off_t)at);
			while (n < 0 && errno == EINTR);
			if (n < 0)
				return EV_EIO;
			base = at;
			have = (uint64_t)n;
			if (have < MARKER_BYTES)
				break;
		}
		m = buf + (at - base);
		size = ev_load32(m + 10);
		if (ev_load16(m) != EV_BLOCK_MARKER || size < MARKER_BYTES ||
		    ev_load16(m + 22) == cap)
			break;
		at += size;
	}
	*out = at;
	return EV_OK;
}

/* At a block's end (or the start): on to the capability's next block
 * (c->left: its bytes), or to bytes that are no block marker, from which
 * all is given (c->all). */
static int next_block(ev_view_cap_source *c)
{
	ev_view_source *s = &c->src;
	uint64_t here = s->at + (s->pos - s->header_len), next;
	uint8_t marker[MARKER_BYTES];
	ssize_t n;
	int rc;

	if ((rc = ev_view_source_seek(s, c->cap, here, &next)) < 0)
		return rc;
	do
		n = pread(s->fd, marker, sizeof marker, (off_t)next);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return EV_EIO;
	s->at += next - here; /* the bytes hopped over vanish */
	if (n == MARKER_BYTES && ev_load16(marker) == EV_BLOCK_MARKER &&
	    ev_load32(marker + 10) >= MARKER_BYTES)
		c->left = ev_load32(marker + 10);
	else
		c->all = 1;
	return EV_OK;
}

int ev_view_cap_source_read(void *ctx, void *dst, size_t cap, size_t *got)
{
	ev_view_cap_source *c = ctx;
	int rc;

	if (c->src.pos >= c->src.header_len && !c->all && !c->left &&
	    (rc = next_block(c)) < 0)
		return rc;
	if (c->src.pos < c->src.header_len || c->all)
		return ev_view_source_read(&c->src, dst, cap, got);
	if (cap > c->left)
		cap = (size_t)c->left;
	if ((rc = ev_view_source_read(&c->src, dst, cap, got)) >= 0)
		c->left -= *got;
	return rc;
}
