/*
 * evtool view --cache PATH (view.h): the complete index of a log kept
 * in a file (ev_view_index_save), loaded instead of reading the log again
 * while the log is unchanged (its size, modification time and the digest
 * of its first and last MiB: ev_view_log_id), written anew otherwise.
 * Never beside the log unless PATH says so: in a folder PATH its name
 * is evtool-view-DEV-INODE.cache, one per log file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "view.h"

static void warn(const char *what, const char *path, const char *why)
{
	cli_message_start();
	fprintf(stderr, "--cache %s: warning: %s%s%s\n", path, what,
		why ? ": " : "", why ? why : "");
}

/* The cache file's path for the log `st`: in `where` when it is a
 * folder, else `where` itself. */
static char *cache_path(const char *where, const struct stat *log)
{
	size_t len = strlen(where) + 64;
	struct stat st;
	char *path;

	if (stat(where, &st) != 0 || !S_ISDIR(st.st_mode))
		return strdup(where);
	if ((path = malloc(len)))
		snprintf(path, len, "%s/evtool-view-%llx-%llx.cache", where,
			 (unsigned long long)log->st_dev,
			 (unsigned long long)log->st_ino);
	return path;
}

/* The processes, from the global buffer's events (the RTS posts the
 * capset events there: CAPSET_CREATE, CAPSET_ASSIGN_CAP, the pid, the
 * program's arguments, the wall clock), read past the capabilities'
 * blocks. */
static int processes(view_state *v)
{
	cap_events ce;
	uint64_t offset;
	ev_event ev;
	int rc;

	if ((rc = cap_events_open(&ce, v, EV_NO_CAP,
				  ev_view_data_offset(v->index))) == EV_OK)
		while (cap_events_next(&ce, &ev, &offset) == EV_OK)
			(void)ev_process_list_add(v->procs, &ev);
	cap_events_close(&ce);
	if (rc < 0 || ev_process_list_finish(v->procs) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	return EXIT_OK;
}

/* The loaded index's log: its header read, the show of its events, its
 * processes. */
static int use_cached(view_state *v, ev_view_index *ix)
{
	ev_view_index_free(v->index);
	v->index = ix;
	if (ev_reader_open_fd(&v->reader, v->fd, v->name, EV_READER_RAW,
			      NULL) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	if (ev_reader_read_header(v->reader) < 0)
		return cli_reader_error(v->reader);
	if (ev_show_new(&v->show, ev_reader_header(v->reader), EV_SHOW_TEXT,
			0, NULL) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	v->from_cache = v->complete = 1;
	v->sessions = 1;
	v->live = 0;
	v->log_size = v->log_id.size;
	return processes(v);
}

int view_cache_open(view_state *v, const char *where, const char *path)
{
	ev_view_index *ix = NULL;
	struct stat st;
	int fd, rc;

	if (strcmp(path, "-") == 0 || v->src_fd >= 0 ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		warn("the log is not a file: not cached", where, NULL);
		return EXIT_OK;
	}
	rc = fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
		     ? ev_view_log_id_of(fd, &v->log_id) : EV_EIO;
	close(fd);
	if (rc < 0) {
		warn("the log is not a file: not cached", where, NULL);
		return EXIT_OK;
	}
	if (!(v->cache_path = cache_path(where, &st)))
		return cli_error(EXIT_SYSTEM, "out of memory");
	if ((fd = open(v->cache_path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno != ENOENT)
			warn("cannot read it", v->cache_path, strerror(errno));
		return EXIT_OK;
	}
	rc = ev_view_index_load(&ix, fd, &v->log_id);
	close(fd);
	if (rc == EV_ENOMEM)
		return cli_error(EXIT_SYSTEM, "out of memory");
	if (rc < 0)
		warn("cannot read it", v->cache_path, strerror(errno));
	return ix ? use_cached(v, ix) : EXIT_OK;
}

void view_cache_save(view_state *v)
{
	size_t len;
	char *tmp;
	int fd = -1, ok = 0;

	if (!v->cache_path || v->from_cache || v->sessions > 1)
		return;
	len = strlen(v->cache_path) + 16;
	if ((tmp = malloc(len))) {
		snprintf(tmp, len, "%s.tmp-XXXXXX", v->cache_path);
		if ((fd = mkstemp(tmp)) >= 0)
			ok = ev_view_index_save(v->index, fd, &v->log_id) ==
				     EV_OK && fsync(fd) == 0;
	}
	if (fd >= 0 && close(fd) != 0)
		ok = 0;
	if (!ok || rename(tmp, v->cache_path) != 0) {
		warn("cannot write it", v->cache_path, strerror(errno));
		if (fd >= 0)
			unlink(tmp);
	}
	free(tmp);
	free(v->cache_path); /* written once */
	v->cache_path = NULL;
}
