/* test_interval_pages.c — each headline figure with its interval, as a reader sees the pages of the
 * fixture (tests/fixtures/data): x86_1's records carry an interval (litchi_512's wide at 65536 B
 * and unconfirmed at 32 B, the others narrow), arm_1's are evidence of an earlier hashbench
 * without one. The figure shows ± its half-width; ‡ sits on a headline only where its interval is
 * wide or unconfirmed (for earlier evidence: where it is disturbed), † only on a spread; a page
 * with figures without an interval says so once; the charts draw the interval as a whisker,
 * hatched or hollow only where it is wide or unconfirmed; ratios and ranks of figures within
 * noise of each other say so, and a fastest implementation is claimed only beyond noise. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "genutil.h"
#include "golden.h"
#include "render.h"
#include "support.h"

#define DATA HBT_FIXTURES "/data"

#define EXPECT_HAS(text, want) cr_expect(strstr((text), (want)) != NULL, "no %s in:\n%s", \
	(want), (text))

/* The fixture's site, built into a folder of the test's own; returns the site's path. */
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

/* How many times want is in text. */
static size_t S_count(const char *text, const char *want)
{
	size_t n = 0;
	const char *p;
	for (p = strstr(text, want); p; p = strstr(p + 1, want))
		n++;
	return n;
}

/* The cell of column col of the Markdown table row that starts at line, copied into buf; 0 when
 * the row has fewer cells. Columns count from the second (the first has no " | " before it). */
static int S_cell(char *buf, size_t n, const char *line, size_t col)
{
	const char *p = line, *eol = strchr(line, '\n'), *end;
	size_t k;
	for (k = 0; k <= col; k++) {
		p = strstr(p, " | ");
		if (!p || p > eol)
			return 0;
		p += 3;
	}
	end = strstr(p, " |");
	snprintf(buf, n, "%.*s", (int)(end - p), p);
	return 1;
}

/* The column (counted as S_cell counts) of the table whose header row starts at head named
 * name. */
static size_t S_column(const char *head, const char *name)
{
	const char *eol = strchr(head, '\n'), *p;
	size_t col = 0, len = strlen(name);
	for (p = strstr(head, " | "); p && p < eol; p = strstr(p + 3, " | ")) {
		if (strncmp(p + 3, name, len) == 0 && strncmp(p + 3 + len, " |", 2) == 0)
			return col;
		col++;
	}
	cr_assert_fail("no column %s in %.*s", name, (int)(eol - head), head);
	return 0;
}

/* The cells of column name of section 4's table of an algorithm page (at most 8). */
static size_t S_section4_column(char out[8][256], const char *md, const char *name)
{
	const char *head = strstr(md, "| instance | message | mean cycles"), *line;
	size_t col, n = 0;

	cr_assert_not_null(head, "no performance table in %s", md);
	col = S_column(head, name);
	for (line = strchr(head, '\n') + 1; *line == '|' && n < 8; line = strchr(line, '\n') + 1)
		if (strncmp(line, "| ---", 5) != 0)
			cr_assert(S_cell(out[n++], 256, line, col), "%s", line);
	return n;
}

static size_t S_headlines(char out[8][256], const char *md)
{
	return S_section4_column(out, md, "headline cycles/byte");
}

Test(interval, each_headline_shows_its_interval_on_the_algorithm_and_comparison_pages)
{
	char *site = S_site("iv-pm", DATA), *md = S_page(site, "x86_1/hash-15.md");
	char *html;

	/* section 4: the headline ± its half-width in its own unit and decimals */
	EXPECT_HAS(md, "| 9595 (5 × 1919) | 9.21 ± 0.04 | 656.3 k | ± 0.0 % (1 retry) |");
	EXPECT_HAS(md, "| 100000 (5 × 20000) | 37.0 ± 0.1 | 1223 | ± 0.3 % |");
	/* "On other systems": per byte and per call, arm_1's figures alone */
	EXPECT_HAS(md, "| `litchi_256` (reference) | **x86_1 (this page)** | 9.21 ± 0.04 | 1183 ± 5 |");
	EXPECT_HAS(md, "| `litchi_256` (reference) | [arm_1](../arm_1/hash-15.html) | 10.0 | 1222 |");
	free(md);
	html = S_page(site, "x86_1/hash-15.html");
	EXPECT_HAS(html, ">9.21 ± 0.04</td>");
	free(html);
	md = S_page(site, "x86_1/compare.md");
	EXPECT_HAS(md, "| [hash-15](hash-15.html) | `litchi_256` (reference) | PASS | 9.21 ± 0.04 | "
		"1183 ± 5 |");
	free(md);
	html = S_page(site, "x86_1/compare.html");
	EXPECT_HAS(html, ">1183 ± 5</td>");
	free(html);
	/* the index and the system's page too */
	html = S_page(site, "index.html");
	EXPECT_HAS(html, ">9.7 ± 0.2 cycles/byte</a><span class=\"mark\" title=\"wide at 65536 B");
	free(html);
	free(site);
}

Test(interval, a_wide_or_unconfirmed_headline_carries_the_mark_that_says_so)
{
	char *site = S_site("iv-marks", DATA), *html = S_page(site, "x86_1/hash-15.html");
	char *md = S_page(site, "x86_1/hash-15.md");

	EXPECT_HAS(html, ">9.7 ± 0.2<span class=\"mark\" title=\"wide at 65536 B: ± 2.5 %, wider "
		"than the ± 2 % asked for\">‡</span></td>");
	EXPECT_HAS(html, ">49.1 ± 2.5<span class=\"mark\" title=\"unconfirmed at 32 B: no calm pass "
		"within its interval\">‡</span></td>");
	/* a narrow one has none */
	EXPECT_HAS(md, "| 9595 (5 × 1919) | 9.21 ± 0.04 |");
	EXPECT_HAS(md, "‡ on a headline figure: its interval is wide (its half-width is above the "
		"precision the campaign asked for) or unconfirmed (no calm pass lies within it).");
	free(md);
	free(html);
	md = S_page(site, "x86_1/compare.md");
	EXPECT_HAS(md, "| [hash-15](hash-15.html) | `litchi_512` (reference) | PASS | 9.7 ± 0.2‡ | "
		"1571 ± 79‡ |");
	free(md);
	free(site);
}

Test(interval, the_dagger_sits_on_the_spread_never_on_a_headline)
{
	char *site = S_site("iv-dagger", DATA), *md = S_page(site, "x86_1/hash-15.md");
	const char *pages[] = { "x86_1/compare.md", "x86_1/ebash.md", "arm_1/compare.md", NULL };
	char heads[8][256], spreads[8][256];
	size_t rows = S_headlines(heads, md), i, daggers = 0;

	cr_expect_eq(S_section4_column(spreads, md, "spread"), rows);
	for (i = 0; i < rows; i++) {
		cr_expect_null(strstr(heads[i], "†"), "† on a headline: %s", heads[i]);
		daggers += strstr(spreads[i], "†") != NULL;
	}
	cr_expect_eq(rows, 4);
	cr_expect_eq(daggers, 1, "litchi_512's spread at 32 B is above the limit");
	EXPECT_HAS(md, "| ± 11.5 %† (2 retries) |");
	EXPECT_HAS(md, "† on a spread: unstable, the single calls at that size spread more than 5 %");
	free(md);
	/* the pages without single calls have no † at all */
	for (i = 0; pages[i]; i++) {
		md = S_page(site, pages[i]);
		cr_expect_null(strstr(md, "†"), "† on %s", pages[i]);
		free(md);
	}
	free(site);
}

Test(interval, earlier_evidence_renders_without_one_and_the_page_says_so_once)
{
	static const char note[] = "A figure without ± has no interval: evidence of an earlier "
		"hashbench (or of another tool) gives none.";
	char *site = S_site("iv-earlier", DATA), *md = S_page(site, "arm_1/hash-15.md");

	char cells[8][256];
	size_t n = S_headlines(cells, md), i;

	EXPECT_HAS(md, "| 12385 (5 × 2477) | 10.0 | 656.3 k | ± 0.0 % |");
	cr_expect_eq(S_count(md, note), 1, "%s", md);
	cr_expect_eq(n, 4);
	for (i = 0; i < n; i++)
		cr_expect_null(strstr(cells[i], "±"), "no interval on arm_1's headlines: %s", cells[i]);
	free(md);
	/* two groups of figures without an interval: said once */
	md = S_page(site, "arm_1/compare.md");
	cr_expect_eq(S_count(md, note), 1, "%s", md);
	free(md);
	/* x86_1's page shows arm_1's figures in "On other systems" */
	md = S_page(site, "x86_1/hash-15.md");
	cr_expect_eq(S_count(md, note), 1, "%s", md);
	free(md);
	md = S_page(site, "index.html");
	cr_expect_eq(S_count(md, note), 1, "%s", md);
	free(md);
	free(site);
}

/* A copy of the fixture's evidence in a folder of the test's own (caller frees). */
static char *S_copy(const char *name)
{
	char *root = hbt_tmpdir(name), *data = hb_path_join(root, "data");
	char *cmd = hb_sprintf("cp -r '%s' '%s'", DATA, data);
	cr_assert_eq(system(cmd), 0);
	free(cmd);
	free(root);
	return data;
}

Test(interval, earlier_evidence_keeps_its_disturbed_mark)
{
	char *data = S_copy("iv-disturbed"), *site, *html;

	hbt_replace(data, "arm_1/records/hash-15/litchi_256__hash_32.json", "\"disturbed\": false",
		"\"disturbed\": true");
	site = S_site("iv-disturbed-site", data);
	html = S_page(site, "arm_1/hash-15.html");
	EXPECT_HAS(html, ">38.2<span class=\"mark\" title=\"disturbed at 32 B: its rounds still lay "
		"far apart after the retries\">‡</span></td>");
	EXPECT_HAS(html, "‡ on a figure without an interval: disturbed");
	free(html);
	free(site);
	free(data);
}

/* ---- the charts ---- */

/* The coordinates of the first <line> after the n-th (0-based) whisker group of svg. */
static void S_whisker_line(const char *svg, size_t n, double *x1, double *y1, double *x2,
	double *y2)
{
	const char *p = svg;
	size_t k;
	for (k = 0; k <= n; k++) {
		p = strstr(p, "class=\"whisker\"");
		cr_assert_not_null(p, "no whisker %zu in %s", n, svg);
		p++;
	}
	p = strstr(p, "<line ");
	cr_assert(p && sscanf(p, "<line x1=\"%lf\" y1=\"%lf\" x2=\"%lf\" y2=\"%lf\"", x1, y1, x2, y2)
		== 4, "%.200s", p);
}

/* The value of attribute name of the first element after at. */
static double S_attr_after(const char *at, const char *name)
{
	char *key = hb_sprintf(" %s=\"", name);
	const char *p = strstr(at, key);
	double v;
	cr_assert_not_null(p, "no %s after %.200s", name, at);
	v = strtod(p + strlen(key), NULL);
	free(key);
	return v;
}

Test(interval, a_bar_carries_its_interval_as_a_whisker_from_low_to_high)
{
	hg_chart_bar b[2] = { { "narrow", 10, 0, 0, 9.5, 10.5 }, { "none", 5, 0, 0, 0, 0 } };
	char *svg;
	size_t len;
	const char *bar;
	double x, w, x1, y1, x2, y2;

	cr_assert_eq(hg_chart_bars_svg(&svg, &len, "t", "d", "v", b, 2), 0, "%s", hg_error_last());
	cr_expect_eq(S_count(svg, "<g class=\"whisker\""), 2, "the bar's whisker and the legend's");
	bar = strstr(svg, "<rect class=\"bar\"");
	cr_assert_not_null(bar);
	x = S_attr_after(bar, "x");
	w = S_attr_after(bar, "width");
	S_whisker_line(svg, 0, &x1, &y1, &x2, &y2);
	/* the bar ends at the figure; the whisker spans 9.5 to 10.5 on the same scale */
	cr_expect(fabs(x1 - (x + w * 0.95)) < 0.11 && fabs(x2 - (x + w * 1.05)) < 0.11,
		"whisker %g–%g for a bar from %g, %g wide", x1, x2, x, w);
	cr_expect_eq(y1, y2, "a horizontal whisker");
	EXPECT_HAS(svg, ">10.0 ± 0.5</text>");
	EXPECT_HAS(svg, ">5.0</text>");
	EXPECT_HAS(svg, ">whisker: the figure's interval</text>");
	cr_expect_null(strstr(svg, "hatched"), "nothing hatched, nothing said of it");
	free(svg);
}

Test(interval, a_point_carries_its_interval_as_a_whisker_under_its_marker)
{
	hg_chart_point p[2] = { { 32, 40, 0, 38, 42 }, { 65536, 10, 1, 9.5, 10.5 } };
	hg_chart_series sr = { "s (reference)", p, 2, 0 };
	hg_chart_lines c = { "t", "d", &sr, 1, NULL };
	char *svg;
	size_t len;
	double x1, y1, x2, y2, x1b, y1b, x2b, y2b;

	cr_assert_eq(hg_chart_lines_svg(&svg, &len, &c), 0, "%s", hg_error_last());
	S_whisker_line(svg, 0, &x1, &y1, &x2, &y2);
	S_whisker_line(svg, 1, &x1b, &y1b, &x2b, &y2b);
	cr_expect(x1 == x2 && x1b == x2b && x1 < x1b, "vertical whiskers at each size");
	/* y grows downwards: the low bound is below the high one; 4 of 40 against 1 of 10 */
	cr_expect_gt(y1, y2);
	cr_expect(fabs((y1 - y2) / (y1b - y2b) - 4) < 0.1, "%g against %g", y1 - y2, y1b - y2b);
	cr_expect_lt(strstr(svg, "class=\"whisker\""), strstr(svg, "class=\"marker"),
		"the whisker under the marker");
	EXPECT_HAS(svg, ">hollow marker: the figure's interval is wide or unconfirmed</text>");
	EXPECT_HAS(svg, ">whisker: the figure's interval</text>");
	free(svg);
}

Test(interval, only_a_wide_or_unconfirmed_figure_is_hatched_or_hollow)
{
	char *site = S_site("iv-charts", DATA), *wide = S_page(site, "x86_1/compare-512.svg");
	char *narrow = S_page(site, "x86_1/compare-256.svg"), *line = S_page(site, "x86_1/hash-15.svg");
	char *old = S_page(site, "arm_1/compare-512.svg");

	/* litchi_512 at 65536 B: wide, hatched, with its whisker */
	EXPECT_HAS(wide, "<rect class=\"bar hollow\"");
	EXPECT_HAS(wide, ">hatched: the figure's interval is wide or unconfirmed</text>");
	EXPECT_HAS(wide, "<g class=\"whisker\"");
	/* the 256-bit group's figures are narrow: solid, each with a whisker */
	cr_expect_null(strstr(narrow, "hollow"), "a narrow figure is drawn solid");
	cr_expect_null(strstr(narrow, "hatched"));
	cr_expect_eq(S_count(narrow, "<g class=\"whisker\""), 6, "five bars and the legend's");
	/* the algorithm's chart: hollow where wide (65536 B) or unconfirmed (32 B) */
	cr_expect_eq(S_count(line, "class=\"marker hollow\""), 2, "%s", line);
	/* earlier evidence: no whisker, and solid unless disturbed */
	cr_expect_null(strstr(old, "<g class=\"whisker\""));
	cr_expect_null(strstr(old, "class=\"bar hollow"));
	free(old);
	free(line);
	free(narrow);
	free(wide);
	free(site);
}

/* ---- comparisons that say when a difference is real ---- */

Test(interval, a_ratio_of_overlapping_figures_reads_within_noise_and_they_share_a_rank)
{
	char *site = S_site("iv-noise", DATA), *md = S_page(site, "x86_1/compare.md");
	char *html = S_page(site, "x86_1/compare.html");

	/* litchi_256 (9.21 ± 0.04) and the SHA-256 reference (9.21 ± 0.04) overlap: within noise, one
	 * rank; the SM3 reference (7.76 ± 0.03) is faster beyond noise; each ratio ± the half-width
	 * of its interval */
	EXPECT_HAS(md, "| 4 | [hash-15](hash-15.html) | `litchi_256` (reference) | PASS | 9.21 ± 0.04 | "
		"1183 ± 5 | 209.3 | 1.19 ± 0.01× | ≈ 1.00 ± 0.01× (within noise) | 4.52 ± 0.04× |");
	EXPECT_HAS(md, "| 4 | [sha2](sha2.html) | `SHA-256` (reference) | PASS | 9.21 ± 0.04 |");
	EXPECT_HAS(md, "| 3 | [sm3](sm3.html) | `SM3` (reference) | PASS | 7.76 ± 0.03 |");
	EXPECT_HAS(html, "<span class=\"noise\" title=\"within noise: the intervals of 9.21 ± 0.04 and "
		"9.21 ± 0.04 cycles/byte overlap, so the two are not shown to differ\">≈ 1.00 ± 0.01× "
		"(within noise)</span>");
	/* a figure against itself is no comparison: exactly 1, without an interval */
	EXPECT_HAS(md, "| 4 | [sha2](sha2.html) | `SHA-256` (reference) | PASS | 9.21 ± 0.04 | — | "
		"220.6 | 1.19 ± 0.01× | 1.00× | 4.52 ± 0.04× |");
	free(html);
	free(md);
	free(site);
}

Test(interval, a_yardstick_not_measured_on_a_system_has_no_column_nor_row)
{
	char *site = S_site("iv-columns", DATA), *md = S_page(site, "arm_1/compare.md");

	EXPECT_HAS(md, "| rank | algorithm | instance | KAT | cycles/byte at 65536 B | cycles per call "
		"at 32 B | MB/s at 65536 B |\n");
	cr_expect_null(strstr(md, "× SM3"), "no column of a yardstick arm_1 did not measure");
	free(md);
	md = S_page(site, "arm_1/hash-15.md");
	EXPECT_HAS(md, "| implementation | cycles/byte at 1024 B | cycles/byte at 65536 B |\n");
	EXPECT_HAS(md, "The SM3 reference was not measured on this system: no ratios.");
	/* nor a row of dashes for each yardstick: they are named as left out */
	cr_expect_null(strstr(md, "| SM3 (reference) |"), "a row of a yardstick arm_1 did not measure");
	EXPECT_HAS(md, "None of the 4 yardsticks was measured on this system: their rows are left out.");
	free(md);
	free(site);
}

/* Set the headline of the record rel under data to cpb ± half per byte, narrow. */
static void S_set_headline(const char *data, const char *rel, double cpb, double half)
{
	json_t *j = hbt_json_load(data, rel), *h = json_object_get(j, "headline");
	json_t *iv = json_object_get(h, "interval");
	double bytes = (double)json_integer_value(json_object_get(j, "message_bytes"));
	char *path = hb_path_join(data, rel);

	json_object_set_new(h, "cycles_per_byte", json_real(cpb));
	json_object_set_new(h, "cycles_per_call", json_real(cpb * bytes));
	json_object_set_new(iv, "low_cycles_per_byte", json_real(cpb - half));
	json_object_set_new(iv, "high_cycles_per_byte", json_real(cpb + half));
	json_object_set_new(iv, "low_cycles_per_call", json_real((cpb - half) * bytes));
	json_object_set_new(iv, "high_cycles_per_call", json_real((cpb + half) * bytes));
	json_object_set_new(iv, "half_width_pct", json_real(half / cpb * 100));
	cr_assert_eq(json_dump_file(j, path, JSON_INDENT(2)), 0);
	json_decref(j);
	free(path);
}

Test(interval, the_fastest_implementation_is_claimed_only_beyond_noise)
{
	static const struct {
		const char *page, *want;
	} wants[] = {
		/* the eBASH-style table counts the reference beside the OpenSSL implementation, and
		 * names it in the count's title */
		{ "x86_1/ebash.md", "| 2 | [SM3](sm3.html) (sm3) | `openssl` ≈+1 | — | 7.74 ± 0.04 |" },
		{ "x86_1/ebash.html", "<span class=\"near\" title=\"1 more within noise of it: "
			"reference\"> ≈+1</span>" },
		/* SHA-256 through OpenSSL is faster beyond noise: claimed alone */
		{ "x86_1/ebash.md", "| 1 | [SHA-256](sha2.html) (sha2) | `openssl` | — | 2.04 ± 0.01 |" },
		{ "x86_1/compare.md", "| 2 | [sm3](sm3.html) | `SM3` (openssl) | PASS | 7.74 ± 0.04 | — | "
			"299.4 | ≈ 1.00 ± 0.01× (within noise) |" },
		{ "x86_1/compare.md", "| 2 | [sm3](sm3.html) | `SM3` (reference) | PASS | 7.76 ± 0.03 |" },
		{ "x86_1/hash-15.md", "| SM3 (OpenSSL) | 6.79 ± 0.03 | 7.74 ± 0.04 | ≈ 1.00 ± 0.01 × "
			"(within noise) |" },
	};
	char *data = S_copy("iv-fastest"), *site;
	size_t k;

	/* SM3 through OpenSSL at 7.74 ± 0.04, within noise of the reference's 7.76 ± 0.03 */
	S_set_headline(data, "x86_1/records/sm3/SM3.openssl__hash_65536.json", 7.74, 0.04);
	site = S_site("iv-fastest-site", data);
	for (k = 0; k < sizeof(wants) / sizeof(wants[0]); k++) {
		char *md = S_page(site, wants[k].page);
		EXPECT_HAS(md, wants[k].want);
		free(md);
	}
	free(site);
	free(data);
}

/* ---- the method page ---- */

Test(interval, the_method_page_says_how_the_interval_is_found_and_what_was_asked)
{
	char *site = S_site("iv-method", DATA), *html = S_page(site, "x86_1/method.html");
	char *data = S_copy("iv-method-precision");

	EXPECT_HAS(html, "<h2>The interval</h2><p>Each headline figure is shown ± the half-width of "
		"its interval: the headline ± the distance to the j-th fastest pass minimum, j the "
		"smallest order with 1 − (1 − j/k)^k ≥ 0.95 for k passes (for 10 passes the third "
		"fastest).");
	EXPECT_HAS(html, "(<code>--precision</code>, 2 % by default; this system: 2 %, the default)");
	EXPECT_HAS(html, "their ratio reads \"within noise\" and they share a rank");
	free(html);
	html = S_page(site, "arm_1/method.html");
	EXPECT_HAS(html, "this system: not recorded (evidence of an earlier hashbench))");
	free(html);
	free(site);
	/* a campaign that asked for another precision */
	hbt_replace(data, "x86_1/system.json", "\"precision_pct\": null", "\"precision_pct\": 0.5");
	site = S_site("iv-method-precision-site", data);
	html = S_page(site, "x86_1/method.html");
	EXPECT_HAS(html, "this system: 0.5 %, asked with --precision)");
	free(html);
	free(site);
	free(data);
}
