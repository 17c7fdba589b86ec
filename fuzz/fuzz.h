/*
 * What the fuzz targets share. Each target defines LLVMFuzzerTestOneInput;
 * it is linked either with libFuzzer (EVTOOL_FUZZ=ON, clang) or with
 * driver.c, which replays corpus files as an ordinary test.
 *
 * A target must not leak, must not keep state between inputs and must
 * leave no files behind: the sanitizer build checks the first, the
 * driver test runs every corpus file through one process.
 */
#ifndef EVTOOL_FUZZ_H
#define EVTOOL_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A status a public function returned must be one of the documented
 * codes; anything else is a bug worth a crash report. */
#define FUZZ_CHECK_STATUS(rc)                                             \
	do {                                                              \
		int fuzz_rc_ = (rc);                                      \
		if (fuzz_rc_ > 1 || fuzz_rc_ < -6)                        \
			__builtin_trap();                                 \
	} while (0)

#define FUZZ_ASSERT(cond)                                                 \
	do {                                                              \
		if (!(cond))                                              \
			__builtin_trap();                                 \
	} while (0)

/* A real block marker: what the library writes and counts as one. A
 * type-18 event of another declared size is an ordinary event (the
 * reader attributes no block to it), as doc/format.md section 2 implies: the
 * marker's payload is 14 bytes. */
static inline int fuzz_is_marker(uint16_t type, uint32_t size)
{
	return type == 18 && size >= 14;
}

#endif
