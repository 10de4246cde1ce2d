/* test_campaign.c — `hashbench run`: the calibration rule, the ELF size, records of a run over
 * broken packages (crash, hang, overflow, wrong KAT, no build, a jittery call), the headline
 * figure, a guide run, kill -9 at the third record write and the resume, and bad arguments that
 * must leave the evidence on disk untouched. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "hbcampaign.h"
#include "hbtiming.h"
#include "support.h"

#define FIXTURES HBT_FIXTURES "/submissions"

Test(campaign, calibration_rule)
{
	/* 0.6 s rounds, at most 20 000 calls: the sample reports' 5 × 20000 and 5 × 2451 */
	cr_expect_eq(hb_calls_per_round(506.0, 600e6, 20000), 20000);
	cr_expect_eq(hb_calls_per_round(244800.0, 600e6, 20000), 2451);
	cr_expect_eq(hb_calls_per_round(30000.0, 600e6, 20000), 20000);
	cr_expect_eq(hb_calls_per_round(1e9, 600e6, 20000), 1, "a call slower than a round: one call");
	cr_expect_eq(hb_calls_per_round(0.0, 600e6, 20000), 20000, "no estimate: the cap");
	cr_expect_eq(hb_calls_per_round(1000.0, 40e6, 20000), 20000);
	cr_expect_eq(hb_calls_per_round(10000.0, 40e6, 20000), 4000);
}

Test(campaign, elf_size_is_the_pt_load_sum_readelf_shows)
{
	const char *lib = hbt_library("SM3");
	unsigned long long mine = 0, theirs = 0;
	char *cmd = hb_sprintf("readelf -lW '%s' | awk '$1 == \"LOAD\" { print $6 }'", lib);
	FILE *p = popen(cmd, "r");
	unsigned long long memsz;
	int segments = 0;
	cr_assert_not_null(p);
	while (fscanf(p, "%llx", &memsz) == 1) {
		theirs += memsz;
		segments++;
	}
	pclose(p);
	cr_assert_gt(segments, 0, "readelf showed no LOAD segment");
	cr_assert_eq(hb_elf_load_size(&mine, lib), 0, "%s", hb_error_last());
	cr_expect_gt(mine, 4096);
	cr_expect_eq(mine, theirs, "hashbench %llu bytes, readelf %llu", mine, theirs);
	cr_expect_neq(hb_elf_load_size(&mine, HBT_FIXTURES "/submissions/toy/algorithm.json"), 0);
	cr_expect(strstr(hb_error_last(), "not an ELF file") != NULL, "%s", hb_error_last());
	free(cmd);
}

#define S_load hbt_json_load

static const char *S_str(json_t *j, const char *key)
{
	const char *s = json_string_value(json_object_get(j, key));
	return s ? s : "(none)";
}

static int S_exists(const char *dir, const char *rel)
{
	char *path = hb_path_join(dir, rel);
	int yes = access(path, F_OK) == 0;
	free(path);
	return yes;
}

/* The guide's mean: Σcycles / Σiterations over the trials. */
static double S_mean_cycles(json_t *rec)
{
	double c = 0, it = 0;
	size_t i;
	json_t *t;
	json_array_foreach(json_object_get(rec, "trials"), i, t) {
		c += (double)json_integer_value(json_object_get(t, "cycles"));
		it += (double)json_integer_value(json_object_get(t, "iterations"));
	}
	return it > 0 ? c / it : -1;
}

static int S_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The headline is the fastest of the passes' fastest blocks, so never above the mean nor below
 * the fastest block; its interval spans it ± the distance to the order-th fastest pass (never
 * less than the floor), holds a calm pass unless unconfirmed, and the record is disturbed
 * exactly when it is unconfirmed. */
static void S_expect_headline(json_t *rec, double bytes)
{
	json_t *h = json_object_get(rec, "headline"), *passes = json_object_get(rec, "passes"), *p;
	json_t *iv = json_object_get(h, "interval");
	double best = -1, fastest = -1, head = json_number_value(json_object_get(h, "cycles_per_call"));
	double high = json_number_value(json_object_get(iv, "high_cycles_per_call"));
	double low = json_number_value(json_object_get(iv, "low_cycles_per_call"));
	double half = json_number_value(json_object_get(iv, "half_width_pct"));
	/* the campaign's floor: the default, or drawn from the system's history (test_history.c) */
	double floor_pct = json_number_value(json_object_get(iv, "floor_pct"));
	const char *state = json_string_value(json_object_get(iv, "state"));
	size_t i, below_high = 0, calm_inside = 0, order;
	json_t *t;

	cr_assert(json_is_object(h), "a record has a headline");
	cr_expect_str_eq(json_string_value(json_object_get(h, "estimator")), "min-of-pass-minima");
	json_array_foreach(passes, i, p) {
		double m = json_number_value(json_object_get(p, "min_cycles_per_call"));
		if (best < 0 || m < best)
			best = m;
	}
	cr_expect_float_eq(head, best, 1e-9 * head, "the fastest pass");
	cr_assert(json_is_object(iv), "a headline has its interval");
	cr_assert_not_null(state);
	order = (size_t)json_integer_value(json_object_get(iv, "order"));
	cr_expect_eq(order, hb_interval_order(json_array_size(passes)));
	cr_expect(floor_pct >= HB_HISTORY_FLOOR_MIN_PCT && floor_pct <= HB_HISTORY_FLOOR_MAX_PCT,
		"floor %f", floor_pct);
	cr_expect(half >= floor_pct - 1e-12, "half-width %f below the floor", half);
	cr_expect_float_eq(low, half < 100 ? head * (1 - half / 100) : 0, 1e-9 * head);
	cr_expect_float_eq(high, head * (1 + half / 100), 1e-9 * head);
	cr_expect_float_eq(json_number_value(json_object_get(iv, "high_cycles_per_byte")),
		high / bytes, 1e-9 * high);
	/* whether a calm pass vouches for the figure is decided on the interval before an
	 * unconfirmed one is widened to the sentinel's slowdown: head ± the distance to the
	 * order-th fastest pass, never less than the floor */
	{
		size_t np = 0;
		double *m = calloc(json_array_size(passes) + 1, sizeof(double)), w0, decide;
		json_array_foreach(passes, i, p) {
			double v = json_number_value(json_object_get(p, "min_cycles_per_call"));
			if (v > 0)
				m[np++] = v;
		}
		qsort(m, np, sizeof(double), S_cmp_double);
		cr_assert(np >= order && order >= 1, "%zu passes, order %zu", np, order);
		w0 = (m[order - 1] - m[0]) / m[0] * 100;
		if (w0 < floor_pct)
			w0 = floor_pct;
		decide = m[0] * (1 + w0 / 100) * (1 + 1e-12);
		free(m);
		json_array_foreach(passes, i, p) {
			double v = json_number_value(json_object_get(p, "min_cycles_per_call"));
			below_high += v <= high * (1 + 1e-12);
			calm_inside += v <= decide && json_is_true(json_object_get(p, "calm"));
		}
	}
	cr_expect(below_high >= order || strcmp(state, "unconfirmed") == 0,
		"%zu passes inside an interval bounded by the pass of order %zu", below_high, order);
	cr_expect_eq(strcmp(state, "unconfirmed") == 0, calm_inside == 0 ||
		json_array_size(passes) < 2, "%s with %zu calm passes inside the interval it was "
		"decided on", state, calm_inside);
	cr_expect_eq(json_is_true(json_object_get(rec, "disturbed")),
		strcmp(state, "unconfirmed") == 0, "disturbed exactly when unconfirmed (%s)", state);
	if (strcmp(state, "unconfirmed") != 0)
		cr_expect_eq(strcmp(state, "wide") == 0, half > 2.0, "%s at ± %f %%", state, half);
	json_array_foreach(json_object_get(rec, "trials"), i, t) {
		double c = (double)json_integer_value(json_object_get(t, "cycles")) /
			(double)json_integer_value(json_object_get(t, "iterations"));
		if (fastest < 0 || c < fastest)
			fastest = c;
	}
	cr_expect(head <= S_mean_cycles(rec) * (1 + 1e-9), "headline %.1f above the mean %.1f", head,
		S_mean_cycles(rec));
	cr_expect(head <= fastest * (1 + 1e-9), "headline %.1f above the fastest kept block %.1f",
		head, fastest);
	cr_expect_float_eq(json_number_value(json_object_get(h, "cycles_per_byte")), head / bytes,
		1e-9 * head);
}

/* The retries are exactly the record's disturbed passes, each as its pass summary has it (the
 * same pass, reason, times and number of blocks); the figures hold the calm passes' blocks
 * alone when there is one, and a record with no calm pass is disturbed. Which passes are
 * disturbed is the machine's doing: the consistency is certain. */
static void S_expect_retries(json_t *rec, const char *what)
{
	json_t *passes = json_object_get(rec, "passes"), *retries = json_object_get(rec, "retries");
	json_t *p, *r;
	size_t i, k = 0, calm = 0, blocks_calm = 0, blocks_all = 0;

	cr_assert(json_is_array(passes) && json_is_array(retries), "%s: passes and retries", what);
	json_array_foreach(passes, i, p) {
		size_t blocks = (size_t)json_integer_value(json_object_get(p, "blocks"));
		json_int_t pass = json_integer_value(json_object_get(p, "pass"));
		const char *reason = json_string_value(json_object_get(p, "reason"));
		blocks_all += blocks;
		if (json_is_true(json_object_get(p, "calm"))) {
			calm++;
			blocks_calm += blocks;
			cr_expect_null(reason, "%s: calm pass %lld with a reason: %s", what,
				(long long)pass, reason);
			continue;
		}
		r = json_array_get(retries, k++);
		cr_assert_not_null(r, "%s: disturbed pass %lld is not among the retries", what,
			(long long)pass);
		cr_expect_eq(json_integer_value(json_object_get(r, "pass")), pass,
			"%s: retry %zu names another pass", what, k);
		cr_expect(reason && *reason, "%s: disturbed pass %lld without a reason", what,
			(long long)pass);
		cr_expect_str_eq(S_str(r, "reason"), reason ? reason : "(none)", "%s: pass %lld", what,
			(long long)pass);
		cr_expect_str_eq(S_str(r, "started"), S_str(p, "started"), "%s", what);
		cr_expect_str_eq(S_str(r, "finished"), S_str(p, "finished"), "%s", what);
		cr_expect_eq(json_array_size(json_object_get(r, "trials")), blocks, "%s: pass %lld",
			what, (long long)pass);
		cr_expect_eq(json_array_size(json_object_get(r, "load_before")), 3, "%s", what);
		cr_expect_eq(json_array_size(json_object_get(r, "load_after")), 3, "%s", what);
	}
	cr_expect_eq(json_array_size(retries), k, "%s: %zu retries for %zu disturbed passes", what,
		json_array_size(retries), k);
	cr_expect_eq(json_array_size(json_object_get(rec, "trials")), calm ? blocks_calm : blocks_all,
		"%s: the figures' blocks are those of the %s", what, calm ? "calm passes" :
		"passes (none calm)");
	if (!calm)
		cr_expect(json_is_true(json_object_get(rec, "disturbed")),
			"%s: no pass was calm, yet the record is not disturbed", what);
}

static void S_expect_sums_verify(const char *sysdir)
{
	char *cmd = hb_sprintf("cd '%s' && sha256sum --quiet -c SHA256SUMS", sysdir);
	cr_expect_eq(system(cmd), 0, "SHA256SUMS does not verify in %s", sysdir);
	free(cmd);
}

/* The campaign over the fixture packages in data/fx: 1 when some failed, as they should. */
static int S_run_fixtures(char **err, const char *data, const char *submissions,
	const char *limit, const char *sizes)
{
	const char *args[] = { "run", "--system", "fx", "--profile", "quick", "--submissions",
		submissions, "--data", data, "--sets", "2_23,loop", "--time-failed", "--sizes", sizes,
		"--time-limit", limit, NULL };
	char *out;
	int status = hbt_cli(&out, err, NULL, args);
	free(out);
	return status;
}

Test(campaign, broken_packages_are_recorded_and_the_campaign_goes_on, .timeout = HBT_TIMEOUT(300))
{
	/* the libraries that return get ten times what their slowest child takes here (a KAT file,
	 * 2 s); the one that never does runs alone, where a short limit costs nothing */
	char *data = hbt_tmpdir("broken"), *sys = hb_path_join(data, "fx"), *err;
	char *hdata = hbt_tmpdir("broken-hang"), *hsys = hb_path_join(hdata, "fx");
	char *limit = hbt_time_limit(30);
	int status = S_run_fixtures(&err, data, FIXTURES, limit, "32,1024");
	json_t *j;

	cr_expect_eq(status, 1, "a campaign with failures ends non-zero");
	cr_expect(strstr(err, "campaign fx finished: ") != NULL, "%s", err);
	cr_expect(strstr(err, "1 did not build") != NULL, "%s", err);
	free(err);
	cr_expect_eq(S_run_fixtures(&err, hdata, HBT_FIXTURES "/hanging", "1", "1024"), 1, "%s", err);
	free(err);

	j = S_load(sys, "records/toy-1/toy_256__hash_1024.json");
	cr_expect_str_eq(S_str(j, "status"), "ok");
	cr_expect_str_eq(S_str(j, "kat"), "PASS");
	json_decref(j);
	j = S_load(sys, "records/toy-1/toy_256.optimized__hash_32.json");
	cr_expect_str_eq(S_str(j, "implementation"), "optimized");
	json_decref(j);

	j = S_load(sys, "records/misbehave/crash_256__hash_1024.json");
	cr_expect_str_eq(S_str(j, "status"), "crash");
	cr_expect_str_eq(S_str(j, "detail"), "the library crashed (signal 11, Segmentation fault)");
	cr_expect_str_eq(S_str(j, "kat"), "ERROR", "a timed failed library carries its KAT result");
	cr_expect_eq(json_array_size(json_object_get(j, "trials")), 0);
	json_decref(j);
	j = S_load(sys, "records/misbehave/crash_256__hash_32.json");
	cr_expect_str_eq(S_str(j, "status"), "ok", "short messages do not crash it");
	json_decref(j);
	j = S_load(hsys, "records/hang/hang_256__hash_1024.json");
	cr_expect_str_eq(S_str(j, "status"), "timeout");
	cr_expect_str_eq(S_str(j, "detail"), "no result after 1 s: the child was killed");
	json_decref(j);
	j = S_load(sys, "records/misbehave/overflow_256__hash_32.json");
	cr_expect_str_eq(S_str(j, "status"), "error");
	cr_expect(strstr(S_str(j, "detail"), "wrote outside its 32-byte output buffer"), "%s",
		S_str(j, "detail"));
	json_decref(j);

	j = S_load(sys, "records/misbehave/jitter_256__hash_32.json");
	cr_expect_str_eq(S_str(j, "status"), "ok");
	{
		/* a quarter of its calls ten times slower: the guide's mean takes them in (about 3x the
		 * fast calls), the headline, each pass's fastest block, does not */
		double mean = S_mean_cycles(j), head = json_number_value(json_object_get(
			json_object_get(j, "headline"), "cycles_per_call"));
		cr_expect(head > 0, "headline %.0f cycles", head);
		/* under emulation the counter (cntvct, 62.5 MHz) ticks every ~50 host cycles: too
		 * coarse for the slow quarter to show */
		if (!hb_emulated())
			cr_expect(head < 0.5 * mean, "headline %.0f cycles, mean %.0f", head, mean);
	}
	json_decref(j);
	j = S_load(sys, "records/toy-1/toy_256__hash_32.json");
	/* a busy machine may disturb any pass: only the shape is certain; 10 passes, at most 2
	 * more, the disturbed ones kept */
	cr_expect(json_is_boolean(json_object_get(j, "disturbed")));
	cr_expect(json_array_size(json_object_get(j, "passes")) >= 10 &&
		json_array_size(json_object_get(j, "passes")) <= 12, "%zu passes",
		json_array_size(json_object_get(j, "passes")));
	S_expect_retries(j, "toy_256__hash_32");
	cr_expect_eq(json_array_size(json_object_get(j, "samples")), 51,
		"51 single-call samples, of the fastest pass");
	S_expect_headline(j, 32);
	cr_expect_eq(json_array_size(json_object_get(json_object_get(j, "environment"),
		"load_before")), 3, "the load average before the record");
	/* the driver ran from the descriptor opened at start: execveat works on this machine;
	 * qemu-user has none, and the child runs the same open file as /proc/self/fd/N */
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(j, "environment"),
		"driver_start")) ?: "(none)", hb_emulated() ? "/proc/self/fd" : "execveat");
	json_decref(j);
	j = S_load(sys, "system.json");
	/* reading the counter costs cycles; under emulation less than one tick of cntvct */
	cr_expect(json_integer_value(json_object_get(json_object_get(j, "overhead"),
		"counter_read_cycles")) > 0 || hb_emulated());
	cr_expect(json_real_value(json_object_get(json_object_get(j, "overhead"),
		"empty_call_cycles")) > 0, "the null instance was timed");
	cr_expect(json_is_false(json_object_get(json_object_get(j, "overhead"), "subtracted")));
	json_decref(j);

	j = S_load(sys, "kat/toy-wrong/toy_wrong_256.json");
	cr_expect_str_eq(S_str(j, "result"), "FAIL");
	cr_expect(strncmp(S_str(j, "detail"), "KAT_2_23: Msg_Len = 8388608: Dst differs", 40) == 0);
	json_decref(j);
	j = S_load(hsys, "kat/hang/hang_256.json");
	cr_expect_str_eq(S_str(j, "result"), "ERROR");
	{
		json_t *loop = json_array_get(json_object_get(j, "files"), 1);
		cr_expect_str_eq(S_str(loop, "name"), "KAT_Loop_hang_256.txt");
		cr_expect_str_eq(S_str(loop, "detail"),
			"KAT_Loop: no result after 1 s (time limit), stopped");
	}
	json_decref(j);
	j = S_load(sys, "kat/nobuild/nobuild_256.json");
	cr_expect_str_eq(S_str(j, "result"), "ERROR");
	cr_expect(strstr(S_str(j, "detail"), "undeclared_variable") != NULL);
	json_decref(j);
	cr_expect(S_exists(sys, "kat/nobuild/nobuild_256.log"));
	cr_expect(!S_exists(sys, "records/nobuild"), "a library that did not build is not timed");
	cr_expect(S_exists(sys, "kat/toy-1/kat.sha256"));
	cr_expect(S_exists(data, "algorithms/toy-1.json"));

	cr_expect_gt(hbt_evidence_check_tree(data), 20);
	cr_expect_gt(hbt_evidence_check_tree(hdata), 3);
	S_expect_sums_verify(sys);
	S_expect_sums_verify(hsys);
	free(sys);
	free(data);
	free(hsys);
	free(hdata);
	free(limit);
}

Test(campaign, a_failed_kat_is_not_timed_without_time_failed, .timeout = HBT_TIMEOUT(120))
{
	char *data = hbt_tmpdir("notimed"), *sys = hb_path_join(data, "fx"), *out, *err;
	const char *args[] = { "run", "--system", "fx", "--profile", "quick", "--submissions",
		FIXTURES, "--only", "toy-wrong", "--data", data, "--sets", "2_23", "--sizes", "32", NULL };
	cr_expect_eq(hbt_cli(&out, &err, NULL, args), 1);
	cr_expect(strstr(err, "toy_wrong_256 (reference): KAT FAIL, not timed") != NULL, "%s", err);
	cr_expect(!S_exists(sys, "records/toy-wrong/toy_wrong_256__hash_32.json"));
	cr_expect(S_exists(sys, "kat/toy-wrong/toy_wrong_256.json"));
	free(out);
	free(err);
	free(sys);
	free(data);
}

/* Calls per block calibrated to 1 ms blocks by the rule (calibration_rule): every block and every
 * pass times the calibrated count. Where the record's calibration is the pass that made it
 * (not given), the count is the rule applied to that pass's own warm-up (its 20 ms); where pass
 * 1 made it and this pass was given it, the rule on this pass's warm-up may differ by what the
 * machine did between them, a factor of 10 at most. How long the blocks took is not checked. */
static void S_expect_calibration(json_t *rec, const char *what)
{
	json_t *cal = json_object_get(rec, "calibration"), *t;
	json_int_t calls = json_integer_value(json_object_get(cal, "calls_per_round")), rule;
	double warm_ns = (double)json_integer_value(json_object_get(cal, "warmup_ns"));
	double warm_calls = (double)json_integer_value(json_object_get(cal, "warmup_calls"));
	size_t i;

	cr_assert(json_is_object(cal), "%s: a calibration", what);
	cr_expect_eq(json_number_value(json_object_get(cal, "round_ms")), 1.0, "%s: 1 ms blocks", what);
	cr_expect_eq(json_integer_value(json_object_get(cal, "max_calls")), 20000, "%s", what);
	cr_expect(calls >= 1 && calls <= 20000, "%s: %lld calls", what, (long long)calls);
	json_array_foreach(json_object_get(rec, "trials"), i, t)
		cr_expect_eq(json_integer_value(json_object_get(t, "iterations")), calls,
			"%s: block %zu does not time the calibrated calls", what, i);
	json_array_foreach(json_object_get(rec, "passes"), i, t)
		cr_expect_eq(json_integer_value(json_object_get(t, "calls_per_block")), calls,
			"%s: pass %zu", what, i + 1);
	cr_expect(warm_ns >= 20e6 && warm_calls >= 1, "%s: a warm-up of %.0f ns, %.0f calls", what,
		warm_ns, warm_calls);
	rule = (json_int_t)hb_calls_per_round(warm_ns / warm_calls, 1e6, 20000);
	if (json_is_false(json_object_get(cal, "given")))
		cr_expect_eq(rule, calls, "%s: %lld calls, the rule gives %lld for %.1f ns a call",
			what, (long long)calls, (long long)rule, warm_ns / warm_calls);
	else
		cr_expect(calls <= 10 * rule && rule <= 10 * calls, "%s: %lld calls given, the rule "
			"gives %lld for this pass's %.1f ns a call", what, (long long)calls,
			(long long)rule, warm_ns / warm_calls);
}

Test(campaign, guide_profile_passes, .timeout = HBT_TIMEOUT(300))
{
	char *data = hbt_tmpdir("guide"), *sys = hb_path_join(data, "g"), *out, *err;
	const char *args[] = { "run", "--system", "g", "--profile", "guide", "--only", "sm3",
		"--data", data, "--sizes", "32,65536", NULL };
	json_t *j;

	cr_assert_eq(hbt_cli(&out, &err, NULL, args), 0, "%s", err);
	j = S_load(sys, "records/sm3/SM3__hash_32.json");
	/* every pass times the same blocks: 60 of one calls-per-block count */
	cr_expect(json_array_size(json_object_get(j, "trials")) >= 60 &&
		json_array_size(json_object_get(j, "trials")) % 60 == 0, "%zu blocks",
		json_array_size(json_object_get(j, "trials")));
	S_expect_headline(j, 32);
	S_expect_calibration(j, "SM3__hash_32");
	S_expect_retries(j, "SM3__hash_32");
	json_decref(j);
	j = S_load(sys, "records/sm3/SM3__hash_65536.json");
	cr_expect_geq(json_array_size(json_object_get(j, "passes")), 10, "ten passes, or more");
	S_expect_calibration(j, "SM3__hash_65536");
	S_expect_headline(j, 65536);
	S_expect_retries(j, "SM3__hash_65536");
	cr_expect_str_eq(S_str(j, "profile"), "guide");
	cr_expect_str_eq(json_string_value(json_array_get(json_object_get(j, "command"), 0)),
		"hashbench-measure");
	json_decref(j);
	j = S_load(sys, "system.json");
	cr_expect_str_eq(S_str(json_object_get(j, "campaign"), "profile"), "guide");
	cr_expect(json_is_string(json_object_get(json_object_get(j, "campaign"), "end")));
	json_decref(j);
	hbt_evidence_check_tree(data);
	S_expect_sums_verify(sys);
	free(out);
	free(err);
	free(sys);
	free(data);
}

static char *S_slurp(const char *dir, const char *name)
{
	char *path = hb_path_join(dir, name);
	hb_buf buf;
	cr_assert_eq(hb_file_read(&buf, path), 0, "%s", hb_error_last());
	free(path);
	return (char *)buf.data;
}

/* The entries of dir whose names contain part. */
static size_t S_count_named(const char *dir, const char *part)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;
	cr_assert_not_null(d, "%s", dir);
	while ((de = readdir(d)) != NULL)
		n += strstr(de->d_name, part) != NULL;
	closedir(d);
	return n;
}

/* Hold the campaign pid at the open of its record write number n + 1 (each record is written to
 * a temporary file first): fan has a permission mark on the records folder, so every open there
 * waits for an answer; the first n writes are let through, the next is never answered. Returns
 * the process held there. No clock decides anything: the bound on the wait only ends a campaign
 * that never gets there (a normal one writes its records 4 s after it starts). */
static pid_t S_hold_record_write(int fan, pid_t pid, int n)
{
	pid_t held = 0;
	int writes = 0, polls, status;

	for (polls = 0; !held && polls < 240; polls++) {
		struct pollfd pf = { .fd = fan, .events = POLLIN };
		struct fanotify_event_metadata *m;
		char buf[4096];
		ssize_t len;

		if (poll(&pf, 1, 1000) <= 0) {
			cr_assert_eq(waitpid(pid, &status, WNOHANG), 0,
				"the campaign ended before its record write %d", n + 1);
			continue;
		}
		len = read(fan, buf, sizeof(buf));
		cr_assert_gt(len, 0, "fanotify: %s", strerror(errno));
		for (m = (struct fanotify_event_metadata *)buf; FAN_EVENT_OK(m, len);
			m = FAN_EVENT_NEXT(m, len)) {
			struct fanotify_response allow = { .fd = m->fd, .response = FAN_ALLOW };
			char link[64], path[4096];
			ssize_t k;
			snprintf(link, sizeof(link), "/proc/self/fd/%d", m->fd);
			k = readlink(link, path, sizeof(path) - 1);
			path[k > 0 ? k : 0] = 0;
			if (!held && strstr(path, ".tmp.") && ++writes > n)
				held = m->pid;
			else
				cr_assert_eq(write(fan, &allow, sizeof(allow)), (ssize_t)sizeof(allow));
			close(m->fd);
		}
	}
	cr_assert(held, "the campaign did not get to its record write %d in 240 s", n + 1);
	return held;
}

Test(campaign, killed_and_resumed_measures_nothing_twice, .timeout = HBT_TIMEOUT(300))
{
	static const char *names[] = { "SM3__hash_32.json", "SM3__hash_128.json",
		"SM3__hash_512.json", "SM3__hash_1024.json", "SM3__hash_4096.json",
		"SM3.openssl__hash_32.json", "SM3.openssl__hash_128.json", "SM3.openssl__hash_512.json",
		"SM3.openssl__hash_1024.json", "SM3.openssl__hash_4096.json", NULL };
	char *data = hbt_tmpdir("resume"), *sys = hb_path_join(data, "kr");
	char *recdir = hb_path_join(sys, "records/sm3"), *before[10] = { 0 }, *out, *err;
	const char *argv[] = { HBT_HASHBENCH, "run", "--system", "kr", "--profile", "quick",
		"--only", "sm3", "--data", data, "--sizes", "32,128,512,1024,4096", NULL };
	size_t i, kept = 0;
	pid_t pid, held;
	int status, fan;

	/* the kill lands at an event, the third record write: the records are written one after
	 * another (one timing CPU), so exactly two are whole and the third is begun */
	cr_assert_eq(hb_mkdir_p(recdir), 0);
	HBT_SKIP_UNDER_EMULATION("fanotify(7), which holds the campaign at a record");
	fan = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC | FAN_NONBLOCK, O_RDONLY | O_CLOEXEC);
	if (fan < 0 || fanotify_mark(fan, FAN_MARK_ADD, FAN_OPEN_PERM | FAN_EVENT_ON_CHILD,
			AT_FDCWD, recdir) != 0) {
		if (errno == EPERM)
			cr_skip_test("needs root for fanotify permission events (CI runs as root)");
		cr_skip_test("this kernel has no fanotify permission events: %s", strerror(errno));
	}
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		int devnull = open("/dev/null", 1);
		dup2(devnull, 2);
		setenv("HASHBENCH_WORK", HBT_WORK, 1);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	held = S_hold_record_write(fan, pid, 2);
	kill(pid, SIGKILL);
	kill(held, SIGKILL);
	waitpid(pid, &status, 0);
	close(fan);
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "status %d", status);
	/* the records there are whole; the one begun is only its temporary file, which no reader
	 * takes for a record and the resume removes */
	cr_expect_eq(hbt_count_records(recdir), 2, "the two records written before the kill");
	cr_expect_eq(S_count_named(recdir, ".tmp."), 1, "the record begun when the kill came");
	for (i = 0; names[i]; i++) {
		char *p = hb_path_join(recdir, names[i]), *why = NULL;
		if (access(p, F_OK) == 0) {
			cr_expect_eq(hbt_evidence_valid(p, &why), 0, "%s", why);
			before[i] = S_slurp(recdir, names[i]);
			kept++;
		}
		free(why);
		free(p);
	}
	cr_assert_eq(kept, 2);

	{
		const char *args[] = { "run", "--system", "kr", "--profile", "quick", "--only", "sm3",
			"--data", data, "--sizes", "32,128,512,1024,4096", NULL };
		cr_assert_eq(hbt_cli(&out, &err, NULL, args), 0, "%s", err);
		cr_expect(strstr(err, "8 records measured, 2 kept from an earlier run") != NULL, "%s",
			err);
	}
	for (i = 0; names[i]; i++) {
		char *now = S_slurp(recdir, names[i]);
		if (before[i])
			cr_expect_str_eq(now, before[i], "%s was measured again", names[i]);
		free(now);
		free(before[i]);
	}
	cr_expect_eq(hbt_count_records(recdir), 10);
	cr_expect_eq(S_count_named(recdir, ".tmp."), 0, "the resume removed the temporary file");
	cr_expect_eq(hbt_evidence_check_tree(data), 10 + 1 + 2 + 1 + 1 + 1,
		"10 records, system, 2 KAT summaries, catalog, sentinel, history");
	{
		/* one campaign, killed and resumed, is one entry of the history, with the yardstick
		 * figures of both runs: SM3 at 1024 and 4096 bytes, as their records have them */
		json_t *h = hbt_json_load(sys, "history.json"), *e, *y, *rec;
		const char *stem[] = { "SM3", "SM3.openssl" };
		size_t k, found = 0, expected = 0;
		cr_assert_eq(json_array_size(json_object_get(h, "campaigns")), 1);
		e = json_array_get(json_object_get(h, "campaigns"), 0);
		for (k = 0; k < 4; k++) {
			char *rel = hb_sprintf("records/sm3/%s__hash_%d.json", stem[k / 2],
				k % 2 ? 4096 : 1024);
			size_t j;
			if (!S_exists(sys, rel)) {
				free(rel);
				continue;
			}
			expected++;
			rec = hbt_json_load(sys, rel);
			json_array_foreach(json_object_get(e, "yardsticks"), j, y)
				if (json_integer_value(json_object_get(y, "message_bytes")) == (k % 2 ? 4096 :
						1024) && strcmp(json_string_value(json_object_get(y,
						"implementation")), k / 2 ? "openssl" : "reference") == 0) {
					found++;
					cr_expect_float_eq(json_number_value(json_object_get(y,
						"cycles_per_byte")), json_number_value(json_object_get(
						json_object_get(rec, "headline"), "cycles_per_byte")), 1e-9);
				}
			json_decref(rec);
			free(rel);
		}
		cr_expect_geq(expected, 2, "SM3's reference at least");
		cr_expect_eq(found, expected, "%zu of %zu yardstick figures", found, expected);
		json_decref(h);
	}
	S_expect_sums_verify(sys);
	free(out);
	free(err);
	free(recdir);
	free(sys);
	free(data);
}

Test(campaign, bad_arguments_leave_the_evidence_untouched, .timeout = HBT_TIMEOUT(120))
{
	char *data = hbt_tmpdir("badargs"), *sys = hb_path_join(data, "b"), *out, *err, *sums;
	const char *good[] = { "run", "--system", "b", "--profile", "quick", "--only", "sm3",
		"--data", data, "--sizes", "32", NULL };
	static const struct {
		const char *args[12];
		int status;
		const char *err;
	} cases[] = {
		{ { "run", "--system", "b", "--only", "nope", NULL }, 1,
			"hashbench: --only: unknown algorithm 'nope' (known: sha2, sha3, sm3)\n" },
		{ { "run", "--system", "a/b", NULL }, 1,
			"hashbench: --system a/b: expected 1 to 64 letters, digits, '_', '-' or '.', "
			"starting with a letter or digit\n" },
		{ { "run", "--system", "b", "--profile", "slow", NULL }, 1,
			"hashbench: --profile slow: expected guide, quick or ebash\n" },
		{ { "run", "--system", "b", "--sizes", "32,0", NULL }, 1,
			"hashbench: --sizes: '0' is not a message size in bytes (1 to 1073741824)\n" },
		{ { "run", "--system", "b", "--cpu", "4096", NULL }, 1,
			"hashbench: --cpu 4096: not a CPU this process may run on\n" },
	};
	size_t i;

	cr_assert_eq(hbt_cli(&out, &err, NULL, good), 0, "%s", err);
	free(out);
	free(err);
	sums = S_slurp(sys, "SHA256SUMS");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *args[16];
		size_t n = 0, k;
		for (k = 0; cases[i].args[k]; k++)
			args[n++] = cases[i].args[k];
		if (i < 5) {
			args[n++] = "--data";
			args[n++] = data;
		}
		args[n] = NULL;
		cr_expect_eq(hbt_cli(&out, &err, NULL, args), cases[i].status, "case %zu", i);
		cr_expect_str_eq(err, cases[i].err, "case %zu", i);
		free(out);
		free(err);
		S_expect_sums_verify(sys);
	}
	{
		/* a data folder that cannot be created */
		char *bad = hb_sprintf("%s/SHA256SUMS", sys);
		const char *args[] = { "run", "--system", "b", "--data", bad, NULL };
		cr_expect_eq(hbt_cli(&out, &err, NULL, args), 1);
		cr_expect(strstr(err, "cannot create folder: Not a directory") != NULL, "%s", err);
		free(out);
		free(err);
		free(bad);
	}
	{
		char *now = S_slurp(sys, "SHA256SUMS");
		cr_expect_str_eq(now, sums, "the evidence changed");
		free(now);
	}
	S_expect_sums_verify(sys);
	free(sums);
	free(sys);
	free(data);
}
