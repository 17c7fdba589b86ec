/*
 * evtool info: what a log is (GHC version, program, caps, times) and what
 * it holds (events per type, class and capability), in one pass. The
 * library's ev_info (info.h) analyses; this file only formats text and
 * JSON.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "json.h"

/* The options of evtool info, indexes in info_options. */
enum info_option {
	INFO_OPT_JSON,
	INFO_OPT_THREADS,
	INFO_N_OPTIONS
};
CLI_CHECK_OPTIONS(INFO_N_OPTIONS);

const cli_option info_options[INFO_N_OPTIONS + 1] = {
	[INFO_OPT_JSON] =
	{ "json", 0, NULL, "print one JSON object (schema_version 1)" },
	[INFO_OPT_THREADS] =
	{ "threads", 'T', "N", "read with N threads (default, or 0: the "
	  "cores available; 1: one)" },
};

#define INFO_SCHEMA_VERSION 1

/* One log as shown: its name and the library's analysis. */
typedef struct log_info {
	const char *path;
	const ev_info *in;
	const ev_info_summary *sum;
	const ev_process_list *procs;
} log_info;

/* Analyses `path` into `*out` (NULL when it could not be opened). */
static int collect(log_info *li, const char *path, unsigned threads,
		   ev_info **out)
{
	ev_reader *r;
	int rc = cli_open_input(path, EV_READER_DIGEST, &r);

	*out = NULL;
	if (rc != EXIT_OK)
		return rc;
	if (ev_info_new(out, NULL, NULL) < 0) {
		ev_reader_free(r);
		return cli_error(EXIT_SYSTEM, "out of memory");
	}
	ev_info_set_threads(*out, threads);
	li->path = cli_input_name(path);
	li->in = *out;
	li->sum = ev_info_result(*out);
	li->procs = ev_info_processes(*out);
	rc = ev_info_read(*out, r);
	if (rc == EV_OK && li->sum->status == EV_EFORMAT &&
	    li->sum->diag.reason == EV_REASON_EMPTY_INPUT)
		li->path = NULL; /* nothing to summarise, as if unopened */
	if (rc == EV_ENOMEM)
		rc = cli_error(EXIT_SYSTEM, "%s: out of memory", path);
	else if (rc < 0 || !li->path)
		rc = cli_reader_error(r);
	else
		rc = EXIT_OK;
	ev_reader_free(r);
	return rc;
}

/* ---- shared by both renderings ---- */

static const char *status_name(int status)
{
	if (status == EV_END)
		return "complete";
	if (status == EV_ETRUNCATED)
		return "truncated";
	return "invalid";
}

static const char *capset_type_name(uint16_t type)
{
	switch (type) {
	case EV_CAPSET_CUSTOM:
		return "custom";
	case EV_CAPSET_OS_PROCESS:
		return "os-process";
	case EV_CAPSET_CLOCK_DOMAIN:
		return "clock-domain";
	default:
		return "unknown";
	}
}

/* ISO 8601 UTC with nanoseconds. */
static void format_wall(uint64_t epoch_ns, char *out, size_t len)
{
	time_t sec = (time_t)(epoch_ns / 1000000000u);
	struct tm tm;
	char date[32];

	gmtime_r(&sec, &tm);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, len, "%s.%09uZ", date,
		 (unsigned)(epoch_ns % 1000000000u));
}

/* ---- text ---- */

/* PROGRAM_ARGS' NUL-separated strings, separated by spaces. */
static void print_args(const char *args, size_t len)
{
	while (len > 0 && args[len - 1] == '\0')
		len--;
	for (size_t i = 0; i < len; i++)
		putchar(args[i] ? args[i] : ' ');
}

static void print_caps(const log_info *li)
{
	unsigned n = li->sum->caps_seen, shown = 0;

	printf("  %-16s %u", "capabilities", n ? n : li->sum->startup_caps);
	for (unsigned cap = 0; cap < EV_NO_CAP && shown < 16; cap++)
		if (ev_info_cap_seen(li->in, (uint16_t)cap))
			printf("%s%u", shown++ ? " " : ": ", cap);
	puts(n > shown ? " ..." : "");
	printf("  %-16s %u", "capsets", li->sum->n_capsets);
	for (unsigned i = 0; i < li->sum->n_capsets; i++)
		printf("%s%" PRIu32 " (%s)", i ? ", " : ": ",
		       li->sum->capsets[i].id,
		       capset_type_name(li->sum->capsets[i].type));
	putchar('\n');
}

/* What one process says of itself; `indent` lines up a listed one. */
static void print_process(const ev_process *p, const char *indent)
{
	char wall[64];

	if (p->rts)
		printf("  %s%-16s %s\n", indent, "rts", p->rts);
	if (p->args) {
		printf("  %s%-16s ", indent, "program");
		print_args(p->args, p->args_len);
		putchar('\n');
	}
	if (p->have_pid) {
		printf("  %s%-16s %" PRIu32, indent, "pid", p->pid);
		if (p->have_ppid)
			printf(" (parent %" PRIu32 ")", p->ppid);
		putchar('\n');
	}
	if (p->have_wall && !*indent) {
		format_wall(p->wall_epoch_ns, wall, sizeof wall);
		printf("  %-16s %s (time 0 of the log)\n", "wall clock", wall);
	} else if (p->have_wall && p->have_start) {
		format_wall(p->wall_epoch_ns + p->start_ns, wall, sizeof wall);
		printf("  %s%-16s %s (at %" PRIu64 " ns)\n", indent, "started",
		       wall, p->start_ns);
	}
}

/* One process: its own lines. Several (a merged log, a restarted
 * stream): one block per process, under a line naming its capset,
 * session and capabilities. */
static void print_identity(const log_info *li)
{
	size_t n = ev_process_list_count(li->procs);

	if (n == 1)
		print_process(ev_process_list_at(li->procs, 0), "");
	if (n <= 1)
		return;
	printf("  %-16s %zu\n", "processes", n);
	for (size_t i = 0; i < n; i++) {
		const ev_process *p = ev_process_list_at(li->procs, i);
		printf("  process %-8zu capset %" PRIu32, i + 1, p->capset);
		if (li->sum->sessions > 1)
			printf(" of session %u", p->session + 1);
		printf(", %zu capabilit%s", p->n_caps,
		       p->n_caps == 1 ? "y" : "ies");
		for (size_t k = 0; k < p->n_caps && k < 16; k++)
			printf("%s%u", k ? " " : ": ", p->caps[k]);
		puts(p->n_caps > 16 ? " ..." : "");
		print_process(p, "  ");
	}
}

static void print_counts(const log_info *li)
{
	printf("  %-16s", "by class");
	for (unsigned bit = 0; bit < EV_CLASS_COUNT; bit++) {
		ev_class cls = (ev_class)(1u << bit);
		uint64_t n = ev_info_class_events(li->in, cls);
		if (n)
			printf(" %s %" PRIu64, ev_class_name(cls), n);
	}
	printf("\n  %-16s", "by capability");
	for (unsigned cap = 0; cap < EV_ID_COUNT; cap++) {
		uint64_t n = ev_info_cap_events(li->in, (uint16_t)cap);
		if (n && cap == EV_NO_CAP)
			printf(" global %" PRIu64, n);
		else if (n)
			printf(" %u: %" PRIu64, cap, n);
	}
	printf("\n  by type\n");
	for (unsigned id = 0; id < EV_ID_COUNT; id++) {
		uint64_t n = ev_info_type_events(li->in, (uint16_t)id);
		if (n)
			printf("    %-32s %5u %12" PRIu64 "\n",
			       ev_info_type_name(li->in, (uint16_t)id), id, n);
	}
}

/* The sessions of a stream that holds several, one line each. */
static void print_sessions(const log_info *li)
{
	char label[32];

	for (unsigned i = 0; i < li->sum->n_listed_sessions; i++) {
		const ev_info_session *s = &li->sum->session_list[i];
		snprintf(label, sizeof label, "session %u", i + 1);
		printf("  %-16s bytes %" PRIu64 " to %" PRIu64 ", %" PRIu64
		       " events, %s\n", label, s->start, s->end, s->events,
		       status_name(s->status));
	}
	if (li->sum->sessions > li->sum->n_listed_sessions)
		printf("  %-16s %u more sessions\n", "...",
		       li->sum->sessions - li->sum->n_listed_sessions);
}

/* The file's size as stored; then, when it differs (gzip, or a log that
 * does not end with its data end), the bytes of log that were read. */
static void print_size(const log_info *li)
{
	printf("  %-16s %" PRIu64 " bytes", "size", li->sum->stored_bytes);
	if (li->sum->gzip || li->sum->log_bytes != li->sum->stored_bytes) {
		printf(" stored%s, %" PRIu64 " bytes of log", li->sum->gzip
		       ? " (gzip)" : "", li->sum->log_bytes);
		if (li->sum->status == EV_ETRUNCATED)
			printf(" to the last complete event");
		else if (li->sum->status != EV_END)
			printf(" before the problem");
	}
	putchar('\n');
}

static void print_text(const log_info *li, int separate)
{

	if (separate)
		putchar('\n');
	printf("%s\n  %-16s %s", li->path, "status", status_name(li->sum->status));
	if (li->sum->status != EV_END)
		printf(" at offset %" PRIu64 ": %s", li->sum->diag.offset,
		       li->sum->diag.message);
	putchar('\n');
	print_identity(li);
	print_caps(li);
	if (li->sum->have_time)
		printf("  %-16s first %" PRIu64 " ns, last %" PRIu64
		       " ns, duration %.6f s\n", "time", li->sum->first_time,
		       li->sum->last_time,
		       (double)(li->sum->last_time - li->sum->first_time) / 1e9);
	printf("  %-16s %" PRIu64 " in %" PRIu64 " block%s, %u session%s\n",
	       "events", li->sum->events, li->sum->blocks, li->sum->blocks == 1 ? "" : "s",
	       li->sum->sessions, li->sum->sessions == 1 ? "" : "s");
	if (li->sum->sessions > 1)
		print_sessions(li);
	printf("  %-16s %" PRIu64 " (%" PRIu64 " of them GC_END)\n",
	       "time inversions", li->sum->inversions,
	       li->sum->gc_end_inversions);
	print_size(li);
	printf("  %-16s %016" PRIx64 "\n", "xxh3-64", li->sum->digest);
	print_counts(li);
}

/* ---- JSON ---- */

static void json_args(json_out *j, const ev_process *p)
{
	size_t start = 0, len = p ? p->args_len : 0;

	json_begin_array(j, "args");
	for (size_t i = 0; p && p->args && i <= len; i++)
		if (i == len || p->args[i] == '\0') {
			if (i > start || i < len)
				json_string(j, NULL, p->args + start,
					    i - start);
			start = i + 1;
		}
	json_end_array(j);
}

/* The fields of one process; `wall_key` names the wall-clock fields. */
static void json_process_fields(json_out *j, const ev_process *p,
				const char *wall_key, uint64_t wall_ns)
{
	char wall[64], key[64];

	if (p && p->rts)
		json_string(j, "rts", p->rts, p->rts_len);
	else
		json_null(j, "rts");
	json_args(j, p);
	p && p->have_pid ? json_uint(j, "pid", p->pid) : json_null(j, "pid");
	p && p->have_ppid ? json_uint(j, "ppid", p->ppid)
			  : json_null(j, "ppid");
	snprintf(key, sizeof key, "%s_ns", wall_key);
	if (p && p->have_wall) {
		format_wall(wall_ns, wall, sizeof wall);
		json_cstring(j, wall_key, wall);
		json_big_uint(j, key, wall_ns);
	} else {
		json_null(j, wall_key);
		json_null(j, key);
		snprintf(key, sizeof key, "%s_ns_str", wall_key);
		json_null(j, key);
	}
}

/* The top-level identity fields are the first process's (the only one of
 * most logs); "processes" lists them all. */
static void json_identity(json_out *j, const log_info *li)
{
	const ev_process *p = ev_process_list_at(li->procs, 0);

	json_process_fields(j, p, "wall_clock_start", p ? p->wall_epoch_ns : 0);
}

static void json_processes(json_out *j, const log_info *li)
{
	json_begin_array(j, "processes");
	for (size_t i = 0; i < ev_process_list_count(li->procs); i++) {
		const ev_process *p = ev_process_list_at(li->procs, i);
		json_begin_object(j, NULL);
		json_uint(j, "capset", p->capset);
		json_uint(j, "session", p->session + 1);
		json_process_fields(j, p, "wall_clock_start",
				    p->wall_epoch_ns + p->start_ns);
		p->have_start ? json_uint(j, "start_time_ns", p->start_ns)
			      : json_null(j, "start_time_ns");
		json_uint16_array(j, "capabilities", p->caps, p->n_caps);
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_caps(json_out *j, const log_info *li)
{
	json_begin_array(j, "capabilities");
	for (unsigned cap = 0; cap < EV_NO_CAP; cap++)
		if (ev_info_cap_seen(li->in, (uint16_t)cap))
			json_uint(j, NULL, cap);
	json_end_array(j);
	json_begin_array(j, "capsets");
	for (unsigned i = 0; i < li->sum->n_capsets; i++) {
		json_begin_object(j, NULL);
		json_uint(j, "id", li->sum->capsets[i].id);
		json_cstring(j, "type", capset_type_name(li->sum->capsets[i].type));
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_counts(json_out *j, const log_info *li)
{
	char key[16];

	json_uint(j, "time_inversions", li->sum->inversions);
	json_uint(j, "gc_end_inversions", li->sum->gc_end_inversions);
	json_begin_object(j, "events_by_class");
	for (unsigned bit = 0; bit < EV_CLASS_COUNT; bit++) {
		ev_class cls = (ev_class)(1u << bit);
		uint64_t n = ev_info_class_events(li->in, cls);
		if (n)
			json_uint(j, ev_class_name(cls), n);
	}
	json_end_object(j);
	json_begin_object(j, "events_by_cap");
	for (unsigned cap = 0; cap < EV_ID_COUNT; cap++) {
		uint64_t n = ev_info_cap_events(li->in, (uint16_t)cap);
		if (n) {
			snprintf(key, sizeof key, "%u", cap);
			json_uint(j, cap == EV_NO_CAP ? "global" : key, n);
		}
	}
	json_end_object(j);
	json_begin_array(j, "events_by_type");
	for (unsigned id = 0; id < EV_ID_COUNT; id++) {
		uint64_t n = ev_info_type_events(li->in, (uint16_t)id);
		if (n) {
			json_begin_object(j, NULL);
			json_uint(j, "id", id);
			json_cstring(j, "name",
				     ev_info_type_name(li->in, (uint16_t)id));
			json_uint(j, "count", n);
			json_end_object(j);
		}
	}
	json_end_array(j);
}

static void json_file(json_out *j, const log_info *li)
{
	char digest[17];

	json_begin_object(j, NULL);
	json_cstring(j, "file", li->path);
	json_cstring(j, "status", status_name(li->sum->status));
	if (li->sum->status != EV_END) {
		json_uint(j, "problem_offset", li->sum->diag.offset);
		json_cstring(j, "problem", li->sum->diag.message);
	}
	json_identity(j, li);
	json_processes(j, li);
	json_caps(j, li);
	li->sum->have_time ? json_uint(j, "first_time_ns", li->sum->first_time)
		      : json_null(j, "first_time_ns");
	li->sum->have_time ? json_uint(j, "last_time_ns", li->sum->last_time)
		      : json_null(j, "last_time_ns");
	li->sum->have_time ? json_uint(j, "duration_ns",
				  li->sum->last_time - li->sum->first_time)
		      : json_null(j, "duration_ns");
	json_uint(j, "events", li->sum->events);
	json_uint(j, "blocks", li->sum->blocks);
	json_uint(j, "sessions", li->sum->sessions);
	json_begin_array(j, "session_list");
	for (unsigned i = 0; i < li->sum->n_listed_sessions; i++) {
		const ev_info_session *s = &li->sum->session_list[i];
		json_begin_object(j, NULL);
		json_uint(j, "session", i + 1);
		json_uint(j, "offset", s->start);
		json_uint(j, "end", s->end);
		json_uint(j, "events", s->events);
		json_cstring(j, "status", status_name(s->status));
		json_end_object(j);
	}
	json_end_array(j);
	json_uint(j, "log_bytes", li->sum->log_bytes);
	json_bool(j, "gzip", li->sum->gzip);
	json_uint(j, "stored_bytes", li->sum->stored_bytes);
	snprintf(digest, sizeof digest, "%016" PRIx64, li->sum->digest);
	json_cstring(j, "xxh3_64", digest);
	json_counts(j, li);
	json_end_object(j);
}

/* ---- the command ---- */

int cmd_info(const cli_args *args)
{
	int as_json = cli_flag(args, INFO_OPT_JSON), worst;
	unsigned threads;
	log_info li;
	json_out j;

	if ((worst = cli_threads(args, INFO_OPT_THREADS, &threads)) != EXIT_OK)
		return worst;
	json_init(&j, stdout);
	if (as_json) {
		json_begin_object(&j, NULL);
		json_uint(&j, "schema_version", INFO_SCHEMA_VERSION);
		json_begin_array(&j, "files");
	}
	for (int i = 0; i < args->n_positional; i++) {
		ev_info *in;
		int rc;
		memset(&li, 0, sizeof li);
		rc = collect(&li, args->positional[i], threads, &in);
		if (rc == EXIT_OK && li.sum->status != EV_END &&
		    li.sum->status != EV_ETRUNCATED)
			rc = cli_error(EXIT_INVALID, "%s: offset %" PRIu64 ": %s",
				       li.path, li.sum->diag.offset,
				       li.sum->diag.message);
		if (rc > worst)
			worst = rc;
		if (li.path && as_json)
			json_file(&j, &li);
		else if (li.path)
			print_text(&li, i > 0);
		ev_info_free(in);
	}
	if (as_json) {
		json_end_array(&j);
		json_end_object(&j);
	}
	return worst;
}
