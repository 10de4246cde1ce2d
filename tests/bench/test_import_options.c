/* test_import_options.c — `hashbench import ngcc-harness` with --catalog DIR and --method FILE. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "support.h"

/* The folders of one test: a copy of ../shared/ngcc-harness-sample and what it is imported into. */
typedef struct {
	char *root;  /* the test's folder */
	char *dir;   /* DIR: root/h/performance/data/arm_1 */
	char *data;  /* --data: root/data, absent until an import writes it */
	char *sys;   /* root/data/arm_1 */
} S_folders;

static S_folders S_copy_sample(const char *name)
{
	char *sample = hbt_shared_path("ngcc-harness-sample"), *cmd;
	S_folders f;

	HBT_REQUIRE_SHARED();
	if (!hb_is_dir(sample))
		cr_skip_test("../shared/ngcc-harness-sample is not there: the import tests are skipped");
	f.root = hbt_tmpdir(name);
	f.dir = hb_path_join(f.root, "h/performance/data/arm_1");
	f.data = hb_path_join(f.root, "data");
	f.sys = hb_path_join(f.data, "arm_1");
	cmd = hb_sprintf("cp -r '%s' '%s/h' && chmod -R u+w '%s/h'", sample, f.root, f.root);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	free(cmd);
	free(sample);
	return f;
}

static void S_folders_free(S_folders *f)
{
	free(f->root);
	free(f->dir);
	free(f->data);
	free(f->sys);
}

/* import ngcc-harness DIR --system arm_1 --data DATA opt value: the status, stderr in *err. */
static int S_import_with(char **err, const S_folders *f, const char *opt, const char *value)
{
	const char *args[] = { "import", "ngcc-harness", f->dir, "--system", "arm_1", "--data",
		f->data, opt, value, NULL };
	char *out;
	int status = hbt_cli(&out, err, NULL, args);
	cr_expect_str_eq(out, "", "import prints nothing on stdout");
	free(out);
	return status;
}

/* path holds exactly text. */
static void S_expect_bytes(const char *path, const char *text)
{
	hb_buf buf;
	cr_assert_eq(hb_file_read_raw(&buf, path), 0, "%s", hb_error_last());
	cr_expect_eq(buf.len, strlen(text), "%s: %zu bytes", path, buf.len);
	cr_expect_str_eq((char *)buf.data, text, "%s", path);
	hb_buf_free(&buf);
}

/* Write text to root/rel (its folders made) and return the path. */
static char *S_put(const char *root, const char *rel, const char *text)
{
	char *path = hb_path_join(root, rel), *dir = hb_strdup(path);
	*strrchr(dir, '/') = 0;
	cr_assert_eq(hb_mkdir_p(dir), 0, "%s", hb_error_last());
	hbt_write(path, text, strlen(text));
	free(dir);
	return path;
}

static char *S_summary(const S_folders *f, int written)
{
	return hb_sprintf("hashbench: imported 32 records and 4 KAT logs of ngcc-harness from %s into "
		"%s/arm_1 (catalog entries: %d written, 0 kept; method page: the harness's)\n", f->dir,
		f->data, written);
}

/* A lab's catalog entry, in a layout no import would write: copied, never rewritten. */
static const char S_entry[] = "{\"id\":\"hash-16\",  \"name\": \"LLH (the lab's own entry)\",\n"
	"  \"category\": \"cryptographic hash algorithm\", \"function\": \"hash\",\n"
	"  \"links\": {\"submission\": {\"label\": \"lab page\",\n"
	"    \"href\": \"https://lab.example/llh\"}}}\n";

Test(import_options, the_catalog_entry_is_the_catalogs_byte_for_byte, .timeout = HBT_TIMEOUT(120))
{
	S_folders f = S_copy_sample("imp-catalog");
	char *cat = hb_path_join(f.root, "lab"), *err, *want = S_summary(&f, 1), *path;

	free(S_put(cat, "algorithms/hash-16.json", S_entry));
	free(S_put(cat, "algorithms/hash-99.json", "{\"id\": \"hash-99\", \"name\": \"Other\"}\n"));
	cr_assert_eq(S_import_with(&err, &f, "--catalog", cat), 0, "%s", err);
	cr_expect_str_eq(err, want);
	path = hb_path_join(f.data, "algorithms/hash-16.json");
	S_expect_bytes(path, S_entry);
	free(path);
	path = hb_path_join(f.data, "algorithms/hash-99.json");
	cr_expect(access(path, F_OK) != 0, "an entry of an algorithm not imported was copied");
	free(path);
	free(err);
	free(want);
	free(cat);
	S_folders_free(&f);
}

Test(import_options, a_catalog_without_the_algorithm_leaves_the_entry_to_the_logs,
	.timeout = HBT_TIMEOUT(120))
{
	S_folders f = S_copy_sample("imp-catalog-none");
	char *cat = hb_path_join(f.root, "lab"), *err, *sets;
	json_t *j;

	free(S_put(cat, "algorithms/hash-99.json", "{\"id\": \"hash-99\", \"name\": \"Other\"}\n"));
	cr_assert_eq(S_import_with(&err, &f, "--catalog", cat), 0, "%s", err);
	j = hbt_json_load(f.data, "algorithms/hash-16.json");
	cr_expect_str_eq(json_string_value(json_object_get(j, "name")), "LLH",
		"the name the KAT logs give");
	sets = json_dumps(json_object_get(j, "parameter_sets"), JSON_COMPACT);
	cr_expect_str_eq(sets, "[\"LLH-256\",\"LLH-512\",\"LLH-768\",\"LLH-1024\"]");
	free(sets);
	json_decref(j);
	free(err);
	free(cat);
	S_folders_free(&f);
}

Test(import_options, a_bad_catalog_is_one_line_and_nothing_is_written, .timeout = HBT_TIMEOUT(120))
{
	static const struct {
		const char *entry; /* NULL: no folder algorithms/ */
		const char *err;   /* after "hashbench: import: " and the catalog folder */
	} cases[] = {
		{ NULL, ": no folder algorithms/ there" },
		{ "{\"id\": \"hash-15\", \"name\": \"Litchi\"}\n", "/algorithms/hash-16.json: expected a "
			"catalog entry with \"id\": \"hash-16\" and a \"name\"" },
		{ "{\"id\": \"hash-16\"}\n", "/algorithms/hash-16.json: expected a catalog entry with "
			"\"id\": \"hash-16\" and a \"name\"" },
		{ "{\"id\": \"hash-16\",\n", "/algorithms/hash-16.json:2: " },
	};
	S_folders f = S_copy_sample("imp-catalog-bad");
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *cat = hb_sprintf("%s/lab%zu", f.root, i), *err, *want;
		if (cases[i].entry)
			free(S_put(cat, "algorithms/hash-16.json", cases[i].entry));
		else
			cr_assert_eq(hb_mkdir_p(cat), 0);
		cr_expect_eq(S_import_with(&err, &f, "--catalog", cat), 1, "case %zu: %s", i, err);
		want = cases[i].entry ? hb_sprintf("hashbench: import: %s%s", cat, cases[i].err) :
			hb_sprintf("hashbench: import: --catalog %s%s", cat, cases[i].err);
		if (i == 3) /* jansson's own words follow the line number */
			cr_expect(strncmp(err, want, strlen(want)) == 0 && strchr(err, '\n') ==
				err + strlen(err) - 1, "case %zu: %s", i, err);
		else
			cr_expect(strncmp(err, want, strlen(want)) == 0 &&
				strcmp(err + strlen(want), "\n") == 0, "case %zu: expected\n%s\ngot\n%s", i, want,
				err);
		cr_expect(access(f.data, F_OK) != 0, "case %zu: the failed import wrote %s", i, f.data);
		free(want);
		free(err);
		free(cat);
	}
	S_folders_free(&f);
}

Test(import_options, the_method_page_is_the_given_file_byte_for_byte, .timeout = HBT_TIMEOUT(120))
{
	static const char ours[] = "# How arm_1 was measured\n\nOur own words, not the harness's.\n";
	S_folders f = S_copy_sample("imp-method");
	char *file = S_put(f.root, "notes/method.md", ours), *err, *want = S_summary(&f, 1);
	char *path = hb_path_join(f.sys, "method.md"), hex[65], *line, *cmd;
	hb_buf sums;

	cr_assert_eq(S_import_with(&err, &f, "--method", file), 0, "%s", err);
	cr_expect_str_eq(err, want, "one line, and no note of a method page not found");
	S_expect_bytes(path, ours);
	/* listed in SHA256SUMS with the given file's digest */
	cr_assert_eq(hb_sha256_file(hex, file), 0, "%s", hb_error_last());
	line = hb_sprintf("%s  method.md\n", hex);
	cr_assert_eq(hb_file_read_raw(&sums, hb_path_join(f.sys, "SHA256SUMS")), 0);
	cr_expect(strstr((char *)sums.data, line) != NULL, "%s not in\n%s", line, (char *)sums.data);
	cmd = hb_sprintf("cd '%s' && sha256sum --quiet -c SHA256SUMS", f.sys);
	cr_expect_eq(system(cmd), 0, "SHA256SUMS does not verify");
	hb_buf_free(&sums);
	free(cmd);
	free(line);
	free(path);
	free(want);
	free(err);
	free(file);
	S_folders_free(&f);
}

Test(import_options, a_method_file_that_cannot_be_read_is_one_line, .timeout = HBT_TIMEOUT(120))
{
	S_folders f = S_copy_sample("imp-method-bad");
	char *missing = hb_path_join(f.root, "no-such-method.md"), *err, *want;

	cr_expect_eq(S_import_with(&err, &f, "--method", missing), 1, "%s", err);
	want = hb_sprintf("hashbench: import: --method: %s: No such file or directory\n", missing);
	cr_expect_str_eq(err, want);
	cr_expect(access(f.data, F_OK) != 0, "the failed import wrote %s", f.data);
	free(want);
	free(err);
	cr_expect_eq(S_import_with(&err, &f, "--method", f.root), 1, "%s", err);
	want = hb_sprintf("hashbench: import: --method: %s: is a folder\n", f.root);
	cr_expect_str_eq(err, want);
	cr_expect(access(f.data, F_OK) != 0, "the failed import wrote %s", f.data);
	free(want);
	free(err);
	free(missing);
	S_folders_free(&f);
}
