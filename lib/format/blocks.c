/*
 * The parallel front end's first pass and its workers (blocks.h): maps a
 * plain log, finds its blocks by their markers, and runs a pass over the
 * blocks on the threading layer.
 *
 * Layering: blocks.c -> reader.c (the header, the unread descriptor),
 * wire.c, lib/common/pool.c.
 */
#define _DEFAULT_SOURCE /* madvise */
#include "blocks.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evtool/catalog.h"
#include "internal.h"
#include "pool.h"
#include "source.h"

void evi_blocks_free(evi_blocks *b)
{
	if (!b)
		return;
	ev_reader_free(b->header_reader);
	if (b->map)
		munmap((void *)b->map, b->len);
	free(b->spans);
	free(b);
}

/* Maps the regular file `fd` whole, from its start; 0 when it is no such
 * file (or empty, or not at its start). */
static int map_file(evi_blocks *b, int fd)
{
	struct stat st;
	void *map;

	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size <= 0 || (uint64_t)st.st_size > SIZE_MAX ||
	    lseek(fd, 0, SEEK_CUR) != 0)
		return 0;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return 0;
	b->map = map;
	b->len = (size_t)st.st_size;
	posix_madvise(map, b->len, POSIX_MADV_WILLNEED);
	return 1;
}

/* A plain log whose header parses (gzip and bad headers are the
 * sequential path's): the header, and the offset where events start. */
static int read_header(evi_blocks *b, const char *name, uint64_t *start)
{
	if (b->len >= 2 && b->map[0] == 0x1f && b->map[1] == 0x8b)
		return 0;
	if (ev_reader_open_memory(&b->header_reader, b->map, b->len, name,
				  EV_READER_RAW, NULL) < 0 ||
	    ev_reader_read_header(b->header_reader) < 0)
		return 0;
	b->header = ev_reader_header(b->header_reader);
	evi_wire_table_init(&b->wire, b->header);
	*start = ev_reader_offset(b->header_reader);
	return evi_wire_size(&b->wire, EV_BLOCK_MARKER) ==
	       (int32_t)EVI_BLOCK_PAYLOAD;
}

/* Linux maps up to this much of a file around each page fault (its
 * fault_around_bytes): reading a block maps some of its neighbours'. */
#define FAULT_AROUND (64u * 1024u)

/* Lets the mapped pages of [p, p + n), and those the kernel mapped
 * around them, go: read once, they would otherwise stay in the process's
 * memory (its resident size) to the end, whatever the log's size. The
 * page cache keeps them; a worker still reading one faults it in again. */
static void release(void *ctx, const uint8_t *p, size_t n)
{
	const evi_blocks *b = ctx;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	size_t at = (size_t)(p - b->map), end = at + n;
	uintptr_t from, to;

	at = at > FAULT_AROUND ? at - FAULT_AROUND : 0;
	end = b->len - end > FAULT_AROUND ? end + FAULT_AROUND : b->len;
	from = ((uintptr_t)b->map + at) & ~(page - 1); /* the map is aligned */
	to = ((uintptr_t)b->map + end) & ~(page - 1);
	if (end == b->len)
		to = ((uintptr_t)b->map + end + page - 1) & ~(page - 1);
	if (to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
}

static int add_span(evi_blocks *b, size_t *cap, uint64_t at)
{
	const uint8_t *p = b->map + at;

	if (evi_grow((void **)&b->spans, cap, b->n + 1, sizeof *b->spans) < 0)
		return EV_ENOMEM;
	b->spans[b->n].offset = at;
	b->spans[b->n].size = ev_load32(p + EVI_EVENT_HEADER);
	b->spans[b->n].cap = ev_load16(p + EVI_EVENT_HEADER + 12);
	if (b->spans[b->n].size > b->max_block)
		b->max_block = b->spans[b->n].size;
	if (ev_load64(p + EVI_EVENT_HEADER + 4) > b->end_time)
		b->end_time = ev_load64(p + EVI_EVENT_HEADER + 4);
	b->n++;
	return EV_OK;
}

/* Hops from marker to marker: EV_OK when they tile the data up to a
 * data-end marker that ends the file, EV_END when they do not. */
static int find_blocks(evi_blocks *b, uint64_t at)
{
	size_t cap = 0;
	int rc;

	while (b->len - at >= 2) {
		uint16_t type = ev_load16(b->map + at);
		uint32_t size;

		if (type == EVI_DATA_END) {
			b->data_end = at;
			return at + 2 == b->len ? EV_OK : EV_END;
		}
		if (type != EV_BLOCK_MARKER || b->len - at < EVI_BLOCK_EVENT)
			return EV_END;
		size = ev_load32(b->map + at + EVI_EVENT_HEADER);
		if (size < EVI_BLOCK_EVENT || size > b->len - at)
			return EV_END;
		if ((rc = add_span(b, &cap, at)) < 0)
			return rc;
		release(b, b->map + at, EVI_BLOCK_EVENT);
		at += size;
	}
	return EV_END;
}

int evi_blocks_open(evi_blocks **out, ev_reader *r)
{
	evi_blocks *b = calloc(1, sizeof *b);
	uint64_t start;
	int rc = EV_END;

	*out = NULL;
	if (!b)
		return EV_ENOMEM;
	b->fd = evi_reader_unread_fd(r, &b->digest_wanted);
	if (map_file(b, b->fd) &&
	    read_header(b, ev_reader_name(r), &start))
		rc = find_blocks(b, start);
	if (rc != EV_OK) {
		evi_blocks_free(b);
		return rc;
	}
	*out = b;
	return EV_OK;
}

int evi_blocks_resume(const evi_blocks *b, size_t block, uint64_t index,
		      ev_reader **out)
{
	uint64_t at = block < b->n ? b->spans[block].offset : b->data_end;
	int rc = ev_reader_open_memory(out, b->map, b->len,
				       ev_reader_name(b->header_reader),
				       EV_READER_RAW, NULL);

	if (rc == EV_OK && (rc = ev_reader_read_header(*out)) == EV_OK)
		rc = evi_reader_resume_at(*out, at, index, block);
	if (rc < 0) {
		ev_reader_free(*out);
		*out = NULL;
	}
	return rc;
}

void evi_blocks_release(const evi_blocks *b, size_t block)
{
	release((void *)b, b->map + b->spans[block].offset,
		b->spans[block].size);
}

/* ---- the pass over the blocks ---- */

typedef struct blocks_pass {
	const evi_blocks *b;
	int (*work)(void *ctx, size_t block, unsigned worker);
	void *ctx;
	atomic_size_t next;
	atomic_int stop;
} blocks_pass;

/* One worker: the next block not taken, until none is left or a block
 * failed. */
static int take_blocks(void *ctx, unsigned slot, unsigned worker)
{
	blocks_pass *pass = ctx;
	size_t i;
	int rc;

	(void)worker; /* the pool's; the job's own index is `slot` */
	while (!atomic_load_explicit(&pass->stop, memory_order_relaxed) &&
	       (i = atomic_fetch_add(&pass->next, 1)) < pass->b->n) {
		if ((rc = pass->work(pass->ctx, i, slot)) < 0) {
			atomic_store(&pass->stop, 1);
			return rc;
		}
		evi_blocks_release(pass->b, i);
	}
	return EV_OK;
}

int evi_blocks_run(const evi_blocks *b, unsigned threads,
		   int (*work)(void *ctx, size_t block, unsigned worker),
		   void *ctx, int (*alongside)(void *, unsigned, unsigned),
		   void *alongside_ctx)
{
	blocks_pass pass = { b, work, ctx, 0, 0 };
	evi_job *jobs;
	evi_pool *pool;
	unsigned n = threads ? threads : 1, extra = alongside ? 1 : 0;
	int rc = EV_OK, one;

	if (!(jobs = calloc(n + extra, sizeof *jobs)))
		return EV_ENOMEM;
	/* `threads` in all: the one that hashes alongside takes blocks
	 * once it is done. */
	if (evi_pool_new(&pool, n) < 0) {
		free(jobs);
		return EV_ENOMEM;
	}
	for (unsigned i = 0; i < n + extra; i++) {
		int side = alongside && i == 0;
		jobs[i].work = side ? alongside : take_blocks;
		jobs[i].ctx = side ? alongside_ctx : &pass;
		jobs[i].slot = side ? 0 : i - extra;
		evi_pool_submit(pool, &jobs[i]);
	}
	for (unsigned i = 0; i < n + extra; i++)
		if ((one = evi_pool_wait(pool, &jobs[i])) < 0 && rc == EV_OK)
			rc = one;
	evi_pool_free(pool);
	free(jobs);
	return rc;
}
