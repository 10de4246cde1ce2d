/* partition.c — how the downloads of a system are cut into parts: its algorithms in order, a
 * fixed number to a part, so that a changed record rewrites one part whatever the field's size. */
#include <stdio.h>
#include <string.h>

#include "figures.h"

static size_t S_nalgorithms(const hg_system *s)
{
	size_t n = 0;
	if (s->nalgorithms || !s->algorithms)
		return s->nalgorithms;
	while (s->algorithms[n]) /* a system made without hg_data_load's count */
		n++;
	return n;
}

size_t hg_parts_count(const hg_system *s)
{
	size_t n = S_nalgorithms(s);
	return n ? (n + HG_PART_ALGORITHMS - 1) / HG_PART_ALGORITHMS : 1;
}

size_t hg_part_range(const hg_system *s, size_t part, const char **first, const char **last)
{
	size_t n = S_nalgorithms(s), from = (part - 1) * HG_PART_ALGORITHMS, to;

	*first = *last = NULL;
	if (part == 0 || from >= n)
		return 0;
	to = from + HG_PART_ALGORITHMS < n ? from + HG_PART_ALGORITHMS : n;
	*first = s->algorithms[from];
	*last = s->algorithms[to - 1];
	return to - from;
}

size_t hg_part_of(const hg_system *s, const char *id)
{
	size_t lo = 0, hi = S_nalgorithms(s);
	/* the list is sorted: a binary search, so that a large field stays linear */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s->algorithms[mid], id);
		if (c == 0)
			return mid / HG_PART_ALGORITHMS + 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

char *hg_part_name(char *buf, size_t n, size_t part)
{
	snprintf(buf, n, "results-%03zu", part);
	return buf;
}
