/*
 * evtool stats, shared by its files: stats.c (the command), stats_print.c
 * (the summary and the analysis of one log, the accumulator of one file),
 * stats_compare.c (two runs side by side, --fail-if), stats_follow.c
 * (--follow), stats_spans.c (--spans) and stats_text.c (numbers as text,
 * a leaf). The command calls the others; none calls it back, and no two
 * of them call each other.
 */
#ifndef EVTOOL_CMD_STATS_CLI_H
#define EVTOOL_CMD_STATS_CLI_H

#include <evtool/evtool.h>

#include "cli.h"
#include "json.h"

#define STATS_SCHEMA_VERSION 1

/* What to print beyond the summary and the pauses. */
enum stats_parts {
	STATS_THREADS = 1u << 0, /* --threads */
	STATS_CAPS = 1u << 1,    /* --caps */
	STATS_SPANS = 1u << 2,   /* --spans: print them */
	STATS_SPAN_EVENTS = 1u << 3,  /* collect START/STOP spans */
	STATS_SPAN_MARKERS = 1u << 4, /* collect spans between markers */
	STATS_BANDS = 1u << 5         /* collect heap-profile bands */
};

/* One file's outcome: the reader's final status and where it stopped. */
typedef struct stats_file {
	const char *path;
	const char *name; /* in messages (cli_input_name) */
	int status; /* EV_END or EV_ETRUNCATED */
	ev_diag diag;
	ev_stats *st;
} stats_file;

/* A new accumulator for `f`, keeping threads when `parts` asks for them.
 * EXIT_OK or an error, reported. */
int stats_file_start(stats_file *f, const char *path, unsigned parts);

/* Reports the failure of the accumulator (its finish's too: the consumer
 * finished the figures) or of reading `r` (status f->status). EXIT_OK,
 * EXIT_DROPPED for a truncated log (the figures cover its complete
 * events), or an error, reported. */
int stats_file_end(stats_file *f, ev_reader *r);

/* The text of a finished file: the summary of each process (`separate`:
 * a blank line first), then the parts asked for. */
void stats_print_text(const stats_file *f, int separate, unsigned parts);

/* The parts asked for (--threads, --caps) of a finished file, each after
 * a blank line. */
void stats_print_parts(const stats_file *f, unsigned parts);

/* The JSON object of a finished file. */
void stats_json_file(json_out *j, const stats_file *f, unsigned parts);

/* A figure's value as text in its unit ("4.94ms", "2,698,472", "39.2%"). */
const char *stats_figure_text(const ev_stats_figure *fig, double v,
			      char *out, size_t len);

/* A duration as text: ns, us, ms or s with three significant digits. */
const char *stats_duration(uint64_t ns, char *out, size_t len);

/* `v` with thousands separators, as the RTS's showStgWord64. */
const char *stats_commas(uint64_t v, char *out, size_t len);

/* The `n` items at(st, 0) ... at(st, n - 1) of a list of `st` (an
 * ev_stats_*_at accessor), as an array of pointers sorted by `cmp`
 * (given pointers to two of its elements, as qsort): to free(), NULL when
 * out of memory. */
const void **stats_sorted(const ev_stats *st, size_t n,
			  const void *(*at)(const ev_stats *st, size_t i),
			  int (*cmp)(const void *a, const void *b));

/* evtool stats A B: the figures side by side (text or JSON), and the
 * --fail-if conditions (n_conds of them) checked on B against A, or on
 * A alone when `b` is NULL. Returns EXIT_OK, or EXIT_INVALID when a
 * condition failed (each one named on standard error). */
int stats_compare(const stats_file *a, const stats_file *b,
		  const ev_stats_condition *conds, const char *const *texts,
		  int n_conds, json_out *j);

/* ---- spans (stats_spans.c) ---- */

/* The EV_STATS_SPANS_* kinds `parts` collects; 0 for none. */
unsigned stats_span_kinds(unsigned parts);

/* The spans of a finished file, most total time first, as text (the
 * JSON: stats_json_spans, stats_json.h). */
void stats_print_spans(const stats_file *f);

/* The spans of two runs side by side: count, total, p50, p99, max. */
void stats_compare_spans(const stats_file *a, const stats_file *b);

/* The value of a span condition's figure (c->subject EV_STATS_OF_SPAN)
 * in `f`: 1 with *v, 0 when `f` has no spans of that name. */
int stats_span_value(const stats_file *f, const ev_stats_condition *c,
		     double *v);

/* --follow: a line per name whose spans ended since the last call
 * (*last_counts, *n_last: the counts then, grown as names come). */
void stats_follow_spans(const ev_stats *st, uint64_t **last_counts,
			size_t *n_last);

/* ---- heap-profile bands (stats_heap.c) ---- */

/* Two runs' heap profiles band by band, the `top` largest changes of
 * peak and the rest summed (text, or JSON "heap_bands"); nothing when
 * neither run has a profile. EXIT_OK, or EXIT_INVALID (reported) when
 * the profiles' breakdowns differ. */
int stats_compare_bands(const stats_file *a, const stats_file *b, size_t top,
			json_out *j);

/* The value of a band condition's figure (EV_STATS_OF_BAND) in `f`: 1
 * with *v, 0 when `f` has no such band. */
int stats_band_value(const stats_file *f, const ev_stats_condition *c,
		     double *v);

/* evtool stats --follow: a line per `every_ns` of the log's time while
 * it is written, then the summary. Returns the exit code. */
int stats_follow(const char *in, uint64_t every_ns, unsigned parts);

#endif
