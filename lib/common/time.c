/*
 * Times and durations as options take them (ev_time_parse,
 * ev_duration_parse in evtool/common.h): one grammar for every command,
 * which reads back what show, info and validate print.
 */
#include "evtool/common.h"

#include <string.h>

#define NS_PER_S 1000000000ull

/* Reads `n` digits exactly into *out. */
static int digits(const char **p, int n, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < n; i++) {
		char c = (*p)[i];
		if (c < '0' || c > '9')
			return 0;
		v = v * 10 + (unsigned)(c - '0');
	}
	*p += n;
	*out = v;
	return 1;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static const char *skip_blanks(const char *p)
{
	while (is_blank(*p))
		p++;
	return p;
}

/* ".ddd" (up to 9 digits kept; more are ignored) as a fraction of
 * `unit_ns`, rounded down; *n_digits counts the digits read. */
static int fraction(const char **p, uint64_t unit_ns, uint64_t *out,
		    int *n_digits)
{
	uint64_t num = 0, den = 1;

	*out = 0;
	*n_digits = 0;
	if (**p != '.')
		return 1;
	(*p)++;
	if (!is_digit(**p))
		return 0;
	for (; is_digit(**p); (*p)++, ++*n_digits)
		if (den < NS_PER_S) {
			num = num * 10 + (uint64_t)(**p - '0');
			den *= 10;
		}
	/* num < den <= 1e9: neither product overflows. */
	*out = num * (unit_ns / den) + num * (unit_ns % den) / den;
	return 1;
}

/* The unit at *p (the longest known name), advancing past it. */
static int unit_ns(const char **p, uint64_t *out)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "\xc2\xb5s", 1000 },
		{ "ms", 1000000 }, { "s", NS_PER_S }, { "m", 60 * NS_PER_S },
		{ "h", 3600 * NS_PER_S },
	};
	size_t best = 0;

	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		size_t len = strlen(units[i].name);
		if (len > best && strncmp(*p, units[i].name, len) == 0 &&
		    !((*p)[len] >= 'a' && (*p)[len] <= 'z')) {
			best = len;
			*out = units[i].ns;
		}
	}
	*p += best;
	return best > 0;
}

/* One term of a duration, "12" or "1.5 ms": *unit is its unit in ns, 0
 * when it has none. After an "ms" term, a "us" fraction padded with
 * blanks to three columns is show --pretty-time's count of nanoseconds
 * ("456.7  us" is 456 us and 7 ns: ghc-events prints the rest without
 * leading zeros). */
static int term(const char **p, int after_ms, uint64_t *out, uint64_t *unit)
{
	const char *q = *p, *frac_at, *frac_end, *unit_at;
	uint64_t whole = 0, frac_ns;
	int n_frac;

	for (; is_digit(*q); q++) {
		uint64_t d = (uint64_t)(*q - '0');
		if (whole > (UINT64_MAX - d) / 10)
			return 0;
		whole = whole * 10 + d;
	}
	if (q == *p)
		return 0;
	frac_at = q;
	if (*q == '.')
		for (q++; is_digit(*q); q++)
			;
	frac_end = q;
	unit_at = q = skip_blanks(q);
	if (!unit_ns(&q, unit)) {
		*unit = 0;
		q = frac_end;
	}
	if (!fraction(&frac_at, *unit ? *unit : 1, &frac_ns, &n_frac) ||
	    frac_at != frac_end || (n_frac && !*unit))
		return 0; /* "1.", or "1.5" of no unit */
	if (after_ms && *unit == 1000 && n_frac > 0 && n_frac < 3 &&
	    unit_at - frac_end == 3 - n_frac) {
		frac_ns = 0;
		for (const char *f = frac_end - n_frac; f < frac_end; f++)
			frac_ns = frac_ns * 10 + (uint64_t)(*f - '0');
	}
	if (*unit && whole > (UINT64_MAX - frac_ns) / *unit)
		return 0;
	*out = *unit ? whole * *unit + frac_ns : whole;
	*p = q;
	return 1;
}

/* A duration: a bare number of nanoseconds, or terms with units, summed,
 * with blanks between them, to the end of `p`. */
static int duration(const char *p, uint64_t *out)
{
	uint64_t sum = 0, v, unit = 0;
	int n = 0;

	while (*p) {
		int after_ms = unit == 1000000;
		if (!term(&p, after_ms, &v, &unit) ||
		    (!unit && (n > 0 || *skip_blanks(p))) ||
		    v > UINT64_MAX - sum)
			return 0;
		sum += v;
		n++;
		p = skip_blanks(p);
	}
	*out = sum;
	return n > 0;
}

/* Copies `text` without its surrounding blanks and a trailing colon
 * into buf; 0 when it does not fit. */
static int trimmed(const char *text, char *buf, size_t size)
{
	const char *start = skip_blanks(text);
	size_t len = strlen(start);

	while (len && is_blank(start[len - 1]))
		len--;
	if (len && start[len - 1] == ':')
		len--;
	while (len && is_blank(start[len - 1]))
		len--;
	if (len >= size)
		return 0;
	memcpy(buf, start, len);
	buf[len] = '\0';
	return 1;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian), after Howard
 * Hinnant's days_from_civil. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

/* "Z", "+hh:mm", "-hhmm", "+hh" or nothing: seconds east of UTC. */
static int parse_zone(const char *p, int64_t *east)
{
	unsigned hh = 0, mm = 0;
	int sign;

	*east = 0;
	if (!*p || (p[0] == 'Z' && !p[1]))
		return 1;
	if (*p != '+' && *p != '-')
		return 0;
	sign = *p++ == '-' ? -1 : 1;
	if (!digits(&p, 2, &hh))
		return 0;
	if (*p == ':')
		p++;
	if (*p && !digits(&p, 2, &mm))
		return 0;
	if (*p || hh > 23 || mm > 59)
		return 0;
	*east = sign * (int64_t)(hh * 3600 + mm * 60);
	return 1;
}

static int parse_wall(const char *p, uint64_t *out)
{
	unsigned y, mo, d, h, mi, s = 0;
	uint64_t frac = 0;
	int64_t east, secs;
	int n_frac;

	if (!digits(&p, 4, &y) || *p++ != '-' || !digits(&p, 2, &mo) ||
	    *p++ != '-' || !digits(&p, 2, &d) || (*p != 'T' && *p != ' '))
		return 0;
	p++;
	if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &mi))
		return 0;
	if (*p == ':' && (p++, !digits(&p, 2, &s) ||
			  !fraction(&p, NS_PER_S, &frac, &n_frac)))
		return 0;
	if (!parse_zone(p, &east) || mo < 1 || mo > 12 || d < 1 || d > 31 ||
	    h > 23 || mi > 59 || s > 60)
		return 0;
	secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s -
	       east;
	if (secs < 0)
		return 0;
	*out = (uint64_t)secs * NS_PER_S + frac;
	return 1;
}

int ev_time_parse(const char *text, ev_time_base *base, uint64_t *ns)
{
	char buf[128];
	const char *p = buf;
	int ok;

	if (!text || !base || !ns || !trimmed(text, buf, sizeof buf))
		return EV_EINVAL;
	if (strlen(buf) >= 10 && buf[4] == '-') {
		*base = EV_TIME_WALL;
		ok = parse_wall(buf, ns);
	} else {
		*base = *p == '+' ? EV_TIME_RELATIVE : EV_TIME_RAW;
		p += *p == '+' || *p == '@';
		ok = duration(skip_blanks(p), ns);
	}
	return ok ? EV_OK : EV_EINVAL;
}

int ev_duration_parse(const char *text, int64_t *ns)
{
	char buf[128];
	const char *p = buf;
	uint64_t v;
	int negative;

	if (!text || !ns || !trimmed(text, buf, sizeof buf))
		return EV_EINVAL;
	negative = *p == '-';
	p += *p == '+' || *p == '-';
	if (!duration(skip_blanks(p), &v) || v > (uint64_t)INT64_MAX)
		return EV_EINVAL;
	*ns = negative ? -(int64_t)v : (int64_t)v;
	return EV_OK;
}
