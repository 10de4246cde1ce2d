/* test_chart.c — the SVG charts parse as SVG, say what they draw, keep labels as text, tell
 * series apart without colour, pick the y scale the data needs and come out the same every time. */
#include <criterion/criterion.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "render.h"

#define X(s) ((const xmlChar *)(s))
#define SVG_NS "http://www.w3.org/2000/svg"
/* XPath test of one class among an element's classes */
#define CLS(c) "contains(concat(' ', normalize-space(@class), ' '), ' " c " ')"

static const double SIZES[8] = { 32, 128, 512, 1024, 4096, 8192, 16384, 65536 };
static const char *const EVIL = "<b>&amp;\"x\"";

/* ---- helpers ---- */

static int S_xml_errors;

#if LIBXML_VERSION >= 21200
static void S_on_error(void *ctx, const xmlError *e)
#else
static void S_on_error(void *ctx, xmlErrorPtr e)
#endif
{
	(void)ctx;
	if (e && e->level >= XML_ERR_ERROR)
		S_xml_errors++;
}

/* Parse SVG text strictly: any libxml2 error fails the test. */
static xmlDocPtr S_parse(const char *svg, size_t len)
{
	xmlDocPtr d;
	cr_assert_not_null(svg);
	cr_assert_eq(strlen(svg), len, "the length returned is the text's length");
	S_xml_errors = 0;
	xmlSetStructuredErrorFunc(NULL, S_on_error);
	d = xmlReadMemory(svg, (int)len, "chart.svg", NULL, XML_PARSE_NONET);
	xmlSetStructuredErrorFunc(NULL, NULL);
	cr_assert_not_null(d, "the SVG does not parse as XML:\n%s", svg);
	cr_assert_eq(S_xml_errors, 0, "libxml2 reported %d errors parsing:\n%s", S_xml_errors, svg);
	return d;
}

static xmlXPathObjectPtr S_eval(xmlDocPtr d, xmlNodePtr at, const char *xpath)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(d);
	xmlXPathObjectPtr o;
	xmlXPathRegisterNs(ctx, X("s"), X(SVG_NS));
	if (at)
		ctx->node = at;
	o = xmlXPathEvalExpression(X(xpath), ctx);
	xmlXPathFreeContext(ctx);
	cr_assert_not_null(o, "bad XPath %s", xpath);
	return o;
}

static int S_count(xmlDocPtr d, const char *xpath)
{
	xmlXPathObjectPtr o = S_eval(d, NULL, xpath);
	int n = o->nodesetval ? o->nodesetval->nodeNr : 0;
	xmlXPathFreeObject(o);
	return n;
}

/* The nodes of xpath (at most max) into out; returns the count. */
static int S_nodes(xmlDocPtr d, xmlNodePtr at, const char *xpath, xmlNodePtr *out, int max)
{
	xmlXPathObjectPtr o = S_eval(d, at, xpath);
	int n = o->nodesetval ? o->nodesetval->nodeNr : 0, i;
	for (i = 0; i < n && i < max; i++)
		out[i] = o->nodesetval->nodeTab[i];
	xmlXPathFreeObject(o);
	return n;
}

/* An attribute as a malloc'd string ("" when absent). */
static char *S_attr(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, X(name));
	char *r = strdup(v ? (const char *)v : "");
	xmlFree(v);
	return r;
}

static double S_attr_num(xmlNodePtr n, const char *name)
{
	char *v = S_attr(n, name);
	double r;
	cr_assert(v[0], "<%s> has no %s", (const char *)n->name, name);
	r = strtod(v, NULL);
	free(v);
	return r;
}

/* The text directly inside an element (not that of its <title>). */
static char *S_own_text(xmlNodePtr n)
{
	char *r = strdup("");
	xmlNodePtr c;
	for (c = n->children; c; c = c->next)
		if (c->type == XML_TEXT_NODE) {
			char *g = hg_xprintf("%s%s", r, (const char *)c->content);
			free(r);
			r = g;
		}
	return r;
}

/* Is there a <text> whose own text is s? */
static int S_has_text(xmlDocPtr d, const char *scope, const char *s)
{
	xmlNodePtr n[256];
	int k = S_nodes(d, NULL, scope, n, 256), i, found = 0;
	for (i = 0; i < k && i < 256; i++) {
		char *t = S_own_text(n[i]);
		found |= strcmp(t, s) == 0;
		free(t);
	}
	return found;
}

static void S_translate(xmlNodePtr n, double *x, double *y)
{
	char *t = S_attr(n, "transform");
	cr_assert_eq(sscanf(t, "translate(%lf %lf)", x, y), 2, "marker transform \"%s\"", t);
	free(t);
}

static hg_chart_point *S_points(const double *y, const int *hollow)
{
	hg_chart_point *p = calloc(8, sizeof *p);
	int i;
	for (i = 0; i < 8; i++) {
		p[i].x = SIZES[i];
		p[i].y = y[i];
		p[i].hollow = hollow ? hollow[i] : 0;
	}
	return p;
}

/* A curve falling from top at 32 B to top/8 at 64 KiB. */
static hg_chart_point *S_curve(double top)
{
	double y[8];
	int i;
	for (i = 0; i < 8; i++)
		y[i] = top / (1 + 7.0 * i / 7);
	return S_points(y, NULL);
}

static xmlDocPtr S_lines(char **svg, const hg_chart_series *s, size_t n)
{
	hg_chart_lines c = { "the title", "the description", s, n, NULL };
	size_t len = 0;
	int rc = hg_chart_lines_svg(svg, &len, &c);
	cr_assert_eq(rc, 0, "hg_chart_lines_svg failed: %s", hg_error_last());
	return S_parse(*svg, len);
}

/* ---- the line chart ---- */

Test(chart, lines_root_is_svg_with_size_and_viewbox)
{
	hg_chart_point *p = S_curve(40);
	hg_chart_series s[1] = { { "one", p, 8, 0 } };
	char *svg, *w, *h, *vb, want[64];
	xmlDocPtr d = S_lines(&svg, s, 1);
	xmlNodePtr root = xmlDocGetRootElement(d);

	cr_assert_str_eq((const char *)root->name, "svg");
	cr_assert_not_null(root->ns, "the root has no namespace");
	cr_assert_str_eq((const char *)root->ns->href, SVG_NS);
	cr_assert_null(root->ns->prefix, "the SVG namespace is the default one");
	w = S_attr(root, "width");
	h = S_attr(root, "height");
	vb = S_attr(root, "viewBox");
	cr_expect_str_eq(w, "760");
	cr_expect_geq(atof(h), 420, "the line chart is at least 420 px high, got %s", h);
	snprintf(want, sizeof want, "0 0 %s %s", w, h);
	cr_expect_str_eq(vb, want);
	cr_expect_eq(S_count(d, "//s:script"), 0, "no script in a chart");
	cr_expect_eq(S_count(d, "/s:svg/s:rect[@fill='#ffffff' and @width='100%']"), 1,
		"a white background");
	cr_expect(strstr(svg, "font-family=\"sans-serif\"") != NULL);
	free(w);
	free(h);
	free(vb);
	xmlFreeDoc(d);
	free(svg);
	free(p);
}

Test(chart, title_and_desc_come_first_and_hold_the_inputs)
{
	hg_chart_point *p = S_curve(40);
	hg_chart_series s[1] = { { "one", p, 8, 0 } };
	char *svg, *t;
	xmlDocPtr d = S_lines(&svg, s, 1);
	xmlNodePtr first = xmlFirstElementChild(xmlDocGetRootElement(d));
	xmlNodePtr second = xmlNextElementSibling(first);

	cr_assert_str_eq((const char *)first->name, "title");
	cr_assert_str_eq((const char *)second->name, "desc");
	t = (char *)xmlNodeGetContent(first);
	cr_expect_str_eq(t, "the title");
	xmlFree(t);
	t = (char *)xmlNodeGetContent(second);
	cr_expect_str_eq(t, "the description");
	xmlFree(t);
	xmlFreeDoc(d);
	free(svg);
	free(p);
}

Test(chart, one_group_per_series_and_per_baseline)
{
	hg_chart_point *p[5] = { S_curve(40), S_curve(30), S_curve(50), S_curve(20), S_curve(60) };
	hg_chart_series s[5] = {
		{ "alpha", p[0], 8, 0 }, { "SM3 (reference)", p[1], 8, 1 }, { "beta", p[2], 8, 0 },
		{ "SHA-256 (reference)", p[3], 8, 1 }, { "gamma", p[4], 8, 0 },
	};
	static const char *const names[3] = { "alpha", "beta", "gamma" };
	xmlNodePtr g[8];
	char *svg;
	xmlDocPtr d = S_lines(&svg, s, 5);
	int i, n;

	cr_expect_eq(S_count(d, "//s:g[@class='series']"), 3);
	cr_expect_eq(S_count(d, "//s:g[@class='baseline']"), 2);
	cr_expect_eq(S_count(d, "//s:g[@class='legend']"), 1);
	cr_expect_eq(S_count(d, "//s:g[@class='legend']/s:g[@class='legend-entry']"), 5,
		"the legend lists every series, baselines included");
	cr_expect_eq(S_count(d, "//s:g[@class='axis']"), 2);
	n = S_nodes(d, NULL, "//s:g[@class='series']", g, 8);
	for (i = 0; i < n && i < 3; i++) {
		char *l = S_attr(g[i], "data-label");
		cr_expect_str_eq(l, names[i], "series in the given order");
		free(l);
	}
	cr_expect_eq(S_count(d, "//s:g[@class='series']/s:path[@class='line']"), 3);
	cr_expect_eq(S_count(d, "//s:g[@class='series']//*[" CLS("marker") "]"), 24,
		"a marker per point of every series");
	/* the baselines: grey, dashed, labelled at their right end */
	n = S_nodes(d, NULL, "//s:g[@class='baseline']/s:path[@class='line']", g, 8);
	cr_expect_eq(n, 2);
	for (i = 0; i < n && i < 2; i++) {
		char *dash = S_attr(g[i], "stroke-dasharray");
		cr_expect(dash[0], "a baseline is dashed");
		free(dash);
	}
	cr_expect(S_has_text(d, "//s:g[@class='baseline']/s:text", "SM3 (reference)"));
	cr_expect(S_has_text(d, "//s:g[@class='baseline']/s:text", "SHA-256 (reference)"));
	xmlFreeDoc(d);
	free(svg);
	for (i = 0; i < 5; i++)
		free(p[i]);
}

Test(chart, hollow_points_get_hollow_markers)
{
	double y[8] = { 90, 40, 20, 15, 12, 11, 10.5, 10 };
	int hollow[8] = { 0, 1, 0, 0, 1, 0, 0, 0 };
	hg_chart_point *p = S_points(y, hollow);
	hg_chart_series s[1] = { { "one", p, 8, 0 } };
	xmlNodePtr m[16];
	char *svg;
	xmlDocPtr d = S_lines(&svg, s, 1);
	int n = S_nodes(d, NULL, "//s:g[@class='series']/*[" CLS("marker") "]", m, 16), i;
	double hx[2], hy[2];
	int nh = 0;

	cr_assert_eq(n, 8);
	for (i = 0; i < n; i++) {
		char *cls = S_attr(m[i], "class"), *fill = S_attr(m[i], "fill");
		int is_hollow = strstr(cls, "hollow") != NULL;
		cr_expect_eq(is_hollow, hollow[i], "marker %d: class \"%s\"", i, cls);
		if (is_hollow) {
			cr_expect_str_eq(fill, "#ffffff", "a hollow marker is white inside");
			S_translate(m[i], &hx[nh], &hy[nh]);
			nh++;
		} else {
			cr_expect_str_neq(fill, "#ffffff", "a solid marker is filled");
		}
		free(cls);
		free(fill);
	}
	cr_expect_eq(nh, 2);
	cr_expect_eq(S_count(d, "//s:g[@class='legend']//*[contains(text(), 'hollow')]"), 1,
		"the legend says what a hollow marker means");
	xmlFreeDoc(d);
	free(svg);
	free(p);
}

/* A marker's element name and outline. */
static char *S_shape(xmlNodePtr m)
{
	char *d = S_attr(m, "d"), *r = hg_xprintf("%s %s", (const char *)m->name, d);
	free(d);
	return r;
}

/* The look of a series: its marker outline and its dash pattern; and its colour. */
static void S_look(xmlDocPtr d, xmlNodePtr g, char **shape, char **dash, char **colour)
{
	xmlNodePtr line[2], mark[2];
	cr_assert_eq(S_nodes(d, g, "s:path[@class='line']", line, 2), 1);
	cr_assert_geq(S_nodes(d, g, "*[" CLS("marker") "]", mark, 2), 1);
	*shape = S_shape(mark[0]);
	*dash = S_attr(line[0], "stroke-dasharray");
	*colour = S_attr(line[0], "stroke");
}

Test(chart, series_differ_in_marker_and_dash_and_colour)
{
	hg_chart_point *p[8];
	hg_chart_series s[8];
	char *label[8], *shape[8], *dash[8], *colour[8], *svg;
	xmlNodePtr g[8], entry[8];
	xmlDocPtr d;
	int i, j;

	for (i = 0; i < 8; i++) {
		p[i] = S_curve(20 + 3 * i);
		label[i] = hg_xprintf("series %d", i);
		s[i] = (hg_chart_series){ label[i], p[i], 8, 0 };
	}
	d = S_lines(&svg, s, 8);
	cr_assert_eq(S_nodes(d, NULL, "//s:g[@class='series']", g, 8), 8);
	cr_assert_eq(S_nodes(d, NULL, "//s:g[@class='legend-entry']", entry, 8), 8);
	for (i = 0; i < 8; i++)
		S_look(d, g[i], &shape[i], &dash[i], &colour[i]);
	for (i = 0; i < 8; i++)
		for (j = i + 1; j < 8; j++) {
			cr_expect(strcmp(shape[i], shape[j]) != 0 || strcmp(dash[i], dash[j]) != 0,
				"series %d and %d share marker and dash pattern", i, j);
			if (j < 7)
				cr_expect_str_neq(colour[i], colour[j], "series %d and %d share a colour", i, j);
		}
	/* the legend shows each series as drawn */
	for (i = 0; i < 8; i++) {
		xmlNodePtr l[2], m[2];
		char *ld, *ls, *lm;
		cr_assert_eq(S_nodes(d, entry[i], "s:line", l, 2), 1);
		cr_assert_eq(S_nodes(d, entry[i], "s:path[@class='legend-marker']", m, 2), 1);
		ld = S_attr(l[0], "stroke-dasharray");
		ls = S_attr(l[0], "stroke");
		lm = S_shape(m[0]);
		cr_expect_str_eq(ld, dash[i], "legend entry %d: dash", i);
		cr_expect_str_eq(ls, colour[i], "legend entry %d: colour", i);
		cr_expect_str_eq(lm, shape[i], "legend entry %d: marker", i);
		free(ld);
		free(ls);
		free(lm);
	}
	xmlFreeDoc(d);
	free(svg);
	for (i = 0; i < 8; i++) {
		free(p[i]);
		free(label[i]);
		free(shape[i]);
		free(dash[i]);
		free(colour[i]);
	}
}

Test(chart, markup_in_labels_stays_text)
{
	hg_chart_point *p[2] = { S_curve(40), S_curve(30) };
	hg_chart_series s[2] = { { EVIL, p[0], 8, 0 }, { EVIL, p[1], 8, 1 } };
	hg_chart_lines c = { EVIL, EVIL, s, 2, NULL };
	xmlNodePtr g[4];
	char *svg, *t;
	size_t len;
	xmlDocPtr d;
	int i;

	cr_assert_eq(hg_chart_lines_svg(&svg, &len, &c), 0);
	d = S_parse(svg, len);
	cr_expect_eq(S_count(d, "//*[local-name()='b']"), 0, "a label made an element");
	t = (char *)xmlNodeGetContent(xmlFirstElementChild(xmlDocGetRootElement(d)));
	cr_expect_str_eq(t, EVIL);
	xmlFree(t);
	cr_assert_eq(S_nodes(d, NULL, "//s:g[@data-label]", g, 4), 4);
	for (i = 0; i < 4; i++) {
		char *l = S_attr(g[i], "data-label");
		cr_expect_str_eq(l, EVIL);
		free(l);
	}
	cr_expect(S_has_text(d, "//s:g[@class='legend']//s:text", EVIL), "the legend shows the label");
	cr_expect(S_has_text(d, "//s:g[@class='baseline']/s:text", EVIL), "the baseline is labelled");
	xmlFreeDoc(d);
	free(svg);
	free(p[0]);
	free(p[1]);
}

Test(chart, broken_utf8_and_control_characters_still_give_xml)
{
	hg_chart_point *p = S_curve(40);
	hg_chart_series s[1] = { { "bad \xff\xfe byte\x01 and \xe2\x82 cut", p, 8, 0 } };
	hg_chart_lines c = { "t\x02", "d\xc0\xaf", s, 1, NULL };
	char *svg;
	size_t len;
	xmlDocPtr d;

	cr_assert_eq(hg_chart_lines_svg(&svg, &len, &c), 0);
	d = S_parse(svg, len);
	cr_expect(strstr(svg, "\xEF\xBF\xBD") != NULL, "bad bytes become U+FFFD");
	cr_expect_eq(S_count(d, "//s:g[@class='series']"), 1);
	xmlFreeDoc(d);
	free(svg);
	free(p);
}

Test(chart, same_input_same_bytes)
{
	double y[8] = { 91.3, 40.25, 20.05, -1, 12.1, 11.04, 10.55, 10.01 };
	int hollow[8] = { 0, 0, 1, 0, 0, 1, 0, 0 };
	hg_chart_point *p[3] = { S_points(y, hollow), S_curve(300), S_curve(30) };
	hg_chart_series s[3] = { { "a", p[0], 8, 0 }, { "b", p[1], 8, 0 }, { "SM3", p[2], 8, 1 } };
	hg_chart_lines c = { "t", "d", s, 3, NULL };
	hg_chart_bar bars[2] = { { "a", 12.25, 0, 0, 0, 0 }, { "b", 3.5, 1, 1, 0, 0 } };
	char *a, *b;
	size_t la, lb;
	size_t i;

	cr_assert_eq(hg_chart_lines_svg(&a, &la, &c), 0);
	cr_assert_eq(hg_chart_lines_svg(&b, &lb, &c), 0);
	cr_assert_eq(la, lb);
	cr_assert_eq(memcmp(a, b, la), 0, "two renders differ");
	free(b);
	/* a locale with a decimal comma (make deps generates de_DE.UTF-8) must not change a byte */
	cr_assert_not_null(setlocale(LC_ALL, "de_DE.UTF-8"), "no locale de_DE.UTF-8: make deps "
		"generates it");
	cr_assert_str_eq(localeconv()->decimal_point, ",", "de_DE.UTF-8 has no decimal comma");
	cr_assert_eq(hg_chart_lines_svg(&b, &lb, &c), 0);
	setlocale(LC_ALL, "C");
	cr_expect(lb == la && memcmp(a, b, la) == 0, "the locale de_DE.UTF-8 changed the SVG");
	free(b);
	free(a);
	cr_assert_eq(hg_chart_bars_svg(&a, &la, "t", "d", "v", bars, 2), 0);
	cr_assert_eq(hg_chart_bars_svg(&b, &lb, "t", "d", "v", bars, 2), 0);
	cr_expect(la == lb && memcmp(a, b, la) == 0, "two bar renders differ");
	free(a);
	free(b);
	for (i = 0; i < 3; i++)
		free(p[i]);
}

Test(chart, log_scale_for_a_wide_range)
{
	double y[8] = { 1000, 400, 100, 40, 10, 5, 2, 1 };
	hg_chart_point *p = S_points(y, NULL);
	hg_chart_series s[1] = { { "wide", p, 8, 0 } };
	xmlNodePtr m[8];
	char *svg;
	xmlDocPtr d = S_lines(&svg, s, 1);
	double x0, y0, x1, y1, x2, y2;

	cr_expect_eq(S_count(d, "//s:g[@class='axis' and @data-axis='y' and @data-scale='log']"), 1);
	cr_expect(S_has_text(d, "//s:g[@data-axis='y']/s:text", "1"));
	cr_expect(S_has_text(d, "//s:g[@data-axis='y']/s:text", "10"));
	cr_expect(S_has_text(d, "//s:g[@data-axis='y']/s:text", "100"));
	cr_expect(S_has_text(d, "//s:g[@data-axis='y']/s:text", "1000"));
	cr_expect(!S_has_text(d, "//s:g[@data-axis='y']/s:text", "0"), "a log axis has no 0");
	cr_expect(S_has_text(d, "//s:g[@data-axis='y']/s:text", "cycles/byte (log scale)"));
	/* equal ratios are equal distances: 1000 → 100 → 10 */
	cr_assert_eq(S_nodes(d, NULL, "//s:g[@class='series']/*[" CLS("marker") "]", m, 8), 8);
	S_translate(m[0], &x0, &y0);
	S_translate(m[2], &x1, &y1);
	S_translate(m[4], &x2, &y2);
	cr_expect(fabs((y1 - y0) - (y2 - y1)) < 0.3, "log axis: %f vs %f", y1 - y0, y2 - y1);
	xmlFreeDoc(d);
	free(svg);
	free(p);
}

Test(chart, linear_scale_from_zero_for_a_narrow_range)
{
	double y[8] = { 20, 18, 16, 14, 12, 11, 10.5, 10 };
	hg_chart_point *p = S_points(y, NULL);
	hg_chart_series s[1] = { { "narrow", p, 8, 0 } };
	xmlNodePtr m[8], axis[2];
	char *svg;
	xmlDocPtr d = S_lines(&svg, s, 1);
	double xa, ya, xb, yb, xc, yc, bottom;

	cr_expect_eq(S_count(d, "//s:g[@class='axis' and @data-axis='y' and @data-scale='linear']"), 1);
	cr_expect(S_has_text(d, "//s:g[@data-axis='y']/s:text", "0"), "a linear axis starts at 0");
	cr_expect(S_has_text(d, "//s:g[@data-axis='y']/s:text", "20"));
	cr_expect(S_has_text(d, "//s:g[@data-axis='y']/s:text", "cycles/byte"));
	/* 20 is twice 10: twice as far above the zero line */
	cr_assert_eq(S_nodes(d, NULL, "//s:g[@class='series']/*[" CLS("marker") "]", m, 8), 8);
	cr_assert_eq(S_nodes(d, NULL, "//s:g[@data-axis='x']/s:line[last()]", axis, 2), 1);
	bottom = S_attr_num(axis[0], "y1");
	S_translate(m[0], &xa, &ya);
	S_translate(m[7], &xb, &yb);
	S_translate(m[3], &xc, &yc);
	cr_expect(fabs((bottom - ya) - 2 * (bottom - yb)) < 0.3, "linear axis: %f vs 2 × %f",
		bottom - ya, bottom - yb);
	/* log2 x axis: 32 → 1024 is five octaves, 1024 → 65536 six */
	cr_expect(fabs((xc - xa) / 5 - (xb - xc) / 6) < 0.1, "x axis is log2");
	xmlFreeDoc(d);
	free(svg);
	free(p);
}

Test(chart, size_ticks_are_labelled)
{
	hg_chart_point *p = S_curve(40);
	hg_chart_series s[1] = { { "one", p, 8, 0 } };
	char *svg;
	xmlDocPtr d = S_lines(&svg, s, 1);
	static const char *const want[] = { "32 B", "128 B", "512 B", "1 KiB", "4 KiB", "8 KiB",
		"16 KiB", "64 KiB" };
	size_t i;

	cr_expect_eq(S_count(d, "//s:g[@class='axis' and @data-axis='x' and @data-scale='log2']"), 1);
	for (i = 0; i < 8; i++)
		cr_expect(S_has_text(d, "//s:g[@data-axis='x']/s:text", want[i]), "no tick \"%s\"",
			want[i]);
	cr_expect(S_has_text(d, "//s:g[@data-axis='x']/s:text", "message size (log scale)"));
	xmlFreeDoc(d);
	free(svg);
	free(p);
}

Test(chart, gaps_have_no_marker_and_break_the_line)
{
	double y[8] = { -1, 40, 20, -1, -1, 11, 10.5, 10 };
	hg_chart_point *p = S_points(y, NULL);
	hg_chart_series s[1] = { { "gappy", p, 8, 0 } };
	xmlNodePtr line[2];
	char *svg, *dd, *c;
	xmlDocPtr d = S_lines(&svg, s, 1);
	int moves = 0;

	cr_expect_eq(S_count(d, "//s:g[@class='series']/*[" CLS("marker") "]"), 5);
	cr_assert_eq(S_nodes(d, NULL, "//s:g[@class='series']/s:path[@class='line']", line, 2), 1);
	dd = S_attr(line[0], "d");
	for (c = dd; *c; c++)
		moves += *c == 'M';
	cr_expect_eq(moves, 2, "two runs of figures, two subpaths: \"%s\"", dd);
	free(dd);
	xmlFreeDoc(d);
	free(svg);
	free(p);
}

Test(chart, markers_follow_the_data)
{
	double y[8] = { 5, 10, 15, 20, 25, 30, 35, 40 };
	hg_chart_point *p = S_points(y, NULL);
	hg_chart_series s[1] = { { "rising", p, 8, 0 } };
	xmlNodePtr m[8];
	char *svg, *vb;
	xmlDocPtr d = S_lines(&svg, s, 1);
	double px = -1, py = 1e9, w, h;
	int i;

	vb = S_attr(xmlDocGetRootElement(d), "viewBox");
	cr_assert_eq(sscanf(vb, "0 0 %lf %lf", &w, &h), 2);
	cr_assert_eq(S_nodes(d, NULL, "//s:g[@class='series']/*[" CLS("marker") "]", m, 8), 8);
	for (i = 0; i < 8; i++) {
		double x, yy;
		S_translate(m[i], &x, &yy);
		cr_expect_gt(x, px, "marker %d is not right of the one before", i);
		cr_expect_lt(yy, py, "marker %d is not above the one before", i);
		cr_expect(x > 0 && x < w && yy > 0 && yy < h, "marker %d outside the picture", i);
		px = x;
		py = yy;
	}
	free(vb);
	xmlFreeDoc(d);
	free(svg);
	free(p);
}

Test(chart, no_figures_is_still_a_chart)
{
	double y[8] = { -1, -1, -1, -1, -1, -1, -1, -1 };
	hg_chart_point *p = S_points(y, NULL);
	hg_chart_series s[1] = { { "nothing", p, 8, 0 } };
	hg_chart_lines none = { "empty", "no series", NULL, 0, NULL };
	char *svg;
	size_t len;
	xmlDocPtr d;

	cr_assert_eq(hg_chart_lines_svg(&svg, &len, &none), 0);
	d = S_parse(svg, len);
	cr_expect_str_eq((const char *)xmlDocGetRootElement(d)->name, "svg");
	cr_expect(S_has_text(d, "//s:text", "no figures"));
	cr_expect_eq(S_count(d, "//s:g[@class='series']"), 0);
	cr_expect_str_eq((const char *)xmlFirstElementChild(xmlDocGetRootElement(d))->name, "title");
	xmlFreeDoc(d);
	free(svg);

	d = S_lines(&svg, s, 1);
	cr_expect(S_has_text(d, "//s:text", "no figures"), "only gaps: no figures");
	xmlFreeDoc(d);
	free(svg);
	free(p);
}

Test(chart, one_point)
{
	hg_chart_point p[1] = { { 1024, 12.5, 1, 0, 0 } };
	hg_chart_series s[1] = { { "single", p, 1, 0 } };
	char *svg;
	xmlDocPtr d = S_lines(&svg, s, 1);

	cr_expect_eq(S_count(d, "//s:g[@class='series']/*[" CLS("marker") " and " CLS("hollow") "]"), 1);
	cr_expect(S_has_text(d, "//s:g[@data-axis='x']/s:text", "1 KiB"));
	cr_expect_eq(S_count(d, "//*[contains(@d, 'nan') or contains(@transform, 'nan') or "
		"contains(@d, 'inf')]"), 0, "no NaN coordinates");
	xmlFreeDoc(d);
	free(svg);
}

Test(chart, many_series_grow_the_legend)
{
	enum { N = 30 };
	hg_chart_point *p = S_curve(40);
	hg_chart_series s[N];
	char *label[N], *svg2, *svg30, *h2, *h30;
	xmlNodePtr t[N];
	xmlDocPtr d2, d30;
	double height;
	int i, n;

	for (i = 0; i < N; i++) {
		label[i] = hg_xprintf("implementation number %d", i);
		s[i] = (hg_chart_series){ label[i], p, 8, i % 5 == 4 };
	}
	d2 = S_lines(&svg2, s, 2);
	d30 = S_lines(&svg30, s, N);
	h2 = S_attr(xmlDocGetRootElement(d2), "height");
	h30 = S_attr(xmlDocGetRootElement(d30), "height");
	height = atof(h30);
	cr_expect_gt(height, atof(h2) + 200, "30 series need a taller legend: %s vs %s", h30, h2);
	cr_expect_eq(S_count(d30, "//s:g[@class='legend-entry']"), N);
	n = S_nodes(d30, NULL, "//s:g[@class='legend-entry']/s:text", t, N);
	cr_expect_eq(n, N);
	for (i = 0; i < n && i < N; i++)
		cr_expect_lt(S_attr_num(t[i], "y"), height - 4, "legend entry %d below the picture", i);
	free(h2);
	free(h30);
	xmlFreeDoc(d2);
	xmlFreeDoc(d30);
	free(svg2);
	free(svg30);
	for (i = 0; i < N; i++)
		free(label[i]);
	free(p);
}

Test(chart, long_labels_are_cut_but_kept_whole_in_a_title)
{
	hg_chart_point *p[2] = { S_curve(40), S_curve(30) };
	char *longest = malloc(301), *svg, *shown, *tip;
	hg_chart_series s[2];
	xmlNodePtr t[2], tt[2];
	xmlDocPtr d;

	memset(longest, 'w', 300);
	longest[300] = '\0';
	s[0] = (hg_chart_series){ longest, p[0], 8, 0 };
	s[1] = (hg_chart_series){ longest, p[1], 8, 1 };
	d = S_lines(&svg, s, 2);
	cr_assert_eq(S_nodes(d, NULL, "//s:g[@class='legend-entry'][1]/s:text", t, 2), 1);
	cr_assert_eq(S_nodes(d, NULL, "//s:g[@class='legend-entry'][1]/s:title", tt, 2), 1);
	shown = S_own_text(t[0]);
	tip = (char *)xmlNodeGetContent(tt[0]);
	cr_expect_lt(strlen(shown), 100, "the legend text is cut");
	cr_expect(strstr(shown, "\xE2\x80\xA6") != NULL, "a cut label ends in an ellipsis");
	cr_expect_str_eq(tip, longest, "the whole label stays in the title");
	cr_expect_eq(S_count(d, "//s:g[@class='baseline']/s:text/s:title"), 1,
		"the cut baseline label keeps its whole text too");
	xmlFree(tip);
	free(shown);
	xmlFreeDoc(d);
	free(svg);
	free(longest);
	free(p[0]);
	free(p[1]);
}

Test(chart, baseline_labels_do_not_overlap)
{
	double a[8] = { 90, 50, 30, 20, 15, 12, 11, 10 };
	double b[8] = { 95, 52, 31, 21, 15, 12, 11, 10.1 };
	double c[8] = { 99, 55, 33, 22, 16, 12.5, 11.5, 10.2 };
	hg_chart_point *p[3] = { S_points(a, NULL), S_points(b, NULL), S_points(c, NULL) };
	hg_chart_series s[4] = { { "candidate", p[0], 8, 0 }, { "SM3 (reference)", p[0], 8, 1 },
		{ "SHA-256 (reference)", p[1], 8, 1 }, { "SM3 (OpenSSL)", p[2], 8, 1 } };
	xmlNodePtr t[3];
	char *svg;
	xmlDocPtr d = S_lines(&svg, s, 4);
	int i, j;

	cr_assert_eq(S_nodes(d, NULL, "//s:g[@class='baseline']/s:text", t, 3), 3);
	for (i = 0; i < 3; i++)
		for (j = i + 1; j < 3; j++)
			cr_expect_geq(fabs(S_attr_num(t[i], "y") - S_attr_num(t[j], "y")), 12,
				"baseline labels %d and %d overlap", i, j);
	xmlFreeDoc(d);
	free(svg);
	for (i = 0; i < 3; i++)
		free(p[i]);
}

Test(chart, refuses_a_size_that_is_not_positive)
{
	hg_chart_point p[2] = { { 32, 10, 0, 0, 0 }, { 0, 5, 0, 0, 0 } };
	hg_chart_series s[1] = { { "zero size", p, 2, 0 } };
	hg_chart_lines c = { "t", "d", s, 1, NULL };
	char *svg = (char *)"untouched";
	size_t len = 7;

	cr_expect_lt(hg_chart_lines_svg(&svg, &len, &c), 0);
	cr_expect_null(svg);
	cr_expect(strstr(hg_error_last(), "zero size") != NULL, "the message names the series: %s",
		hg_error_last());
	cr_expect(strstr(hg_error_last(), "point 2") != NULL, "the message names the point: %s",
		hg_error_last());
}

/* ---- the bar chart ---- */

static xmlDocPtr S_bars(char **svg, const hg_chart_bar *b, size_t n)
{
	size_t len = 0;
	int rc = hg_chart_bars_svg(svg, &len, "bars title", "bars desc", "cycles/byte at 65536 B", b, n);
	cr_assert_eq(rc, 0, "hg_chart_bars_svg failed: %s", hg_error_last());
	return S_parse(*svg, len);
}

Test(chart, bars_one_rect_each_with_its_kind)
{
	hg_chart_bar b[4] = { { "plain", 95.7, 0, 0, 0, 0 }, { "shaky", 40, 1, 0, 0, 0 },
		{ "SM3 (reference)", 20, 0, 1, 0, 0 }, { "SHA-256 (OpenSSL)", 10, 1, 1, 0, 0 } };
	static const char *const want[4] = { "bar", "bar hollow", "bar baseline",
		"bar hollow baseline" };
	xmlNodePtr r[8];
	char *svg, *t;
	xmlDocPtr d = S_bars(&svg, b, 4);
	xmlNodePtr root = xmlDocGetRootElement(d);
	int i;

	cr_expect_str_eq((const char *)root->ns->href, SVG_NS);
	cr_expect_str_eq((const char *)xmlFirstElementChild(root)->name, "title");
	t = (char *)xmlNodeGetContent(xmlNextElementSibling(xmlFirstElementChild(root)));
	cr_expect_str_eq(t, "bars desc");
	xmlFree(t);
	cr_expect_eq(S_count(d, "//s:g[@class='series']"), 1);
	cr_assert_eq(S_nodes(d, NULL, "//s:g[@class='series']/s:rect[" CLS("bar") "]", r, 8), 4);
	for (i = 0; i < 4; i++) {
		char *cls = S_attr(r[i], "class"), *fill = S_attr(r[i], "fill");
		cr_expect_str_eq(cls, want[i]);
		if (b[i].hollow)
			cr_expect(strncmp(fill, "url(", 4) == 0, "a hollow bar is hatched, not solid");
		else
			cr_expect(fill[0] == '#', "a steady bar is solid");
		free(cls);
		free(fill);
	}
	cr_expect(S_has_text(d, "//s:text", "95.7"), "the value at the bar's end");
	cr_expect(S_has_text(d, "//s:text", "40.0"));
	cr_expect(S_has_text(d, "//s:g[@class='axis']/s:text", "cycles/byte at 65536 B"));
	cr_expect(S_has_text(d, "//s:g[@class='axis']/s:text", "0"), "the axis starts at 0");
	xmlFreeDoc(d);
	free(svg);
}

Test(chart, bar_widths_are_proportional_to_values)
{
	hg_chart_bar b[5] = { { "a", 95.7, 0, 0, 0, 0 }, { "b", 40, 1, 0, 0, 0 },
		{ "c", 12.5, 0, 1, 0, 0 }, { "d", 3.2, 0, 1, 0, 0 }, { "e", 61.1, 0, 0, 0, 0 } };
	xmlNodePtr r[8];
	char *svg;
	xmlDocPtr d = S_bars(&svg, b, 5);
	double x0, w0, y = -1;
	int i;

	cr_assert_eq(S_nodes(d, NULL, "//s:rect[" CLS("bar") "]", r, 8), 5);
	x0 = S_attr_num(r[0], "x");
	w0 = S_attr_num(r[0], "width");
	cr_expect_gt(w0, 300, "the longest bar uses most of the width");
	for (i = 0; i < 5; i++) {
		double w = S_attr_num(r[i], "width");
		cr_expect(fabs(S_attr_num(r[i], "x") - x0) < 0.01, "bar %d starts elsewhere", i);
		cr_expect(fabs(w / w0 - b[i].value / b[0].value) < 0.002,
			"bar %d: width %f for %f against %f for %f", i, w, b[i].value, w0, b[0].value);
		cr_expect_gt(S_attr_num(r[i], "y"), y, "bars in the given order, top down");
		y = S_attr_num(r[i], "y");
	}
	xmlFreeDoc(d);
	free(svg);
}

Test(chart, bar_labels_stay_text)
{
	hg_chart_bar b[2] = { { EVIL, 10, 0, 0, 0, 0 }, { "plain", 5, 0, 1, 0, 0 } };
	char *svg;
	size_t len;
	xmlDocPtr d;

	cr_assert_eq(hg_chart_bars_svg(&svg, &len, EVIL, EVIL, EVIL, b, 2), 0);
	d = S_parse(svg, len);
	cr_expect_eq(S_count(d, "//*[local-name()='b']"), 0, "a label made an element");
	cr_expect(S_has_text(d, "//s:g[@class='series']/s:text", EVIL), "the bar's label");
	cr_expect(S_has_text(d, "//s:g[@class='axis']/s:text", EVIL), "the value label");
	xmlFreeDoc(d);
	free(svg);
}

Test(chart, bars_grow_with_their_number_and_handle_none)
{
	hg_chart_bar b[10];
	char *svg, *h2, *h10;
	size_t len;
	xmlDocPtr d2, d10, d0;
	int i;

	for (i = 0; i < 10; i++)
		b[i] = (hg_chart_bar){ "bar", 10.0 + i, 0, 0, 0, 0 };
	d2 = S_bars(&svg, b, 2);
	free(svg);
	d10 = S_bars(&svg, b, 10);
	free(svg);
	h2 = S_attr(xmlDocGetRootElement(d2), "height");
	h10 = S_attr(xmlDocGetRootElement(d10), "height");
	cr_expect_gt(atof(h10), atof(h2) + 8 * 16, "eight more bars, eight more rows: %s vs %s",
		h10, h2);
	free(h2);
	h2 = S_attr(xmlDocGetRootElement(d10), "width");
	cr_expect_str_eq(h2, "760");
	free(h2);
	free(h10);
	xmlFreeDoc(d2);
	xmlFreeDoc(d10);

	cr_assert_eq(hg_chart_bars_svg(&svg, &len, "t", "d", "v", NULL, 0), 0);
	d0 = S_parse(svg, len);
	cr_expect(S_has_text(d0, "//s:text", "no figures"));
	cr_expect_eq(S_count(d0, "//s:rect[" CLS("bar") "]"), 0);
	xmlFreeDoc(d0);
	free(svg);

	b[1].value = NAN;
	svg = (char *)"untouched";
	cr_expect_lt(hg_chart_bars_svg(&svg, &len, "t", "d", "v", b, 2), 0);
	cr_expect_null(svg);
}
