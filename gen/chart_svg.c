/* chart_svg.c — the SVG toolkit the charts share: numbers and labels printed without the locale
 * and cut to whole UTF-8 characters, elements and attributes of a libxml2 tree (so every label is
 * escaped by construction), the document's frame and serialisation, and 1-2-5 scales. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_svg.h"
#include "genutil.h"
#include "xmlsink.h"

#define X(s) ((const xmlChar *)(s))

/* ---- text and numbers ---- */

/* v rounded to tenths, without the locale: "12", "-3.5". */
const char *hg_svg_num(char buf[32], double v)
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


/* A tick value with as few decimals as it needs (at most 4): "0.05", "2", "1000". */
const char *hg_svg_tick(char buf[32], double v)
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
const char *hg_svg_size(char buf[32], double x)
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
char *hg_svg_clean(const char *s, size_t max, int *cut)
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

xmlNodePtr hg_svg_el(xmlNodePtr parent, const char *name)
{
	return xmlNewChild(parent, NULL, X(name), NULL);
}

void hg_svg_set(xmlNodePtr n, const char *name, const char *value)
{
	xmlSetProp(n, X(name), X(value));
}

void hg_svg_setn(xmlNodePtr n, const char *name, double v)
{
	char b[32];
	xmlSetProp(n, X(name), X(hg_svg_num(b, v)));
}

/* An element holding text (escaped by libxml2), made safe by hg_svg_clean first. */
xmlNodePtr hg_svg_textel(xmlNodePtr parent, const char *name, const char *s)
{
	char *t = hg_svg_clean(s, 0, NULL);
	xmlNodePtr n = xmlNewTextChild(parent, NULL, X(name), X(t));
	free(t);
	return n;
}

/* An attribute holding untrusted text. */
void hg_svg_set_text(xmlNodePtr n, const char *name, const char *s)
{
	char *t = hg_svg_clean(s, 0, NULL);
	xmlSetProp(n, X(name), X(t));
	free(t);
}

xmlNodePtr hg_svg_line(xmlNodePtr parent, double x1, double y1, double x2, double y2,
	const char *stroke)
{
	xmlNodePtr n = hg_svg_el(parent, "line");
	hg_svg_setn(n, "x1", x1);
	hg_svg_setn(n, "y1", y1);
	hg_svg_setn(n, "x2", x2);
	hg_svg_setn(n, "y2", y2);
	hg_svg_set(n, "stroke", stroke);
	return n;
}

/* <text> at (x, y), vertically centred on y; anchor "start", "middle" or "end". The text is cut
 * to max characters (0: whole) and a cut one keeps the whole in a <title>. */
xmlNodePtr hg_svg_label(xmlNodePtr parent, double x, double y, const char *anchor,
	const char *s, size_t max)
{
	int cut;
	char *t = hg_svg_clean(s, max, &cut);
	xmlNodePtr n = hg_svg_el(parent, "text");
	hg_svg_setn(n, "x", x);
	hg_svg_setn(n, "y", y);
	hg_svg_set(n, "dy", "0.35em");
	if (strcmp(anchor, "start") != 0)
		hg_svg_set(n, "text-anchor", anchor);
	if (cut)
		hg_svg_textel(n, "title", s);
	xmlNodeAddContent(n, X(t)); /* xmlNodeAddContent takes text, not markup */
	free(t);
	return n;
}

xmlNodePtr hg_svg_marker(xmlNodePtr parent, const char *shape, double x, double y,
	const char *cls, const char *fill, const char *stroke, double width)
{
	char a[32], b[32], tr[80];
	xmlNodePtr n = hg_svg_el(parent, "path");
	if (cls)
		hg_svg_set(n, "class", cls);
	hg_svg_set(n, "d", shape);
	snprintf(tr, sizeof tr, "translate(%s %s)", hg_svg_num(a, x), hg_svg_num(b, y));
	hg_svg_set(n, "transform", tr);
	hg_svg_set(n, "fill", fill);
	hg_svg_set(n, "stroke", stroke);
	hg_svg_setn(n, "stroke-width", width);
	return n;
}

/* The document with its root <svg>, <title>, <desc> and white background. */
xmlNodePtr hg_svg_open(xmlDocPtr *doc, double h, const char *title, const char *desc)
{
	char vb[96], a[32], b[32];
	xmlNodePtr root, bg;
	xmlNsPtr ns;

	*doc = xmlNewDoc(X("1.0"));
	/* element and attribute names held once by the document (see render_html.c) */
	if (*doc)
		(*doc)->dict = xmlDictCreate();
	root = xmlNewNode(NULL, X("svg"));
	ns = xmlNewNs(root, X(HG_SVG_NS), NULL);
	xmlSetNs(root, ns);
	xmlDocSetRootElement(*doc, root);
	hg_svg_setn(root, "width", HG_SVG_WIDTH);
	hg_svg_setn(root, "height", h);
	snprintf(vb, sizeof vb, "0 0 %s %s", hg_svg_num(a, HG_SVG_WIDTH), hg_svg_num(b, h));
	hg_svg_set(root, "viewBox", vb);
	hg_svg_set(root, "font-family", "sans-serif");
	hg_svg_set(root, "font-size", "12");
	hg_svg_textel(root, "title", title);
	hg_svg_textel(root, "desc", desc);
	bg = hg_svg_el(root, "rect");
	hg_svg_set(bg, "class", "background");
	hg_svg_set(bg, "width", "100%");
	hg_svg_set(bg, "height", "100%");
	hg_svg_set(bg, "fill", "#ffffff");
	return root;
}

int hg_svg_finish(char **out, size_t *len, xmlDocPtr doc)
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

#define S_PLACEHOLDER "hg-items"

xmlNodePtr hg_svg_placeholder(xmlNodePtr series)
{
	return hg_svg_el(series, S_PLACEHOLDER);
}

/* The items' nodes, each on its line at the placeholder's indentation, into k. */
static int S_items(hg_xml_sink *k, xmlDocPtr doc, xmlNodePtr series, const char *indent,
	size_t nindent, void (*item)(void *ctx, size_t i, xmlNodePtr series), void *ctx, size_t n)
{
	xmlOutputBufferPtr ob = hg_xml_sink_open(k);
	size_t i;
	int failed;

	for (i = 0; ob && i < n && !ob->error; i++) {
		item(ctx, i, series);
		while (series->children) {
			xmlNodePtr c = series->children;
			xmlOutputBufferWrite(ob, (int)nindent, indent);
			xmlNodeDumpOutput(ob, doc, c, (int)(nindent / 2), 1, "UTF-8");
			xmlOutputBufferWrite(ob, 1, "\n");
			xmlUnlinkNode(c);
			xmlFreeNode(c);
		}
	}
	failed = !ob || ob->error;
	if (ob && xmlOutputBufferClose(ob) < 0)
		failed = 1;
	return failed ? -1 : 0;
}

int hg_svg_finish_items(char **out, size_t *len, xmlDocPtr doc, xmlNodePtr series,
	void (*item)(void *ctx, size_t i, xmlNodePtr series), void *ctx, size_t n)
{
	hg_xml_sink k = { NULL, 0, 0, 0, NULL };
	xmlNodePtr placeholder;
	xmlChar *mem = NULL;
	int size = 0, rc = -1;
	const char *text, *at, *line, *end;

	/* the document around the placeholder, then the items where its line stands */
	xmlDocDumpFormatMemoryEnc(doc, &mem, &size, "UTF-8", 1);
	text = (const char *)mem;
	at = mem && size > 0 ? strstr(text, "<" S_PLACEHOLDER "/>") : NULL;
	if (at) {
		for (line = at; line > text && line[-1] != '\n'; line--)
			;
		end = strchr(at, '\n');
		end = end ? end + 1 : text + size;
		placeholder = series->children;
		xmlUnlinkNode(placeholder);
		xmlFreeNode(placeholder);
		rc = hg_xml_sink_add(&k, text, (size_t)(line - text)) == 0 &&
			S_items(&k, doc, series, line, (size_t)(at - line), item, ctx, n) == 0 &&
			hg_xml_sink_add(&k, end, (size_t)(text + size - end)) == 0 ? 0 : -1;
	}
	xmlFree(mem);
	xmlFreeDoc(doc);
	if (rc != 0 || k.failed || !k.data) {
		free(k.data);
		return hg_error_set("chart: cannot serialise the SVG (out of memory)");
	}
	*out = k.data;
	if (len)
		*len = k.len;
	return 0;
}

/* A chart without figures is still a chart: it says so. */
int hg_svg_empty(char **out, size_t *len, const char *title, const char *desc)
{
	xmlDocPtr doc;
	xmlNodePtr root = hg_svg_open(&doc, 120, title, desc), t, frame;
	frame = hg_svg_el(root, "rect");
	hg_svg_set(frame, "x", "0.5");
	hg_svg_set(frame, "y", "0.5");
	hg_svg_set(frame, "width", "759");
	hg_svg_set(frame, "height", "119");
	hg_svg_set(frame, "fill", "none");
	hg_svg_set(frame, "stroke", HG_SVG_GRID);
	t = hg_svg_label(root, HG_SVG_WIDTH / 2, 60, "middle", "no figures", 0);
	hg_svg_set(t, "class", "no-figures");
	hg_svg_set(t, "font-size", "14");
	hg_svg_set(t, "fill", HG_SVG_AXIS);
	return hg_svg_finish(out, len, doc);
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
double hg_svg_floor125(double v)
{
	double m = pow(10, floor(log10(v)));
	if (m * 10 <= v * (1 + 1e-12))
		m *= 10;
	return v >= 5 * m * (1 - 1e-9) ? 5 * m : v >= 2 * m * (1 - 1e-9) ? 2 * m : m;
}

double hg_svg_ceil125(double v)
{
	double m = pow(10, floor(log10(v)));
	if (m > v * (1 + 1e-12))
		m /= 10;
	return v <= m * (1 + 1e-9) ? m : v <= 2 * m * (1 + 1e-9) ? 2 * m :
		v <= 5 * m * (1 + 1e-9) ? 5 * m : 10 * m;
}

/* Ticks of a linear axis from 0 to *top (raised to a multiple of the step); returns the count. */
size_t hg_svg_linear_ticks(double ticks[32], double *top, double max)
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

