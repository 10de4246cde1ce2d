/* render_md.c — the page model as GitHub-flavoured Markdown: pipe tables, escaped text, so the
 * .md twin of every page reads well on any forge. No raw HTML is ever written. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

typedef struct {
	char *data;
	size_t len, cap;
	int oom;          /* out of memory, or f failed */
	int in_table;
	FILE *f;          /* not NULL: the bytes go there instead, as they come */
} S_out;

static void S_put(S_out *o, const char *s, size_t n)
{
	if (o->oom)
		return;
	if (o->f) {
		o->oom = fwrite(s, 1, n, o->f) != n;
		return;
	}
	if (o->cap - o->len < n + 1) {
		size_t cap = o->cap ? o->cap : 16384;
		char *g;
		while (cap - o->len < n + 1)
			cap *= 2;
		g = realloc(o->data, cap);
		if (!g) {
			o->oom = 1;
			return;
		}
		o->data = g;
		o->cap = cap;
	}
	memcpy(o->data + o->len, s, n);
	o->len += n;
	o->data[o->len] = 0;
}

static void S_puts(S_out *o, const char *s)
{
	S_put(o, s, strlen(s));
}

/* Characters that would mean something to Markdown are backslash-escaped (CommonMark allows
 * escaping any ASCII punctuation); newlines become spaces inside tables. */
static void S_text(S_out *o, const char *s, int line_start)
{
	const char *run = s, *start = s;
	for (; *s; s++) {
		const char *esc = NULL;
		switch (*s) {
		case '\\': case '`': case '*': case '[': case ']': case '<': case '>':
		case '|': case '&': case '~': case '!':
			esc = "\\";
			break;
		case '_': /* inside a word it cannot start emphasis: x86_64 stays readable */
			if (s == start || !isalnum((unsigned char)s[-1]) || !isalnum((unsigned char)s[1]))
				esc = "\\";
			break;
		case '#': case '+': case '-': case '=':
			if (line_start && s == run)
				esc = "\\";
			break;
		case '\n': case '\r':
			S_put(o, run, (size_t)(s - run));
			S_puts(o, o->in_table ? " " : "\n");
			run = s + 1;
			continue;
		default:
			break;
		}
		if (esc) {
			S_put(o, run, (size_t)(s - run));
			S_puts(o, esc);
			run = s;
		}
		line_start = 0;
	}
	S_put(o, run, (size_t)(s - run));
}

static void S_code(S_out *o, const char *s)
{
	size_t longest = 0, cur = 0, i, n = strlen(s);
	char fence[16];
	for (i = 0; i < n; i++) {
		cur = s[i] == '`' ? cur + 1 : 0;
		if (cur > longest)
			longest = cur;
	}
	if (longest > sizeof(fence) - 2)
		longest = sizeof(fence) - 2;
	memset(fence, '`', longest + 1);
	fence[longest + 1] = 0;
	S_puts(o, fence);
	if (n && (s[0] == '`' || s[n - 1] == '`' || s[0] == ' '))
		S_puts(o, " ");
	for (i = 0; i < n; i++) {
		if (o->in_table && s[i] == '|')
			S_puts(o, "\\|");
		else if (s[i] == '\n')
			S_puts(o, " ");
		else
			S_put(o, s + i, 1);
	}
	if (n && (s[0] == '`' || s[n - 1] == '`' || s[0] == ' '))
		S_puts(o, " ");
	S_puts(o, fence);
}

/* Link destinations: spaces, parentheses and angle brackets percent-encoded. */
static void S_href(S_out *o, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case ' ': S_puts(o, "%20"); break;
		case '(': S_puts(o, "%28"); break;
		case ')': S_puts(o, "%29"); break;
		case '<': S_puts(o, "%3C"); break;
		case '>': S_puts(o, "%3E"); break;
		case '|': S_puts(o, "%7C"); break;
		case '\\': S_puts(o, "%5C"); break;
		default: S_put(o, s, 1);
		}
	}
}

static void S_inlines(S_out *o, const hg_node *n, int line_start);

static void S_inline(S_out *o, const hg_node *n, int line_start)
{
	const char *t;
	switch (n->type) {
	case HG_TEXT:
		S_text(o, n->text, line_start);
		break;
	case HG_CODE:
		S_code(o, n->text);
		break;
	case HG_LINK:
		S_puts(o, "[");
		S_inlines(o, n, 0);
		S_puts(o, "](");
		S_href(o, n->text);
		if (n->title) {
			S_puts(o, " \"");
			for (t = n->title; *t; t++) {
				if (*t == '"' || *t == '\\')
					S_puts(o, "\\");
				S_put(o, t, 1);
			}
			S_puts(o, "\"");
		}
		S_puts(o, ")");
		break;
	case HG_EMPH:
		S_puts(o, "*");
		S_inlines(o, n, 0);
		S_puts(o, "*");
		break;
	case HG_STRONG:
		S_puts(o, "**");
		S_inlines(o, n, 0);
		S_puts(o, "**");
		break;
	case HG_SPAN:
		if (n->cls && (strcmp(n->cls, "warning") == 0 || strcmp(n->cls, "fail") == 0 ||
				strcmp(n->cls, "current") == 0)) {
			S_puts(o, strcmp(n->cls, "warning") == 0 ? "**⚠ " : "**");
			S_inlines(o, n, 0);
			S_puts(o, "**");
		} else {
			S_inlines(o, n, line_start);
		}
		break;
	case HG_BREAK:
		S_puts(o, o->in_table ? " " : "\\\n");
		break;
	case HG_IMAGE:
		S_puts(o, "![");
		for (t = n->title ? n->title : ""; *t; t++) {
			if (*t == '[' || *t == ']' || *t == '\\' || *t == '*' || *t == '_' || *t == '`')
				S_puts(o, "\\");
			S_put(o, t, *t == '\n' ? 0 : 1);
		}
		S_puts(o, "](");
		S_href(o, n->text);
		S_puts(o, ")");
		break;
	default: /* a block inside inline content: its inlines */
		S_inlines(o, n, line_start);
		break;
	}
}

static void S_inlines(S_out *o, const hg_node *n, int line_start)
{
	const hg_node *c;
	for (c = n->first; c; c = c->next) {
		S_inline(o, c, line_start);
		line_start = 0;
	}
}

/* One row of a table, the rule under the header row. */
static void S_table_row(void *arg, const hg_node *row)
{
	S_out *o = arg;
	const hg_node *cell;
	S_puts(o, "|");
	for (cell = row->first; cell; cell = cell->next) {
		S_puts(o, " ");
		S_inlines(o, cell, 0);
		S_puts(o, " |");
	}
	S_puts(o, "\n");
	if (o->in_table == 1) {
		S_puts(o, "|");
		for (cell = row->first; cell; cell = cell->next)
			S_puts(o, cell->level ? " ---: |" : " --- |");
		S_puts(o, "\n");
		o->in_table = 2;
	}
}

static void S_table(S_out *o, const hg_node *t)
{
	o->in_table = 1; /* 1: before the header's rule, 2: after it */
	hg_table_each_row(t, S_table_row, o);
	o->in_table = 0;
	S_puts(o, "\n");
}

static void S_blocks(S_out *o, const hg_node *n)
{
	const hg_node *c, *item;
	int i;
	for (c = n->first; c; c = c->next) {
		switch (c->type) {
		case HG_HEADING:
			for (i = 0; i < c->level && i < 6; i++)
				S_puts(o, "#");
			S_puts(o, " ");
			S_inlines(o, c, 0);
			S_puts(o, "\n\n");
			break;
		case HG_PARA:
			S_inlines(o, c, 1);
			S_puts(o, "\n\n");
			break;
		case HG_LIST:
			for (item = c->first, i = 1; item; item = item->next, i++) {
				if (c->level) {
					char num[16];
					snprintf(num, sizeof(num), "%d. ", i);
					S_puts(o, num);
				} else {
					S_puts(o, "- ");
				}
				S_inlines(o, item, 0);
				S_puts(o, "\n");
			}
			S_puts(o, "\n");
			break;
		case HG_CODEBLOCK:
			S_puts(o, "```\n");
			S_puts(o, c->text);
			if (c->text[0] && c->text[strlen(c->text) - 1] != '\n')
				S_puts(o, "\n");
			S_puts(o, "```\n\n");
			break;
		case HG_TABLE:
			S_table(o, c);
			break;
		case HG_DOC:
			S_blocks(o, c);
			break;
		default:
			S_inline(o, c, 1);
			S_puts(o, "\n\n");
			break;
		}
	}
}

static void S_page(S_out *o, const hg_page *page)
{
	if (page->breadcrumb) {
		S_inlines(o, page->breadcrumb, 1);
		S_puts(o, "\n\n");
	}
	S_blocks(o, page->body);
	if (page->footer) {
		S_puts(o, "---\n\n");
		S_inlines(o, page->footer, 1);
		S_puts(o, "\n");
	}
}

int hg_render_md_to(FILE *f, const hg_page *page)
{
	S_out o = { 0 };
	o.f = f;
	S_page(&o, page);
	return o.oom ? -1 : 0;
}

int hg_render_md(char **out, size_t *len, const hg_page *page)
{
	S_out o = { 0 };
	S_page(&o, page);
	if (o.oom) {
		free(o.data);
		return -1;
	}
	*out = o.data ? o.data : calloc(1, 1);
	*len = o.len;
	return 0;
}
