/*
 * evtool view: a local web viewer of a log's timeline. view.c is the
 * command (the input, the index, the loop); view_api.c answers the page's
 * JSON API (doc/view-api.md) from the index and, for exact events, from
 * the log's blocks; view_params.c parses the API's query parameters, with
 * no I/O, so that fuzz_http feeds it any bytes.
 */
#ifndef EVTOOL_CMD_VIEW_H
#define EVTOOL_CMD_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "evtool/evtool.h"
#include "http.h"

/* The widest tile, in pixels. */
#define VIEW_MAX_WIDTH 8192u
/* Events in one page of /api/events. */
#define VIEW_MAX_EVENTS 1000u
/* Events of one thread listed by /api/thread. */
#define VIEW_MAX_LIFE 500u
/* Thread rows of one /api/threads. */
#define VIEW_MAX_THREAD_ROWS 64u
/* Events of one capability /api/thread reads at most, looking for a
 * thread's. */
#define VIEW_THREAD_SCAN (1u << 20)
/* Heap-profile bands drawn; the others are summed into one, "other". */
#define VIEW_TOP_BANDS 15u
/* Sessions of one log shown. */
#define VIEW_MAX_SESSIONS 64
/* Hits of one /api/search. */
#define VIEW_MAX_HITS 500u
/* A range whose events lie within this many bytes of the log, for every
 * capability (by the index's block offsets), is drawn from its events. */
#define VIEW_EXACT_BYTES (4u << 20)

/* A request's parameters, as view_params_parse found them. */
typedef struct view_params {
	uint64_t from, to;  /* the range, ns; to > from */
	int have_range;
	size_t width;       /* tiles: 1..VIEW_MAX_WIDTH */
	int have_cap;
	uint16_t cap;       /* EV_NO_CAP: the global buffer */
	size_t limit;       /* events: 1..VIEW_MAX_EVENTS */
	int have_cursor;    /* events: go on after a page */
	uint64_t block;     /* the block of the page's last event */
	uint64_t after;     /* its offset: the events up to it are given */
	const char *query;  /* search text, borrowed */
	int have_tid;
	uint32_t tid;       /* a thread: 1..2^32-1 */
} view_params;

/* Gives the value of a parameter (NULL: absent). */
typedef const char *(*view_arg_fn)(void *ctx, const char *key);

/* Parses the parameters `arg` gives. Returns 0, or -1 with *why naming
 * the parameter and what is wrong (static text). */
int view_params_parse(view_arg_fn arg, void *ctx, view_params *out,
		      const char **why);

/* The server's state: the log, its index and the header to show with. */
typedef struct view_state {
	const char *name;     /* as given, for the page */
	int fd;               /* the plain log, read by the index and pread */
	int src_fd;           /* a FIFO or pipe still copied into it, or -1 */
	int write_fd;         /* the copy's end for writing, or -1 */
	uint64_t copied;      /* bytes copied from src_fd */
	int src_known;        /* its first bytes are in: ... */
	int src_gzip;         /* ... and are gzip's magic */
	ev_reader *reader;    /* the indexing reader; its header is kept */
	ev_view_index *index;
	ev_view_preview *preview; /* the whole run, coarse, until complete */
	ev_show *show;        /* `evtool show`'s text of an event */
	ev_process_list *procs; /* the processes, by capset, once complete */
	int complete;         /* the index reached the data end */
	int live;             /* the log may still grow */
	int waiting;          /* at its end for now: look again later */
	unsigned sessions;    /* of the log, once its first has ended */
	char *cache_path;     /* --cache: the file to write, or NULL */
	ev_view_log_id log_id; /* the log's, for the cache */
	int from_cache;       /* the index was loaded from it */
	uint64_t log_size;    /* the log's bytes, when from the cache */
} view_state;

/* The run's first and last times: the preview's while the index has
 * not reached the end, else the index's (view_api.c). */
uint64_t view_start(const view_state *v);
uint64_t view_end(const view_state *v);

/* Opens the log at `path` ("-": standard input) read-only as a plain
 * file in v->fd: a regular plain file as it is (v->live: it may grow); a
 * gzip file inflated into an unnamed temporary file ($TMPDIR, never
 * beside the log); a FIFO or pipe copied into one as its bytes come
 * (view_input_pump; a gzip stream inflated once it has ended). */
int view_input_open(view_state *v, const char *path);

/* Merges the logs `paths` (`n`, as `evtool merge` aligns them: by wall
 * clock, leniently) into an unnamed temporary file, which becomes v->fd. */
int view_input_merge(view_state *v, const char *const *paths, int n);

/* At the end of the first session of the log v->reader reads: counts
 * its sessions (v->sessions) and, when there are several, merges them as
 * several logs are merged (view_input_merge) into a temporary file that
 * becomes v->fd (*merged: the caller indexes it anew), so that each
 * session's processes are shown, aligned by their wall clocks. */
int view_input_sessions(view_state *v, int *merged);

/* Copies what the FIFO or pipe has now; at its end, closes it and the
 * log stops growing (v->live = 0). */
int view_input_pump(view_state *v);

/* Closes the descriptors (the temporary file goes with them). */
void view_input_close(view_state *v);

/* One capability's events in the log's order, from one of its blocks on:
 * a reader over the log from that block (ev_view_source), reopened past
 * the other capabilities' blocks (ev_view_source_seek), so that finding
 * the next event costs the markers hopped over, never the others' events
 * (view_api.c). */
typedef struct cap_events {
	const view_state *v;
	uint16_t cap;
	ev_view_source src;
	ev_reader *r;
	uint64_t block; /* the block of the last event given */
} cap_events;

/* From the block at `at` (EV_NO_CAP: the global buffer's events, and
 * those outside every block). EV_OK, or a failure; close it either way. */
int cap_events_open(cap_events *ce, const view_state *v, uint16_t cap,
		    uint64_t at);
/* The next event of the capability and its offset in the log: EV_OK, or
 * the reader's end or failure. */
int cap_events_next(cap_events *ce, ev_event *ev, uint64_t *offset);
void cap_events_close(cap_events *ce);

/* evtool view --cache (view_cache.c): the cache file of the log at
 * `path`, in `where` (a folder, or else the file itself), is loaded into
 * v->index when it was made from the log as it is now (v->complete);
 * else its path is kept for view_cache_save. A log that is not a file
 * (standard input, a FIFO, a socket) gets a warning and no cache. */
int view_cache_open(view_state *v, const char *where, const char *path);

/* Writes the complete index to the cache file (a temporary file renamed
 * into place), unless it came from there or the log had several
 * sessions; a failure is a warning. */
void view_cache_save(view_state *v);

/* The routes of the page and API, served with a view_state. */
extern const http_route view_routes[];
extern const size_t view_n_routes;

#endif
