/* figtable.c — the few rows of a page that the outputs spanning the field read (the comparison
 * page, the eBASH-style table, the index's headlines), copied into one small block, so that a
 * build holds them for every page without holding every page's figures. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"

/* The message sizes the spanning outputs show: the comparison page's 32 and 65536 B, and eBASH's
 * reporting lengths. */
static const unsigned long long S_sizes[] = { 8, 32, 64, 576, 1536, 4096, 65536 };

static int S_passed(const hg_fig *f)
{
	return f->ok && (!f->kat || strcmp(f->kat, "PASS") == 0);
}

/* Is figs[i] kept: its library's first row, a row at a size shown, or its library's longest row
 * or longest row that passed (eBASH's fastest is chosen at the longest length that passed)? */
static int S_kept(const hg_fig *figs, size_t n, size_t i)
{
	size_t k, longest = i, passed = (size_t)-1;
	if (i == 0 || !hg_same_lib(&figs[i - 1], &figs[i]))
		return 1;
	for (k = 0; k < sizeof(S_sizes) / sizeof(S_sizes[0]); k++)
		if (figs[i].message_bytes == S_sizes[k])
			return 1;
	for (k = 0; k < n; k++) {
		if (!hg_same_lib(&figs[k], &figs[i]))
			continue;
		if (figs[k].message_bytes > figs[longest].message_bytes)
			longest = k;
		if (S_passed(&figs[k]) && (passed == (size_t)-1 ||
				figs[k].message_bytes > figs[passed].message_bytes))
			passed = k;
	}
	return longest == i || passed == i;
}

/* The strings of a kept row: the same text as the row before shares its copy. */
#define S_NSTR 10
static char **S_strs(hg_fig *f, char *v[S_NSTR])
{
	v[0] = f->system;
	v[1] = f->algorithm;
	v[2] = f->instance;
	v[3] = f->implementation;
	v[4] = f->kat;
	v[5] = f->headline_estimator;
	v[6] = f->supercop_path;
	v[7] = f->compiler;
	v[8] = f->anchor_instance;
	v[9] = f->anchor_implementation;
	return v;
}

static void S_set_strs(hg_fig *f, char *const v[S_NSTR])
{
	f->system = v[0];
	f->algorithm = v[1];
	f->instance = v[2];
	f->implementation = v[3];
	f->kat = v[4];
	f->headline_estimator = v[5];
	f->supercop_path = v[6];
	f->compiler = v[7];
	f->anchor_instance = v[8];
	f->anchor_implementation = v[9];
}

void hg_figs_spanning_mask(const hg_fig *figs, size_t n, char *keep)
{
	size_t i;
	for (i = 0; i < n; i++)
		keep[i] = (char)S_kept(figs, n, i);
}

hg_fig *hg_figs_spanning(const hg_fig *figs, size_t n, size_t *nout, size_t *size)
{
	size_t i, k, m = 0, bytes = 0;
	char *keep = calloc(n + 1, 1), *at;
	char *v[S_NSTR], *prev[S_NSTR] = { NULL };
	hg_fig *out;

	hg_figs_spanning_mask(figs, n, keep);
	for (i = 0; i < n; i++)
		if (keep[i]) {
			m++;
			S_strs((hg_fig *)&figs[i], v);
			for (k = 0; k < S_NSTR; k++)
				if (v[k] && (!i || !prev[k] || strcmp(prev[k], v[k]) != 0))
					bytes += strlen(v[k]) + 1;
			memcpy(prev, v, sizeof(v));
		}
	/* the rows, then their strings (at least one byte: malloc(0) may give NULL) */
	out = malloc(m * sizeof(hg_fig) + bytes + 1);
	if (!out)
		abort();
	at = (char *)(out + m);
	memset(prev, 0, sizeof(prev));
	for (i = 0, m = 0; i < n; i++) {
		char *copy[S_NSTR];
		if (!keep[i])
			continue;
		out[m] = figs[i];
		out[m].more = NULL; /* the page's and the downloads' alone */
		S_strs(&out[m], v);
		for (k = 0; k < S_NSTR; k++) {
			if (!v[k]) {
				copy[k] = NULL;
			} else if (prev[k] && strcmp(prev[k], v[k]) == 0) {
				copy[k] = prev[k];
			} else {
				size_t len = strlen(v[k]) + 1;
				copy[k] = memcpy(at, v[k], len);
				at += len;
			}
		}
		S_set_strs(&out[m], copy);
		memcpy(prev, copy, sizeof(copy));
		m++;
	}
	free(keep);
	*nout = m;
	if (size)
		*size = (size_t)(at - (char *)out);
	return out;
}

void hg_figs_relocate(hg_fig *block, size_t n, const void *was, size_t size)
{
	uintptr_t from = (uintptr_t)was, to = (uintptr_t)block;
	char *v[S_NSTR];
	size_t i, k;
	for (i = 0; i < n; i++) {
		S_strs(&block[i], v);
		for (k = 0; k < S_NSTR; k++)
			if (v[k] && (uintptr_t)v[k] >= from && (uintptr_t)v[k] < from + size)
				v[k] = (char *)(to + ((uintptr_t)v[k] - from));
		S_set_strs(&block[i], v);
	}
}

void hg_iv_md(hg_md *m, const hg_iv *iv)
{
	hg_md_int(m, (long long)iv->state);
	hg_md_num(m, iv->low_cycles);
	hg_md_num(m, iv->high_cycles);
	hg_md_num(m, iv->low_cpb);
	hg_md_num(m, iv->high_cpb);
	hg_md_num(m, iv->half_pct);
	hg_md_num(m, iv->target_pct);
}

void hg_pair_md(hg_md *m, const char *anchor_instance, const char *anchor_implementation,
	const hg_pair *p)
{
	int present = anchor_instance && anchor_implementation;
	hg_md_int(m, present);
	if (!present)
		return;
	hg_md_str(m, anchor_instance);
	hg_md_str(m, anchor_implementation);
	hg_md_num(m, p->ratio);
	hg_md_num(m, p->low);
	hg_md_num(m, p->high);
	hg_md_int(m, p->seed);
	hg_md_int(m, p->self);
	hg_md_int(m, p->wide);
}

/* A row's more into a digest; nothing when it has none (the spanning rows). */
static void S_more_md(hg_md *m, const hg_fig_more *x)
{
	if (!x)
		return;
	hg_md_str(m, x->status);
	hg_md_num(m, x->mean_cycles);
	hg_md_num(m, x->cycles_per_byte);
	hg_md_num(m, x->mean_ns);
	hg_md_int(m, (long long)x->calls);
	hg_md_int(m, (long long)x->rounds);
	hg_md_num(m, x->median_cycles);
	hg_md_num(m, x->spread_pct);
	hg_md_int(m, x->unstable);
	hg_md_int(m, x->baseline_rss_kib);
	hg_md_int(m, x->heap_allocations);
	hg_md_int(m, x->mmap_bytes);
	hg_md_int(m, x->text_bytes);
	hg_md_int(m, x->data_bytes);
}

void hg_fig_md(hg_md *m, const hg_fig *f)
{
	char *v[S_NSTR];
	size_t k;
	S_strs((hg_fig *)f, v);
	for (k = 0; k < S_NSTR; k++)
		hg_md_str(m, v[k]);
	hg_md_str(m, f->unit);
	hg_md_int(m, (long long)f->message_bytes);
	hg_md_int(m, f->output_bytes);
	hg_md_int(m, f->ok);
	hg_md_num(m, f->mb_per_s);
	hg_md_num(m, f->headline_cycles);
	hg_md_num(m, f->headline_cpb);
	hg_iv_md(m, &f->headline_iv);
	hg_pair_md(m, f->anchor_instance, f->anchor_implementation, &f->pair);
	hg_md_int(m, f->disturbed);
	hg_md_int(m, f->static_bytes);
	hg_md_int(m, f->peak_rss_kib);
	hg_md_int(m, f->stack_bytes);
	hg_md_int(m, f->heap_peak_bytes);
	S_more_md(m, f->more);
}
