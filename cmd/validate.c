/*
 * evtool validate: a CI gate that passes every log GHC writes and catches
 * broken ones. The checks are the library's (ev_validate); this file
 * prints findings, verdicts and the exit code.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "progress.h"
#include "json.h"

/* The options of evtool validate, indexes in validate_options. */
enum validate_option {
	VALIDATE_OPT_STRICT,
	VALIDATE_OPT_SORTED,
	VALIDATE_OPT_TOLERANCE,
	VALIDATE_OPT_GC_END_TOLERANCE,
	VALIDATE_OPT_NO_SEMANTICS,
	VALIDATE_OPT_MAX_ERRORS,
	VALIDATE_OPT_QUIET,
	VALIDATE_OPT_JSON,
	VALIDATE_OPT_LIST_CHECKS,
	VALIDATE_OPT_NO_PROGRESS,
	VALIDATE_OPT_THREADS,
	VALIDATE_N_OPTIONS
};
CLI_CHECK_OPTIONS(VALIDATE_N_OPTIONS);

const cli_option validate_options[VALIDATE_N_OPTIONS + 1] = {
	[VALIDATE_OPT_STRICT] =
	{ "strict", 0, NULL, "warnings fail too" },
	[VALIDATE_OPT_SORTED] =
	{ "sorted", 0, NULL,
	  "also require one global time order (what 'evtool sort' writes)" },
	[VALIDATE_OPT_TOLERANCE] =
	{ "tolerance", 0, "TIME",
	  "accept time going back by up to TIME (ns, or with a unit: 5us; "
	  "default 0)" },
	[VALIDATE_OPT_GC_END_TOLERANCE] =
	{ "gc-end-tolerance", 0, "TIME",
	  "how far GC_END and GC_START may step back (default 1ms)" },
	[VALIDATE_OPT_NO_SEMANTICS] =
	{ "no-semantics", 0, NULL,
	  "skip the thread, GC, task and heap-sample checks" },
	[VALIDATE_OPT_MAX_ERRORS] =
	{ "max-errors", 0, "N", "stop checking a file after N errors" },
	[VALIDATE_OPT_QUIET] =
	{ "quiet", 'q', NULL, "print nothing; the exit code tells" },
	[VALIDATE_OPT_JSON] =
	{ "json", 0, NULL, "print one JSON document (schema_version 2)" },
	[VALIDATE_OPT_LIST_CHECKS] =
	{ "list-checks", 0, NULL, "list the check ids and what they mean" },
	[VALIDATE_OPT_NO_PROGRESS] =
	{ "no-progress", 0, NULL, "no progress bar on standard error" },
	[VALIDATE_OPT_THREADS] =
	{ "threads", 'T', "N", "check with N threads (default, or 0: the "
	  "cores available; 1: one pass)" },
};

/* 2: "events" without block markers, "session" 1-based */
#define VALIDATE_SCHEMA_VERSION 2

typedef struct validate_job {
	ev_validate_options options;
	int strict;
	int quiet;
	int as_json;
	uint64_t max_errors; /* 0: no limit */
	json_out json;
	/* per file */
	const char *path;
	uint64_t failing;    /* findings that fail the file */
	int no_progress;
} validate_job;

/* ---- findings ---- */

static const char *type_name(uint16_t type)
{
	const ev_type_info *info = ev_catalog_find(type);
	return info ? info->name : "UNKNOWN";
}

static void print_event(const ev_finding *f)
{
	if (!f->has_event)
		return;
	/* Sessions are numbered from 1 on the command line, as info lists
	 * them and truncate --session takes them (the library's are 0-based);
	 * only the sessions after the first are named. */
	if (f->session > 0)
		fprintf(stderr, "session %u, ", f->session + 1);
	fprintf(stderr, "event %" PRIu64 " %s", f->event_index,
		type_name(f->event_type));
	if (f->cap != EV_NO_CAP)
		fprintf(stderr, " on cap %u", f->cap);
	fprintf(stderr, " at %" PRIu64 " ns: ", f->time);
}

static void print_finding(const validate_job *job, const ev_finding *f)
{
	cli_message_start();
	fprintf(stderr, "%s: offset %" PRIu64 ": %s: ", job->path,
		f->offset, ev_severity_name(f->severity));
	print_event(f);
	fprintf(stderr, "%s [%s]\n", f->message, f->check);
	/* A truncation at offset 0 ends inside the first header: there is
	 * no event to keep, and truncate refuses such a log. */
	if (strcmp(f->check, "truncated") == 0 && f->offset == 0)
		fputs("hint: the header itself is incomplete, so no event can "
		      "be recovered; 'evtool truncate' cannot repair it\n",
		      stderr);
	else if (strcmp(f->check, "truncated") == 0)
		fputs("hint: 'evtool truncate' repairs a log whose program was "
		      "killed; 'evtool cat --reblock' keeps its complete "
		      "events\n", stderr);
}

static void json_finding(json_out *j, const ev_finding *f)
{
	json_begin_object(j, NULL);
	json_cstring(j, "severity", ev_severity_name(f->severity));
	json_cstring(j, "check", f->check);
	json_uint(j, "offset", f->offset);
	json_uint(j, "session", f->session + 1); /* 1-based, as info's */
	if (f->has_event) {
		json_begin_object(j, "event");
		json_uint(j, "index", f->event_index);
		json_uint(j, "type", f->event_type);
		json_cstring(j, "name", type_name(f->event_type));
		f->cap == EV_NO_CAP ? json_null(j, "cap")
				    : json_uint(j, "cap", f->cap);
		json_uint(j, "time_ns", f->time);
		json_end_object(j);
	} else {
		json_null(j, "event");
	}
	json_cstring(j, "message", f->message);
	json_end_object(j);
}

static int on_finding(const ev_finding *f, void *ctx)
{
	validate_job *job = ctx;
	int counts = f->severity == EV_SEVERITY_ERROR || job->strict;

	if (job->as_json)
		json_finding(&job->json, f);
	else if (!job->quiet)
		print_finding(job, f);
	if (counts && strcmp(f->check, "truncated") != 0)
		job->failing++;
	return job->max_errors && job->failing >= job->max_errors;
}

/* ---- verdicts ---- */

/* The exit code of one file: 0 passes, 3 truncated, 1 fails. */
static int file_exit(const validate_job *job, const ev_validate_result *res)
{
	if (res->verdict == EV_VERDICT_INVALID ||
	    (job->strict && res->warnings > 0))
		return EXIT_INVALID;
	return res->verdict == EV_VERDICT_TRUNCATED ? EXIT_DROPPED : EXIT_OK;
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

static void print_summary(const validate_job *job,
			  const ev_validate_result *res, int code)
{
	uint64_t errors = res->errors -
			  (res->verdict == EV_VERDICT_TRUNCATED ? 1 : 0);

	printf("%s: ", job->path);
	if (code == EXIT_OK)
		printf("valid (");
	else if (code == EXIT_DROPPED)
		printf("truncated at offset %" PRIu64 " (",
		       res->last_complete_offset);
	else if (errors == 0)
		printf("invalid with --strict (");
	else
		printf("invalid (%" PRIu64 " error%s, ", errors,
		       plural(errors));
	printf("%" PRIu64 " warning%s, %" PRIu64 " events)", res->warnings,
	       plural(res->warnings), res->events);
	if (res->stopped)
		printf("; stopped after %" PRIu64 " failing finding%s",
		       job->failing, plural(job->failing));
	putchar('\n');
}

static void json_summary(validate_job *job, const ev_validate_result *res,
			 int code)
{
	json_out *j = &job->json;

	json_end_array(j);
	json_cstring(j, "verdict", ev_verdict_name(res->verdict));
	json_bool(j, "valid", code == EXIT_OK);
	json_uint(j, "errors", res->errors);
	json_uint(j, "warnings", res->warnings);
	json_uint(j, "events", res->events);
	json_uint(j, "blocks", res->blocks);
	json_uint(j, "sessions", res->sessions);
	json_uint(j, "last_complete_offset", res->last_complete_offset);
	json_bool(j, "stopped", res->stopped);
	json_uint(j, "exit_code", (uint64_t)code);
	json_end_object(j);
}

/* ---- one file ---- */

static void json_unreadable(validate_job *job, const char *why)
{
	json_out *j = &job->json;

	json_begin_object(j, NULL);
	json_cstring(j, "file", job->path);
	json_begin_array(j, "findings");
	json_end_array(j);
	json_cstring(j, "verdict", "unreadable");
	json_bool(j, "valid", 0);
	json_cstring(j, "error", why);
	json_uint(j, "exit_code", EXIT_SYSTEM);
	json_end_object(j);
}

/* The input could not be read to the end (I/O error, out of memory). */
static int validate_failed(validate_job *job, const ev_validator *v)
{
	const ev_diag *d = ev_validator_diag(v);
	const char *name = job->path;
	cli_failure_files files = { &name, 1, NULL,
				    CLI_FAILURE_OFFSET_ALWAYS |
				    CLI_FAILURE_TRUNCATED_INVALID, NULL, NULL };
	int code = cli_failure(d, &files);

	if (job->as_json) {
		json_end_array(&job->json);
		json_cstring(&job->json, "verdict", "unreadable");
		json_bool(&job->json, "valid", 0);
		json_cstring(&job->json, "error", d->message);
		json_uint(&job->json, "exit_code", (uint64_t)code);
		json_end_object(&job->json);
	}
	return code;
}

static int validate_file(validate_job *job, ev_validator *v, const char *path)
{
	const ev_validate_result *res = ev_validator_result(v);
	ev_input *in;
	cli_progress bar;
	int code = cli_open_log_input(path, &in), rc;

	job->path = path;
	job->failing = 0;
	if (code != EXIT_OK) {
		if (job->as_json)
			json_unreadable(job, "cannot open");
		return code;
	}
	job->path = ev_input_name(in); /* "<stdin>" for "-" */
	if (job->as_json) {
		json_begin_object(&job->json, NULL);
		json_cstring(&job->json, "file", job->path);
		json_begin_array(&job->json, "findings");
	}
	progress_start(&bar, job->path, job->no_progress);
	ev_validator_set_progress(v, progress_update, &bar);
	rc = ev_validator_run(v, in);
	progress_end(&bar);
	if (rc < 0) {
		code = validate_failed(job, v);
	} else {
		code = file_exit(job, res);
		if (job->as_json)
			json_summary(job, res, code);
		else if (!job->quiet)
			print_summary(job, res, code);
	}
	ev_input_free(in);
	return code;
}

/* ---- options and the command ---- */

static int parse_options(const cli_command *cmd, const cli_args *args,
			 validate_job *job)
{
	uint64_t gc_end = job->options.gc_end_tolerance_ns;
	int rc;

	job->strict = cli_flag(args, VALIDATE_OPT_STRICT);
	job->quiet = cli_flag(args, VALIDATE_OPT_QUIET);
	job->as_json = cli_flag(args, VALIDATE_OPT_JSON);
	job->no_progress = cli_flag(args, VALIDATE_OPT_NO_PROGRESS);
	job->options.sorted = cli_flag(args, VALIDATE_OPT_SORTED);
	job->options.semantics = !cli_flag(args, VALIDATE_OPT_NO_SEMANTICS);
	if (job->quiet && job->as_json)
		return cli_usage_error(cmd, "--quiet and --json exclude each "
				       "other");
	if ((rc = cli_duration(args, VALIDATE_OPT_TOLERANCE,
			       &job->options.tolerance_ns)) != EXIT_OK ||
	    (rc = cli_duration(args, VALIDATE_OPT_GC_END_TOLERANCE, &gc_end)) !=
		    EXIT_OK ||
	    (rc = cli_count(args, VALIDATE_OPT_MAX_ERRORS, 0, UINT64_MAX,
			    &job->max_errors)) != EXIT_OK)
		return rc;
	job->options.gc_end_tolerance_ns = gc_end;
	if (args->n_positional == 0) /* --list-checks needs none */
		return cli_usage_error(cmd, "missing operand, and standard input "
				       "is a terminal (%s)",
				       cmd->synopsis);
	return EXIT_OK;
}

static void list_checks(void)
{
	for (size_t i = 0; i < ev_validate_check_count(); i++) {
		const ev_check_info *c = ev_validate_check_at(i);
		printf("%-16s %s\n", c->id, c->summary);
	}
}

/* Badness of exit codes: 0 < 3 (truncated) < 1 (invalid) < 2 < 4. */
static int worse(int a, int b)
{
	static const int rank[] = { 0, 2, 3, 1, 4 };
	return rank[b] > rank[a] ? b : a;
}

int cmd_validate(const cli_args *args)
{
	const cli_command *cmd = args->cmd;
	validate_job job = { EV_VALIDATE_OPTIONS_INIT, 0, 0, 0, 0,
			     { NULL, 0, { 0 }, 0 }, NULL, 0, 0 };
	ev_validator *v;
	unsigned threads;
	int worst = EXIT_OK, rc;

	if (cli_flag(args, VALIDATE_OPT_LIST_CHECKS)) {
		list_checks();
		return EXIT_OK;
	}
	if ((rc = parse_options(cmd, args, &job)) != EXIT_OK ||
	    (rc = cli_threads(args, VALIDATE_OPT_THREADS, &threads)) != EXIT_OK)
		return rc;
	if (ev_validator_new(&v, &job.options, NULL) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	ev_validator_set_threads(v, threads);
	ev_validator_set_findings(v, on_finding, &job);
	json_init(&job.json, stdout);
	if (job.as_json) {
		json_begin_object(&job.json, NULL);
		json_uint(&job.json, "schema_version", VALIDATE_SCHEMA_VERSION);
		json_bool(&job.json, "strict", job.strict);
		json_begin_array(&job.json, "files");
	}
	for (int i = 0; i < args->n_positional; i++)
		worst = worse(worst, validate_file(&job, v,
						   args->positional[i]));
	if (job.as_json) {
		json_end_array(&job.json);
		json_uint(&job.json, "exit_code", (uint64_t)worst);
		json_end_object(&job.json);
	}
	ev_validator_free(v);
	return worst;
}
