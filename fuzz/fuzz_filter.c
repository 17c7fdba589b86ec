/*
 * Fuzz target: ev_filter_run.
 *
 * Input layout: 8 control bytes, then the log. Byte 0 says which
 * selectors to set (bit 0 class, 1 type, 2 cap, 3 thread, 4 time window,
 * 5 marker window, 6 redaction, 7 metadata not kept), byte 1 which of
 * them exclude, bytes 2-7 their values. The input is a file, so
 * the log is written to an unlinked temporary file named by descriptor.
 * What a successful run writes must read back as a complete log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evtool/filter.h"
#include "evtool/reader.h"
#include "evtool/writer.h"
#include "fuzz.h"

#define CONTROL_BYTES 8

static const char *const classes[] = { "s", "g", "p", "f", "u", "n",
				       "T", "gc", "sgu", "heap-profile",
				       "bogus", "" };
static const char *const marker_patterns[] = { "*", "start*", "[a-z]*",
					       "", "x", "?" };

/* Writes the log to a temporary file that is unlinked at once, and
 * names it by its descriptor ("/proc/self/fd/N", which reopens the same
 * file on Linux), so that no file is left behind even when an input
 * crashes the target. Returns the descriptor, to close afterwards. */
static int write_temp(const uint8_t *data, size_t size, char *path,
		      size_t path_len)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(path, path_len, "%s/evtool-fuzz-filter-XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	while (size > 0) {
		ssize_t n = write(fd, data, size);

		if (n <= 0) {
			close(fd);
			return -1;
		}
		data += n;
		size -= (size_t)n;
	}
	snprintf(path, path_len, "/proc/self/fd/%d", fd);
	return fd;
}

static void configure(ev_filter *f, const uint8_t *c)
{
	char text[64];
	unsigned sel = c[0], excl = c[1];

	if (sel & 1)
		(void)ev_filter_add(f, EV_FILTER_CLASS,
				    classes[c[2] % (sizeof classes /
						    sizeof *classes)],
				    excl & 1);
	if (sel & 2) {
		snprintf(text, sizeof text, "%u,%u-%u", c[2], c[3] & 31,
			 (c[3] >> 3) + 8);
		(void)ev_filter_add(f, EV_FILTER_TYPE, text, (excl >> 1) & 1);
	}
	if (sel & 4) {
		if (c[4] & 0x80)
			snprintf(text, sizeof text, "global,%u", c[4] & 3);
		else
			snprintf(text, sizeof text, "%u-%u", c[4] & 7,
				 (c[4] >> 3) & 15);
		(void)ev_filter_add(f, EV_FILTER_CAP, text, (excl >> 2) & 1);
	}
	if (sel & 8) {
		snprintf(text, sizeof text, "%u,%u-%u", c[5] & 15, c[5] >> 4,
			 (c[5] >> 4) + 3);
		(void)ev_filter_add(f, EV_FILTER_THREAD, text, (excl >> 3) & 1);
	}
	if (sel & 16) {
		char from[32], to[32];

		snprintf(from, sizeof from, "%uus", (unsigned)c[6] * 50);
		snprintf(to, sizeof to, "%s%ums", (c[6] & 1) ? "@" : "",
			 (unsigned)(c[6] >> 1) + 1);
		(void)ev_filter_set_time(f, (c[6] & 2) ? NULL : from,
					 (c[6] & 4) ? NULL : to,
					 (excl >> 4) & 1);
	}
	if (sel & 32) {
		size_t n = sizeof marker_patterns / sizeof *marker_patterns;

		(void)ev_filter_set_markers(f, marker_patterns[c[7] % n],
					    marker_patterns[(c[7] >> 4) % n],
					    (excl >> 5) & 1);
	}
	if (sel & 64) {
		(void)ev_filter_set_redact(f, (excl & 64) ? "args,env" : "env");
		if (c[7] & 8)
			(void)ev_filter_add(f, EV_FILTER_CAPSET, "0",
					    (excl >> 7) & 1);
		if (c[7] & 4)
			(void)ev_filter_add(f, EV_FILTER_PROCESS, "1-100000",
					    0);
	}
	if (sel & 128)
		ev_filter_set_metadata(f, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ev_filter_options o = EV_FILTER_OPTIONS_INIT;
	const ev_filter_stats *stats;
	ev_input *in = NULL;
	ev_filter *f = NULL;
	ev_sink *sink = NULL;
	char path[4096];
	int fd, rc;

	if (size < CONTROL_BYTES)
		return 0;
	fd = write_temp(data + CONTROL_BYTES, size - CONTROL_BYTES, path,
			sizeof path);
	if (fd < 0)
		return 0;
	/* Small output blocks exercise the re-blocking. */
	o.max_block_size = (data[1] & 0x80) ? 256 : 0;
	if (ev_filter_new(&f, &o, NULL) < 0 ||
	    ev_sink_open_memory(&sink, NULL) < 0 ||
	    ev_input_open(&in, path, NULL) < 0)
		goto done;
	configure(f, data);
	rc = ev_filter_run(f, in, sink);
	stats = ev_filter_result(f);
	FUZZ_CHECK_STATUS(rc);
	if (rc == EV_OK || rc == EV_ETRUNCATED) {
		size_t len;
		const uint8_t *out = ev_sink_memory(sink, &len);
		ev_reader *r;
		ev_event ev;
		uint64_t events = 0;

		FUZZ_ASSERT(stats->events_written <= stats->events_read);
		if (ev_reader_open_memory(&r, out, len, "filtered",
					  EV_READER_RAW, NULL) == EV_OK) {
			for (;;) {
				while ((rc = ev_reader_next(r, &ev)) == EV_OK)
					if (!fuzz_is_marker(ev.type, ev.size))
						events++;
				FUZZ_ASSERT(rc == EV_END);
				rc = ev_reader_next_session(r);
				if (rc == EV_END)
					break;
				FUZZ_ASSERT(rc == EV_OK);
			}
			FUZZ_ASSERT(events == stats->events_written);
			ev_reader_free(r);
		}
	} else {
		(void)ev_filter_diag(f)->message[0];
	}
done:
	ev_input_free(in);
	ev_sink_free(sink);
	ev_filter_free(f);
	close(fd);
	return 0;
}
