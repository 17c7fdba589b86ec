/* Helpers shared by the cmocka unit tests. */
#ifndef EVTOOL_TESTS_SUPPORT_H
#define EVTOOL_TESTS_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

/* Reads a whole file into a malloc'd buffer; NULL when it cannot. */
uint8_t *ts_read_file(const char *path, size_t *len);

/* Calls fn for every "*.eventlog" file in dir, in name order. Returns how
 * many there were; 0 when the folder does not exist. */
size_t ts_for_each_log(const char *dir,
		       void (*fn)(const char *path, void *ctx), void *ctx);

/* "dir/name" in a malloc'd string. */
char *ts_path(const char *dir, const char *name);

#endif
