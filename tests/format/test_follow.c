/*
 * The follower (evtool/follow.h): a real log followed while it is
 * written, through the consumer protocol. A FIFO and a regular file
 * receive gc-n2 in two parts, the second written only once the follower
 * has handed over every complete event of the first and waits for more
 * (its idle call): what it hands over is then every event of the log,
 * as a reader of the whole file sees them, with begin, end and finish
 * once each. The stop flag ends it as a cut; a source that cannot open
 * fails with its reason, and finish still comes last.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "evtool/follow.h"
#include "support.h"

/* Where the second part starts: inside the first data block. */
#define FIRST_PART 4000

typedef struct watch {
	unsigned begins, ends, finishes, idles;
	int finish_status;
	size_t events;
	uint64_t last_offset; /* the offsets come in file order */
	int go;               /* written to when idle: the writer goes on */
	const char *append;   /* a regular file: idle appends the rest */
	const uint8_t *rest;
	size_t rest_len;
	volatile sig_atomic_t stop; /* set by idle when it should stop */
	int stop_when_idle;
} watch;

static int on_begin(void *self, const ev_session *s)
{
	unsigned session = s->index;
	const ev_header *h = s->header;
	watch *w = self;

	assert_int_equal(session, 0);
	assert_non_null(h);
	w->begins++;
	return EV_OK;
}

static int on_event(void *self, const ev_event *ev)
{
	watch *w = self;

	assert_int_equal(w->begins, 1);
	assert_true(w->events == 0 || ev->offset > w->last_offset);
	w->last_offset = ev->offset;
	w->events++;
	return EV_OK;
}

static int on_end(void *self, const ev_session *s)
{
	unsigned session = s->index;
	watch *w = self;

	assert_int_equal(session, 0);
	w->ends++;
	return EV_OK;
}

static int on_finish(void *self, int status)
{
	watch *w = self;

	w->finishes++;
	w->finish_status = status;
	return status;
}

/* Before each wait: the first time, let the rest of the log come (or
 * ask to stop). */
static int on_idle(void *self)
{
	watch *w = self;

	if (w->idles++)
		return EV_OK;
	if (w->stop_when_idle)
		w->stop = 1;
	else if (w->append)
		assert_int_equal(ts_write_file(w->append, w->rest, w->rest_len,
					       "ab"), 1);
	else
		assert_int_equal(write(w->go, "g", 1), 1);
	return EV_OK;
}

static const ev_consumer watcher = { on_begin, on_event, on_end, on_finish,
				     EV_CONSUME_MARKERS };

typedef struct fixture {
	uint8_t *log;
	size_t len;
	ts_log want;
	char *dir, *path;
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);

	assert_non_null(f);
	f->log = ts_load(EVTOOL_TESTDATA, "gc-n2.eventlog", &f->len);
	assert_non_null(f->log);
	assert_int_equal(ts_walk(f->log, f->len, &f->want), 1);
	assert_true(f->want.complete);
	assert_true(f->len > FIRST_PART);
	f->dir = ts_temp_dir();
	assert_non_null(f->dir);
	f->path = ts_path(f->dir, "live");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;

	ts_remove_dir(f->dir);
	ts_log_free(&f->want);
	free(f->path);
	free(f->dir);
	free(f->log);
	free(f);
	return 0;
}

/* A writer of the FIFO at f->path, as a program writing its log: the
 * first part, then (once `go` says so, unless it closes) the rest. */
static pid_t start_writer(const fixture *f, const int go[2])
{
	pid_t pid = fork();
	char g;
	int fd;

	assert_true(pid >= 0);
	if (pid)
		return pid;
	close(go[1]); /* the follower's: its closing ends the wait */
	fd = open(f->path, O_WRONLY);
	if (fd < 0 || write(fd, f->log, FIRST_PART) != FIRST_PART)
		_exit(1);
	if (read(go[0], &g, 1) == 1 &&
	    write(fd, f->log + FIRST_PART, f->len - FIRST_PART) !=
		    (ssize_t)(f->len - FIRST_PART))
		_exit(1);
	_exit(0);
}

static int follow(const char *source, watch *w, ev_follower **out)
{
	ev_follow_options o = EV_FOLLOW_OPTIONS_INIT;

	o.poll_ms = 10;
	o.stop = &w->stop;
	o.idle = on_idle;
	assert_int_equal(ev_follower_new(out, &o, NULL), EV_OK);
	return ev_follow_feed(*out, source, &watcher, w);
}

/* Follows the FIFO at f->path while a writer writes gc-n2 to it; the
 * writer is done with when following is (told the rest never comes). */
static int follow_fifo(const fixture *f, watch *w, ev_follower **fl)
{
	int go[2], rc, status;
	pid_t pid;

	assert_int_equal(mkfifo(f->path, 0600), 0);
	assert_int_equal(pipe(go), 0);
	w->go = go[1];
	pid = start_writer(f, go);
	rc = follow(f->path, w, fl);
	close(go[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(go[0]);
	return rc;
}

static void test_fifo(void **state)
{
	fixture *f = *state;
	watch w = { 0 };
	ev_follower *fl;

	assert_int_equal(follow_fifo(f, &w, &fl), EV_END);
	assert_true(w.idles >= 1);
	assert_int_equal(w.begins, 1);
	assert_int_equal(w.ends, 1);
	assert_int_equal(w.finishes, 1);
	assert_int_equal(w.finish_status, EV_END);
	assert_int_equal(w.events, f->want.count);
	assert_false(ev_follower_stopped(fl));
	assert_non_null(ev_follower_reader(fl));
	ev_follower_free(fl);
}

/* Stopped while it waits for the rest: a cut, with every complete event
 * of the first part handed over, and no end. */
static void test_stop(void **state)
{
	fixture *f = *state;
	watch w = { 0 };
	ev_follower *fl;

	w.stop_when_idle = 1;
	assert_int_equal(follow_fifo(f, &w, &fl), EV_ETRUNCATED);
	assert_true(ev_follower_stopped(fl));
	assert_int_equal(w.events, ts_complete_within(&f->want, FIRST_PART));
	assert_int_equal(w.ends, 0);
	assert_int_equal(w.finishes, 1);
	assert_int_equal(w.finish_status, EV_ETRUNCATED);
	ev_follower_free(fl);
}

/* A regular file that grows: the rest is appended while the follower
 * waits, and it reads on to the data end. */
static void test_growing_file(void **state)
{
	fixture *f = *state;
	watch w = { 0 };
	ev_follower *fl;

	assert_int_equal(ts_write_file(f->path, f->log, FIRST_PART, "wb"), 1);
	w.append = f->path;
	w.rest = f->log + FIRST_PART;
	w.rest_len = f->len - FIRST_PART;
	assert_int_equal(follow(f->path, &w, &fl), EV_END);
	assert_int_equal(w.events, f->want.count);
	assert_int_equal(w.ends, 1);
	assert_int_equal(w.finish_status, EV_END);
	ev_follower_free(fl);
}

/* Sources that cannot open: the reason, no reader, finish last. */
static void test_cannot_open(void **state)
{
	fixture *f = *state;
	char unix_path[256];
	watch w = { 0 };
	ev_follower *fl;

	assert_int_equal(follow(f->path, &w, &fl), EV_EIO); /* not there */
	assert_null(ev_follower_reader(fl));
	assert_int_equal(ev_follower_diag(fl)->status, EV_EIO);
	assert_true(strncmp(ev_follower_diag(fl)->message, "cannot open: ",
			    13) == 0);
	assert_int_equal(w.finishes, 1);
	assert_int_equal(w.finish_status, EV_EIO);
	assert_int_equal(w.begins, 0);
	ev_follower_free(fl);

	memset(&w, 0, sizeof w);
	snprintf(unix_path, sizeof unix_path, "%s%0200d", EV_FOLLOW_UNIX_PREFIX,
		 0);
	assert_int_equal(follow(unix_path, &w, &fl), EV_EINVAL);
	assert_true(strncmp(ev_follower_diag(fl)->message,
			    "socket path longer than", 23) == 0);
	assert_int_equal(w.finishes, 1);
	ev_follower_free(fl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fifo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_growing_file, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cannot_open, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
