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

/* The index page of system k of d: its algorithms over ids with their headlines (as
 * hg_page_index's). */
int hg_site_system_index(const char *tmp, const void *template, const hg_data *d, size_t k,
	const hg_texts *tx, const char *const *ids, size_t nids, const hg_fig *const *headlines);
/* The other pages of system k of d: its method page, its comparison page with the bar charts of
 * its groups (from rows, its figures, and y, its yardsticks), its eBASH-style table, its
 * machine-speed trace, and the copies of system.json and SHA256SUMS. */
int hg_site_system(const char *tmp, const void *template, const hg_data *d, size_t k,
	const hg_texts *tx, const char *const *ids, size_t nids, const hg_fig *const *rows,
	size_t n, const hg_yardsticks *y, int compare, int ebash);
/* (compare 0: no comparison page; ebash 0: no eBASH-style table: a rebuild's are still right.)
 * What a page adds to the digests of its system's spanning outputs, from its spanning rows
 * (hg_figs_spanning): cmp what the comparison page reads of them (a library's first row and its
 * rows at 32 and 65536 B), all every row (the eBASH-style table). */
void hg_span_page_digests(char cmp[65], char all[65], const hg_fig *rows, size_t n);
/* The digest of what a spanning output (what names it: "compare" or "ebash") of system s shows:
 * the generator and templates (global), s, the yardsticks y (NULL: none), ids and its pages'
 * digests in page order (hg_span_page_digests' cmp for "compare", all for "ebash"). */
void hg_span_digest(char out[65], const char *what, const char *global, const hg_system *s,
	const char *const *pages, size_t n, const hg_yardsticks *y, const char *const *ids,
	size_t nids);
/* The originals of an imported system that no page copies (method.md, imported/…) under
 * <tmp>/data/<system>/, and the folder of its records' originals; nothing for other systems. */
int hg_imported_copy(const char *tmp, const hg_system *s);
/* The catalog under <tmp>/data/algorithms, so that the site's data/ renders it again; an entry
 * whose copy in site (a rebuild's previous site; NULL: none) links the same file is skipped. */
int hg_site_catalog(const char *tmp, const hg_data *d, const char *site);

/* ---- an algorithm across every system (site_across.c) ---- */

/* <tmp>/algorithms/<id>.html, .md and .svg (a chart when any system has figures) from the rows
 * of every system that has id (hg_page_across); the folder is made with the site's. */
int hg_site_across(const char *tmp, const void *template, const hg_data *d, const hg_texts *tx,
	const char *id, const hg_sysfigs *all, size_t nall);

/* ---- the downloads' parts as the pages complete them (site_parts.c) ---- */

typedef struct hg_parts hg_parts;
/* Called, on the thread that finished it, once per part (numbered from 1) of system k's
 * algorithms first_id … last_id (nalg of them; NULL and 0 for a system without algorithms)
 * when its last page is done; digest names what it
 * shows (the generator, the system, each page's own inputs). It may read the part's rows with
 * hg_parts_rows. */
typedef int (*hg_part_fn)(void *arg, size_t k, size_t part, const char *first_id,
	const char *last_id, size_t nalg, const char *digest, hg_parts *p);
/* The parts of every system of d over ids (sorted, nids), the pages' cache entries in cache. */
hg_parts *hg_parts_new(const hg_data *d, const char *const *ids, size_t nids, const char *cache,
	const char *global, hg_part_fn fn, void *arg);
/* The page of algorithm ids[ai] on system k is done: own its inputs' digest, figs its rows
 * (taken; NULL: read them back from the cache when needed). Runs fn when it was the part's last. */
int hg_parts_page_done(hg_parts *p, size_t k, size_t ai, const char *own, hg_fig *figs,
	size_t nfigs);
/* The parts without pages (a system without algorithms: one, empty), handed to fn, once every
 * page is done. */
int hg_parts_finish(hg_parts *p);
/* Every row of a part, in page order (free with hg_figs_free). */
int hg_parts_rows(hg_parts *p, size_t k, size_t part, hg_fig **out, size_t *n);
void hg_parts_free(hg_parts *p);

/* ---- the keys an algorithm page is reused by (pagekeys.c) ---- */

/* The digest of page id of system s's own inputs: the generator and templates (global),
 * system.json, the catalog entry, the part of the downloads it links to, the systems that list
 * the algorithm, the digest of the system's yardsticks (yard_key, 64 hex digits), every evidence
 * file with its SHA-256 and every SHA256SUMS line of its folders. */
void hg_page_own_key(char out[65], const char *global, const hg_data *d, const hg_system *s,
	const char *id, const char *yard_key, const hg_evfile *files, size_t n, const hg_sum *sums,
	size_t nsums);
/* The digest of all the page shows: its own inputs (own, hg_page_own_key) and what its "On other
 * systems" table shows of all, the rows of the algorithm on every system. */
void hg_page_final_key(char out[65], const char *own, const hg_sysfigs *all, size_t nall);

/* ---- a rebuild put in place (site_commit.c) ---- */

/* The files of stage (a rebuild's changes, laid out as the site) into site: each file replaces
 * the site's unless it is the same (the same inode or bytes; an algorithm page's own files, those
 * of <system>/<id>.* for an id of ids (sorted), always replace it), a page's evidence folders are
 * swapped whole; then each of stale (relative to the site) not in stage is removed, and stage
 * with it. The counts of what it did go to n. A failure leaves the files not yet put in place as
 * they were. */
typedef struct {
	size_t replaced, swapped, removed; /* files put in place, folders swapped, files removed */
} hg_commit_counts;
int hg_site_commit(const char *stage, const char *site, const char *const *ids, size_t nids,
	char *const *stale, size_t nstale, hg_commit_counts *n);

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
 * first_id … last_id, in page order; both NULL and no rows for a system without algorithms),
 * their ratios to the system's yardsticks y (NULL: none).
 * *out is filled, the sizes and SHA-256 computed as the files are written; on failure it is
 * left empty. A row of another system or algorithm is an error. */
int hg_site_results_part(const char *tmp, const hg_data *d, size_t system, size_t part,
	const char *first_id, const char *last_id, const hg_fig *const *rows, size_t n,
	const hg_yardsticks *y, hg_part_info *out);
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
	const char *tmp;           /* the site being built, or the folder of a rebuild's changes */
	const char *site;          /* a rebuild in place: the previous site; NULL: a clean build */
	const char *cache_in;      /* the previous build's cache folder; NULL: a clean build */
	const char *cache_out;     /* where this build's cache entries go (may be cache_in) */
	const char *global;        /* digest of the generator and the templates the pages use */
	const char *const *ids;    /* every algorithm id, sorted */
	size_t nids;
	int strict;                /* a warning about an evidence file fails its page */
	hg_parts *parts;           /* told of each page done (NULL: none) */
} hg_algpages_in;

/* Plan the jobs (the strings of in are borrowed until hg_algpages_free) and compute the
 * yardsticks of every system. *out is set even on failure: free it. */
int hg_algpages_new(hg_algpages **out, const hg_algpages_in *in);
/* Render the pages with jobs threads (0: one per CPU). Every job's warnings go to warnings
 * (NULL: dropped) in job order, counted into *nwarnings. */
int hg_algpages_render(hg_algpages *ap, int jobs, FILE *warnings, size_t *nwarnings);
/* The algorithm pages, the pages across systems among them. */
size_t hg_algpages_count(const hg_algpages *ap);
/* Each page's part of system k's spanning digests (hg_span_page_digests: cmp when compare, else
 * all), in the order of the jobs; the caller frees the array, not the strings. */
const char **hg_algpages_span_digests(const hg_algpages *ap, size_t k, int compare, size_t *n);
/* The pages rendered (not reused from the previous build) by hg_algpages_render. */
size_t hg_algpages_rendered(const hg_algpages *ap);
const hg_yardsticks *hg_algpages_yardsticks(const hg_algpages *ap, size_t k);
/* The rows the spanning outputs read (hg_figs_spanning) of system k's pages (every system's when
 * k is (size_t)-1) in the order of the jobs: system by system, algorithm by algorithm, each in
 * page order, read back from where the pages set them aside. The caller frees the array (the rows
 * are in the same allocation); NULL with the error set when they cannot be read back. */
const hg_fig **hg_algpages_rows(const hg_algpages *ap, size_t k, size_t *n);
/* The headline of each page of every system (see hg_page_algorithm) read back into
 * headlines[system * nids + algorithm] (a page without one leaves its slot as it was); returns
 * the allocation that holds them, for free(), or NULL with the error set. */
void *hg_algpages_headlines(const hg_algpages *ap, const hg_fig **headlines);
/* The KAT results of system k's libraries, counted over its pages (hg_kat_tally's order), into
 * out. */
void hg_algpages_kats(const hg_algpages *ap, size_t k, long long out[HG_KAT_TALLY]);
/* The files (relative to the site) a rebuild in place must remove: the charts of pages
 * rendered again without one. */
void hg_algpages_stale(const hg_algpages *ap, char ***v, size_t *n);
void hg_algpages_free(hg_algpages *ap);

/* ---- the rebuild cache (cache.c): a folder beside the site ("<out>.hashgen-cache"): per
 * algorithm page a file "<system>/<id>" with the stat of the page the build left, the digest of
 * everything it was rendered from, its evidence files' stat and SHA-256 and the figures of its
 * records (so that the outputs that span the pages need not read unchanged records again), read
 * one page at a time; and "meta", the digests of the build as a whole and of the outputs that
 * span the pages ---- */

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
	int all;                   /* 0: figs holds only the rows the spanning outputs read */
	hg_cfile *files;           /* its evidence files, sorted by path */
	size_t nfiles;
	long long kats[HG_KAT_TALLY]; /* its libraries' KAT results, counted (hg_kat_tally) */
} hg_cpage;

/* The page's file in the cache folder dir, with all its rows or (all 0) only those the spanning
 * outputs read: 0, or -1 when it is missing, of another version or damaged (*p is then empty:
 * the page is built as in a clean build). */
int hg_cache_page_load(hg_cpage *p, const char *dir, const char *system, const char *id,
	int all);
void hg_cpage_clear(hg_cpage *p);
/* An empty entry on the heap (aborts when out of memory); *p cleared, freed and set to NULL. */
hg_cpage *hg_cpage_new(void);
void hg_cpage_free(hg_cpage **p);
struct stat;
/* A file's modification time in nanoseconds, as the cache keeps it. */
long long hg_mtime_ns(const struct stat *st);
/* The stat of the page p describes: remembered; compared (1: that page, as the build left it). */
void hg_cpage_set_page(hg_cpage *p, const struct stat *st);
int hg_cpage_is_page(const hg_cpage *p, const struct stat *st);
const hg_cfile *hg_cpage_file(const hg_cpage *p, const char *path);
/* Write p (its files given apart, sorted by path) atomically into dir/<system>/, which exists. */
int hg_cache_page_save(const char *dir, const hg_cpage *p, const hg_cfile *files, size_t nfiles);

/* "meta": named values, one per line. */
typedef struct {
	char **names, **values;
	size_t n;
} hg_cmeta;

/* 0, or -1 (*m empty) when missing or of another version. */
int hg_cmeta_load(hg_cmeta *m, const char *dir);
const char *hg_cmeta_get(const hg_cmeta *m, const char *name);
void hg_cmeta_set(hg_cmeta *m, const char *name, const char *value);
int hg_cmeta_save(const hg_cmeta *m, const char *dir);
void hg_cmeta_clear(hg_cmeta *m);

#endif
