/* site.c — the site's conductor: hg_site_build reads the evidence and the templates, then runs the
 * steps that write the site into a new folder beside --out (the algorithm pages; each system's
 * pages and the index, with the downloads in parts beside them; the stylesheet and the sitemap)
 * and puts it in place of --out only when every step succeeded, the rebuild cache last. */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "hashgen.h"
#include "render.h"
#include "site_files.h"
#include "sitewide.h"

#ifndef HB_GIT_COMMIT
#define HB_GIT_COMMIT "unknown"
#endif

/* What the steps of one build share. */
typedef struct {
	const hg_site_opts *o;
	hg_site_stats *stats;
	hg_data *d;
	hg_texts tx;
	void *template;
	char *css, *generator;
	char global[65];    /* digest of the generator and the templates the pages use */
	const char *old;    /* the previous site, when there is one to reuse pages from */
	char *cache_path;
	char **ids;         /* every algorithm id, sorted (the strings are d's) */
	size_t nids;
	const hg_fig **headlines; /* [system * nids + algorithm], NULL: none (rows of ap) */
	char *tmp;          /* the site being built */
	char **pages;       /* the sitemap's pages */
	size_t npages;
	hg_algpages *ap;
	char *downloads_error; /* why the downloads' thread failed, NULL when it did not */
} S_build;

static int S_read_template(char **out, const char *dir, const char *name)
{
	char *path = hg_xprintf("%s/%s", dir, name);
	size_t len;
	int rc = hg_read_file(out, &len, path);
	free(path);
	return rc;
}

static int S_sitemap(const char *tmp, const char *base, char **pages, size_t n)
{
	xmlDocPtr doc = xmlNewDoc((const xmlChar *)"1.0");
	xmlNodePtr root = xmlNewNode(NULL, (const xmlChar *)"urlset");
	xmlChar *mem = NULL;
	char *path;
	size_t i;
	int size = 0, rc;

	xmlNewProp(root, (const xmlChar *)"xmlns",
		(const xmlChar *)"http://www.sitemaps.org/schemas/sitemap/0.9");
	xmlDocSetRootElement(doc, root);
	for (i = 0; i < n; i++) {
		xmlNodePtr url = xmlNewChild(root, NULL, (const xmlChar *)"url", NULL);
		/* sitemaps want absolute URLs: given the site's address, they get them */
		char *loc = base ? hg_xprintf("%s%s%s", base, base[strlen(base) - 1] == '/' ? "" : "/",
			pages[i]) : hg_xstrdup(pages[i]);
		xmlNewTextChild(url, NULL, (const xmlChar *)"loc", (const xmlChar *)loc);
		free(loc);
	}
	xmlDocDumpFormatMemoryEnc(doc, &mem, &size, "UTF-8", 1);
	xmlFreeDoc(doc);
	path = hg_xprintf("%s/sitemap.xml", tmp);
	rc = mem ? hg_write_with_gz(path, mem, (size_t)size) : hg_error_set("cannot write sitemap");
	xmlFree(mem);
	free(path);
	return rc;
}

/* The folder --out names is replaced whole: only when it is missing, empty, or a site hashgen
 * made (it has sitemap.xml and index.html), never a folder of something else. */
static int S_out_replaceable(const char *out)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	int empty = 1;
	char *a, *b;
	int ok;

	if (stat(out, &st) != 0)
		return errno == ENOENT ? 0 : hg_error_set("%s: %s", out, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return hg_error_set("%s: not a folder: refusing to replace it with a site", out);
	d = opendir(out);
	if (!d)
		return hg_error_set("%s: %s", out, strerror(errno));
	while (empty && (de = readdir(d)) != NULL)
		empty = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0;
	closedir(d);
	if (empty)
		return 0;
	a = hg_xprintf("%s/sitemap.xml", out);
	b = hg_xprintf("%s/index.html", out);
	ok = access(a, F_OK) == 0 && access(b, F_OK) == 0;
	free(a);
	free(b);
	if (!ok)
		return hg_error_set("%s: not a site hashgen made (no sitemap.xml and index.html): "
			"refusing to replace it", out);
	return 0;
}

/* Move the new site into place: the old one is renamed aside first and removed last. */
static int S_swap(const char *tmp, const char *out)
{
	char *old = hg_xprintf("%s.old-%ld", out, (long)getpid());
	struct stat st;
	int had = stat(out, &st) == 0;
	if (had && rename(out, old) != 0) {
		hg_error_set("%s: cannot move the previous site aside: %s", out, strerror(errno));
		free(old);
		return -1;
	}
	if (rename(tmp, out) != 0) {
		hg_error_set("%s: cannot move the new site into place: %s", out, strerror(errno));
		if (had)
			rename(old, out);
		free(old);
		return -1;
	}
	if (had)
		hg_rm_rf(old);
	free(old);
	return 0;
}
/* --out may be replaced (or, rendering only, does not exist) and --base-url is an address. */
static int S_check_out(const hg_site_opts *o)
{
	struct stat st;
	if (o->render_only && lstat(o->out_dir, &st) == 0)
		return hg_error_set("%s: already exists", o->out_dir);
	if (!o->render_only && S_out_replaceable(o->out_dir) != 0)
		return -1;
	if (o->base_url && (strncmp(o->base_url, "https://", 8) &&
		strncmp(o->base_url, "http://", 7)))
		return hg_error_set("--base-url %s: expected an http:// or https:// address",
			o->base_url);
	return 0;
}

/* The skeleton, the stylesheet and the prose; the generator's name; their digest. */
static int S_load_templates(S_build *b)
{
	const hg_site_opts *o = b->o;
	char *path = hg_xprintf("%s/page.html", o->templates_dir), *skeleton = NULL, *all;

	b->template = hg_template_load(path);
	free(path);
	if (!b->template)
		return -1;
	if (S_read_template(&b->css, o->templates_dir, "style.css") != 0 ||
		S_read_template((char **)&b->tx.attribution, o->templates_dir, "attribution.md") != 0 ||
		S_read_template((char **)&b->tx.method, o->templates_dir, "method.md") != 0)
		return -1;
	b->generator = o->generator ? hg_xstrdup(o->generator) :
		hg_xprintf("hashgen %s (git %s)", HG_VERSION, HB_GIT_COMMIT);
	b->tx.generator = b->generator;
	/* what every algorithm page depends on besides its own inputs */
	if (S_read_template(&skeleton, o->templates_dir, "page.html") != 0)
		return -1;
	all = hg_xprintf("%s%c%s%c%s", b->generator, 0, skeleton, 0, b->tx.attribution);
	hg_sha256_hex(b->global, all, strlen(b->generator) + strlen(skeleton) +
		strlen(b->tx.attribution) + 2);
	free(all);
	free(skeleton);
	return 0;
}

/* The previous site and its rebuild cache, when there is one to reuse pages from. */
static void S_find_previous(S_build *b)
{
	struct stat st;
	b->cache_path = hg_xprintf("%s.hashgen-cache", b->o->out_dir);
	if (!b->o->render_only && stat(b->o->out_dir, &st) == 0 && S_ISDIR(st.st_mode))
		b->old = b->o->out_dir;
}

/* Every algorithm id: the catalog's and those with evidence. */
static void S_collect_ids(S_build *b)
{
	const hg_data *d = b->d;
	size_t i, j, k;

	for (i = 0; i < d->nentries; i++)
		hg_strv_push(&b->ids, &b->nids, d->entries[i].id);
	for (k = 0; k < d->nsystems; k++)
		for (j = 0; d->systems[k].algorithms[j]; j++) {
			int seen = 0;
			for (i = 0; i < b->nids && !seen; i++)
				seen = strcmp(b->ids[i], d->systems[k].algorithms[j]) == 0;
			if (!seen)
				hg_strv_push(&b->ids, &b->nids, d->systems[k].algorithms[j]);
		}
	if (b->nids)
		qsort(b->ids, b->nids, sizeof(char *), hg_cmp_str);
	b->headlines = calloc(d->nsystems * b->nids + 1, sizeof(*b->headlines));
}

/* The new site's folder, each system's folders in it and an imported system's originals. */
static int S_make_tmp(S_build *b)
{
	size_t k;
	b->tmp = b->o->render_only ? hg_xstrdup(b->o->out_dir) :
		hg_xprintf("%s.tmp-%ld", b->o->out_dir, (long)getpid());
	if (hg_rm_rf(b->tmp) != 0 || hg_mkdirs(b->tmp) != 0)
		return -1;
	for (k = 0; k < b->d->nsystems; k++) {
		const hg_system *s = &b->d->systems[k];
		char *dir = hg_xprintf("%s/%s", b->tmp, s->name);
		char *rec = hg_xprintf("%s/data/%s/records", b->tmp, s->name);
		char *kat = hg_xprintf("%s/data/%s/kat", b->tmp, s->name);
		int r = hg_mkdirs(dir) || hg_mkdirs(rec) || hg_mkdirs(kat) ||
			hg_imported_copy(b->tmp, s);
		free(dir);
		free(rec);
		free(kat);
		if (r != 0)
			return -1;
	}
	return 0;
}

/* Every algorithm on every system that has it (site_pages.c). */
static int S_algorithm_pages(S_build *b)
{
	hg_algpages_in in = { b->d, &b->tx, b->template, b->tmp, b->old, b->cache_path, b->global,
		(const char *const *)b->ids, b->nids, b->o->strict };
	if (hg_algpages_new(&b->ap, &in) != 0 ||
		hg_algpages_render(b->ap, b->o->jobs, b->o->warnings, &b->stats->warnings,
			b->headlines) != 0)
		return -1;
	b->stats->pages = hg_algpages_count(b->ap);
	return 0;
}

/* Per system: its index, method and comparison pages, its trace and its evidence's own files. */
static int S_system_pages(S_build *b)
{
	size_t k, i;

	hg_strv_push(&b->pages, &b->npages, hg_xstrdup("index.html"));
	for (k = 0; k < b->d->nsystems; k++) {
		const hg_system *s = &b->d->systems[k];
		size_t nrows;
		const hg_fig **rows = hg_algpages_rows(b->ap, k, &nrows);
		int r = hg_site_system(b->tmp, b->template, b->d, k, &b->tx,
			(const char *const *)b->ids, b->nids, (const hg_fig *const *)b->headlines, rows,
			nrows, hg_algpages_yardsticks(b->ap, k));
		free(rows);
		if (r != 0)
			return -1;
		hg_strv_push(&b->pages, &b->npages, hg_xprintf("%s/index.html", s->name));
		hg_strv_push(&b->pages, &b->npages, hg_xprintf("%s/method.html", s->name));
		hg_strv_push(&b->pages, &b->npages, hg_xprintf("%s/compare.html", s->name));
		hg_strv_push(&b->pages, &b->npages, hg_xprintf("%s/ebash.html", s->name));
		for (i = 0; i < b->nids; i++)
			if (hg_system_has(s, b->ids[i]))
				hg_strv_push(&b->pages, &b->npages, hg_xprintf("%s/%s.html", s->name,
					b->ids[i]));
	}
	return 0;
}

static int S_index(S_build *b)
{
	hg_page *p = hg_page_index(b->d, (const char *const *)b->ids, b->nids,
		(const hg_fig *const *)b->headlines, &b->tx);
	int rc = hg_site_write_page(b->tmp, b->template, p, "index", 0);
	hg_page_free(p);
	return rc;
}

/* System k's downloads, part by part, from its rows (an algorithm's rows consecutive, the
 * algorithms in the system's order), each part's entry appended to parts. */
static int S_system_results(S_build *b, size_t k, hg_part_info *parts, size_t *nparts)
{
	const hg_system *s = &b->d->systems[k];
	size_t nrows, at = 0, p, np = hg_parts_count(s);
	const hg_fig **rows = hg_algpages_rows(b->ap, k, &nrows);
	int rc = 0;

	for (p = 1; p <= np && rc == 0; p++) {
		const char *first, *last;
		size_t from = at;
		if (hg_part_range(s, p, &first, &last))
			while (at < nrows && strcmp(rows[at]->algorithm, last) <= 0)
				at++;
		rc = hg_site_results_part(b->tmp, b->d, k, p, first, last,
			(const hg_fig *const *)rows + from, at - from, &parts[*nparts]);
		if (rc == 0)
			(*nparts)++;
	}
	if (rc == 0 && at != nrows)
		rc = hg_error_set("%s: downloads: the rows of %s are not in the order of the system's "
			"algorithms", s->name, rows[at]->algorithm);
	free(rows);
	return rc;
}

/* The downloads (every system's parts and their index) and the catalog beside the evidence
 * copies; run by a thread of its own beside the system pages (S_spanning), its failure kept in
 * b->downloads_error. */
static void *S_downloads(void *arg)
{
	S_build *b = arg;
	size_t k, total = 0, nparts = 0, i;
	hg_part_info *parts;
	int rc = 0;

	for (k = 0; k < b->d->nsystems; k++)
		total += hg_parts_count(&b->d->systems[k]);
	parts = calloc(total + 1, sizeof(*parts));
	if (!parts)
		rc = hg_error_set("out of memory");
	for (k = 0; k < b->d->nsystems && rc == 0; k++)
		rc = S_system_results(b, k, parts, &nparts);
	if (rc == 0)
		rc = hg_site_results_index(b->tmp, parts, nparts);
	for (i = 0; i < nparts; i++)
		hg_part_info_clear(&parts[i]);
	free(parts);
	if (rc != 0 || hg_site_catalog(b->tmp, b->d) != 0)
		b->downloads_error = hg_xstrdup(hg_error_last());
	hg_gztwin_release();
	return NULL;
}

/* What spans the algorithm pages: the downloads on a second thread while this one writes each
 * system's pages and the index (they read the same rows, and write different files). */
static int S_spanning(S_build *b)
{
	pthread_t t;
	int threaded = pthread_create(&t, NULL, S_downloads, b) == 0, rc;
	if (!threaded)
		S_downloads(b);
	rc = S_system_pages(b) != 0 || S_index(b) != 0 ? -1 : 0;
	if (threaded)
		pthread_join(t, NULL);
	if (rc == 0 && b->downloads_error)
		rc = hg_error_set("%s", b->downloads_error);
	return rc;
}

static int S_style_and_sitemap(S_build *b)
{
	char *path = hg_xprintf("%s/style.css", b->tmp);
	int rc = hg_write_with_gz(path, b->css, strlen(b->css));
	free(path);
	if (rc != 0)
		return -1;
	qsort(b->pages, b->npages, sizeof(char *), hg_cmp_str);
	return S_sitemap(b->tmp, b->o->base_url, b->pages, b->npages);
}

/* The new site in place of --out, then the rebuild cache: a build that failed keeps the
 * previous one. */
static int S_put_in_place(S_build *b)
{
	if (hg_algpages_move_reused(b->ap) != 0)
		return -1;
	if (S_swap(b->tmp, b->o->out_dir) != 0) {
		hg_algpages_move_back(b->ap); /* S_swap put the previous site back where it was */
		return -1;
	}
	if (hg_algpages_save_cache(b->ap, b->o->out_dir, b->cache_path) != 0 && b->o->warnings)
		fprintf(b->o->warnings, "hashgen: warning: %s\n", hg_error_last());
	return 0;
}

/* Remove what a failed build wrote (the previous site was never touched) and free the rest. */
static void S_finish(S_build *b, int rc)
{
	if (rc != 0 && b->tmp) {
		char *msg = hg_xstrdup(hg_error_last());
		hg_rm_rf(b->tmp);
		hg_error_set("%s", msg);
		free(msg);
	}
	hg_algpages_free(b->ap);
	free(b->downloads_error);
	hg_strv_free(b->pages);
	free(b->ids);
	free(b->headlines);
	free(b->tmp);
	free(b->cache_path);
	free(b->css);
	free((char *)b->tx.attribution);
	free((char *)b->tx.method);
	free(b->generator);
	hg_template_free(b->template);
	hg_data_free(b->d);
	hg_gztwin_release();
}

int hg_site_build(hg_site_stats *stats, const hg_site_opts *o)
{
	S_build b;
	int rc = -1;

	memset(stats, 0, sizeof(*stats));
	memset(&b, 0, sizeof(b));
	b.o = o;
	b.stats = stats;
	if (S_check_out(o) != 0)
		return -1;
	xmlInitParser();
	json_object_seed(1); /* fixed seed: deterministic, and set before threads start */
	if (hg_data_load(&b.d, o->data_dir) != 0 || S_load_templates(&b) != 0)
		goto out;
	S_find_previous(&b);
	S_collect_ids(&b);
	if (S_make_tmp(&b) != 0 || S_algorithm_pages(&b) != 0 || S_spanning(&b) != 0 ||
		S_style_and_sitemap(&b) != 0)
		goto out;
	if (!o->render_only && S_put_in_place(&b) != 0)
		goto out;
	stats->systems = b.d->nsystems;
	stats->algorithms = b.nids;
	rc = 0;
out:
	S_finish(&b, rc);
	return rc;
}
