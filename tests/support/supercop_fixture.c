/* supercop_fixture.c — the tree, copies of it, its checksums and kat-check's report, for the
 * tests of hashbench over ../shared/supercop. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <jansson.h>

#include "supercop_fixture.h"

char *hbt_sc_tree(void)
{
	char *tree = hbt_shared_path("supercop"), *ops = hb_path_join(tree, "crypto_hash");
	if (!hb_is_dir(ops))
		cr_skip_test("../shared/supercop is not there: the SUPERCOP tree tests are skipped");
	free(ops);
	return tree;
}

char *hbt_sc_libs_overlay(void)
{
	char *libs = hbt_shared_path("supercop-libs");
	if (!hb_is_dir(libs)) {
		free(libs);
		cr_skip_test("../shared/supercop-libs is not there: the library build tests are skipped");
	}
	return libs;
}

const char *hbt_sc_machine(void)
{
	static struct utsname u;
	cr_assert_eq(uname(&u), 0);
	return u.machine;
}

/* Whatever compiles the tree's code: the cross compiler of make test-aarch64 knows no host CPU
 * for SUPERCOP's -march=native. */
void hbt_sc_require_native_compiler(void)
{
	HBT_SKIP_UNDER_EMULATION("a native compiler for SUPERCOP's -march=native");
}

/* The checksums' outcomes are documented for x86-64 only (README of ../shared/supercop). */
void hbt_sc_require_x86_64(void)
{
	hbt_sc_require_native_compiler();
	if (strcmp(hbt_sc_machine(), "x86_64") != 0)
		cr_skip_test("the SUPERCOP fixture's checksum outcomes are documented on x86-64 only; "
			"this machine is %s", hbt_sc_machine());
}

/* Named after this build folder and this test program, so that two builds' test runs, and two
 * test programs run at once, never share it. */
static const char *S_work(void)
{
	static char path[192];
	if (!path[0]) {
		unsigned char md[32];
		hb_sha256(md, HBT_BUILD_DIR, strlen(HBT_BUILD_DIR));
		snprintf(path, sizeof(path), "/tmp/hbt-%s-%02x%02x%02x%02x%02x%02x%02x%02x",
			program_invocation_short_name, md[0], md[1], md[2], md[3], md[4], md[5], md[6],
			md[7]);
	}
	return path;
}

void hbt_sc_work_reset(void)
{
	char *cmd = hb_sprintf("rm -rf '%s' && mkdir -m 700 '%s'", S_work(), S_work());
	if (system(cmd) != 0)
		fprintf(stderr, "%s: could not empty %s\n", program_invocation_short_name, S_work());
	free(cmd);
}

const char *hbt_sc_work_dir(void)
{
	if (!hb_is_dir(S_work()))
		cr_assert_eq(mkdir(S_work(), 0700), 0, "%s", S_work());
	return S_work();
}

/* cp -r keeps the tree's links-as-files. */
char *hbt_sc_copy(const char *tree, const char *name)
{
	char *tmp = hbt_tmpdir(name), *copy = hb_path_join(tmp, "supercop");
	char *cmd = hb_sprintf("cp -r '%s' '%s' && chmod -R u+w '%s'", tree, copy, copy);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	free(cmd);
	free(tmp);
	return copy;
}

char *hbt_sc_expected(const char *tree, const char *prim, const char *which)
{
	char *rel = hb_sprintf("crypto_hash/%s/%s", prim, which), *path = hb_path_join(tree, rel);
	hb_buf b;
	char *shown;
	cr_assert_eq(hb_file_read_raw(&b, path), 0, "%s", hb_error_last());
	cr_assert_geq(b.len, 64, "%s", path);
	shown = hb_sprintf("%.16s…", (const char *)b.data);
	hb_buf_free(&b);
	free(path);
	free(rel);
	return shown;
}

char *hbt_sc_pass_block(const char *tree, const char *prim, const char *impl, const char *line)
{
	char *s = hbt_sc_expected(tree, prim, "checksumsmall");
	char *b = hbt_sc_expected(tree, prim, "checksumbig");
	char *text = hb_sprintf("  checksumsmall: PASS (%s, expected %s)\n"
		"  checksumbig: PASS (%s, expected %s)\n%s (%s): PASS with %s\n", s, s, b, b, prim, impl,
		line);
	free(s);
	free(b);
	return text;
}

int hbt_sc_sh(const char *cmd)
{
	int status = system(cmd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

char *hbt_sc_text(const char *dir, const char *rel)
{
	char *path = hb_path_join(dir, rel), *text;
	hb_buf b;
	cr_assert_eq(hb_file_read_raw(&b, path), 0, "%s", hb_error_last());
	text = strndup((const char *)b.data, b.len);
	hb_buf_free(&b);
	free(path);
	return text;
}

void hbt_sc_put(const char *dir, const char *rel, const char *text)
{
	char *p = hb_path_join(dir, rel);
	hbt_write(p, text, strlen(text));
	free(p);
}

void hbt_sc_parse_report(hbt_sc_report *r, const char *out)
{
	const char *line = out, *start = out;
	memset(r, 0, sizeof(*r));
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
		if (line[0] != ' ') {
			const char *paren = memchr(line, ')', len);
			if (paren && paren[1] == ':') {
				cr_assert_lt(r->n, 64);
				r->name[r->n] = strndup(line, (size_t)(paren + 1 - line));
				r->text[r->n] = strndup(start, (size_t)(line + len - start));
				r->n++;
			} else {
				cr_assert_null(r->summary, "one summary line: %.*s", (int)len, line);
				r->summary = strndup(line, len - (nl ? 1 : 0));
			}
			start = line + len;
		}
		line += len;
	}
	cr_assert_eq(start, line, "the report ends with a result line: %s", start);
}

const char *hbt_sc_block(const hbt_sc_report *r, const char *name)
{
	size_t i;
	for (i = 0; i < r->n; i++)
		if (strcmp(r->name[i], name) == 0)
			return r->text[i];
	cr_assert_fail("kat-check reports no %s", name);
	return NULL;
}

void hbt_sc_report_free(hbt_sc_report *r)
{
	size_t i;
	for (i = 0; i < r->n; i++) {
		free(r->name[i]);
		free(r->text[i]);
	}
	free(r->summary);
}

/* The baselines' whole KAT is test_baselines' and costs 45 s here: one set suffices. */
int hbt_sc_kat_check(hbt_sc_report *r, char **err, const char *tree, const char *compilers,
	const char *only)
{
	const char *args[16] = { "kat-check", "--supercop", tree, "--work", hbt_sc_work_dir(),
		"--jobs", "2", "--sets", "2_23" };
	char *out;
	int n = 9, status;
	if (compilers) {
		args[n++] = "--compilers";
		args[n++] = compilers;
	}
	if (only)
		args[n++] = only;
	args[n] = NULL;
	status = hbt_cli(&out, err, NULL, args);
	hbt_sc_parse_report(r, out);
	free(out);
	return status;
}

int hbt_sc_quick_run(char **out, char **err, const char *tree, const char *data,
	const char *only, const char *sizes, const char *locks)
{
	const char *args[] = { "run", "--system", "t", "--profile", "quick", "--supercop", tree,
		"--only", only, "--data", data, "--work", hbt_sc_work_dir(), "--passes", "2", "--sizes",
		sizes, NULL };
	int status;
	cr_assert_eq(hb_mkdir_p(locks), 0);
	setenv("HASHBENCH_LOCK_DIR", locks, 1);
	status = hbt_cli(out, err, NULL, args);
	unsetenv("HASHBENCH_LOCK_DIR");
	return status;
}

void hbt_sc_campaign_dirs(hbt_sc_campaign *c, const char *name)
{
	c->tmp = hbt_tmpdir(name);
	c->data = hb_path_join(c->tmp, "data");
	c->sys = hb_path_join(c->data, "t");
	c->site = hb_path_join(c->tmp, "site");
	c->locks = hb_path_join(c->tmp, "locks");
}

void hbt_sc_campaign_free(hbt_sc_campaign *c)
{
	free(c->locks);
	free(c->site);
	free(c->sys);
	free(c->data);
	free(c->tmp);
}

int hbt_sc_hashgen(const hbt_sc_campaign *c, const char *option)
{
	char *cmd = hb_sprintf("'%s/bin/hashgen' %s --data '%s' --templates '%s/templates' --out "
		"'%s' >/dev/null 2>&1", HBT_BUILD_DIR, option, c->data, HBT_SOURCE_DIR, c->site);
	int status = hbt_sc_sh(cmd);
	free(cmd);
	return status;
}

const char *hbt_sc_str(struct json_t *j, const char *key)
{
	const char *s = json_string_value(json_object_get(j, key));
	return s ? s : "(not a string)";
}
