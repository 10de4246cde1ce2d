/* headline.h — the headline figure on the pages (headline.c): its value with the guide's mean as
 * the fallback, the small marks of unstable and disturbed figures and their legend, and the
 * method page's placeholders on the estimator and the sentinel's limit. */
#ifndef HG_HEADLINE_H
#define HG_HEADLINE_H

#include "format.h"
#include "hashgen.h"
#include "model.h"

/* The estimator named for evidence without a headline: the guide's mean stands in. */
#define HG_ESTIMATOR_MEAN "mean"

/* The headline of a record whose guide's figures (from its rounds) are mean: the record's own,
 * else the mean's with estimator "mean". estimator is borrowed from r (or static). */
typedef struct {
	double cycles, cpb;
	const char *estimator;
} hg_headline_fig;
void hg_headline_of(hg_headline_fig *out, const hg_record *r, const hg_figures_t *mean);

/* The marks of a figure: † unstable, ‡ disturbed. */
#define HG_MARK_UNSTABLE 1
#define HG_MARK_DISTURBED 2
/* Append to cell the marks of a figure at bytes (each a small span whose title says what it
 * means there); estimator says which kind of evidence it is. Returns the marks added. */
int hg_marks_add(hg_arena *a, hg_node *cell, int unstable, int disturbed,
	unsigned long long bytes, double spread_pct, double limit, const char *estimator);
/* The line under a table that explains the marks in used (nothing when used is 0). */
void hg_marks_legend(hg_arena *a, hg_node *body, int used, double limit);

/* Section 4's sentence on the headline column. */
void hg_headline_perf_note(hg_arena *a, hg_node *para, const hg_system *s);
/* The method page's placeholders: estimator, passes, noise-floor, sentinel-limit, limit-floor,
 * limit-source ("not recorded" for earlier evidence); NULL for any other name. */
const char *hg_headline_lookup(hg_arena *a, const hg_system *s, const char *name);

#endif
