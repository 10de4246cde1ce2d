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
#include "xmlsink.h"

#define X(s) ((const xmlChar *)(s))
/* Where the body (or a table's rows) goes in a serialised frame: a comment no escaped text can
 * spell. */
#define S_MARK "hg-main-blocks"

/* the marks every skeleton has, then those it may have: the table script */
static const char *S_marks[] = { "title", "breadcrumb", "main", "footer", "stylesheet",
	"script" };
#define NMARKS 6
#define NREQUIRED 5

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
	for (i = 0; i < NREQUIRED; i++) {
		if (!found[i]) {
			hg_error_set("%s: no element marked data-hg=\"%s\"", path, S_marks[i]);
			xmlFreeDoc(doc);
			return NULL;
		}
	}
	return doc;
}

int hg_template_has_script(const void *template)
{
	xmlNodePtr found[NMARKS] = { 0 };
	S_find_marks(xmlDocGetRootElement((xmlDocPtr)template), found);
	return found[5] != NULL;
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
		if (n->title) /* the whole of what the code names short */
			xmlNewProp(e, X("title"), X(n->title));
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

/* A row of a table into section (a header row's cells are th with scope). */
static void S_row(xmlNodePtr section, const hg_node *row, int header)
{
	xmlNodePtr tr = S_el(section, "tr", row->cls), cell;
	const hg_node *c;
	for (c = row->first; c; c = c->next) {
		cell = S_el(tr, header ? "th" : "td", c->level ? "num" : c->cls);
		if (header)
			xmlNewProp(cell, X("scope"), X("col"));
		S_inlines(cell, c);
	}
}

/* A table's frame under parent: its wrapper, the table, the header row in thead, and (when it
 * has a header row) the empty tbody its other rows go in, returned; NULL when it has no rows. */
static xmlNodePtr S_table_frame(xmlNodePtr parent, const hg_node *t, S_names *names,
	xmlNodePtr *wrapper)
{
	xmlNodePtr wrap = S_el(parent, "div", "table-wrap"), table;
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
	*wrapper = wrap;
	if (!t->first) {
		S_el(table, "thead", NULL);
		return NULL;
	}
	S_row(S_el(table, "thead", NULL), t->first, 1);
	return S_el(table, "tbody", NULL);
}

/* The rows after the header into a tbody, each written to obuf and freed at once when there
 * is one (a streamed table), else left in the tbody. */
typedef struct {
	xmlNodePtr tbody;
	const hg_node *header;
	xmlOutputBufferPtr obuf;
	htmlDocPtr doc;
} S_rows;

static void S_body_row(void *arg, const hg_node *row)
{
	S_rows *r = arg;
	xmlNodePtr k;
	if (row == r->header)
		return;
	S_row(r->tbody, row, 0);
	while (r->obuf && (k = r->tbody->children) != NULL) {
		htmlNodeDumpFormatOutput(r->obuf, r->doc, k, "UTF-8", 0);
		xmlUnlinkNode(k);
		xmlFreeNode(k);
	}
}

static void S_table(xmlNodePtr parent, const hg_node *t, S_names *names)
{
	xmlNodePtr wrap;
	S_rows r = { NULL, t->first, NULL, NULL };
	r.tbody = S_table_frame(parent, t, names, &wrap);
	if (r.tbody)
		hg_table_each_row(t, S_body_row, &r);
}

static void S_blocks(xmlNodePtr parent, const hg_node *n, S_names *names);

/* One block of the body under parent. */
static void S_block(xmlNodePtr parent, const hg_node *c, S_names *names)
{
	const hg_node *item;
	xmlNodePtr e;
	char tag[4];
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

static void S_blocks(xmlNodePtr parent, const hg_node *n, S_names *names)
{
	const hg_node *c;
	for (c = n->first; c; c = c->next)
		S_block(parent, c, names);
}


/* A table into obuf row by row: its frame serialised around a mark where the rows go, each row's
 * tree freed once written. */
static void S_stream_table(xmlOutputBufferPtr obuf, htmlDocPtr doc, xmlNodePtr holder,
	const hg_node *t, S_names *names)
{
	xmlNodePtr wrap, body = S_table_frame(holder, t, names, &wrap);
	xmlOutputBufferPtr frame = xmlAllocOutputBuffer(NULL);
	const char *text, *mark;
	S_rows rows;

	if (!frame) {
		obuf->error = XML_ERR_NO_MEMORY; /* the page then fails, never half written */
		return;
	}
	xmlAddChild(body, xmlNewComment(X(S_MARK)));
	htmlNodeDumpFormatOutput(frame, doc, wrap, "UTF-8", 0);
	text = (const char *)xmlOutputBufferGetContent(frame);
	mark = text ? strstr(text, "<!--" S_MARK "-->") : NULL;
	xmlUnlinkNode(wrap);
	xmlFreeNode(wrap);
	if (!mark) {
		obuf->error = XML_ERR_NO_MEMORY;
		xmlOutputBufferClose(frame);
		return;
	}
	xmlOutputBufferWrite(obuf, (int)(mark - text), text);
	rows.tbody = xmlNewDocNode(doc, NULL, X("tbody"), NULL);
	rows.header = t->first;
	rows.obuf = obuf;
	rows.doc = doc;
	if (rows.tbody)
		hg_table_each_row(t, S_body_row, &rows);
	xmlFreeNode(rows.tbody);
	xmlOutputBufferWriteString(obuf, mark + strlen("<!--" S_MARK "-->"));
	xmlOutputBufferClose(frame);
}

/* The body into obuf block by block, each block's tree freed once written, so that a page of
 * thousands of rows never stands whole as a tree: the bytes are those of the whole tree
 * serialised without formatting, which is a node after another. */
static void S_stream_blocks(xmlOutputBufferPtr obuf, htmlDocPtr doc, const hg_node *body)
{
	xmlNodePtr holder = xmlNewDocNode(doc, NULL, X("div"), NULL), k;
	const hg_node *c;
	S_names names;

	memset(&names, 0, sizeof names);
	for (c = body->first; c && holder; c = c->next) {
		if (c->type == HG_TABLE && c->first)
			S_stream_table(obuf, doc, holder, c, &names);
		else
			S_block(holder, c, &names);
		while ((k = holder->children) != NULL) {
			htmlNodeDumpFormatOutput(obuf, doc, k, "UTF-8", 0);
			xmlUnlinkNode(k);
			xmlFreeNode(k);
		}
	}
	xmlFreeNode(holder);
}

/* e's attribute attr set to file in the site's root, from a page root away ("../"). */
static void S_root_file(xmlNodePtr e, const char *attr, const char *root, const char *file)
{
	char *url = malloc(strlen(root) + strlen(file) + 1);
	strcpy(url, root);
	strcat(url, file);
	xmlSetProp(e, X(attr), X(url));
	free(url);
}

/* The skeleton filled but for its body, serialised, split where the body goes. */
static xmlOutputBufferPtr S_skeleton(htmlDocPtr doc, const hg_page *page, size_t *at)
{
	xmlNodePtr found[NMARKS] = { 0 };
	xmlOutputBufferPtr head;
	const char *text, *mark;
	int i;

	S_find_marks(xmlDocGetRootElement(doc), found);
	xmlNodeSetContent(found[0], NULL);
	xmlAddChild(found[0], xmlNewText(X(page->title)));
	if (page->breadcrumb)
		S_inlines(found[1], page->breadcrumb);
	xmlAddChild(found[2], xmlNewComment(X(S_MARK)));
	if (page->footer)
		S_inlines(found[3], page->footer);
	S_root_file(found[4], "href", page->root, "style.css");
	if (found[5])
		S_root_file(found[5], "src", page->root, HG_TABLES_JS);
	for (i = 0; i < NMARKS; i++)
		if (found[i])
			xmlUnsetProp(found[i], X("data-hg"));
	/* UTF-8 as the skeleton's meta says: the characters as they are, not named entities (a
	 * document with an encoding keeps them; a buffer without an encoder copies them) */
	if (!doc->encoding)
		doc->encoding = xmlStrdup(X("UTF-8"));
	head = xmlAllocOutputBuffer(NULL);
	if (!head)
		return NULL;
	htmlDocContentDumpFormatOutput(head, doc, "UTF-8", 0);
	text = (const char *)xmlOutputBufferGetContent(head);
	mark = head->error || !text ? NULL : strstr(text, "<!--" S_MARK "-->");
	if (!mark) {
		xmlOutputBufferClose(head);
		return NULL;
	}
	*at = (size_t)(mark - text);
	return head;
}

/* The page's bytes as libxml2 serialises them, straight into sink: a buffer that becomes the
 * result, never a second copy of a page of many megabytes, or a file. */
static int S_render(hg_xml_sink *sink, const hg_page *page, const void *template)
{
	htmlDocPtr doc = xmlCopyDoc((xmlDocPtr)template, 1);
	xmlOutputBufferPtr obuf = NULL, head = NULL;
	const char *text;
	size_t at = 0;
	int failed;

	if (!doc)
		return hg_error_set("out of memory copying the page skeleton");
	/* the names of the elements and attributes made below held once, not copied and freed
	 * for each (libxml2 frees only the names its dictionary does not own) */
	if (!doc->dict)
		doc->dict = xmlDictCreate();
	head = S_skeleton(doc, page, &at);
	if (head)
		obuf = hg_xml_sink_open(sink);
	if (obuf) {
		text = (const char *)xmlOutputBufferGetContent(head);
		xmlOutputBufferWrite(obuf, (int)at, text);
		S_stream_blocks(obuf, doc, page->body);
		xmlOutputBufferWriteString(obuf, text + at + strlen("<!--" S_MARK "-->"));
	}
	xmlFreeDoc(doc);
	if (head)
		xmlOutputBufferClose(head);
	failed = !obuf || obuf->error;
	if (obuf && xmlOutputBufferClose(obuf) < 0)
		failed = 1;
	if (failed || sink->failed || (!sink->f && !sink->data)) {
		free(sink->data);
		sink->data = NULL;
		return hg_error_set("cannot serialise the page %s", page->title);
	}
	return 0;
}

int hg_render_html(char **out, size_t *len, const hg_page *page, const void *template)
{
	hg_xml_sink sink = { NULL, 0, 0, 0, NULL };
	if (S_render(&sink, page, template) != 0)
		return -1;
	*out = sink.data;
	*len = sink.len;
	return 0;
}

int hg_render_html_to(FILE *f, const hg_page *page, const void *template)
{
	hg_xml_sink sink = { NULL, 0, 0, 0, f };
	return S_render(&sink, page, template);
}
