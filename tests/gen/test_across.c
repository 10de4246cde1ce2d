/* test_across.c — the page of an algorithm across every system that measured it
 * (algorithms/<id>.html, .md and .svg): made for each algorithm of two systems or more and for no
 * other, with every system's KAT results and figures side by side and one chart of them all,
 * linked from the front page, from each system's page of it and from their breadcrumbs, listed in
 * the sitemap, and rendered again by a rebuild only when a system's evidence of it changed. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "golden.h"
#include "hashgen.h"
#include "support.h"

#define DATA HBT_FIXTURES "/data"

static char *S_read(const char *site, const char *rel)
{
	char *path = hb_path_join(site, rel), *text;
	size_t len;
	cr_assert_eq(hg_read_file(&text, &len, path), 0, "%s", hg_error_last());
	free(path);
	return text;
}

static int S_exists(const char *site, const char *rel)
{
	char *path = hb_path_join(site, rel);
	struct stat st;
	int yes = stat(path, &st) == 0;
	free(path);
	return yes;
}

static ino_t S_ino(const char *site, const char *rel)
{
	char *path = hb_path_join(site, rel);
	struct stat st;
	cr_assert_eq(stat(path, &st), 0, "%s is missing", path);
	free(path);
	return st.st_ino;
}

#define EXPECT_HAS(text, needle) \
	cr_expect(strstr((text), (needle)) != NULL, "missing: %s", (needle))

/* The fixtures' site: hash-15 is measured on arm_1 and x86_1, sm3, sha2, hash-21 and evil on
 * x86_1 alone. */
static char *S_site(const char *name)
{
	char *root = hbt_tmpdir(name), *site = hb_path_join(root, "site"), *err = NULL;
	cr_assert_eq(hbt_site_build(DATA, site, 0, &err), 0, "%s", err ? err : "");
	free(err);
	free(root);
	return site;
}

Test(across, a_page_for_each_algorithm_of_two_systems_and_no_other)
{
	char *site = S_site("across-which");
	cr_expect(S_exists(site, "algorithms/hash-15.html"));
	cr_expect(S_exists(site, "algorithms/hash-15.md"));
	cr_expect(S_exists(site, "algorithms/hash-15.svg"));
	cr_expect(S_exists(site, "algorithms/hash-15.html.gz"));
	cr_expect_not(S_exists(site, "algorithms/sm3.html"), "sm3 was measured on one system");
	cr_expect_not(S_exists(site, "algorithms/hash-21.html"), "hash-21 was measured on one system");
	free(site);
}

Test(across, every_system_s_results_and_figures_side_by_side)
{
	char *site = S_site("across-figures"), *md = S_read(site, "algorithms/hash-15.md");
	char *svg = S_read(site, "algorithms/hash-15.svg");

	EXPECT_HAS(md, "# hash-15 Litchi — performance on every system");
	/* the systems, with their processors and campaigns */
	EXPECT_HAS(md, "| [arm_1](../arm_1/index.html) | Qualcomm Oryon (AArch64) |");
	EXPECT_HAS(md, "| 2026-09-25 10:02 – 2026-09-28 10:51 UTC |");
	/* each library's KAT result on each system */
	EXPECT_HAS(md, "| instance | arm_1 | x86_1 |");
	EXPECT_HAS(md, "| `litchi_256` | PASS | PASS |");
	/* the figures of both systems at each size, with their intervals where they have one */
	EXPECT_HAS(md, "| instance | system | 32 B | 65536 B |");
	EXPECT_HAS(md, "| `litchi_256` | [arm_1](../arm_1/hash-15.html) | 38.2 | 10.0 |");
	EXPECT_HAS(md, "| `litchi_256` | [x86_1](../x86_1/hash-15.html) | 37.0 ± 0.1 | 9.21 ± 0.04 |");
	EXPECT_HAS(md, "![Chart: cycles per byte against message size of each library of hash-15 on "
		"each system](hash-15.svg)");
	/* one chart, a line per system and library */
	EXPECT_HAS(svg, "arm_1: litchi_256 (reference)");
	EXPECT_HAS(svg, "x86_1: litchi_256 (reference)");
	EXPECT_HAS(svg, "arm_1: litchi_512 (reference)");
	EXPECT_HAS(svg, "x86_1: litchi_512 (reference)");
	EXPECT_HAS(svg, ">cycles/byte<");
	free(svg);
	free(md);
	free(site);
}

Test(across, linked_from_the_front_page_the_system_pages_and_their_breadcrumbs)
{
	char *site = S_site("across-links"), *index = S_read(site, "index.html");
	char *x86 = S_read(site, "x86_1/hash-15.md"), *only = S_read(site, "x86_1/sm3.md");
	char *map = S_read(site, "sitemap.xml"), *md = S_read(site, "algorithms/hash-15.md");

	EXPECT_HAS(index, "<a href=\"algorithms/hash-15.html\" title=\"hash-15 on every system\">"
		"hash-15</a>");
	cr_expect_null(strstr(index, "algorithms/sm3.html"));
	/* index › the algorithm on every system › this system among the others */
	EXPECT_HAS(x86, "[Performance measurements](../index.html) › [hash-15](../algorithms/"
		"hash-15.html \"hash-15 on every system\") › system: [arm_1](../arm_1/hash-15.html) · "
		"**x86_1**");
	EXPECT_HAS(x86, "with one chart: [hash-15 on every system](../algorithms/hash-15.html).");
	/* an algorithm of one system keeps the breadcrumb of its system */
	EXPECT_HAS(only, "[Performance measurements](../index.html) › [x86_1](index.html) › sm3");
	EXPECT_HAS(map, "<loc>algorithms/hash-15.html</loc>");
	EXPECT_HAS(md, "[Performance measurements](../index.html) › hash-15 · system: "
		"[arm_1](../arm_1/hash-15.html) · [x86_1](../x86_1/hash-15.html)");
	free(md);
	free(map);
	free(only);
	free(x86);
	free(index);
	free(site);
}

Test(across, a_rebuild_renders_it_again_only_when_a_system_s_evidence_changed)
{
	char *root = hbt_tmpdir("across-rebuild"), *data = hb_path_join(root, "data");
	char *site = hb_path_join(root, "site"), *clean = hb_path_join(root, "clean");
	char *cmd = hb_sprintf("cp -r '%s' '%s'", DATA, data), *err = NULL, *a, *b;
	ino_t first;

	cr_assert_eq(system(cmd), 0, "%s", cmd);
	cr_assert_eq(hbt_site_build(data, site, 0, &err), 0, "%s", err);
	free(err);
	first = S_ino(site, "algorithms/hash-15.html");
	cr_assert_eq(hbt_site_build(data, site, 0, &err), 0, "%s", err);
	free(err);
	cr_expect_eq(S_ino(site, "algorithms/hash-15.html"), first,
		"nothing changed, yet the page across systems was rendered again");

	/* arm_1's evidence of hash-15 changes */
	hbt_replace(data, "arm_1/records/hash-15/litchi_256__hash_32.json", "\"peak_rss_kib\": ",
		"\"peak_rss_kib\": 1");
	cr_assert_eq(hbt_site_build(data, site, 0, &err), 0, "%s", err);
	free(err);
	cr_expect_neq(S_ino(site, "algorithms/hash-15.html"), first,
		"arm_1's evidence changed, yet the page across systems was kept");
	cr_assert_eq(hbt_site_build(data, clean, 0, &err), 0, "%s", err);
	free(err);
	a = S_read(site, "algorithms/hash-15.html");
	b = S_read(clean, "algorithms/hash-15.html");
	cr_expect_str_eq(a, b, "the rebuilt page differs from a clean build's");
	free(a);
	free(b);
	free(cmd);
	free(clean);
	free(site);
	free(data);
	free(root);
}
