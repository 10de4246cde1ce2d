/* sitewide.c — the outputs that span the site's pages: per system its index and method page, the
 * comparison page with its bar charts, the eBASH-style table, the machine-speed trace and the
 * copies of system.json and SHA256SUMS; the catalog beside the evidence copies; the originals of
 * an imported system; and the digest of what a spanning page shows, for a rebuild. */
#include <stdio.h>
#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render.h"
#include "site_files.h"
#include "sitewide.h"

typedef struct {
	const char *tmp, *system;
} S_beside;

static int S_put_beside(void *ctx, const char *name, const char *svg, size_t len)
{
	const S_beside *b = ctx;
	return hg_site_write_beside(b->tmp, b->system, name, svg, len);
}

static int S_compare(const char *tmp, const void *template, const hg_data *d, size_t k,
	const hg_fig *const *rows, size_t n, const hg_yardsticks *y, const hg_texts *tx)
{
	const hg_system *s = &d->systems[k];
	S_beside beside = { tmp, s->name };
	hg_svgsink charts = { S_put_beside, &beside, 0 };
	hg_page *p = hg_page_compare(d, s, rows, n, y, tx, &charts);
	char *rel = hg_xprintf("%s/compare", s->name);
	int rc = charts.failed ? -1 : hg_site_write_page(tmp, template, p, rel,
		HG_PAGE_MD | HG_PAGE_STREAM);

	free(rel);
	hg_page_free(p);
	return rc;
}

/* <system>/ebash.html and its Markdown twin: the eBASH-style table. */
static int S_ebash(const char *tmp, const void *template, const hg_data *d, size_t k,
	const hg_fig *const *rows, size_t n, const char *const *ids, size_t nids,
	const hg_texts *tx)
{
	const hg_system *s = &d->systems[k];
	hg_page *p = hg_page_ebash(d, s, rows, n, ids, nids, tx);
	char *rel = hg_xprintf("%s/ebash", s->name);
	int rc = hg_site_write_page(tmp, template, p, rel, HG_PAGE_MD | HG_PAGE_STREAM);
	free(rel);
	hg_page_free(p);
	return rc;
}

/* <system folder>/<name> copied to <tmp>/data/<system>/<name>; a missing file is skipped when
 * optional. */
static int S_copy_own(const char *tmp, const hg_system *s, const char *name, int optional)
{
	char *dir = hg_xprintf("%s/data/%s", tmp, s->name);
	char *from = hg_xprintf("%s/%s", s->dir, name);
	char *to = hg_xprintf("%s/%s", dir, name);
	int rc = hg_mkdirs(dir) == 0 && ((optional && access(from, F_OK) != 0) ||
		hg_site_copy(from, to) == 0) ? 0 : -1;
	free(dir);
	free(from);
	free(to);
	return rc;
}

/* <system>/sentinel.svg (+ .gz) and the copy of sentinel.json; nothing for a system that was not
 * traced. */
static int S_sentinel(const char *tmp, const hg_system *s)
{
	char *svg = NULL;
	size_t len = 0;
	int rc;

	if (!s->sentinel || !s->sentinel->traced)
		return 0;
	if (hg_sentinel_svg(&svg, &len, s) != 0)
		return -1;
	rc = hg_site_write_beside(tmp, s->name, "sentinel.svg", svg, len);
	free(svg);
	return rc != 0 ? -1 : S_copy_own(tmp, s, "sentinel.json", 0);
}

/* A page of a system as <tmp>/<system>/<name>.html (no Markdown twin); frees p. */
static int S_system_page(const char *tmp, const void *template, hg_page *p, const hg_system *s,
	const char *name)
{
	char *rel = hg_xprintf("%s/%s", s->name, name);
	int rc = hg_site_write_page(tmp, template, p, rel, HG_PAGE_STREAM);
	free(rel);
	hg_page_free(p);
	return rc;
}

int hg_site_system_index(const char *tmp, const void *template, const hg_data *d, size_t k,
	const hg_texts *tx, const char *const *ids, size_t nids, const hg_fig *const *headlines)
{
	const hg_system *s = &d->systems[k];
	return S_system_page(tmp, template, hg_page_system(d, s, ids, nids, headlines, tx), s,
		"index");
}

int hg_site_system(const char *tmp, const void *template, const hg_data *d, size_t k,
	const hg_texts *tx, const char *const *ids, size_t nids, const hg_fig *const *rows,
	size_t n, const hg_yardsticks *y, int compare, int ebash)
{
	const hg_system *s = &d->systems[k];

	if (S_system_page(tmp, template, hg_page_method(d, s, tx), s, "method") != 0 ||
		(compare && S_compare(tmp, template, d, k, rows, n, y, tx) != 0) ||
		(ebash && S_ebash(tmp, template, d, k, rows, n, ids, nids, tx) != 0) ||
		S_sentinel(tmp, s) != 0 ||
		S_copy_own(tmp, s, "system.json", 1) != 0)
		return -1;
	return S_copy_own(tmp, s, "SHA256SUMS", 1);
}

int hg_site_catalog(const char *tmp, const hg_data *d, const char *site)
{
	char *dir = hg_xprintf("%s/data/algorithms", tmp);
	size_t i;
	int rc = d->nentries ? hg_mkdirs(dir) : 0;
	for (i = 0; i < d->nentries && rc == 0; i++) {
		char *from = hg_xprintf("%s/algorithms/%s.json", d->data_dir, d->entries[i].id);
		char *to = hg_xprintf("%s/%s.json", dir, d->entries[i].id);
		char *had = site ? hg_xprintf("%s/data/algorithms/%s.json", site, d->entries[i].id) :
			NULL;
		struct stat a, b;
		/* the site's copy is a link to the same file: nothing to do */
		if (!had || stat(from, &a) != 0 || stat(had, &b) != 0 || a.st_ino != b.st_ino ||
			a.st_dev != b.st_dev)
			rc = hg_site_copy(from, to);
		free(had);
		free(from);
		free(to);
	}
	free(dir);
	return rc;
}

int hg_imported_copy(const char *tmp, const hg_system *s)
{
	char *dir;
	size_t i;
	int rc;

	if (!s->imported)
		return 0;
	dir = hg_xprintf("%s/data/%s/%s", tmp, s->name, HG_ORIGINALS);
	rc = hg_mkdirs(dir);
	free(dir);
	for (i = 0; i < s->imported->nfiles && rc == 0; i++) {
		const hg_evfile *f = &s->imported->files[i];
		char *from, *to;
		if (f->state == HG_SUM_MISSING)
			continue;
		from = hg_xprintf("%s/%s", s->dir, f->file);
		to = hg_xprintf("%s/data/%s/%s", tmp, s->name, f->file);
		*strrchr(to, '/') = 0;
		rc = hg_mkdirs(to);
		to[strlen(to)] = '/';
		if (rc == 0)
			rc = hg_site_copy(from, to);
		free(from);
		free(to);
	}
	return rc;
}

void hg_span_page_digests(char cmp[65], char all[65], const hg_fig *rows, size_t n)
{
	hg_md *c = hg_md_new(), *a = hg_md_new();
	size_t i;
	for (i = 0; i < n; i++) {
		hg_fig_md(a, &rows[i]);
		/* the comparison page reads a library's first row and its rows at 32 and 65536 B */
		if (!i || !hg_same_lib(&rows[i - 1], &rows[i]) || rows[i].message_bytes == 32 ||
			rows[i].message_bytes == 65536)
			hg_fig_md(c, &rows[i]);
	}
	hg_md_hex(c, cmp);
	hg_md_hex(a, all);
}

void hg_span_digest(char out[65], const char *what, const char *global, const hg_system *s,
	const char *const *pages, size_t n, const hg_yardsticks *y, const char *const *ids,
	size_t nids)
{
	hg_md *m = hg_md_new();
	size_t i;

	hg_md_str(m, what);
	hg_md_str(m, global);
	hg_md_str(m, s->name);
	hg_md_str(m, s->system_sha256);
	for (i = 0; i < nids; i++)
		hg_md_str(m, ids[i]);
	for (i = 0; y && i < HG_NYARD * HG_NSIZES; i++) {
		const hg_headline_fig *h = &y->at[i / HG_NSIZES][i % HG_NSIZES];
		hg_md_num(m, h->cpb);
		hg_md_num(m, h->cycles);
		hg_md_int(m, h->mean);
		hg_iv_md(m, &h->iv);
		hg_pair_md(m, h->anchor_instance, h->anchor_implementation, &h->pair);
		hg_md_int(m, h->disturbed);
		hg_md_int(m, (long long)h->bytes);
	}
	for (i = 0; i < n; i++)
		hg_md_bytes(m, pages[i], 64);
	hg_md_hex(m, out);
}
