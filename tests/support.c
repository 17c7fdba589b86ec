#include "support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint8_t *ts_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, used = 0;
	uint8_t *buf = malloc(cap);
	while (buf) {
		used += fread(buf + used, 1, cap - used, f);
		if (used < cap)
			break;
		cap *= 2;
		uint8_t *grown = realloc(buf, cap);
		if (!grown)
			free(buf);
		buf = grown;
	}
	fclose(f);
	if (buf)
		*len = used;
	return buf;
}

char *ts_path(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

uint8_t *ts_load(const char *dir, const char *name, size_t *len)
{
	char *path = ts_path(dir, name);
	uint8_t *buf = path ? ts_read_file(path, len) : NULL;

	free(path);
	return buf;
}

uint8_t *ts_load_twice(const char *dir, const char *name, size_t *len)
{
	uint8_t *one = ts_load(dir, name, len);
	uint8_t *two = one ? malloc(2 * *len) : NULL;

	if (!two)
		abort();
	memcpy(two, one, *len);
	memcpy(two + *len, one, *len);
	free(one);
	return two;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t ts_for_each_log(const char *dir,
		       void (*fn)(const char *path, void *ctx), void *ctx)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	char *names[512];
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < 512)
		if (has_suffix(e->d_name, ".eventlog"))
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof names[0], compare_names);
	for (size_t i = 0; i < n; i++) {
		char *path = ts_path(dir, names[i]);
		fn(path, ctx);
		free(path);
		free(names[i]);
	}
	return n;
}

/* ---- The independent walker ---- */


static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

#define TS_UNDECLARED (-2)
#define TS_VARIABLE (-1)

/* Parses the header; fills sizes[65536] with the payload sizes actually
 * written. Returns the offset past "datb", 0 if cut, -1 if malformed. */
static long walk_header(const uint8_t *log, size_t len, int32_t *sizes)
{
	size_t pos = 8;

	for (size_t i = 0; i < 65536; i++)
		sizes[i] = TS_UNDECLARED;
	if (len < 8)
		return memcmp(log, "hdrbhetb", len) == 0 ? 0 : -1;
	if (memcmp(log, "hdrbhetb", 8) != 0)
		return -1;
	for (;;) {
		if (pos + 4 > len)
			return 0;
		if (memcmp(log + pos, "hete", 4) == 0)
			break;
		if (memcmp(log + pos, "etb\0", 4) != 0)
			return -1;
		if (pos + 12 > len)
			return 0;
		uint16_t id = be16(log + pos + 4);
		uint16_t size = be16(log + pos + 6);
		uint32_t desc_len = be32(log + pos + 8);
		pos += 12;
		if (desc_len > len - pos || len - pos - desc_len < 4)
			return 0;
		pos += desc_len;
		uint32_t extra_len = be32(log + pos);
		pos += 4;
		if (extra_len > len - pos || len - pos - extra_len < 4)
			return 0;
		pos += extra_len;
		if (memcmp(log + pos, "ete\0", 4) != 0)
			return -1;
		pos += 4;
		sizes[id] = size == 0xffff ? TS_VARIABLE : size;
	}
	if (pos + 12 > len)
		return memcmp(log + pos, "hetehdredatb", len - pos) == 0 ? 0 : -1;
	if (memcmp(log + pos, "hetehdredatb", 12) != 0)
		return -1;
	/* GHC 6.12 declared CREATE_THREAD with 8 bytes but wrote 4-byte
	 * thread ids in every thread event; STARTUP declared 0 carries 2. */
	if (sizes[0] == 8) {
		static const uint16_t thread_ids[] = { 0, 1, 2, 3, 4, 5, 6, 8,
						       15 };
		for (size_t i = 0; i < sizeof thread_ids / sizeof thread_ids[0];
		     i++)
			if (sizes[thread_ids[i]] >= 4)
				sizes[thread_ids[i]] -= 4;
		if (sizes[17] == 0)
			sizes[17] = 2;
	}
	return (long)(pos + 12);
}

static int push_event(ts_log *l, const ts_event *ev, size_t *cap)
{
	if (l->count == *cap) {
		size_t n = *cap ? *cap * 2 : 1024;
		ts_event *grown = realloc(l->events, n * sizeof *grown);
		if (!grown)
			return 0;
		l->events = grown;
		*cap = n;
	}
	l->events[l->count++] = *ev;
	return 1;
}

int ts_walk(const uint8_t *log, size_t len, ts_log *out)
{
	int32_t *sizes = malloc(65536 * sizeof *sizes);
	size_t cap = 0;
	uint64_t block_start = 0, block_end = 0;
	uint16_t block_cap = 0xffff;
	int ok = 1;

	memset(out, 0, sizeof *out);
	if (!sizes)
		return 0;
	long header = walk_header(log, len, sizes);
	if (header <= 0) {
		free(sizes);
		return header == 0;
	}
	out->header_end = (uint64_t)header;
	size_t pos = (size_t)header;
	while (pos + 2 <= len) {
		uint16_t type = be16(log + pos);
		if (type == 0xffff) {
			out->complete = 1;
			pos += 2;
			break;
		}
		if (sizes[type] == TS_UNDECLARED) {
			ok = 0;
			break;
		}
		ts_event ev = { .offset = pos, .type = type };
		uint32_t head = 10;
		if (sizes[type] == TS_VARIABLE) {
			if (pos + 12 > len)
				break;
			ev.size = be16(log + pos + 10);
			head = 12;
		} else {
			ev.size = (uint32_t)sizes[type];
		}
		ev.wire = head + ev.size;
		if (ev.wire > len - pos)
			break;
		ev.time = be64(log + pos + 2);
		if (type == 18 && ev.size >= 14) {
			block_start = pos;
			block_end = pos + be32(log + pos + head);
			block_cap = be16(log + pos + head + 12);
			ev.cap = block_cap;
		} else {
			ev.cap = pos >= block_start && pos < block_end ? block_cap
								      : 0xffff;
		}
		if (!push_event(out, &ev, &cap)) {
			ok = 0;
			break;
		}
		pos += ev.wire;
	}
	out->end = pos;
	free(sizes);
	return ok;
}

void ts_log_free(ts_log *l)
{
	free(l->events);
	memset(l, 0, sizeof *l);
}

size_t ts_complete_within(const ts_log *l, uint64_t len)
{
	size_t n = 0;

	while (n < l->count && l->events[n].offset + l->events[n].wire <= len)
		n++;
	return n;
}

int ts_write_file(const char *path, const void *data, size_t len,
		  const char *mode)
{
	FILE *f = fopen(path, mode);
	int ok;

	if (!f)
		return 0;
	ok = fwrite(data, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

char *ts_temp_dir(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = ts_path(tmp && *tmp ? tmp : "/tmp", "evtool-test-XXXXXX");

	if (dir && !mkdtemp(dir)) {
		free(dir);
		dir = NULL;
	}
	return dir;
}

void ts_remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char *path = ts_path(dir, e->d_name);
		if (path)
			unlink(path);
		free(path);
	}
	closedir(d);
	rmdir(dir);
}

ev_input *ts_input(const char *path)
{
	ev_input *in;

	if (ev_input_open(&in, path, NULL) < 0) {
		fprintf(stderr, "cannot open %s\n", path);
		abort();
	}
	return in;
}

ev_merge *ts_merge(const char *dir, const char *const *names, size_t n)
{
	ev_merge *m;

	if (ev_merge_new(&m, NULL, NULL) < 0)
		abort();
	for (size_t i = 0; i < n; i++) {
		char *path = ts_path(dir, names[i]);

		if (!path || ev_merge_add(m, ts_input(path)) < 0)
			abort();
		free(path);
	}
	return m;
}

ev_input *ts_memory_input(const void *data, size_t len, const char *name)
{
	ev_input *in;

	if (ev_input_memory(&in, data, len, name, NULL) < 0)
		abort();
	return in;
}

int ts_validate(ev_reader *r, const ev_validate_options *opts,
		ev_finding_fn fn, void *ctx, ev_validate_result *res)
{
	ev_validator *v;
	int rc = ev_validator_new(&v, opts, NULL);

	if (rc < 0)
		return rc;
	ev_validator_set_findings(v, fn, ctx);
	rc = ev_validator_run_reader(v, r);
	*res = *ev_validator_result(v);
	ev_validator_free(v);
	return rc;
}
