/* Unit tests for the idmap (lib/common/idmap.h): adding and removing keys
 * in a pseudo-random order against a plain array of the keys that should
 * be present, so that removal's moves (the probe run shifted back, the
 * last entry moved into the hole) keep every key reachable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "evtool/common.h"
#include "idmap.h"

#define KEYS 600u

/* Every key of `present` is found at a position holding it and its
 * value; every other key is absent. */
static void check(const evi_idmap *m, const int *present)
{
	size_t n = 0;

	for (uint64_t k = 0; k < KEYS; k++) {
		size_t i = evi_idmap_index(m, k * 64);
		uint64_t v;
		if (!present[k]) {
			assert_int_equal(i, SIZE_MAX);
			assert_false(evi_idmap_get(m, k * 64, &v));
			continue;
		}
		n++;
		assert_true(i < m->count);
		assert_int_equal(m->keys[i], k * 64);
		assert_true(evi_idmap_get(m, k * 64, &v));
		assert_int_equal(v, k + 1);
	}
	assert_int_equal(m->count, n);
}

static void test_add_remove(void **state)
{
	static int present[KEYS];
	evi_idmap m = { 0 };
	uint32_t seed = 12345;

	(void)state;
	memset(present, 0, sizeof present);
	assert_int_equal(evi_idmap_remove(&m, 7), SIZE_MAX);
	for (unsigned step = 0; step < 20000; step++) {
		uint64_t k;
		seed = seed * 1103515245u + 12345u;
		k = (seed >> 8) % KEYS;
		if (present[k]) {
			size_t last = m.count - 1;
			size_t at = evi_idmap_remove(&m, k * 64);
			assert_true(at <= last);
			/* The entry that was last now sits where k was. */
			if (at != last)
				assert_int_equal(evi_idmap_index(&m, m.keys[at]),
						 at);
			present[k] = 0;
		} else {
			int added;
			assert_int_equal(evi_idmap_add(&m, k * 64, k + 1,
						       KEYS, &added), EV_OK);
			assert_true(added);
			present[k] = 1;
		}
		if (step % 97 == 0)
			check(&m, present);
	}
	check(&m, present);
	for (uint64_t k = 0; k < KEYS; k++)
		if (present[k])
			assert_int_not_equal(evi_idmap_remove(&m, k * 64),
					     SIZE_MAX);
	assert_int_equal(m.count, 0);
	memset(present, 0, sizeof present);
	check(&m, present);
	evi_idmap_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_remove),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
