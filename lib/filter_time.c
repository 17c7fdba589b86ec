/*
 * Parsing the times of filter windows (filter_time.h).
 */
#include "filter_internal.h"

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

/* ".ddd" (up to 9 digits kept; more are ignored) as nanoseconds of a
 * second scaled to `unit_ns`. */
static int fraction(const char **p, uint64_t unit_ns, uint64_t *out)
{
	uint64_t num = 0, den = 1;

	*out = 0;
	if (**p != '.')
		return 1;
	(*p)++;
	if (**p < '0' || **p > '9')
		return 0;
	for (; **p >= '0' && **p <= '9'; (*p)++)
		if (den < NS_PER_S) {
			num = num * 10 + (uint64_t)(**p - '0');
			den *= 10;
		}
	*out = num * unit_ns / den;
	return 1;
}

static int unit_ns(const char *unit, uint64_t *out)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "\xc2\xb5s", 1000 },
		{ "ms", 1000000 }, { "s", NS_PER_S },
	};

	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(unit, units[i].name) == 0) {
			*out = units[i].ns;
			return 1;
		}
	return 0;
}

/* "12", "1.5" then a unit; "0" alone is fine. */
static int parse_duration(const char *p, uint64_t *out)
{
	uint64_t whole = 0, unit = 0, frac_ns;
	const char *start = p, *frac_at, *unit_at;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return 0;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (p == start)
		return 0;
	frac_at = p;
	while (*p == '.' || (*p >= '0' && *p <= '9'))
		p++;
	if (!*p) {
		*out = 0;
		return whole == 0 && p == frac_at;
	}
	if (!unit_ns(p, &unit))
		return 0;
	unit_at = p;
	p = frac_at;
	if (!fraction(&p, unit, &frac_ns) || p != unit_at)
		return 0;
	if (whole > (UINT64_MAX - frac_ns) / unit)
		return 0;
	*out = whole * unit + frac_ns;
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

	if (!digits(&p, 4, &y) || *p++ != '-' || !digits(&p, 2, &mo) ||
	    *p++ != '-' || !digits(&p, 2, &d) || (*p != 'T' && *p != ' '))
		return 0;
	p++;
	if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &mi))
		return 0;
	if (*p == ':' && (p++, !digits(&p, 2, &s) ||
			  !fraction(&p, NS_PER_S, &frac)))
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

int evi_parse_time(const char *text, evi_time *out)
{
	if (text[0] == '@') {
		out->kind = EVI_TIME_RAW;
		return parse_duration(text + 1, &out->ns) ? 0 : -1;
	}
	if (strlen(text) >= 10 && text[4] == '-') {
		out->kind = EVI_TIME_WALL;
		return parse_wall(text, &out->ns) ? 0 : -1;
	}
	out->kind = EVI_TIME_RELATIVE;
	return parse_duration(text, &out->ns) ? 0 : -1;
}
