/* test_site.c — hashgen on a fixture data/: golden HTML and Markdown pages, every HTML file parses
 * cleanly and every link resolves, two runs give the same bytes, evidence copies match
 * SHA256SUMS, and bad input gets one clear message while the previous site survives. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "golden.h"
#include "hashgen.h"
#include "pages.h"
#include "render.h"
#include "support.h"

#define DATA HBT_FIXTURES "/data"
#define GOLDEN HBT_GOLDEN_DIR
#define TEMPLATES HBT_SOURCE_DIR "/templates"

static int S_build(const char *data, const char *out, int strict, char **err)
{
	return hbt_site_build(data, out, strict, err);
}

static char *S_read(const char *path)
{
	char *text;
	size_t len;
	cr_assert_eq(hg_read_file(&text, &len, path), 0, "%s", hg_error_last());
	return text;
}

/* ---- golden pages ---- */

Test(site, golden_pages)
{
	char *out = hbt_tmpdir("golden"), *site = hb_path_join(out, "site");
	size_t i;

	HBT_REFUSE_GOLDEN_UPDATE();
	cr_assert_eq(S_build(DATA, site, 0, NULL), 0, "%s", hg_error_last());
	for (i = 0; hbt_golden_pages[i]; i++) {
		const char *page = hbt_golden_pages[i];
		char *got_path = hb_path_join(site, page), *want_path = hb_path_join(GOLDEN, page);
		char *got = S_read(got_path), *want = S_read(want_path);
		cr_expect_str_eq(got, want, "%s differs from tests/fixtures/golden/%s (make golden "
			"rewrites the golden files when the change is meant)", page, page);
		free(want);
		free(got);
		free(got_path);
		free(want_path);
	}
	free(site);
	free(out);
}

/* ---- every HTML file parses; every relative link resolves ---- */

static int S_errors;

static void S_count_error(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
	S_errors++;
}

static void S_check_links(xmlNodePtr n, const char *page_dir, const char *file, size_t *links)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		{
			static const char *attrs[] = { "href", "src", NULL };
			size_t i;
			for (i = 0; attrs[i]; i++) {
				xmlChar *v = xmlGetProp(n, (const xmlChar *)attrs[i]);
				if (v) {
					const char *href = (const char *)v;
					if (strncmp(href, "https://", 8) && strncmp(href, "http://", 7)) {
						char *target = hb_path_join(page_dir, href), *frag;
						if ((frag = strchr(target, '#')) != NULL)
							*frag++ = 0;
						cr_expect(access(target, F_OK) == 0, "%s: link %s resolves to nothing",
							file, href);
						if (frag && access(target, F_OK) == 0) {
							/* an anchor: an element of the target has that id */
							char *text = S_read(target), *id = hb_sprintf("id=\"%s\"", frag);
							cr_expect(strstr(text, id) != NULL, "%s: link %s: no %s there",
								file, href, id);
							free(id);
							free(text);
						}
						cr_expect(href[0] != '/', "%s: link %s is not relative", file, href);
						free(target);
						(*links)++;
					}
					xmlFree(v);
				}
			}
		}
		S_check_links(n->children, page_dir, file, links);
	}
}

static void S_walk_html(const char *dir, size_t *files, size_t *links)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	cr_assert_not_null(d);
	while ((de = readdir(d)) != NULL) {
		char *p;
		struct stat st;
		size_t n = strlen(de->d_name);
		if (de->d_name[0] == '.')
			continue;
		p = hb_path_join(dir, de->d_name);
		stat(p, &st);
		if (S_ISDIR(st.st_mode)) {
			S_walk_html(p, files, links);
		} else if (n > 5 && strcmp(de->d_name + n - 5, ".html") == 0) {
			htmlDocPtr doc;
			S_errors = 0;
			xmlSetGenericErrorFunc(NULL, S_count_error);
			doc = htmlReadFile(p, "UTF-8", HTML_PARSE_NONET);
			xmlSetGenericErrorFunc(NULL, NULL);
			cr_assert_not_null(doc, "%s does not parse", p);
			cr_expect_eq(S_errors, 0, "%s: %d HTML parser errors", p, S_errors);
			S_check_links(xmlDocGetRootElement(doc), dir, p, links);
			xmlFreeDoc(doc);
			(*files)++;
		}
		free(p);
	}
	closedir(d);
}

Test(site, html_parses_cleanly_and_links_resolve)
{
	char *out = hbt_tmpdir("links"), *site = hb_path_join(out, "site");
	size_t files = 0, links = 0;
	cr_assert_eq(S_build(DATA, site, 0, NULL), 0, "%s", hg_error_last());
	S_walk_html(site, &files, &links);
	cr_expect_eq(files, 1 + 2 * 4 + 6 + 1, "index, 2 × (system index, method, comparison, eBASH "
		"table), 6 algorithm pages, 1 across both systems");
	cr_expect_gt(links, 50);
	free(site);
	free(out);
}

/* ---- determinism ---- */

static void S_compare_trees(const char *a, const char *b, size_t *n)
{
	DIR *d = opendir(a);
	struct dirent *de;
	cr_assert_not_null(d);
	while ((de = readdir(d)) != NULL) {
		char *pa, *pb;
		struct stat st;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		pa = hb_path_join(a, de->d_name);
		pb = hb_path_join(b, de->d_name);
		stat(pa, &st);
		if (S_ISDIR(st.st_mode)) {
			S_compare_trees(pa, pb, n);
		} else {
			char *x, *y;
			size_t lx, ly;
			cr_assert_eq(hg_read_file(&x, &lx, pa), 0);
			cr_assert_eq(hg_read_file(&y, &ly, pb), 0, "%s is missing from the second run", pb);
			cr_expect(lx == ly && memcmp(x, y, lx) == 0, "%s differs between two runs", pa);
			free(x);
			free(y);
			(*n)++;
		}
		free(pa);
		free(pb);
	}
	closedir(d);
}

Test(site, two_runs_give_the_same_bytes)
{
	char *out = hbt_tmpdir("determinism"), *s1 = hb_path_join(out, "one"), *s2 = hb_path_join(out, "two");
	size_t n1 = 0, n2 = 0;
	cr_assert_eq(S_build(DATA, s1, 0, NULL), 0, "%s", hg_error_last());
	cr_assert_eq(S_build(DATA, s2, 0, NULL), 0, "%s", hg_error_last());
	S_compare_trees(s1, s2, &n1);
	S_compare_trees(s2, s1, &n2);
	cr_expect_eq(n1, n2);
	cr_expect_gt(n1, 40);
	free(s1);
	free(s2);
	free(out);
}

/* ---- the evidence copies and SHA256SUMS ---- */

Test(site, evidence_copies_check_against_sha256sums)
{
	char *out = hbt_tmpdir("sums"), *site = hb_path_join(out, "site"), *warn = NULL, *cmd, *page;
	cr_assert_eq(S_build(DATA, site, 0, &warn), 0, "%s", hg_error_last());
	cr_expect(strstr(warn, "arm_1/records/hash-15/litchi_512__hash_32.json: its SHA-256 does not "
		"match SHA256SUMS\n") != NULL, "%s", warn);
	cmd = hb_sprintf("cd '%s/data/x86_1' && sha256sum --quiet -c SHA256SUMS", site);
	cr_expect_eq(system(cmd), 0, "the x86_1 copies do not verify");
	free(cmd);
	cmd = hb_sprintf("cd '%s/data/arm_1' && sha256sum --quiet -c SHA256SUMS 2>/dev/null | "
		"grep -qx 'records/hash-15/litchi_512__hash_32.json: FAILED'", site);
	cr_expect_eq(system(cmd), 0, "sha256sum -c does not show the changed record as FAILED");
	free(cmd);
	page = hb_sprintf("%s/arm_1/hash-15.html", site);
	free(cmd = S_read(page));
	{
		char *html = S_read(page);
		cr_expect(strstr(html, "<span class=\"warning\">does not match SHA256SUMS") != NULL);
		free(html);
	}
	free(page);
	free(warn);
	free(site);
	free(out);
}

Test(site, strict_makes_a_mismatch_an_error)
{
	char *out = hbt_tmpdir("strict"), *site = hb_path_join(out, "site"), *err = NULL;
	cr_assert_neq(S_build(DATA, site, 1, &err), 0);
	cr_expect(strstr(err, "litchi_512__hash_32.json: its SHA-256 does not match SHA256SUMS "
		"(--strict)") != NULL, "%s", err);
	cr_expect(access(site, F_OK) != 0, "no site after a failed run");
	free(err);
	free(site);
	free(out);
}

/* ---- escaping ---- */

Test(site, names_are_text_and_never_markup)
{
	char *out = hbt_tmpdir("escape"), *site = hb_path_join(out, "site"), *p, *html, *md;
	const char *script;
	cr_assert_eq(S_build(DATA, site, 0, NULL), 0, "%s", hg_error_last());
	p = hb_sprintf("%s/x86_1/evil.html", site);
	html = S_read(p);
	free(p);
	/* the one script element is the skeleton's, which loads the table script */
	script = strstr(html, "<script");
	cr_expect(script && strncmp(script, "<script src=\"../tables.js\" defer></script>", 42) == 0 &&
		!strstr(script + 1, "<script"), "a name became a script element");
	cr_expect(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;") != NULL);
	cr_expect(strstr(html, "Category: a &amp; b &lt;i&gt;") != NULL);
	p = hb_sprintf("%s/x86_1/evil.md", site);
	md = S_read(p);
	free(p);
	cr_expect(strstr(md, "# evil \\<script\\>alert(1)\\</script\\>") != NULL, "%s", md);
	cr_expect(strstr(md, "Category: a \\& b \\<i\\>") != NULL);
	free(html);
	free(md);
	free(site);
	free(out);
}

Test(site, markdown_renderer_escapes_and_fences)
{
	hg_page *p = hg_page_new();
	hg_arena *a = p->arena;
	hg_node *para = hg_add(a, p->body, HG_PARA), *t, *row;
	char *md;
	size_t len;

	p->title = "t";
	hg_add_text(a, para, "# not a heading *x* [y](z) a_b _c");
	t = hg_add(a, p->body, HG_TABLE);
	row = hg_add(a, t, HG_ROW);
	hg_add_cell(a, row, "a|b", 0);
	row = hg_add(a, t, HG_ROW);
	hg_add_code(a, hg_add(a, row, HG_CELL), "x|`y`");
	cr_assert_eq(hg_render_md(&md, &len, p), 0);
	cr_expect_str_eq(md, "\\# not a heading \\*x\\* \\[y\\](z) a_b \\_c\n\n"
		"| a\\|b |\n| --- |\n| `` x\\|`y` `` |\n\n");
	free(md);
	hg_page_free(p);
}

Test(site, prose_placeholders_are_text_and_raw_html_is_dropped)
{
	hg_page *p = hg_page_new();
	char *md;
	size_t len;
	p->title = "t";
	cr_assert_eq(hg_prose(p->arena, p->body, "Hello {who}. <b>raw</b> [bad](javascript:x) "
		"[good](method.html)\n\n<div>block</div>\n", NULL, NULL), 0);
	cr_assert_eq(hg_render_md(&md, &len, p), 0);
	cr_expect_str_eq(md, "Hello {who}. raw bad [good](method.html)\n\n");
	free(md);
	hg_page_free(p);
}

/* ---- the environment rows ---- */

void hg_env_rows(hg_arena *a, hg_node *parent, const hg_system *s);

Test(site, environment_rows_follow_the_design)
{
	hg_system s;
	hg_page *p = hg_page_new();
	char *md;
	size_t len;

	memset(&s, 0, sizeof(s));
	s.processor = "Qualcomm Oryon";
	s.cpu = 2;
	s.machine = "ASUS Vivobook S 15";
	s.governor = "performance";
	s.min_khz = s.max_khz = 2710000;
	s.boost_name = "boost";
	s.boost_state = "off";
	s.smt = "none";
	s.memory_mib = 30562;
	s.os = "Ubuntu 26.04.1 LTS";
	s.kernel = "7.0.0-34-generic";
	s.compiler = "gcc (Ubuntu 15.2.0-16ubuntu1) 15.2.0";
	s.build_tool = "cmake version 4.2.3";
	s.start = "2026-09-28T15:05:46Z";
	s.end = "2026-09-29T08:43:52Z";
	p->title = "t";
	hg_env_rows(p->arena, p->body, &s);
	cr_assert_eq(hg_render_md(&md, &len, p), 0);
	cr_expect_str_eq(md, "| item | value |\n| --- | --- |\n"
		"| processor | Qualcomm Oryon (CPU 2, one core) |\n"
		"| machine | ASUS Vivobook S 15 |\n"
		"| clock | fixed 2.71 GHz (governor performance, minimum = maximum), boost off, SMT none |\n"
		"| memory | 30562 MiB |\n"
		"| OS / kernel | Ubuntu 26.04.1 LTS / 7.0.0-34-generic |\n"
		"| compiler / build tool | gcc (Ubuntu 15.2.0-16ubuntu1) 15.2.0 / cmake version 4.2.3 |\n"
		"| campaign start / end (UTC) | 2026-09-28T15:05:46 / 2026-09-29T08:43:52 |\n\n");
	free(md);
	hg_page_free(p);

	/* no machine row when the firmware names none; unknown values say so */
	p = hg_page_new();
	p->title = "t";
	s.machine = NULL;
	s.memory_mib = -1;
	s.end = NULL;
	s.compiler = NULL;
	hg_env_rows(p->arena, p->body, &s);
	cr_assert_eq(hg_render_md(&md, &len, p), 0);
	cr_expect_null(strstr(md, "machine"));
	cr_expect(strstr(md, "| memory | not available |") != NULL, "%s", md);
	cr_expect(strstr(md, "| compiler / build tool | not available / cmake version 4.2.3 |") != NULL);
	cr_expect(strstr(md, "| campaign start / end (UTC) | 2026-09-28T15:05:46 / not available |"));
	free(md);
	hg_page_free(p);
}

/* ---- bad input ---- */

typedef struct {
	const char *file;     /* relative to the copied data/ */
	const char *find;     /* text to replace in it (NULL: write replace as the whole file) */
	const char *replace;
	const char *message;  /* expected error, after "<data>/" */
} S_bad;

static void S_expect_bad(const S_bad *b, size_t i)
{
	char *out = hbt_tmpdir("bad"), *data = hb_path_join(out, "data"), *site = hb_path_join(out, "site");
	char *cmd = hb_sprintf("cp -r '%s' '%s'", DATA, data), *path, *text, *err = NULL, *before, *after;
	char *index = hb_path_join(site, "index.html");

	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(S_build(data, site, 0, NULL), 0, "%s", hg_error_last());
	before = S_read(index);
	path = hb_path_join(data, b->file);
	if (b->find) {
		char *at, *changed;
		text = S_read(path);
		at = strstr(text, b->find);
		cr_assert_not_null(at, "case %zu: '%s' not in %s", i, b->find, b->file);
		*at = 0;
		changed = hb_sprintf("%s%s%s", text, b->replace, at + strlen(b->find));
		hbt_write(path, changed, strlen(changed));
		free(changed);
		free(text);
	} else {
		hbt_write(path, b->replace, strlen(b->replace));
	}
	cr_expect_neq(S_build(data, site, 0, &err), 0, "case %zu: bad input was accepted", i);
	cr_expect(err && strncmp(err, data, strlen(data)) == 0 &&
		strcmp(err + strlen(data) + 1, b->message) == 0,
		"case %zu: got '%s', want '<data>/%s'", i, err ? err : "", b->message);
	after = S_read(index);
	cr_expect_str_eq(after, before, "case %zu: the previous site was damaged", i);
	free(before);
	free(after);
	free(err);
	free(path);
	free(cmd);
	free(index);
	free(site);
	free(data);
	free(out);
}

Test(site, bad_input_gets_one_clear_message_and_the_site_survives, .timeout = HBT_TIMEOUT(120))
{
	static const S_bad cases[] = {
		{ "x86_1/records/hash-15/litchi_256__hash_32.json", "{", "{,",
			"x86_1/records/hash-15/litchi_256__hash_32.json:1:2: malformed JSON: string or '}' "
			"expected near ','" },
		{ "x86_1/records/hash-15/litchi_256__hash_32.json", "\"cycles\": 24448800",
			"\"cycles\": \"24448800\"",
			"x86_1/records/hash-15/litchi_256__hash_32.json: trials[2].cycles: expected an integer" },
		{ "x86_1/records/hash-15/litchi_256__hash_32.json", "\"message_bytes\": 32,", "",
			"x86_1/records/hash-15/litchi_256__hash_32.json: message_bytes: missing" },
		{ "x86_1/records/hash-15/litchi_256__hash_32.json", "\"message_bytes\": 32,",
			"\"message_bytes\": 0,", "x86_1/records/hash-15/litchi_256__hash_32.json: message_bytes: "
			"0-byte records are refused (no cycles per byte)" },
		{ "x86_1/records/hash-15/litchi_256__hash_32.json", "hashbench.record/1", "hashbench.record/9",
			"x86_1/records/hash-15/litchi_256__hash_32.json: schema: unknown version "
			"\"hashbench.record/9\" (this hashgen reads hashbench.record/1)" },
		{ "x86_1/records/hash-15/litchi_256__hash_32.json", "\"system\": \"x86_1\"",
			"\"system\": \"arm_1\"", "x86_1/records/hash-15/litchi_256__hash_32.json: system: "
			"\"arm_1\" contradicts the path (system x86_1)" },
		{ "x86_1/records/hash-15/litchi_256__hash_32.json", "\"algorithm\": \"hash-15\"",
			"\"algorithm\": \"hash-21\"", "x86_1/records/hash-15/litchi_256__hash_32.json: algorithm: "
			"\"hash-21\" contradicts the path (algorithm hash-15)" },
		{ "x86_1/system.json", "\"cpu\": 2", "\"cpu\": \"2\"",
			"x86_1/system.json: cpu: expected an integer" },
		{ "algorithms/hash-15.json", "https://example.org/niccs/hash-15", "javascript:alert(1)",
			"algorithms/hash-15.json: links.submission.href: \"javascript:alert(1)\" is neither an "
			"http(s) URL nor a relative path inside the site: refused" },
		{ "algorithms/hash-21.json", "\"index.html\"", "\"../../etc/passwd\"",
			"algorithms/hash-21.json: links.submission.href: \"../../etc/passwd\" is neither an "
			"http(s) URL nor a relative path inside the site: refused" },
		{ "x86_1/SHA256SUMS", "  kat/", "  ../kat/",
			"x86_1/SHA256SUMS:1: ../kat/evil/evil_256.json: a path that leaves the system folder: "
			"refused" },
		{ "x86_1/kat/hash-15/litchi_256.json", "\"result\": \"PASS\",\n  \"detail\"",
			"\"result\": \"MAYBE\",\n  \"detail\"",
			"x86_1/kat/hash-15/litchi_256.json: result: expected PASS, FAIL, UNVERIFIED or ERROR" },
	};
	size_t i;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		S_expect_bad(&cases[i], i);
}

Test(site, a_symbolic_link_out_of_data_is_refused)
{
	char *out = hbt_tmpdir("symlink"), *data = hb_path_join(out, "data"), *site = hb_path_join(out, "site");
	char *cmd = hb_sprintf("cp -r '%s' '%s' && ln -s /etc/passwd '%s/x86_1/records/hash-15/x.json'",
		DATA, data, data), *err = NULL, *want;
	cr_assert_eq(system(cmd), 0);
	cr_expect_neq(S_build(data, site, 0, &err), 0);
	want = hb_sprintf("%s/x86_1/records/hash-15/x.json: a symbolic link that leads out of the data "
		"folder: refused", data);
	cr_expect_str_eq(err, want);
	cr_expect(access(site, F_OK) != 0);
	free(want);
	free(err);
	free(cmd);
	free(site);
	free(data);
	free(out);
}

Test(site, hashgen_cli_reports_errors_in_one_line)
{
	char *out = hbt_tmpdir("cli"), *cmd, *line;
	FILE *p;
	char buf[1024];
	cmd = hb_sprintf("'%s/bin/hashgen' --data /nonexistent --out '%s/site' 2>&1; echo \"exit $?\"",
		HBT_BUILD_DIR, out);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	line = fgets(buf, sizeof(buf), p);
	cr_expect_str_eq(line, "hashgen: /nonexistent: No such file or directory\n");
	line = fgets(buf, sizeof(buf), p);
	cr_expect_str_eq(line, "exit 1\n");
	pclose(p);
	free(cmd);
	free(out);
}

/* ---- rebuilds ---- */

static ino_t S_ino(const char *dir, const char *rel)
{
	char *p = hb_path_join(dir, rel);
	struct stat st;
	cr_assert_eq(stat(p, &st), 0, "%s is missing", p);
	free(p);
	return st.st_ino;
}

Test(site, a_rebuild_reuses_unchanged_pages_and_equals_a_clean_build)
{
	char *out = hbt_tmpdir("rebuild"), *data = hb_path_join(out, "data");
	char *site = hb_path_join(out, "site"), *clean = hb_path_join(out, "clean");
	char *cmd = hb_sprintf("cp -r '%s' '%s'", DATA, data);
	ino_t same_before, changed_before;
	size_t n = 0;

	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(S_build(data, site, 0, NULL), 0, "%s", hg_error_last());
	same_before = S_ino(site, "arm_1/hash-15.html");
	changed_before = S_ino(site, "x86_1/hash-15.html");

	/* one record changes, in place, as an editor would change it */
	hbt_replace(data, "x86_1/records/hash-15/litchi_256__hash_32.json", "\"peak_rss_kib\": 1472",
		"\"peak_rss_kib\": 1479");

	cr_assert_eq(S_build(data, site, 0, NULL), 0, "%s", hg_error_last());
	cr_expect_eq(S_ino(site, "arm_1/hash-15.html"), same_before, "an unchanged page was rendered again");
	cr_expect_neq(S_ino(site, "x86_1/hash-15.html"), changed_before, "the changed page was reused");
	{
		char *page = hb_path_join(site, "x86_1/hash-15.md"), *md = S_read(page);
		cr_expect(strstr(md, "| `litchi_256` | hash_32 | 16648 | 1408 KiB | 1479 KiB |") != NULL,
			"%s", md);
		free(md);
		free(page);
	}
	cr_assert_eq(S_build(data, clean, 0, NULL), 0, "%s", hg_error_last());
	S_compare_trees(site, clean, &n);
	S_compare_trees(clean, site, &n);
	cr_expect_gt(n, 80);
	free(cmd);
	free(clean);
	free(site);
	free(data);
	free(out);
}

Test(site, out_that_is_not_a_site_is_never_replaced)
{
	char *out = hbt_tmpdir("notsite"), *keep = hb_path_join(out, "precious.txt"), *err = NULL, *want;
	hbt_write(keep, "mine\n", 5);
	cr_expect_neq(S_build(DATA, out, 0, &err), 0);
	want = hb_sprintf("%s: not a site hashgen made (no sitemap.xml and index.html): refusing to "
		"replace it", out);
	cr_expect_str_eq(err, want);
	cr_expect_eq(access(keep, F_OK), 0, "a file of the folder was lost");
	free(want);
	free(err);
	free(keep);
	free(out);
}

Test(site, sitemap_lists_every_page_relative_or_under_the_base_url)
{
	char *out = hbt_tmpdir("sitemap"), *site = hb_path_join(out, "site"), *p, *xml;
	hg_site_opts o;
	hg_site_stats st;

	memset(&o, 0, sizeof(o));
	o.data_dir = DATA;
	o.templates_dir = TEMPLATES;
	o.out_dir = site;
	o.generator = "hashgen (test)";
	o.base_url = "https://bench.example.org/ngcc";
	cr_assert_eq(hg_site_build(&st, &o), 0, "%s", hg_error_last());
	p = hb_path_join(site, "sitemap.xml");
	xml = S_read(p);
	cr_expect(strstr(xml, "<loc>https://bench.example.org/ngcc/x86_1/hash-15.html</loc>") != NULL,
		"%s", xml);
	cr_expect(strstr(xml, "<loc>https://bench.example.org/ngcc/index.html</loc>") != NULL);
	free(xml);
	free(p);
	o.base_url = "javascript:alert(1)";
	cr_expect_neq(hg_site_build(&st, &o), 0);
	cr_expect_str_eq(hg_error_last(), "--base-url javascript:alert(1): expected an http:// or "
		"https:// address");
	free(site);
	free(out);
}

/* ---- the method page's scheduling sentences ---- */

Test(site, method_page_says_how_the_campaign_was_scheduled)
{
	json_t *serial = json_loads("{\"campaign\": {\"overlap\": false, \"timing_cpus\": [3]}}", 0,
		NULL);
	json_t *busy = json_loads("{\"campaign\": {\"overlap\": true, \"timing_cpus\": [2, 3]}, "
		"\"shards\": [{\"index\": 1}, {\"index\": 2}]}", 0, NULL);
	json_t *old = json_loads("{\"campaign\": {}}", 0, NULL);
	char *a = hg_schedule_describe(serial), *b = hg_schedule_describe(busy);
	char *c = hg_schedule_describe(old);

	cr_expect(strstr(a, "the timing began when every check had ended") != NULL, "%s", a);
	cr_expect(strstr(a, "one after another on CPU 3.") != NULL, "%s", a);
	cr_expect(strstr(b, "With --overlap") != NULL, "%s", b);
	cr_expect(strstr(b, "timed on CPUs 2 and 3") != NULL, "%s", b);
	cr_expect(strstr(b, "joins 2 shards") != NULL, "%s", b);
	cr_expect(strstr(c, "Not recorded") == c, "%s", c);
	free(a);
	free(b);
	free(c);
	json_decref(serial);
	json_decref(busy);
	json_decref(old);
}

/* Rows of two libraries, a page's: the spanning outputs keep the first, 32 B and 65536 B rows. */
static void S_rows(hg_fig f[4], double base)
{
	static char *inst[2] = { "litchi_256", "litchi_512" };
	static const unsigned long long size[2] = { 32, 65536 };
	size_t i;
	memset(f, 0, 4 * sizeof(hg_fig));
	for (i = 0; i < 4; i++) {
		f[i].system = "x86_1";
		f[i].algorithm = "hash-15";
		f[i].instance = inst[i / 2];
		f[i].implementation = "opt";
		f[i].kat = "PASS";
		f[i].unit = "cycles";
		f[i].message_bytes = size[i % 2];
		f[i].ok = 1;
		f[i].headline_cpb = base + (double)i;
		f[i].static_bytes = 4096 + (long long)i;
	}
}

Test(site, rows_set_aside_come_back_whole)
{
	char *tmp = hbt_tmpdir("spill");
	hg_spill *s = hg_spill_open(tmp);
	hg_spill_block b[2];
	hg_fig f[4], *into;
	size_t k, i, n, size;

	cr_assert(s, "%s", hg_error_last());
	for (k = 0; k < 2; k++) {
		hg_fig *block;
		S_rows(f, 10.0 * (double)(k + 1));
		block = hg_figs_spanning(f, 4, &n, &size);
		cr_assert_eq(n, 4);
		cr_assert_eq(hg_spill_put(s, &b[k], block, n, size), 0, "%s", hg_error_last());
		memset(block, 0xa5, size); /* what comes back is the file's, not this memory's */
		free(block);
	}
	for (k = 2; k-- > 0;) {
		into = malloc(hg_spill_room(&b[k]));
		cr_assert_eq(hg_spill_get(s, &b[k], into), 0, "%s", hg_error_last());
		for (i = 0; i < 4; i++) {
			cr_assert_str_eq(into[i].instance, i < 2 ? "litchi_256" : "litchi_512");
			cr_assert_str_eq(into[i].kat, "PASS");
			cr_assert_str_eq(into[i].algorithm, "hash-15");
			cr_assert_eq(into[i].headline_cpb, 10.0 * (double)(k + 1) + (double)i);
			cr_assert_eq(into[i].static_bytes, 4096 + (long long)i);
			cr_assert((char *)into[i].instance > (char *)into &&
				(char *)into[i].instance < (char *)into + hg_spill_room(&b[k]),
				"row %zu's strings point into the block read back", i);
		}
		free(into);
	}
	hg_spill_close(s);
	/* the file had no name: nothing is left in the folder */
	{
		char *cmd = hb_sprintf("test -z \"$(ls -A '%s')\"", tmp);
		cr_assert_eq(system(cmd), 0, "%s: the spill left a file behind", tmp);
		free(cmd);
	}
	free(tmp);
}

Test(site, a_spill_where_no_file_can_be_made_names_the_folder)
{
	hg_spill *s = hg_spill_open("/nonexistent/hashgen-spill");
	cr_assert_null(s);
	cr_assert(strstr(hg_error_last(), "/nonexistent/hashgen-spill"), "%s", hg_error_last());
}
