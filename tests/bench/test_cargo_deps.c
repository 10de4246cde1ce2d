/* test_cargo_deps.c — which Cargo dependencies Debian's local registry can serve offline, and the
 * reason, naming the crate and the version wanted, when it cannot. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "hbpackage.h"
#include "support.h"

/* A registry folder holding one empty folder per crate-version named. */
static char *S_registry(const char *name, const char *const *crates)
{
	char *dir = hbt_tmpdir(name);
	size_t i;
	for (i = 0; crates[i]; i++) {
		char *p = hb_path_join(dir, crates[i]);
		cr_assert_eq(hb_mkdir_p(p), 0);
		free(p);
	}
	return dir;
}

static char *S_toml(const char *dir, const char *deps)
{
	char *p = hb_path_join(dir, "Cargo.toml");
	char *text = hb_sprintf("[package]\nname = \"crypto_hash_sha256\"\nversion = \"0.1.0\"\n\n"
		"[dependencies]\n%s", deps);
	hbt_write(p, text, strlen(text));
	free(text);
	return p;
}

Test(cargo_deps, a_version_the_requirement_accepts_is_found_else_the_crate_and_version_are_named)
{
	static const char *const crates[] = { "sha2-0.10.5", "sha2-0.9.9", "blake3-1.3.1",
		"generic-array-0.14.4", NULL };
	char *reg = S_registry("cargo-registry", crates), *dir = hbt_tmpdir("cargo-toml"), *toml;
	char *why, *want;

	toml = S_toml(dir, "sha2 = \"^0.9\"\n");
	cr_expect_null(hb_cargo_unmet(toml, reg), "sha2 0.9.9 is accepted by ^0.9");
	cr_expect_str_eq(hb_cargo_package_name(toml), "crypto_hash_sha256");
	free(toml);
	toml = S_toml(dir, "blake3 = \"1.0\"\ngeneric-array = { version = \"0.14\", default-features "
		"= false }\n");
	cr_expect_null(hb_cargo_unmet(toml, reg), "1.3.1 for 1.0 (caret), 0.14.4 for 0.14");
	free(toml);

	toml = S_toml(dir, "sha2 = \"0.8\"\n");
	why = hb_cargo_unmet(toml, reg);
	cr_assert_not_null(why, "0.8 accepts neither 0.9.9 nor 0.10.5");
	cr_expect(strncmp(why, "needs the crate sha2 0.8, and Debian packages only 0.", 52) == 0,
		"%s", why);
	free(why);
	free(toml);

	toml = S_toml(dir, "sha2 = \"0.9\"\nrust-crypto = \"^0.2\"\n");
	why = hb_cargo_unmet(toml, reg);
	want = hb_sprintf("needs the crate rust-crypto ^0.2, which Debian does not package here "
		"(none in %s)", reg);
	cr_expect_str_eq(why, want);
	free(want);
	free(why);
	free(toml);

	toml = S_toml(dir, "blake3 = \"=1.3.0\"\n");
	why = hb_cargo_unmet(toml, reg);
	cr_expect_not_null(why, "=1.3.0 is that version only");
	free(why);
	free(toml);
	toml = S_toml(dir, "blake3 = \"~1.2\"\n");
	why = hb_cargo_unmet(toml, reg);
	cr_expect_not_null(why, "~1.2 accepts 1.2.x only");
	free(why);
	free(toml);
	toml = S_toml(dir, "blake3 = \">=1.2\"\n");
	cr_expect_null(hb_cargo_unmet(toml, reg), ">=1.2 accepts 1.3.1");
	free(toml);
	free(dir);
	free(reg);
}
