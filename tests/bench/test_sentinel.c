/* test_sentinel.c — the sentinel's arithmetic and judgement on hand-made readings (sentinel.c),
 * and `hashbench merge` joining the shards' sentinel traces (merge_sentinel.c). No clock. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hbcampaign.h"
#include "hbcommands.h"
#include "support.h"

/* One reading as sentinel.json has it (hb_sentinel_reading_json without the clock). */
static json_t *S_reading(const char *time, int cpu, const char *when, long long cycles)
{
	return json_pack("{s:s, s:f, s:i, s:s, s:s, s:i, s:I, s:I}", "time", time, "t_s", 1.0, "cpu",
		cpu, "record", "toy pass 1", "when", when, "attempt", 0, "cycles", (json_int_t)cycles,
		"ns", (json_int_t)(cycles / 2));
}

/* Readings of cycles v[0..n) on cpu into s, in that order. */
static void S_feed(hb_sentinel *s, int cpu, const long long *v, size_t n)
{
	json_t *batch = json_array();
	size_t i;
	for (i = 0; i < n; i++)
		json_array_append_new(batch, S_reading("2026-01-01T00:00:00Z", cpu, "calibration", v[i]));
	hb_sentinel_add(s, batch);
	json_decref(batch);
}

static hb_sentinel *S_new(double limit_pct, int cpu, const long long *v, size_t n)
{
	hb_sentinel *s = NULL;
	cr_assert_eq(hb_sentinel_new(&s, limit_pct), 0);
	if (n)
		S_feed(s, cpu, v, n);
	return s;
}

/* A member of the summary's per-CPU object key (median_cycles, …) for cpu. */
static double S_per_cpu(const hb_sentinel *s, const char *key, int cpu)
{
	json_t *sum = hb_sentinel_summary(s);
	char k[16];
	double v;
	snprintf(k, sizeof(k), "%d", cpu);
	v = json_number_value(json_object_get(json_object_get(sum, key), k));
	json_decref(sum);
	return v;
}

/* ---- the reference, the median and the noise ---- */

Test(sentinel, the_reference_is_the_tenth_percentile_of_that_cpus_readings)
{
	/* eleven readings, shuffled: index (size_t)(0.1 * 10) = 1 of the sorted ones */
	static const long long eleven[] = { 1500, 2000, 1100, 1300, 1000, 1900, 1200, 1700, 1400,
		1800, 1600 };
	static const long long ten[] = { 1500, 1100, 1300, 1000, 1900, 1200, 1700, 1400, 1800, 1600 };
	static const long long other[] = { 10, 20 };
	hb_sentinel *s = S_new(0, 2, eleven, 11), *t = S_new(0, 2, ten, 10);

	cr_expect_float_eq(hb_sentinel_reference(s, 2), 1100.0, 1e-9, "eleven: %g",
		hb_sentinel_reference(s, 2));
	/* ten: index (size_t)(0.1 * 9) = 0, the fastest */
	cr_expect_float_eq(hb_sentinel_reference(t, 2), 1000.0, 1e-9, "ten: %g",
		hb_sentinel_reference(t, 2));
	cr_expect_lt(hb_sentinel_reference(s, 7), 0, "no readings on CPU 7: no reference");
	/* another CPU's readings are its own */
	S_feed(s, 3, other, 2);
	cr_expect_float_eq(hb_sentinel_reference(s, 2), 1100.0, 1e-9, "CPU 2 beside CPU 3: %g",
		hb_sentinel_reference(s, 2));
	cr_expect_float_eq(hb_sentinel_reference(s, 3), 10.0, 1e-9, "CPU 3: %g",
		hb_sentinel_reference(s, 3));
	hb_sentinel_free(s);
	hb_sentinel_free(t);
}

Test(sentinel, the_median_of_an_odd_set_is_its_middle_reading)
{
	static const long long v[] = { 300, 100, 200 };
	hb_sentinel *s = S_new(0, 0, v, 3);
	cr_expect_float_eq(S_per_cpu(s, "median_cycles", 0), 200.0, 1e-9, "median %g",
		S_per_cpu(s, "median_cycles", 0));
	hb_sentinel_free(s);
}

/* The median of an even set is the mean of its two middle readings, as hb_median and the robust
 * sd take it (the reference, a quantile, is a reading that happened). */
Test(sentinel, the_median_of_an_even_set_is_the_mean_of_its_middle_two)
{
	static const long long v[] = { 400, 100, 300, 200 };
	hb_sentinel *s = S_new(0, 0, v, 4);
	cr_expect_float_eq(S_per_cpu(s, "median_cycles", 0), 250.0, 1e-9, "median %g",
		S_per_cpu(s, "median_cycles", 0));
	hb_sentinel_free(s);
}

Test(sentinel, the_noise_is_the_median_distance_from_the_median)
{
	/* odd: median 100, distances 10, 0 and 20 % */
	static const long long odd[] = { 90, 120, 100 };
	/* even: median 105 (the mean of the middle two), distances 5, 5, 5 and 25 of 105: their
	 * median 100 / 21 % */
	static const long long even[] = { 130, 100, 110, 100 };
	hb_sentinel *s = S_new(0, 0, odd, 3);
	S_feed(s, 1, even, 4);
	cr_expect_float_eq(hb_sentinel_noise(s, 0), 10.0, 1e-9, "odd: %g", hb_sentinel_noise(s, 0));
	cr_expect_float_eq(hb_sentinel_noise(s, 1), 100.0 / 21, 1e-9, "even: %g",
		hb_sentinel_noise(s, 1));
	cr_expect_float_eq(S_per_cpu(s, "median_deviation_pct", 1), 100.0 / 21, 1e-9, "summary: %g",
		S_per_cpu(s, "median_deviation_pct", 1));
	cr_expect_lt(hb_sentinel_noise(s, 4), 0, "no readings: no noise");
	hb_sentinel_free(s);
}

/* ---- the noise floor and the limit ---- */

Test(sentinel, the_noise_floor_is_the_largest_robust_sd_and_sets_the_limit)
{
	/* CPU 0: median 100, absolute deviations 10 5 0 5 10, MAD 5: 1.4826 * 5 / 100 = 7.413 %;
	 * CPU 1: median 1002, MAD 2: 0.29593 % */
	static const long long wide[] = { 110, 90, 100, 105, 95 };
	static const long long narrow[] = { 1000, 1004, 1002, 1000, 1004 };
	hb_sentinel *s = S_new(0, 1, narrow, 5);

	cr_expect_float_eq(hb_sentinel_noise_floor(s), -1.0, 1e-12, "unknown before set_limit");
	cr_expect_float_eq(hb_sentinel_limit(s), HB_SENTINEL_FLOOR_PCT, 1e-12, "%g",
		hb_sentinel_limit(s));
	hb_sentinel_set_limit(s);
	cr_expect_float_eq(hb_sentinel_noise_floor(s), 0.2959281437, 1e-9, "%.10f",
		hb_sentinel_noise_floor(s));
	/* 3.5 × 0.296 % is below the floor: the floor */
	cr_expect_float_eq(hb_sentinel_limit(s), 3.0, 1e-12, "%g", hb_sentinel_limit(s));
	hb_sentinel_free(s);

	s = S_new(0, 1, narrow, 5);
	S_feed(s, 0, wide, 5);
	hb_sentinel_set_limit(s);
	cr_expect_float_eq(hb_sentinel_noise_floor(s), 7.413, 1e-9, "the larger CPU's: %.10f",
		hb_sentinel_noise_floor(s));
	cr_expect_float_eq(hb_sentinel_limit(s), 3.5 * 7.413, 1e-9, "%.10f", hb_sentinel_limit(s));
	hb_sentinel_free(s);
}

/* hb_median's median of an even set is the mean of the two middle ones: 100 100 110 110 lie 5
 * from 105, a robust sd of 1.4826 * 5 / 105 = 7.06 % (the lower middle, 100, would give 7.413). */
Test(sentinel, the_robust_sd_of_an_even_set_is_about_its_mean_middle)
{
	static const long long v[] = { 110, 100, 110, 100 };
	hb_sentinel *s = S_new(0, 0, v, 4);
	hb_sentinel_set_limit(s);
	cr_expect_float_eq(hb_sentinel_noise_floor(s), 7.06, 1e-9, "%.10f", hb_sentinel_noise_floor(s));
	cr_expect_float_eq(hb_sentinel_limit(s), 3.5 * 7.06, 1e-9, "%.10f", hb_sentinel_limit(s));
	hb_sentinel_free(s);
}

Test(sentinel, a_limit_given_by_hand_stays)
{
	static const long long wide[] = { 110, 90, 100, 105, 95 };
	hb_sentinel *s = S_new(4.0, 0, wide, 5);
	json_t *sum;
	hb_sentinel_set_limit(s);
	cr_expect_float_eq(hb_sentinel_limit(s), 4.0, 1e-12, "%g", hb_sentinel_limit(s));
	cr_expect_float_eq(hb_sentinel_noise_floor(s), 7.413, 1e-9, "measured all the same: %g",
		hb_sentinel_noise_floor(s));
	sum = hb_sentinel_summary(s);
	cr_expect_str_eq(json_string_value(json_object_get(sum, "limit_source")), "--sentinel-limit");
	json_decref(sum);
	hb_sentinel_free(s);
}

/* ---- the judgement ---- */

Test(sentinel, just_inside_the_limit_is_calm_just_outside_is_disturbed)
{
	/* a reference of 2^20 cycles: 25 % slower is 1310720 exactly */
	char why[256] = "";
	double dev;
	cr_expect_eq(hb_sentinel_judge(why, sizeof(why), &dev, 1048576, 1310720, 1048576, 25.0), 0,
		"at the limit: %s", why);
	cr_expect_float_eq(dev, 25.0, 1e-12, "%.10f", dev);
	cr_expect_eq(hb_sentinel_judge(why, sizeof(why), &dev, 1048576, 1048576, 1310719, 25.0), 0,
		"a cycle inside: %s", why);
	cr_expect_str_eq(why, "", "a calm pass has no reason");
	cr_expect_eq(hb_sentinel_judge(why, sizeof(why), &dev, 1048576, 1310721, 1048576, 25.0), 1,
		"a cycle outside, before");
	cr_expect_gt(dev, 25.0, "%.10f", dev);
	cr_expect_eq(hb_sentinel_judge(why, sizeof(why), &dev, 1048576, 1048576, 1310721, 25.0), 1,
		"a cycle outside, after");
	/* the campaign's floor of 3 %, a cycle in 10^6 each side */
	cr_expect_eq(hb_sentinel_judge(why, sizeof(why), &dev, 1e6, 1029999, 1000000, 3.0), 0,
		"2.9999 %%: %s", why);
	cr_expect_eq(hb_sentinel_judge(why, sizeof(why), &dev, 1e6, 1030001, 1000000, 3.0), 1,
		"3.0001 %% judged calm");
	cr_expect_float_eq(dev, 3.0001, 1e-9, "%.10f", dev);
}

Test(sentinel, the_reason_names_the_slower_reading)
{
	char why[256] = "";
	double dev;
	cr_expect_eq(hb_sentinel_judge(why, sizeof(why), &dev, 1e6, 1100000, 1050000, 3.0), 1);
	cr_expect_str_eq(why, "the sentinel before was 10.0 % slower than the machine's usual best "
		"(limit 3.0 %)", "before slower: %s", why);
	cr_expect_float_eq(dev, 10.0, 1e-9, "%g", dev);
	cr_expect_eq(hb_sentinel_judge(why, sizeof(why), &dev, 1e6, 1020000, 1050000, 3.0), 1);
	cr_expect_str_eq(why, "the sentinel after was 5.0 % slower than the machine's usual best "
		"(limit 3.0 %)", "after slower: %s", why);
	cr_expect_float_eq(dev, 5.0, 1e-9, "%g", dev);
	/* as slow before as after: before is named */
	cr_expect_eq(hb_sentinel_judge(why, sizeof(why), &dev, 1e6, 1070000, 1070000, 3.0), 1);
	cr_expect_str_eq(why, "the sentinel before was 7.0 % slower than the machine's usual best "
		"(limit 3.0 %)", "a tie: %s", why);
}

Test(sentinel, faster_or_without_a_reference_is_never_disturbed)
{
	char why[256] = "";
	double dev;
	/* faster than the usual best: the larger of -10 and -5 % */
	cr_expect_eq(hb_sentinel_judge(why, sizeof(why), &dev, 1e6, 900000, 950000, 3.0), 0,
		"faster: %s", why);
	cr_expect_float_eq(dev, -5.0, 1e-9, "%g", dev);
	cr_expect_eq(hb_sentinel_judge(why, sizeof(why), &dev, 0, 5000000, 5000000, 3.0), 0);
	cr_expect_float_eq(dev, -1.0, 1e-12, "%g", dev);
	cr_expect_eq(hb_sentinel_judge(why, sizeof(why), &dev, -1, 5000000, 5000000, 3.0), 0);
	cr_expect_float_eq(dev, -1.0, 1e-12, "%g", dev);
	cr_expect_str_eq(why, "", "%s", why);
}

/* ---- the trace ---- */

Test(sentinel, the_trace_keeps_the_readings_it_can_judge_in_order)
{
	static const long long calm[] = { 1000, 1000, 1000 };
	char *dir = hbt_tmpdir("sentinel-trace");
	hb_sentinel *s = S_new(0, 0, calm, 3);
	json_t *batch = json_array(), *sum, *trace, *x;
	size_t i;

	json_array_append_new(batch, S_reading("2026-01-01T00:00:02Z", 0, "before", 1010));
	json_array_append_new(batch, json_pack("{s:s, s:i, s:s}", "time", "2026-01-01T00:00:03Z",
		"cpu", 0, "when", "after")); /* no cycles */
	json_array_append_new(batch, json_pack("{s:s, s:i, s:s}", "time", "2026-01-01T00:00:04Z",
		"cpu", 0, "cycles", "1000")); /* cycles as text */
	json_array_append_new(batch, json_pack("{s:s, s:I}", "time", "2026-01-01T00:00:05Z",
		"cycles", (json_int_t)1000)); /* no CPU */
	json_array_append_new(batch, S_reading("2026-01-01T00:00:06Z", 0, "after", 1020));
	hb_sentinel_add(s, batch);
	hb_sentinel_count(s, 1, 2);
	hb_sentinel_count(s, 0, 3);

	sum = hb_sentinel_summary(s);
	cr_expect_eq(json_integer_value(json_object_get(sum, "readings")), 5, "%lld readings",
		(long long)json_integer_value(json_object_get(sum, "readings")));
	cr_expect_eq(json_integer_value(json_object_get(sum, "disturbed_records")), 1);
	cr_expect_eq(json_integer_value(json_object_get(sum, "remeasured_records")), 5, "%lld",
		(long long)json_integer_value(json_object_get(sum, "remeasured_records")));
	cr_expect(json_is_null(json_object_get(sum, "noise_floor_pct")), "before set_limit: null");
	cr_expect_str_eq(json_string_value(json_object_get(sum, "limit_source")), "calibrated");

	cr_assert_eq(hb_sentinel_write(s, dir), 0, "%s", hb_error_last());
	trace = hbt_json_load(dir, "sentinel.json");
	cr_expect_str_eq(json_string_value(json_object_get(trace, "schema")), "hashbench.sentinel/1");
	cr_expect_str_eq(json_string_value(json_object_get(trace, "workload")), HB_SENTINEL_WORKLOAD);
	cr_expect_float_eq(json_number_value(json_object_get(trace, "limit_floor_pct")), 3.0, 1e-12);
	cr_assert_eq(json_array_size(json_object_get(trace, "readings")), 5, "%zu in the trace",
		json_array_size(json_object_get(trace, "readings")));
	json_array_foreach(json_object_get(trace, "readings"), i, x) {
		static const long long cycles[] = { 1000, 1000, 1000, 1010, 1020 };
		cr_expect_eq(json_integer_value(json_object_get(x, "cycles")), cycles[i], "reading %zu",
			i);
	}
	cr_expect_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(trace,
		"readings"), 4), "time")), "2026-01-01T00:00:06Z");
	json_decref(trace);
	json_decref(sum);
	json_decref(batch);
	hb_sentinel_free(s);
	free(dir);
}

/* ---- hashbench merge ---- */

typedef struct {
	const char *time;
	long long cycles;
} S_at;

/* A shard's sentinel.json as hb_sentinel_write writes it, by hand: its limit, noise floor
 * (< 0: null) and how the limit was set, and readings at times, in the order given. */
static void S_shard(const char *dir, double limit, double noise, const char *source,
	const S_at *r, size_t n)
{
	char *path = hb_path_join(dir, "sentinel.json");
	json_t *readings = json_array(), *j;
	size_t i;
	for (i = 0; i < n; i++)
		json_array_append_new(readings, S_reading(r[i].time, 1, "before", r[i].cycles));
	j = json_pack("{s:s, s:s, s:f, s:o, s:f, s:s, s:o}", "schema", "hashbench.sentinel/1",
		"workload", dir, "limit_pct", limit, "noise_floor_pct", noise >= 0 ? json_real(noise) :
		json_null(), "limit_floor_pct", 3.0, "limit_source", source, "readings", readings);
	cr_assert_eq(hb_mkdir_p(dir), 0);
	cr_assert_eq(hb_json_write(path, j), 0, "%s", hb_error_last());
	json_decref(j);
	free(path);
}

Test(merge_sentinel, the_shards_readings_in_time_order_each_tagged_with_its_shard)
{
	/* shard 2 has no trace; 1 and 3 share a second, as do two of 4's readings */
	static const S_at one[] = { { "2026-01-01T00:00:01Z", 101 }, { "2026-01-01T00:00:03Z", 103 },
		{ "2026-01-01T00:00:05Z", 105 } };
	static const S_at three[] = { { "2026-01-01T00:00:02Z", 302 },
		{ "2026-01-01T00:00:03Z", 303 }, { "2026-01-01T00:00:06Z", 306 } };
	static const S_at four[] = { { "2026-01-01T00:00:00Z", 400 }, { "2026-01-01T00:00:04Z", 404 },
		{ "2026-01-01T00:00:04Z", 405 } };
	static const struct { long long cycles; int input; } want[] = { { 400, 4 }, { 101, 1 },
		{ 302, 3 }, { 103, 1 }, { 303, 3 }, { 404, 4 }, { 405, 4 }, { 105, 1 }, { 306, 3 } };
	char *root = hbt_tmpdir("merge-sentinel"), *out = hb_path_join(root, "merged");
	char *dirs[4];
	json_t *j, *x;
	size_t i;

	for (i = 0; i < 4; i++) {
		char name[16];
		snprintf(name, sizeof(name), "shard%zu", i + 1);
		dirs[i] = hb_path_join(root, name);
	}
	S_shard(dirs[0], 3.0, -1, "--sentinel-limit", one, 3);
	cr_assert_eq(hb_mkdir_p(dirs[1]), 0);
	S_shard(dirs[2], 6.5, 1.25, "calibrated", three, 3);
	S_shard(dirs[3], 4.0, 1.5, "calibrated", four, 3);
	cr_assert_eq(hb_mkdir_p(out), 0);
	cr_assert_eq(hb_merge_sentinel((const char *const *)dirs, 4, out), 0, "%s", hb_error_last());

	j = hbt_json_load(out, "sentinel.json");
	cr_expect_str_eq(json_string_value(json_object_get(j, "schema")), "hashbench.sentinel/1");
	cr_expect_str_eq(json_string_value(json_object_get(j, "workload")), dirs[0], "the first's");
	cr_expect_float_eq(json_number_value(json_object_get(j, "limit_pct")), 6.5, 1e-12,
		"the largest limit: %g", json_number_value(json_object_get(j, "limit_pct")));
	cr_expect_float_eq(json_number_value(json_object_get(j, "noise_floor_pct")), 1.5, 1e-12,
		"the largest noise floor: %g", json_number_value(json_object_get(j, "noise_floor_pct")));
	cr_expect_str_eq(json_string_value(json_object_get(j, "limit_source")), "--sentinel-limit");
	cr_assert_eq(json_array_size(json_object_get(j, "readings")), 9, "3 + 0 + 3 + 3 readings");
	json_array_foreach(json_object_get(j, "readings"), i, x) {
		cr_expect_eq(json_integer_value(json_object_get(x, "cycles")), want[i].cycles,
			"reading %zu: %lld cycles, expected %lld", i,
			(long long)json_integer_value(json_object_get(x, "cycles")), want[i].cycles);
		cr_expect_eq(json_integer_value(json_object_get(x, "input")), want[i].input,
			"reading %zu (%lld cycles) tagged %lld, expected shard %d", i,
			(long long)json_integer_value(json_object_get(x, "cycles")),
			(long long)json_integer_value(json_object_get(x, "input")), want[i].input);
		cr_expect_null(json_object_get(x, "_order"), "the merge's own sort key stays inside");
		cr_expect_str_eq(json_string_value(json_object_get(x, "when")), "before");
	}
	json_decref(j);
	for (i = 0; i < 4; i++)
		free(dirs[i]);
	free(out);
	free(root);
}

Test(merge_sentinel, no_trace_in_any_shard_writes_none)
{
	char *root = hbt_tmpdir("merge-sentinel-none"), *a = hb_path_join(root, "a");
	char *out = hb_path_join(root, "out"), *path = hb_path_join(out, "sentinel.json");
	const char *dirs[] = { a, a };
	cr_assert_eq(hb_mkdir_p(a), 0);
	cr_assert_eq(hb_mkdir_p(out), 0);
	cr_expect_eq(hb_merge_sentinel(dirs, 2, out), 0, "%s", hb_error_last());
	cr_expect_not(hb_is_file(path), "a sentinel.json without a trace to merge");
	free(path);
	free(out);
	free(a);
	free(root);
}

Test(merge_sentinel, a_bad_trace_is_named)
{
	char *root = hbt_tmpdir("merge-sentinel-bad"), *a = hb_path_join(root, "a");
	char *b = hb_path_join(root, "b"), *out = hb_path_join(root, "out");
	char *pa = hb_path_join(a, "sentinel.json"), *pb = hb_path_join(b, "sentinel.json"), *msg;
	const char *first[] = { a }, *second[] = { b };
	static const char not_array[] = "{\"schema\": \"hashbench.sentinel/1\", \"readings\": {}}";

	cr_assert_eq(hb_mkdir_p(a), 0);
	cr_assert_eq(hb_mkdir_p(b), 0);
	cr_assert_eq(hb_mkdir_p(out), 0);
	hbt_write(pa, not_array, sizeof(not_array) - 1);
	hbt_write(pb, "{\"readings\": [", 14);
	cr_expect_neq(hb_merge_sentinel(first, 1, out), 0, "readings that are not an array merged");
	msg = hb_sprintf("merge: %s: readings: expected an array", pa);
	cr_expect_str_eq(hb_error_last(), msg);
	free(msg);
	cr_expect_neq(hb_merge_sentinel(second, 1, out), 0);
	msg = hb_sprintf("merge: %s: ", pb);
	cr_expect_eq(strncmp(hb_error_last(), msg, strlen(msg)), 0, "%s", hb_error_last());
	free(msg);
	free(pa);
	free(pb);
	free(a);
	free(b);
	free(out);
	free(root);
}

Test(merge_sentinel, the_summary_sums_the_counts_and_keeps_the_largest_limit)
{
	json_t *sys[3], *sum;
	size_t i;
	sys[0] = json_pack("{s:{s:{s:f, s:f, s:f, s:s, s:s, s:i, s:i, s:i, s:{s:f}}}}", "campaign",
		"sentinel", "limit_pct", 3.0, "noise_floor_pct", 0.5, "limit_floor_pct", 3.0,
		"limit_source", "calibrated", "workload", "W", "readings", 10, "disturbed_records", 1,
		"remeasured_records", 2, "median_cycles", "1", 1000.0);
	sys[1] = json_pack("{s:{}}", "campaign"); /* a shard of an earlier version: no sentinel */
	sys[2] = json_pack("{s:{s:{s:f, s:f, s:s, s:s, s:i, s:i, s:i}}}", "campaign", "sentinel",
		"limit_pct", 4.2, "noise_floor_pct", 1.2, "limit_source", "--sentinel-limit", "workload",
		"V", "readings", 7, "disturbed_records", 0, "remeasured_records", 3);

	sum = hb_merge_sentinel_summary(sys, 3);
	cr_assert_not_null(sum);
	cr_expect_eq(json_integer_value(json_object_get(sum, "readings")), 17, "%lld readings",
		(long long)json_integer_value(json_object_get(sum, "readings")));
	cr_expect_eq(json_integer_value(json_object_get(sum, "disturbed_records")), 1);
	cr_expect_eq(json_integer_value(json_object_get(sum, "remeasured_records")), 5,
		"%lld remeasured", (long long)json_integer_value(json_object_get(sum,
		"remeasured_records")));
	cr_expect_float_eq(json_number_value(json_object_get(sum, "limit_pct")), 4.2, 1e-12, "%g",
		json_number_value(json_object_get(sum, "limit_pct")));
	cr_expect_float_eq(json_number_value(json_object_get(sum, "noise_floor_pct")), 1.2, 1e-12);
	cr_expect_float_eq(json_number_value(json_object_get(sum, "limit_floor_pct")), 3.0, 1e-12);
	cr_expect_str_eq(json_string_value(json_object_get(sum, "limit_source")), "calibrated");
	cr_expect_str_eq(json_string_value(json_object_get(sum, "workload")), "W");
	cr_expect_null(json_object_get(sum, "median_cycles"), "each machine's medians stay its own");
	json_decref(sum);
	cr_expect_null(hb_merge_sentinel_summary(&sys[1], 1), "no shard with a sentinel: none");
	for (i = 0; i < 3; i++)
		json_decref(sys[i]);
}
