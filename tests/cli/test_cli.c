/* test_cli.c — hashbench as a user runs it: stdout, stderr and exit status of list, digest,
 * kat-gen and kat-check, including every command-line error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#define FIXTURES HBT_FIXTURES "/submissions"
#define HANGING HBT_FIXTURES "/hanging" /* a library that never returns, apart */

typedef struct {
	int status;
	char *out, *err;
} S_run;

static S_run S_cli(const char *stdin_data, const char *const args[])
{
	S_run r;
	r.status = hbt_cli(&r.out, &r.err, stdin_data, args);
	return r;
}

static void S_free(S_run *r)
{
	free(r->out);
	free(r->err);
}

/* First line printed by a shell command (OpenSSL as the oracle). */
static char *S_shell(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	char line[4096];
	cr_assert_not_null(p);
	cr_assert_not_null(fgets(line, sizeof(line), p), "%s printed nothing", cmd);
	pclose(p);
	return strdup(line);
}

static char *S_file(const char *name, const void *data, size_t len)
{
	char *dir = hbt_tmpdir("cli"), *path = hb_path_join(dir, name);
	hbt_write(path, data, len);
	free(dir);
	return path;
}

Test(cli, digest_sha3_256_prints_what_openssl_prints)
{
	char *file = S_file("somefile", "hashbench\n", 10), *cmd, *want, *mine;
	const char *args[] = { "digest", "SHA3-256", file, NULL };
	S_run r = S_cli(NULL, args);

	cr_assert_eq(r.status, 0, "%s", r.err);
	cmd = hb_sprintf("openssl dgst -sha3-256 -r '%s'", file);
	want = S_shell(cmd);
	/* openssl -r prints "<hex> *<file>", sha256sum-style tools "<hex>  <file>" */
	mine = hb_sprintf("%.64s  %s\n", want, file);
	cr_expect_str_eq(r.out, mine);
	cr_expect_str_eq(r.err, "");
	S_free(&r);
	free(cmd);
	free(want);
	free(mine);
	free(file);
}

Test(cli, digest_reads_standard_input_and_several_files)
{
	char *a = S_file("a", "abc", 3), *expect;
	const char *stdin_args[] = { "digest", "SM3", NULL };
	const char *multi[] = { "digest", "SM3:reference", a, "-", NULL };
	S_run r = S_cli("abc", stdin_args);

	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out, "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0  -\n");
	S_free(&r);
	r = S_cli("abc", multi);
	cr_assert_eq(r.status, 0, "%s", r.err);
	expect = hb_sprintf("66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0  %s\n"
		"66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0  -\n", a);
	cr_expect_str_eq(r.out, expect);
	S_free(&r);
	free(expect);
	free(a);
}

Test(cli, digest_bits_hashes_a_prefix)
{
	/* 0xFF: the first bit is 1, as the 1-bit ICCS message 0x80 */
	const char *one[] = { "digest", "SM3", "--bits", "1", NULL };
	const char *too_many[] = { "digest", "SM3", "--bits", "25", NULL };
	S_run r = S_cli("\xff", one);

	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out, "985ffe9568be96328729b1c16631e9328d356432413d7556a646b9eefe479b9e  -\n");
	S_free(&r);
	r = S_cli("abc", too_many);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "hashbench: --bits 25: standard input has only 24 bits\n");
	cr_expect_str_eq(r.out, "");
	S_free(&r);
}

Test(cli, digest_length_sets_xof_output)
{
	char *f = S_file("xof", "hashbench", 9), *cmd, *want, *err;
	const char *args[] = { "digest", "SHAKE256", "--length", "512", f, NULL };
	const char *fixed[] = { "digest", "SHA-256", "--length", "512", NULL };
	S_run r = S_cli(NULL, args);

	cr_assert_eq(r.status, 0, "%s", r.err);
	cmd = hb_sprintf("openssl dgst -shake256 -xoflen 64 -r '%s'", f);
	want = S_shell(cmd);
	cr_expect_eq(strncmp(r.out, want, 128), 0, "%s vs %s", r.out, want);
	cr_expect_eq(strlen(r.out), 128 + 2 + strlen(f) + 1);
	S_free(&r);
	r = S_cli("abc", fixed);
	cr_expect_eq(r.status, 1);
	err = "hashbench: --length 512: SHA-256 refused a 512-bit output: CryptHash returned";
	cr_expect_eq(strncmp(r.err, err, strlen(err)), 0, "%s", r.err);
	S_free(&r);
	free(cmd);
	free(want);
	free(f);
}

Test(cli, errors_are_one_line_naming_the_culprit)
{
	static const struct {
		const char *args[8];
		int status;
		const char *err;
	} cases[] = {
		{ { "digest", "NOPE", NULL }, 1,
			"hashbench: NOPE: unknown instance (see hashbench list)\n" },
		{ { "digest", "SM3:fast", NULL }, 1,
			"hashbench: SM3: no implementation 'fast' of this instance (see hashbench list)\n" },
		{ { "digest", "SM3", "/nonexistent/file", NULL }, 1,
			"hashbench: /nonexistent/file: No such file or directory\n" },
		{ { "digest", "SM3", "--bits", "-3", NULL }, 2,
			"hashbench: --bits -3: expected a number of bits (0 or more)\n"
			"(hashbench --help for usage)\n" },
		{ { "digest", "SHAKE256", "--length", "0", NULL }, 2,
			"hashbench: --length 0: expected an output length in bits, 1 to 1048576\n"
			"(hashbench --help for usage)\n" },
		{ { "digest", "SHAKE256", "--length", "12x", NULL }, 2,
			"hashbench: --length 12x: expected an output length in bits, 1 to 1048576\n"
			"(hashbench --help for usage)\n" },
		{ { "digest", NULL }, 2,
			"hashbench: digest: which instance? (hashbench digest SM3 FILE)\n"
			"(hashbench --help for usage)\n" },
		{ { "frobnicate", NULL }, 2,
			"hashbench: unknown command 'frobnicate'\n(hashbench --help for usage)\n" },
		{ { "list", "--fast", NULL }, 2,
			"hashbench: --fast: unknown option\n(hashbench --help for usage)\n" },
		{ { "list", "--submissions", NULL }, 2,
			"hashbench: --submissions: missing value\n(hashbench --help for usage)\n" },
		{ { "list", "--submissions", "/nonexistent", NULL }, 1,
			"hashbench: /nonexistent: no such folder of submissions\n" },
		{ { "kat-gen", "SM3", "--sets", "2_12,2_99", NULL }, 2,
			"hashbench: --sets: unknown KAT set '2_99' (known: 2_12, 2_23, 2_33, loop)\n"
			"(hashbench --help for usage)\n" },
	};
	size_t i;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		S_run r = S_cli("abc", cases[i].args);
		cr_expect_eq(r.status, cases[i].status, "case %zu (%s): status %d", i,
			cases[i].args[0], r.status);
		cr_expect_str_eq(r.err, cases[i].err, "case %zu", i);
		S_free(&r);
	}
}

Test(cli, digest_goes_on_after_an_unreadable_file)
{
	char *a = S_file("a", "abc", 3), *expect;
	const char *args[] = { "digest", "SM3", "/nonexistent/file", a, NULL };
	S_run r = S_cli(NULL, args);
	cr_expect_eq(r.status, 1);
	expect = hb_sprintf("66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0  %s\n", a);
	cr_expect_str_eq(r.out, expect);
	cr_expect_str_eq(r.err, "hashbench: /nonexistent/file: No such file or directory\n");
	S_free(&r);
	free(expect);
	free(a);
}

Test(cli, list_shows_instances_implementations_and_kat_files)
{
	const char *args[] = { "list", "--submissions", FIXTURES, NULL };
	S_run r = S_cli(NULL, args);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "toy-1  Toyhash") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "  toy_256                  reference      256 bits  ") != NULL);
	cr_expect(strstr(r.out, "  toy_256                  optimized      256 bits  ") != NULL);
	cr_expect(strstr(r.out, "/Toyhash/Test_Vectors/KAT_2_23_toy_256.txt\n") != NULL);
	cr_expect(strstr(r.out, "KAT_2_12  sha256 abd431554c4bd15d… in ") != NULL);
	cr_expect(strstr(r.out, "sources: CryptHash_AlgorithmInstance.c\n") != NULL);
	S_free(&r);
}

Test(cli, kat_check_passes_a_baseline)
{
	const char *args[] = { "kat-check", "SM3", NULL };
	S_run r = S_cli(NULL, args);
	cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "  KAT_2_12_SM3.txt: PASS (4097 entries identical)\n") &&
		strstr(r.out, "  KAT_2_23_SM3.txt: PASS (3 entries identical)\n") &&
		strstr(r.out, "SM3 (reference): PASS\n"), "%s", r.out);
	S_free(&r);
}

Test(cli, kat_check_reports_every_library_and_fails_the_run)
{
	/* the libraries that finish get ten times what their slowest KAT file takes here (2 s);
	 * the one that never does is checked alone, where a short limit costs nothing */
	char *limit = hbt_time_limit(30);
	const char *args[] = { "kat-check", "--submissions", FIXTURES, "--time-limit", limit, NULL };
	const char *hang[] = { "kat-check", "--submissions", HANGING, "--time-limit", "1", NULL };
	S_run r = S_cli(NULL, args);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.out, "toy_256 (reference): PASS\n") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "toy_wrong_256 (reference): FAIL: KAT_2_23: Msg_Len = 8388608: "
		"Dst differs: expected 360BA4F1") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "crash_256 (reference): ERROR: KAT_Loop: the library crashed") != NULL);
	cr_expect(strstr(r.out, "nobuild_256 (reference): ERROR: the build failed") != NULL);
	cr_expect(strstr(r.out, "2 of 7 libraries passed\n") != NULL, "%s", r.out);
	S_free(&r);
	r = S_cli(NULL, hang);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.out, "hang_256 (reference): ERROR: KAT_Loop: no result after 1 s (time "
		"limit), stopped\n0 of 1 library passed\n") != NULL, "%s", r.out);
	S_free(&r);
	free(limit);
}

Test(cli, kat_gen_writes_the_iccs_file)
{
	char *dir = hbt_tmpdir("katgen-cli"), *got_path = hb_path_join(dir, "KAT_2_23_SM3.txt");
	const char *args[] = { "kat-gen", "SM3", "--sets", "2_23", "--out", dir, NULL };
	S_run r;
	hb_buf got, want;

	HBT_REQUIRE_SHARED();
	r = S_cli(NULL, args);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strncmp(r.out, "82f392900f880702069d92664ca685952dd705ef5fe9e3bb1d8d3c4bfcdd6ff6  ",
		66) == 0, "%s", r.out);
	cr_assert_eq(hb_file_read(&got, got_path), 0);
	cr_assert_eq(hb_file_read(&want, HBT_SHARED_DIR "/kat/ngcc/KAT_2_23_SM3.txt"), 0);
	cr_expect(got.len == want.len && memcmp(got.data, want.data, got.len) == 0);
	hb_buf_free(&got);
	hb_buf_free(&want);
	S_free(&r);
	free(got_path);
	free(dir);
}
