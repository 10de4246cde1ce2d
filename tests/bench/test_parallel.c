/* test_parallel.c — the campaign and the KAT commands in several processes (--jobs, --overlap,
 * --cpu 0,1) say and write the same as in one, and --shard K/N splits the work by name. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "support.h"

#define FIXTURES HBT_FIXTURES "/submissions"

/* The lines of text without those that depend on timing (disturbed passes measured again,
 * spreads, the sentinel's noise), a pass's verdict (calm or disturbed) made "timed", the time
 * elapsed and left cut from the end of each progress line, so runs can be compared line for
 * line. */
static char *S_steady_lines(const char *text)
{
	char *copy = hb_strdup(text), *line, *save = NULL, *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strstr(line, "left out of the figures") && !strstr(line, "(more: ") &&
			!strstr(line, "spread") && !strstr(line, "the sentinel's")) {
			/* what the machine did, run by run */
			char *verdict = strstr(line, " pass "), *times = strrchr(line, '(');
			if (times && times > line && times[-1] == ' ' && strstr(times, " elapsed"))
				times[-1] = 0;
			if (verdict && (verdict = strstr(verdict, ": ")) != NULL)
				fprintf(f, "%.*s: timed\n", (int)(verdict - line), line);
			else
				fprintf(f, "%s\n", line);
		}
	fclose(f);
	free(copy);
	return out;
}

static char *S_file(const char *dir, const char *rel)
{
	char *p = hb_path_join(dir, rel);
	hb_buf b;
	cr_assert_eq(hb_file_read(&b, p), 0, "%s: %s", p, hb_error_last());
	free(p);
	return (char *)b.data;
}

/* Every file below dir, one relative path per line, sorted. */
static char *S_listing(const char *dir)
{
	char cmd[1024], *out = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *p;
	snprintf(cmd, sizeof(cmd), "cd '%s' && find . -type f | LC_ALL=C sort", dir);
	p = popen(cmd, "r");
	cr_assert(p);
	n = getdelim(&out, &cap, 0, p);
	pclose(p);
	return n > 0 ? out : (free(out), hb_strdup(""));
}

static json_t *S_json(const char *dir, const char *rel)
{
	char *p = hb_path_join(dir, rel);
	json_t *j = json_load_file(p, 0, NULL);
	cr_assert(j, "%s does not parse", p);
	free(p);
	return j;
}

static int S_run(char **err, const char *data, const char *system, const char *const extra[])
{
	/* two paired passes, not the default eight: the order of the work is the same, in less time */
	const char *args[32] = { "run", "--system", system, "--profile", "quick", "--only",
		"sm3,sha3", "--sizes", "32,1024", "--paired-passes", "2", "--data", data };
	size_t n = 13, i;
	char *out;
	int rc;
	for (i = 0; extra[i]; i++)
		args[n++] = extra[i];
	args[n] = NULL;
	rc = hbt_cli(&out, err, NULL, args);
	free(out);
	return rc;
}

Test(parallel, jobs_change_nothing_but_the_wall_time, .timeout = HBT_TIMEOUT(600))
{
	char *data = hbt_tmpdir("jobs"), *one, *two, *e1, *e2, *s1, *s2, *l1, *l2;
	const char *j1[] = { "--jobs", "1", NULL }, *j2[] = { "--jobs", "2", NULL };
	json_t *sys;

	cr_assert_eq(S_run(&e1, data, "one", j1), 0, "%s", e1);
	cr_assert_eq(S_run(&e2, data, "two", j2), 0, "%s", e2);
	s1 = S_steady_lines(e1);
	s2 = S_steady_lines(e2);
	/* the same progress and notes in the same order: KAT lines first, then the records */
	cr_expect_str_eq(s2, s1);
	cr_expect(strstr(s1, "[1/118] SHA3-256 (reference) KAT: PASS") != NULL, "%s", s1);
	cr_expect(strstr(s1, "[8/118] SM3 (openssl) KAT: PASS\nhashbench: [9/118] SHA3-256 "
		"(reference) pass 1: timed") != NULL, "timing starts after every KAT check: %s", s1);
	cr_expect(strstr(s1, "[16/118] SM3 (openssl) pass 1: timed\nhashbench: [17/118] SHA3-256 "
		"(reference) pass 2: timed") != NULL, "pass 2 after pass 1 of every library: %s", s1);
	/* the 2 paired passes spread among the 10: after pass 5, and after pass 10 */
	cr_expect(strstr(s1, "[48/118] SM3 (openssl) pass 5: timed\nhashbench: [49/118] SHA3-256 "
		"(reference) paired pass 1 with SM3 (reference): timed") != NULL,
		"each library side by side with the anchor amid the passes: %s", s1);
	cr_expect(strstr(s1, "[55/118] SM3 (openssl) paired pass 1 with SM3 (reference): timed\n"
		"hashbench: [56/118] SHA3-256 (reference) pass 6: timed") != NULL, "%s", s1);
	cr_expect(strstr(s1, "[95/118] SM3 (openssl) pass 10: timed\nhashbench: [96/118] SHA3-256 "
		"(reference) paired pass 2 with SM3 (reference): timed") != NULL, "%s", s1);
	cr_expect(strstr(s1, "[103/118] SHA3-256 (reference) hash_32: ok") != NULL,
		"the records after the paired passes: %s", s1);
	one = hb_path_join(data, "one");
	two = hb_path_join(data, "two");
	l1 = S_listing(one);
	l2 = S_listing(two);
	cr_expect_str_eq(l2, l1);
	cr_expect(strstr(l1, "./records/sm3/SM3.openssl__hash_1024.json") != NULL, "%s", l1);
	{
		/* KAT evidence depends on nothing but the libraries: byte for byte the same */
		const char *same[] = { "kat/sm3/SM3.json", "kat/sm3/SM3.log", "kat/sha3/SHAKE256.json",
			"kat/sha3/kat.sha256", NULL };
		size_t i;
		for (i = 0; same[i]; i++) {
			char *a = S_file(one, same[i]), *b = S_file(two, same[i]);
			cr_expect_str_eq(b, a, "%s", same[i]);
			free(a);
			free(b);
		}
	}
	sys = S_json(two, "system.json");
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(json_object_get(sys,
		"campaign"), "durations"), "jobs")), 2);
	cr_expect(json_is_false(json_object_get(json_object_get(sys, "campaign"), "overlap")));
	cr_expect_null(json_object_get(sys, "shard"));
	json_decref(sys);
	cr_expect_eq(hbt_evidence_check_tree(two), 27, "with sentinel.json and history.json");
	free(s1);
	free(s2);
	free(l1);
	free(l2);
	free(e1);
	free(e2);
	free(one);
	free(two);
	free(data);
}

Test(parallel, overlap_times_each_library_after_its_own_check, .timeout = HBT_TIMEOUT(600))
{
	char *data = hbt_tmpdir("overlap"), *err, *steady, *sys_dir;
	const char *extra[] = { "--jobs", "2", "--overlap", NULL };
	json_t *sys;

	cr_assert_eq(S_run(&err, data, "ov", extra), 0, "%s", err);
	steady = S_steady_lines(err);
	cr_expect(strstr(steady, "[1/118] SHA3-256 (reference) KAT: PASS\nhashbench: [2/118] SHA3-256 "
		"(reference) pass 1: timed") != NULL, "%s", steady);
	free(steady);
	sys_dir = hb_path_join(data, "ov");
	sys = S_json(sys_dir, "system.json");
	cr_expect(json_is_true(json_object_get(json_object_get(sys, "campaign"), "overlap")));
	json_decref(sys);
	free(err);
	free(sys_dir);
	free(data);
}

Test(parallel, two_timing_cpus_share_the_records, .timeout = HBT_TIMEOUT(600))
{
	char *data = hbt_tmpdir("cpus"), *err, *sys_dir;
	const char *extra[] = { "--cpu", "0,1", NULL };
	const char *recs[] = { "records/sm3/SM3__hash_32.json", "records/sm3/SM3__hash_1024.json",
		"records/sha3/SHA3-256__hash_32.json", "records/sha3/SHA3-256__hash_1024.json", NULL };
	int seen[2] = { 0, 0 };
	cpu_set_t set;
	json_t *sys;
	size_t i;

	if (sched_getaffinity(0, sizeof(set), &set) != 0 || !CPU_ISSET(0, &set) || !CPU_ISSET(1, &set))
		cr_skip_test("this machine does not let the test use CPUs 0 and 1");
	cr_assert_eq(S_run(&err, data, "cp", extra), 0, "%s", err);
	sys_dir = hb_path_join(data, "cp");
	for (i = 0; recs[i]; i++) {
		json_t *r = S_json(sys_dir, recs[i]), *p;
		size_t k;
		json_array_foreach(json_object_get(r, "passes"), k, p) {
			json_int_t cpu = json_integer_value(json_object_get(p, "cpu"));
			cr_assert(cpu == 0 || cpu == 1, "%s: cpu %lld", recs[i], (long long)cpu);
			seen[cpu] = 1;
		}
		json_decref(r);
	}
	cr_expect(seen[0] && seen[1], "passes were timed on both CPUs");
	sys = S_json(sys_dir, "system.json");
	cr_expect_eq(json_array_size(json_object_get(json_object_get(sys, "campaign"),
		"timing_cpus")), 2);
	json_decref(sys);
	free(err);
	free(sys_dir);
	free(data);
}

Test(parallel, shards_split_the_libraries_by_name, .timeout = HBT_TIMEOUT(600))
{
	char *data1 = hbt_tmpdir("shard1"), *data2 = hbt_tmpdir("shard2"), *e1, *e2, *d1, *d2;
	const char *k1[] = { "--shard", "1/2", NULL }, *k2[] = { "--shard", "2/2", NULL };
	json_t *s1, *s2, *plan, *v;
	size_t i, total = 0;

	cr_assert_eq(S_run(&e1, data1, "sh", k1), 0, "%s", e1);
	cr_assert_eq(S_run(&e2, data2, "sh", k2), 0, "%s", e2);
	d1 = hb_path_join(data1, "sh");
	d2 = hb_path_join(data2, "sh");
	s1 = json_object_get(S_json(d1, "system.json"), "shard");
	s2 = json_object_get(S_json(d2, "system.json"), "shard");
	cr_assert(s1 && s2, "each shard says which it is");
	plan = json_object_get(s1, "plan");
	cr_expect(json_equal(plan, json_object_get(s2, "plan")), "the same plan in both");
	cr_expect_eq(json_array_size(plan), 8);
	cr_expect_eq(json_integer_value(json_object_get(s2, "index")), 2);
	cr_expect_eq(json_integer_value(json_object_get(s2, "count")), 2);
	/* every library of the plan in exactly one shard, with its KAT summary there only */
	json_array_foreach(plan, i, v) {
		const char *name = json_string_value(v), *slash = strchr(name, '/');
		char *rel = hb_sprintf("kat/%.*s/%s.json", (int)(slash - name), name, slash + 1);
		char *p1 = hb_path_join(d1, rel), *p2 = hb_path_join(d2, rel);
		int in1 = hb_is_file(p1), in2 = hb_is_file(p2), listed1 = 0;
		size_t k;
		json_t *w;
		json_array_foreach(json_object_get(s1, "libraries"), k, w)
			listed1 |= strcmp(json_string_value(w), name) == 0;
		cr_expect(in1 != in2, "%s: in shard 1: %d, in shard 2: %d", name, in1, in2);
		cr_expect_eq(listed1, in1, "%s", name);
		total += in1 + in2;
		free(rel);
		free(p1);
		free(p2);
	}
	cr_expect_eq(total, 8);
	cr_expect_eq(json_array_size(json_object_get(s1, "libraries")) +
		json_array_size(json_object_get(s2, "libraries")), 8);
	free(e1);
	free(e2);
	free(d1);
	free(d2);
	free(data1);
	free(data2);
}

/* The units of a system folder: its KAT summaries and logs and its record files, one per line. */
static char *S_units(const char *sys)
{
	char *all = S_listing(sys), *line, *save = NULL, *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	for (line = strtok_r(all, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, "./records/", 10) == 0 || strncmp(line, "./kat/", 6) == 0)
			fprintf(f, "%s\n", line);
	fclose(f);
	free(all);
	return out;
}

Test(parallel, merged_shards_hold_the_units_of_an_unsharded_run, .timeout = HBT_TIMEOUT(600))
{
	char *d1 = hbt_tmpdir("msh1"), *d2 = hbt_tmpdir("msh2"), *whole = hbt_tmpdir("mwhole");
	char *merged = hbt_tmpdir("mout"), *e, *o, *s1 = hb_path_join(d1, "ms"), *s2 = hb_path_join(d2,
		"ms"), *sw = hb_path_join(whole, "ms"), *sm = hb_path_join(merged, "ms"), *uw, *um, *cmd;
	const char *k1[] = { "--shard", "1/2", NULL }, *k2[] = { "--shard", "2/2", NULL };
	const char *none[] = { NULL };
	const char *merge[] = { "merge", "--data", merged, s1, s2, NULL };
	json_t *sys;

	cr_assert_eq(S_run(&e, d1, "ms", k1), 0, "%s", e);
	free(e);
	cr_assert_eq(S_run(&e, d2, "ms", k2), 0, "%s", e);
	free(e);
	cr_assert_eq(S_run(&e, whole, "ms", none), 0, "%s", e);
	free(e);
	cr_assert_eq(hbt_cli(&o, &e, NULL, merge), 0, "%s", e);
	free(o);
	free(e);
	uw = S_units(sw);
	um = S_units(sm);
	cr_expect_str_eq(um, uw, "the merged shards hold exactly the units of the unsharded run");
	cr_expect(strstr(uw, "./records/sm3/SM3__hash_1024.json") != NULL, "%s", uw);
	sys = S_json(sm, "system.json");
	cr_expect_null(json_object_get(sys, "shard"));
	cr_expect_eq(json_array_size(json_object_get(sys, "shards")), 2);
	json_decref(sys);
	cmd = hb_sprintf("cd '%s' && sha256sum --quiet -c SHA256SUMS", sm);
	cr_expect_eq(system(cmd), 0, "the merged SHA256SUMS verifies");
	free(cmd);
	free(uw);
	free(um);
	free(s1);
	free(s2);
	free(sw);
	free(sm);
	free(d1);
	free(d2);
	free(whole);
	free(merged);
}

Test(parallel, kat_commands_print_the_same_with_any_jobs, .timeout = HBT_TIMEOUT(600))
{
	char *o1, *o2, *e1, *e2, *dir1 = hbt_tmpdir("katgen1"), *dir2 = hbt_tmpdir("katgen2");
	/* ten times what the slowest KAT file takes here (2 s): none of these libraries hangs */
	char *limit = hbt_time_limit(30);
	const char *c1[] = { "kat-check", "--submissions", FIXTURES, "--time-limit", limit, "--jobs",
		"1", NULL };
	const char *c2[] = { "kat-check", "--submissions", FIXTURES, "--time-limit", limit, "--jobs",
		"2", NULL };
	const char *g1[] = { "kat-gen", "SM3", "SHA3-256", "--sets", "2_23,loop", "--out", dir1,
		"--jobs", "1", NULL };
	const char *g2[] = { "kat-gen", "SM3", "SHA3-256", "--sets", "2_23,loop", "--out", dir2,
		"--jobs", "2", NULL };
	int r1 = hbt_cli(&o1, &e1, NULL, c1), r2 = hbt_cli(&o2, &e2, NULL, c2);
	const char *files[] = { "KAT_2_23_SM3.txt", "KAT_Loop_SM3.txt", "KAT_2_23_SHA3-256.txt",
		"KAT_Loop_SHA3-256.txt", NULL };
	size_t i;

	cr_expect_eq(r1, 1, "some fixtures fail on purpose");
	cr_expect_eq(r2, r1);
	cr_expect_str_eq(o2, o1);
	cr_expect(strstr(o1, "libraries passed\n") != NULL, "%s", o1);
	free(limit);
	free(o1);
	free(o2);
	free(e1);
	free(e2);
	cr_assert_eq(hbt_cli(&o1, &e1, NULL, g1), 0, "%s", e1);
	cr_assert_eq(hbt_cli(&o2, &e2, NULL, g2), 0, "%s", e2);
	for (i = 0; files[i]; i++) {
		char *a = S_file(dir1, files[i]), *b = S_file(dir2, files[i]);
		cr_expect(strlen(a) > 100, "%s", files[i]);
		cr_expect_str_eq(b, a, "%s", files[i]);
		cr_expect(strstr(o1, files[i]) != NULL, "%s", o1);
		free(a);
		free(b);
	}
	free(o1);
	free(o2);
	free(e1);
	free(e2);
	free(dir1);
	free(dir2);
}

Test(parallel, bad_parallel_arguments_say_which)
{
	static const struct {
		const char *args[8];
		const char *err;
	} cases[] = {
		{ { "run", "--system", "x", "--jobs", "0", NULL },
			"hashbench: --jobs 0: expected a number of processes, 1 to 256\n" },
		{ { "run", "--system", "x", "--shard", "3/2", NULL },
			"hashbench: --shard 3/2: expected K/N with 1 <= K <= N, e.g. 1/4\n" },
		{ { "run", "--system", "x", "--shard", "1/2x", NULL },
			"hashbench: --shard 1/2x: expected K/N with 1 <= K <= N, e.g. 1/4\n" },
		{ { "run", "--system", "x", "--cpu", "1,", NULL },
			"hashbench: --cpu 1,: expected a CPU number or a list such as 2,3\n" },
		{ { "kat-check", "--jobs", "x", NULL },
			"hashbench: --jobs x: expected a number of processes, 1 to 256\n" },
	};
	size_t i;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out, *err, *want = hb_sprintf("%s(hashbench --help for usage)\n", cases[i].err);
		cr_expect_eq(hbt_cli(&out, &err, NULL, cases[i].args), 2, "case %zu", i);
		cr_expect_str_eq(err, want, "case %zu", i);
		free(want);
		free(out);
		free(err);
	}
}

Test(parallel, a_cpu_named_twice_is_refused)
{
	char *out, *err, *data = hbt_tmpdir("twice");
	const char *args[] = { "run", "--system", "x", "--cpu", "0,0", "--data", data, NULL };
	cr_expect_eq(hbt_cli(&out, &err, NULL, args), 1);
	cr_expect_str_eq(err, "hashbench: --cpu: CPU 0 is named twice\n");
	free(out);
	free(err);
	free(data);
}
