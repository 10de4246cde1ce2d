/* chart.c — SVG charts of the site (render.h): a libxml2 tree serialised at the end, so every label
 * is escaped by construction; coordinates are printed with integer arithmetic, never the locale. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "chart_svg.h"
#include "render.h"

#define X(s) ((const xmlChar *)(s))

/* The Okabe–Ito palette, ordered for contrast on white: yellow, the faintest, comes last. */
static const char *const S_colours[] = { "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
	"#56B4E9", "#000000", "#F0E442" };
#define S_NCOLOURS 8

/* Marker outlines around (0, 0), placed with translate(): the same shape has the same path.
 * circle, square, triangle up, diamond, triangle down, plus, star, cross. Plus and cross are
 * outlines, not strokes, so that they too can be drawn hollow. */
static const char *const S_shapes[] = {
	"M-4.5 0A4.5 4.5 0 1 0 4.5 0A4.5 4.5 0 1 0 -4.5 0Z",
	"M-4 -4H4V4H-4Z",
	"M0 -5.2L4.8 3.2H-4.8Z",
	"M0 -5.5L5.5 0L0 5.5L-5.5 0Z",
	"M0 5.2L4.8 -3.2H-4.8Z",
	"M-1.6 -5H1.6V-1.6H5V1.6H1.6V5H-1.6V1.6H-5V-1.6H-1.6Z",
	"M0 -5.6L1.4 -1.9L5.3 -1.7L2.3 0.7L3.3 4.5L0 2.4L-3.3 4.5L-2.3 0.7L-5.3 -1.7L-1.4 -1.9Z",
	"M2.4 -4.7L4.7 -2.4L2.3 0L4.7 2.4L2.4 4.7L0 2.3L-2.4 4.7L-4.7 2.4L-2.3 0L-4.7 -2.4L-2.4 -4.7L0 -2.3Z",
};
#define S_NSHAPES 8
static const char S_DOT[] = "M-2.5 0A2.5 2.5 0 1 0 2.5 0A2.5 2.5 0 1 0 -2.5 0Z";

/* Dash patterns (NULL: solid). 8 shapes and 5 patterns: the first 40 series differ in the pair,
 * the first 8 in the shape alone. */
static const char *const S_dashes[] = { NULL, "9 4", "9 3 2 3", "2 3", "12 3 2 3 2 3" };
#define S_NDASHES 5

/* Longest label text drawn, in characters; longer ones end in "…" and keep a <title>. */
#define S_LEGEND_CHARS 44
#define S_BASELINE_CHARS 22

/* The x axis spans the guide's message sizes S1–S8 at least. */
static const double S_guide_sizes[8] = { 32, 128, 512, 1024, 4096, 8192, 16384, 65536 };

typedef struct {
	double l, r, t, b;   /* the plot area */
	double x0, x1;       /* log2 of the x range */
	int ylog;
	double y0, y1;       /* linear: 0 and the top; log: log10 of the range */
} S_frame;

static double S_px(const S_frame *f, double x)
{
	return f->l + (log2(x) - f->x0) / (f->x1 - f->x0) * (f->r - f->l);
}

static double S_py(const S_frame *f, double y)
{
	double v = f->ylog ? log10(y) : y;
	return f->b - (v - f->y0) / (f->y1 - f->y0) * (f->b - f->t);
}

/* A point with a figure to draw. */
static int S_has(const hg_chart_point *p)
{
	return isfinite(p->y) && p->y > 0;
}

/* A point with an interval to draw as a whisker. */
static int S_has_whisker(const hg_chart_point *p)
{
	return S_has(p) && isfinite(p->lo) && isfinite(p->hi) && p->lo > 0 && p->hi > p->lo;
}

static int S_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* ---- the line chart ---- */

typedef struct {
	size_t series;       /* index in c->series */
	double want, y;      /* where the line ends, where the label goes */
	double x;
} S_blabel;

static int S_cmp_blabel(const void *a, const void *b)
{
	const S_blabel *p = a, *q = b;
	if (p->want != q->want)
		return p->want < q->want ? -1 : 1;
	return p->series < q->series ? -1 : p->series > q->series;
}

/* Baseline labels at the right end of their lines, pushed apart to a line's height each. */
static void S_place_labels(S_blabel *bl, size_t n, const S_frame *f)
{
	const double gap = 13;
	size_t i;
	qsort(bl, n, sizeof *bl, S_cmp_blabel);
	for (i = 0; i < n; i++) {
		bl[i].y = bl[i].want;
		if (i > 0 && bl[i].y < bl[i - 1].y + gap)
			bl[i].y = bl[i - 1].y + gap;
	}
	if (n > 0 && bl[n - 1].y > f->b) {
		bl[n - 1].y = f->b;
		for (i = n - 1; i-- > 0;)
			if (bl[i].y > bl[i + 1].y - gap)
				bl[i].y = bl[i + 1].y - gap;
	}
}

/* The line of a series: one subpath per run of figures, so a gap breaks it. */
static char *S_path(const hg_chart_series *s, const S_frame *f)
{
	size_t i, cap = 16 + s->npoints * 32, o = 0;
	char *d = malloc(cap), a[32], b[32];
	int pen = 0;
	if (!d) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	d[0] = '\0';
	for (i = 0; i < s->npoints; i++) {
		if (!S_has(&s->points[i])) {
			pen = 0;
			continue;
		}
		o += (size_t)snprintf(d + o, cap - o, "%s%s %s", pen ? "L" : "M",
			hg_svg_num(a, S_px(f, s->points[i].x)), hg_svg_num(b, S_py(f, s->points[i].y)));
		pen = 1;
	}
	return d;
}

static void S_y_axis(xmlNodePtr root, const S_frame *f, double lo, double hi, double ymax,
	const char *label)
{
	xmlNodePtr g = hg_svg_el(root, "g"), t;
	double ticks[64];
	size_t n = 0, k;
	char b[96];

	hg_svg_set(g, "class", "axis");
	hg_svg_set(g, "data-axis", "y");
	hg_svg_set(g, "data-scale", f->ylog ? "log" : "linear");
	if (f->ylog) {
		static const double mant[3] = { 1, 2, 5 };
		int e, e0 = (int)floor(log10(lo) + 1e-9), e1 = (int)ceil(log10(hi) - 1e-9);
		/* beyond four decades 2 and 5 would crowd the labels */
		int all = log10(hi / lo) <= 4.0 + 1e-9;
		for (e = e0; e <= e1 && n < 64; e++)
			for (k = 0; k < 3 && n < 64; k++) {
				double v = mant[k] * pow(10, e);
				if ((all || k == 0) && v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
					ticks[n++] = v;
			}
	} else {
		double top;
		n = hg_svg_linear_ticks(ticks, &top, ymax);
	}
	for (k = 0; k < n; k++) {
		double y = S_py(f, ticks[k]);
		hg_svg_line(g, f->l, y, f->r, y, HG_SVG_GRID);
		hg_svg_line(g, f->l - 4, y, f->l, y, HG_SVG_AXIS);
		t = hg_svg_label(g, f->l - 7, y, "end", hg_svg_tick(b, ticks[k]), 0);
		hg_svg_set(t, "fill", HG_SVG_INK);
	}
	hg_svg_line(g, f->l, f->t, f->l, f->b, HG_SVG_AXIS);
	snprintf(b, sizeof(b), "%s (log scale)", label);
	t = hg_svg_label(g, 0, 0, "middle", f->ylog ? b : label, 0);
	hg_svg_setn(t, "x", -(f->t + f->b) / 2);
	hg_svg_set(t, "y", "16");
	hg_svg_set(t, "transform", "rotate(-90)");
	hg_svg_set(t, "fill", HG_SVG_INK);
}

static void S_x_axis(xmlNodePtr root, const S_frame *f, const hg_chart_lines *c)
{
	xmlNodePtr g = hg_svg_el(root, "g"), t;
	double *xs, last = -1e9;
	size_t n = 0, i, k;
	char b[32];

	for (i = 0; i < c->nseries; i++)
		n += c->series[i].npoints;
	xs = malloc((n + 9) * sizeof(double));
	if (!xs) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	/* the guide's sizes S1–S8 always have their labelled tick, measured or not */
	for (n = 0; n < 8; n++)
		xs[n] = S_guide_sizes[n];
	for (i = 0; i < c->nseries; i++)
		for (k = 0; k < c->series[i].npoints; k++)
			xs[n++] = c->series[i].points[k].x;
	qsort(xs, n, sizeof(double), S_cmp_double);
	hg_svg_set(g, "class", "axis");
	hg_svg_set(g, "data-axis", "x");
	hg_svg_set(g, "data-scale", "log2");
	for (i = 0; i < n; i++) {
		double x;
		if (i > 0 && xs[i] == xs[i - 1])
			continue;
		x = S_px(f, xs[i]);
		hg_svg_line(g, x, f->t, x, f->b, HG_SVG_GRID);
		hg_svg_line(g, x, f->b, x, f->b + 4, HG_SVG_AXIS);
		/* sizes closer than a label's width keep their tick and lose the label */
		if (x - last >= 46) {
			t = hg_svg_label(g, x, f->b + 16, "middle", hg_svg_size(b, xs[i]), 0);
			hg_svg_set(t, "fill", HG_SVG_INK);
			last = x;
		}
	}
	free(xs);
	hg_svg_line(g, f->l, f->b, f->r, f->b, HG_SVG_AXIS);
	t = hg_svg_label(g, (f->l + f->r) / 2, f->b + 36, "middle", "message size (log scale)", 0);
	hg_svg_set(t, "fill", HG_SVG_INK);
}

/* A sample of a series' line and marker, as in the legend. */
static void S_sample(xmlNodePtr g, double x, double y, const char *colour, const char *dash,
	const char *shape, double width)
{
	xmlNodePtr l = hg_svg_line(g, x, y, x + 40, y, colour);
	hg_svg_setn(l, "stroke-width", width);
	if (dash)
		hg_svg_set(l, "stroke-dasharray", dash);
	hg_svg_marker(g, shape, x + 20, y, "legend-marker", colour, shape == S_DOT ? colour : "#ffffff",
		shape == S_DOT ? 1 : 0.75);
}

/* The group of one series or baseline: its label, its <title> and its line (gaps split it). */
static xmlNodePtr S_series_group(xmlNodePtr root, const char *cls, const hg_chart_series *s,
	const S_frame *f, const char *stroke, const char *width, const char *dash)
{
	xmlNodePtr g = hg_svg_el(root, "g"), p;
	char *d = S_path(s, f);
	hg_svg_set(g, "class", cls);
	hg_svg_set_text(g, "data-label", s->label);
	hg_svg_textel(g, "title", s->label);
	if (d[0]) {
		p = hg_svg_el(g, "path");
		hg_svg_set(p, "class", "line");
		hg_svg_set(p, "d", d);
		hg_svg_set(p, "fill", "none");
		hg_svg_set(p, "stroke", stroke);
		hg_svg_set(p, "stroke-width", width);
		hg_svg_set(p, "stroke-linejoin", "round");
		if (dash)
			hg_svg_set(p, "stroke-dasharray", dash);
	}
	free(d);
	return g;
}

/* The interval of a point as a thin vertical line from its low to its high bound with short caps,
 * under its marker. */
static void S_whisker(xmlNodePtr g, const S_frame *f, const hg_chart_point *p, const char *ink)
{
	xmlNodePtr w = hg_svg_el(g, "g");
	double x = S_px(f, p->x), y0 = S_py(f, p->lo), y1 = S_py(f, p->hi);
	hg_svg_set(w, "class", "whisker");
	hg_svg_set(w, "stroke-width", "1.25");
	hg_svg_line(w, x, y0, x, y1, ink);
	hg_svg_line(w, x - 3, y0, x + 3, y0, ink);
	hg_svg_line(w, x - 3, y1, x + 3, y1, ink);
}

/* The baselines, under the series: grey dashed lines with dots, labelled at their right end. */
static int S_lines_baselines(xmlNodePtr root, const hg_chart_lines *c, const S_frame *f)
{
	S_blabel *bl;
	size_t i, k, nbl = 0;

	bl = calloc(c->nseries + 1, sizeof(S_blabel));
	if (!bl)
		return hg_error_set("chart: out of memory");
	for (i = 0; i < c->nseries; i++) {
		const hg_chart_series *s = &c->series[i];
		if (!s->baseline)
			continue;
		for (k = s->npoints; k-- > 0;)
			if (S_has(&s->points[k])) {
				bl[nbl].series = i;
				bl[nbl].x = S_px(f, s->points[k].x) + 6;
				bl[nbl].want = S_py(f, s->points[k].y);
				nbl++;
				break;
			}
	}
	S_place_labels(bl, nbl, f);
	for (i = 0; i < c->nseries; i++) {
		const hg_chart_series *s = &c->series[i];
		xmlNodePtr g;
		if (!s->baseline)
			continue;
		g = S_series_group(root, "baseline", s, f, HG_SVG_GREY, "1.25", "5 4");
		for (k = 0; k < s->npoints; k++)
			if (S_has_whisker(&s->points[k]))
				S_whisker(g, f, &s->points[k], HG_SVG_GREY);
		for (k = 0; k < s->npoints; k++)
			if (S_has(&s->points[k]))
				hg_svg_marker(g, S_DOT, S_px(f, s->points[k].x), S_py(f, s->points[k].y),
					s->points[k].hollow ? "marker hollow" : "marker",
					s->points[k].hollow ? "#ffffff" : HG_SVG_GREY, HG_SVG_GREY, 1);
		for (k = 0; k < nbl; k++)
			if (bl[k].series == i) {
				xmlNodePtr t = hg_svg_label(g, bl[k].x, bl[k].y, "start", s->label,
					S_BASELINE_CHARS);
				hg_svg_set(t, "class", "baseline-label");
				hg_svg_set(t, "font-size", "11");
				hg_svg_set(t, "fill", "#555555");
			}
	}
	free(bl);

	return 0;
}

/* The series over the baselines, each in its colour, dash pattern and marker shape. */
static void S_lines_series(xmlNodePtr root, const hg_chart_lines *c, const S_frame *f)
{
	size_t i, k, ord;

	for (i = 0, ord = 0; i < c->nseries; i++) {
		const hg_chart_series *s = &c->series[i];
		const char *colour = S_colours[ord % S_NCOLOURS], *dash = S_dashes[ord % S_NDASHES];
		const char *shape = S_shapes[ord % S_NSHAPES];
		xmlNodePtr g;
		if (s->baseline)
			continue;
		ord++;
		g = S_series_group(root, "series", s, f, colour, "2", dash);
		for (k = 0; k < s->npoints; k++)
			if (S_has_whisker(&s->points[k]))
				S_whisker(g, f, &s->points[k], colour);
		for (k = 0; k < s->npoints; k++) {
			const hg_chart_point *pt = &s->points[k];
			if (!S_has(pt))
				continue;
			if (pt->hollow)
				hg_svg_marker(g, shape, S_px(f, pt->x), S_py(f, pt->y), "marker hollow",
					"#ffffff", colour, 1.5);
			else
				hg_svg_marker(g, shape, S_px(f, pt->x), S_py(f, pt->y), "marker", colour,
					"#ffffff", 0.75);
		}
	}

}

/* The legend below the plot: two columns in the order given, then a note on whiskers and one on
 * hollow markers. */
static void S_lines_legend(xmlNodePtr root, const hg_chart_lines *c, double legend_y,
	size_t nhollow, size_t nwhisker)
{
	const double legend_row = 20, col_w = 356, legend_x = 24;
	xmlNodePtr leg;
	size_t i, ord, entry;

	leg = hg_svg_el(root, "g");
	hg_svg_set(leg, "class", "legend");
	for (i = 0, ord = 0, entry = 0; i < c->nseries; i++, entry++) {
		const hg_chart_series *s = &c->series[i];
		double x = legend_x + (double)(entry % 2) * col_w;
		double y = legend_y + (double)(entry / 2) * legend_row + legend_row / 2;
		xmlNodePtr g = hg_svg_el(leg, "g"), t;
		hg_svg_set(g, "class", "legend-entry");
		hg_svg_set_text(g, "data-label", s->label);
		hg_svg_textel(g, "title", s->label);
		if (s->baseline) {
			S_sample(g, x, y, HG_SVG_GREY, "5 4", S_DOT, 1.25);
		} else {
			S_sample(g, x, y, S_colours[ord % S_NCOLOURS], S_dashes[ord % S_NDASHES],
				S_shapes[ord % S_NSHAPES], 2);
			ord++;
		}
		t = hg_svg_label(g, x + 48, y, "start", s->label, S_LEGEND_CHARS);
		hg_svg_set(t, "fill", HG_SVG_INK);
	}
	entry = (entry + 1) / 2; /* the row after the entries */
	if (nwhisker) {
		double y = legend_y + (double)entry++ * legend_row + legend_row / 2;
		xmlNodePtr g = hg_svg_el(leg, "g"), w, t;
		hg_svg_set(g, "class", "legend-note");
		w = hg_svg_el(g, "g");
		hg_svg_set(w, "class", "whisker");
		hg_svg_set(w, "stroke-width", "1.25");
		hg_svg_line(w, legend_x + 20, y - 7, legend_x + 20, y + 7, HG_SVG_INK);
		hg_svg_line(w, legend_x + 17, y - 7, legend_x + 23, y - 7, HG_SVG_INK);
		hg_svg_line(w, legend_x + 17, y + 7, legend_x + 23, y + 7, HG_SVG_INK);
		t = hg_svg_label(g, legend_x + 48, y, "start", "whisker: the figure's interval", 0);
		hg_svg_set(t, "fill", HG_SVG_INK);
	}
	if (nhollow) {
		double y = legend_y + (double)entry * legend_row + legend_row / 2;
		xmlNodePtr g = hg_svg_el(leg, "g"), t;
		hg_svg_set(g, "class", "legend-note");
		hg_svg_marker(g, S_shapes[0], legend_x + 20, y, "legend-marker", "#ffffff", HG_SVG_INK, 1.5);
		t = hg_svg_label(g, legend_x + 48, y, "start",
			"hollow marker: the figure's interval is wide or unconfirmed", 0);
		hg_svg_set(t, "fill", HG_SVG_INK);
	}
}

void hg_chart_point_of(hg_chart_point *pt, const hg_fig *f)
{
	const hg_iv *iv = &f->headline_iv;
	memset(pt, 0, sizeof(*pt));
	pt->x = (double)f->message_bytes;
	pt->y = f->headline_cpb;
	pt->hollow = iv->state == HG_IV_WIDE || iv->state == HG_IV_UNCONFIRMED ||
		(iv->state == HG_IV_NONE && f->disturbed);
	if (iv->state != HG_IV_NONE) {
		pt->lo = iv->low_cpb;
		pt->hi = iv->high_cpb;
	}
}

int hg_chart_lines_svg(char **out, size_t *len, const hg_chart_lines *c)
{
	const double legend_row = 20;
	xmlDocPtr doc;
	xmlNodePtr root;
	S_frame f;
	double xmin = INFINITY, xmax = -INFINITY, ymin = 0, ymax = 0, lo = 0, hi = 0, right, legend_y;
	double h;
	size_t i, k, nfig = 0, nhollow = 0, nwhisker = 0, label_chars = 0, rows;

	*out = NULL;
	if (len)
		*len = 0;
	if (!c || (c->nseries && !c->series))
		return hg_error_set("chart: no series given");
	for (i = 0; i < c->nseries; i++) {
		const hg_chart_series *s = &c->series[i];
		if (s->npoints && !s->points)
			return hg_error_set("chart \"%s\": series \"%s\": no points given",
				c->title ? c->title : "", s->label ? s->label : "");
		for (k = 0; k < s->npoints; k++) {
			const hg_chart_point *p = &s->points[k];
			if (!isfinite(p->x) || p->x <= 0)
				return hg_error_set("chart \"%s\": series \"%s\": point %zu: the message "
					"size is not a positive number", c->title ? c->title : "",
					s->label ? s->label : "", k + 1);
			xmin = fmin(xmin, p->x);
			xmax = fmax(xmax, p->x);
			if (!S_has(p))
				continue;
			if (nfig == 0)
				ymin = ymax = p->y;
			ymin = fmin(ymin, S_has_whisker(p) ? fmin(p->y, p->lo) : p->y);
			ymax = fmax(ymax, S_has_whisker(p) ? fmax(p->y, p->hi) : p->y);
			nfig++;
			nhollow += p->hollow != 0;
			nwhisker += S_has_whisker(p);
		}
	}
	if (nfig == 0)
		return hg_svg_empty(out, len, c->title, c->desc);

	for (i = 0; i < c->nseries; i++) {
		if (c->series[i].baseline) {
			char *t = hg_svg_clean(c->series[i].label, S_BASELINE_CHARS, NULL);
			size_t chars = 0;
			const char *p;
			for (p = t; *p; p++)
				chars += ((unsigned char)*p & 0xC0) != 0x80;
			if (chars > label_chars)
				label_chars = chars;
			free(t);
		}
	}
	/* room on the right for the baselines' labels (about 6 px a character at 11 px) */
	right = label_chars ? fmin(150, 14 + 6.0 * (double)label_chars) : 28;

	f.l = 70;
	f.r = HG_SVG_WIDTH - right;
	f.t = 16;
	f.b = 370;
	xmin = fmin(xmin, S_guide_sizes[0]);
	xmax = fmax(xmax, S_guide_sizes[7]);
	if (xmin == xmax) {
		f.x0 = log2(xmin) - 1;
		f.x1 = log2(xmax) + 1;
	} else {
		f.x0 = log2(xmin) - 0.35;
		f.x1 = log2(xmax) + 0.35;
	}
	/* The y axis is logarithmic when the largest figure is more than 30 times the smallest:
	 * on a linear axis from 0 everything below a thirtieth of the top would share the bottom
	 * dozen pixels, where the short messages' lines could not be told apart. Otherwise it is
	 * linear from 0, which keeps the proportions readable. */
	f.ylog = ymax / ymin > 30;
	if (f.ylog) {
		lo = hg_svg_floor125(ymin);
		hi = hg_svg_ceil125(ymax);
		f.y0 = log10(lo);
		f.y1 = log10(hi);
	} else {
		double ticks[32];
		hg_svg_linear_ticks(ticks, &f.y1, ymax);
		f.y0 = 0;
	}

	/* legend: two columns in the order given, then the notes on whiskers and hollow markers */
	rows = (c->nseries + 1) / 2 + (nhollow ? 1 : 0) + (nwhisker ? 1 : 0);
	legend_y = f.b + 64;
	h = legend_y + (double)rows * legend_row + 4;

	root = hg_svg_open(&doc, h, c->title, c->desc);
	S_y_axis(root, &f, lo, hi, ymax, c->y_label ? c->y_label : "cycles/byte");
	S_x_axis(root, &f, c);

	/* baselines under the series */
	if (S_lines_baselines(root, c, &f) != 0) {
		xmlFreeDoc(doc);
		return -1;
	}
	S_lines_series(root, c, &f);
	S_lines_legend(root, c, legend_y, nhollow, nwhisker);
	return hg_svg_finish(out, len, doc);
}

/* ---- the trace over time (the machine-speed sentinel) ---- */

typedef struct {
	double l, r, t, b, xtop, ytop;
} S_tframe;

static double S_tx(const S_tframe *f, double x)
{
	return f->l + x / f->xtop * (f->r - f->l);
}

static double S_ty(const S_tframe *f, double y)
{
	return f->b - (y + f->ytop) / (2 * f->ytop) * (f->b - f->t);
}

int hg_chart_trace_svg(char **out, size_t *len, const hg_chart_trace *c)
{
	const double legend_row = 20, legend_x = 24;
	xmlDocPtr doc;
	xmlNodePtr root, g, t, band, leg;
	S_tframe f;
	double xmax = 0, ymax = 0, ticks[32], top, legend_y, h;
	size_t i, k, n, npoints = 0, noutside = 0, entry;
	char b[32], lab[48];

	*out = NULL;
	if (len)
		*len = 0;
	if (!c || (c->nseries && !c->series) || !(c->band > 0))
		return hg_error_set("chart: no series or no band given");
	for (i = 0; i < c->nseries; i++)
		for (k = 0; k < c->series[i].npoints; k++) {
			const hg_trace_point *p = &c->series[i].points[k];
			if (!isfinite(p->x) || p->x < 0 || !isfinite(p->y))
				return hg_error_set("chart \"%s\": series \"%s\": point %zu: not a finite "
					"time and deviation", c->title ? c->title : "",
					c->series[i].label ? c->series[i].label : "", k + 1);
			xmax = fmax(xmax, p->x);
			ymax = fmax(ymax, fabs(p->y));
			npoints++;
			noutside += p->outside != 0;
		}
	if (npoints == 0)
		return hg_svg_empty(out, len, c->title, c->desc);
	f.l = 70;
	f.r = HG_SVG_WIDTH - 28;
	f.t = 40;
	f.b = 330;
	legend_y = f.b + 52;
	h = legend_y + (double)(c->nseries + 2) * legend_row + 8;
	root = hg_svg_open(&doc, h, c->title, c->desc);
	t = hg_svg_label(root, HG_SVG_WIDTH / 2, 18, "middle", c->title, 0);
	hg_svg_set(t, "class", "chart-title");
	hg_svg_set(t, "font-size", "14");
	hg_svg_set(t, "fill", HG_SVG_INK);

	/* y: symmetric around 0, at least twice the band */
	n = hg_svg_linear_ticks(ticks, &top, fmax(ymax * 1.05, 2 * c->band));
	f.ytop = top;
	/* the band under the grid, so that the grid stays visible across it */
	band = hg_svg_el(root, "rect");
	hg_svg_set(band, "class", "band");
	hg_svg_setn(band, "x", f.l);
	hg_svg_setn(band, "y", S_ty(&f, c->band));
	hg_svg_setn(band, "width", f.r - f.l);
	hg_svg_setn(band, "height", S_ty(&f, -c->band) - S_ty(&f, c->band));
	hg_svg_set(band, "fill", "#dcebf7");
	g = hg_svg_el(root, "g");
	hg_svg_set(g, "class", "axis");
	hg_svg_set(g, "data-axis", "y");
	hg_svg_set(g, "data-scale", "linear");
	for (k = 0; k < n; k++) {
		int sgn;
		for (sgn = (ticks[k] == 0 ? 1 : -1); sgn <= 1; sgn += 2) {
			double v = sgn * ticks[k], y = S_ty(&f, v);
			hg_svg_line(g, f.l, y, f.r, y, v == 0 ? HG_SVG_AXIS : HG_SVG_GRID);
			hg_svg_line(g, f.l - 4, y, f.l, y, HG_SVG_AXIS);
			snprintf(lab, sizeof lab, "%s%s", v > 0 ? "+" : v < 0 ? "-" : "",
				hg_svg_tick(b, fabs(v)));
			t = hg_svg_label(g, f.l - 7, y, "end", lab, 0);
			hg_svg_set(t, "fill", HG_SVG_INK);
		}
	}
	hg_svg_line(g, f.l, f.t, f.l, f.b, HG_SVG_AXIS);
	t = hg_svg_label(g, 0, 0, "middle", c->y_label, 0);
	hg_svg_setn(t, "x", -(f.t + f.b) / 2);
	hg_svg_set(t, "y", "16");
	hg_svg_set(t, "transform", "rotate(-90)");
	hg_svg_set(t, "fill", HG_SVG_INK);

	/* x: seconds from 0 */
	n = hg_svg_linear_ticks(ticks, &top, xmax > 0 ? xmax : 1);
	f.xtop = top;
	g = hg_svg_el(root, "g");
	hg_svg_set(g, "class", "axis");
	hg_svg_set(g, "data-axis", "x");
	hg_svg_set(g, "data-scale", "linear");
	for (k = 0; k < n; k++) {
		double x = S_tx(&f, ticks[k]);
		hg_svg_line(g, x, f.b, x, f.b + 4, HG_SVG_AXIS);
		t = hg_svg_label(g, x, f.b + 16, "middle", hg_svg_tick(b, ticks[k]), 0);
		hg_svg_set(t, "fill", HG_SVG_INK);
	}
	hg_svg_line(g, f.l, f.b, f.r, f.b, HG_SVG_AXIS);
	t = hg_svg_label(g, (f.l + f.r) / 2, f.b + 36, "middle", c->x_label, 0);
	hg_svg_set(t, "fill", HG_SVG_INK);

	for (i = 0; i < c->nseries; i++) {
		const hg_trace_series *s = &c->series[i];
		const char *colour = S_colours[i % S_NCOLOURS], *shape = S_shapes[i % S_NSHAPES];
		g = hg_svg_el(root, "g");
		hg_svg_set(g, "class", "series");
		hg_svg_set_text(g, "data-label", s->label);
		hg_svg_textel(g, "title", s->label);
		for (k = 0; k < s->npoints; k++) {
			const hg_trace_point *p = &s->points[k];
			xmlNodePtr m;
			if (p->outside)
				m = hg_svg_marker(g, shape, S_tx(&f, p->x), S_ty(&f, p->y), "marker reading outside",
					"#ffffff", "#C00000", 2);
			else
				m = hg_svg_marker(g, shape, S_tx(&f, p->x), S_ty(&f, p->y), "marker reading", colour,
					"#ffffff", 0.75);
			if (p->title)
				hg_svg_textel(m, "title", p->title);
		}
	}

	leg = hg_svg_el(root, "g");
	hg_svg_set(leg, "class", "legend");
	for (i = 0, entry = 0; i < c->nseries; i++, entry++) {
		double y = legend_y + (double)entry * legend_row;
		g = hg_svg_el(leg, "g");
		hg_svg_set(g, "class", "legend-entry");
		hg_svg_marker(g, S_shapes[i % S_NSHAPES], legend_x + 20, y, "legend-marker",
			S_colours[i % S_NCOLOURS], "#ffffff", 0.75);
		t = hg_svg_label(g, legend_x + 48, y, "start", c->series[i].label, S_LEGEND_CHARS);
		hg_svg_set(t, "fill", HG_SVG_INK);
	}
	g = hg_svg_el(leg, "g");
	hg_svg_set(g, "class", "legend-note");
	{
		double y = legend_y + (double)entry++ * legend_row;
		xmlNodePtr r = hg_svg_el(g, "rect");
		hg_svg_setn(r, "x", legend_x + 8);
		hg_svg_setn(r, "y", y - 6);
		hg_svg_set(r, "width", "24");
		hg_svg_set(r, "height", "12");
		hg_svg_set(r, "fill", "#dcebf7");
		snprintf(lab, sizeof lab, "band: within ±%s %% of the median", hg_svg_tick(b, c->band));
		t = hg_svg_label(g, legend_x + 48, y, "start", lab, 0);
		hg_svg_set(t, "fill", HG_SVG_INK);
	}
	if (noutside) {
		double y = legend_y + (double)entry * legend_row;
		hg_svg_marker(g, S_shapes[0], legend_x + 20, y, "legend-marker", "#ffffff", "#C00000", 2);
		t = hg_svg_label(g, legend_x + 48, y, "start",
			"hollow red marker: a reading outside the band", 0);
		hg_svg_set(t, "fill", HG_SVG_INK);
	}
	return hg_svg_finish(out, len, doc);
}
