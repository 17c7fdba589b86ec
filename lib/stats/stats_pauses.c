/*
 * The distribution of GC pauses, in bounded memory: per process, overall
 * and per generation, a log-linear histogram (values below 32 ns exact,
 * above that 32 buckets per power of two, so a bucket is 1/32 of its
 * value wide; the last bucket takes everything from 2^45 ns, about 9.8
 * hours) for the percentiles, the exact count, sum, minimum and maximum,
 * and a min-heap of the EV_STATS_LONGEST_PAUSES longest pauses.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "stats_internal.h"

#define SUB_BITS 5u
#define SUB (1u << SUB_BITS)          /* buckets per power of two */
#define OCTAVES 40u                   /* 2^5 .. 2^45 ns */
#define EVI_PAUSE_BUCKETS (SUB + OCTAVES * SUB)

/* v > 0: one instruction, not a loop per bit (the spans add two
 * durations per span). */
static unsigned log2_floor(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}

static size_t bucket_of(uint64_t ns)
{
	unsigned e;
	size_t b;

	if (ns < SUB)
		return (size_t)ns;
	e = log2_floor(ns);
	b = (size_t)(e - SUB_BITS + 1) * SUB +
	    (size_t)((ns >> (e - SUB_BITS)) - SUB);
	return b < EVI_PAUSE_BUCKETS ? b : EVI_PAUSE_BUCKETS - 1;
}

/* The largest value that falls into bucket `b`. */
static uint64_t bucket_top(size_t b)
{
	unsigned shift;

	if (b < SUB)
		return b;
	if (b == EVI_PAUSE_BUCKETS - 1)
		return UINT64_MAX;
	shift = (unsigned)(b / SUB) - 1;
	return ((uint64_t)(SUB + b % SUB) << shift) + ((uint64_t)1 << shift) -
	       1;
}

/* ---- the longest pauses: a min-heap on (duration, -start) ---- */

/* Whether `a` is a shorter pause than `b` (of equal ones, the later). */
static int shorter(const ev_stats_pause *a, const ev_stats_pause *b)
{
	if (a->duration_ns != b->duration_ns)
		return a->duration_ns < b->duration_ns;
	return a->start_ns > b->start_ns;
}

static void swap_pauses(ev_stats_pause *a, ev_stats_pause *b)
{
	ev_stats_pause t = *a;

	*a = *b;
	*b = t;
}

static void sift_down(ev_stats_pause *h, size_t n, size_t i)
{
	for (;;) {
		size_t least = i, l = 2 * i + 1, r = l + 1;
		if (l < n && shorter(&h[l], &h[least]))
			least = l;
		if (r < n && shorter(&h[r], &h[least]))
			least = r;
		if (least == i)
			return;
		swap_pauses(&h[i], &h[least]);
		i = least;
	}
}

static void keep_if_long(ev_stats_pauses *s, const ev_stats_pause *p)
{
	ev_stats_pause *h = s->longest;

	if (s->n_longest < EV_STATS_LONGEST_PAUSES) {
		size_t i = s->n_longest++;
		h[i] = *p;
		while (i > 0 && shorter(&h[i], &h[(i - 1) / 2])) {
			swap_pauses(&h[i], &h[(i - 1) / 2]);
			i = (i - 1) / 2;
		}
	} else if (shorter(&h[0], p)) {
		h[0] = *p;
		sift_down(h, s->n_longest, 0);
	}
}

static int longer_first(const void *a, const void *b)
{
	const ev_stats_pause *x = a, *y = b;

	return shorter(x, y) - shorter(y, x);
}

/* ---- sets of pauses ---- */

static int set_init(evi_pause_set *set)
{
	memset(set, 0, sizeof *set);
	set->buckets = calloc(EVI_PAUSE_BUCKETS, sizeof *set->buckets);
	return set->buckets ? EV_OK : EV_ENOMEM;
}

static void set_add(evi_pause_set *set, const ev_stats_pause *p)
{
	ev_stats_pauses *s = &set->pub;

	if (s->count == 0 || p->duration_ns < s->min_ns)
		s->min_ns = p->duration_ns;
	if (p->duration_ns > s->max_ns)
		s->max_ns = p->duration_ns;
	s->count++;
	s->total_ns += p->duration_ns;
	set->buckets[bucket_of(p->duration_ns)]++;
	keep_if_long(s, p);
}

/* The nearest-rank `q` quantile, the ceil(q * count)th shortest pause:
 * exact when it is one of the longest kept (sorted by then) or the
 * shortest, else the top of its bucket, never above the maximum. */
static uint64_t set_quantile(const evi_pause_set *set, double q)
{
	const ev_stats_pauses *s = &set->pub;
	double exact = q * (double)s->count;
	uint64_t rank = (uint64_t)exact, seen = 0;

	if ((double)rank < exact || rank < 1)
		rank++; /* rounded up: ceil without libm */
	if (s->count - rank < s->n_longest)
		return s->longest[s->count - rank].duration_ns;
	if (rank == 1)
		return s->min_ns;
	for (size_t b = 0; b < EVI_PAUSE_BUCKETS; b++) {
		seen += set->buckets[b];
		if (seen >= rank) {
			uint64_t top = bucket_top(b);
			return top < set->pub.max_ns ? top : set->pub.max_ns;
		}
	}
	return set->pub.max_ns;
}

static void set_finish(evi_pause_set *set)
{
	ev_stats_pauses *s = &set->pub;

	if (!set->buckets || s->count == 0)
		return;
	qsort(s->longest, s->n_longest, sizeof *s->longest, longer_first);
	s->p50_ns = set_quantile(set, 0.50);
	s->p90_ns = set_quantile(set, 0.90);
	s->p99_ns = set_quantile(set, 0.99);
}

static void set_free(evi_pause_set *set)
{
	free(set->buckets);
}

/* ---- per process ---- */

/* Sets *out to the pauses of `p`, created on its first pause; NULL past
 * EV_STATS_MAX_PAUSE_PROCESSES. EV_OK or EV_ENOMEM (in st->diag). */
static int proc_pauses(ev_stats *st, evi_stats_proc *p, evi_proc_pauses **out)
{
	evi_proc_pauses *pp;

	*out = p->pauses;
	if (p->pauses || st->an.pause_procs == EV_STATS_MAX_PAUSE_PROCESSES)
		return EV_OK;
	if (!(pp = calloc(1, sizeof *pp)) || set_init(&pp->all) < 0) {
		free(pp);
		return evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
	}
	st->an.pause_procs++;
	*out = p->pauses = pp;
	return EV_OK;
}

/* The set of generation `gen` of `pp`, created on its first pause. */
static int gen_pauses(ev_stats *st, evi_proc_pauses *pp, uint16_t gen,
		      evi_pause_set **out)
{
	evi_pause_set **set = &pp->gens[gen];

	if (!*set && (!(*set = malloc(sizeof **set)) || set_init(*set) < 0)) {
		free(*set);
		*set = NULL;
		return evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
	}
	*out = *set;
	return EV_OK;
}

int evi_pauses_add(ev_stats *st, evi_stats_proc *p,
		   const ev_stats_pause *pause)
{
	evi_proc_pauses *pp;
	evi_pause_set *gen = NULL;
	int rc;

	if (st->an.on_pause)
		st->an.on_pause(st->an.on_pause_ctx, p->pub.capset, pause);
	if ((rc = proc_pauses(st, p, &pp)) < 0 || !pp)
		return rc;
	set_add(&pp->all, pause);
	/* evi_stats_reserve_gens refused a larger generation already. */
	if (pause->gen >= EV_STATS_MAX_GENS)
		return EV_OK;
	if ((rc = gen_pauses(st, pp, pause->gen, &gen)) < 0)
		return rc;
	set_add(gen, pause);
	return EV_OK;
}

void evi_pauses_finish(ev_stats *st)
{
	for (size_t i = 0; i < st->procs.n; i++) {
		evi_proc_pauses *pp = evi_stats_proc_at(st, i)->pauses;
		if (!pp)
			continue;
		set_finish(&pp->all);
		for (unsigned g = 0; g < EV_STATS_MAX_GENS; g++)
			if (pp->gens[g])
				set_finish(pp->gens[g]);
	}
}

void evi_pauses_free(evi_stats_proc *p)
{
	evi_proc_pauses *pp = p->pauses;

	if (!pp)
		return;
	set_free(&pp->all);
	for (unsigned g = 0; g < EV_STATS_MAX_GENS; g++) {
		if (pp->gens[g])
			set_free(pp->gens[g]);
		free(pp->gens[g]);
	}
	free(pp);
}

/* ---- the public accessors ---- */

static const evi_pause_set *find_set(const ev_stats *st, size_t process,
				     unsigned gen)
{
	const evi_proc_pauses *pp;
	const evi_pause_set *set;

	if (process >= st->procs.n ||
	    !(pp = evi_stats_proc_at(st, process)->pauses))
		return NULL;
	if (gen == EV_STATS_ALL_GENS)
		set = &pp->all;
	else if (gen < EV_STATS_MAX_GENS)
		set = pp->gens[gen];
	else
		return NULL;
	return set && set->pub.count ? set : NULL;
}

const ev_stats_pauses *ev_stats_pauses_of(const ev_stats *st, size_t process,
					  unsigned gen)
{
	const evi_pause_set *set = find_set(st, process, gen);

	return set ? &set->pub : NULL;
}

int ev_stats_pause_quantile(const ev_stats *st, size_t process, unsigned gen,
			    double q, uint64_t *ns)
{
	const evi_pause_set *set = find_set(st, process, gen);

	if (!set || !(q > 0.0 && q <= 1.0))
		return EV_EINVAL;
	*ns = set_quantile(set, q);
	return EV_OK;
}

void ev_stats_on_pause(ev_stats *st, ev_stats_pause_fn fn, void *ctx)
{
	st->an.on_pause = fn;
	st->an.on_pause_ctx = ctx;
}

/* ---- sets of other durations (stats_spans.c) ---- */

int evi_duration_set_init(evi_pause_set *set)
{
	return set_init(set);
}

void evi_duration_set_add(evi_pause_set *set, const ev_stats_pause *d)
{
	set_add(set, d);
}

void evi_duration_set_finish(evi_pause_set *set)
{
	set_finish(set);
}

void evi_duration_set_free(evi_pause_set *set)
{
	set_free(set);
}
