/* interval.c — the headline's 95 % interval from its pass minima: the headline ± the distance to
 * the j-th fastest pass (the union of the percentile and basic bootstrap intervals of the
 * minimum over passes), never narrower than a floor (the campaign's, from the system's history:
 * history.c) nor than how far the machine's speed lay from that history; and its state: narrow, wide (above the precision asked for) or unconfirmed (no
 * calm pass within it, and then at least as wide as the machine was slow around the pass that
 * gave the figure). */
#include <math.h>
#include <stdlib.h>

#include <jansson.h>

#include "hbcampaign.h"

typedef struct {
	double m;      /* a pass's fastest block, cycles per call */
	int calm;
	double slow;   /* how much slower than its usual best the sentinel found the machine, % */
	double ref;    /* the sentinel's usual best when the pass ran, cycles; 0 unknown */
} S_pass;

/* The sentinel's reading nearer the machine's usual best, before or after the pass, as a
 * percentage above that best (0 when it was at its best or not read). */
static double S_slow(json_t *sentinel)
{
	double ref = json_number_value(json_object_get(sentinel, "reference"));
	json_t *b = json_object_get(sentinel, "before"), *a = json_object_get(sentinel, "after");
	double d;
	if (ref > 0 && json_is_number(b) && json_is_number(a)) {
		double x = json_number_value(b), y = json_number_value(a);
		d = ((x < y ? x : y) - ref) / ref * 100;
	} else {
		d = json_number_value(json_object_get(sentinel, "deviation_pct"));
	}
	return d > 0 ? d : 0;
}

static int S_cmp(const void *a, const void *b)
{
	double x = ((const S_pass *)a)->m, y = ((const S_pass *)b)->m;
	return x < y ? -1 : x > y;
}

size_t hb_interval_order(size_t k)
{
	/* a bootstrap resample of k pass minima has its minimum at or below the j-th fastest with
	 * probability 1 - (1 - j/k)^k; the smallest j that reaches the level */
	size_t j;
	for (j = 1; j < k; j++) {
		double miss = 1, q = 1 - (double)j / (double)k;
		size_t i;
		for (i = 0; i < k; i++)
			miss *= q;
		if (1 - miss >= HB_INTERVAL_LEVEL)
			break;
	}
	return j;
}

int hb_interval_of(hb_interval *iv, json_t *entries, double target_pct, const hb_floor *floor)
{
	S_pass *p = malloc((json_array_size(entries) + 1) * sizeof(*p));
	size_t i, k = 0;
	json_t *e;
	double h, w;

	if (!p)
		abort();
	json_array_foreach(entries, i, e) {
		double m = json_number_value(json_object_get(e, "min_cycles_per_call"));
		if (!(m > 0))
			continue;
		p[k].m = m;
		p[k].slow = S_slow(json_object_get(e, "sentinel"));
		p[k].ref = json_number_value(json_object_get(json_object_get(e, "sentinel"),
			"reference"));
		p[k++].calm = json_is_true(json_object_get(e, "calm"));
	}
	if (k == 0) {
		free(p);
		return -1;
	}
	qsort(p, k, sizeof(*p), S_cmp);
	h = iv->best = p[0].m;
	iv->passes = k;
	iv->order = hb_interval_order(k);
	w = (p[iv->order - 1].m - h) / h * 100;
	/* what the passes of one campaign do not show: another campaign's placement of the library
	 * in memory and the host's state then (the machine's drift between campaigns, from its
	 * history; without one, calibrated by benchmarks/quality/aa.sh) */
	iv->floor_pct = floor ? floor->pct : HB_INTERVAL_FLOOR_PCT;
	iv->floor_source = floor ? floor->source : "default";
	if (w < iv->floor_pct)
		w = iv->floor_pct;
	iv->state = "narrow";
	/* a machine slower or faster than its history, by the sentinel's usual best so far against
	 * the history's median: another campaign, at the machine's usual speed, may put the figure
	 * that far away (a host slow for a whole campaign keeps its passes in agreement) */
	iv->speed_pct = floor && floor->sentinel_median > 0 && p[0].ref > 0 ?
		(p[0].ref - floor->sentinel_median) / floor->sentinel_median * 100 : 0;
	if (w < fabs(iv->speed_pct))
		w = fabs(iv->speed_pct);
	for (i = 0; i < k && p[i].m <= h * (1 + w / 100) && !p[i].calm; i++)
		;
	if (k < 2 || i == k || p[i].m > h * (1 + w / 100)) {
		/* no calm pass vouches for the figure: it was measured with the machine that much
		 * slower than its usual best, and may lie as far below (a host slow for a whole
		 * campaign moves every pass alike, A/A) */
		iv->state = "unconfirmed";
		if (w < p[0].slow)
			w = p[0].slow;
	} else if (w > target_pct) {
		iv->state = "wide";
	}
	iv->half_pct = w;
	iv->low = w < 100 ? h * (1 - w / 100) : 0; /* a cost is never below nothing */
	iv->high = h * (1 + w / 100);
	iv->target_pct = target_pct;
	free(p);
	return 0;
}

json_t *hb_interval_json(const hb_interval *iv, unsigned long long bytes)
{
	double b = (double)bytes;
	json_t *j = json_pack("{s:s, s:f, s:I, s:I, s:f, s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:s}",
		"method", HB_INTERVAL_METHOD, "level", HB_INTERVAL_LEVEL, "passes",
		(json_int_t)iv->passes, "order", (json_int_t)iv->order, "floor_pct", iv->floor_pct,
		"floor_source", iv->floor_source, "half_width_pct",
		iv->half_pct, "low_cycles_per_call", iv->low, "high_cycles_per_call", iv->high,
		"low_cycles_per_byte", iv->low / b, "high_cycles_per_byte", iv->high / b,
		"target_pct", iv->target_pct, "state", iv->state);
	if (j && iv->speed_pct != 0)
		json_object_set_new(j, "speed_vs_history_pct", json_real(iv->speed_pct));
	return j;
}
