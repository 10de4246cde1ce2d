/* figures_compare.c — the field compared as data: the libraries among the rows of a system,
 * grouped by digest length and sorted by their headline at 65536 B, their ranks (figures within
 * noise of each other share one), the yardsticks' algorithms, and whether rows have anything to
 * draw. The comparison page and the charts are built from it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"

const hg_group hg_groups[HG_NGROUPS] = {
	{ "256", "256-bit digests", 256 }, { "384", "384-bit digests", 384 },
	{ "512", "512-bit digests", 512 }, { "768", "768-bit digests", 768 },
	{ "1024", "1024-bit digests", 1024 }, { "xof", "Extendable output", -2 },
	{ "other", "Other or unrecorded digest lengths", -1 },
};

int hg_same_lib(const hg_fig *a, const hg_fig *b)
{
	return strcmp(a->algorithm, b->algorithm) == 0 && strcmp(a->instance, b->instance) == 0 &&
		strcmp(a->implementation, b->implementation) == 0;
}

int hg_yardstick_alg(const char *id)
{
	return strcmp(id, "sm3") == 0 || strcmp(id, "sha2") == 0 || strcmp(id, "sha3") == 0;
}

int hg_figs_have_figures(const hg_fig *figs, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (figs[i].ok)
			return 1;
	return 0;
}

/* The digest length of a row in bits: its record's output length; for evidence written before
 * records carried it, the last number in the instance's name when it is a group's length. */
static long long S_bits(const hg_fig *f)
{
	const char *p, *last = NULL;
	long long v;
	if (f->output_bytes > 0)
		return f->output_bytes * 8;
	for (p = f->instance; *p; p++)
		if (*p >= '0' && *p <= '9' && (p == f->instance || p[-1] < '0' || p[-1] > '9'))
			last = p;
	if (!last)
		return -1;
	v = strtoll(last, NULL, 10);
	return v == 256 || v == 384 || v == 512 || v == 768 || v == 1024 ? v : -1;
}

static size_t S_group_of(const hg_fig *f)
{
	long long bits;
	size_t g;
	if (hg_fig_xof(f))
		return HG_NGROUPS - 2;
	bits = S_bits(f);
	for (g = 0; g < HG_NGROUPS - 2; g++)
		if (hg_groups[g].bits == bits)
			return g;
	return HG_NGROUPS - 1;
}

static int S_cmp_lib(const void *x, const void *y)
{
	const hg_lib *a = x, *b = y;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (!a->f64k != !b->f64k)
		return a->f64k ? -1 : 1;
	if (a->f64k && a->f64k->headline_cpb != b->f64k->headline_cpb)
		return a->f64k->headline_cpb < b->f64k->headline_cpb ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

hg_lib *hg_libs_of(const hg_fig *const *rows, size_t n, size_t *nlibs)
{
	hg_lib *libs = calloc(n + 1, sizeof(hg_lib));
	size_t i;

	*nlibs = 0;
	/* a library's rows are consecutive (each page lists them together): one pass */
	for (i = 0; i < n; i++) {
		hg_lib *l;
		if (!*nlibs || !hg_same_lib(libs[*nlibs - 1].any, rows[i])) {
			libs[*nlibs].any = rows[i];
			libs[*nlibs].group = S_group_of(rows[i]);
			libs[*nlibs].order = *nlibs;
			(*nlibs)++;
		}
		l = &libs[*nlibs - 1];
		if (rows[i]->ok && rows[i]->message_bytes == 32 && !l->f32)
			l->f32 = rows[i];
		if (rows[i]->ok && rows[i]->message_bytes == 65536 && !l->f64k)
			l->f64k = rows[i];
	}
	if (*nlibs)
		qsort(libs, *nlibs, sizeof(hg_lib), S_cmp_lib);
	return libs;
}

static int S_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* How many of the n sorted values are below v. */
static size_t S_below(const double *v, size_t n, double x)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A row timed paired among those ranked: its place in figs, its headline's bounds per byte and
 * its paired ratio. */
typedef struct {
	const hg_fig *f;
	size_t i;
	double lo, hi;
} S_paired_row;

/* 0 when two rows were timed paired with each other (hg_paired): the same anchor, campaign and
 * message size. */
static int S_cmp_pairing(const S_paired_row *a, const S_paired_row *b)
{
	int c = strcmp(a->f->anchor_instance, b->f->anchor_instance);
	if (c || (c = strcmp(a->f->anchor_implementation, b->f->anchor_implementation)) != 0)
		return c;
	if (a->f->pair.seed != b->f->pair.seed)
		return a->f->pair.seed < b->f->pair.seed ? -1 : 1;
	return a->f->message_bytes < b->f->message_bytes ? -1 :
		a->f->message_bytes > b->f->message_bytes;
}

static int S_cmp_paired_row(const void *x, const void *y)
{
	const S_paired_row *a = x, *b = y;
	int c = S_cmp_pairing(a, b);
	return c ? c : a->i < b->i ? -1 : a->i > b->i;
}

static int S_cmp_pair_high(const void *x, const void *y)
{
	const hg_pair *a = *(const hg_pair *const *)x, *b = *(const hg_pair *const *)y;
	return a->high < b->high ? -1 : a->high > b->high;
}

/* The ranks of one set of rows timed paired with each other (n of them): among themselves they are
 * faster beyond noise by their paired ratio, not by their intervals, so the count of faster rows
 * below each (base, by the intervals of every row) loses theirs and gains the paired one. Rows
 * whose high end lies below i's low end are faster whatever the quadrature (hg_pair_faster): a
 * binary search; those between its low end and its ratio are tried one by one. */
static void S_paired_ranks(size_t *rank, const S_paired_row *rows, size_t n, const size_t *base)
{
	double *his = calloc(n + 1, sizeof(double));
	const hg_pair **by_high = calloc(n + 1, sizeof(*by_high));
	size_t i, k, m = 0;

	if (!his || !by_high) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	for (i = 0; i < n; i++) {
		if (rows[i].hi == rows[i].hi)
			his[m++] = rows[i].hi;
		by_high[i] = &rows[i].f->pair;
	}
	qsort(his, m, sizeof(double), S_cmp_double);
	qsort(by_high, n, sizeof(*by_high), S_cmp_pair_high);
	for (i = 0; i < n; i++) {
		const hg_pair *p = &rows[i].f->pair;
		size_t faster = 0, lo = 0, hi = n;
		/* how many of by_high have their high end below p's low end */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (by_high[mid]->high < p->low)
				lo = mid + 1;
			else
				hi = mid;
		}
		faster = lo;
		for (k = lo; k < n && by_high[k]->high < p->ratio; k++)
			faster += hg_pair_faster(by_high[k], p);
		rank[rows[i].i] = 1 + base[rows[i].i] - S_below(his, m, rows[i].lo) + faster;
	}
	free(his);
	free(by_high);
}

/* The ranks of the rows timed paired (base[i]: how many rows' intervals lie below figs[i]'s). */
static void S_ranks_paired(size_t *rank, const hg_fig *const *figs, size_t n, const size_t *base)
{
	S_paired_row *rows = calloc(n + 1, sizeof(*rows));
	size_t i, m = 0, first;

	if (!rows) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	for (i = 0; i < n; i++) {
		hg_headline_fig h;
		if (!figs[i] || !figs[i]->anchor_instance || !figs[i]->anchor_implementation)
			continue;
		hg_headline_of_fig(&h, figs[i]);
		rows[m].f = figs[i];
		rows[m].i = i;
		hg_headline_bounds(&h, &rows[m].lo, &rows[m].hi);
		m++;
	}
	qsort(rows, m, sizeof(*rows), S_cmp_paired_row);
	for (first = 0; first < m; first = i) {
		for (i = first + 1; i < m && S_cmp_pairing(&rows[first], &rows[i]) == 0; i++)
			;
		S_paired_ranks(rank, rows + first, i - first, base);
	}
	free(rows);
}

void hg_ranks(size_t *rank, const hg_fig *const *figs, size_t n)
{
	/* k is faster than i beyond noise when k's high end lies below i's low end: the high ends
	 * sorted, each rank is a binary search, so that a large field stays n log n; rows timed
	 * paired with each other are then ranked among themselves by their paired ratios */
	double *his = calloc(n + 1, sizeof(double));
	size_t *base = calloc(n + 1, sizeof(size_t));
	size_t i, m = 0;
	int paired = 0;

	if (!his || !base) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	for (i = 0; i < n; i++) {
		hg_headline_fig h;
		double lo, hi;
		if (!figs[i])
			continue;
		hg_headline_of_fig(&h, figs[i]);
		hg_headline_bounds(&h, &lo, &hi);
		if (hi == hi) /* not NaN: a NaN is below nothing */
			his[m++] = hi;
		paired |= figs[i]->anchor_instance != NULL;
	}
	qsort(his, m, sizeof(double), S_cmp_double);
	for (i = 0; i < n; i++) {
		hg_headline_fig h;
		double lo, hi;
		if (!figs[i]) {
			rank[i] = 0;
			continue;
		}
		hg_headline_of_fig(&h, figs[i]);
		hg_headline_bounds(&h, &lo, &hi);
		base[i] = S_below(his, m, lo);
		/* a figure is never faster than itself, even with its ends the wrong way round */
		rank[i] = 1 + base[i] - (hi < lo ? 1 : 0);
	}
	if (paired)
		S_ranks_paired(rank, figs, n, base);
	free(his);
	free(base);
}
