/*
 * The one error channel of every constructor (doc/library.md): each
 * ev_*_new and ev_*_open* takes an ev_diag * last, which may be NULL, and
 * fills it on failure with the status, what the failure concerns and a
 * message; on success it leaves it alone. Before, ev_reader_open_path and
 * ev_input_open failed with EV_EIO and errno only, and an options struct
 * of another version with a bare EV_EINVAL.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evtool/evtool.h"
#include "archive_internal.h"
#include "internal.h"
#include "support.h"

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif

/* A path whose folder does not exist. */
#define MISSING "/nonexistent/evtool-constructors/x.eventlog"

/* A diagnostic that a constructor has not touched. */
static ev_diag untouched(void)
{
	ev_diag d;

	memset(&d, 0, sizeof d);
	d.status = 12345;
	strcpy(d.message, "untouched");
	return d;
}

static void expect(const ev_diag *d, int status, ev_origin origin,
		   const char *message)
{
	assert_int_equal(d->status, status);
	assert_int_equal(d->origin, origin);
	assert_int_equal(d->reason, EV_REASON_NONE);
	assert_string_equal(d->message, message);
}

/* A file that is not there: EV_EIO, and the system's reason. */
static void test_open_missing_file(void **state)
{
	char want[320];
	ev_reader *r = (ev_reader *)&r;
	ev_input *in = (ev_input *)&in;
	ev_archive_reader *ar = (ev_archive_reader *)&ar;
	ev_diag d = untouched();

	(void)state;
	snprintf(want, sizeof want, "cannot open: %s", strerror(ENOENT));
	assert_int_equal(ev_reader_open_path(&r, MISSING, 0, &d), EV_EIO);
	assert_null(r);
	expect(&d, EV_EIO, EV_ORIGIN_NONE, want);

	d = untouched();
	assert_int_equal(ev_input_open(&in, MISSING, &d), EV_EIO);
	assert_null(in);
	expect(&d, EV_EIO, EV_ORIGIN_INPUT, want);

	d = untouched();
	assert_int_equal(ev_archive_reader_open_path(&ar, MISSING, &d), EV_EIO);
	assert_null(ar);
	expect(&d, EV_EIO, EV_ORIGIN_NONE, want);

	/* NULL: the caller wants the status only. */
	assert_int_equal(ev_reader_open_path(&r, MISSING, 0, NULL), EV_EIO);
	assert_int_equal(ev_input_open(&in, MISSING, NULL), EV_EIO);
	assert_int_equal(ev_archive_reader_open_path(&ar, MISSING, NULL),
			 EV_EIO);
}

/* An output in a folder that is not there: EV_EIO, origin the output. */
static void test_create_in_missing_folder(void **state)
{
	char want[320];
	ev_sink *s = (ev_sink *)&s;
	ev_diag d = untouched();

	(void)state;
	snprintf(want, sizeof want, "cannot create: %s", strerror(ENOENT));
	assert_int_equal(ev_sink_open_path(&s, MISSING, &d), EV_EIO);
	assert_null(s);
	expect(&d, EV_EIO, EV_ORIGIN_OUTPUT, want);
}

/* Options of a version this library does not read: EV_EINVAL about the
 * options, naming the version given. */
static void test_options_of_another_version(void **state)
{
	ev_filter_options fo = EV_FILTER_OPTIONS_INIT;
	ev_sort_options so = EV_SORT_OPTIONS_INIT;
	ev_merge_options mo = EV_MERGE_OPTIONS_INIT;
	ev_repair_options ro = EV_REPAIR_OPTIONS_INIT;
	ev_validate_options vo = EV_VALIDATE_OPTIONS_INIT;
	ev_info_options io = EV_INFO_OPTIONS_INIT;
	ev_report_options po = EV_REPORT_OPTIONS_INIT;
	ev_export_options xo = EV_EXPORT_OPTIONS_INIT;
	ev_writer_options wo = EV_WRITER_OPTIONS_INIT;
	ev_archive_options ao = EV_ARCHIVE_OPTIONS_INIT;
	ev_filter *f;
	ev_sorter *so_;
	ev_merge *m;
	ev_repair *rp;
	ev_validator *v;
	ev_info *info;
	ev_report *rep;
	ev_exporter *x;
	ev_writer *w;
	evi_archive_writer *aw;
	ev_sink *sink;
	ev_header *h;
	ev_diag d[10];
	int rc[10];

	(void)state;
	fo.version = so.version = mo.version = ro.version = vo.version = 99;
	io.version = po.version = xo.version = wo.version = ao.version = 99;
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(evi_header_new(&h, NULL), EV_OK);
	rc[0] = ev_filter_new(&f, &fo, &d[0]);
	rc[1] = ev_sorter_new(&so_, &so, &d[1]);
	rc[2] = ev_merge_new(&m, &mo, &d[2]);
	rc[3] = ev_repair_new(&rp, &ro, &d[3]);
	rc[4] = ev_validator_new(&v, &vo, &d[4]);
	rc[5] = ev_info_new(&info, &io, &d[5]);
	rc[6] = ev_report_new(&rep, &po, &d[6]);
	rc[7] = ev_exporter_new(&x, &xo, sink, &d[7]);
	rc[8] = ev_writer_open(&w, sink, h, &wo, &d[8]);
	rc[9] = evi_archive_writer_open(&aw, sink, 0, &ao, &d[9]);
	for (int i = 0; i < 10; i++) {
		assert_int_equal(rc[i], EV_EINVAL);
		assert_int_equal(d[i].status, EV_EINVAL);
		assert_int_equal(d[i].origin, EV_ORIGIN_OPTIONS);
		/* the archive's options say no version, the others 99 */
		if (i < 9)
			assert_non_null(strstr(d[i].message, "version 99"));
		else
			assert_string_equal(d[i].message,
					    "bad archive options");
	}
	assert_null(f);
	assert_null(w);
	assert_null(aw);
	evi_header_free(h);
	ev_sink_free(sink);
}

/* Arguments out of range, beside the version. */
static void test_bad_arguments(void **state)
{
	ev_show *s = (ev_show *)&s;
	ev_reader *r = (ev_reader *)&r;
	ev_header *h;
	ev_diag d = untouched();

	(void)state;
	assert_int_equal(evi_header_new(&h, NULL), EV_OK);
	assert_int_equal(ev_show_new(&s, h, (ev_show_format)7, 0, &d),
			 EV_EINVAL);
	assert_null(s);
	expect(&d, EV_EINVAL, EV_ORIGIN_OPTIONS, "unknown show format 7");
	d = untouched();
	assert_int_equal(ev_reader_open_fn(&r, NULL, NULL, "x", 0, &d),
			 EV_EINVAL);
	assert_null(r);
	expect(&d, EV_EINVAL, EV_ORIGIN_NONE, "no read function");
	evi_header_free(h);
}

/* A constructor that succeeds leaves the caller's diagnostic alone. */
static void test_success_leaves_diag(void **state)
{
	char *path = ts_path(EVTOOL_TESTDATA, "gc-n2.eventlog");
	ev_reader *r;
	ev_input *in;
	ev_stats *st;
	ev_diag d = untouched();

	(void)state;
	assert_int_equal(ev_reader_open_path(&r, path, 0, &d), EV_OK);
	assert_int_equal(ev_input_open(&in, path, &d), EV_OK);
	assert_int_equal(ev_stats_new(&st, &d), EV_OK);
	assert_int_equal(d.status, 12345);
	assert_string_equal(d.message, "untouched");
	ev_stats_free(st);
	ev_input_free(in);
	ev_reader_free(r);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_missing_file),
		cmocka_unit_test(test_create_in_missing_folder),
		cmocka_unit_test(test_options_of_another_version),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_success_leaves_diag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
