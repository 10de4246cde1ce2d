/* sitewide.h — the steps of a site's build: the outputs that span its pages (sitewide.c): each
 * system's comparison page, the downloads of every figure, the catalog beside the evidence, the
 * machine-speed trace and an imported system's originals; and the rebuild cache (cache.c): what
 * the previous build knew, kept beside the site ("<out>.hashgen-cache"), never in it, so a
 * rebuild reuses unchanged pages and stays byte-identical to a clean build. */
#ifndef HG_SITEWIDE_H
#define HG_SITEWIDE_H

#include "pages.h"

/* ---- the outputs that span the pages (sitewide.c) ---- */

/* The comparison page of system k of d from its rows, and the bar charts of its groups. */
int hg_site_compare(const char *tmp, const void *template, const hg_data *d, size_t k,
	const hg_fig *const *rows, size_t n, const hg_yardsticks *y, const hg_texts *tx);
/* results.csv and results.json: every figure of every system. */
int hg_site_results(const char *tmp, const hg_data *d, const hg_fig *const *rows, size_t n);
/* The originals of an imported system that no page copies (method.md, imported/…) under
 * <tmp>/data/<system>/, and the folder of its records' originals; nothing for other systems
 * (imported_site.c). */
int hg_imported_copy(const char *tmp, const hg_system *s);
/* The catalog under <tmp>/data/algorithms, so that the site's data/ renders it again. */
int hg_site_catalog(const char *tmp, const hg_data *d);

/* Into the site being built in tmp: <system>/sentinel.svg (+ .gz) and the copy of sentinel.json
 * under data/<system>/; nothing for a system that was not traced. */
int hg_site_sentinel(const char *tmp, const hg_system *s);

/* ---- the rebuild cache (cache.c): per evidence file its stat and SHA-256, per algorithm page
 * the digest of everything it was rendered from and the figures of its records (so that the
 * comparison pages and downloads need not read unchanged records again) ---- */

typedef struct {
	char *path;                /* "<system>/<relative path>" */
	unsigned long long ino, size;
	long long mtime_ns;
	char sha256[65];
} hg_cfile;

typedef struct {
	char *system, *id;
	char key[65];              /* everything the page shows */
	char own[65];              /* the page's own inputs: its evidence, system and catalog entry */
	double headline;
	hg_fig *figs;              /* the rows of its records (figures.c) */
	size_t nfigs;
} hg_cpage;

typedef struct {
	hg_cfile *files;           /* sorted by path */
	size_t nfiles;
	hg_cpage *pages;           /* sorted by system, id */
	size_t npages;
} hg_cache;

/* A missing or unreadable cache is an empty one: the build is then a clean build. */
void hg_cache_load(hg_cache *c, const char *path);
void hg_cache_clear(hg_cache *c);
const hg_cfile *hg_cache_file(const hg_cache *c, const char *path);
const hg_cpage *hg_cache_page(const hg_cache *c, const char *system, const char *id);
/* Sorts the arrays and writes them atomically. */
int hg_cache_save(const char *path, hg_cfile *files, size_t nfiles, hg_cpage *pages,
	size_t npages);

#endif
