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

void hg_ranks(size_t *rank, const hg_fig *const *figs, size_t n)
{
	/* k is faster than i beyond noise when k's high end lies below i's low end: the high ends
	 * sorted, each rank is a binary search, so that a large field stays n log n */
	double *his = calloc(n + 1, sizeof(double));
	size_t i, m = 0;

	if (!his) {
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
		/* a figure is never faster than itself, even with its ends the wrong way round */
		rank[i] = 1 + S_below(his, m, lo) - (hi < lo ? 1 : 0);
	}
	free(his);
}
