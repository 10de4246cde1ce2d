/* page_front.c — the site's front page tells what the site is and how to check it, names each
 * system with its processor, counter, software and campaign, and shows the fastest
 * implementations of each digest length on each system, as the comparison pages rank them. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"

/* How many of each group's fastest the front page names per system. */
#define S_FASTEST 3

void hg_front_intro(hg_arena *a, hg_node *body, const hg_data *d)
{
	hg_node *p = hg_add(a, body, HG_PARA);
	size_t i;
	int supercop = 0;

	for (i = 0; i < d->nentries && !supercop; i++)
		supercop = d->entries[i].supercop != NULL;
	hg_add_textf(a, p, "How fast hash functions run%s, measured by hashbench on %zu system%s. "
		"Each implementation was built with the assessment guide's flags and checked against "
		"its known-answer tests%s before it was timed; each figure is the headline cycles per "
		"byte of several passes on a pinned core, with its 95 %% interval, and the memory of "
		"one call is measured beside it. How each system was measured is its method page "
		"(below); every figure links to the record it comes from.", supercop ?
		": the NGCC candidates and SUPERCOP's crypto_hash implementations side by side" : "",
		d->nsystems, d->nsystems == 1 ? "" : "s", supercop ? " (a SUPERCOP implementation "
		"against its tree's checksums)" : "");
	p = hg_add(a, body, HG_PARA);
	hg_add_text(a, p, "To check it: every evidence file is copied under data/, and in each "
		"system's folder ");
	hg_add_code(a, p, "sha256sum -c SHA256SUMS");
	hg_add_text(a, p, " verifies them all (");
	hg_add_code(a, p, d->nsystems ? hg_printf(a, "cd data/%s && sha256sum -c SHA256SUMS",
		d->systems[0].name) : "cd data/<system> && sha256sum -c SHA256SUMS");
	hg_add_text(a, p, "); ");
	hg_add_code(a, p, "hashgen --check --data data --out site");
	hg_add_text(a, p, " renders the whole site again from the evidence and compares it with "
		"this one byte for byte.");
}

/* SUPERCOP's implementations of s's primitives that were not run there, as the catalog says. */
static long long S_not_run(const hg_data *d, const hg_system *s)
{
	long long n = 0;
	size_t i;
	for (i = 0; i < s->nalgorithms; i++) {
		const hg_entry *e = hg_data_entry(d, s->algorithms[i]);
		if (e && e->supercop)
			n += (long long)e->supercop->nnot_run;
	}
	return n;
}

/* "12 verified, 2 unverified, 3 failed, 5 not run here" (the parts that are not 0). */
static const char *S_implementations(hg_arena *a, const hg_front_sys *fs, long long not_run)
{
	static const char *const what[HG_KAT_TALLY + 1] = { "verified", "unverified",
		"failed", "not run here" };
	const char *out = "";
	long long n[HG_KAT_TALLY + 1];
	size_t r;
	memcpy(n, fs->kats, sizeof(fs->kats));
	n[HG_KAT_TALLY] = not_run;
	for (r = 0; r <= HG_KAT_TALLY; r++)
		if (n[r] || r == HG_KAT_PASSED)
			out = hg_printf(a, "%s%s%lld %s", out, *out ? ", " : "", n[r], what[r]);
	return out;
}

void hg_front_systems(hg_arena *a, hg_node *body, const hg_data *d, const hg_front_sys *sys)
{
	static const char *const head[] = { "system", "processor", "counter", "OS and compiler",
		"campaign", "profile", "algorithms", "implementations", "pages", NULL };
	static const int num[] = { 0, 0, 0, 0, 0, 0, 1, 0, 0 };
	hg_node *t;
	size_t k;

	hg_add_heading(a, body, 2, "Systems");
	t = hg_add_table(a, body, head, num);
	for (k = 0; k < d->nsystems; k++) {
		const hg_system *s = &d->systems[k];
		hg_node *row = hg_add(a, t, HG_ROW), *c = hg_add(a, row, HG_CELL);
		hg_add_link(a, c, hg_printf(a, "%s/index.html", s->name), s->name, NULL);
		hg_add_cell(a, row, hg_printf(a, "%s (%s)", hg_or_na(s->processor),
			hg_arch_name(s->arch)), 0);
		hg_add_cell(a, row, hg_printf(a, "%s (%s)", hg_or_na(s->counter), hg_unit_name(s)),
			0)->cls = "name"; /* never "perf-" and "cycles" on two lines */
		hg_add_cell(a, row, hg_printf(a, "%s; %s", hg_or_na(s->os), hg_or_na(s->compiler)), 0);
		hg_add_cell(a, row, hg_campaign_dates(a, s), 0);
		hg_add_cell(a, row, hg_or_na(s->profile), 0);
		hg_add_cell(a, row, hg_printf(a, "%zu", s->nalgorithms), 1);
		hg_add_cell(a, row, S_implementations(a, &sys[k], S_not_run(d, s)), 0);
		c = hg_add(a, row, HG_CELL);
		hg_add_link(a, c, hg_printf(a, "%s/compare.html", s->name), "comparison", NULL);
		hg_add_text(a, c, " · ");
		hg_add_link(a, c, hg_printf(a, "%s/ebash.html", s->name), "eBASH table", NULL);
		hg_add_text(a, c, " · ");
		hg_add_link(a, c, hg_printf(a, "%s/method.html", s->name), "method", NULL);
	}
}

/* Whether a library may be named among the fastest: timed at 65536 B, its KAT passed. */
static int S_ranked(const hg_lib *l)
{
	return l->f64k && (!l->any->kat || strcmp(l->any->kat, "PASS") == 0);
}

/* Of system libs' libraries in group g, the fastest (at most S_FASTEST) into top with their
 * ranks among the whole group, as the comparison page gives them; returns how many. */
static size_t S_top(const hg_fig **top, size_t *rank, const hg_lib *libs, size_t nlibs,
	size_t g)
{
	const hg_fig **all = calloc(nlibs + 1, sizeof(*all));
	size_t *ranks = calloc(nlibs + 1, sizeof(*ranks)), m = 0, n = 0, i, j;

	for (i = 0; i < nlibs && n < S_FASTEST; i++) /* each group sorted fastest first */
		if (libs[i].group == g && S_ranked(&libs[i]))
			top[n++] = libs[i].f64k;
	for (j = 0; all && ranks && j < nlibs; j++)
		if (libs[j].group == g)
			all[m++] = S_ranked(&libs[j]) ? libs[j].f64k : NULL;
	if (all && ranks)
		hg_ranks(ranks, all, m);
	for (i = 0, j = 0; i < n; i++) {
		while (all && ranks && j < m && all[j] != top[i])
			j++;
		rank[i] = all && ranks && j < m ? ranks[j] : 0;
	}
	free(all);
	free(ranks);
	return n;
}

/* The rows of system s's fastest in a group's table; returns their marks. */
static int S_top_rows(hg_arena *a, hg_node *t, const hg_system *s, const hg_fig *const *top,
	const size_t *rank, size_t n)
{
	size_t i;
	int used = 0;
	for (i = 0; i < n; i++) {
		const hg_fig *f = top[i];
		hg_node *row = hg_add(a, t, HG_ROW), *c = hg_add(a, row, HG_CELL);
		hg_add_link(a, c, hg_printf(a, "%s/compare.html", s->name), s->name, NULL);
		hg_add_cell(a, row, rank[i] ? hg_printf(a, "%zu", rank[i]) : "—", 1);
		c = hg_add(a, row, HG_CELL);
		hg_add_link(a, c, hg_printf(a, "%s/%s.html", s->name, f->algorithm), f->algorithm,
			NULL);
		hg_add_instance_cell(a, row, f->instance, f->implementation);
		used |= hg_fig_cell(a, row, f, 0);
		hg_add_cell(a, row, hg_printf(a, "%s/byte", f->unit), 0);
	}
	return used;
}

/* The section's heading and what its tables hold. */
static void S_field_intro(hg_arena *a, hg_node *body, const hg_data *d)
{
	size_t k;
	int ticks = 0;
	for (k = 0; k < d->nsystems; k++)
		ticks |= strcmp(hg_unit_name(&d->systems[k]), "cycles") != 0;
	hg_add_heading(a, body, 2, "The fastest on each system");
	hg_add_textf(a, hg_add(a, body, HG_PARA), "Per digest length, the %d fastest "
		"implementations of each system by the headline figure at 65536 B, ranked as its "
		"comparison page ranks them (figures within noise of each other share a rank; only "
		"implementations whose KAT passed). Figures of different systems were taken on "
		"different machines%s: compare them with care.", S_FASTEST,
		ticks ? ", some in counter ticks, not cycles" : "");
}

int hg_front_field(hg_arena *a, hg_node *body, const hg_data *d, const hg_front_sys *sys)
{
	static const char *const head[] = { "system", "rank", "algorithm", "implementation",
		"per byte at 65536 B", "unit", NULL };
	static const int num[] = { 0, 1, 0, 0, 1, 0 };
	hg_lib **libs = calloc(d->nsystems + 1, sizeof(*libs));
	size_t *nlibs = calloc(d->nsystems + 1, sizeof(*nlibs)), g, k;
	int used = 0, any = 0;

	for (k = 0; k < d->nsystems && libs && nlibs; k++)
		libs[k] = hg_libs_of(sys[k].rows, sys[k].nrows, &nlibs[k]);
	for (g = 0; g < HG_NGROUPS && libs && nlibs; g++) {
		hg_node *t = NULL;
		for (k = 0; k < d->nsystems; k++) {
			const hg_fig *top[S_FASTEST];
			size_t rank[S_FASTEST], n = libs[k] ? S_top(top, rank, libs[k], nlibs[k], g) : 0;
			if (!n)
				continue;
			if (!any++)
				S_field_intro(a, body, d);
			if (!t) {
				hg_add_heading(a, body, 3, hg_groups[g].heading);
				t = hg_add_table(a, body, head, num);
				t->title = hg_printf(a, "The fastest on each system: %s", hg_groups[g].heading);
			}
			used |= S_top_rows(a, t, &d->systems[k], top, rank, n);
		}
	}
	for (k = 0; libs && k < d->nsystems; k++)
		free(libs[k]);
	free(libs);
	free(nlibs);
	return used;
}
