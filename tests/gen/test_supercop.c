/* test_supercop.c — SUPERCOP's crypto_hash primitives on the pages, as a reader sees them
 * (tests/fixtures/supercop: sha256 with "ref" passing, "sphlib" failing checksumbig and
 * "rust_sha2" not run, beside the NGCC algorithm hash-15): the checksums of section 3, the
 * eBASH-style table and its links, both corpora on the comparison page, the downloads, --check. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hashgen.h"
#include "results.h"
#include "support.h"

#define DATA HBT_FIXTURES "/supercop"
#define TEMPLATES HBT_SOURCE_DIR "/templates"
#define O3 "gcc -march=native -mtune=native -O3 -fwrapv -fPIC -fPIE -gdwarf-4 -Wall"
#define O2 "gcc -march=native -mtune=native -O2 -fwrapv -fPIC -fPIE -gdwarf-4 -Wall"
/* their short names in tables (the whole lines in the legend under the table) */
#define O3S "gcc -O3"
#define O2S "gcc -O2"

static void S_opts(hg_site_opts *o, const char *data, const char *site, FILE *w)
{
	memset(o, 0, sizeof(*o));
	o->data_dir = data;
	o->templates_dir = TEMPLATES;
	o->out_dir = site;
	o->strict = 1;
	o->generator = "hashgen (test)";
	o->warnings = w;
}

static int S_build(const char *data, const char *site)
{
	hg_site_opts o;
	hg_site_stats st;
	FILE *w = fopen("/dev/null", "w");
	int rc;
	S_opts(&o, data, site, w);
	rc = hg_site_build(&st, &o);
	fclose(w);
	return rc;
}

/* The fixture's site, rendered once per test process. */
static const char *S_site(void)
{
	static char *site;
	if (!site) {
		char *out = hbt_tmpdir("supercop");
		site = hb_path_join(out, "site");
		cr_assert_eq(S_build(DATA, site), 0, "%s", hg_error_last());
		free(out);
	}
	return site;
}

static char *S_page(const char *rel)
{
	char *path = hb_path_join(S_site(), rel), *text;
	size_t len;
	cr_assert_eq(hg_read_file(&text, &len, path), 0, "%s", hg_error_last());
	free(path);
	return text;
}

/* The text of section "## <from>" up to the next "## " heading of a Markdown page. */
static char *S_section(const char *page, const char *from)
{
	const char *at = strstr(page, from), *end;
	cr_assert_not_null(at, "no section %s", from);
	end = strstr(at + strlen(from), "\n## ");
	return strndup(at, end ? (size_t)(end - at) : strlen(at));
}

#define EXPECT_HAS(text, want) cr_expect(strstr((text), (want)) != NULL, "missing: %s", (want))

Test(supercop, section_3_shows_both_checksums_expected_and_obtained)
{
	char *md = S_page("x86_1/sha256.md"), *s3 = S_section(md, "## 3. Functional testing");
	/* ref passes both at the setting chosen, checksums as 16 hex digits and … */
	EXPECT_HAS(s3, "| `ref` | `" O3S "` | checksumsmall | d4ab7e3f2b2e91c8… | d4ab7e3f2b2e91c8… | "
		"PASS |");
	EXPECT_HAS(s3, "| `ref` | `" O3S "` | checksumbig | 8f0c1e6a7d2b3c4e… | 8f0c1e6a7d2b3c4e… | "
		"PASS |");
	/* sphlib: checksumsmall passes, checksumbig differs, named at the setting it was tried at */
	EXPECT_HAS(s3, "| `sphlib` | `" O3S "` | checksumsmall | d4ab7e3f2b2e91c8… | "
		"d4ab7e3f2b2e91c8… | PASS |");
	EXPECT_HAS(s3, "| `sphlib` | `" O3S "` | checksumbig | 8f0c1e6a7d2b3c4e… | "
		"0badc0de00112233… | **FAIL**: checksumbig differs |");
	EXPECT_HAS(s3, "SUPERCOP 20260330's own procedure");
	/* the settings tried on ref, the faster one chosen, with try's cycles */
	EXPECT_HAS(s3, "### Compiler settings tried: sha256 (ref)");
	EXPECT_HAS(s3, "| `" O3S "` (chosen) | d4ab7e3f2b2e91c8… | 8f0c1e6a7d2b3c4e… | 21704 | "
		"PASS |");
	EXPECT_HAS(s3, "| `" O2S "` | d4ab7e3f2b2e91c8… | 8f0c1e6a7d2b3c4e… | 23311 | PASS |");
	/* a row stays one line: each setting named short, its whole line under the KAT table */
	EXPECT_HAS(s3, "Compiler settings, named short above: `" O3S "` is `" O3 "`; `" O2S
		"` is `" O2 "`.");
	cr_expect_null(strstr(s3, "Compiler settings tried: sha256 (sphlib)"),
		"one setting tried: no table of settings");
	/* the implementation not run here, with its reason */
	EXPECT_HAS(s3, "- `rust_sha2` (`crypto_hash/sha256/rust_sha2`): not run here: a Rust (Cargo) "
		"implementation: no cargo on this machine");
	free(s3);
	free(md);
}

Test(supercop, section_1_names_supercop_the_designers_and_each_implementation)
{
	char *md = S_page("x86_1/sha256.md"), *s1 = S_section(md, "## 1. Basic information");
	EXPECT_HAS(s1, "Category: SUPERCOP crypto_hash primitive; function: hash");
	EXPECT_HAS(s1, "Source: SUPERCOP 20260330, `crypto_hash/sha256`");
	EXPECT_HAS(s1, "Designers: National Security Agency\n");
	EXPECT_HAS(s1, "| `ref` | `crypto_hash/sha256/ref` | Daniel J. Bernstein |");
	EXPECT_HAS(s1, "| `sphlib` | `crypto_hash/sha256/sphlib` | Thomas Pornin |");
	free(s1);
	free(md);
}

Test(supercop, the_failing_implementation_is_not_timed)
{
	char *md = S_page("x86_1/sha256.md"), *s4 = S_section(md, "## 4. Performance");
	EXPECT_HAS(s4, "`sha256` (sphlib): **⚠ not timed, its KAT check gave FAIL**");
	EXPECT_HAS(s4, "| `sha256` (ref) | 4096 B |");
	free(s4);
	free(md);
}

Test(supercop, the_ebash_table_has_a_row_per_primitive_linked_to_its_page)
{
	char *md = S_page("x86_1/ebash.md"), *html = S_page("x86_1/ebash.html");
	const char *a, *b, *c;
	EXPECT_HAS(md, "# System x86_1 — eBASH-style table");
	EXPECT_HAS(md, "*long* is the figure measured at 65536 B, not eBASH's extrapolation");
	EXPECT_HAS(md, "| primitive | fastest implementation | compiler | long | 4096 | 1536 | 576 | "
		"64 | 8 |");
	/* the SUPERCOP primitive: its fastest implementation, its compiler, every eBASH length */
	EXPECT_HAS(md, "| [sha256](sha256.html) | `ref` | `" O3S "` | 10.50 ± 0.04 | 10.88 ± 0.04 | "
		"11.50 ± 0.05 | 12.8 ± 0.1 | 27.1 ± 0.1 | 160.3 ± 0.6 |");
	/* the compiler named short, its whole line in the cell's title and under the table */
	EXPECT_HAS(md, "Compiler settings, named short above: `" O3S "` is `" O3 "`.");
	EXPECT_HAS(html, "<code class=\"compiler\" title=\"" O3 "\">" O3S "</code>");
	/* the NGCC candidate's instances: measured at 65536 B only, no compiler setting */
	EXPECT_HAS(md, "| [litchi_256](hash-15.html) (hash-15) | `reference` | — | 9.21 ± 0.04 | — | — | "
		"— | — | — |");
	/* a wide interval is marked on its figure */
	EXPECT_HAS(md, "| [litchi_512](hash-15.html) (hash-15) | `reference` | — | 9.7 ± 0.2‡ |");
	/* fastest first */
	a = strstr(md, "[litchi_256]");
	b = strstr(md, "[litchi_512]");
	c = strstr(md, "[sha256]");
	cr_expect(a && b && c && a < b && b < c, "rows sorted by cycles per byte at long");
	cr_expect_null(strstr(md, "sphlib"), "a failing implementation is never the fastest");
	EXPECT_HAS(html, "<a href=\"sha256.html\">sha256</a>");
	free(md);
	free(html);
	md = S_page("index.html");
	EXPECT_HAS(md, "<a href=\"x86_1/ebash.html\">eBASH table</a>");
	free(md);
	md = S_page("x86_1/index.html");
	EXPECT_HAS(md, "<a href=\"ebash.html\">x86_1 eBASH table</a>");
	free(md);
	md = S_page("sitemap.xml");
	EXPECT_HAS(md, "x86_1/ebash.html");
	free(md);
	free(S_page("x86_1/ebash.md.gz"));
}

Test(supercop, the_comparison_page_holds_both_corpora_by_digest_length)
{
	char *md = S_page("x86_1/compare.md"), *g = S_section(md, "## 256-bit digests");
	EXPECT_HAS(g, "| [hash-15](hash-15.html) | `litchi_256` (reference) | PASS | 9.21 ± 0.04 |");
	EXPECT_HAS(g, "| [sha256](sha256.html) | `ref` (SUPERCOP) | PASS | 10.50 ± 0.04 |");
	cr_expect_null(strstr(md, "sphlib"), "an implementation not timed has no row");
	EXPECT_HAS(md, "SUPERCOP's crypto_hash implementations (marked SUPERCOP) stand beside the "
		"NGCC candidates");
	free(g);
	free(md);
	/* the index shows the primitive's fastest passing implementation */
	md = S_page("index.html");
	EXPECT_HAS(md, "<a href=\"x86_1/sha256.html\">10.50 ± 0.04 cycles/byte</a>");
	free(md);
}

Test(supercop, downloads_carry_the_path_and_compiler)
{
	char *csv = hbt_results_csv(S_site()), *page = S_page("x86_1/sha256.csv");
	EXPECT_HAS(csv, ",record,record_sha256,supercop_path,supercop_compiler,unit,"
		"ratio_sm3_reference,");
	EXPECT_HAS(csv, "sha256.ref__hash_4096.json,");
	EXPECT_HAS(csv, ",crypto_hash/sha256/ref," O3 ",cycles,");
	EXPECT_HAS(page, ",crypto_hash/sha256/ref," O3 ",cycles,");
	free(csv);
	csv = S_page("x86_1/results-001.json");
	EXPECT_HAS(csv, "\"supercop_path\": \"crypto_hash/sha256/ref\", \"supercop_compiler\": \"" O3
		"\", \"unit\": \"cycles\", \"ratio_sm3_reference\": ");
	EXPECT_HAS(csv, "\"supercop_path\": null, \"supercop_compiler\": null, \"unit\": \"cycles\", ");
	free(csv);
	free(page);
}

Test(supercop, the_site_checks_clean)
{
	hg_site_opts o;
	char *report = NULL;
	size_t len = 0, problems = 9;
	FILE *r = open_memstream(&report, &len), *w = fopen("/dev/null", "w");
	S_opts(&o, DATA, S_site(), w);
	cr_assert_eq(hg_site_check(&problems, &o, r), 0, "%s", hg_error_last());
	fclose(r);
	fclose(w);
	cr_expect_eq(problems, 0, "%s", report);
	free(report);
}

Test(supercop, a_malformed_supercop_object_is_named_with_its_path)
{
	char *out = hbt_tmpdir("supercop-bad"), *data = hb_path_join(out, "data");
	char *site = hb_path_join(out, "site"), *cmd = hb_sprintf("cp -r '%s' '%s'", DATA, data);
	cr_assert_eq(system(cmd), 0);
	hbt_replace(data, "x86_1/kat/sha256/sha256.ref.json", "\"cycles\": 21704", "\"cycles\": \"fast\"");
	cr_expect_neq(S_build(data, site), 0);
	EXPECT_HAS(hg_error_last(), "sha256.ref.json: supercop.compilers[0].cycles: expected an "
		"integer");
	hbt_replace(data, "x86_1/kat/sha256/sha256.ref.json", "\"cycles\": \"fast\"", "\"cycles\": 21704");
	hbt_replace(data, "algorithms/sha256.json", "\"not_run\": [", "\"not_run\": [7, ");
	cr_expect_neq(S_build(data, site), 0);
	EXPECT_HAS(hg_error_last(), "sha256.json: supercop.not_run[0]: expected an object");
	free(cmd);
	free(site);
	free(data);
	free(out);
}

/* --compilers timed the passing lines in turns (supercop_pick.c): the settings table says how each
 * compared with the fastest by try's median and which is within noise of the one chosen. */
Test(supercop, lines_timed_in_turns_are_named_within_noise_of_the_chosen)
{
	char *root = hbt_tmpdir("supercop-turns"), *data = hb_path_join(root, "data");
	char *site = hb_path_join(root, "site"), *cmd, *path, *page, *s3;
	size_t len;

	cmd = hb_sprintf("cp -r '%s' '%s'", DATA, data);
	cr_assert_eq(system(cmd), 0);
	hbt_replace(data, "x86_1/kat/sha256/sha256.ref.json", "\"cycles\": 21704", "\"cycles\": 21704, "
		"\"in_turns\": {\"ratio\": 1, \"low\": 1, \"high\": 1, \"rounds\": 0, \"kept\": true, "
		"\"within_noise_of_kept\": false}");
	hbt_replace(data, "x86_1/kat/sha256/sha256.ref.json", "\"cycles\": 23311", "\"cycles\": 23311, "
		"\"in_turns\": {\"ratio\": 1.004, \"low\": 0.998, \"high\": 1.009, \"rounds\": 5, "
		"\"kept\": false, \"within_noise_of_kept\": true}");
	free(cmd);
	/* the summary's line in SHA256SUMS made anew, as a campaign writing it would have */
	cmd = hb_sprintf("cd '%s/x86_1' && f=kat/sha256/sha256.ref.json && sed -i "
		"\"s|^[0-9a-f]*  $f\\$|$(sha256sum $f | cut -d' ' -f1)  $f|\" SHA256SUMS", data);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	cr_assert_eq(S_build(data, site), 0, "%s", hg_error_last());
	path = hb_path_join(site, "x86_1/sha256.md");
	cr_assert_eq(hg_read_file(&page, &len, path), 0, "%s", hg_error_last());
	s3 = S_section(page, "## 3");
	EXPECT_HAS(s3, "| `" O3S "` (chosen) 1.000× (1.000–1.000) the fastest by try, in turns |");
	EXPECT_HAS(s3, "| `" O2S "` (within noise of the chosen) 1.004× (0.998–1.009) the fastest by "
		"try, in turns |");
	free(s3);
	free(page);
	free(path);

	/* a malformed in_turns is one line naming the file and the field */
	hbt_replace(data, "x86_1/kat/sha256/sha256.ref.json", "\"ratio\": 1.004", "\"ratio\": 0.9");
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	cr_expect_neq(S_build(data, site), 0);
	cr_expect(strstr(hg_error_last(), "supercop.compilers[1].in_turns: expected") != NULL, "%s",
		hg_error_last());
	free(cmd);
	free(site);
	free(data);
	hg_rm_rf(root);
	free(root);
}

Test(supercop, the_front_page_names_the_system_its_counts_and_the_fastest_of_each_length)
{
	char *html = S_page("index.html");
	const char *fastest = strstr(html, "<h2>The fastest on each system</h2>"), *a, *b;
	/* what the site is, and how to check it */
	EXPECT_HAS(html, "the NGCC candidates and SUPERCOP's crypto_hash implementations side by "
		"side, measured by hashbench on 1 system.");
	EXPECT_HAS(html, "<code>cd data/x86_1 &amp;&amp; sha256sum -c SHA256SUMS</code>");
	EXPECT_HAS(html, "<code>hashgen --check --data data --out site</code>");
	/* the system: its processor, counter, campaign, and what became of its implementations:
	 * sha256's ref passes, sphlib fails checksumbig, rust_sha2 was not run here */
	EXPECT_HAS(html, "<td>12th Gen Intel(R) Core(TM) i7-12700 (x86-64)</td><td class=\"name\">"
		"perf-cycles (cycles)</td>");
	EXPECT_HAS(html, "<td>2026-09-25 10:02 – 2026-09-28 10:51 UTC</td><td>guide</td>"
		"<td class=\"num\">2</td><td>3 verified, 1 failed, 1 not run here</td>");
	/* the fastest of each digest length, ranked as the comparison page ranks them */
	cr_assert_not_null(fastest, "no section of the fastest");
	a = strstr(fastest, "<a href=\"x86_1/hash-15.html\">hash-15</a>");
	b = strstr(fastest, "<a href=\"x86_1/sha256.html\">sha256</a>");
	cr_expect(a && b && a < b && strstr(b, "10.50 ± 0.04"), "litchi_256 first, then sha256 "
		"at 10.50 ± 0.04 cycles/byte: %s", fastest);
	EXPECT_HAS(fastest, "<h3>512-bit digests</h3>");
	free(html);
}

