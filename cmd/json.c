#include "json.h"

#include <string.h>

#include <evtool/evtool.h>

void json_init(json_out *j, FILE *f)
{
	memset(j, 0, sizeof *j);
	j->f = f;
}

void json_init_compact(json_out *j, FILE *f)
{
	json_init(j, f);
	j->compact = 1;
}

/* The library's one JSON string writer (ev_json_string): invalid UTF-8
 * comes out as U+FFFD, so every document is valid UTF-8 JSON. */
static void write_string(FILE *f, const char *s, size_t len)
{
	ev_text t = EV_TEXT_INIT;

	if (ev_json_string(&t, s, len) == EV_OK)
		fwrite(t.data, 1, t.len, f);
	else
		fputs("null", f); /* out of memory: still a JSON value */
	ev_text_free(&t);
}

/* Comma, newline, indentation and "key": before a value. */
static void begin_value(json_out *j, const char *key)
{
	if (j->depth > 0 && j->compact) {
		if (j->items[j->depth])
			putc_unlocked(',', j->f);
	} else if (j->depth > 0) {
		fputs(j->items[j->depth] ? ",\n" : "\n", j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	j->items[j->depth]++;
	if (key) {
		write_string(j->f, key, strlen(key));
		fputs(j->compact ? ":" : ": ", j->f);
	}
}

static void open_nested(json_out *j, const char *key, char bracket)
{
	begin_value(j, key);
	fputc(bracket, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->items[++j->depth] = 0;
}

static void close_nested(json_out *j, char bracket)
{
	int had_items = j->items[j->depth];

	j->depth--;
	if (had_items && !j->compact) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(bracket, j->f);
	if (j->depth == 0 && !j->compact)
		fputc('\n', j->f);
}

void json_begin_object(json_out *j, const char *key)
{
	open_nested(j, key, '{');
}

void json_end_object(json_out *j)
{
	close_nested(j, '}');
}

void json_begin_array(json_out *j, const char *key)
{
	open_nested(j, key, '[');
}

void json_end_array(json_out *j)
{
	close_nested(j, ']');
}

void json_string(json_out *j, const char *key, const char *s, size_t len)
{
	begin_value(j, key);
	write_string(j->f, s, len);
}

void json_cstring(json_out *j, const char *key, const char *s)
{
	if (s)
		json_string(j, key, s, strlen(s));
	else
		json_null(j, key);
}

/* Written digit by digit with putc_unlocked (a json_out is written by
 * one thread) rather than by fprintf: an answer of evtool view holds
 * some 10^5 numbers, and fprintf (its format parsed, the stream locked)
 * took half of the server's time. */
void json_uint(json_out *j, const char *key, uint64_t v)
{
	char buf[20], *digit = buf + sizeof buf;

	do
		*--digit = (char)('0' + v % 10);
	while (v /= 10);
	begin_value(j, key);
	while (digit < buf + sizeof buf)
		putc_unlocked(*digit++, j->f);
}

void json_uint16_array(json_out *j, const char *key, const uint16_t *v,
		       size_t n)
{
	json_begin_array(j, key);
	for (size_t i = 0; i < n; i++)
		json_uint(j, NULL, v[i]);
	json_end_array(j);
}

void json_big_uint(json_out *j, const char *key, uint64_t v)
{
	char name[64], digits[24];

	json_uint(j, key, v);
	snprintf(name, sizeof name, "%s_str", key);
	snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
	json_cstring(j, name, digits);
}

void json_double(json_out *j, const char *key, double v)
{
	begin_value(j, key);
	fprintf(j->f, "%.9g", v);
}

void json_bool(json_out *j, const char *key, int v)
{
	begin_value(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_null(json_out *j, const char *key)
{
	begin_value(j, key);
	fputs("null", j->f);
}
