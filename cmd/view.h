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
/* Hits of one /api/search. */
#define VIEW_MAX_HITS 500u
/* A range whose events lie within this many bytes of the log, for every
 * capability (by the index's block offsets), is drawn from its events. */
#define VIEW_EXACT_BYTES (4u << 20)
/* Bytes of the log /api/events reads for one page at most; past them it
 * answers with what it found and where to go on. */
#define VIEW_MAX_SCAN (32u << 20)

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
	ev_show *show;        /* `evtool show`'s text of an event */
	ev_process_list *procs; /* the processes, by capset, once complete */
	int complete;         /* the index reached the data end */
	int live;             /* the log may still grow */
	int waiting;          /* at its end for now: look again later */
} view_state;

/* Opens the log at `path` ("-": standard input) read-only as a plain
 * file in v->fd: a regular plain file as it is (v->live: it may grow); a
 * gzip file inflated into an unnamed temporary file ($TMPDIR, never
 * beside the log); a FIFO or pipe copied into one as its bytes come
 * (view_input_pump; a gzip stream inflated once it has ended). */
int view_input_open(view_state *v, const char *path);

/* Merges the logs `paths` (`n`, as `evtool merge` aligns them: by wall
 * clock, leniently) into an unnamed temporary file, which becomes v->fd. */
int view_input_merge(view_state *v, const char *const *paths, int n);

/* Copies what the FIFO or pipe has now; at its end, closes it and the
 * log stops growing (v->live = 0). */
int view_input_pump(view_state *v);

/* Closes the descriptors (the temporary file goes with them). */
void view_input_close(view_state *v);

/* The routes of the page and API, served with a view_state. */
extern const http_route view_routes[];
extern const size_t view_n_routes;

#endif
