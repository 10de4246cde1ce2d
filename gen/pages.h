/* pages.h — building the page models of the site from the evidence (pages.c, prose.c). */
#ifndef HG_PAGES_H
#define HG_PAGES_H

#include "format.h"
#include "hashgen.h"
#include "model.h"

/* Value of a {placeholder}, or NULL to leave it as written. */
typedef const char *(*hg_lookup_fn)(void *ctx, const char *name);

int hg_prose(hg_arena *a, hg_node *parent, const char *markdown, hg_lookup_fn lookup, void *ctx);
int hg_prose_inline(hg_arena *a, hg_node *parent, const char *markdown, hg_lookup_fn lookup,
	void *ctx);

/* The records in page order: the catalog's parameter sets, reference first, then size. The
 * caller frees the array (the records stay sa's). */
hg_record **hg_records_sorted(const hg_sysalg *sa, const hg_entry *e);
/* The derived figures of a record's rounds (format.h); 0, or -1 when they give none. */
int hg_record_figures(hg_figures_t *f, const hg_record *r);
/* Median of the single-call samples and their interquartile range in % of it; -1: too few. */
int hg_record_spread(const hg_record *r, double *median, double *pct);

typedef struct {
	const char *attribution; /* templates/attribution.md */
	const char *method;      /* templates/method.md */
	const char *generator;   /* "hashgen 0.1.0 (git abc1234)" */
} hg_texts;

/* The yardsticks of a system: cycles/byte of SM3 and SHA-256, reference and OpenSSL, at each
 * size of hg_sizes (< 0 when not measured there). */
#define HG_NYARD 4
typedef struct {
	double cpb[HG_NYARD][HG_NSIZES];
} hg_yardsticks;
#define HG_AT_1024 3
#define HG_AT_65536 7
extern const char *const hg_yard_names[HG_NYARD]; /* "SM3 (reference)", … */
void hg_yardsticks_of(hg_yardsticks *out, const hg_sysalg *sm3, const hg_sysalg *sha2);

/* The rows of one algorithm on one system (figures.c). */
typedef struct {
	const hg_system *system;
	const hg_fig *figs;
	size_t nfigs;
} hg_sysfigs;

/* The page of an algorithm on system s. all: its rows on every system that has it (s among
 * them), for the "On other systems" table; chart: the page shows <id>.svg. The headline of an
 * algorithm on a system: cycles/byte at 65536 B of the first reference instance; < 0 when there
 * is none. */
hg_page *hg_page_algorithm(const hg_data *d, const hg_system *s, const char *id,
	const hg_sysalg *sa, const hg_yardsticks *y, const hg_texts *t, const hg_sysfigs *all,
	size_t nall, int chart, double *out_headline);
/* headlines[system * nids + algorithm]: see hg_page_algorithm */
hg_page *hg_page_index(const hg_data *d, const char *const *ids, size_t nids,
	const double *headlines, const hg_texts *t);
hg_page *hg_page_system(const hg_data *d, const hg_system *s, const char *const *ids,
	size_t nids, const double *headlines, const hg_texts *t);
hg_page *hg_page_method(const hg_data *d, const hg_system *s, const hg_texts *t);
/* One row of an evidence index table (instance, item, file linked to its copy, sha256 with how
 * it compares with SHA256SUMS); returns the sha256 cell. */
hg_node *hg_evidence_row(hg_arena *a, hg_node *t, const hg_system *s, const hg_evfile *f,
	const char *inst, const char *item);

/* ---- a system measured by another tool and imported, on its pages (imported_site.c); each
 * adds nothing for a system hashbench measured ---- */

/* The footers' attribution: "measured by hashbench 0.1.0 (git abc1234)", or "measured with
 * ngcc-harness (git 43b4800b0f7d) and imported by hashbench 0.1.0 (git abc1234)". */
const char *hg_measured_by(hg_arena *a, const hg_system *s);
/* The algorithm page's attribution paragraph: who measured, who imported, the method page. */
void hg_imported_attribution(hg_arena *a, hg_node *para, const hg_system *s);
/* The paragraph under the performance table when the tool timed no single calls; 1 when it was
 * added (instead of hashbench's own). */
int hg_imported_perf_note(hg_arena *a, hg_node *body, const hg_system *s, hg_record **recs,
	size_t n);
/* How the tool checked the KAT files, from the summaries' notes. */
void hg_imported_kat_note(hg_arena *a, hg_node *body, const hg_system *s, const hg_sysalg *sa);
/* The evidence index: a sentence on the originals; what an original is (0: not one); the
 * warnings of a record whose original is missing or of an original no record names as it is. */
void hg_imported_evidence_note(hg_arena *a, hg_node *para, const hg_system *s);
int hg_imported_describe(hg_arena *a, const hg_system *s, const char *rel, const char **inst,
	const char **item);
void hg_imported_check(hg_arena *a, hg_node *cell, const hg_system *s, const hg_sysalg *sa,
	const hg_evfile *f);
/* The site index: which systems were imported, each linked to its method page. */
void hg_imported_index_note(hg_arena *a, hg_node *body, const hg_data *d);
/* The method page's body: the tool's own method page rendered by cmark, what protected the
 * machine, and the system's originals with their SHA-256. */
void hg_imported_method(hg_arena *a, hg_node *body, const hg_system *s);

#endif
