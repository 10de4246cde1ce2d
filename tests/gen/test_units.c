/* test_units.c — the unit of a system's figures (evidence_counter.c, page_units.c): the fixture
 * system arm_1 made a cntvct system — as evidence of an earlier version (no unit recorded) and as
 * this version writes it without --core-hz — calls no figure cycles on any of its pages, charts
 * and downloads; with a declared core clock a record's figures on the page are its ticks ×
 * core_hz / hz, and the environment and the method page say so; system.json whose counter
 * contradicts itself is refused in one line. */
#define _GNU_SOURCE
#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "golden.h"
#include "hashgen.h"
#include "pages.h"
#include "results.h"
#include "support.h"

#define DATA HBT_FIXTURES "/data"
#define RECORD "arm_1/records/hash-15/litchi_256__hash_65536.json"

#define CNTVCT_EARLIER "\"counter\": {\"name\": \"cntvct\", \"hz\": 62500000}"
#define CNTVCT_TICKS "\"counter\": {\"name\": \"cntvct\", \"hz\": 62500000, " \
	"\"counts_core_cycles\": false, \"core_hz\": null, \"unit\": \"ticks\"}"
#define CNTVCT_CORE_HZ "\"counter\": {\"name\": \"cntvct\", \"hz\": 62500000, " \
	"\"counts_core_cycles\": false, \"core_hz\": 2710000000, \"unit\": \"cycles\"}"

static char *S_read(const char *path)
{
	char *text;
	size_t len;
	cr_assert_eq(hg_read_file(&text, &len, path), 0, "%s", hg_error_last());
	return text;
}

/* sys's SHA256SUMS in the copy under root rewritten to match its files. */
static void S_resum_of(const char *root, const char *sys)
{
	char *cmd = hb_sprintf("cd '%s/data/%s' && find . -type f ! -name SHA256SUMS | "
		"sed 's|^\\./||' | LC_ALL=C sort | xargs sha256sum > SHA256SUMS", root, sys);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	free(cmd);
}

static void S_resum(const char *root)
{
	S_resum_of(root, "arm_1");
}

/* A copy of the fixtures (arm_1 alone unless with_x86), arm_1's counter replaced by counter (a
 * "counter": {…} member) and its SHA256SUMS rewritten to match; the folder's root (caller
 * frees). */
static char *S_data_of(const char *name, const char *counter, int with_x86)
{
	char *root = hbt_tmpdir(name), *data = hb_path_join(root, "data");
	char *cmd = hb_sprintf("cp -r '%s' '%s'%s%s%s", DATA, data, with_x86 ? "" : " && rm -r '",
		with_x86 ? "" : data, with_x86 ? "" : "/x86_1'");
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	free(cmd);
	hbt_replace(data, "arm_1/system.json", "\"counter\": {\n    \"name\": \"perf-cycles\",\n"
		"    \"hz\": null\n  }", counter);
	free(data);
	S_resum(root);
	return root;
}

static char *S_data(const char *name, const char *counter)
{
	return S_data_of(name, counter, 0);
}

static char *S_site(const char *root)
{
	char *data = hb_path_join(root, "data"), *site = hb_path_join(root, "site");
	char *err = NULL;
	cr_assert_eq(hbt_site_build(data, site, 1, &err), 0, "%s", err ? err : "");
	free(data);
	return site;
}

static char *S_page(const char *site, const char *rel)
{
	char *p = hb_path_join(site, rel), *text = S_read(p);
	free(p);
	return text;
}

/* What calls a figure cycles: a unit after a number, the labels of the tables and charts. */
static const char S_cycles_label[] = "(cycles(/| per (byte|call)| at | vs\\.)|"
	"(mean|median|headline|usual best) cycles|[0-9] cycles|cycles are)";

/* Every page, chart and download of system sys in site calls no figure cycles; returns how many
 * files were read. */
static size_t S_expect_no_cycles(const char *site, const char *sys)
{
	char *dir = hb_path_join(site, sys);
	DIR *d = opendir(dir);
	struct dirent *de;
	regex_t re;
	size_t files = 0;

	cr_assert_not_null(d, "%s", dir);
	cr_assert_eq(regcomp(&re, S_cycles_label, REG_EXTENDED | REG_ICASE), 0);
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);
		char *path, *text;
		regmatch_t m;
		if (n < 4 || (strcmp(de->d_name + n - 3, ".md") && strcmp(de->d_name + n - 4, ".svg") &&
				strcmp(de->d_name + n - 4, ".csv") && (n < 5 ||
				strcmp(de->d_name + n - 5, ".html"))))
			continue;
		path = hb_path_join(dir, de->d_name);
		text = S_read(path);
		if (regexec(&re, text, 1, &m, 0) == 0)
			cr_expect(0, "%s/%s calls a figure cycles: \"…%.60s…\"", sys, de->d_name,
				text + (m.rm_so > 30 ? m.rm_so - 30 : 0));
		files++;
		free(text);
		free(path);
	}
	closedir(d);
	regfree(&re);
	free(dir);
	return files;
}

/* Σcycles / Σiterations of a record's trials: its mean in the counter's ticks. */
static double S_mean_ticks(const char *data, const char *rel)
{
	json_t *r = hbt_json_load(data, rel), *t;
	double cy = 0, it = 0;
	size_t i;
	json_array_foreach(json_object_get(r, "trials"), i, t) {
		cy += (double)json_integer_value(json_object_get(t, "cycles"));
		it += (double)json_integer_value(json_object_get(t, "iterations"));
	}
	json_decref(r);
	cr_assert_gt(it, 0);
	return cy / it;
}

#define EXPECT_HAS(text, needle) \
	cr_expect(strstr((text), (needle)) != NULL, "missing: %s", (needle))

Test(units, the_words_are_named_by_the_unit)
{
	hg_system s;
	hg_page *p = hg_page_new();
	const char *same = "mean cycles";
	char *x;

	memset(&s, 0, sizeof(s));
	cr_expect_str_eq(hg_unit_name(&s), "cycles", "a system of no recorded unit: cycles");
	cr_expect_eq(hg_unit_text(p->arena, &s, same), same, "cycles: the text itself");
	s.unit = "ticks";
	cr_expect_str_eq(hg_unit_text(p->arena, &s, "headline cycles/byte"), "headline ticks/byte");
	cr_expect_str_eq(hg_unit_text(p->arena, &s, "Cycles are the headline; cycles per call"),
		"Ticks are the headline; ticks per call");
	cr_expect_str_eq(hg_unit_text(p->arena, &s, "`headline_cycles_per_byte`, perf-cycles, "
		"recycles, cycle"), "`headline_cycles_per_byte`, perf-cycles, recycles, cycle");
	x = hg_unit_words(&s, hg_xprintf("cycles"));
	cr_expect_str_eq(x, "ticks");
	free(x);
	hg_page_free(p);
}

Test(units, cntvct_evidence_of_an_earlier_version_is_counter_ticks)
{
	char *root = S_data("units-earlier", CNTVCT_EARLIER), *site, *page;

	/* the warning such a campaign wrote named the time-stamp counter */
	hbt_replace(root, "data/arm_1/system.json", "\"warnings\": []", "\"warnings\": [\"no hardware "
		"cycle counter: cycles are counted by the time-stamp counter, not by the core\"]");
	S_resum(root);
	site = S_site(root);

	cr_expect_geq(S_expect_no_cycles(site, "arm_1"), 8, "the pages, charts and CSV of arm_1");
	page = S_page(site, "arm_1/hash-15.md");
	EXPECT_HAS(page, "| counter | cntvct at 62.5 MHz: not the core's clock; the figures are "
		"counter ticks |");
	EXPECT_HAS(page, "| instance | message | mean ticks | ticks/byte | mean time | MB/s | n | "
		"headline ticks/byte | median ticks | spread |");
	free(page);
	page = S_page(site, "arm_1/index.html");
	EXPECT_HAS(page, "no hardware cycle counter: the figures are ticks of cntvct at 62.5 MHz, not "
		"the core's cycles (the hashbench that measured them wrote that the time-stamp counter "
		"counted them)");
	free(page);
	page = S_page(site, "index.html");
	EXPECT_HAS(page, " ticks/byte</a>");
	EXPECT_HAS(page, "(counter ticks per byte where the cell says ticks/byte)");
	free(page);
	page = S_page(site, "arm_1/method.html");
	EXPECT_HAS(page, "It is not the core's clock: it ticks at its own rate (62.5 MHz)");
	EXPECT_HAS(page, "Mean ticks = Σticks / Σcalls; ticks/byte = mean ticks / message bytes");
	free(page);
	page = hbt_results_csv(site);
	/* the unit, then the ratios to the yardsticks (none measured on arm_1) */
	EXPECT_HAS(page, ",unit,ratio_sm3_reference,");
	cr_expect(strstr(page, ",cycles,") == NULL, "a figure of arm_1 in the downloads is "
		"called cycles");
	EXPECT_HAS(page, ",ticks,,,,,,,,,,\r\n");
	free(page);
	free(site);
	free(root);
}

Test(units, cntvct_without_core_hz_calls_no_figure_cycles)
{
	char *root = S_data("units-ticks", CNTVCT_TICKS), *site = S_site(root), *page;
	cr_expect_geq(S_expect_no_cycles(site, "arm_1"), 8);
	page = S_page(site, "arm_1/compare.md");
	EXPECT_HAS(page, "| ticks/byte at 65536 B | ticks per call at 32 B |");
	free(page);
	page = S_page(site, "arm_1/hash-15.svg");
	EXPECT_HAS(page, ">ticks/byte<");
	free(page);
	free(site);
	free(root);
}

/* x86_1, made a cntvct system, measured its yardsticks: two figures within noise of each other
 * give a ratio whose title names their unit, on the comparison page and on an algorithm page's
 * "Compared with the baselines" (under qemu-user such a title once read "… 4 cycles/byte"). */
Test(units, a_ratio_within_noise_names_the_unit_of_its_figures)
{
	char *root = S_data_of("units-noise", CNTVCT_TICKS, 1), *site, *page;

	hbt_replace(root, "data/x86_1/system.json", "\"counter\": {\n    \"name\": \"perf-cycles\",\n"
		"    \"hz\": null\n  }", CNTVCT_TICKS);
	/* SM3's OpenSSL at 65536 B given the reference's headline: on the SM3 page its ratio to
	 * the reference is within noise */
	{
		json_t *ref = hbt_json_load(root, "data/x86_1/records/sm3/SM3__hash_65536.json");
		json_t *ossl = hbt_json_load(root, "data/x86_1/records/sm3/SM3.openssl__hash_65536.json");
		char *path = hb_path_join(root, "data/x86_1/records/sm3/SM3.openssl__hash_65536.json");
		json_t *h = json_deep_copy(json_object_get(ref, "headline"));
		/* 0.1 % slower than the reference: inside its interval, not the same figure */
		json_object_set_new(h, "cycles_per_call", json_real(509068.0));
		json_object_set_new(h, "cycles_per_byte", json_real(509068.0 / 65536));
		json_object_set_new(ossl, "headline", h);
		cr_assert_eq(json_dump_file(ossl, path, JSON_INDENT(2)), 0, "%s", path);
		json_decref(ref);
		json_decref(ossl);
		free(path);
	}
	S_resum_of(root, "x86_1");
	site = S_site(root);
	cr_expect_geq(S_expect_no_cycles(site, "x86_1"), 8, "the pages, charts and CSV of x86_1");
	page = S_page(site, "x86_1/compare.html");
	EXPECT_HAS(page, "title=\"within noise: the intervals of 9.21 ± 0.04 and 9.21 ± 0.04 "
		"ticks/byte overlap");
	free(page);
	page = S_page(site, "x86_1/sm3.html");
	EXPECT_HAS(page, "title=\"within noise: the intervals of 7.77 ± 0.03 and 7.76 ± 0.03 "
		"ticks/byte overlap, so the two are not shown to differ\"");
	free(page);
	free(site);
	free(root);
}

Test(units, core_hz_gives_cycles_as_ticks_times_core_hz_over_the_counters_rate)
{
	char *root = S_data("units-core-hz", CNTVCT_CORE_HZ), *site = S_site(root);
	char *data = hb_path_join(root, "data"), *page, b[HG_FMT], *row;
	double ticks = S_mean_ticks(data, RECORD), cycles = ticks * 2710000000.0 / 62500000.0;

	page = S_page(site, "arm_1/hash-15.md");
	/* the record's row: instance, message, mean cycles, cycles/byte */
	row = hb_sprintf("| `litchi_256` | 65536 B | %s | ", hg_fmt_cycles(b, sizeof(b), cycles));
	EXPECT_HAS(page, row);
	free(row);
	row = hb_sprintf("| %s |", hg_fmt_cpb(b, sizeof(b), cycles / 65536));
	EXPECT_HAS(page, row);
	free(row);
	cr_expect(ticks < cycles / 40, "the ticks themselves are not shown as cycles");
	EXPECT_HAS(page, "| counter | cntvct at 62.5 MHz; cycles = ticks × 2.71 GHz (the declared "
		"core clock) / 62.5 MHz |");
	EXPECT_HAS(page, "| mean cycles | cycles/byte |");
	free(page);
	page = S_page(site, "arm_1/method.html");
	EXPECT_HAS(page, "The campaign declared the core's fixed clock, 2.71 GHz (--core-hz "
		"2710000000), and every figure called cycles is its ticks converted: cycles = ticks × "
		"2710000000 / 62500000 (43.36 cycles a tick).");
	free(page);
	/* the downloads carry the converted figure at full precision */
	page = hbt_results_csv(site);
	{
		char *at = strstr(page, "data/" RECORD), *line, *f;
		double mean;
		size_t k;
		cr_assert_not_null(at);
		for (line = at; line > page && line[-1] != '\n'; line--)
			;
		for (f = line, k = 0; k < 7; k++)
			f = strchr(f, ',') + 1;
		mean = strtod(f, NULL);
		cr_expect(mean > cycles * (1 - 1e-12) && mean < cycles * (1 + 1e-12),
			"mean_cycles %.17g, want %.17g", mean, cycles);
		f = strstr(at, ",cycles,");
		cr_expect(f && f < strstr(at, "\r\n"), "the row's unit");
	}
	free(page);
	free(data);
	free(site);
	free(root);
}

Test(units, a_table_of_several_systems_names_a_figure_of_another_unit)
{
	char *root = S_data_of("units-mixed", CNTVCT_TICKS, 1), *site = S_site(root), *page;

	page = S_page(site, "arm_1/hash-15.md");
	EXPECT_HAS(page, "| instance | system | ticks/byte at 65536 B | ticks at 32 B |");
	EXPECT_HAS(page, "| `litchi_256` (reference) | **arm_1 (this page)** | 10.0 | 1222 |");
	EXPECT_HAS(page, "| `litchi_512` (reference) | [x86_1](../x86_1/hash-15.html) | 9.7 ± 0.2 "
		"cycles‡ | 1571 ± 79 cycles‡ |");
	EXPECT_HAS(page, "compare their ticks with care");
	free(page);
	page = S_page(site, "x86_1/hash-15.md");
	EXPECT_HAS(page, "| instance | system | cycles/byte at 65536 B | cycles at 32 B |");
	EXPECT_HAS(page, "| `litchi_512` (reference) | [arm_1](../arm_1/hash-15.html) | 10.0 ticks | "
		"1623 ticks |");
	free(page);
	free(site);
	free(root);
}

Test(units, the_page_across_systems_names_each_unit_and_never_mixes_them_unsaid)
{
	char *root = S_data_of("units-across", CNTVCT_TICKS, 1), *site = S_site(root), *page, *svg;

	page = S_page(site, "algorithms/hash-15.md");
	EXPECT_HAS(page, "The systems' figures are not in one unit");
	EXPECT_HAS(page, "| instance | system | unit | 32 B | 65536 B |");
	EXPECT_HAS(page, "| `litchi_256` | [arm_1](../arm_1/hash-15.html) | ticks/byte | 38.2 |");
	EXPECT_HAS(page, "| `litchi_256` | [x86_1](../x86_1/hash-15.html) | cycles/byte | 37.0 ± 0.1 |");
	svg = S_page(site, "algorithms/hash-15.svg");
	EXPECT_HAS(svg, "arm_1, ticks: litchi_256 (reference)");
	EXPECT_HAS(svg, "x86_1, cycles: litchi_256 (reference)");
	EXPECT_HAS(svg, "counter ticks and cycles are not one scale");
	cr_expect_null(strstr(svg, ">cycles/byte<"), "one axis called cycles for figures of two units");
	free(svg);
	free(page);
	free(site);
	free(root);
}

Test(units, the_environment_names_the_counter_and_what_its_readings_are)
{
	hg_system s;
	hg_page *p = hg_page_new();

	memset(&s, 0, sizeof(s));
	s.counter = "perf-cycles";
	s.counter_hz = s.core_hz = -1;
	cr_expect_str_eq(hg_counter_row(p->arena, &s), "perf-cycles: the core's cycles");
	s.counter = "tsc";
	s.counter_hz = 2445399543;
	cr_expect_str_eq(hg_counter_row(p->arena, &s), "tsc at 2.445 GHz: the time-stamp counter, "
		"taken for the core's cycles");
	s.counter = "cntvct";
	s.counter_hz = 19200000;
	s.unit = "ticks";
	cr_expect_str_eq(hg_counter_row(p->arena, &s), "cntvct at 19.2 MHz: not the core's clock; "
		"the figures are counter ticks");
	s.unit = "cycles";
	s.core_hz = 3000000000;
	s.cycles_per_tick = 3000000000.0 / 19200000;
	cr_expect_str_eq(hg_counter_row(p->arena, &s), "cntvct at 19.2 MHz; cycles = ticks × 3 GHz "
		"(the declared core clock) / 19.2 MHz");
	s.counter_read_cycles = 1;
	cr_expect_str_eq(hg_counter_lookup(p->arena, &s, "counter-read"),
		"156.2 cycles (1.0 tick)");
	hg_page_free(p);
}

Test(units, a_counter_that_contradicts_itself_is_refused_in_one_line)
{
	static const struct {
		const char *counter, *message;
	} cases[] = {
		{ "\"counter\": {\"name\": \"cntvct\", \"hz\": 62500000, \"counts_core_cycles\": false, "
			"\"core_hz\": null, \"unit\": \"cycles\"}", "counter.unit: \"cycles\" contradicts a "
			"counter that does not count the core's cycles without a core_hz" },
		{ "\"counter\": {\"name\": \"perf-cycles\", \"hz\": null, \"counts_core_cycles\": true, "
			"\"core_hz\": null, \"unit\": \"ticks\"}", "counter.unit: \"ticks\" contradicts "
			"counts_core_cycles or core_hz (the figures are cycles)" },
		{ "\"counter\": {\"name\": \"cntvct\", \"hz\": null, \"counts_core_cycles\": false, "
			"\"core_hz\": 2710000000, \"unit\": \"cycles\"}", "counter.core_hz: declared without "
			"counter.hz: no rate to convert the ticks from" },
		{ "\"counter\": {\"name\": \"perf-cycles\", \"hz\": null, \"counts_core_cycles\": true, "
			"\"core_hz\": 2710000000, \"unit\": \"cycles\"}", "counter.core_hz: declared for a "
			"counter that counts the core's cycles: nothing to convert" },
		{ "\"counter\": {\"name\": \"cntvct\", \"hz\": 62500000, \"core_hz\": 0}",
			"counter.core_hz: expected a clock in Hz above 0, or null" },
		{ "\"counter\": {\"name\": \"cntvct\", \"hz\": 62500000, \"unit\": \"seconds\"}",
			"counter.unit: expected \"cycles\" or \"ticks\"" },
		{ "\"counter\": {\"name\": \"cntvct\", \"hz\": 62500000, \"counts_core_cycles\": 0}",
			"counter.counts_core_cycles: expected true or false" },
	};
	size_t i;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *root = S_data("units-bad", cases[i].counter), *data = hb_path_join(root, "data");
		char *site = hb_path_join(root, "site"), *err = NULL, *want;
		want = hb_sprintf("%s/arm_1/system.json: %s", data, cases[i].message);
		cr_expect_neq(hbt_site_build(data, site, 0, &err), 0, "case %zu was accepted", i);
		cr_expect_str_eq(err ? err : "", want, "case %zu", i);
		free(want);
		free(err);
		free(site);
		free(data);
		free(root);
	}
}
