/*
 * The progress bar's line (cmd/progress.c, progress_format): sizes,
 * percentage, bar, rate and time left, and how it fits a width.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "progress.h"

#define MiB (1024u * 1024u)

static void known_total(void **state)
{
	char line[256];
	size_t n;

	(void)state;
	/* 50 MiB of 200 in 2 s: 25 MiB/s, 150 MiB left: 6 s. */
	n = progress_format(line, sizeof line, "merge", 50ull * MiB,
			    200ull * MiB, 2.0, 80);
	/* 27 cells fill the 80 columns; a quarter of them is done. */
	assert_string_equal(line, "merge  25% [=====>                     "
			    "] 50.0 MiB/200.0 MiB 25.0 MiB/s 0:06 left");
	assert_int_equal(n, 80);
	assert_int_equal(n, strlen(line));
}

static void unknown_total(void **state)
{
	char line[256];

	(void)state;
	progress_format(line, sizeof line, "filter", 3ull * 1024 * MiB, 0,
			4.0, 80);
	assert_string_equal(line, "filter 3.0 GiB 768.0 MiB/s");
	progress_format(line, sizeof line, "sort", 512, 0, 0, 80);
	assert_string_equal(line, "sort 512 B 0 B/s");
}

static void narrow_drops_the_bar(void **state)
{
	char line[256];

	(void)state;
	progress_format(line, sizeof line, "archive: compressing",
			10ull * 1024, 40ull * 1024, 0.5, 60);
	assert_string_equal(line, "archive: compressing  25% 10.0 KiB/40.0 "
			    "KiB 20.0 KiB/s 0:02 left");
}

static void hours_and_overrun(void **state)
{
	char line[256];

	(void)state;
	/* 1 MiB/s with 7200 MiB left: 2 hours. */
	progress_format(line, sizeof line, "x", 800ull * MiB, 8000ull * MiB,
			800.0, 40);
	assert_non_null(strstr(line, " 10% "));
	assert_non_null(strstr(line, "2:00:00 left"));
	/* An estimate that fell short reads as 100%, never more. */
	progress_format(line, sizeof line, "x", 300, 200, 1.0, 40);
	assert_non_null(strstr(line, "100%"));
	assert_non_null(strstr(line, "300 B/300 B"));
	/* No time yet: no rate, no time left. */
	progress_format(line, sizeof line, "x", 0, 200, 0, 20);
	assert_string_equal(line, "x   0% 0 B/200 B 0 B/s -:-- left");
}

static void small_buffer(void **state)
{
	char line[8];
	size_t n;

	(void)state;
	n = progress_format(line, sizeof line, "merge", 1, 2, 1, 80);
	assert_int_equal(n, 7);
	assert_string_equal(line, "merge  ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_total),
		cmocka_unit_test(unknown_total),
		cmocka_unit_test(narrow_drops_the_bar),
		cmocka_unit_test(hours_and_overrun),
		cmocka_unit_test(small_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
