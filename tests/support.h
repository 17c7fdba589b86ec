/* Helpers shared by the cmocka unit tests. */
#ifndef EVTOOL_TESTS_SUPPORT_H
#define EVTOOL_TESTS_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "evtool/merge.h"
#include "evtool/pipeline.h"
#include "evtool/validate.h"

/* Reads a whole file into a malloc'd buffer; NULL when it cannot. */
uint8_t *ts_read_file(const char *path, size_t *len);

/* Calls fn for every "*.eventlog" file in dir, in name order. Returns how
 * many there were; 0 when the folder does not exist. */
size_t ts_for_each_log(const char *dir,
		       void (*fn)(const char *path, void *ctx), void *ctx);

/* "dir/name" in a malloc'd string. */
char *ts_path(const char *dir, const char *name);

/* Reads "dir/name" whole; NULL when it cannot (an optional corpus log
 * that is absent: the caller skips). */
uint8_t *ts_load(const char *dir, const char *name, size_t *len);

/* "dir/name" twice, one copy after the other (a log of two sessions, as
 * a restarted eventlog writes): 2 * *len bytes; aborts when it cannot. */
uint8_t *ts_load_twice(const char *dir, const char *name, size_t *len);

/* ---- An independent event walker (doc/format.md sections 1, 2 and 4) ----
 * Written from the format description, sharing no code with libevtool, so
 * that tests can check the reader and writer against it. */

/* One event as found on the wire. */
typedef struct ts_event {
	uint64_t offset; /* offset of the event's first byte */
	uint32_t wire;   /* bytes on the wire: type, time, [length], payload */
	uint32_t size;   /* payload bytes */
	uint16_t type;
	uint16_t cap;    /* the enclosing block's cap, 0xffff outside blocks */
	uint64_t time;
} ts_event;

/* What ts_walk found in one session. */
typedef struct ts_log {
	uint64_t header_end; /* offset just past "datb"; 0 if the header is cut */
	ts_event *events;    /* the complete events, markers included */
	size_t count;
	int complete;        /* the 0xffff data end was found */
	uint64_t end;        /* past the last complete event, or past 0xffff */
} ts_log;

/* Walks the session starting at `log` (a header, events, maybe the data
 * end) and fills `out`. Returns 1 when the bytes are well formed as far as
 * they go (complete or cut short), 0 when they are malformed (then `out`
 * holds what was found before the problem). Free with ts_log_free(). */
int ts_walk(const uint8_t *log, size_t len, ts_log *out);

void ts_log_free(ts_log *l);

/* Number of events of `l` that end at or before `len` bytes. */
size_t ts_complete_within(const ts_log *l, uint64_t len);

/* The payload of `ev` inside the walked bytes. */
static inline const uint8_t *ts_payload(const uint8_t *log,
					const ts_event *ev)
{
	return log + ev->offset + ev->wire - ev->size;
}

/* Writes `len` bytes to `path` (mode "wb" or "ab"); 1 on success. */
int ts_write_file(const char *path, const void *data, size_t len,
		  const char *mode);

/* A fresh folder under $TMPDIR (or /tmp), malloc'd; NULL on failure. */
char *ts_temp_dir(void);

/* Removes every file in `dir` and then `dir` itself (one level only). */
void ts_remove_dir(const char *dir);

/* The input of the file at `path`; aborts the test when it cannot be
 * opened. */
ev_input *ts_input(const char *path);

/* A merge of the logs `names` (`n` of them) of folder `dir`, with the
 * default options; aborts the test when one cannot be opened. */
ev_merge *ts_merge(const char *dir, const char *const *names, size_t n);

/* Validates the log `r` reads with `opts` (NULL: the defaults), findings
 * to `fn`: the status of ev_validator_run_reader, the outcome in `res`. */
int ts_validate(ev_reader *r, const ev_validate_options *opts,
		ev_finding_fn fn, void *ctx, ev_validate_result *res);

/* The input of `len` bytes at `data` named `name`; aborts without memory. */
ev_input *ts_memory_input(const void *data, size_t len, const char *name);

#endif
