#include "support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
