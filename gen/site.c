/* site.c — the site's conductor: hg_site_build reads the evidence and the templates, then runs the
 * steps that write the site into a new folder beside --out (the algorithm pages; each system's
 * pages and the index, with the downloads beside them; the stylesheet and the sitemap) and puts
 * it in place of --out only when every step succeeded, the rebuild cache last. A rebuild of the
 * same pages from the same templates writes only what changed into that folder and puts each
 * file in place (site_commit.c). */
#define _GNU_SOURCE
#include <dirent.h>
#include <malloc.h>
#include <pthread.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <openssl/evp.h>

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
	char *js;              /* the table script; NULL: the skeleton loads none */
	char global[65];    /* digest of the generator and the templates the pages use */
	int in_place;       /* a rebuild: tmp holds the changes to --out */
	char *cache_dir;    /* the rebuild cache beside --out */
	char *cache_out;    /* where this build's cache goes (cache_dir when in place) */
	hg_cmeta meta_old, meta; /* the previous build's digests, this build's */
	char **stale;       /* files a rebuild in place removes unless it wrote them again */
	size_t nstale;
	char **span_keys;   /* per system: the digests of its comparison page and eBASH table */
	hg_parts *parts;    /* the downloads' parts as the pages complete them */
	hg_part_info *pinfo; /* per part, system by system: what the index says of it */
	char **pdigest;     /* per part: the digest of what it shows */
	size_t *pfirst;     /* per system: its first part's index in pinfo */
	size_t npinfo;
	char **ids;         /* every algorithm id, sorted (the strings are d's) */
	size_t nids;
	char *tmp;          /* the site being built */
	char **pages;       /* the sitemap's pages */
	size_t npages;
	hg_algpages *ap;
	char *downloads_error; /* why the downloads' thread failed, NULL when it did not */
	char *index_error;  /* why the index's thread failed, NULL when it did not */
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
		S_read_template((char **)&b->tx.method, o->templates_dir, "method.md") != 0 ||
		(hg_template_has_script(b->template) &&
		S_read_template(&b->js, o->templates_dir, HG_TABLES_JS) != 0))
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

/* The digest of the set of pages and files: every id, the systems, the algorithms each has and
 * its own files. */
static void S_pages_digest(char out[65], const S_build *b)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char md[32];
	unsigned int mdlen = 32;
	size_t k, i;
	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	for (i = 0; i < b->nids; i++)
		EVP_DigestUpdate(ctx, b->ids[i], strlen(b->ids[i]) + 1);
	for (k = 0; k < b->d->nsystems; k++) {
		const hg_system *s = &b->d->systems[k];
		const hg_sum *own;
		size_t nown;
		EVP_DigestUpdate(ctx, s->name, strlen(s->name) + 1);
		for (i = 0; s->algorithms[i]; i++)
			EVP_DigestUpdate(ctx, s->algorithms[i], strlen(s->algorithms[i]) + 1);
		EVP_DigestUpdate(ctx, "", 1);
		/* the system's own files decide files of its own on the site (its trace, an imported
		 * system's originals): when they change, the build is a clean one, so that none is left
		 * behind */
		EVP_DigestUpdate(ctx, s->system_sha256, 64);
		EVP_DigestUpdate(ctx, s->sentinel && s->sentinel->traced ? "t" : "-", 1);
		own = hg_sums_system(s, &nown);
		for (i = 0; i < nown; i++)
			EVP_DigestUpdate(ctx, own[i].path, strlen(own[i].path) + 1);
	}
	EVP_DigestFinal_ex(ctx, md, &mdlen);
	EVP_MD_CTX_free(ctx);
	for (i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
}

/* A clean build, or a rebuild in place: --out is a site whose cache was made by this format
 * from the same templates and generator for the same pages. */
static void S_plan(S_build *b)
{
	const hg_site_opts *o = b->o;
	struct stat st;
	char pages[65];

	b->cache_dir = hg_xprintf("%s.hashgen-cache", o->out_dir);
	S_pages_digest(pages, b);
	hg_cmeta_set(&b->meta, "global", b->global);
	hg_cmeta_set(&b->meta, "pages", pages);
	if (!o->render_only && stat(o->out_dir, &st) == 0 && S_ISDIR(st.st_mode) &&
		hg_cmeta_load(&b->meta_old, b->cache_dir) == 0) {
		const char *g = hg_cmeta_get(&b->meta_old, "global");
		const char *p = hg_cmeta_get(&b->meta_old, "pages");
		b->in_place = g && p && strcmp(g, b->global) == 0 && strcmp(p, pages) == 0;
	}
	b->cache_out = b->in_place ? hg_xstrdup(b->cache_dir) :
		hg_xprintf("%s.tmp-%ld", b->cache_dir, (long)getpid());
	if (!b->in_place)
		hg_rm_rf(b->cache_out);
}

/* Every algorithm id: the catalog's and those with evidence, sorted, each once. */
static void S_collect_ids(S_build *b)
{
	const hg_data *d = b->d;
	size_t i, j, k, n = 0;

	for (i = 0; i < d->nentries; i++)
		hg_strv_push(&b->ids, &b->nids, d->entries[i].id);
	for (k = 0; k < d->nsystems; k++)
		for (j = 0; d->systems[k].algorithms[j]; j++)
			hg_strv_push(&b->ids, &b->nids, d->systems[k].algorithms[j]);
	if (b->nids)
		qsort(b->ids, b->nids, sizeof(char *), hg_cmp_str);
	for (i = 0; i < b->nids; i++)
		if (!n || strcmp(b->ids[n - 1], b->ids[i]) != 0)
			b->ids[n++] = b->ids[i];
	b->nids = n;
	if (b->ids)
		b->ids[n] = NULL;
	b->span_keys = calloc(2 * d->nsystems + 1, sizeof(char *));
}

/* The new site's folder, each system's folders in it, an imported system's originals, and the
 * folder of the pages across systems when there are any. */
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
	for (k = 0; k < b->nids; k++)
		if (hg_across_has(b->d, b->ids[k])) {
			char *dir = hg_xprintf("%s/%s", b->tmp, HG_ACROSS_DIR);
			int r = hg_mkdirs(dir);
			free(dir);
			return r;
		}
	return 0;
}

/* The stat of rel in --out (0 0 0 when missing), as the meta keeps it. */
static void S_out_stat(const S_build *b, const char *rel, unsigned long long *ino,
	unsigned long long *size, long long *mtime)
{
	char *path = hg_xprintf("%s/%s", b->o->out_dir, rel);
	struct stat st;
	if (stat(path, &st) != 0)
		memset(&st, 0, sizeof(st));
	*ino = (unsigned long long)st.st_ino;
	*size = (unsigned long long)st.st_size;
	*mtime = hg_mtime_ns(&st);
	free(path);
}

/* What the meta remembers of a part: its digest, the stat of its CSV as the build left it,
 * and what the index says of it. */
static char *S_part_value(const S_build *b, size_t slot)
{
	const hg_part_info *q = &b->pinfo[slot];
	unsigned long long ino, size;
	long long mtime;
	S_out_stat(b, q->csv, &ino, &size, &mtime);
	return hg_xprintf("%s %llu %llu %lld %zu %zu %s %llu %s %s %llu %s", b->pdigest[slot], ino,
		size, mtime, q->figures, q->algorithms, q->csv, q->csv_sum.bytes, q->csv_sum.sha256,
		q->json, q->json_sum.bytes, q->json_sum.sha256);
}

/* A rebuild's part whose digest and CSV are those the previous build left: its entry (*q) from
 * the meta, and 1; else 0. */
static int S_part_kept(S_build *b, size_t k, size_t part, const char *first, const char *last,
	size_t nalg, const char *digest, hg_part_info *q)
{
	char *name = hg_xprintf("part/%s/%zu", b->d->systems[k].name, part);
	const char *was = hg_cmeta_get(&b->meta_old, name);
	char d[65], csv[4096], csha[65], json[4096], jsha[65];
	unsigned long long ino, size, cb, jb, ino2, size2;
	long long mtime, mtime2;
	size_t figures, algs;

	free(name);
	if (!b->in_place || !was || sscanf(was, "%64s %llu %llu %lld %zu %zu %4095s %llu %64s %4095s "
			"%llu %64s", d, &ino, &size, &mtime, &figures, &algs, csv, &cb, csha, json, &jb,
			jsha) != 12 || strcmp(d, digest) != 0 || algs != nalg)
		return 0;
	S_out_stat(b, csv, &ino2, &size2, &mtime2);
	if (ino != ino2 || size != size2 || mtime != mtime2)
		return 0;
	memset(q, 0, sizeof(*q));
	q->system = hg_xstrdup(b->d->systems[k].name);
	q->part = part;
	q->first_id = first ? hg_xstrdup(first) : NULL;
	q->last_id = last ? hg_xstrdup(last) : NULL;
	q->algorithms = nalg;
	q->figures = figures;
	q->csv = hg_xstrdup(csv);
	q->json = hg_xstrdup(json);
	q->csv_sum.bytes = cb;
	memcpy(q->csv_sum.sha256, csha, 65);
	q->json_sum.bytes = jb;
	memcpy(q->json_sum.sha256, jsha, 65);
	return 1;
}

/* A part of the downloads, once its last page is done (site_parts.c): written, unless a
 * rebuild's is still right. */
static int S_part(void *arg, size_t k, size_t part, const char *first, const char *last,
	size_t nalg, const char *digest, hg_parts *p)
{
	S_build *b = arg;
	size_t slot = b->pfirst[k] + part - 1, n = 0, i;
	hg_part_info q;
	hg_fig *figs = NULL;
	const hg_fig **rows;
	int rc;

	if (slot >= b->npinfo || (k + 1 < b->d->nsystems && slot >= b->pfirst[k + 1]))
		return hg_error_set("%s: part %zu of the downloads out of range", b->d->systems[k].name,
			part);
	if (S_part_kept(b, k, part, first, last, nalg, digest, &q)) {
		b->pinfo[slot] = q;
		b->pdigest[slot] = hg_xstrdup(digest);
		return 0;
	}
	if (nalg && hg_parts_rows(p, k, part, &figs, &n) != 0)
		return -1;
	rows = calloc(n + 1, sizeof(*rows));
	for (i = 0; i < n; i++)
		rows[i] = &figs[i];
	rc = hg_site_results_part(b->tmp, b->d, k, part, first, last, rows, n,
		hg_algpages_yardsticks(b->ap, k), &b->pinfo[slot]);
	free(rows);
	hg_figs_free(figs, n);
	if (rc == 0)
		b->pdigest[slot] = hg_xstrdup(digest);
	return rc;
}

/* The parts of every system, before any page is done. */
static void S_parts_new(S_build *b)
{
	size_t k;
	b->pfirst = calloc(b->d->nsystems + 1, sizeof(size_t));
	for (k = 0; k < b->d->nsystems; k++) {
		b->pfirst[k] = b->npinfo;
		b->npinfo += hg_parts_count(&b->d->systems[k]);
	}
	b->pinfo = calloc(b->npinfo + 1, sizeof(hg_part_info));
	b->pdigest = calloc(b->npinfo + 1, sizeof(char *));
	b->parts = hg_parts_new(b->d, (const char *const *)b->ids, b->nids, b->cache_out, b->global,
		S_part, b);
}

/* Every algorithm on every system that has it (site_pages.c). */
static int S_algorithm_pages(S_build *b)
{
	hg_algpages_in in = { b->d, &b->tx, b->template, b->tmp, b->in_place ? b->o->out_dir : NULL,
		b->in_place ? b->cache_dir : NULL, b->cache_out, b->global,
		(const char *const *)b->ids, b->nids, b->o->strict, NULL };
	S_parts_new(b);
	in.parts = b->parts;
	if (hg_algpages_new(&b->ap, &in) != 0 ||
		hg_algpages_render(b->ap, b->o->jobs, b->o->warnings, &b->stats->warnings) != 0 ||
		hg_parts_finish(b->parts) != 0)
		return -1;
	b->stats->pages = hg_algpages_count(b->ap);
	b->stats->rendered = hg_algpages_rendered(b->ap);
	malloc_trim(0); /* the pages' memory back before the spanning pages */
	return 0;
}

/* "<digest> <ino> <size> <mtime>" of rel in --out: what the meta remembers of a spanning page. */
static char *S_meta_value(const S_build *b, const char *digest, const char *rel)
{
	unsigned long long ino, size;
	long long mtime;
	S_out_stat(b, rel, &ino, &size, &mtime);
	return hg_xprintf("%s %llu %llu %lld", digest, ino, size, mtime);
}

/* Must a spanning page (what: "compare", "ebash") of system s be rendered: not in place, or
 * what it shows changed, or the site's page is not the one the previous build left? */
static int S_span_needed(S_build *b, size_t k, const char *what, const char *digest)
{
	const hg_system *s = &b->d->systems[k];
	char *name = hg_xprintf("%s/%s", what, s->name), *rel = hg_xprintf("%s/%s.html", s->name,
		what), *now;
	const char *was = hg_cmeta_get(&b->meta_old, name);
	int needed = 1;
	size_t g;
	if (b->in_place && was) {
		now = S_meta_value(b, digest, rel);
		needed = strcmp(now, was) != 0;
		free(now);
	}
	if (needed && b->in_place && strcmp(what, "compare") == 0)
		for (g = 0; g < HG_NGROUPS; g++) {
			hg_strv_push(&b->stale, &b->nstale, hg_xprintf("%s/compare-%s.svg", s->name,
				hg_groups[g].key));
			hg_strv_push(&b->stale, &b->nstale, hg_xprintf("%s/compare-%s.svg.gz", s->name,
				hg_groups[g].key));
		}
	free(name);
	free(rel);
	return needed;
}

/* Per system: its method and comparison pages, its eBASH-style table, its trace and its
 * evidence's own files (its index comes with the site's, S_index). */
static int S_system_pages(S_build *b)
{
	size_t k, i;

	hg_strv_push(&b->pages, &b->npages, hg_xstrdup("index.html"));
	for (k = 0; k < b->d->nsystems; k++) {
		const hg_system *s = &b->d->systems[k];
		const hg_yardsticks *y = hg_algpages_yardsticks(b->ap, k);
		size_t nrows = 0, np;
		const hg_fig **rows = NULL;
		const char **parts = hg_algpages_span_digests(b->ap, k, 1, &np);
		char cmp[65], eb[65];
		int r, compare, ebash;
		hg_span_digest(cmp, "compare", b->global, s, parts, np, y, NULL, 0);
		free(parts);
		parts = hg_algpages_span_digests(b->ap, k, 0, &np);
		hg_span_digest(eb, "ebash", b->global, s, parts, np, NULL,
			(const char *const *)b->ids, b->nids);
		free(parts);
		b->span_keys[2 * k] = hg_xstrdup(cmp);
		b->span_keys[2 * k + 1] = hg_xstrdup(eb);
		compare = S_span_needed(b, k, "compare", cmp);
		ebash = S_span_needed(b, k, "ebash", eb);
		/* the rows, only for a page that shows them and must be rendered */
		if ((compare || ebash) && !(rows = hg_algpages_rows(b->ap, k, &nrows)))
			return -1;
		r = hg_site_system(b->tmp, b->template, b->d, k, &b->tx, (const char *const *)b->ids,
			b->nids, rows, nrows, y, compare, ebash);
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
	for (i = 0; i < b->nids; i++)
		if (hg_across_has(b->d, b->ids[i]))
			hg_strv_push(&b->pages, &b->npages, hg_xprintf("%s/%s.html", HG_ACROSS_DIR,
				b->ids[i]));
	return 0;
}

/* The site's index and each system's, from the headlines of every page read back once, and each
 * system's rows the spanning outputs read (the fastest of each system, on the site's index). */
static int S_index(S_build *b)
{
	size_t k, nsys = b->d->nsystems;
	const hg_fig **headlines = calloc(nsys * b->nids + 1, sizeof(*headlines));
	hg_front_sys *sys = calloc(nsys + 1, sizeof(*sys));
	void *heads = headlines && sys ? hg_algpages_headlines(b->ap, headlines) : NULL;
	hg_page *p;
	int rc = heads ? 0 : headlines && sys ? -1 : hg_error_set("out of memory");
	for (k = 0; k < nsys && rc == 0; k++) {
		if (!(sys[k].rows = hg_algpages_rows(b->ap, k, &sys[k].nrows)))
			rc = -1;
		hg_algpages_kats(b->ap, k, sys[k].kats);
	}
	if (rc == 0) {
		p = hg_page_index(b->d, (const char *const *)b->ids, b->nids,
			(const hg_fig *const *)headlines, sys, &b->tx);
		rc = hg_site_write_page(b->tmp, b->template, p, "index", HG_PAGE_STREAM);
		hg_page_free(p);
	}
	for (k = 0; k < nsys && rc == 0; k++)
		rc = hg_site_system_index(b->tmp, b->template, b->d, k, &b->tx,
			(const char *const *)b->ids, b->nids, (const hg_fig *const *)headlines);
	for (k = 0; sys && k < nsys; k++)
		free((void *)sys[k].rows);
	free(sys);
	free(heads);
	free(headlines);
	return rc;
}

/* S_index on a thread of its own beside the system pages (S_spanning), its failure kept in
 * b->index_error. */
static void *S_index_thread(void *arg)
{
	S_build *b = arg;
	if (S_index(b) != 0)
		b->index_error = hg_xstrdup(hg_error_last());
	hg_gztwin_release();
	return NULL;
}

/* The index of the downloads' parts (written as the pages completed them) and the catalog
 * beside the evidence copies; run by a thread of its own beside the system pages (S_spanning),
 * its failure kept in b->downloads_error. */
static void *S_downloads(void *arg)
{
	S_build *b = arg;
	size_t i;
	int rc = 0;
	for (i = 0; i < b->npinfo && rc == 0; i++)
		if (!b->pdigest[i])
			rc = hg_error_set("part %zu of the downloads was not written", i + 1);
	if (rc == 0)
		rc = hg_site_results_index(b->tmp, b->pinfo, b->npinfo);
	if (rc != 0 || hg_site_catalog(b->tmp, b->d, b->in_place ? b->o->out_dir : NULL) != 0)
		b->downloads_error = hg_xstrdup(hg_error_last());
	hg_gztwin_release();
	return NULL;
}

/* What spans the algorithm pages: the downloads on a second thread and the index on a third
 * (unless --jobs 1) while this one writes each system's pages (they read the same rows, and
 * write different files). */
static int S_spanning(S_build *b)
{
	pthread_t t, ti;
	int threaded = pthread_create(&t, NULL, S_downloads, b) == 0, rc;
	int index_threaded = b->o->jobs != 1 && pthread_create(&ti, NULL, S_index_thread, b) == 0;
	if (!threaded)
		S_downloads(b);
	rc = S_system_pages(b) != 0 || (!index_threaded && S_index(b) != 0) ? -1 : 0;
	if (index_threaded)
		pthread_join(ti, NULL);
	if (threaded)
		pthread_join(t, NULL);
	if (rc == 0 && b->index_error)
		rc = hg_error_set("%s", b->index_error);
	if (rc == 0 && b->downloads_error)
		rc = hg_error_set("%s", b->downloads_error);
	return rc;
}

static int S_style_and_sitemap(S_build *b)
{
	char *path = hg_xprintf("%s/style.css", b->tmp);
	int rc = hg_write_with_gz(path, b->css, strlen(b->css));
	free(path);
	if (rc == 0 && b->js) {
		path = hg_xprintf("%s/%s", b->tmp, HG_TABLES_JS);
		rc = hg_write_with_gz(path, b->js, strlen(b->js));
		free(path);
	}
	if (rc != 0)
		return -1;
	qsort(b->pages, b->npages, sizeof(char *), hg_cmp_str);
	return S_sitemap(b->tmp, b->o->base_url, b->pages, b->npages);
}

/* The new site in place of --out (a rebuild's changes into it), then the rebuild cache: a build
 * that failed keeps the previous one. */
static int S_put_in_place(S_build *b)
{
	hg_commit_counts n;
	size_t k;
	if (b->o->render_only)
		return 0;
	if (b->in_place) {
		hg_algpages_stale(b->ap, &b->stale, &b->nstale);
		if (hg_site_commit(b->tmp, b->o->out_dir, (const char *const *)b->ids, b->nids,
				b->stale, b->nstale, &n) != 0)
			return -1;
		b->stats->rebuilt = 1;
		b->stats->replaced = n.replaced;
		b->stats->swapped = n.swapped;
		b->stats->removed = n.removed;
	} else {
		if (S_swap(b->tmp, b->o->out_dir) != 0)
			return -1;
		hg_rm_rf(b->cache_dir);
		if (rename(b->cache_out, b->cache_dir) != 0)
			hg_rm_rf(b->cache_out);
	}
	for (k = 0; k < b->npinfo; k++) {
		char *key = hg_xprintf("part/%s/%zu", b->pinfo[k].system, b->pinfo[k].part);
		char *v = S_part_value(b, k);
		hg_cmeta_set(&b->meta, key, v);
		free(key);
		free(v);
	}
	for (k = 0; k < b->d->nsystems; k++) {
		const char *name = b->d->systems[k].name;
		char *key = hg_xprintf("compare/%s", name), *rel = hg_xprintf("%s/compare.html", name);
		char *v = S_meta_value(b, b->span_keys[2 * k], rel);
		hg_cmeta_set(&b->meta, key, v);
		free(key);
		free(rel);
		free(v);
		key = hg_xprintf("ebash/%s", name);
		rel = hg_xprintf("%s/ebash.html", name);
		v = S_meta_value(b, b->span_keys[2 * k + 1], rel);
		hg_cmeta_set(&b->meta, key, v);
		free(key);
		free(rel);
		free(v);
	}
	if (hg_cmeta_save(&b->meta, b->cache_dir) != 0 && b->o->warnings)
		fprintf(b->o->warnings, "hashgen: warning: %s\n", hg_error_last());
	return 0;
}

/* Remove what a failed build wrote (the previous site was never touched) and free the rest. */
static void S_finish(S_build *b, int rc)
{
	size_t k;
	if (rc != 0 && b->tmp) {
		char *msg = hg_xstrdup(hg_error_last());
		hg_rm_rf(b->tmp);
		hg_error_set("%s", msg);
		free(msg);
	}
	/* a clean build's cache not put in place, or the cache of a site rendered for a check */
	if (b->cache_out && !b->in_place && (rc != 0 || b->o->render_only))
		hg_rm_rf(b->cache_out);
	hg_algpages_free(b->ap);
	hg_parts_free(b->parts);
	for (k = 0; k < b->npinfo; k++) {
		hg_part_info_clear(&b->pinfo[k]);
		free(b->pdigest[k]);
	}
	free(b->pinfo);
	free(b->pdigest);
	free(b->pfirst);
	free(b->downloads_error);
	free(b->index_error);
	hg_strv_free(b->pages);
	hg_strv_free(b->stale);
	for (k = 0; b->span_keys && b->span_keys[k]; k++)
		free(b->span_keys[k]);
	free(b->span_keys);
	free(b->ids);
	free(b->tmp);
	free(b->cache_dir);
	free(b->cache_out);
	hg_cmeta_clear(&b->meta);
	hg_cmeta_clear(&b->meta_old);
	free(b->css);
	free(b->js);
	free((char *)b->tx.attribution);
	free((char *)b->tx.method);
	free(b->generator);
	hg_template_free(b->template);
	hg_data_free(b->d);
	hg_gztwin_release();
}

/* The evidence, the templates and the plan of the pages, and the folder the build writes. */
static int S_load(S_build *b)
{
	if (hg_data_load(&b->d, b->o->data_dir) != 0 || S_load_templates(b) != 0)
		return -1;
	S_collect_ids(b);
	S_plan(b);
	return S_make_tmp(b);
}

const char *const hg_site_steps[HG_NSTEPS] = { "load the evidence and templates",
	"algorithm pages", "system pages, index and downloads", "stylesheet and sitemap",
	"put in place" };
static int (*const S_steps[HG_NSTEPS])(S_build *) = { S_load, S_algorithm_pages, S_spanning,
	S_style_and_sitemap, S_put_in_place };

int hg_site_build(hg_site_stats *stats, const hg_site_opts *o)
{
	S_build b;
	size_t i;
	int rc = -1;

	memset(stats, 0, sizeof(*stats));
	memset(&b, 0, sizeof(b));
	b.o = o;
	b.stats = stats;
	if (S_check_out(o) != 0)
		return -1;
	xmlInitParser();
	json_object_seed(1); /* fixed seed: deterministic, and set before threads start */
	for (i = 0; i < HG_NSTEPS; i++) {
		double wall = hg_wall_seconds(), cpu = hg_cpu_seconds();
		if (S_steps[i](&b) != 0)
			goto out;
		stats->wall[i] = hg_wall_seconds() - wall;
		stats->cpu[i] = hg_cpu_seconds() - cpu;
	}
	stats->systems = b.d->nsystems;
	stats->algorithms = b.nids;
	rc = 0;
out:
	S_finish(&b, rc);
	return rc;
}
