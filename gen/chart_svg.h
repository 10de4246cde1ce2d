/* chart_svg.h — the SVG toolkit the charts share (chart_svg.c), private to the charts of the
 * renderers' layer (chart.c, chart_bars.c): it names libxml2's types, which no public header
 * does. */
#ifndef HG_CHART_SVG_H
#define HG_CHART_SVG_H

#include <stddef.h>

#include <libxml/tree.h>

#define HG_SVG_NS "http://www.w3.org/2000/svg"
#define HG_SVG_WIDTH 760.0
#define HG_SVG_INK "#222222"
#define HG_SVG_AXIS "#555555"
#define HG_SVG_GRID "#e4e4e4"
#define HG_SVG_GREY "#8a8a8a"

/* v rounded to tenths, without the locale: "12", "-3.5". */
const char *hg_svg_num(char buf[32], double v);
/* A tick value with as few decimals as it needs (at most 4): "0.05", "2", "1000". */
const char *hg_svg_tick(char buf[32], double v);
/* A message size: "32 B", "1 KiB", "64 KiB", "1 MiB", "1000 B". */
const char *hg_svg_size(char buf[32], double x);
/* s as text XML can hold (control characters and broken UTF-8 become U+FFFD), cut to at most
 * max characters (0: no limit) with "…" as the last; malloc'd. *cut tells whether it was cut. */
char *hg_svg_clean(const char *s, size_t max, int *cut);
/* A child element; attributes set as text or as a number (hg_svg_num). */
xmlNodePtr hg_svg_el(xmlNodePtr parent, const char *name);
void hg_svg_set(xmlNodePtr n, const char *name, const char *value);
void hg_svg_setn(xmlNodePtr n, const char *name, double v);
/* An element holding text (escaped by libxml2), made safe by hg_svg_clean first. */
xmlNodePtr hg_svg_textel(xmlNodePtr parent, const char *name, const char *s);
/* An attribute holding untrusted text. */
void hg_svg_set_text(xmlNodePtr n, const char *name, const char *s);
/* A <line> from (x1, y1) to (x2, y2). */
xmlNodePtr hg_svg_line(xmlNodePtr parent, double x1, double y1, double x2, double y2,
	const char *stroke);
/* <text> at (x, y), vertically centred on y; anchor "start", "middle" or "end". The text is cut
 * to max characters (0: whole) and a cut one keeps the whole in a <title>. */
xmlNodePtr hg_svg_label(xmlNodePtr parent, double x, double y, const char *anchor,
	const char *s, size_t max);
/* A marker: the path shape translated to (x, y). */
xmlNodePtr hg_svg_marker(xmlNodePtr parent, const char *shape, double x, double y,
	const char *cls, const char *fill, const char *stroke, double width);
/* The document with its root <svg>, <title>, <desc> and white background. */
xmlNodePtr hg_svg_open(xmlDocPtr *doc, double h, const char *title, const char *desc);
/* The document serialised into *out (malloc'd, NUL-terminated) and freed. */
int hg_svg_finish(char **out, size_t *len, xmlDocPtr doc);
/* The same for a chart of many items (the bars of a comparison): doc's element series holds
 * only hg_svg_placeholder(series); item(ctx, i, series) appends the nodes of the i-th of n items
 * to series, which are written where the placeholder stands and freed at once, so that the
 * chart never stands whole as a tree. The bytes are those of hg_svg_finish. */
xmlNodePtr hg_svg_placeholder(xmlNodePtr series);
int hg_svg_finish_items(char **out, size_t *len, xmlDocPtr doc, xmlNodePtr series,
	void (*item)(void *ctx, size_t i, xmlNodePtr series), void *ctx, size_t n);
/* A chart without figures is still a chart: it says so. */
int hg_svg_empty(char **out, size_t *len, const char *title, const char *desc);
/* The largest 1-2-5 value at or below v (> 0), and the smallest at or above. */
double hg_svg_floor125(double v);
double hg_svg_ceil125(double v);
/* Ticks of a linear axis from 0 to *top (raised to a multiple of the step); returns the count. */
size_t hg_svg_linear_ticks(double ticks[32], double *top, double max);

#endif
