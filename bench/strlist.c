/* strlist.c — growable NULL-terminated string lists, the form every list of paths and flags of an
 * instance takes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbutil.h"

int hb_strlist_add(hb_strlist *l, char *s)
{
	if (!s)
		return hb_error_set("out of memory");
	if (l->n + 1 >= l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		char **g = realloc(l->v, cap * sizeof(*g));
		if (!g) {
			free(s);
			return hb_error_set("out of memory");
		}
		l->v = g;
		l->cap = cap;
	}
	l->v[l->n++] = s;
	l->v[l->n] = NULL;
	return 0;
}

void hb_strv_free(char **v)
{
	size_t i;
	if (!v)
		return;
	for (i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

char **hb_strlist_take(hb_strlist *l)
{
	char **v = l->v;
	if (!v)
		v = calloc(1, sizeof(*v));
	l->v = NULL;
	l->n = l->cap = 0;
	return v;
}

char **hb_strv_dup(char *const *v)
{
	hb_strlist l = { 0 };
	size_t i;
	for (i = 0; v && v[i]; i++)
		if (hb_strlist_add(&l, hb_strdup(v[i])) != 0) {
			hb_strv_free(hb_strlist_take(&l));
			return NULL;
		}
	return hb_strlist_take(&l);
}

hb_strlist hb_strlist_of(char **v)
{
	hb_strlist l = { v, 0, 0 };
	if (v)
		while (v[l.n])
			l.n++;
	l.cap = l.n + 1;
	return l;
}

static int S_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void hb_strv_sort(char **v, size_t n)
{
	if (n)
		qsort(v, n, sizeof(char *), S_cmp_str);
}

char *hb_ull_list(const unsigned long long *v, size_t n)
{
	char *s = malloc(n * 24 + 1);
	size_t i, len = 0;
	if (!s)
		abort();
	s[0] = 0;
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(s + len, "%s%llu", i ? "," : "", v[i]);
	return s;
}
