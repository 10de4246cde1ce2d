/* headline.c — the headline figure of a record (an estimator that repeats on a noisy host, beside
 * the guide's means) and the campaign's estimator, read from the evidence as untrusted input. */
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
}

int hg_headline_campaign(hg_system *s, json_t *campaign, const char *file)
{
	json_t *est = json_object_get(campaign, "estimator"), *p = json_object_get(campaign, "passes");

	s->estimator = NULL;
	s->passes = -1;
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
