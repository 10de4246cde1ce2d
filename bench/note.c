/* note.c — what a long command tells its user on the way: one "hashbench: " line a note, and on a
 * terminal a progress line rewritten in place. */
#include <stdarg.h>
#include <stdio.h>

#include "hbutil.h"

void hb_vnote(FILE *f, int tty, const char *prefix, const char *fmt, va_list ap)
{
	if (!f)
		return;
	if (tty)
		fputs("\r\033[K", f);
	fputs("hashbench: ", f);
	if (prefix)
		fputs(prefix, f);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	fflush(f);
}

void hb_note(FILE *f, int tty, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hb_vnote(f, tty, NULL, fmt, ap);
	va_end(ap);
}

void hb_progress(FILE *f, int tty, size_t done, size_t total, double elapsed_s, const char *what,
	const char *result)
{
	double left;
	if (!f)
		return;
	left = done ? elapsed_s / (double)done * (double)(total - done) : 0;
	if (tty) {
		fprintf(f, "\r\033[K[%zu/%zu] %s %s (about %.0f s left)", done, total, what, result, left);
		if (done == total)
			fputc('\n', f);
	} else {
		fprintf(f, "hashbench: [%zu/%zu] %s: %s\n", done, total, what, result);
	}
	fflush(f);
}

const char *hb_plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}
