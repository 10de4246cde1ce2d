/* page_index.c — the page models of the site index (its account of the site: page_front.c),
 * each system's index and its method page. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"

/* An algorithm's headline on a system, with its interval, linked to its page, and its mark;
 * returns the marks. */
static int S_headline_cell(hg_arena *a, hg_node *row, const char *href, const hg_fig *f,
	const hg_system *s)
{
	hg_node *c = hg_add(a, row, HG_CELL);
	hg_headline_fig h;
	char b[HG_FMT];

	c->level = 1;
	if (!f) {
		hg_add_link(a, c, href, "no figure", NULL);
		return 0;
	}
	hg_headline_of_fig(&h, f);
	hg_add_link(a, c, href, hg_printf(a, "%s %s/byte", hg_fmt_cpb_pm(b, sizeof(b), h.cpb,
		hg_headline_half(&h, 0)), hg_unit_name(s)), NULL);
	return hg_mark_headline(a, c, &h);
}

/* The algorithm rows of the site's index (s NULL: one column per system) or of a system's index
 * (only the algorithms it has), made when the page is rendered; d, ids and headlines are the
 * caller's, alive while the page is rendered. */
typedef struct {
	const hg_data *d;
	const hg_system *s;
	const char *const *ids;
	const size_t *at;        /* a system's index: the indexes in ids of its algorithms */
	size_t nids;
	const hg_fig *const *headlines;
} S_alg_rows;

static int S_alg_row(void *ctx, size_t i, hg_arena *a, hg_node *t)
{
	const S_alg_rows *r = ctx;
	const char *id = r->ids[r->at ? r->at[i] : i];
	const hg_entry *e = hg_data_entry(r->d, id);
	hg_node *row = hg_add(a, t, HG_ROW);
	size_t k;
	int used = 0;

	if (r->s) {
		hg_add_cell(a, row, NULL, 0);
		hg_add_link(a, row->last, hg_printf(a, "%s.html", id), id, NULL);
		hg_add_cell(a, row, e ? e->name : "—", 0);
		return S_headline_cell(a, row, hg_printf(a, "%s.html", id),
			r->headlines[(size_t)(r->s - r->d->systems) * r->nids + r->at[i]], r->s);
	}
	if (hg_across_has(r->d, id)) {
		hg_add_cell(a, row, NULL, 0);
		hg_add_across_link(a, row->last, "", id, id);
	} else {
		hg_add_cell(a, row, id, 0);
	}
	hg_add_cell(a, row, e ? e->name : "—", 0);
	for (k = 0; k < r->d->nsystems; k++) {
		if (hg_system_has(&r->d->systems[k], id))
			used |= S_headline_cell(a, row, hg_printf(a, "%s/%s.html", r->d->systems[k].name,
				id), r->headlines[k * r->nids + i], &r->d->systems[k]);
		else
			hg_add_cell(a, row, "—", 1);
	}
	return used;
}

/* The rows of t made later, n of them (s, at: a system's index, else NULL); returns the marks
 * they carry (each made once here and dropped). */
static int S_alg_rows_later(hg_arena *a, hg_node *t, const hg_data *d, const hg_system *s,
	const char *const *ids, const size_t *at, size_t nids, const hg_fig *const *headlines,
	size_t n)
{
	S_alg_rows *kept = hg_alloc(a, sizeof(*kept));

	kept->d = d;
	kept->s = s;
	kept->ids = ids;
	kept->at = at;
	kept->nids = nids;
	kept->headlines = headlines;
	return hg_table_later_flags(a, t, S_alg_row, kept, n);
}

hg_page *hg_page_index(const hg_data *d, const char *const *ids, size_t nids,
	const hg_fig *const *headlines, const hg_front_sys *sys, const hg_texts *tx)
{
	hg_page *p = hg_page_new();
	hg_arena *a = p->arena;
	hg_node *body = p->body, *t, *row, *para;
	size_t k;
	int used, noted = 0;

	p->title = "Performance measurements";
	p->breadcrumb = hg_node_new(a, HG_PARA);
	hg_add_text(a, p->breadcrumb, "Performance measurements");
	hg_add_heading(a, body, 1, p->title);
	hg_front_intro(a, body, d);
	hg_front_systems(a, body, d, sys);
	used = hg_front_field(a, body, d, sys);
	hg_marks_legend(a, body, used, 0, &noted);
	hg_add_heading(a, body, 2, "Every algorithm");
	para = hg_add(a, body, HG_PARA);
	hg_add_text(a, para, "Every algorithm on every measured system; each figure is cycles per "
		"byte at 65536 B of the first reference instance");
	for (k = 0; k < d->nsystems && strcmp(hg_unit_name(&d->systems[k]), "cycles") == 0; k++)
		;
	if (k < d->nsystems) /* a system whose counter is not the core's clock */
		hg_add_text(a, para, " (counter ticks per byte where the cell says ticks/byte)");
	hg_add_text(a, para, ", and links to the algorithm's page on that system; an algorithm "
		"measured on two systems or more links to its page across them.");
	para = hg_add(a, body, HG_PARA);
	hg_add_textf(a, para, "Every figure of every system, with the record it comes from and its "
		"SHA-256: the downloads come in parts of %d algorithms per system, with an index giving "
		"each part's SHA-256 (", HG_PART_ALGORITHMS);
	hg_add_link(a, para, "results-index.json", "JSON", NULL);
	hg_add_text(a, para, " · ");
	hg_add_link(a, para, "results-index.csv", "CSV", NULL);
	hg_add_text(a, para, "); each system's parts:");
	for (k = 0; k < d->nsystems; k++) {
		hg_add_text(a, para, k ? " · " : " ");
		hg_add_link(a, para, hg_printf(a, "%s/compare.html#downloads", d->systems[k].name),
			hg_printf(a, "%s parts", d->systems[k].name), NULL);
	}
	hg_add_text(a, para, ".");
	t = hg_add(a, body, HG_TABLE);
	t->cls = "sortable";
	row = hg_add(a, t, HG_ROW);
	hg_add_cell(a, row, "algorithm", 0);
	hg_add_cell(a, row, "name", 0);
	for (k = 0; k < d->nsystems; k++) {
		hg_node *c = hg_add(a, row, HG_CELL);
		c->level = 1;
		hg_add_link(a, c, hg_printf(a, "%s/index.html", d->systems[k].name), d->systems[k].name,
			NULL);
	}
	used = S_alg_rows_later(a, t, d, NULL, ids, NULL, nids, headlines, nids);
	hg_marks_legend(a, body, used, 0, &noted);
	hg_imported_index_note(a, body, d);
	p->footer = hg_node_new(a, HG_PARA);
	hg_add_textf(a, p->footer, "Generated by %s.", tx->generator);
	return p;
}

hg_page *hg_page_system(const hg_data *d, const hg_system *s, const char *const *ids,
	size_t nids, const hg_fig *const *headlines, const hg_texts *tx)
{
	hg_page *p = hg_page_new();
	hg_arena *a = p->arena;
	hg_node *body = p->body, *t, *row, *para;
	size_t i, n = 0, w, *at;
	int used;

	p->root = "../";
	p->title = hg_printf(a, "System %s — %s", s->name, hg_arch_name(s->arch));
	p->breadcrumb = hg_index_breadcrumb(a);
	hg_add_textf(a, p->breadcrumb, " › %s", s->name);
	hg_add_heading(a, body, 1, p->title);
	para = hg_add(a, body, HG_PARA);
	hg_add_text(a, para, "How this system was measured: ");
	hg_add_link(a, para, "method.html", hg_printf(a, "%s method", s->name), NULL);
	hg_add_textf(a, para, " (profile %s). Every algorithm of this system side by side: ",
		s->profile);
	hg_add_link(a, para, "compare.html", hg_printf(a, "%s comparison", s->name), NULL);
	hg_add_text(a, para, "; as eBASH tabulates it, each primitive's fastest implementation and "
		"those within noise of it: ");
	hg_add_link(a, para, "ebash.html", hg_printf(a, "%s eBASH table", s->name), NULL);
	hg_add_text(a, para, ".");
	hg_add_heading(a, body, 2, "Assessment environment");
	hg_env_rows(a, body, s);
	for (w = 0; s->warnings[w]; w++) {
		para = hg_add(a, body, HG_PARA);
		hg_add_warning(a, para, s->warnings[w]);
	}
	hg_add_heading(a, body, 2, "Algorithms");
	t = hg_add(a, body, HG_TABLE);
	t->cls = "sortable";
	row = hg_add(a, t, HG_ROW);
	hg_add_cell(a, row, "algorithm", 0);
	hg_add_cell(a, row, "name", 0);
	hg_add_cell(a, row, hg_unit_text(a, s, "cycles/byte at 65536 B"), 1);
	at = hg_alloc(a, (nids + 1) * sizeof(*at));
	for (i = 0; i < nids; i++)
		if (hg_system_has(s, ids[i]))
			at[n++] = i;
	used = S_alg_rows_later(a, t, d, s, ids, at, nids, headlines, n);
	hg_marks_legend(a, body, used, s->spread_limit_pct, NULL);
	p->footer = hg_node_new(a, HG_PARA);
	hg_add_textf(a, p->footer, "Generated by %s from evidence %s.", tx->generator,
		hg_measured_by(a, s));
	return p;
}

/* ---- the method page ---- */

typedef struct {
	const hg_system *s;
	hg_arena *a;
} S_method_ctx;

/* The interval's floor on this system, inside "(`floor_pct` in the record, …)": evidence of an
 * earlier version says what it said then. */
static const char *S_floor(hg_arena *a, const hg_system *s)
{
	if (!s->floor_source)
		return "± 0.4 % for this version";
	return hg_printf(a, "on this system ± %.2f %%", s->floor_pct);
}

/* How the floor was set from the system's history, and the machine's speed against it: one or
 * two sentences after the floor's, each with its leading space; nothing for earlier evidence. */
static const char *S_floor_history(hg_arena *a, const hg_system *s)
{
	const char *how, *speed = "";
	if (!s->floor_source)
		return "";
	if (strcmp(s->floor_source, "history") != 0)
		how = hg_printf(a, " On this system it is the default, ± %.1f %%: its history "
			"(history.json, one entry per campaign) held fewer than 3 earlier campaigns on its "
			"timing CPU, too few to measure its drift from one campaign to the next.",
			s->floor_pct);
	else
		how = hg_printf(a, " On this system it was set from its history (history.json, one entry "
			"per campaign) of %lld earlier campaigns on its timing CPU: the machine's drift from "
			"one campaign to the next, %.2f %%, %s, kept between 0.2 and 10 %%.",
			s->history_campaigns, s->drift_pct, s->history_figures > 0 ?
			hg_printf(a, "the distance from its own median within which 90 %% of the headlines "
			"of %lld yardstick figures (SM3 and SHA-256 at 1 KiB and more) lay, over those "
			"campaigns, each headline whose own interval was narrow", s->history_figures) :
			"the distance from their median within which 90 % of the sentinel's best readings "
			"of those campaigns lay, no yardstick having been measured often enough");
	if (isfinite(s->speed_vs_history_pct) && fabs(s->speed_vs_history_pct) > s->floor_pct)
		speed = hg_printf(a, " This campaign's machine was %.1f %% %s than its history (the "
			"median of those campaigns' sentinel best).", fabs(s->speed_vs_history_pct),
			s->speed_vs_history_pct > 0 ? "slower" : "faster");
	return hg_printf(a, "%s%s", how, speed);
}

static const char *S_method_lookup(void *ctx, const char *name)
{
	const S_method_ctx *c = ctx;
	const hg_system *s = c->s;
	const char *v;
	char b[512];
	if (strcmp(name, "system") == 0)
		return s->name;
	if (strcmp(name, "processor") == 0)
		return hg_or_na(s->processor);
	if (strcmp(name, "cpu") == 0)
		return hg_printf(c->a, "%d", s->cpu);
	if (strcmp(name, "clock") == 0)
		return hg_strdup(c->a, hg_fmt_clock(b, sizeof(b), s->governor, s->min_khz, s->max_khz,
			s->boost_name, s->boost_state, s->smt));
	if (strcmp(name, "profile") == 0)
		return s->profile;
	if (strcmp(name, "rounds") == 0)
		return s->rounds >= 0 ? hg_printf(c->a, "%lld", s->rounds) : "not recorded";
	if (strcmp(name, "round-ms") == 0)
		return s->round_ms >= 0 ? hg_printf(c->a, "%lld ms", s->round_ms) : "not recorded";
	if (strcmp(name, "max-calls") == 0)
		return s->max_calls >= 0 ? hg_printf(c->a, "%lld", s->max_calls) : "not recorded";
	if (strcmp(name, "compiler") == 0)
		return hg_or_na(s->compiler);
	if (strcmp(name, "sandbox") == 0)
		return s->sandbox ? s->sandbox : "Not recorded.";
	if (strcmp(name, "schedule") == 0)
		return s->schedule ? s->schedule : "Not recorded.";
	if (strcmp(name, "hashbench") == 0)
		return s->hashbench;
	if (strcmp(name, "overhead-policy") == 0)
		return s->overhead_subtracted == 1 ? "subtracted from" :
			s->overhead_subtracted == 0 ? "included in" : "not stated for";
	if (strcmp(name, "spread-limit") == 0)
		return hg_printf(c->a, "%.0f %%", s->spread_limit_pct);
	if (strcmp(name, "interval-floor") == 0)
		return S_floor(c->a, s);
	if (strcmp(name, "floor-history") == 0)
		return S_floor_history(c->a, s);
	if ((v = hg_counter_lookup(c->a, s, name)) != NULL)
		return v;
	return hg_headline_lookup(c->a, s, name);
}

hg_page *hg_page_method(const hg_data *d, const hg_system *s, const hg_texts *tx)
{
	hg_page *p = hg_page_new();
	hg_arena *a = p->arena;
	S_method_ctx ctx = { s, a };
	size_t w;
	(void)d;

	p->root = "../";
	p->title = hg_printf(a, "How system %s was measured", s->name);
	p->breadcrumb = hg_system_breadcrumb(a, s);
	hg_add_text(a, p->breadcrumb, " › method");
	hg_add_heading(a, p->body, 1, p->title);
	if (s->imported)
		hg_imported_method(a, p->body, s);
	else
		hg_prose(a, p->body, tx->method, S_method_lookup, &ctx);
	if (!s->imported)
		hg_sentinel_method(a, p->body, s);
	if (s->warnings[0]) {
		hg_add_heading(a, p->body, 2, "What may disturb the figures");
		for (w = 0; s->warnings[w]; w++)
			hg_add_warning(a, hg_add(a, p->body, HG_PARA), s->warnings[w]);
	}
	p->footer = hg_node_new(a, HG_PARA);
	if (s->imported)
		hg_add_textf(a, p->footer, "Generated by %s from evidence %s.", tx->generator,
			hg_measured_by(a, s));
	else
		hg_add_textf(a, p->footer, "Generated by %s.", tx->generator);
	return p;
}
