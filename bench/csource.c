/* csource.c — reading submitted C sources as code: comments and literals blanked, whether a
 * file defines main, the value of a #define, the instance header's ALGORITHM_INSTANCE and
 * DIGEST_BIT_LENGTH, and the #define lines a declared instance rewrites or sets with -D. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hbpackage.h"

/* A copy with comments, string and character literals blanked, so scans see only code. */
char *hb_code_only(const char *src, size_t len)
{
	char *out = malloc(len + 1);
	size_t i = 0;
	if (!out)
		return NULL;
	memcpy(out, src, len);
	out[len] = 0;
	while (i < len) {
		if (out[i] == '/' && i + 1 < len && out[i + 1] == '*') {
			size_t j = i + 2;
			while (j + 1 < len && !(out[j] == '*' && out[j + 1] == '/'))
				j++;
			j = j + 2 < len ? j + 2 : len;
			while (i < j) {
				if (out[i] != '\n')
					out[i] = ' ';
				i++;
			}
		} else if (out[i] == '/' && i + 1 < len && out[i + 1] == '/') {
			while (i < len && out[i] != '\n')
				out[i++] = ' ';
		} else if (out[i] == '"' || out[i] == '\'') {
			char q = out[i++];
			while (i < len && out[i] != q && out[i] != '\n') {
				if (out[i] == '\\' && i + 1 < len)
					out[i++] = ' ';
				out[i++] = ' ';
			}
			i++;
		} else {
			i++;
		}
	}
	return out;
}

static int S_is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* After `main(argc, argv)`: old-style parameter declarations (`int argc; char **argv;`) and
 * then the body? */
static int S_knr_parameters(const char *q)
{
	int declarations = 0;
	for (; *q; q++) {
		if (*q == '{')
			return declarations > 0;
		if (*q == ';')
			declarations++;
		else if (!S_is_ident(*q) && !isspace((unsigned char)*q) && !strchr("*,[]", *q))
			return 0;
	}
	return 0;
}

/* Does the code define a function called main (`main (…) {`, or with old-style parameter
 * declarations before the `{`)? */
int hb_defines_main(const char *code)
{
	const char *p = code;
	while ((p = strstr(p, "main")) != NULL) {
		const char *q = p + 4;
		int depth = 0;
		if ((p > code && S_is_ident(p[-1])) || S_is_ident(*q)) {
			p = q;
			continue;
		}
		while (isspace((unsigned char)*q))
			q++;
		if (*q == '(') {
			for (; *q; q++) {
				if (*q == '(')
					depth++;
				else if (*q == ')' && --depth == 0)
					break;
			}
			if (*q == ')') {
				q++;
				while (isspace((unsigned char)*q))
					q++;
				if (*q == '{')
					return 1;
				if (S_is_ident(*q) && S_knr_parameters(q))
					return 1;
			}
		}
		p += 4;
	}
	return 0;
}

/* Value of `#define NAME value` in a header (original text, comments ignored). */
static char *S_define_value(const char *code, const char *src, const char *name)
{
	const char *p = code;
	size_t n = strlen(name);
	while ((p = strstr(p, "define")) != NULL) {
		const char *h = p, *q = p + 6, *start, *end;
		while (h > code && (h[-1] == ' ' || h[-1] == '\t'))
			h--;
		if (h == code || h[-1] != '#') {
			p += 6;
			continue;
		}
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, name, n) != 0 || S_is_ident(q[n])) {
			p += 6;
			continue;
		}
		q += n;
		/* value from the original text, so string literals survive */
		start = src + (q - code);
		while (*start == ' ' || *start == '\t')
			start++;
		end = start;
		while (*end && *end != '\n' && !(end[0] == '/' && (end[1] == '/' || end[1] == '*')))
			end++;
		while (end > start && isspace((unsigned char)end[-1]))
			end--;
		return strndup(start, (size_t)(end - start));
	}
	return NULL;
}

int hb_instance_name_valid(const char *s)
{
	size_t i, n = strlen(s);
	if (n == 0 || n > 64)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
			return 0;
	return 1;
}

int hb_header_scan(char **out_name, int *out_digest_bits, const char *text, size_t text_len,
	const char *path)
{
	char *code = NULL, *inst = NULL, *bits = NULL, *p;
	long v;
	int rc = 0;

	*out_name = NULL;
	*out_digest_bits = 0;
	if (!strstr(text, "ALGORITHM_INSTANCE"))
		goto out;
	code = hb_code_only(text, text_len);
	if (!code) {
		rc = hb_error_set("out of memory");
		goto out;
	}
	inst = S_define_value(code, text, "ALGORITHM_INSTANCE");
	if (!inst)
		goto out;
	if (inst[0] != '"' || strlen(inst) < 2 || inst[strlen(inst) - 1] != '"') {
		rc = hb_error_set("%s: ALGORITHM_INSTANCE is not a string literal: %s", path, inst);
		goto out;
	}
	{
		size_t len = strlen(inst);
		memmove(inst, inst + 1, len - 2);
		inst[len - 2] = 0;
	}
	if (!hb_instance_name_valid(inst)) {
		rc = hb_error_set("%s: ALGORITHM_INSTANCE \"%s\" must be 1 to 64 letters, digits, "
			"'-' or '_'", path, inst);
		goto out;
	}
	bits = S_define_value(code, text, "DIGEST_BIT_LENGTH");
	if (!bits) {
		rc = hb_error_set("%s: defines ALGORITHM_INSTANCE but not DIGEST_BIT_LENGTH", path);
		goto out;
	}
	for (p = bits; *p == '(' || *p == ' '; p++)
		;
	errno = 0;
	v = strtol(p, &p, 10);
	while (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L' || *p == ')' || *p == ' ')
		p++;
	if (errno || *p || v <= 0 || v > (1L << 24)) {
		rc = hb_error_set("%s: DIGEST_BIT_LENGTH is not a positive number of bits: %s",
			path, bits);
		goto out;
	}
	*out_name = inst;
	*out_digest_bits = (int)v;
	inst = NULL;
	rc = 1;
out:
	free(inst);
	free(bits);
	free(code);
	return rc;
}

/* ---- #define lines: found, rewritten to a declared value, tested ---- */

typedef struct {
	size_t name_end, value_start, value_end; /* offsets in the text */
	int function_like;
} S_site;

/* End of the logical line that starts at i: the first newline not escaped by a backslash. */
static size_t S_logical_end(const char *code, size_t len, size_t i)
{
	for (;;) {
		const char *nl = memchr(code + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - code) : len, b = e;
		while (b > i && code[b - 1] == '\r')
			b--;
		if (!nl || b == i || code[b - 1] != '\\')
			return e;
		i = e + 1;
	}
}

static size_t S_skip_blanks(const char *code, size_t i, size_t end)
{
	while (i < end && (code[i] == ' ' || code[i] == '\t'))
		i++;
	return i;
}

/* The next `#define NAME …` directive in code (hb_code_only of the text: comments and literals
 * blanked, the same offsets) at or after *pos; 1 when there is one. */
static int S_next_define(S_site *site, const char *code, size_t len, size_t *pos, const char *name)
{
	size_t n = strlen(name);
	while (*pos < len) {
		size_t line = *pos, end = S_logical_end(code, len, line), q, e;
		*pos = end < len ? end + 1 : len;
		q = S_skip_blanks(code, line, end);
		if (q >= end || code[q] != '#')
			continue;
		q = S_skip_blanks(code, q + 1, end);
		if (end - q < 7 || strncmp(code + q, "define", 6) != 0 ||
			(code[q + 6] != ' ' && code[q + 6] != '\t'))
			continue;
		q = S_skip_blanks(code, q + 6, end);
		if (end - q < n || strncmp(code + q, name, n) != 0 || (q + n < end &&
				S_is_ident(code[q + n])))
			continue;
		site->name_end = q + n;
		site->function_like = q + n < end && code[q + n] == '(';
		site->value_start = S_skip_blanks(code, q + n, end);
		for (e = end; e > site->value_start && isspace((unsigned char)code[e - 1]); e--)
			;
		site->value_end = e;
		return 1;
	}
	return 0;
}

/* A value as one line: escaped newlines and runs of blanks become one space. */
static char *S_one_line(const char *s, size_t len)
{
	char *out = malloc(len + 1), *w = out;
	size_t i;
	if (!out)
		return NULL;
	for (i = 0; i < len; i++) {
		int blank = isspace((unsigned char)s[i]) || (s[i] == '\\' && i + 1 < len &&
			(s[i + 1] == '\n' || s[i + 1] == '\r'));
		if (!blank)
			*w++ = s[i];
		else if (w > out && w[-1] != ' ')
			*w++ = ' ';
	}
	while (w > out && w[-1] == ' ')
		w--;
	*w = 0;
	return out;
}

/* Rewrite the #define lines of text that name one of defines ("NAME=VALUE"). *out gets the new
 * text and *out_len its length (the caller's; NULL when no line names one); found[k] (when not
 * NULL) counts the lines of defines[k]; lines (when not NULL) gets "base: #define NAME old ->
 * new" for each. A function-like macro cannot take a value: an error naming ctx. */
int hb_define_rewrite(char **out, size_t *out_len, hb_strlist *lines, size_t *found,
	const char *text, size_t len, const char *base, char *const *defines, const char *ctx)
{
	char *cur = NULL;
	size_t k, curlen = len;
	int rc = 0;

	*out = NULL;
	*out_len = 0;
	for (k = 0; defines[k] && rc == 0; k++) {
		const char *eq = strchr(defines[k], '='), *src = cur ? cur : text;
		char *name = strndup(defines[k], (size_t)(eq - defines[k]));
		char *code = hb_code_only(src, curlen);
		size_t pos = 0, nsites = 0, cap = 0, i;
		S_site site, *sites = NULL;

		if (!name || !code) {
			free(name);
			free(code);
			rc = hb_error_set("out of memory");
			break;
		}
		while (rc == 0 && S_next_define(&site, code, curlen, &pos, name)) {
			if (site.function_like) {
				rc = hb_error_set("%s.%s: %s defines %s as a function-like macro, which no value "
					"can replace", ctx, name, base, name);
				break;
			}
			if (nsites == cap) {
				S_site *g = realloc(sites, (cap = cap ? 2 * cap : 4) * sizeof(*g));
				if (!g) {
					rc = hb_error_set("out of memory");
					break;
				}
				sites = g;
			}
			sites[nsites++] = site;
		}
		/* from the last to the first, so earlier offsets stay valid */
		for (i = nsites; i-- > 0 && rc == 0;) {
			const S_site *s = &sites[i];
			int pad = s->value_start == s->name_end;
			size_t vlen = strlen(eq + 1), newlen = curlen - (s->value_end - s->value_start) +
				vlen + (size_t)pad;
			char *next = malloc(newlen + 1), *old;
			src = cur ? cur : text;
			if (!next) {
				rc = hb_error_set("out of memory");
				break;
			}
			memcpy(next, src, s->value_start);
			if (pad)
				next[s->value_start] = ' ';
			memcpy(next + s->value_start + pad, eq + 1, vlen);
			memcpy(next + s->value_start + pad + vlen, src + s->value_end, curlen - s->value_end);
			next[newlen] = 0;
			if (lines) {
				old = S_one_line(src + s->value_start, s->value_end - s->value_start);
				rc = hb_strlist_add(lines, old ? hb_sprintf("%s: #define %s %s -> %s", base, name,
					*old ? old : "(no value)", eq + 1) : NULL);
				free(old);
			}
			free(cur);
			cur = next;
			curlen = newlen;
		}
		if (found)
			found[k] += nsites;
		free(sites);
		free(code);
		free(name);
	}
	if (rc != 0) {
		free(cur);
		return rc;
	}
	*out = cur;
	*out_len = curlen;
	return 0;
}

/* Does code test whether name is defined (`#ifndef NAME`, `defined(NAME)`), so that a -D can
 * set it? */
static int S_guarded(const char *code, const char *name)
{
	static const char *const tests[] = { "ifndef", "defined", NULL };
	size_t n = strlen(name), t;
	for (t = 0; tests[t]; t++) {
		const char *p = code;
		size_t tl = strlen(tests[t]);
		while ((p = strstr(p, tests[t])) != NULL) {
			const char *q = p + tl;
			p = q;
			if (S_is_ident(*q))
				continue;
			while (*q == ' ' || *q == '\t' || *q == '(')
				q++;
			if (strncmp(q, name, n) == 0 && !S_is_ident(q[n]))
				return 1;
		}
	}
	return 0;
}

/* The first of files that #defines name (in code, not a comment) without first testing whether
 * it is defined already; NULL when none does. */
const char *hb_define_file(char *const *files, const char *name)
{
	size_t i;
	for (i = 0; files[i]; i++) {
		hb_buf buf;
		char *code;
		size_t pos = 0;
		S_site site;
		int yes;
		if (hb_file_read(&buf, files[i]) != 0)
			continue;
		code = hb_code_only((char *)buf.data, buf.len);
		yes = code && S_next_define(&site, code, buf.len, &pos, name) && !S_guarded(code, name);
		free(code);
		hb_buf_free(&buf);
		if (yes)
			return files[i];
	}
	return NULL;
}

/* Does any of files use the identifier name in its code? */
int hb_code_uses(char *const *files, const char *name)
{
	size_t i, n = strlen(name);
	for (i = 0; files[i]; i++) {
		hb_buf buf;
		char *code;
		const char *p;
		int yes = 0;
		if (hb_file_read(&buf, files[i]) != 0)
			continue;
		code = hb_code_only((char *)buf.data, buf.len);
		for (p = code; p && !yes && (p = strstr(p, name)) != NULL; p += n)
			yes = (p == code || !S_is_ident(p[-1])) && !S_is_ident(p[n]);
		free(code);
		hb_buf_free(&buf);
		if (yes)
			return 1;
	}
	return 0;
}
