/*
 * Tests of the process list (include/evtool/process.h) on real GHC 9.0.2
 * logs: each one's pid, arguments, capabilities and wall clock against an
 * independent walk of its bytes (support.h), and a stream of two logs, one
 * process per session.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evtool/evtool.h"
#include "support.h"

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* What the walker finds in one session: the first payload of `type`. */
static const uint8_t *first_payload(const uint8_t *log, const ts_log *l,
				    uint16_t type, const ts_event **ev)
{
	for (size_t i = 0; i < l->count; i++)
		if (l->events[i].type == type) {
			*ev = &l->events[i];
			return ts_payload(log, &l->events[i]);
		}
	fail_msg("no event of type %u", type);
	return NULL;
}

/* Feeds every event of the stream in `bytes` (sessions included). */
static ev_process_list *list_of(const uint8_t *bytes, size_t len)
{
	ev_process_list *pl;
	ev_reader *r;
	ev_event ev;
	int rc;

	assert_int_equal(ev_process_list_new(&pl, NULL), EV_OK);
	assert_int_equal(ev_reader_open_memory(&r, bytes, len, "m", 0,
					       NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	for (;;) {
		while ((rc = ev_reader_next(r, &ev)) == EV_OK)
			assert_int_equal(ev_process_list_add(pl, &ev), EV_OK);
		assert_int_equal(rc, EV_END);
		if (ev_reader_next_session(r) != EV_OK)
			break;
		ev_process_list_next_session(pl);
	}
	ev_reader_free(r);
	assert_int_equal(ev_process_list_finish(pl), EV_OK);
	return pl;
}

/* One log's process against the walker's reading of its events. */
static void check_process(const uint8_t *log, size_t len,
			  const ev_process *p, unsigned session)
{
	const ts_event *ev;
	const uint8_t *pay;
	ts_log l;

	assert_true(ts_walk(log, len, &l));
	assert_int_equal(p->session, session);
	pay = first_payload(log, &l, EV_OSPROCESS_PID, &ev);
	assert_int_equal(p->capset, be32(pay));
	assert_true(p->have_pid);
	assert_int_equal(p->pid, be32(pay + 4));
	pay = first_payload(log, &l, EV_PROGRAM_ARGS, &ev);
	assert_int_equal(p->args_len, ev->size - 4);
	assert_memory_equal(p->args, pay + 4, p->args_len);
	pay = first_payload(log, &l, EV_WALL_CLOCK_TIME, &ev);
	assert_true(p->have_wall);
	assert_int_equal(p->wall_epoch_ns, be64(pay + 4) * 1000000000u +
						   be32(pay + 12) - ev->time);
	/* Its capabilities: the caps its CAPSET_ASSIGN_CAP events name. */
	size_t n = 0;
	for (size_t i = 0; i < l.count; i++) {
		const uint8_t *q = ts_payload(log, &l.events[i]);
		if (l.events[i].type != EV_CAPSET_ASSIGN_CAP ||
		    be32(q) != p->capset)
			continue;
		assert_true(n < p->n_caps);
		assert_int_equal(p->caps[n++], (uint16_t)(q[4] << 8 | q[5]));
	}
	assert_int_equal(n, p->n_caps);
	ts_log_free(&l);
}

static void test_one_process_per_log(void **state)
{
	static const char *const logs[] = { "merge-a.eventlog",
					     "merge-b.eventlog",
					     "threads-n4.eventlog" };

	(void)state;
	for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
		char *path = ts_path(EVTOOL_TESTDATA, logs[i]);
		size_t len;
		uint8_t *log = ts_read_file(path, &len);
		ev_process_list *pl;
		assert_non_null(log);
		pl = list_of(log, len);
		assert_int_equal(ev_process_list_count(pl), 1);
		check_process(log, len, ev_process_list_at(pl, 0), 0);
		assert_null(ev_process_list_at(pl, 1));
		ev_process_list_free(pl);
		free(log);
		free(path);
	}
}

/* Two logs one after the other (a restarted stream): both capset 0, one
 * process in each session, not one mixing both. */
static void test_two_sessions(void **state)
{
	char *pa = ts_path(EVTOOL_TESTDATA, "merge-a.eventlog");
	char *pb = ts_path(EVTOOL_TESTDATA, "merge-b.eventlog");
	size_t la, lb;
	uint8_t *a = ts_read_file(pa, &la), *b = ts_read_file(pb, &lb);
	uint8_t *both;
	ev_process_list *pl;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	both = malloc(la + lb);
	assert_non_null(both);
	memcpy(both, a, la);
	memcpy(both + la, b, lb);
	pl = list_of(both, la + lb);
	assert_int_equal(ev_process_list_count(pl), 2);
	check_process(a, la, ev_process_list_at(pl, 0), 0);
	check_process(b, lb, ev_process_list_at(pl, 1), 1);
	assert_int_equal(ev_process_list_finish(pl), EV_EINVAL);
	ev_process_list_free(pl);
	free(both);
	free(a);
	free(b);
	free(pa);
	free(pb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_process_per_log),
		cmocka_unit_test(test_two_sessions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
