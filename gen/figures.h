/* figures.h — the figures as data (figures.c): every timed record as one row of raw figures, the
 * derived figures and spread of a record, the headline figure with the mean as its fallback, the
 * records in page order and each system's yardsticks; and the parts a system's downloads come in
 * (partition.c). Computed from the evidence; nothing here knows a page. */
#ifndef HG_FIGURES_H
#define HG_FIGURES_H

#include "evidence.h"

/* ---- the parts the downloads of a system come in (partition.c) ---- */

/* A system's algorithms (s->algorithms, in that order) are cut into parts of this many; part p
 * (from 1) holds the p-th hundred. A system without algorithms has one part, holding none. */
#define HG_PART_ALGORITHMS 100

size_t hg_parts_count(const hg_system *s);
/* How many algorithms part p holds, *first and *last its first and last id (borrowed from s;
 * NULL when it holds none). */
size_t hg_part_range(const hg_system *s, size_t part, const char **first, const char **last);
/* The part that holds algorithm id; 0 when s has no evidence of it. */
size_t hg_part_of(const hg_system *s, const char *id);
/* "results-001": the name (without .csv or .json) of part p's files in its system's folder,
 * zero-padded to three digits, more when needed; buf of at least 32 bytes. */
char *hg_part_name(char *buf, size_t n, size_t part);

/* ---- the figures of every timed record (figures.c) ---- */

/* The message sizes of the guide (S1–S8), the x axis of the charts. */
#define HG_NSIZES 8
extern const unsigned long long hg_sizes[HG_NSIZES];

/* A headline's interval as the pages, charts and downloads use it: its state, its bounds per call
 * and per byte, its half-width and the precision asked for, in % of the headline. */
typedef struct {
	hg_iv_state state;       /* HG_IV_NONE: no interval, the numbers are then -1 */
	double low_cycles, high_cycles, low_cpb, high_cpb;
	double half_pct, target_pct;
} hg_iv;

/* A figure's paired ratio to its campaign's anchor at its message size (headline.paired of its
 * record, evidence.h): with another figure's against the same anchor in the same campaign, the
 * ratio of the two comes from the pairs (hg_ratio_of). */
typedef struct {
	double ratio, low, high; /* the ratio to the anchor and its 95 % interval */
	long long seed;          /* the campaign's */
	int self;                /* the anchor's own figure: exactly 1 */
	int wide;                /* its interval is wide (above the noise threshold) */
} hg_pair;

/* The figures of a row that only its own page, its chart and the downloads show: NULL in the rows
 * the outputs spanning the field keep (hg_figs_spanning), so that those stay small. */
typedef struct {
	char *status;
	char *record;            /* the record's copy in the site: data/<system>/records/<id>/… */
	char *record_sha256;     /* its SHA-256, in record's allocation; NULL: none (hg_fig_set_record) */
	double mean_cycles, cycles_per_byte, mean_ns;
	unsigned long long calls;
	size_t rounds;
	double median_cycles, spread_pct; /* < 0: no single-call samples */
	int unstable;
	long long baseline_rss_kib; /* -1: not recorded */
	long long heap_allocations, mmap_bytes, text_bytes, data_bytes; /* -1: not recorded */
} hg_fig_more;

/* One timed record as a row of the downloads, the comparison pages and the charts: its raw
 * figures at full precision (the pages round them; the downloads do not). */
typedef struct {
	char *system, *algorithm, *instance, *implementation;
	const char *unit;        /* of the counter figures: hg_unit_name of the system (static) */
	char *kat;               /* the record's KAT result, else its library's; NULL: none */
	hg_fig_more *more;       /* the rest, owned by the row (hg_fig_more_of); NULL: not kept */
	unsigned long long message_bytes;
	long long output_bytes;  /* -1: not recorded */
	int ok;                  /* status ok and the rounds give figures; else the figures are 0 */
	int disturbed;
	double mb_per_s;
	/* the headline figure the comparisons use; for earlier evidence the mean's, estimator
	 * "mean" (NULL when !ok) */
	double headline_cycles, headline_cpb;
	char *headline_estimator;
	hg_iv headline_iv;       /* its interval */
	char *anchor_instance, *anchor_implementation; /* pair's anchor; NULL: no paired ratio */
	hg_pair pair;
	long long static_bytes, peak_rss_kib; /* -1: not recorded */
	long long stack_bytes, heap_peak_bytes; /* -1: not recorded */
	char *supercop_path;     /* a SUPERCOP implementation's path in its tree; NULL: not one */
	char *compiler;          /* the SUPERCOP compiler setting it was built with; NULL: none */
} hg_fig;

/* The rows of an algorithm's records on a system, in the order of its page. */
int hg_figs_of(hg_fig **out, size_t *n, const hg_data *d, const hg_system *s, const char *id,
	const hg_sysalg *sa);
void hg_figs_free(hg_fig *figs, size_t n);
void hg_fig_clear(hg_fig *f);
/* f's more, made (zeroed, the memory figures -1) when it has none. */
hg_fig_more *hg_fig_more_of(hg_fig *f);
/* f's more to read, or one that records nothing (as hg_fig_more_of makes it). */
const hg_fig_more *hg_fig_more_get(const hg_fig *f);
/* f's record, a malloc'd path that f takes (NULL: none), with its SHA-256 (NULL, or not 64
 * characters, when not known) appended to the same allocation. */
void hg_fig_set_record(hg_fig *f, char *record, const char *sha256);
/* Is the instance extendable-output (its name says XOF or SHAKE)? SUPERCOP's crypto_hash has
 * a fixed output length, so none of its primitives is. */
int hg_fig_xof(const hg_fig *f);

/* ---- a record's figures ---- */

/* The records in page order: the catalog's parameter sets, reference first, then size. The
 * caller frees the array (the records stay sa's). */
hg_record **hg_records_sorted(const hg_sysalg *sa, const hg_entry *e);
/* The KAT summaries in the same order; the caller frees the array. */
hg_kat **hg_kats_sorted(const hg_sysalg *sa, const hg_entry *e);
/* The derived figures of a record's rounds (genutil.h); 0, or -1 when they give none. */
int hg_record_figures(hg_figures_t *f, const hg_record *r);
/* The headline of an algorithm on a system from its rows in page order: the row at 65536 B of
 * the first reference instance (a SUPERCOP primitive: of its fastest implementation that
 * passed); NULL when there is none. */
const hg_fig *hg_figs_headline(const hg_fig *figs, size_t n);
/* The rows of figs (a page's, in page order) that the outputs spanning the field read (the
 * comparison page, the eBASH-style table, the index's headline): each library's first row, its
 * rows at 8, 32, 64, 576, 1536, 4096 and 65536 B, its longest row and its longest that passed,
 * in the same order, with their strings in the same block (more NULL: the downloads read the
 * page's own rows). *nout gets how many, *size (unless NULL) the block's bytes; free() the block
 * (figtable.c). */
hg_fig *hg_figs_spanning(const hg_fig *figs, size_t n, size_t *nout, size_t *size);
/* A block of hg_figs_spanning's (n rows, size bytes) copied to block from where it was made
 * (was): its strings pointed at their new place. */
void hg_figs_relocate(hg_fig *block, size_t n, const void *was, size_t size);
/* keep[i] (n of them): is figs[i] one of those rows? */
void hg_figs_spanning_mask(const hg_fig *figs, size_t n, char *keep);
/* ---- blocks of rows set aside in a temporary file (spill.c) ---- */

typedef struct hg_spill hg_spill;
/* Where a block went: its offset, bytes and rows, and its address when it was written. */
typedef struct {
	long long at;
	size_t size, n;
	const void *was;
} hg_spill_block;

/* An unnamed file in folder dir, gone when closed; NULL with the error set. */
hg_spill *hg_spill_open(const char *dir);
void hg_spill_close(hg_spill *s);
/* A block of hg_figs_spanning's (n rows, size bytes) written to s, *b told where; any thread. */
int hg_spill_put(hg_spill *s, hg_spill_block *b, const hg_fig *block, size_t n, size_t size);
/* The bytes a block takes when read back, a multiple of a row's alignment. */
size_t hg_spill_room(const hg_spill_block *b);
/* The block read back into into (hg_spill_room(b) bytes), its strings pointing there. */
int hg_spill_get(hg_spill *s, const hg_spill_block *b, hg_fig *into);

/* Every field of a row a page can show, or of an interval, into a digest (figtable.c). */
void hg_fig_md(hg_md *m, const hg_fig *f);
void hg_iv_md(hg_md *m, const hg_iv *iv);
/* A paired ratio with its anchor (NULL: none) into a digest. */
void hg_pair_md(hg_md *m, const char *anchor_instance, const char *anchor_implementation,
	const hg_pair *p);
/* Median of the single-call samples and their interquartile range in % of it; -1: too few. */
int hg_record_spread(const hg_record *r, double *median, double *pct);

/* The estimator named for evidence without a headline: the guide's mean stands in. */
#define HG_ESTIMATOR_MEAN "mean"

/* The headline of one figure as the pages show it: the value, its interval and what marks it. */
typedef struct {
	double cycles, cpb;
	const char *estimator;   /* borrowed (or static); NULL in a copy that outlives its record */
	int mean;                /* the guide's mean stands in (evidence of an earlier hashbench) */
	hg_iv iv;                /* its interval */
	int disturbed;           /* the record's "disturbed" */
	unsigned long long bytes; /* the message size */
	/* its paired ratio's anchor (borrowed; NULL: none, pair is then unset) and the ratio */
	const char *anchor_instance, *anchor_implementation;
	hg_pair pair;
} hg_headline_fig;
/* The headline of a record whose guide's figures (from its rounds) are mean: the record's own
 * with its interval, else the mean's with estimator "mean". */
void hg_headline_of(hg_headline_fig *out, const hg_record *r, const hg_figures_t *mean);
/* No interval: state HG_IV_NONE, the numbers -1. */
void hg_iv_none(hg_iv *iv);
/* The half-width of a headline's interval per byte (or per call); -1 when it has none. */
double hg_headline_half(const hg_headline_fig *h, int per_call);
/* The headline of a row of figures (ok), as hg_headline_of gave it. */
void hg_headline_of_fig(hg_headline_fig *out, const hg_fig *f);

/* Were two headlines timed paired: each beside the same anchor in the same campaign, at the same
 * message size? */
int hg_paired(const hg_headline_fig *a, const hg_headline_fig *b);
/* Is the first of two paired ratios faster than the second beyond noise: the high end of their
 * quotient's interval (hg_ratio_of) below 1? */
int hg_pair_faster(const hg_pair *a, const hg_pair *b);
/* Are two headlines within noise of each other? Paired: does the interval of their ratio hold 1
 * (neither is faster beyond noise)? Else: does either have an interval, and do their intervals
 * (a point for a figure without one) overlap? */
int hg_within_noise(const hg_headline_fig *a, const hg_headline_fig *b);
/* Is a faster than b beyond noise? Paired: hg_pair_faster; else a's interval (or point) wholly
 * below b's. */
int hg_faster_beyond_noise(const hg_headline_fig *a, const hg_headline_fig *b);
/* The low and high ends of a headline's interval per byte (the figure itself when it has none). */
void hg_headline_bounds(const hg_headline_fig *h, double *lo, double *hi);

/* The ratio of one headline to another per byte, with its interval. Two figures timed paired
 * (hg_paired) give the quotient of their ratios to the anchor, its interval the two relative
 * half-widths combined in quadrature in log space (with the anchor's own figure as ref, exactly
 * x's ratio and interval). Otherwise the two were measured at different moments (unpaired), so
 * their errors add: the interval runs from x's low bound over ref's high one to x's high bound
 * over ref's low one. */
typedef struct {
	double ratio;            /* x / ref */
	double low, high;        /* its interval; -1: none (either figure has no interval) */
	int same;                /* x is ref's own figure: exactly 1, bounds 1 when it has one */
	int paired;              /* from the two figures' paired ratios */
	int wide;                /* paired, and either paired ratio's interval is wide */
} hg_ratio;
/* How a ratio's interval was found, as the downloads name it (ratio_method): from the pairs of
 * two figures timed paired with the campaign's anchor; from the two figures' intervals; a ratio of
 * evidence without intervals is the two headlines divided. */
#define HG_RATIO_PAIRED "paired-anchor"
#define HG_RATIO_UNPAIRED "unpaired-intervals"
#define HG_RATIO_HEADLINES "unpaired-headlines"
/* The ratio of x to ref per byte; -1 when either has no figure (out->ratio is then -1). */
int hg_ratio_of(hg_ratio *out, const hg_headline_fig *x, const hg_headline_fig *ref);
/* The headline of the first of recs that is like's instance and implementation at bytes and
 * measured; -1 when there is none (out->cpb is then -1). */
int hg_records_headline_at(hg_headline_fig *out, hg_record *const *recs, size_t n,
	const hg_record *like, unsigned long long bytes);
/* The record's memory figures into its row of raw figures. */
void hg_memory_to_fig(hg_fig *f, const hg_record *r);

/* ---- the yardsticks ---- */

/* The yardsticks of a system: the headlines of SM3 and SHA-256, reference and OpenSSL, at each
 * size of hg_sizes (cpb < 0 when not measured there; estimator NULL; their paired ratios' anchors
 * the yardsticks' own copies, freed by hg_yardsticks_clear). */
#define HG_NYARD 4
typedef struct {
	hg_headline_fig at[HG_NYARD][HG_NSIZES];
} hg_yardsticks;
#define HG_AT_1024 3
#define HG_AT_65536 7
extern const char *const hg_yard_names[HG_NYARD]; /* "SM3 (reference)", … */
void hg_yardsticks_of(hg_yardsticks *out, const hg_sysalg *sm3, const hg_sysalg *sha2);
void hg_yardsticks_clear(hg_yardsticks *y);

/* The rows of one algorithm on one system (figures.c). */
typedef struct {
	const hg_system *system;
	const hg_fig *figs;
	size_t nfigs;
	const long long *kats;   /* its libraries' KAT results counted (HG_KAT_TALLY); NULL: not */
} hg_sysfigs;

/* ---- the field compared (figures_compare.c) ---- */

/* The digest-length groups of the comparison page, in page order. */
#define HG_NGROUPS 7
typedef struct {
	const char *key;       /* "256", …, "xof", "other": names the group's bar chart */
	const char *heading;   /* "256-bit digests" */
	long long bits;        /* the digest length; -2 extendable output, -1 other */
} hg_group;
extern const hg_group hg_groups[HG_NGROUPS];

/* One library (an instance and implementation of an algorithm) among a system's rows. */
typedef struct {
	const hg_fig *any;       /* its first row */
	const hg_fig *f32, *f64k; /* its measured rows at 32 and 65536 B; NULL: none */
	size_t group;            /* index in hg_groups */
	size_t order;            /* its place among the rows */
} hg_lib;

/* The libraries of rows (a library's rows consecutive), in group order, each group sorted by
 * headline cycles/byte at 65536 B, fastest first, those without one last in row order; *nlibs
 * gets how many. The caller frees the array. */
hg_lib *hg_libs_of(const hg_fig *const *rows, size_t n, size_t *nlibs);
/* Are two rows of the same library? */
int hg_same_lib(const hg_fig *a, const hg_fig *b);
/* Is the algorithm a yardstick's (sm3, sha2, sha3)? */
int hg_yardstick_alg(const char *id);
/* Does any row have figures (is there anything to draw)? */
int hg_figs_have_figures(const hg_fig *figs, size_t n);
/* rank[i]: 1 + how many of figs are faster than figs[i] beyond noise (hg_faster_beyond_noise
 * of their headlines per byte), so that figures within noise of each other share a rank; 0 where
 * figs[i] is NULL. */
void hg_ranks(size_t *rank, const hg_fig *const *figs, size_t n);

#endif
