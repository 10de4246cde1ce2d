/* model.c — the page model's nodes, allocated from one arena per page. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

#define BLOCK_SIZE (64 * 1024)

typedef struct S_block {
	struct S_block *next;
	size_t used, size;
	char data[];
} S_block;

struct hg_arena {
	S_block *head;
};

static void *S_alloc(hg_arena *a, size_t n)
{
	S_block *b = a->head;
	n = (n + 15) & ~(size_t)15;
	if (!b || b->size - b->used < n) {
		size_t size = n > BLOCK_SIZE ? n : BLOCK_SIZE;
		b = malloc(sizeof(S_block) + size);
		if (!b) {
			fprintf(stderr, "hashgen: out of memory\n");
			exit(1);
		}
		b->size = size;
		b->used = 0;
		b->next = a->head;
		a->head = b;
	}
	b->used += n;
	return b->data + b->used - n;
}

void *hg_alloc(hg_arena *a, size_t n)
{
	return S_alloc(a, n);
}

hg_arena *hg_arena_new(void)
{
	hg_arena *a = calloc(1, sizeof(*a));
	if (!a) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	return a;
}

/* Every block freed but the last one allocated when it is of the usual size, kept empty. */
void hg_arena_reset(hg_arena *a)
{
	S_block *b = a->head, *next, *keep = b && b->size == BLOCK_SIZE ? b : NULL;
	for (b = keep ? b->next : b; b; b = next) {
		next = b->next;
		free(b);
	}
	if (keep) {
		keep->used = 0;
		keep->next = NULL;
	}
	a->head = keep;
}

void hg_arena_free(hg_arena *a)
{
	if (!a)
		return;
	hg_arena_reset(a);
	free(a->head);
	free(a);
}

hg_page *hg_page_new(void)
{
	hg_page *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->arena = calloc(1, sizeof(*p->arena));
	if (!p->arena) {
		free(p);
		return NULL;
	}
	p->root = "";
	p->body = hg_node_new(p->arena, HG_DOC);
	return p;
}

void hg_page_free(hg_page *page)
{
	if (!page)
		return;
	hg_arena_free(page->arena);
	free(page);
}

char *hg_strdup(hg_arena *a, const char *s)
{
	size_t n;
	char *d;
	if (!s)
		return NULL;
	n = strlen(s) + 1;
	d = S_alloc(a, n);
	memcpy(d, s, n);
	return d;
}

static char *S_vprintf(hg_arena *a, const char *fmt, va_list ap)
{
	char small[256], *d;
	va_list copy;
	int n;
	if (!fmt) /* never, but GCC's sanitizer build cannot tell */
		fmt = "";
	va_copy(copy, ap);
	n = vsnprintf(small, sizeof(small), fmt, copy);
	va_end(copy);
	if (n < 0)
		n = 0;
	d = S_alloc(a, (size_t)n + 1);
	if ((size_t)n < sizeof(small))
		memcpy(d, small, (size_t)n + 1);
	else
		vsnprintf(d, (size_t)n + 1, fmt, ap);
	return d;
}

char *hg_printf(hg_arena *a, const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	s = S_vprintf(a, fmt, ap);
	va_end(ap);
	return s;
}

hg_node *hg_node_new(hg_arena *a, hg_node_type type)
{
	hg_node *n = S_alloc(a, sizeof(*n));
	memset(n, 0, sizeof(*n));
	n->type = type;
	return n;
}

hg_node *hg_append(hg_node *parent, hg_node *child)
{
	if (!parent)
		return child;
	if (parent->last)
		parent->last->next = child;
	else
		parent->first = child;
	parent->last = child;
	return child;
}

hg_node *hg_add(hg_arena *a, hg_node *parent, hg_node_type type)
{
	return hg_append(parent, hg_node_new(a, type));
}

hg_node *hg_add_text(hg_arena *a, hg_node *parent, const char *text)
{
	hg_node *n = hg_add(a, parent, HG_TEXT);
	n->text = hg_strdup(a, text ? text : "");
	return n;
}

hg_node *hg_add_textf(hg_arena *a, hg_node *parent, const char *fmt, ...)
{
	hg_node *n = hg_add(a, parent, HG_TEXT);
	va_list ap;
	va_start(ap, fmt);
	n->text = S_vprintf(a, fmt, ap);
	va_end(ap);
	return n;
}

hg_node *hg_add_code(hg_arena *a, hg_node *parent, const char *text)
{
	hg_node *n = hg_add(a, parent, HG_CODE);
	n->text = hg_strdup(a, text ? text : "");
	return n;
}

hg_node *hg_add_image(hg_arena *a, hg_node *parent, const char *src, const char *alt,
	const char *cls)
{
	hg_node *n = hg_add(a, parent, HG_IMAGE);
	n->text = hg_strdup(a, src);
	n->title = hg_strdup(a, alt ? alt : "");
	n->cls = cls;
	return n;
}

hg_node *hg_add_link(hg_arena *a, hg_node *parent, const char *href, const char *text,
	const char *title)
{
	hg_node *n = hg_add(a, parent, HG_LINK);
	n->text = hg_strdup(a, href);
	n->title = hg_strdup(a, title);
	if (text)
		hg_add_text(a, n, text);
	return n;
}

hg_node *hg_add_heading(hg_arena *a, hg_node *parent, int level, const char *text)
{
	hg_node *n = hg_add(a, parent, HG_HEADING);
	n->level = level;
	hg_add_text(a, n, text);
	return n;
}

hg_node *hg_add_cell(hg_arena *a, hg_node *row, const char *text, int numeric)
{
	hg_node *c = hg_add(a, row, HG_CELL);
	c->level = numeric;
	if (text)
		hg_add_text(a, c, text);
	return c;
}

void hg_table_later(hg_arena *a, hg_node *table, hg_row_maker make, void *ctx, size_t n)
{
	hg_later_rows *l = S_alloc(a, sizeof(*l));
	l->make = make;
	l->ctx = ctx;
	l->n = n;
	table->later = l;
}

int hg_table_later_flags(hg_arena *a, hg_node *table, hg_row_maker make, void *ctx, size_t n)
{
	hg_arena *scratch = hg_arena_new();
	size_t i;
	int flags = 0;

	for (i = 0; i < n; i++) {
		flags |= make(ctx, i, scratch, hg_node_new(scratch, HG_TABLE));
		hg_arena_reset(scratch);
	}
	hg_arena_free(scratch);
	hg_table_later(a, table, make, ctx, n);
	return flags;
}

void hg_table_each_row(const hg_node *t, void (*fn)(void *arg, const hg_node *row), void *arg)
{
	const hg_node *row;
	hg_arena *scratch;
	size_t i;

	for (row = t->first; row; row = row->next)
		fn(arg, row);
	if (!t->later || !t->later->n)
		return;
	scratch = hg_arena_new();
	for (i = 0; i < t->later->n; i++) {
		hg_node *holder = hg_node_new(scratch, HG_TABLE);
		t->later->make(t->later->ctx, i, scratch, holder);
		for (row = holder->first; row; row = row->next)
			fn(arg, row);
		hg_arena_reset(scratch);
	}
	hg_arena_free(scratch);
}
