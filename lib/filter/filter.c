/*
 * Building a filter (filter.h): selector lists, windows, redaction and
 * metadata. Learning about a log and deciding event by event are in
 * filter_decide.c, the pipeline that drives them in filter_run.c.
 *
 * Layering, calls going one way only: filter_run.c -> filter.c ->
 * filter_decide.c. This file calls down into filter_decide.c (the
 * helpers both use, freeing what learning found) and nothing calls up
 * into it from there.
 */
#include "evtool/filter.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtool/catalog.h"
#include "filter_internal.h"
#include "internal.h"

/* ------------------------------------------------------------------------
 * Small helpers
 * ---------------------------------------------------------------------- */

static int ranges_add(evi_range_list *l, uint64_t lo, uint64_t hi)
{
	if (evi_grow(&l->items, &l->cap, l->n + 1, sizeof *l->items) < 0)
		return EV_ENOMEM;
	l->items[l->n].lo = lo;
	l->items[l->n].hi = hi;
	l->n++;
	return EV_OK;
}


static int ascii_equal_nocase(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		int x = *a >= 'A' && *a <= 'Z' ? *a - 'A' + 'a' : *a;
		int y = *b >= 'A' && *b <= 'Z' ? *b - 'A' + 'a' : *b;
		if (x != y)
			return 0;
	}
	return *a == *b;
}

/* ------------------------------------------------------------------------
 * Life cycle
 * ---------------------------------------------------------------------- */

int ev_filter_new(ev_filter **out, const ev_filter_options *opts, ev_diag *diag)
{
	ev_filter *f;

	*out = NULL;
	if (opts && opts->version != EV_FILTER_OPTIONS_VERSION)
		return evi_options_failed(diag, "filter", opts->version,
					  EV_FILTER_OPTIONS_VERSION);
	if (!(f = calloc(1, sizeof *f)))
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	if (opts)
		f->opts = *opts;
	else
		f->opts = (ev_filter_options)EV_FILTER_OPTIONS_INIT;
	f->keep_metadata = 1;
	f->scratch = malloc(EVI_FILTER_MAX_PAYLOAD);
	f->text = malloc(EVI_FILTER_MAX_PAYLOAD + 1);
	if (!f->scratch || !f->text) {
		ev_filter_free(f);
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	}
	*out = f;
	return EV_OK;
}

static void free_selector(evi_selector *s)
{
	free(s->types);
	free(s->caps);
	free(s->threads.items);
	free(s->pids.items);
	free(s->capsets.items);
	free(s->markers.start);
	free(s->markers.end);
}

void ev_filter_free(ev_filter *f)
{
	if (!f)
		return;
	for (int d = 0; d < EVI_N_DIRECTIONS; d++)
		free_selector(&f->sel[d]);
	evi_filter_free_sessions(f);
	free(f->rules);
	free(f->scratch);
	free(f->text);
	free(f);
}

const ev_diag *ev_filter_diag(const ev_filter *f)
{
	return &f->diag;
}

/* ------------------------------------------------------------------------
 * Parsing selector lists
 * ---------------------------------------------------------------------- */

/* A decimal number that fills `text` and is at most `max`. */
static int parse_number(const char *text, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!*text)
		return 0;
	for (const char *p = text; *p; p++) {
		if (*p < '0' || *p > '9')
			return 0;
		if (v > (max - (uint64_t)(*p - '0')) / 10)
			return 0;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*out = v;
	return 1;
}

/* "N" or "N-M" with N <= M <= max. */
static int parse_range(char *text, uint64_t max, evi_range *out)
{
	char *dash = strchr(text, '-');
	int ok;

	if (!dash)
		return parse_number(text, max, &out->lo) &&
		       (out->hi = out->lo, 1);
	*dash = '\0';
	ok = parse_number(text, max, &out->lo) &&
	     parse_number(dash + 1, max, &out->hi) && out->lo <= out->hi;
	*dash = '-';
	return ok;
}

static int letter_class(char c, unsigned *out)
{
	char name[2] = { c, '\0' };
	ev_class cls = evi_class_from_name(name);

	*out |= (unsigned)cls;
	return cls != EV_CLASS_NONE;
}

/* A class name, one RTS letter, or several letters run together ("sgu",
 * as in `+RTS -lsgu`). "n" / "nonmoving" also cover the concurrent
 * mark/sweep events: the RTS posts them under -ln too. */
static int parse_class(const char *item, unsigned *out)
{
	ev_class cls = evi_class_from_name(item);
	unsigned letters = 0;

	if (cls == EV_CLASS_NONE) {
		for (const char *p = item; *p; p++)
			if (!letter_class(*p, &letters))
				return 0;
		cls = (ev_class)letters;
	}
	if (cls & EV_CLASS_NONMOVING)
		cls |= EV_CLASS_NONMOVING_GC;
	*out |= (unsigned)cls;
	return 1;
}

static int add_type(ev_filter *f, evi_selector *s, char *item)
{
	const ev_type_info *info = evi_catalog_by_name(item);
	evi_range r;
	int rc = evi_bitmap_new(&s->types);

	if (rc < 0)
		return rc;
	if (info) {
		evi_bit_set(s->types, info->id);
		return EV_OK;
	}
	if (!parse_range(item, 0xfffe, &r))
		return evi_filter_fail(f, EV_EINVAL, "'%s' is not an event type name "
			    "(e.g. RUN_THREAD), id (0-65534) or id range", item);
	for (uint64_t id = r.lo; id <= r.hi; id++)
		evi_bit_set(s->types, (unsigned)id);
	return EV_OK;
}

static int add_cap(ev_filter *f, evi_selector *s, char *item)
{
	evi_range r;
	int rc = evi_bitmap_new(&s->caps);

	if (rc < 0)
		return rc;
	if (ascii_equal_nocase(item, "global")) {
		evi_bit_set(s->caps, EV_NO_CAP);
		return EV_OK;
	}
	if (!parse_range(item, EV_NO_CAP - 1, &r))
		return evi_filter_fail(f, EV_EINVAL, "'%s' is not a capability (0-65534), "
			    "a range like 2-3, or 'global'", item);
	for (uint64_t cap = r.lo; cap <= r.hi; cap++)
		evi_bit_set(s->caps, (unsigned)cap);
	return EV_OK;
}

static int add_id_range(ev_filter *f, evi_range_list *l, char *item,
			const char *what)
{
	evi_range r;

	if (!parse_range(item, UINT32_MAX, &r))
		return evi_filter_fail(f, EV_EINVAL, "'%s' is not a %s (a number or a "
			    "range like 3-7)", item, what);
	return ranges_add(l, r.lo, r.hi);
}

static int add_item(ev_filter *f, evi_selector *s, ev_filter_kind kind,
		    char *item)
{
	switch (kind) {
	case EV_FILTER_CLASS:
		if (!parse_class(item, &s->classes))
			return evi_filter_fail(f, EV_EINVAL, "'%s' is not an event class "
				    "(RTS letters s g p f u n T, or scheduler, "
				    "gc, sparks, user, nonmoving, ticky, "
				    "heap-profile, time-profile, meta, cap, "
				    "debug, other)", item);
		return EV_OK;
	case EV_FILTER_TYPE:
		return add_type(f, s, item);
	case EV_FILTER_CAP:
		return add_cap(f, s, item);
	case EV_FILTER_PROCESS:
		return add_id_range(f, &s->pids, item, "process id");
	case EV_FILTER_CAPSET:
		return add_id_range(f, &s->capsets, item, "capset");
	case EV_FILTER_THREAD:
		return add_id_range(f, &s->threads, item, "thread id");
	}
	return evi_filter_fail(f, EV_EINVAL, "unknown selector kind %d", (int)kind);
}

/* Trims spaces around an item in place. */
static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return s;
}

int ev_filter_add(ev_filter *f, ev_filter_kind kind, const char *list,
		  int exclude)
{
	evi_selector *s = &f->sel[exclude ? EVI_EXCLUDE : EVI_INCLUDE];
	char *copy, *item, *next;
	int rc = EV_OK;

	if (!list || !*list)
		return evi_filter_fail(f, EV_EINVAL, "an empty list selects nothing");
	if (!(copy = strdup(list)))
		return EV_ENOMEM;
	for (item = copy; rc == EV_OK && item; item = next) {
		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		item = trim(item);
		rc = *item ? add_item(f, s, kind, item)
			   : evi_filter_fail(f, EV_EINVAL, "empty item in the list '%s'",
				  list);
	}
	free(copy);
	free(f->rules);
	f->rules = NULL;
	return rc;
}

/* ------------------------------------------------------------------------
 * Windows, redaction, metadata
 * ---------------------------------------------------------------------- */

static int parse_optional_time(ev_filter *f, const char *text,
			       evi_time *out)
{
	ev_time_base base;

	out->kind = EVI_TIME_NONE;
	out->ns = 0;
	if (!text || !*text)
		return EV_OK;
	if (ev_time_parse(text, &base, &out->ns) < 0)
		return evi_filter_fail(f, EV_EINVAL, "'%s' is not a time: use nanoseconds "
			    "or a number with a unit (ns, us, ms, s, m, h) as "
			    "show prints timestamps, + and one for a time after "
			    "the log's first event, or an ISO 8601 date and "
			    "time like 2024-05-01T12:00:00Z", text);
	out->kind = base == EV_TIME_RELATIVE ? EVI_TIME_RELATIVE
		    : base == EV_TIME_WALL   ? EVI_TIME_WALL
					     : EVI_TIME_RAW;
	return EV_OK;
}

int ev_filter_set_time(ev_filter *f, const char *from, const char *to,
		       int exclude)
{
	evi_window_spec *w = &f->sel[exclude ? EVI_EXCLUDE : EVI_INCLUDE].time;
	evi_window_spec next = { 1, { EVI_TIME_NONE, 0 },
				 { EVI_TIME_NONE, 0 } };
	int rc;

	if ((rc = parse_optional_time(f, from, &next.from)) < 0 ||
	    (rc = parse_optional_time(f, to, &next.to)) < 0)
		return rc;
	if (next.from.kind != EVI_TIME_NONE && next.from.kind == next.to.kind &&
	    next.from.ns >= next.to.ns)
		return evi_filter_fail(f, EV_EINVAL, "the time window from '%s' to '%s' "
			    "is empty", from, to);
	next.set = next.from.kind != EVI_TIME_NONE ||
		   next.to.kind != EVI_TIME_NONE;
	*w = next;
	return EV_OK;
}

static int copy_pattern(const char *text, char **out)
{
	*out = NULL;
	if (!text || !*text)
		return EV_OK;
	return (*out = strdup(text)) ? EV_OK : EV_ENOMEM;
}

int ev_filter_set_markers(ev_filter *f, const char *start, const char *end,
			  int exclude)
{
	evi_marker_spec *m =
		&f->sel[exclude ? EVI_EXCLUDE : EVI_INCLUDE].markers;
	evi_marker_spec next = { 1, NULL, NULL };

	if (copy_pattern(start, &next.start) < 0 ||
	    copy_pattern(end, &next.end) < 0) {
		free(next.start);
		return EV_ENOMEM;
	}
	if (!next.start && !next.end)
		return evi_filter_fail(f, EV_EINVAL, "a marker window needs a start "
			    "or an end marker");
	free(m->start);
	free(m->end);
	*m = next;
	return EV_OK;
}

int ev_filter_set_redact(ev_filter *f, const char *list)
{
	char *copy = strdup(list ? list : ""), *item, *next;
	unsigned flags = 0;
	int rc = EV_OK;

	if (!copy)
		return EV_ENOMEM;
	for (item = copy; rc == EV_OK && item; item = next) {
		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		item = trim(item);
		if (ascii_equal_nocase(item, "args"))
			flags |= EV_REDACT_ARGS;
		else if (ascii_equal_nocase(item, "env"))
			flags |= EV_REDACT_ENV;
		else
			rc = evi_filter_fail(f, EV_EINVAL, "'%s' cannot be redacted: use "
				  "args, env or args,env", item);
	}
	free(copy);
	if (rc == EV_OK)
		f->redact = flags;
	return rc;
}

void ev_filter_set_metadata(ev_filter *f, int keep)
{
	f->keep_metadata = !!keep;
	free(f->rules);
	f->rules = NULL;
}

/* ------------------------------------------------------------------------
 * For the pipeline (filter_internal.h)
 * ---------------------------------------------------------------------- */

ev_diag *evi_filter_diag(ev_filter *f)
{
	return &f->diag;
}

void evi_filter_missing_markers(const ev_filter *f, unsigned *start,
				unsigned *end)
{
	*start = *end = 0;
	for (size_t i = 0; i < f->n_sessions; i++) {
		const evi_session_facts *s = &f->sessions[i];
		for (int d = 0; s->have_first && d < EVI_N_DIRECTIONS; d++) {
			const evi_marker_spec *m = &f->sel[d].markers;
			const evi_marker_facts *mf = &s->markers[d];
			if (!m->set)
				continue;
			if (m->start && !mf->start_found)
				(*start)++;
			else if (m->end && !mf->end_found)
				(*end)++;
		}
	}
}
