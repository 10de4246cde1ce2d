/* page_headline.c — the headline figure on the pages: the marks of unstable and disturbed figures
 * and their legend, section 4's sentence on the headline column and the method page's
 * placeholders on the estimator and the sentinel's limit. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"

/* ---- the marks ---- */

static void S_mark(hg_arena *a, hg_node *cell, const char *symbol, const char *title)
{
	hg_node *m = hg_add(a, cell, HG_SPAN);
	m->cls = "mark";
	m->title = title;
	hg_add_text(a, m, symbol);
}

int hg_marks_add(hg_arena *a, hg_node *cell, int unstable, int disturbed,
	unsigned long long bytes, double spread_pct, double limit, const char *estimator)
{
	int used = 0;
	if (unstable) {
		S_mark(a, cell, "†", hg_printf(a, "unstable at %llu B: the single calls spread "
			"± %.1f %% about their median, above the limit of %.0f %%", bytes, spread_pct, limit));
		used |= HG_MARK_UNSTABLE;
	}
	if (disturbed) {
		S_mark(a, cell, "‡", hg_printf(a, "disturbed at %llu B: %s", bytes,
			estimator && strcmp(estimator, HG_ESTIMATOR_MEAN) != 0 ?
			"not confirmed: no second pass came within 2 % of the fastest, or none of those "
			"was calm" :
			"its rounds still lay far apart after the retries"));
		used |= HG_MARK_DISTURBED;
	}
	return used;
}

void hg_marks_legend(hg_arena *a, hg_node *body, int used, double limit)
{
	hg_node *p;
	if (!used)
		return;
	p = hg_add(a, body, HG_PARA);
	p->cls = "legend";
	if (used & HG_MARK_UNSTABLE)
		hg_add_textf(a, p, "† unstable: the single calls at that size spread more than %.0f %% "
			"about their median.%s", limit, used & HG_MARK_DISTURBED ? " " : "");
	if (used & HG_MARK_DISTURBED)
		hg_add_text(a, p, "‡ disturbed: the figure at that size was not confirmed by a second "
			"pass within 2 %, one of them calm (in evidence of an earlier hashbench: its rounds "
			"still lay far apart after the retries).");
	hg_add_text(a, p, " The method page says how figures are judged.");
}

/* ---- section 4 and the method page ---- */

void hg_headline_perf_note(hg_arena *a, hg_node *para, const hg_system *s)
{
	hg_add_textf(a, para, "The headline %s/byte is the figure the comparisons, charts and "
		"ratios use: ", hg_unit_name(s));
	if (s->estimator)
		hg_add_textf(a, para, "the %s estimator of the method page, which repeats on a "
			"shared or virtual host where the guide's means move with its speed; a record "
			"without it (evidence of an earlier hashbench) shows the mean.", s->estimator);
	else
		hg_add_text(a, para, "this system's evidence predates the repeatable estimator, so "
			"it is the guide's mean (estimator \"mean\").");
}

static const char *S_pct(hg_arena *a, double v)
{
	return v >= 0 ? hg_printf(a, "%.2f %%", v) : "not recorded";
}

const char *hg_headline_lookup(hg_arena *a, const hg_system *s, const char *name)
{
	const hg_sentinel *t = s->sentinel;
	if (strcmp(name, "estimator") == 0)
		return s->estimator ? s->estimator : "mean (evidence of an earlier hashbench: the "
			"headline figure is the guide's mean over the rounds)";
	if (strcmp(name, "passes") == 0)
		return s->passes > 0 ? hg_printf(a, "%lld", s->passes) : "not recorded";
	if (strcmp(name, "noise-floor") == 0)
		return S_pct(a, t ? t->noise_floor_pct : -1);
	if (strcmp(name, "limit-floor") == 0)
		return S_pct(a, t ? t->limit_floor_pct : -1);
	if (strcmp(name, "sentinel-limit") == 0)
		return S_pct(a, t ? t->campaign_limit_pct : -1);
	if (strcmp(name, "limit-source") == 0) {
		if (!t || !t->limit_source)
			return "not recorded";
		if (strcmp(t->limit_source, "calibrated") == 0)
			return "calibrated from the readings at the campaign's start";
		if (strcmp(t->limit_source, "--sentinel-limit") == 0)
			return "fixed with --sentinel-limit";
		return t->limit_source;
	}
	return NULL;
}
