/* note.c — what a long command tells its user on the way: one "hashbench: " line a note, and on a
 * terminal a progress line rewritten in place. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

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

/* The columns of the terminal f writes to; 0 when it cannot tell. */
static size_t S_columns(FILE *f)
{
	struct winsize ws;
	return ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
}

/* The characters of UTF-8 text (a column each, near enough for names and verdicts). */
static size_t S_chars(const char *text)
{
	size_t n = 0;
	for (; *text; text++)
		n += ((unsigned char)*text & 0xC0) != 0x80;
	return n;
}

/* Cut text (with room for 3 bytes more) at a character so that it and `room` characters more
 * fit in `columns` less the last, where some terminals wrap at once: a progress line that wraps
 * is no longer rewritten in place. Its end is marked "…". */
static void S_fit(char *text, size_t columns, size_t room)
{
	size_t keep, n = 0, i;
	if (!columns || S_chars(text) + room < columns)
		return;
	keep = columns > room + 2 ? columns - room - 2 : 0;
	for (i = 0; text[i]; i++)
		if (((unsigned char)text[i] & 0xC0) != 0x80 && n++ == keep)
			break;
	strcpy(text + i, "…");
}

void hb_progress(FILE *f, int tty, size_t done, size_t total, const char *what, const char *result,
	const char *when)
{
	char head[1024], tail[160];
	if (!f)
		return;
	snprintf(tail, sizeof(tail), "%s%s%s", when ? " (" : "", when ? when : "", when ? ")" : "");
	if (tty) {
		snprintf(head, sizeof(head) - 3, "[%zu/%zu] %s %s", done, total, what, result);
		S_fit(head, S_columns(f), S_chars(tail));
		fprintf(f, "\r\033[K%s%s", head, tail);
		if (done == total)
			fputc('\n', f);
	} else {
		fprintf(f, "hashbench: [%zu/%zu] %s: %s%s\n", done, total, what, result, tail);
	}
	fflush(f);
}

const char *hb_plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}
