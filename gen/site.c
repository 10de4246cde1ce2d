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

#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

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
} S_ctx;

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

static int S_run_job(S_ctx *c, S_job *j)
{
	hg_sysalg sa;
	hg_page *p;
	char *rel, *dir;
	size_t i;
	int rc = 0;

	if (hg_sysalg_load(&sa, c->d, j->s, j->id) != 0)
		return -1;
	for (i = 0; i < sa.nfiles; i++) {
		const hg_evfile *f = &sa.files[i];
		const char *what = f->state == HG_SUM_MISMATCH ? "its SHA-256 does not match SHA256SUMS" :
			f->state == HG_SUM_UNLISTED ? "not listed in SHA256SUMS" :
			f->state == HG_SUM_MISSING ? "listed in SHA256SUMS but missing" : NULL;
		if (what)
			S_warn(j, "%s/%s: %s", j->s->dir, f->file, what);
	}
	if (j->nwarnings && c->o->strict) {
		hg_error_set("%.*s (--strict)", (int)strcspn(j->warnings, "\n"), j->warnings);
		hg_sysalg_clear(&sa);
		return -1;
	}
	p = hg_page_algorithm(c->d, j->s, j->id, &sa, c->tx, &j->headline);
	rel = hg_xprintf("%s/%s", j->s->name, j->id);
	rc = S_write_page(c, p, rel, 1);
	free(rel);
	hg_page_free(p);
	/* the evidence copies */
	dir = hg_xprintf("%s/data/%s/records/%s", c->tmp, j->s->name, j->id);
	if (rc == 0)
		rc = hg_mkdirs(dir);
	free(dir);
	dir = hg_xprintf("%s/data/%s/kat/%s", c->tmp, j->s->name, j->id);
	if (rc == 0)
		rc = hg_mkdirs(dir);
	free(dir);
	for (i = 0; i < sa.nfiles && rc == 0; i++) {
		char *from, *to;
		if (sa.files[i].state == HG_SUM_MISSING)
			continue;
		from = hg_xprintf("%s/%s", j->s->dir, sa.files[i].file);
		to = hg_xprintf("%s/data/%s/%s", c->tmp, j->s->name, sa.files[i].file);
		rc = S_copy(from, to);
		free(from);
		free(to);
	}
	hg_sysalg_clear(&sa);
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

static int S_sitemap(const char *tmp, char **pages, size_t n)
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
		xmlNewTextChild(url, NULL, (const xmlChar *)"loc", (const xmlChar *)pages[i]);
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
	double *headlines = NULL;
	size_t nids = 0, npages = 0, i, k, j;
	S_ctx c;
	pthread_t *threads = NULL;
	int rc = -1, nthreads;

	memset(stats, 0, sizeof(*stats));
	memset(&c, 0, sizeof(c));
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
		int r = hg_mkdirs(dir);
		free(dir);
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
	if (S_sitemap(tmp, pages, npages) != 0)
		goto out;
	if (S_swap(tmp, o->out_dir) != 0)
		goto out;
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
	}
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
