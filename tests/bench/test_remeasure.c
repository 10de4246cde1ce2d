/* test_remeasure.c — a disturbed record measured again and marked, and the spread limit (the
 * campaign's count, the pages' mark), through quick campaigns of the toy fixture whose driver is
 * fake_measure.c: scripted sentinel readings and single-call samples, no clock, exact counts. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "figures.h"
#include "hbcampaign.h"
#include "support.h"

#define FIXTURES HBT_FIXTURES "/submissions"
#define PASSES 2 /* --passes: then at most MAX_RETRIES more */
/* what hb_sentinel_judge says of fake_measure's disturbed pass against its calm readings */
#define SLOWER "the sentinel after was 10.0 % slower than the machine's usual best (limit 3.0 %)"

static const char *const S_records[] = { "records/toy-1/toy_256__hash_32.json",
	"records/toy-1/toy_256.optimized__hash_32.json" };

typedef struct {
	hb_campaign_summary sum;
	char *sys;  /* the system's evidence folder */
	char *log;  /* what the campaign printed */
} S_run;

/* A quick campaign of toy-1 (two libraries) at sizes, every pass answered by fake_measure under
 * the script's name; asserts that it ran to its end. */
static void S_campaign(S_run *out, const char *name, const char *script, const char *sizes)
{
	char *root = hbt_tmpdir(name), *exe = hb_sprintf("%s/measure-%s", root, script);
	char *data = hb_path_join(root, "data"), *logp = hb_path_join(root, "progress.log");
	hb_campaign_opts o;
	hb_buf text;
	FILE *progress;
	int rc;

	cr_assert_eq(symlink(HBT_FAKE_MEASURE, exe), 0, "%s", exe);
	cr_assert_not_null(progress = fopen(logp, "w"));
	memset(&o, 0, sizeof(o));
	o.system = "fake";
	o.profile = "quick";
	o.passes = PASSES;
	o.submissions = FIXTURES;
	o.only = "toy-1";
	o.kat_sets = 1u << HB_KAT_2_23;
	o.sizes = sizes;
	o.data_dir = data;
	o.work = HBT_WORK "/remeasure-work";
	o.measure_exe = exe;
	o.env_root = "/";
	o.progress = progress;
	o.jobs = 1;
	o.fresh = 1;
	o.seed = HBT_FAKE_SEED; /* the fake tells each pass by its seeds */
	/* a lock of our own: another campaign on this CPU must not make this one wait */
	setenv("HASHBENCH_LOCK_DIR", root, 1);
	rc = hb_campaign_run(&out->sum, &o);
	fclose(progress);
	cr_assert_eq(hb_file_read(&text, logp), 0);
	out->log = hb_sprintf("%.*s", (int)text.len, (const char *)text.data);
	hb_buf_free(&text);
	cr_assert_eq(rc, 0, "%s\n%s", hb_error_last(), out->log);
	out->sys = hb_path_join(data, "fake");
	free(root);
	free(exe);
	free(data);
	free(logp);
}

static void S_run_free(S_run *r)
{
	free(r->sys);
	free(r->log);
}

/* The record of each library: its passes as calm ('c') or not ('d') in the order measured, its
 * disturbed passes kept as retries with the sentinel's reason, and its mark. */
static void S_expect_records(const S_run *r, const char *passes, int marked)
{
	size_t i, k, ndisturbed = 0;
	for (k = 0; passes[k]; k++)
		ndisturbed += passes[k] == 'd';
	for (i = 0; i < 2; i++) {
		json_t *rec = hbt_json_load(r->sys, S_records[i]), *p;
		json_t *list = json_object_get(rec, "passes"), *retries = json_object_get(rec, "retries");
		cr_expect_eq(json_array_size(list), strlen(passes), "%s: %zu passes, expected %zu (%s)",
			S_records[i], json_array_size(list), strlen(passes), passes);
		json_array_foreach(list, k, p) {
			cr_expect_eq(json_integer_value(json_object_get(p, "pass")), (json_int_t)k + 1);
			if (k < strlen(passes))
				cr_expect_eq(json_is_true(json_object_get(p, "calm")), passes[k] == 'c',
					"%s: pass %zu judged %s", S_records[i], k + 1,
					json_is_true(json_object_get(p, "calm")) ? "calm" : "disturbed");
		}
		cr_expect_eq(json_array_size(retries), ndisturbed, "%s: %zu retries, expected %zu",
			S_records[i], json_array_size(retries), ndisturbed);
		json_array_foreach(retries, k, p)
			cr_expect_str_eq(json_string_value(json_object_get(p, "reason")), SLOWER);
		cr_expect_eq(json_is_true(json_object_get(rec, "disturbed")), marked,
			"%s: disturbed is %s", S_records[i],
			json_is_true(json_object_get(rec, "disturbed")) ? "true" : "false");
		json_decref(rec);
	}
}

/* The campaign's counts of both libraries, in its summary, system.json and sentinel.json: 15
 * calibration readings and two a pass. */
static void S_expect_counts(const S_run *r, size_t passes, size_t remeasured, size_t disturbed)
{
	json_t *sys = hbt_json_load(r->sys, "system.json"), *trace;
	json_t *s = json_object_get(json_object_get(sys, "campaign"), "sentinel");

	cr_expect_eq(r->sum.remeasured, remeasured, "remeasured %zu", r->sum.remeasured);
	cr_expect_eq(r->sum.disturbed, disturbed, "disturbed %zu", r->sum.disturbed);
	cr_expect_eq(json_integer_value(json_object_get(s, "remeasured_records")),
		(json_int_t)remeasured);
	cr_expect_eq(json_integer_value(json_object_get(s, "disturbed_records")),
		(json_int_t)disturbed);
	cr_expect_eq(json_integer_value(json_object_get(s, "readings")), (json_int_t)(15 + 4 * passes));
	cr_expect_float_eq(json_number_value(json_object_get(s, "limit_pct")), 3.0, 1e-12);
	trace = hbt_json_load(r->sys, "sentinel.json");
	cr_expect_eq(json_array_size(json_object_get(trace, "readings")), 15 + 4 * passes,
		"%zu readings", json_array_size(json_object_get(trace, "readings")));
	json_decref(trace);
	json_decref(sys);
}

/* A campaign under script, whose passes the campaign judged as judged ('c' calm, 'd' not), each
 * pass after the first PASSES announced as one more, and no pass after those; marked: the records
 * stay disturbed. Every script starts disturbed, so both records count as measured again. */
static void S_scripted(const char *script, const char *judged, int marked)
{
	char *name = hb_sprintf("remeasure-%s", script), *line;
	size_t k, n = strlen(judged);
	S_run r;

	S_campaign(&r, name, script, "32");
	S_expect_records(&r, judged, marked);
	S_expect_counts(&r, n, 2, marked ? 2 : 0);
	for (k = PASSES + 1; k <= n; k++) {
		line = hb_sprintf("toy_256 (reference) pass %zu (more: a figure not yet confirmed)", k);
		cr_expect(strstr(r.log, line) != NULL, "no '%s' in: %s", line, r.log);
		free(line);
	}
	line = hb_sprintf("pass %zu", n + 1);
	cr_expect(strstr(r.log, line) == NULL, "a '%s': %s", line, r.log);
	free(line);
	free(name);
	S_run_free(&r);
}

Test(remeasure, a_calm_second_pass_confirms_without_another, .timeout = HBT_TIMEOUT(600))
{
	/* the disturbed pass stays as evidence among the record's retries */
	S_scripted("dc", "dc", 0);
}

Test(remeasure, two_disturbed_passes_get_exactly_one_more, .timeout = HBT_TIMEOUT(600))
{
	S_scripted("ddc", "ddc", 0);
}

Test(remeasure, the_last_pass_allowed_can_still_confirm, .timeout = HBT_TIMEOUT(600))
{
	S_scripted("dddc", "dddc", 0);
}

Test(remeasure, disturbed_to_the_cap_is_marked, .timeout = HBT_TIMEOUT(600))
{
	cr_assert_eq(MAX_RETRIES, 2, "this test scripts two passes and two more");
	/* the script would go on being disturbed: the campaign stops at MAX_RETRIES more passes */
	S_scripted("dddddd", "dddd", 1);
}

/* fake_measure spreads the single calls of a B-byte message B hundredths of a percent: 4.99,
 * exactly 5.00 and 5.01 % against the default limit of 5 %. Only what is above it counts. */
Test(remeasure, spread_just_above_the_limit_is_unstable, .timeout = HBT_TIMEOUT(600))
{
	static const char *const impl[] = { "reference", "optimized" };
	S_run r;
	size_t i;
	S_campaign(&r, "remeasure-spread", "cc", "499,500,501");
	cr_expect_eq(r.sum.unstable, 2, "one size of each library unstable, not %zu: %s",
		r.sum.unstable, r.log);
	for (i = 0; i < 2; i++) {
		char *above = hb_sprintf("toy_256 (%s) hash_501: spread 5.0 %% of the median, above "
			"5.0 %%", impl[i]);
		char *at = hb_sprintf("toy_256 (%s) hash_500: spread", impl[i]);
		char *below = hb_sprintf("toy_256 (%s) hash_499: spread", impl[i]);
		cr_expect(strstr(r.log, above) != NULL, "no '%s' in: %s", above, r.log);
		cr_expect(strstr(r.log, at) == NULL, "a spread at the limit flagged: %s", r.log);
		cr_expect(strstr(r.log, below) == NULL, "a spread inside the limit flagged: %s", r.log);
		free(above);
		free(at);
		free(below);
	}
	S_run_free(&r);
}

/* The same evidence as hashgen reads it: the figure whose spread is above the limit is the one
 * marked unstable on the pages. */
Test(remeasure, the_pages_mark_the_same_figure_unstable, .timeout = HBT_TIMEOUT(600))
{
	static const struct { unsigned long long bytes; double pct; int unstable; } want[] = {
		{ 499, 4.99, 0 }, { 500, 5.00, 0 }, { 501, 5.01, 1 } };
	char *data;
	S_run r;
	hg_data *d;
	hg_sysalg sa;
	hg_fig *figs;
	size_t i, k, n, seen = 0;

	S_campaign(&r, "remeasure-marks", "cc", "499,500,501");
	data = hb_path_join(r.sys, "..");
	cr_assert_eq(hg_data_load(&d, data), 0, "%s", hg_error_last());
	cr_assert_eq(d->nsystems, 1);
	cr_expect_float_eq(d->systems[0].spread_limit_pct, 5.0, 1e-12);
	cr_assert_eq(hg_sysalg_load(&sa, d, &d->systems[0], "toy-1"), 0, "%s", hg_error_last());
	cr_assert_eq(hg_figs_of(&figs, &n, d, &d->systems[0], "toy-1", &sa), 0, "%s",
		hg_error_last());
	for (i = 0; i < n; i++)
		for (k = 0; k < 3; k++)
			if (figs[i].message_bytes == want[k].bytes) {
				seen++;
				cr_expect_float_eq(figs[i].more->spread_pct, want[k].pct, 1e-9, "%s at %llu B: %g %%",
					figs[i].implementation, want[k].bytes, figs[i].more->spread_pct);
				cr_expect_eq(figs[i].more->unstable, want[k].unstable, "%s at %llu B: unstable %d",
					figs[i].implementation, want[k].bytes, figs[i].more->unstable);
			}
	cr_expect_eq(seen, 6, "two libraries at three sizes, not %zu figures", seen);
	hg_figs_free(figs, n);
	hg_sysalg_clear(&sa);
	hg_data_free(d);
	free(data);
	S_run_free(&r);
}
