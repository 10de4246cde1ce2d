/* site.c — the whole site: pages of every algorithm on every system rendered in parallel, copies
 * of the evidence, index and method pages, stylesheet, sitemap and .gz twins, all written into a
 * new folder beside --out that replaces it only when everything succeeded. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dirent.h>
#include <fcntl.h>

#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <openssl/evp.h>

#include "cache.h"
#include "pages.h"

#ifndef HB_GIT_COMMIT
#define HB_GIT_COMMIT "unknown"
#endif

typedef struct {
	const hg_system *s;
	size_t si, ai;      /* system index, algorithm index in ids */
	const char *id;
	double headline;
	char *warnings;     /* lines for stderr, printed in job order */
	size_t nwarnings;
	char *error;        /* the job's failure */
	int reuse;          /* the previous site's page and copies are still right */
	char key[65];       /* digest of everything the page is rendered from */
	hg_cfile *files;    /* what the cache remembers of its evidence files */
	size_t nfiles;
} S_job;

typedef struct {
	const hg_site_opts *o;
	const hg_data *d;
	const hg_texts *tx;
	const void *template;
	const char *tmp;
	S_job *jobs;
	size_t njobs;
	atomic_size_t next;
	atomic_int failed;
	hg_cache cache;
	const char *old;    /* the previous site, when there is one to reuse pages from */
	char global[65];    /* digest of the generator and the templates the pages use */
	hg_yardsticks *yards; /* per system */
} S_ctx;

typedef struct {
	char *rel;          /* "records/<id>/<name>" */
	struct stat st;
} S_scanned;

static int S_write_page(const S_ctx *c, const hg_page *p, const char *rel, int with_md)
{
	char *html = NULL, *md = NULL, *path;
	size_t hlen, mlen;
	int rc;

	if (hg_render_html(&html, &hlen, p, c->template) != 0)
		return -1;
	path = hg_xprintf("%s/%s.html", c->tmp, rel);
	rc = hg_write_with_gz(path, html, hlen);
	free(path);
	free(html);
	if (rc == 0 && with_md) {
		if (hg_render_md(&md, &mlen, p) != 0)
			return hg_error_set("out of memory rendering %s.md", rel);
		path = hg_xprintf("%s/%s.md", c->tmp, rel);
		rc = hg_write_with_gz(path, md, mlen);
		free(path);
		free(md);
	}
	return rc;
}

/* A copy of an evidence file: a hard link when the file system allows, else the bytes. */
static int S_copy(const char *from, const char *to)
{
	char *data;
	size_t len;
	int rc;
	if (link(from, to) == 0)
		return 0;
	if (hg_read_file(&data, &len, from) != 0)
		return -1;
	rc = hg_write_file(to, data, len);
	free(data);
	return rc;
}

static void S_warn(S_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void S_warn(S_job *j, const char *fmt, ...)
{
	va_list ap;
	char *line, *grown;
	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		line = NULL;
	va_end(ap);
	if (!line)
		return;
	grown = hg_xprintf("%s%s\n", j->warnings ? j->warnings : "", line);
	free(j->warnings);
	free(line);
	j->warnings = grown;
	j->nwarnings++;
}

/* The evidence files of an algorithm on a system with their stat, without reading them; 1 when
 * something other than a regular file is there (the full load then decides). */
static int S_scan(S_scanned **out, size_t *n, const hg_system *s, const char *id)
{
	static const char *kinds[] = { "kat", "records" };
	size_t k;
	*out = NULL;
	*n = 0;
	for (k = 0; k < 2; k++) {
		char *dir = hg_xprintf("%s/%s/%s", s->dir, kinds[k], id);
		DIR *d = opendir(dir);
		struct dirent *de;
		size_t first = *n, a, b;
		free(dir);
		if (!d)
			continue;
		while ((de = readdir(d)) != NULL) {
			struct stat st;
			if (de->d_name[0] == '.')
				continue;
			if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
				!S_ISREG(st.st_mode)) {
				closedir(d);
				return 1;
			}
			*out = realloc(*out, (*n + 1) * sizeof(S_scanned));
			(*out)[*n].rel = hg_xprintf("%s/%s/%s", kinds[k], id, de->d_name);
			(*out)[*n].st = st;
			(*n)++;
		}
		closedir(d);
		for (a = first + 1; a < *n; a++)
			for (b = a; b > first && strcmp((*out)[b - 1].rel, (*out)[b].rel) > 0; b--) {
				S_scanned t = (*out)[b];
				(*out)[b] = (*out)[b - 1];
				(*out)[b - 1] = t;
			}
	}
	return 0;
}

static void S_scan_free(S_scanned *sc, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		free(sc[i].rel);
	free(sc);
}

/* The page's digest: generator and templates, system.json, catalog entry, the systems that
 * list the algorithm (breadcrumb), every file with its SHA-256 and every SHA256SUMS line. */
static void S_key(char out[65], const S_ctx *c, const hg_system *s, const char *id,
	const hg_evfile *files, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	const hg_entry *e = hg_data_entry(c->d, id);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char md[32];
	unsigned int mdlen = 32;
	size_t i, k;
	int t;

	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	EVP_DigestUpdate(ctx, c->global, 64);
	EVP_DigestUpdate(ctx, s->name, strlen(s->name) + 1);
	EVP_DigestUpdate(ctx, s->system_sha256, 64);
	EVP_DigestUpdate(ctx, e ? e->sha256 : "-", e ? 64 : 1);
	{
		/* the yardstick table: the baselines' figures on this system */
		const hg_yardsticks *y = &c->yards[(size_t)(s - c->d->systems)];
		char figures[512];
		int len = snprintf(figures, sizeof(figures), "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g",
			y->cpb[0][0], y->cpb[0][1], y->cpb[1][0], y->cpb[1][1], y->cpb[2][0], y->cpb[2][1],
			y->cpb[3][0], y->cpb[3][1]);
		EVP_DigestUpdate(ctx, figures, (size_t)len);
	}
	for (k = 0; k < c->d->nsystems; k++)
		if (hg_system_has(&c->d->systems[k], id))
			EVP_DigestUpdate(ctx, c->d->systems[k].name, strlen(c->d->systems[k].name) + 1);
	for (i = 0; i < n; i++) {
		if (files[i].state == HG_SUM_MISSING)
			continue;
		EVP_DigestUpdate(ctx, files[i].file, strlen(files[i].file) + 1);
		EVP_DigestUpdate(ctx, files[i].sha256, 64);
	}
	for (t = 0; t < 2; t++) {
		char *prefix = hg_xprintf("%s/%s/", t ? "records" : "kat", id);
		size_t plen = strlen(prefix);
		for (i = hg_system_sum_lower(s, prefix);
			i < s->nsums && strncmp(s->sums[i].path, prefix, plen) == 0; i++) {
			EVP_DigestUpdate(ctx, s->sums[i].path, strlen(s->sums[i].path) + 1);
			EVP_DigestUpdate(ctx, s->sums[i].sha256, 64);
		}
		free(prefix);
	}
	EVP_DigestFinal_ex(ctx, md, &mdlen);
	EVP_MD_CTX_free(ctx);
	for (i = 0; i < 32; i++) {
		out[2 * i] = digits[md[i] >> 4];
		out[2 * i + 1] = digits[md[i] & 15];
	}
	out[64] = 0;
}

/* Warnings about files that do not match SHA256SUMS, the same for a reused and a new page. */
static int S_file_warnings(const S_ctx *c, S_job *j, const hg_evfile *files, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		const hg_evfile *f = &files[i];
		const char *what = f->state == HG_SUM_MISMATCH ? "its SHA-256 does not match SHA256SUMS" :
			f->state == HG_SUM_UNLISTED ? "not listed in SHA256SUMS" :
			f->state == HG_SUM_MISSING ? "listed in SHA256SUMS but missing" : NULL;
		if (what)
			S_warn(j, "%s/%s: %s", j->s->dir, f->file, what);
	}
	if (j->nwarnings && c->o->strict)
		return hg_error_set("%.*s (--strict)", (int)strcspn(j->warnings, "\n"), j->warnings);
	return 0;
}

/* What the cache keeps of a page's files. */
static void S_remember_loaded(S_job *j, const hg_evfile *files, size_t n)
{
	size_t i;
	j->files = calloc(n + 1, sizeof(hg_cfile));
	for (i = 0; i < n; i++) {
		if (files[i].state == HG_SUM_MISSING)
			continue;
		j->files[j->nfiles].path = hg_xprintf("%s/%s", j->s->name, files[i].file);
		j->files[j->nfiles].ino = files[i].ino;
		j->files[j->nfiles].size = files[i].size;
		j->files[j->nfiles].mtime_ns = files[i].mtime_ns;
		memcpy(j->files[j->nfiles].sha256, files[i].sha256, 65);
		j->nfiles++;
	}
}

/* Can the previous site's page be kept? Hashes only the files whose stat changed. */
static int S_try_reuse(S_ctx *c, S_job *j, const S_scanned *sc, size_t nsc)
{
	const hg_cpage *cp = hg_cache_page(&c->cache, j->s->name, j->id);
	hg_evfile *files;
	size_t n = 0, i;
	char *page;
	int ok;

	if (!cp)
		return 0;
	page = hg_xprintf("%s/%s/%s.html", c->old, j->s->name, j->id);
	ok = access(page, F_OK) == 0;
	free(page);
	if (!ok)
		return 0;
	files = calloc(nsc + 1, sizeof(hg_evfile));
	for (ok = 1, i = 0; i < nsc && ok; i++) {
		char *path = hg_xprintf("%s/%s", j->s->name, sc[i].rel);
		const hg_cfile *cf = hg_cache_file(&c->cache, path);
		hg_evfile *f = &files[n++];
		free(path);
		f->file = hg_xstrdup(sc[i].rel);
		f->ino = (unsigned long long)sc[i].st.st_ino;
		f->size = (unsigned long long)sc[i].st.st_size;
		f->mtime_ns = (long long)sc[i].st.st_mtim.tv_sec * 1000000000LL + sc[i].st.st_mtim.tv_nsec;
		if (cf && cf->ino == f->ino && cf->size == f->size && cf->mtime_ns == f->mtime_ns) {
			memcpy(f->sha256, cf->sha256, 65);
		} else {
			/* changed since the last build: hash it again */
			char *full = hg_xprintf("%s/%s", j->s->dir, sc[i].rel), *text;
			size_t len;
			ok = hg_read_file(&text, &len, full) == 0;
			free(full);
			if (ok) {
				hg_sha256_hex(f->sha256, text, len);
				free(text);
			}
		}
		hg_evfile_check(f, j->s);
	}
	if (ok) {
		hg_evidence_missing(&files, &n, j->s, j->id);
		S_key(j->key, c, j->s, j->id, files, n);
		ok = strcmp(j->key, cp->key) == 0;
	}
	if (ok) {
		j->reuse = 1;
		j->headline = cp->headline;
		S_remember_loaded(j, files, n);
		ok = S_file_warnings(c, j, files, n) == 0 ? 1 : -1;
	}
	for (i = 0; i < n; i++)
		free(files[i].file);
	free(files);
	return ok;
}


/* The copies of a page's evidence: hard links made through directory descriptors (no path
 * walks), the bytes where the file system refuses links. */
static int S_copy_evidence(const S_ctx *c, const S_job *j, const hg_sysalg *sa)
{
	static const char *kinds[2] = { "kat", "records" };
	int dst[2] = { -1, -1 }, k, rc = 0;
	size_t i;

	for (k = 0; k < 2 && rc == 0; k++) {
		char *dir = hg_xprintf("%s/data/%s/%s/%s", c->tmp, j->s->name, kinds[k], j->id);
		if (mkdir(dir, 0755) != 0 || (dst[k] = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
			rc = hg_error_set("%s: cannot create folder: %s", dir, strerror(errno));
		free(dir);
	}
	for (i = 0; i < sa->nfiles && rc == 0; i++) {
		const hg_evfile *f = &sa->files[i];
		int slot = strncmp(f->file, "kat/", 4) == 0 ? 0 : 1;
		const char *name = strrchr(f->file, '/') + 1;
		if (f->state == HG_SUM_MISSING)
			continue;
		if (sa->dir_fd[slot] < 0 || linkat(sa->dir_fd[slot], name, dst[slot], name, 0) != 0) {
			char *from = hg_xprintf("%s/%s", j->s->dir, f->file);
			char *to = hg_xprintf("%s/data/%s/%s", c->tmp, j->s->name, f->file);
			rc = S_copy(from, to);
			free(from);
			free(to);
		}
	}
	for (k = 0; k < 2; k++)
		if (dst[k] >= 0)
			close(dst[k]);
	return rc;
}

static int S_run_job(S_ctx *c, S_job *j)
{
	hg_sysalg sa;
	hg_page *p;
	char *rel;
	int rc = 0;

	/* a page of the previous site is kept when nothing it was rendered from changed */
	if (c->old && hg_cache_page(&c->cache, j->s->name, j->id)) {
		S_scanned *sc = NULL;
		size_t nsc = 0;
		int r = S_scan(&sc, &nsc, j->s, j->id) == 0 ? S_try_reuse(c, j, sc, nsc) : 0;
		S_scan_free(sc, nsc);
		if (r != 0)
			return r > 0 ? 0 : -1;
	}
	if (hg_sysalg_load(&sa, c->d, j->s, j->id) != 0)
		return -1;
	if (S_file_warnings(c, j, sa.files, sa.nfiles) != 0) {
		hg_sysalg_clear(&sa);
		return -1;
	}
	S_key(j->key, c, j->s, j->id, sa.files, sa.nfiles);
	S_remember_loaded(j, sa.files, sa.nfiles);
	p = hg_page_algorithm(c->d, j->s, j->id, &sa, &c->yards[j->si], c->tx, &j->headline);
	rel = hg_xprintf("%s/%s", j->s->name, j->id);
	rc = S_write_page(c, p, rel, 1);
	free(rel);
	hg_page_free(p);
	if (rc == 0)
		rc = S_copy_evidence(c, j, &sa);
	hg_sysalg_clear(&sa);
	return rc;
}

static const char *S_moved[] = { "%s/%s/%s.html", "%s/%s/%s.html.gz", "%s/%s/%s.md",
	"%s/%s/%s.md.gz", "%s/data/%s/records/%s", "%s/data/%s/kat/%s" };

/* Give the reused pages back to the previous site (the new one could not be put in place). */
static void S_move_back(const S_ctx *c)
{
	size_t i, k;
	for (i = 0; i < c->njobs; i++) {
		const S_job *j = &c->jobs[i];
		if (!j->reuse)
			continue;
		for (k = 0; k < 6; k++) {
			char *from = hg_xprintf(S_moved[k], c->tmp, j->s->name, j->id);
			char *to = hg_xprintf(S_moved[k], c->old, j->s->name, j->id);
			rename(from, to);
			free(from);
			free(to);
		}
	}
}

/* Move the reused pages and evidence copies from the previous site into the new one; undone
 * when a move fails, so the previous site stays whole. */
static int S_move_reused(const S_ctx *c)
{
	size_t i, k, done_i = 0, done_k = 0;
	int rc = 0;

	for (i = 0; i < c->njobs && rc == 0; i++) {
		const S_job *j = &c->jobs[i];
		if (!j->reuse)
			continue;
		for (k = 0; k < 6 && rc == 0; k++) {
			char *from = hg_xprintf(S_moved[k], c->old, j->s->name, j->id);
			char *to = hg_xprintf(S_moved[k], c->tmp, j->s->name, j->id);
			if (rename(from, to) != 0 && !(errno == ENOENT && k >= 4)) {
				rc = hg_error_set("%s: cannot move into the new site: %s", from, strerror(errno));
				done_i = i;
				done_k = k;
			}
			free(from);
			free(to);
		}
	}
	if (rc == 0)
		return 0;
	for (i = 0; i <= done_i; i++) {
		const S_job *j = &c->jobs[i];
		if (!j->reuse)
			continue;
		for (k = 0; k < (i == done_i ? done_k : 6); k++) {
			char *from = hg_xprintf(S_moved[k], c->tmp, j->s->name, j->id);
			char *to = hg_xprintf(S_moved[k], c->old, j->s->name, j->id);
			rename(from, to);
			free(from);
			free(to);
		}
	}
	return rc;
}

static void *S_worker(void *arg)
{
	S_ctx *c = arg;
	for (;;) {
		size_t i = atomic_fetch_add(&c->next, 1);
		if (i >= c->njobs || atomic_load(&c->failed))
			break;
		if (S_run_job(c, &c->jobs[i]) != 0) {
			c->jobs[i].error = hg_xstrdup(hg_error_last());
			atomic_store(&c->failed, 1);
		}
	}
	hg_evidence_release();
	return NULL;
}

static int S_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

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

static void S_push(char ***v, size_t *n, char *s)
{
	char **g = realloc(*v, (*n + 1) * sizeof(char *));
	if (!g) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	*v = g;
	(*v)[(*n)++] = s;
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

int hg_site_build(hg_site_stats *stats, const hg_site_opts *o)
{
	hg_data *d = NULL;
	hg_texts tx = { 0 };
	void *template = NULL;
	char *css = NULL, *tmp = NULL, *page_path = NULL, **ids = NULL, **pages = NULL, *gen = NULL;
	char *cache_path = NULL;
	double *headlines = NULL;
	size_t nids = 0, npages = 0, i, k, j;
	S_ctx c;
	pthread_t *threads = NULL;
	int rc = -1, nthreads;

	memset(stats, 0, sizeof(*stats));
	memset(&c, 0, sizeof(c));
	if (S_out_replaceable(o->out_dir) != 0)
		return -1;
	if (o->base_url && (strncmp(o->base_url, "https://", 8) && strncmp(o->base_url, "http://", 7)))
		return hg_error_set("--base-url %s: expected an http:// or https:// address", o->base_url);
	xmlInitParser();
	json_object_seed(1); /* fixed seed: deterministic, and set before threads start */
	if (hg_data_load(&d, o->data_dir) != 0)
		goto out;
	{
		char *path = hg_xprintf("%s/page.html", o->templates_dir);
		template = hg_template_load(path);
		free(path);
		if (!template)
			goto out;
	}
	if (S_read_template(&css, o->templates_dir, "style.css") != 0 ||
		S_read_template((char **)&tx.attribution, o->templates_dir, "attribution.md") != 0 ||
		S_read_template((char **)&tx.method, o->templates_dir, "method.md") != 0)
		goto out;
	gen = o->generator ? hg_xstrdup(o->generator) :
		hg_xprintf("hashgen %s (git %s)", HG_VERSION, HB_GIT_COMMIT);
	tx.generator = gen;
	{
		/* what every algorithm page depends on besides its own inputs */
		char *skeleton = NULL, *all;
		if (S_read_template(&skeleton, o->templates_dir, "page.html") != 0)
			goto out;
		all = hg_xprintf("%s%c%s%c%s", gen, 0, skeleton, 0, tx.attribution);
		hg_sha256_hex(c.global, all, strlen(gen) + strlen(skeleton) + strlen(tx.attribution) + 2);
		free(all);
		free(skeleton);
	}
	cache_path = hg_xprintf("%s.hashgen-cache", o->out_dir);
	{
		struct stat st;
		if (stat(o->out_dir, &st) == 0 && S_ISDIR(st.st_mode)) {
			hg_cache_load(&c.cache, cache_path);
			c.old = o->out_dir;
		}
	}

	/* every algorithm id: the catalog's and those with evidence */
	for (i = 0; i < d->nentries; i++)
		S_push(&ids, &nids, d->entries[i].id);
	for (k = 0; k < d->nsystems; k++)
		for (j = 0; d->systems[k].algorithms[j]; j++) {
			int seen = 0;
			for (i = 0; i < nids && !seen; i++)
				seen = strcmp(ids[i], d->systems[k].algorithms[j]) == 0;
			if (!seen)
				S_push(&ids, &nids, d->systems[k].algorithms[j]);
		}
	if (nids)
		qsort(ids, nids, sizeof(char *), S_cmp);
	headlines = malloc((d->nsystems * nids + 1) * sizeof(double));
	for (i = 0; i < d->nsystems * nids; i++)
		headlines[i] = -1;

	tmp = hg_xprintf("%s.tmp-%ld", o->out_dir, (long)getpid());
	if (hg_rm_rf(tmp) != 0 || hg_mkdirs(tmp) != 0)
		goto out;
	for (k = 0; k < d->nsystems; k++) {
		char *dir = hg_xprintf("%s/%s", tmp, d->systems[k].name);
		char *rec = hg_xprintf("%s/data/%s/records", tmp, d->systems[k].name);
		char *kat = hg_xprintf("%s/data/%s/kat", tmp, d->systems[k].name);
		int r = hg_mkdirs(dir) || hg_mkdirs(rec) || hg_mkdirs(kat);
		free(dir);
		free(rec);
		free(kat);
		if (r != 0)
			goto out;
		for (i = 0; i < nids; i++)
			if (hg_system_has(&d->systems[k], ids[i]))
				c.njobs++;
	}
	c.jobs = calloc(c.njobs + 1, sizeof(S_job));
	c.njobs = 0;
	for (k = 0; k < d->nsystems; k++)
		for (i = 0; i < nids; i++)
			if (hg_system_has(&d->systems[k], ids[i])) {
				S_job *jb = &c.jobs[c.njobs++];
				jb->s = &d->systems[k];
				jb->si = k;
				jb->ai = i;
				jb->id = ids[i];
				jb->headline = -1;
			}
	/* the yardsticks of every system, before any page needs them */
	c.yards = calloc(d->nsystems + 1, sizeof(hg_yardsticks));
	for (k = 0; k < d->nsystems; k++) {
		hg_sysalg sm3, sha2;
		int has_sm3 = hg_system_has(&d->systems[k], "sm3"), has_sha2 = hg_system_has(&d->systems[k], "sha2");
		memset(&sm3, 0, sizeof(sm3));
		memset(&sha2, 0, sizeof(sha2));
		if ((has_sm3 && hg_sysalg_load(&sm3, d, &d->systems[k], "sm3") != 0) ||
			(has_sha2 && hg_sysalg_load(&sha2, d, &d->systems[k], "sha2") != 0)) {
			hg_sysalg_clear(&sm3);
			hg_sysalg_clear(&sha2);
			goto out;
		}
		hg_yardsticks_of(&c.yards[k], has_sm3 ? &sm3 : NULL, has_sha2 ? &sha2 : NULL);
		hg_sysalg_clear(&sm3);
		hg_sysalg_clear(&sha2);
	}
	c.o = o;
	c.d = d;
	c.tx = &tx;
	c.template = template;
	c.tmp = tmp;
	nthreads = o->jobs > 0 ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (nthreads < 1)
		nthreads = 1;
	if ((size_t)nthreads > c.njobs)
		nthreads = c.njobs ? (int)c.njobs : 1;
	threads = calloc((size_t)nthreads, sizeof(pthread_t));
	for (i = 1; i < (size_t)nthreads; i++)
		if (pthread_create(&threads[i], NULL, S_worker, &c) != 0)
			break;
	S_worker(&c);
	for (k = 1; k < i; k++)
		pthread_join(threads[k], NULL);
	for (i = 0; i < c.njobs; i++) {
		if (c.jobs[i].warnings && o->warnings)
			fputs(c.jobs[i].warnings, o->warnings);
		stats->warnings += c.jobs[i].nwarnings;
		if (c.jobs[i].error) {
			hg_error_set("%s", c.jobs[i].error);
			goto out;
		}
		headlines[c.jobs[i].si * nids + c.jobs[i].ai] = c.jobs[i].headline;
	}
	if (atomic_load(&c.failed)) {
		hg_error_set("a page could not be rendered");
		goto out;
	}
	stats->pages = c.njobs;

	/* per system: index, method, system.json and SHA256SUMS copies */
	S_push(&pages, &npages, hg_xstrdup("index.html"));
	for (k = 0; k < d->nsystems; k++) {
		const hg_system *s = &d->systems[k];
		hg_page *p;
		char *rel, *from, *to;
		int r;
		p = hg_page_system(d, s, (const char *const *)ids, nids, headlines, &tx);
		rel = hg_xprintf("%s/index", s->name);
		r = S_write_page(&c, p, rel, 0);
		free(rel);
		hg_page_free(p);
		if (r != 0)
			goto out;
		p = hg_page_method(d, s, &tx);
		rel = hg_xprintf("%s/method", s->name);
		r = S_write_page(&c, p, rel, 0);
		free(rel);
		hg_page_free(p);
		if (r != 0)
			goto out;
		S_push(&pages, &npages, hg_xprintf("%s/index.html", s->name));
		S_push(&pages, &npages, hg_xprintf("%s/method.html", s->name));
		for (i = 0; i < nids; i++)
			if (hg_system_has(s, ids[i]))
				S_push(&pages, &npages, hg_xprintf("%s/%s.html", s->name, ids[i]));
		for (i = 0; i < 2; i++) {
			const char *name = i ? "SHA256SUMS" : "system.json";
			char *dir = hg_xprintf("%s/data/%s", tmp, s->name);
			from = hg_xprintf("%s/%s", s->dir, name);
			to = hg_xprintf("%s/%s", dir, name);
			r = hg_mkdirs(dir) == 0 && (access(from, F_OK) != 0 || S_copy(from, to) == 0) ?
				0 : -1;
			free(dir);
			free(from);
			free(to);
			if (r != 0)
				goto out;
		}
	}
	{
		hg_page *p = hg_page_index(d, (const char *const *)ids, nids, headlines, &tx);
		int r = S_write_page(&c, p, "index", 0);
		hg_page_free(p);
		if (r != 0)
			goto out;
	}
	page_path = hg_xprintf("%s/style.css", tmp);
	if (hg_write_with_gz(page_path, css, strlen(css)) != 0)
		goto out;
	qsort(pages, npages, sizeof(char *), S_cmp);
	if (S_sitemap(tmp, o->base_url, pages, npages) != 0)
		goto out;
	if (S_move_reused(&c) != 0)
		goto out;
	if (S_swap(tmp, o->out_dir) != 0) {
		S_move_back(&c); /* S_swap put the previous site back where it was */
		goto out;
	}
	{
		/* the rebuild cache, written last: a build that failed keeps the previous one */
		size_t nf = 0, f = 0;
		hg_cfile *files;
		hg_cpage *cp = calloc(c.njobs + 1, sizeof(hg_cpage));
		for (i = 0; i < c.njobs; i++)
			nf += c.jobs[i].nfiles;
		files = calloc(nf + 1, sizeof(hg_cfile));
		for (i = 0; i < c.njobs; i++) {
			memcpy(files + f, c.jobs[i].files, c.jobs[i].nfiles * sizeof(hg_cfile));
			f += c.jobs[i].nfiles;
			cp[i].system = (char *)c.jobs[i].s->name;
			cp[i].id = (char *)c.jobs[i].id;
			memcpy(cp[i].key, c.jobs[i].key, 65);
			cp[i].headline = c.jobs[i].headline;
		}
		if (hg_cache_save(cache_path, files, nf, cp, c.njobs) != 0 && o->warnings)
			fprintf(o->warnings, "hashgen: warning: %s\n", hg_error_last());
		free(files);
		free(cp);
	}
	stats->systems = d->nsystems;
	stats->algorithms = nids;
	rc = 0;
out:
	if (rc != 0 && tmp) {
		char *msg = hg_xstrdup(hg_error_last());
		hg_rm_rf(tmp); /* the previous site was never touched */
		hg_error_set("%s", msg);
		free(msg);
	}
	for (i = 0; c.jobs && i < c.njobs; i++) {
		free(c.jobs[i].warnings);
		free(c.jobs[i].error);
		for (k = 0; k < c.jobs[i].nfiles; k++)
			free(c.jobs[i].files[k].path);
		free(c.jobs[i].files);
	}
	hg_cache_clear(&c.cache);
	free(cache_path);
	free(c.yards);
	free(c.jobs);
	free(threads);
	for (i = 0; i < npages; i++)
		free(pages[i]);
	free(pages);
	free(ids);
	free(headlines);
	free(tmp);
	free(page_path);
	free(css);
	free((char *)tx.attribution);
	free((char *)tx.method);
	free(gen);
	hg_template_free(template);
	hg_data_free(d);
	return rc;
}
