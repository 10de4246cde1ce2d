/* memory.h — the exact memory figures on the pages (memory.c) and the machine-speed trace
 * (sentinel.c): the parts of the page models and the site that show them. */
#ifndef HG_MEMORY_H
#define HG_MEMORY_H

#include "hashgen.h"
#include "model.h"

/* The record's memory figures into its row of raw figures. */
void hg_memory_to_fig(hg_fig *f, const hg_record *r);

/* Section 5: the columns after the guide's (stack, heap peak, allocations), their cells of a
 * record ("—" when not recorded) and the paragraph above the table. */
#define HG_MEMORY_NCOLS 3
extern const char *const hg_memory_head[HG_MEMORY_NCOLS + 1];
void hg_memory_cells(hg_arena *a, hg_node *row, const hg_memory *m);
void hg_memory_para(hg_arena *a, hg_node *p);
/* The comparison page: stack and heap peak of a row. */
void hg_memory_fig_cells(hg_arena *a, hg_node *row, const hg_fig *f);

/* The method page's "Machine speed during the campaign" part: workload, limit, counts, the
 * trace chart (sentinel.svg) and sentinel.json in an evidence table; one sentence when the
 * campaign was not traced. */
void hg_sentinel_method(hg_arena *a, hg_node *body, const hg_system *s);
/* The trace chart of s as SVG text (caller frees); -1 with the error stored. */
int hg_sentinel_svg(char **out, size_t *len, const hg_system *s);
/* Into the site being built in tmp: <system>/sentinel.svg (+ .gz) and the copy of sentinel.json
 * under data/<system>/; nothing for a system that was not traced. */
int hg_site_sentinel(const char *tmp, const hg_system *s);

#endif
