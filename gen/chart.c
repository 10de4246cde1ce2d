/* chart.c — SVG charts of the site (render.h): a libxml2 tree serialised at the end, so every label
 * is escaped by construction; coordinates are printed with integer arithmetic, never the locale. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "render.h"

#define X(s) ((const xmlChar *)(s))

#define S_NS "http://www.w3.org/2000/svg"
#define S_WIDTH 760.0
#define S_INK "#222222"
#define S_AXIS "#555555"
#define S_GRID "#e4e4e4"
#define S_GREY "#8a8a8a"

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
#define S_BAR_CHARS 34

/* ---- text and numbers ---- */

/* v rounded to tenths, without the locale: "12", "-3.5". */
static const char *S_num(char buf[32], double v)
{
	long long t;
	if (!isfinite(v) || fabs(v) > 1e15)
		v = 0;
	t = llround(v * 10);
	if (t % 10 == 0)
		snprintf(buf, 32, "%s%lld", t < 0 ? "-" : "", llabs(t) / 10);
	else
		snprintf(buf, 32, "%s%lld.%lld", t < 0 ? "-" : "", llabs(t) / 10, llabs(t) % 10);
	return buf;
}

/* The x axis spans the guide's message sizes S1–S8 at least. */
static const double S_guide_sizes[8] = { 32, 128, 512, 1024, 4096, 8192, 16384, 65536 };

/* A tick value with as few decimals as it needs (at most 4): "0.05", "2", "1000". */
static const char *S_tick(char buf[32], double v)
{
	long long p = 1, m;
	int d;
	for (d = 0; d < 4; d++, p *= 10)
		if (fabs(v * (double)p - (double)llround(v * (double)p)) < 1e-6 * (double)p)
			break;
	m = llround(v * (double)p);
	if (d == 0)
		snprintf(buf, 32, "%lld", m);
	else
		snprintf(buf, 32, "%lld.%0*lld", m / p, d, m % p);
	return buf;
}

/* A message size: "32 B", "1 KiB", "64 KiB", "1 MiB", "1000 B". */
static const char *S_size(char buf[32], double x)
{
	unsigned long long b = (unsigned long long)llround(x);
	if (b >= 1048576 && b % 1048576 == 0)
		snprintf(buf, 32, "%llu MiB", b / 1048576);
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, 32, "%llu KiB", b / 1024);
	else
		snprintf(buf, 32, "%llu B", b);
	return buf;
}

/* Length of the well-formed UTF-8 character XML allows at s, or 0. */
static size_t S_utf8(const unsigned char *s)
{
	uint32_t c;
	size_t n, i;
	if (s[0] < 0x80)
		return s[0] >= 0x20 ? 1 : 0;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		n = 2, c = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		n = 3, c = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10FFFF)) ||
		(c >= 0xD800 && c <= 0xDFFF) || c == 0xFFFE || c == 0xFFFF)
		return 0;
	return n;
}

/* s as text XML can hold (control characters and broken UTF-8 become U+FFFD), cut to at most
 * max characters (0: no limit) with "…" as the last; malloc'd. *cut tells whether it was cut. */
static char *S_clean(const char *s, size_t max, int *cut)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t cap = strlen((const char *)p) * 3 + 4, o = 0, chars = 0, total = 0, n;
	const unsigned char *q;
	char *r = malloc(cap);

	if (!r) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	for (q = p; *q; q += n, total++)
		n = S_utf8(q) ? S_utf8(q) : 1;
	if (cut)
		*cut = max && total > max;
	for (; *p; p += n, chars++) {
		if (max && total > max && chars == max - 1) {
			memcpy(r + o, "\xE2\x80\xA6", 3);
			o += 3;
			break;
		}
		n = S_utf8(p);
		if (n) {
			memcpy(r + o, p, n);
			o += n;
		} else {
			n = 1;
			memcpy(r + o, "\xEF\xBF\xBD", 3);
			o += 3;
		}
	}
	r[o] = '\0';
	return r;
}

/* ---- the tree ---- */

static xmlNodePtr S_el(xmlNodePtr parent, const char *name)
{
	return xmlNewChild(parent, NULL, X(name), NULL);
}

static void S_set(xmlNodePtr n, const char *name, const char *value)
{
	xmlSetProp(n, X(name), X(value));
}

static void S_setn(xmlNodePtr n, const char *name, double v)
{
	char b[32];
	xmlSetProp(n, X(name), X(S_num(b, v)));
}

/* An element holding text (escaped by libxml2), made safe by S_clean first. */
static xmlNodePtr S_textel(xmlNodePtr parent, const char *name, const char *s)
{
	char *t = S_clean(s, 0, NULL);
	xmlNodePtr n = xmlNewTextChild(parent, NULL, X(name), X(t));
	free(t);
	return n;
}

/* An attribute holding untrusted text. */
static void S_set_text(xmlNodePtr n, const char *name, const char *s)
{
	char *t = S_clean(s, 0, NULL);
	xmlSetProp(n, X(name), X(t));
	free(t);
}

static xmlNodePtr S_line(xmlNodePtr parent, double x1, double y1, double x2, double y2,
	const char *stroke)
{
	xmlNodePtr n = S_el(parent, "line");
	S_setn(n, "x1", x1);
	S_setn(n, "y1", y1);
	S_setn(n, "x2", x2);
	S_setn(n, "y2", y2);
	S_set(n, "stroke", stroke);
	return n;
}

/* <text> at (x, y), vertically centred on y; anchor "start", "middle" or "end". The text is cut
 * to max characters (0: whole) and a cut one keeps the whole in a <title>. */
static xmlNodePtr S_label(xmlNodePtr parent, double x, double y, const char *anchor,
	const char *s, size_t max)
{
	int cut;
	char *t = S_clean(s, max, &cut);
	xmlNodePtr n = S_el(parent, "text");
	S_setn(n, "x", x);
	S_setn(n, "y", y);
	S_set(n, "dy", "0.35em");
	if (strcmp(anchor, "start") != 0)
		S_set(n, "text-anchor", anchor);
	if (cut)
		S_textel(n, "title", s);
	xmlNodeAddContent(n, X(t)); /* xmlNodeAddContent takes text, not markup */
	free(t);
	return n;
}

static xmlNodePtr S_marker(xmlNodePtr parent, const char *shape, double x, double y,
	const char *cls, const char *fill, const char *stroke, double width)
{
	char a[32], b[32], tr[80];
	xmlNodePtr n = S_el(parent, "path");
	if (cls)
		S_set(n, "class", cls);
	S_set(n, "d", shape);
	snprintf(tr, sizeof tr, "translate(%s %s)", S_num(a, x), S_num(b, y));
	S_set(n, "transform", tr);
	S_set(n, "fill", fill);
	S_set(n, "stroke", stroke);
	S_setn(n, "stroke-width", width);
	return n;
}

/* The document with its root <svg>, <title>, <desc> and white background. */
static xmlNodePtr S_open(xmlDocPtr *doc, double h, const char *title, const char *desc)
{
	char vb[96], a[32], b[32];
	xmlNodePtr root, bg;
	xmlNsPtr ns;

	*doc = xmlNewDoc(X("1.0"));
	root = xmlNewNode(NULL, X("svg"));
	ns = xmlNewNs(root, X(S_NS), NULL);
	xmlSetNs(root, ns);
	xmlDocSetRootElement(*doc, root);
	S_setn(root, "width", S_WIDTH);
	S_setn(root, "height", h);
	snprintf(vb, sizeof vb, "0 0 %s %s", S_num(a, S_WIDTH), S_num(b, h));
	S_set(root, "viewBox", vb);
	S_set(root, "font-family", "sans-serif");
	S_set(root, "font-size", "12");
	S_textel(root, "title", title);
	S_textel(root, "desc", desc);
	bg = S_el(root, "rect");
	S_set(bg, "class", "background");
	S_set(bg, "width", "100%");
	S_set(bg, "height", "100%");
	S_set(bg, "fill", "#ffffff");
	return root;
}

static int S_finish(char **out, size_t *len, xmlDocPtr doc)
{
	xmlChar *mem = NULL;
	int size = 0;

	xmlDocDumpFormatMemoryEnc(doc, &mem, &size, "UTF-8", 1);
	xmlFreeDoc(doc);
	if (!mem || size < 0) {
		xmlFree(mem);
		return hg_error_set("chart: cannot serialise the SVG (out of memory)");
	}
	*out = malloc((size_t)size + 1);
	if (!*out) {
		xmlFree(mem);
		return hg_error_set("chart: out of memory");
	}
	memcpy(*out, mem, (size_t)size);
	(*out)[size] = '\0';
	if (len)
		*len = (size_t)size;
	xmlFree(mem);
	return 0;
}

/* A chart without figures is still a chart: it says so. */
static int S_empty(char **out, size_t *len, const char *title, const char *desc)
{
	xmlDocPtr doc;
	xmlNodePtr root = S_open(&doc, 120, title, desc), t, frame;
	frame = S_el(root, "rect");
	S_set(frame, "x", "0.5");
	S_set(frame, "y", "0.5");
	S_set(frame, "width", "759");
	S_set(frame, "height", "119");
	S_set(frame, "fill", "none");
	S_set(frame, "stroke", S_GRID);
	t = S_label(root, S_WIDTH / 2, 60, "middle", "no figures", 0);
	S_set(t, "class", "no-figures");
	S_set(t, "font-size", "14");
	S_set(t, "fill", S_AXIS);
	return S_finish(out, len, doc);
}

/* ---- scales ---- */

/* The 1-2-5 step at or above raw (> 0). */
static double S_step(double raw)
{
	double m = pow(10, floor(log10(raw)));
	double f = raw / m;
	return (f <= 1 + 1e-9 ? 1 : f <= 2 + 1e-9 ? 2 : f <= 5 + 1e-9 ? 5 : 10) * m;
}

/* The largest 1-2-5 value at or below v (> 0), and the smallest at or above. */
static double S_floor125(double v)
{
	double m = pow(10, floor(log10(v)));
	if (m * 10 <= v * (1 + 1e-12))
		m *= 10;
	return v >= 5 * m * (1 - 1e-9) ? 5 * m : v >= 2 * m * (1 - 1e-9) ? 2 * m : m;
}

static double S_ceil125(double v)
{
	double m = pow(10, floor(log10(v)));
	if (m > v * (1 + 1e-12))
		m /= 10;
	return v <= m * (1 + 1e-9) ? m : v <= 2 * m * (1 + 1e-9) ? 2 * m :
		v <= 5 * m * (1 + 1e-9) ? 5 * m : 10 * m;
}

/* Ticks of a linear axis from 0 to *top (raised to a multiple of the step); returns the count. */
static size_t S_linear_ticks(double ticks[32], double *top, double max)
{
	double step = S_step(max / 7);
	size_t n = (size_t)ceil(max / step - 1e-9), k;
	if (n == 0)
		n = 1;
	*top = (double)n * step;
	for (k = 0; k <= n && k < 32; k++)
		ticks[k] = (double)k * step;
	return k;
}

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
			S_num(a, S_px(f, s->points[i].x)), S_num(b, S_py(f, s->points[i].y)));
		pen = 1;
	}
	return d;
}

static void S_y_axis(xmlNodePtr root, const S_frame *f, double lo, double hi, double ymax)
{
	xmlNodePtr g = S_el(root, "g"), t;
	double ticks[64];
	size_t n = 0, k;
	char b[32];

	S_set(g, "class", "axis");
	S_set(g, "data-axis", "y");
	S_set(g, "data-scale", f->ylog ? "log" : "linear");
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
		n = S_linear_ticks(ticks, &top, ymax);
	}
	for (k = 0; k < n; k++) {
		double y = S_py(f, ticks[k]);
		S_line(g, f->l, y, f->r, y, S_GRID);
		S_line(g, f->l - 4, y, f->l, y, S_AXIS);
		t = S_label(g, f->l - 7, y, "end", S_tick(b, ticks[k]), 0);
		S_set(t, "fill", S_INK);
	}
	S_line(g, f->l, f->t, f->l, f->b, S_AXIS);
	t = S_label(g, 0, 0, "middle", f->ylog ? "cycles/byte (log scale)" : "cycles/byte", 0);
	S_setn(t, "x", -(f->t + f->b) / 2);
	S_set(t, "y", "16");
	S_set(t, "transform", "rotate(-90)");
	S_set(t, "fill", S_INK);
}

static void S_x_axis(xmlNodePtr root, const S_frame *f, const hg_chart_lines *c)
{
	xmlNodePtr g = S_el(root, "g"), t;
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
	S_set(g, "class", "axis");
	S_set(g, "data-axis", "x");
	S_set(g, "data-scale", "log2");
	for (i = 0; i < n; i++) {
		double x;
		if (i > 0 && xs[i] == xs[i - 1])
			continue;
		x = S_px(f, xs[i]);
		S_line(g, x, f->t, x, f->b, S_GRID);
		S_line(g, x, f->b, x, f->b + 4, S_AXIS);
		/* sizes closer than a label's width keep their tick and lose the label */
		if (x - last >= 46) {
			t = S_label(g, x, f->b + 16, "middle", S_size(b, xs[i]), 0);
			S_set(t, "fill", S_INK);
			last = x;
		}
	}
	free(xs);
	S_line(g, f->l, f->b, f->r, f->b, S_AXIS);
	t = S_label(g, (f->l + f->r) / 2, f->b + 36, "middle", "message size (log scale)", 0);
	S_set(t, "fill", S_INK);
}

/* A sample of a series' line and marker, as in the legend. */
static void S_sample(xmlNodePtr g, double x, double y, const char *colour, const char *dash,
	const char *shape, double width)
{
	xmlNodePtr l = S_line(g, x, y, x + 40, y, colour);
	S_setn(l, "stroke-width", width);
	if (dash)
		S_set(l, "stroke-dasharray", dash);
	S_marker(g, shape, x + 20, y, "legend-marker", colour, shape == S_DOT ? colour : "#ffffff",
		shape == S_DOT ? 1 : 0.75);
}

/* The group of one series or baseline: its label, its <title> and its line (gaps split it). */
static xmlNodePtr S_series_group(xmlNodePtr root, const char *cls, const hg_chart_series *s,
	const S_frame *f, const char *stroke, const char *width, const char *dash)
{
	xmlNodePtr g = S_el(root, "g"), p;
	char *d = S_path(s, f);
	S_set(g, "class", cls);
	S_set_text(g, "data-label", s->label);
	S_textel(g, "title", s->label);
	if (d[0]) {
		p = S_el(g, "path");
		S_set(p, "class", "line");
		S_set(p, "d", d);
		S_set(p, "fill", "none");
		S_set(p, "stroke", stroke);
		S_set(p, "stroke-width", width);
		S_set(p, "stroke-linejoin", "round");
		if (dash)
			S_set(p, "stroke-dasharray", dash);
	}
	free(d);
	return g;
}

int hg_chart_lines_svg(char **out, size_t *len, const hg_chart_lines *c)
{
	const double legend_row = 20, col_w = 356, legend_x = 24;
	xmlDocPtr doc;
	xmlNodePtr root, leg;
	S_frame f;
	S_blabel *bl = NULL;
	double xmin = INFINITY, xmax = -INFINITY, ymin = 0, ymax = 0, lo = 0, hi = 0, right, legend_y, h;
	size_t i, k, nbl = 0, nfig = 0, nhollow = 0, label_chars = 0, rows, entry, ord;
	int rc;

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
			ymin = fmin(ymin, p->y);
			ymax = fmax(ymax, p->y);
			nfig++;
			nhollow += p->hollow != 0;
		}
	}
	if (nfig == 0)
		return S_empty(out, len, c->title, c->desc);

	for (i = 0; i < c->nseries; i++) {
		if (c->series[i].baseline) {
			char *t = S_clean(c->series[i].label, S_BASELINE_CHARS, NULL);
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
	f.r = S_WIDTH - right;
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
		lo = S_floor125(ymin);
		hi = S_ceil125(ymax);
		f.y0 = log10(lo);
		f.y1 = log10(hi);
	} else {
		double ticks[32];
		S_linear_ticks(ticks, &f.y1, ymax);
		f.y0 = 0;
	}

	/* legend: two columns in the order given, then a note on hollow markers */
	rows = (c->nseries + 1) / 2 + (nhollow ? 1 : 0);
	legend_y = f.b + 64;
	h = legend_y + (double)rows * legend_row + 4;

	root = S_open(&doc, h, c->title, c->desc);
	S_y_axis(root, &f, lo, hi, ymax);
	S_x_axis(root, &f, c);

	/* baselines under the series */
	bl = calloc(c->nseries + 1, sizeof(S_blabel));
	if (!bl) {
		xmlFreeDoc(doc);
		return hg_error_set("chart: out of memory");
	}
	for (i = 0; i < c->nseries; i++) {
		const hg_chart_series *s = &c->series[i];
		if (!s->baseline)
			continue;
		for (k = s->npoints; k-- > 0;)
			if (S_has(&s->points[k])) {
				bl[nbl].series = i;
				bl[nbl].x = S_px(&f, s->points[k].x) + 6;
				bl[nbl].want = S_py(&f, s->points[k].y);
				nbl++;
				break;
			}
	}
	S_place_labels(bl, nbl, &f);
	for (i = 0; i < c->nseries; i++) {
		const hg_chart_series *s = &c->series[i];
		xmlNodePtr g;
		if (!s->baseline)
			continue;
		g = S_series_group(root, "baseline", s, &f, S_GREY, "1.25", "5 4");
		for (k = 0; k < s->npoints; k++)
			if (S_has(&s->points[k]))
				S_marker(g, S_DOT, S_px(&f, s->points[k].x), S_py(&f, s->points[k].y),
					s->points[k].hollow ? "marker hollow" : "marker",
					s->points[k].hollow ? "#ffffff" : S_GREY, S_GREY, 1);
		for (k = 0; k < nbl; k++)
			if (bl[k].series == i) {
				xmlNodePtr t = S_label(g, bl[k].x, bl[k].y, "start", s->label,
					S_BASELINE_CHARS);
				S_set(t, "class", "baseline-label");
				S_set(t, "font-size", "11");
				S_set(t, "fill", "#555555");
			}
	}
	free(bl);

	for (i = 0, ord = 0; i < c->nseries; i++) {
		const hg_chart_series *s = &c->series[i];
		const char *colour = S_colours[ord % S_NCOLOURS], *dash = S_dashes[ord % S_NDASHES];
		const char *shape = S_shapes[ord % S_NSHAPES];
		xmlNodePtr g;
		if (s->baseline)
			continue;
		ord++;
		g = S_series_group(root, "series", s, &f, colour, "2", dash);
		for (k = 0; k < s->npoints; k++) {
			const hg_chart_point *pt = &s->points[k];
			if (!S_has(pt))
				continue;
			if (pt->hollow)
				S_marker(g, shape, S_px(&f, pt->x), S_py(&f, pt->y), "marker hollow",
					"#ffffff", colour, 1.5);
			else
				S_marker(g, shape, S_px(&f, pt->x), S_py(&f, pt->y), "marker", colour,
					"#ffffff", 0.75);
		}
	}

	leg = S_el(root, "g");
	S_set(leg, "class", "legend");
	for (i = 0, ord = 0, entry = 0; i < c->nseries; i++, entry++) {
		const hg_chart_series *s = &c->series[i];
		double x = legend_x + (double)(entry % 2) * col_w;
		double y = legend_y + (double)(entry / 2) * legend_row + legend_row / 2;
		xmlNodePtr g = S_el(leg, "g"), t;
		S_set(g, "class", "legend-entry");
		S_set_text(g, "data-label", s->label);
		S_textel(g, "title", s->label);
		if (s->baseline) {
			S_sample(g, x, y, S_GREY, "5 4", S_DOT, 1.25);
		} else {
			S_sample(g, x, y, S_colours[ord % S_NCOLOURS], S_dashes[ord % S_NDASHES],
				S_shapes[ord % S_NSHAPES], 2);
			ord++;
		}
		t = S_label(g, x + 48, y, "start", s->label, S_LEGEND_CHARS);
		S_set(t, "fill", S_INK);
	}
	if (nhollow) {
		double y = legend_y + (double)((entry + 1) / 2) * legend_row + legend_row / 2;
		xmlNodePtr g = S_el(leg, "g"), t;
		S_set(g, "class", "legend-note");
		S_marker(g, S_shapes[0], legend_x + 20, y, "legend-marker", "#ffffff", S_INK, 1.5);
		t = S_label(g, legend_x + 48, y, "start",
			"hollow marker: the figure is unstable or disturbed", 0);
		S_set(t, "fill", S_INK);
	}
	rc = S_finish(out, len, doc);
	return rc;
}

/* ---- the bar chart ---- */

int hg_chart_bars_svg(char **out, size_t *len, const char *title, const char *desc,
	const char *value_label, const hg_chart_bar *bars, size_t nbars)
{
	const double row = 26, bar_h = 16, top_margin = 12;
	xmlDocPtr doc;
	xmlNodePtr root, g, defs = NULL;
	double vmax = 0, top, ticks[32], l, r, b, h, label_w;
	size_t i, n, label_chars = 0;
	int any_hollow = 0, any_base = 0;
	char buf[64];

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
		vmax = fmax(vmax, bars[i].value);
		any_hollow |= bars[i].hollow != 0;
		any_base |= bars[i].baseline != 0;
		t = S_clean(bars[i].label, S_BAR_CHARS, NULL);
		for (p = t; *p; p++)
			chars += ((unsigned char)*p & 0xC0) != 0x80;
		if (chars > label_chars)
			label_chars = chars;
		free(t);
	}
	if (nbars == 0)
		return S_empty(out, len, title, desc);

	/* about 6.6 px a character at 12 px, so the longest label fits left of the bars */
	label_w = fmax(60, 6.6 * (double)label_chars);
	l = 12 + label_w + 8;
	r = S_WIDTH - 56;
	b = top_margin + (double)nbars * row + 4;
	h = b + 48 + ((any_hollow || any_base) ? 24 : 0);
	n = S_linear_ticks(ticks, &top, vmax > 0 ? vmax : 1);

	root = S_open(&doc, h, title, desc);
	if (any_hollow) {
		/* hatching for unstable or disturbed figures; fixed ids, the same in every chart */
		static const char *const ids[2] = { "hg-hatch", "hg-hatch-baseline" };
		static const char *const ink[2] = { "#0072B2", S_GREY };
		defs = S_el(root, "defs");
		for (i = 0; i < 2; i++) {
			xmlNodePtr pat = S_el(defs, "pattern"), bg, ln;
			S_set(pat, "id", ids[i]);
			S_set(pat, "width", "6");
			S_set(pat, "height", "6");
			S_set(pat, "patternUnits", "userSpaceOnUse");
			S_set(pat, "patternTransform", "rotate(45)");
			bg = S_el(pat, "rect");
			S_set(bg, "width", "6");
			S_set(bg, "height", "6");
			S_set(bg, "fill", "#ffffff");
			ln = S_line(pat, 1, 0, 1, 6, ink[i]);
			S_set(ln, "stroke-width", "2");
		}
	}

	g = S_el(root, "g");
	S_set(g, "class", "axis");
	S_set(g, "data-axis", "x");
	S_set(g, "data-scale", "linear");
	for (i = 0; i < n; i++) {
		double x = l + ticks[i] / top * (r - l);
		xmlNodePtr t;
		S_line(g, x, top_margin, x, b, S_GRID);
		S_line(g, x, b, x, b + 4, S_AXIS);
		t = S_label(g, x, b + 16, "middle", S_tick(buf, ticks[i]), 0);
		S_set(t, "fill", S_INK);
	}
	S_line(g, l, b, r, b, S_AXIS);
	S_line(g, l, top_margin, l, b, S_AXIS);
	{
		xmlNodePtr t = S_label(g, (l + r) / 2, b + 36, "middle", value_label, 0);
		S_set(t, "fill", S_INK);
	}

	g = S_el(root, "g");
	S_set(g, "class", "series");
	for (i = 0; i < nbars; i++) {
		const hg_chart_bar *br = &bars[i];
		double y = top_margin + (double)i * row + (row - bar_h) / 2;
		double w = br->value / top * (r - l);
		const char *ink = br->baseline ? S_GREY : "#0072B2";
		xmlNodePtr rect = S_el(g, "rect"), t;
		char *tip;
		S_set(rect, "class", br->hollow ? (br->baseline ? "bar hollow baseline" : "bar hollow") :
			br->baseline ? "bar baseline" : "bar");
		S_setn(rect, "x", l);
		S_setn(rect, "y", y);
		S_setn(rect, "width", w);
		S_setn(rect, "height", bar_h);
		S_set(rect, "fill", br->hollow ? (br->baseline ? "url(#hg-hatch-baseline)" :
			"url(#hg-hatch)") : ink);
		if (br->hollow) {
			S_set(rect, "stroke", ink);
			S_set(rect, "stroke-width", "1.5");
		}
		tip = hg_xprintf("%s: %s", br->label ? br->label : "", hg_fmt_cpb(buf, sizeof buf,
			br->value));
		S_textel(rect, "title", tip);
		free(tip);
		t = S_label(g, l - 8, y + bar_h / 2, "end", br->label, S_BAR_CHARS);
		S_set(t, "class", "bar-label");
		S_set(t, "fill", S_INK);
		t = S_label(g, l + w + 5, y + bar_h / 2, "start", hg_fmt_cpb(buf, sizeof buf, br->value),
			0);
		S_set(t, "class", "bar-value");
		S_set(t, "fill", S_INK);
	}

	if (any_hollow || any_base) {
		xmlNodePtr leg = S_el(root, "g"), s, t;
		double x = l, y = b + 58;
		S_set(leg, "class", "legend");
		if (any_hollow) {
			s = S_el(leg, "rect");
			S_setn(s, "x", x);
			S_setn(s, "y", y - 6);
			S_set(s, "width", "18");
			S_set(s, "height", "12");
			S_set(s, "fill", "url(#hg-hatch)");
			S_set(s, "stroke", "#0072B2");
			S_set(s, "stroke-width", "1.5");
			t = S_label(leg, x + 24, y, "start", "hatched: the figure is unstable or disturbed", 0);
			S_set(t, "fill", S_INK);
			x += 300;
		}
		if (any_base) {
			s = S_el(leg, "rect");
			S_setn(s, "x", x);
			S_setn(s, "y", y - 6);
			S_set(s, "width", "18");
			S_set(s, "height", "12");
			S_set(s, "fill", S_GREY);
			t = S_label(leg, x + 24, y, "start", "grey: a yardstick", 0);
			S_set(t, "fill", S_INK);
		}
	}
	return S_finish(out, len, doc);
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
		return S_empty(out, len, c->title, c->desc);
	f.l = 70;
	f.r = S_WIDTH - 28;
	f.t = 40;
	f.b = 330;
	legend_y = f.b + 52;
	h = legend_y + (double)(c->nseries + 2) * legend_row + 8;
	root = S_open(&doc, h, c->title, c->desc);
	t = S_label(root, S_WIDTH / 2, 18, "middle", c->title, 0);
	S_set(t, "class", "chart-title");
	S_set(t, "font-size", "14");
	S_set(t, "fill", S_INK);

	/* y: symmetric around 0, at least twice the band */
	n = S_linear_ticks(ticks, &top, fmax(ymax * 1.05, 2 * c->band));
	f.ytop = top;
	/* the band under the grid, so that the grid stays visible across it */
	band = S_el(root, "rect");
	S_set(band, "class", "band");
	S_setn(band, "x", f.l);
	S_setn(band, "y", S_ty(&f, c->band));
	S_setn(band, "width", f.r - f.l);
	S_setn(band, "height", S_ty(&f, -c->band) - S_ty(&f, c->band));
	S_set(band, "fill", "#dcebf7");
	g = S_el(root, "g");
	S_set(g, "class", "axis");
	S_set(g, "data-axis", "y");
	S_set(g, "data-scale", "linear");
	for (k = 0; k < n; k++) {
		int sgn;
		for (sgn = (ticks[k] == 0 ? 1 : -1); sgn <= 1; sgn += 2) {
			double v = sgn * ticks[k], y = S_ty(&f, v);
			S_line(g, f.l, y, f.r, y, v == 0 ? S_AXIS : S_GRID);
			S_line(g, f.l - 4, y, f.l, y, S_AXIS);
			snprintf(lab, sizeof lab, "%s%s", v > 0 ? "+" : v < 0 ? "-" : "",
				S_tick(b, fabs(v)));
			t = S_label(g, f.l - 7, y, "end", lab, 0);
			S_set(t, "fill", S_INK);
		}
	}
	S_line(g, f.l, f.t, f.l, f.b, S_AXIS);
	t = S_label(g, 0, 0, "middle", c->y_label, 0);
	S_setn(t, "x", -(f.t + f.b) / 2);
	S_set(t, "y", "16");
	S_set(t, "transform", "rotate(-90)");
	S_set(t, "fill", S_INK);

	/* x: seconds from 0 */
	n = S_linear_ticks(ticks, &top, xmax > 0 ? xmax : 1);
	f.xtop = top;
	g = S_el(root, "g");
	S_set(g, "class", "axis");
	S_set(g, "data-axis", "x");
	S_set(g, "data-scale", "linear");
	for (k = 0; k < n; k++) {
		double x = S_tx(&f, ticks[k]);
		S_line(g, x, f.b, x, f.b + 4, S_AXIS);
		t = S_label(g, x, f.b + 16, "middle", S_tick(b, ticks[k]), 0);
		S_set(t, "fill", S_INK);
	}
	S_line(g, f.l, f.b, f.r, f.b, S_AXIS);
	t = S_label(g, (f.l + f.r) / 2, f.b + 36, "middle", c->x_label, 0);
	S_set(t, "fill", S_INK);

	for (i = 0; i < c->nseries; i++) {
		const hg_trace_series *s = &c->series[i];
		const char *colour = S_colours[i % S_NCOLOURS], *shape = S_shapes[i % S_NSHAPES];
		g = S_el(root, "g");
		S_set(g, "class", "series");
		S_set_text(g, "data-label", s->label);
		S_textel(g, "title", s->label);
		for (k = 0; k < s->npoints; k++) {
			const hg_trace_point *p = &s->points[k];
			xmlNodePtr m;
			if (p->outside)
				m = S_marker(g, shape, S_tx(&f, p->x), S_ty(&f, p->y), "marker reading outside",
					"#ffffff", "#C00000", 2);
			else
				m = S_marker(g, shape, S_tx(&f, p->x), S_ty(&f, p->y), "marker reading", colour,
					"#ffffff", 0.75);
			if (p->title)
				S_textel(m, "title", p->title);
		}
	}

	leg = S_el(root, "g");
	S_set(leg, "class", "legend");
	for (i = 0, entry = 0; i < c->nseries; i++, entry++) {
		double y = legend_y + (double)entry * legend_row;
		g = S_el(leg, "g");
		S_set(g, "class", "legend-entry");
		S_marker(g, S_shapes[i % S_NSHAPES], legend_x + 20, y, "legend-marker",
			S_colours[i % S_NCOLOURS], "#ffffff", 0.75);
		t = S_label(g, legend_x + 48, y, "start", c->series[i].label, S_LEGEND_CHARS);
		S_set(t, "fill", S_INK);
	}
	g = S_el(leg, "g");
	S_set(g, "class", "legend-note");
	{
		double y = legend_y + (double)entry++ * legend_row;
		xmlNodePtr r = S_el(g, "rect");
		S_setn(r, "x", legend_x + 8);
		S_setn(r, "y", y - 6);
		S_set(r, "width", "24");
		S_set(r, "height", "12");
		S_set(r, "fill", "#dcebf7");
		snprintf(lab, sizeof lab, "band: within ±%s %% of the median", S_tick(b, c->band));
		t = S_label(g, legend_x + 48, y, "start", lab, 0);
		S_set(t, "fill", S_INK);
	}
	if (noutside) {
		double y = legend_y + (double)entry * legend_row;
		S_marker(g, S_shapes[0], legend_x + 20, y, "legend-marker", "#ffffff", "#C00000", 2);
		t = S_label(g, legend_x + 48, y, "start",
			"hollow red marker: a reading outside the band", 0);
		S_set(t, "fill", S_INK);
	}
	return S_finish(out, len, doc);
}
