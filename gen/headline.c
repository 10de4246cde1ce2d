/* headline.c — the headline figure of a record (an estimator that repeats on a noisy host, beside
 * the guide's means) with its interval and its paired ratio to the campaign's anchor, and the
 * campaign's estimator, read from the evidence as untrusted input. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "evidence.h"

/* ---- reading ---- */

/* A finite number of 0 or more at path; absent or null is an error only when required. */
static int S_num(double *out, json_t *v, const char *file, const char *path, int required)
{
	if (!v || json_is_null(v))
		return required ? hg_ev_bad(file, path, v ? "expected a number of 0 or more, got null" :
			"missing") : 0;
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0)
		return hg_ev_bad(file, path, "expected a number of 0 or more");
	*out = json_number_value(v);
	return 0;
}

static const char *const S_iv_names[] = { NULL, "narrow", "wide", "unconfirmed" };

const char *hg_iv_name(hg_iv_state state)
{
	return state > HG_IV_NONE && state <= HG_IV_UNCONFIRMED ? S_iv_names[state] : NULL;
}

/* A required number of 0 or more of headline.interval. */
static int S_iv_num(double *out, json_t *iv, const char *key, const char *file)
{
	char path[96];
	snprintf(path, sizeof path, "headline.interval.%s", key);
	return S_num(out, json_object_get(iv, key), file, path, 1);
}

/* Is v a floor's source: "history" (the system's earlier campaigns) or "default"? */
static int S_floor_source(json_t *v)
{
	return json_is_string(v) && (strcmp(json_string_value(v), "history") == 0 ||
		strcmp(json_string_value(v), "default") == 0);
}

/* headline.interval (issue 32's contract): every field required, of its type, low <= high. */
static int S_interval(hg_interval *out, json_t *iv, const char *file)
{
	static const char *const bounds[2][2] = { { "low_cycles_per_call", "high_cycles_per_call" },
		{ "low_cycles_per_byte", "high_cycles_per_byte" } };
	json_t *method = json_object_get(iv, "method"), *state = json_object_get(iv, "state");
	double *lo[2] = { &out->low_cycles_per_call, &out->low_cycles_per_byte };
	double *hi[2] = { &out->high_cycles_per_call, &out->high_cycles_per_byte };
	hg_iv_state k;
	size_t b;

	if (!json_is_object(iv))
		return hg_ev_bad(file, "headline.interval", "expected an object");
	if (!method || !json_is_string(method))
		return hg_ev_bad(file, "headline.interval.method", method ? "expected a string" :
			"missing");
	if (!state)
		return hg_ev_bad(file, "headline.interval.state", "missing");
	for (k = HG_IV_NARROW; k <= HG_IV_UNCONFIRMED && json_is_string(state); k++)
		if (strcmp(json_string_value(state), S_iv_names[k]) == 0)
			break;
	if (!json_is_string(state) || k > HG_IV_UNCONFIRMED)
		return hg_ev_bad(file, "headline.interval.state",
			"expected \"narrow\", \"wide\" or \"unconfirmed\"");
	if (S_iv_num(&out->level, iv, "level", file) || S_iv_num(&out->floor_pct, iv, "floor_pct",
			file) || S_iv_num(&out->half_width_pct, iv, "half_width_pct", file) ||
		S_iv_num(&out->target_pct, iv, "target_pct", file))
		return -1;
	if (out->level <= 0 || out->level > 1)
		return hg_ev_bad(file, "headline.interval.level", "expected a number above 0, at most 1");
	if (json_object_get(iv, "floor_source") && !S_floor_source(json_object_get(iv,
			"floor_source")))
		return hg_ev_bad(file, "headline.interval.floor_source",
			"expected \"history\" or \"default\"");
	if (hg_ev_int(&out->passes, file, iv, "headline.interval.", "passes", 1) ||
		hg_ev_int(&out->order, file, iv, "headline.interval.", "order", 1))
		return -1;
	if (out->passes < 1)
		return hg_ev_bad(file, "headline.interval.passes", "expected an integer of 1 or more");
	if (out->order < 1 || out->order > out->passes)
		return hg_ev_bad(file, "headline.interval.order", "expected an integer from 1 to "
			"headline.interval.passes");
	for (b = 0; b < 2; b++) {
		char path[96];
		if (S_iv_num(lo[b], iv, bounds[b][0], file) || S_iv_num(hi[b], iv, bounds[b][1], file))
			return -1;
		snprintf(path, sizeof path, "headline.interval.%s", bounds[b][0]);
		if (*lo[b] > *hi[b])
			return hg_ev_bad(file, path, b ? "above high_cycles_per_byte" :
				"above high_cycles_per_call");
	}
	out->method = hg_xstrdup(json_string_value(method));
	out->state = k;
	return 0;
}

/* A required finite number above 0 of headline.paired. */
static int S_pair_num(double *out, json_t *pd, const char *key, const char *file)
{
	json_t *v = json_object_get(pd, key);
	char path[96];
	snprintf(path, sizeof path, "headline.paired.%s", key);
	if (!v)
		return hg_ev_bad(file, path, "missing");
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || !(json_number_value(v) > 0))
		return hg_ev_bad(file, path, "expected a number above 0");
	*out = json_number_value(v);
	return 0;
}

/* A required string of headline.paired.anchor. */
static int S_anchor_str(char **out, json_t *anchor, const char *key, const char *file)
{
	json_t *v = json_object_get(anchor, key);
	char path[96];
	snprintf(path, sizeof path, "headline.paired.anchor.%s", key);
	if (!v || !json_is_string(v))
		return hg_ev_bad(file, path, v ? "expected a string" : "missing");
	*out = hg_xstrdup(json_string_value(v));
	return 0;
}

/* The fields of headline.paired the pages do not use: checked for their type when present. */
static int S_paired_rest(json_t *pd, const char *file)
{
	json_t *method = json_object_get(pd, "method"), *seed = json_object_get(pd, "bootstrap_seed");
	json_t *ratios = json_object_get(pd, "pair_ratios"), *boot = json_object_get(pd, "bootstrap");
	json_t *fastest = json_object_get(pd, "fastest_fraction");
	long long n;
	double x;

	if (method && !json_is_string(method))
		return hg_ev_bad(file, "headline.paired.method", "expected a string");
	if (seed && !json_is_integer(seed))
		return hg_ev_bad(file, "headline.paired.bootstrap_seed", "expected an integer");
	if (ratios && !json_is_array(ratios))
		return hg_ev_bad(file, "headline.paired.pair_ratios", "expected an array");
	if (boot && !json_is_string(boot))
		return hg_ev_bad(file, "headline.paired.bootstrap", "expected a string");
	if (fastest && !(json_is_number(fastest) && json_number_value(fastest) > 0 &&
			json_number_value(fastest) <= 1))
		return hg_ev_bad(file, "headline.paired.fastest_fraction", "expected a number in (0, 1]");
	return hg_ev_int(&n, file, pd, "headline.paired.", "pairs", 0) ||
		hg_ev_int(&n, file, pd, "headline.paired.", "passes", 0) ||
		S_num(&x, json_object_get(pd, "half_width_pct"), file, "headline.paired.half_width_pct",
			0) ? -1 : 0;
}

/* headline.paired: the anchor, the campaign's seed, the ratio in its interval and its state
 * required; the anchor's own record (self) exactly 1. */
static int S_paired(hg_rec_paired *out, json_t *pd, const char *file)
{
	json_t *anchor = json_object_get(pd, "anchor"), *self = json_object_get(pd, "self");
	json_t *seed = json_object_get(pd, "campaign_seed"), *state = json_object_get(pd, "state");

	if (!json_is_object(pd))
		return hg_ev_bad(file, "headline.paired", "expected an object");
	if (!anchor || !json_is_object(anchor))
		return hg_ev_bad(file, "headline.paired.anchor", anchor ? "expected an object" :
			"missing");
	if (!self || !json_is_boolean(self))
		return hg_ev_bad(file, "headline.paired.self", self ? "expected true or false" :
			"missing");
	if (!seed || !json_is_integer(seed))
		return hg_ev_bad(file, "headline.paired.campaign_seed", seed ? "expected an integer" :
			"missing");
	if (!state || !json_is_string(state) || (strcmp(json_string_value(state), "narrow") != 0 &&
			strcmp(json_string_value(state), "wide") != 0))
		return hg_ev_bad(file, "headline.paired.state", state ?
			"expected \"narrow\" or \"wide\"" : "missing");
	if (S_pair_num(&out->ratio, pd, "ratio", file) || S_pair_num(&out->low, pd, "low", file) ||
		S_pair_num(&out->high, pd, "high", file) || S_paired_rest(pd, file))
		return -1;
	if (out->low > out->ratio)
		return hg_ev_bad(file, "headline.paired.low", "above headline.paired.ratio");
	if (out->ratio > out->high)
		return hg_ev_bad(file, "headline.paired.high", "below headline.paired.ratio");
	out->self = json_is_true(self);
	if (out->self && (out->ratio != 1 || out->low != 1 || out->high != 1))
		return hg_ev_bad(file, "headline.paired.ratio", "expected ratio, low and high 1 for "
			"the anchor's own record (self true)");
	if (S_anchor_str(&out->anchor_instance, anchor, "instance", file) ||
		S_anchor_str(&out->anchor_implementation, anchor, "implementation", file))
		return -1;
	out->campaign_seed = (long long)json_integer_value(seed);
	out->state = strcmp(json_string_value(state), "wide") == 0 ? HG_IV_WIDE : HG_IV_NARROW;
	out->present = 1;
	return 0;
}

static int S_headline(hg_headline *h, json_t *hl, const char *file)
{
	json_t *est = json_object_get(hl, "estimator"), *ps = json_object_get(hl, "passes"), *v;
	char path[64];
	size_t i;

	if (!json_is_object(hl))
		return hg_ev_bad(file, "headline", "expected an object");
	if (!est || !json_is_string(est))
		return hg_ev_bad(file, "headline.estimator", est ? "expected a string" : "missing");
	if (S_num(&h->cycles_per_call, json_object_get(hl, "cycles_per_call"), file,
			"headline.cycles_per_call", 1) ||
		S_num(&h->cycles_per_byte, json_object_get(hl, "cycles_per_byte"), file,
			"headline.cycles_per_byte", 1))
		return -1;
	if (ps && !json_is_null(ps)) {
		if (!json_is_array(ps))
			return hg_ev_bad(file, "headline.passes", "expected an array of numbers");
		json_array_foreach(ps, i, v) {
			double x;
			snprintf(path, sizeof path, "headline.passes[%zu]", i);
			if (S_num(&x, v, file, path, 1))
				return -1;
		}
		h->calm_passes = json_array_size(ps);
	}
	v = json_object_get(hl, "interval");
	if (v && !json_is_null(v) && S_interval(&h->interval, v, file) != 0)
		return -1;
	v = json_object_get(hl, "paired");
	if (v && !json_is_null(v) && S_paired(&h->paired, v, file) != 0)
		return -1;
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
		return hg_ev_bad(file, "passes", "expected an array");
	json_array_foreach(ps, i, p) {
		json_t *calm = json_object_get(p, "calm"), *reason = json_object_get(p, "reason");
		double x;
		if (!json_is_object(p)) {
			snprintf(path, sizeof path, "passes[%zu]", i);
			return hg_ev_bad(file, path, "expected an object");
		}
		snprintf(path, sizeof path, "passes[%zu].calm", i);
		if (calm && !json_is_boolean(calm))
			return hg_ev_bad(file, path, "expected true or false");
		snprintf(path, sizeof path, "passes[%zu].reason", i);
		if (reason && !json_is_null(reason) && !json_is_string(reason))
			return hg_ev_bad(file, path, "expected a string or null");
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
	free(r->headline.interval.method);
	r->headline.interval.method = NULL;
	free(r->headline.paired.anchor_instance);
	free(r->headline.paired.anchor_implementation);
	memset(&r->headline.paired, 0, sizeof(r->headline.paired));
}

/* A number or null (NAN) of campaign.history. */
static int S_num_or_null(double *out, json_t *h, const char *key, const char *file)
{
	char path[64];
	json_t *v = json_object_get(h, key);
	snprintf(path, sizeof path, "campaign.history.%s", key);
	*out = NAN;
	if (!v)
		return hg_ev_bad(file, path, "missing");
	if (json_is_null(v))
		return 0;
	if (!json_is_number(v) || !isfinite(json_number_value(v)))
		return hg_ev_bad(file, path, "expected a number or null");
	*out = json_number_value(v);
	return 0;
}

/* campaign.history: the interval's floor, where it came from and the machine's speed against
 * its history (absent: evidence of an earlier version). */
static int S_history(hg_system *s, json_t *h, const char *file)
{
	json_t *src = json_object_get(h, "floor_source");
	s->floor_source = NULL;
	s->floor_pct = s->drift_pct = s->speed_vs_history_pct = NAN;
	s->history_campaigns = s->history_figures = -1;
	if (!h)
		return 0;
	if (!json_is_object(h))
		return hg_ev_bad(file, "campaign.history", "expected an object");
	if (!src || !S_floor_source(src))
		return hg_ev_bad(file, "campaign.history.floor_source", src ?
			"expected \"history\" or \"default\"" : "missing");
	if (S_num(&s->floor_pct, json_object_get(h, "floor_pct"), file,
			"campaign.history.floor_pct", 1) ||
		hg_ev_int(&s->history_campaigns, file, h, "campaign.history.", "campaigns", 1) ||
		hg_ev_int(&s->history_figures, file, h, "campaign.history.", "figures", 0) ||
		S_num_or_null(&s->drift_pct, h, "drift_pct", file) ||
		S_num_or_null(&s->speed_vs_history_pct, h, "speed_vs_history_pct", file))
		return -1;
	s->floor_source = hg_xstrdup(json_string_value(src));
	return 0;
}

/* campaign.paired: null when the campaign did no paired passes, absent in earlier evidence. */
static int S_campaign_paired(hg_system *s, json_t *pd, const char *file)
{
	json_t *anchor = json_object_get(pd, "anchor");
	const char *inst = json_string_value(json_object_get(anchor, "instance"));
	const char *impl = json_string_value(json_object_get(anchor, "implementation"));
	json_t *wide = json_object_get(pd, "wide_pct"), *sched = json_object_get(pd, "schedule");

	s->paired_interleaved = 0;
	s->paired_passes = pd ? 0 : -1;
	s->paired_rounds = 0;
	s->paired_wide_pct = -1;
	if (!pd || json_is_null(pd))
		return 0;
	if (!json_is_object(pd))
		return hg_ev_bad(file, "campaign.paired", "expected an object or null");
	if (!inst || !impl)
		return hg_ev_bad(file, "campaign.paired.anchor", "expected its instance and "
			"implementation");
	if (hg_ev_int(&s->paired_passes, file, pd, "campaign.paired.", "passes", 1) ||
		hg_ev_int(&s->paired_rounds, file, pd, "campaign.paired.", "rounds", 1))
		return -1;
	if (wide && !(json_is_number(wide) && json_number_value(wide) > 0))
		return hg_ev_bad(file, "campaign.paired.wide_pct", "expected a number above 0");
	s->paired_wide_pct = wide ? json_number_value(wide) : -1;
	/* absent in evidence whose paired passes followed the passes */
	if (sched && (!json_string_value(sched) || (strcmp(json_string_value(sched),
			"interleaved") != 0 && strcmp(json_string_value(sched), "after") != 0)))
		return hg_ev_bad(file, "campaign.paired.schedule", "expected \"interleaved\" or "
			"\"after\"");
	s->paired_interleaved = sched && strcmp(json_string_value(sched), "interleaved") == 0;
	s->paired_anchor = hg_xprintf("%s (%s)", inst, impl);
	return 0;
}

int hg_headline_campaign(hg_system *s, json_t *campaign, const char *file)
{
	json_t *est = json_object_get(campaign, "estimator"), *p = json_object_get(campaign, "passes");
	json_t *prec = json_object_get(campaign, "precision_pct");

	s->estimator = NULL;
	s->passes = -1;
	s->precision_pct = !prec ? -1 : 0;
	if (S_history(s, json_object_get(campaign, "history"), file) != 0 ||
		S_campaign_paired(s, json_object_get(campaign, "paired"), file) != 0)
		return -1;
	if (prec && !json_is_null(prec)) {
		if (!json_is_number(prec) || !isfinite(json_number_value(prec)) ||
			json_number_value(prec) <= 0)
			return hg_ev_bad(file, "campaign.precision_pct", "expected a number above 0 or null");
		s->precision_pct = json_number_value(prec);
	}
	if (est && !json_is_null(est)) {
		if (!json_is_string(est))
			return hg_ev_bad(file, "campaign.estimator", "expected a string");
		s->estimator = hg_xstrdup(json_string_value(est));
	}
	if (p && !json_is_null(p)) {
		if (!json_is_integer(p) || json_integer_value(p) < 1)
			return hg_ev_bad(file, "campaign.passes", "expected an integer of 1 or more");
		s->passes = (long long)json_integer_value(p);
	}
	return 0;
}
