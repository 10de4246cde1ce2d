/* test_duet.c — hashbench compare: two drivers taking turns on one CPU (duet.c), the paired ratio
 * and its verdict (paired.c), the placement of each pass's buffers (measure.c), and the command as
 * a user runs it on fixtures of known relative speed. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hbcampaign.h"
#include "support.h"

#define PACE HBT_FIXTURES "/paced"
#define MISBEHAVE HBT_FIXTURES "/submissions/misbehave"

Test(paired, verdict_needs_the_whole_interval_past_the_threshold)
{
	cr_expect_str_eq(hb_paired_verdict(1.02, 1.05, 1), "slower");
	cr_expect_str_eq(hb_paired_verdict(0.95, 0.98, 1), "faster");
	cr_expect_str_eq(hb_paired_verdict(1.005, 1.05, 1), "within noise",
		"an interval that reaches into the threshold is not a difference");
	cr_expect_str_eq(hb_paired_verdict(0.97, 1.03, 1), "within noise");
	cr_expect_str_eq(hb_paired_verdict(0.97, 0.985, 2), "within noise");
}

Test(paired, ratio_interval_and_verdict)
{
	double a[] = { 3.0, 3.1, 2.9, 3.0, 3.05 }, b[] = { 2.95, 3.0, 3.0, 3.1, 2.9 };
	double one[] = { 1, 1, 1, 1, 1 };
	double *r[2] = { a, b }, *ones[2] = { one, one };
	size_t n[2] = { 5, 5 };
	hb_paired p;

	cr_assert_eq(hb_paired_of(&p, r, ones, n, 2, 1, 1, 7), 0, "%s", hb_error_last());
	cr_expect_float_eq(p.ratio, 3.0, 1e-12, "the median of the ten pairs");
	cr_expect(p.low <= p.ratio && p.ratio <= p.high);
	cr_expect(p.low >= 2.9 && p.high <= 3.1, "%g-%g within the pairs", p.low, p.high);
	cr_expect_str_eq(p.verdict, "slower");
	cr_expect_eq(p.pairs, 10);
}

/* Two passes whose placements gave 2 % apart: the interval takes in both, as a second run would. */
Test(paired, interval_covers_what_differs_between_passes)
{
	double a[20], b[20], one[20];
	double *r[2] = { a, b }, *ones[2] = { one, one };
	size_t n[2] = { 20, 20 }, i;
	hb_paired p;

	for (i = 0; i < 20; i++) {
		a[i] = 0.99 + 0.0001 * (double)i;
		b[i] = 1.01 + 0.0001 * (double)i;
		one[i] = 1;
	}
	cr_assert_eq(hb_paired_of(&p, r, ones, n, 2, 1, 1, 11), 0, "%s", hb_error_last());
	cr_expect_str_eq(p.bootstrap, "passes");
	cr_expect(p.low < 0.995 && p.high > 1.005, "%g-%g: the passes' difference is noise, not "
		"a figure", p.low, p.high);
	cr_expect_str_eq(p.verdict, "within noise");
}

Test(paired, refuses_what_is_not_a_ratio)
{
	double a[] = { 1.0, 0.0 }, b[] = { 1.0, NAN }, one[] = { 1.0, 1.0 };
	double *r1[1] = { a }, *r2[1] = { b }, *ones[1] = { one };
	size_t n[1] = { 2 }, none[1] = { 0 };
	hb_paired p;

	cr_expect_neq(hb_paired_of(&p, r1, ones, n, 1, 1, 1, 1), 0);
	cr_expect(strstr(hb_error_last(), "pass 1, pair 2") != NULL, "%s", hb_error_last());
	cr_expect_neq(hb_paired_of(&p, ones, r2, n, 1, 1, 1, 1), 0, "the second side's time too");
	cr_expect_neq(hb_paired_of(&p, r1, ones, none, 1, 1, 1, 1), 0, "no pair at all");
	cr_expect_neq(hb_paired_of(&p, ones, ones, n, 1, 0, 1, 1), 0, "no fraction of the pairs");
	cr_expect(strstr(hb_error_last(), "fraction") != NULL, "%s", hb_error_last());
}

/* A spell in which the host slowed one side more than the other: the median of all pairs follows
 * it, the fastest fifth of the pairs (both sides at their best) does not. */
Test(paired, the_fastest_pairs_escape_a_slow_spell)
{
	double a[4][10], b[4][10];
	double *pa[4] = { a[0], a[1], a[2], a[3] }, *pb[4] = { b[0], b[1], b[2], b[3] };
	size_t n[4] = { 10, 10, 10, 10 }, p, i;
	hb_paired all, fast;

	for (p = 0; p < 4; p++)
		for (i = 0; i < 10; i++) {
			int slow = i >= 3; /* seven of ten pairs in the slow spell */
			a[p][i] = (slow ? 130.0 : 100.0) + 0.01 * (double)(p * 10 + i);
			b[p][i] = slow ? 110.0 : 100.0;
		}
	cr_assert_eq(hb_paired_of(&all, pa, pb, n, 4, 1, 1, 3), 0, "%s", hb_error_last());
	cr_assert_eq(hb_paired_of(&fast, pa, pb, n, 4, 0.2, 1, 3), 0, "%s", hb_error_last());
	cr_expect(all.ratio > 1.17, "all pairs: %g", all.ratio);
	cr_expect(fast.ratio > 0.999 && fast.ratio < 1.005, "the fastest fifth: %g", fast.ratio);
	cr_expect(fast.low <= fast.ratio && fast.ratio <= fast.high);
	cr_expect_str_eq(fast.verdict, "within noise");
	cr_expect_float_eq(fast.fastest, 0.2, 1e-12);
	cr_expect_eq(fast.pairs, 40, "every pair counted, the estimate of a fifth of them");
}

/* The verdict at each size of compare's text, in the order printed. */
static size_t S_verdicts(char out[][16], size_t cap, const char *text)
{
	const char *line = strstr(text, "verdict\n");
	size_t n = 0;
	while (line && (line = strchr(line, '\n')) != NULL && line[1] != '\n' && line[1] && n < cap) {
		const char *end = strchr(line + 1, '\n');
		size_t len = end ? (size_t)(end - line - 1) : strlen(line + 1);
		char row[256];
		snprintf(row, sizeof(row), "%.*s", (int)len, line + 1);
		snprintf(out[n++], 16, "%s", strstr(row, "within noise") ? "within noise" :
			strstr(row, "slower") ? "slower" : strstr(row, "faster") ? "faster" : "?");
		line++;
	}
	return n;
}

Test(compare, slower_faster_and_the_exit_status, .timeout = HBT_TIMEOUT(300))
{
	char *dir = hbt_tmpdir("compare"), *json = hb_path_join(dir, "cmp.json"), *out, *err;
	char v[8][16];
	const char *fast_first[] = { "compare", "pace_256", "drag_256", "--submissions", PACE,
		"--sizes", "64,4096", "--passes", "2", "--rounds", "6", "--noise", "20", NULL };
	const char *slow_first[] = { "compare", "drag_256", "pace_256", "--submissions", PACE,
		"--sizes", "64,4096", "--passes", "2", "--rounds", "6", "--noise", "20", "--json", json,
		NULL };
	json_t *j, *s, *pass;
	size_t i, k;

	cr_assert_eq(hbt_cli(&out, &err, NULL, fast_first), 0, "nowhere slower: exit 0\n%s", err);
	cr_assert_eq(S_verdicts(v, 8, out), 2, "%s", out);
	cr_expect_str_eq(v[0], "faster", "%s", out);
	cr_expect_str_eq(v[1], "faster", "%s", out);
	free(out);
	free(err);

	cr_assert_eq(hbt_cli(&out, &err, NULL, slow_first), 1, "slower somewhere: exit 1\n%s", err);
	cr_assert_eq(S_verdicts(v, 8, out), 2, "%s", out);
	cr_expect_str_eq(v[0], "slower", "%s", out);
	cr_expect_str_eq(v[1], "slower", "%s", out);
	cr_expect(strstr(out, "A: drag_256 (reference)") != NULL, "%s", out);

	j = json_load_file(json, 0, NULL);
	cr_assert_not_null(j, "the evidence: %s", json);
	cr_expect_str_eq(json_string_value(json_object_get(j, "schema")), "hashbench.compare/1");
	cr_expect_str_eq(json_string_value(json_object_get(j, "method")), "paired-blocks");
	json_array_foreach(json_object_get(j, "sizes"), i, s) {
		double r = json_number_value(json_object_get(s, "ratio"));
		cr_expect(json_number_value(json_object_get(s, "ratio_low")) <= r &&
			r <= json_number_value(json_object_get(s, "ratio_high")), "size %zu", i);
		/* Drag does three times Pace's work; under qemu-user each block also pays the
		 * emulator's own dispatch, alike for both, which brought the ratio down to 1.3 */
		cr_expect(r > (hb_emulated() ? 1.1 : 1.5), "Drag does three times Pace's work: %g", r);
		cr_expect_eq(json_integer_value(json_object_get(s, "pairs")), 12, "2 passes of 6");
		cr_expect_str_eq(json_string_value(json_object_get(s, "verdict")), "slower");
	}
	/* each pass: both drivers took every turn (warm-up, 6 rounds of 2 sizes, the end), in
	 * buffers placed anew */
	json_array_foreach(json_object_get(j, "passes_run"), i, pass) {
		json_t *pa = json_object_get(json_object_get(pass, "a"), "result");
		json_t *pb = json_object_get(json_object_get(pass, "b"), "result");
		json_t *ta = json_object_get(pa, "baton"), *tb = json_object_get(pb, "baton");
		cr_expect_eq(json_integer_value(json_object_get(ta, "turns")), 14, "pass %zu", i + 1);
		cr_expect_eq(json_integer_value(json_object_get(tb, "turns")), 14, "pass %zu", i + 1);
		cr_expect(json_is_false(json_object_get(ta, "partner_lost")));
		cr_expect(json_is_false(json_object_get(tb, "partner_lost")));
		cr_expect_neq(json_integer_value(json_object_get(json_object_get(pa, "placement"),
			"seed")), json_integer_value(json_object_get(json_object_get(pb, "placement"),
			"seed")), "each side its own placement");
		k = i;
	}
	cr_expect_eq(k, 1, "two passes");
	json_decref(j);
	free(out);
	free(err);
	free(json);
	free(dir);
}

Test(compare, the_same_library_is_within_noise, .timeout = HBT_TIMEOUT(300))
{
	char *out, *err;
	char v[8][16];
	const char *args[] = { "compare", "pace_256", "pace_256", "--submissions", PACE, "--sizes",
		"1024", "--passes", "2", "--rounds", "6", "--noise", "50", NULL };
	cr_assert_eq(hbt_cli(&out, &err, NULL, args), 0, "%s", err);
	cr_assert_eq(S_verdicts(v, 8, out), 1, "%s", out);
	cr_expect_str_eq(v[0], "within noise", "%s", out);
	free(out);
	free(err);
}

/* A library that crashes ends its side; the other goes on alone and the command says which and
 * why, exit 3, instead of waiting for a partner that is gone. */
Test(compare, a_crash_ends_the_comparison, .timeout = HBT_TIMEOUT(120))
{
	char *out, *err;
	const char *args[] = { "compare", "crash_256", "pace_256", "--submissions", MISBEHAVE,
		"--submissions", PACE, "--sizes", "1024", "--passes", "2", "--rounds", "4", NULL };
	cr_assert_eq(hbt_cli(&out, &err, NULL, args), 3, "%s", err);
	cr_expect(strstr(err, "pass 1: crash_256 (reference) crash: the library crashed") != NULL,
		"%s", err);
	free(out);
	free(err);
}

Test(compare, usage)
{
	char *out, *err;
	const char *one[] = { "compare", "pace_256", "--submissions", PACE, NULL };
	const char *rounds[] = { "compare", "pace_256", "pace_256", "--rounds", "1", NULL };
	cr_expect_eq(hbt_cli(&out, &err, NULL, one), 2);
	cr_expect(strstr(err, "compare: name two instances") != NULL, "%s", err);
	free(out);
	free(err);
	cr_expect_eq(hbt_cli(&out, &err, NULL, rounds), 2);
	cr_expect(strstr(err, "--rounds 1: expected 2 to 1000") != NULL, "%s", err);
	free(out);
	free(err);
}

/* The driver's output of one short pass of the SM3 reference, with the placement seed given
 * (0: none), parsed. */
static json_t *S_measure(unsigned long long placement)
{
	char cmd[2048], seed[64] = "";
	FILE *p;
	json_t *j;
	if (placement)
		snprintf(seed, sizeof(seed), " --placement-seed %llu", placement);
	snprintf(cmd, sizeof(cmd), "'%s' --library '%s' --bytes 32,1024 --digest-bits 256 "
		"--blocks 2 --samples 1 --warmup-ms 1%s", hb_own_path(HB_OWN_MEASURE),
		hbt_library("SM3"), seed);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	j = json_loadf(p, JSON_DISABLE_EOF_CHECK, NULL);
	pclose(p);
	cr_assert_not_null(j, "%s", cmd);
	return j;
}

/* Each pass's buffers where its seed puts them: within a page, on malloc's 16-byte grain, another
 * seed another place; without a seed, no placement is claimed. */
Test(placement, each_seed_its_own_offsets, .timeout = HBT_TIMEOUT(60))
{
	json_t *a = S_measure(5), *b = S_measure(6), *none = S_measure(0), *o, *pa, *pb;
	size_t i;
	int differ = 0;

	pa = json_object_get(a, "placement");
	pb = json_object_get(b, "placement");
	cr_assert(json_is_object(pa) && json_is_object(pb));
	cr_expect_eq(json_integer_value(json_object_get(pa, "seed")), 5);
	cr_expect_null(json_object_get(none, "placement"));
	cr_expect_eq(json_array_size(json_object_get(pa, "message_offsets")), 2, "one a size");
	json_array_foreach(json_object_get(pa, "message_offsets"), i, o) {
		json_int_t v = json_integer_value(o), w = json_integer_value(json_array_get(
			json_object_get(pb, "message_offsets"), i));
		cr_expect(v >= 0 && v < 4096 && v % 16 == 0, "offset %lld", (long long)v);
		differ |= v != w;
	}
	differ |= json_integer_value(json_object_get(pa, "output_offset")) !=
		json_integer_value(json_object_get(pb, "output_offset"));
	differ |= json_integer_value(json_object_get(pa, "stack_offset")) !=
		json_integer_value(json_object_get(pb, "stack_offset"));
	cr_expect(differ, "seeds 5 and 6 placed everything alike");
	json_decref(a);
	json_decref(b);
	json_decref(none);
}

/* What a reader of the record would compute: over every pair of every pass's recorded blocks,
 * the median of library / anchor of the fastest fifth of the pairs, ranked by the product of
 * each side's block over its own fastest (the fifth by nearest rank). */
static double S_ratio_of_blocks(json_t *passes)
{
	double l[512], a[512], c[512], sorted[512], r[512], lmin = 0, amin = 0, t;
	size_t n = 0, i, k, kept = 0;
	json_t *bl;
	json_array_foreach(passes, i, bl) {
		json_t *x = json_object_get(bl, "library"), *y = json_object_get(bl, "anchor");
		cr_assert_eq(json_array_size(x), json_array_size(y), "pass %zu: unpaired blocks", i + 1);
		for (k = 0; k < json_array_size(x) && n < 512; k++, n++) {
			l[n] = json_number_value(json_array_get(x, k));
			a[n] = json_number_value(json_array_get(y, k));
			lmin = n == 0 || l[n] < lmin ? l[n] : lmin;
			amin = n == 0 || a[n] < amin ? a[n] : amin;
		}
	}
	cr_assert_gt(n, 0);
	for (i = 0; i < n; i++)
		sorted[i] = c[i] = l[i] / lmin * (a[i] / amin);
	t = hb_quantile(sorted, n, 0.2);
	for (i = 0; i < n; i++)
		if (c[i] <= t)
			r[kept++] = l[i] / a[i];
	return hb_median(r, kept);
}

/* A campaign times each library side by side with SM3's reference, and each record's headline
 * carries its ratio to it from those pairs; --paired-passes 0 leaves them out. */
Test(campaign_paired, every_library_against_the_anchor, .timeout = HBT_TIMEOUT(300))
{
	char *data = hbt_tmpdir("campaign-paired"), *sys = hb_path_join(data, "cp"), *out, *err;
	const char *args[] = { "run", "--system", "cp", "--profile", "quick", "--only", "sm3",
		"--sizes", "1024,4096", "--passes", "2", "--paired-passes", "3", "--data", data, NULL };
	const char *none[] = { "run", "--system", "cp0", "--profile", "quick", "--only", "sm3",
		"--sizes", "1024", "--passes", "2", "--paired-passes", "0", "--data", data, NULL };
	json_t *s, *o, *a, *p, *q, *c;
	double r, headline_ratio;
	int wide;

	cr_assert_eq(hbt_cli(&out, &err, NULL, args), 0, "%s", err);
	cr_expect(strstr(err, "SM3 (openssl) paired pass 3 with SM3 (reference): ok") != NULL, "%s",
		err);
	s = hbt_json_load(sys, "system.json");
	c = json_object_get(json_object_get(s, "campaign"), "paired");
	cr_expect_eq(json_integer_value(json_object_get(c, "passes")), 3);
	cr_expect_str_eq(json_string_value(json_object_get(c, "schedule")), "interleaved");
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(c, "anchor"), "instance")),
		"SM3");
	o = hbt_json_load(sys, "records/sm3/SM3.openssl__hash_4096.json");
	a = hbt_json_load(sys, "records/sm3/SM3__hash_4096.json");
	p = json_object_get(json_object_get(o, "headline"), "paired");
	q = json_object_get(json_object_get(a, "headline"), "paired");
	cr_assert(json_is_object(p), "OpenSSL's record has its paired ratio");
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(p, "anchor"),
		"implementation")), "reference");
	cr_expect(json_is_false(json_object_get(p, "self")));
	cr_expect_eq(json_integer_value(json_object_get(p, "campaign_seed")),
		json_integer_value(json_object_get(json_object_get(s, "campaign"), "seed")));
	cr_expect_eq(json_integer_value(json_object_get(p, "pairs")), 15,
		"3 passes of 5 rounds, half the profile's");
	cr_expect_eq(json_integer_value(json_object_get(c, "rounds")), 5);
	cr_expect_str_eq(json_string_value(json_object_get(p, "bootstrap")), "passes");
	cr_expect_eq(json_array_size(json_object_get(p, "blocks")), 3, "each pass's blocks of both");
	r = json_number_value(json_object_get(p, "ratio"));
	cr_expect(json_number_value(json_object_get(p, "low")) <= r &&
		r <= json_number_value(json_object_get(p, "high")));
	/* the ratio is what the recorded blocks say */
	cr_expect_float_eq(r, S_ratio_of_blocks(json_object_get(p, "blocks")), 1e-9);
	cr_expect_float_eq(json_number_value(json_object_get(p, "fastest_fraction")), 0.2, 1e-12);
	/* a ratio whose interval is wider than ± 1 % says so */
	wide = json_number_value(json_object_get(p, "half_width_pct")) > 1.0;
	cr_expect_str_eq(json_string_value(json_object_get(p, "state")), wide ? "wide" : "narrow");
	/* and it measures what the headlines, timed apart, measure: the two agree within a fifth (an
	 * inverted or mismatched pairing would be off by the whole ratio), or the ratio is marked
	 * wide: on the AMD host a spell over the paired passes slowed OpenSSL's SM3 alone (paired
	 * 0.83, ± 21 %, headlines 0.60) */
	headline_ratio = json_number_value(json_object_get(json_object_get(o, "headline"),
		"cycles_per_byte")) / json_number_value(json_object_get(json_object_get(a, "headline"),
		"cycles_per_byte"));
	if (!hb_emulated()) /* under qemu-user the two run as the emulator translates them */
		cr_expect(wide || fabs(log(r / headline_ratio)) < log(1.2), "paired %g, headlines %g",
			r, headline_ratio);
	cr_expect(json_is_true(json_object_get(q, "self")), "the anchor's own record says it is");
	cr_expect_float_eq(json_number_value(json_object_get(q, "ratio")), 1.0, 1e-12);
	json_decref(s);
	json_decref(o);
	json_decref(a);
	free(out);
	free(err);
	free(sys);

	cr_assert_eq(hbt_cli(&out, &err, NULL, none), 0, "%s", err);
	sys = hb_path_join(data, "cp0");
	s = hbt_json_load(sys, "system.json");
	o = hbt_json_load(sys, "records/sm3/SM3.openssl__hash_1024.json");
	cr_expect(json_is_null(json_object_get(json_object_get(s, "campaign"), "paired")));
	cr_expect_null(json_object_get(json_object_get(o, "headline"), "paired"));
	cr_expect(strstr(err, "paired pass") == NULL, "%s", err);
	json_decref(s);
	json_decref(o);
	free(out);
	free(err);
	free(sys);
	free(data);
}
