/* compare.h — comparing the field (compare.c): the comparison page of a system, the chart of an
 * algorithm page and its "On other systems" table. */
#ifndef HG_COMPARE_H
#define HG_COMPARE_H

#include "pages.h"

/* An SVG file of a page, written beside it. */
typedef struct {
	char *name;      /* "compare-256.svg" */
	char *svg;       /* NULL when it could not be drawn (the error is stored) */
	size_t len;
} hg_svgfile;
void hg_svgfiles_free(hg_svgfile *f, size_t n);

/* Cycles/byte against message size of an algorithm's rows on a system (in page order), with the
 * system's yardsticks as baselines. */
int hg_chart_page(char **out, size_t *len, const hg_system *s, const char *id, const char *name,
	const hg_fig *figs, size_t n, const hg_yardsticks *y);
/* Does any row have figures (is there anything to draw)? */
int hg_figs_have_figures(const hg_fig *figs, size_t n);

/* "On other systems": cycles/byte at 65536 B and cycles at 32 B of each library on every system
 * in all (those that have the algorithm, cur among them). */
void hg_section_other_systems(hg_arena *a, hg_node *body, const char *id, const hg_system *cur,
	const hg_sysfigs *all, size_t nall);

/* The comparison page of a system from its rows (algorithm by algorithm, each in page order);
 * *charts gets the bar chart of each group, named as the page links them. */
hg_page *hg_page_compare(const hg_data *d, const hg_system *s, const hg_fig *const *rows,
	size_t n, const hg_yardsticks *y, const hg_texts *tx, hg_svgfile **charts, size_t *ncharts);

#endif
