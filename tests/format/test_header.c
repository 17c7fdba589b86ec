/* Unit tests for the eventlog header (lib/format/header.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evtool/catalog.h"
#include "evtool/header.h"
#include "evtool/reader.h"
#include "internal.h"
#include "support.h"

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif
#ifndef EVTOOL_CORPUS
#define EVTOOL_CORPUS "../shared/corpus"
#endif

#define VAR EV_SIZE_VARIABLE
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static ev_header *new_header(void)
{
	ev_header *h = NULL;

	assert_int_equal(evi_header_new(&h, NULL), EV_OK);
	assert_non_null(h);
	return h;
}

static void add(ev_header *h, uint16_t id, int32_t size, const char *desc)
{
	assert_int_equal(evi_header_add(h, id, size, desc,
				       (uint32_t)strlen(desc), NULL, 0),
			 EV_OK);
}

static uint8_t *encode(const ev_header *h, size_t *len)
{
	size_t n = evi_header_encoded_size(h);
	uint8_t *buf = malloc(n + 1);

	assert_non_null(buf);
	buf[n] = 0xa5; /* must stay untouched */
	assert_int_equal(evi_header_encode(h, buf), n);
	assert_int_equal(buf[n], 0xa5);
	*len = n;
	return buf;
}

/* ------------------------------------------------------------------------
 * Building and looking up
 * ---------------------------------------------------------------------- */

static void test_new_is_empty(void **state)
{
	(void)state;
	ev_header *h = new_header();

	assert_int_equal(ev_header_count(h), 0);
	assert_null(ev_header_at(h, 0));
	assert_null(ev_header_find(h, 0));
	assert_null(ev_header_find(h, 0xffff));
	assert_int_equal(evi_header_quirks(h), 0);
	evi_header_free(h);
	evi_header_free(NULL);
}

static void test_add_find_at_count(void **state)
{
	(void)state;
	ev_header *h = new_header();
	static const uint8_t extra[] = { 0x00, 0x01, 0xfe };
	const ev_type_decl *t;

	add(h, EV_RUN_THREAD, 4, "Run thread");
	add(h, EV_USER_MSG, VAR, "User message");
	assert_int_equal(evi_header_add(h, 300, 7, "Custom", 6, extra,
				       sizeof extra),
			 EV_OK);
	/* Lower id after higher ones: order is the order added. */
	add(h, EV_CREATE_THREAD, 4, "Create thread");
	add(h, 0xfffe, 0, "");

	assert_int_equal(ev_header_count(h), 5);
	static const uint16_t order[] = { 1, 19, 300, 0, 0xfffe };
	for (size_t i = 0; i < ARRAY_LEN(order); i++) {
		t = ev_header_at(h, i);
		assert_non_null(t);
		assert_int_equal(t->id, order[i]);
		assert_ptr_equal(ev_header_find(h, order[i]), t);
	}
	assert_null(ev_header_at(h, 5));
	assert_null(ev_header_at(h, (size_t)-1));

	t = ev_header_find(h, EV_RUN_THREAD);
	assert_int_equal(t->size, 4);
	assert_int_equal(t->wire_size, 4);
	assert_int_equal(t->desc_len, 10);
	assert_string_equal(t->desc, "Run thread");
	assert_int_equal(t->extra_len, 0);

	t = ev_header_find(h, EV_USER_MSG);
	assert_int_equal(t->size, VAR);
	assert_int_equal(t->wire_size, VAR);

	t = ev_header_find(h, 300);
	assert_int_equal(t->size, 7);
	assert_int_equal(t->desc_len, 6);
	assert_string_equal(t->desc, "Custom");
	assert_int_equal(t->extra_len, 3);
	assert_memory_equal(t->extra, extra, 3);

	t = ev_header_find(h, 0xfffe);
	assert_int_equal(t->size, 0);
	assert_int_equal(t->desc_len, 0);
	assert_string_equal(t->desc, "");

	/* Ids that share a lookup page with declared ones, and others. */
	assert_null(ev_header_find(h, 2));
	assert_null(ev_header_find(h, 301));
	assert_null(ev_header_find(h, 0xffff));
	assert_null(ev_header_find(h, 0x8000));
	evi_header_free(h);
}

static void test_desc_is_copied_and_terminated(void **state)
{
	(void)state;
	ev_header *h = new_header();
	char desc[] = "abcdef";
	uint8_t extra[] = { 9, 8, 7 };
	const ev_type_decl *t;

	/* Only the first 3 bytes of desc are the description. */
	assert_int_equal(evi_header_add(h, 5, 2, desc, 3, extra, 3), EV_OK);
	desc[0] = 'X';
	extra[0] = 0;
	t = ev_header_find(h, 5);
	assert_int_equal(t->desc_len, 3);
	assert_string_equal(t->desc, "abc");
	assert_memory_equal(t->extra, ((const uint8_t[]){ 9, 8, 7 }), 3);
	/* An embedded NUL stays part of the description. */
	assert_int_equal(evi_header_add(h, 6, 0, "a\0b", 3, NULL, 0), EV_OK);
	t = ev_header_find(h, 6);
	assert_int_equal(t->desc_len, 3);
	assert_memory_equal(t->desc, "a\0b", 4);
	evi_header_free(h);
}

static void test_duplicate_id_is_einval(void **state)
{
	(void)state;
	ev_header *h = new_header();

	add(h, 44, VAR, "Thread label");
	add(h, 500, 3, "Custom");
	assert_int_equal(evi_header_add(h, 44, 4, "Again", 5, NULL, 0),
			 EV_EINVAL);
	assert_int_equal(evi_header_add(h, 500, VAR, "Again", 5, NULL, 0),
			 EV_EINVAL);
	/* The first declaration is untouched. */
	assert_int_equal(ev_header_count(h), 2);
	assert_int_equal(ev_header_find(h, 44)->size, VAR);
	assert_string_equal(ev_header_find(h, 44)->desc, "Thread label");
	assert_int_equal(ev_header_find(h, 500)->size, 3);
	evi_header_free(h);
}

static void test_size_range(void **state)
{
	(void)state;
	ev_header *h = new_header();

	add(h, 1, 0, "zero");
	add(h, 2, 65534, "largest fixed size");
	add(h, 3, VAR, "variable");
	assert_int_equal(evi_header_add(h, 4, 65535, "", 0, NULL, 0),
			 EV_EINVAL);
	assert_int_equal(evi_header_add(h, 5, -2, "", 0, NULL, 0), EV_EINVAL);
	assert_int_equal(evi_header_add(h, 6, 100000, "", 0, NULL, 0),
			 EV_EINVAL);
	assert_int_equal(evi_header_add(h, 7, INT32_MIN, "", 0, NULL, 0),
			 EV_EINVAL);
	assert_int_equal(ev_header_count(h), 3);
	assert_null(ev_header_find(h, 4));
	assert_int_equal(ev_header_find(h, 2)->size, 65534);
	assert_int_equal(ev_header_find(h, 2)->wire_size, 65534);
	/* A rejected id can still be declared with a valid size. */
	add(h, 4, 65534, "ok now");
	evi_header_free(h);
}

static void test_many_types(void **state)
{
	(void)state;
	ev_header *h = new_header();
	char desc[16];

	/* Every 97th id over the whole range: many lookup pages, growth. */
	for (uint32_t id = 0, n = 0; id <= 0xffff; id += 97, n++) {
		int len = snprintf(desc, sizeof desc, "t%u", id);
		assert_int_equal(evi_header_add(h, (uint16_t)id, (int32_t)(n % 50),
					       desc, (uint32_t)len, NULL, 0),
				 EV_OK);
	}
	assert_int_equal(ev_header_count(h), 0xffff / 97 + 1);
	for (uint32_t id = 0, n = 0; id <= 0xffff; id++) {
		const ev_type_decl *t = ev_header_find(h, (uint16_t)id);
		if (id % 97) {
			assert_null(t);
			continue;
		}
		assert_non_null(t);
		assert_ptr_equal(t, ev_header_at(h, n));
		assert_int_equal(t->size, (int32_t)(n % 50));
		snprintf(desc, sizeof desc, "t%u", id);
		assert_string_equal(t->desc, desc);
		n++;
	}
	evi_header_free(h);
}

/* ------------------------------------------------------------------------
 * Encoding
 * ---------------------------------------------------------------------- */

static void test_encode_exact_bytes(void **state)
{
	(void)state;
	ev_header *h = new_header();
	static const uint8_t extra[] = { 0xab, 0xcd };
	static const uint8_t want[] = {
		'h', 'd', 'r', 'b', 'h', 'e', 't', 'b',
		/* id 1, size 4, "Run", no extra */
		'e', 't', 'b', 0, 0x00, 0x01, 0x00, 0x04,
		0, 0, 0, 3, 'R', 'u', 'n', 0, 0, 0, 0,
		'e', 't', 'e', 0,
		/* id 300, variable, "X", extra ab cd */
		'e', 't', 'b', 0, 0x01, 0x2c, 0xff, 0xff,
		0, 0, 0, 1, 'X', 0, 0, 0, 2, 0xab, 0xcd,
		'e', 't', 'e', 0,
		/* id 0xfffe, size 65534, empty description */
		'e', 't', 'b', 0, 0xff, 0xfe, 0xff, 0xfe,
		0, 0, 0, 0, 0, 0, 0, 0,
		'e', 't', 'e', 0,
		'h', 'e', 't', 'e', 'h', 'd', 'r', 'e', 'd', 'a', 't', 'b',
	};
	size_t len;
	uint8_t *bytes;

	add(h, 1, 4, "Run");
	assert_int_equal(evi_header_add(h, 300, VAR, "X", 1, extra, 2), EV_OK);
	add(h, 0xfffe, 65534, "");
	assert_int_equal(evi_header_encoded_size(h), sizeof want);
	bytes = encode(h, &len);
	assert_int_equal(len, sizeof want);
	assert_memory_equal(bytes, want, sizeof want);
	free(bytes);
	evi_header_free(h);
}

static void test_encode_empty(void **state)
{
	(void)state;
	ev_header *h = new_header();
	size_t len;
	uint8_t *bytes = encode(h, &len);

	assert_int_equal(len, 20);
	assert_memory_equal(bytes, "hdrbhetbhetehdredatb", 20);
	free(bytes);
	evi_header_free(h);
}

static void test_copy_is_deep_and_equal(void **state)
{
	(void)state;
	ev_header *h = new_header(), *copy = NULL;
	static const uint8_t extra[] = { 1, 2, 3, 4 };
	size_t len_h, len_c;
	uint8_t *bytes_h, *bytes_c;

	add(h, 19, VAR, "User message");
	add(h, 2, 10, "Stop thread");
	assert_int_equal(evi_header_add(h, 4000, 12, "Custom", 6, extra, 4),
			 EV_OK);
	assert_int_equal(evi_header_copy(&copy, h), EV_OK);
	assert_non_null(copy);
	assert_int_equal(ev_header_count(copy), 3);
	for (size_t i = 0; i < 3; i++) {
		const ev_type_decl *a = ev_header_at(h, i);
		const ev_type_decl *b = ev_header_at(copy, i);
		assert_int_equal(a->id, b->id);
		assert_int_equal(a->size, b->size);
		assert_int_equal(a->wire_size, b->wire_size);
		assert_int_equal(a->desc_len, b->desc_len);
		assert_int_equal(a->extra_len, b->extra_len);
		assert_ptr_not_equal(a->desc, b->desc);
		assert_memory_equal(a->desc, b->desc, a->desc_len + 1);
		if (a->extra_len) {
			assert_ptr_not_equal(a->extra, b->extra);
			assert_memory_equal(a->extra, b->extra, a->extra_len);
		}
	}
	bytes_h = encode(h, &len_h);
	bytes_c = encode(copy, &len_c);
	assert_int_equal(len_h, len_c);
	assert_memory_equal(bytes_h, bytes_c, len_h);

	/* Changing or freeing the original leaves the copy as it was. */
	add(h, 5, 0, "more");
	assert_int_equal(ev_header_count(copy), 3);
	assert_null(ev_header_find(copy, 5));
	evi_header_free(h);
	free(bytes_c);
	bytes_c = encode(copy, &len_c);
	assert_int_equal(len_h, len_c);
	assert_memory_equal(bytes_h, bytes_c, len_h);
	assert_string_equal(ev_header_find(copy, 4000)->desc, "Custom");

	free(bytes_h);
	free(bytes_c);
	evi_header_free(copy);
}

static void test_copy_empty(void **state)
{
	(void)state;
	ev_header *h = new_header(), *copy = NULL;

	assert_int_equal(evi_header_copy(&copy, h), EV_OK);
	assert_non_null(copy);
	assert_int_equal(ev_header_count(copy), 0);
	evi_header_free(copy);
	evi_header_free(h);
}

/* ------------------------------------------------------------------------
 * The GHC 6.12 quirk (doc/format.md section 4)
 * ---------------------------------------------------------------------- */

/* The sizes GHC 6.12.1 declared (corpus/queens-ghc-6.12.1.eventlog) and
 * the payload sizes it actually wrote. */
static const struct {
	uint16_t id;
	int32_t declared;
	int32_t written;
} ghc612[] = {
	{ 0, 8, 4 },   { 1, 8, 4 },   { 2, 10, 6 },  { 3, 8, 4 },
	{ 4, 10, 6 },  { 5, 8, 4 },   { 6, 10, 6 },  { 7, 0, 0 },
	{ 8, 10, 6 },  { 9, 0, 0 },   { 10, 0, 0 },  { 11, 0, 0 },
	{ 12, 0, 0 },  { 15, 8, 4 },  { 16, VAR, VAR }, { 17, 0, 2 },
	{ 18, 14, 14 }, { 19, VAR, VAR },
};

static void check_ghc612(const ev_header *h)
{
	assert_int_equal(evi_header_quirks(h), EVI_QUIRK_GHC612);
	assert_int_equal(ev_header_count(h), ARRAY_LEN(ghc612));
	for (size_t i = 0; i < ARRAY_LEN(ghc612); i++) {
		const ev_type_decl *t = ev_header_find(h, ghc612[i].id);
		assert_non_null(t);
		assert_int_equal(t->size, ghc612[i].declared);
		assert_int_equal(t->wire_size, ghc612[i].written);
	}
}

static void test_ghc612_quirk(void **state)
{
	(void)state;
	ev_header *h = new_header();

	for (size_t i = 0; i < ARRAY_LEN(ghc612); i++)
		add(h, ghc612[i].id, ghc612[i].declared, "d");
	check_ghc612(h);
	evi_header_free(h);
}

static void test_ghc612_quirk_applies_to_types_added_before(void **state)
{
	(void)state;
	ev_header *h = new_header();

	/* Descending order: every other type is declared before id 0. */
	for (size_t i = ARRAY_LEN(ghc612); i-- > 0;) {
		add(h, ghc612[i].id, ghc612[i].declared, "d");
		if (ghc612[i].id != 0)
			assert_int_equal(evi_header_quirks(h), 0);
	}
	check_ghc612(h);
	evi_header_free(h);
}

static void test_ghc612_quirk_survives_copy(void **state)
{
	(void)state;
	ev_header *h = new_header(), *copy = NULL;
	size_t len;
	uint8_t *bytes;

	for (size_t i = 0; i < ARRAY_LEN(ghc612); i++)
		add(h, ghc612[i].id, ghc612[i].declared, "d");
	assert_int_equal(evi_header_copy(&copy, h), EV_OK);
	check_ghc612(copy);
	/* The encoding keeps the declared sizes, not the written ones. */
	bytes = encode(copy, &len);
	assert_int_equal(len, 20 + ARRAY_LEN(ghc612) * (20 + 1));
	for (size_t i = 0; i < ARRAY_LEN(ghc612); i++) {
		const uint8_t *entry = bytes + 8 + i * 21;
		assert_memory_equal(entry, "etb\0", 4);
		assert_int_equal(entry[4] << 8 | entry[5], ghc612[i].id);
		assert_int_equal((int16_t)(entry[6] << 8 | entry[7]),
				 ghc612[i].declared);
	}
	free(bytes);
	evi_header_free(copy);
	evi_header_free(h);
}

static void test_ghc612_quirk_other_types_unchanged(void **state)
{
	(void)state;
	ev_header *h = new_header();

	add(h, 0, 8, "Create thread");
	/* Types that are not thread events keep their size; a thread event
	 * declared too small to hold a thread id is left alone; STARTUP is
	 * corrected only from 0. */
	add(h, 7, 3, "Shutdown");
	add(h, 44, VAR, "Thread label");
	add(h, 45, 2, "Cap create");
	add(h, 53, 58, "GC stats");
	add(h, 1, 2, "Run thread (odd)");
	add(h, 300, 8, "Custom");
	assert_int_equal(evi_header_quirks(h), EVI_QUIRK_GHC612);
	assert_int_equal(ev_header_find(h, 0)->wire_size, 4);
	assert_int_equal(ev_header_find(h, 7)->wire_size, 3);
	assert_int_equal(ev_header_find(h, 44)->wire_size, VAR);
	assert_int_equal(ev_header_find(h, 45)->wire_size, 2);
	assert_int_equal(ev_header_find(h, 53)->wire_size, 58);
	assert_int_equal(ev_header_find(h, 1)->wire_size, 2);
	assert_int_equal(ev_header_find(h, 300)->wire_size, 8);
	evi_header_free(h);

	h = new_header();
	add(h, 17, 2, "Startup");
	add(h, 0, 8, "Create thread");
	assert_int_equal(ev_header_find(h, 17)->wire_size, 2);
	evi_header_free(h);

	h = new_header();
	add(h, 0, 8, "Create thread");
	add(h, 17, 4, "Startup (larger)");
	assert_int_equal(ev_header_find(h, 17)->wire_size, 4);
	evi_header_free(h);
}

static void test_no_quirk_with_modern_create_thread(void **state)
{
	(void)state;
	ev_header *h = new_header();

	for (size_t i = 0; i < ARRAY_LEN(ghc612); i++)
		add(h, ghc612[i].id,
		    ghc612[i].id == 0 ? 4 : ghc612[i].declared, "d");
	assert_int_equal(evi_header_quirks(h), 0);
	for (size_t i = 0; i < ev_header_count(h); i++) {
		const ev_type_decl *t = ev_header_at(h, i);
		assert_int_equal(t->wire_size, t->size);
	}
	evi_header_free(h);

	/* No CREATE_THREAD at all: no quirk either. */
	h = new_header();
	add(h, 1, 8, "Run thread");
	add(h, 17, 0, "Startup");
	assert_int_equal(evi_header_quirks(h), 0);
	assert_int_equal(ev_header_find(h, 1)->wire_size, 8);
	assert_int_equal(ev_header_find(h, 17)->wire_size, 0);
	evi_header_free(h);
}

/* ------------------------------------------------------------------------
 * Round trip through the reader, and real headers
 * ---------------------------------------------------------------------- */

static void test_encoded_header_reads_back(void **state)
{
	(void)state;
	ev_header *h = new_header();
	static const uint8_t extra[] = { 0, 0xff, 0x10 };
	size_t len;
	uint8_t *bytes;
	ev_reader *r = NULL;
	ev_event ev;

	add(h, 0, 4, "Create thread");
	assert_int_equal(evi_header_add(h, 1000, VAR, "Custom", 6, extra, 3),
			 EV_OK);
	add(h, 0xfffe, 65534, "Big");
	len = evi_header_encoded_size(h);
	bytes = malloc(len + 2);
	assert_non_null(bytes);
	evi_header_encode(h, bytes);
	bytes[len] = 0xff; /* data end */
	bytes[len + 1] = 0xff;
	assert_int_equal(ev_reader_open_memory(&r, bytes, len + 2, "mem", 0,
					       NULL),
			 EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	const ev_header *back = ev_reader_header(r);
	assert_non_null(back);
	assert_int_equal(ev_header_count(back), 3);
	for (size_t i = 0; i < 3; i++) {
		const ev_type_decl *a = ev_header_at(h, i);
		const ev_type_decl *b = ev_header_at(back, i);
		assert_int_equal(a->id, b->id);
		assert_int_equal(a->size, b->size);
		assert_int_equal(a->desc_len, b->desc_len);
		assert_memory_equal(a->desc, b->desc, a->desc_len);
		assert_int_equal(a->extra_len, b->extra_len);
		if (a->extra_len)
			assert_memory_equal(a->extra, b->extra, a->extra_len);
	}
	assert_int_equal(ev_reader_offset(r), len);
	assert_int_equal(ev_reader_next(r, &ev), EV_END);
	ev_reader_free(r);
	free(bytes);
	evi_header_free(h);
}

struct encode_check {
	size_t logs;
};

/* A real header, read and re-encoded, gives back its exact bytes. */
static void check_reencode(const char *path, void *ctx)
{
	struct encode_check *check = ctx;
	size_t len = 0;
	uint8_t *log = ts_read_file(path, &len);
	ts_log walk;
	ev_reader *r = NULL;

	assert_non_null(log);
	assert_true(ts_walk(log, len, &walk));
	assert_true(walk.header_end > 0);
	assert_int_equal(ev_reader_open_memory(&r, log, len, path, 0,
					       NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	const ev_header *h = ev_reader_header(r);
	assert_int_equal(evi_header_encoded_size(h), walk.header_end);
	uint8_t *bytes = malloc(walk.header_end);
	assert_non_null(bytes);
	assert_int_equal(evi_header_encode(h, bytes), walk.header_end);
	assert_memory_equal(bytes, log, walk.header_end);
	assert_int_equal(evi_header_quirks(h),
			 strstr(path, "ghc-6.12") ? EVI_QUIRK_GHC612 : 0);
	free(bytes);
	ev_reader_free(r);
	ts_log_free(&walk);
	free(log);
	check->logs++;
}

static void test_real_headers_reencode(void **state)
{
	(void)state;
	struct encode_check check = { 0 };

	assert_true(ts_for_each_log(EVTOOL_TESTDATA, check_reencode, &check) >=
		    12);
	ts_for_each_log(EVTOOL_CORPUS, check_reencode, &check);
	assert_true(check.logs >= 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_is_empty),
		cmocka_unit_test(test_add_find_at_count),
		cmocka_unit_test(test_desc_is_copied_and_terminated),
		cmocka_unit_test(test_duplicate_id_is_einval),
		cmocka_unit_test(test_size_range),
		cmocka_unit_test(test_many_types),
		cmocka_unit_test(test_encode_exact_bytes),
		cmocka_unit_test(test_encode_empty),
		cmocka_unit_test(test_copy_is_deep_and_equal),
		cmocka_unit_test(test_copy_empty),
		cmocka_unit_test(test_ghc612_quirk),
		cmocka_unit_test(test_ghc612_quirk_applies_to_types_added_before),
		cmocka_unit_test(test_ghc612_quirk_survives_copy),
		cmocka_unit_test(test_ghc612_quirk_other_types_unchanged),
		cmocka_unit_test(test_no_quirk_with_modern_create_thread),
		cmocka_unit_test(test_encoded_header_reads_back),
		cmocka_unit_test(test_real_headers_reencode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
