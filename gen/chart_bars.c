/* chart_bars.c — the comparison page's bar chart (render.h): one horizontal bar per library, the
 * figure's interval drawn over it as a whisker, hatched where the interval is wide or unconfirmed;
 * a libxml2 tree, coordinates printed without the locale (chart_svg.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "chart_svg.h"
#include "render.h"

/* Longest bar label drawn, in characters; longer ones end in "…" and keep a <title>. */
#define S_BAR_CHARS 34
#define S_BLUE "#0072B2"

/* The layout of one chart. */
typedef struct {
	double l, r, top_margin, b, top; /* the plot area; top: the axis's largest value */
	double row, bar_h;
	int hollow, base, whisker;       /* any bar of the kind */
} S_layout;

/* Does the bar carry an interval to draw? */
static int S_has_whisker(const hg_chart_bar *b)
{
	return isfinite(b->lo) && isfinite(b->hi) && b->lo > 0 && b->hi > b->lo;
}

static double S_x(const S_layout *f, double v)
{
	return f->l + v / f->top * (f->r - f->l);
}

/* Hatching for bars whose interval is wide or unconfirmed; fixed ids, the same in every chart. */
static void S_hatches(xmlNodePtr root)
{
	static const char *const ids[2] = { "hg-hatch", "hg-hatch-baseline" };
	static const char *const ink[2] = { S_BLUE, HG_SVG_GREY };
	xmlNodePtr defs = hg_svg_el(root, "defs");
	size_t i;
	for (i = 0; i < 2; i++) {
		xmlNodePtr pat = hg_svg_el(defs, "pattern"), bg, ln;
		hg_svg_set(pat, "id", ids[i]);
		hg_svg_set(pat, "width", "6");
		hg_svg_set(pat, "height", "6");
		hg_svg_set(pat, "patternUnits", "userSpaceOnUse");
		hg_svg_set(pat, "patternTransform", "rotate(45)");
		bg = hg_svg_el(pat, "rect");
		hg_svg_set(bg, "width", "6");
		hg_svg_set(bg, "height", "6");
		hg_svg_set(bg, "fill", "#ffffff");
		ln = hg_svg_line(pat, 1, 0, 1, 6, ink[i]);
		hg_svg_set(ln, "stroke-width", "2");
	}
}

static void S_axis(xmlNodePtr root, const S_layout *f, const double *ticks, size_t n,
	const char *value_label)
{
	xmlNodePtr g = hg_svg_el(root, "g"), t;
	char buf[64];
	size_t i;

	hg_svg_set(g, "class", "axis");
	hg_svg_set(g, "data-axis", "x");
	hg_svg_set(g, "data-scale", "linear");
	for (i = 0; i < n; i++) {
		double x = S_x(f, ticks[i]);
		hg_svg_line(g, x, f->top_margin, x, f->b, HG_SVG_GRID);
		hg_svg_line(g, x, f->b, x, f->b + 4, HG_SVG_AXIS);
		t = hg_svg_label(g, x, f->b + 16, "middle", hg_svg_tick(buf, ticks[i]), 0);
		hg_svg_set(t, "fill", HG_SVG_INK);
	}
	hg_svg_line(g, f->l, f->b, f->r, f->b, HG_SVG_AXIS);
	hg_svg_line(g, f->l, f->top_margin, f->l, f->b, HG_SVG_AXIS);
	t = hg_svg_label(g, (f->l + f->r) / 2, f->b + 36, "middle", value_label, 0);
	hg_svg_set(t, "fill", HG_SVG_INK);
}

/* The interval of a bar as a thin line from its low to its high bound with short caps. */
static void S_whisker(xmlNodePtr g, const S_layout *f, const hg_chart_bar *br, double y)
{
	xmlNodePtr w = hg_svg_el(g, "g");
	double x0 = S_x(f, br->lo), x1 = S_x(f, br->hi), cy = y + f->bar_h / 2;
	hg_svg_set(w, "class", "whisker");
	hg_svg_set(w, "stroke-width", "1.25");
	hg_svg_line(w, x0, cy, x1, cy, HG_SVG_INK);
	hg_svg_line(w, x0, cy - 4, x0, cy + 4, HG_SVG_INK);
	hg_svg_line(w, x1, cy - 4, x1, cy + 4, HG_SVG_INK);
}

/* The value a bar is labelled with: the figure ± the half-width of its interval. */
static const char *S_value(char buf[64], const hg_chart_bar *br)
{
	return hg_fmt_cpb_pm(buf, 64, br->value, S_has_whisker(br) ? (br->hi - br->lo) / 2 : -1);
}

static void S_bar(xmlNodePtr g, const S_layout *f, const hg_chart_bar *br, size_t i)
{
	double y = f->top_margin + (double)i * f->row + (f->row - f->bar_h) / 2;
	double w = S_x(f, br->value) - f->l, end = S_has_whisker(br) ? S_x(f, br->hi) : f->l + w;
	const char *ink = br->baseline ? HG_SVG_GREY : S_BLUE;
	xmlNodePtr rect = hg_svg_el(g, "rect"), t;
	char buf[64], *tip;

	hg_svg_set(rect, "class", br->hollow ? (br->baseline ? "bar hollow baseline" : "bar hollow") :
		br->baseline ? "bar baseline" : "bar");
	hg_svg_setn(rect, "x", f->l);
	hg_svg_setn(rect, "y", y);
	hg_svg_setn(rect, "width", w);
	hg_svg_setn(rect, "height", f->bar_h);
	hg_svg_set(rect, "fill", br->hollow ? (br->baseline ? "url(#hg-hatch-baseline)" :
		"url(#hg-hatch)") : ink);
	if (br->hollow) {
		hg_svg_set(rect, "stroke", ink);
		hg_svg_set(rect, "stroke-width", "1.5");
	}
	tip = hg_xprintf("%s: %s", br->label ? br->label : "", S_value(buf, br));
	hg_svg_textel(rect, "title", tip);
	free(tip);
	if (S_has_whisker(br))
		S_whisker(g, f, br, y);
	t = hg_svg_label(g, f->l - 8, y + f->bar_h / 2, "end", br->label, S_BAR_CHARS);
	hg_svg_set(t, "class", "bar-label");
	hg_svg_set(t, "fill", HG_SVG_INK);
	t = hg_svg_label(g, fmax(f->l + w, end) + 5, y + f->bar_h / 2, "start", S_value(buf, br), 0);
	hg_svg_set(t, "class", "bar-value");
	hg_svg_set(t, "fill", HG_SVG_INK);
}

typedef struct {
	const S_layout *f;
	const hg_chart_bar *bars;
} S_bars;

static void S_bar_item(void *ctx, size_t i, xmlNodePtr series)
{
	const S_bars *b = ctx;
	S_bar(series, b->f, &b->bars[i], i);
}

/* A legend's sample of a bar at (x, y) and its text. */
static xmlNodePtr S_swatch(xmlNodePtr leg, double x, double y, const char *fill, const char *text)
{
	xmlNodePtr s = hg_svg_el(leg, "rect"), t;
	hg_svg_setn(s, "x", x);
	hg_svg_setn(s, "y", y - 6);
	hg_svg_set(s, "width", "18");
	hg_svg_set(s, "height", "12");
	hg_svg_set(s, "fill", fill);
	t = hg_svg_label(leg, x + 24, y, "start", text, 0);
	hg_svg_set(t, "fill", HG_SVG_INK);
	return s;
}

/* The legend below the axis, one line per kind of bar the chart has. */
static void S_legend(xmlNodePtr root, const S_layout *f, int bare_hollow)
{
	xmlNodePtr leg = hg_svg_el(root, "g"), s, t;
	double x = f->l, y = f->b + 58;

	hg_svg_set(leg, "class", "legend");
	if (f->hollow) {
		s = S_swatch(leg, x, y, "url(#hg-hatch)", bare_hollow ? "hatched: the figure's "
			"interval is wide or unconfirmed (without an interval: disturbed)" : "hatched: the "
			"figure's interval is wide or unconfirmed");
		hg_svg_set(s, "stroke", S_BLUE);
		hg_svg_set(s, "stroke-width", "1.5");
		y += 20;
	}
	if (f->whisker) {
		s = hg_svg_el(leg, "g");
		hg_svg_set(s, "class", "whisker");
		hg_svg_set(s, "stroke-width", "1.25");
		hg_svg_line(s, x, y, x + 18, y, HG_SVG_INK);
		hg_svg_line(s, x, y - 4, x, y + 4, HG_SVG_INK);
		hg_svg_line(s, x + 18, y - 4, x + 18, y + 4, HG_SVG_INK);
		t = hg_svg_label(leg, x + 24, y, "start", "whisker: the figure's interval", 0);
		hg_svg_set(t, "fill", HG_SVG_INK);
		y += 20;
	}
	if (f->base)
		S_swatch(leg, x, y, HG_SVG_GREY, "grey: a yardstick");
}

int hg_chart_bars_svg(char **out, size_t *len, const char *title, const char *desc,
	const char *value_label, const hg_chart_bar *bars, size_t nbars)
{
	S_layout f = { 0, 0, 12, 0, 0, 26, 16, 0, 0, 0 };
	xmlDocPtr doc;
	xmlNodePtr root, g;
	S_bars items;
	double vmax = 0, ticks[32], h, label_w;
	size_t i, n, label_chars = 0, nlegend;
	int bare_hollow = 0;

	*out = NULL;
	if (len)
		*len = 0;
	if (nbars && !bars)
		return hg_error_set("bar chart \"%s\": no bars given", title ? title : "");
	for (i = 0; i < nbars; i++) {
		char *t;
		const char *p;
		size_t chars = 0;
		if (!isfinite(bars[i].value) || bars[i].value < 0)
			return hg_error_set("bar chart \"%s\": bar \"%s\": the value is not a number "
				">= 0", title ? title : "", bars[i].label ? bars[i].label : "");
		vmax = fmax(vmax, S_has_whisker(&bars[i]) ? fmax(bars[i].value, bars[i].hi) :
			bars[i].value);
		f.hollow |= bars[i].hollow != 0;
		f.base |= bars[i].baseline != 0;
		f.whisker |= S_has_whisker(&bars[i]);
		bare_hollow |= bars[i].hollow && !S_has_whisker(&bars[i]);
		t = hg_svg_clean(bars[i].label, S_BAR_CHARS, NULL);
		for (p = t; *p; p++)
			chars += ((unsigned char)*p & 0xC0) != 0x80;
		if (chars > label_chars)
			label_chars = chars;
		free(t);
	}
	if (nbars == 0)
		return hg_svg_empty(out, len, title, desc);

	/* about 6.6 px a character at 12 px, so the longest label fits left of the bars; room on
	 * the right for a value with its interval */
	label_w = fmax(60, 6.6 * (double)label_chars);
	f.l = 12 + label_w + 8;
	f.r = HG_SVG_WIDTH - (f.whisker ? 96 : 56);
	f.b = f.top_margin + (double)nbars * f.row + 4;
	nlegend = (size_t)(f.hollow + f.base + f.whisker);
	h = f.b + 48 + (nlegend ? 4 + 20 * (double)nlegend : 0);
	n = hg_svg_linear_ticks(ticks, &f.top, vmax > 0 ? vmax : 1);

	root = hg_svg_open(&doc, h, title, desc);
	if (f.hollow)
		S_hatches(root);
	S_axis(root, &f, ticks, n, value_label);
	g = hg_svg_el(root, "g");
	hg_svg_set(g, "class", "series");
	hg_svg_placeholder(g);
	if (nlegend)
		S_legend(root, &f, bare_hollow);
	/* the bars made and written one at a time */
	items.f = &f;
	items.bars = bars;
	return hg_svg_finish_items(out, len, doc, g, S_bar_item, &items, nbars);
}
