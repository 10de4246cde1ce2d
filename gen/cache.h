/* cache.h — what the previous build of a site knew: per evidence file its stat and SHA-256, per
 * algorithm page the digest of everything it was rendered from and the figures of its records
 * (so that the comparison pages and downloads need not read unchanged records again). Kept beside the site
 * ("<out>.hashgen-cache"), never in it, so a rebuild reuses unchanged pages and stays
 * byte-identical to a clean build. */
#ifndef HG_CACHE_H
#define HG_CACHE_H

#include <stddef.h>

#include "hashgen.h"

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
