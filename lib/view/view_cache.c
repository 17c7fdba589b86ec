/*
 * A complete index of `evtool view` kept in a file (include/evtool/
 * view.h, ev_view_index_save / _load), so that a log opened again is not
 * read again: the index's rows, heaps (the whole's and each process's),
 * threads, texts, thread rows, spans and bands as they are in memory (native byte order: a cache is this machine's), after a
 * header naming the build's layout and the log it was made from (its
 * size, modification time and a digest of its first and last bytes). A
 * file made by another build or from another state of the log is not
 * used; a damaged one is refused by the bounds every count is checked
 * against, never trusted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evtool/stats_spans.h"
#include "hash.h"
#include "internal.h"
#include "view_internal.h"

#define MAGIC "EVVIEW\0\4"
#define ORDER 0x01020304u
/* Bytes of the log's start and end the digest covers. */
#define DIGEST_BYTES (1u << 20)

/* ---- the log's identity ---- */

static uint64_t digest_at(int fd, uint64_t at, uint64_t len, uint64_t seed,
			  int *failed)
{
	uint8_t buf[65536];

	while (len > 0) {
		size_t want = len < sizeof buf ? (size_t)len : sizeof buf;
		ssize_t n = pread(fd, buf, want, (off_t)at);
		if (n <= 0) {
			*failed = 1;
			return seed;
		}
		seed = evi_hash_bytes(buf, (size_t)n, seed);
		at += (uint64_t)n;
		len -= (uint64_t)n;
	}
	return seed;
}

int ev_view_log_id_of(int fd, ev_view_log_id *out)
{
	struct stat st;
	uint64_t size, head, tail;
	int failed = 0;

	memset(out, 0, sizeof *out);
	if (fstat(fd, &st) != 0)
		return EV_EIO;
	size = (uint64_t)st.st_size;
	head = size < DIGEST_BYTES ? size : DIGEST_BYTES;
	out->size = size;
	out->mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000u +
			(uint64_t)st.st_mtim.tv_nsec;
	tail = size - head < DIGEST_BYTES ? size - head : DIGEST_BYTES;
	out->digest = digest_at(fd, 0, head, size, &failed);
	out->digest = digest_at(fd, size - tail, tail, out->digest, &failed);
	return failed ? EV_EIO : EV_OK;
}

/* ---- writing ---- */

static void put(FILE *f, const void *p, size_t len)
{
	if (len)
		fwrite(p, 1, len, f);
}

static void put64(FILE *f, uint64_t v)
{
	put(f, &v, sizeof v);
}

/* A row: its state, then its buckets up to the log's last time (the
 * later ones are empty). */
static void put_row(FILE *f, const view_row *r, size_t used)
{
	view_row copy = *r;

	copy.b = NULL;
	put64(f, r->b != NULL);
	put(f, &copy, sizeof copy);
	if (r->b)
		put(f, r->b, used * sizeof *r->b);
}

static void put_threads(FILE *f, const ev_view_index *ix)
{
	put64(f, ix->thread_ids.count);
	put64(f, ix->threads_dropped);
	for (size_t i = 0; i < ix->thread_ids.count; i++) {
		ev_view_thread t = ix->threads[i];
		uint64_t label = UINT64_MAX;
		for (size_t k = 0; t.label && k < ix->n_texts; k++)
			if (ix->texts[k].text == t.label)
				label = k;
		t.label = NULL;
		put(f, &t, sizeof t);
		put64(f, label);
	}
}

static void put_texts(FILE *f, const ev_view_index *ix)
{
	put64(f, ix->n_texts);
	put64(f, ix->texts_dropped);
	for (size_t i = 0; i < ix->n_texts; i++) {
		const ev_view_text *t = &ix->texts[i];
		uint64_t len = strlen(t->text);
		put64(f, t->time);
		put64(f, (uint64_t)t->cap << 40 | (uint64_t)t->kind << 32 |
				 t->tid);
		put64(f, len);
		put(f, t->text, len);
	}
}

/* The buckets of a row of `len` up to the log's last time (`shift`: a
 * bucket's width; a block marker fills one more). */
static size_t used_of(const ev_view_index *ix, unsigned shift, size_t len)
{
	uint64_t last = ix->end >> shift;

	return last + 2 < len ? (size_t)last + 2 : len;
}

/* Each process's heap: its capset and its buckets. */
static void put_heaps(FILE *f, const ev_view_index *ix, size_t used)
{
	put64(f, ix->n_heaps);
	for (size_t i = 0; i < ix->n_heaps; i++) {
		put64(f, ix->heaps[i].capset);
		put(f, ix->heaps[i].h, used * sizeof *ix->heaps[i].h);
	}
}

/* The thread rows: their width, then each row's state and buckets. */
static void put_trows(FILE *f, const ev_view_index *ix)
{
	size_t used = used_of(ix, ix->shift + ix->tgap, ix->nb >> ix->tgap);

	put64(f, ix->tgap);
	put64(f, ix->trows_cap);
	for (size_t i = 0; i < ix->trows_cap; i++) {
		const view_trow *t = &ix->trows[i];
		put64(f, t->b != NULL);
		put64(f, t->since);
		put64(f, (uint64_t)t->state << 8 | t->reason);
		if (t->b)
			put(f, t->b, used * sizeof *t->b);
	}
}

/* The spans' names, in the pairing's order, then the spans. */
static void put_spans(FILE *f, const ev_view_index *ix)
{
	size_t names = ev_view_span_name_count(ix);

	put64(f, names);
	for (size_t i = 0; i < names; i++) {
		const char *name = ev_view_span_name(ix, i);
		put64(f, strlen(name));
		put(f, name, strlen(name));
	}
	put64(f, ix->n_spans);
	put64(f, ix->spans_dropped);
	for (size_t i = 0; i < ix->n_spans; i++) {
		const view_span *k = &ix->spans[i];
		put64(f, k->start);
		put64(f, k->duration);
		put64(f, (uint64_t)k->tid << 32 | k->name);
		put64(f, k->cap);
	}
}

int ev_view_index_save(const ev_view_index *ix, int fd,
		       const ev_view_log_id *id)
{
	int copy = dup(fd);
	FILE *f = copy >= 0 ? fdopen(copy, "wb") : NULL;
	uint32_t layout[5] = { ORDER, sizeof(view_bucket), sizeof(view_row),
			       sizeof(ev_view_thread), sizeof(view_tbucket) };
	uint64_t scalars[8] = { ix->nb, ix->shift, ix->n_rows, ix->n_used,
				ix->n_caps, ix->any, ix->start, ix->end };
	/* Buckets past the one of the last time are empty. */
	size_t used = used_of(ix, ix->shift, ix->nb);
	int bad;

	if (!f) {
		if (copy >= 0)
			close(copy);
		return EV_EIO;
	}
	put(f, MAGIC, 8);
	put(f, layout, sizeof layout);
	put(f, id, sizeof *id);
	put(f, scalars, sizeof scalars);
	put64(f, ix->data_offset);
	put64(f, ix->quirks);
	put64(f, used);
	put_row(f, &ix->global, used);
	for (size_t i = 0; i < ix->n_rows; i++)
		put_row(f, &ix->rows[i], used);
	put(f, ix->heap, used * sizeof *ix->heap);
	put_heaps(f, ix, used);
	put_texts(f, ix);
	put_threads(f, ix);
	put_trows(f, ix);
	put_spans(f, ix);
	evi_view_bands_save(ix->bands, f);
	evi_view_kept_save(ix, f);
	bad = ferror(f);
	if (fclose(f) != 0 || bad)
		return EV_EIO;
	return EV_OK;
}

/* ---- reading ---- */

typedef struct loader {
	FILE *f;
	int bad;
} loader;

static void get(loader *l, void *p, size_t len)
{
	if (!l->bad && len && fread(p, 1, len, l->f) != len)
		l->bad = 1;
}

static uint64_t get64(loader *l)
{
	uint64_t v = 0;

	get(l, &v, sizeof v);
	return l->bad ? 0 : v;
}

/* A count read, or `bad` set when it is past `max`. */
static uint64_t get_count(loader *l, uint64_t max)
{
	uint64_t v = get64(l);

	if (v > max)
		l->bad = 1;
	return l->bad ? 0 : v;
}

/* `n` zeroed entries of `size` bytes (NULL for none), or `bad` set. */
static void *get_array(loader *l, size_t n, size_t size)
{
	void *p = NULL;

	if (!l->bad && n && !(p = calloc(n, size)))
		l->bad = 1;
	return p;
}

static void get_row(loader *l, view_row *r, size_t nb, size_t used)
{
	uint64_t has = get_count(l, 1);

	get(l, r, sizeof *r);
	r->b = NULL;
	if (l->bad || !has)
		return;
	if (r->filled > nb || !(r->b = calloc(nb, sizeof *r->b))) {
		l->bad = 1;
		return;
	}
	get(l, r->b, used * sizeof *r->b);
}

static void get_texts(loader *l, ev_view_index *ix)
{
	size_t n = (size_t)get_count(l, 3 * (uint64_t)EV_VIEW_MAX_TEXTS);

	ix->texts_dropped = get64(l);
	ix->texts = get_array(l, n, sizeof *ix->texts);
	if (l->bad)
		return;
	ix->texts_cap = n;
	for (size_t i = 0; i < n && !l->bad; i++) {
		ev_view_text *t = &ix->texts[i];
		uint64_t packed, len;
		char *text;
		t->time = get64(l);
		packed = get64(l);
		len = get_count(l, EV_VIEW_TEXT_MAX);
		t->cap = (uint16_t)(packed >> 40);
		t->kind = (uint8_t)(packed >> 32 & 0xff);
		t->tid = (uint32_t)packed;
		if (l->bad || t->kind > EV_VIEW_LABEL ||
		    !(text = calloc(1, (size_t)len + 1))) {
			l->bad = 1;
			return;
		}
		get(l, text, (size_t)len);
		t->text = text;
		ix->n_texts++;
		ix->kind_count[t->kind]++;
		ix->text_bytes += (size_t)len + 1;
	}
}

static void get_threads(loader *l, ev_view_index *ix)
{
	size_t n = (size_t)get_count(l, EV_VIEW_MAX_THREADS);

	ix->threads_dropped = get64(l);
	ix->threads = get_array(l, n, sizeof *ix->threads);
	if (l->bad)
		return;
	ix->threads_cap = n;
	for (size_t i = 0; i < n && !l->bad; i++) {
		ev_view_thread *t = &ix->threads[i];
		uint64_t label;
		int added = 0;
		get(l, t, sizeof *t);
		label = get64(l);
		t->label = label < ix->n_texts ? ix->texts[label].text : NULL;
		if (l->bad || evi_view_thread_id_add(ix, t->tid, &added) < 0 ||
		    !added)
			l->bad = 1;
	}
}

static void get_heaps(loader *l, ev_view_index *ix, size_t used)
{
	size_t n = (size_t)get_count(l, EV_VIEW_MAX_HEAP_PROCS);

	ix->heaps = get_array(l, n ? EV_VIEW_MAX_HEAP_PROCS : 0,
			      sizeof *ix->heaps);
	if (l->bad)
		return;
	for (size_t i = 0; i < n && !l->bad; i++) {
		view_proc_heap *p = &ix->heaps[i];
		p->capset = (uint32_t)get_count(l, UINT32_MAX);
		if (l->bad || !(p->h = calloc(ix->nb, sizeof *p->h))) {
			l->bad = 1;
			return;
		}
		ix->n_heaps++;
		get(l, p->h, used * sizeof *p->h);
	}
}

/* The thread rows, no more buckets in all than the rows' budget
 * (view_threads.c keeps them within it). */
static void get_trows(loader *l, ev_view_index *ix)
{
	size_t len, used, n;

	ix->tgap = (unsigned)get_count(l, 16);
	n = (size_t)get_count(l, EV_VIEW_MAX_THREAD_ROWS);
	len = ix->nb >> ix->tgap;
	used = used_of(ix, ix->shift + ix->tgap, len);
	l->bad |= !len;
	ix->trows = get_array(l, n, sizeof *ix->trows);
	if (l->bad)
		return;
	ix->trows_cap = n;
	for (size_t i = 0; i < n && !l->bad; i++) {
		view_trow *t = &ix->trows[i];
		uint64_t has = get_count(l, 1), packed;
		t->since = get64(l);
		packed = get_count(l, 0xffff);
		t->state = (uint8_t)(packed >> 8);
		t->reason = (uint8_t)packed;
		if (l->bad || !has)
			continue;
		if ((ix->n_trows + 1) * len > EV_VIEW_THREAD_CELLS ||
		    !(t->b = calloc(len, sizeof *t->b))) {
			l->bad = 1;
			return;
		}
		ix->n_trows++;
		get(l, t->b, used * sizeof *t->b);
	}
}

/* The spans' names, given to a new pairing in their order, then the
 * spans, each of a name read. */
static void get_spans(loader *l, ev_view_index *ix)
{
	size_t names = (size_t)get_count(l, EV_STATS_MAX_SPAN_NAMES), n;
	char name[EV_STATS_MAX_SPAN_NAME + 1];

	if (l->bad || evi_view_spans_new(ix) < 0) {
		l->bad = 1;
		return;
	}
	for (size_t i = 0; i < names && !l->bad; i++) {
		size_t len = (size_t)get_count(l, EV_STATS_MAX_SPAN_NAME);
		get(l, name, len);
		name[len] = '\0';
		if (l->bad || strlen(name) != len ||
		    evi_view_spans_name(ix, name) < 0 ||
		    ev_view_span_name_count(ix) != i + 1)
			l->bad = 1;
	}
	n = (size_t)get_count(l, EV_VIEW_MAX_SPANS);
	ix->spans_dropped = get64(l);
	ix->spans = get_array(l, n, sizeof *ix->spans);
	if (l->bad)
		return;
	ix->spans_cap = n;
	for (size_t i = 0; i < n && !l->bad; i++) {
		view_span *k = &ix->spans[i];
		uint64_t packed;
		k->start = get64(l);
		k->duration = get64(l);
		packed = get64(l);
		k->cap = (uint16_t)get_count(l, EV_NO_CAP);
		k->tid = (uint32_t)(packed >> 32);
		k->name = (uint32_t)packed;
		if (!l->bad && k->name >= names)
			l->bad = 1;
		ix->n_spans += !l->bad;
	}
}

static int shape_ok(const ev_view_index *ix)
{
	return ix->nb >= EV_VIEW_MIN_ROW && ix->nb <= (1u << 16) &&
	       (ix->nb & (ix->nb - 1)) == 0 && ix->shift < 63 &&
	       ix->n_rows <= EV_NO_CAP && ix->n_caps <= ix->n_rows &&
	       ix->n_used <= ix->n_rows;
}

static void get_index(loader *l, ev_view_index *ix)
{
	uint64_t scalars[8];
	size_t rows, used;

	get(l, scalars, sizeof scalars);
	ix->nb = (size_t)scalars[0];
	ix->shift = (unsigned)scalars[1];
	ix->n_rows = rows = (size_t)scalars[2];
	ix->n_used = (size_t)scalars[3];
	ix->n_caps = (size_t)scalars[4];
	ix->any = scalars[5] != 0;
	ix->start = scalars[6];
	ix->end = scalars[7];
	ix->data_offset = get64(l);
	ix->quirks = (unsigned)get64(l);
	ix->have_data_offset = 1;
	used = (size_t)get_count(l, ix->nb);
	l->bad |= !shape_ok(ix);
	ix->n_rows = 0; /* until they are there, for the free */
	if (l->bad)
		return;
	get_row(l, &ix->global, ix->nb, used);
	if (!(ix->rows = calloc(rows ? rows : 1, sizeof *ix->rows)) ||
	    !(ix->heap = calloc(ix->nb, sizeof *ix->heap))) {
		l->bad = 1;
		return;
	}
	ix->n_rows = rows;
	for (size_t i = 0; i < ix->n_rows && !l->bad; i++)
		get_row(l, &ix->rows[i], ix->nb, used);
	get(l, ix->heap, used * sizeof *ix->heap);
	get_heaps(l, ix, used);
	get_texts(l, ix);
	get_threads(l, ix);
	get_trows(l, ix);
	get_spans(l, ix);
	if (!l->bad && evi_view_bands_load(&ix->bands, l->f) < 0)
		l->bad = 1;
	if (!l->bad && evi_view_kept_load(ix, l->f) < 0)
		l->bad = 1;
}

/* Whether the header names this build's layout and the log `id`. */
static int get_header(loader *l, const ev_view_log_id *id)
{
	uint32_t layout[5], want[5] = { ORDER, sizeof(view_bucket),
					sizeof(view_row),
					sizeof(ev_view_thread),
					sizeof(view_tbucket) };
	char magic[8];
	ev_view_log_id was;

	get(l, magic, sizeof magic);
	get(l, layout, sizeof layout);
	get(l, &was, sizeof was);
	if (l->bad || memcmp(magic, MAGIC, 8) != 0 ||
	    memcmp(layout, want, sizeof want) != 0 ||
	    memcmp(&was, id, sizeof was) != 0)
		return 0;
	return 1;
}

int ev_view_index_load(ev_view_index **out, int fd, const ev_view_log_id *id)
{
	int copy = dup(fd);
	loader l = { copy >= 0 && lseek(copy, 0, SEEK_SET) == 0
			     ? fdopen(copy, "rb") : NULL, 0 };
	ev_view_index *ix;
	int rc;

	*out = NULL;
	if (!l.f) {
		if (copy >= 0)
			close(copy);
		return EV_EIO;
	}
	if (!get_header(&l, id)) {
		fclose(l.f);
		return EV_OK;
	}
	if (!(ix = calloc(1, sizeof *ix))) {
		fclose(l.f);
		return EV_ENOMEM;
	}
	ix->max_cells = EV_VIEW_DEFAULT_CELLS;
	get_index(&l, ix);
	/* the file must end here */
	rc = l.bad || fgetc(l.f) != EOF;
	fclose(l.f);
	if (rc) {
		ev_view_index_free(ix);
		return EV_OK;
	}
	*out = ix;
	return EV_OK;
}
