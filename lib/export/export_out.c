/*
 * The output of an exporter (export_internal.h): the buffer of rendered
 * text, written to the sink in chunks, and event times as JSON
 * microseconds.
 *
 * Layering: the bottom of export (export.c -> the
 * formats -> this file). It calls no function of export.c or of the
 * formats; these helpers live here because all of them use them.
 */
#include "export_internal.h"
#include "internal.h"

int evi_export_check(ev_exporter *x)
{
	if (x->out.failed)
		return evi_fail(&x->diag, EV_ENOMEM, 0, 0, "out of memory");
	return EV_OK;
}

int evi_export_flush(ev_exporter *x, int force)
{
	int rc;

	if ((rc = evi_export_check(x)) < 0)
		return rc;
	if (!x->out.len || (!force && x->out.len < EVI_EXPORT_FLUSH_AT))
		return EV_OK;
	if ((rc = ev_sink_write(x->sink, x->out.data, x->out.len)) < 0) {
		x->diag = *ev_sink_diag(x->sink);
		x->diag.status = rc;
		return rc;
	}
	x->out.len = 0;
	return EV_OK;
}

char *evi_fmt_us(char *p, uint64_t ns)
{
	uint64_t us = ns / 1000;
	unsigned frac = (unsigned)(ns - us * 1000);

	p = evi_fmt_u64(p, us);
	p[0] = '.';
	p[1] = (char)('0' + frac / 100);
	evi_fmt_2digits(p + 2, frac % 100);
	return p + 4;
}

void evi_put_us(ev_text *t, uint64_t ns)
{
	char *p = evi_out_room(t, EVI_US_MAX);

	if (p)
		evi_out_end(t, evi_fmt_us(p, ns));
}
