/* memory.c — the exact memory figures of one call (stack high-water mark, heap peak, allocation
 * count, anonymous mappings, text and data segments) and a record's sentinel readings, read from
 * the record as untrusted input. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "evidence.h"

/* An optional integer of 0 or more: absent or null give -1. */
static int S_count(long long *out, json_t *obj, const char *file, const char *prefix,
	const char *key)
{
	json_t *v = json_object_get(obj, key);
	*out = -1;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return hg_error_set("%s: %s%s: expected an integer of 0 or more or null", file, prefix,
			key);
	*out = (long long)json_integer_value(v);
	return 0;
}

/* A required number (integer or real); nonneg: it may not be below 0. */
static int S_number(double *out, json_t *obj, const char *file, const char *key, int nonneg)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return hg_error_set("%s: sentinel.%s: missing", file, key);
	if (!json_is_number(v) || (nonneg && json_number_value(v) < 0))
		return hg_error_set("%s: sentinel.%s: expected a number%s", file, key,
			nonneg ? " of 0 or more" : "");
	*out = json_number_value(v);
	return 0;
}

static int S_sentinel(hg_rec_sentinel *out, json_t *j, const char *file)
{
	json_t *sn = json_object_get(j, "sentinel"), *lim;
	memset(out, 0, sizeof(*out));
	if (!sn || json_is_null(sn))
		return 0;
	if (!json_is_object(sn))
		return hg_error_set("%s: sentinel: expected an object", file);
	if (S_count(&out->before, sn, file, "sentinel.", "before") ||
		S_count(&out->after, sn, file, "sentinel.", "after") ||
		S_number(&out->reference, sn, file, "reference", 1) ||
		S_number(&out->deviation_pct, sn, file, "deviation_pct", 1))
		return -1;
	out->limit_pct = 3.0;
	lim = json_object_get(sn, "limit_pct");
	if (lim && !json_is_null(lim) && S_number(&out->limit_pct, sn, file, "limit_pct", 1))
		return -1;
	out->present = 1;
	return 0;
}

int hg_memory_read(hg_record *r, json_t *res, json_t *j, const char *file)
{
	hg_memory *m = &r->memory;
	json_t *d = json_object_get(res, "memory_detail");

	if (S_count(&m->stack_bytes, res, file, "resources.", "stack_bytes") ||
		S_count(&m->heap_peak_bytes, res, file, "resources.", "heap_peak_bytes") ||
		S_count(&m->heap_allocations, res, file, "resources.", "heap_allocations") ||
		S_count(&m->mmap_bytes, res, file, "resources.", "mmap_bytes") ||
		S_count(&m->text_bytes, res, file, "resources.", "text_bytes") ||
		S_count(&m->data_bytes, res, file, "resources.", "data_bytes"))
		return -1;
	if (d && !json_is_null(d) && !json_is_string(d))
		return hg_error_set("%s: resources.memory_detail: expected a string", file);
	m->detail = d && json_is_string(d) ? hg_xstrdup(json_string_value(d)) : NULL;
	return S_sentinel(&r->sentinel, j, file);
}

void hg_memory_clear(hg_record *r)
{
	free(r->memory.detail);
	r->memory.detail = NULL;
}
