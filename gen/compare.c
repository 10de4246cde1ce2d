/* compare.c — comparing the field on the pages: the comparison page of each system (its libraries
 * as figures_compare.c groups them, ratios to the yardsticks, a bar chart per group), the
 * cycles/byte chart of every algorithm page and its "On other systems" table. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "pages.h"
#include "render.h"

static const char *S_label(hg_arena *a, const hg_fig *f)
{
	return hg_printf(a, "%s (%s)", f->instance, f->implementation);
}

/* Is a headline drawn hatched or hollow: its interval wide or unconfirmed, or, without one,
 * the figure disturbed? */
static int S_doubtful(const hg_iv *iv, int disturbed)
{
	return iv->state == HG_IV_WIDE || iv->state == HG_IV_UNCONFIRMED ||
		(iv->state == HG_IV_NONE && disturbed);
}

/* The interval of a headline per byte as a whisker's bounds (0: none). */
static void S_whisker(double *lo, double *hi, const hg_iv *iv)
{
	*lo = iv->state != HG_IV_NONE ? iv->low_cpb : 0;
	*hi = iv->state != HG_IV_NONE ? iv->high_cpb : 0;
}

/* ---- the chart of an algorithm page ---- */

int hg_chart_page(char **out, size_t *len, const hg_system *s, const char *id, const char *name,
	const hg_fig *figs, size_t n, const hg_yardsticks *y)
{
	hg_chart_series *series = calloc(n + HG_NYARD + 1, sizeof(*series));
	hg_chart_point *points = calloc(n + HG_NYARD * HG_NSIZES + 1, sizeof(*points));
	char **labels = calloc(n + 1, sizeof(char *));
	size_t ns = 0, np = 0, i, k;
	hg_chart_lines c;
	char *title, *desc;
	int rc;

	for (i = 0; i < n; i++) {
		hg_chart_series *sr;
		if (i > 0 && strcmp(figs[i].instance, figs[i - 1].instance) == 0 &&
			strcmp(figs[i].implementation, figs[i - 1].implementation) == 0) {
			sr = &series[ns - 1];
		} else {
			labels[ns] = hg_xprintf("%s (%s)", figs[i].instance, figs[i].implementation);
			sr = &series[ns++];
			sr->label = labels[ns - 1];
			sr->points = &points[np];
		}
		if (!figs[i].ok)
			continue;
		hg_chart_point_of(&points[np++], &figs[i]);
		sr->npoints++;
	}
	for (k = 0; k < HG_NYARD; k++) {
		/* an algorithm's own instances are its series, not its yardsticks */
		int own = strcmp(id, k < 2 ? "sm3" : "sha2") == 0;
		hg_chart_series *sr = &series[ns];
		size_t z;
		if (own)
			continue;
		sr->label = hg_yard_names[k];
		sr->baseline = 1;
		sr->points = &points[np];
		for (z = 0; z < HG_NSIZES; z++)
			if (y->at[k][z].cpb > 0) {
				points[np].x = (double)hg_sizes[z];
				points[np].y = y->at[k][z].cpb;
				points[np].hollow = S_doubtful(&y->at[k][z].iv, y->at[k][z].disturbed);
				S_whisker(&points[np].lo, &points[np].hi, &y->at[k][z].iv);
				np++;
				sr->npoints++;
			}
		if (sr->npoints)
			ns++;
	}
	title = hg_xprintf("%s %s on %s: %s per byte against message size", id, name, s->name,
		hg_unit_name(s));
	desc = hg_unit_words(s, hg_xprintf("Headline cycles per byte (vertical axis) of each instance and "
		"implementation of %s at message sizes from 32 B to 64 KiB (horizontal axis, "
		"logarithmic) on system %s. Thin grey dashed lines: SM3 and SHA-256, reference and "
		"OpenSSL, on the same system. Whiskers: each figure's interval. Hollow markers: figures "
		"whose interval is wide or unconfirmed (without an interval: disturbed).",
		name, s->name));
	c.title = title;
	c.desc = desc;
	c.y_label = hg_unit_words(s, hg_xprintf("cycles/byte"));
	c.series = series;
	c.nseries = ns;
	rc = hg_chart_lines_svg(out, len, &c);
	free((char *)c.y_label);
	for (i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(series);
	free(points);
	free(title);
	free(desc);
	return rc;
}

/* In the cell just added for f, the unit of its system after the figure (before its mark)
 * where it is not the page's. */
static void S_unit_after(hg_arena *a, hg_node *row, const hg_system *s, const hg_system *cur,
	const hg_fig *f)
{
	hg_node *t = row->last ? row->last->first : NULL;
	if (f && t && t->type == HG_TEXT && strcmp(hg_unit_name(s), hg_unit_name(cur)) != 0)
		t->text = hg_printf(a, "%s %s", t->text, hg_unit_name(s));
}

/* ---- "On other systems" ---- */

void hg_section_other_systems(hg_arena *a, hg_node *body, const char *id, const hg_system *cur,
	const hg_sysfigs *all, size_t nall, int *noted)
{
	static const char *head[] = { "instance", "system", "cycles/byte at 65536 B",
		"cycles at 32 B", NULL };
	const hg_sysfigs **order = calloc(nall + 1, sizeof(*order));
	const hg_fig **libs;
	hg_node *p, *t, *row;
	size_t i, k, m, nlibs = 0, total = 0;
	int used = 0;

	/* this system first, then the others in their order */
	for (k = 0, m = 0; k < nall; k++)
		if (all[k].system == cur)
			order[m++] = &all[k];
	for (k = 0; k < nall; k++)
		if (all[k].system != cur)
			order[m++] = &all[k];
	hg_add_heading(a, body, 2, "On other systems");
	p = hg_add(a, body, HG_PARA);
	if (nall < 2) {
		hg_add_textf(a, p, "%s has been measured on this system only.", id);
		free(order);
		return;
	}
	hg_add_textf(a, p, "Each instance of %s on every system that measured it, its headline "
		"figures (section 4) on each system; the links lead to the same algorithm there. The systems "
		"differ in processor, clock and counter: compare their %s with care. Every figure of "
		"every system side by side, with one chart: ", id, hg_unit_name(cur));
	hg_add_across_link(a, p, "../", id, hg_printf(a, "%s on every system", id));
	hg_add_text(a, p, ".");
	for (k = 0; k < nall; k++)
		total += order[k]->nfigs;
	libs = calloc(total + 1, sizeof(*libs));
	for (k = 0; k < nall; k++)
		for (i = 0; i < order[k]->nfigs; i++) {
			const hg_fig *f = &order[k]->figs[i];
			size_t q;
			int seen = 0;
			for (q = 0; q < nlibs && !seen; q++)
				seen = hg_same_lib(libs[q], f);
			if (!seen)
				libs[nlibs++] = f;
		}
	t = hg_add(a, body, HG_TABLE);
	row = hg_add(a, t, HG_ROW);
	for (i = 0; head[i]; i++)
		hg_add_cell(a, row, head[i], i >= 2);
	hg_unit_header(a, cur, t);
	for (i = 0; i < nlibs; i++)
		for (k = 0; k < nall; k++) {
			const hg_sysfigs *o = order[k];
			const hg_fig *f32 = NULL, *f64k = NULL;
			hg_node *c;
			size_t w;
			for (w = 0; w < o->nfigs; w++) {
				if (!o->figs[w].ok || !hg_same_lib(&o->figs[w], libs[i]))
					continue;
				if (o->figs[w].message_bytes == 32)
					f32 = &o->figs[w];
				else if (o->figs[w].message_bytes == 65536)
					f64k = &o->figs[w];
			}
			if (!f32 && !f64k)
				continue;
			row = hg_add(a, t, HG_ROW);
			c = hg_add(a, row, HG_CELL);
			hg_add_code(a, c, libs[i]->instance);
			hg_add_textf(a, c, " (%s)", libs[i]->implementation);
			c = hg_add(a, row, HG_CELL);
			if (o->system == cur) {
				hg_node *span = hg_add(a, c, HG_SPAN);
				span->cls = "current";
				hg_add_textf(a, span, "%s (this page)", o->system->name);
			} else {
				hg_add_link(a, c, hg_printf(a, "../%s/%s.html", o->system->name, id),
					o->system->name, NULL);
			}
			used |= hg_fig_cell(a, row, f64k, 0);
			S_unit_after(a, row, o->system, cur, f64k);
			used |= hg_fig_cell(a, row, f32, 1);
			S_unit_after(a, row, o->system, cur, f32);
		}
	hg_marks_legend(a, body, used, cur->spread_limit_pct, noted);
	free(libs);
	free(order);
}

/* ---- the comparison page ---- */

static void S_lib_cells(hg_arena *a, hg_node *row, const hg_lib *l)
{
	hg_node *c = hg_add(a, row, HG_CELL);
	hg_add_link(a, c, hg_printf(a, "%s.html", l->any->algorithm), l->any->algorithm, NULL);
	c = hg_add(a, row, HG_CELL);
	if (l->any->supercop_path) {
		/* the primitive is the algorithm column already: its implementation, marked */
		hg_add_code(a, c, l->any->implementation);
		hg_add_text(a, c, " (SUPERCOP)");
		return;
	}
	hg_add_code(a, c, l->any->instance);
	hg_add_textf(a, c, " (%s)", l->any->implementation);
}

/* The sentence on SUPERCOP's primitives, when the system has any. */
static void S_supercop_note(hg_arena *a, hg_node *body, const hg_lib *libs, size_t nlibs)
{
	hg_node *para;
	size_t i;
	for (i = 0; i < nlibs && !libs[i].any->supercop_path; i++)
		;
	if (i == nlibs)
		return;
	para = hg_add(a, body, HG_PARA);
	hg_add_text(a, para, "SUPERCOP's crypto_hash implementations (marked SUPERCOP) stand beside "
		"the NGCC candidates in the group of their digest length (output bytes × 8), timed by the "
		"same method; their KAT column is SUPERCOP's own checksums. Each primitive's fastest "
		"implementation, and those within noise of it, at eBASH's message lengths: ");
	hg_add_link(a, para, "ebash.html", "eBASH table", NULL);
	hg_add_text(a, para, ".");
}

static hg_node *S_head(hg_arena *a, hg_node *body, const char *const *head, const int *num,
	const char *label)
{
	hg_node *t = hg_add(a, body, HG_TABLE), *row = hg_add(a, t, HG_ROW);
	size_t k;
	t->cls = "compare sortable";
	t->title = label;
	for (k = 0; head[k]; k++)
		hg_add_cell(a, row, head[k], num[k]);
	return t;
}

/* The yardsticks of the ratio columns: SM3 (reference), SHA-256 (reference) and (OpenSSL). */
static const size_t S_ratio_yard[3] = { 0, 2, 3 };
static const char *const S_ratio_head[3] = { "× SM3 (reference)", "× SHA-256 (reference)",
	"× SHA-256 (OpenSSL)" };

/* The speed row of a library: its rank, KAT, headline figures with their marks, MB/s, the
 * ratios to the yardsticks measured (ratio[k]); returns the marks. */
static int S_speed_row(hg_arena *a, hg_node *t, const hg_lib *l, size_t rank,
	const hg_yardsticks *y, const int *ratio)
{
	hg_node *row = hg_add(a, t, HG_ROW), *c;
	char b[HG_FMT];
	int used = 0;
	size_t k;

	hg_add_cell(a, row, rank ? hg_printf(a, "%zu", rank) : "—", 1);
	S_lib_cells(a, row, l);
	c = hg_add(a, row, HG_CELL);
	if (l->any->kat) {
		hg_node *span = hg_add(a, c, HG_SPAN);
		span->cls = hg_result_class(l->any->kat);
		hg_add_text(a, span, l->any->kat);
	} else {
		hg_add_text(a, c, "—");
	}
	used |= hg_fig_cell(a, row, l->f64k, 0);
	used |= hg_fig_cell(a, row, l->f32, 1);
	hg_add_cell(a, row, l->f64k ? hg_fmt_mbps(b, sizeof(b), l->f64k->mb_per_s) : "—", 1);
	for (k = 0; k < 3; k++) {
		hg_headline_fig h;
		if (!ratio[k])
			continue;
		if (!l->f64k) {
			hg_add_cell(a, row, "—", 1);
			continue;
		}
		hg_headline_of_fig(&h, l->f64k);
		used |= hg_ratio_cell(a, row, &h, &y->at[S_ratio_yard[k]][HG_AT_65536], "×",
			l->f64k->unit);
	}
	return used;
}

/* A group's table rows, made when the page is rendered (hg_table_later): its libraries, their
 * ranks, the yardsticks and which ratio columns there are; in the page's arena. */
typedef struct {
	const hg_lib *libs;      /* the group's, a copy */
	size_t *rank;
	const hg_yardsticks *y;  /* the caller's, alive while the page is rendered */
	int ratio[3];
} S_group_rows;

static int S_speed_later(void *ctx, size_t i, hg_arena *a, hg_node *t)
{
	const S_group_rows *g = ctx;
	return S_speed_row(a, t, &g->libs[i], g->rank[i], g->y, g->ratio);
}

/* The group's libraries and ranks into the page's arena, for its rows made later. */
static S_group_rows *S_group_rows_new(hg_arena *a, const hg_lib *libs, size_t first,
	size_t last, const hg_yardsticks *y)
{
	S_group_rows *g = hg_alloc(a, sizeof(*g));
	const hg_fig **f64k = calloc(last - first + 1, sizeof(*f64k));
	hg_lib *copy = hg_alloc(a, (last - first + 1) * sizeof(*copy));
	size_t i, k;

	g->rank = hg_alloc(a, (last - first + 1) * sizeof(*g->rank));
	for (i = first; i < last; i++) {
		copy[i - first] = libs[i];
		f64k[i - first] = libs[i].f64k;
	}
	hg_ranks(g->rank, f64k, last - first);
	free(f64k);
	g->libs = copy;
	g->y = y;
	for (k = 0; k < 3; k++)
		g->ratio[k] = y->at[S_ratio_yard[k]][HG_AT_65536].cpb > 0;
	return g;
}

/* The speed table of a group (g: its libraries, n of them, in the page's order), ranked by the
 * headline at 65536 B; a ratio column only for a yardstick measured on the system; its rows
 * made when the page is rendered. Returns the marks its rows carry. */
static int S_speed_table(hg_arena *a, hg_node *body, const S_group_rows *g, size_t n,
	const char *label, const hg_system *s)
{
	static const char *const base[] = { "rank", "algorithm", "instance", "KAT",
		"cycles/byte at 65536 B", "cycles per call at 32 B", "MB/s at 65536 B" };
	static const int base_num[] = { 1, 0, 0, 0, 1, 1, 1 };
	const char *head[11];
	int num[11];
	size_t k, nh = 0;
	hg_node *t;

	for (k = 0; k < 7; k++) {
		head[nh] = base[k];
		num[nh++] = base_num[k];
	}
	for (k = 0; k < 3; k++)
		if (g->ratio[k]) {
			head[nh] = S_ratio_head[k];
			num[nh++] = 1;
		}
	head[nh] = NULL;
	t = S_head(a, body, head, num, label);
	hg_unit_header(a, s, t);
	/* the marks for the legend under the table */
	return hg_table_later_flags(a, t, S_speed_later, (void *)g, n);
}

/* The memory row of a group's i-th library. */
static int S_memory_later(void *ctx, size_t i, hg_arena *a, hg_node *t)
{
	const hg_lib *l = &((const S_group_rows *)ctx)->libs[i];
	const hg_fig *res = l->f64k ? l->f64k : l->any;
	hg_node *row = hg_add(a, t, HG_ROW);
	char b[HG_FMT];
	S_lib_cells(a, row, l);
	hg_add_cell(a, row, res->static_bytes >= 0 ? hg_printf(a, "%lld", res->static_bytes) : "—",
		1);
	hg_add_cell(a, row, res->peak_rss_kib >= 0 ? hg_fmt_kib(b, sizeof(b), res->peak_rss_kib) :
		"—", 1);
	hg_memory_fig_cells(a, row, res);
	return 0;
}

/* The memory table of a group: static size, peak RSS, stack and heap peak of each library (the
 * speed table's rows, g); its rows made when the page is rendered. */
static void S_memory_table(hg_arena *a, hg_node *body, const S_group_rows *g, size_t n,
	const char *group)
{
	static const char *const head[] = { "algorithm", "instance", "static size (bytes)",
		"peak RSS", "stack", "heap peak", NULL };
	static const int num[] = { 0, 0, 1, 1, 1, 1 };
	const char *label = hg_printf(a, "%s: memory", group);
	hg_node *t;

	hg_add_heading(a, body, 3, label);
	t = S_head(a, body, head, num, label);
	hg_table_later(a, t, S_memory_later, (void *)g, n);
}

/* The bar chart of a group (libraries first..last of the page's order). */
static void S_group_chart(hg_arena *a, hg_node *body, const hg_lib *libs, size_t first,
	size_t last, size_t g, const hg_system *s, hg_svgsink *charts)
{
	hg_chart_bar *bars = calloc(last - first + 1, sizeof(*bars));
	size_t nbars = 0, i, len = 0;
	hg_node *para;
	char *title, *desc, *name, *svg = NULL;

	for (i = first; i < last; i++) {
		const hg_lib *l = &libs[i];
		if (!l->f64k)
			continue;
		bars[nbars].label = S_label(a, l->any);
		bars[nbars].value = l->f64k->headline_cpb;
		bars[nbars].hollow = S_doubtful(&l->f64k->headline_iv, l->f64k->disturbed);
		S_whisker(&bars[nbars].lo, &bars[nbars].hi, &l->f64k->headline_iv);
		bars[nbars].baseline = hg_yardstick_alg(l->any->algorithm);
		nbars++;
	}
	if (!nbars) {
		free(bars);
		return;
	}
	title = hg_xprintf("%s on %s: %s per byte at 65536 B", hg_groups[g].heading, s->name,
		hg_unit_name(s));
	desc = hg_unit_words(s, hg_xprintf("One bar per instance and implementation of the group \"%s\" on system "
		"%s, in the order of the table: headline cycles per byte at 65536 B (shorter is "
		"faster), each with its interval as a whisker. Grey bars: the bundled baselines (SM3, "
		"SHA-2, SHA-3). Hatched bars: figures whose interval is wide or unconfirmed (without an "
		"interval: disturbed).", hg_groups[g].heading, s->name));
	name = hg_printf(a, "compare-%s.svg", hg_groups[g].key);
	/* written at once: the charts of a large field are not all held until the page is */
	if (hg_chart_bars_svg(&svg, &len, title, desc, hg_unit_text(a, s, "cycles/byte at 65536 B"),
			bars, nbars) != 0 || charts->put(charts->ctx, name, svg, len) != 0)
		charts->failed = 1;
	free(svg);
	free(title);
	free(desc);
	free(bars);
	para = hg_add(a, body, HG_PARA);
	para->cls = "chart";
	hg_add_image(a, para, name, hg_printf(a, "Bar chart: %s per byte at 65536 B of "
		"each instance in \"%s\" on %s", hg_unit_name(s), hg_groups[g].heading, s->name),
		"chart");
}

/* The page's first paragraph up to its link to the method page; what it says of ranks and
 * ratios timed paired only when a library was. */
static const char *S_intro(hg_arena *a, const hg_lib *libs, size_t nlibs)
{
	size_t i;
	int paired = 0;
	for (i = 0; i < nlibs && !paired; i++)
		paired = libs[i].f64k && libs[i].f64k->anchor_instance;
	return hg_printf(a, "Every instance of every algorithm timed on this system, grouped by "
		"digest length and sorted within a group by cycles per byte at 65536 B (fastest first). "
		"Cycles are the headline figures, from an estimator that repeats on a shared or virtual "
		"host (the guide's mean for evidence of an earlier hashbench), each ± the half-width of "
		"its interval; MB/s is the guide's mean. An instance's rank is 1 and the number of the "
		"group's instances faster than it beyond noise (their interval wholly below its own%s): "
		"figures within noise of each other share a rank. Ratios divide an instance's cycles "
		"per byte at 65536 B by the yardstick's on the same system: below 1.00× is faster; "
		"each is shown ± the half-width of its interval, %s"
		"where the two intervals overlap the ratio reads ≈ (within noise), the difference not "
		"shown to be real; a yardstick not measured on this system has no column. How the "
		"figures were taken: ", paired ? "; for two instances timed paired, each side by side "
		"with the campaign's anchor, the interval of the ratio of the two wholly below 1" : "",
		paired ? "for an instance and a yardstick timed paired the quotient of their ratios to "
		"the anchor, its interval from their pairs (≈ where it holds 1), otherwise found from "
		"the two figures' intervals (measured at different moments, so their errors add), and "
		: "found from the two figures' intervals (measured at different moments, so their "
		"errors add); ");
}

hg_page *hg_page_compare(const hg_data *d, const hg_system *s, const hg_fig *const *rows,
	size_t n, const hg_yardsticks *y, const hg_texts *tx, hg_svgsink *charts)
{
	hg_page *p = hg_page_new();
	hg_arena *a = p->arena;
	hg_node *body = p->body, *para;
	size_t nlibs, i, g;
	hg_lib *libs = hg_libs_of(rows, n, &nlibs);
	int noted = 0;

	p->root = "../";
	p->title = hg_printf(a, "System %s — every algorithm compared", s->name);
	p->breadcrumb = hg_system_breadcrumb(a, s);
	hg_add_text(a, p->breadcrumb, " › compare");
	hg_add_heading(a, body, 1, p->title);
	para = hg_add(a, body, HG_PARA);
	hg_add_text(a, para, hg_unit_text(a, s, S_intro(a, libs, nlibs)));
	hg_add_link(a, para, "method.html", hg_printf(a, "%s method", s->name), NULL);
	hg_add_text(a, para, ".");
	hg_add_downloads(a, body, s, "the record each comes from and its SHA-256");
	S_supercop_note(a, body, libs, nlibs);
	if (!nlibs) {
		para = hg_add(a, body, HG_PARA);
		hg_add_warning(a, para, "No timing records on this system.");
	}
	for (g = 0; g < HG_NGROUPS; g++) {
		size_t first = nlibs, last = 0;
		S_group_rows *rows_of;
		int used;
		for (i = 0; i < nlibs; i++)
			if (libs[i].group == g) {
				if (first == nlibs)
					first = i;
				last = i + 1;
			}
		if (first == nlibs)
			continue;
		hg_add_heading(a, body, 2, hg_groups[g].heading);
		rows_of = S_group_rows_new(a, libs, first, last, y);
		used = S_speed_table(a, body, rows_of, last - first, hg_printf(a, "%s: speed",
			hg_groups[g].heading), s);
		hg_marks_legend(a, body, used, s->spread_limit_pct, &noted);
		S_group_chart(a, body, libs, first, last, g, s, charts);
		S_memory_table(a, body, rows_of, last - first, hg_groups[g].heading);
	}
	free(libs);
	(void)d;
	p->footer = hg_node_new(a, HG_PARA);
	hg_add_textf(a, p->footer, "Generated by %s from evidence %s.", tx->generator,
		hg_measured_by(a, s));
	return p;
}

