/* test_interval.c — the headline's interval from crafted pass minima: the order of the pass that
 * bounds it, the floor, and its state (narrow, wide against the precision asked for, unconfirmed
 * without a calm pass inside). */
#include <math.h>

#include <jansson.h>

#include "hbcampaign.h"
#include "support.h"

/* Pass entries from minima (cycles per call), calm flags ('c' or 'd') and sentinel deviations. */
static json_t *S_entries(const double *m, const char *calm, const double *dev, size_t k)
{
	json_t *list = json_array();
	size_t i;
	for (i = 0; i < k; i++)
		json_array_append_new(list, json_pack("{s:f, s:b, s:{s:f}}", "min_cycles_per_call", m[i],
			"calm", calm[i] == 'c', "sentinel", "deviation_pct", dev ? dev[i] : 0.0));
	return list;
}

Test(interval, the_order_reaches_95_percent_and_no_lower_one_does)
{
	size_t k;
	cr_expect_eq(hb_interval_order(10), 3, "10 passes: the third fastest");
	cr_expect_eq(hb_interval_order(12), 3);
	cr_expect_eq(hb_interval_order(2), 2);
	cr_expect_eq(hb_interval_order(20), 3);
	for (k = 2; k <= 40; k++) {
		size_t j = hb_interval_order(k);
		cr_expect(1 - pow(1 - (double)j / (double)k, (double)k) >= 0.95, "k %zu j %zu", k, j);
		cr_expect(j == 1 || 1 - pow(1 - (double)(j - 1) / (double)k, (double)k) < 0.95,
			"k %zu: order %zu is not the smallest", k, j);
	}
}

Test(interval, ten_passes_span_the_headline_to_the_third_fastest)
{
	static const double m[] = { 1030, 1000, 1100, 1010, 1200, 1005, 1300, 1020, 1040, 1500 };
	json_t *e = S_entries(m, "cccccccccc", NULL, 10);
	hb_interval iv;
	cr_assert_eq(hb_interval_of(&iv, e, 2.0, NULL), 0);
	cr_expect_float_eq(iv.best, 1000, 1e-9);
	cr_expect_eq(iv.order, 3);
	cr_expect_float_eq(iv.half_pct, 1.0, 1e-9, "1010 is 1 %% above 1000: %f", iv.half_pct);
	cr_expect_float_eq(iv.low, 990, 1e-9);
	cr_expect_float_eq(iv.high, 1010, 1e-9);
	cr_expect_str_eq(iv.state, "narrow");
	cr_assert_eq(hb_interval_of(&iv, e, 0.5, NULL), 0);
	cr_expect_str_eq(iv.state, "wide", "± 1 %% against a precision of 0.5 %%");
	json_decref(e);
}

Test(interval, never_narrower_than_the_floor)
{
	static const double m[] = { 1000, 1000, 1000, 1000 };
	json_t *e = S_entries(m, "cccc", NULL, 4);
	hb_interval iv;
	cr_assert_eq(hb_interval_of(&iv, e, 2.0, NULL), 0);
	cr_expect_float_eq(iv.half_pct, HB_INTERVAL_FLOOR_PCT, 1e-12);
	cr_expect_float_eq(iv.high, 1000 * (1 + HB_INTERVAL_FLOOR_PCT / 100), 1e-9);
	json_decref(e);
}

Test(interval, a_slow_sentinel_does_not_widen_it)
{
	/* the sentinel is one 10 ms reading before and after a pass; the pass's figure is its
	 * fastest block: a host slow at the sentinel's moment (15-49 % in an A/A run) left the
	 * blocks' figures within 2 %, so the interval is the passes' alone */
	static const double m[] = { 1000, 1001, 1001, 1002, 1400 };
	static const double dev[] = { 25, 15, 40, 20, 0 };
	json_t *e = S_entries(m, "ccccc", dev, 5);
	hb_interval iv;
	cr_assert_eq(hb_interval_of(&iv, e, 2.0, NULL), 0);
	cr_expect_float_eq(iv.half_pct, HB_INTERVAL_FLOOR_PCT, 1e-9, "%f", iv.half_pct);
	json_decref(e);
}

Test(interval, a_pass_twice_as_slow_bounds_it_at_zero_not_below)
{
	/* 4 passes: the third fastest bounds it, 104 % above the best (seen on a loaded machine) */
	static const double m[] = { 1994, 1100, 2248, 2253 };
	json_t *e = S_entries(m, "dcdd", NULL, 4);
	hb_interval iv;
	cr_assert_eq(hb_interval_of(&iv, e, 2.0, NULL), 0);
	cr_expect_eq(iv.order, 3);
	cr_expect_float_eq(iv.high, 2248, 1e-9);
	cr_expect_float_eq(iv.low, 0, 1e-12, "low %f", iv.low);
	cr_expect_str_eq(iv.state, "wide");
	json_decref(e);
}

Test(interval, without_a_calm_pass_inside_it_is_unconfirmed)
{
	static const double m[] = { 1000, 1001, 1002, 1100, 1150 };
	json_t *e = S_entries(m, "dddcc", NULL, 5), *one;
	hb_interval iv;
	cr_assert_eq(hb_interval_of(&iv, e, 50.0, NULL), 0);
	cr_expect_str_eq(iv.state, "unconfirmed", "the calm passes lie 10 %% above: %s", iv.state);
	json_decref(e);
	one = S_entries(m, "c", NULL, 1);
	cr_assert_eq(hb_interval_of(&iv, one, 2.0, NULL), 0);
	cr_expect_str_eq(iv.state, "unconfirmed", "one pass confirms nothing");
	json_decref(one);
	one = json_array();
	cr_expect_eq(hb_interval_of(&iv, one, 2.0, NULL), -1, "no pass: no interval");
	json_decref(one);
}

Test(interval, an_unconfirmed_figure_is_as_wide_as_the_machine_was_slow)
{
	/* seen in an A/A pair: the host ~27 % slow through a whole campaign, every pass disturbed,
	 * their minima within 1 % of each other; the other campaign's figure lay 27 % lower */
	static const double m[] = { 1000, 1003, 1006, 1009, 1012 };
	json_t *e = json_array(), *calm, *x;
	hb_interval iv;
	size_t i;
	for (i = 0; i < 5; i++)
		json_array_append_new(e, json_pack("{s:f, s:b, s:{s:I, s:I, s:f, s:f}}",
			"min_cycles_per_call", m[i], "calm", 0, "sentinel", "before", (json_int_t)(1290 + i),
			"after", (json_int_t)1271, "reference", 1000.0, "deviation_pct", 29.0));
	cr_assert_eq(hb_interval_of(&iv, e, 2.0, NULL), 0);
	cr_expect_str_eq(iv.state, "unconfirmed");
	cr_expect_float_eq(iv.half_pct, 27.1, 1e-9, "the nearer reading, 27.1 %% slow: %f", iv.half_pct);
	cr_expect_float_eq(iv.low, 729, 1e-9, "low %f", iv.low);
	cr_expect_float_eq(iv.high, 1271, 1e-9, "high %f", iv.high);
	/* the same passes, calm: the sentinel does not widen a confirmed figure */
	calm = json_deep_copy(e);
	json_array_foreach(calm, i, x)
		json_object_set_new(x, "calm", json_true());
	cr_assert_eq(hb_interval_of(&iv, calm, 2.0, NULL), 0);
	cr_expect_str_eq(iv.state, "narrow");
	cr_expect_float_eq(iv.half_pct, 0.6, 1e-9, "%f", iv.half_pct);
	json_decref(calm);
	json_decref(e);
}

/* A campaign whose machine runs 9 % slower than its history (the sentinel's usual best so far
 * against the history's median) keeps its passes in agreement; its interval says how far
 * another campaign, at the usual speed, may put the figure, and is marked wide. */
Test(interval, as_wide_as_the_machine_is_off_its_history)
{
	static const double m[] = { 1000, 1001, 1002, 1003 };
	json_t *e = S_entries(m, "cccc", NULL, 4), *x, *j;
	hb_floor f = { 0.5, "history", "history (yardsticks' headlines)", 5, 4, 0.5, 1000000 };
	hb_interval iv;
	size_t i;

	json_array_foreach(e, i, x)
		json_object_set_new(json_object_get(x, "sentinel"), "reference", json_real(1090000));
	cr_assert_eq(hb_interval_of(&iv, e, 2.0, &f), 0);
	cr_expect_float_eq(iv.speed_pct, 9.0, 1e-9);
	cr_expect_float_eq(iv.half_pct, 9.0, 1e-9, "%f", iv.half_pct);
	cr_expect_str_eq(iv.state, "wide");
	j = hb_interval_json(&iv, 1024);
	cr_expect_float_eq(json_number_value(json_object_get(j, "speed_vs_history_pct")), 9.0, 1e-9);
	json_decref(j);
	/* at its usual speed, the floor alone */
	json_array_foreach(e, i, x)
		json_object_set_new(json_object_get(x, "sentinel"), "reference", json_real(1001000));
	cr_assert_eq(hb_interval_of(&iv, e, 2.0, &f), 0);
	cr_expect_float_eq(iv.half_pct, 0.5, 1e-9, "%f", iv.half_pct);
	cr_expect_str_eq(iv.state, "narrow");
	/* no history: nothing to be off */
	f.sentinel_median = -1;
	json_array_foreach(e, i, x)
		json_object_set_new(json_object_get(x, "sentinel"), "reference", json_real(1090000));
	cr_assert_eq(hb_interval_of(&iv, e, 2.0, &f), 0);
	cr_expect_float_eq(iv.half_pct, 0.5, 1e-9);
	j = hb_interval_json(&iv, 1024);
	cr_expect_null(json_object_get(j, "speed_vs_history_pct"));
	json_decref(j);
	json_decref(e);
}

Test(interval, passes_that_read_no_cycles_give_an_error_not_a_record_without_headline)
{
	static const double m[] = { 0, 0, 0 };
	json_t *e = S_entries(m, "ccc", NULL, 3), *h = NULL;
	const char *state = NULL;
	cr_expect_neq(hb_pass_headline(&h, &state, e, 32, 2.0, NULL), 0);
	cr_expect_null(h);
	cr_expect_str_eq(hb_error_last(), "no pass measured more than 0 cycles a call (3 passes)");
	json_decref(e);
}
