/* test_prefetch.c — the read-ahead thread: it asks for the items in order, never more than the
 * distance asked past the readers' progress, every item once the readers get there, and stops
 * when told, wherever it is. */
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "genutil.h"
#include "support.h"

typedef struct {
	atomic_size_t asked;     /* items asked for so far */
	atomic_int out_of_order;
	char *dir;
} S_seen;

static size_t S_folders(void *ctx, size_t i, char **out, size_t max)
{
	S_seen *s = ctx;
	if (atomic_load(&s->asked) != i)
		atomic_store(&s->out_of_order, 1);
	atomic_store(&s->asked, i + 1);
	(void)max;
	out[0] = hg_xstrdup(s->dir); /* a real folder: its files are asked for */
	return 1;
}

static void S_nap_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&t, NULL);
}

/* Wait up to a second for s->asked to reach want. */
static void S_wait_for(S_seen *s, size_t want)
{
	int k;
	for (k = 0; k < 200 && atomic_load(&s->asked) < want; k++)
		S_nap_ms(5);
}

Test(prefetch, reads_in_order_no_further_ahead_than_asked)
{
	S_seen s;
	atomic_size_t progress;
	hg_prefetch *p;
	char *dir = hbt_tmpdir("prefetch");
	char *file = hg_xprintf("%s/record.json", dir);

	cr_assert_eq(hg_write_file(file, "{}", 2), 0);
	atomic_init(&s.asked, 0);
	atomic_init(&s.out_of_order, 0);
	s.dir = dir;
	atomic_init(&progress, 0);
	p = hg_prefetch_start(100, 3, &progress, S_folders, &s);
	cr_assert(p);
	S_wait_for(&s, 4);
	S_nap_ms(50); /* time to run past the bound, were it not kept */
	cr_expect_eq(atomic_load(&s.asked), 4, "readers at 0, 3 ahead: items 0-3 asked, not %zu",
		atomic_load(&s.asked));
	atomic_store(&progress, 10);
	S_wait_for(&s, 14);
	S_nap_ms(50);
	cr_expect_eq(atomic_load(&s.asked), 14, "readers at 10: items up to 13, not %zu",
		atomic_load(&s.asked));
	atomic_store(&progress, 100);
	S_wait_for(&s, 100);
	cr_expect_eq(atomic_load(&s.asked), 100, "every item once the readers get there");
	cr_expect_eq(atomic_load(&s.out_of_order), 0, "items asked in order");
	hg_prefetch_stop(p);
	free(file);
	free(dir);
}

Test(prefetch, stops_when_told_however_far_behind_the_readers_are)
{
	S_seen s;
	atomic_size_t progress;
	hg_prefetch *p;
	char *dir = hbt_tmpdir("prefetch");

	atomic_init(&s.asked, 0);
	atomic_init(&s.out_of_order, 0);
	s.dir = dir;
	atomic_init(&progress, 0);
	p = hg_prefetch_start(1000000, 1, &progress, S_folders, &s);
	S_wait_for(&s, 2);
	hg_prefetch_stop(p); /* waiting on the readers, who never come: it must return */
	cr_expect_eq(atomic_load(&s.asked), 2, "readers at 0, 1 ahead: items 0-1, not %zu",
		atomic_load(&s.asked));
	free(dir);
}
