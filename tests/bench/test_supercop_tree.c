/* test_supercop_tree.c — hashbench over ../shared/supercop, a subset of SUPERCOP's own tree, as a
 * user sees it (issue 31): list, kat-check at the tree's first okcompilers/c line, a copy changed
 * by one byte, --compilers, and a quick campaign that hashgen renders and checks (a folder that is
 * not a tree: test_supercop_args.c). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <jansson.h>

#include "support.h"

#define HASHGEN HBT_BUILD_DIR "/bin/hashgen"
/* the framework files and 24 implementations of 9 primitives the fixture holds */
#define N_IMPLS 24
#define N_PRIMS 9
/* the bundled NGCC baselines kat-check checks beside the tree (all pass) */
#define N_BASELINES 12

/* The tree's okcompilers/c lines 1 (its default) and 3. */
#define O3 "gcc -march=native -mtune=native -O3 -fwrapv -fPIC -fPIE -gdwarf-4 -Wall"
#define O2 "gcc -march=native -mtune=native -O2 -fwrapv -fPIC -fPIE -gdwarf-4 -Wall"

/* ---- the tree, the machine and the shared work folder ---- */

static char *S_tree(void)
{
	char *tree = hbt_shared_path("supercop"), *ops = hb_path_join(tree, "crypto_hash");
	if (!hb_is_dir(ops))
		cr_skip_test("../shared/supercop is not there: the SUPERCOP tree tests are skipped");
	free(ops);
	return tree;
}

static const char *S_machine(void)
{
	static struct utsname u;
	cr_assert_eq(uname(&u), 0);
	return u.machine;
}

/* Crypto++ present would make sha256/cryptopp buildable: the fixture's outcome assumes not. */
static void S_require_no_cryptopp(void)
{
	if (hb_is_dir("/usr/include/cryptopp"))
		cr_skip_test("Crypto++ is installed here (/usr/include/cryptopp): the fixture's "
			"documented outcome has sha256/cryptopp not run");
}

/* Whatever compiles the tree's code: the cross compiler of make test-aarch64 knows no host CPU
 * for SUPERCOP's -march=native. */
static void S_require_native_compiler(void)
{
	HBT_SKIP_UNDER_EMULATION("a native compiler for SUPERCOP's -march=native");
}

/* Whether this CPU has AVX2 (only asked on x86-64, where the outcomes are documented). */
static int S_has_avx2(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_cpu_supports("avx2");
#else
	return 0;
#endif
}

/* The checksums' outcomes are documented for x86-64 only (README of ../shared/supercop). */
static void S_require_x86_64(void)
{
	S_require_native_compiler();
	if (strcmp(S_machine(), "x86_64") != 0)
		cr_skip_test("the SUPERCOP fixture's checksum outcomes are documented on x86-64 only; "
			"this machine is %s", S_machine());
}

/* One --work folder for every test of this run, so that each implementation is built once: the
 * campaign and kat-check runs reuse each other's builds. Private, under /tmp, named after this
 * build folder so two builds' test runs never share it; emptied once per run (below). */
static const char *S_work(void)
{
	static char path[128];
	if (!path[0]) {
		unsigned char md[32];
		hb_sha256(md, HBT_BUILD_DIR, strlen(HBT_BUILD_DIR));
		snprintf(path, sizeof(path), "/tmp/hbt-supercop-tree-%02x%02x%02x%02x%02x%02x%02x%02x",
			md[0], md[1], md[2], md[3], md[4], md[5], md[6], md[7]);
	}
	return path;
}

ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
	char *cmd = hb_sprintf("rm -rf '%s' && mkdir -m 700 '%s'", S_work(), S_work());
	(void)set;
	if (system(cmd) != 0)
		fprintf(stderr, "test_supercop_tree: could not empty %s\n", S_work());
	free(cmd);
}

/* The work folder, made again if a test runs without the hook having emptied it. */
static const char *S_work_dir(void)
{
	if (!hb_is_dir(S_work()))
		cr_assert_eq(mkdir(S_work(), 0700), 0, "%s", S_work());
	return S_work();
}

/* A writable copy of the tree under a fresh test folder (cp -r keeps its links-as-files). */
static char *S_copy(const char *tree, const char *name)
{
	char *tmp = hbt_tmpdir(name), *copy = hb_path_join(tmp, "supercop");
	char *cmd = hb_sprintf("cp -r '%s' '%s' && chmod -R u+w '%s'", tree, copy, copy);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	free(cmd);
	free(tmp);
	return copy;
}

/* The first 16 hex digits of a primitive's checksumsmall or checksumbig, as kat-check shows
 * them ("87baaef0918b9e5d…"). */
static char *S_expected(const char *tree, const char *prim, const char *which)
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

/* ---- hashbench list ---- */

typedef struct {
	char prim[64], impl[64], path[160], status[512], sources[65];
} S_entry;

/* The SUPERCOP implementations of list's output, in its order; how many. */
static size_t S_parse_list(S_entry *e, size_t max, const char *out)
{
	const char *line = out;
	int supercop = 0;
	size_t n = 0;

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char *l = strndup(line, len);
		if (l[0] != ' ') {
			supercop = strstr(l, "  (SUPERCOP primitive, ") != NULL;
		} else if (supercop && l[2] != ' ') {
			const char *last = strrchr(l, ' ') + 1;
			cr_assert_lt(n, max);
			memset(&e[n], 0, sizeof(e[n]));
			cr_assert_eq(sscanf(l, "%63s %63s", e[n].prim, e[n].impl), 2, "%s", l);
			snprintf(e[n].path, sizeof(e[n].path), "%s", last);
			n++;
		} else if (supercop && n && strncmp(l, "    status: ", 12) == 0) {
			snprintf(e[n - 1].status, sizeof(e[n - 1].status), "%s", l + 12);
		} else if (supercop && n && strncmp(l, "    sources sha256: ", 20) == 0) {
			snprintf(e[n - 1].sources, sizeof(e[n - 1].sources), "%.64s", l + 20);
		}
		free(l);
		line += len + (nl ? 1 : 0);
	}
	return n;
}

static const S_entry *S_find(const S_entry *e, size_t n, const char *prim, const char *impl)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (strcmp(e[i].prim, prim) == 0 && strcmp(e[i].impl, impl) == 0)
			return &e[i];
	cr_assert_fail("list has no %s/%s", prim, impl);
	return NULL;
}

static size_t S_list(S_entry *e, size_t max, const char *tree)
{
	const char *args[] = { "list", "--supercop", tree, NULL };
	char *out, *err;
	size_t n;
	int status = hbt_cli(&out, &err, NULL, args);
	cr_assert_eq(status, 0, "list: %d\n%s", status, err);
	cr_expect_str_eq(err, "", "list says nothing on standard error");
	n = S_parse_list(e, max, out);
	free(out);
	free(err);
	return n;
}

Test(supercop_tree, list_shows_24_implementations_of_9_primitives_and_why_3_do_not_run_here,
	.timeout = HBT_TIMEOUT(60))
{
	/* not run on x86-64, and the reason list gives */
	static const char *const x86[][3] = {
		{ "sha256", "cryptopp", "not run here: needs Crypto++ (hash.cpp includes "
			"<cryptopp/sha.h>, not installed)" },
		{ "keccakc512", "inplace32bi-armv7m", "not run here: not for this machine (amd64; its "
			"architectures file: thumb)" },
		{ "blake3", "neon", "not run here: needs an ARM CPU with NEON (blake3_neon.c includes "
			"<arm_neon.h>)" },
		{ NULL, NULL, NULL } };
	/* on aarch64 NEON is there, x86's assembly and intrinsics are not */
	static const char *const arm[][3] = {
		{ "sha256", "cryptopp", "not run here: needs Crypto++ (hash.cpp includes "
			"<cryptopp/sha.h>, not installed)" },
		{ "keccakc512", "inplace32bi-armv7m", "not run here: not for this machine (aarch64; "
			"its architectures file: thumb)" },
		{ "keccakc512", "x86_64_asm", "not run here: not for this machine (aarch64; its "
			"architectures file: amd64)" },
		{ "blake2b", "avx2-1", "not run here: needs an x86 CPU (blake2b.c includes "
			"<immintrin.h>)" },
		{ NULL, NULL, NULL } };
	const char *const (*want)[3];
	char *tree = S_tree();
	const char *prims[64];
	S_entry e[64];
	size_t n, i, j, nprims = 0, may = 0, nwant = 0;

	if (strcmp(S_machine(), "x86_64") == 0)
		want = x86;
	else if (strcmp(S_machine(), "aarch64") == 0)
		want = arm;
	else
		cr_skip_test("what may run here is written down for x86-64 and aarch64; this machine "
			"is %s", S_machine());
	S_require_no_cryptopp();

	n = S_list(e, 64, tree);
	cr_assert_eq(n, N_IMPLS, "list shows %zu SUPERCOP implementations", n);
	for (i = 0; i < n; i++) {
		char *path = hb_sprintf("crypto_hash/%s/%s", e[i].prim, e[i].impl);
		cr_expect_str_eq(e[i].path, path, "each implementation with its path in the tree");
		cr_expect_eq(strlen(e[i].sources), 64, "%s: sources' SHA-256", path);
		free(path);
		for (j = 0; j < nprims && strcmp(prims[j], e[i].prim) != 0; j++)
			;
		if (j == nprims)
			prims[nprims++] = e[i].prim;
		if (strncmp(e[i].status, "may run here (", 14) == 0)
			may++;
		else
			cr_expect(strncmp(e[i].status, "not run here: ", 14) == 0, "%s/%s: status %s",
				e[i].prim, e[i].impl, e[i].status);
	}
	cr_expect_eq(nprims, N_PRIMS, "%zu primitives", nprims);
	for (; want[nwant][0]; nwant++)
		cr_expect_str_eq(S_find(e, n, want[nwant][0], want[nwant][1])->status, want[nwant][2],
			"%s/%s", want[nwant][0], want[nwant][1]);
	cr_expect_eq(may, N_IMPLS - nwant, "%zu may run here on %s", may, S_machine());
	/* Rust, built offline against Debian's crates (make deps installs cargo and sha2 0.9) */
	cr_expect_str_eq(S_find(e, n, "sha256", "rust_sha2")->status, "may run here (Rust, with "
		"Debian's crates)");
	/* the other way round: the one that is ARM-only on x86-64 runs on aarch64, and so on */
	if (want == x86) {
		cr_expect_str_eq(S_find(e, n, "keccakc512", "x86_64_asm")->status, "may run here (C)");
		cr_expect_str_eq(S_find(e, n, "blake2b", "avx2-1")->status, "may run here (C)");
	} else {
		cr_expect_str_eq(S_find(e, n, "blake3", "neon")->status, "may run here (C)");
	}
	free(tree);
}

/* ---- kat-check ---- */

typedef struct {
	char *name[64];  /* "md5 (ref)" */
	char *text[64];  /* its indented lines and its own line, each ending in a newline */
	size_t n;
	char *summary;   /* the last line, without its newline */
} S_report;

/* kat-check's standard output as blocks: each library's file lines, then its result line. */
static void S_parse_report(S_report *r, const char *out)
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

static const char *S_block(const S_report *r, const char *name)
{
	size_t i;
	for (i = 0; i < r->n; i++)
		if (strcmp(r->name[i], name) == 0)
			return r->text[i];
	cr_assert_fail("kat-check reports no %s", name);
	return NULL;
}

static void S_report_free(S_report *r)
{
	size_t i;
	for (i = 0; i < r->n; i++) {
		free(r->name[i]);
		free(r->text[i]);
	}
	free(r->summary);
}

/* kat-check of tree (all of it when only is NULL) with the shared work folder and two jobs; the
 * NGCC baselines come too, with the one set 2_23 (their whole KAT is test_baselines' and costs
 * 45 s here; --sets does not touch the SUPERCOP checksums). Returns the exit status. */
static int S_kat_check(S_report *r, char **err, const char *tree, const char *compilers,
	const char *only)
{
	const char *args[16] = { "kat-check", "--supercop", tree, "--work", S_work_dir(), "--jobs",
		"2", "--sets", "2_23" };
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
	S_parse_report(r, out);
	free(out);
	return status;
}

static int S_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The block of an implementation passing both checksums at the default setting. */
static char *S_pass_block(const char *tree, const char *prim, const char *impl)
{
	char *s = S_expected(tree, prim, "checksumsmall"), *b = S_expected(tree, prim, "checksumbig");
	char *text = hb_sprintf("  checksumsmall: PASS (%s, expected %s)\n"
		"  checksumbig: PASS (%s, expected %s)\n%s (%s): PASS with " O3 "\n", s, s, b, b, prim,
		impl);
	free(s);
	free(b);
	return text;
}

/* A block whose checksumsmall differs at setting compiler: checksumbig is not run. */
static void S_expect_small_fails(const char *block, const char *tree, const char *prim,
	const char *impl)
{
	char *s = S_expected(tree, prim, "checksumsmall"), *b = S_expected(tree, prim, "checksumbig");
	char *head = hb_sprintf("%s (%s): FAIL with " O3 ": checksumsmall ", prim, impl);
	char *tail = hb_sprintf(" differs from the tree's %s\n", s);
	char *small = hb_sprintf("  checksumsmall: FAIL (");
	char *small_tail = hb_sprintf(", expected %s): checksumsmall ", s);
	char *big = hb_sprintf("  checksumbig: SKIPPED (none…, expected %s): not run: checksumsmall "
		"did not pass\n", b);
	const char *last = strrchr(block, '\n');

	cr_expect(S_starts(block, small) && strstr(block, small_tail), "%s (%s): %s", prim, impl,
		block);
	cr_expect(strstr(block, big) != NULL, "%s (%s): checksumbig not run\n%s", prim, impl, block);
	while (last > block && last[-1] != '\n')
		last--;
	cr_expect(S_starts(last, head) && strstr(last, tail), "%s (%s): names checksumsmall and the "
		"compiler line: %s", prim, impl, last);
	free(s);
	free(b);
	free(head);
	free(tail);
	free(small);
	free(small_tail);
	free(big);
}

static const char *const S_passing[][2] = { { "blake2b", "ref" }, { "blake2b", "regs" },
	{ "blake2s", "ref" }, { "jh256", "simple" }, { "keccakc512", "simple" },
	{ "keccakc512", "x86_64_asm" }, { "md5", "openssl" }, { "md5", "ref" },
	{ "sha256", "openssl" }, { "sha256", "ref" }, { "sha256", "rust_sha2" },
	{ "sha256", "sphlib-small" },
	{ "sha3256", "compact" }, { "sha3256", "openssl" }, { "sha512", "compact" },
	{ "sha512", "openssl" }, { "sha512", "ref" }, { NULL, NULL } };

Test(supercop_tree, kat_check_passes_17_fails_3_by_checksumsmall_and_blake3_portable_refuses,
	.timeout = HBT_TIMEOUT(1200))
{
	char *tree = S_tree(), *err, *want;
	S_report r;
	size_t i;
	int status;

	S_require_x86_64();
	S_require_no_cryptopp();
	status = S_kat_check(&r, &err, tree, NULL, NULL);
	cr_expect_eq(status, 1, "kat-check exits 1 when a library fails: %d\n%s", status, err);
	cr_expect_str_eq(err, "", "kat-check says nothing on standard error");

	for (i = 0; S_passing[i][0]; i++) {
		char *name = hb_sprintf("%s (%s)", S_passing[i][0], S_passing[i][1]);
		want = S_pass_block(tree, S_passing[i][0], S_passing[i][1]);
		cr_expect_str_eq(S_block(&r, name), want, "%s passes both checksums", name);
		free(want);
		free(name);
	}
	cr_expect_eq(i, 17);

	/* gcc 12 at -O3 miscompiles the bitslice JH; blake2b/avx2-1 gives wrong digests (with AVX2:
	 * without it the compiler refuses its intrinsics) */
	S_expect_small_fails(S_block(&r, "jh256 (bitslice_opt32)"), tree, "jh256", "bitslice_opt32");
	S_expect_small_fails(S_block(&r, "jh256 (bitslice_opt64)"), tree, "jh256", "bitslice_opt64");
	if (S_has_avx2())
		S_expect_small_fails(S_block(&r, "blake2b (avx2-1)"), tree, "blake2b", "avx2-1");
	else
		cr_expect(S_starts(S_block(&r, "blake2b (avx2-1)"), "  checksumsmall: ERROR"),
			"without AVX2: %s", S_block(&r, "blake2b (avx2-1)"));

	{
		char *s = S_expected(tree, "blake3", "checksumsmall");
		char *b = S_expected(tree, "blake3", "checksumbig");
		const char *why = "refused to build by its own #error: #error \"there are wider "
			"implementations on this platform; fail the build\"";
		want = hb_sprintf("  checksumsmall: ERROR (none…, expected %s): %s\n"
			"  checksumbig: SKIPPED (none…, expected %s): %s\n"
			"blake3 (portable): ERROR with " O3 ": %s\n", s, why, b, why, why);
		cr_expect_str_eq(S_block(&r, "blake3 (portable)"), want);
		free(want);
		free(s);
		free(b);
	}

	/* not run here: named with the reason list gives, nothing tried */
	cr_expect_str_eq(S_block(&r, "blake3 (neon)"), "blake3 (neon): NOT RUN: needs an ARM CPU "
		"with NEON (blake3_neon.c includes <arm_neon.h>)\n");
	cr_expect_str_eq(S_block(&r, "keccakc512 (inplace32bi-armv7m)"), "keccakc512 "
		"(inplace32bi-armv7m): NOT RUN: not for this machine (amd64; its architectures file: "
		"thumb)\n");
	cr_expect_str_eq(S_block(&r, "sha256 (cryptopp)"), "sha256 (cryptopp): NOT RUN: needs "
		"Crypto++ (hash.cpp includes <cryptopp/sha.h>, not installed)\n");

	/* every SUPERCOP implementation once, and the bundled baselines beside them */
	cr_expect_eq(r.n, N_IMPLS + N_BASELINES, "%zu libraries reported", r.n);
	cr_expect(S_starts(S_block(&r, "SHA-256 (reference)"), "  KAT_2_23_SHA-256.txt: PASS"));
	want = hb_sprintf("%d of %d libraries passed, 3 not run here (see hashbench list)",
		17 + N_BASELINES, N_IMPLS - 3 + N_BASELINES);
	cr_expect_str_eq(r.summary, want);
	free(want);
	S_report_free(&r);
	free(err);
	free(tree);
}

Test(supercop_tree, a_copy_whose_md5_ref_output_differs_by_one_byte_fails_only_md5_ref,
	.timeout = HBT_TIMEOUT(1200))
{
	char *tree = S_tree(), *copy, *err, *err2, *want;
	S_report orig, changed;
	size_t i;
	int status;

	S_require_native_compiler();
	copy = S_copy(tree, "supercop-changed");
	/* the last byte of the digest XORed with 1, after it is copied out */
	hbt_replace(copy, "crypto_hash/md5/ref/hash.c", "  for (i = 0;i < 16;++i) out[i] = h[i];\n",
		"  for (i = 0;i < 16;++i) out[i] = h[i];\n  out[15] ^= 1;\n");

	S_kat_check(&orig, &err, tree, NULL, NULL);
	cr_assert(strstr(S_block(&orig, "md5 (ref)"), "\nmd5 (ref): PASS with "),
		"the tree's md5/ref passes: %s", S_block(&orig, "md5 (ref)"));
	status = S_kat_check(&changed, &err2, copy, NULL, NULL);
	cr_expect_eq(status, 1, "%s", err2);
	cr_expect_str_eq(err2, "", "kat-check says nothing on standard error");

	{
		const char *b = S_block(&changed, "md5 (ref)"), *head;
		char *s = S_expected(tree, "md5", "checksumsmall");
		char *big = S_expected(tree, "md5", "checksumbig");
		char *small = hb_sprintf("  checksumsmall: FAIL (");
		char *differs = hb_sprintf(" differs from the tree's %s\n", s);
		char *skipped = hb_sprintf("\n  checksumbig: SKIPPED (none…, expected %s): not run: "
			"checksumsmall did not pass\nmd5 (ref): FAIL with ", big);
		cr_expect(S_starts(b, small), "%s", b);
		cr_expect(strstr(b, skipped) != NULL, "%s", b);
		head = strstr(b, "\nmd5 (ref): FAIL with ");
		cr_assert_not_null(head, "%s", b);
		cr_expect(S_starts(head + 1, "md5 (ref): FAIL with ") && strstr(head, ": checksumsmall ") &&
			strstr(head, differs), "named, with checksumsmall differing: %s", head + 1);
		free(s);
		free(big);
		free(small);
		free(differs);
		free(skipped);
	}

	/* everything else as in the tree itself, block for block and in the same order */
	cr_assert_eq(changed.n, orig.n);
	for (i = 0; i < orig.n; i++) {
		cr_expect_str_eq(changed.name[i], orig.name[i]);
		if (strcmp(orig.name[i], "md5 (ref)") != 0)
			cr_expect_str_eq(changed.text[i], orig.text[i], "%s is unaffected", orig.name[i]);
	}
	/* one library fewer passed, whatever else passed here */
	{
		int passed, total, not_run, p2, t2, n2;
		cr_assert_eq(sscanf(orig.summary, "%d of %d libraries passed, %d not run here", &passed,
			&total, &not_run), 3, "%s", orig.summary);
		cr_assert_eq(sscanf(changed.summary, "%d of %d libraries passed, %d not run here", &p2,
			&t2, &n2), 3, "%s", changed.summary);
		want = hb_sprintf("%d of %d libraries passed, %d not run here (see hashbench list)",
			passed - 1, total, not_run);
		cr_expect_str_eq(changed.summary, want);
		free(want);
	}
	S_report_free(&orig);
	S_report_free(&changed);
	free(err);
	free(err2);
	free(copy);
	free(tree);
}

Test(supercop_tree, compilers_keeps_o2_for_jh256_bitslice_opt32_and_lists_o3_as_failing,
	.timeout = HBT_TIMEOUT(300))
{
	char *tree = S_tree(), *tmp, *file, *err, *s, *b, *want;
	S_report r;
	const char *block;
	int status;

	S_require_x86_64();
	tmp = hbt_tmpdir("supercop-compilers");
	file = hb_path_join(tmp, "compilers");
	hbt_write(file, O3 "\n" O2 "\n", strlen(O3 "\n" O2 "\n"));
	{
		/* the two lines are the tree's own, lines 1 and 3 of okcompilers/c */
		char *cmd = hb_sprintf("sed -n '1p;3p' '%s/okcompilers/c' | cmp -s - '%s'", tree, file);
		cr_assert_eq(system(cmd), 0, "%s", cmd);
		free(cmd);
	}
	status = S_kat_check(&r, &err, tree, file, "jh256:bitslice_opt32");
	cr_expect_eq(status, 0, "it passes at one setting: %d\n%s", status, err);
	cr_expect_str_eq(err, "");
	cr_assert_eq(r.n, 1, "only jh256 (bitslice_opt32) is checked");
	cr_expect_null(r.summary, "one library: no summary line");

	s = S_expected(tree, "jh256", "checksumsmall");
	b = S_expected(tree, "jh256", "checksumbig");
	block = S_block(&r, "jh256 (bitslice_opt32)");
	want = hb_sprintf("  " O2 ": PASS\n"
		"  checksumsmall: PASS (%s, expected %s)\n"
		"  checksumbig: PASS (%s, expected %s)\n"
		"jh256 (bitslice_opt32): PASS with " O2 "\n", s, s, b, b);
	cr_expect(S_starts(block, "  " O3 ": FAIL: checksumsmall "), "-O3 tried first and failed: %s",
		block);
	{
		const char *nl = strchr(block, '\n');
		char *o3_tail = hb_sprintf(" differs from the tree's %s\n", s);
		cr_assert_not_null(nl);
		cr_expect(strstr(block, o3_tail) && strstr(block, o3_tail) < nl + 1, "%s", block);
		cr_expect_str_eq(nl + 1, want, "-O2 passes and is the setting kept");
		free(o3_tail);
	}
	free(want);
	free(s);
	free(b);
	S_report_free(&r);
	free(err);
	free(file);
	free(tmp);
	free(tree);
}

/* Run sh -c cmd; its exit status. */
static int S_sh(const char *cmd)
{
	int status = system(cmd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Test(supercop_tree, two_files_defining_the_same_function_link_through_the_archive_as_do_part,
	.timeout = HBT_TIMEOUT(300))
{
	char *tree = S_tree(), *copy, *err, *cmd, *want, *s, *b;
	S_report r;
	int status;

	S_require_native_compiler();
	/* lsh256's ref, sse2, ssse3 and avx2 carry two files that both define lsh256_init: do-part
	 * links objects through lib<op>.a, so only the member needed is taken and they pass */
	copy = S_copy(tree, "supercop-twice");
	cmd = hb_sprintf("cp -r '%s/crypto_hash/md5/ref' '%s/crypto_hash/md5/twice' && "
		"cp '%s/crypto_hash/md5/ref/hash.c' '%s/crypto_hash/md5/twice/hash-again.c'", copy, copy,
		copy, copy);
	cr_assert_eq(S_sh(cmd), 0, "%s", cmd);
	status = S_kat_check(&r, &err, copy, NULL, "md5:twice");
	cr_expect_eq(status, 0, "%s", err);
	s = S_expected(tree, "md5", "checksumsmall");
	b = S_expected(tree, "md5", "checksumbig");
	want = hb_sprintf("  checksumsmall: PASS (%s, expected %s)\n  checksumbig: PASS (%s, "
		"expected %s)\nmd5 (twice): PASS with " O3 "\n", s, s, b, b);
	cr_expect_str_eq(S_block(&r, "md5 (twice)"), want, "no 'multiple definition'");
	S_report_free(&r);
	free(want);
	free(s);
	free(b);
	free(err);
	free(cmd);
	free(copy);
	free(tree);
}

/* The compiler lines of a block as its setting lines name them, in order, "|"-joined. */
static char *S_settings_of(const char *block)
{
	char *out = hb_strdup(""), *more;
	const char *line;
	for (line = block; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *colon = strstr(line, ": ");
		if (strncmp(line, "  ", 2) != 0 || strncmp(line, "  checksum", 10) == 0 || !colon)
			continue;
		more = hb_sprintf("%s%s%.*s", out, *out ? "|" : "", (int)(colon - line - 2), line + 2);
		free(out);
		out = more;
	}
	return out;
}

Test(supercop_tree, a_cpp_implementation_gets_every_cpp_line_of_the_tree_with_compilers,
	.timeout = HBT_TIMEOUT(300))
{
	char *tree = S_tree(), *copy, *err, *cmd, *file, *settings, *dir;
	S_report r;
	const char *gpp = "g++ -march=native -mtune=native -O2 -fwrapv -fPIC -fPIE -gdwarf-4 -Wall";
	const char *clangpp = "clang++ -march=native -O2 -fwrapv -Qunused-arguments -fPIC -fPIE "
		"-gdwarf-4 -Wall";
	int k;

	S_require_native_compiler();
	copy = S_copy(tree, "supercop-cpp");
	cmd = hb_sprintf("mkdir '%s/crypto_hash/md5/cxx' && cp '%s/crypto_hash/md5/openssl/api.h' "
		"'%s/crypto_hash/md5/cxx/' && cp '%s/crypto_hash/md5/openssl/hash.c' "
		"'%s/crypto_hash/md5/cxx/hash.cpp' && printf '%%s\\n%%s\\n' '%s' '%s' > "
		"'%s/okcompilers/cpp'", copy, copy, copy, copy, copy, gpp, clangpp, copy);
	cr_assert_eq(S_sh(cmd), 0, "%s", cmd);
	file = hb_path_join(copy, "okcompilers/c");
	dir = hb_path_join(copy, "okcompilers");
	for (k = 0; k < 2; k++) {
		/* a file of C lines, then the folder: either way both C++ lines of the tree's file */
		int status = S_kat_check(&r, &err, copy, k ? dir : file, "md5:cxx");
		const char *block = S_block(&r, "md5 (cxx)");
		char *want = hb_sprintf("%s|%s", gpp, clangpp);
		cr_expect_eq(status, 0, "%s", err);
		settings = S_settings_of(block);
		cr_expect_str_eq(settings, want, "%s", block);
		cr_expect(strstr(block, "\nmd5 (cxx): PASS with ") != NULL, "%s", block);
		free(want);
		free(settings);
		S_report_free(&r);
		free(err);
	}
	free(file);
	free(dir);
	free(cmd);
	free(copy);
	free(tree);
}

/* ---- a quick campaign ---- */

static const char *const S_campaign_impls[][2] = { { "md5", "ref" }, { "md5", "openssl" },
	{ "sha256", "ref" }, { "sha256", "openssl" }, { "sha256", "sphlib-small" },
	{ "sha256", "rust_sha2" }, { NULL, NULL } };

static const char *S_str(json_t *j, const char *key)
{
	const char *s = json_string_value(json_object_get(j, key));
	return s ? s : "(not a string)";
}

static void S_expect_kat_summary(const char *sys, const char *prim, const char *impl,
	const char *tree)
{
	char *rel = hb_sprintf("kat/%s/%s.%s.json", prim, prim, impl);
	json_t *j = hbt_json_load(sys, rel), *files = json_object_get(j, "files");
	static const char *const names[] = { "checksumsmall", "checksumbig" };
	size_t k;

	cr_expect_str_eq(S_str(j, "result"), "PASS", "%s", rel);
	cr_expect_str_eq(S_str(json_object_get(j, "supercop"), "compiler"), O3, "%s", rel);
	cr_assert_eq(json_array_size(files), 2, "%s: checksumsmall and checksumbig", rel);
	for (k = 0; k < 2; k++) {
		json_t *f = json_array_get(files, k);
		char *want = S_expected(tree, prim, names[k]);
		cr_expect_str_eq(S_str(f, "name"), names[k], "%s", rel);
		cr_expect_str_eq(S_str(f, "result"), "PASS", "%s: %s", rel, names[k]);
		cr_expect(strncmp(S_str(f, "sha256"), want, 16) == 0 &&
			strcmp(S_str(f, "sha256"), S_str(f, "expected_sha256")) == 0, "%s: %s", rel,
			names[k]);
		free(want);
	}
	json_decref(j);
	free(rel);
}

static void S_expect_record(const char *sys, const S_entry *e, const char *size)
{
	char *rel = hb_sprintf("records/%s/%s.%s__hash_%s.json", e->prim, e->prim, e->impl, size);
	json_t *j = hbt_json_load(sys, rel), *sc = json_object_get(j, "supercop");

	cr_expect_str_eq(S_str(j, "algorithm"), e->prim, "%s", rel);
	cr_expect_str_eq(S_str(j, "implementation"), e->impl, "%s", rel);
	cr_expect_str_eq(S_str(j, "kat"), "PASS", "%s", rel);
	cr_assert(json_is_object(sc), "%s carries a supercop object", rel);
	cr_expect_str_eq(S_str(sc, "path"), e->path, "%s", rel);
	cr_expect_str_eq(S_str(sc, "compiler"), O3, "%s", rel);
	cr_expect_str_eq(S_str(sc, "sources_sha256"), e->sources, "%s: the sources list names", rel);
	cr_expect_str_eq(S_str(sc, "version"), "20260330", "%s", rel);
	json_decref(j);
	free(rel);
}

/* A quick campaign "t" of the primitives only of tree into data, two passes at sizes; with CPU
 * locks of its own in locks: a lab's campaign timing on this machine must not make it wait (the
 * figures are not what these tests look at). Its exit status, *out and *err. */
static int S_quick_run(char **out, char **err, const char *tree, const char *data,
	const char *only, const char *sizes, const char *locks)
{
	const char *args[] = { "run", "--system", "t", "--profile", "quick", "--supercop", tree,
		"--only", only, "--data", data, "--work", S_work_dir(), "--passes", "2", "--sizes", sizes,
		NULL };
	int status;
	cr_assert_eq(hb_mkdir_p(locks), 0);
	setenv("HASHBENCH_LOCK_DIR", locks, 1);
	status = hbt_cli(out, err, NULL, args);
	unsetenv("HASHBENCH_LOCK_DIR");
	return status;
}

Test(supercop_tree, a_quick_campaign_of_md5_and_sha256_writes_evidence_hashgen_renders,
	.timeout = HBT_TIMEOUT(900))
{
	char *tree = S_tree(), *copy, *tmp, *data, *sys, *site, *locks, *err, *out, *cmd;
	S_entry e[64];
	size_t n, i, count = 0;
	json_t *cat, *not_run;
	int status;

	S_require_native_compiler();
	S_require_no_cryptopp();
	copy = S_copy(tree, "supercop-campaign");
	tmp = hbt_tmpdir("supercop-campaign-data");
	data = hb_path_join(tmp, "data");
	sys = hb_path_join(data, "t");
	site = hb_path_join(tmp, "site");
	locks = hb_path_join(tmp, "locks");
	status = S_quick_run(&out, &err, copy, data, "md5,sha256", "64,4096", locks);
	cr_assert_eq(status, 0, "run: %d\n%s", status, err);
	cr_expect(strstr(err, "campaign t finished: 12 records measured, 0 kept from an earlier run, "
		"0 failed; 0 libraries failed their KAT check, 0 did not build") != NULL, "%s", err);

	n = S_list(e, 64, copy);
	for (i = 0; S_campaign_impls[i][0]; i++) {
		const S_entry *one = S_find(e, n, S_campaign_impls[i][0], S_campaign_impls[i][1]);
		S_expect_record(sys, one, "64");
		S_expect_record(sys, one, "4096");
		S_expect_kat_summary(sys, one->prim, one->impl, tree);
	}
	/* nothing of the ones not run here, nor of the baselines --only left out */
	{
		char *md5 = hb_path_join(sys, "records/md5"), *sha256 = hb_path_join(sys, "records/sha256");
		char *kat = hb_path_join(sys, "kat/sha256/sha256.cryptopp.json");
		char *others = hb_sprintf("test $(ls '%s/records' | wc -l) -eq 2", sys);
		cr_expect_eq(hbt_count_records(md5), 4);
		cr_expect_eq(hbt_count_records(sha256), 8, "rust_sha2's, no record of cryptopp");
		cr_expect(!hb_is_file(kat), "no KAT summary of cryptopp");
		cr_expect_eq(S_sh(others), 0, "records of md5 and sha256 only");
		free(md5);
		free(sha256);
		free(kat);
		free(others);
	}
	count = hbt_evidence_check_tree(sys);
	cr_expect_eq(count, 21, "system.json, sentinel.json, history.json, 6 KAT summaries and 12 "
		"records follow the contract (%zu)", count);
	cmd = hb_sprintf("cd '%s' && sha256sum --quiet --strict -c SHA256SUMS", sys);
	cr_expect_eq(S_sh(cmd), 0, "SHA256SUMS verifies");
	free(cmd);

	/* the catalog entry keeps the ones not run here, with their reasons */
	cat = hbt_json_load(data, "algorithms/sha256.json");
	not_run = json_object_get(json_object_get(cat, "supercop"), "not_run");
	cr_assert_eq(json_array_size(not_run), 1, "sha256: cryptopp not run");
	cr_expect_str_eq(S_str(json_array_get(not_run, 0), "implementation"), "cryptopp");
	cr_expect_str_eq(S_str(json_array_get(not_run, 0), "path"), "crypto_hash/sha256/cryptopp");
	cr_expect_str_eq(S_str(json_array_get(not_run, 0), "reason"), "needs Crypto++ (hash.cpp "
		"includes <cryptopp/sha.h>, not installed)");
	json_decref(cat);
	cat = hbt_json_load(data, "algorithms/md5.json");
	cr_expect_eq(json_array_size(json_object_get(json_object_get(cat, "supercop"), "not_run")),
		0, "md5: every implementation runs here");
	json_decref(cat);

	/* hashgen renders it, and --check finds the site as it would render it again */
	cmd = hb_sprintf("'%s' --strict --data '%s' --templates '%s/templates' --out '%s' "
		">/dev/null 2>&1", HASHGEN, data, HBT_SOURCE_DIR, site);
	cr_assert_eq(S_sh(cmd), 0, "hashgen renders the campaign: %s", cmd);
	free(cmd);
	{
		static const char *const pages[] = { "t/md5.html", "t/sha256.html", "t/sha256.md",
			"t/ebash.html", "t/compare.html", NULL };
		for (i = 0; pages[i]; i++) {
			char *p = hb_path_join(site, pages[i]);
			cr_expect(hb_is_file(p), "%s", p);
			free(p);
		}
	}
	cmd = hb_sprintf("'%s' --check --data '%s' --templates '%s/templates' --out '%s' "
		">/dev/null 2>&1", HASHGEN, data, HBT_SOURCE_DIR, site);
	cr_expect_eq(S_sh(cmd), 0, "hashgen --check passes: %s", cmd);
	free(cmd);
	free(out);
	free(err);
	free(locks);
	free(site);
	free(sys);
	free(data);
	free(tmp);
	free(copy);
	free(tree);
}

/* ---- a primitive without checksums ---- */

/* The text of dir/rel (caller frees); asserts that it reads. */
static char *S_text(const char *dir, const char *rel)
{
	char *path = hb_path_join(dir, rel), *text;
	hb_buf b;
	cr_assert_eq(hb_file_read_raw(&b, path), 0, "%s", hb_error_last());
	text = strndup((const char *)b.data, b.len);
	hb_buf_free(&b);
	free(path);
	return text;
}

Test(supercop_tree, a_primitive_without_checksums_is_unverified_timed_and_checked_for_consistency,
	.timeout = HBT_TIMEOUT(900))
{
	char *tree = S_tree(), *copy, *tmp, *data, *sys, *site, *locks, *err, *out, *cmd, *s, *b;
	char *want, *page;
	static const char *const impls[] = { "openssl", "ref" };
	S_report r;
	json_t *kat, *files;
	size_t i;
	int status;

	S_require_native_compiler();
	/* k12, shavite3512 and five more primitives of the tree have no checksum files: SUPERCOP's
	 * try says "unknown", and nothing may read PASS */
	copy = S_copy(tree, "supercop-unverified");
	cmd = hb_sprintf("rm '%s/crypto_hash/md5/checksumsmall' '%s/crypto_hash/md5/checksumbig'",
		copy, copy);
	cr_assert_eq(S_sh(cmd), 0, "%s", cmd);
	free(cmd);
	s = S_expected(tree, "md5", "checksumsmall");
	b = S_expected(tree, "md5", "checksumbig");
	status = S_kat_check(&r, &err, copy, NULL, "md5");
	cr_expect_eq(status, 0, "unverified is not a failure: %s", err);
	for (i = 0; i < 2; i++) {
		char *name = hb_sprintf("md5 (%s)", impls[i]);
		want = hb_sprintf("  checksumsmall: UNVERIFIED (%s, expected none): the tree has no "
			"checksumsmall to compare with (SUPERCOP: unknown)\n  checksumbig: UNVERIFIED (%s, "
			"expected none): the tree has no checksumbig to compare with (SUPERCOP: unknown)\n"
			"%s: UNVERIFIED with " O3 ": the tree has no checksumsmall to compare with (SUPERCOP: "
			"unknown)\n", s, b, name);
		cr_expect_str_eq(S_block(&r, name), want);
		free(want);
		free(name);
	}
	S_report_free(&r);
	free(err);

	/* md5/ref now prints other digests: still unverified, and the consistency check tells */
	hbt_replace(copy, "crypto_hash/md5/ref/hash.c", "  for (i = 0;i < 16;++i) out[i] = h[i];\n",
		"  for (i = 0;i < 16;++i) out[i] = h[i];\n  out[15] ^= 1;\n");
	tmp = hbt_tmpdir("supercop-unverified-data");
	data = hb_path_join(tmp, "data");
	sys = hb_path_join(data, "t");
	site = hb_path_join(tmp, "site");
	locks = hb_path_join(tmp, "locks");
	status = S_quick_run(&out, &err, copy, data, "md5", "64", locks);
	cr_assert_eq(status, 0, "run: %d\n%s", status, err);
	cr_expect(strstr(err, "0 libraries failed their KAT check, 0 did not build, 2 timed "
		"unverified (no checksums to compare with); ") != NULL, "%s", err);
	for (i = 0; i < 2; i++) {
		char *rel = hb_sprintf("kat/md5/md5.%s.json", impls[i]), *rec = hb_sprintf(
			"%s/records/md5/md5.%s__hash_64.json", sys, impls[i]);
		size_t k;
		kat = hbt_json_load(sys, rel);
		cr_expect_str_eq(S_str(kat, "result"), "UNVERIFIED", "%s", rel);
		files = json_object_get(kat, "files");
		cr_assert_eq(json_array_size(files), 2, "%s", rel);
		for (k = 0; k < 2; k++) {
			cr_expect_str_eq(S_str(json_array_get(files, k), "result"), "UNVERIFIED");
			cr_expect(json_is_null(json_object_get(json_array_get(files, k), "expected_sha256")));
		}
		json_decref(kat);
		cr_expect(hb_is_file(rec), "timed as SUPERCOP times it: %s", rec);
		free(rel);
		free(rec);
	}
	cr_expect_eq(hbt_evidence_check_tree(sys), 7, "system, sentinel, history, 2 KAT summaries "
		"and 2 records follow the contract");

	cmd = hb_sprintf("'%s' --strict --data '%s' --templates '%s/templates' --out '%s' "
		">/dev/null 2>&1", HASHGEN, data, HBT_SOURCE_DIR, site);
	cr_assert_eq(S_sh(cmd), 0, "hashgen renders it: %s", cmd);
	free(cmd);
	page = S_text(site, "t/md5.md");
	cr_expect(strstr(page, "2 implementations are unverified:") != NULL, "%s", page);
	cr_expect(strstr(page, "Consistency check (not a verification): they print 2 different "
		"pairs of checksums:") != NULL, "%s", page);
	want = hb_sprintf("checksumsmall %s, checksumbig %s: `openssl`", s, b);
	cr_expect(strstr(page, want) != NULL, "openssl's checksums, alone in their group: %s", want);
	cr_expect(strstr(page, "PASS") == NULL, "nothing on the page passes");
	free(want);
	free(page);
	cmd = hb_sprintf("'%s' --check --data '%s' --templates '%s/templates' --out '%s' "
		">/dev/null 2>&1", HASHGEN, data, HBT_SOURCE_DIR, site);
	cr_expect_eq(S_sh(cmd), 0, "hashgen --check passes: %s", cmd);
	free(cmd);
	free(out);
	free(err);
	free(s);
	free(b);
	free(locks);
	free(site);
	free(sys);
	free(data);
	free(tmp);
	free(copy);
	free(tree);
}

/* ---- SUPERCOP's own libraries, built from the tree ---- */

/* Write text to dir/rel. */
static void S_put(const char *dir, const char *rel, const char *text)
{
	char *p = hb_path_join(dir, rel);
	hbt_write(p, text, strlen(text));
	free(p);
}

/* ../shared/supercop-libs (XKCP's k/ and k-targets, sha3256/usekcp), or skip. */
static char *S_libs_overlay(void)
{
	char *libs = hbt_shared_path("supercop-libs");
	if (!hb_is_dir(libs)) {
		free(libs);
		cr_skip_test("../shared/supercop-libs is not there: the library build tests are skipped");
	}
	return libs;
}

Test(supercop_tree, libkeccak_is_built_from_the_tree_as_do_part_keccak_and_usekcp_passes,
	.timeout = HBT_TIMEOUT(900))
{
	char *tree = S_tree(), *libs = S_libs_overlay(), *copy, *bare, *err, *cmd, *s, *b, *want;
	S_report r;
	int status;

	S_require_native_compiler();
	copy = S_copy(tree, "supercop-libkeccak");
	cmd = hb_sprintf("cp -r '%s/.' '%s' && chmod -R u+w '%s'", libs, copy, copy);
	cr_assert_eq(S_sh(cmd), 0, "%s", cmd);
	free(cmd);
	status = S_kat_check(&r, &err, copy, NULL, "sha3256:usekcp");
	cr_expect_eq(status, 0, "%s", err);
	s = S_expected(copy, "sha3256", "checksumsmall");
	b = S_expected(copy, "sha3256", "checksumbig");
	want = hb_sprintf("  checksumsmall: PASS (%s, expected %s)\n  checksumbig: PASS (%s, "
		"expected %s)\nsha3256 (usekcp): PASS with " O3 "\n", s, s, b, b);
	cr_expect_str_eq(S_block(&r, "sha3256 (usekcp)"), want);
	S_report_free(&r);
	free(err);
	cmd = hb_sprintf("ls '%s'/supercop/libkeccak-*/libkeccak.a '%s'/supercop/libkeccak-*/include/"
		"libkeccak.a.headers/KeccakSponge.h >/dev/null", S_work_dir(), S_work_dir());
	cr_expect_eq(S_sh(cmd), 0, "libkeccak.a and its headers, kept for the next build: %s", cmd);
	free(cmd);

	/* a tree without k/ cannot build it: not run, and why */
	bare = S_copy(tree, "supercop-no-k");
	cmd = hb_sprintf("cp -r '%s/crypto_hash/sha3256/usekcp' '%s/crypto_hash/sha3256/'", libs,
		bare);
	cr_assert_eq(S_sh(cmd), 0, "%s", cmd);
	S_kat_check(&r, &err, bare, NULL, "sha3256:usekcp");
	cr_expect_str_eq(S_block(&r, "sha3256 (usekcp)"), "sha3256 (usekcp): NOT RUN: needs "
		"SUPERCOP's libkeccak (XKCP), and this tree has no k/ and k-targets to build it from "
		"(hash.c includes libkeccak.a.headers/KeccakSponge.h)\n");
	S_report_free(&r);
	free(err);
	free(cmd);
	free(want);
	free(s);
	free(b);
	free(bare);
	free(copy);
	free(libs);
	free(tree);
}

Test(supercop_tree, a_cryptopp_stand_in_is_built_as_do_part_cryptopp_and_linked_in,
	.timeout = HBT_TIMEOUT(600))
{
	/* Crypto++ itself (23 MB) is not among the fixtures: a library built the same way, by make
	 * in a copy of the tree's cryptopp/ with CXX and CXXFLAGS from okcompilers/cpp, libcryptopp.a
	 * and its headers under cryptopp/ */
	static const char makefile[] = "libcryptopp.a: md5.o\n\tar cr $@ md5.o\n"
		"md5.o: md5.cpp md5.h\n\t$(CXX) $(CXXFLAGS) -c md5.cpp -o md5.o\n";
	static const char header[] = "namespace CryptoPP {\nvoid StandInMD5(unsigned char *out, "
		"const unsigned char *in, unsigned long long n);\n}\n";
	static const char source[] = "#include <openssl/md5.h>\n#include \"md5.h\"\n"
		"#ifndef NDEBUG\n#error do-part builds Crypto++ with -DNDEBUG\n#endif\n"
		"namespace CryptoPP {\nvoid StandInMD5(unsigned char *out, const unsigned char *in, "
		"unsigned long long n) { MD5(in, n, out); }\n}\n";
	static const char impl[] = "#include <cryptopp/md5.h>\n#include \"crypto_hash.h\"\n"
		"int crypto_hash(unsigned char *out, const unsigned char *in, unsigned long long inlen)\n"
		"{\n  CryptoPP::StandInMD5(out, in, inlen);\n  return 0;\n}\n";
	char *tree = S_tree(), *copy, *err, *cmd, *first, *want, *s, *b;
	S_report r;
	int status;

	S_require_native_compiler();
	copy = S_copy(tree, "supercop-cryptopp");
	cmd = hb_sprintf("mkdir '%s/cryptopp' '%s/crypto_hash/md5/standin' && cp "
		"'%s/crypto_hash/md5/openssl/api.h' '%s/crypto_hash/md5/standin/'", copy, copy, copy,
		copy);
	cr_assert_eq(S_sh(cmd), 0, "%s", cmd);
	free(cmd);
	S_put(copy, "cryptopp/GNUmakefile", makefile);
	S_put(copy, "cryptopp/md5.h", header);
	S_put(copy, "cryptopp/md5.cpp", source);
	S_put(copy, "crypto_hash/md5/standin/hash.cpp", impl);

	status = S_kat_check(&r, &err, copy, NULL, "md5:standin");
	cr_expect_eq(status, 0, "%s", err);
	first = S_text(copy, "okcompilers/cpp");
	first[strcspn(first, "\n")] = 0;
	s = S_expected(copy, "md5", "checksumsmall");
	b = S_expected(copy, "md5", "checksumbig");
	want = hb_sprintf("  checksumsmall: PASS (%s, expected %s)\n  checksumbig: PASS (%s, "
		"expected %s)\nmd5 (standin): PASS with %s\n", s, s, b, b, first);
	cr_expect_str_eq(S_block(&r, "md5 (standin)"), want);
	S_report_free(&r);
	free(err);

	/* a library that does not build: the reason names it and the compiler's last words */
	S_put(copy, "cryptopp/md5.cpp", "#error stand-in broken on purpose\n");
	cmd = hb_sprintf("rm -rf '%s'/supercop/libcryptopp-*", S_work_dir());
	cr_assert_eq(S_sh(cmd), 0);
	free(cmd);
	status = S_kat_check(&r, &err, copy, NULL, "md5:standin");
	cr_expect_eq(status, 1);
	{
		const char *block = S_block(&r, "md5 (standin)");
		cr_expect(strstr(block, "\nmd5 (standin): ERROR with ") && strstr(block,
			": libcryptopp.a (Crypto++, built as do-part cryptopp builds it with ") &&
			strstr(block, "stand-in broken on purpose"), "%s", block);
	}
	S_report_free(&r);
	free(err);
	free(want);
	free(first);
	free(s);
	free(b);
	free(copy);
	free(tree);
}
