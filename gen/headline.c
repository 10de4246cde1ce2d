/* headline.c — the headline figure of a record (an estimator that repeats on a noisy host, beside
 * the guide's means): read from the record as untrusted input, the mean as its fallback for
 * earlier evidence, the marks of unstable and disturbed figures and the method page's part. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "headline.h"

/* ---- reading ---- */

static int S_bad(const char *file, const char *path, const char *what)
{
	return hg_error_set("%s: %s: %s", file, path, what);
}

/* A finite number of 0 or more at path; absent or null is an error only when required. */
static int S_num(double *out, json_t *v, const char *file, const char *path, int required)
{
	if (!v || json_is_null(v))
		return required ? S_bad(file, path, v ? "expected a number of 0 or more, got null" :
			"missing") : 0;
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0)
		return S_bad(file, path, "expected a number of 0 or more");
	*out = json_number_value(v);
	return 0;
}

static int S_headline(hg_headline *h, json_t *hl, const char *file)
{
	json_t *est = json_object_get(hl, "estimator"), *ps = json_object_get(hl, "passes"), *v;
	char path[64];
	size_t i;

	if (!json_is_object(hl))
		return S_bad(file, "headline", "expected an object");
	if (!est || !json_is_string(est))
		return S_bad(file, "headline.estimator", est ? "expected a string" : "missing");
	if (S_num(&h->cycles_per_call, json_object_get(hl, "cycles_per_call"), file,
			"headline.cycles_per_call", 1) ||
		S_num(&h->cycles_per_byte, json_object_get(hl, "cycles_per_byte"), file,
			"headline.cycles_per_byte", 1))
		return -1;
	if (ps && !json_is_null(ps)) {
		if (!json_is_array(ps))
			return S_bad(file, "headline.passes", "expected an array of numbers");
		json_array_foreach(ps, i, v) {
			double x;
			snprintf(path, sizeof path, "headline.passes[%zu]", i);
			if (S_num(&x, v, file, path, 1))
				return -1;
		}
		h->calm_passes = json_array_size(ps);
	}
	h->estimator = hg_xstrdup(json_string_value(est));
	h->present = 1;
	return 0;
}

/* The record's passes[]: each an object; the fields the pages use checked for their type. */
static int S_passes(hg_headline *h, json_t *ps, const char *file)
{
	json_t *p;
	char path[64];
	size_t i;

	if (!ps || json_is_null(ps))
		return 0;
	if (!json_is_array(ps))
		return S_bad(file, "passes", "expected an array");
	json_array_foreach(ps, i, p) {
		json_t *calm = json_object_get(p, "calm"), *reason = json_object_get(p, "reason");
		double x;
		if (!json_is_object(p)) {
			snprintf(path, sizeof path, "passes[%zu]", i);
			return S_bad(file, path, "expected an object");
		}
		snprintf(path, sizeof path, "passes[%zu].calm", i);
		if (calm && !json_is_boolean(calm))
			return S_bad(file, path, "expected true or false");
		snprintf(path, sizeof path, "passes[%zu].reason", i);
		if (reason && !json_is_null(reason) && !json_is_string(reason))
			return S_bad(file, path, "expected a string or null");
		snprintf(path, sizeof path, "passes[%zu].min_cycles_per_call", i);
		if (S_num(&x, json_object_get(p, "min_cycles_per_call"), file, path, 0))
			return -1;
	}
	h->passes = json_array_size(ps);
	return 0;
}

int hg_headline_read(hg_record *r, json_t *j, const char *file)
{
	hg_headline *h = &r->headline;
	json_t *hl = json_object_get(j, "headline");

	memset(h, 0, sizeof(*h));
	if (hl && !json_is_null(hl) && S_headline(h, hl, file) != 0)
		return -1;
	return S_passes(h, json_object_get(j, "passes"), file);
}

void hg_headline_clear(hg_record *r)
{
	free(r->headline.estimator);
	r->headline.estimator = NULL;
}

int hg_headline_campaign(hg_system *s, json_t *campaign, const char *file)
{
	json_t *est = json_object_get(campaign, "estimator"), *p = json_object_get(campaign, "passes");

	s->estimator = NULL;
	s->passes = -1;
	if (est && !json_is_null(est)) {
		if (!json_is_string(est))
			return S_bad(file, "campaign.estimator", "expected a string");
		s->estimator = hg_xstrdup(json_string_value(est));
	}
	if (p && !json_is_null(p)) {
		if (!json_is_integer(p) || json_integer_value(p) < 1)
			return S_bad(file, "campaign.passes", "expected an integer of 1 or more");
		s->passes = (long long)json_integer_value(p);
	}
	return 0;
}

/* ---- the figure ---- */

void hg_headline_of(hg_headline_fig *out, const hg_record *r, const hg_figures_t *mean)
{
	if (r->headline.present) {
		out->cycles = r->headline.cycles_per_call;
		out->cpb = r->headline.cycles_per_byte;
		out->estimator = r->headline.estimator;
	} else {
		out->cycles = mean->mean_cycles;
		out->cpb = mean->cycles_per_byte;
		out->estimator = HG_ESTIMATOR_MEAN;
	}
}

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
	hg_add_text(a, para, "The headline cycles/byte is the figure the comparisons, charts and "
		"ratios use: ");
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
