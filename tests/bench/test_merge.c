/* test_merge.c — `hashbench merge`: two real quick campaigns made into shards 1 and 2 of one plan,
 * merged and rendered by hashgen; every refusal is one line, exit 1, and leaves OUT untouched. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <jansson.h>

#include "support.h"

#define SYS "mx"

static const char *S_plan[] = { "sha2/SHA-256", "sha2/SHA-256.openssl", "sha2/SHA-512",
	"sha2/SHA-512.openssl", "sm3/SM3", "sm3/SM3.openssl", NULL };

/* Run a shell command made with printf's format; it must succeed. */
static void S_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void S_sh(const char *fmt, ...)
{
	char *cmd = NULL;
	va_list ap;
	va_start(ap, fmt);
	cr_assert_geq(vasprintf(&cmd, fmt, ap), 0);
	va_end(ap);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	free(cmd);
}

/* Two campaigns of the bundled baselines (sm3 into a/, sha2 into b/), run once for every
 * hashbench binary: the tests copy them. */
static const char *S_fixture(void)
{
	static const char dir[] = HBT_WORK "/merge-fixture";
	char hex[65], *stamp = hb_path_join(dir, "stamp");
	hb_buf old = { NULL, 0 };
	int lock;

	cr_assert_eq(hb_mkdir_p(HBT_WORK), 0);
	lock = open(HBT_WORK "/merge-fixture.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0644);
	cr_assert(lock >= 0 && flock(lock, LOCK_EX) == 0);
	cr_assert_eq(hb_sha256_file(hex, HBT_HASHBENCH), 0);
	if (hb_file_read_raw(&old, stamp) != 0 || strcmp((char *)old.data, hex) != 0) {
		static const char *only[] = { "sm3", "sha2" }, *sub[] = { "a", "b" };
		size_t i;
		S_sh("rm -rf '%s'", dir);
		for (i = 0; i < 2; i++) {
			char *data = hb_path_join(dir, sub[i]), *out, *err;
			const char *args[] = { "run", "--system", SYS, "--profile", "quick", "--sizes", "32",
				"--sets", "2_12", "--only", only[i], "--data", data, NULL };
			cr_assert_eq(hbt_cli(&out, &err, NULL, args), 0, "%s", err);
			free(out);
			free(err);
			free(data);
		}
		hbt_write(stamp, hex, strlen(hex));
	}
	hb_buf_free(&old);
	flock(lock, LOCK_UN);
	close(lock);
	free(stamp);
	return dir;
}

typedef struct {
	char *root;        /* the test's folder */
	char *in[2];       /* root/s1/mx, root/s2/mx: the shards' system folders */
	char *out;         /* root/out: --data of the merge */
} S_case;

/* Write j as dir/rel, then the SHA256SUMS of the system folder sysdir, as a campaign would. */
static void S_put(const char *sysdir, const char *rel, json_t *j)
{
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	char *path = hb_path_join(sysdir, rel);
	hbt_write(path, text, strlen(text));
	cr_assert_eq(hb_write_sha256sums(sysdir), 0, "%s", hb_error_last());
	free(text);
	free(path);
}

/* Make a campaign folder shard index of count, with the libraries its KAT summaries name, the
 * whole plan, its own durations and the counter frequency hz. */
static void S_make_shard(const char *sysdir, int index, int count, json_int_t hz)
{
	json_t *sys = hbt_json_load(sysdir, "system.json"), *shard = json_object(), *libs = json_array();
	json_t *plan = json_array();
	size_t i;

	for (i = 0; S_plan[i]; i++) {
		char *rel = hb_sprintf("kat/%s.json", S_plan[i]), *path = hb_path_join(sysdir, rel);
		json_array_append_new(plan, json_string(S_plan[i]));
		if (hb_is_file(path))
			json_array_append_new(libs, json_string(S_plan[i]));
		free(rel);
		free(path);
	}
	json_object_set_new(shard, "index", json_integer(index));
	json_object_set_new(shard, "count", json_integer(count));
	json_object_set_new(shard, "libraries", libs);
	json_object_set_new(shard, "plan", plan);
	json_object_set_new(sys, "shard", shard);
	json_object_set_new(json_object_get(sys, "campaign"), "durations",
		json_pack("{s:f, s:f, s:f}", "build", 0.5 * index, "kat", 1.25 * index, "timing", 2.0 * index));
	json_object_set_new(json_object_get(sys, "counter"), "hz", json_integer(hz));
	S_put(sysdir, "system.json", sys);
	json_decref(sys);
}

/* Copies of the two campaigns as shards 1 and 2 of 2 whose counters agree within 0.5 %. */
static S_case S_setup(const char *name)
{
	const char *fx = S_fixture();
	S_case c;
	c.root = hbt_tmpdir(name);
	c.in[0] = hb_sprintf("%s/s1/" SYS, c.root);
	c.in[1] = hb_sprintf("%s/s2/" SYS, c.root);
	c.out = hb_sprintf("%s/out", c.root);
	S_sh("cp -a '%s/a' '%s/s1'", fx, c.root);
	S_sh("cp -a '%s/b' '%s/s2'", fx, c.root);
	S_make_shard(c.in[0], 1, 2, 2600000000);
	S_make_shard(c.in[1], 2, 2, 2613000000);
	return c;
}

static void S_teardown(S_case *c)
{
	free(c->root);
	free(c->in[0]);
	free(c->in[1]);
	free(c->out);
}

/* hashbench merge --data c->out [flag] inputs...: exit status, stderr in *err. */
static int S_merge(char **err, const S_case *c, const char *flag, const char *a, const char *b)
{
	const char *args[8] = { "merge", "--data", c->out };
	char *out;
	int n = 3, status;
	if (flag)
		args[n++] = flag;
	args[n++] = a;
	if (b)
		args[n++] = b;
	args[n] = NULL;
	status = hbt_cli(&out, err, NULL, args);
	cr_expect_str_eq(out, "", "merge prints nothing on stdout");
	free(out);
	return status;
}

static int S_exists(const char *path)
{
	return access(path, F_OK) == 0;
}


/* Set a value of system.json (dotted path of objects) and rewrite SHA256SUMS. */
static void S_edit(const char *sysdir, const char *path, json_t *v)
{
	json_t *sys = hbt_json_load(sysdir, "system.json"), *at = sys;
	char *copy = hb_strdup(path), *dot;
	char *key = copy;
	while ((dot = strchr(key, '.')) != NULL) {
		*dot = 0;
		at = json_object_get(at, key);
		key = dot + 1;
	}
	json_object_set_new(at, key, v);
	S_put(sysdir, "system.json", sys);
	json_decref(sys);
	free(copy);
}

/* Every path below dir with its size and time (dir's own time changes with the staging folder
 * inside it), or "absent". */
static char *S_listing(const char *dir)
{
	char *cmd = hb_sprintf("cd '%s' && find . -mindepth 1 -printf '%%p %%s %%T@\\n' | sort", dir);
	FILE *p = S_exists(dir) ? popen(cmd, "r") : NULL;
	hb_buf buf = { (unsigned char *)hb_strdup("absent"), 6 };
	if (p) {
		free(buf.data);
		cr_assert_eq(hb_stream_read(&buf, p, "find"), 0);
		pclose(p);
	}
	free(cmd);
	return (char *)buf.data;
}

/* A refusal: exit 1, exactly one line on stderr that contains want, OUT as it was (absent in
 * most tests). */
static void S_expect_refused(const S_case *c, const char *a, const char *b, const char *want)
{
	char *err, *before = S_listing(c->out), *after;
	int status = S_merge(&err, c, NULL, a, b);
	char *nl = strchr(err, '\n');
	cr_expect_eq(status, 1, "status %d: %s", status, err);
	cr_expect(nl && nl[1] == 0, "one line: %s", err);
	cr_expect_eq(strncmp(err, "hashbench: merge: ", 18), 0, "%s", err);
	cr_expect(strstr(err, want) != NULL, "expected \"%s\" in: %s", want, err);
	after = S_listing(c->out);
	cr_expect_str_eq(after, before, "%s changed", c->out);
	free(before);
	free(after);
	free(err);
}

static void S_expect_same_file(const char *a, const char *b)
{
	char ha[65], hb[65];
	cr_assert_eq(hb_sha256_file(ha, a), 0, "%s", hb_error_last());
	cr_assert_eq(hb_sha256_file(hb, b), 0, "%s", hb_error_last());
	cr_expect_str_eq(ha, hb, "%s and %s differ", a, b);
}

Test(merge, shards_join_into_one_folder_that_hashgen_renders, .timeout = HBT_TIMEOUT(300))
{
	S_case c = S_setup("good");
	char *err, *sys = hb_path_join(c.out, SYS), *site = hb_path_join(c.root, "site");
	json_t *j, *s1 = hbt_json_load(c.in[0], "system.json"), *s2 = hbt_json_load(c.in[1], "system.json"), *sh;
	const char *start1, *start2, *end1, *end2;
	size_t i;

	/* both shards wrote the same kat.sha256 and catalog entry of sm3: identical bytes are fine */
	S_sh("mkdir -p '%s/kat/sm3'", c.in[1]);
	S_sh("cp '%s/kat/sm3/kat.sha256' '%s/kat/sm3/'", c.in[0], c.in[1]);
	S_sh("cp '%s/../../s1/algorithms/sm3.json' '%s/../algorithms/'", c.in[1], c.in[1]);
	cr_assert_eq(hb_write_sha256sums(c.in[1]), 0);

	cr_assert_eq(hb_mkdir_p(sys), 0); /* an empty OUT/<system> is replaced */
	cr_assert_eq(S_merge(&err, &c, NULL, c.in[1], c.in[0]), 0, "%s", err);
	cr_expect(strstr(err, "hashbench: merged 2 folders into ") != NULL, "%s", err);
	for (i = 0; S_plan[i]; i++) {
		const char *alg = S_plan[i][1] == 'm' ? "sm3" : "sha2", *stem = strchr(S_plan[i], '/') + 1;
		const char *from = c.in[alg[1] == 'm' ? 0 : 1];
		static const char *kinds[] = { "kat/%s/%s.json", "kat/%s/%s.log",
			"records/%s/%s__hash_32.json" };
		size_t k;
		for (k = 0; k < 3; k++) {
			char *rel = hb_sprintf(kinds[k], alg, stem);
			char *a = hb_path_join(from, rel), *b = hb_path_join(sys, rel);
			S_expect_same_file(a, b);
			free(rel);
			free(a);
			free(b);
		}
	}
	{
		char *a = hb_sprintf("%s/kat/sha2/kat.sha256", c.in[1]);
		char *b = hb_sprintf("%s/kat/sha2/kat.sha256", sys);
		S_expect_same_file(a, b);
		free(a);
		free(b);
		a = hb_sprintf("%s/../algorithms/sha2.json", c.in[1]);
		b = hb_sprintf("%s/algorithms/sha2.json", c.out);
		S_expect_same_file(a, b);
		free(a);
		free(b);
	}
	{
		char *names = S_listing(c.out);
		cr_expect(strstr(names, "./.") == NULL, "no staging folder is left: %s", names);
		free(names);
	}

	j = hbt_json_load(sys, "system.json");
	cr_expect_null(json_object_get(j, "shard"));
	cr_expect_null(json_object_get(json_object_get(j, "campaign"), "durations"));
	cr_expect(json_equal(json_object_get(j, "processor"), json_object_get(s1, "processor")));
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(j, "campaign"), "profile")),
		"quick");
	start1 = json_string_value(json_object_get(json_object_get(s1, "campaign"), "start"));
	start2 = json_string_value(json_object_get(json_object_get(s2, "campaign"), "start"));
	end1 = json_string_value(json_object_get(json_object_get(s1, "campaign"), "end"));
	end2 = json_string_value(json_object_get(json_object_get(s2, "campaign"), "end"));
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(j, "campaign"), "start")),
		strcmp(start1, start2) < 0 ? start1 : start2, "the earliest start");
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(j, "campaign"), "end")),
		strcmp(end1, end2) > 0 ? end1 : end2, "the latest end");
	sh = json_object_get(j, "shards");
	cr_assert_eq(json_array_size(sh), 2);
	for (i = 0; i < 2; i++) {
		json_t *one = json_array_get(sh, i), *src = i ? s2 : s1;
		cr_expect_eq(json_integer_value(json_object_get(one, "index")), (json_int_t)i + 1,
			"shards in index order, though given 2 then 1");
		cr_expect_eq(json_integer_value(json_object_get(one, "count")), 2);
		cr_expect_eq(json_integer_value(json_object_get(one, "libraries")), i ? 4 : 2);
		cr_expect(json_equal(json_object_get(one, "overhead"), json_object_get(src, "overhead")));
		cr_expect_eq(json_integer_value(json_object_get(one, "counter_hz")),
			i ? 2613000000 : 2600000000);
		cr_expect(json_equal(json_object_get(one, "start"),
			json_object_get(json_object_get(src, "campaign"), "start")));
		cr_expect(json_equal(json_object_get(one, "durations"),
			json_object_get(json_object_get(src, "campaign"), "durations")));
	}
	json_decref(j);

	S_sh("cd '%s' && sha256sum --quiet --strict -c SHA256SUMS", sys);
	S_sh("cd '%s' && test $(find . -type f ! -name SHA256SUMS | wc -l) -eq "
		"$(wc -l < SHA256SUMS)", sys);
	cr_expect_gt(hbt_evidence_check_tree(c.out), 12);
	{
		char *cmd = hb_sprintf("'%s/bin/hashgen' --strict --data '%s' --templates '%s/templates' "
			"--out '%s' >/dev/null 2>&1", HBT_BUILD_DIR, c.out, HBT_SOURCE_DIR, site);
		char *page = hb_sprintf("%s/" SYS "/sm3.html", site);
		char *page2 = hb_sprintf("%s/" SYS "/sha2.html", site);
		cr_expect_eq(system(cmd), 0, "hashgen renders the merged folder: %s", cmd);
		cr_expect(hb_is_file(page) && hb_is_file(page2), "%s", page);
		free(cmd);
		free(page);
		free(page2);
	}
	json_decref(s1);
	json_decref(s2);
	free(err);
	free(site);
	free(sys);
	S_teardown(&c);
}

Test(merge, whole_campaigns_merge_without_a_plan, .timeout = HBT_TIMEOUT(120))
{
	const char *fx = S_fixture();
	S_case c;
	char *err, *sys;
	json_t *j, *one;

	c.root = hbt_tmpdir("unsharded");
	c.in[0] = hb_sprintf("%s/a/" SYS, fx);
	c.in[1] = hb_sprintf("%s/b/" SYS, fx);
	c.out = hb_sprintf("%s/out", c.root);
	sys = hb_path_join(c.out, SYS);
	cr_assert_eq(S_merge(&err, &c, NULL, c.in[0], c.in[1]), 0, "%s", err);
	j = hbt_json_load(sys, "system.json");
	one = json_array_get(json_object_get(j, "shards"), 0);
	cr_expect(json_is_null(json_object_get(one, "index")), "not a shard: no index");
	cr_expect_eq(json_array_size(json_object_get(j, "shards")), 2);
	json_decref(j);
	S_sh("cd '%s' && sha256sum --quiet -c SHA256SUMS", sys);
	free(err);
	free(sys);
	S_teardown(&c);
}

Test(merge, a_changed_missing_or_unlisted_file_is_refused, .timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("tampered");
	char *rec = hb_sprintf("%s/records/sm3/SM3__hash_32.json", c.in[0]);
	char *extra = hb_sprintf("%s/records/sm3/extra.json", c.in[0]);
	char *want = hb_sprintf("%s does not match %s/SHA256SUMS", rec, c.in[0]);
	char *kept = hb_sprintf("%s.kept", rec);

	S_sh("cp '%s' '%s'", rec, kept);
	S_sh("sed -i 's/\"ok\"/\"OK\"/' '%s'", rec);
	S_expect_refused(&c, c.in[0], c.in[1], want);
	S_sh("mv '%s' '%s'", kept, rec);
	free(want);

	hbt_write(extra, "{}\n", 3);
	want = hb_sprintf("%s is not listed in %s/SHA256SUMS", extra, c.in[0]);
	S_expect_refused(&c, c.in[0], c.in[1], want);
	free(want);
	unlink(extra);

	S_sh("mv '%s' '%s'", rec, kept);
	want = hb_sprintf("%s is listed in %s/SHA256SUMS but missing", rec, c.in[0]);
	S_expect_refused(&c, c.in[0], c.in[1], want);
	free(want);
	free(rec);
	free(extra);
	free(kept);
	S_teardown(&c);
}

Test(merge, a_different_profile_version_or_machine_is_refused, .timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("differ");
	json_t *s1 = hbt_json_load(c.in[0], "system.json");
	char *want, *proc = json_dumps(json_object_get(s1, "processor"), JSON_ENCODE_ANY);

	S_edit(c.in[1], "campaign.profile", json_string("guide"));
	want = hb_sprintf("merge: %s and %s differ in campaign.profile (\"quick\" vs \"guide\")\n",
		c.in[0], c.in[1]);
	S_expect_refused(&c, c.in[0], c.in[1], want);
	free(want);
	S_edit(c.in[1], "campaign.profile", json_string("quick"));

	S_edit(c.in[1], "campaign.hashbench", json_string("0.0.9 (git 0000000)"));
	want = hb_sprintf("differ in campaign.hashbench (\"%s\" vs \"0.0.9 (git 0000000)\")",
		json_string_value(json_object_get(json_object_get(s1, "campaign"), "hashbench")));
	S_expect_refused(&c, c.in[0], c.in[1], want);
	free(want);
	S_edit(c.in[1], "campaign.hashbench",
		json_incref(json_object_get(json_object_get(s1, "campaign"), "hashbench")));

	S_edit(c.in[1], "processor", json_string("Other CPU 9000"));
	want = hb_sprintf("differ in processor (%s vs \"Other CPU 9000\")", proc);
	S_expect_refused(&c, c.in[0], c.in[1], want);
	free(want);
	S_edit(c.in[1], "processor", json_incref(json_object_get(s1, "processor")));

	/* 2 % apart: more than one machine's calibrations differ */
	S_edit(c.in[1], "counter.hz", json_integer(2652000000));
	S_expect_refused(&c, c.in[0], c.in[1],
		"differ in counter.hz (2600000000 vs 2652000000, more than 1 % apart)");
	S_edit(c.in[1], "counter.hz", json_integer(2613000000));

	S_edit(c.in[1], "system", json_string("other"));
	S_expect_refused(&c, c.in[0], c.in[1],
		"/s2/" SYS "/system.json: system: \"other\" contradicts the folder name \"" SYS "\"");
	S_sh("mv '%s' '%s/../other'", c.in[1], c.in[1]);
	free(c.in[1]);
	c.in[1] = hb_sprintf("%s/s2/other", c.root);
	S_expect_refused(&c, c.in[0], c.in[1], "differ in system (\"" SYS "\" vs \"other\")");
	json_decref(s1);
	free(proc);
	S_teardown(&c);
}

Test(merge, each_folders_own_history_is_left_out, .timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("history");
	char *err, *sys = hb_path_join(c.out, SYS), *out_history;
	size_t i;

	/* a history.json of earlier whole campaigns in each shard's folder, each its own */
	for (i = 0; i < 2; i++) {
		json_t *h = json_pack("{s:s, s:s, s:[]}", "schema", "hashbench.history/1", "system",
			SYS, "campaigns");
		if (i)
			json_array_append_new(json_object_get(h, "campaigns"), json_pack("{s:s}", "start",
				"2027-01-01T10:00:00Z"));
		S_put(c.in[i], "history.json", h);
		json_decref(h);
	}
	cr_assert_eq(S_merge(&err, &c, NULL, c.in[0], c.in[1]), 0, "%s", err);
	out_history = hb_path_join(sys, "history.json");
	cr_expect_not(S_exists(out_history), "a shard's folder's history is not the merged campaign's");
	S_sh("cd '%s' && sha256sum --quiet --strict -c SHA256SUMS", sys);
	free(out_history);
	free(err);
	free(sys);
	S_teardown(&c);
}

Test(merge, the_same_unit_with_other_bytes_is_refused, .timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("conflict");
	char *want;
	json_t *kat = hbt_json_load(c.in[0], "kat/sm3/SM3.json");

	/* shard 2 also holds SM3's KAT summary, with another detail */
	json_object_set_new(kat, "detail", json_string("measured twice"));
	S_sh("mkdir -p '%s/kat/sm3'", c.in[1]);
	S_sh("cp '%s/../../s1/algorithms/sm3.json' '%s/../algorithms/'", c.in[1], c.in[1]);
	S_put(c.in[1], "kat/sm3/SM3.json", kat);
	want = hb_sprintf("merge: %s and %s hold different copies of kat/sm3/SM3.json\n", c.in[0],
		c.in[1]);
	S_expect_refused(&c, c.in[0], c.in[1], want);
	free(want);

	/* the same summary, but the catalog entries beside the shards differ */
	S_sh("cp '%s/kat/sm3/SM3.json' '%s/kat/sm3/SM3.json'", c.in[0], c.in[1]);
	S_sh("sed -i 's/\"SM3\"/\"SM3 (GB\\/T 32905)\"/' '%s/../algorithms/sm3.json'", c.in[1]);
	cr_assert_eq(hb_write_sha256sums(c.in[1]), 0);
	want = hb_sprintf("merge: %s and %s hold different copies of algorithms/sm3.json (the catalog "
		"entry beside them)\n", c.in[0], c.in[1]);
	S_expect_refused(&c, c.in[0], c.in[1], want);
	free(want);
	json_decref(kat);

	/* other KAT sets checked in shard 2 (system.json does not record them) */
	S_sh("rm -r '%s/kat/sm3'", c.in[1]);
	kat = hbt_json_load(c.in[1], "kat/sha2/SHA-256.json");
	json_object_set_new(kat, "sets_mask", json_integer(15));
	S_sh("cp '%s/../../s1/algorithms/sm3.json' '%s/../algorithms/'", c.in[1], c.in[1]);
	S_put(c.in[1], "kat/sha2/SHA-256.json", kat);
	want = hb_sprintf("merge: %s/kat/sha2/SHA-256.json and %s/kat/sha2/SHA-256.openssl.json differ "
		"in sets_mask (15 vs 1: other KAT sets were checked)\n", c.in[1], c.in[1]);
	S_expect_refused(&c, c.in[0], c.in[1], want);
	free(want);
	json_decref(kat);
	S_teardown(&c);
}

Test(merge, shards_of_other_plans_or_the_same_shard_twice_are_refused, .timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("shards");
	char *want;
	json_t *sys;

	S_edit(c.in[1], "shard.index", json_integer(1));
	want = hb_sprintf("merge: %s and %s are both shard 1 of 2\n", c.in[0], c.in[1]);
	S_expect_refused(&c, c.in[0], c.in[1], want);
	free(want);
	S_edit(c.in[1], "shard.index", json_integer(2));

	S_edit(c.in[1], "shard.count", json_integer(3));
	S_expect_refused(&c, c.in[0], c.in[1], "differ in shard.count (2 vs 3)");
	S_edit(c.in[1], "shard.count", json_integer(2));

	S_edit(c.in[1], "shard.plan", json_pack("[s]", "sha2/SHA-256"));
	S_expect_refused(&c, c.in[0], c.in[1], "shard.libraries[1]: not a library of shard.plan");
	S_edit(c.in[1], "shard.plan", json_pack("[s,s,s,s,s,s,s]", "sha2/SHA-256",
		"sha2/SHA-256.openssl", "sha2/SHA-512", "sha2/SHA-512.openssl", "sm3/SM3",
		"sm3/SM3.openssl", "sha3/SHA3-256"));
	S_expect_refused(&c, c.in[0], c.in[1], "differ in shard.plan (");

	S_edit(c.in[1], "shard", json_null());
	S_expect_refused(&c, c.in[0], c.in[1], "/s2/" SYS "/system.json: shard: expected an object");

	/* a whole campaign among shards */
	sys = hbt_json_load(c.in[1], "system.json");
	json_object_del(sys, "shard");
	S_put(c.in[1], "system.json", sys);
	S_expect_refused(&c, c.in[0], c.in[1], "differ in shard.count (2 vs absent)");
	json_decref(sys);
	S_teardown(&c);
}

Test(merge, an_output_folder_in_use_is_refused_and_left_as_it_was, .timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("outexists");
	char *sys = hb_path_join(c.out, SYS), *note = hb_path_join(sys, "notes.txt"), *want;
	char *catalog = hb_sprintf("%s/algorithms/sm3.json", c.out);

	cr_assert_eq(hb_mkdir_p(sys), 0);
	hbt_write(note, "mine\n", 5);
	want = hb_sprintf("hashbench: merge: %s already exists and is not empty: remove it or choose "
		"another --data\n", sys);
	S_expect_refused(&c, c.in[0], c.in[1], want);
	free(want);

	/* no OUT/<system>, but a catalog entry there is a folder */
	unlink(note);
	rmdir(sys);
	cr_assert_eq(hb_mkdir_p(catalog), 0);
	want = hb_sprintf("hashbench: merge: %s: exists and is not a file: remove it or choose "
		"another --data\n", catalog);
	S_expect_refused(&c, c.in[0], c.in[1], want);
	free(want);

	/* writing fails half-way (OUT/algorithms is a file): everything written is taken back */
	S_sh("rm -rf '%s/algorithms' && echo x > '%s/algorithms'", c.out, c.out);
	want = hb_sprintf("hashbench: merge: %s/algorithms: not a folder\n", c.out);
	S_expect_refused(&c, c.in[0], c.in[1], want);
	free(want);

	/* --data the folder around an input: OUT/<system> is that input */
	free(c.out);
	c.out = hb_sprintf("%s/s1", c.root);
	want = hb_sprintf("hashbench: merge: %s/" SYS " is one of the inputs: choose another --data\n",
		c.out);
	S_expect_refused(&c, c.in[0], c.in[1], want);
	free(want);
	free(catalog);
	free(note);
	free(sys);
	S_teardown(&c);
}

static size_t S_count_lines(const char *s, const char *prefix)
{
	size_t n = 0;
	const char *p;
	for (p = s; (p = strstr(p, prefix)) != NULL; p++)
		n++;
	return n;
}

Test(merge, units_no_shard_measured_are_listed, .timeout = HBT_TIMEOUT(120))
{
	S_case c = S_setup("missing");
	char *err, *want, *sys = hb_path_join(c.out, SYS);
	char *rec = hb_sprintf("%s/records/sm3/SM3__hash_32.json", c.in[0]);
	json_t *j;

	/* shard 2 not given: its four libraries and the shard are listed, nothing is written */
	cr_expect_eq(S_merge(&err, &c, NULL, c.in[0], NULL), 1);
	cr_expect(strstr(err, "hashbench: merge: missing shard 2 of 2 (no input is that shard)\n"),
		"%s", err);
	cr_expect(strstr(err, "hashbench: merge: missing kat/sha2/SHA-512.openssl.json (the KAT "
		"summary of sha2/SHA-512.openssl)\n"), "%s", err);
	cr_expect_eq(S_count_lines(err, "hashbench: merge: missing "), 5, "%s", err);
	cr_expect(strstr(err, "hashbench: merge: 5 units missing or unfinished (listed above); "
		"nothing written (--allow-missing writes the merge without them)\n"), "%s", err);
	cr_expect(!S_exists(c.out));
	free(err);

	/* a record that passed its KAT but was not measured, and an unfinished shard */
	unlink(rec);
	S_edit(c.in[0], "campaign.end", json_null());
	cr_expect_eq(S_merge(&err, &c, NULL, c.in[0], c.in[1]), 1);
	cr_expect(strstr(err, "hashbench: merge: missing records/sm3/SM3__hash_32.json (sm3/SM3 was "
		"timed after its KAT; no record of 32-byte messages)\n"), "%s", err);
	want = hb_sprintf("hashbench: merge: unfinished %s (campaign.end is null)\n", c.in[0]);
	cr_expect(strstr(err, want), "%s", err);
	free(want);
	cr_expect_eq(S_count_lines(err, "\n"), 3, "two units and the last line: %s", err);
	cr_expect(!S_exists(c.out));
	free(err);

	cr_expect_eq(S_merge(&err, &c, "--allow-missing", c.in[0], c.in[1]), 0, "%s", err);
	cr_expect_eq(S_count_lines(err, "hashbench: warning: merge: "), 2, "%s", err);
	cr_expect(strstr(err, "units missing (listed above)"), "%s", err);
	j = hbt_json_load(sys, "system.json");
	cr_expect(json_is_null(json_object_get(json_object_get(j, "campaign"), "end")),
		"an unfinished shard: the whole is unfinished");
	json_decref(j);
	S_sh("cd '%s' && sha256sum --quiet -c SHA256SUMS", sys);
	{
		char *merged = hb_sprintf("%s/records/sm3/SM3.openssl__hash_32.json", sys);
		cr_expect(hb_is_file(merged));
		free(merged);
	}
	free(err);
	free(rec);
	free(sys);
	S_teardown(&c);
}
