/* test_supercop_libs.c — hashbench building SUPERCOP implementations as do-part builds them (issue
 * 44): linking through the archive, every C++ compiler line, a primitive without checksums
 * (unverified), and the tree's own libraries, XKCP's libkeccak.a and a Crypto++ stand-in. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "supercop_fixture.h"


ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
	(void)set;
	hbt_sc_work_reset();
}

Test(supercop_libs, two_files_defining_the_same_function_link_through_the_archive_as_do_part,
	.timeout = HBT_TIMEOUT(300))
{
	char *tree = hbt_sc_tree(), *copy, *err, *cmd, *want;
	hbt_sc_report r;
	int status;

	hbt_sc_require_native_compiler();
	/* lsh256's ref, sse2, ssse3 and avx2 carry two files that both define lsh256_init: do-part
	 * links objects through lib<op>.a, so only the member needed is taken and they pass */
	copy = hbt_sc_copy(tree, "supercop-twice");
	cmd = hb_sprintf("cp -r '%s/crypto_hash/md5/ref' '%s/crypto_hash/md5/twice' && "
		"cp '%s/crypto_hash/md5/ref/hash.c' '%s/crypto_hash/md5/twice/hash-again.c'", copy, copy,
		copy, copy);
	cr_assert_eq(hbt_sc_sh(cmd), 0, "%s", cmd);
	status = hbt_sc_kat_check(&r, &err, copy, NULL, "md5:twice");
	cr_expect_eq(status, 0, "%s", err);
	want = hbt_sc_pass_block(tree, "md5", "twice", HBT_SC_O3);
	cr_expect_str_eq(hbt_sc_block(&r, "md5 (twice)"), want, "no 'multiple definition'");
	hbt_sc_report_free(&r);
	free(want);
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

Test(supercop_libs, a_cpp_implementation_gets_every_cpp_line_of_the_tree_with_compilers,
	.timeout = HBT_TIMEOUT(300))
{
	char *tree = hbt_sc_tree(), *copy, *err, *cmd, *file, *settings, *dir;
	hbt_sc_report r;
	const char *gpp = "g++ -march=native -mtune=native -O2 -fwrapv -fPIC -fPIE -gdwarf-4 -Wall";
	const char *clangpp = "clang++ -march=native -O2 -fwrapv -Qunused-arguments -fPIC -fPIE "
		"-gdwarf-4 -Wall";
	int k;

	hbt_sc_require_native_compiler();
	copy = hbt_sc_copy(tree, "supercop-cpp");
	cmd = hb_sprintf("mkdir '%s/crypto_hash/md5/cxx' && cp '%s/crypto_hash/md5/openssl/api.h' "
		"'%s/crypto_hash/md5/cxx/' && cp '%s/crypto_hash/md5/openssl/hash.c' "
		"'%s/crypto_hash/md5/cxx/hash.cpp' && printf '%%s\\n%%s\\n' '%s' '%s' > "
		"'%s/okcompilers/cpp'", copy, copy, copy, copy, copy, gpp, clangpp, copy);
	cr_assert_eq(hbt_sc_sh(cmd), 0, "%s", cmd);
	file = hb_path_join(copy, "okcompilers/c");
	dir = hb_path_join(copy, "okcompilers");
	for (k = 0; k < 2; k++) {
		/* a file of C lines, then the folder: either way both C++ lines of the tree's file */
		int status = hbt_sc_kat_check(&r, &err, copy, k ? dir : file, "md5:cxx");
		const char *block = hbt_sc_block(&r, "md5 (cxx)");
		char *want = hb_sprintf("%s|%s", gpp, clangpp);
		cr_expect_eq(status, 0, "%s", err);
		settings = S_settings_of(block);
		cr_expect_str_eq(settings, want, "%s", block);
		cr_expect(strstr(block, "\nmd5 (cxx): PASS with ") != NULL, "%s", block);
		free(want);
		free(settings);
		hbt_sc_report_free(&r);
		free(err);
	}
	free(file);
	free(dir);
	free(cmd);
	free(copy);
	free(tree);
}

/* ---- a primitive without checksums ---- */

Test(supercop_libs, a_primitive_without_checksums_is_unverified_timed_and_checked_for_consistency,
	.timeout = HBT_TIMEOUT(900))
{
	char *tree = hbt_sc_tree(), *copy, *err, *out, *cmd, *s, *b;
	char *want, *page;
	static const char *const impls[] = { "openssl", "ref" };
	hbt_sc_campaign c;
	hbt_sc_report r;
	json_t *kat, *files;
	size_t i;
	int status;

	hbt_sc_require_native_compiler();
	/* k12, shavite3512 and five more primitives of the tree have no checksum files: SUPERCOP's
	 * try says "unknown", and nothing may read PASS */
	copy = hbt_sc_copy(tree, "supercop-unverified");
	cmd = hb_sprintf("rm '%s/crypto_hash/md5/checksumsmall' '%s/crypto_hash/md5/checksumbig'",
		copy, copy);
	cr_assert_eq(hbt_sc_sh(cmd), 0, "%s", cmd);
	free(cmd);
	s = hbt_sc_expected(tree, "md5", "checksumsmall");
	b = hbt_sc_expected(tree, "md5", "checksumbig");
	status = hbt_sc_kat_check(&r, &err, copy, NULL, "md5");
	cr_expect_eq(status, 0, "unverified is not a failure: %s", err);
	for (i = 0; i < 2; i++) {
		char *name = hb_sprintf("md5 (%s)", impls[i]);
		want = hb_sprintf("  checksumsmall: UNVERIFIED (%s, expected none): the tree has no "
			"checksumsmall to compare with (SUPERCOP: unknown)\n  checksumbig: UNVERIFIED (%s, "
			"expected none): the tree has no checksumbig to compare with (SUPERCOP: unknown)\n"
			"%s: UNVERIFIED with " HBT_SC_O3 ": the tree has no checksumsmall to compare with "
			"(SUPERCOP: unknown)\n", s, b, name);
		cr_expect_str_eq(hbt_sc_block(&r, name), want);
		free(want);
		free(name);
	}
	hbt_sc_report_free(&r);
	free(err);

	/* md5/ref now prints other digests: still unverified, and the consistency check tells */
	hbt_replace(copy, "crypto_hash/md5/ref/hash.c", "  for (i = 0;i < 16;++i) out[i] = h[i];\n",
		"  for (i = 0;i < 16;++i) out[i] = h[i];\n  out[15] ^= 1;\n");
	hbt_sc_campaign_dirs(&c, "supercop-unverified-data");
	status = hbt_sc_quick_run(&out, &err, copy, c.data, "md5", "64", c.locks);
	cr_assert_eq(status, 0, "run: %d\n%s", status, err);
	cr_expect(strstr(err, "0 libraries failed their KAT check, 0 did not build, 2 timed "
		"unverified (no checksums to compare with); ") != NULL, "%s", err);
	for (i = 0; i < 2; i++) {
		char *rel = hb_sprintf("kat/md5/md5.%s.json", impls[i]), *rec = hb_sprintf(
			"%s/records/md5/md5.%s__hash_64.json", c.sys, impls[i]);
		size_t k;
		kat = hbt_json_load(c.sys, rel);
		cr_expect_str_eq(hbt_sc_str(kat, "result"), "UNVERIFIED", "%s", rel);
		files = json_object_get(kat, "files");
		cr_assert_eq(json_array_size(files), 2, "%s", rel);
		for (k = 0; k < 2; k++) {
			cr_expect_str_eq(hbt_sc_str(json_array_get(files, k), "result"), "UNVERIFIED");
			cr_expect(json_is_null(json_object_get(json_array_get(files, k), "expected_sha256")));
		}
		json_decref(kat);
		cr_expect(hb_is_file(rec), "timed as SUPERCOP times it: %s", rec);
		free(rel);
		free(rec);
	}
	cr_expect_eq(hbt_evidence_check_tree(c.sys), 7, "system, sentinel, history, 2 KAT summaries "
		"and 2 records follow the contract");

	cr_assert_eq(hbt_sc_hashgen(&c, "--strict"), 0, "hashgen renders it");
	page = hbt_sc_text(c.site, "t/md5.md");
	cr_expect(strstr(page, "2 implementations are unverified:") != NULL, "%s", page);
	cr_expect(strstr(page, "Consistency check (not a verification): they print 2 different "
		"pairs of checksums:") != NULL, "%s", page);
	want = hb_sprintf("checksumsmall %s, checksumbig %s: `openssl`", s, b);
	cr_expect(strstr(page, want) != NULL, "openssl's checksums, alone in their group: %s", want);
	cr_expect(strstr(page, "PASS") == NULL, "nothing on the page passes");
	free(want);
	free(page);
	cr_expect_eq(hbt_sc_hashgen(&c, "--check"), 0, "hashgen --check passes");
	free(out);
	free(err);
	free(s);
	free(b);
	hbt_sc_campaign_free(&c);
	free(copy);
	free(tree);
}

/* ---- SUPERCOP's own libraries, built from the tree ---- */

Test(supercop_libs, libkeccak_is_built_from_the_tree_as_do_part_keccak_and_usekcp_passes,
	.timeout = HBT_TIMEOUT(900))
{
	char *tree = hbt_sc_tree(), *libs = hbt_sc_libs_overlay(), *copy, *bare, *err, *cmd, *want;
	hbt_sc_report r;
	int status;

	hbt_sc_require_native_compiler();
	copy = hbt_sc_copy(tree, "supercop-libkeccak");
	cmd = hb_sprintf("cp -r '%s/.' '%s' && chmod -R u+w '%s'", libs, copy, copy);
	cr_assert_eq(hbt_sc_sh(cmd), 0, "%s", cmd);
	free(cmd);
	status = hbt_sc_kat_check(&r, &err, copy, NULL, "sha3256:usekcp");
	cr_expect_eq(status, 0, "%s", err);
	want = hbt_sc_pass_block(copy, "sha3256", "usekcp", HBT_SC_O3);
	cr_expect_str_eq(hbt_sc_block(&r, "sha3256 (usekcp)"), want);
	hbt_sc_report_free(&r);
	free(err);
	cmd = hb_sprintf("ls '%s'/supercop/libkeccak-*/libkeccak.a '%s'/supercop/libkeccak-*/include/"
		"libkeccak.a.headers/KeccakSponge.h >/dev/null", hbt_sc_work_dir(), hbt_sc_work_dir());
	cr_expect_eq(hbt_sc_sh(cmd), 0, "libkeccak.a and its headers, kept for the next build: %s",
		cmd);
	free(cmd);

	/* a tree without k/ cannot build it: not run, and why */
	bare = hbt_sc_copy(tree, "supercop-no-k");
	cmd = hb_sprintf("cp -r '%s/crypto_hash/sha3256/usekcp' '%s/crypto_hash/sha3256/'", libs,
		bare);
	cr_assert_eq(hbt_sc_sh(cmd), 0, "%s", cmd);
	hbt_sc_kat_check(&r, &err, bare, NULL, "sha3256:usekcp");
	cr_expect_str_eq(hbt_sc_block(&r, "sha3256 (usekcp)"), "sha3256 (usekcp): NOT RUN: needs "
		"SUPERCOP's libkeccak (XKCP), and this tree has no k/ and k-targets to build it from "
		"(hash.c includes libkeccak.a.headers/KeccakSponge.h)\n");
	hbt_sc_report_free(&r);
	free(err);
	free(cmd);
	free(want);
	free(bare);
	free(copy);
	free(libs);
	free(tree);
}

Test(supercop_libs, a_cryptopp_stand_in_is_built_as_do_part_cryptopp_and_linked_in,
	.timeout = HBT_TIMEOUT(600))
{
	/* Crypto++ itself (23 MB) is not among the fixtures: a library built the same way, by make
	 * in a copy of the tree's cryptopp/ with CXX and CXXFLAGS from okcompilers/cpp, libcryptopp.a
	 * and its headers under cryptopp/ */
	/* each attempt at md5.o leaves a line in attempts, outside the build's copy */
	static const char makefile[] = "libcryptopp.a: md5.o\n\tar cr $@ md5.o\n"
		"md5.o: md5.cpp md5.h\n\techo md5.o >> '%s'\n\t$(CXX) $(CXXFLAGS) -c md5.cpp -o md5.o\n";
	static const char header[] = "namespace CryptoPP {\nvoid StandInMD5(unsigned char *out, "
		"const unsigned char *in, unsigned long long n);\n}\n";
	static const char source[] = "#include <openssl/md5.h>\n#include \"md5.h\"\n"
		"#ifndef NDEBUG\n#error do-part builds Crypto++ with -DNDEBUG\n#endif\n"
		"namespace CryptoPP {\nvoid StandInMD5(unsigned char *out, const unsigned char *in, "
		"unsigned long long n) { MD5(in, n, out); }\n}\n";
	static const char impl[] = "#include <cryptopp/md5.h>\n#include \"crypto_hash.h\"\n"
		"int crypto_hash(unsigned char *out, const unsigned char *in, unsigned long long inlen)\n"
		"{\n  CryptoPP::StandInMD5(out, in, inlen);\n  return 0;\n}\n";
	char *tree = hbt_sc_tree(), *copy, *err, *cmd, *first, *want, *attempts, *mk, *text;
	hbt_sc_report r;
	int status, i;

	hbt_sc_require_native_compiler();
	copy = hbt_sc_copy(tree, "supercop-cryptopp");
	attempts = hb_sprintf("%s/../attempts", copy);
	mk = hb_sprintf(makefile, attempts);
	cmd = hb_sprintf("mkdir '%s/cryptopp' '%s/crypto_hash/md5/standin' && cp "
		"'%s/crypto_hash/md5/openssl/api.h' '%s/crypto_hash/md5/standin/'", copy, copy, copy,
		copy);
	cr_assert_eq(hbt_sc_sh(cmd), 0, "%s", cmd);
	free(cmd);
	hbt_sc_put(copy, "cryptopp/GNUmakefile", mk);
	hbt_sc_put(copy, "cryptopp/md5.h", header);
	hbt_sc_put(copy, "cryptopp/md5.cpp", source);
	hbt_sc_put(copy, "crypto_hash/md5/standin/hash.cpp", impl);

	status = hbt_sc_kat_check(&r, &err, copy, NULL, "md5:standin");
	cr_expect_eq(status, 0, "%s", err);
	first = hbt_sc_text(copy, "okcompilers/cpp");
	first[strcspn(first, "\n")] = 0;
	want = hbt_sc_pass_block(copy, "md5", "standin", first);
	cr_expect_str_eq(hbt_sc_block(&r, "md5 (standin)"), want);
	hbt_sc_report_free(&r);
	free(err);

	/* a library that does not build: the reason names it and the compiler's last words, for
	 * both implementations that need it; one attempt in this run (two processes), not one each */
	hbt_sc_put(copy, "cryptopp/md5.cpp", "#error stand-in broken on purpose\n");
	cmd = hb_sprintf("rm -rf '%s'/supercop/libcryptopp-* && cp -r '%s/crypto_hash/md5/standin' "
		"'%s/crypto_hash/md5/standin2' && : > '%s'", hbt_sc_work_dir(), copy, copy, attempts);
	cr_assert_eq(hbt_sc_sh(cmd), 0, "%s", cmd);
	free(cmd);
	for (i = 0; i < 2; i++) {
		int k;
		status = hbt_sc_kat_check(&r, &err, copy, NULL, "md5");
		cr_expect_eq(status, 1);
		for (k = 0; k < 2; k++) {
			const char *block = hbt_sc_block(&r, k ? "md5 (standin2)" : "md5 (standin)");
			cr_expect(strstr(block, ": ERROR with ") && strstr(block,
				": libcryptopp.a (Crypto++, built as do-part cryptopp builds it with ") &&
				strstr(block, "stand-in broken on purpose"), "%s", block);
		}
		text = hbt_sc_text(copy, "../attempts");
		/* a later run tries again: the machine's load may have been the cause */
		cr_expect_str_eq(text, i ? "md5.o\nmd5.o\n" : "md5.o\n", "run %d", i + 1);
		free(text);
		hbt_sc_report_free(&r);
		free(err);
	}
	free(want);
	free(first);
	free(mk);
	free(attempts);
	free(copy);
	free(tree);
}
