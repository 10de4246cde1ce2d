/* prose.c — Markdown prose from templates/ parsed by cmark and turned into page-model nodes, with
 * {placeholders} in text filled from the evidence. Values go in as text after parsing, so they
 * can never become markup; raw HTML in the prose is dropped. */
#include <stdlib.h>
#include <string.h>

#include <cmark.h>

#include "pages.h"

/* Append text with {name} replaced through lookup; unknown names stay as they are. */
static void S_fill(hg_arena *a, hg_node *parent, const char *text, hg_lookup_fn lookup, void *ctx)
{
	const char *p = text;
	while (*p) {
		const char *open = strchr(p, '{'), *close = open ? strchr(open, '}') : NULL;
		char name[64];
		const char *value;
		size_t n;
		if (!open || !close || (size_t)(close - open - 1) >= sizeof(name)) {
			hg_add_text(a, parent, p);
			return;
		}
		n = (size_t)(close - open - 1);
		memcpy(name, open + 1, n);
		name[n] = 0;
		value = lookup ? lookup(ctx, name) : NULL;
		if (open > p) {
			char *before = hg_strdup(a, p);
			before[open - p] = 0;
			hg_add_text(a, parent, before);
		}
		if (value) {
			hg_add_text(a, parent, value);
		} else {
			char *raw = hg_strdup(a, open);
			raw[n + 2] = 0;
			hg_add_text(a, parent, raw);
		}
		p = close + 1;
	}
}

static void S_convert(hg_arena *a, hg_node *parent, cmark_node *n, hg_lookup_fn lookup, void *ctx)
{
	cmark_node *c;
	for (c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
		hg_node *m = NULL;
		const char *lit;
		switch (cmark_node_get_type(c)) {
		case CMARK_NODE_PARAGRAPH:
			m = hg_add(a, parent, HG_PARA);
			break;
		case CMARK_NODE_HEADING:
			m = hg_add(a, parent, HG_HEADING);
			m->level = cmark_node_get_heading_level(c) + 1; /* the page title is the h1 */
			break;
		case CMARK_NODE_LIST:
			m = hg_add(a, parent, HG_LIST);
			m->level = cmark_node_get_list_type(c) == CMARK_ORDERED_LIST;
			break;
		case CMARK_NODE_ITEM:
			m = hg_add(a, parent, HG_ITEM);
			break;
		case CMARK_NODE_BLOCK_QUOTE:
			m = hg_add(a, parent, HG_PARA);
			break;
		case CMARK_NODE_CODE_BLOCK:
			m = hg_add(a, parent, HG_CODEBLOCK);
			m->text = hg_strdup(a, cmark_node_get_literal(c));
			continue;
		case CMARK_NODE_TEXT:
			lit = cmark_node_get_literal(c);
			S_fill(a, parent, lit ? lit : "", lookup, ctx);
			continue;
		case CMARK_NODE_SOFTBREAK:
			hg_add_text(a, parent, " ");
			continue;
		case CMARK_NODE_LINEBREAK:
			hg_add(a, parent, HG_BREAK);
			continue;
		case CMARK_NODE_CODE: {
			/* a placeholder in a code span gives code: still text, never markup */
			hg_node tmp;
			const char *text = cmark_node_get_literal(c);
			memset(&tmp, 0, sizeof(tmp));
			S_fill(a, &tmp, text ? text : "", lookup, ctx);
			if (tmp.first && !tmp.first->next)
				text = tmp.first->text;
			else if (tmp.first) {
				hg_node *t;
				char *joined = hg_strdup(a, "");
				for (t = tmp.first; t; t = t->next)
					joined = hg_printf(a, "%s%s", joined, t->text);
				text = joined;
			}
			hg_add_code(a, parent, text ? text : "");
			continue;
		}
		case CMARK_NODE_EMPH:
			m = hg_add(a, parent, HG_EMPH);
			break;
		case CMARK_NODE_STRONG:
			m = hg_add(a, parent, HG_STRONG);
			break;
		case CMARK_NODE_LINK: {
			const char *url = cmark_node_get_url(c);
			if (url && hg_href_ok(url)) {
				m = hg_add(a, parent, HG_LINK);
				m->text = hg_strdup(a, url);
				if (cmark_node_get_title(c) && *cmark_node_get_title(c))
					m->title = hg_strdup(a, cmark_node_get_title(c));
			} else {
				m = hg_add(a, parent, HG_SPAN); /* a link we do not trust: its text only */
			}
			break;
		}
		default: /* raw HTML, images, thematic breaks: not rendered */
			continue;
		}
		S_convert(a, m, c, lookup, ctx);
	}
}

int hg_prose(hg_arena *a, hg_node *parent, const char *markdown, hg_lookup_fn lookup, void *ctx)
{
	cmark_node *doc = cmark_parse_document(markdown, strlen(markdown), CMARK_OPT_DEFAULT);
	if (!doc)
		return hg_error_set("cannot parse Markdown prose");
	S_convert(a, parent, doc, lookup, ctx);
	cmark_node_free(doc);
	return 0;
}

/* A one-paragraph template becomes inline content of its own (no extra paragraph). */
int hg_prose_inline(hg_arena *a, hg_node *parent, const char *markdown, hg_lookup_fn lookup,
	void *ctx)
{
	hg_node tmp, *first;
	memset(&tmp, 0, sizeof(tmp));
	tmp.type = HG_DOC;
	if (hg_prose(a, &tmp, markdown, lookup, ctx) != 0)
		return -1;
	for (first = tmp.first; first; first = first->next) {
		hg_node *c, *next;
		for (c = first->type == HG_PARA ? first->first : first; c; c = next) {
			next = c->next;
			c->next = NULL;
			hg_append(parent, c);
			if (first->type != HG_PARA)
				break;
		}
	}
	return 0;
}
