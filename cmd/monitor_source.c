/*
 * The sources evtool monitor follows (monitor.h), all in one thread and
 * never blocking: a FIFO is held open for reading (O_NONBLOCK), so that a
 * program opening it with +RTS -ol never waits, and is reopened for the
 * next writer when one goes; a unix: socket is connected again when its
 * program restarts; a regular file is read as it grows; a directory is
 * scanned for new *.eventlog files and FIFOs. Each session (a header,
 * events, the data end) is one mon_session; damaged bytes are skipped
 * to the next block as `evtool truncate --resync` does.
 */
#define _GNU_SOURCE /* struct ucred, SO_PEERCRED */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli.h"
#include "follow.h"
#include "monitor.h"

/* Events read from one source before the others get their turn. */
#define PUMP_BUDGET 65536
/* Seconds between attempts to connect a socket, and between scans of a
 * directory. */
#define RETRY_S 1.0
#define SCAN_S 1.0
/* A file whose program is gone and that grew for this long ends. */
#define GONE_S 1.0

/* "evtool monitor: SOURCE: message". */
static void report(const mon_source *src, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void report(const mon_source *src, const char *fmt, ...)
{
	va_list ap;

	cli_message_start();
	fprintf(stderr, "%s: ", src->label);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int is_stream(const mon_source *src)
{
	return src->kind == MON_FIFO || src->kind == MON_SOCKET;
}

/* ---- opening ---- */

static int connect_socket(mon_source *src)
{
	struct sockaddr_un addr;
	int fd;

	memset(&addr, 0, sizeof addr);
	addr.sun_family = AF_UNIX;
	memcpy(addr.sun_path, src->path, strlen(src->path));
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return fd;
}

/* Opens the source's descriptor; -1 (errno) when it cannot be now. */
static int open_source(mon_source *src)
{
	if (src->kind == MON_SOCKET)
		return src->fd = connect_socket(src);
	/* A FIFO's read end opens at once with O_NONBLOCK, writer or not. */
	src->fd = open(src->path, O_RDONLY | O_CLOEXEC |
				  (src->kind == MON_FIFO ? O_NONBLOCK : 0));
	return src->fd;
}

static void close_source(mon_source *src)
{
	ev_reader_free(src->reader);
	src->reader = NULL;
	if (src->fd >= 0)
		close(src->fd);
	src->fd = -1;
	src->offset = 0;
	src->at_end = 0;
	src->draining = 0;
	src->resyncing = 0;
}

/* A stream waits for its next writer; a file is done (or failed). */
static void close_stream_or_file(mon_source *src, mon_state file_state)
{
	/* A FIFO is opened again before it is closed: a next writer that
	 * opened it already must never find it without a reader (EPIPE);
	 * what it wrote waits in the pipe for the new descriptor. */
	int next = src->kind == MON_FIFO
		? open(src->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;

	close_source(src);
	src->fd = next;
	src->state = is_stream(src) ? MON_WAITING : file_state;
	src->retry_s = mon_now() + (src->kind == MON_SOCKET ? RETRY_S : 0);
}

/* The stream cannot be read: its bytes are read and dropped until its
 * writer goes (so that the writer never blocks on it, nor gets SIGPIPE),
 * then the next writer is waited for. A file has failed for good. */
static void give_up(mon_source *src)
{
	if (!is_stream(src)) {
		close_stream_or_file(src, MON_FAILED);
		return;
	}
	ev_reader_free(src->reader);
	src->reader = NULL;
	src->draining = 1;
	src->at_end = 0;
	src->state = MON_FAILED;
}

/* Whether the writer of a stream is gone and all it wrote was read: `hup`
 * is what the loop's poll said, which may be stale for a FIFO (its next
 * writer may have come since, and written): a FIFO is asked again. */
static int gone(const mon_source *src, int hup)
{
	struct pollfd p = { src->fd, POLLIN, 0 };

	if (!hup || src->kind != MON_FIFO)
		return hup; /* a socket's peer never comes back */
	if (poll(&p, 1, 0) < 0)
		return 1;
	return (p.revents & (POLLHUP | POLLERR)) && !(p.revents & POLLIN);
}

static void drain(mon_source *src, int hup)
{
	static char sink[65536];

	while (read(src->fd, sink, sizeof sink) > 0)
		continue;
	if (gone(src, hup))
		close_stream_or_file(src, MON_WAITING);
}

/* ---- the writers of the logs ---- */

/* The program of process `pid` (its comm), into `out`. */
static void program_of(uint32_t pid, char *out, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof path, "/proc/%" PRIu32 "/comm", pid);
	out[0] = '\0';
	if (!(f = fopen(path, "r")))
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

static void set_writer(mon_session *s, uint32_t pid)
{
	s->have_writer = 1;
	s->writer_pid = pid;
	program_of(pid, s->writer_program, sizeof s->writer_program);
}

/* A session whose writer is still to be looked for. */
static int wants_writer(const mon_source *src)
{
	ev_stats_process p;

	if (!src->live || src->live->writer_looked || src->kind == MON_SOCKET)
		return 0;
	return mon_session_process_count(src->live) == 0 ||
	       (mon_session_process(src->live, 0, &p), !p.have_pid);
}

/* The sessions whose source is the file `st` names get `pid`. */
static void match_writer(mon_sources *ms, const struct stat *st, uint32_t pid)
{
	for (size_t i = 0; i < ms->n; i++) {
		mon_source *src = ms->items[i];
		if (wants_writer(src) && src->dev == st->st_dev &&
		    src->ino == st->st_ino && !src->live->have_writer)
			set_writer(src->live, pid);
	}
}

static void scan_process(mon_sources *ms, const char *pid_text)
{
	char dir[64], path[128];
	struct dirent *e;
	struct stat st;
	DIR *d;

	snprintf(dir, sizeof dir, "/proc/%s/fd", pid_text);
	if (!(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >=
			    (int)sizeof path || stat(path, &st) != 0 ||
		    !(S_ISFIFO(st.st_mode) || S_ISREG(st.st_mode)))
			continue;
		match_writer(ms, &st, (uint32_t)strtoul(pid_text, NULL, 10));
	}
	closedir(d);
}

void mon_sources_find_writers(mon_sources *ms)
{
	char self[32];
	struct dirent *e;
	size_t wanted = 0;
	DIR *d;

	for (size_t i = 0; i < ms->n; i++)
		wanted += wants_writer(ms->items[i]);
	if (!wanted || !(d = opendir("/proc")))
		return;
	snprintf(self, sizeof self, "%ld", (long)getpid());
	while ((e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' &&
		    strcmp(e->d_name, self) != 0)
			scan_process(ms, e->d_name);
	closedir(d);
	for (size_t i = 0; i < ms->n; i++)
		if (wants_writer(ms->items[i]))
			ms->items[i]->live->writer_looked = 1;
}

/* ---- sessions ---- */

/* Keeps the MON_MAX_ENDED newest ended sessions of a source: a program
 * that restarts in a loop costs bounded memory. */
static void drop_oldest_ended(mon_sources *ms, const char *source)
{
	mon_session **link = &ms->ended;
	unsigned kept = 0;

	while (*link) {
		mon_session *s = *link;
		if (strcmp(s->source, source) == 0 && ++kept > MON_MAX_ENDED) {
			*link = s->next;
			mon_session_free(s);
		} else {
			link = &s->next;
		}
	}
}

static void end_session(mon_sources *ms, mon_source *src, const char *how)
{
	mon_session *s = src->live;
	ev_stats_process p;

	if (!s)
		return;
	src->live = NULL;
	if (mon_session_end(s) < 0)
		report(src, "the final figures could not be computed: %s",
		       ev_stats_diag(s->st)->message);
	if (how) {
		if (mon_session_process_count(s) > 0 &&
		    (mon_session_process(s, 0, &p), p.have_pid))
			report(src, "pid %" PRIu32 " %s", p.pid, how);
		else
			report(src, "%s", how);
	}
	s->next = ms->ended;
	ms->ended = s;
	drop_oldest_ended(ms, s->source);
}

/* A socket's writer: its peer (SO_PEERCRED). */
static void peer_writer(const mon_source *src, mon_session *s)
{
	struct ucred cred;
	socklen_t len = sizeof cred;

	s->writer_looked = 1;
	if (getsockopt(src->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 &&
	    cred.pid > 0)
		set_writer(s, (uint32_t)cred.pid);
}

static int start_session(mon_sources *ms, mon_source *src)
{
	mon_session *s;

	if (mon_session_new(&s, src->label, ev_reader_header(src->reader),
			    &ms->limits) < 0) {
		report(src, "out of memory");
		return -1;
	}
	s->bytes = ev_reader_offset(src->reader) - src->offset;
	src->offset = ev_reader_offset(src->reader);
	if (src->kind == MON_SOCKET)
		peer_writer(src, s);
	src->live = s;
	src->state = MON_READING;
	src->sessions++;
	return 0;
}

/* The reader failed on damaged bytes: skip to the next block. 0 to go
 * on reading, 1 to wait for more input, -1 when the source failed. */
static int resync(mon_source *src)
{
	const ev_diag *d = ev_reader_diag(src->reader);
	char message[sizeof d->message];
	uint64_t from, len;
	int rc;

	memcpy(message, d->message, sizeof message);
	src->errors++;
	rc = ev_reader_resync(src->reader, &from, &len);
	if (rc == EV_OK) {
		src->skipped_bytes += len;
		report(src, "offset %" PRIu64 ": %s; skipped %" PRIu64
		       " bytes to the block at offset %" PRIu64, from, message,
		       len, from + len);
		src->offset = ev_reader_offset(src->reader);
		return 0;
	}
	if (rc == EV_ETRUNCATED) {
		report(src, "offset %" PRIu64 ": %s; skipping to the next "
		       "block", from, message);
		src->skipped_bytes += len;
		src->resync_from = from;
		src->resyncing = 1; /* the scan goes on as input comes */
		return 1;
	}
	report(src, "offset %" PRIu64 ": %s", from, message);
	return -1;
}

/* The input of a stream ended (its writer went): the end of the live
 * session, cut short. */
static void stream_ended(mon_sources *ms, mon_source *src)
{
	if (src->live)
		end_session(ms, src, ev_reader_pending(src->reader)
			    ? "ended inside an event (truncated)"
			    : "ended without its data end (truncated)");
	close_stream_or_file(src, MON_DONE);
}

/* The reader failed on something no resync mends (I/O, memory, a
 * header): reported, the session ended, the source given up. -1. */
static int reader_failed(mon_sources *ms, mon_source *src)
{
	src->errors++;
	report(src, "%s", ev_reader_diag(src->reader)->message);
	end_session(ms, src, "failed");
	give_up(src);
	return -1;
}

/* A resync that reached the end of the input scans on when more comes
 * (ev_reader_resync after the reader's EV_ETRUNCATED), so that a block
 * marker is looked for in every damaged byte, as in a file. */
static int go_on_resyncing(mon_sources *ms, mon_source *src, int hup)
{
	ev_event ev;
	uint64_t from, len;
	int rc = ev_reader_next(src->reader, &ev);

	if (rc == EV_ETRUNCATED && ev_reader_pending(src->reader) == 0 &&
	    !gone(src, hup))
		return 1;
	rc = ev_reader_resync(src->reader, &from, &len);
	src->skipped_bytes += len;
	if (rc == EV_OK) {
		src->resyncing = 0;
		report(src, "offset %" PRIu64 ": skipped %" PRIu64 " bytes to "
		       "the block at offset %" PRIu64, src->resync_from,
		       from + len - src->resync_from, from + len);
		src->offset = ev_reader_offset(src->reader);
		return 0;
	}
	if (rc == EV_ETRUNCATED && !gone(src, hup))
		return 1;
	src->resyncing = 0;
	if (rc == EV_ETRUNCATED) {
		stream_ended(ms, src);
		return -1;
	}
	return reader_failed(ms, src);
}

/* After a data end: the next session of the same stream, the end of the
 * input, or garbage after the data end, skipped to the next block as
 * `evtool truncate --resync` does (the data end was not the end: the
 * session goes on). 0: go on reading; 1: wait; -1: the source stopped. */
static int after_end(mon_sources *ms, mon_source *src, int hup)
{
	int rc = ev_reader_next_session(src->reader);

	if (rc == EV_OK) {
		src->at_end = 0;
		end_session(ms, src, "ended");
		return start_session(ms, src) == 0 ? 0 : -1;
	}
	if ((rc == EV_END || rc == EV_ETRUNCATED) && !gone(src, hup) &&
	    src->kind != MON_FILE)
		return 1;
	if (rc == EV_END || rc == EV_ETRUNCATED) {
		src->at_end = 0;
		end_session(ms, src, "ended");
		close_stream_or_file(src, MON_DONE);
		return -1;
	}
	if (rc == EV_EFORMAT) {
		src->at_end = 0;
		if ((rc = resync(src)) >= 0)
			return rc;
	} else {
		src->errors++;
		report(src, "%s", ev_reader_diag(src->reader)->message);
	}
	src->at_end = 0;
	end_session(ms, src, "failed");
	give_up(src);
	return -1;
}

/* Reads one event into the live session. 0: read one; 1: nothing more
 * for now; -1: the source stopped. */
static int read_event(mon_sources *ms, mon_source *src, int hup)
{
	ev_event ev;
	int rc = ev_reader_next(src->reader, &ev);

	if (rc == EV_OK) {
		uint64_t at = ev_reader_offset(src->reader);
		rc = mon_session_add(src->live, &ev, at - src->offset);
		src->offset = at;
		if (rc == EV_OK)
			return 0;
		src->errors++;
		report(src, "offset %" PRIu64 ": %s", ev.offset,
		       ev_stats_diag(src->live->st)->message);
		end_session(ms, src, "failed");
		give_up(src);
		return -1;
	}
	if (rc == EV_END) {
		src->at_end = 1; /* ended, unless garbage follows */
		return 0;
	}
	if (rc == EV_ETRUNCATED) {
		if (!gone(src, hup))
			return 1;
		stream_ended(ms, src);
		return -1;
	}
	if (rc == EV_EFORMAT || rc == EV_ELIMIT) {
		rc = resync(src);
		if (rc < 0) {
			end_session(ms, src, "failed");
			give_up(src);
		}
		return rc;
	}
	return reader_failed(ms, src);
}

/* The header of a new stream. 0: a session started; 1: wait; -1: the
 * source stopped. */
static int read_header(mon_sources *ms, mon_source *src, int hup)
{
	int rc = ev_reader_read_header(src->reader);

	if (rc == EV_OK)
		return start_session(ms, src) == 0 ? 0 : -1;
	if (cli_header_pending(src->reader, rc) && !gone(src, hup))
		return 1;
	if (cli_header_pending(src->reader, rc)) {
		if (ev_reader_pending(src->reader) > 0) {
			src->errors++;
			report(src, "ended inside its header");
		}
		close_stream_or_file(src, MON_DONE);
		return -1;
	}
	return reader_failed(ms, src);
}

void mon_source_pump(mon_sources *ms, size_t i, short revents)
{
	mon_source *src = ms->items[i];
	int hup = (revents & (POLLHUP | POLLERR)) != 0;
	uint64_t before;

	if (src->fd < 0)
		return;
	if (src->draining) {
		drain(src, hup);
		return;
	}
	if (!src->reader &&
	    ev_reader_open_fd(&src->reader, src->fd, src->label,
			      EV_READER_SMALL_WINDOW) < 0) {
		report(src, "out of memory");
		give_up(src);
		return;
	}
	before = ev_reader_input_bytes(src->reader);
	for (int budget = PUMP_BUDGET; budget > 0 && src->reader; budget--) {
		int rc = !src->live ? read_header(ms, src, hup)
			 : src->resyncing ? go_on_resyncing(ms, src, hup)
			 : src->at_end ? after_end(ms, src, hup)
				       : read_event(ms, src, hup);
		if (rc != 0)
			break;
	}
	if (src->reader && ev_reader_input_bytes(src->reader) != before) {
		src->last_input_s = mon_now();
		if (src->live)
			src->live->last_event_s = src->last_input_s;
		src->stalled = 0;
	}
}

int mon_source_poll_fd(const mon_sources *ms, size_t i)
{
	const mon_source *src = ms->items[i];

	return is_stream(src) ? src->fd : -1;
}

/* ---- the list of sources ---- */

static int add_source(mon_sources *ms, const char *label, mon_kind kind,
		      const struct stat *st, int from_dir)
{
	mon_source *src;

	if (ms->n == ms->max_sources)
		return -1;
	if (ms->n == ms->alloc) {
		size_t cap = ms->alloc ? 2 * ms->alloc : 16;
		mon_source **grown = realloc(ms->items, cap * sizeof *grown);
		if (!grown)
			return -1;
		ms->items = grown;
		ms->alloc = cap;
	}
	if (!(src = calloc(1, sizeof *src)) || !(src->label = strdup(label))) {
		free(src);
		return -1;
	}
	src->kind = kind;
	src->path = src->label + (kind == MON_SOCKET
				  ? strlen(FOLLOW_UNIX_PREFIX) : 0);
	src->from_dir = from_dir;
	if (st) {
		src->dev = st->st_dev;
		src->ino = st->st_ino;
	}
	src->fd = -1;
	src->state = MON_WAITING;
	src->last_input_s = mon_now();
	ms->items[ms->n++] = src;
	return 0;
}

static int full_or_no_memory(const mon_sources *ms)
{
	if (ms->n == ms->max_sources)
		return cli_error(EXIT_USAGE, "more than %zu sources "
				 "(--max-sources)", ms->max_sources);
	return cli_error(EXIT_SYSTEM, "out of memory");
}

int mon_sources_add(mon_sources *ms, const char *spec)
{
	size_t prefix = strlen(FOLLOW_UNIX_PREFIX);
	struct sockaddr_un addr;
	struct stat st;
	char **grown;

	if (strncmp(spec, FOLLOW_UNIX_PREFIX, prefix) == 0) {
		if (strlen(spec + prefix) >= sizeof addr.sun_path ||
		    !spec[prefix])
			return cli_error(EXIT_USAGE, "%s: a socket path of 1 "
					 "to %zu bytes", spec,
					 sizeof addr.sun_path - 1);
		return add_source(ms, spec, MON_SOCKET, NULL, 0) == 0
			? EXIT_OK : full_or_no_memory(ms);
	}
	if (strcmp(spec, "-") == 0)
		return cli_error(EXIT_USAGE, "standard input is no SOURCE: give "
				 "FIFOs, files, directories or unix:SOCKETs");
	if (stat(spec, &st) != 0)
		return cli_error(EXIT_SYSTEM, "%s: %s", spec, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		if (!(grown = realloc(ms->dirs, (ms->n_dirs + 1) * sizeof *grown)) ||
		    !(grown[ms->n_dirs] = strdup(spec))) {
			if (grown)
				ms->dirs = grown;
			return cli_error(EXIT_SYSTEM, "out of memory");
		}
		ms->dirs = grown;
		ms->n_dirs++;
		return EXIT_OK;
	}
	if (!S_ISFIFO(st.st_mode) && !S_ISREG(st.st_mode))
		return cli_error(EXIT_USAGE, "%s: not a FIFO, a file, a "
				 "directory or unix:SOCKET", spec);
	if (add_source(ms, spec, S_ISFIFO(st.st_mode) ? MON_FIFO : MON_FILE,
		       &st, 0) != 0)
		return full_or_no_memory(ms);
	return EXIT_OK;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && strcmp(s + n - k, suffix) == 0;
}

static int known(const mon_sources *ms, const struct stat *st)
{
	for (size_t i = 0; i < ms->n; i++)
		if (ms->items[i]->from_dir && ms->items[i]->dev == st->st_dev &&
		    ms->items[i]->ino == st->st_ino)
			return 1;
	return 0;
}

/* New *.eventlog files and FIFOs of directory `dir`. */
static void scan_dir(mon_sources *ms, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];
	struct stat st;

	if (!d)
		return;
	while ((e = readdir(d))) {
		int fifo;
		if (e->d_name[0] == '.' ||
		    snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >=
			    (int)sizeof path ||
		    lstat(path, &st) != 0)
			continue;
		fifo = S_ISFIFO(st.st_mode);
		if ((!fifo && !(S_ISREG(st.st_mode) &&
				ends_with(e->d_name, ".eventlog"))) ||
		    known(ms, &st))
			continue;
		if (add_source(ms, path, fifo ? MON_FIFO : MON_FILE, &st, 1) != 0) {
			cli_message_start();
			fprintf(stderr, "%s: not followed: %zu sources at most\n",
				path, ms->max_sources);
		}
	}
	closedir(d);
}

static void free_source(mon_source *src)
{
	close_source(src);
	mon_session_free(src->live);
	free(src->label);
	free(src);
}

/* A source found in a directory whose file went, with nothing live. */
static int vanished(const mon_source *src)
{
	struct stat st;

	return src->from_dir && !src->live &&
	       (lstat(src->path, &st) != 0 || st.st_ino != src->ino ||
		st.st_dev != src->dev);
}

/* A growing file whose program is gone: no data end will come. */
static int program_gone(mon_source *src, double now)
{
	ev_stats_process p;

	if (src->kind != MON_FILE || !src->live ||
	    now - src->last_input_s < GONE_S ||
	    mon_session_process_count(src->live) == 0)
		return 0;
	mon_session_process(src->live, 0, &p);
	return p.have_pid && kill((pid_t)p.pid, 0) != 0 && errno == ESRCH;
}

static void tick_source(mon_sources *ms, size_t i, double now)
{
	mon_source *src = ms->items[i];

	if (src->fd < 0 && src->state == MON_WAITING && now >= src->retry_s) {
		if (open_source(src) < 0)
			src->retry_s = now + RETRY_S;
		else
			src->last_input_s = now;
	}
	if (src->kind == MON_FILE && src->fd >= 0)
		mon_source_pump(ms, i, 0);
	if (program_gone(src, now)) {
		end_session(ms, src, "is gone; its log ends without its data "
			    "end (truncated)");
		close_stream_or_file(src, MON_DONE);
	}
	if (src->live && !src->stalled && now - src->last_input_s > ms->stall_s) {
		src->stalled = 1;
		report(src, "nothing read for %g s", ms->stall_s);
	}
}

static void expire_ended(mon_sources *ms, double now, double keep_s)
{
	mon_session **link = &ms->ended;

	while (*link) {
		mon_session *s = *link;
		if (now - s->ended_s >= keep_s) {
			*link = s->next;
			mon_session_free(s);
		} else {
			link = &s->next;
		}
	}
}

void mon_sources_tick(mon_sources *ms, double keep_s)
{
	double now = mon_now();
	size_t k = 0;

	if (now >= ms->next_scan_s) {
		for (size_t d = 0; d < ms->n_dirs; d++)
			scan_dir(ms, ms->dirs[d]);
		ms->next_scan_s = now + SCAN_S;
	}
	for (size_t i = 0; i < ms->n; i++)
		tick_source(ms, i, now);
	for (size_t i = 0; i < ms->n; i++) {
		if (vanished(ms->items[i]))
			free_source(ms->items[i]);
		else
			ms->items[k++] = ms->items[i];
	}
	ms->n = k;
	expire_ended(ms, now, keep_s);
}

void mon_sources_free(mon_sources *ms)
{
	for (size_t i = 0; i < ms->n; i++)
		free_source(ms->items[i]);
	free(ms->items);
	for (size_t d = 0; d < ms->n_dirs; d++)
		free(ms->dirs[d]);
	free(ms->dirs);
	while (ms->ended) {
		mon_session *next = ms->ended->next;
		mon_session_free(ms->ended);
		ms->ended = next;
	}
}
