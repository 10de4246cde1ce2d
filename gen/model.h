/* model.h — the page model: a small document tree built once per page and walked by the HTML
 * and the Markdown renderer (the cmark way: one tree, several outputs). Nodes and their strings
 * live in the page's arena and are freed with it. */
#ifndef HG_MODEL_H
#define HG_MODEL_H

#include <stddef.h>

typedef enum {
	HG_DOC,      /* children: blocks */
	HG_HEADING,  /* level 1..3 */
	HG_PARA,
	HG_LIST,     /* children: items; level 1 = ordered */
	HG_ITEM,
	HG_CODEBLOCK,/* text */
	HG_TABLE,    /* children: rows, the first row is the header */
	HG_ROW,
	HG_CELL,     /* level 1 = numeric (right-aligned) */
	HG_TEXT,     /* text */
	HG_CODE,     /* text */
	HG_LINK,     /* text = href, title = full title (hover) */
	HG_EMPH,
	HG_STRONG,
	HG_SPAN,     /* cls only matters in HTML; "warning" is marked in Markdown too */
	HG_BREAK,    /* line break */
	HG_IMAGE     /* text = src, title = alternative text; cls "chart" for the SVG charts */
} hg_node_type;

typedef struct hg_arena hg_arena;
struct hg_node;

/* The rows of a table made when the page is rendered, one at a time, so that a table of
 * thousands of rows never stands whole as a tree: make(ctx, i, a, table) appends the i-th of n
 * rows to table, its nodes and strings in a, which the renderer empties after each row; it
 * returns the row's flags (the marks it carries, for the legend under the table), or 0. */
typedef int (*hg_row_maker)(void *ctx, size_t i, hg_arena *a, struct hg_node *table);
typedef struct {
	hg_row_maker make;
	void *ctx;
	size_t n;
} hg_later_rows;

typedef struct hg_node {
	hg_node_type type;
	int level;
	const char *text;
	const char *title;
	const char *cls;
	struct hg_node *first, *last, *next;
	const hg_later_rows *later; /* a HG_TABLE's rows after those appended; NULL: none */
} hg_node;

/* One page: its tree and everything the renderers put around it. */
typedef struct {
	hg_arena *arena;
	const char *title;       /* <title> and the top heading's text */
	const char *root;        /* relative path from the page to the site root: "", "../" */
	hg_node *breadcrumb;     /* a HG_PARA */
	hg_node *body;           /* a HG_DOC */
	hg_node *footer;         /* a HG_PARA */
} hg_page;

hg_page *hg_page_new(void);
void hg_page_free(hg_page *page);

/* An arena of one's own (a page has its own): emptied for reuse, or freed. */
hg_arena *hg_arena_new(void);
void hg_arena_reset(hg_arena *a);
void hg_arena_free(hg_arena *a);
/* n bytes from the arena, aligned for any type, freed with it. */
void *hg_alloc(hg_arena *a, size_t n);
char *hg_strdup(hg_arena *a, const char *s);
char *hg_printf(hg_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

hg_node *hg_node_new(hg_arena *a, hg_node_type type);
hg_node *hg_append(hg_node *parent, hg_node *child); /* returns child */
/* Shorthands: create, append to parent (when not NULL) and return the new node. */
hg_node *hg_add(hg_arena *a, hg_node *parent, hg_node_type type);
hg_node *hg_add_text(hg_arena *a, hg_node *parent, const char *text);
hg_node *hg_add_textf(hg_arena *a, hg_node *parent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
hg_node *hg_add_code(hg_arena *a, hg_node *parent, const char *text);
hg_node *hg_add_link(hg_arena *a, hg_node *parent, const char *href, const char *text,
	const char *title);
hg_node *hg_add_heading(hg_arena *a, hg_node *parent, int level, const char *text);
hg_node *hg_add_image(hg_arena *a, hg_node *parent, const char *src, const char *alt,
	const char *cls);
/* Rows of table made at rendering time, after those appended (ctx lives as long as the page). */
void hg_table_later(hg_arena *a, hg_node *table, hg_row_maker make, void *ctx, size_t n);
/* The same, and returns the flags of all its rows OR'd together: each row is made once now in a
 * scratch arena and dropped. */
int hg_table_later_flags(hg_arena *a, hg_node *table, hg_row_maker make, void *ctx, size_t n);
/* Each row of a table in order, the later ones made one at a time in a scratch arena emptied
 * after fn saw the row. */
void hg_table_each_row(const hg_node *t, void (*fn)(void *arg, const hg_node *row), void *arg);
/* A cell holding plain text; numeric cells are right-aligned in HTML. */
hg_node *hg_add_cell(hg_arena *a, hg_node *row, const char *text, int numeric);

#endif
