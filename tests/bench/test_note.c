/* test_note.c — the progress line as a user sees it: in a log "hashbench: [i/N] what: result"
 * whole, the time elapsed and left at its end; on a terminal (a pseudo-terminal here) one line
 * rewritten in place, cut to the terminal's width with the times kept. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "support.h"

#define TIMES "0:12 elapsed, about 3:04 left"

static char *S_logged(size_t done, size_t total, const char *what, const char *result,
	const char *when)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	hb_progress(f, 0, done, total, what, result, when);
	fclose(f);
	return out;
}

/* What hb_progress writes to a terminal of `columns` columns (0: one that does not say). */
static char *S_shown(unsigned short columns, size_t done, size_t total, const char *what,
	const char *result)
{
	struct winsize ws = { .ws_row = 24, .ws_col = columns };
	struct termios raw;
	char buf[4096];
	size_t got = 0;
	int master = posix_openpt(O_RDWR | O_NOCTTY), slave = -1;
	FILE *f;

	if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0 ||
		(slave = open(ptsname(master), O_RDWR | O_NOCTTY)) < 0)
		cr_skip_test("this machine gives no pseudo-terminal: %s", strerror(errno));
	/* raw: the line as written, "\n" not made "\r\n" */
	cr_assert_eq(tcgetattr(slave, &raw), 0);
	cfmakeraw(&raw);
	cr_assert_eq(tcsetattr(slave, TCSANOW, &raw), 0);
	cr_assert_eq(ioctl(slave, TIOCSWINSZ, &ws), 0);
	f = fdopen(slave, "w");
	cr_assert(f);
	hb_progress(f, 1, done, total, what, result, TIMES);
	fclose(f);
	for (;;) {
		struct pollfd p = { .fd = master, .events = POLLIN };
		ssize_t n;
		if (poll(&p, 1, 1000) <= 0)
			break;
		n = read(master, buf + got, sizeof(buf) - 1 - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(master);
	buf[got] = 0;
	return hb_strdup(buf);
}

/* The characters of UTF-8 text, as a terminal gives each a column. */
static size_t S_chars(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

Test(note, a_log_keeps_its_line_and_adds_the_times_at_the_end)
{
	char *a = S_logged(1214, 5586, "lsh512 (ref) KAT", "ERROR", "12:34 elapsed, about 45:10 left");
	char *b = S_logged(3, 3, "SM3 (reference) hash_32", "ok", NULL);
	cr_expect_str_eq(a, "hashbench: [1214/5586] lsh512 (ref) KAT: ERROR (12:34 elapsed, about "
		"45:10 left)\n");
	cr_expect_str_eq(b, "hashbench: [3/3] SM3 (reference) hash_32: ok\n", "no times: none shown");
	free(a);
	free(b);
}

Test(note, a_terminal_rewrites_one_line_in_place)
{
	char *mid = S_shown(200, 5, 118, "SM3 (reference) pass 1", "calm");
	char *last = S_shown(200, 118, 118, "SM3 (openssl) hash_1024", "ok");
	cr_expect_str_eq(mid, "\r\033[K[5/118] SM3 (reference) pass 1 calm (" TIMES ")");
	cr_expect_str_eq(last, "\r\033[K[118/118] SM3 (openssl) hash_1024 ok (" TIMES ")\n",
		"the last line stays");
	free(mid);
	free(last);
}

Test(note, a_line_wider_than_the_terminal_is_cut_before_the_times)
{
	static const char start[] = "\r\033[K[49/118] SHA3-256 (";
	const char *what = "SHA3-256 (reference) paired pass 1 with SM3 (reference)";
	char *cut = S_shown(60, 49, 118, what, "ok"), *whole = S_shown(0, 49, 118, what, "ok");
	const char *line = cut + strlen("\r\033[K");

	cr_assert(strncmp(cut, start, sizeof(start) - 1) == 0, "%s", cut);
	cr_expect_eq(S_chars(line), 59, "the width less its last column: %s", line);
	cr_expect(strstr(line, "… (" TIMES ")") && strlen(strstr(line, "… (")) ==
		strlen("… (" TIMES ")"), "cut where the times begin: %s", line);
	cr_expect_str_eq(whole, "\r\033[K[49/118] SHA3-256 (reference) paired pass 1 with SM3 "
		"(reference) ok (" TIMES ")", "a terminal that does not say its width: not cut");
	free(cut);
	free(whole);
}
