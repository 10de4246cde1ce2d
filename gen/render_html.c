/* render_html.c — the page model as HTML: a libxml2 tree inside the skeleton templates/page.html
 * (elements marked with data-hg="title|breadcrumb|main|footer|stylesheet" are filled), so every
 * string is escaped by construction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/xmlIO.h>

#include "render.h"

#define X(s) ((const xmlChar *)(s))

static const char *S_marks[] = { "title", "breadcrumb", "main", "footer", "stylesheet" };
#define NMARKS 5

static void S_find_marks(xmlNodePtr n, xmlNodePtr found[NMARKS])
{
	for (; n; n = n->next) {
		if (n->type == XML_ELEMENT_NODE) {
			xmlChar *v = xmlGetProp(n, X("data-hg"));
			if (v) {
				int i;
				for (i = 0; i < NMARKS; i++)
					if (strcmp((const char *)v, S_marks[i]) == 0 && !found[i])
						found[i] = n;
				xmlFree(v);
			}
			S_find_marks(n->children, found);
		}
	}
}

void *hg_template_load(const char *path)
{
	htmlDocPtr doc = htmlReadFile(path, "UTF-8", HTML_PARSE_NONET | HTML_PARSE_NOERROR |
		HTML_PARSE_NOWARNING);
	xmlNodePtr found[NMARKS] = { 0 };
	int i;
	if (!doc) {
		hg_error_set("%s: cannot read the page skeleton", path);
		return NULL;
	}
	S_find_marks(xmlDocGetRootElement(doc), found);
	for (i = 0; i < NMARKS; i++) {
		if (!found[i]) {
			hg_error_set("%s: no element marked data-hg=\"%s\"", path, S_marks[i]);
			xmlFreeDoc(doc);
			return NULL;
		}
	}
	return doc;
}

void hg_template_free(void *template)
{
	if (template)
		xmlFreeDoc(template);
}

static void S_inlines(xmlNodePtr parent, const hg_node *n);

static xmlNodePtr S_el(xmlNodePtr parent, const char *name, const char *cls)
{
	xmlNodePtr e = xmlNewChild(parent, NULL, X(name), NULL);
	if (cls)
		xmlNewProp(e, X("class"), X(cls));
	return e;
}

static void S_inline(xmlNodePtr parent, const hg_node *n)
{
	xmlNodePtr e;
	switch (n->type) {
	case HG_TEXT:
		xmlAddChild(parent, xmlNewText(X(n->text)));
		break;
	case HG_CODE:
		e = S_el(parent, "code", n->cls);
		xmlAddChild(e, xmlNewText(X(n->text)));
		break;
	case HG_LINK:
		e = S_el(parent, "a", n->cls);
		xmlNewProp(e, X("href"), X(n->text));
		if (n->title)
			xmlNewProp(e, X("title"), X(n->title));
		S_inlines(e, n);
		break;
	case HG_EMPH:
		S_inlines(S_el(parent, "em", n->cls), n);
		break;
	case HG_STRONG:
		S_inlines(S_el(parent, "strong", n->cls), n);
		break;
	case HG_SPAN:
		e = S_el(parent, "span", n->cls);
		if (n->title)
			xmlNewProp(e, X("title"), X(n->title));
		S_inlines(e, n);
		break;
	case HG_BREAK:
		S_el(parent, "br", NULL);
		break;
	case HG_IMAGE:
		e = S_el(parent, "img", n->cls);
		xmlNewProp(e, X("src"), X(n->text));
		xmlNewProp(e, X("alt"), X(n->title ? n->title : ""));
		break;
	default:
		S_inlines(parent, n);
		break;
	}
}

static void S_inlines(xmlNodePtr parent, const hg_node *n)
{
	const hg_node *c;
	for (c = n->first; c; c = c->next)
		S_inline(parent, c);
}

/* The plain text of a node's inlines, appended to buf (cut at n bytes). */
static void S_plain(char *buf, size_t n, const hg_node *node)
{
	const hg_node *c;
	for (c = node->first; c; c = c->next) {
		size_t len = strlen(buf);
		if ((c->type == HG_TEXT || c->type == HG_CODE) && c->text)
			snprintf(buf + len, n - len, "%s", c->text);
		else if (c->type != HG_IMAGE)
			S_plain(buf, n, c);
	}
}

/* What a page's tables are named: each wrapper is a scrollable region, reachable from the
 * keyboard (tabindex 0) and named by the table's own label or else the heading above it, with a
 * number when that heading has several tables. */
typedef struct {
	char heading[256];
	int tables;            /* under the current heading */
} S_names;

static void S_table(xmlNodePtr parent, const hg_node *t, S_names *names)
{
	xmlNodePtr wrap = S_el(parent, "div", "table-wrap");
	xmlNodePtr table, section, tr, cell;
	const hg_node *row, *c;
	int header = 1;
	char label[320];

	names->tables++;
	if (t->title)
		snprintf(label, sizeof label, "%s", t->title);
	else if (names->tables > 1)
		snprintf(label, sizeof label, "%s (table %d)", names->heading[0] ? names->heading :
			"table", names->tables);
	else
		snprintf(label, sizeof label, "%s", names->heading[0] ? names->heading : "table");
	xmlNewProp(wrap, X("role"), X("region"));
	xmlNewProp(wrap, X("aria-label"), X(label));
	xmlNewProp(wrap, X("tabindex"), X("0"));
	table = S_el(wrap, "table", t->cls);

	section = S_el(table, "thead", NULL);
	for (row = t->first; row; row = row->next) {
		tr = S_el(section, "tr", row->cls);
		for (c = row->first; c; c = c->next) {
			cell = S_el(tr, header ? "th" : "td", c->level ? "num" : c->cls);
			if (header)
				xmlNewProp(cell, X("scope"), X("col"));
			S_inlines(cell, c);
		}
		if (header) {
			section = S_el(table, "tbody", NULL);
			header = 0;
		}
	}
}

static void S_blocks(xmlNodePtr parent, const hg_node *n, S_names *names)
{
	const hg_node *c, *item;
	xmlNodePtr e;
	char tag[4];
	for (c = n->first; c; c = c->next) {
		switch (c->type) {
		case HG_HEADING:
			names->heading[0] = 0;
			names->tables = 0;
			S_plain(names->heading, sizeof names->heading, c);
			snprintf(tag, sizeof(tag), "h%d", c->level < 1 ? 1 : c->level > 6 ? 6 : c->level);
			e = S_el(parent, tag, c->cls);
			if (c->title)
				xmlNewProp(e, X("id"), X(c->title));
			S_inlines(e, c);
			break;
		case HG_PARA:
			e = S_el(parent, "p", c->cls);
			if (c->title) /* an anchor other pages link to */
				xmlNewProp(e, X("id"), X(c->title));
			S_inlines(e, c);
			break;
		case HG_LIST:
			e = S_el(parent, c->level ? "ol" : "ul", c->cls);
			for (item = c->first; item; item = item->next)
				S_inlines(S_el(e, "li", item->cls), item);
			break;
		case HG_CODEBLOCK:
			e = S_el(S_el(parent, "pre", c->cls), "code", NULL);
			xmlAddChild(e, xmlNewText(X(c->text)));
			break;
		case HG_TABLE:
			S_table(parent, c, names);
			break;
		case HG_DOC:
			S_blocks(parent, c, names);
			break;
		default:
			S_inline(S_el(parent, "p", NULL), c);
			break;
		}
	}
}

int hg_render_html(char **out, size_t *len, const hg_page *page, const void *template)
{
	htmlDocPtr doc = xmlCopyDoc((xmlDocPtr)template, 1);
	xmlNodePtr found[NMARKS] = { 0 };
	const xmlChar *mem = NULL;
	xmlOutputBufferPtr obuf;
	char *href;
	int size = 0, i;

	if (!doc)
		return hg_error_set("out of memory copying the page skeleton");
	S_find_marks(xmlDocGetRootElement(doc), found);
	xmlNodeSetContent(found[0], NULL);
	xmlAddChild(found[0], xmlNewText(X(page->title)));
	if (page->breadcrumb)
		S_inlines(found[1], page->breadcrumb);
	{
		S_names names;
		memset(&names, 0, sizeof names);
		S_blocks(found[2], page->body, &names);
	}
	if (page->footer)
		S_inlines(found[3], page->footer);
	href = malloc(strlen(page->root) + sizeof("style.css"));
	strcpy(href, page->root);
	strcat(href, "style.css");
	xmlSetProp(found[4], X("href"), X(href));
	free(href);
	for (i = 0; i < NMARKS; i++)
		xmlUnsetProp(found[i], X("data-hg"));
	/* UTF-8 as the skeleton's meta says: the characters as they are, not named entities (a
	 * document with an encoding keeps them; a buffer without an encoder copies them) */
	if (!doc->encoding)
		doc->encoding = xmlStrdup(X("UTF-8"));
	obuf = xmlAllocOutputBuffer(NULL);
	if (obuf)
		htmlDocContentDumpFormatOutput(obuf, doc, "UTF-8", 0);
	xmlFreeDoc(doc);
	if (!obuf || obuf->error) {
		if (obuf)
			xmlOutputBufferClose(obuf);
		return hg_error_set("cannot serialise the page %s", page->title);
	}
	mem = xmlOutputBufferGetContent(obuf);
	size = (int)xmlOutputBufferGetSize(obuf);
	*out = malloc((size_t)size + 1);
	if (!*out) {
		xmlOutputBufferClose(obuf);
		return hg_error_set("out of memory");
	}
	memcpy(*out, mem, (size_t)size);
	(*out)[size] = 0;
	*len = (size_t)size;
	xmlOutputBufferClose(obuf);
	return 0;
}
