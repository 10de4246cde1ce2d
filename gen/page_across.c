/* page_across.c — one algorithm across every system that measured it (algorithms/<id>.html): the
 * systems, each library's KAT result on each, its figures side by side at each message size with
 * their intervals, and one chart with a line per system and library. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"
#include "render.h"

/* At most this many message sizes as columns; beyond, the guide's sizes among them. */
#define S_MAX_COLUMNS 8

size_t hg_across_count(const hg_data *d, const char *id)
{
	size_t k, n = 0;
	for (k = 0; k < d->nsystems; k++)
		n += hg_system_has(&d->systems[k], id) != 0;
	return n;
}

int hg_across_has(const hg_data *d, const char *id)
{
	return hg_across_count(d, id) >= 2;
}

/* Do the systems' figures share one unit? */
static int S_one_unit(const hg_sysfigs *all, size_t nall)
{
	size_t k;
	for (k = 1; k < nall; k++)
		if (strcmp(hg_unit_name(all[k].system), hg_unit_name(all[0].system)) != 0)
			return 0;
	return 1;
}

/* Every library of every system, each once, in the order the systems give them. */
static const hg_fig **S_libs(const hg_sysfigs *all, size_t nall, size_t *n)
{
	size_t total = 0, k, i, q;
	const hg_fig **libs;
	for (k = 0; k < nall; k++)
		total += all[k].nfigs;
	libs = calloc(total + 1, sizeof(*libs));
	*n = 0;
	for (k = 0; libs && k < nall; k++)
		for (i = 0; i < all[k].nfigs; i++) {
			const hg_fig *f = &all[k].figs[i];
			for (q = 0; q < *n && !hg_same_lib(libs[q], f); q++)
				;
			if (q == *n)
				libs[(*n)++] = f;
		}
	return libs;
}

static int S_cmp_ull(const void *x, const void *y)
{
	unsigned long long a = *(const unsigned long long *)x, b = *(const unsigned long long *)y;
	return a < b ? -1 : a > b;
}

/* The message sizes with a figure on any system, ascending; the guide's among them when there
 * are more than S_MAX_COLUMNS. Returns how many; *cut: some were left out. */
static size_t S_sizes(unsigned long long *out, const hg_sysfigs *all, size_t nall, int *cut)
{
	unsigned long long *v = NULL;
	size_t n = 0, cap = 0, k, i, m = 0, z;
	for (k = 0; k < nall; k++)
		for (i = 0; i < all[k].nfigs; i++) {
			unsigned long long b = all[k].figs[i].message_bytes;
			size_t q;
			if (!all[k].figs[i].ok)
				continue;
			for (q = 0; q < n && v[q] != b; q++)
				;
			if (q < n)
				continue;
			if (n == cap) {
				unsigned long long *grown = realloc(v, (cap ? 2 * cap : 16) * sizeof(*v));
				if (!grown) {
					free(v);
					return 0;
				}
				v = grown;
				cap = cap ? 2 * cap : 16;
			}
			v[n++] = b;
		}
	if (n)
		qsort(v, n, sizeof(*v), S_cmp_ull);
	*cut = n > S_MAX_COLUMNS;
	for (i = 0; i < n; i++) {
		int guide = !*cut;
		for (z = 0; z < HG_NSIZES && !guide; z++)
			guide = v[i] == hg_sizes[z];
		if (guide && m < S_MAX_COLUMNS)
			out[m++] = v[i];
	}
	free(v);
	return m;
}

/* The row of library l at bytes on a system; NULL when it has none that gave figures. */
static const hg_fig *S_at(const hg_sysfigs *o, const hg_fig *l, unsigned long long bytes)
{
	size_t i;
	for (i = 0; i < o->nfigs; i++)
		if (o->figs[i].ok && o->figs[i].message_bytes == bytes && hg_same_lib(&o->figs[i], l))
			return &o->figs[i];
	return NULL;
}

/* Any row of library l on a system. */
static const hg_fig *S_any(const hg_sysfigs *o, const hg_fig *l)
{
	size_t i;
	for (i = 0; i < o->nfigs; i++)
		if (hg_same_lib(&o->figs[i], l))
			return &o->figs[i];
	return NULL;
}

/* The attribution's placeholders over the systems: the guide of their architectures ("x86",
 * "ARM", or both), and the systems named ("arm_1 and x86_1"). */
typedef struct {
	const char *guide, *systems;
} S_attr;

static S_attr S_attr_of(hg_arena *a, const hg_sysfigs *all, size_t nall)
{
	S_attr at = { NULL, "" };
	size_t k, arm = 0;
	for (k = 0; k < nall; k++) {
		arm += all[k].system->arch && strcmp(all[k].system->arch, "aarch64") == 0;
		at.systems = hg_printf(a, "%s%s%s", at.systems, k == 0 ? "" : k + 1 == nall ?
			" and " : ", ", all[k].system->name);
	}
	at.guide = arm == nall ? "ARM" : arm == 0 ? "x86" : "x86 and ARM";
	return at;
}

static const char *S_attr_lookup(void *ctx, const char *name)
{
	const S_attr *c = ctx;
	return strcmp(name, "guide") == 0 ? c->guide : strcmp(name, "system") == 0 ? c->systems :
		NULL;
}

static void S_breadcrumb(hg_page *p, const char *id, const hg_sysfigs *all, size_t nall)
{
	hg_arena *a = p->arena;
	hg_node *bc = hg_index_breadcrumb(a);
	size_t k;
	p->breadcrumb = bc;
	hg_add_text(a, bc, " › ");
	hg_add_text(a, bc, id);
	hg_add_text(a, bc, " · system:");
	for (k = 0; k < nall; k++) {
		hg_add_text(a, bc, k ? " · " : " ");
		hg_add_link(a, bc, hg_printf(a, "../%s/%s.html", all[k].system->name, id),
			all[k].system->name, NULL);
	}
}

static void S_systems(hg_arena *a, hg_node *body, const char *id, const hg_sysfigs *all,
	size_t nall)
{
	static const char *const head[] = { "system", "processor", "counter", "OS and compiler",
		"campaign", "pages", NULL };
	hg_node *t;
	size_t k;

	hg_add_heading(a, body, 2, "1. Systems");
	t = hg_add_table(a, body, head, NULL);
	for (k = 0; k < nall; k++) {
		const hg_system *s = all[k].system;
		hg_node *row = hg_add(a, t, HG_ROW), *c = hg_add(a, row, HG_CELL);
		hg_add_link(a, c, hg_printf(a, "../%s/index.html", s->name), s->name, NULL);
		hg_add_cell(a, row, hg_printf(a, "%s (%s)", hg_or_na(s->processor),
			hg_arch_name(s->arch)), 0);
		hg_add_cell(a, row, hg_printf(a, "%s (%s)", hg_or_na(s->counter), hg_unit_name(s)),
			0)->cls = "name";
		hg_add_cell(a, row, hg_printf(a, "%s; %s", hg_or_na(s->os), hg_or_na(s->compiler)), 0);
		hg_add_cell(a, row, hg_campaign_dates(a, s), 0);
		c = hg_add(a, row, HG_CELL);
		hg_add_link(a, c, hg_printf(a, "../%s/%s.html", s->name, id), hg_printf(a,
			"%s on %s", id, s->name), NULL);
		hg_add_text(a, c, " · ");
		hg_add_link(a, c, hg_printf(a, "../%s/method.html", s->name), "method", NULL);
	}
}

/* "3 verified, 1 failed" of a system's libraries; NULL when none was counted. */
static const char *S_tally(hg_arena *a, const long long *kats)
{
	static const char *const what[HG_KAT_TALLY] = { "verified", "unverified", "failed" };
	const char *out = "";
	size_t r;
	if (!kats || kats[HG_KAT_PASSED] + kats[HG_KAT_UNVERIFIED] + kats[HG_KAT_FAILED] == 0)
		return NULL; /* no KAT summaries: nothing counted (the rows say their results) */
	for (r = 0; r < HG_KAT_TALLY; r++)
		if (kats[r] || r == HG_KAT_PASSED)
			out = hg_printf(a, "%s%s%lld %s", out, *out ? ", " : "", kats[r], what[r]);
	return out;
}

static void S_kats(hg_arena *a, hg_node *body, const char *id, const hg_sysfigs *all,
	size_t nall, const hg_fig *const *libs, size_t nlibs)
{
	hg_node *t, *row, *p;
	size_t i, k, counted = 0;

	hg_add_heading(a, body, 2, "2. Known-answer tests");
	p = hg_add(a, body, HG_PARA);
	hg_add_text(a, p, "The KAT result of each library that was timed, on each system (section 3 "
		"of each system's page has every KAT file with its SHA-256, and the libraries that were "
		"not timed).");
	for (k = 0; k < nall; k++) {
		const char *tally = S_tally(a, all[k].kats);
		if (!tally)
			continue;
		hg_add_text(a, p, counted++ ? "; " : " Libraries checked: ");
		hg_add_link(a, p, hg_printf(a, "../%s/%s.html", all[k].system->name, id),
			all[k].system->name, NULL);
		hg_add_textf(a, p, " %s", tally);
	}
	if (counted)
		hg_add_text(a, p, ".");
	t = hg_add(a, body, HG_TABLE);
	row = hg_add(a, t, HG_ROW);
	hg_add_cell(a, row, "instance", 0);
	for (k = 0; k < nall; k++)
		hg_add_cell(a, row, all[k].system->name, 0);
	for (i = 0; i < nlibs; i++) {
		row = hg_add(a, t, HG_ROW);
		hg_add_instance_cell(a, row, libs[i]->instance, libs[i]->implementation);
		for (k = 0; k < nall; k++) {
			const hg_fig *f = S_any(&all[k], libs[i]);
			hg_node *c = hg_add(a, row, HG_CELL);
			const char *cls;
			if (!f) {
				hg_add_text(a, c, "not timed there");
				continue;
			}
			cls = hg_result_class(f->kat);
			if (cls) {
				hg_node *span = hg_add(a, c, HG_SPAN);
				span->cls = cls;
				hg_add_text(a, span, f->kat);
			} else {
				hg_add_text(a, c, f->kat ? f->kat : "not recorded");
			}
		}
	}
}

static void S_perf(hg_arena *a, hg_node *body, const char *id, const hg_sysfigs *all,
	size_t nall, const hg_fig *const *libs, size_t nlibs, int chart)
{
	unsigned long long sizes[S_MAX_COLUMNS];
	int cut = 0, one = S_one_unit(all, nall), used = 0, noted = 0;
	size_t nsizes = S_sizes(sizes, all, nall, &cut), i, k, z;
	hg_node *t, *row, *p;

	hg_add_heading(a, body, 2, "3. Performance");
	p = hg_add(a, body, HG_PARA);
	hg_add_textf(a, p, "Each library of %s on each system: its headline %s per byte (section 4 "
		"of the system's page) at each message size, ± the half-width of its 95 %% interval. ",
		id, one ? hg_unit_name(all[0].system) : "cycles or counter ticks");
	if (!one)
		hg_add_warning(a, p, "The systems' figures are not in one unit: the unit column names "
			"each row's (counter ticks are not cycles of the core), so figures of different "
			"units do not compare.");
	else
		hg_add_text(a, p, "The systems differ in processor, clock and counter: a figure says how "
			"the library ran on that machine.");
	if (cut)
		hg_add_text(a, p, " More message sizes were measured than fit here: the table shows the "
			"guide's, each system's page every one.");
	t = hg_add(a, body, HG_TABLE);
	t->cls = "sortable";
	row = hg_add(a, t, HG_ROW);
	hg_add_cell(a, row, "instance", 0);
	hg_add_cell(a, row, "system", 0);
	if (!one)
		hg_add_cell(a, row, "unit", 0);
	for (z = 0; z < nsizes; z++)
		hg_add_cell(a, row, hg_printf(a, "%llu B", sizes[z]), 1);
	for (i = 0; i < nlibs; i++)
		for (k = 0; k < nall; k++) {
			const hg_fig *any = S_any(&all[k], libs[i]);
			hg_node *c;
			if (!any)
				continue;
			row = hg_add(a, t, HG_ROW);
			hg_add_instance_cell(a, row, libs[i]->instance, libs[i]->implementation);
			c = hg_add(a, row, HG_CELL);
			hg_add_link(a, c, hg_printf(a, "../%s/%s.html", all[k].system->name, id),
				all[k].system->name, NULL);
			if (!one)
				hg_add_cell(a, row, hg_printf(a, "%s/byte", hg_unit_name(all[k].system)), 0);
			for (z = 0; z < nsizes; z++)
				used |= hg_fig_cell(a, row, S_at(&all[k], libs[i], sizes[z]), 0);
		}
	hg_marks_legend(a, body, used, 0, &noted);
	if (chart) {
		p = hg_add(a, body, HG_PARA);
		p->cls = "chart";
		hg_add_image(a, p, hg_printf(a, "%s.svg", id), hg_printf(a, "Chart: %s per byte against "
			"message size of each library of %s on each system%s", one ?
			hg_unit_name(all[0].system) : "cycles or ticks", id, one ? "" :
			" (the legend names each line's unit)"), "chart");
	}
}

hg_page *hg_page_across(const hg_data *d, const char *id, const hg_sysfigs *all, size_t nall,
	const hg_texts *tx, int chart)
{
	hg_page *p = hg_page_new();
	hg_arena *a = p->arena;
	const hg_entry *e = hg_data_entry(d, id);
	hg_node *body = p->body, *para;
	size_t nlibs = 0, k;
	const hg_fig **libs = S_libs(all, nall, &nlibs);
	S_attr actx = S_attr_of(a, all, nall);

	p->root = "../";
	p->title = hg_printf(a, "%s %s — performance on every system", id, e ? e->name : id);
	S_breadcrumb(p, id, all, nall);
	hg_add_heading(a, body, 1, p->title);
	para = hg_add(a, body, HG_PARA);
	para->cls = "attribution";
	hg_prose_inline(a, para, tx->attribution, S_attr_lookup, &actx);
	para = hg_add(a, body, HG_PARA);
	hg_add_textf(a, para, "%s as each of the %zu systems that measured it found it: its "
		"libraries' KAT results and figures side by side, taken from each system's evidence. Each "
		"system's full report (environment, KAT files, every figure, memory and evidence): ", id,
		nall);
	for (k = 0; k < nall; k++) {
		if (k)
			hg_add_text(a, para, " · ");
		hg_add_link(a, para, hg_printf(a, "../%s/%s.html", all[k].system->name, id),
			all[k].system->name, NULL);
	}
	hg_add_text(a, para, ".");
	S_systems(a, body, id, all, nall);
	S_kats(a, body, id, all, nall, libs, nlibs);
	S_perf(a, body, id, all, nall, libs, nlibs, chart);
	p->footer = hg_node_new(a, HG_PARA);
	hg_add_textf(a, p->footer, "Generated by %s from evidence of %zu systems:", tx->generator,
		nall);
	for (k = 0; k < nall; k++)
		hg_add_textf(a, p->footer, "%s %s %s", k ? ";" : "", all[k].system->name,
			hg_measured_by(a, all[k].system));
	hg_add_text(a, p->footer, ".");
	free(libs);
	return p;
}

/* A series per system and library that has figures, its points from points (room for every
 * row) and its label in labels (malloc'd, freed by the caller); returns how many. */
static size_t S_series(hg_chart_series *series, hg_chart_point *points, char **labels,
	const hg_sysfigs *all, size_t nall, const hg_fig *const *libs, size_t nlibs, int one)
{
	size_t ns = 0, np = 0, i, k, w;
	for (i = 0; i < nlibs; i++)
		for (k = 0; k < nall; k++) {
			const hg_sysfigs *o = &all[k];
			hg_chart_series *sr = &series[ns];
			sr->points = &points[np];
			for (w = 0; w < o->nfigs; w++)
				if (o->figs[w].ok && hg_same_lib(&o->figs[w], libs[i])) {
					hg_chart_point_of(&points[np++], &o->figs[w]);
					sr->npoints++;
				}
			if (!sr->npoints)
				continue;
			labels[ns] = one ? hg_xprintf("%s: %s (%s)", o->system->name, libs[i]->instance,
				libs[i]->implementation) : hg_xprintf("%s, %s: %s (%s)", o->system->name,
				hg_unit_name(o->system), libs[i]->instance, libs[i]->implementation);
			sr->label = labels[ns++];
		}
	return ns;
}

int hg_chart_across(char **out, size_t *len, const hg_data *d, const char *id,
	const hg_sysfigs *all, size_t nall)
{
	const hg_entry *e = hg_data_entry(d, id);
	size_t total = 0, ns = 0, k, i, nlibs = 0;
	const hg_fig **libs = S_libs(all, nall, &nlibs);
	int one = S_one_unit(all, nall), rc;
	const char *unit = one ? hg_unit_name(all[0].system) : "cycles or counter ticks";
	hg_chart_series *series;
	hg_chart_point *points;
	char **labels;
	hg_chart_lines c;

	for (k = 0; k < nall; k++)
		total += all[k].nfigs;
	series = calloc(nlibs * nall + 1, sizeof(*series));
	points = calloc(total + 1, sizeof(*points));
	labels = calloc(nlibs * nall + 1, sizeof(char *));
	if (libs && series && points && labels)
		ns = S_series(series, points, labels, all, nall, libs, nlibs, one);
	c.title = hg_xprintf("%s %s on every system: %s per byte against message size", id,
		e ? e->name : id, unit);
	c.desc = hg_xprintf("Headline %s per byte (vertical axis) of each library of %s on each "
		"system that measured it, at each message size (horizontal axis, logarithmic); one line "
		"per system and library, named in the legend. %sWhiskers: each figure's interval. Hollow "
		"markers: figures whose interval is wide or unconfirmed (without an interval: "
		"disturbed).", unit, id, one ? "" : "The systems' units differ (the legend names each "
		"line's): counter ticks and cycles are not one scale. ");
	c.y_label = one ? hg_xprintf("%s/byte", unit) : hg_xstrdup("cycles or ticks/byte (see "
		"legend)");
	c.series = series;
	c.nseries = ns;
	rc = libs && series && points && labels ? hg_chart_lines_svg(out, len, &c) :
		hg_error_set("out of memory");
	free((char *)c.title);
	free((char *)c.desc);
	free((char *)c.y_label);
	for (i = 0; i < ns; i++)
		free(labels[i]);
	free(labels);
	free(series);
	free(points);
	free(libs);
	return rc;
}
