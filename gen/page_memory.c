/* page_memory.c — the exact memory figures of one call on the pages: section 5's columns and
 * paragraph of the algorithm page and the comparison page's stack and heap peak. */
#include "pages.h"

const char *const hg_memory_head[HG_MEMORY_NCOLS + 1] = { "stack", "heap peak", "allocations",
	NULL };

static const char *S_bytes(hg_arena *a, long long v)
{
	return v >= 0 ? hg_printf(a, "%lld B", v) : "—";
}

void hg_memory_cells(hg_arena *a, hg_node *row, const hg_memory *m)
{
	hg_add_cell(a, row, S_bytes(a, m->stack_bytes), 1);
	hg_add_cell(a, row, S_bytes(a, m->heap_peak_bytes), 1);
	hg_add_cell(a, row, m->heap_allocations >= 0 ? hg_printf(a, "%lld", m->heap_allocations) :
		"—", 1);
}

void hg_memory_fig_cells(hg_arena *a, hg_node *row, const hg_fig *f)
{
	hg_add_cell(a, row, S_bytes(a, f->stack_bytes), 1);
	hg_add_cell(a, row, S_bytes(a, f->heap_peak_bytes), 1);
}

void hg_memory_para(hg_arena *a, hg_node *p)
{
	hg_add_text(a, p, "Static memory is approximated by the library's loadable ELF segments; "
		"peak memory is the process high-water mark (VmHWM) including the benchmark driver and "
		"libc, so both are upper-bound proxies rather than isolated algorithm memory. Stack, "
		"heap peak and allocations are measured exactly for one call, the first after loading "
		"the library, in a fresh process: the stack as the bytes of a pattern-painted stack the "
		"call overwrote (less an empty function's), the heap as the peak of live bytes and the "
		"number of calls to the library's own malloc family, redirected to counting wrappers "
		"for that call. Evidence of an earlier hashbench lacks them: its columns show \"—\".");
}
