/* test_import_pages.c — a system measured by ngcc-harness and imported, beside one hashbench
 * measured: its method page is the harness's own, every page of it names who measured and who
 * imported, each record's original is in the evidence index with its SHA-256, both systems share
 * the index and the downloads; and, with ../shared and `hashbench import`, the pages of the
 * harness's sample show the figures the harness wrote into its records. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "hashgen.h"
#include "pages.h"
#include "results.h"
#include "support.h"

#define TEMPLATES HBT_SOURCE_DIR "/templates"
#define IMPORTED HBT_FIXTURES "/imported"
#define SYS "arm_ngcc"
#define BY_HARNESS "measured with ngcc-harness (git 43b4800b0f7d) and imported by hashbench " \
	"0.1.0 (git abc1234)"

/* A data folder: the imported fixture beside the measured x86_1 of tests/fixtures/data. */
static char *S_data(const char *name)
{
	char *dir = hbt_tmpdir(name), *data = hb_path_join(dir, "data");
	char *cmd = hb_sprintf("mkdir '%s' && cp -r '%s/data/x86_1' '%s/data/algorithms' '%s' && "
		"cp -r '%s'/* '%s'", data, HBT_FIXTURES, HBT_FIXTURES, data, IMPORTED, data);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	free(cmd);
	free(dir);
	return data;
}

/* The site of data: <data>/../site, with our templates and a fixed generator name. */
static hg_site_opts S_opts(const char *data, const char *site)
{
	hg_site_opts o = { .data_dir = data, .templates_dir = TEMPLATES, .out_dir = site,
		.generator = "hashgen (test)" };
	return o;
}

/* Render data into <data>/../site; the warnings hashgen printed (caller frees). */
static char *S_render(const char *data, int must_succeed)
{
	hg_site_stats st;
	char *site = hb_sprintf("%s/../site", data), *warnings = NULL;
	hg_site_opts o = S_opts(data, site);
	size_t len = 0;
	int rc;

	o.warnings = open_memstream(&warnings, &len);
	rc = hg_site_build(&st, &o);
	fclose(o.warnings);
	if (must_succeed)
		cr_assert_eq(rc, 0, "%s", hg_error_last());
	else if (rc != 0) {
		free(warnings);
		warnings = hg_xstrdup(hg_error_last());
	}
	free(site);
	return warnings;
}

/* A file of the site rendered from data (caller frees). */
static char *S_page(const char *data, const char *rel)
{
	char *path = hb_sprintf("%s/../site/%s", data, rel), *text;
	size_t len;
	cr_assert_eq(hg_read_file(&text, &len, path), 0, "%s", hg_error_last());
	free(path);
	return text;
}

static void S_has(const char *text, const char *what, const char *where)
{
	cr_expect(strstr(text, what) != NULL, "%s lacks \"%s\"", where, what);
}

static void S_sha_of(char out[65], const char *path)
{
	char *text;
	size_t len;
	cr_assert_eq(hg_read_file(&text, &len, path), 0, "%s", hg_error_last());
	hg_sha256_hex(out, text, len);
	free(text);
}

/* ---- the fixture ---- */

Test(import_pages, method_page_is_the_harness_s_own)
{
	char *data = S_data("imp-method"), *warn = S_render(data, 1);
	char *html = S_page(data, SYS "/method.html"), *ours = S_page(data, "x86_1/method.html");

	cr_expect_str_eq(warn, "");
	/* our title, navigation and footer around it */
	S_has(html, "<title>How system arm_ngcc was measured</title>", "method.html");
	S_has(html, "<a href=\"index.html\">arm_ngcc</a> › method</div>", "method.html");
	/* the harness's Markdown, rendered: headings one level below ours, a list item */
	S_has(html, "<h3>Performance method and limitations — system arm_ngcc</h3>", "method.html");
	S_has(html, "<h4>Measurement</h4>", "method.html");
	S_has(html, "<li>Each operation is calibrated with one call, then measured in 2 trials, each "
		"in a process of its own.</li>", "method.html");
	S_has(html, "<code>perf_event_open</code>", "method.html");
	/* a link to a page this site lacks is its text; one to the candidate leads to its page */
	S_has(html, "<span>Summary</span>", "method.html");
	cr_expect(strstr(html, "summary_arm_ngcc.md") == NULL, "a link that leads nowhere");
	S_has(html, "<a href=\"hash-16.html\">hash-16</a>", "method.html");
	S_has(html, "<a href=\"https://example.org/ngcc-harness\">", "method.html");
	/* not our template's account of how hashbench measures */
	cr_expect(strstr(html, "How time was measured") == NULL);
	S_has(ours, "How time was measured", "x86_1/method.html");
	/* who protected the machine: not hashbench's sandbox */
	S_has(html, "<h2>What protected the machine</h2><p>Not recorded by hashbench: this system was "
		"measured by ngcc-harness, whose method page follows", "method.html");
	/* the system's originals, with their SHA-256 and copies */
	S_has(html, "<a href=\"../data/arm_ngcc/imported/campaign.json\" title=\"sha256 "
		"bc59db98614d81856457d28f60ecb37888c293a7214a0305273b46cb2767908b\">", "method.html");
	free(html);
	html = S_page(data, "data/" SYS "/method.md");
	S_has(html, "# Performance method and limitations", "the copy of method.md");
	free(html);
	free(ours);
	free(warn);
	free(data);
}

Test(import_pages, every_page_says_who_measured_and_who_imported)
{
	static const char *imported[] = { SYS "/hash-16.html", SYS "/hash-16.md", SYS "/method.html",
		SYS "/index.html", SYS "/compare.html", SYS "/compare.md", NULL };
	static const char *measured[] = { "x86_1/hash-15.html", "x86_1/hash-15.md",
		"x86_1/index.html", "x86_1/compare.md", NULL };
	char *data = S_data("imp-attr"), *warn = S_render(data, 1), *text;
	size_t i;

	for (i = 0; imported[i]; i++) {
		text = S_page(data, imported[i]);
		S_has(text, "Generated by hashgen (test) from evidence " BY_HARNESS ".", imported[i]);
		free(text);
	}
	text = S_page(data, SYS "/hash-16.md");
	S_has(text, "Not a submitter self-assessment. Measured with ngcc-harness (git 43b4800b0f7d) "
		"and imported by hashbench 0.1.0 (git abc1234); how it measured: [arm_ngcc method]"
		"(method.html).", "the attribution paragraph");
	free(text);
	for (i = 0; measured[i]; i++) {
		text = S_page(data, measured[i]);
		S_has(text, "from evidence measured by hashbench 0.1.0 (git abc1234).", measured[i]);
		cr_expect(strstr(text, "ngcc-harness") == NULL, "%s names the harness", measured[i]);
		free(text);
	}
	free(warn);
	free(data);
}

Test(import_pages, evidence_index_lists_each_record_with_its_original)
{
	static const char *sizes[] = { "32", "65536", NULL };
	char *data = S_data("imp-evidence"), *warn = S_render(data, 1);
	char *md = S_page(data, SYS "/hash-16.md"), sha[65], copied[65], b[64];
	size_t i;

	cr_expect_str_eq(warn, "");
	for (i = 0; sizes[i]; i++) {
		char *orig = hb_sprintf("imported/records/hash-16/LLH-256__hash_%s.json", sizes[i]);
		char *rec = hb_sprintf("records/hash-16/LLH-256__hash_%s.json", sizes[i]);
		char *path = hb_sprintf("%s/" SYS "/%s", data, orig), *row, *copy;

		S_sha_of(sha, path);
		row = hb_sprintf("| `LLH-256` | ngcc-harness original of timing hash_%s | [`%s`]"
			"(../data/" SYS "/%s \"sha256 %s\") | `%s` |\n", sizes[i], orig, orig, sha,
			hg_fmt_sha_short(b, sizeof(b), sha));
		S_has(md, row, "the evidence index");
		free(row);
		free(path);
		path = hb_sprintf("%s/" SYS "/%s", data, rec);
		S_sha_of(sha, path);
		row = hb_sprintf("| `LLH-256` | timing hash_%s | [`%s`](../data/" SYS "/%s \"sha256 %s\") "
			"| `%s` |\n", sizes[i], rec, rec, sha, hg_fmt_sha_short(b, sizeof(b), sha));
		S_has(md, row, "the evidence index");
		free(row);
		/* the copy the link leads to is the original itself */
		copy = hb_sprintf("%s/../site/data/" SYS "/%s", data, orig);
		S_sha_of(copied, copy);
		free(path);
		path = hb_sprintf("%s/" SYS "/%s", data, orig);
		S_sha_of(sha, path);
		cr_expect_str_eq(copied, sha, "%s", copy);
		free(copy);
		free(path);
		free(orig);
		free(rec);
	}
	S_has(md, "Each record was converted by hashbench import from the ngcc-harness original",
		"the evidence index");
	cr_expect(strstr(md, "⚠") == NULL, "a warning on a clean import:\n%s", md);
	/* the harness timed no single calls: the spread is not available, never a 0 */
	S_has(md, "| `LLH-256` | 32 B | 1204 | 37.6 | 449 ns | 71.3 | 40000 (2 × 20000) | 37.6 | — | — |",
		"the performance table");
	S_has(md, "It timed no single calls one by one, so median cycles and spread are not "
		"available", "the performance section");
	free(md);
	free(warn);
	free(data);
}

Test(import_pages, a_changed_or_missing_original_is_shown)
{
	char *data = S_data("imp-tampered"), *cmd, *warn, *md;
	cmd = hb_sprintf("cd '%s/" SYS "/imported/records/hash-16' && echo ' ' >> LLH-256__hash_32.json "
		"&& rm LLH-256__hash_65536.json", data);
	cr_assert_eq(system(cmd), 0);
	warn = S_render(data, 1);
	md = S_page(data, SYS "/hash-16.md");
	S_has(warn, "imported/records/hash-16/LLH-256__hash_32.json: its SHA-256 does not match "
		"SHA256SUMS", "the warnings");
	S_has(md, "**⚠ does not match SHA256SUMS (2c5ec00411524bda…)** **⚠ its record names another "
		"SHA-256 (2c5ec00411524bda…)**", "the original's row");
	S_has(md, "**⚠ its original imported/records/hash-16/LLH-256\\_\\_hash_65536.json is missing**",
		"the record's row");
	S_has(md, "**⚠ listed in SHA256SUMS but missing**", "the missing original's row");
	free(md);
	free(warn);
	free(cmd);
	free(data);
}

Test(import_pages, both_systems_on_the_index_and_in_the_downloads)
{
	char *data = S_data("imp-index"), *warn = S_render(data, 1);
	char *index = S_page(data, "index.html"), *site = hb_sprintf("%s/../site", data);
	char *csv = hbt_results_csv(site);
	char *line, *save = NULL;
	size_t ours = 0, theirs = 0;
	json_t *j;

	S_has(index, "<a href=\"arm_ngcc/index.html\">arm_ngcc</a>", "index.html");
	S_has(index, "<a href=\"x86_1/index.html\">x86_1</a>", "index.html");
	S_has(index, "<a href=\"arm_ngcc/hash-16.html\">21.9 cycles/byte</a>", "index.html");
	S_has(index, "Measured by another tool and imported, their figures computed the same way from "
		"the trials it recorded: <a href=\"arm_ngcc/method.html\">arm_ngcc</a> with ngcc-harness "
		"(git 43b4800b0f7d).", "index.html");
	for (line = strtok_r(csv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "x86_1,", 6) == 0)
			ours++;
		if (strncmp(line, SYS ",hash-16,LLH-256,reference,", sizeof(SYS ",hash-16,LLH-256,"
				"reference,") - 1) == 0) {
			theirs++;
			/* the headline is the mean's; median and spread empty (no single calls), RSS and
			 * static size there */
			cr_expect(strstr(line, ",2,") && strstr(line, ",mean,,,false,false,11676,"), "%s",
				line);
		}
	}
	cr_expect_gt(ours, 0);
	cr_expect_eq(theirs, 2);
	free(csv);
	j = hbt_results_json(site);
	cr_expect_eq(json_array_size(json_object_get(j, "systems")), 2);
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(json_object_get(
		json_array_get(json_object_get(j, "systems"), 0), "description"), "measured_by"), "tool")),
		"ngcc-harness");
	json_decref(j);
	free(site);
	free(index);
	free(warn);
	free(data);
}

Test(import_pages, the_site_verifies_and_its_links_resolve)
{
	static const char *pages[] = { "index.html", SYS "/index.html", SYS "/method.html",
		SYS "/hash-16.html", SYS "/compare.html", NULL };
	char *data = S_data("imp-check"), *warn = S_render(data, 1), *report = NULL;
	char *site = hb_sprintf("%s/../site", data);
	size_t problems = 1, len = 0, i;
	hg_site_opts o = S_opts(data, site);
	FILE *f = open_memstream(&report, &len);

	cr_assert_eq(hg_site_check(&problems, &o, f), 0, "%s", hg_error_last());
	fclose(f);
	cr_expect_eq(problems, 0, "%s", report);
	for (i = 0; pages[i]; i++) {
		char *html = S_page(data, pages[i]), *p = html;
		char *dir = hb_sprintf("%s/%s", site, pages[i]);
		*strrchr(dir, '/') = 0;
		while ((p = strstr(p, "href=\"")) != NULL) {
			char *href = p + 6, *end = strchr(href, '"'), *target, *frag;
			p = end;
			if (strncmp(href, "https://", 8) == 0 || strncmp(href, "http://", 7) == 0)
				continue;
			target = hb_sprintf("%s/%.*s", dir, (int)(end - href), href);
			if ((frag = strchr(target, '#')) != NULL)
				*frag++ = 0;
			cr_expect(access(target, F_OK) == 0, "%s: %s leads nowhere", pages[i], target);
			if (frag && access(target, F_OK) == 0) {
				/* an anchor: an element of the target page has that id */
				char *there, *id = hb_sprintf("id=\"%s\"", frag);
				size_t tlen;
				cr_assert_eq(hg_read_file(&there, &tlen, target), 0, "%s", hg_error_last());
				cr_expect(strstr(there, id) != NULL, "%s: %s has no %s", pages[i], target, id);
				free(id);
				free(there);
			}
			free(target);
		}
		free(dir);
		free(html);
	}
	free(report);
	free(site);
	free(warn);
	free(data);
}

Test(import_pages, bad_import_fields_are_refused_with_their_path)
{
	char *data = S_data("imp-bad"), *cmd, *err;
	cmd = hb_sprintf("cd '%s/" SYS "/records/hash-16' && sed -i 's/\"sha256\": \"[0-9a-f]*\"/"
		"\"sha256\": \"xyz\"/' LLH-256__hash_32.json", data);
	cr_assert_eq(system(cmd), 0);
	err = S_render(data, 0);
	S_has(err, "/records/hash-16/LLH-256__hash_32.json: imported.sha256: expected 64 lowercase "
		"hexadecimal digits", "the error");
	free(err);
	free(cmd);
	cmd = hb_sprintf("cd '%s/" SYS "' && sed -i 's/\"measured_by\": {/\"measured_by\": 5, "
		"\"x\": {/' system.json", data);
	cr_assert_eq(system(cmd), 0);
	err = S_render(data, 0);
	S_has(err, SYS "/system.json: measured_by: expected an object", "the error");
	free(err);
	free(cmd);
	free(data);
}

/* ---- the harness's own sample, imported by hashbench import ---- */

#define SAMPLE "ngcc-harness-sample/performance/data/arm_1"

/* The rows the harness's figures give, in our formats: performance, resources, KAT and the
 * evidence index, from one of its records (rec), build.json's entry of its library (lib) and the
 * record file's SHA-256. */
static char **S_expected_rows(json_t *rec, json_t *lib, const char *name, const char *sha)
{
	char **rows = calloc(7, sizeof(char *)), msg[64], cyc[64], cpb[64], tim[64], mbps[64], n[64];
	char base[64], peak[64], b[64];
	const char *inst = json_string_value(json_object_get(rec, "instance"));
	json_t *trials = json_object_get(rec, "trials"), *t;
	unsigned long long it[64], bytes = (unsigned long long)json_integer_value(
		json_object_get(rec, "input_bytes")), total = 0;
	double mean = json_number_value(json_object_get(rec, "mean_cycles"));
	long long rss0 = json_integer_value(json_object_get(rec, "baseline_rss_bytes"));
	long long rss1 = json_integer_value(json_object_get(rec, "peak_rss_bytes"));
	size_t i;

	cr_assert(inst && bytes && json_array_size(trials) && json_array_size(trials) <= 64, "%s", name);
	json_array_foreach(trials, i, t) {
		it[i] = (unsigned long long)json_integer_value(json_object_get(t, "measurements"));
		total += it[i];
	}
	cr_expect_eq(total, (unsigned long long)json_integer_value(json_object_get(rec,
		"measurements")), "%s: the trials' measurements do not add up", name);
	cr_expect(rss0 % 1024 == 0 && rss1 % 1024 == 0, "%s: RSS not in whole KiB", name);
	/* no headline in the harness's evidence: the headline column repeats the mean's */
	rows[0] = hb_sprintf("| `%s` | %s | %s | %s | %s | %s | %s | %s | — | — |\n", inst,
		hg_fmt_message(msg, sizeof(msg), bytes), hg_fmt_cycles(cyc, sizeof(cyc), mean),
		hg_fmt_cpb(cpb, sizeof(cpb), mean / (double)bytes),
		hg_fmt_time(tim, sizeof(tim), json_number_value(json_object_get(rec, "mean_seconds")) * 1e9),
		hg_fmt_mbps(mbps, sizeof(mbps), json_number_value(json_object_get(rec,
			"throughput_MB_per_second"))),
		hg_fmt_n(n, sizeof(n), it, json_array_size(trials)), cpb);
	rows[1] = hb_sprintf("| `%s` | hash_%llu | %lld | %s | %s | — | — | — |\n", inst, bytes,
		(long long)json_integer_value(json_object_get(lib, "elf_load_bytes")),
		hg_fmt_kib(base, sizeof(base), rss0 / 1024), hg_fmt_kib(peak, sizeof(peak), rss1 / 1024));
	rows[2] = hb_sprintf("| `%s` | %s | %s |\n", inst,
		json_string_value(json_object_get(rec, "flags")),
		json_string_value(json_object_get(rec, "kat")));
	rows[3] = hb_sprintf("| `%s` | ngcc-harness original of timing hash_%llu | "
		"[`imported/records/hash-16/%s`](../data/arm_1/imported/records/hash-16/%s \"sha256 %s\") "
		"| `%s` |\n", inst, bytes, name, name, sha, hg_fmt_sha_short(b, sizeof(b), sha));
	rows[4] = hb_sprintf("| `%s` | timing hash_%llu | [`records/hash-16/%s`]"
		"(../data/arm_1/records/hash-16/%s \"sha256 ", inst, bytes, name, name);
	rows[5] = hb_sprintf("| `%s` | KAT log | [`%s`](../data/arm_1/%s \"sha256 %s\") | `%s` |\n",
		inst, json_string_value(json_object_get(rec, "kat_log")),
		json_string_value(json_object_get(rec, "kat_log")),
		json_string_value(json_object_get(rec, "kat_log_sha256")),
		hg_fmt_sha_short(b, sizeof(b), json_string_value(json_object_get(rec, "kat_log_sha256"))));
	return rows;
}

Test(import_pages, the_harness_sample_shows_the_harness_s_figures)
{
	static const char *what[] = { "performance", "resources", "KAT", "evidence index (original)",
		"evidence index (record)", "evidence index (KAT log)" };
	char *sample, *records, *out = NULL, *err = NULL, *dir, *data, *warn, *md;
	json_t *build;
	DIR *d;
	struct dirent *de;
	size_t nrecords = 0, k;

	HBT_REQUIRE_SHARED();
	sample = hbt_shared_path(SAMPLE);
	dir = hbt_tmpdir("imp-sample");
	data = hb_path_join(dir, "data");
	{
		const char *args[] = { "import", "ngcc-harness", sample, "--system", "arm_1", "--data",
			data, NULL };
		int rc = hbt_cli(&out, &err, NULL, args);
		cr_assert_eq(rc, 0, "hashbench import: exit %d\n%s%s", rc, out, err);
		free(out);
		free(err);
	}
	warn = S_render(data, 1);
	cr_expect_str_eq(warn, "", "hashgen warned about the imported evidence");
	md = S_page(data, "arm_1/hash-16.md");
	S_has(md, "from evidence measured with ngcc-harness", "arm_1/hash-16.md");
	cr_expect(strstr(md, "⚠") == NULL, "a warning on the sample's page:\n%s", md);
	build = hbt_json_load(sample, "build.json");
	records = hb_path_join(sample, "records/hash-16");
	d = opendir(records);
	cr_assert_not_null(d, "%s", records);
	while ((de = readdir(d)) != NULL) {
		char *path, **rows, sha[65], *key;
		json_t *rec;
		if (de->d_name[0] == '.')
			continue;
		path = hb_path_join(records, de->d_name);
		S_sha_of(sha, path);
		rec = hbt_json_load(records, de->d_name);
		key = hb_sprintf("hash-16/%s", json_string_value(json_object_get(rec, "label")));
		rows = S_expected_rows(rec, json_object_get(json_object_get(build, "instances"), key),
			de->d_name, sha);
		for (k = 0; rows[k]; k++) {
			cr_expect(strstr(md, rows[k]) != NULL, "%s: the %s row the harness's figures give is "
				"not on the page:\n%s", de->d_name, what[k], rows[k]);
			free(rows[k]);
		}
		free(rows);
		free(key);
		json_decref(rec);
		free(path);
		nrecords++;
	}
	closedir(d);
	cr_expect_eq(nrecords, 32, "the sample's records");
	json_decref(build);
	free(records);
	free(md);
	free(warn);
	free(data);
	free(dir);
	free(sample);
}
