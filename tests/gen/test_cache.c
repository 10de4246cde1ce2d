/* test_cache.c — hashgen's rebuild cache: what renders which pages again; caches gone stale. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hashgen.h"
#include "support.h"

#define DATA HBT_FIXTURES "/data"
#define TEMPLATES HBT_SOURCE_DIR "/templates"
#define VERSION_1 "hashgen 0.1.0 (git 1111111)"
#define VERSION_2 "hashgen 0.1.1 (git 2222222)"

/* A test's own copies of the fixture evidence and the templates, and its site. */
typedef struct {
	char *root, *data, *templates, *site, *cache;
	unsigned cleans; /* clean builds made so far, each into a folder of its own */
} S_dirs;

static void S_sh(char *cmd)
{
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	free(cmd);
}

static S_dirs S_dirs_new(const char *name)
{
	S_dirs d;
	d.root = hbt_tmpdir(name);
	d.data = hb_path_join(d.root, "data");
	d.templates = hb_path_join(d.root, "templates");
	d.site = hb_path_join(d.root, "site");
	d.cache = hb_sprintf("%s.hashgen-cache", d.site);
	d.cleans = 0;
	S_sh(hb_sprintf("cp -r '%s' '%s' && cp -r '%s' '%s'", DATA, d.data, TEMPLATES, d.templates));
	return d;
}

static void S_dirs_free(S_dirs *d)
{
	free(d->root);
	free(d->data);
	free(d->templates);
	free(d->site);
	free(d->cache);
}

/* What the last build said it did. */
static hg_site_stats S_last;

/* hashgen --data data --templates d->templates --out out, naming itself generator. */
static size_t S_build(const S_dirs *d, const char *data, const char *out, const char *generator)
{
	hg_site_opts o;
	hg_site_stats st;
	FILE *quiet = fopen("/dev/null", "w");

	memset(&o, 0, sizeof(o));
	o.data_dir = data;
	o.templates_dir = d->templates;
	o.out_dir = out;
	o.generator = generator;
	o.jobs = 2;
	o.warnings = quiet; /* the fixture's deliberate SHA256SUMS mismatch */
	cr_assert_eq(hg_site_build(&st, &o), 0, "%s", hg_error_last());
	fclose(quiet);
	S_last = st;
	return st.pages;
}

/* ---- which pages were rendered again: a reused page is moved, so it keeps its inode ---- */

typedef struct {
	char **pages; /* "<system>/<id>.html", sorted */
	ino_t *ino;
	size_t n;
} S_snap;

static int S_system_page(const char *name)
{
	return strcmp(name, "index.html") == 0 || strcmp(name, "method.html") == 0 ||
		strcmp(name, "compare.html") == 0 || strcmp(name, "ebash.html") == 0;
}

/* Every algorithm page of the site (each system's folder but its index, method and comparison
 * pages and its eBASH-style table) with its inode. */
static S_snap S_snapshot(const char *site)
{
	S_snap s = { NULL, NULL, 0 };
	DIR *top = opendir(site), *sys;
	struct dirent *a, *b;
	size_t i;

	cr_assert_not_null(top, "%s", site);
	while ((a = readdir(top)) != NULL) {
		char *dir = hb_path_join(site, a->d_name);
		if (a->d_name[0] != '.' && strcmp(a->d_name, "data") != 0 && hb_is_dir(dir) &&
			(sys = opendir(dir)) != NULL) {
			while ((b = readdir(sys)) != NULL) {
				size_t len = strlen(b->d_name);
				if (len > 5 && strcmp(b->d_name + len - 5, ".html") == 0 &&
					!S_system_page(b->d_name))
					hg_strv_push(&s.pages, &s.n, hb_sprintf("%s/%s", a->d_name, b->d_name));
			}
			closedir(sys);
		}
		free(dir);
	}
	closedir(top);
	qsort(s.pages, s.n, sizeof(char *), hg_cmp_str);
	s.ino = calloc(s.n + 1, sizeof(ino_t));
	for (i = 0; i < s.n; i++) {
		char *p = hb_path_join(site, s.pages[i]);
		struct stat st;
		cr_assert_eq(stat(p, &st), 0, "%s", p);
		s.ino[i] = st.st_ino;
		free(p);
	}
	return s;
}

static void S_snap_free(S_snap *s)
{
	hg_strv_free(s->pages);
	free(s->ino);
}

/* After a rebuild: the site has the same algorithm pages, and each was rendered again exactly
 * when again(page) says so. */
static void S_expect_again(const S_snap *before, const char *site, int (*again)(const char *),
	const char *why)
{
	S_snap now = S_snapshot(site);
	size_t i, renewed_pages = 0;
	cr_assert_eq(now.n, before->n, "%s: %zu algorithm pages, %zu before", why, now.n, before->n);
	for (i = 0; i < now.n; i++) {
		int renewed = now.ino[i] != before->ino[i];
		cr_assert_str_eq(now.pages[i], before->pages[i]);
		cr_expect_eq(renewed, again(now.pages[i]) != 0, "%s: %s was %s", why, now.pages[i],
			renewed ? "rendered again" : "reused");
		renewed_pages += renewed;
	}
	/* and the build says so: what it rendered, and whether it was a rebuild in place */
	cr_expect_eq(S_last.rendered, renewed_pages, "%s: the build says %zu pages rendered, %zu were",
		why, S_last.rendered, renewed_pages);
	cr_expect_eq(S_last.rebuilt, renewed_pages < now.n || S_last.replaced > 0,
		"%s: rebuilt %d, %zu of %zu pages renewed", why, S_last.rebuilt, renewed_pages, now.n);
	S_snap_free(&now);
}

static int S_every(const char *page)
{
	(void)page;
	return 1;
}

static int S_none(const char *page)
{
	(void)page;
	return 0;
}

/* The site rendered from data, and rendered again at once: nothing changed, every page reused
 * (so that "rendered again" below means something). */
static S_snap S_start(const S_dirs *d, const char *generator)
{
	S_snap s;
	size_t pages = S_build(d, d->data, d->site, generator);
	s = S_snapshot(d->site);
	cr_assert_eq(s.n, pages, "%zu algorithm pages found, hashgen rendered %zu", s.n, pages);
	cr_assert_geq(s.n, 6);
	cr_assert_eq(S_build(d, d->data, d->site, generator), pages);
	S_expect_again(&s, d->site, S_none, "nothing changed");
	return s;
}

/* site is byte for byte what a clean build of data (no previous site, no cache) gives. */
static void S_expect_clean(S_dirs *d, const char *site, const char *data, const char *generator)
{
	char *clean = hb_sprintf("%s/clean-%u", d->root, d->cleans++);
	S_build(d, data, clean, generator);
	S_sh(hb_sprintf("diff -rq '%s' '%s' >&2", site, clean));
	free(clean);
}

/* Every algorithm page of the site holds text in its file with the suffix ext. */
static void S_expect_in_pages(const char *site, const char *ext, const char *text)
{
	S_snap s = S_snapshot(site);
	size_t i;
	for (i = 0; i < s.n; i++) {
		char *path = hb_sprintf("%s/%.*s%s", site, (int)(strlen(s.pages[i]) - 5), s.pages[i],
			ext), *page;
		size_t len;
		cr_assert_eq(hg_read_file(&page, &len, path), 0, "%s", hg_error_last());
		cr_expect(strstr(page, text) != NULL, "%s does not show '%s'", path, text);
		free(page);
		free(path);
	}
	S_snap_free(&s);
}

/* The site rendered, then the first from of a template file edited to to and the site rendered
 * again: each algorithm page is rendered again exactly when again says so, and the site is what
 * a clean build gives. */
static void S_template_edit(S_dirs *d, const char *file, const char *from, const char *to,
	int (*again)(const char *))
{
	S_snap s = S_start(d, VERSION_1);
	char *why = hb_sprintf("%s changed", file);
	hbt_replace(d->templates, file, from, to);
	S_build(d, d->data, d->site, VERSION_1);
	S_expect_again(&s, d->site, again, why);
	S_expect_clean(d, d->site, d->data, VERSION_1);
	S_snap_free(&s);
	free(why);
}

Test(cache, a_changed_skeleton_renders_every_algorithm_page_again, .timeout = HBT_TIMEOUT(120))
{
	S_dirs d = S_dirs_new("cache-skeleton");
	S_template_edit(&d, "page.html", "<meta charset=\"utf-8\">",
		"<meta charset=\"utf-8\">\n<meta name=\"x-skeleton\" content=\"second\">", S_every);
	S_expect_in_pages(d.site, ".html", "<meta name=\"x-skeleton\" content=\"second\">");
	S_dirs_free(&d);
}

Test(cache, a_changed_stylesheet_renders_no_algorithm_page_again, .timeout = HBT_TIMEOUT(120))
{
	S_dirs d = S_dirs_new("cache-style");
	char *css, *text;
	size_t len;

	/* pages link the stylesheet and never embed it */
	S_template_edit(&d, "style.css", "body", "/* second */\nbody", S_none);
	css = hb_path_join(d.site, "style.css");
	cr_assert_eq(hg_read_file(&text, &len, css), 0, "%s", hg_error_last());
	cr_expect(strstr(text, "/* second */\nbody") != NULL, "site/style.css is the old one");
	free(text);
	free(css);
	S_dirs_free(&d);
}

Test(cache, changed_attribution_prose_renders_every_algorithm_page_again,
	.timeout = HBT_TIMEOUT(120))
{
	S_dirs d = S_dirs_new("cache-attribution");
	S_template_edit(&d, "attribution.md", "Not a submitter self-assessment.",
		"Not a submitter self-assessment; measured twice.", S_every);
	S_expect_in_pages(d.site, ".html", "measured twice.");
	S_expect_in_pages(d.site, ".md", "measured twice.");
	S_dirs_free(&d);
}

Test(cache, changed_method_prose_renders_no_algorithm_page_again, .timeout = HBT_TIMEOUT(120))
{
	static const char *systems[] = { "arm_1", "x86_1", NULL };
	S_dirs d = S_dirs_new("cache-method");
	size_t i;

	/* the method pages, rendered on every build, show it; the algorithm pages do not */
	S_template_edit(&d, "method.md", "# What was measured", "# What was measured, again", S_none);
	for (i = 0; systems[i]; i++) {
		char *path = hb_sprintf("%s/%s/method.html", d.site, systems[i]), *page;
		size_t len;
		cr_assert_eq(hg_read_file(&page, &len, path), 0, "%s", hg_error_last());
		cr_expect(strstr(page, "What was measured, again") != NULL, "%s", path);
		free(page);
		free(path);
	}
	S_dirs_free(&d);
}

Test(cache, a_new_generator_version_renders_every_algorithm_page_again, .timeout = HBT_TIMEOUT(120))
{
	S_dirs d = S_dirs_new("cache-version");
	S_snap s = S_start(&d, VERSION_1);

	S_build(&d, d.data, d.site, VERSION_2);
	S_expect_again(&s, d.site, S_every, "the generator's version changed");
	S_expect_in_pages(d.site, ".html", "Generated by " VERSION_2 " from evidence");
	S_expect_in_pages(d.site, ".md", "Generated by " VERSION_2 " from evidence");
	S_expect_clean(&d, d.site, d.data, VERSION_2);
	S_snap_free(&s);
	S_dirs_free(&d);
}

Test(cache, a_cache_of_another_format_version_is_ignored, .timeout = HBT_TIMEOUT(120))
{
	S_dirs d = S_dirs_new("cache-format");
	S_snap s = S_start(&d, VERSION_1);

	/* the version field of its meta's first line, "hashgen-cache N", as an older hashgen wrote it */
	hbt_replace(d.root, "site.hashgen-cache/meta", "hashgen-cache ", "hashgen-cache 0");
	S_build(&d, d.data, d.site, VERSION_1);
	S_expect_again(&s, d.site, S_every, "a cache of format version 0");
	S_expect_clean(&d, d.site, d.data, VERSION_1);
	S_snap_free(&s);
	S_dirs_free(&d);
}

/* A system's trace removed: its chart and copy go with it, as a clean build would not make
 * them (the build is then a clean one: a system's own files decide files of its own). */
Test(cache, a_system_whose_trace_is_removed_leaves_nothing_of_it, .timeout = HBT_TIMEOUT(120))
{
	S_dirs d = S_dirs_new("cache-trace");
	char *trace = hb_path_join(d.data, "x86_1/sentinel.json");
	char *svg = hb_path_join(d.site, "x86_1/sentinel.svg");
	S_snap s = S_start(&d, VERSION_1);

	cr_assert_eq(access(svg, F_OK), 0, "%s: the fixture's trace drew no chart", svg);
	cr_assert_eq(unlink(trace), 0, "%s", trace);
	S_build(&d, d.data, d.site, VERSION_1);
	cr_expect_neq(access(svg, F_OK), 0, "%s is left from the build before", svg);
	S_expect_clean(&d, d.site, d.data, VERSION_1);
	S_snap_free(&s);
	free(svg);
	free(trace);
	S_dirs_free(&d);
}

/* ---- a cache that parses but does not describe the site beside it ---- */

#define RECORD "x86_1/records/hash-15/litchi_256__hash_32.json"

/* The page of the changed record, and its algorithm's page across systems, which shows it. */
static int S_changed_page(const char *page)
{
	return strcmp(page, "x86_1/hash-15.html") == 0 || strcmp(page, "algorithms/hash-15.html") == 0;
}

Test(cache, a_cache_copied_from_another_site_gives_a_clean_build, .timeout = HBT_TIMEOUT(120))
{
	S_dirs d = S_dirs_new("cache-other-site");
	char *other = hb_path_join(d.root, "other-data"), *other_site = hb_path_join(d.root, "other");
	char *other_cache = hb_sprintf("%s.hashgen-cache", other_site);
	S_snap s = S_start(&d, VERSION_1);

	/* another site: the same evidence but one figure */
	S_sh(hb_sprintf("cp -r '%s' '%s'", d.data, other));
	hbt_replace(other, RECORD, "\"peak_rss_kib\": 1472", "\"peak_rss_kib\": 1479");
	S_build(&d, other, other_site, VERSION_1);
	/* this site's cache beside it, and this site's evidence rendered there: the cache describes
	 * the evidence exactly, but not the pages beside it */
	S_sh(hb_sprintf("rm -rf '%s' && cp -r '%s' '%s'", other_cache, d.cache, other_cache));
	S_build(&d, d.data, other_site, VERSION_1);
	S_expect_clean(&d, other_site, d.data, VERSION_1);
	S_snap_free(&s);
	free(other);
	free(other_site);
	free(other_cache);
	S_dirs_free(&d);
}

Test(cache, a_cache_from_before_the_evidence_changed_renders_the_changed_page_again,
	.timeout = HBT_TIMEOUT(120))
{
	S_dirs d = S_dirs_new("cache-restored");
	char *saved = hb_path_join(d.root, "saved-cache"), *record = hb_path_join(d.data, RECORD);
	char *page = hb_path_join(d.site, "x86_1/hash-15.md"), *original, *edited;
	size_t len;
	S_snap s = S_start(&d, VERSION_1);

	/* the cache of this site, kept; then the evidence changes and the site follows it */
	S_sh(hb_sprintf("cp -r '%s' '%s'", d.cache, saved));
	cr_assert_eq(hg_read_file(&original, &len, record), 0, "%s", hg_error_last());
	hbt_replace(d.data, RECORD, "\"peak_rss_kib\": 1472", "\"peak_rss_kib\": 1479");
	S_build(&d, d.data, d.site, VERSION_1);
	S_expect_again(&s, d.site, S_changed_page, "one record changed");
	S_snap_free(&s);
	s = S_snapshot(d.site);
	/* the evidence back as it was, and the kept cache with it: it describes the evidence but
	 * not the page the site now has */
	hbt_write(record, original, len);
	S_sh(hb_sprintf("rm -rf '%s' && cp -r '%s' '%s'", d.cache, saved, d.cache));
	S_build(&d, d.data, d.site, VERSION_1);
	S_expect_again(&s, d.site, S_changed_page, "the record and a cache of before restored");
	cr_assert_eq(hg_read_file(&edited, &len, page), 0, "%s", hg_error_last());
	cr_expect(strstr(edited, "| `litchi_256` | hash_32 | 16648 | 1408 KiB | 1472 KiB |") != NULL,
		"%s shows the changed record", page);
	S_expect_clean(&d, d.site, d.data, VERSION_1);
	free(edited);
	free(page);
	free(original);
	free(record);
	free(saved);
	S_snap_free(&s);
	S_dirs_free(&d);
}
