/* test_check.c — hashgen --check: a fresh site checks clean; a changed, missing or extra file, an
 * evidence copy that no longer matches SHA256SUMS and a part of the downloads that no longer
 * matches their index each get their line; the site is never changed and the temporary render
 * never stays behind. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hashgen.h"
#include "support.h"

#define DATA HBT_FIXTURES "/data"
#define TEMPLATES HBT_SOURCE_DIR "/templates"
#define HASHGEN HBT_BUILD_DIR "/bin/hashgen"
#define MISMATCH "arm_1/records/hash-15/litchi_512__hash_32.json"

/* A test's folder: data/ (a copy of the fixtures whose SHA256SUMS all match, so nothing links to
 * tests/fixtures), site/, and tmp/ as TMPDIR so a left-over render would show. */
typedef struct {
	char *root, *data, *site, *tmp;
} S_env;

static void S_env_init(S_env *e, const char *name, int clean_data)
{
	char *cmd;
	e->root = hbt_tmpdir(name);
	e->site = hb_path_join(e->root, "site");
	e->tmp = hb_path_join(e->root, "tmp");
	cr_assert_eq(hg_mkdirs(e->tmp), 0, "%s", hg_error_last());
	cr_assert_eq(setenv("TMPDIR", e->tmp, 1), 0);
	if (!clean_data) {
		e->data = strdup(DATA);
		return;
	}
	e->data = hb_path_join(e->root, "data");
	/* the fixtures keep one mismatch on purpose (test_site); this copy lists every file right */
	cmd = hb_sprintf("cp -r '%s' '%s' && cd '%s/arm_1' && find . -type f ! -name SHA256SUMS | "
		"sed 's|^\\./||' | LC_ALL=C sort | xargs sha256sum > SHA256SUMS", DATA, e->data, e->data);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	free(cmd);
}

static void S_env_free(S_env *e)
{
	hg_rm_rf(e->root);
	free(e->root);
	free(e->data);
	free(e->site);
	free(e->tmp);
}

static void S_build(const S_env *e)
{
	hg_site_opts o;
	hg_site_stats st;
	memset(&o, 0, sizeof(o));
	o.data_dir = e->data;
	o.templates_dir = TEMPLATES;
	o.out_dir = e->site;
	o.jobs = 2;
	cr_assert_eq(hg_site_build(&st, &o), 0, "%s", hg_error_last());
}

/* hg_site_check on data and out; returns its result, *report gets what it wrote. */
static int S_check(size_t *problems, char **report, const char *data, const char *out)
{
	hg_site_opts o;
	size_t len = 0;
	FILE *f;
	int rc;
	memset(&o, 0, sizeof(o));
	o.data_dir = data;
	o.templates_dir = TEMPLATES;
	o.out_dir = out;
	o.jobs = 2;
	*report = NULL;
	f = open_memstream(report, &len);
	cr_assert_not_null(f);
	*problems = 12345;
	rc = hg_site_check(problems, &o, f);
	fclose(f);
	return rc;
}

/* build/bin/hashgen --check as a user runs it: exit status, stdout and stderr. */
static int S_cli(char **out, char **err, const S_env *e, const char *data, const char *site)
{
	char *o = hb_path_join(e->root, "stdout"), *x = hb_path_join(e->root, "stderr");
	char *cmd = hb_sprintf("TMPDIR='%s' '%s' --check --data '%s' --templates '%s' --out '%s' "
		">'%s' 2>'%s'", e->tmp, HASHGEN, data, TEMPLATES, site, o, x);
	size_t len;
	int st = system(cmd);
	cr_assert(WIFEXITED(st), "%s did not exit", cmd);
	cr_assert_eq(hg_read_file(out, &len, o), 0, "%s", hg_error_last());
	cr_assert_eq(hg_read_file(err, &len, x), 0, "%s", hg_error_last());
	unlink(o);
	unlink(x);
	free(o);
	free(x);
	free(cmd);
	return WEXITSTATUS(st);
}

static char *S_read(const char *path)
{
	char *text;
	size_t len;
	cr_assert_eq(hg_read_file(&text, &len, path), 0, "%s", hg_error_last());
	return text;
}

/* Replace a file of the site by a copy with one byte changed: written beside it and renamed
 * over it, never through the file, which may be a hard link to the evidence. */
static void S_change_one_byte(const char *site, const char *rel, size_t at)
{
	char *path = hb_path_join(site, rel), *tmp = hb_sprintf("%s.new", path), *text;
	size_t len;
	cr_assert_eq(hg_read_file(&text, &len, path), 0, "%s", hg_error_last());
	cr_assert_gt(len, at);
	text[at] = text[at] == 'x' ? 'y' : 'x';
	cr_assert_eq(hg_write_file(tmp, text, len), 0, "%s", hg_error_last());
	cr_assert_eq(rename(tmp, path), 0);
	free(text);
	free(tmp);
	free(path);
}

/* Is the folder empty (the temporary render was removed)? */
static int S_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;
	cr_assert_not_null(d, "%s", dir);
	while ((de = readdir(d)) != NULL)
		n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
	closedir(d);
	return n == 0;
}

/* Every name under dir with its kind, size, inode and modification time, one line each. */
static void S_listing(FILE *f, const char *dir, const char *rel)
{
	char *path = rel ? hb_path_join(dir, rel) : strdup(dir);
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort), i;
	cr_assert_geq(n, 0, "%s", path);
	for (i = 0; i < n; i++) {
		char *sub = rel ? hb_path_join(rel, names[i]->d_name) : strdup(names[i]->d_name);
		char *full = hb_path_join(dir, sub);
		struct stat st;
		/* TMPDIR's own times change when the render is made and removed in it */
		if (strcmp(names[i]->d_name, ".") && strcmp(names[i]->d_name, "..") &&
			(rel || strcmp(names[i]->d_name, "tmp"))) {
			cr_assert_eq(lstat(full, &st), 0);
			fprintf(f, "%s %o %lld %llu %lld.%09ld\n", sub, (unsigned)st.st_mode,
				(long long)st.st_size, (unsigned long long)st.st_ino, (long long)st.st_mtim.tv_sec,
				st.st_mtim.tv_nsec);
			if (S_ISDIR(st.st_mode))
				S_listing(f, dir, sub);
		}
		free(full);
		free(sub);
		free(names[i]);
	}
	free(names);
	free(path);
}

static char *S_snapshot(const char *dir)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	S_listing(f, dir, NULL);
	fclose(f);
	return text;
}

/* ---- a site as it was built ---- */

Test(check, a_fresh_site_checks_clean)
{
	S_env e;
	char *report, *out, *err, *want;
	size_t problems;
	S_env_init(&e, "check-clean", 1);
	S_build(&e);
	cr_assert_eq(S_check(&problems, &report, e.data, e.site), 0, "%s", hg_error_last());
	cr_expect_eq(problems, 0, "%s", report);
	{
		unsigned long n = 0;
		char *prefix = hb_sprintf("hashgen: %s/ matches %s/: ", e.site, e.data);
		cr_expect(strncmp(report, prefix, strlen(prefix)) == 0, "%s", report);
		cr_expect_eq(sscanf(report + strlen(prefix), "%lu files identical\n", &n), 1, "%s", report);
		cr_expect_gt(n, 40, "%s", report);
		cr_expect_eq(strchr(report, '\n') - report + 1, (long)strlen(report), "one line: %s", report);
		want = hb_sprintf("%s%lu files identical\n", prefix, n);
		free(prefix);
	}
	cr_expect(S_empty(e.tmp), "the temporary render was left in %s", e.tmp);

	/* the same through the CLI: one line on stdout, nothing on stderr, exit 0 */
	cr_expect_eq(S_cli(&out, &err, &e, e.data, e.site), 0, "%s%s", out, err);
	cr_expect_str_eq(out, want);
	cr_expect_str_eq(err, "");
	cr_expect(S_empty(e.tmp), "the temporary render was left in %s", e.tmp);
	free(out);
	free(err);
	free(want);
	free(report);
	S_env_free(&e);
}

Test(check, an_evidence_file_that_does_not_match_sha256sums_is_reported)
{
	/* the fixtures' own mismatch: the site shows it faithfully, the check still names it */
	S_env e;
	char *report, *want;
	size_t problems;
	S_env_init(&e, "check-fixture", 0);
	S_build(&e);
	cr_assert_eq(S_check(&problems, &report, e.data, e.site), 0, "%s", hg_error_last());
	want = hb_sprintf("hashgen: %s/data/" MISMATCH " does not match SHA256SUMS\n", e.site);
	cr_expect_str_eq(report, want);
	cr_expect_eq(problems, 1);
	free(want);
	free(report);
	S_env_free(&e);
}

/* ---- what changed in a site ---- */

Test(check, one_changed_byte_of_a_page_is_one_line)
{
	S_env e;
	char *report, *want, *out, *err;
	size_t problems;
	S_env_init(&e, "check-page", 1);
	S_build(&e);
	S_change_one_byte(e.site, "x86_1/sha2.html", 200);
	cr_assert_eq(S_check(&problems, &report, e.data, e.site), 0, "%s", hg_error_last());
	want = hb_sprintf("hashgen: %s/x86_1/sha2.html differs\n", e.site);
	cr_expect_str_eq(report, want);
	cr_expect_eq(problems, 1);

	cr_expect_eq(S_cli(&out, &err, &e, e.data, e.site), 1);
	cr_expect_str_eq(out, want);
	cr_expect_str_eq(err, "");
	free(out);
	free(err);
	free(want);
	free(report);
	S_env_free(&e);
}

Test(check, a_changed_page_across_systems_is_reported)
{
	S_env e;
	char *report, *want;
	size_t problems;
	S_env_init(&e, "check-across", 1);
	S_build(&e);
	S_change_one_byte(e.site, "algorithms/hash-15.md", 300);
	cr_assert_eq(S_check(&problems, &report, e.data, e.site), 0, "%s", hg_error_last());
	want = hb_sprintf("hashgen: %s/algorithms/hash-15.md differs\n", e.site);
	cr_expect_str_eq(report, want);
	cr_expect_eq(problems, 1);
	free(want);
	free(report);
	S_env_free(&e);
}

Test(check, a_changed_gz_twin_is_reported)
{
	S_env e;
	char *report, *want;
	size_t problems;
	S_env_init(&e, "check-gz", 1);
	S_build(&e);
	S_change_one_byte(e.site, "index.html.gz", 30);
	cr_assert_eq(S_check(&problems, &report, e.data, e.site), 0, "%s", hg_error_last());
	want = hb_sprintf("hashgen: %s/index.html.gz differs\n", e.site);
	cr_expect_str_eq(report, want);
	cr_expect_eq(problems, 1);
	free(want);
	free(report);
	S_env_free(&e);
}

Test(check, a_changed_evidence_copy_differs_and_fails_sha256sums)
{
	static const char rel[] = "data/x86_1/records/sha2/SHA-256__hash_1024.json";
	S_env e;
	char *report, *want, *orig_path, *orig;
	size_t problems;
	S_env_init(&e, "check-evidence", 1);
	S_build(&e);
	orig_path = hb_path_join(e.data, rel + 5);
	orig = S_read(orig_path);
	S_change_one_byte(e.site, rel, 10);
	cr_assert_eq(S_check(&problems, &report, e.data, e.site), 0, "%s", hg_error_last());
	want = hb_sprintf("hashgen: %s/%s differs\nhashgen: %s/%s does not match SHA256SUMS\n",
		e.site, rel, e.site, rel);
	cr_expect_str_eq(report, want);
	cr_expect_eq(problems, 2);
	{
		/* the evidence the copy was linked to is untouched */
		char *now = S_read(orig_path);
		cr_expect_str_eq(now, orig);
		free(now);
	}
	free(orig);
	free(orig_path);
	free(want);
	free(report);
	S_env_free(&e);
}

Test(check, a_changed_part_of_the_downloads_differs_and_fails_its_index)
{
	static const char rel[] = "x86_1/results-001.csv";
	S_env e;
	char *report, *want;
	size_t problems;
	S_env_init(&e, "check-part", 1);
	S_build(&e);
	S_change_one_byte(e.site, rel, 400);
	cr_assert_eq(S_check(&problems, &report, e.data, e.site), 0, "%s", hg_error_last());
	want = hb_sprintf("hashgen: %s/%s differs\nhashgen: %s/%s does not match "
		"results-index.json: its SHA-256 differs\n", e.site, rel, e.site, rel);
	cr_expect_str_eq(report, want);
	cr_expect_eq(problems, 2);
	free(want);
	free(report);

	/* an index that names a part the site does not have */
	hbt_replace(e.site, "results-index.json", "\"arm_1/results-001.json\"",
		"\"arm_1/results-009.json\"");
	cr_assert_eq(S_check(&problems, &report, e.data, e.site), 0, "%s", hg_error_last());
	cr_expect(strstr(report, "/arm_1/results-009.json is listed in results-index.json but "
		"missing\n") != NULL, "%s", report);
	cr_expect(strstr(report, "/results-index.json differs\n") != NULL, "%s", report);
	free(report);
	S_env_free(&e);
}

Test(check, missing_and_extra_files_are_named_in_path_order)
{
	S_env e;
	char *report, *want, *p;
	size_t problems;
	S_env_init(&e, "check-missing", 1);
	S_build(&e);
	p = hb_path_join(e.site, "x86_1/sm3.md");
	cr_assert_eq(unlink(p), 0);
	free(p);
	p = hb_path_join(e.site, "data/x86_1/records/sm3/SM3__hash_1024.json");
	cr_assert_eq(unlink(p), 0);
	free(p);
	p = hb_path_join(e.site, "x86_1/extra.html");
	hbt_write(p, "<p>not rendered</p>\n", 20);
	free(p);
	p = hb_path_join(e.site, "data/x86_1/records/sha2/extra.json");
	hbt_write(p, "{}\n", 3);
	free(p);
	p = hb_path_join(e.site, "empty");
	cr_assert_eq(mkdir(p, 0755), 0);
	free(p);
	cr_assert_eq(S_check(&problems, &report, e.data, e.site), 0, "%s", hg_error_last());
	want = hb_sprintf(
		"hashgen: %1$s/data/x86_1/records/sha2/extra.json is not part of the site\n"
		"hashgen: %1$s/data/x86_1/records/sha2/extra.json is not listed in SHA256SUMS\n"
		"hashgen: %1$s/data/x86_1/records/sm3/SM3__hash_1024.json is missing\n"
		"hashgen: %1$s/data/x86_1/records/sm3/SM3__hash_1024.json is listed in SHA256SUMS but "
		"missing\n"
		"hashgen: %1$s/empty is not part of the site\n"
		"hashgen: %1$s/x86_1/extra.html is not part of the site\n"
		"hashgen: %1$s/x86_1/sm3.md is missing\n", e.site);
	cr_expect_str_eq(report, want);
	cr_expect_eq(problems, 7);
	free(want);
	free(report);
	S_env_free(&e);
}

Test(check, a_symbolic_link_is_not_the_file_it_points_to)
{
	S_env e;
	char *report, *want, *p, *moved;
	size_t problems;
	S_env_init(&e, "check-symlink", 1);
	S_build(&e);
	/* same bytes behind the link: still not what the site must hold */
	p = hb_path_join(e.site, "x86_1/sm3.md");
	moved = hb_path_join(e.root, "sm3.md");
	cr_assert_eq(rename(p, moved), 0);
	cr_assert_eq(symlink(moved, p), 0);
	cr_assert_eq(S_check(&problems, &report, e.data, e.site), 0, "%s", hg_error_last());
	want = hb_sprintf("hashgen: %s/x86_1/sm3.md differs\n", e.site);
	cr_expect_str_eq(report, want);
	cr_expect_eq(problems, 1);
	free(moved);
	free(p);
	free(want);
	free(report);
	S_env_free(&e);
}

Test(check, a_malformed_or_escaping_sha256sums_line_is_reported)
{
	S_env e;
	char *report, *want, *p, *text, *more;
	size_t problems;
	S_env_init(&e, "check-sums", 1);
	S_build(&e);
	p = hb_path_join(e.site, "data/x86_1/SHA256SUMS");
	text = S_read(p);
	more = hb_sprintf("%snot a line\n%064d  ../../../etc/passwd\n", text, 0);
	cr_assert_eq(unlink(p), 0); /* a hard link to data/: never written through */
	hbt_write(p, more, strlen(more));
	cr_assert_eq(S_check(&problems, &report, e.data, e.site), 0, "%s", hg_error_last());
	{
		size_t lines = 0;
		char *q;
		for (q = text; *q; q++)
			lines += *q == '\n';
		want = hb_sprintf("hashgen: %1$s/data/x86_1/SHA256SUMS differs\n"
			"hashgen: %1$s/data/x86_1/SHA256SUMS:%2$zu: expected \"<sha256>  <file>\"\n"
			"hashgen: %1$s/data/x86_1/SHA256SUMS:%3$zu: ../../../etc/passwd: a path that leaves "
			"the system folder: refused\n", e.site, lines + 1, lines + 2);
	}
	cr_expect_str_eq(report, want);
	cr_expect_eq(problems, 3);
	free(more);
	free(text);
	free(p);
	free(want);
	free(report);
	S_env_free(&e);
}

/* ---- the check changes nothing ---- */

Test(check, the_site_is_not_changed_by_a_check)
{
	S_env e;
	char *report, *before, *after, *p;
	size_t problems;
	S_env_init(&e, "check-readonly", 1);
	S_build(&e);
	S_change_one_byte(e.site, "x86_1/sha2.html", 100);
	p = hb_path_join(e.site, "x86_1/sm3.html");
	cr_assert_eq(unlink(p), 0);
	free(p);
	/* the whole test folder: the site, the rebuild cache beside it, the data */
	before = S_snapshot(e.root);
	cr_assert_eq(S_check(&problems, &report, e.data, e.site), 0, "%s", hg_error_last());
	cr_expect_eq(problems, 2, "%s", report); /* sha2.html differs, sm3.html is missing */
	after = S_snapshot(e.root);
	cr_expect_str_eq(after, before);
	free(after);
	free(report);
	free(before);
	S_env_free(&e);
}

/* ---- a check that cannot run ---- */

Test(check, no_site_is_one_line_and_exit_1)
{
	S_env e;
	char *report, *out, *err, *want, *missing;
	size_t problems;
	S_env_init(&e, "check-nosite", 1);
	missing = hb_path_join(e.root, "nothing");
	cr_expect_eq(S_check(&problems, &report, e.data, missing), -1);
	want = hb_sprintf("%s: no site to check", missing);
	cr_expect_str_eq(hg_error_last(), want);
	cr_expect_str_eq(report, "");
	free(want);

	cr_expect_eq(S_cli(&out, &err, &e, e.data, missing), 1);
	want = hb_sprintf("hashgen: %s: no site to check\n", missing);
	cr_expect_str_eq(out, "");
	cr_expect_str_eq(err, want);
	cr_expect(access(missing, F_OK) != 0, "the check created %s", missing);
	free(out);
	free(err);
	free(want);
	free(missing);
	free(report);
	S_env_free(&e);
}

Test(check, a_render_that_fails_leaves_no_temporary_folder)
{
	S_env e;
	char *report, *out, *err;
	size_t problems;
	S_env_init(&e, "check-nodata", 1);
	S_build(&e);
	cr_expect_eq(S_check(&problems, &report, "/nonexistent", e.site), -1);
	cr_expect_str_eq(hg_error_last(), "/nonexistent: No such file or directory");
	cr_expect(S_empty(e.tmp), "the temporary render was left in %s", e.tmp);
	cr_expect_eq(S_cli(&out, &err, &e, "/nonexistent", e.site), 1);
	cr_expect_str_eq(out, "");
	cr_expect_str_eq(err, "hashgen: /nonexistent: No such file or directory\n");
	cr_expect(S_empty(e.tmp), "the temporary render was left in %s", e.tmp);
	free(out);
	free(err);
	free(report);
	S_env_free(&e);
}

/* ---- a downloaded site checked against its own data/ ---- */

Test(check, a_site_checks_against_its_own_data_copy)
{
	S_env e;
	char *report, *want, *site_data, *catalog;
	size_t problems;
	S_env_init(&e, "check-own", 1);
	S_build(&e);
	site_data = hb_path_join(e.site, "data");
	catalog = hb_path_join(site_data, "algorithms");
	cr_assert_eq(access(catalog, F_OK), 0, "the site has no copy of the catalog: %s", catalog);
	cr_assert_eq(S_check(&problems, &report, site_data, e.site), 0, "%s", hg_error_last());
	cr_expect_eq(problems, 0, "%s", report);
	free(report);
	S_change_one_byte(e.site, "x86_1/sha2.html", 200);
	cr_assert_eq(S_check(&problems, &report, site_data, e.site), 0, "%s", hg_error_last());
	want = hb_sprintf("hashgen: %s/x86_1/sha2.html differs\n", e.site);
	cr_expect_str_eq(report, want);
	free(want);
	free(report);
	free(catalog);
	free(site_data);
	S_env_free(&e);
}
