/*
 * A log read from one of its blocks (include/evtool/view.h): the header,
 * then the bytes from the block on, by pread, so that `evtool view` goes
 * back from its index to the exact events of a time.
 */
#include <errno.h>
#include <unistd.h>

#include "evtool/view.h"

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
