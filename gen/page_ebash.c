/* page_ebash.c — the eBASH-style table of a system: one row per primitive (every algorithm
 * instance, SUPERCOP's and the NGCC candidates'), ranked, its fastest implementation (and those
 * within noise of it) and cycles per byte at eBASH's reporting lengths, each primitive linked to
 * its page. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"

const unsigned long long hg_ebash_sizes[HG_EBASH_NSIZES] = { 65536, 4096, 1536, 576, 64, 8 };

/* One primitive: its rows are rows[first..last), the fastest library's figure at each size. */
typedef struct {
	size_t first, last;
	const hg_fig *best;      /* a row of the fastest library; NULL: nothing timed */
	const hg_fig *at[HG_EBASH_NSIZES];
	size_t order;
} S_prim;

static int S_passed(const hg_fig *f)
{
	return f->ok && (!f->kat || strcmp(f->kat, "PASS") == 0);
}

/* The fastest library of a primitive by the headline at the longest size any of them passed. */
static void S_fastest(S_prim *p, const hg_fig *const *rows)
{
	unsigned long long longest = 0;
	size_t i, k;

	for (i = p->first; i < p->last; i++)
		if (S_passed(rows[i]) && rows[i]->message_bytes > longest)
			longest = rows[i]->message_bytes;
	for (i = p->first; i < p->last; i++)
		if (S_passed(rows[i]) && rows[i]->message_bytes == longest &&
			(!p->best || rows[i]->headline_cpb < p->best->headline_cpb))
			p->best = rows[i];
	if (!p->best)
		return;
	for (i = p->first; i < p->last; i++)
		for (k = 0; k < HG_EBASH_NSIZES; k++)
			if (S_passed(rows[i]) && hg_same_lib(rows[i], p->best) &&
				rows[i]->message_bytes == hg_ebash_sizes[k] && !p->at[k])
				p->at[k] = rows[i];
}

static int S_cmp_prim(const void *x, const void *y)
{
	const S_prim *a = x, *b = y;
	if (!a->at[0] != !b->at[0])
		return a->at[0] ? -1 : 1;
	if (a->at[0] && a->at[0]->headline_cpb != b->at[0]->headline_cpb)
		return a->at[0]->headline_cpb < b->at[0]->headline_cpb ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* The primitives among rows (an instance's rows are consecutive: pages list them together). */
static S_prim *S_prims(const hg_fig *const *rows, size_t n, size_t *nprims)
{
	S_prim *v = calloc(n + 1, sizeof(S_prim));
	size_t i;

	*nprims = 0;
	for (i = 0; i < n; i++) {
		const hg_fig *prev = *nprims ? rows[v[*nprims - 1].first] : NULL;
		if (!prev || strcmp(prev->algorithm, rows[i]->algorithm) != 0 ||
			strcmp(prev->instance, rows[i]->instance) != 0) {
			v[*nprims].first = i;
			v[*nprims].order = *nprims;
			(*nprims)++;
		}
		v[*nprims - 1].last = i + 1;
	}
	for (i = 0; i < *nprims; i++)
		S_fastest(&v[i], rows);
	return v;
}

static void S_primitive_cell(hg_arena *a, hg_node *row, const char *alg, const char *inst)
{
	hg_node *c = hg_add(a, row, HG_CELL);
	c->cls = "name"; /* one line: "litchi_256 (hash-15)" */
	hg_add_link(a, c, hg_printf(a, "%s.html", alg), inst, NULL);
	if (strcmp(alg, inst) != 0)
		hg_add_textf(a, c, " (%s)", alg);
}

/* The fastest implementation's cell: its name and, where other implementations are within noise
 * of it at the same length, theirs, so that no claim outruns the figures. */
static void S_fastest_cell(hg_arena *a, hg_node *row, const S_prim *p, const hg_fig *const *rows)
{
	hg_node *c = hg_add(a, row, HG_CELL);
	hg_headline_fig best, h;
	size_t i, near = 0;
	const char *names = "";

	if (!p->best) {
		hg_add_text(a, c, "nothing timed");
		return;
	}
	hg_add_code(a, c, p->best->implementation);
	hg_headline_of_fig(&best, p->best);
	for (i = p->first; i < p->last; i++) {
		if (!S_passed(rows[i]) || rows[i]->message_bytes != p->best->message_bytes ||
			hg_same_lib(rows[i], p->best))
			continue;
		hg_headline_of_fig(&h, rows[i]);
		if (!hg_within_noise(&h, &best))
			continue;
		names = hg_printf(a, "%s%s%s", names, near++ ? ", " : "", rows[i]->implementation);
	}
	if (near) {
		/* counted, so that the row stays one line; the count's title names them */
		hg_node *span = hg_add(a, c, HG_SPAN);
		span->cls = "near";
		span->title = hg_printf(a, "%zu more within noise of it: %s", near, names);
		hg_add_textf(a, span, " ≈+%zu", near);
	}
}

static int S_row(hg_arena *a, hg_node *t, const S_prim *p, size_t rank,
	const hg_fig *const *rows, const hg_compiler_names *cn)
{
	const hg_fig *any = rows[p->first];
	hg_node *row = hg_add(a, t, HG_ROW), *c;
	size_t k;
	int used = 0;

	hg_add_cell(a, row, rank ? hg_printf(a, "%zu", rank) : "—", 1);
	S_primitive_cell(a, row, any->algorithm, any->instance);
	S_fastest_cell(a, row, p, rows);
	c = hg_add(a, row, HG_CELL);
	if (p->best && p->best->compiler)
		hg_add_compiler(a, c, cn, p->best->compiler);
	else
		hg_add_text(a, c, "—");
	for (k = 0; k < HG_EBASH_NSIZES; k++)
		used |= hg_fig_cell(a, row, p->at[k], 0);
	return used;
}

/* The table's rows, made when the page is rendered: the primitives ranked, then the algorithms
 * of the system with nothing timed; in the page's arena (rows and ids are the caller's, alive
 * while the page is rendered). */
typedef struct {
	const S_prim *prims;
	const size_t *rank;
	size_t nprims;
	const hg_fig *const *rows;
	const char *const *untimed;
	const hg_compiler_names *cn;
} S_table_rows;

static int S_later(void *ctx, size_t i, hg_arena *a, hg_node *t)
{
	const S_table_rows *r = ctx;
	hg_node *row;
	size_t k;

	if (i < r->nprims)
		return S_row(a, t, &r->prims[i], r->rank[i], r->rows, r->cn);
	row = hg_add(a, t, HG_ROW);
	hg_add_cell(a, row, "—", 1);
	S_primitive_cell(a, row, r->untimed[i - r->nprims], r->untimed[i - r->nprims]);
	hg_add_cell(a, row, "nothing timed", 0);
	hg_add_cell(a, row, "—", 0);
	for (k = 0; k < HG_EBASH_NSIZES; k++)
		hg_add_cell(a, row, "—", 1);
	return 0;
}

/* The algorithms of s among ids (in id order, as rows are) that have no row. */
static size_t S_untimed(const char **out, const hg_system *s, const hg_fig *const *rows,
	size_t n, const char *const *ids, size_t nids)
{
	size_t i, at = 0, m = 0;
	for (i = 0; i < nids; i++) {
		/* rows and ids are both in id order: one walk over the rows */
		while (at < n && strcmp(rows[at]->algorithm, ids[i]) < 0)
			at++;
		if (hg_system_has(s, ids[i]) && !(at < n && strcmp(rows[at]->algorithm, ids[i]) == 0))
			out[m++] = ids[i];
	}
	return m;
}

/* The page's first paragraph; what it says of figures timed paired only when rows has one. */
static void S_intro(hg_arena *a, hg_node *body, const hg_system *s, const hg_fig *const *rows,
	size_t n)
{
	hg_node *para = hg_add(a, body, HG_PARA);
	size_t i;
	int paired = 0;
	for (i = 0; i < n && !paired; i++)
		paired = rows[i]->anchor_instance != NULL;
	hg_add_text(a, para, hg_unit_text(a, s, hg_printf(a, "Every primitive measured on this "
		"system, SUPERCOP's crypto_hash primitives and the NGCC candidates alike, as eBASH "
		"tabulates them: for each, its "
		"fastest implementation (by the headline figure at the longest message it was timed "
		"at; those within noise of it, their intervals overlapping%s, are counted beside it, "
		"≈+2 for two: their names are the count's title, and the primitive's page has them "
		"all) with "
		"the compiler setting SUPERCOP built it with, and that implementation's cycles per byte "
		"at each message length, fastest first; primitives within noise of each other at long "
		"share a rank. Cycles are the headline "
		"figures, each ± the half-width of its interval, from an estimator that repeats on a "
		"shared or virtual host, not eBASH's median of medians. ", paired ? " (or, both timed "
		"paired with the campaign's anchor, the interval of their paired ratio holding 1)" :
		"")));
	hg_add_text(a, hg_add(a, para, HG_EMPH), "long");
	hg_add_text(a, para, " is the figure measured at 65536 B, not eBASH's extrapolation to "
		"unbounded messages; the other columns are message lengths in bytes; — marks a length "
		"not measured. Each primitive links to its page. How the figures were taken: ");
	hg_add_link(a, para, "method.html", hg_printf(a, "%s method", s->name), NULL);
	hg_add_text(a, para, "; every implementation side by side, with ratios and memory: ");
	hg_add_link(a, para, "compare.html", hg_printf(a, "%s comparison", s->name), NULL);
	hg_add_text(a, para, ".");
}

hg_page *hg_page_ebash(const hg_data *d, const hg_system *s, const hg_fig *const *rows,
	size_t n, const char *const *ids, size_t nids, const hg_texts *tx)
{
	static const char *const head[] = { "rank", "primitive", "fastest implementation",
		"compiler", "long", "4096", "1536", "576", "64", "8", NULL };
	static const int num[] = { 1, 0, 0, 0, 1, 1, 1, 1, 1, 1 };
	hg_page *p = hg_page_new();
	hg_arena *a = p->arena;
	hg_node *body = p->body, *t;
	size_t nprims, i;
	S_prim *prims = S_prims(rows, n, &nprims);
	const hg_fig **longs = calloc(nprims + 1, sizeof(*longs));
	S_table_rows *r = hg_alloc(a, sizeof(*r));
	S_prim *kept = hg_alloc(a, (nprims + 1) * sizeof(*kept));
	size_t *rank = hg_alloc(a, (nprims + 1) * sizeof(*rank));
	const char **untimed = hg_alloc(a, (nids + 1) * sizeof(*untimed));
	size_t nuntimed;
	hg_compiler_names *cn;
	int used;

	(void)d;
	p->root = "../";
	p->title = hg_printf(a, "System %s — eBASH-style table", s->name);
	p->breadcrumb = hg_system_breadcrumb(a, s);
	hg_add_text(a, p->breadcrumb, " › eBASH table");
	hg_add_heading(a, body, 1, p->title);
	S_intro(a, body, s, rows, n);
	qsort(prims, nprims, sizeof(S_prim), S_cmp_prim);
	t = hg_add_table(a, body, head, num);
	t->cls = "ebash sortable";
	t->title = "Cycles per byte of each primitive's fastest implementation";
	hg_unit_header(a, s, t);
	for (i = 0; i < nprims; i++)
		longs[i] = prims[i].at[0];
	hg_ranks(rank, longs, nprims);
	memcpy(kept, prims, nprims * sizeof(*kept));
	nuntimed = S_untimed(untimed, s, rows, n, ids, nids);
	r->prims = kept;
	r->rank = rank;
	r->nprims = nprims;
	r->rows = rows;
	r->untimed = untimed;
	r->cn = cn = hg_compiler_names_new(a);
	for (i = 0; i < nprims; i++)
		hg_compiler_names_add(a, cn, kept[i].best ? kept[i].best->compiler : NULL);
	/* the marks for the legend under the table */
	used = hg_table_later_flags(a, t, S_later, r, nprims + nuntimed);
	hg_compiler_legend(a, body, cn);
	hg_marks_legend(a, body, used, s->spread_limit_pct, NULL);
	hg_add_downloads(a, body, s, "the record each comes from, its SUPERCOP path and compiler "
		"setting, and its SHA-256");
	free(prims);
	free(longs);
	p->footer = hg_node_new(a, HG_PARA);
	hg_add_textf(a, p->footer, "Generated by %s from evidence %s.", tx->generator,
		hg_measured_by(a, s));
	return p;
}
