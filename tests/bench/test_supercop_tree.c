/* test_supercop_tree.c — hashbench over ../shared/supercop, a subset of SUPERCOP's own tree, as a
 * user sees it (issue 31): list, kat-check at the tree's first okcompilers/c line, a copy changed
 * by one byte, --compilers, and a quick campaign that hashgen renders and checks (how it builds as
 * do-part does: test_supercop_libs.c; a folder that is
 * not a tree: test_supercop_args.c). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "supercop_fixture.h"

/* the framework files and 24 implementations of 9 primitives the fixture holds */
#define N_IMPLS 24
#define N_PRIMS 9
/* the bundled NGCC baselines kat-check checks beside the tree (all pass) */
#define N_BASELINES 12

ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
	(void)set;
	hbt_sc_work_reset();
}

/* Crypto++ present would make sha256/cryptopp buildable: the fixture's outcome assumes not. */
static void S_require_no_cryptopp(void)
{
	if (hb_is_dir("/usr/include/cryptopp"))
		cr_skip_test("Crypto++ is installed here (/usr/include/cryptopp): the fixture's "
			"documented outcome has sha256/cryptopp not run");
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
	char *tree = hbt_sc_tree();
	const char *prims[64];
	S_entry e[64];
	size_t n, i, j, nprims = 0, may = 0, nwant = 0;

	if (strcmp(hbt_sc_machine(), "x86_64") == 0)
		want = x86;
	else if (strcmp(hbt_sc_machine(), "aarch64") == 0)
		want = arm;
	else
		cr_skip_test("what may run here is written down for x86-64 and aarch64; this machine "
			"is %s", hbt_sc_machine());
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
	cr_expect_eq(may, N_IMPLS - nwant, "%zu may run here on %s", may, hbt_sc_machine());
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

static int S_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A block whose checksumsmall differs at setting compiler: checksumbig is not run. */
static void S_expect_small_fails(const char *block, const char *tree, const char *prim,
	const char *impl)
{
	char *s = hbt_sc_expected(tree, prim, "checksumsmall");
	char *b = hbt_sc_expected(tree, prim, "checksumbig");
	char *head = hb_sprintf("%s (%s): FAIL with " HBT_SC_O3 ": checksumsmall ", prim, impl);
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
	char *tree = hbt_sc_tree(), *err, *want;
	hbt_sc_report r;
	size_t i;
	int status;

	hbt_sc_require_x86_64();
	S_require_no_cryptopp();
	status = hbt_sc_kat_check(&r, &err, tree, NULL, NULL);
	cr_expect_eq(status, 1, "kat-check exits 1 when a library fails: %d\n%s", status, err);
	cr_expect_str_eq(err, "", "kat-check says nothing on standard error");

	for (i = 0; S_passing[i][0]; i++) {
		char *name = hb_sprintf("%s (%s)", S_passing[i][0], S_passing[i][1]);
		want = hbt_sc_pass_block(tree, S_passing[i][0], S_passing[i][1],
			HBT_SC_O3);
		cr_expect_str_eq(hbt_sc_block(&r, name), want, "%s passes both checksums", name);
		free(want);
		free(name);
	}
	cr_expect_eq(i, 17);

	/* gcc 12 at -O3 miscompiles the bitslice JH; blake2b/avx2-1 gives wrong digests (with AVX2:
	 * without it the compiler refuses its intrinsics) */
	S_expect_small_fails(hbt_sc_block(&r, "jh256 (bitslice_opt32)"), tree, "jh256",
		"bitslice_opt32");
	S_expect_small_fails(hbt_sc_block(&r, "jh256 (bitslice_opt64)"), tree, "jh256",
		"bitslice_opt64");
	if (S_has_avx2())
		S_expect_small_fails(hbt_sc_block(&r, "blake2b (avx2-1)"), tree, "blake2b", "avx2-1");
	else
		cr_expect(S_starts(hbt_sc_block(&r, "blake2b (avx2-1)"), "  checksumsmall: ERROR"),
			"without AVX2: %s", hbt_sc_block(&r, "blake2b (avx2-1)"));

	{
		char *s = hbt_sc_expected(tree, "blake3", "checksumsmall");
		char *b = hbt_sc_expected(tree, "blake3", "checksumbig");
		const char *why = "refused to build by its own #error: #error \"there are wider "
			"implementations on this platform; fail the build\"";
		want = hb_sprintf("  checksumsmall: ERROR (none…, expected %s): %s\n"
			"  checksumbig: SKIPPED (none…, expected %s): %s\n"
			"blake3 (portable): ERROR with " HBT_SC_O3 ": %s\n", s, why, b, why, why);
		cr_expect_str_eq(hbt_sc_block(&r, "blake3 (portable)"), want);
		free(want);
		free(s);
		free(b);
	}

	/* not run here: named with the reason list gives, nothing tried */
	cr_expect_str_eq(hbt_sc_block(&r, "blake3 (neon)"), "blake3 (neon): NOT RUN: needs an ARM CPU "
		"with NEON (blake3_neon.c includes <arm_neon.h>)\n");
	cr_expect_str_eq(hbt_sc_block(&r, "keccakc512 (inplace32bi-armv7m)"), "keccakc512 "
		"(inplace32bi-armv7m): NOT RUN: not for this machine (amd64; its architectures file: "
		"thumb)\n");
	cr_expect_str_eq(hbt_sc_block(&r, "sha256 (cryptopp)"), "sha256 (cryptopp): NOT RUN: needs "
		"Crypto++ (hash.cpp includes <cryptopp/sha.h>, not installed)\n");

	/* every SUPERCOP implementation once, and the bundled baselines beside them */
	cr_expect_eq(r.n, N_IMPLS + N_BASELINES, "%zu libraries reported", r.n);
	cr_expect(S_starts(hbt_sc_block(&r, "SHA-256 (reference)"), "  KAT_2_23_SHA-256.txt: PASS"));
	want = hb_sprintf("%d of %d libraries passed, 3 not run here (see hashbench list)",
		17 + N_BASELINES, N_IMPLS - 3 + N_BASELINES);
	cr_expect_str_eq(r.summary, want);
	free(want);
	hbt_sc_report_free(&r);
	free(err);
	free(tree);
}

Test(supercop_tree, a_copy_whose_md5_ref_output_differs_by_one_byte_fails_only_md5_ref,
	.timeout = HBT_TIMEOUT(1200))
{
	char *tree = hbt_sc_tree(), *copy, *err, *err2, *want;
	hbt_sc_report orig, changed;
	size_t i;
	int status;

	hbt_sc_require_native_compiler();
	copy = hbt_sc_copy(tree, "supercop-changed");
	/* the last byte of the digest XORed with 1, after it is copied out */
	hbt_replace(copy, "crypto_hash/md5/ref/hash.c", "  for (i = 0;i < 16;++i) out[i] = h[i];\n",
		"  for (i = 0;i < 16;++i) out[i] = h[i];\n  out[15] ^= 1;\n");

	hbt_sc_kat_check(&orig, &err, tree, NULL, NULL);
	cr_assert(strstr(hbt_sc_block(&orig, "md5 (ref)"), "\nmd5 (ref): PASS with "),
		"the tree's md5/ref passes: %s", hbt_sc_block(&orig, "md5 (ref)"));
	status = hbt_sc_kat_check(&changed, &err2, copy, NULL, NULL);
	cr_expect_eq(status, 1, "%s", err2);
	cr_expect_str_eq(err2, "", "kat-check says nothing on standard error");

	{
		const char *b = hbt_sc_block(&changed, "md5 (ref)"), *head;
		char *s = hbt_sc_expected(tree, "md5", "checksumsmall");
		char *big = hbt_sc_expected(tree, "md5", "checksumbig");
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
	hbt_sc_report_free(&orig);
	hbt_sc_report_free(&changed);
	free(err);
	free(err2);
	free(copy);
	free(tree);
}

Test(supercop_tree, compilers_keeps_o2_for_jh256_bitslice_opt32_and_lists_o3_as_failing,
	.timeout = HBT_TIMEOUT(300))
{
	char *tree = hbt_sc_tree(), *tmp, *file, *err, *s, *b, *want;
	hbt_sc_report r;
	const char *block;
	int status;

	hbt_sc_require_x86_64();
	tmp = hbt_tmpdir("supercop-compilers");
	file = hb_path_join(tmp, "compilers");
	hbt_write(file, HBT_SC_O3 "\n" HBT_SC_O2 "\n", strlen(HBT_SC_O3 "\n" HBT_SC_O2 "\n"));
	{
		/* the two lines are the tree's own, lines 1 and 3 of okcompilers/c */
		char *cmd = hb_sprintf("sed -n '1p;3p' '%s/okcompilers/c' | cmp -s - '%s'", tree, file);
		cr_assert_eq(system(cmd), 0, "%s", cmd);
		free(cmd);
	}
	status = hbt_sc_kat_check(&r, &err, tree, file, "jh256:bitslice_opt32");
	cr_expect_eq(status, 0, "it passes at one setting: %d\n%s", status, err);
	cr_expect_str_eq(err, "");
	cr_assert_eq(r.n, 1, "only jh256 (bitslice_opt32) is checked");
	cr_expect_null(r.summary, "one library: no summary line");

	s = hbt_sc_expected(tree, "jh256", "checksumsmall");
	b = hbt_sc_expected(tree, "jh256", "checksumbig");
	block = hbt_sc_block(&r, "jh256 (bitslice_opt32)");
	want = hb_sprintf("  " HBT_SC_O2 ": PASS\n"
		"  checksumsmall: PASS (%s, expected %s)\n"
		"  checksumbig: PASS (%s, expected %s)\n"
		"jh256 (bitslice_opt32): PASS with " HBT_SC_O2 "\n", s, s, b, b);
	cr_expect(S_starts(block, "  " HBT_SC_O3 ": FAIL: checksumsmall "),
		"-O3 tried first and failed: %s",
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
	hbt_sc_report_free(&r);
	free(err);
	free(file);
	free(tmp);
	free(tree);
}

/* ---- a quick campaign ---- */

static const char *const S_campaign_impls[][2] = { { "md5", "ref" }, { "md5", "openssl" },
	{ "sha256", "ref" }, { "sha256", "openssl" }, { "sha256", "sphlib-small" },
	{ "sha256", "rust_sha2" }, { NULL, NULL } };

static void S_expect_kat_summary(const char *sys, const char *prim, const char *impl,
	const char *tree)
{
	char *rel = hb_sprintf("kat/%s/%s.%s.json", prim, prim, impl);
	json_t *j = hbt_json_load(sys, rel), *files = json_object_get(j, "files");
	static const char *const names[] = { "checksumsmall", "checksumbig" };
	size_t k;

	cr_expect_str_eq(hbt_sc_str(j, "result"), "PASS", "%s", rel);
	cr_expect_str_eq(hbt_sc_str(json_object_get(j, "supercop"), "compiler"), HBT_SC_O3, "%s", rel);
	cr_assert_eq(json_array_size(files), 2, "%s: checksumsmall and checksumbig", rel);
	for (k = 0; k < 2; k++) {
		json_t *f = json_array_get(files, k);
		char *want = hbt_sc_expected(tree, prim, names[k]);
		cr_expect_str_eq(hbt_sc_str(f, "name"), names[k], "%s", rel);
		cr_expect_str_eq(hbt_sc_str(f, "result"), "PASS", "%s: %s", rel, names[k]);
		cr_expect(strncmp(hbt_sc_str(f, "sha256"), want, 16) == 0 &&
			strcmp(hbt_sc_str(f, "sha256"), hbt_sc_str(f, "expected_sha256")) == 0, "%s: %s", rel,
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

	cr_expect_str_eq(hbt_sc_str(j, "algorithm"), e->prim, "%s", rel);
	cr_expect_str_eq(hbt_sc_str(j, "implementation"), e->impl, "%s", rel);
	cr_expect_str_eq(hbt_sc_str(j, "kat"), "PASS", "%s", rel);
	cr_assert(json_is_object(sc), "%s carries a supercop object", rel);
	cr_expect_str_eq(hbt_sc_str(sc, "path"), e->path, "%s", rel);
	cr_expect_str_eq(hbt_sc_str(sc, "compiler"), HBT_SC_O3, "%s", rel);
	cr_expect_str_eq(hbt_sc_str(sc, "sources_sha256"), e->sources, "%s: the sources list names",
		rel);
	cr_expect_str_eq(hbt_sc_str(sc, "version"), "20260330", "%s", rel);
	json_decref(j);
	free(rel);
}

Test(supercop_tree, a_quick_campaign_of_md5_and_sha256_writes_evidence_hashgen_renders,
	.timeout = HBT_TIMEOUT(900))
{
	char *tree = hbt_sc_tree(), *copy, *err, *out, *cmd;
	hbt_sc_campaign c;
	S_entry e[64];
	size_t n, i, count = 0;
	json_t *cat, *not_run;
	int status;

	hbt_sc_require_native_compiler();
	S_require_no_cryptopp();
	copy = hbt_sc_copy(tree, "supercop-campaign");
	hbt_sc_campaign_dirs(&c, "supercop-campaign-data");
	status = hbt_sc_quick_run(&out, &err, copy, c.data, "md5,sha256", "64,4096", c.locks);
	cr_assert_eq(status, 0, "run: %d\n%s", status, err);
	cr_expect(strstr(err, "campaign t finished: 12 records measured, 0 kept from an earlier run, "
		"0 failed; 0 libraries failed their KAT check, 0 did not build") != NULL, "%s", err);

	n = S_list(e, 64, copy);
	for (i = 0; S_campaign_impls[i][0]; i++) {
		const S_entry *one = S_find(e, n, S_campaign_impls[i][0], S_campaign_impls[i][1]);
		S_expect_record(c.sys, one, "64");
		S_expect_record(c.sys, one, "4096");
		S_expect_kat_summary(c.sys, one->prim, one->impl, tree);
	}
	/* nothing of the ones not run here, nor of the baselines --only left out */
	{
		char *md5 = hb_path_join(c.sys, "records/md5");
		char *sha256 = hb_path_join(c.sys, "records/sha256");
		char *kat = hb_path_join(c.sys, "kat/sha256/sha256.cryptopp.json");
		char *others = hb_sprintf("test $(ls '%s/records' | wc -l) -eq 2", c.sys);
		cr_expect_eq(hbt_count_records(md5), 4);
		cr_expect_eq(hbt_count_records(sha256), 8, "rust_sha2's, no record of cryptopp");
		cr_expect(!hb_is_file(kat), "no KAT summary of cryptopp");
		cr_expect_eq(hbt_sc_sh(others), 0, "records of md5 and sha256 only");
		free(md5);
		free(sha256);
		free(kat);
		free(others);
	}
	count = hbt_evidence_check_tree(c.sys);
	cr_expect_eq(count, 21, "system.json, sentinel.json, history.json, 6 KAT summaries and 12 "
		"records follow the contract (%zu)", count);
	cmd = hb_sprintf("cd '%s' && sha256sum --quiet --strict -c SHA256SUMS", c.sys);
	cr_expect_eq(hbt_sc_sh(cmd), 0, "SHA256SUMS verifies");
	free(cmd);

	/* the catalog entry keeps the ones not run here, with their reasons */
	cat = hbt_json_load(c.data, "algorithms/sha256.json");
	not_run = json_object_get(json_object_get(cat, "supercop"), "not_run");
	cr_assert_eq(json_array_size(not_run), 1, "sha256: cryptopp not run");
	cr_expect_str_eq(hbt_sc_str(json_array_get(not_run, 0), "implementation"), "cryptopp");
	cr_expect_str_eq(hbt_sc_str(json_array_get(not_run, 0), "path"), "crypto_hash/sha256/cryptopp");
	cr_expect_str_eq(hbt_sc_str(json_array_get(not_run, 0), "reason"), "needs Crypto++ (hash.cpp "
		"includes <cryptopp/sha.h>, not installed)");
	json_decref(cat);
	cat = hbt_json_load(c.data, "algorithms/md5.json");
	cr_expect_eq(json_array_size(json_object_get(json_object_get(cat, "supercop"), "not_run")),
		0, "md5: every implementation runs here");
	json_decref(cat);

	/* hashgen renders it, and --check finds the site as it would render it again */
	cr_assert_eq(hbt_sc_hashgen(&c, "--strict"), 0, "hashgen renders the campaign");
	{
		static const char *const pages[] = { "t/md5.html", "t/sha256.html", "t/sha256.md",
			"t/ebash.html", "t/compare.html", NULL };
		for (i = 0; pages[i]; i++) {
			char *p = hb_path_join(c.site, pages[i]);
			cr_expect(hb_is_file(p), "%s", p);
			free(p);
		}
	}
	cr_expect_eq(hbt_sc_hashgen(&c, "--check"), 0, "hashgen --check passes");
	free(out);
	free(err);
	hbt_sc_campaign_free(&c);
	free(copy);
	free(tree);
}
