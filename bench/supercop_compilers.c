/* supercop_compilers.c — the compiler lines SUPERCOP would try for an implementation: the
 * tree's okcompilers/<language> (its first line by default), or every line of --compilers. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "hbbuild.h"

/* The lines of path, every one, or the first only. */
static char **S_compiler_lines(const char *path, int first_only)
{
	hb_buf b;
	hb_strlist l = { 0 };
	char *line, *save = NULL;

	if (hb_file_read_raw(&b, path) != 0)
		return NULL;
	b.data = realloc(b.data, b.len + 1);
	b.data[b.len] = 0;
	for (line = strtok_r((char *)b.data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		while (isspace((unsigned char)*line))
			line++;
		if (*line && *line != '#')
			hb_strlist_add(&l, hb_strdup(line));
		if (first_only && l.n == 1)
			break;
	}
	hb_buf_free(&b);
	if (l.n == 0) {
		hb_error_set("%s: no compiler line in it", path);
		hb_strv_free(hb_strlist_take(&l));
		return NULL;
	}
	return hb_strlist_take(&l);
}

char **hb_sc_compilers(const char *file, const char *tree, const char *language)
{
	char *path;
	char **lines;

	if (!file)
		path = hb_sprintf("%s/okcompilers/%s", tree, language);
	else if (hb_is_dir(file))
		path = hb_sprintf("%s/%s", file, language);
	else if (strcmp(language, "c") == 0)
		path = hb_strdup(file);
	else /* a file of C lines: the other languages try every line of the tree's own file */
		path = hb_sprintf("%s/okcompilers/%s", tree, language);
	lines = S_compiler_lines(path, !file);
	free(path);
	return lines;
}
