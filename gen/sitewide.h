/* sitewide.h — the steps of a site's build: the outputs that span its pages (sitewide.c): each
 * system's comparison page, the catalog beside the evidence, the machine-speed trace and an
 * imported system's originals; the downloads of every figure, in parts with their index
 * (downloads_parts.c); and the rebuild cache (cache.c): what the previous build knew, kept
 * beside the site ("<out>.hashgen-cache"), never in it, so a rebuild reuses unchanged pages and
 * stays byte-identical to a clean build. */
#ifndef HG_SITEWIDE_H
#define HG_SITEWIDE_H

#include <stdio.h>

#include "pages.h"

/* ---- the outputs that span the pages (sitewide.c) ---- */

/* The pages of system k of d: its index (headlines as hg_page_index's, over ids), its method
 * page, its comparison page with the bar charts of its groups (from rows, its figures, and y,
 * its yardsticks), its eBASH-style table, its machine-speed trace, and the copies of
 * system.json and SHA256SUMS. */
int hg_site_system(const char *tmp, const void *template, const hg_data *d, size_t k,
	const hg_texts *tx, const char *const *ids, size_t nids, const hg_fig *const *headlines,
	const hg_fig *const *rows, size_t n, const hg_yardsticks *y);
/* The originals of an imported system that no page copies (method.md, imported/…) under
 * <tmp>/data/<system>/, and the folder of its records' originals; nothing for other systems. */
int hg_imported_copy(const char *tmp, const hg_system *s);
/* The catalog under <tmp>/data/algorithms, so that the site's data/ renders it again. */
int hg_site_catalog(const char *tmp, const hg_data *d);

/* ---- the downloads (downloads_parts.c): every figure of a system, in parts of
 * HG_PART_ALGORITHMS of its algorithms (partition.c), and the field index of every part ---- */

/* What the index says of one part. The strings are its own (hg_part_info_clear). */
typedef struct {
	char *system;
	size_t part;                /* numbered from 1 */
	char *first_id, *last_id;   /* its first and last algorithm; NULL when it holds none */
	size_t algorithms;          /* how many of the system's algorithms lie in that range */
	size_t figures;             /* its rows */
	char *csv, *json;           /* relative to the site's root: "x86_1/results-001.csv" */
	hg_filesum csv_sum, json_sum; /* their size and SHA-256 (of the file, not its .gz twin) */
} hg_part_info;

/* Part `part` of system `system` of d: <tmp>/<system>/results-<NNN>.csv and .json (the columns
 * and the schema hashbench.results/1 of the whole field's, systems holding this system alone,
 * described), each with its .gz twin, from rows (n of them: the figures of the algorithms
 * first_id … last_id, in page order; both NULL and no rows for a system without algorithms).
 * *out is filled, the sizes and SHA-256 computed as the files are written; on failure it is
 * left empty. A row of another system or algorithm is an error. */
int hg_site_results_part(const char *tmp, const hg_data *d, size_t system, size_t part,
	const char *first_id, const char *last_id, const hg_fig *const *rows, size_t n,
	hg_part_info *out);
/* <tmp>/results-index.json (hashbench.results-index/1) and results-index.csv, each with its .gz
 * twin: one entry per part, in the order given (system by system, part by part). */
int hg_site_results_index(const char *tmp, const hg_part_info *parts, size_t nparts);
void hg_part_info_clear(hg_part_info *p);


/* ---- the algorithm pages (site_pages.c) ---- */

/* The pages of every algorithm on every system that has it, one job each. */
typedef struct hg_algpages hg_algpages;

typedef struct {
	const hg_data *d;
	const hg_texts *tx;
	const void *template;      /* the parsed skeleton (hg_template_load) */
	const char *tmp;           /* the site being built */
	const char *old;           /* the previous site to reuse pages from; NULL: none */
	const char *cache_path;    /* the previous build's rebuild cache, read when old is set */
	const char *global;        /* digest of the generator and the templates the pages use */
	const char *const *ids;    /* every algorithm id, sorted */
	size_t nids;
	int strict;                /* a warning about an evidence file fails its page */
} hg_algpages_in;

/* Plan the jobs (the strings of in are borrowed until hg_algpages_free) and compute the
 * yardsticks of every system. *out is set even on failure: free it. */
int hg_algpages_new(hg_algpages **out, const hg_algpages_in *in);
/* Render the pages with jobs threads (0: one per CPU). Every job's warnings go to warnings
 * (NULL: dropped) in job order, counted into *nwarnings; headlines[system * nids + algorithm]
 * gets the headline of each page (see hg_page_algorithm). */
int hg_algpages_render(hg_algpages *ap, int jobs, FILE *warnings, size_t *nwarnings,
	const hg_fig **headlines);
size_t hg_algpages_count(const hg_algpages *ap);
const hg_yardsticks *hg_algpages_yardsticks(const hg_algpages *ap, size_t k);
/* The rows of system k's pages (every system's when k is (size_t)-1) in the order of the jobs:
 * system by system, algorithm by algorithm, each in page order. The caller frees the array. */
const hg_fig **hg_algpages_rows(const hg_algpages *ap, size_t k, size_t *n);
/* Move the reused pages and their evidence copies from the previous site into the new one
 * (undone when a move fails, so the previous site stays whole); move them back when the new
 * site could not be put in place. */
int hg_algpages_move_reused(const hg_algpages *ap);
void hg_algpages_move_back(const hg_algpages *ap);
/* The rebuild cache of this build, written atomically to path, with the stat of each page as
 * it now lies in site (the folder the new site was put in place as). */
int hg_algpages_save_cache(const hg_algpages *ap, const char *site, const char *path);
void hg_algpages_free(hg_algpages *ap);

/* ---- the rebuild cache (cache.c): per evidence file its stat and SHA-256, per algorithm page
 * the stat of the page the build left, the digest of everything it was rendered from and the
 * figures of its records (so that the comparison pages and downloads need not read unchanged
 * records again) ---- */

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
	/* <system>/<id>.html as the build that wrote the cache left it: a page whose stat differs is
	 * not the one the cache describes (a cache copied from another site, or kept from before) */
	unsigned long long page_ino, page_size;
	long long page_mtime_ns;
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
