/* test_submission.c — discovery and builds on fixture packages laid out like real NGCC ones, and
 * the KAT check of fixtures that are right, wrong, crash, overflow or do not compile. */
#include <stdlib.h>
#include <string.h>

#include "hbbuild.h"
#include "hbkat.h"
#include "support.h"

#define FIXTURES HBT_FIXTURES "/submissions"

static hb_catalog *S_load(const char *dir)
{
	hb_catalog *cat = NULL;
	cr_assert_eq(hb_catalog_load(&cat, dir), 0, "%s", hb_error_last());
	return cat;
}

static const hb_instance *S_find(const hb_catalog *cat, const char *spec)
{
	const hb_instance *inst = NULL;
	cr_assert_eq(hb_catalog_find(&inst, cat, spec), 0, "%s", hb_error_last());
	return inst;
}

static int S_ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

Test(submission, discovers_instances_versions_sources_and_kat_files)
{
	hb_catalog *cat = S_load(FIXTURES);
	const hb_instance *ref = S_find(cat, "toy_256"), *opt = S_find(cat, "toy_256:optimized");

	cr_expect_str_eq(ref->algorithm->id, "toy-1");
	cr_expect_str_eq(ref->impl, "reference");
	cr_expect_str_eq(opt->impl, "optimized");
	cr_expect_eq(ref->digest_bits, 256);
	cr_expect(S_ends(ref->dir, "/Reference_Implementation/Toy-256"), "%s", ref->dir);
	cr_expect(S_ends(ref->header, "/CryptHash_Toyhash-256.h"), "%s", ref->header);
	/* main.c and KAT_CryptHash.c define main, drng.c is the ICCS DRNG, toy_core.c is included */
	cr_assert_not_null(ref->sources[0]);
	cr_expect(S_ends(ref->sources[0], "/CryptHash_AlgorithmInstance.c"), "%s", ref->sources[0]);
	cr_expect_null(ref->sources[1], "only one source, got also %s", ref->sources[1]);
	/* KAT files sit in Test_Vectors/, shared by both implementations */
	cr_expect(ref->kat_files[HB_KAT_2_23] &&
		S_ends(ref->kat_files[HB_KAT_2_23], "/Test_Vectors/KAT_2_23_toy_256.txt"));
	cr_expect(ref->kat_files[HB_KAT_LOOP] &&
		S_ends(ref->kat_files[HB_KAT_LOOP], "/Test_Vectors/KAT_Loop_toy_256.txt.gz"));
	cr_expect_null(ref->kat_files[HB_KAT_2_12]);
	cr_expect_str_eq(ref->kat_manifest[HB_KAT_2_12],
		"abd431554c4bd15de2b6b7147b39dbf6cbeab3f51fcd946c2344c62c821bdb1d");
	cr_expect_null(ref->kat_files[HB_KAT_2_33]);
	cr_expect_null(ref->kat_manifest[HB_KAT_2_33]);
	cr_expect_str_eq(opt->kat_files[HB_KAT_2_23], ref->kat_files[HB_KAT_2_23]);
	hb_catalog_free(cat);
}

Test(submission, find_names_unknown_instances_and_implementations)
{
	hb_catalog *cat = S_load(FIXTURES);
	const hb_instance *inst;
	cr_expect_neq(hb_catalog_find(&inst, cat, "litchi_512"), 0);
	cr_expect_str_eq(hb_error_last(), "litchi_512: unknown instance (see hashbench list)");
	cr_expect_neq(hb_catalog_find(&inst, cat, "toy_256:avx2"), 0);
	cr_expect_str_eq(hb_error_last(),
		"toy_256: no implementation 'avx2' of this instance (see hashbench list)");
	hb_catalog_free(cat);
}

Test(submission, builds_each_version_with_its_profile)
{
	hb_catalog *cat = S_load(FIXTURES);
	hb_build_result *ref = NULL, *opt = NULL, *again = NULL;
	hb_impl *impl = NULL;
	unsigned char d[32];

	cr_assert_eq(hb_build(&ref, S_find(cat, "toy_256"), NULL, HBT_WORK), 0, "%s",
		hb_error_last());
	cr_assert_eq(hb_build(&opt, S_find(cat, "toy_256:optimized"), NULL, HBT_WORK), 0, "%s",
		hb_error_last());
	cr_expect_str_eq(ref->profile, "reference");
	cr_expect_str_eq(ref->cflags, "-std=c99 -Wpedantic -Wall -Wextra -O2 "
		"-Wno-error=implicit-function-declaration -Wno-error=int-conversion "
		"-Wno-error=incompatible-pointer-types -fPIC");
	cr_expect_str_eq(opt->profile, "optimized");
	cr_expect(strstr(opt->cflags, "-O3") && strstr(opt->cflags, "-flto") &&
		strstr(opt->cflags, "-fPIC"), "%s", opt->cflags);
	cr_expect(strstr(ref->command, ref->library) != NULL, "the command names the library");
	cr_expect_str_neq(ref->library, opt->library);
	cr_expect_eq(strlen(ref->library_sha256), 64);

	cr_assert_eq(hb_build(&again, S_find(cat, "toy_256"), NULL, HBT_WORK), 0);
	cr_expect_str_eq(again->library, ref->library, "an unchanged instance is not rebuilt");

	cr_assert_eq(hb_impl_open(&impl, ref->library), 0, "%s", hb_error_last());
	cr_expect_eq(hb_impl_hash(impl, 256, (const unsigned char *)"abc", 24, d), 0);
	cr_expect_neq(hb_impl_hash(impl, 512, (const unsigned char *)"abc", 24, d), 0,
		"the fixture refuses a digest length that is not its own");
	cr_expect(strstr(hb_error_last(), "CryptHash returned 1") != NULL, "%s", hb_error_last());
	hb_impl_close(impl);
	hb_build_result_free(ref);
	hb_build_result_free(opt);
	hb_build_result_free(again);
	hb_catalog_free(cat);
}

Test(submission, a_package_that_does_not_build_reports_the_compiler)
{
	hb_catalog *cat = S_load(FIXTURES);
	hb_build_result *res = NULL;
	cr_expect_neq(hb_build(&res, S_find(cat, "nobuild_256"), NULL, HBT_WORK), 0);
	cr_expect(strstr(hb_error_last(), "nobuild_256 (reference): the build failed") &&
		strstr(hb_error_last(), "error: ‘undeclared_variable’ undeclared"), "%s",
		hb_error_last());
	cr_expect_null(res);
	hb_catalog_free(cat);
}

static hb_kat_report S_check(const hb_catalog *cat, const char *spec)
{
	hb_build_result *res = NULL;
	hb_kat_report rep;
	char *dir = hbt_tmpdir("subkat");
	const hb_instance *inst = S_find(cat, spec);
	cr_assert_eq(hb_build(&res, inst, NULL, HBT_WORK), 0, "%s", hb_error_last());
	cr_assert_eq(hb_kat_check(&rep, inst, res->library, 0, dir, 0, NULL), 0, "%s", hb_error_last());
	hb_build_result_free(res);
	free(dir);
	return rep;
}

Test(submission, kat_check_passes_the_right_fixture_in_both_versions)
{
	hb_catalog *cat = S_load(FIXTURES);
	const char *specs[] = { "toy_256", "toy_256:optimized" };
	size_t i;
	for (i = 0; i < 2; i++) {
		hb_kat_report rep = S_check(cat, specs[i]);
		cr_expect_str_eq(rep.result, "PASS", "%s: %s", specs[i], rep.detail);
		cr_expect_eq(rep.mask, (1u << HB_KAT_2_12) | (1u << HB_KAT_2_23) | (1u << HB_KAT_LOOP));
		cr_expect_str_eq(rep.files[HB_KAT_2_12].detail, "matches the manifest (normalised form)");
		hb_kat_report_clear(&rep);
	}
	hb_catalog_free(cat);
}

Test(submission, kat_check_fails_wrong_code_at_the_first_differing_entry)
{
	hb_catalog *cat = S_load(FIXTURES);
	hb_kat_report rep = S_check(cat, "toy_wrong_256");
	cr_expect_str_eq(rep.result, "FAIL");
	cr_expect_str_eq(rep.detail, "KAT_2_23: Msg_Len = 8388608: Dst differs: expected "
		"360BA4F1B42DCB7A187B6EB3A7FE778E343DE3C505346DD7AB0FAFA2106E4809, got "
		"0608E31C3A0215CCD41CA91C2225F4A7ECB6863CF30CADD8B7750568DB61D820");
	cr_expect_str_eq(rep.files[HB_KAT_LOOP].result, "PASS", "short messages are right");
	hb_kat_report_clear(&rep);
	hb_catalog_free(cat);
}

Test(submission, kat_check_survives_crashes_and_overflows)
{
	hb_catalog *cat = S_load(FIXTURES);
	hb_kat_report rep = S_check(cat, "crash_256");
	cr_expect_str_eq(rep.result, "ERROR");
	cr_expect_str_eq(rep.detail, "KAT_Loop: the library crashed (signal 11, Segmentation fault)");
	hb_kat_report_clear(&rep);
	rep = S_check(cat, "overflow_256");
	cr_expect_str_eq(rep.result, "ERROR");
	cr_expect_str_eq(rep.detail, "KAT_Loop: CryptHash wrote outside its 32-byte output buffer "
		"(message of 8192 bits)");
	hb_kat_report_clear(&rep);
	hb_catalog_free(cat);
}

/* ---- algorithm.json and headers written by the test ---- */

static const char S_x_source[] = "int CryptHash(int a, const unsigned char *m, "
	"unsigned long long n, unsigned char *d);\n"
	"int CryptHash(int a, const unsigned char *m, unsigned long long n, unsigned char *d)\n"
	"{ (void)m; (void)n; d[0] = (unsigned char)a; return 0; }\n";

static char *S_package(const char *name, const char *json, const char *header)
{
	char *dir = hbt_tmpdir(name);
	char *inst = hb_sprintf("%s/P/Implementations/Reference_Implementation/X", dir);
	char *p;
	cr_assert_eq(hb_mkdir_p(inst), 0);
	p = hb_path_join(dir, "algorithm.json");
	hbt_write(p, json, strlen(json));
	free(p);
	p = hb_path_join(inst, "CryptHash_AlgorithmInstance.h");
	hbt_write(p, header, strlen(header));
	free(p);
	p = hb_path_join(inst, "x.c");
	hbt_write(p, S_x_source, strlen(S_x_source));
	free(p);
	p = hb_path_join(inst, "bench.c");
	hbt_write(p, "int bench(void);\n", 17);
	free(p);
	free(inst);
	return dir;
}

#define HEADER_X "#define ALGORITHM_INSTANCE \"x_8\"\n#define DIGEST_BIT_LENGTH (8) /* bits */\n"

Test(submission, algorithm_json_errors_name_the_file_and_field)
{
	static const struct {
		const char *json, *message;
	} cases[] = {
		{ "{\"id\": \"x\", \"name\": }", "algorithm.json:1: " },
		{ "[1]", "algorithm.json: expected a JSON object" },
		{ "{\"name\": \"X\"}", "algorithm.json: id: expected a string" },
		{ "{\"id\": \"../x\", \"name\": \"X\"}", "algorithm.json: id: expected a string" },
		{ "{\"id\": \"x\"}", "algorithm.json: name: expected a string" },
		{ "{\"id\": \"x\", \"name\": \"X\", \"build\": {\"x_8\": {\"source\": []}}}",
			"algorithm.json: build.x_8.source: unknown field" },
		{ "{\"id\": \"x\", \"name\": \"X\", \"build\": {\"*\": {\"cflags\": [1]}}}",
			"algorithm.json: build.*.cflags[0]: expected a string" },
	};
	size_t i;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *dir = S_package("badjson", cases[i].json, HEADER_X);
		hb_catalog *cat = NULL;
		cr_expect_neq(hb_catalog_load(&cat, dir), 0, "case %zu loaded", i);
		cr_expect(strstr(hb_error_last(), cases[i].message) != NULL,
			"case %zu: '%s' lacks '%s'", i, hb_error_last(), cases[i].message);
		cr_expect_null(cat);
		free(dir);
	}
}

Test(submission, overrides_exclude_sources_and_add_flags_and_profile)
{
	char *dir = S_package("override", "{\"id\": \"x\", \"name\": \"X\", \"build\": {\"x_8\": "
		"{\"exclude\": [\"bench.c\"], \"cflags\": [\"-DFROM_JSON=1\"], \"profile\": \"resource\"}}}",
		HEADER_X);
	hb_catalog *cat = S_load(dir), *plain;
	const hb_instance *inst = S_find(cat, "x_8");
	hb_build_result *res = NULL;
	char *dir2;

	cr_expect_eq(inst->digest_bits, 8, "DIGEST_BIT_LENGTH (8) with a comment is read");
	cr_assert_not_null(inst->sources[0]);
	cr_expect(S_ends(inst->sources[0], "/x.c"));
	cr_expect_null(inst->sources[1], "bench.c is excluded");
	cr_assert_eq(hb_build(&res, inst, NULL, HBT_WORK), 0, "%s", hb_error_last());
	cr_expect_str_eq(res->profile, "resource");
	cr_expect(strstr(res->cflags, "-Os") && S_ends(res->cflags, "-fPIC -DFROM_JSON=1"), "%s",
		res->cflags);
	hb_build_result_free(res);
	hb_catalog_free(cat);

	dir2 = S_package("nooverride", "{\"id\": \"x\", \"name\": \"X\"}", HEADER_X);
	plain = S_load(dir2);
	cr_expect_not_null(S_find(plain, "x_8")->sources[1], "without the override bench.c is a source");
	hb_catalog_free(plain);
	free(dir);
	free(dir2);
}

Test(submission, a_bad_instance_header_is_skipped_with_a_warning)
{
	char *dir = S_package("badheader", "{\"id\": \"x\", \"name\": \"X\"}",
		"#define ALGORITHM_INSTANCE \"bad name!\"\n#define DIGEST_BIT_LENGTH 8\n");
	hb_catalog *cat = S_load(dir);
	cr_expect_eq(cat->algorithms[0].ninstances, 0);
	cr_assert_not_null(cat->warnings);
	cr_expect(strstr(cat->warnings[0], "ALGORITHM_INSTANCE \"bad name!\" must be 1 to 64 letters")
		!= NULL, "%s", cat->warnings[0]);
	hb_catalog_free(cat);
	free(dir);
}

Test(submission, a_missing_folder_is_an_error)
{
	hb_catalog *cat = NULL;
	cr_expect_neq(hb_catalog_load(&cat, "/nonexistent/submissions"), 0);
	cr_expect_str_eq(hb_error_last(), "/nonexistent/submissions: no such folder of submissions");
}

Test(submission, self_assessment_copies_under_others_are_ignored_unless_included)
{
	hb_catalog *cat;
	const hb_algorithm *alg;
	size_t i, ignored = 0;

	cr_assert_eq(hb_catalog_load(&cat, HBT_FIXTURES "/shapes/others"), 0, "%s",
		hb_error_last());
	cr_assert_eq(cat->nalgorithms, 1);
	alg = &cat->algorithms[0];
	cr_assert_eq(alg->ninstances, 2, "the submitted instance and the included one");
	cr_expect_str_eq(alg->instances[0].name, "extra_256");
	cr_expect(strstr(alg->instances[0].dir, "/Pkg/Others/Extra/Extra-256") != NULL);
	cr_expect_str_eq(alg->instances[1].name, "shape_256");
	cr_expect(strstr(alg->instances[1].dir, "/Pkg/Implementations/Reference_Implementation/") !=
		NULL, "the copy under Others/ is not taken in its place: %s", alg->instances[1].dir);
	for (i = 0; cat->warnings && cat->warnings[i]; i++) {
		cr_expect(strchr(cat->warnings[i], '\n') == NULL, "one line");
		if (strstr(cat->warnings[i], "Others/Self_Evaluation/CryptHash-Shape-x86/Shape-256/"
				"CryptHash_AlgorithmInstance.h: ignored: not under an Implementations folder"))
			ignored++;
	}
	cr_expect_eq(ignored, 1, "list says once what it ignored and why");
	hb_catalog_free(cat);
}
