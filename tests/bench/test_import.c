/* test_import.c — `hashbench import ngcc-harness` on copies of ../shared/ngcc-harness-sample: the
 * converted evidence, its originals and its figures against the harness's own; every bad input a
 * line, the rest imported; a failed import leaves data/ as it was. */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "support.h"

#define SAMPLE "ngcc-harness-sample"
#define REL "performance/data/arm_1"
#define NRECORDS 32

typedef struct {
	char *root;  /* the test's folder */
	char *dir;   /* root/h/performance/data/arm_1: DIR, in a copy of the sample */
	char *data;  /* root/data: --data */
	char *sys;   /* root/data/arm_1 */
} S_case;

/* Run a shell command (freed here); it must succeed. */
static void S_sh(char *cmd)
{
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	free(cmd);
}

/* A writable copy of the sample in a fresh folder. */
static S_case S_setup(const char *name)
{
	char *sample = hbt_shared_path(SAMPLE);
	S_case c;
	HBT_REQUIRE_SHARED();
	if (!hb_is_dir(sample))
		cr_skip_test("../shared/" SAMPLE " is not there: the import tests are skipped");
	c.root = hbt_tmpdir(name);
	c.dir = hb_sprintf("%s/h/" REL, c.root);
	c.data = hb_sprintf("%s/data", c.root);
	c.sys = hb_sprintf("%s/arm_1", c.data);
	S_sh(hb_sprintf("cp -r '%s' '%s/h' && chmod -R u+w '%s/h'", sample, c.root, c.root));
	free(sample);
	return c;
}

static void S_teardown(S_case *c)
{
	free(c->root);
	free(c->dir);
	free(c->data);
	free(c->sys);
}

/* hashbench import ngcc-harness c->dir --system arm_1 --data c->data [extra…]: the exit status,
 * stderr in *err (stdout must be empty). */
static int S_import(char **err, const S_case *c, const char *extra1, const char *extra2)
{
	const char *args[] = { "import", "ngcc-harness", c->dir, "--system", "arm_1", "--data", c->data,
		extra1, extra2, NULL };
	char *out;
	int status = hbt_cli(&out, err, NULL, args);
	cr_expect_str_eq(out, "", "import prints nothing on stdout");
	free(out);
	return status;
}

static char *S_summary(const S_case *c, int records, int logs, int written, int kept)
{
	return hb_sprintf("hashbench: imported %d records and %d KAT logs of ngcc-harness from %s into "
		"%s/arm_1 (catalog entries: %d written, %d kept; method page: the harness's)\n", records,
		logs, c->dir, c->data, written, kept);
}

static int S_has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p;
	for (p = text; (p = strstr(p, line)) != NULL; p++)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

/* Every file below dir with its SHA-256, sorted, or "absent". */
static char *S_tree(const char *dir)
{
	char *list = hb_sprintf("%s.tree", dir);
	hb_buf buf = { NULL, 0 };
	if (!hb_is_dir(dir)) {
		free(list);
		return hb_strdup("absent");
	}
	S_sh(hb_sprintf("cd '%s' && find . -type f -o -type l | LC_ALL=C sort | xargs -r sha256sum "
		"> '%s'", dir, list));
	cr_assert_eq(hb_file_read_raw(&buf, list), 0, "%s", hb_error_last());
	unlink(list);
	free(list);
	return (char *)buf.data;
}

static size_t S_count(const char *dir)
{
	char *cmd = hb_sprintf("ls '%s' 2>/dev/null | wc -l", dir);
	FILE *p = popen(cmd, "r");
	unsigned long n = 0;
	cr_assert(p && fscanf(p, "%lu", &n) == 1);
	pclose(p);
	free(cmd);
	return n;
}

static void S_same_bytes(const char *a, const char *b)
{
	char x[65], y[65];
	cr_assert_eq(hb_sha256_file(x, a), 0, "%s", hb_error_last());
	cr_assert_eq(hb_sha256_file(y, b), 0, "%s", hb_error_last());
	cr_expect_str_eq(x, y, "%s is not a byte-for-byte copy of %s", a, b);
}

/* The harness's number formats (performance/report.py: fmt_int, fmt_time). */
static char *S_fmt_int(double x)
{
	return x >= 1e9 ? hb_sprintf("%.2f G", x / 1e9) : x >= 1e6 ? hb_sprintf("%.2f M", x / 1e6) :
		x >= 1e4 ? hb_sprintf("%.1f k", x / 1e3) : hb_sprintf("%.0f", x);
}

static char *S_fmt_time(double s)
{
	static const struct { const char *unit; double f; } u[] = { { "s", 1 }, { "ms", 1e3 },
		{ "µs", 1e6 }, { "ns", 1e9 } };
	size_t i;
	for (i = 0; i < 4; i++)
		if (s * u[i].f >= 1)
			return hb_sprintf("%.3g %s", s * u[i].f, u[i].unit);
	return hb_sprintf("%.3g ns", s * 1e9);
}

/* Rewrite DIR/rel after edit changed it. */
static void S_edit_json(const S_case *c, const char *rel, const char *key, json_t *v)
{
	json_t *j = hbt_json_load(c->dir, rel);
	char *text, *path = hb_path_join(c->dir, rel);
	if (v)
		json_object_set_new(j, key, v);
	else
		json_object_del(j, key);
	text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	hbt_write(path, text, strlen(text));
	free(text);
	free(path);
	json_decref(j);
}

Test(import, the_sample_becomes_our_evidence_with_its_originals, .timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("import-good");
	char *err, *want = S_summary(&c, NRECORDS, 4, 1, 0), *sums, *line, *next, *why = NULL;
	char *src = hb_path_join(c.dir, "records/hash-16"), **names = NULL;
	json_t *sys, *host = NULL, *build = hbt_json_load(c.dir, "build.json");
	size_t nsums = 0, i;
	static const char *labels[] = { "LLH-256", "LLH-512", "LLH-768", "LLH-1024" };
	static const char *top[] = { "system.json", "method.md", "SHA256SUMS", "kat/hash-16/kat.sha256",
		"imported/campaign.json", "imported/build.json", "../algorithms/hash-16.json" };
	hb_buf buf;

	cr_assert_eq(S_import(&err, &c, NULL, NULL), 0, "%s", err);
	cr_expect_str_eq(err, want, "one line, the summary");
	for (i = 0; i < sizeof(top) / sizeof(top[0]); i++) {
		char *p = hb_path_join(c.sys, top[i]);
		cr_expect(hb_is_file(p), "%s is missing", p);
		free(p);
	}
	cr_expect_eq(S_count(hb_sprintf("%s/records/hash-16", c.sys)), NRECORDS);
	cr_expect_eq(S_count(hb_sprintf("%s/imported/records/hash-16", c.sys)), NRECORDS);
	cr_expect(!hb_is_dir(hb_sprintf("%s/.arm_1.import.%d", c.data, 0)));
	cr_expect_eq(S_count(c.data), 2, "data/ holds arm_1 and algorithms, no staging folder");

	/* originals, byte for byte: the method page, the KAT logs, the records */
	S_same_bytes(hb_path_join(c.sys, "method.md"), hb_sprintf("%s/../../method_arm_1.md", c.dir));
	for (i = 0; i < 4; i++) {
		char *ours = hb_sprintf("%s/kat/hash-16/%s.json", c.sys, labels[i]);
		json_t *k;
		S_same_bytes(hb_sprintf("%s/kat/hash-16/%s.log", c.sys, labels[i]),
			hb_sprintf("%s/kat/hash-16/%s.log", c.dir, labels[i]));
		cr_expect_eq(hbt_evidence_valid(ours, &why), 0, "%s", why);
		k = hbt_json_load(c.sys, ours + strlen(c.sys) + 1);
		cr_expect_str_eq(json_string_value(json_object_get(k, "result")), "PASS");
		cr_expect_str_eq(json_string_value(json_object_get(k, "build_flags")), "guide");
		cr_expect_eq(json_integer_value(json_object_get(k, "sets_mask")), 3, "2_12 and 2_23");
		cr_expect_eq(json_array_size(json_object_get(k, "files")), 2);
		cr_expect_str_eq(json_string_value(json_object_get(json_object_get(k, "imported"),
			"tool")), "ngcc-harness");
		json_decref(k);
		free(ours);
	}
	cr_assert_eq(hb_file_read_raw(&buf, hb_sprintf("%s/kat/hash-16/kat.sha256", c.sys)), 0);
	cr_expect(strstr((char *)buf.data, "2673552947ef755705a5742e3b8b64a8e903787185ae5f20f9d4e0"
		"05536cc20b  KAT_2_12_LLH-256.txt\n"), "kat.sha256 has the manifest lines of the logs");
	hb_buf_free(&buf);

	/* SHA256SUMS lists every other file, and they match */
	cr_assert_eq(hb_file_read_raw(&buf, hb_path_join(c.sys, "SHA256SUMS")), 0);
	sums = (char *)buf.data;
	for (line = sums; *line; line = next, nsums++) {
		char hex[65], *path;
		next = strchr(line, '\n');
		cr_assert(next);
		*next++ = 0;
		path = hb_path_join(c.sys, line + 66);
		cr_assert_eq(hb_sha256_file(hex, path), 0, "%s", hb_error_last());
		cr_expect_eq(strncmp(hex, line, 64), 0, "%s does not match SHA256SUMS", line + 66);
		free(path);
	}
	/* records and originals, 4 logs and their summaries, kat.sha256, campaign.json, build.json,
	 * method.md and system.json */
	cr_expect_eq(nsums, 2 * NRECORDS + 8 + 5);
	free(sums);

	/* each record: valid, its original named with its SHA-256, its figures the harness's */
	names = calloc(NRECORDS + 1, sizeof(char *));
	{
		FILE *p = popen(hb_sprintf("ls '%s' | LC_ALL=C sort", src), "r");
		char name[256];
		for (i = 0; i < NRECORDS && fscanf(p, "%255s", name) == 1; i++)
			names[i] = hb_strdup(name);
		pclose(p);
	}
	for (i = 0; i < NRECORDS; i++) {
		char *rel = hb_sprintf("records/hash-16/%s", names[i]), *orig, hex[65];
		char *path = hb_path_join(c.sys, rel), *a, *b;
		json_t *r, *h = hbt_json_load(src, names[i]), *t, *res, *imp;
		double cycles = 0, calls = 0, ns = 0, bytes;
		size_t k;
		cr_expect_eq(hbt_evidence_valid(path, &why), 0, "%s", why);
		r = hbt_json_load(c.sys, rel);
		imp = json_object_get(r, "imported");
		orig = hb_sprintf("imported/records/hash-16/%s", names[i]);
		cr_expect_str_eq(json_string_value(json_object_get(imp, "original")), orig);
		S_same_bytes(hb_path_join(c.sys, orig), hb_path_join(src, names[i]));
		cr_assert_eq(hb_sha256_file(hex, hb_path_join(src, names[i])), 0);
		cr_expect_str_eq(json_string_value(json_object_get(imp, "sha256")), hex);
		cr_expect_str_eq(json_string_value(json_object_get(r, "status")), "ok");
		cr_expect_eq(json_array_size(json_object_get(r, "trials")),
			json_array_size(json_object_get(h, "processes")), "one trial a process");
		json_array_foreach(json_object_get(r, "trials"), k, t) {
			cycles += (double)json_integer_value(json_object_get(t, "cycles"));
			calls += (double)json_integer_value(json_object_get(t, "iterations"));
			ns += (double)json_integer_value(json_object_get(t, "ns"));
		}
		bytes = (double)json_integer_value(json_object_get(h, "input_bytes"));
		/* mean cycles, mean time, MB/s and n as the harness printed them */
		cr_expect_eq(cycles / calls, json_number_value(json_object_get(h, "mean_cycles")), "%s",
			names[i]);
		a = S_fmt_int(cycles / calls);
		b = S_fmt_int(json_number_value(json_object_get(h, "mean_cycles")));
		cr_expect_str_eq(a, b, "%s: mean cycles", names[i]);
		a = S_fmt_time(ns / calls / 1e9);
		b = S_fmt_time(json_number_value(json_object_get(h, "mean_seconds")));
		cr_expect_str_eq(a, b, "%s: mean time", names[i]);
		a = hb_sprintf("%.1f", bytes / (ns / calls) * 1e9 / 1e6);
		b = hb_sprintf("%.1f", json_number_value(json_object_get(h, "throughput_MB_per_second")));
		cr_expect_str_eq(a, b, "%s: MB/s", names[i]);
		cr_expect_eq((json_int_t)calls, json_integer_value(json_object_get(h, "measurements")));
		res = json_object_get(r, "resources");
		cr_expect_eq(json_integer_value(json_object_get(res, "baseline_rss_kib")),
			json_integer_value(json_object_get(h, "baseline_rss_bytes")) / 1024);
		cr_expect_eq(json_integer_value(json_object_get(res, "peak_rss_kib")),
			json_integer_value(json_object_get(h, "peak_rss_bytes")) / 1024);
		a = hb_sprintf("hash-16/%s", json_string_value(json_object_get(h, "label")));
		cr_expect_eq(json_integer_value(json_object_get(res, "static_bytes")),
			json_integer_value(json_object_get(json_object_get(json_object_get(build,
			"instances"), a), "elf_load_bytes")), "%s: static size", names[i]);
		if (!host && json_integer_value(json_object_get(json_object_get(h, "environment"),
				"cpu_number")) == 2)
			host = json_incref(json_object_get(h, "environment"));
		json_decref(h);
		json_decref(r);
		free(rel);
		free(path);
	}

	/* system.json describes the machine as the harness's pages do */
	cr_assert_not_null(host, "a record measured on CPU 2");
	cr_expect_eq(hbt_evidence_valid(hb_path_join(c.sys, "system.json"), &why), 0, "%s", why);
	sys = hbt_json_load(c.sys, "system.json");
	cr_expect_str_eq(json_string_value(json_object_get(sys, "processor")),
		json_string_value(json_object_get(host, "cpu_model")));
	cr_expect_str_eq(json_string_value(json_object_get(sys, "machine")), "ASUS Vivobook S 15");
	cr_expect_eq(json_integer_value(json_object_get(sys, "cpu")), 2);
	cr_expect_eq(json_integer_value(json_object_get(sys, "memory_mib")),
		json_integer_value(json_object_get(host, "memory_total_kib")) / 1024);
	cr_expect_str_eq(json_string_value(json_object_get(sys, "os")), "Ubuntu 26.04.1 LTS");
	cr_expect_str_eq(json_string_value(json_object_get(sys, "kernel")), "7.0.0-34-generic");
	cr_expect_str_eq(json_string_value(json_object_get(sys, "build_tool")),
		json_string_value(json_object_get(host, "cmake")));
	cr_expect_str_eq(json_string_value(json_object_get(sys, "compiler")),
		json_string_value(json_object_get(host, "compiler")));
	{
		json_t *clock = json_object_get(sys, "clock"), *camp = json_object_get(sys, "campaign");
		json_t *by = json_object_get(sys, "measured_by");
		char *text = json_dumps(json_object_get(camp, "timing_cpus"), JSON_COMPACT);
		cr_expect_str_eq(json_string_value(json_object_get(clock, "governor")), "performance");
		cr_expect_eq(json_integer_value(json_object_get(clock, "min_khz")), 2707200);
		cr_expect_eq(json_integer_value(json_object_get(clock, "max_khz")), 2707200);
		cr_expect_str_eq(json_string_value(json_object_get(json_object_get(clock, "boost"),
			"state")), "off");
		cr_expect_str_eq(json_string_value(json_object_get(clock, "smt")), "none");
		cr_expect_str_eq(json_string_value(json_object_get(json_object_get(sys, "counter"),
			"name")), "perf-cycles");
		cr_expect_str_eq(json_string_value(json_object_get(camp, "start")), "2026-09-28T15:05:46Z");
		cr_expect_str_eq(json_string_value(json_object_get(camp, "end")), "2026-09-29T08:43:52Z");
		cr_expect_str_eq(text, "[2,3,7]", "the shard CPUs");
		cr_expect_eq(json_array_size(json_object_get(camp, "message_sizes")), 8);
		cr_expect_null(json_object_get(sys, "sandbox"), "the harness had no sandbox");
		cr_expect_str_eq(json_string_value(json_object_get(by, "tool")), "ngcc-harness");
		cr_expect_str_eq(json_string_value(json_object_get(by, "source")), c.dir);
		cr_expect(strncmp(json_string_value(json_object_get(by, "imported_by")),
			"hashbench " HB_VERSION " (git ", strlen("hashbench " HB_VERSION " (git ")) == 0);
		free(text);
	}
	{
		json_t *cat = hbt_json_load(c.data, "algorithms/hash-16.json");
		char *sets = json_dumps(json_object_get(cat, "parameter_sets"), JSON_COMPACT);
		cr_expect_str_eq(json_string_value(json_object_get(cat, "name")), "LLH");
		cr_expect_str_eq(sets, "[\"LLH-256\",\"LLH-512\",\"LLH-768\",\"LLH-1024\"]");
		free(sets);
		json_decref(cat);
	}
	json_decref(sys);
	json_decref(host);
	json_decref(build);
	S_teardown(&c);
}

Test(import, a_second_import_replaces_the_first_whole_and_keeps_the_catalog,
	.timeout = HBT_TIMEOUT(120))
{
	static const char mine[] = "{\"id\": \"hash-16\", \"name\": \"LLH (ours)\"}\n";
	S_case c = S_setup("import-again");
	char *err, *stray = hb_path_join(c.sys, "records/hash-16/stray.json");
	char *entry = hb_path_join(c.data, "algorithms/hash-16.json"), *want, *before;

	cr_assert_eq(S_import(&err, &c, NULL, NULL), 0, "%s", err);
	hbt_write(stray, "{}", 2);
	hbt_write(entry, mine, strlen(mine));
	before = S_tree(c.sys);
	cr_assert_eq(S_import(&err, &c, "--only", "hash-16"), 0, "%s", err);
	want = S_summary(&c, NRECORDS, 4, 0, 1);
	cr_expect_str_eq(err, want);
	cr_expect(!hb_is_file(stray), "what the first import did not write is gone");
	cr_expect_eq(S_count(hb_sprintf("%s/records/hash-16", c.sys)), NRECORDS);
	S_sh(hb_sprintf("cd '%s' && sha256sum --quiet -c SHA256SUMS", c.sys));
	{
		hb_buf buf;
		cr_assert_eq(hb_file_read_raw(&buf, entry), 0);
		cr_expect_str_eq((char *)buf.data, mine, "a catalog entry already there is kept");
		hb_buf_free(&buf);
	}
	cr_expect_str_neq(before, S_tree(c.sys));
	cr_expect_eq(S_count(c.data), 2, "no staging folder left");
	S_teardown(&c);
}

/* One damaged record: exit 1, its line, the other records imported. */
static void S_expect_one_refused(const S_case *c, const char *line)
{
	char *err, *want = S_summary(c, NRECORDS - 1, 4, 1, 0);
	cr_expect_eq(S_import(&err, c, NULL, NULL), 1, "%s", err);
	cr_expect(S_has_line(err, line), "expected the line\n%s\nin\n%s", line, err);
	cr_expect(S_has_line(err, "hashbench: import: 1 file refused (listed above)"), "%s", err);
	cr_expect(strstr(err, want), "expected\n%s\nin\n%s", want, err);
	cr_expect_eq(S_count(hb_sprintf("%s/records/hash-16", c->sys)), NRECORDS - 1);
	S_sh(hb_sprintf("cd '%s' && sha256sum --quiet -c SHA256SUMS", c->sys));
	free(want);
	free(err);
}

#define BAD "records/hash-16/LLH-256__hash_32.json"

Test(import, a_record_of_an_unknown_schema_is_refused_and_the_rest_imported,
	.timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("import-schema");
	S_edit_json(&c, BAD, "schema", json_integer(3));
	S_expect_one_refused(&c, hb_sprintf("hashbench: import: %s/" BAD ": schema: unknown version 3 "
		"(this hashbench reads the harness's schema 2); record skipped", c.dir));
	cr_expect(!hb_is_file(hb_sprintf("%s/" BAD, c.sys)));
	S_teardown(&c);
}

Test(import, a_record_without_a_field_is_refused, .timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("import-missing");
	S_edit_json(&c, BAD, "trials", NULL);
	S_expect_one_refused(&c, hb_sprintf("hashbench: import: %s/" BAD ": trials: missing; record "
		"skipped", c.dir));
	S_teardown(&c);
}

Test(import, a_record_with_a_value_that_is_no_number_is_refused, .timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("import-number");
	json_t *j = hbt_json_load(c.dir, BAD), *trials = json_deep_copy(json_object_get(j, "trials"));
	json_object_set_new(json_array_get(trials, 2), "cycles", json_string("many"));
	S_edit_json(&c, BAD, "trials", trials);
	S_expect_one_refused(&c, hb_sprintf("hashbench: import: %s/" BAD ": trials[2].cycles: expected "
		"an integer of 0 or more; record skipped", c.dir));
	json_decref(j);
	S_teardown(&c);

	c = S_setup("import-number-rss");
	S_edit_json(&c, BAD, "peak_rss_bytes", json_string("1.4 MB"));
	S_expect_one_refused(&c, hb_sprintf("hashbench: import: %s/" BAD ": peak_rss_bytes: expected "
		"an integer of 0 or more; record skipped", c.dir));
	S_teardown(&c);
}

Test(import, a_record_whose_figures_contradict_its_trials_is_refused, .timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("import-figures");
	S_edit_json(&c, BAD, "mean_cycles", json_real(1000.5));
	S_expect_one_refused(&c, hb_sprintf("hashbench: import: %s/" BAD ": mean_cycles: 1000.5 "
		"contradicts the trials (cycles / measurements = 1204.1294); record skipped", c.dir));
	S_teardown(&c);
}

Test(import, a_path_out_of_the_folder_is_refused, .timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("import-path");
	S_edit_json(&c, BAD, "kat_log", json_string("../../../../etc/passwd"));
	S_expect_one_refused(&c, hb_sprintf("hashbench: import: %s/" BAD ": kat_log: "
		"\"../../../../etc/passwd\" leads out of %s: refused; record skipped", c.dir, c.dir));
	S_teardown(&c);
}

Test(import, a_symbolic_link_is_refused_and_not_followed, .timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("import-link");
	char *err, *want = S_summary(&c, NRECORDS - 1, 0, 1, 0);
	/* a record and the folder of KAT logs, each a link to what is really there */
	S_sh(hb_sprintf("cd '%s' && mv " BAD " '%s/elsewhere.json' && ln -s '%s/elsewhere.json' " BAD
		" && mv kat/hash-16 '%s/kat-elsewhere' && ln -s '%s/kat-elsewhere' kat/hash-16", c.dir,
		c.root, c.root, c.root, c.root));
	cr_expect_eq(S_import(&err, &c, NULL, NULL), 1, "%s", err);
	cr_expect(S_has_line(err, hb_sprintf("hashbench: import: %s/" BAD ": a symbolic link: "
		"refused", c.dir)), "%s", err);
	cr_expect(S_has_line(err, hb_sprintf("hashbench: import: %s/kat/hash-16: a symbolic link: "
		"refused", c.dir)), "%s", err);
	cr_expect(S_has_line(err, "hashbench: import: 2 files refused (listed above)"), "%s", err);
	cr_expect(strstr(err, want), "expected\n%s\nin\n%s", want, err);
	cr_expect(!hb_is_dir(hb_sprintf("%s/kat", c.sys)), "nothing read through the link");
	cr_expect_eq(S_count(hb_sprintf("%s/records/hash-16", c.sys)), NRECORDS - 1);
	S_teardown(&c);
}

Test(import, records_of_other_categories_and_operations_are_skipped_with_a_count,
	.timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("import-skip");
	char *err, *want = S_summary(&c, NRECORDS, 4, 1, 0);
	S_sh(hb_sprintf("cd '%s' && mkdir records/kem-03 records/sign-07 kat/kem-03 && "
		"cp " BAD " records/kem-03/Aigis-512__keygen.json && "
		"cp " BAD " records/sign-07/X__sign.json && "
		"cp kat/hash-16/LLH-256.log kat/kem-03/Aigis-512.log && "
		"cp " BAD " records/hash-16/LLH-256__keygen.json", c.dir));
	S_edit_json(&c, "records/hash-16/LLH-256__keygen.json", "operation", json_string("keygen"));
	cr_expect_eq(S_import(&err, &c, NULL, NULL), 0, "%s", err);
	cr_expect(S_has_line(err, hb_sprintf("hashbench: import: skipped %s/kat/kem-03/Aigis-512.log: "
		"category kem, not hash", c.dir)), "%s", err);
	cr_expect(S_has_line(err, hb_sprintf("hashbench: import: skipped %s/records/kem-03/"
		"Aigis-512__keygen.json: category kem, not hash", c.dir)), "%s", err);
	cr_expect(S_has_line(err, hb_sprintf("hashbench: import: skipped %s/records/sign-07/"
		"X__sign.json: category sign, not hash", c.dir)), "%s", err);
	cr_expect(S_has_line(err, hb_sprintf("hashbench: import: skipped %s/records/hash-16/"
		"LLH-256__keygen.json: operation \"keygen\", not hash", c.dir)), "%s", err);
	cr_expect(S_has_line(err, "hashbench: import: 4 files of other categories or operations "
		"skipped (listed above)"), "%s", err);
	cr_expect(strstr(err, want), "expected\n%s\nin\n%s", want, err);
	cr_expect(!hb_is_dir(hb_sprintf("%s/records/kem-03", c.sys)));
	cr_expect(!hb_is_file(hb_sprintf("%s/algorithms/kem-03.json", c.data)));
	free(err);
	free(want);
	S_teardown(&c);
}

Test(import, a_failed_import_leaves_data_as_it_was, .timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("import-failed");
	char *err, *before, *want;
	hb_buf buf;

	cr_assert_eq(S_import(&err, &c, NULL, NULL), 0, "%s", err);
	before = S_tree(c.data);
	/* a campaign.json that does not parse: nothing can say when the campaign ran */
	hbt_write(hb_path_join(c.dir, "campaign.json"), "{ \"system_id\": ", 15);
	cr_expect_eq(S_import(&err, &c, NULL, NULL), 1, "%s", err);
	want = hb_sprintf("hashbench: import: %s/campaign.json:1: ", c.dir);
	cr_expect_eq(strncmp(err, want, strlen(want)), 0, "%s", err);
	cr_expect_eq(strchr(err, '\n') - err + 1, (long)strlen(err), "one line: %s", err);
	cr_expect_str_eq(S_tree(c.data), before);
	S_sh(hb_sprintf("cp '%s/%s/campaign.json' '%s/campaign.json'", hbt_shared_path(SAMPLE), REL,
		c.dir));

	/* failing while it writes: data/algorithms is a file, so the new catalog entry cannot go in */
	S_sh(hb_sprintf("cd '%s' && rm -r algorithms && echo not a folder > algorithms", c.data));
	before = S_tree(c.data);
	cr_expect_eq(S_import(&err, &c, NULL, NULL), 1, "%s", err);
	cr_expect_str_eq(err, hb_sprintf("hashbench: import: %s/algorithms: not a folder\n", c.data));
	cr_expect_str_eq(S_tree(c.data), before, "data/ as it was, no staging folder");
	cr_assert_eq(hb_file_read_raw(&buf, hb_path_join(c.data, "algorithms")), 0);
	cr_expect_str_eq((char *)buf.data, "not a folder\n");
	hb_buf_free(&buf);
	S_teardown(&c);
}

Test(import, evidence_hashbench_measured_is_never_replaced, .timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("import-measured");
	const char *args[] = { "import", "ngcc-harness", c.dir, "--system", "x86_1", "--data", c.data,
		NULL };
	char *sys = hb_sprintf("%s/x86_1/system.json", c.data), *before, *out, *err;
	static const char measured[] = "{\"schema\": \"hashbench.system/1\", \"system\": \"x86_1\"}\n";

	cr_assert_eq(hb_mkdir_p(hb_sprintf("%s/x86_1", c.data)), 0);
	hbt_write(sys, measured, strlen(measured));
	before = S_tree(c.data);
	cr_expect_eq(hbt_cli(&out, &err, NULL, args), 1, "%s", err);
	cr_expect_str_eq(err, hb_sprintf("hashbench: import: %s/x86_1 holds evidence that no import "
		"wrote (its system.json has no \"measured_by\" of ngcc-harness): remove it or choose "
		"another --system\n", c.data));
	cr_expect_str_eq(S_tree(c.data), before);
	S_teardown(&c);
}

Test(import, usage_errors_exit_2, .timeout = HBT_TIMEOUT(60))
{
	const char *no_system[] = { "import", "ngcc-harness", "somewhere", NULL };
	const char *no_source[] = { "import", "other-tool", "somewhere", "--system", "x", NULL };
	char *out, *err;
	cr_expect_eq(hbt_cli(&out, &err, NULL, no_system), 2, "%s", err);
	cr_expect(strstr(err, "import: --system NAME is required"), "%s", err);
	cr_expect_eq(hbt_cli(&out, &err, NULL, no_source), 2, "%s", err);
	cr_expect(strstr(err, "ngcc-harness is the one source known"), "%s", err);
}
