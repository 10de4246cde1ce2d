/* test_shapes.c — packages as they really are (issue 10): deep nesting with spaces and Chinese
 * names run end to end through both programs, ICCS files and clutter in instance folders,
 * several instances declared on one folder, line endings, a header with its own uint64_t,
 * no include guards, helpers with the same names, and code GCC 14 rejects. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "hbbuild.h"
#include "hbkat.h"
#include "support.h"

#define SHAPES HBT_FIXTURES "/shapes"
#define HASHGEN HBT_BUILD_DIR "/bin/hashgen"
#define DEEP_DIR "测试 包/Implementations and Test_Vectors/Deep_C/API_CryptHash/Implementations/" \
	"Reference_Implementation/Deep 256 实现"
#define MEGASCON_DIR SHAPES "/declared/Megascon/Implementations/Reference_Implementation/" \
	"MEGASCON-384-XOF-2048"
#define GARNET_DIR SHAPES "/declared/Garnet/Implementations/API_CryptHash/Implementations/" \
	"Reference_Implementation/Garnet"

/* The catalog of a fixture under tests/fixtures/shapes/ (the caller frees it). */
static hb_catalog *S_load(const char *fixture)
{
	char *dir = hb_path_join(SHAPES, fixture);
	hb_catalog *cat = NULL;
	int rc = hb_catalog_load(&cat, dir);
	cr_assert_eq(rc, 0, "%s: %s", dir, hb_error_last());
	free(dir);
	return cat;
}

/* One instance of it, "NAME[:IMPL]" (borrowed). */
static const hb_instance *S_find(const hb_catalog *cat, const char *spec)
{
	const hb_instance *inst = NULL;
	int rc = hb_catalog_find(&inst, cat, spec);
	cr_assert_eq(rc, 0, "%s: %s", spec, hb_error_last());
	cr_assert_not_null(inst);
	return inst;
}

static char *S_read(const char *path)
{
	hb_buf buf;
	cr_assert_eq(hb_file_read_raw(&buf, path), 0, "%s", hb_error_last());
	return (char *)buf.data;
}

static int S_contains(const char *path, const char *what)
{
	char *text = S_read(path);
	int yes = strstr(text, what) != NULL;
	free(text);
	return yes;
}

/* The sources of an instance by base name, one line: "a.c b.c". */
static char *S_source_names(const hb_instance *inst)
{
	char *out = hb_strdup("");
	size_t i;
	for (i = 0; inst->sources[i]; i++) {
		const char *b = strrchr(inst->sources[i], '/');
		char *more = hb_sprintf("%s%s%s", out, i ? " " : "", b ? b + 1 : inst->sources[i]);
		free(out);
		out = more;
	}
	return out;
}

static hb_build_result *S_build(const hb_instance *inst, const char *profiles)
{
	hb_build_result *res = NULL;
	cr_assert_eq(hb_build(&res, inst, profiles, HBT_WORK), 0, "%s", hb_error_last());
	return res;
}

/* Build and check the instance's KAT files (the submitted ones it has); the overall result. */
static void S_expect_kat_pass(const hb_instance *inst, unsigned want_mask)
{
	hb_build_result *res = S_build(inst, NULL);
	char *dir = hbt_tmpdir("shapes-kat");
	hb_kat_report rep;
	cr_assert_eq(hb_kat_check(&rep, inst, res->library, 0, dir, 60, NULL), 0, "%s",
		hb_error_last());
	cr_expect_str_eq(rep.result, "PASS", "%s: %s", inst->name, rep.detail);
	cr_expect_eq(rep.mask, want_mask, "%s: sets checked %#x", inst->name, rep.mask);
	hb_kat_report_clear(&rep);
	hb_build_result_free(res);
	free(dir);
}

#define SETS_12_23 ((1u << HB_KAT_2_12) | (1u << HB_KAT_2_23))

/* Run a program with argv, stdout and stderr to files under dir; its exit status. */
static int S_exec(char **out, char **err, const char *dir, char *const argv[])
{
	char *o = hb_path_join(dir, "stdout.txt"), *e = hb_path_join(dir, "stderr.txt");
	pid_t pid;
	int status;
	fflush(NULL);
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		if (!freopen(o, "w", stdout) || !freopen(e, "w", stderr))
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	*out = S_read(o);
	*err = S_read(e);
	free(o);
	free(e);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* ---- 1. deep and odd nesting, spaces and Chinese characters, end to end ---- */

Test(shapes, deep_nesting_with_spaces_and_chinese_names_runs_and_renders,
	.timeout = HBT_TIMEOUT(300))
{
	char *tmp = hbt_tmpdir("shapes e2e 形状"), *data = hb_path_join(tmp, "data");
	char *work = hb_path_join(tmp, "work"), *site = hb_path_join(tmp, "site");
	char *sys = hb_path_join(data, "s"), *out, *err, *log, *csv, *page, *cmd, *copy, *want;
	const char *args[] = { "run", "--system", "s", "--profile", "quick", "--sizes", "32,64",
		"--submissions", SHAPES "/deep", "--data", data, "--work", work, NULL };
	char *gen[] = { HASHGEN, "--data", data, "--templates", HBT_SOURCE_DIR "/templates", "--out",
		site, NULL };
	const char *folder = SHAPES "/deep/" DEEP_DIR;
	const char *sizes[] = { "32", "64" };
	json_t *j, *build;
	size_t i;
	int status;

	status = hbt_cli(&out, &err, NULL, args);
	cr_assert_eq(status, 0, "hashbench run: %d\n%s", status, err);
	cr_expect(strstr(err, "deep_256 (reference) KAT: PASS") != NULL, "%s", err);
	free(out);
	free(err);

	/* the KAT summary and log name the instance and its folder as they are */
	j = hbt_json_load(sys, "kat/deep/deep_256.json");
	cr_expect_str_eq(json_string_value(json_object_get(j, "result")), "PASS");
	cr_expect_str_eq(json_string_value(json_object_get(j, "instance")), "deep_256");
	json_decref(j);
	log = hb_path_join(sys, "kat/deep/deep_256.log");
	want = hb_sprintf("instance folder: %s\n", folder);
	cr_expect(S_contains(log, want), "the KAT log names %s", folder);
	free(want);
	want = hb_sprintf("'%s/哈希 函数.c'", folder);
	cr_expect(S_contains(log, want), "the build command quotes the source with a space");
	free(want);
	cr_expect(S_contains(log, "KAT 文件/KAT_2_23_deep_256.txt)\n  PASS: 3 entries identical"));

	/* the records: measured, their build command shell-quoted so that a shell reproduces the
	 * library the campaign built from argv */
	for (i = 0; i < 2; i++) {
		char *rel = hb_sprintf("records/deep/deep_256__hash_%s.json", sizes[i]);
		j = hbt_json_load(sys, rel);
		cr_expect_str_eq(json_string_value(json_object_get(j, "status")), "ok", "%s", rel);
		cr_expect_str_eq(json_string_value(json_object_get(j, "kat")), "PASS", "%s", rel);
		build = json_object_get(j, "build");
		cr_expect(strstr(json_string_value(json_object_get(build, "command")), "哈希 函数.c'"));
		if (i == 0) {
			const char *lib = json_string_value(json_object_get(build, "library"));
			char *again = hb_path_join(tmp, "again.so"), hex[65];
			char *shell = strdup(json_string_value(json_object_get(build, "command")));
			char *at = strstr(shell, lib);
			cr_assert_not_null(at, "the command names the library");
			cmd = hb_sprintf("%.*s'%s'%s", (int)(at - shell - 1), shell, again,
				at + strlen(lib) + 1);
			cr_assert_eq(system(cmd), 0, "a shell runs the recorded command: %s", cmd);
			cr_assert_eq(hb_sha256_file(hex, again), 0);
			cr_expect_str_eq(hex, json_string_value(json_object_get(build, "library_sha256")),
				"the recorded command rebuilds the same library");
			free(cmd);
			free(shell);
			free(again);
		}
		json_decref(j);
		free(rel);
	}
	cmd = hb_sprintf("cd '%s' && sha256sum --quiet -c SHA256SUMS", sys);
	cr_expect_eq(system(cmd), 0, "SHA256SUMS verifies");
	free(cmd);
	cr_expect_eq(hbt_evidence_check_tree(sys), 6, "system.json, sentinel.json, history.json, the "
		"KAT summary and two records follow the contract");

	/* the site: the page, its CSV and the evidence copies */
	status = S_exec(&out, &err, tmp, gen);
	cr_assert_eq(status, 0, "hashgen: %d\n%s", status, err);
	free(out);
	free(err);
	page = hb_path_join(site, "s/deep.html");
	cr_expect(S_contains(page, "深层 Deep"), "the page names the algorithm");
	cr_expect(S_contains(page, "deep_256"), "the page names the instance");
	cr_expect(S_contains(page, "href=\"../data/s/kat/deep/deep_256.log\""),
		"the page links the KAT log");
	free(page);
	page = hb_path_join(site, "s/deep.md");
	cr_expect(S_contains(page, "深层 Deep") && S_contains(page, "deep_256"));
	free(page);
	csv = hb_path_join(site, "s/deep.csv");
	for (i = 0; i < 2; i++) {
		want = hb_sprintf("\r\ns,deep,deep_256,reference,%s,ok,PASS,", sizes[i]);
		cr_expect(S_contains(csv, want), "the CSV has the row %s", want + 2);
		free(want);
		want = hb_sprintf(",data/s/records/deep/deep_256__hash_%s.json,", sizes[i]);
		cr_expect(S_contains(csv, want), "the CSV names the record %s", want + 1);
		free(want);
	}
	free(csv);
	copy = hb_path_join(site, "data/s/kat/deep/deep_256.log");
	want = hb_sprintf("instance folder: %s\n", folder);
	cr_expect(S_contains(copy, want), "the site's copy of the KAT log names the folder");
	free(want);
	free(copy);
	free(log);
	free(sys);
	free(site);
	free(work);
	free(data);
	free(tmp);
}

/* ---- 3. ICCS files and clutter ---- */

Test(shapes, iccs_files_and_clutter_never_reach_the_library)
{
	hb_catalog *cat = S_load("clutter");
	const hb_instance *inst = S_find(cat, "clutter_256");
	hb_build_result *res;
	char *names = S_source_names(inst);
	static const char *const never[] = { "drng.c", "drng.h", "KAT_CryptHash.c",
		"KAT_CryptHash_Loop.c", "test_vectors.c", "main.c", "Makefile", "generate_kat.sh",
		"a.out", "CryptHash_AlgorithmInstance.o", NULL };
	size_t i;

	/* drng.c (the ICCS DRNG), KAT_CryptHash.c (main waiting on getchar), KAT_CryptHash_Loop.c
	 * (the generator without a main), test_vectors.c (an old-style main), main.c (a program
	 * that includes CryptHash_AlgorithmInstance.c: that does not take the file out), and core.c
	 * (an include of it commented out: it stays) */
	cr_expect_str_eq(names, "CryptHash_AlgorithmInstance.c core.c");
	res = S_build(inst, NULL);
	for (i = 0; never[i]; i++) {
		char *path = hb_sprintf("Clutter-256/%s", never[i]);
		cr_expect(strstr(res->command, path) == NULL, "the build command has %s: %s", never[i],
			res->command);
		free(path);
	}
	hb_build_result_free(res);
	S_expect_kat_pass(inst, SETS_12_23);
	free(names);
	hb_catalog_free(cat);
}

Test(shapes, programs_are_found_in_every_style)
{
	static const struct {
		const char *code;
		int is_main;
	} cases[] = {
		{ "int main(void) { return getchar(); }", 1 },
		{ "int\nmain (int argc, char **argv)\r\n{\r\n}", 1 },
		{ "int main(argc, argv)\n\tint argc;\n\tchar **argv;\n{\n}", 1 },
		{ "main(argc) int argc; { }", 1 },
		{ "int main(void);", 0 },
		{ "int domain(void) { return 0; }", 0 },
		{ "int f(void) { return main(1, 0); }", 0 },
		{ "x = main(a) + b; y = 1; { }", 0 },
	};
	size_t i;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cr_expect_eq(hb_defines_main(cases[i].code), cases[i].is_main, "%s", cases[i].code);
}

/* ---- 5. line endings, an own uint64_t, no include guards, the same helper names ---- */

/* The Dst of the first KAT_2_23 entry (2^23 zero bits) of a submitted file, as bytes. */
static size_t S_first_dst(unsigned char *out, size_t cap, const char *path)
{
	char *text = S_read(path), *dst = strstr(text, "Dst = "), *end;
	long n;
	cr_assert_not_null(dst, "%s has a Dst", path);
	dst += 6;
	end = dst + strspn(dst, "0123456789ABCDEF");
	n = hb_unhex(out, cap, dst, (size_t)(end - dst));
	cr_assert_gt(n, 0);
	free(text);
	return (size_t)n;
}

Test(shapes, line_endings_own_uint64_no_guards_and_same_helper_names)
{
	hb_catalog *cat = S_load("laurus");
	const char *names[] = { "laurus_256", "laurus_512" }, *folders[] = { "/Laurus-256",
		"/Laurus-512" };
	hb_impl *impls[2];
	hb_build_result *res[2];
	unsigned char *zeros = calloc(1, 1 << 20), want[64], got[64];
	size_t i;

	for (i = 0; i < 2; i++) {
		const hb_instance *inst = S_find(cat, names[i]);
		char *header = hb_sprintf("%s/CryptHash_Laurus-%s.h", folders[i], names[i] + 7);
		char *srcs = S_source_names(inst);
		cr_expect(strstr(inst->dir, folders[i]) != NULL && strlen(strstr(inst->dir,
			folders[i])) == strlen(folders[i]), "%s sits in %s", names[i], inst->dir);
		cr_expect(strstr(inst->header, header) != NULL, "%s", inst->header);
		cr_expect_eq(inst->digest_bits, i ? 512 : 256, "DIGEST_BIT_LENGTH read through CR LF");
		cr_expect_str_eq(srcs, "CryptHash_AlgorithmInstance.c laurus.c");
		/* 2_12 from a CR LF kat.sha256 (raw and normalised form), 2_23 CR LF and mixed */
		cr_expect_not_null(inst->kat_manifest[HB_KAT_2_12]);
		S_expect_kat_pass(inst, SETS_12_23);
		res[i] = S_build(inst, NULL);
		cr_expect(strstr(res[i]->command, "-include") == NULL);
		cr_expect(strstr(res[i]->command, folders[1 - i]) == NULL,
			"%s is linked alone: %s", names[i], res[i]->command);
		free(srcs);
		free(header);
	}
	/* both libraries in one process: each still calls its own laurus_round */
	for (i = 0; i < 2; i++)
		cr_assert_eq(hb_impl_open(&impls[i], res[i]->library), 0, "%s", hb_error_last());
	for (i = 0; i < 2; i++) {
		char *kat = hb_sprintf("%s/laurus/Laurus/Test_Vectors/KAT_2_23_%s.txt", SHAPES, names[i]);
		size_t n = S_first_dst(want, sizeof(want), kat);
		cr_expect_eq(n, i ? 64u : 32u);
		cr_assert_eq(hb_impl_hash(impls[i], (int)n * 8, zeros, 1ull << 23, got), 0, "%s",
			hb_error_last());
		cr_expect_eq(memcmp(got, want, n), 0, "%s hashes as its KAT file says", names[i]);
		free(kat);
	}
	for (i = 0; i < 2; i++) {
		hb_impl_close(impls[i]);
		hb_build_result_free(res[i]);
	}
	free(zeros);
	hb_catalog_free(cat);
}

Test(shapes, nothing_is_included_before_the_submissions_own_header)
{
	/* the control: the Laurus header really breaks when <stdint.h> comes first */
	hb_catalog *cat = S_load("laurus");
	hb_instance inst = *S_find(cat, "laurus_512");
	char *flags[] = { "-include stdint.h", NULL };
	hb_build_result *res = NULL;
	inst.extra_cflags = flags;
	cr_expect_neq(hb_build(&res, &inst, NULL, HBT_WORK), 0);
	cr_expect(strstr(hb_error_last(), "conflicting types for") != NULL, "%s", hb_error_last());
	hb_catalog_free(cat);
}

/* ---- 4. one folder, several instances (algorithm.json "instances") ---- */

/* sha256 of every file below dir, one line each, in walk order. */
static char *S_tree_sums(const char *dir)
{
	char *cmd = hb_sprintf("cd '%s' && find . -type f | LC_ALL=C sort | xargs -d '\\n' "
		"sha256sum", dir), *text = NULL;
	size_t len = 0;
	FILE *p = popen(cmd, "r"), *f = open_memstream(&text, &len);
	int c;
	cr_assert_not_null(p);
	while ((c = fgetc(p)) != EOF)
		fputc(c, f);
	cr_assert_eq(pclose(p), 0);
	fclose(f);
	free(cmd);
	cr_assert_gt(len, 0);
	return text;
}

static void S_expect_lines(char *const *got, const char *const *want, const char *what)
{
	size_t i;
	for (i = 0; want[i]; i++) {
		cr_assert_not_null(got[i], "%s: line %zu missing (want %s)", what, i, want[i]);
		cr_expect_str_eq(got[i], want[i], "%s line %zu", what, i);
	}
	cr_expect_null(got[i], "%s: extra line %s", what, got[i]);
}

Test(shapes, declared_instances_are_made_from_a_discovered_one_or_a_folder)
{
	hb_catalog *cat = S_load("declared");
	const hb_instance *base = S_find(cat, "MEGASCON-384-XOF-2048");
	const hb_instance *x256 = S_find(cat, "MEGASCON-384-XOF-256");
	const hb_instance *x1024 = S_find(cat, "MEGASCON-384-XOF-1024");
	const hb_instance *g512 = S_find(cat, "Garnet_512");
	const hb_instance *cap = S_find(cat, "Garnet_512_Cap640");
	const hb_instance *g768 = S_find(cat, "Garnet_768");
	static const char *const r256[] = {
		"CryptHash_AlgorithmInstance.h: #define ALGORITHM_INSTANCE \"MEGASCON-384-XOF-2048\" -> "
		"\"MEGASCON-384-XOF-256\"",
		"CryptHash_AlgorithmInstance.h: #define DIGEST_BIT_LENGTH 2048 -> 256", NULL };
	static const char *const rcap[] = {
		"CryptHash_Garnet.h: #define ALGORITHM_INSTANCE \"Garnet_512\" -> \"Garnet_512_Cap640\"",
		"CryptHash_Garnet.h: #define DIGEST_BIT_LENGTH 512 -> 512", NULL };
	static const char *const none[] = { NULL }, *const strict[] = { "-DMEGASCON_STRICT=0", NULL };
	char *names;

	cr_assert_eq(cat->algorithms[0].ninstances, 6);
	/* from: the discovered instance's folder, header, sources and implementation */
	cr_expect_str_eq(x256->dir, base->dir);
	cr_expect_str_eq(x256->header, base->header);
	cr_expect_str_eq(x256->impl, "reference");
	cr_expect_eq(x256->digest_bits, 256, "DIGEST_BIT_LENGTH from the defines");
	cr_expect_eq(x1024->digest_bits, 1024);
	names = S_source_names(x256);
	cr_expect_str_eq(names, "CryptHash_AlgorithmInstance.c");
	free(names);
	S_expect_lines(x256->rewrites, r256, "MEGASCON-384-XOF-256 rewrites");
	S_expect_lines(x256->define_flags, none, "MEGASCON-384-XOF-256 -D flags");
	S_expect_lines(x1024->define_flags, strict, "MEGASCON-384-XOF-1024 -D flags");
	S_expect_lines(base->rewrites, none, "a discovered instance rewrites nothing");
	/* KAT files under the new names */
	cr_assert_not_null(x256->kat_files[HB_KAT_2_23]);
	cr_expect(strstr(x256->kat_files[HB_KAT_2_23], "/KAT_2_23_MEGASCON-384-XOF-256.txt") != NULL);
	cr_expect_not_null(x256->kat_manifest[HB_KAT_2_12]);
	cr_expect_str_neq(x256->kat_manifest[HB_KAT_2_12], base->kat_manifest[HB_KAT_2_12]);

	/* folder: the listed sources only; from a discovered instance with build overrides: its
	 * sources as overridden (Garnet_512 excludes the other 512-bit core) */
	cr_expect_str_eq(cap->dir, GARNET_DIR);
	cr_expect(strstr(cap->header, "/Garnet/CryptHash_Garnet.h") != NULL);
	names = S_source_names(cap);
	cr_expect_str_eq(names, "CryptHash_Garnet.c Garnet_512_640.c Garnet_768.c");
	free(names);
	S_expect_lines(cap->rewrites, rcap, "Garnet_512_Cap640 rewrites");
	names = S_source_names(g768);
	cr_expect_str_eq(names, "CryptHash_Garnet.c Garnet_512.c Garnet_768.c");
	free(names);
	names = S_source_names(g512);
	cr_expect_str_eq(names, "CryptHash_Garnet.c Garnet_512.c Garnet_768.c");
	free(names);
	cr_expect_eq(g768->digest_bits, 768, "an integer define is read as its text");
	hb_catalog_free(cat);
}

Test(shapes, declared_instances_build_from_a_private_copy_and_pass, .timeout = HBT_TIMEOUT(300))
{
	hb_catalog *cat = S_load("declared");
	char *before = S_tree_sums(SHAPES "/declared"), *after, *copy, *inc, *orig, *text;
	hb_build_result *b256, *b1024, *b2048, *again, *bcap, *b768;
	hb_impl *i256, *i1024, *i2048;
	unsigned char d256[32], d1024[128], d2048[256], d512[64];
	const unsigned char *abc = (const unsigned char *)"abc";
	size_t k;

	b256 = S_build(S_find(cat, "MEGASCON-384-XOF-256"), NULL);
	b1024 = S_build(S_find(cat, "MEGASCON-384-XOF-1024"), NULL);
	b2048 = S_build(S_find(cat, "MEGASCON-384-XOF-2048"), NULL);
	bcap = S_build(S_find(cat, "Garnet_512_Cap640"), NULL);
	b768 = S_build(S_find(cat, "Garnet_768"), NULL);

	/* the copy first on the include path, the sources compiled from it, the -D flag there */
	copy = hb_sprintf("%s/declared/declared/MEGASCON-384-XOF-256", HBT_WORK);
	inc = hb_sprintf("-I%s ", copy);
	orig = hb_sprintf("'-I%s' ", MEGASCON_DIR);
	cr_assert(strstr(b256->command, inc) != NULL, "%s", b256->command);
	cr_expect(strstr(b256->command, orig) == NULL || strstr(b256->command, inc) <
		strstr(b256->command, orig), "the copy comes before the folder: %s", b256->command);
	text = hb_sprintf("%s/CryptHash_AlgorithmInstance.c", copy);
	cr_expect(strstr(b256->command, text) != NULL, "%s", b256->command);
	free(text);
	cr_expect(strstr(b1024->command, " -DMEGASCON_STRICT=0 ") != NULL, "%s", b1024->command);
	cr_expect(strstr(b2048->command, "/declared/declared/") == NULL,
		"a discovered instance builds from the submission: %s", b2048->command);
	text = hb_sprintf("%s/CryptHash_AlgorithmInstance.h", copy);
	cr_expect(S_contains(text, "#define DIGEST_BIT_LENGTH 256 /* the default output length */\n"),
		"the rewritten line keeps its comment");
	cr_expect(S_contains(text, "#define ALGORITHM_INSTANCE \"MEGASCON-384-XOF-256\"\n"));
	free(text);
	/* two instances of one folder never share a copy */
	cr_expect(strstr(bcap->command, "/declared/declared/Garnet_512_Cap640 ") != NULL);
	cr_expect(strstr(b768->command, "/declared/declared/Garnet_768 ") != NULL);
	cr_expect_str_neq(bcap->library, b768->library);

	/* the build cache stays valid: the same library, not rebuilt */
	again = S_build(S_find(cat, "MEGASCON-384-XOF-256"), NULL);
	cr_expect_str_eq(again->library, b256->library);
	cr_expect_str_eq(again->library_sha256, b256->library_sha256);

	/* the defines took effect: an XOF whose shorter outputs are prefixes of the 2048-bit one,
	 * strict about its length unless MEGASCON_STRICT is 0 */
	cr_assert_eq(hb_impl_open(&i256, b256->library), 0, "%s", hb_error_last());
	cr_assert_eq(hb_impl_open(&i1024, b1024->library), 0, "%s", hb_error_last());
	cr_assert_eq(hb_impl_open(&i2048, b2048->library), 0, "%s", hb_error_last());
	cr_assert_eq(hb_impl_hash(i256, 256, abc, 24, d256), 0, "%s", hb_error_last());
	cr_assert_eq(hb_impl_hash(i1024, 1024, abc, 24, d1024), 0, "%s", hb_error_last());
	cr_assert_eq(hb_impl_hash(i2048, 2048, abc, 24, d2048), 0, "%s", hb_error_last());
	cr_expect_eq(memcmp(d256, d2048, sizeof(d256)), 0);
	cr_expect_eq(memcmp(d1024, d2048, sizeof(d1024)), 0);
	cr_expect_neq(hb_impl_hash(i256, 512, abc, 24, d512), 0, "strict: only 256 bits");
	cr_expect_eq(hb_impl_hash(i1024, 512, abc, 24, d512), 0, "MEGASCON_STRICT=0 via -D");
	cr_expect_eq(memcmp(d512, d2048, sizeof(d512)), 0);
	hb_impl_close(i256);
	hb_impl_close(i1024);
	hb_impl_close(i2048);

	/* every instance, declared or not, passes its KAT files */
	for (k = 0; k < cat->algorithms[0].ninstances; k++)
		S_expect_kat_pass(&cat->algorithms[0].instances[k], SETS_12_23);

	after = S_tree_sums(SHAPES "/declared");
	cr_expect_str_eq(after, before, "the submission is never modified");
	hb_build_result_free(b256);
	hb_build_result_free(b1024);
	hb_build_result_free(b2048);
	hb_build_result_free(bcap);
	hb_build_result_free(b768);
	hb_build_result_free(again);
	free(before);
	free(after);
	free(copy);
	free(inc);
	free(orig);
	hb_catalog_free(cat);
}

/* A package in a fresh folder: algorithm.json (with "instances": instances) and the instance x_8
 * in P/Implementations/<version>_Implementation/X for each version given. */
static const char S_x_header[] =
	"/* the header */\r\n"
	"#define ALGORITHM_INSTANCE \"x_8\"\n"
	"#define DIGEST_BIT_LENGTH 8 // bits\n"
	"#define ROUNDS(n) (n)\n"
	"#define FEATURE\n"
	"#define LONG_VALUE 1 + \\\n    2\n"
	"/* #define COMMENTED 1 */\n"
	"int CryptHash(int, const unsigned char *, unsigned long long, unsigned char *);\n";
static const char S_x_source[] =
	"#include \"CryptHash_AlgorithmInstance.h\"\n"
	"#define FIXED_IN_C 1\n"
	"#ifndef TUNABLE\n#define TUNABLE 2\n#endif\n"
	"int CryptHash(int a, const unsigned char *m, unsigned long long n, unsigned char *d)\n"
	"{ (void)m; (void)n; d[0] = (unsigned char)(a + TUNABLE + FIXED_IN_C + USED_ONLY_IN_C\n"
	"#ifdef FEATURE\n + LONG_VALUE + COMMENTED\n#endif\n); return 0; }\n";

/* Write text to dir/name. */
static void S_put(const char *dir, const char *name, const char *text)
{
	char *path = hb_path_join(dir, name);
	cr_assert_eq(hb_mkdir_p(dir), 0, "%s", hb_error_last());
	hbt_write(path, text, strlen(text));
	free(path);
}

static char *S_package(const char *name, const char *instances, const char *versions)
{
	char *dir = hbt_tmpdir(name), *v, *save = NULL, *list = hb_strdup(versions), *sub;
	char *json = hb_sprintf("{\"id\": \"x\", \"name\": \"X\", \"instances\": %s}", instances);
	S_put(dir, "algorithm.json", json);
	for (v = strtok_r(list, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		sub = hb_sprintf("%s/P/Implementations/%s_Implementation/X", dir, v);
		S_put(sub, "CryptHash_AlgorithmInstance.h", S_x_header);
		S_put(sub, "x.c", S_x_source);
		free(sub);
	}
	/* a folder without an instance header; a symbolic link out of the package */
	sub = hb_path_join(dir, "P/NoHeader");
	S_put(sub, "y.c", strchr(S_x_source, '\n') + 1);
	free(sub);
	sub = hb_path_join(dir, "P/out");
	cr_assert_eq(symlink(HBT_FIXTURES, sub), 0);
	free(sub);
	free(list);
	free(json);
	return dir;
}

Test(shapes, declared_defines_go_to_the_header_copy_or_to_minus_d)
{
	char *dir = S_package("declare-ok", "{\"x_16\": {\"from\": \"x_8\", \"defines\": {"
		"\"DIGEST_BIT_LENGTH\": \"16\", \"FEATURE\": \"1\", \"LONG_VALUE\": \"3\", "
		"\"TUNABLE\": \"5\", \"USED_ONLY_IN_C\": \"7\", \"COMMENTED\": \"0\"}}}",
		"Reference,Optimized");
	hb_catalog *cat = NULL;
	const hb_instance *ref, *opt;
	static const char *const rewrites[] = {
		"CryptHash_AlgorithmInstance.h: #define DIGEST_BIT_LENGTH 8 -> 16",
		"CryptHash_AlgorithmInstance.h: #define FEATURE (no value) -> 1",
		"CryptHash_AlgorithmInstance.h: #define LONG_VALUE 1 + 2 -> 3", NULL };
	static const char *const flags[] = { "-DTUNABLE=5", "-DUSED_ONLY_IN_C=7", "-DCOMMENTED=0",
		NULL };
	hb_build_result *res;
	hb_impl *impl;
	unsigned char d[2];
	char *copy;

	cr_assert_eq(hb_catalog_load(&cat, dir), 0, "%s", hb_error_last());
	ref = S_find(cat, "x_16");
	opt = S_find(cat, "x_16:optimized");
	cr_expect_eq(cat->algorithms[0].ninstances, 4, "x_8 and x_16, reference and optimized");
	cr_expect_str_eq(opt->impl, "optimized", "\"from\": NAME takes every implementation");
	cr_expect_eq(ref->digest_bits, 16);
	S_expect_lines(ref->rewrites, rewrites, "x_16 rewrites");
	S_expect_lines(ref->define_flags, flags, "x_16 -D flags");
	res = S_build(ref, NULL);
	copy = hb_sprintf("%s/declared/x/x_16/CryptHash_AlgorithmInstance.h", HBT_WORK);
	cr_expect(S_contains(copy, "/* the header */\r\n"), "line endings stay as they were");
	cr_expect(S_contains(copy, "#define LONG_VALUE 3\n/* #define COMMENTED 1 */\n"),
		"the continued line became one; the comment is not a definition");
	cr_expect(S_contains(copy, "#define FEATURE 1\n"));
	cr_assert_eq(hb_impl_open(&impl, res->library), 0, "%s", hb_error_last());
	cr_assert_eq(hb_impl_hash(impl, 16, (const unsigned char *)"", 0, d), 0, "%s",
		hb_error_last());
	cr_expect_eq(d[0], 16 + 5 + 1 + 7 + 3 + 0, "each value reached the compiler");
	hb_impl_close(impl);
	hb_build_result_free(res);
	free(copy);
	hb_catalog_free(cat);
	free(dir);
}

Test(shapes, declared_instance_errors_name_algorithm_json_and_the_field)
{
	static const struct {
		const char *instances, *message;
	} cases[] = {
		{ "[]", "algorithm.json: instances: expected an object of instance names" },
		{ "{\"x_16\": 1}", "algorithm.json: instances.x_16: expected an object" },
		{ "{\"bad name!\": {\"from\": \"x_8\"}}",
			"algorithm.json: instances.bad name!: an instance name is 1 to 64 letters" },
		{ "{\"x_16\": {\"from\": \"x_8\", \"folder\": \"P\"}}",
			"algorithm.json: instances.x_16: give either \"from\" (a discovered instance) or "
			"\"folder\"" },
		{ "{\"x_16\": {}}", "algorithm.json: instances.x_16: give either" },
		{ "{\"x_16\": {\"from\": \"x_8\", \"colour\": 1}}",
			"algorithm.json: instances.x_16.colour: unknown field (known: from, folder, sources, "
			"defines)" },
		{ "{\"x_16\": {\"from\": 5}}",
			"algorithm.json: instances.x_16.from: expected the name of a discovered instance" },
		{ "{\"x_16\": {\"from\": \"y_8\"}}",
			"algorithm.json: instances.x_16.from: discovery found no instance \"y_8\" in this "
			"package (see hashbench list)" },
		{ "{\"x_16\": {\"from\": \"x_8:optimized\"}}",
			"algorithm.json: instances.x_16.from: discovery found no implementation 'optimized' "
			"of x_8" },
		{ "{\"x_8\": {\"from\": \"x_8\"}}",
			"algorithm.json: instances.x_8: instance x_8 (reference) is also discovered in " },
		{ "{\"x_16\": {\"folder\": \"P/Nope\"}}",
			"algorithm.json: instances.x_16.folder: no such folder: " },
		{ "{\"x_16\": {\"folder\": \"P/../../elsewhere\"}}",
			"algorithm.json: instances.x_16.folder: \"P/../../elsewhere\" leads out of the "
			"package" },
		{ "{\"x_16\": {\"folder\": \"/tmp\"}}",
			"algorithm.json: instances.x_16.folder: \"/tmp\" must be a path relative to the "
			"folder of algorithm.json" },
		{ "{\"x_16\": {\"folder\": \"P/out/shapes\"}}",
			"algorithm.json: instances.x_16.folder: \"P/out/shapes\" leads out of the package "
			"through a symbolic link" },
		{ "{\"x_16\": {\"folder\": \"P/Implementations/Reference_Implementation/X/x.c\"}}",
			"algorithm.json: instances.x_16.folder: not a folder: " },
		{ "{\"x_16\": {\"folder\": \"P/NoHeader\"}}",
			"algorithm.json: instances.x_16.defines.DIGEST_BIT_LENGTH: no header in " },
		{ "{\"x_16\": {\"from\": \"x_8\", \"sources\": [\"missing.c\"]}}",
			"algorithm.json: instances.x_16.sources[0]: no such file: " },
		{ "{\"x_16\": {\"from\": \"x_8\", \"sources\": [\"x.c\", \"../../../../../x.c\"]}}",
			"algorithm.json: instances.x_16.sources[1]: \"../../../../../x.c\" leads out of the "
			"package" },
		{ "{\"x_16\": {\"from\": \"x_8\", \"sources\": \"x.c\"}}",
			"algorithm.json: instances.x_16.sources: expected an array of file names" },
		{ "{\"x_16\": {\"from\": \"x_8\", \"defines\": {\"NOWHERE\": \"1\"}}}",
			"algorithm.json: instances.x_16.defines.NOWHERE: no header in " },
		{ "{\"x_16\": {\"from\": \"x_8\", \"defines\": {\"FIXED_IN_C\": \"2\"}}}",
			"algorithm.json: instances.x_16.defines.FIXED_IN_C: " },
		{ "{\"x_16\": {\"from\": \"x_8\", \"defines\": {\"ROUNDS\": \"2\"}}}",
			"algorithm.json: instances.x_16.defines.ROUNDS: CryptHash_AlgorithmInstance.h "
			"defines ROUNDS as a function-like macro, which no value can replace" },
		{ "{\"x_16\": {\"from\": \"x_8\", \"defines\": {\"ALGORITHM_INSTANCE\": \"\\\"x_9\\\"\"}}}",
			"algorithm.json: instances.x_16.defines.ALGORITHM_INSTANCE: expected \"\\\"x_16\\\"\" "
			"(the instance's name as a C string), got \"x_9\"" },
		{ "{\"x_16\": {\"from\": \"x_8\", \"defines\": {\"DIGEST_BIT_LENGTH\": \"lots\"}}}",
			"algorithm.json: instances.x_16.defines: DIGEST_BIT_LENGTH is not a positive number "
			"of bits: lots" },
		{ "{\"x_16\": {\"from\": \"x_8\", \"defines\": {\"2BAD\": \"1\"}}}",
			"algorithm.json: instances.x_16.defines: \"2BAD\" is not a macro name" },
		{ "{\"x_16\": {\"from\": \"x_8\", \"defines\": {\"A\": [1]}}}",
			"algorithm.json: instances.x_16.defines.A: expected a string" },
		{ "{\"x_16\": {\"from\": \"x_8\", \"defines\": {\"TUNABLE\": \"1\\n2\"}}}",
			"algorithm.json: instances.x_16.defines.TUNABLE: the value must be one line" },
		{ "{\"x_16\": {\"from\": \"x_8\", \"defines\": []}}",
			"algorithm.json: instances.x_16.defines: expected an object of macro names" },
	};
	size_t i;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *dir = S_package("declare-bad", cases[i].instances, "Reference");
		hb_catalog *cat = NULL;
		const char *msg;
		cr_expect_neq(hb_catalog_load(&cat, dir), 0, "case %zu loaded", i);
		msg = hb_error_last();
		cr_expect(strstr(msg, cases[i].message) != NULL, "case %zu: '%s' lacks '%s'", i, msg,
			cases[i].message);
		cr_expect(strchr(msg, '\n') == NULL, "case %zu: one line: %s", i, msg);
		cr_expect_null(cat);
		free(dir);
	}
}

/* ---- 6. code GCC 14 rejects under the guide's flags ---- */

static const char *const S_relax[] = { "-Wno-error=implicit-function-declaration",
	"-Wno-error=int-conversion", "-Wno-error=incompatible-pointer-types", NULL };

Test(shapes, every_profile_relaxes_what_gcc_14_made_errors)
{
	static const char *const arch[] = { "x86_64", "aarch64", NULL };
	static const char *const profiles[] = { "reference", "optimized", "resource", NULL };
	char *text = S_read(HBT_SOURCE_DIR "/bench/profiles.conf");
	size_t a, p, r;
	for (a = 0; arch[a]; a++)
		for (p = 0; profiles[p]; p++) {
			char *cc, *name, *cflags;
			cr_assert_eq(hb_profiles_resolve(&cc, &name, &cflags, text, "profiles.conf",
				arch[a], profiles[p]), 0, "%s", hb_error_last());
			cr_expect_str_eq(name, profiles[p]);
			for (r = 0; S_relax[r]; r++)
				cr_expect(strstr(cflags, S_relax[r]) != NULL, "[%s] %s lacks %s: %s", arch[a],
					profiles[p], S_relax[r], cflags);
			free(cc);
			free(name);
			free(cflags);
		}
	free(text);
}

/* The bundled profiles with GCC 14's errors made explicit before each profile's flags, and
 * (keep_relax 0) without the relaxations. */
static char *S_gcc14_profiles(const char *name, int keep_relax)
{
	char *text = S_read(HBT_SOURCE_DIR "/bench/profiles.conf"), *out = hb_strdup(""), *line;
	char *save = NULL, *dir = hbt_tmpdir(name), *path = hb_path_join(dir, "profiles.conf");
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *next, *p;
		size_t r;
		if (strncmp(line, "reference = ", 12) == 0)
			next = hb_sprintf("%sreference = -Werror=implicit-function-declaration "
				"-Werror=int-conversion -Werror=incompatible-pointer-types %s\n", out, line + 12);
		else
			next = hb_sprintf("%s%s\n", out, line);
		for (r = 0; !keep_relax && S_relax[r]; r++)
			while ((p = strstr(next, S_relax[r])) != NULL)
				memset(p, ' ', strlen(S_relax[r]));
		free(out);
		out = next;
	}
	hbt_write(path, out, strlen(out));
	free(out);
	free(text);
	free(dir);
	return path;
}

Test(shapes, code_gcc_14_rejects_builds_with_the_relaxations, .timeout = HBT_TIMEOUT(120))
{
	hb_catalog *cat = S_load("gcc14");
	const hb_instance *inst = S_find(cat, "old_256");
	hb_build_result *res = S_build(inst, NULL);
	char *as14 = S_gcc14_profiles("gcc14-relaxed", 1);
	char *strict = S_gcc14_profiles("gcc14-strict", 0);
	size_t r;

	for (r = 0; S_relax[r]; r++) {
		cr_expect(strstr(res->cflags, S_relax[r]) != NULL, "%s", res->cflags);
		cr_expect(strstr(res->command, S_relax[r]) != NULL, "%s", res->command);
	}
	cr_expect(strstr(res->log, "implicit declaration of function") != NULL,
		"the warnings stay in the build log: %s", res->log);
	hb_build_result_free(res);
	S_expect_kat_pass(inst, SETS_12_23);

	/* as GCC 14 does by default: errors, which the relaxations turn back into warnings */
	res = S_build(inst, as14);
	cr_expect(strstr(res->cflags, "-Werror=implicit-function-declaration") != NULL);
	hb_build_result_free(res);
	res = NULL;
	cr_expect_neq(hb_build(&res, inst, strict, HBT_WORK), 0, "without them it does not build");
	cr_expect(strstr(hb_error_last(), "error: implicit declaration of function") != NULL, "%s",
		hb_error_last());
	free(as14);
	free(strict);
	hb_catalog_free(cat);
}

/* ---- 4. what a declared instance changed, shown wherever the library is ---- */

Test(shapes, a_declared_instance_shows_what_was_rewritten, .timeout = HBT_TIMEOUT(300))
{
	char *tmp = hbt_tmpdir("declared e2e"), *data = hb_path_join(tmp, "data");
	char *work = hb_path_join(tmp, "work"), *sys = hb_path_join(data, "d"), *out, *err, *log;
	const char *args[] = { "run", "--system", "d", "--profile", "quick", "--sizes", "32",
		"--submissions", SHAPES "/declared", "--data", data, "--work", work, NULL };
	const char *list[] = { "list", "--submissions", SHAPES "/declared", NULL };
	json_t *kat, *rec, *decl;
	int status;

	status = hbt_cli(&out, &err, NULL, args);
	cr_assert_eq(status, 0, "hashbench run: %d\n%s", status, err);
	free(out);
	free(err);
	log = hb_path_join(sys, "kat/declared/MEGASCON-384-XOF-1024.log");
	cr_expect(S_contains(log, "declared in algorithm.json: DIGEST_BIT_LENGTH=1024\n"));
	cr_expect(S_contains(log, "rewritten in a private copy: CryptHash_AlgorithmInstance.h: "
		"#define DIGEST_BIT_LENGTH 2048 -> 1024\n"));
	cr_expect(S_contains(log, "passed to the compiler: -DMEGASCON_STRICT=0\n"));
	kat = hbt_json_load(sys, "kat/declared/MEGASCON-384-XOF-1024.json");
	cr_expect_str_eq(json_string_value(json_object_get(kat, "result")), "PASS");
	cr_expect_str_eq(json_string_value(json_object_get(kat, "build_flags")), "guide+overrides",
		"a -D flag is an override of the guide's flags");
	decl = json_object_get(kat, "declared");
	cr_expect_eq(json_array_size(json_object_get(decl, "rewrites")), 2);
	rec = hbt_json_load(sys, "records/declared/MEGASCON-384-XOF-1024__hash_32.json");
	decl = json_object_get(json_object_get(rec, "build"), "declared");
	cr_expect_str_eq(json_string_value(json_array_get(json_object_get(decl, "rewrites"), 1)),
		"CryptHash_AlgorithmInstance.h: #define DIGEST_BIT_LENGTH 2048 -> 1024");
	cr_expect_str_eq(json_string_value(json_array_get(json_object_get(decl, "define_flags"), 0)),
		"-DMEGASCON_STRICT=0");
	json_decref(rec);
	/* a header rewrite alone keeps the guide's flags; a discovered instance has no "declared" */
	rec = hbt_json_load(sys, "records/declared/MEGASCON-384-XOF-256__hash_32.json");
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(rec, "build"), "flags")),
		"guide");
	json_decref(rec);
	rec = hbt_json_load(sys, "records/declared/MEGASCON-384-XOF-2048__hash_32.json");
	cr_expect_null(json_object_get(json_object_get(rec, "build"), "declared"));
	json_decref(rec);
	cr_expect_eq(hbt_evidence_check_tree(sys), 1 + 6 + 6 + 1 + 1, "with history.json");
	status = hbt_cli(&out, &err, NULL, list);
	cr_expect_eq(status, 0);
	cr_expect(strstr(out, "    rewritten: CryptHash_AlgorithmInstance.h: #define DIGEST_BIT_LENGTH "
		"2048 -> 256\n") != NULL, "%s", out);
	cr_expect(strstr(out, "    compiled with: -DMEGASCON_STRICT=0\n") != NULL, "%s", out);
	free(out);
	free(err);
	json_decref(kat);
	free(log);
	free(sys);
	free(work);
	free(data);
	free(tmp);
}
