/* test_history.c — a system's history of campaigns: the interval's floor drawn from crafted
 * histories (the yardsticks' spread, the sentinel's, too few campaigns, the bounds), a damaged
 * history.json named and left untouched, and quick campaigns of the toy fixture through
 * fake_measure.c (every sentinel reading 1 000 000 cycles): the entry each adds, the floor their
 * records carry and the line saying the machine is slower than its history. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "hbcampaign.h"
#include "support.h"

#define FIXTURES HBT_FIXTURES "/submissions"
#define RECORD "records/toy-1/toy_256__hash_32.json"
#define FAKE_SENTINEL 1000000.0 /* fake_measure's every reading */

/* A history entry on cpu 2, counter "tsc", started at minute `minute`. */
static json_t *S_entry(int minute, int cpu, double sentinel, json_t *yardsticks)
{
	char start[32];
	snprintf(start, sizeof(start), "2027-01-01T10:%02d:00Z", minute);
	return json_pack("{s:s, s:s, s:s, s:s, s:i, s:s, s:f, s:o}", "start", start, "end", start,
		"hashbench", "0.1.0 (git test)", "profile", "quick", "cpu", cpu, "counter", "tsc",
		"sentinel_best_cycles", sentinel, "yardsticks", yardsticks ? yardsticks : json_array());
}

static json_t *S_figure(const char *impl, int bytes, double cpb)
{
	return json_pack("[{s:s, s:s, s:i, s:f}]", "instance", "SM3", "implementation", impl,
		"message_bytes", bytes, "cycles_per_byte", cpb);
}

Test(history, floor_from_the_yardsticks_spread)
{
	/* log(cpb) 0.01 and 0.005 either side of the median, and a second figure twice as far:
	 * deviations 0, 0.5, 0.5, 1, 1 % and 0, 1, 1, 2, 2 %, pooled; 90 % of them lie within 2 %
	 * (the ninth of ten), the floor */
	static const double d[] = { -0.01, -0.005, 0, 0.005, 0.01 };
	json_t *h = json_array();
	hb_floor f;
	size_t i;

	for (i = 0; i < 5; i++) {
		json_t *y = S_figure("reference", 4096, 8.0 * exp(d[i]));
		/* a second figure, twice as spread: the deviations of both are pooled */
		json_array_extend(y, S_figure("openssl", 4096, 4.0 * exp(2 * d[i])));
		if (i < 2) /* a figure of two campaigns only does not count */
			json_array_extend(y, S_figure("openssl", 65536, i ? 4.0 : 9.0));
		json_array_append_new(h, S_entry((int)i, 2, FAKE_SENTINEL, y));
	}
	/* another CPU's campaign and this campaign's own earlier run are not its history */
	json_array_append_new(h, S_entry(30, 3, FAKE_SENTINEL, S_figure("reference", 4096, 80.0)));
	json_array_append_new(h, S_entry(31, 2, FAKE_SENTINEL, S_figure("reference", 4096, 80.0)));
	hb_history_floor(&f, h, 2, "tsc", "2027-01-01T10:31:00Z");
	cr_expect_str_eq(f.source, "history");
	cr_expect_eq(f.campaigns, 5);
	cr_expect_eq(f.figures, 2);
	cr_expect_float_eq(f.drift_pct, 2.0, 1e-9, "%f", f.drift_pct);
	cr_expect_float_eq(f.pct, 2.0, 1e-9, "%f", f.pct);
	/* another counter's readings are not comparable: no history */
	hb_history_floor(&f, h, 2, "perf-cycles", "2027-01-01T10:31:00Z");
	cr_expect_str_eq(f.source, "default");
	json_decref(h);
}

Test(history, floor_from_the_sentinel_without_yardsticks)
{
	json_t *h = json_array();
	hb_floor f;
	json_array_append_new(h, S_entry(0, 2, 1000, NULL));
	json_array_append_new(h, S_entry(1, 2, 1010, NULL));
	json_array_append_new(h, S_entry(2, 2, 990, NULL));
	hb_history_floor(&f, h, 2, "tsc", NULL);
	cr_expect_str_eq(f.source, "history");
	cr_expect_eq(f.figures, 0);
	cr_expect(strstr(f.why, "sentinel") != NULL, "%s", f.why);
	/* the farthest of three readings: 990 from the median 1000 */
	cr_expect_float_eq(f.drift_pct, -log(990.0 / 1000.0) * 100, 1e-9, "%f", f.drift_pct);
	cr_expect_float_eq(f.pct, f.drift_pct, 1e-9);
	json_decref(h);
}

Test(history, fewer_than_three_campaigns_give_the_default)
{
	json_t *h = json_array();
	hb_floor f;
	json_array_append_new(h, S_entry(0, 2, 1000, S_figure("reference", 4096, 8.0)));
	json_array_append_new(h, S_entry(1, 2, 1300, S_figure("reference", 4096, 9.0)));
	hb_history_floor(&f, h, 2, "tsc", NULL);
	cr_expect_float_eq(f.pct, 0.4, 1e-12);
	cr_expect_str_eq(f.source, "default");
	cr_expect_str_eq(f.why, "default (fewer than 3 earlier campaigns)");
	cr_expect_eq(f.campaigns, 0);
	cr_expect_lt(f.drift_pct, 0);
	hb_history_floor(&f, NULL, 2, "tsc", NULL);
	cr_expect_str_eq(f.source, "default");
	json_decref(h);
}

/* A noisy campaign whose own intervals said so (wide, unconfirmed) is left out of the drift: one
 * campaign 25 % slow among calm ones must not widen every later campaign's floor. */
Test(history, figures_their_campaign_marked_are_not_drift)
{
	json_t *h = json_array(), *y;
	hb_floor f;
	int i;
	for (i = 0; i < 6; i++) {
		y = S_figure("reference", 4096, i == 3 ? 10.0 : 8.0 * (1 + 0.001 * i));
		if (i == 3)
			json_object_set_new(json_array_get(y, 0), "interval_state", json_string("wide"));
		else
			json_object_set_new(json_array_get(y, 0), "interval_state", json_string("narrow"));
		json_array_append_new(h, S_entry(i, 2, 1000, y));
	}
	hb_history_floor(&f, h, 2, "tsc", NULL);
	cr_expect_str_eq(f.source, "history");
	cr_expect(f.pct < 0.5, "the wide figure moved the floor to %f", f.pct);
	/* the same history without the marks: the slow campaign is drift like any other */
	json_object_del(json_array_get(json_object_get(json_array_get(h, 3), "yardsticks"), 0),
		"interval_state");
	hb_history_floor(&f, h, 2, "tsc", NULL);
	cr_expect_gt(f.pct, 10 - 1e-9, "%f", f.pct);
	json_decref(h);
}

Test(history, floor_bounds)
{
	json_t *calm = json_array(), *wild = json_array();
	hb_floor f;
	int i;
	for (i = 0; i < 4; i++) {
		json_array_append_new(calm, S_entry(i, 2, 1000, S_figure("reference", 1024, 8.0)));
		json_array_append_new(wild, S_entry(i, 2, 1000, S_figure("reference", 1024,
			i % 2 ? 8.0 : 12.0)));
	}
	hb_history_floor(&f, calm, 2, "tsc", NULL);
	cr_expect_float_eq(f.pct, HB_HISTORY_FLOOR_MIN_PCT, 1e-12, "%f", f.pct);
	cr_expect_float_eq(f.drift_pct, 0, 1e-12);
	hb_history_floor(&f, wild, 2, "tsc", NULL);
	cr_expect_float_eq(f.pct, HB_HISTORY_FLOOR_MAX_PCT, 1e-12, "%f", f.pct);
	json_decref(calm);
	json_decref(wild);
}

Test(history, a_damaged_file_is_named_with_its_field)
{
	char *dir = hbt_tmpdir("history-load"), *path = hb_path_join(dir, "history.json");
	json_t *h = NULL;
	static const struct { const char *text, *says; } bad[] = {
		{ "{\"schema\": \"hashbench.history/1\", \"campaigns\": [{}]}", "campaigns[0].start: missing" },
		{ "{\"schema\": \"hashbench.history/1\", \"campaigns\": {}}", "campaigns: expected an array" },
		{ "{\"schema\": \"other\", \"campaigns\": []}", "schema: expected" },
		{ "{\"schema\": \"hashbench.history/1\", \"campaigns\": [", "history.json:1:" },
	};
	size_t i;
	char *good;

	cr_assert_eq(hb_history_load(&h, path), 0, "no file: an empty history");
	cr_expect_eq(json_array_size(h), 0);
	json_decref(h);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		hbt_write(path, bad[i].text, strlen(bad[i].text));
		cr_expect_lt(hb_history_load(&h, path), 0, "%s", bad[i].text);
		cr_expect(strstr(hb_error_last(), path) && strstr(hb_error_last(), bad[i].says),
			"%s: %s", bad[i].text, hb_error_last());
	}
	h = json_array();
	json_array_append_new(h, S_entry(0, 2, 1000, S_figure("reference", 4096, 8.0)));
	json_array_append_new(h, S_entry(1, 2, 1000, S_figure("reference", 4096, 8.0)));
	json_object_set_new(json_array_get(h, 1), "cpu", json_string("two"));
	good = json_dumps(json_pack("{s:s, s:o}", "schema", "hashbench.history/1", "campaigns", h),
		0);
	hbt_write(path, good, strlen(good));
	cr_expect_lt(hb_history_load(&h, path), 0);
	cr_expect(strstr(hb_error_last(), "campaigns[1].cpu: expected an integer"), "%s",
		hb_error_last());
	free(good);
	h = json_array();
	json_array_append_new(h, S_entry(0, 2, 1000, S_figure("reference", 4096, 8.0)));
	json_object_set_new(json_array_get(json_object_get(json_array_get(h, 0), "yardsticks"), 0),
		"interval_state", json_integer(1));
	good = json_dumps(json_pack("{s:s, s:o}", "schema", "hashbench.history/1", "campaigns", h),
		0);
	hbt_write(path, good, strlen(good));
	cr_expect_lt(hb_history_load(&h, path), 0);
	cr_expect(strstr(hb_error_last(), "campaigns[0].yardsticks[0].interval_state: expected a "
		"string"), "%s", hb_error_last());
	free(good);
	free(path);
	free(dir);
}

/* ---- campaigns ---- */

typedef struct {
	char *root, *data, *sys, *log;
} S_run;

/* A quick campaign (2 passes) of toy-1 at 32 bytes under root, fake_measure answering. */
static void S_campaign(S_run *out, const char *root)
{
	char *exe = hb_sprintf("%s/measure-c", root), *logp = hb_path_join(root, "progress.log");
	hb_campaign_summary sum;
	hb_campaign_opts o;
	hb_buf text;
	FILE *progress;
	int rc;

	if (access(exe, F_OK) != 0)
		cr_assert_eq(symlink(HBT_FAKE_MEASURE, exe), 0, "%s", exe);
	cr_assert_not_null(progress = fopen(logp, "w"));
	memset(&o, 0, sizeof(o));
	o.system = "fake";
	o.profile = "quick";
	o.passes = 2;
	o.seed = HBT_FAKE_SEED;
	o.submissions = FIXTURES;
	o.only = "toy-1";
	o.kat_sets = 1u << HB_KAT_2_23;
	o.sizes = "32";
	out->data = hb_path_join(root, "data");
	o.data_dir = out->data;
	o.work = HBT_WORK "/history-work";
	o.measure_exe = exe;
	o.env_root = "/";
	o.progress = progress;
	o.jobs = 1;
	o.fresh = 1; /* which leaves the history */
	setenv("HASHBENCH_LOCK_DIR", root, 1);
	rc = hb_campaign_run(&sum, &o);
	fclose(progress);
	cr_assert_eq(hb_file_read(&text, logp), 0);
	out->log = hb_sprintf("%.*s", (int)text.len, (const char *)text.data);
	hb_buf_free(&text);
	cr_assert_eq(rc, 0, "%s\n%s", hb_error_last(), out->log);
	cr_assert_gt(sum.measured, 0);
	out->sys = hb_path_join(out->data, "fake");
	free(exe);
	free(logp);
}

static void S_run_free(S_run *r)
{
	free(r->data);
	free(r->sys);
	free(r->log);
	memset(r, 0, sizeof(*r));
}

/* The record's interval floor and its source, and system.json's campaign.history. */
static void S_expect_floor(const S_run *r, double pct, const char *source, json_int_t campaigns)
{
	json_t *rec = hbt_json_load(r->sys, RECORD), *sys = hbt_json_load(r->sys, "system.json");
	json_t *iv = json_object_get(json_object_get(rec, "headline"), "interval");
	json_t *c = json_object_get(sys, "campaign"), *h = json_object_get(c, "history");
	cr_expect_float_eq(json_number_value(json_object_get(iv, "floor_pct")), pct, 1e-9);
	cr_expect_str_eq(json_string_value(json_object_get(iv, "floor_source")), source);
	cr_expect_geq(json_number_value(json_object_get(iv, "half_width_pct")), pct - 1e-12);
	cr_expect_float_eq(json_number_value(json_object_get(json_object_get(c, "interval"),
		"floor_pct")), pct, 1e-9);
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(c, "interval"),
		"floor_source")), source);
	cr_assert(json_is_object(h), "campaign.history");
	cr_expect_float_eq(json_number_value(json_object_get(h, "floor_pct")), pct, 1e-9);
	cr_expect_str_eq(json_string_value(json_object_get(h, "floor_source")), source);
	cr_expect_eq(json_integer_value(json_object_get(h, "campaigns")), campaigns);
	json_decref(rec);
	json_decref(sys);
}

Test(history, campaigns_write_it_and_draw_the_floor_from_it)
{
	char *root = hbt_tmpdir("history-run"), *path, *text;
	S_run r;
	json_t *h, *e, *list, *sys, *doc;
	int cpu, i;
	const char *counter;

	/* the first campaign: no history, the default floor, one entry written */
	S_campaign(&r, root);
	S_expect_floor(&r, 0.4, "default", 0);
	cr_expect_null(strstr(r.log, "than its history"), "%s", r.log);
	h = hbt_json_load(r.sys, "history.json");
	cr_expect_str_eq(json_string_value(json_object_get(h, "schema")), "hashbench.history/1");
	list = json_object_get(h, "campaigns");
	cr_assert_eq(json_array_size(list), 1);
	e = json_array_get(list, 0);
	sys = hbt_json_load(r.sys, "system.json");
	cr_expect_str_eq(json_string_value(json_object_get(e, "start")),
		json_string_value(json_object_get(json_object_get(sys, "campaign"), "start")));
	cr_expect_str_eq(json_string_value(json_object_get(e, "end")),
		json_string_value(json_object_get(json_object_get(sys, "campaign"), "end")));
	cr_expect_str_eq(json_string_value(json_object_get(e, "profile")), "quick");
	cr_expect_float_eq(json_number_value(json_object_get(e, "sentinel_best_cycles")),
		FAKE_SENTINEL, 1e-9);
	cr_expect_eq(json_array_size(json_object_get(e, "yardsticks")), 0, "toy is no yardstick");
	cpu = (int)json_integer_value(json_object_get(e, "cpu"));
	counter = json_string_value(json_object_get(e, "counter"));
	cr_assert_not_null(counter);
	cr_expect_eq(json_integer_value(json_object_get(e, "cpu")),
		json_integer_value(json_array_get(json_object_get(json_object_get(sys, "campaign"),
		"timing_cpus"), 0)));

	/* fifty earlier campaigns whose sentinel best was 950 000 cycles, three in five of them
	 * exactly: no drift, so the least floor, and this machine (1 000 000) is 5.3 % slower */
	list = json_array();
	for (i = 0; i < HB_HISTORY_KEEP; i++) {
		json_t *x = S_entry(i, cpu, i % 5 < 3 ? 950000 : i % 5 == 3 ? 949050 : 950950, NULL);
		json_object_set_new(x, "counter", json_string(counter));
		json_array_append_new(list, x);
	}
	doc = json_pack("{s:s, s:s, s:o}", "schema", "hashbench.history/1", "system", "fake",
		"campaigns", list);
	path = hb_path_join(r.sys, "history.json");
	cr_assert_eq(hb_json_write(path, doc), 0);
	json_decref(doc);
	json_decref(h);
	json_decref(sys);
	S_run_free(&r);

	S_campaign(&r, root);
	S_expect_floor(&r, HB_HISTORY_FLOOR_MIN_PCT, "history", HB_HISTORY_KEEP);
	text = hb_sprintf("this machine is 5.3 %% slower than its history (median of %d campaigns' "
		"sentinel best on CPU %d)", HB_HISTORY_KEEP, cpu);
	cr_expect(strstr(r.log, text) != NULL, "%s", r.log);
	free(text);
	sys = hbt_json_load(r.sys, "system.json");
	h = json_object_get(json_object_get(sys, "campaign"), "history");
	cr_expect_float_eq(json_number_value(json_object_get(h, "speed_vs_history_pct")),
		(FAKE_SENTINEL / 950000 - 1) * 100, 1e-9);
	cr_expect(json_is_number(json_object_get(h, "drift_pct")));
	json_decref(sys);
	/* the last fifty kept: the oldest gone, this campaign the last */
	h = hbt_json_load(r.sys, "history.json");
	list = json_object_get(h, "campaigns");
	cr_expect_eq(json_array_size(list), HB_HISTORY_KEEP);
	cr_expect_str_eq(json_string_value(json_object_get(json_array_get(list, 0), "start")),
		"2027-01-01T10:01:00Z");
	cr_expect_float_eq(json_number_value(json_object_get(json_array_get(list, HB_HISTORY_KEEP -
		1), "sentinel_best_cycles")), FAKE_SENTINEL, 1e-9);
	json_decref(h);
	free(path);
	S_run_free(&r);
	free(root);
}

Test(history, a_damaged_history_is_left_untouched_and_said)
{
	char *root = hbt_tmpdir("history-bad"), *sys = hb_sprintf("%s/data/fake", root);
	char *path = hb_path_join(sys, "history.json"), *said;
	static const char bad[] = "{\"schema\": \"hashbench.history/1\", \"campaigns\": "
		"[{\"start\": \"2027-01-01T10:00:00Z\", \"end\": \"x\", \"hashbench\": \"x\", "
		"\"profile\": \"quick\", \"counter\": \"tsc\", \"cpu\": \"two\"}]}\n";
	hb_buf after;
	S_run r;

	cr_assert_eq(hb_mkdir_p(sys), 0);
	hbt_write(path, bad, sizeof(bad) - 1);
	S_campaign(&r, root);
	said = hb_sprintf("warning: %s: campaigns[0].cpu: expected an integer of 0 or more; it is "
		"left as it is", path);
	cr_expect(strstr(r.log, said) != NULL, "%s", r.log);
	cr_assert_eq(hb_file_read(&after, path), 0);
	cr_expect_eq(after.len, sizeof(bad) - 1);
	cr_expect(after.len == sizeof(bad) - 1 && memcmp(after.data, bad, after.len) == 0,
		"history.json was rewritten");
	S_expect_floor(&r, 0.4, "default", 0);
	hb_buf_free(&after);
	free(said);
	free(path);
	free(sys);
	S_run_free(&r);
	free(root);
}
