/*
 * The payload decoder (decode.h): walks a payload along its catalogue
 * layout. Short payloads are not an error here: fields the payload does
 * not reach are left out, so that a renderer shows what there is, as
 * ghc-events shows the start of a cut record.
 */
#include "evtool/decode.h"

#include <string.h>

#include "internal.h"

static unsigned width_of(ev_field_kind kind)
{
	switch (kind) {
	case EV_FIELD_U8:
		return 1;
	case EV_FIELD_U16:
		return 2;
	case EV_FIELD_U32:
		return 4;
	case EV_FIELD_U64:
		return 8;
	default:
		return 0;
	}
}

/* Decodes one variable-width field at payload[at, size); returns the
 * bytes it takes. `count` is the value of the field before (list size). */
static uint32_t decode_var(ev_value *v, const uint8_t *p, uint32_t avail,
			   uint64_t count)
{
	const uint8_t *nul;

	v->bytes = p;
	switch (v->field->kind) {
	case EV_FIELD_TEXT_NUL:
		nul = memchr(p, 0, avail);
		v->len = nul ? (uint32_t)(nul - p) : avail;
		return nul ? v->len + 1 : avail;
	case EV_FIELD_U32_LIST:
		if (count > avail / 4)
			count = avail / 4;
		v->num = count;
		v->len = (uint32_t)count * 4;
		return v->len;
	default: /* TEXT, STRINGS, BYTES: the rest of the payload */
		v->len = avail;
		return avail;
	}
}

int ev_decode(const ev_event *ev, ev_decoded *out)
{
	const ev_layout *l = evi_catalog_layout(ev->type, ev->size);
	uint32_t at = 0;

	out->layout = l;
	out->n = 0;
	if (!l)
		return 0;
	for (unsigned i = 0; i < l->n_fields && i < EV_MAX_FIELDS; i++) {
		ev_value *v = &out->values[i];
		unsigned width = width_of(l->fields[i].kind);
		memset(v, 0, sizeof *v);
		v->field = &l->fields[i];
		if (width) {
			if (ev->size - at < width)
				break;
			v->num = evi_load_width(ev->payload + at, width);
			at += width;
		} else {
			/* An optional trailing string (TICKY_COUNTER_DEF's
			 * JSON) is absent when the payload has ended. */
			if (l->fields[i].kind == EV_FIELD_TEXT_NUL &&
			    at == ev->size)
				break;
			at += decode_var(v, ev->payload + at, ev->size - at,
					 i ? out->values[i - 1].num : 0);
		}
		out->n = i + 1;
	}
	return 1;
}

const ev_value *ev_decoded_field(const ev_decoded *d, const char *name)
{
	for (unsigned i = 0; i < d->n; i++)
		if (strcmp(d->values[i].field->name, name) == 0)
			return &d->values[i];
	return NULL;
}

/* WALL_CLOCK_TIME (43): capset u32, seconds u64, nanoseconds u32, right
 * after the event's timestamp (doc/format.md section 6). */
#define WALL_CLOCK_PAYLOAD 16
#define NS_PER_SEC 1000000000ull

int ev_wall_clock_epoch(const ev_event *ev, int64_t *epoch_ns, ev_diag *diag)
{
	uint64_t sec, nsec;

	if (ev->type != EV_WALL_CLOCK_TIME || ev->size < WALL_CLOCK_PAYLOAD)
		return EV_EINVAL;
	sec = ev_load64(ev->payload + 4);
	nsec = ev_load32(ev->payload + 12);
	if (sec > EV_WALL_CLOCK_MAX_SEC || nsec >= NS_PER_SEC ||
	    ev->time > (uint64_t)INT64_MAX) {
		ev_diag scratch;
		return evi_fail(diag ? diag : &scratch, EV_EFORMAT, ev->offset,
				ev->index, "WALL_CLOCK_TIME %llu s %llu ns is "
				"not a clock reading", (unsigned long long)sec,
				(unsigned long long)nsec);
	}
	*epoch_ns = (int64_t)(sec * NS_PER_SEC + nsec) - (int64_t)ev->time;
	return EV_OK;
}

int evi_need_fields(ev_diag *d, const ev_event *ev, const char *who)
{
	uint32_t need = evi_layout_min_size(ev->type);
	const ev_type_info *t;

	if (ev->size >= need)
		return EV_OK;
	t = ev_catalog_find(ev->type);
	return evi_fail(d, EV_EFORMAT, ev->offset, ev->index,
			"%s event of %u bytes is too short for the %u bytes "
			"of fields %s", t ? t->name : "an unknown",
			(unsigned)ev->size, (unsigned)need, who);
}

void evi_need_table_init(evi_need_table *t)
{
	for (unsigned id = 0; id < EVI_NEED_IDS; id++)
		t->min_size[id] = (uint16_t)evi_layout_min_size((uint16_t)id);
}
