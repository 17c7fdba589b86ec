/*
 * NDJSON of show.h: one object per event, its fields decoded by name
 * through the catalogue's layout:
 *
 *   {"time":123,"cap":0,"type":"STOP_THREAD","id":2,
 *    "fields":{"thread":1,"status":5,"status_name":"ThreadFinished",
 *              "info":0}}
 *
 * "cap" is the enclosing block's capability (null for the global buffer
 * and events outside blocks). Integers are JSON numbers, texts strings
 * (invalid UTF-8 as U+FFFD), string lists and cost-centre stacks arrays,
 * raw bytes lower-case hex strings. An event of no known form has one
 * field, "payload", its bytes in hex, as does one whose type the header
 * declares with another meaning (ev_header_type_info). An integer above
 * 2^53, which readers holding numbers as doubles (jq 1.6, JavaScript)
 * would round, is also given as a decimal string under its name with
 * "_str" appended ("time" too). Codes get their ghc-events name beside
 * them: STOP_THREAD's "status_name" (ThreadStopStatus), CAPSET_CREATE's
 * "capset_type_name" (CapsetType), HEAP_PROF_BEGIN's "breakdown_name"
 * (HeapProfBreakdown; none for a code ghc-events does not name).
 *
 * Layering: show.c -> this file -> show_strings.c and lib/format (text.c,
 * stop_status.c for the STOP_THREAD names). It calls no function of
 * show.c.
 */
#include <string.h>

#include "evtool/catalog.h"
#include "internal.h"
#include "show_internal.h"

static void put_hex_bytes(ev_text *t, const uint8_t *p, size_t len)
{
	static const char hex[] = "0123456789abcdef";

	evi_putc(t, '"');
	for (size_t i = 0; i < len; i++) {
		evi_putc(t, hex[p[i] >> 4]);
		evi_putc(t, hex[p[i] & 15]);
	}
	evi_putc(t, '"');
}

#define JSON_EXACT_MAX (UINT64_C(1) << 53)

/* `,"NAME_str":"DIGITS"` for an integer a double cannot hold exactly. */
static void put_big_twin(ev_text *t, const char *name, uint64_t v)
{
	if (v <= JSON_EXACT_MAX)
		return;
	evi_puts(t, ",\"");
	evi_puts(t, name);
	evi_puts(t, "_str\":\"");
	evi_put_u64(t, v);
	evi_putc(t, '"');
}

const char *evi_capset_type_name(uint64_t type)
{
	switch (type) {
	case EV_CAPSET_CUSTOM:
		return "CapsetCustom";
	case EV_CAPSET_OS_PROCESS:
		return "CapsetOsProcess";
	case EV_CAPSET_CLOCK_DOMAIN:
		return "CapsetClockDomain";
	default:
		return "CapsetUnknown";
	}
}

/* HeapProfBreakdown's constructor for the code `by`, or NULL. */
static const char *breakdown_name(uint64_t by)
{
	static const char *const names[] = {
		"HeapProfBreakdownCostCentre", "HeapProfBreakdownModule",
		"HeapProfBreakdownClosureDescr", "HeapProfBreakdownTypeDescr",
		"HeapProfBreakdownRetainer", "HeapProfBreakdownBiography",
		"HeapProfBreakdownClosureType", "HeapProfBreakdownInfoTable",
		"HeapProfBreakdownEra"
	};

	if (by < 1 || by > sizeof names / sizeof names[0])
		return NULL;
	return names[by - 1];
}

/* The ghc-events name of the code in field `i` of `d`, or NULL. */
static const char *code_name(const ev_event *ev, const ev_decoded *d,
			     unsigned i, unsigned quirks)
{
	const ev_value *v = &d->values[i];

	if (ev->type == EV_STOP_THREAD && strcmp(v->field->name, "status") == 0)
		return evi_stop_status_name(v->num, d->n > 2, quirks);
	if (ev->type == EV_CAPSET_CREATE &&
	    strcmp(v->field->name, "capset_type") == 0)
		return evi_capset_type_name(v->num);
	if (ev->type == EV_HEAP_PROF_BEGIN &&
	    strcmp(v->field->name, "breakdown") == 0)
		return breakdown_name(v->num);
	return NULL;
}

static int is_integer(ev_field_kind kind)
{
	return kind == EV_FIELD_U8 || kind == EV_FIELD_U16 ||
	       kind == EV_FIELD_U32 || kind == EV_FIELD_U64;
}

static void put_u32_array(ev_text *t, const ev_value *v)
{
	evi_putc(t, '[');
	for (uint64_t i = 0; i < v->num; i++) {
		if (i)
			evi_putc(t, ',');
		evi_put_u64(t, ev_load32(v->bytes + 4 * i));
	}
	evi_putc(t, ']');
}

static void put_json_value(ev_text *t, const ev_value *v)
{
	switch (v->field->kind) {
	case EV_FIELD_TEXT:
	case EV_FIELD_TEXT_NUL:
		evi_put_json_string(t, v->bytes, v->len);
		break;
	case EV_FIELD_STRINGS:
		evi_put_string_list(t, v->bytes, v->len, evi_put_json_string);
		break;
	case EV_FIELD_U32_LIST:
		put_u32_array(t, v);
		break;
	case EV_FIELD_BYTES:
		put_hex_bytes(t, v->bytes, v->len);
		break;
	default:
		evi_put_u64(t, v->num);
		break;
	}
}

static void put_fields(ev_text *t, const ev_event *ev, const ev_decoded *d,
		       unsigned quirks)
{
	const char *name;

	evi_puts(t, ",\"fields\":{");
	if (!d->layout) {
		evi_puts(t, "\"payload\":");
		put_hex_bytes(t, ev->payload, ev->size);
	}
	for (unsigned i = 0; i < d->n; i++) {
		if (i)
			evi_putc(t, ',');
		evi_putc(t, '"');
		evi_puts(t, d->values[i].field->name);
		evi_puts(t, "\":");
		put_json_value(t, &d->values[i]);
		if (is_integer(d->values[i].field->kind))
			put_big_twin(t, d->values[i].field->name,
				     d->values[i].num);
		if ((name = code_name(ev, d, i, quirks))) {
			evi_puts(t, ",\"");
			evi_puts(t, d->values[i].field->name);
			evi_puts(t, "_name\":\"");
			evi_puts(t, name);
			evi_putc(t, '"');
		}
	}
	evi_puts(t, "}}\n");
}

void evi_show_json_event(const ev_event *ev, const ev_header *h,
			 unsigned quirks, ev_text *out)
{
	/* A type the header declares with another meaning than GHC's is of
	 * no known form: "type" null, its payload in hex. */
	const ev_type_info *info = ev_header_type_info(h, ev->type);
	ev_decoded d;

	d.layout = NULL;
	d.n = 0;
	if (info)
		ev_decode(ev, &d);
	evi_puts(out, "{\"time\":");
	evi_put_u64(out, ev->time);
	put_big_twin(out, "time", ev->time);
	evi_puts(out, ",\"cap\":");
	if (ev->cap == EV_NO_CAP)
		evi_puts(out, "null");
	else
		evi_put_u64(out, ev->cap);
	evi_puts(out, ",\"type\":");
	if (info) {
		evi_putc(out, '"');
		evi_puts(out, info->name);
		evi_putc(out, '"');
	} else {
		evi_puts(out, "null");
	}
	evi_puts(out, ",\"id\":");
	evi_put_u64(out, ev->type);
	put_fields(out, ev, &d, quirks);
}
