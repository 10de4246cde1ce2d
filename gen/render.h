/* render.h — the renderers: the page model as HTML inside the skeleton (render_html.c) and as
 * Markdown (render_md.c), SVG charts drawn from plain series (chart.c and chart_bars.c on
 * chart_svg.c), and the figures as CSV and JSON downloads (downloads.c). None of them knows the
 * site. */
#ifndef HG_RENDER_H
#define HG_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "figures.h"
#include "model.h"

/* ---- the page model as HTML and Markdown ---- */

/* The caller frees *out with free(). */
int hg_render_md(char **out, size_t *len, const hg_page *page);
/* template: the parsed skeleton (an htmlDocPtr, passed as void * to keep libxml2 out). */
int hg_render_html(char **out, size_t *len, const hg_page *page, const void *template);
/* The same bytes written to f as they are made, never held whole (a page of many megabytes);
 * -1 when a write failed (f's error then says why) or the page could not be serialised. */
int hg_render_md_to(FILE *f, const hg_page *page);
int hg_render_html_to(FILE *f, const hg_page *page, const void *template);
/* The script that sorts and filters the tables of class "sortable" (templates/tables.js), in
 * the site's root beside style.css; a skeleton may load it from an element marked
 * data-hg="script", whose src each page then points at. */
#define HG_TABLES_JS "tables.js"
/* Parse the skeleton once; NULL with the error stored when it lacks the marked elements. */
void *hg_template_load(const char *path);
/* Whether the skeleton loads the table script (an element marked data-hg="script"). */
int hg_template_has_script(const void *template);
void hg_template_free(void *template);

/* ---- SVG charts: cycles/byte against message size for a page and a trace over time (chart.c),
 * a horizontal bar chart for a comparison group (chart_bars.c). Standalone SVG files for <img>,
 * no script. ---- */

typedef struct {
	double x;      /* message bytes (> 0), drawn on a log2 axis */
	double y;      /* cycles (or ticks) per byte; < 0: no figure at this size (the line has a gap there) */
	int hollow;    /* the figure's interval is wide or unconfirmed (evidence without one: the
	                * figure is disturbed): drawn as a hollow marker */
	double lo, hi; /* its interval, drawn as a whisker; none unless 0 < lo < hi */
} hg_chart_point;

typedef struct {
	const char *label;               /* legend text, e.g. "litchi_256 (reference)" */
	const hg_chart_point *points;    /* sorted by x */
	size_t npoints;
	int baseline;                    /* 1: a yardstick (SM3/SHA-256): thin grey dashed line, labelled at its right end, no marker style of its own */
} hg_chart_series;

typedef struct {
	const char *title, *desc;        /* the SVG's <title> and <desc> (say what is drawn) */
	const hg_chart_series *series;
	size_t nseries;
	const char *y_label;             /* the unit of y: "ticks/byte"; NULL: "cycles/byte" */
} hg_chart_lines;

/* A row's figure as a point: at its message size, its headline per byte, its interval as a
 * whisker, hollow when the interval is wide or unconfirmed (without one: the figure disturbed). */
void hg_chart_point_of(hg_chart_point *pt, const hg_fig *f);
/* Cycles (or ticks) per byte against message size. *out is malloc'd, NUL-terminated SVG text;
 * caller frees. */
int hg_chart_lines_svg(char **out, size_t *len, const hg_chart_lines *c);

typedef struct {
	const char *label;   /* "litchi_256 (reference)" or "SM3 (reference)" */
	double value;        /* cycles/byte at 65536 B, > 0 */
	int hollow;          /* its interval is wide or unconfirmed (evidence without one: the
	                      * figure is disturbed): drawn outlined and hatched, not solid */
	int baseline;        /* a yardstick bar: grey */
	double lo, hi;       /* its interval, drawn as a whisker; none unless 0 < lo < hi */
} hg_chart_bar;

/* A horizontal bar chart, bars in the given order, one row each (height grows with nbars). */
int hg_chart_bars_svg(char **out, size_t *len, const char *title, const char *desc,
	const char *value_label, const hg_chart_bar *bars, size_t nbars);

/* A trace over time: points on a linear x axis (seconds from 0), y in % around 0 with a shaded
 * band of ±band; one series per CPU, points outside the band drawn hollow with a heavy outline. */
typedef struct {
	double x, y;         /* seconds since the start (>= 0), % from the reference */
	int outside;         /* |y| > band */
	const char *title;   /* the point's tooltip */
} hg_trace_point;

typedef struct {
	const char *label;   /* "CPU 2" */
	const hg_trace_point *points;
	size_t npoints;
} hg_trace_series;

typedef struct {
	const char *title, *desc, *x_label, *y_label;
	double band;         /* > 0 */
	const hg_trace_series *series;
	size_t nseries;
} hg_chart_trace;

int hg_chart_trace_svg(char **out, size_t *len, const hg_chart_trace *c);

/* ---- the figures as downloads (downloads.c) ---- */

/* The columns of the downloads, in order, NULL-terminated. */
extern const char *const hg_results_columns[];
/* One CSV field (RFC 4180): as it is, or quoted when it holds a comma, a quote or a line break;
 * nothing for NULL. */
void hg_csv_field(FILE *f, const char *s);

/* The rows as CSV: a header row of the column names, then one row per figure, its ratios to the
 * yardsticks y of its system at its size (y NULL: none). *out is the caller's (free). */
int hg_results_csv(char **out, size_t *len, const hg_fig *const *rows, size_t n,
	const hg_yardsticks *y);
/* The same rows as CSV into csv (as hg_results_csv makes them) and as JSON into json, in one
 * pass, as they go: the site's downloads, without the whole text in memory. The JSON is
 * {"schema": "hashbench.results/1", "columns": […], "systems": [{"system", "system_json",
 * "system_json_sha256", "description": <system.json> when describe}], "figures": [{column:
 * value}]}. */
int hg_results_both_to(FILE *csv, FILE *json, const hg_system *const *systems, size_t nsys,
	int describe, const hg_fig *const *rows, size_t n, const hg_yardsticks *y);

#endif
