/* test_headline.c — the headline figure as a user sees it: the comparison page and the downloads
 * take it from the record (x86_1's litchi_256 at 65536 B: headline 9.2, mean 10.0), section 4
 * shows it beside the guide's columns, evidence of an earlier version (arm_1) has the mean as
 * its headline with estimator "mean", the method page names the estimator and the sentinel's
 * limit, and a bad headline or interval stops hashgen with one line naming the file and the
 * field. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <jansson.h>

#include "hashgen.h"
#include "results.h"
#include "support.h"

#define DATA HBT_FIXTURES "/data"
#define TEMPLATES HBT_SOURCE_DIR "/templates"
#define HASHGEN HBT_BUILD_DIR "/bin/hashgen"
#define LITCHI_64K "data/x86_1/records/hash-15/litchi_256__hash_65536.json"

static char *S_read(const char *path)
{
	char *text;
	size_t len;
	cr_assert_eq(hg_read_file(&text, &len, path), 0, "%s", hg_error_last());
	return text;
}

/* build/bin/hashgen as a user runs it; *out gets stdout and stderr, the exit status returns. */
static int S_hashgen(char **out, const char *root, const char *data, const char *site)
{
	char *log = hb_path_join(root, "hashgen.log");
	char *cmd = hb_sprintf("TMPDIR='%s' '%s' --data '%s' --out '%s' --templates '%s' >'%s' 2>&1",
		root, HASHGEN, data, site, TEMPLATES, log);
	size_t len;
	int st = system(cmd);
	cr_assert(WIFEXITED(st), "%s did not exit", cmd);
	cr_assert_eq(hg_read_file(out, &len, log), 0, "%s", hg_error_last());
	free(cmd);
	free(log);
	return WEXITSTATUS(st);
}

/* A file of the site (caller frees). */
static char *S_page(const char *site, const char *rel)
{
	char *p = hb_path_join(site, rel), *text = S_read(p);
	free(p);
	return text;
}

static char *S_site(const char *name)
{
	char *root = hbt_tmpdir(name), *site = hb_path_join(root, "site"), *out;
	cr_assert_eq(S_hashgen(&out, root, DATA, site), 0, "%s", out);
	free(out);
	free(root);
	return site;
}

/* The shortest decimal that reads back as the same double, as the downloads print it. */
static char *S_shortest(double v)
{
	char *t = NULL;
	int digits;
	for (digits = 15; digits <= 17; digits++) {
		free(t);
		t = hb_sprintf("%.*g", digits, v);
		if (strtod(t, NULL) == v)
			break;
	}
	return t;
}

/* The row of the downloads (every part joined) for a record of the site. */
static json_t *S_result(json_t *results, const char *record)
{
	json_t *f;
	size_t i;
	json_array_foreach(json_object_get(results, "figures"), i, f)
		if (strcmp(json_string_value(json_object_get(f, "record")), record) == 0)
			return f;
	cr_assert_fail("no figure of %s in the downloads", record);
	return NULL;
}

Test(headline, comparison_page_and_downloads_use_the_records_headline)
{
	char *site = S_site("headline-pages"), *p, *text, *rp;
	json_t *rec, *results, *f;
	json_error_t err;
	double want;

	rp = hb_path_join(site, LITCHI_64K);
	rec = json_load_file(rp, 0, &err);
	cr_assert_not_null(rec, "%s: %s", rp, err.text);
	want = json_real_value(json_object_get(json_object_get(rec, "headline"), "cycles_per_byte"));
	cr_assert(want > 9 && want < 9.5, "the fixture's headline is 9.2 (mean 10.0): %g", want);

	results = hbt_results_json(site);
	f = S_result(results, LITCHI_64K);
	cr_expect_eq(json_real_value(json_object_get(f, "headline_cycles_per_byte")), want,
		"the headline at full precision, as the record has it");
	cr_expect_str_eq(json_string_value(json_object_get(f, "headline_estimator")),
		"min-of-pass-minima");
	cr_expect_gt(json_real_value(json_object_get(f, "cycles_per_byte")), 10.0,
		"the guide's mean stays as it was");

	/* the page's CSV carries the same figure, with its interval's bounds and state */
	p = hb_path_join(site, "x86_1/hash-15.csv");
	text = S_read(p);
	{
		json_t *iv = json_object_get(json_object_get(rec, "headline"), "interval");
		char *line = strstr(text, ",65536,ok,PASS,"), *a = S_shortest(want);
		char *lo = S_shortest(json_real_value(json_object_get(iv, "low_cycles_per_byte")));
		char *hi = S_shortest(json_real_value(json_object_get(iv, "high_cycles_per_byte")));
		char *want_txt = hb_sprintf(",%s,%s,%s,narrow,min-of-pass-minima,", a, lo, hi);
		cr_assert(strstr(text, ",headline_cycles_per_byte,headline_low_cycles_per_byte,"
			"headline_high_cycles_per_byte,headline_interval,headline_estimator,") != NULL);
		cr_expect(strstr(text, "litchi_256,reference,65536,ok,") != NULL);
		cr_expect(line && strstr(text, want_txt) != NULL, "%s not in %s", want_txt, text);
		free(want_txt);
		free(a);
		free(lo);
		free(hi);
	}
	free(text);
	free(p);

	/* the comparison page shows and ranks by the headline: 9.2, not 10.0 */
	p = hb_path_join(site, "x86_1/compare.md");
	text = S_read(p);
	cr_expect(strstr(text, "| [hash-15](hash-15.html) | `litchi_256` (reference) | PASS | "
		"9.21 ± 0.04 |") != NULL, "%s", text);
	/* the unconfirmed figure of litchi_512 at 32 B carries its mark and the legend explains it */
	cr_expect(strstr(text, "| 1571 ± 79‡ |") != NULL, "%s", text);
	cr_expect(strstr(text, "‡ on a headline figure: its interval is wide (its half-width is "
		"above the precision the campaign asked for) or unconfirmed (no calm pass lies within "
		"it).") != NULL, "%s", text);
	free(text);
	free(p);
	p = hb_path_join(site, "x86_1/compare.html");
	text = S_read(p);
	cr_expect(strstr(text, "<span class=\"mark\" title=\"unconfirmed at 32 B: no calm pass within "
		"its interval\">‡</span>") != NULL, "the mark says what it means and at which size");
	cr_expect(strstr(text, "role=\"region\" aria-label=\"512-bit digests: speed\" tabindex=\"0\"")
		!= NULL, "a named scroll region reachable from the keyboard");
	free(text);
	free(p);

	/* arm_1 is evidence of an earlier version: its headline is the mean, estimator "mean" */
	f = S_result(results, "data/arm_1/records/hash-15/litchi_256__hash_65536.json");
	cr_expect_eq(json_real_value(json_object_get(f, "headline_cycles_per_byte")),
		json_real_value(json_object_get(f, "cycles_per_byte")));
	cr_expect_str_eq(json_string_value(json_object_get(f, "headline_estimator")), "mean");
	/* as is the record of x86_1 that an earlier version wrote */
	f = S_result(results, "data/x86_1/records/evil/evil_256__hash_32.json");
	cr_expect_str_eq(json_string_value(json_object_get(f, "headline_estimator")), "mean");
	json_decref(results);
	json_decref(rec);
	free(rp);
	free(site);
}

Test(headline, algorithm_page_shows_the_guides_columns_and_the_headline)
{
	char *site = S_site("headline-alg"), *md = S_page(site, "x86_1/hash-15.md");

	cr_expect(strstr(md, "| instance | message | mean cycles | cycles/byte | mean time | MB/s | n | "
		"headline cycles/byte | median cycles | spread |") != NULL, "%s", md);
	cr_expect(strstr(md, "| `litchi_256` | 65536 B | 657.6 k | 10.0 | 313 µs | 209.3 | "
		"9595 (5 × 1919) | 9.21 ± 0.04 |") != NULL, "%s", md);
	/* the unconfirmed headline is marked on itself, the unstable spread on the spread */
	cr_expect(strstr(md, "| 49.1 ± 2.5‡ | 1802 | ± 11.5 %† (2 retries) |") != NULL, "%s", md);
	cr_expect(strstr(md, "† on a spread: unstable") != NULL && strstr(md, "‡ on a headline "
		"figure: ") != NULL, "%s", md);
	free(md);

	/* an earlier version's page: the headline column repeats the mean */
	md = S_page(site, "arm_1/hash-15.md");
	cr_expect(strstr(md, "| `litchi_256` | 65536 B | 657.6 k | 10.0 | 243 µs | 270.1 | "
		"12385 (5 × 2477) | 10.0 |") != NULL, "%s", md);
	cr_expect(strstr(md, "it is the guide's mean (estimator \"mean\")") != NULL, "%s", md);
	free(md);

	/* the method pages name the estimator and the sentinel's limit, or say they were not
	 * recorded */
	md = S_page(site, "x86_1/method.html");
	cr_expect(strstr(md, "This system: estimator min-of-pass-minima; passes per record: 3.")
		!= NULL, "%s", md);
	cr_expect(strstr(md, "calibration readings) 0.42 %; limit 3.00 %; floor 3.00 %; set calibrated "
		"from the readings at the campaign's start.") != NULL, "%s", md);
	free(md);
	md = S_page(site, "arm_1/method.html");
	cr_expect(strstr(md, "This system: estimator mean (evidence of an earlier hashbench") != NULL);
	cr_expect(strstr(md, "calibration readings) not recorded; limit not recorded; floor not "
		"recorded; set not recorded.") != NULL, "%s", md);
	free(md);
	free(site);
}

/* A copy of the fixture with rel edited (from replaced by by) stops hashgen with one line: the
 * file and message. */
static void S_refused(const char *rel, const char *from, const char *by, const char *message)
{
	char *root = hbt_tmpdir("headline-bad"), *data = hb_path_join(root, "data");
	char *site = hb_path_join(root, "site"), *cmd, *out, *want;

	cmd = hb_sprintf("cp -r '%s' '%s'", DATA, data);
	cr_assert_eq(system(cmd), 0);
	hbt_replace(data, rel, from, by);
	cr_expect_neq(S_hashgen(&out, root, data, site), 0, "%s", out);
	want = hb_sprintf("hashgen: %s/%s: %s\n", data, rel, message);
	cr_expect(strstr(out, want) != NULL, "want %s got %s", want, out);
	cr_expect_eq(strchr(strstr(out, "hashgen: ") ? strstr(out, "hashgen: ") : out, '\n'),
		out + strlen(out) - 1, "one line: %s", out);
	free(want);
	free(out);
	free(cmd);
	free(site);
	free(data);
	hg_rm_rf(root);
	free(root);
}

Test(headline, a_bad_headline_is_one_line_naming_file_and_field)
{
	static const struct {
		const char *what, *by, *message;
	} cases[] = {
		{ "\"cycles_per_byte\": ", "\"cycles_per_byte\": -", "headline.cycles_per_byte: expected "
			"a number of 0 or more" },
		{ "\"cycles_per_call\": ", "\"cycles_per_call\": \"fast\", \"x\": ",
			"headline.cycles_per_call: expected a number of 0 or more" },
		{ "\"estimator\": \"min-of-pass-minima\"", "\"estimator\": 7",
			"headline.estimator: expected a string" },
		{ "\"calm\": true", "\"calm\": \"yes\"", "passes[0].calm: expected true or false" },
		{ "\"state\": \"narrow\"", "\"state\": 7", "headline.interval.state: expected "
			"\"narrow\", \"wide\" or \"unconfirmed\"" },
		{ "\"state\": \"narrow\"", "\"state\": \"tight\"", "headline.interval.state: "
			"expected \"narrow\", \"wide\" or \"unconfirmed\"" },
		{ "\"interval\": {", "\"interval\": 3, \"x\": {", "headline.interval: expected an "
			"object" },
		{ "\"method\": \"bootstrap-min-of-passes\"", "\"method\": null",
			"headline.interval.method: expected a string" },
		{ "\"low_cycles_per_byte\": ", "\"low_cycles_per_byte\": \"low\", \"x\": ",
			"headline.interval.low_cycles_per_byte: expected a number of 0 or more" },
		{ "\"low_cycles_per_byte\": 9.1758", "\"low_cycles_per_byte\": 9.9",
			"headline.interval.low_cycles_per_byte: above high_cycles_per_byte" },
		{ "\"order\": 2", "\"order\": 4", "headline.interval.order: expected an integer from 1 "
			"to headline.interval.passes" },
		{ "\"target_pct\": 2.0,", "", "headline.interval.target_pct: missing" },
		{ "\"state\": \"narrow\"", "\"floor_source\": 7, \"state\": \"narrow\"",
			"headline.interval.floor_source: expected \"history\" or \"default\"" },
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		S_refused("x86_1/records/hash-15/litchi_256__hash_65536.json", cases[k].what,
			cases[k].by, cases[k].message);
}

/* A well-formed headline.paired with key set to value (a JSON text; NULL: key removed), as the
 * text that follows litchi_256's estimator (caller frees). */
static char *S_paired_with(const char *key, const char *value)
{
	json_t *p = json_pack("{s:{s:s, s:s}, s:b, s:I, s:s, s:f, s:f, s:f, s:f, s:s, s:i, s:i}",
		"anchor", "instance", "SM3", "implementation", "reference", "self", 0, "campaign_seed",
		(json_int_t)1234567, "method", "paired-blocks", "ratio", 1.2345, "low", 1.2301, "high",
		1.239, "half_width_pct", 0.36, "state", "narrow", "pairs", 40, "passes", 4);
	char *text, *out;
	if (value)
		json_object_set_new(p, key, json_loads(value, JSON_DECODE_ANY, NULL));
	else
		json_object_del(p, key);
	text = json_dumps(p, JSON_COMPACT);
	out = hb_sprintf("\"estimator\": \"min-of-pass-minima\", \"paired\": %s", text);
	free(text);
	json_decref(p);
	return out;
}

Test(headline, a_bad_paired_ratio_is_one_line_naming_file_and_field)
{
	static const struct {
		const char *key, *value, *message;
	} cases[] = {
		{ "ratio", "\"x\"", "headline.paired.ratio: expected a number above 0" },
		{ "ratio", NULL, "headline.paired.ratio: missing" },
		{ "low", "-1", "headline.paired.low: expected a number above 0" },
		{ "low", "1.3", "headline.paired.low: above headline.paired.ratio" },
		{ "high", "1.2", "headline.paired.high: below headline.paired.ratio" },
		{ "state", "\"tight\"", "headline.paired.state: expected \"narrow\" or \"wide\"" },
		{ "campaign_seed", "\"1234567\"", "headline.paired.campaign_seed: expected an integer" },
		{ "campaign_seed", NULL, "headline.paired.campaign_seed: missing" },
		{ "self", "1", "headline.paired.self: expected true or false" },
		{ "self", "true", "headline.paired.ratio: expected ratio, low and high 1 for the "
			"anchor's own record (self true)" },
		{ "anchor", "\"SM3\"", "headline.paired.anchor: expected an object" },
		{ "anchor", "{\"instance\": \"SM3\"}", "headline.paired.anchor.implementation: missing" },
		{ "anchor", "{\"instance\": 3, \"implementation\": \"reference\"}",
			"headline.paired.anchor.instance: expected a string" },
		{ "pairs", "4.5", "headline.paired.pairs: expected an integer" },
		{ "method", "7", "headline.paired.method: expected a string" },
		{ "pair_ratios", "{}", "headline.paired.pair_ratios: expected an array" },
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char *by = S_paired_with(cases[k].key, cases[k].value);
		S_refused("x86_1/records/hash-15/litchi_256__hash_65536.json",
			"\"estimator\": \"min-of-pass-minima\"", by, cases[k].message);
		free(by);
	}
	S_refused("x86_1/records/hash-15/litchi_256__hash_65536.json",
		"\"estimator\": \"min-of-pass-minima\"",
		"\"estimator\": \"min-of-pass-minima\", \"paired\": 7",
		"headline.paired: expected an object");
}

#define HISTORY(campaigns, pct, source, speed) "\"precision_pct\": null, \"history\": " \
	"{\"campaigns\": " campaigns ", \"floor_pct\": " pct ", \"floor_source\": " source ", " \
	"\"figures\": 4, \"drift_pct\": 0.42, \"speed_vs_history_pct\": " speed "}"

Test(headline, a_bad_history_is_one_line_naming_system_json_and_field)
{
	S_refused("x86_1/system.json", "\"precision_pct\": null",
		HISTORY("\"7\"", "0.83", "\"history\"", "3.2"),
		"campaign.history.campaigns: expected an integer");
	S_refused("x86_1/system.json", "\"precision_pct\": null",
		HISTORY("7", "0.83", "\"guess\"", "3.2"),
		"campaign.history.floor_source: expected \"history\" or \"default\"");
	S_refused("x86_1/system.json", "\"precision_pct\": null",
		HISTORY("7", "0.83", "\"history\"", "\"slow\""),
		"campaign.history.speed_vs_history_pct: expected a number or null");
}

/* The method page of x86_1 with its system.json edited (from replaced by by; caller frees). */
static char *S_method_with(const char *from, const char *by)
{
	char *root = hbt_tmpdir("headline-history"), *data = hb_path_join(root, "data");
	char *site = hb_path_join(root, "site"), *cmd, *out, *page;

	cmd = hb_sprintf("cp -r '%s' '%s'", DATA, data);
	cr_assert_eq(system(cmd), 0);
	hbt_replace(data, "x86_1/system.json", from, by);
	cr_assert_eq(S_hashgen(&out, root, data, site), 0, "%s", out);
	page = S_page(site, "x86_1/method.html");
	free(out);
	free(cmd);
	free(site);
	free(data);
	hg_rm_rf(root);
	free(root);
	return page;
}

Test(headline, the_method_page_says_how_the_floor_was_set)
{
	char *md = S_method_with("\"precision_pct\": null",
		HISTORY("7", "0.83", "\"history\"", "3.2"));
	cr_expect(strstr(md, "(<code>floor_pct</code> in the record, on this system ± 0.83 %)") !=
		NULL, "%s", md);
	cr_expect(strstr(md, "the host's state then. On this system it was set from its history "
		"(history.json, one entry per campaign) of 7 earlier campaigns on its timing CPU: the "
		"machine's drift from one campaign to the next, 0.42 %, the distance from its own median "
		"within which 90 % of the headlines of 4 yardstick figures (SM3 and SHA-256 at 1 KiB and "
		"more) lay, over those campaigns, each headline whose own interval was narrow") != NULL,
		"%s", md);
	cr_expect(strstr(md, "This campaign's machine was 3.2 % slower than its history") != NULL,
		"%s", md);
	free(md);
	/* within the floor of its history, the speed is not worth a sentence */
	md = S_method_with("\"precision_pct\": null", HISTORY("0", "0.4", "\"default\"", "-0.3"));
	cr_expect(strstr(md, "in the record, on this system ± 0.40 %): what the passes") != NULL,
		"%s", md);
	cr_expect(strstr(md, "On this system it is the default, ± 0.4 %: its history") != NULL,
		"%s", md);
	cr_expect_null(strstr(md, "than its history"), "%s", md);
	free(md);
	/* evidence of an earlier version says what it said then */
	md = S_method_with("\"precision_pct\": null", "\"precision_pct\": null");
	cr_expect(strstr(md, "in the record, ± 0.4 % for this version): what the passes of one "
		"campaign do not show, another campaign's placement of the library in memory and the "
		"host's state then. On the virtual machine") != NULL, "%s", md);
	free(md);
}

#define PAIRED(v) "\"precision_pct\": null, \"paired\": " v

/* The method page names the campaign's paired passes, says when there were none, and when the
 * evidence predates them; a bad campaign.paired is refused naming the field. */
Test(headline, the_method_page_says_how_the_ratios_were_paired)
{
	char *md = S_method_with("\"precision_pct\": null", PAIRED("{\"method\": \"paired-blocks\", "
		"\"anchor\": {\"instance\": \"SM3\", \"implementation\": \"reference\"}, "
		"\"passes\": 8, \"rounds\": 5, \"wide_pct\": 1.0}"));
	cr_expect(strstr(md, "This system: 8 paired passes of 5 rounds beside SM3 (reference), "
		"after the passes (as hashbench ran them before it spread them), a paired ratio "
		"wider than ± 1 % marked wide.") != NULL, "%s", md);
	free(md);
	md = S_method_with("\"precision_pct\": null", PAIRED("{\"method\": \"paired-blocks\", "
		"\"anchor\": {\"instance\": \"SM3\", \"implementation\": \"reference\"}, "
		"\"passes\": 8, \"rounds\": 5, \"wide_pct\": 1.0, \"schedule\": \"interleaved\"}"));
	cr_expect(strstr(md, "This system: 8 paired passes of 5 rounds beside SM3 (reference), "
		"spread evenly among the passes, a paired ratio") != NULL, "%s", md);
	free(md);
	md = S_method_with("\"precision_pct\": null", PAIRED("null"));
	cr_expect(strstr(md, "This system: no paired passes (the campaign was run with "
		"--paired-passes 0") != NULL, "%s", md);
	free(md);
	md = S_method_with("\"precision_pct\": null", "\"precision_pct\": null");
	cr_expect(strstr(md, "This system: not recorded (evidence of an earlier hashbench, without "
		"paired timing).") != NULL, "%s", md);
	free(md);
	S_refused("x86_1/system.json", "\"precision_pct\": null", PAIRED("{\"anchor\": {}, "
		"\"passes\": 8, \"rounds\": 5}"), "campaign.paired.anchor: expected its instance and "
		"implementation");
	S_refused("x86_1/system.json", "\"precision_pct\": null", PAIRED("{\"anchor\": "
		"{\"instance\": \"SM3\", \"implementation\": \"reference\"}, \"passes\": \"8\", "
		"\"rounds\": 5}"), "campaign.paired.passes: expected an integer");
	S_refused("x86_1/system.json", "\"precision_pct\": null", PAIRED("{\"anchor\": "
		"{\"instance\": \"SM3\", \"implementation\": \"reference\"}, \"passes\": 8, "
		"\"rounds\": 5, \"schedule\": \"first\"}"), "campaign.paired.schedule: expected "
		"\"interleaved\" or \"after\"");
}

Test(headline, a_bad_precision_is_one_line_naming_system_json_and_field)
{
	S_refused("x86_1/system.json", "\"precision_pct\": null", "\"precision_pct\": \"2\"",
		"campaign.precision_pct: expected a number above 0 or null");
}
