/* test_ratio.c — a ratio to a yardstick with its interval: its bounds from the two headlines'
 * intervals (hg_ratio_of), the downloads' ratio columns (a crafted pair of records: the bounds
 * are x's low over the yardstick's high and x's high over its low), and evidence without an
 * interval, whose ratio has none and reads on the pages as before. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "golden.h"
#include "figures.h"
#include "hashgen.h"
#include "results.h"
#include "support.h"

#define DATA HBT_FIXTURES "/data"
#define LITCHI "x86_1/records/hash-15/litchi_256__hash_65536.json"
#define SM3REF "x86_1/records/sm3/SM3__hash_65536.json"

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
