/* page_headline.c — the headline figure on the pages: its cell with its interval, the marks (‡ on
 * a headline whose interval is wide or unconfirmed, † on a spread above the limit) and their
 * legend, section 4's sentence on the headline column and the method page's placeholders on the
 * estimator and the sentinel's limit. */
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

int hg_mark_spread(hg_arena *a, hg_node *cell, unsigned long long bytes, double spread_pct,
	double limit)
{
	S_mark(a, cell, "†", hg_printf(a, "unstable at %llu B: the single calls spread ± %.1f %% "
		"about their median, above the limit of %.0f %%", bytes, spread_pct, limit));
	return HG_MARK_UNSTABLE;
}

int hg_mark_headline(hg_arena *a, hg_node *cell, const hg_headline_fig *h)
{
	switch (h->iv.state) {
	case HG_IV_WIDE:
		S_mark(a, cell, "‡", hg_printf(a, "wide at %llu B: ± %.1f %%, wider than the ± %g %% "
			"asked for", h->bytes, h->iv.half_pct, h->iv.target_pct));
		return HG_MARK_WIDE;
	case HG_IV_UNCONFIRMED:
		S_mark(a, cell, "‡", hg_printf(a, "unconfirmed at %llu B: no calm pass within its "
			"interval", h->bytes));
		return HG_MARK_UNCONFIRMED;
	case HG_IV_NARROW:
		return 0;
	case HG_IV_NONE:
		break;
	}
	if (!h->disturbed)
		return HG_MARK_NO_INTERVAL;
	S_mark(a, cell, "‡", hg_printf(a, "disturbed at %llu B: %s", h->bytes, !h->mean ?
		"not confirmed: no second pass came within 2 % of the fastest, or none of those was "
		"calm" : "its rounds still lay far apart after the retries"));
	return HG_MARK_DISTURBED | HG_MARK_NO_INTERVAL;
}

int hg_headline_cell(hg_arena *a, hg_node *row, const hg_headline_fig *h, int per_call)
{
	char b[HG_FMT];
	double half = hg_headline_half(h, per_call);
	hg_node *c = hg_add_cell(a, row, per_call ? hg_fmt_cycles_pm(b, sizeof(b), h->cycles, half) :
		hg_fmt_cpb_pm(b, sizeof(b), h->cpb, half), 1);
	return hg_mark_headline(a, c, h);
}

int hg_fig_cell(hg_arena *a, hg_node *row, const hg_fig *f, int per_call)
{
	hg_headline_fig h;
	if (!f) {
		hg_add_cell(a, row, "—", 1);
		return 0;
	}
	hg_headline_of_fig(&h, f);
	return hg_headline_cell(a, row, &h, per_call);
}

/* A headline per byte as its cell shows it. */
static const char *S_cpb(hg_arena *a, const hg_headline_fig *h)
{
	char b[HG_FMT];
	return hg_strdup(a, hg_fmt_cpb_pm(b, sizeof(b), h->cpb, hg_headline_half(h, 0)));
}

/* The cell of a paired ratio (x and ref timed beside the same anchor in one campaign): its title
 * says so, ≈ when its interval holds 1, ‡ when either pair's interval is wide. */
static int S_paired_cell(hg_arena *a, hg_node *row, const hg_headline_fig *x,
	const hg_headline_fig *ref, const hg_ratio *r, const char *text)
{
	hg_node *c = hg_add_cell(a, row, NULL, 1), *span = hg_add(a, c, HG_SPAN);
	const char *beside = hg_printf(a, "timed side by side with %s (%s) in the same campaign",
		x->anchor_instance, x->anchor_implementation);

	if (hg_within_noise(x, ref)) {
		span->cls = "noise";
		span->title = hg_printf(a, "within noise: both %s, the interval of their paired ratio, "
			"%.4g to %.4g, holds 1, so the two are not shown to differ", beside, r->low,
			r->high);
		hg_add_textf(a, span, "≈ %s (within noise)", text);
	} else {
		span->title = hg_printf(a, "paired: both %s; interval %.4g to %.4g", beside, r->low,
			r->high);
		hg_add_text(a, span, text);
	}
	if (!r->wide)
		return 0;
	S_mark(a, c, "‡", hg_printf(a, "wide at %llu B: the interval from the pairs of %s is wider "
		"than the campaign's noise threshold", x->bytes, !ref->pair.wide ? "this figure" :
		!x->pair.wide ? "the yardstick" : "both"));
	return HG_MARK_PAIRED_WIDE;
}

int hg_ratio_cell(hg_arena *a, hg_node *row, const hg_headline_fig *x,
	const hg_headline_fig *ref, const char *times, const char *unit)
{
	hg_node *c, *span;
	hg_ratio r;
	char b[HG_FMT];

	if (hg_ratio_of(&r, x, ref) != 0) {
		hg_add_cell(a, row, "—", 1);
		return 0;
	}
	/* a yardstick's own row is exactly 1, without an interval to show */
	hg_fmt_ratio(b, sizeof(b), r.ratio, r.same ? -1 : r.low, r.high, times);
	if (r.paired && !r.same)
		return S_paired_cell(a, row, x, ref, &r, b);
	if (r.same || !hg_within_noise(x, ref)) {
		hg_add_cell(a, row, b, 1);
		return 0;
	}
	c = hg_add_cell(a, row, NULL, 1);
	span = hg_add(a, c, HG_SPAN);
	span->cls = "noise";
	span->title = hg_printf(a, "within noise: the intervals of %s and %s %s/byte overlap, "
		"so the two are not shown to differ", S_cpb(a, x), S_cpb(a, ref), unit);
	hg_add_textf(a, span, "≈ %s (within noise)", b);
	return 0;
}

void hg_marks_legend(hg_arena *a, hg_node *body, int used, double limit, int *noted)
{
	int iv = used & (HG_MARK_WIDE | HG_MARK_UNCONFIRMED);
	hg_node *p;

	if (noted && *noted)
		used &= ~HG_MARK_NO_INTERVAL;
	if (!used)
		return;
	p = hg_add(a, body, HG_PARA);
	p->cls = "legend";
	if (used & HG_MARK_UNSTABLE)
		hg_add_textf(a, p, "† on a spread: unstable, the single calls at that size spread more "
			"than %.0f %% about their median. ", limit);
	if (iv)
		hg_add_textf(a, p, "‡ on a headline figure: its interval is %s%s%s. ",
			used & HG_MARK_WIDE ? "wide (its half-width is above the precision the campaign "
			"asked for)" : "", iv == (HG_MARK_WIDE | HG_MARK_UNCONFIRMED) ? " or " : "",
			used & HG_MARK_UNCONFIRMED ? "unconfirmed (no calm pass lies within it)" : "");
	if (used & HG_MARK_PAIRED_WIDE)
		hg_add_text(a, p, "‡ on a ratio: it is paired and wide (the interval from the pairs of "
			"either figure is wider than the campaign's noise threshold). ");
	if (used & HG_MARK_DISTURBED)
		hg_add_text(a, p, "‡ on a figure without an interval: disturbed, not confirmed by a "
			"second pass within 2 %, one of them calm (in evidence of an earlier hashbench: its "
			"rounds still lay far apart after the retries). ");
	if (used & HG_MARK_NO_INTERVAL) {
		hg_add_text(a, p, "A figure without ± has no interval: evidence of an earlier hashbench "
			"(or of another tool) gives none. ");
		if (noted)
			*noted = 1;
	}
	hg_add_text(a, p, "The method page says how figures are judged.");
}

/* ---- section 4 and the method page ---- */

void hg_headline_perf_note(hg_arena *a, hg_node *para, const hg_system *s)
{
	hg_add_textf(a, para, "The headline %s/byte is the figure the comparisons, charts and "
		"ratios use: ", hg_unit_name(s));
	if (s->estimator)
		hg_add_textf(a, para, "the %s estimator of the method page, which repeats on a "
			"shared or virtual host where the guide's means move with its speed; a record "
			"without it (evidence of an earlier hashbench) shows the mean. It is shown ± the "
			"half-width of its interval, in its own unit and decimals (the method page says how "
			"the interval is found).", s->estimator);
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
	if (strcmp(name, "paired") == 0 && s->paired_passes > 0)
		return hg_printf(a, "%lld paired passes of %lld rounds beside %s, %s, a paired ratio "
			"wider than ± %g %% marked wide", s->paired_passes, s->paired_rounds,
			s->paired_anchor, s->paired_interleaved ? "spread evenly among the passes" :
			"after the passes (as hashbench ran them before it spread them)",
			s->paired_wide_pct > 0 ? s->paired_wide_pct : 1.0);
	if (strcmp(name, "paired") == 0)
		return s->paired_passes == 0 ? "no paired passes (the campaign was run with "
			"--paired-passes 0, was a shard, or had no anchor to pair with): every ratio is "
			"found from the headlines' intervals" : "not recorded (evidence of an earlier "
			"hashbench, without paired timing)";
	if (strcmp(name, "precision") == 0)
		return s->precision_pct > 0 ? hg_printf(a, "%g %%, asked with --precision",
			s->precision_pct) : s->precision_pct == 0 ? "2 %, the default" :
			"not recorded (evidence of an earlier hashbench)";
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
