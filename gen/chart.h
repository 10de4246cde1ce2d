/* chart.h — SVG charts of the site (chart.c): cycles/byte against message size for a page, and
 * a horizontal bar chart for a comparison group. Standalone SVG files for <img>, no script. */
#ifndef HG_CHART_H
#define HG_CHART_H

#include <stddef.h>

typedef struct {
	double x;      /* message bytes (> 0), drawn on a log2 axis */
	double y;      /* cycles/byte; < 0: no figure at this size (the line has a gap there) */
	int hollow;    /* the figure is unstable or disturbed: drawn as a hollow marker */
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
} hg_chart_lines;

/* Cycles/byte against message size. *out is malloc'd, NUL-terminated SVG text; caller frees. */
int hg_chart_lines_svg(char **out, size_t *len, const hg_chart_lines *c);

typedef struct {
	const char *label;   /* "litchi_256 (reference)" or "SM3 (reference)" */
	double value;        /* cycles/byte at 65536 B, > 0 */
	int hollow;          /* unstable or disturbed: drawn outlined/hatched, not solid */
	int baseline;        /* a yardstick bar: grey */
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

#endif
