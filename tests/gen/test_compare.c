/* test_compare.c — comparing the field: the downloads' parts hold every figure and each
 * recomputes from the record it names; the comparison page groups and sorts; every algorithm page
 * shows its chart and its other systems; a changed figure re-renders the pages that show it. */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "hashgen.h"
#include "render.h"
#include "results.h"
#include "sitewide.h"
#include "support.h"

#define DATA HBT_FIXTURES "/data"
#define TEMPLATES HBT_SOURCE_DIR "/templates"

static void S_build(const char *data, const char *out)
{
	hg_site_opts o;
	hg_site_stats st;
	FILE *w = fopen("/dev/null", "w");
	memset(&o, 0, sizeof(o));
	o.data_dir = data;
	o.templates_dir = TEMPLATES;
	o.out_dir = out;
	o.generator = "hashgen (test)";
	o.warnings = w;
	cr_assert_eq(hg_site_build(&st, &o), 0, "%s", hg_error_last());
	fclose(w);
}

static char *S_read(const char *path)
{
	char *text;
	size_t len;
	cr_assert_eq(hg_read_file(&text, &len, path), 0, "%s", hg_error_last());
	return text;
}

static char *S_site(const char *name)
{
	char *out = hbt_tmpdir(name), *site = hb_path_join(out, "site");
	S_build(DATA, site);
	free(out);
	return site;
}

static size_t S_count_records(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		char *p;
		struct stat st;
		if (de->d_name[0] == '.')
			continue;
		p = hb_path_join(dir, de->d_name);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			n += S_count_records(p);
		else if (strstr(de->d_name, "__hash_") && strstr(p, "/records/"))
			n++;
		free(p);
	}
	closedir(d);
	return n;
}

/* RFC 4180 fields of one CSV record starting at *p; returns the count, advances *p past CRLF. */
static size_t S_csv_record(char ***out, const char **p)
{
	size_t n = 0;
	char **f = NULL;
	for (;;) {
		char *field = malloc(strlen(*p) + 1), *w = field;
		if (**p == '"') {
			(*p)++;
			for (;;) {
				if (**p == '"' && (*p)[1] == '"') {
					*w++ = '"';
					*p += 2;
				} else if (**p == '"') {
					(*p)++;
					break;
				} else {
					cr_assert(**p, "unterminated quoted field");
					*w++ = *(*p)++;
				}
			}
		} else {
			while (**p && **p != ',' && **p != '\r' && **p != '\n')
				*w++ = *(*p)++;
		}
		*w = 0;
		f = realloc(f, (n + 1) * sizeof(char *));
		f[n++] = field;
		if (**p == ',') {
			(*p)++;
			continue;
		}
		cr_assert(strncmp(*p, "\r\n", 2) == 0, "a CSV record must end with CRLF");
		*p += 2;
		break;
	}
	*out = f;
	return n;
}

/* ---- downloads ---- */

Test(compare, every_figure_recomputes_from_the_record_it_names)
{
	char *site = S_site("results");
	json_error_t err;
	json_t *root = hbt_results_json(site), *figs, *f;
	size_t i, ok = 0, nfigs;

	cr_expect_str_eq(json_string_value(json_object_get(root, "schema")), "hashbench.results/1");
	cr_expect_eq(json_array_size(json_object_get(root, "systems")), 2);
	figs = json_object_get(root, "figures");
	cr_assert(json_is_array(figs));
	/* counted in the evidence the site was made from, not in the site's copy of it */
	cr_expect_eq(json_array_size(figs), S_count_records(DATA), "one figure per timing record of "
		"the evidence: %zu figures, %zu records", json_array_size(figs), S_count_records(DATA));
	json_array_foreach(figs, i, f) {
		const char *rel = json_string_value(json_object_get(f, "record"));
		char *rp = hb_path_join(site, rel), *text = S_read(rp), sha[65];
		json_t *rec = json_loads(text, 0, &err), *t;
		unsigned long long it = 0, cy = 0, ns = 0, bytes;
		size_t k;
		cr_assert_not_null(rec, "%s: %s", rel, err.text);
		hg_sha256_hex(sha, text, strlen(text));
		cr_expect_str_eq(sha, json_string_value(json_object_get(f, "record_sha256")), "%s", rel);
		cr_expect_str_eq(json_string_value(json_object_get(f, "instance")),
			json_string_value(json_object_get(rec, "instance")));
		bytes = (unsigned long long)json_integer_value(json_object_get(rec, "message_bytes"));
		cr_expect_eq((unsigned long long)json_integer_value(json_object_get(f, "message_bytes")),
			bytes);
		json_array_foreach(json_object_get(rec, "trials"), k, t) {
			it += (unsigned long long)json_integer_value(json_object_get(t, "iterations"));
			cy += (unsigned long long)json_integer_value(json_object_get(t, "cycles"));
			ns += (unsigned long long)json_integer_value(json_object_get(t, "ns"));
		}
		if (json_is_null(json_object_get(f, "mean_cycles"))) {
			cr_expect_str_neq(json_string_value(json_object_get(f, "status")), "ok", "%s", rel);
		} else {
			/* full precision: the very doubles the definitions give */
			double mean = (double)cy / (double)it, mean_ns = (double)ns / (double)it;
			cr_expect_eq(json_real_value(json_object_get(f, "mean_cycles")), mean, "%s", rel);
			cr_expect_eq(json_real_value(json_object_get(f, "cycles_per_byte")),
				mean / (double)bytes, "%s", rel);
			cr_expect_eq(json_real_value(json_object_get(f, "mean_ns")), mean_ns, "%s", rel);
			cr_expect_lt(fabs(json_real_value(json_object_get(f, "mb_per_s")) -
				(double)bytes / mean_ns * 1e3), 1e-9, "%s", rel);
			cr_expect_eq((unsigned long long)json_integer_value(json_object_get(f, "calls")), it);
			ok++;
		}
		json_decref(rec);
		free(text);
		free(rp);
	}
	cr_expect_gt(ok, 10);
	nfigs = json_array_size(figs);
	json_decref(root);

	/* the CSV holds the same figures, column for column */
	{
		char *csv = hbt_results_csv(site), **fields;
		const char *p = csv;
		size_t ncol = S_csv_record(&fields, &p), rows = 0, k;
		static const char *const mem[] = { "stack_bytes", "heap_peak_bytes", "heap_allocations",
			"mmap_bytes", "text_bytes", "data_bytes" };
		int seen_x86 = 0, seen_arm = 0;
		static const char *const ratio[] = { "ratio_sm3_reference",
			"ratio_low_sm3_reference", "ratio_high_sm3_reference", "ratio_sha256_reference",
			"ratio_low_sha256_reference", "ratio_high_sha256_reference",
			"ratio_sha256_openssl", "ratio_low_sha256_openssl", "ratio_high_sha256_openssl",
			"ratio_method" };
		cr_expect_eq(ncol, 46);
		cr_expect_str_eq(fields[0], "system");
		/* the headline figure, its interval and its estimator follow the guide's columns */
		cr_expect_str_eq(fields[12], "rounds");
		cr_expect_str_eq(fields[13], "headline_cycles_per_byte");
		cr_expect_str_eq(fields[14], "headline_low_cycles_per_byte");
		cr_expect_str_eq(fields[15], "headline_high_cycles_per_byte");
		cr_expect_str_eq(fields[16], "headline_interval");
		cr_expect_str_eq(fields[17], "headline_estimator");
		cr_expect_str_eq(fields[24], "peak_rss_kib");
		/* the exact memory figures follow the resource columns, before the record */
		for (k = 0; k < 6; k++)
			cr_expect_str_eq(fields[25 + k], mem[k]);
		cr_expect_str_eq(fields[31], "record");
		cr_expect_str_eq(fields[32], "record_sha256");
		/* a SUPERCOP implementation's path and compiler setting come last */
		cr_expect_str_eq(fields[33], "supercop_path");
		cr_expect_str_eq(fields[34], "supercop_compiler");
		/* the unit of the counter figures: cycles, or ticks where the counter is not the core's clock */
		cr_expect_str_eq(fields[35], "unit");
		/* then the ratios to the yardsticks, each with its bounds, and how they were found */
		for (k = 0; k < 10; k++)
			cr_expect_str_eq(fields[36 + k], ratio[k]);
		for (k = 0; k < ncol; k++)
			free(fields[k]);
		free(fields);
		while (*p) {
			cr_expect_eq(S_csv_record(&fields, &p), 46, "row %zu", rows);
			cr_expect_str_eq(fields[35], "cycles", "row %zu", rows);
			if (strcmp(fields[31], "data/x86_1/records/hash-15/litchi_512__hash_65536.json") == 0) {
				/* x86_1 is evidence of the current hashbench: the record's own figures */
				static const char *const own[] = { "12352", "4096", "2", "0", "12552", "4096" };
				for (k = 0; k < 6; k++)
					cr_expect_str_eq(fields[25 + k], own[k], "x86_1 column %s", mem[k]);
				/* its interval: wide, its bounds about the headline */
				cr_expect_str_eq(fields[16], "wide");
				cr_expect(strtod(fields[14], NULL) < strtod(fields[13], NULL) &&
					strtod(fields[13], NULL) < strtod(fields[15], NULL), "%s < %s < %s",
					fields[14], fields[13], fields[15]);
				/* its ratios, each inside its bounds, from the two figures' intervals */
				for (k = 36; k < 45; k += 3)
					cr_expect(strtod(fields[k + 1], NULL) < strtod(fields[k], NULL) &&
						strtod(fields[k], NULL) < strtod(fields[k + 2], NULL),
						"%s < %s < %s", fields[k + 1], fields[k], fields[k + 2]);
				cr_expect_str_eq(fields[45], "unpaired-intervals");
				seen_x86 = 1;
			}
			if (strcmp(fields[31], "data/arm_1/records/hash-15/litchi_512__hash_65536.json") == 0) {
				/* arm_1 is evidence of an earlier version: not recorded is empty */
				for (k = 25; k < 31; k++)
					cr_expect_str_eq(fields[k], "", "arm_1 column %s", mem[k - 25]);
				/* and has no interval: its columns are empty */
				for (k = 14; k < 17; k++)
					cr_expect_str_eq(fields[k], "", "arm_1 column %zu", k);
				/* nor ratios: arm_1 measured no yardstick */
				for (k = 36; k < 46; k++)
					cr_expect_str_eq(fields[k], "", "arm_1 column %zu", k);
				seen_arm = 1;
			}
			cr_expect_str_eq(fields[33], "", "no SUPERCOP path of an NGCC row");
			for (k = 0; k < 46; k++)
				free(fields[k]);
			free(fields);
			rows++;
		}
		cr_expect(seen_x86 && seen_arm, "the litchi_512 rows of x86_1 and arm_1 are in the "
			"downloads");
		cr_expect_eq(rows, nfigs);
		free(csv);
	}
	free(site);
}

Test(compare, csv_quotes_what_needs_quoting)
{
	hg_fig f;
	hg_fig_more x;
	const hg_fig *rows[1] = { &f };
	char *out, **fields;
	const char *p;
	size_t len, n, k;

	memset(&f, 0, sizeof(f));
	memset(&x, 0, sizeof(x));
	f.more = &x;
	f.system = "x86_1";
	f.algorithm = "hash-99";
	f.instance = "a,b \"c\"\nd";
	f.implementation = "reference";
	x.status = "crash";
	x.record = "data/x86_1/records/hash-99/x.json";
	f.message_bytes = 32;
	f.static_bytes = x.baseline_rss_kib = f.peak_rss_kib = -1;
	f.stack_bytes = f.heap_peak_bytes = x.heap_allocations = -1;
	x.mmap_bytes = x.text_bytes = x.data_bytes = -1;
	x.median_cycles = x.spread_pct = -1;
	cr_assert_eq(hg_results_csv(&out, &len, rows, 1, NULL), 0);
	p = out;
	n = S_csv_record(&fields, &p);
	for (k = 0; k < n; k++)
		free(fields[k]);
	free(fields);
	n = S_csv_record(&fields, &p);
	cr_assert_eq(n, 46);
	cr_expect_str_eq(fields[2], "a,b \"c\"\nd");
	cr_expect_str_eq(fields[5], "crash");
	cr_expect_str_eq(fields[7], "", "no figure of a crashed record");
	cr_expect_str_eq(fields[16], "", "no interval of a crashed record");
	cr_expect_str_eq(fields[17], "", "no headline of a crashed record");
	cr_expect_str_eq(fields[20], "false");
	for (k = 36; k < 46; k++)
		cr_expect_str_eq(fields[k], "", "no ratio of a crashed record");
	for (k = 0; k < n; k++)
		free(fields[k]);
	free(fields);
	free(out);
}

/* ---- ranks of figures timed paired ---- */

/* A row at 65536 B with headline cpb in [lo, hi] (narrow), paired with anchor (NULL: not) in
 * campaign seed at ratio in [plo, phi]. */
static hg_fig S_rank_fig(double cpb, double lo, double hi, const char *anchor, long long seed,
	double ratio, double plo, double phi)
{
	hg_fig f;
	memset(&f, 0, sizeof(f));
	f.ok = 1;
	f.message_bytes = 65536;
	f.headline_cpb = cpb;
	f.headline_cycles = cpb * 65536;
	f.headline_iv = (hg_iv){ .state = HG_IV_NARROW, .low_cycles = lo * 65536,
		.high_cycles = hi * 65536, .low_cpb = lo, .high_cpb = hi,
		.half_pct = (hi - lo) / 2 / cpb * 100, .target_pct = 2 };
	f.anchor_instance = (char *)anchor;
	f.anchor_implementation = anchor ? (char *)"reference" : NULL;
	f.pair.seed = seed;
	f.pair.ratio = ratio;
	f.pair.low = plo;
	f.pair.high = phi;
	f.pair.self = anchor && ratio == 1 && plo == 1 && phi == 1;
	return f;
}

/* 1 + how many of figs are faster than figs[i] beyond noise, one by one. */
static size_t S_rank_one_by_one(const hg_fig *const *figs, size_t n, size_t i)
{
	hg_headline_fig a, b;
	size_t k, rank = 1;
	hg_headline_of_fig(&b, figs[i]);
	for (k = 0; k < n; k++) {
		if (k == i || !figs[k])
			continue;
		hg_headline_of_fig(&a, figs[k]);
		rank += (size_t)hg_faster_beyond_noise(&a, &b);
	}
	return rank;
}

Test(compare, figures_timed_paired_are_ranked_by_their_paired_ratio)
{
	/* three headlines within noise of each other, their paired ratios apart; a fourth row of
	 * another campaign, within noise of them all */
	hg_fig f[4] = { S_rank_fig(9.2, 9.15, 9.25, "SM3", 5, 1.19, 1.189, 1.191),
		S_rank_fig(9.21, 9.16, 9.26, "SM3", 5, 1.18, 1.179, 1.181),
		S_rank_fig(9.22, 9.17, 9.27, "SM3", 5, 1.2, 1.199, 1.201),
		S_rank_fig(9.21, 9.16, 9.26, "SM3", 6, 1.17, 1.169, 1.171) };
	const hg_fig *figs[4] = { &f[0], &f[1], &f[2], &f[3] };
	size_t rank[4];

	hg_ranks(rank, figs, 4);
	cr_expect_eq(rank[1], 1);
	cr_expect_eq(rank[0], 2);
	cr_expect_eq(rank[2], 3);
	cr_expect_eq(rank[3], 1, "another campaign: within noise of all three");
}

Test(compare, ranks_agree_with_faster_beyond_noise_one_by_one)
{
	static const char *const anchors[] = { NULL, "SM3", "SM3", "SHA-256" };
	enum { N = 600 };
	hg_fig *f = calloc(N, sizeof(hg_fig));
	const hg_fig **figs = calloc(N, sizeof(*figs));
	size_t *rank = calloc(N, sizeof(size_t)), i, paired = 0;
	unsigned long long x = 12345;

	for (i = 0; i < N; i++) {
		double u[4], cpb, half, ratio, lo, hi;
		size_t k, g;
		for (k = 0; k < 4; k++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			u[k] = (double)(x >> 11) / 9007199254740992.0;
		}
		g = (size_t)(u[0] * 4);
		cpb = 9 + u[1];           /* a field crowded enough that intervals overlap */
		half = cpb * (0.001 + 0.004 * u[2]);
		ratio = cpb / 7.75 * (1 + 0.002 * (u[3] - 0.5));
		lo = ratio * (1 - 0.0005 - 0.003 * u[2] * u[3]);
		hi = ratio * (1 + 0.0005 + 0.002 * u[1] * u[3]);
		if (g && i % 97 == 0) /* now and then the anchor's own figure */
			ratio = lo = hi = 1;
		f[i] = S_rank_fig(cpb, cpb - half, cpb + half, anchors[g], g == 2 ? 2 : 1, ratio, lo,
			hi);
		figs[i] = i % 50 == 7 ? NULL : &f[i];
		paired += g != 0;
	}
	hg_ranks(rank, figs, N);
	for (i = 0; i < N; i++) {
		if (!figs[i]) {
			cr_expect_eq(rank[i], 0);
			continue;
		}
		cr_expect_eq(rank[i], S_rank_one_by_one(figs, N, i), "row %zu (anchor %s, seed %lld)",
			i, f[i].anchor_instance ? f[i].anchor_instance : "none", f[i].pair.seed);
	}
	cr_expect_gt(paired, N / 2);
	free(f);
	free(figs);
	free(rank);
}

/* ---- pages ---- */

Test(compare, comparison_page_groups_by_digest_and_sorts_by_speed)
{
	char *site = S_site("comparepage"), *path = hb_path_join(site, "x86_1/compare.md");
	char *md = S_read(path);
	const char *g256 = strstr(md, "## 256-bit digests"), *g512 = strstr(md, "## 512-bit digests");
	const char *ossl = strstr(md, "| `SHA-256` (openssl) |"), *sm3 = strstr(md, "| `SM3` (reference) |");
	const char *litchi = strstr(md, "| `litchi_256` (reference) |");

	cr_assert_not_null(g256, "%s", md);
	cr_assert_not_null(g512);
	cr_expect_lt(g256, g512);
	cr_assert(ossl && sm3 && litchi, "%s", md);
	cr_expect(ossl < sm3 && sm3 < litchi && litchi < g512, "256-bit rows sorted by speed");
	cr_expect(strstr(md, "| 1.00× |") != NULL, "the SM3 reference is 1.00× itself");
	cr_expect(strstr(md, "](compare-256.svg)") != NULL);
	cr_expect(strstr(md, "](compare-512.svg)") != NULL);
	free(md);
	free(path);
	path = hb_path_join(site, "x86_1/compare-256.svg");
	md = S_read(path);
	cr_expect(strstr(md, "<title>") && strstr(md, "class=\"bar"), "%s", md);
	free(md);
	free(path);
	/* linked from the index, the system page and every algorithm page */
	path = hb_path_join(site, "index.html");
	md = S_read(path);
	cr_expect(strstr(md, "href=\"x86_1/compare.html\"") &&
		strstr(md, "href=\"results-index.json\"") &&
		strstr(md, "href=\"x86_1/compare.html#downloads\""));
	free(md);
	free(path);
	path = hb_path_join(site, "x86_1/index.html");
	md = S_read(path);
	cr_expect(strstr(md, "href=\"compare.html\"") != NULL);
	free(md);
	free(path);
	free(site);
}

Test(compare, algorithm_pages_show_their_chart_and_other_systems)
{
	static const char *pages[] = { "x86_1/hash-15", "arm_1/hash-15", "x86_1/sm3", "x86_1/sha2",
		NULL };
	char *site = S_site("chartpages");
	size_t i;
	for (i = 0; pages[i]; i++) {
		const char *id = strchr(pages[i], '/') + 1;
		char *p = hb_sprintf("%s/%s.md", site, pages[i]), *md = S_read(p);
		char *img = hb_sprintf("](%s.svg)", id), *svg = hb_sprintf("%s/%s.svg", site, pages[i]);
		char *html_path = hb_sprintf("%s/%s.html", site, pages[i]), *html = S_read(html_path);
		char *tag = hb_sprintf("src=\"%s.svg\"", id);
		cr_expect(strstr(md, img) != NULL, "%s.md shows no chart", pages[i]);
		cr_expect(strstr(html, tag) != NULL, "%s.html shows no chart", pages[i]);
		cr_expect(access(svg, F_OK) == 0, "%s is missing", svg);
		cr_expect(strstr(md, "## On other systems") > strstr(md, "## Compared with the baselines"),
			"%s: On other systems after the baselines", pages[i]);
		cr_expect(strstr(md, "](compare.html)") != NULL);
		free(tag);
		free(html);
		free(html_path);
		free(svg);
		free(img);
		free(md);
		free(p);
	}
	{
		char *p = hb_sprintf("%s/x86_1/hash-15.md", site), *md = S_read(p);
		cr_expect(strstr(md, "| `litchi_256` (reference) | [arm_1](../arm_1/hash-15.html) | 10.0 | "
			"1222 |") != NULL, "%s", md);
		free(md);
		free(p);
		p = hb_sprintf("%s/x86_1/sm3.md", site);
		md = S_read(p);
		cr_expect(strstr(md, "measured on this system only") != NULL);
		free(md);
		free(p);
	}
	free(site);
}

static ino_t S_ino(const char *site, const char *rel)
{
	char *p = hb_path_join(site, rel);
	struct stat st;
	cr_assert_eq(stat(p, &st), 0, "%s", p);
	free(p);
	return st.st_ino;
}

Test(compare, a_changed_figure_rerenders_the_pages_that_show_it)
{
	char *out = hbt_tmpdir("refigure"), *data = hb_path_join(out, "data");
	char *site = hb_path_join(out, "site"), *cmd = hb_sprintf("cp -r '%s' '%s'", DATA, data);
	char *rec, *text, *at, *md, *p;
	ino_t other, unrelated;

	cr_assert_eq(system(cmd), 0);
	S_build(data, site);
	other = S_ino(site, "arm_1/hash-15.html");
	unrelated = S_ino(site, "x86_1/sm3.html");
	/* the x86_1 headline figure at 65536 B of litchi_256 grows */
	rec = hb_path_join(data, "x86_1/records/hash-15/litchi_256__hash_65536.json");
	text = S_read(rec);
	at = strstr(text, "\"cycles_per_byte\": ");
	cr_assert_not_null(at);
	{
		/* a leading digit: 29.2 instead of 9.2 */
		char *grown = hb_sprintf("%.*s2%s", (int)(at + 19 - text), text, at + 19);
		hbt_write(rec, grown, strlen(grown));
		free(grown);
	}
	S_build(data, site);
	cr_expect_neq(S_ino(site, "arm_1/hash-15.html"), other,
		"the other system's page shows the figure and was not rendered again");
	cr_expect_eq(S_ino(site, "x86_1/sm3.html"), unrelated, "an unrelated page was rendered again");
	p = hb_path_join(site, "arm_1/hash-15.md");
	md = S_read(p);
	cr_expect(strstr(md, "| `litchi_256` (reference) | [x86_1](../x86_1/hash-15.html) | 9.2 |") ==
		NULL, "the old figure is still shown: %s", md);
	free(md);
	free(p);
	free(text);
	free(rec);
	free(cmd);
	free(site);
	free(data);
	free(out);
}
