/*
 * evtool monitor: the live logs it follows and the Prometheus metrics it
 * serves. monitor.c is the command (options, the loop, the pages, --once);
 * monitor_source.c follows the sources (FIFOs, growing files, unix:
 * sockets, directories); monitor_session.c turns one session of a log
 * into figures, through the stats accumulator (include/evtool/stats.h);
 * monitor_metrics.c writes them in the text formats of Prometheus and
 * OpenMetrics.
 *
 * Calls go one way: monitor.c -> monitor_source.c -> monitor_session.c,
 * and monitor.c -> monitor_metrics.c -> monitor_session.c.
 */
#ifndef EVTOOL_CMD_MONITOR_H
#define EVTOOL_CMD_MONITOR_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <evtool/evtool.h>

/* The GC pause histogram's upper bounds (le), in ns: 100 us to 10 s. */
#define MON_BUCKETS 16u

/* Programs (PROGRAM_ARGS) and pause histograms kept per session: one per
 * process, as many as stats analyses pauses for. */
#define MON_MAX_PROCS EV_STATS_MAX_PAUSE_PROCESSES
/* Ended sessions kept per source (the newest), whatever --keep-ended. */
#define MON_MAX_ENDED 4u
/* Bytes of a program name or marker name kept in a label. */
#define MON_MAX_NAME 128u

/* What a session's GC pauses of one generation were. */
typedef struct mon_hist {
	uint64_t le[MON_BUCKETS]; /* pauses <= each bound (cumulative) */
	uint64_t count;
	uint64_t sum_ns;
} mon_hist;

/* A process of a session: its program and its pauses. */
typedef struct mon_proc {
	uint32_t capset;
	char program[MON_MAX_NAME];
	mon_hist gens[EV_STATS_MAX_GENS];
} mon_proc;

typedef struct mon_marker {
	char *name;
	uint64_t count;
} mon_marker;

/* Options that shape what a session counts. */
typedef struct mon_limits {
	unsigned max_markers; /* marker names counted one by one; 0: none */
} mon_limits;

/* One session of a log: one run of a program (a merged log's several
 * processes share it). Its series are labelled with program, pid and
 * source. */
typedef struct mon_session {
	ev_stats *st;
	int finished;          /* ev_stats_finish ran: the final figures */
	const char *source;    /* the source's label, owned by the source
				  (copied at its end: see mon_session_end) */
	char *source_copy;
	mon_proc *procs;
	size_t n_procs;
	uint64_t threads_created;
	uint64_t events;
	uint64_t bytes;        /* of the log read in this session */
	mon_marker *markers;
	size_t n_markers;
	uint64_t other_markers; /* past max_markers */
	int counting_markers;
	double last_event_s;   /* monotonic seconds of the last event read */
	/* The process writing the log as the system sees it (a socket's
	 * peer, a FIFO's or file's writer in /proc): the labels until the
	 * log names its own pid and program (a GHC 9.0 program does at its
	 * end only). */
	int have_writer;
	uint32_t writer_pid;
	char writer_program[MON_MAX_NAME];
	int writer_looked;     /* looked for once */
	double ended_s;        /* monotonic seconds of its end, or 0 */
	const mon_limits *limits;
	struct mon_session *next; /* in the list of ended sessions */
} mon_session;

/* Monotonic seconds. */
double mon_now(void);

/* A new session of `source` whose header is `h`. EV_OK or EV_ENOMEM. */
int mon_session_new(mon_session **out, const char *source,
		    const ev_header *h, const mon_limits *limits);

/* Adds one event read `bytes` bytes after the previous one: to the
 * stats accumulator, the markers, threads and counts. EV_OK or the
 * accumulator's error (ev_stats_diag). */
int mon_session_add(mon_session *s, const ev_event *ev, uint64_t bytes);

/* Ends a session: the final figures (ev_stats_finish), its source label
 * copied (the source may go first). EV_OK or EV_ENOMEM. */
int mon_session_end(mon_session *s);

void mon_session_free(mon_session *s);

/* Processes of the session, and process `i`'s figures (live or final)
 * into `out`; its mon_proc or NULL. */
size_t mon_session_process_count(const mon_session *s);
const mon_proc *mon_session_process(mon_session *s, size_t i,
				    ev_stats_process *out);

/* The bounds of the pause histogram, ns. */
extern const uint64_t mon_bucket_ns[MON_BUCKETS];

/* ---- sources (monitor_source.c) ---- */

typedef enum mon_state {
	MON_WAITING,  /* for a writer, a socket, a header */
	MON_READING,  /* a session is live */
	MON_DONE,     /* a file read to its end: nothing more will come */
	MON_FAILED    /* cannot be read (its reason was reported) */
} mon_state;

typedef enum mon_kind { MON_FILE, MON_FIFO, MON_SOCKET, MON_DIR } mon_kind;

typedef struct mon_source {
	char *label;          /* as given, or the path found in a directory */
	const char *path;     /* into label (after "unix:") */
	mon_kind kind;
	int from_dir;         /* found in a directory */
	dev_t dev;            /* of a file found in a directory */
	ino_t ino;
	int fd;
	ev_reader *reader;
	mon_state state;
	mon_session *live;    /* the session being read, or NULL */
	int at_end;           /* its data end was read: it ends unless
				 garbage follows */
	int resyncing;        /* skipping damaged bytes as they come ... */
	uint64_t resync_from; /* ... from this offset */
	int draining;         /* a stream that failed: read until its
				 writer goes (give_up) */
	uint64_t offset;      /* the reader's offset at the last event */
	uint64_t sessions, errors, skipped_bytes;
	int stalled;          /* reported as stalled */
	double last_input_s;  /* monotonic seconds of the last byte */
	double retry_s;       /* when to try a socket or FIFO again */
} mon_source;

/* The sources of a monitor and what they were told. */
typedef struct mon_sources {
	mon_source **items;
	size_t n, alloc;
	char **dirs;          /* directories watched */
	size_t n_dirs;
	double next_scan_s;   /* when to look into them again */
	double stall_s;       /* a live session without input this long is
				 reported stalled */
	mon_limits limits;
	mon_session *ended;   /* ended sessions, newest first */
	size_t max_sources;
} mon_sources;

/* Adds a SOURCE operand: a FIFO, a file, unix:PATH or a directory.
 * EXIT_OK, or an exit code with a message. */
int mon_sources_add(mon_sources *ms, const char *spec);

/* Reads what source `i` has (`revents`: its poll result, 0 for a tick).
 * Never blocks. */
void mon_source_pump(mon_sources *ms, size_t i, short revents);

/* What a tick does: retries, directory scans, stall reports, and the end
 * of ended sessions older than `keep_s`. */
void mon_sources_tick(mon_sources *ms, double keep_s);

/* Looks for the writers of live sessions whose log has not named its
 * pid yet (one pass over /proc for all of them); each session once. */
void mon_sources_find_writers(mon_sources *ms);

/* Whether source `i` is polled for input (a FIFO or socket with a
 * descriptor), and its descriptor. */
int mon_source_poll_fd(const mon_sources *ms, size_t i);

/* Ends every live session (at an interrupt) and frees everything. */
void mon_sources_free(mon_sources *ms);

/* ---- metrics (monitor_metrics.c) ---- */

/* Writes the metrics of the live sessions of `ms` and of the `ended`
 * sessions in Prometheus' text format (0.0.4) or OpenMetrics 1.0
 * (`openmetrics`). `ms` NULL (--once): `ended` only, without the
 * sources' metrics and the last event's age. Returns 0, or -1 when out
 * of memory. */
int mon_metrics_write(FILE *out, mon_sources *ms, mon_session *ended,
		      int openmetrics);

/* The content types of the two formats. */
#define MON_TEXT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define MON_OPENMETRICS_TYPE \
	"application/openmetrics-text; version=1.0.0; charset=utf-8"

#endif
