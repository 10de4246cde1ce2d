/* test_ratio.c — a ratio to a yardstick with its interval: its bounds from the two headlines'
 * intervals (hg_ratio_of), the downloads' ratio columns (a crafted pair of records: the bounds
 * are x's low over the yardstick's high and x's high over its low), and evidence without an
 * interval, whose ratio has none and reads on the pages as before; and ratios of figures timed
 * paired with the campaign's anchor: the quotient of their ratios to it, its interval combined in
 * quadrature, method "paired-anchor" on the pages, in the downloads and through the rebuild cache,
 * unpaired again for another campaign or another anchor. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "golden.h"
#include "figures.h"
#include "hashgen.h"
#include "results.h"
#include "support.h"

#define DATA HBT_FIXTURES "/data"
#define LITCHI "x86_1/records/hash-15/litchi_256__hash_65536.json"
#define SM3REF "x86_1/records/sm3/SM3__hash_65536.json"
#define SM3SSL "x86_1/records/sm3/SM3.openssl__hash_65536.json"
#define SHA256REF "x86_1/records/sha2/SHA-256__hash_65536.json"
#define SHA256SSL "x86_1/records/sha2/SHA-256.openssl__hash_65536.json"

/* ---- the ratio as data ---- */

static hg_headline_fig S_fig(double cpb, double lo, double hi)
{
	hg_headline_fig h;
	memset(&h, 0, sizeof(h));
	h.cpb = cpb;
	h.cycles = cpb * 65536;
	h.bytes = 65536;
	if (lo < 0) {
		hg_iv_none(&h.iv);
		return h;
	}
	h.iv.state = HG_IV_NARROW;
	h.iv.low_cpb = lo;
	h.iv.high_cpb = hi;
	h.iv.low_cycles = lo * 65536;
	h.iv.high_cycles = hi * 65536;
	h.iv.half_pct = (hi - lo) / 2 / cpb * 100;
	h.iv.target_pct = 2;
	return h;
}

Test(ratio, bounds_are_the_low_over_the_high_and_the_high_over_the_low)
{
	hg_headline_fig a = S_fig(9.2, 9.1, 9.35), b = S_fig(7.7, 7.62, 7.8);
	hg_ratio r;

	cr_assert_eq(hg_ratio_of(&r, &a, &b), 0);
	cr_expect_eq(r.ratio, 9.2 / 7.7);
	cr_expect_eq(r.low, 9.1 / 7.8, "a_lo / b_hi: %.17g", r.low);
	cr_expect_eq(r.high, 9.35 / 7.62, "a_hi / b_lo: %.17g", r.high);
	cr_expect_not(r.same);
	/* a yardstick's own figure is exactly 1 */
	cr_assert_eq(hg_ratio_of(&r, &b, &b), 0);
	cr_expect(r.same && r.ratio == 1 && r.low == 1 && r.high == 1);
}

Test(ratio, a_figure_without_an_interval_gives_a_ratio_without_one)
{
	hg_headline_fig a = S_fig(9.2, -1, -1), b = S_fig(7.7, 7.62, 7.8), none = S_fig(-1, -1, -1);
	hg_ratio r;
	char buf[64];

	cr_assert_eq(hg_ratio_of(&r, &a, &b), 0);
	cr_expect_eq(r.ratio, 9.2 / 7.7);
	cr_expect(r.low < 0 && r.high < 0, "no bounds: %g %g", r.low, r.high);
	cr_assert_eq(hg_ratio_of(&r, &b, &a), 0);
	cr_expect(r.low < 0 && r.high < 0, "no bounds against a yardstick without an interval");
	/* printed as before intervals */
	cr_expect_str_eq(hg_fmt_ratio(buf, sizeof(buf), r.ratio, r.low, r.high, "×"), "0.84×");
	cr_expect_eq(hg_ratio_of(&r, &none, &b), -1, "no figure, no ratio");
	cr_expect_eq(hg_ratio_of(&r, &b, &none), -1);
}

/* S_fig's figure, timed paired with anchor (NULL: not paired) in campaign seed: its ratio to the
 * anchor in [lo, hi]. */
static hg_headline_fig S_paired(hg_headline_fig h, const char *anchor, long long seed,
	double ratio, double lo, double hi)
{
	h.anchor_instance = anchor;
	h.anchor_implementation = anchor ? "reference" : NULL;
	h.pair.seed = seed;
	h.pair.ratio = ratio;
	h.pair.low = lo;
	h.pair.high = hi;
	h.pair.self = anchor && ratio == 1 && lo == 1 && hi == 1;
	h.pair.wide = 0;
	return h;
}

/* |a - b| within a few units in the last place of b. */
static int S_close(double a, double b)
{
	return fabs(a - b) <= 4e-16 * fabs(b);
}

Test(ratio, paired_figures_divide_their_ratios_to_the_anchor)
{
	/* headline intervals that would give 9.1 / 7.8 to 9.35 / 7.62 unpaired */
	hg_headline_fig a = S_paired(S_fig(9.2, 9.1, 9.35), "SM3", 7, 1.2, 1.19, 1.22);
	hg_headline_fig b = S_paired(S_fig(7.7, 7.62, 7.8), "SM3", 7, 0.9, 0.895, 0.91);
	hg_headline_fig anchor = S_paired(S_fig(7.75, 7.7, 7.8), "SM3", 7, 1, 1, 1);
	double q = 1.2 / 0.9, dl = hypot(log(1.2 / 1.19), log(0.91 / 0.9));
	double dh = hypot(log(1.22 / 1.2), log(0.9 / 0.895));
	hg_ratio r;

	cr_assert_eq(hg_ratio_of(&r, &a, &b), 0);
	cr_expect(r.paired && !r.same && !r.wide);
	cr_expect_eq(r.ratio, q, "the quotient of the two ratios to the anchor: %.17g", r.ratio);
	cr_expect(S_close(r.low, q * exp(-dl)), "low: %.17g, want %.17g", r.low, q * exp(-dl));
	cr_expect(S_close(r.high, q * exp(dh)), "high: %.17g, want %.17g", r.high, q * exp(dh));
	/* against the anchor's own figure: exactly x's own ratio and interval */
	cr_assert_eq(hg_ratio_of(&r, &a, &anchor), 0);
	cr_expect(r.paired && r.ratio == 1.2 && r.low == 1.19 && r.high == 1.22,
		"%.17g [%.17g, %.17g]", r.ratio, r.low, r.high);
	cr_assert_eq(hg_ratio_of(&r, &anchor, &b), 0);
	cr_expect(r.paired && r.ratio == 1 / 0.9 && r.low == 1 / 0.91 && r.high == 1 / 0.895);
	/* the anchor against itself is still exactly 1 */
	cr_assert_eq(hg_ratio_of(&r, &anchor, &anchor), 0);
	cr_expect(r.same && r.ratio == 1 && r.low == 1 && r.high == 1);
	/* a wide ratio on either side makes the quotient wide */
	b.pair.wide = 1;
	cr_assert_eq(hg_ratio_of(&r, &a, &b), 0);
	cr_expect(r.wide);
}

Test(ratio, another_campaign_or_anchor_or_none_gives_the_unpaired_ratio)
{
	hg_headline_fig a = S_paired(S_fig(9.2, 9.1, 9.35), "SM3", 7, 1.2, 1.19, 1.22);
	hg_headline_fig others[4];
	hg_ratio r;
	size_t k;

	others[0] = S_paired(S_fig(7.7, 7.62, 7.8), "SM3", 8, 0.9, 0.895, 0.91);
	others[1] = S_paired(S_fig(7.7, 7.62, 7.8), "SHA-256", 7, 0.9, 0.895, 0.91);
	others[2] = S_paired(S_fig(7.7, 7.62, 7.8), NULL, 0, 0, 0, 0);
	others[3] = S_paired(S_fig(7.7, 7.62, 7.8), "SM3", 7, 0.9, 0.895, 0.91);
	others[3].bytes = 1024; /* another message size */
	for (k = 0; k < 4; k++) {
		cr_assert_eq(hg_ratio_of(&r, &a, &others[k]), 0);
		cr_expect(!r.paired, "case %zu", k);
		cr_expect_eq(r.ratio, 9.2 / 7.7, "case %zu", k);
		cr_expect_eq(r.low, 9.1 / 7.8, "case %zu", k);
		cr_expect_eq(r.high, 9.35 / 7.62, "case %zu", k);
		cr_expect_eq(hg_paired(&a, &others[k]), 0, "case %zu", k);
	}
}

Test(ratio, paired_figures_are_within_noise_by_their_ratio)
{
	/* headline intervals that overlap, ratios whose interval lies below 1 */
	hg_headline_fig a = S_paired(S_fig(9.2, 9.1, 9.3), "SM3", 7, 1.18, 1.178, 1.182);
	hg_headline_fig b = S_paired(S_fig(9.25, 9.15, 9.35), "SM3", 7, 1.19, 1.188, 1.192);
	/* headline intervals apart, ratios within noise of each other */
	hg_headline_fig c = S_paired(S_fig(9.6, 9.55, 9.65), "SM3", 7, 1.185, 1.17, 1.2);
	hg_headline_fig b2 = b;

	cr_expect(hg_paired(&a, &b));
	cr_expect_not(hg_within_noise(&a, &b));
	cr_expect(hg_faster_beyond_noise(&a, &b));
	cr_expect_not(hg_faster_beyond_noise(&b, &a));
	cr_expect(hg_within_noise(&b, &c));
	cr_expect_not(hg_faster_beyond_noise(&b, &c));
	cr_expect_not(hg_faster_beyond_noise(&c, &b));
	/* in another campaign, as before: the headline intervals decide */
	b2.pair.seed = 8;
	cr_expect(hg_within_noise(&a, &b2));
	cr_expect_not(hg_faster_beyond_noise(&a, &b2));
	cr_expect(hg_faster_beyond_noise(&b2, &c));
	/* the ends of the quotient's interval decide, as hg_ratio_of gives them */
	{
		hg_ratio r;
		hg_ratio_of(&r, &a, &b);
		cr_expect(r.high < 1, "%.17g", r.high);
		hg_ratio_of(&r, &b, &c);
		cr_expect(r.low <= 1 && 1 <= r.high);
	}
}

Test(ratio, printed_with_the_larger_distance_to_its_bounds)
{
	char buf[64];
	cr_expect_str_eq(hg_fmt_ratio(buf, sizeof(buf), 1.19, 1.18, 1.204, "×"), "1.19 ± 0.01×");
	cr_expect_str_eq(hg_fmt_ratio(buf, sizeof(buf), 0.2623, 0.2604, 0.2641, "×"),
		"0.262 ± 0.002×", "a decimal more where the half-width would read 0.00");
	cr_expect_str_eq(hg_fmt_ratio(buf, sizeof(buf), 1.25, 1.21, 1.29, " ×"), "1.25 ± 0.04 ×");
	cr_expect_str_eq(hg_fmt_ratio(buf, sizeof(buf), 1.25, -1, -1, " ×"), "1.25 ×");
}

/* ---- the site ---- */

static char *S_copy(const char *name)
{
	char *root = hbt_tmpdir(name), *data = hb_path_join(root, "data");
	char *cmd = hb_sprintf("cp -r '%s' '%s'", DATA, data);
	cr_assert_eq(system(cmd), 0);
	free(cmd);
	free(root);
	return data;
}

static char *S_site(const char *name, const char *data)
{
	char *root = hbt_tmpdir(name), *site = hb_path_join(root, "site"), *err = NULL;
	cr_assert_eq(hbt_site_build(data, site, 0, &err), 0, "%s", err);
	free(err);
	free(root);
	return site;
}

static char *S_page(const char *site, const char *rel)
{
	char *path = hb_path_join(site, rel), *text;
	size_t len;
	cr_assert_eq(hg_read_file(&text, &len, path), 0, "%s", hg_error_last());
	free(path);
	return text;
}

/* Edit the record rel under data: its headline per byte cpb in [lo, hi] (narrow), or without an
 * interval (lo < 0), or without a headline at all (cpb < 0). */
static void S_set(const char *data, const char *rel, double cpb, double lo, double hi)
{
	json_t *j = hbt_json_load(data, rel), *h = json_object_get(j, "headline");
	json_t *iv = json_object_get(h, "interval");
	double bytes = (double)json_integer_value(json_object_get(j, "message_bytes"));
	char *path = hb_path_join(data, rel);

	if (cpb < 0) {
		json_object_del(j, "headline");
	} else {
		json_object_set_new(h, "cycles_per_byte", json_real(cpb));
		json_object_set_new(h, "cycles_per_call", json_real(cpb * bytes));
		if (lo < 0) {
			json_object_del(h, "interval");
		} else {
			json_object_set_new(iv, "low_cycles_per_byte", json_real(lo));
			json_object_set_new(iv, "high_cycles_per_byte", json_real(hi));
			json_object_set_new(iv, "low_cycles_per_call", json_real(lo * bytes));
			json_object_set_new(iv, "high_cycles_per_call", json_real(hi * bytes));
			json_object_set_new(iv, "half_width_pct", json_real((hi - lo) / 2 / cpb * 100));
		}
	}
	cr_assert_eq(json_dump_file(j, path, JSON_INDENT(2)), 0);
	json_decref(j);
	free(path);
}

/* The row of the downloads for the record rel (under data/). */
static json_t *S_row(json_t *results, const char *rel)
{
	char *want = hb_sprintf("data/%s", rel);
	json_t *f;
	size_t i;
	json_array_foreach(json_object_get(results, "figures"), i, f)
		if (strcmp(json_string_value(json_object_get(f, "record")), want) == 0) {
			free(want);
			return f;
		}
	cr_assert_fail("no figure of %s in the downloads", want);
	return NULL;
}

static double S_num(json_t *row, const char *key)
{
	json_t *v = json_object_get(row, key);
	cr_assert(json_is_number(v), "%s: not a number", key);
	return json_number_value(v);
}

Test(ratio, the_downloads_carry_the_bounds_of_a_crafted_pair)
{
	char *data = S_copy("ratio-pair"), *site, *csv, *md;
	json_t *results, *row;

	/* litchi_256 at 9.5 in [9.4, 9.65], the SM3 reference at 7.75 in [7.7, 7.78] */
	S_set(data, LITCHI, 9.5, 9.4, 9.65);
	S_set(data, SM3REF, 7.75, 7.7, 7.78);
	site = S_site("ratio-pair-site", data);
	results = hbt_results_json(site);
	row = S_row(results, LITCHI);
	cr_expect_eq(S_num(row, "ratio_sm3_reference"), 9.5 / 7.75);
	cr_expect_eq(S_num(row, "ratio_low_sm3_reference"), 9.4 / 7.78, "a_lo / b_hi");
	cr_expect_eq(S_num(row, "ratio_high_sm3_reference"), 9.65 / 7.7, "a_hi / b_lo");
	cr_expect_str_eq(json_string_value(json_object_get(row, "ratio_method")),
		"unpaired-intervals");
	/* the SHA-256 columns are there too, each ratio inside its bounds */
	cr_expect(S_num(row, "ratio_low_sha256_openssl") < S_num(row, "ratio_sha256_openssl") &&
		S_num(row, "ratio_sha256_openssl") < S_num(row, "ratio_high_sha256_openssl"));
	/* the SM3 reference against itself: exactly 1 */
	row = S_row(results, SM3REF);
	cr_expect_eq(S_num(row, "ratio_sm3_reference"), 1);
	cr_expect_eq(S_num(row, "ratio_low_sm3_reference"), 1);
	cr_expect_eq(S_num(row, "ratio_high_sm3_reference"), 1);
	json_decref(results);

	/* the CSV's header names the columns, the ratio's bounds beside it */
	csv = hbt_results_csv(site);
	cr_expect(strstr(csv, ",unit,ratio_sm3_reference,ratio_low_sm3_reference,"
		"ratio_high_sm3_reference,ratio_sha256_reference,ratio_low_sha256_reference,"
		"ratio_high_sha256_reference,ratio_sha256_openssl,ratio_low_sha256_openssl,"
		"ratio_high_sha256_openssl,ratio_method\r\n") != NULL, "%.600s", csv);
	free(csv);

	/* the pages: ± the larger distance to the bounds, 9.65 / 7.7 - 9.5 / 7.75 = 0.027 */
	md = S_page(site, "x86_1/compare.md");
	cr_expect(strstr(md, "| 1.23 ± 0.03× |") != NULL, "%s", md);
	free(md);
	md = S_page(site, "x86_1/hash-15.md");
	cr_expect(strstr(md, "| `litchi_256` (reference) | — | 9.5 ± 0.1 | 1.23 ± 0.03 × |") !=
		NULL, "%s", md);
	free(md);
	free(site);
	free(data);
}

Test(ratio, evidence_without_an_interval_gives_empty_bounds)
{
	char *data = S_copy("ratio-none"), *site, *csv, *md, *line;
	json_t *results, *row;

	/* litchi_256 without an interval, litchi_512 without a headline (an earlier hashbench) */
	S_set(data, LITCHI, 9.5, -1, -1);
	S_set(data, "x86_1/records/hash-15/litchi_512__hash_65536.json", -1, -1, -1);
	site = S_site("ratio-none-site", data);
	results = hbt_results_json(site);
	row = S_row(results, LITCHI);
	cr_expect(json_is_number(json_object_get(row, "ratio_sm3_reference")));
	cr_expect(json_is_null(json_object_get(row, "ratio_low_sm3_reference")));
	cr_expect(json_is_null(json_object_get(row, "ratio_high_sm3_reference")));
	cr_expect(json_is_null(json_object_get(row, "ratio_low_sha256_openssl")));
	cr_expect_str_eq(json_string_value(json_object_get(row, "ratio_method")),
		"unpaired-headlines", "computed as before: the two headlines divided");
	row = S_row(results, "x86_1/records/hash-15/litchi_512__hash_65536.json");
	cr_expect(json_is_number(json_object_get(row, "ratio_sm3_reference")));
	cr_expect(json_is_null(json_object_get(row, "ratio_low_sm3_reference")));
	cr_expect(json_is_null(json_object_get(row, "ratio_high_sm3_reference")));
	/* a size no yardstick was measured at: no ratio, no method */
	row = S_row(results, "x86_1/records/hash-15/litchi_256__hash_32.json");
	cr_expect(json_is_null(json_object_get(row, "ratio_sm3_reference")));
	cr_expect(json_is_null(json_object_get(row, "ratio_method")));
	json_decref(results);

	/* the CSV: the ratio, then two empty bounds */
	csv = S_page(site, "x86_1/hash-15.csv");
	line = strstr(csv, "litchi_256__hash_65536.json,");
	cr_assert_not_null(line);
	line = strstr(line, ",cycles,");
	cr_assert_not_null(line);
	cr_expect(strncmp(line + strlen(",cycles,") + strcspn(line + strlen(",cycles,"), ","),
		",,,", 3) == 0, "%.200s", line);
	free(csv);

	/* the pages: the ratio alone, as before intervals (9.5 / 7.76) */
	md = S_page(site, "x86_1/hash-15.md");
	cr_expect(strstr(md, "| `litchi_256` (reference) | — | 9.5 | 1.22 × |") != NULL, "%s", md);
	free(md);
	free(site);
	free(data);
}

/* ---- paired ratios in the site ---- */

/* Set headline.paired of the record rel under data: against anchor (its reference), campaign seed,
 * ratio in [low, high], state; the anchor's own when ratio, low and high are 1. */
static void S_pair(const char *data, const char *rel, const char *anchor, long long seed,
	double ratio, double low, double high, const char *state)
{
	json_t *j = hbt_json_load(data, rel), *h = json_object_get(j, "headline");
	char *path = hb_path_join(data, rel);
	int self = ratio == 1 && low == 1 && high == 1;
	json_t *p = json_pack("{s:{s:s, s:s}, s:b, s:I, s:s, s:f, s:f, s:f, s:f, s:s, s:i, s:i}",
		"anchor", "instance", anchor, "implementation", "reference", "self", self,
		"campaign_seed", (json_int_t)seed, "method", "paired-blocks", "ratio", ratio, "low", low,
		"high", high, "half_width_pct", (high - low) / 2 / ratio * 100, "state", state, "pairs",
		self ? 0 : 40, "passes", self ? 0 : 4);

	if (!self)
		json_object_set_new(p, "pair_ratios", json_pack("[[f, f], [f, f]]", low, high, ratio,
			ratio));
	cr_assert_not_null(h, "%s has no headline", rel);
	json_object_set_new(h, "paired", p);
	cr_assert_eq(json_dump_file(j, path, JSON_INDENT(2)), 0);
	json_decref(j);
	free(path);
}

/* Every yardstick and litchi_256 at 65536 B timed paired with the SM3 reference in campaign 77,
 * litchi_256 at 1.18 [1.178, 1.182] of it, SHA-256's reference at 1.19 [1.188, 1.192]: their
 * headline intervals overlap (9.21 ± 0.04 both), their paired ratio does not hold 1. */
static void S_paired_field(const char *data, const char *litchi_state)
{
	S_pair(data, SM3REF, "SM3", 77, 1, 1, 1, "narrow");
	S_pair(data, SM3SSL, "SM3", 77, 0.875, 0.873, 0.877, "narrow");
	S_pair(data, SHA256REF, "SM3", 77, 1.19, 1.188, 1.192, "narrow");
	S_pair(data, SHA256SSL, "SM3", 77, 0.2635, 0.263, 0.264, "narrow");
	S_pair(data, LITCHI, "SM3", 77, 1.18, 1.178, 1.182, litchi_state);
}

static const char *S_str(json_t *row, const char *key)
{
	json_t *v = json_object_get(row, key);
	cr_assert(json_is_string(v), "%s: not a string", key);
	return json_string_value(v);
}

/* Does the file rel of site hold want? */
static void S_expect_in(const char *site, const char *rel, const char *want)
{
	char *text = S_page(site, rel);
	cr_expect(strstr(text, want) != NULL, "%s: no \"%s\" in:\n%s", rel, want, text);
	free(text);
}

/* The file's inode: a page the rebuild reused was moved into place, so it keeps its own. */
static ino_t S_ino(const char *site, const char *rel)
{
	char *path = hb_path_join(site, rel);
	struct stat st;
	cr_assert_eq(stat(path, &st), 0, "%s", path);
	free(path);
	return st.st_ino;
}

Test(ratio, paired_records_give_the_paired_ratio_on_the_pages_and_in_the_downloads)
{
	char *data = S_copy("ratio-paired"), *site, *csv, *md, *line;
	double q = 1.18 / 1.19;
	json_t *results, *row;

	S_paired_field(data, "narrow");
	site = S_site("ratio-paired-site", data);
	results = hbt_results_json(site);
	row = S_row(results, LITCHI);
	/* against the anchor's own record: litchi_256's own paired ratio and interval */
	cr_expect_eq(S_num(row, "ratio_sm3_reference"), 1.18);
	cr_expect_eq(S_num(row, "ratio_low_sm3_reference"), 1.178);
	cr_expect_eq(S_num(row, "ratio_high_sm3_reference"), 1.182);
	/* against SHA-256's reference: the quotient, the half-widths in quadrature */
	cr_expect_eq(S_num(row, "ratio_sha256_reference"), q);
	cr_expect(S_close(S_num(row, "ratio_low_sha256_reference"), q / exp(hypot(log(1.18 / 1.178),
		log(1.192 / 1.19)))));
	cr_expect(S_close(S_num(row, "ratio_high_sha256_reference"), q * exp(hypot(log(1.182 /
		1.18), log(1.19 / 1.188)))));
	cr_expect_eq(S_num(row, "ratio_sha256_openssl"), 1.18 / 0.2635);
	cr_expect_str_eq(S_str(row, "ratio_method"), "paired-anchor");
	/* the anchor's own row: exactly 1 against itself, paired against the others */
	row = S_row(results, SM3REF);
	cr_expect(S_num(row, "ratio_sm3_reference") == 1 && S_num(row, "ratio_low_sm3_reference") == 1
		&& S_num(row, "ratio_high_sm3_reference") == 1);
	cr_expect_eq(S_num(row, "ratio_sha256_reference"), 1 / 1.19);
	cr_expect_eq(S_num(row, "ratio_low_sha256_reference"), 1 / 1.192);
	cr_expect_str_eq(S_str(row, "ratio_method"), "paired-anchor");
	/* litchi_256 at 32 B has no ratio, as before */
	row = S_row(results, "x86_1/records/hash-15/litchi_256__hash_32.json");
	cr_expect(json_is_null(json_object_get(row, "ratio_method")));
	json_decref(results);

	/* the CSV of the page: the method at the end of the row */
	csv = S_page(site, "x86_1/hash-15.csv");
	line = strstr(csv, "litchi_256__hash_65536.json,");
	cr_assert_not_null(line);
	cr_expect(strncmp(line + strcspn(line, "\r"), "\r\n", 2) == 0);
	cr_expect(strstr(line, ",1.18,1.178,1.182,") != NULL, "%.400s", line);
	cr_expect(strncmp(line + strcspn(line, "\r") - strlen(",paired-anchor"), ",paired-anchor",
		strlen(",paired-anchor")) == 0, "%.400s", line);
	free(csv);

	/* the comparison page: litchi_256 ranks ahead of SHA-256's reference (their intervals
	 * overlap, their paired ratio does not hold 1), and its ratio to it is no longer ≈ */
	S_expect_in(site, "x86_1/compare.md", "| 4 | [hash-15](hash-15.html) | `litchi_256` "
		"(reference) | PASS | 9.21 ± 0.04 | 1183 ± 5 | 209.3 | 1.180 ± 0.002× | 0.992 ± 0.002× | "
		"4.48 ± 0.01× |");
	S_expect_in(site, "x86_1/compare.md", "| 5 | [sha2](sha2.html) | `SHA-256` (reference) |");
	S_expect_in(site, "x86_1/compare.md", "for two instances timed paired");
	md = S_page(site, "x86_1/compare.md");
	cr_expect(strstr(md, "| ≈") == NULL, "no ratio reads ≈: %s", md);
	free(md);
	/* the algorithm page's yardstick section */
	S_expect_in(site, "x86_1/hash-15.md", "| `litchi_256` (reference) | — | 9.21 ± 0.04 | "
		"1.180 ± 0.002 × |");
	S_expect_in(site, "x86_1/hash-15.md", "for two figures timed paired");
	S_expect_in(site, "x86_1/compare.html", "paired: both timed side by side with SM3 "
		"(reference) in the same campaign");
	S_expect_in(site, "x86_1/ebash.md", "the interval of their paired ratio holding 1");
	free(site);
	free(data);
}

Test(ratio, a_wide_paired_ratio_is_marked)
{
	char *data = S_copy("ratio-wide"), *site;

	S_paired_field(data, "wide");
	site = S_site("ratio-wide-site", data);
	S_expect_in(site, "x86_1/compare.md", "| 1.180 ± 0.002×‡ |");
	S_expect_in(site, "x86_1/compare.md", "‡ on a ratio: it is paired and wide");
	S_expect_in(site, "x86_1/compare.html", "wide at 65536 B: the interval from the pairs of "
		"this figure is wider than the campaign's noise threshold");
	free(site);
	free(data);
}

Test(ratio, another_campaign_or_anchor_falls_back_to_the_unpaired_ratio)
{
	static const struct {
		const char *anchor;
		long long seed;
	} cases[] = { { "SM3", 78 }, { "SHA-256", 77 } };
	size_t k;

	for (k = 0; k < 2; k++) {
		char *data = S_copy("ratio-fallback"), *site;
		static const char *const golden_row = "| 4 | [hash-15](hash-15.html) | `litchi_256` "
			"(reference) | PASS | 9.21 ± 0.04 | 1183 ± 5 | 209.3 | 1.19 ± 0.01× | ≈ 1.00 ± "
			"0.01× (within noise) | 4.52 ± 0.04× |";
		json_t *results, *row;

		S_paired_field(data, "narrow");
		/* litchi_256 timed in another campaign, or against another anchor */
		S_pair(data, LITCHI, cases[k].anchor, cases[k].seed, 1.18, 1.178, 1.182, "narrow");
		site = S_site("ratio-fallback-site", data);
		results = hbt_results_json(site);
		row = S_row(results, LITCHI);
		/* as the golden: the fixture's headlines, 9.2126 in [9.1758, 9.2495] over the SM3
		 * reference's */
		cr_expect_str_eq(S_str(row, "ratio_method"), "unpaired-intervals", "case %zu", k);
		cr_expect_eq(S_num(row, "ratio_low_sm3_reference"), 9.1758 /
			S_num(S_row(results, SM3REF), "headline_high_cycles_per_byte"));
		json_decref(results);
		/* the litchi_256 row of the comparison page as the golden shows it */
		S_expect_in(site, "x86_1/compare.md", golden_row);
		S_expect_in(HBT_FIXTURES "/golden", "x86_1/compare.md", golden_row);
		free(site);
		free(data);
	}
}

Test(ratio, a_mixed_row_names_both_methods)
{
	char *data = S_copy("ratio-mixed"), *site;
	json_t *results, *row;

	S_paired_field(data, "narrow");
	/* SHA-256's OpenSSL timed in another campaign */
	S_pair(data, SHA256SSL, "SM3", 78, 0.2635, 0.263, 0.264, "narrow");
	site = S_site("ratio-mixed-site", data);
	results = hbt_results_json(site);
	row = S_row(results, LITCHI);
	cr_expect_str_eq(S_str(row, "ratio_method"), "paired-anchor+unpaired-intervals");
	cr_expect_eq(S_num(row, "ratio_sm3_reference"), 1.18);
	cr_expect_eq(S_num(row, "ratio_sha256_openssl"), S_num(row, "headline_cycles_per_byte") /
		S_num(S_row(results, SHA256SSL), "headline_cycles_per_byte"));
	json_decref(results);
	free(site);
	free(data);
}

Test(ratio, paired_ratios_come_back_from_the_rebuild_cache)
{
	char *data = S_copy("ratio-cache"), *site, *clean;
	static const char *const files[] = { "x86_1/compare.md", "x86_1/results-001.csv",
		"x86_1/results-001.json", "x86_1/hash-15.md", NULL };
	ino_t page;
	size_t k;

	S_paired_field(data, "narrow");
	site = S_site("ratio-cache-site", data);
	page = S_ino(site, "x86_1/hash-15.html");
	/* another algorithm's figure changes: hash-15's page and rows are the cache's */
	S_set(data, "x86_1/records/evil/evil_256__hash_65536.json", 20, 19.9, 20.1);
	{
		char *err = NULL;
		cr_assert_eq(hbt_site_build(data, site, 0, &err), 0, "%s", err);
		free(err);
	}
	cr_expect_eq(S_ino(site, "x86_1/hash-15.html"), page, "hash-15's page was rendered again");
	clean = S_site("ratio-cache-clean", data);
	for (k = 0; files[k]; k++) {
		char *a = S_page(site, files[k]), *b = S_page(clean, files[k]);
		cr_expect_str_eq(a, b, "%s: the rebuild differs from a clean build", files[k]);
		free(a);
		free(b);
	}
	S_expect_in(site, "x86_1/compare.md", "0.992 ± 0.002×");
	free(clean);
	free(site);
	free(data);
}
