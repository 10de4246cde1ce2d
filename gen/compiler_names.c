/* compiler_names.c — SUPERCOP's compiler lines named short in tables ("gcc -O3"), so that a row
 * stays one line tall and never breaks inside a flag; each short name carries its whole line as
 * its title and in a legend under the table. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "pages.h"

struct hg_compiler_names {
	const char **lines;
	size_t n, cap;
};

hg_compiler_names *hg_compiler_names_new(hg_arena *a)
{
	hg_compiler_names *cn = hg_alloc(a, sizeof(*cn)); /* the arena's memory is not zeroed */
	memset(cn, 0, sizeof(*cn));
	return cn;
}

void hg_compiler_names_add(hg_arena *a, hg_compiler_names *cn, const char *line)
{
	size_t i;
	if (!line)
		return;
	for (i = 0; i < cn->n; i++)
		if (strcmp(cn->lines[i], line) == 0)
			return;
	if (cn->n == cn->cap) {
		const char **grown = hg_alloc(a, (cn->cap * 2 + 8) * sizeof(*grown));
		if (cn->n)
			memcpy(grown, cn->lines, cn->n * sizeof(*grown));
		cn->lines = grown;
		cn->cap = cn->cap * 2 + 8;
	}
	cn->lines[cn->n++] = line;
}

/* Whether a word of a compiler line names it apart from the others: its optimisation level, or a
 * machine option other than the native ones every line of SUPERCOP's amd64 list has. */
static int S_keeps(const char *word, size_t len)
{
	if (len >= 2 && strncmp(word, "-O", 2) == 0)
		return 1;
	if (len < 2 || strncmp(word, "-m", 2) != 0)
		return 0;
	return !(len == 13 && strncmp(word, "-march=native", 13) == 0) &&
		!(len == 13 && strncmp(word, "-mtune=native", 13) == 0);
}

/* The compiler, then the words S_keeps keeps ("gcc -O3", "clang -mcpu=native -O3"). */
static char *S_short(hg_arena *a, const char *line)
{
	char *out = hg_alloc(a, strlen(line) + 1), *o = out;
	const char *p = line;
	int first = 1;
	while (*p) {
		size_t len;
		p += strspn(p, " \t");
		len = strcspn(p, " \t");
		if (len && (first || S_keeps(p, len))) {
			if (o != out)
				*o++ = ' ';
			memcpy(o, p, len);
			o += len;
		}
		first = 0;
		p += len;
	}
	*o = 0;
	return out;
}

const char *hg_compiler_name(hg_arena *a, const hg_compiler_names *cn, const char *line)
{
	char *name = S_short(a, line);
	size_t i;
	/* two lines of the page that would share a name keep their whole lines */
	for (i = 0; cn && i < cn->n; i++)
		if (strcmp(cn->lines[i], line) != 0 && strcmp(S_short(a, cn->lines[i]), name) == 0)
			return line;
	return name;
}

hg_node *hg_add_compiler(hg_arena *a, hg_node *parent, const hg_compiler_names *cn,
	const char *line)
{
	hg_node *code = hg_add_code(a, parent, hg_compiler_name(a, cn, line));
	code->cls = "compiler";
	code->title = line;
	return code;
}

void hg_compiler_legend(hg_arena *a, hg_node *body, const hg_compiler_names *cn)
{
	hg_node *p = NULL;
	size_t i;
	for (i = 0; i < cn->n; i++) {
		const char *name = hg_compiler_name(a, cn, cn->lines[i]);
		if (strcmp(name, cn->lines[i]) == 0)
			continue;
		if (!p) {
			p = hg_add(a, body, HG_PARA);
			p->cls = "legend";
			hg_add_text(a, p, "Compiler settings, named short above: ");
		} else {
			hg_add_text(a, p, "; ");
		}
		hg_add_code(a, p, name);
		hg_add_text(a, p, " is ");
		hg_add_code(a, p, cn->lines[i]);
	}
	if (p)
		hg_add_text(a, p, ".");
}
