/*
 * A small streaming JSON printer for --json output: keys, nesting and
 * commas are tracked so that commands only say what to print. Strings go
 * through the library's one JSON string writer, ev_json_string.
 */
#ifndef EVTOOL_CMD_JSON_H
#define EVTOOL_CMD_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

typedef struct json_out {
	FILE *f;
	int depth;
	int items[JSON_MAX_DEPTH]; /* values printed at each depth */
	int compact; /* no newlines or indentation */
} json_out;

/* Indented output, one value a line, for people. */
void json_init(json_out *j, FILE *f);

/* Output without any space: for data that a program reads. */
void json_init_compact(json_out *j, FILE *f);

/* `key` is the member name inside an object, NULL inside an array or at
 * the top level. */
void json_begin_object(json_out *j, const char *key);
void json_end_object(json_out *j);
void json_begin_array(json_out *j, const char *key);
void json_end_array(json_out *j);
void json_string(json_out *j, const char *key, const char *s, size_t len);
void json_cstring(json_out *j, const char *key, const char *s);
void json_uint(json_out *j, const char *key, uint64_t v);
/* `n` small numbers (a process's capabilities) as an array. */
void json_uint16_array(json_out *j, const char *key, const uint16_t *v,
		       size_t n);
/* An integer that may exceed 2^53, beyond which readers that hold JSON
 * numbers as doubles (jq 1.6, JavaScript) round: written as the number
 * `key` and also as the decimal string `key`_str. */
void json_big_uint(json_out *j, const char *key, uint64_t v);
void json_double(json_out *j, const char *key, double v);
void json_bool(json_out *j, const char *key, int v);
void json_null(json_out *j, const char *key);

#endif
