/*
 * evtool archive: compress logs into gzip archives that carry the log's
 * xxh3-64 digest (include/evtool/archive.h), check them (--test) and
 * restore them (--extract).
 *
 * Archiving reads each input twice: once to validate it and hash it (the
 * digest goes in the gzip header, before the data), once to compress it
 * (ev_archive_scan_fd, ev_archive_compress_fd); --test is
 * ev_archive_test_fd. A pipe or standard input is first copied to an
 * unlinked temporary file so that it can be read twice. This file opens
 * the inputs and outputs and says what the library found.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "progress.h"

/* The options of evtool archive, indexes in archive_options. */
enum archive_option {
	ARCHIVE_OPT_OUTPUT,
	ARCHIVE_OPT_STDOUT,
	ARCHIVE_OPT_LEVEL,
	ARCHIVE_OPT_THREADS,
	ARCHIVE_OPT_RM,
	ARCHIVE_OPT_KEEP,
	ARCHIVE_OPT_FORCE,
	ARCHIVE_OPT_TEST,
	ARCHIVE_OPT_EXTRACT,
	ARCHIVE_OPT_DECOMPRESS,
	ARCHIVE_OPT_VERBOSE,
	ARCHIVE_OPT_NO_PROGRESS,
	ARCHIVE_N_OPTIONS
};
CLI_CHECK_OPTIONS(ARCHIVE_N_OPTIONS);

const cli_option archive_options[ARCHIVE_N_OPTIONS + 1] = {
	[ARCHIVE_OPT_OUTPUT] =
	{ "output", 'o', "OUT",
	  "write to OUT ('-' for standard output); one input only" },
	[ARCHIVE_OPT_STDOUT] =
	{ "stdout", 'c', NULL, "write to standard output (-o -), as gzip -c" },
	[ARCHIVE_OPT_LEVEL] =
	{ "level", '#', "N", "compression level, 1 (fastest) to 9 (smallest), "
	  "also as -1 to -9; default 6" },
	[ARCHIVE_OPT_THREADS] =
	{ "threads", 'T', "N", "compression threads (default, or 0 as in zstd "
	  "-T0: online CPUs, at most 8)" },
	[ARCHIVE_OPT_RM] =
	{ "rm", 0, NULL,
	  "remove each input once its archive is written and verified" },
	[ARCHIVE_OPT_KEEP] =
	{ "keep", 'k', NULL, "keep the inputs (the default; as gzip -k)" },
	[ARCHIVE_OPT_FORCE] =
	{ "force", 'f', NULL,
	  "archive an invalid or truncated log; replace existing outputs" },
	[ARCHIVE_OPT_TEST] =
	{ "test", 't', NULL,
	  "check archives: CRC-32, length, digest, and a valid eventlog" },
	[ARCHIVE_OPT_EXTRACT] =
	{ "extract", 'x', NULL,
	  "restore the log of each archive, checking it" },
	[ARCHIVE_OPT_DECOMPRESS] =
	{ "decompress", 'd', NULL, "the same as --extract, as gzip -d" },
	[ARCHIVE_OPT_VERBOSE] =
	{ "verbose", 'v', NULL, "report sizes and digests on standard error" },
	[ARCHIVE_OPT_NO_PROGRESS] =
	{ "no-progress", 0, NULL, "no progress bar on standard error" },
};

#define COPY_BUFFER (1u << 20)

typedef struct archive_job {
	const cli_command *cmd;
	const char *output; /* -o, or NULL */
	int force;
	int rm;
	int verbose;
	ev_archive_options options;
	int no_progress;
} archive_job;

/* One input, regular or a temporary copy of a pipe. */
typedef struct input {
	const char *path;
	const char *name; /* for messages */
	int fd;
	int owns_fd;
	struct stat st;   /* of the file as opened, for --rm */
} input;

/* ---- exit codes and messages ---- */

/* With several files every one is handled; the worst outcome decides. */
static int worse(int a, int b)
{
	static const int rank[] = { [EXIT_OK] = 0, [EXIT_DROPPED] = 1,
				    [EXIT_INVALID] = 2, [EXIT_USAGE] = 3,
				    [EXIT_SYSTEM] = 4 };
	return rank[b] > rank[a] ? b : a;
}

/* A problem with the gzip data of `name`, at a stored (compressed)
 * offset: reading an archive has no other origin. */
static int archive_error(const char *name, const ev_diag *d)
{
	cli_failure_files files = { &name, 1, NULL,
				    CLI_FAILURE_OFFSET_ALWAYS |
				    CLI_FAILURE_STORED, NULL, NULL };
	ev_diag read = *d;

	read.origin = EV_ORIGIN_INPUT;
	return cli_failure(&read, &files);
}

static void close_input(input *in)
{
	if (in->owns_fd && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
}

/* ---- inputs ---- */

/* Stands a copy of a pipe or standard input in for it (pipeline.h,
 * ev_input_reusable); a regular file is kept. */
static int spool(input *in)
{
	ev_diag d;
	int fd;

	if (ev_input_reusable(in->fd, NULL, &fd, &d) < 0) {
		d.origin = EV_ORIGIN_INPUT;
		d.offset = 0; /* copying it, not reading the log */
		return cli_origin_error(&d, in->name, NULL);
	}
	if (fd != in->fd) {
		close_input(in);
		in->fd = fd;
		in->owns_fd = 1;
	}
	return EXIT_OK;
}

/* Opens `path`. A pipe or standard input is spooled; with `regular_only`
 * (--rm) anything but a regular file is refused. */
static int open_input(input *in, const char *path, int regular_only)
{
	int is_stdin = strcmp(path, "-") == 0, rc;

	in->path = path;
	in->name = cli_input_name(path);
	in->fd = -1;
	if ((rc = cli_refuse_empty(path)) != EXIT_OK)
		return rc;
	/* Before open(2), which waits for a FIFO's writer. */
	if (regular_only && stat(path, &in->st) == 0 &&
	    !S_ISREG(in->st.st_mode))
		return cli_error(EXIT_USAGE, "%s: --rm removes only regular "
				 "files", in->name);
	in->owns_fd = !is_stdin;
	in->fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0)
		return cli_error(EXIT_SYSTEM, "%s: cannot open: %s", in->name,
				 strerror(errno));
	if (fstat(in->fd, &in->st) != 0) {
		int saved = errno;
		close_input(in);
		return cli_error(EXIT_SYSTEM, "%s: %s", in->name,
				 strerror(saved));
	}
	return spool(in);
}

static int is_gzip(int fd)
{
	uint8_t magic[2];

	return pread(fd, magic, 2, 0) == 2 && ev_is_gzip(magic, 2);
}

/* ---- validating ---- */

/* The log's verdict (ev_archive_check_log) as a message. */
static int log_error(int code, const char *name, const ev_diag *v)
{
	return cli_error(code, "%s: offset %" PRIu64 ": %s", name, v->offset,
			 v->message);
}

static int refuse_input(const char *name, const ev_diag *v)
{
	if (v->status != EV_ETRUNCATED && v->status != EV_EFORMAT)
		return log_error(cli_exit_for_status(v->status), name, v);
	log_error(EXIT_INVALID, name, v);
	/* Truncated at offset 0: cut inside its header, which truncate
	 * refuses (there is no event to keep). */
	if (v->status == EV_ETRUNCATED && v->offset > 0)
		fputs("hint: 'evtool truncate' repairs a log whose program was "
		      "killed\n", stderr);
	/* At offset 0 it is no eventlog at all (another format, another
	 * compression): nothing --force would be right for. */
	if (v->offset > 0)
		fputs("hint: 'evtool archive --force' archives it as it is\n",
		      stderr);
	return EXIT_INVALID;
}

/* A failure to read the log to its end, as cli_reader_error says it. */
static int read_error(const char *name, const ev_diag *d)
{
	cli_failure_files files = { &name, 1, NULL,
				    CLI_FAILURE_OFFSET_ALWAYS |
				    CLI_FAILURE_TRUNCATED_INVALID, NULL, NULL };

	return cli_failure(d, &files);
}

/* Validates the input and hashes it in the same pass. */
static int validate_input(const archive_job *job, const input *in,
			  uint64_t *digest, uint64_t *bytes)
{
	ev_archive_scan scan;
	cli_progress bar;

	progress_start(&bar, "archive: validating", job->no_progress);
	ev_archive_scan_fd(in->fd, in->name, job->force, progress_update, &bar,
			   &scan);
	progress_end(&bar);
	if (scan.verdict.reason == EV_REASON_EMPTY_INPUT) {
		/* no log, even with --force */
		cli_failure_files files = { &in->name, 1, NULL, 0, NULL, NULL };
		return cli_failure(&scan.verdict, &files);
	}
	switch (scan.verdict.status) {
	case EV_OK: /* the log could not be opened */
		return cli_status_failure(scan.read.status, in->name);
	case EV_END:
		break;
	case EV_ETRUNCATED:
	case EV_EFORMAT:
		if (job->force) {
			cli_warn_at(in->name, (int64_t)scan.verdict.offset,
				    "%s; archiving it anyway (--force)",
				    scan.verdict.message);
			break;
		}
		/* fall through */
	default:
		return refuse_input(in->name, &scan.verdict);
	}
	if (scan.read.status < 0)
		return read_error(in->name, &scan.read);
	*digest = scan.digest;
	*bytes = scan.log_bytes;
	return EXIT_OK;
}

/* ---- archiving ---- */

static int compress_input(const archive_job *job, const input *in,
			  uint64_t digest, ev_sink *sink, const char *out)
{
	cli_failure_files files = { &in->name, 1, out, 0, NULL, NULL };
	cli_progress bar;
	ev_diag d;
	int rc;

	progress_start(&bar, "archive: compressing", job->no_progress);
	rc = ev_archive_compress_fd(in->fd, sink, digest, &job->options,
				    progress_update, &bar, &d);
	progress_end(&bar);
	return rc < 0 ? cli_failure(&d, &files) : EXIT_OK;
}

/* The rename that committed the archive is durable only once its folder
 * is synced; the input is removed only after that. */
static int sync_folder(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	int fd, rc;

	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else
		snprintf(dir, sizeof dir, "%.*s",
			 slash == path ? 1 : (int)(slash - path), path);
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/* Reads the committed archive back: it must hold exactly the log. */
static int verify_archive(const char *out, uint64_t digest, uint64_t bytes)
{
	ev_archive_stats stats;
	ev_diag d;
	int fd = open(out, O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return cli_error(EXIT_SYSTEM, "%s: cannot read it back: %s",
				 out, strerror(errno));
	rc = ev_archive_check_fd(fd, out, &stats, &d);
	close(fd);
	if (rc < 0)
		return archive_error(out, &d);
	if (stats.digests != 1 || stats.content_digest != digest ||
	    stats.log_bytes != bytes)
		return cli_error(EXIT_SYSTEM, "%s: reading it back gave %"
				 PRIu64 " bytes with xxh3-64 %016" PRIx64
				 ", not the log's", out, stats.log_bytes,
				 stats.content_digest);
	return EXIT_OK;
}

static int same_state(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* --rm: only once the archive is committed, durable and read back, and
 * only if the input is still the file that was archived. */
static int remove_input(const input *in, const char *out, uint64_t digest,
			uint64_t bytes)
{
	struct stat now;
	int rc;

	if (sync_folder(out) != 0)
		return cli_error(EXIT_SYSTEM, "%s: cannot sync its folder: %s; "
				 "%s is kept", out, strerror(errno), in->path);
	if ((rc = verify_archive(out, digest, bytes)) != EXIT_OK) {
		cli_message_start();
		fprintf(stderr, "%s is kept\n", in->path);
		return rc;
	}
	if (stat(in->path, &now) != 0 || !same_state(&now, &in->st))
		return cli_error(EXIT_SYSTEM, "%s: changed while it was being "
				 "archived; it is kept", in->path);
	if (unlink(in->path) != 0)
		return cli_error(EXIT_SYSTEM, "%s: cannot remove: %s",
				 in->path, strerror(errno));
	return EXIT_OK;
}

static void report(const char *from, const char *to, uint64_t log_bytes,
		   uint64_t stored_bytes, uint64_t digest)
{
	fprintf(stderr, "%s -> %s: log %" PRIu64 " bytes, archive %" PRIu64
		" bytes (%.1f%%), xxh3-64 %016" PRIx64 "\n", from, to,
		log_bytes, stored_bytes,
		log_bytes ? 100.0 * (double)stored_bytes / (double)log_bytes
			  : 0.0, digest);
}

/* An existing output is replaced only with --force. A terminal is
 * refused before the input is read. */
static int check_target(const archive_job *job, const char *out)
{
	struct stat st;

	if (strcmp(out, "-") == 0)
		return cli_refuse_terminal();
	if (!job->force && lstat(out, &st) == 0)
		return cli_error(EXIT_USAGE, "%s: already exists; --force "
				 "replaces it", out);
	return EXIT_OK;
}

static int write_archive(const archive_job *job, const input *in,
			 const char *out, uint64_t digest, uint64_t bytes)
{
	ev_sink *sink;
	int rc = cli_open_output(out, &in->path, 1, 0, &sink);

	if (rc == EXIT_OK)
		rc = compress_input(job, in, digest, sink, out);
	if (rc == EXIT_OK)
		rc = cli_commit_output(sink, out);
	if (rc == EXIT_OK && job->verbose)
		report(in->name, cli_output_name(out), bytes,
		       ev_sink_bytes(sink), digest);
	cli_close_output(sink);
	if (rc == EXIT_OK && job->rm)
		rc = remove_input(in, out, digest, bytes);
	return rc;
}

static int archive_one(const archive_job *job, const char *path)
{
	char *out = NULL;
	input in = { 0 };
	uint64_t digest = 0, bytes = 0;
	int rc;

	if (job->output)
		out = strdup(job->output);
	else if (strcmp(path, "-") == 0) /* as gzip: to standard output */
		out = strdup("-");
	else if ((out = malloc(strlen(path) + 4)))
		sprintf(out, "%s.gz", path);
	if (!out)
		return cli_error(EXIT_SYSTEM, "out of memory");
	if ((rc = check_target(job, out)) == EXIT_OK &&
	    (rc = open_input(&in, path, job->rm)) == EXIT_OK) {
		if (is_gzip(in.fd))
			rc = cli_error(EXIT_USAGE, "%s: is gzip-compressed "
				       "already ('evtool archive --test' "
				       "checks an archive)", in.name);

		if (rc == EXIT_OK)
			rc = validate_input(job, &in, &digest, &bytes);
		if (rc == EXIT_OK)
			rc = write_archive(job, &in, out, digest, bytes);
		close_input(&in);
	}
	free(out);
	return rc;
}

/* ---- --test ---- */

static int report_content(const input *in, const ev_diag *v)
{
	int rc = v->status;

	if (rc == EV_END)
		return EXIT_OK;
	if (rc != EV_ETRUNCATED && rc != EV_EFORMAT)
		return log_error(cli_exit_for_status(rc), in->name, v);
	log_error(cli_exit_for_status(rc), in->name, v);
	fputs("hint: the archive itself is intact: the log was archived like "
	      "this (with --force?)\n", stderr);
	return cli_exit_for_status(rc);
}

static void warn_digests(const char *name, const ev_archive_stats *s)
{
	if (s->digests == 0)
		cli_warn_at(name, -1, "no xxh3-64 digest in the gzip header (a "
			    "plain gzip file); checked the CRC-32, the length "
			    "and the log");
	else if (s->digested < s->members)
		cli_warn_at(name, -1, "%u of %u gzip members have no digest; "
			    "checked their CRC-32 and length",
			    s->members - s->digested, s->members);
}

/* The gzip checks speak first, and the log's verdict only for an intact
 * archive. */
static int test_one(const char *path)
{
	input in = { 0 };
	ev_archive_test t;
	int rc = open_input(&in, path, 0);

	if (rc != EXIT_OK)
		return rc;
	ev_archive_test_fd(in.fd, in.name, &t);
	if (t.archive.status < 0)
		rc = archive_error(in.name, &t.archive);
	else
		warn_digests(in.name, &t.stats);
	if (rc == EXIT_OK)
		rc = report_content(&in, &t.log);
	if (rc == EXIT_OK)
		printf("%s: ok, %" PRIu64 " bytes of log, xxh3-64 %016" PRIx64
		       "\n", in.name, t.stats.log_bytes,
		       t.stats.content_digest);
	close_input(&in);
	return rc;
}

/* ---- --extract ---- */

static int extract_name(const archive_job *job, const char *path,
			char **out)
{
	size_t n = strlen(path);

	if (job->output)
		*out = strdup(job->output);
	else if (strcmp(path, "-") == 0) /* as gzip -d: to standard output */
		*out = strdup("-");
	else if (n <= 3 || strcmp(path + n - 3, ".gz") != 0)
		return cli_usage_error(job->cmd, "%s: does not end in .gz: "
				       "name the output with -o OUT", path);
	else if ((*out = strdup(path)))
		(*out)[n - 3] = '\0';
	return *out ? EXIT_OK : cli_error(EXIT_SYSTEM, "out of memory");
}

static int inflate_to(ev_archive_reader *r, ev_sink *sink, const char *name,
		      const char *out)
{
	uint8_t *buf = malloc(COPY_BUFFER);
	size_t got;
	int rc;

	if (!buf)
		return cli_error(EXIT_SYSTEM, "out of memory");
	while ((rc = ev_archive_reader_read(r, buf, COPY_BUFFER, &got)) ==
	       EV_OK)
		if (ev_sink_write(sink, buf, got) < 0) {
			free(buf);
			return cli_error(EXIT_SYSTEM, "%s: %s",
					 cli_output_name(out),
					 ev_sink_diag(sink)->message);
		}
	free(buf);
	return rc == EV_END ? EXIT_OK
			    : archive_error(name, ev_archive_reader_diag(r));
}

static int extract_one(const archive_job *job, const char *path)
{
	ev_archive_reader *r = NULL;
	ev_sink *sink = NULL;
	char *out = NULL;
	int rc = extract_name(job, path, &out);

	if (rc == EXIT_OK && (rc = check_target(job, out)) == EXIT_OK &&
	    ev_archive_reader_open_path(&r, path) < 0)
		rc = cli_error(EXIT_SYSTEM, "%s: cannot open: %s",
			       cli_input_name(path), strerror(errno));
	if (rc == EXIT_OK)
		rc = cli_open_output(out, &path, 1, 0, &sink);
	if (rc == EXIT_OK)
		rc = inflate_to(r, sink, cli_input_name(path), out);
	if (rc == EXIT_OK)
		warn_digests(cli_input_name(path), ev_archive_reader_stats(r));
	if (rc == EXIT_OK)
		rc = cli_commit_output(sink, out);
	if (rc == EXIT_OK && job->verbose)
		report(cli_input_name(path), cli_output_name(out),
		       ev_archive_reader_stats(r)->log_bytes,
		       ev_archive_reader_stats(r)->stored_bytes,
		       ev_archive_reader_stats(r)->content_digest);
	cli_close_output(sink);
	ev_archive_reader_free(r);
	free(out);
	return rc;
}

/* ---- options ---- */

/* Options that make sense only when archiving. */
static int check_mode(const archive_job *job, const cli_args *args,
		      int test, int extract)
{
	static const enum archive_option archiving[] = {
		ARCHIVE_OPT_LEVEL, ARCHIVE_OPT_THREADS, ARCHIVE_OPT_RM
	};
	const cli_command *cmd = job->cmd;

	if (test && extract)
		return cli_usage_error(cmd, "--test and --extract exclude each "
				       "other");
	for (size_t i = 0; (test || extract) && i < 3; i++)
		if (cli_flag(args, archiving[i]))
			return cli_usage_error(cmd, "--%s applies only when "
					       "archiving", cli_option_name(
						       args, archiving[i]));
	if (test && (job->output || job->force))
		return cli_usage_error(cmd, "--test takes neither -o nor "
				       "--force");
	if (job->output && args->n_positional > 1)
		return cli_usage_error(cmd, "-o and -c take a single input");
	/* A NAME.gz holds gzip data, for every command (cli_open_log_output). */
	if (extract && job->output && strlen(job->output) > 3 &&
	    strcmp(job->output + strlen(job->output) - 3, ".gz") == 0)
		return cli_usage_error(cmd, "-o %s: --extract writes the plain "
				       "log, not gzip: name it without .gz",
				       job->output);
	if (job->rm && job->output && strcmp(job->output, "-") == 0)
		return cli_usage_error(cmd, "--rm needs an archive file to "
				       "verify, not standard output");
	for (int i = 0; job->rm && i < args->n_positional; i++)
		if (strcmp(args->positional[i], "-") == 0)
			return cli_usage_error(cmd, "--rm cannot remove "
					       "standard input");
	return EXIT_OK;
}

static int setup_job(archive_job *job, const cli_args *args, int *test,
		     int *extract)
{
	const cli_command *cmd = job->cmd;
	uint64_t level = EV_ARCHIVE_DEFAULT_LEVEL;
	uint64_t threads = ev_archive_default_threads();
	int rc;

	job->output = cli_value(args, ARCHIVE_OPT_OUTPUT);
	job->force = cli_flag(args, ARCHIVE_OPT_FORCE);
	job->rm = cli_flag(args, ARCHIVE_OPT_RM);
	job->verbose = cli_flag(args, ARCHIVE_OPT_VERBOSE);
	job->no_progress = cli_flag(args, ARCHIVE_OPT_NO_PROGRESS);
	*test = cli_flag(args, ARCHIVE_OPT_TEST);
	*extract = cli_flag(args, ARCHIVE_OPT_EXTRACT) ||
		   cli_flag(args, ARCHIVE_OPT_DECOMPRESS);
	if (job->rm && cli_flag(args, ARCHIVE_OPT_KEEP))
		return cli_usage_error(cmd, "--rm and --keep exclude each "
				       "other");
	if (cli_flag(args, ARCHIVE_OPT_STDOUT)) {
		if (job->output && strcmp(job->output, "-") != 0)
			return cli_usage_error(cmd, "-c writes to standard "
					       "output: leave out -o");
		job->output = "-";
	}
	if ((rc = check_mode(job, args, *test, *extract)) != EXIT_OK ||
	    (rc = cli_count(args, ARCHIVE_OPT_LEVEL, 1, 9, &level)) != EXIT_OK ||
	    (rc = cli_count(args, ARCHIVE_OPT_THREADS, 0, EV_ARCHIVE_MAX_THREADS,
			    &threads)) != EXIT_OK)
		return rc;
	job->options.level = (int)level;
	job->options.threads = threads ? (unsigned)threads
				       : ev_archive_default_threads();
	return EXIT_OK;
}

int cmd_archive(const cli_args *args)
{
	const cli_command *cmd = args->cmd;
	archive_job job = { cmd, NULL, 0, 0, 0, EV_ARCHIVE_OPTIONS_INIT, 0 };
	int test, extract, rc = setup_job(&job, args, &test, &extract);

	if (rc != EXIT_OK)
		return rc;
	for (int i = 0; i < args->n_positional; i++) {
		const char *path = args->positional[i];
		int one = test	  ? test_one(path)
			  : extract ? extract_one(&job, path)
				    : archive_one(&job, path);
		rc = worse(rc, one);
	}
	return rc;
}
