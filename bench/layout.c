/* layout.c — which folders of a submission package count: those under an `Implementations`
 * tree (self-assessment copies under `Others/` do not), or what algorithm.json's "include"
 * names; a package without any `Implementations` folder counts whole. */
#define _GNU_SOURCE
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "hbpackage.h"

/* Is a component of path below dir named "Implementations" (any case)? */
static int S_under_implementations(const char *dir, const char *path)
{
	size_t dlen = strlen(dir);
	const char *p = strncmp(path, dir, dlen) == 0 ? path + dlen : path;
	while (*p) {
		size_t n;
		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 15 && strncasecmp(p, "Implementations", 15) == 0 && p[n] == '/')
			return 1;
		p += n;
	}
	return 0;
}

int hb_layout_has_implementations(const char *dir, char *const *files)
{
	size_t i;
	for (i = 0; files[i]; i++)
		if (S_under_implementations(dir, files[i]))
			return 1;
	return 0;
}

int hb_layout_counts(const char *dir, const char *path, const struct json_t *include, int has_impl,
	char **why)
{
	size_t dlen = strlen(dir), i;
	const char *rel = strncmp(path, dir, dlen) == 0 && path[dlen] == '/' ? path + dlen + 1 : path;

	*why = NULL;
	if (!has_impl || S_under_implementations(dir, path))
		return 1;
	for (i = 0; i < json_array_size(include); i++) {
		const char *inc = json_string_value(json_array_get(include, i));
		size_t n = inc ? strlen(inc) : 0;
		while (n && inc[n - 1] == '/')
			n--;
		if (n && strncmp(rel, inc, n) == 0 && rel[n] == '/')
			return 1;
	}
	*why = hb_sprintf("%s: ignored: not under an Implementations folder (a self-assessment copy?); "
		"name its folder in algorithm.json \"include\" to measure it", rel);
	return 0;
}
