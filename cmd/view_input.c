/*
 * The log that evtool view reads (view.h): a plain file it can read at
 * any offset, since the index goes back to a time's events by offset. A
 * gzip file is inflated into an unnamed temporary file in $TMPDIR, never
 * beside the user's log; a FIFO, pipe or socket (standard input, a
 * program's +RTS -ol FIFO, unix:PATH of eventlog-socket) is copied into
 * one as its bytes come, so the page grows
 * while the program runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <zlib.h>

#include "cli.h"
#include "view.h"

/* Bytes copied from a FIFO per turn of the loop. */
#define PUMP_BYTES (1u << 20)

static int is_gzip(const unsigned char *magic)
{
	return magic[0] == 0x1f && magic[1] == 0x8b;
}

/* An unnamed temporary file: *rd to read it, *wr to write it. */
static int make_temp(int *rd, int *wr)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];

	snprintf(path, sizeof path, "%s/evtool-view-XXXXXX",
		 dir && *dir ? dir : "/tmp");
	if ((*wr = mkstemp(path)) < 0)
		return cli_error(EXIT_SYSTEM, "cannot make a temporary file in "
				 "%s: %s", dir && *dir ? dir : "/tmp",
				 strerror(errno));
	*rd = open(path, O_RDONLY | O_CLOEXEC);
	unlink(path);
	if (*rd < 0) {
		close(*wr);
		return cli_error(EXIT_SYSTEM, "cannot reopen a temporary file: "
				 "%s", strerror(errno));
	}
	return EXIT_OK;
}

/* Inflates the gzip log on `fd` (from its start) into a temporary file,
 * which becomes v->fd. */
static int inflate_copy(view_state *v, int fd)
{
	char buf[1 << 16];
	int rd, wr, n, rc;
	gzFile gz;

	if ((rc = make_temp(&rd, &wr)) != EXIT_OK)
		return rc;
	lseek(fd, 0, SEEK_SET);
	if (!(gz = gzdopen(dup(fd), "rb"))) {
		close(rd);
		close(wr);
		return cli_error(EXIT_SYSTEM, "out of memory");
	}
	while ((n = gzread(gz, buf, sizeof buf)) > 0)
		if (write(wr, buf, (size_t)n) != n) {
			n = -2;
			break;
		}
	gzclose(gz);
	close(wr);
	if (n < 0) {
		close(rd);
		return cli_error(n == -2 ? EXIT_SYSTEM : EXIT_INVALID,
				 "%s: cannot inflate it into a temporary file "
				 "(%s)", v->name, n == -2 ? strerror(errno)
							  : "damaged gzip data");
	}
	v->fd = rd;
	return EXIT_OK;
}

/* A connection to the Unix socket of unix:PATH (a program instrumented
 * with eventlog-socket), or -1 with errno. */
static int connect_unix(const char *path)
{
	struct sockaddr_un addr;
	int fd;

	memset(&addr, 0, sizeof addr);
	addr.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof addr.sun_path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(addr.sun_path, path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)&addr, sizeof addr) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int view_input_open(view_state *v, const char *path)
{
	int fd = strcmp(path, "-") == 0 ? dup(STDIN_FILENO)
		 : strncmp(path, "unix:", 5) == 0 ? connect_unix(path + 5)
		 : open(path, O_RDONLY | O_CLOEXEC);
	unsigned char magic[2] = { 0, 0 };
	struct stat st;
	int rc;

	if (fd < 0)
		return cli_error(EXIT_SYSTEM, "%s: %s", v->name, strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		if (pread(fd, magic, 2, 0) == 2 && is_gzip(magic)) {
			rc = inflate_copy(v, fd);
			close(fd);
			return rc;
		}
		v->fd = fd;
		v->live = 1;
		return EXIT_OK;
	}
	if ((rc = make_temp(&v->fd, &v->write_fd)) != EXIT_OK) {
		close(fd);
		return rc;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	v->src_fd = fd;
	v->live = 1;
	return EXIT_OK;
}

/* The FIFO has ended: a gzip stream is inflated now, and the log stops
 * growing. */
static int end_of_source(view_state *v)
{
	int rc = EXIT_OK;

	close(v->src_fd);
	v->src_fd = -1;
	v->live = 0;
	if (v->src_gzip) {
		int copy = v->fd;
		rc = inflate_copy(v, copy);
		close(copy);
	}
	close(v->write_fd);
	v->write_fd = -1;
	return rc;
}

int view_input_pump(view_state *v)
{
	static char buf[1 << 16];
	size_t total = 0;
	unsigned char magic[2];

	while (total < PUMP_BYTES) {
		ssize_t n = read(v->src_fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return EXIT_OK;
		if (n < 0)
			return cli_error(EXIT_SYSTEM, "%s: %s", v->name,
					 strerror(errno));
		if (n == 0)
			return end_of_source(v);
		if (write(v->write_fd, buf, (size_t)n) != n)
			return cli_error(EXIT_SYSTEM, "cannot write a temporary "
					 "file: %s", strerror(errno));
		v->copied += (uint64_t)n;
		total += (size_t)n;
		/* A gzip stream is inflated whole at its end. */
		if (!v->src_known && v->copied >= 2 &&
		    pread(v->fd, magic, 2, 0) == 2) {
			v->src_known = 1;
			v->src_gzip = is_gzip(magic);
		}
	}
	return EXIT_OK;
}

int view_input_merge(view_state *v, const char *const *paths, int n)
{
	static const cli_failure_files named = { NULL, 0, NULL,
						 CLI_FAILURE_NAMED, NULL, NULL };
	ev_merge_options opts = EV_MERGE_OPTIONS_INIT;
	ev_merge *m = NULL;
	ev_sink *sink = NULL;
	int rc, wr;

	opts.flags |= EV_MERGE_LENIENT;
	if ((rc = make_temp(&v->fd, &wr)) != EXIT_OK)
		return rc;
	if (ev_merge_new(&m, &opts) < 0 || ev_sink_open_fd(&sink, wr, "merge") < 0)
		rc = cli_error(EXIT_SYSTEM, "out of memory");
	for (int i = 0; rc == EXIT_OK && i < n; i++) {
		ev_input *in;
		if ((rc = cli_open_log_input(paths[i], &in)) == EXIT_OK &&
		    ev_merge_add(m, in) < 0)
			rc = cli_failure(ev_merge_diag(m), &named);
	}
	if (rc == EXIT_OK && (ev_merge_plan(m) < 0 || ev_merge_run(m, sink) < 0))
		rc = cli_failure(ev_merge_diag(m), &named);
	if (rc == EXIT_OK && ev_sink_commit(sink) < 0)
		rc = cli_error(EXIT_SYSTEM, "cannot write a temporary file: %s",
			       ev_sink_diag(sink)->message);
	ev_sink_free(sink);
	ev_merge_free(m);
	close(wr);
	return rc;
}

void view_input_close(view_state *v)
{
	if (v->fd >= 0)
		close(v->fd);
	if (v->src_fd >= 0)
		close(v->src_fd);
	if (v->write_fd >= 0)
		close(v->write_fd);
}
