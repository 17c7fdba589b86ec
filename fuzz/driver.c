/*
 * Replays files through a fuzz target without libFuzzer, so that every
 * seed and regression input runs as an ordinary test (and under the
 * sanitizers in the sanitizer build).
 *
 *     fuzz_reader_replay FILE|DIR...
 *
 * A directory stands for the regular files in it, in name order. Exit
 * status 0 when every input ran; a crash, a sanitizer report or a
 * timeout of the test is the failure.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	long len;

	if (!f) {
		perror(path);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		perror(path);
		fclose(f);
		return -1;
	}
	/* A copy of exactly `len` bytes, as libFuzzer hands it over, so
	 * that ASan sees a read one past the end. */
	data = malloc(len ? (size_t)len : 1);
	if (!data || fread(data, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "%s: cannot read\n", path);
		free(data);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(data, (size_t)len);
	free(data);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, unsigned *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (!d) {
		perror(dir);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "README") == 0)
			continue;
		if (n == cap) {
			char **grown;

			cap = cap ? cap * 2 : 64;
			grown = realloc(names, cap * sizeof *names);
			if (!grown) {
				rc = -1;
				break;
			}
			names = grown;
		}
		names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
		if (!names[n]) {
			rc = -1;
			break;
		}
		sprintf(names[n], "%s/%s", dir, e->d_name);
		n++;
	}
	closedir(d);
	if (names)
		qsort(names, n, sizeof *names, by_name);
	for (size_t i = 0; i < n; i++) {
		struct stat st;

		if (rc == 0 && stat(names[i], &st) == 0 &&
		    S_ISREG(st.st_mode)) {
			if (run_file(names[i]) < 0)
				rc = -1;
			else
				(*count)++;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			rc = 1;
		} else if (S_ISDIR(st.st_mode)) {
			if (run_dir(argv[i], &count) < 0)
				rc = 1;
		} else if (run_file(argv[i]) < 0) {
			rc = 1;
		} else {
			count++;
		}
	}
	printf("%s: %u inputs replayed\n", argv[0], count);
	return rc;
}
