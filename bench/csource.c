/* csource.c — reading submitted C sources as code: comments and literals blanked, whether a
 * file defines main, the value of a #define, and the instance header's ALGORITHM_INSTANCE and
 * DIGEST_BIT_LENGTH. */
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
