/*
 * The named figures of a process and the conditions on them that a
 * performance gate checks ("gc-time>+10%", "max-pause>50ms"). Times take
 * the units every time option takes (ev_duration_parse).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "stats_internal.h"

enum figure_id {
	FIG_ELAPSED, FIG_MUT_TIME, FIG_GC_TIME, FIG_PRODUCTIVITY,
	FIG_ALLOCATED, FIG_ALLOC_RATE, FIG_COPIED, FIG_MAX_LIVE, FIG_MAX_MEM,
	FIG_MAX_SLOP, FIG_COLLECTIONS, FIG_MAJOR_COLLECTIONS, FIG_MAX_PAUSE,
	FIG_P50_PAUSE, FIG_P90_PAUSE, FIG_P99_PAUSE, FIG_COUNT
};

static const ev_stats_figure figures[FIG_COUNT] = {
	{ "elapsed", EV_STATS_UNIT_NS, "elapsed time of the run" },
	{ "mut-time", EV_STATS_UNIT_NS, "elapsed time outside GC" },
	{ "gc-time", EV_STATS_UNIT_NS, "elapsed time in GC pauses" },
	{ "productivity", EV_STATS_UNIT_RATIO, "mut-time / elapsed" },
	{ "allocated", EV_STATS_UNIT_BYTES, "bytes allocated in the heap" },
	{ "alloc-rate", EV_STATS_UNIT_BYTES_PER_S,
	  "bytes allocated per second of mut-time" },
	{ "copied", EV_STATS_UNIT_BYTES, "bytes copied during GC" },
	{ "max-live", EV_STATS_UNIT_BYTES, "maximum residency" },
	{ "max-mem", EV_STATS_UNIT_BYTES, "total memory in use (peak)" },
	{ "max-slop", EV_STATS_UNIT_BYTES, "maximum slop" },
	{ "collections", EV_STATS_UNIT_COUNT, "garbage collections" },
	{ "major-collections", EV_STATS_UNIT_COUNT,
	  "collections of the oldest generation" },
	{ "max-pause", EV_STATS_UNIT_NS, "longest GC pause" },
	{ "p50-pause", EV_STATS_UNIT_NS, "median GC pause" },
	{ "p90-pause", EV_STATS_UNIT_NS, "90th percentile GC pause" },
	{ "p99-pause", EV_STATS_UNIT_NS, "99th percentile GC pause" },
};

size_t ev_stats_figure_count(void)
{
	return FIG_COUNT;
}

const ev_stats_figure *ev_stats_figure_at(size_t i)
{
	return i < FIG_COUNT ? &figures[i] : NULL;
}

/* `a` (len bytes) names `b`, '-' and '_' alike. */
static int same_name(const char *a, size_t len, const char *b)
{
	for (size_t i = 0; i < len; i++, b++) {
		char x = a[i] == '_' ? '-' : a[i];
		if (x != *b)
			return 0;
	}
	return *b == '\0';
}

static int find_figure(const char *name, size_t len)
{
	for (int i = 0; i < FIG_COUNT; i++)
		if (same_name(name, len, figures[i].name))
			return i;
	return -1;
}

int ev_stats_figure_find(const char *name)
{
	return find_figure(name, strlen(name));
}

static uint64_t pause_figure(const ev_stats *st, size_t process, int id,
			     int *have)
{
	const ev_stats_pauses *s =
		ev_stats_pauses_of(st, process, EV_STATS_ALL_GENS);

	*have = s != NULL;
	if (!s)
		return 0;
	return id == FIG_MAX_PAUSE ? s->max_ns
	       : id == FIG_P50_PAUSE ? s->p50_ns
	       : id == FIG_P90_PAUSE ? s->p90_ns
				     : s->p99_ns;
}

static double heap_figure(const ev_stats_process *p, int id)
{
	switch (id) {
	case FIG_ALLOCATED:
		return (double)p->allocated_bytes;
	case FIG_ALLOC_RATE:
		return p->alloc_rate;
	case FIG_COPIED:
		return (double)p->copied_bytes;
	case FIG_MAX_LIVE:
		return (double)p->max_live_bytes;
	case FIG_MAX_MEM:
		return (double)p->max_mem_bytes;
	case FIG_MAX_SLOP:
		return (double)p->max_slop_bytes;
	case FIG_COLLECTIONS:
		return (double)p->collections;
	default: /* FIG_MAJOR_COLLECTIONS */
		return p->n_gens > 1
			? (double)p->gens[p->n_gens - 1].collections : 0.0;
	}
}

int ev_stats_figure_value(const ev_stats *st, size_t process, size_t figure,
			  double *out)
{
	const ev_stats_process *p = ev_stats_process_at(st, process);
	int have = 1;

	*out = 0;
	if (!p || figure >= FIG_COUNT)
		return EV_EINVAL;
	switch (figure) {
	case FIG_ELAPSED:
		*out = (double)p->elapsed_ns;
		break;
	/* GC time, and so MUT and productivity, come from the GC's events:
	 * a run logged without them (+RTS -l-g) does not have them. */
	case FIG_MUT_TIME:
		have = p->have_heap;
		*out = have ? (double)p->mut_elapsed_ns : 0.0;
		break;
	case FIG_GC_TIME:
		have = p->have_heap;
		*out = have ? (double)p->gc_elapsed_ns : 0.0;
		break;
	case FIG_PRODUCTIVITY:
		have = p->have_heap;
		*out = have ? p->productivity : 0.0;
		break;
	case FIG_MAX_PAUSE:
	case FIG_P50_PAUSE:
	case FIG_P90_PAUSE:
	case FIG_P99_PAUSE:
		*out = (double)pause_figure(st, process, (int)figure, &have);
		break;
	default:
		have = p->have_heap;
		*out = have ? heap_figure(p, (int)figure) : 0.0;
	}
	return have ? EV_OK : EV_END;
}

/* ---- conditions ---- */

static int why(ev_diag *diag, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A condition the caller wrote wrong: EV_EINVAL. */
static int why(ev_diag *diag, const char *fmt, ...)
{
	va_list ap;

	if (diag) {
		va_start(ap, fmt);
		evi_vfail(diag, EV_ORIGIN_OPTIONS, 0, EV_EINVAL, 0, 0, fmt,
			  ap);
		va_end(ap);
	}
	return EV_EINVAL;
}

/* A plain decimal number at the start of `text`; *end after it. */
static int number(const char *text, double *out, const char **end)
{
	char *stop;

	if (!((*text >= '0' && *text <= '9') || *text == '.'))
		return 0;
	errno = 0;
	*out = strtod(text, &stop);
	*end = stop;
	return errno == 0 && isfinite(*out);
}

static int byte_unit(const char *u, double *scale)
{
	static const struct { const char *name; double scale; } units[] = {
		{ "", 1 }, { "B", 1 }, { "KB", 1e3 }, { "MB", 1e6 },
		{ "GB", 1e9 }, { "TB", 1e12 }, { "KiB", 1024.0 },
		{ "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
		{ "TiB", 1099511627776.0 },
	};

	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(u, units[i].name) == 0) {
			*scale = units[i].scale;
			return 1;
		}
	return 0;
}

/* An absolute value in the unit of `f`; 1 when it is one. */
static int absolute(const ev_stats_figure *f, const char *text, double *out)
{
	const char *end;
	double scale = 1;
	int64_t ns;
	char unit[8];

	if (f->unit == EV_STATS_UNIT_NS) {
		if (text[0] == '-' || text[0] == '+' ||
		    ev_duration_parse(text, &ns) < 0)
			return 0;
		*out = (double)ns;
		return 1;
	}
	if (!number(text, out, &end))
		return 0;
	if (f->unit == EV_STATS_UNIT_RATIO && strcmp(end, "%") == 0)
		scale = 0.01;
	else if (f->unit == EV_STATS_UNIT_BYTES ||
		 f->unit == EV_STATS_UNIT_BYTES_PER_S) {
		size_t n = strlen(end);
		if (f->unit == EV_STATS_UNIT_BYTES_PER_S && n >= 2 &&
		    strcmp(end + n - 2, "/s") == 0)
			n -= 2;
		if (n >= sizeof unit)
			return 0;
		memcpy(unit, end, n);
		unit[n] = '\0';
		if (!byte_unit(unit, &scale))
			return 0;
	} else if (*end) {
		return 0;
	}
	*out *= scale;
	return 1;
}

static const char *const unit_forms[] = {
	"a number", "a time (ns, or with a unit: ns us ms s m h)",
	"bytes (a number, or with B, KB, MB, GB, KiB, MiB, GiB)",
	"a ratio (0.9 or 90%)", "bytes per second (as bytes, /s optional)"
};

/* The operator at `p`: its length, or 0. */
static size_t parse_op(const char *p, ev_stats_op *op)
{
	if (p[0] == '<' || p[0] == '>') {
		int eq = p[1] == '=';
		*op = p[0] == '<' ? (eq ? EV_STATS_LE : EV_STATS_LT)
				  : (eq ? EV_STATS_GE : EV_STATS_GT);
		return eq ? 2 : 1;
	}
	return 0;
}

static const char *skip_spaces(const char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

/* A signed percentage at `p`, "+10%" or "-5%": a change from the base. */
static int relative(const char *p, ev_stats_condition *out)
{
	const char *end;
	double v;

	if ((*p == '+' || *p == '-') && number(p + 1, &v, &end) &&
	    strcmp(end, "%") == 0) {
		out->relative = 1;
		out->value = (*p == '-' ? -v : v) / 100.0;
		return 1;
	}
	out->relative = 0;
	return 0;
}

#define SPAN_PREFIX "span:"
#define BAND_PREFIX "band:"

/* The figures of a named subject (span:, band:). */
typedef struct named_figures {
	ev_stats_subject subject;
	const char *prefix;
	const char *const *names; /* NULL-terminated */
	const char *listed;       /* for messages */
} named_figures;

const char *const evi_span_figure_names[] = {
	"count", "total", "mean", "min", "max", "p50", "p90", "p99", NULL
};
static const char *const band_figure_names[] = { "peak", "mean", NULL };

static const named_figures span_figures = {
	EV_STATS_OF_SPAN, SPAN_PREFIX, evi_span_figure_names,
	"count, total, mean, min, max, p50, p90, p99"
};
static const named_figures band_figures = {
	EV_STATS_OF_BAND, BAND_PREFIX, band_figure_names, "peak, mean"
};

_Static_assert(sizeof evi_span_figure_names /
	       sizeof evi_span_figure_names[0] == EV_STATS_SPAN_FIGURES + 1,
	       "a name per span figure");

/* The unit of figure `figure` of `nf`. */
static ev_stats_unit named_unit(const named_figures *nf, size_t figure)
{
	if (nf->subject == EV_STATS_OF_BAND)
		return EV_STATS_UNIT_BYTES;
	return figure == EV_STATS_SPAN_COUNT ? EV_STATS_UNIT_COUNT
					     : EV_STATS_UNIT_NS;
}

/* "span:NAME.FIG OP VALUE" (or band:): NAME runs to the last '.' before
 * the operator, spaces before the operator trimmed. */
static int parse_named(const char *text, const char *p,
		       const named_figures *nf, ev_stats_condition *out,
		       ev_diag *diag)
{
	const char *name = p + strlen(nf->prefix), *op = name, *end, *dot;
	ev_stats_figure unit = { NULL, EV_STATS_UNIT_NS, NULL };
	size_t op_len;

	while (*op && *op != '<' && *op != '>')
		op++;
	for (end = op; end > name && end[-1] == ' '; end--)
		;
	for (dot = end; dot > name && dot[-1] != '.'; dot--)
		;
	if (!(op_len = parse_op(op, &out->op)) || dot <= name + 1)
		return why(diag, "'%s': not %sNAME.FIGURE<VALUE (or >, <=, "
			   ">=), FIGURE one of %s", text, nf->prefix,
			   nf->listed);
	out->subject = nf->subject;
	out->name = name;
	out->name_len = (size_t)(dot - 1 - name);
	for (out->figure = 0; nf->names[out->figure]; out->figure++)
		if (same_name(dot, (size_t)(end - dot),
			      nf->names[out->figure]))
			break;
	if (!nf->names[out->figure])
		return why(diag, "'%s': %s has no figure '%.*s' (%s)", text,
			   nf->prefix, (int)(end - dot), dot, nf->listed);
	p = skip_spaces(op + op_len);
	if (relative(p, out))
		return EV_OK;
	unit.unit = named_unit(nf, out->figure);
	if (!absolute(&unit, p, &out->value))
		return why(diag, "'%s': the value is %s, or +N%% or -N%% of "
			   "the base run", text, unit_forms[unit.unit]);
	return EV_OK;
}

int ev_stats_condition_parse(const char *text, ev_stats_condition *out,
			     ev_diag *diag)
{
	const char *p = skip_spaces(text), *name = p;
	size_t name_len, op_len;
	int fig;

	out->subject = EV_STATS_OF_PROCESS;
	out->name = NULL;
	out->name_len = 0;
	if (strncmp(p, SPAN_PREFIX, strlen(SPAN_PREFIX)) == 0)
		return parse_named(text, p, &span_figures, out, diag);
	if (strncmp(p, BAND_PREFIX, strlen(BAND_PREFIX)) == 0)
		return parse_named(text, p, &band_figures, out, diag);
	while (*p && *p != '<' && *p != '>' && *p != ' ')
		p++;
	name_len = (size_t)(p - name);
	p = skip_spaces(p);
	if (!(op_len = parse_op(p, &out->op)))
		return why(diag, "'%s': not FIGURE<VALUE, "
			   "FIGURE>VALUE, FIGURE<=VALUE or FIGURE>=VALUE",
			   text);
	if ((fig = find_figure(name, name_len)) < 0)
		return why(diag, "'%s': no figure named '%.*s'",
			   text, (int)name_len, name);
	out->figure = (size_t)fig;
	p = skip_spaces(p + op_len);
	if (relative(p, out))
		return EV_OK;
	if (!absolute(&figures[fig], p, &out->value))
		return why(diag, "'%s': the value of %s is %s, or "
			   "+N%% or -N%% of the base run", text,
			   figures[fig].name, unit_forms[figures[fig].unit]);
	return EV_OK;
}

int ev_stats_condition_holds(const ev_stats_condition *c, double value,
			     int has_base, double base)
{
	double limit = c->value;

	if (c->relative) {
		if (!has_base)
			return EV_EINVAL;
		limit = base + base * c->value;
	}
	switch (c->op) {
	case EV_STATS_LT:
		return value < limit;
	case EV_STATS_GT:
		return value > limit;
	case EV_STATS_LE:
		return value <= limit;
	default:
		return value >= limit;
	}
}
