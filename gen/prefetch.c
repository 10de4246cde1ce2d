/* prefetch.c — a thread that asks the kernel to start reading the evidence the pages will read
 * next, a bounded distance ahead of them, so that files not in the page cache are read many at a
 * time instead of one after another by each page thread. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "genutil.h"

struct hg_prefetch {
	pthread_t thread;
	int started;
	atomic_int stop;
	size_t n, ahead;
	const _Atomic size_t *progress;
	hg_prefetch_folders folders;
	void *ctx;
};

/* Every regular file of one folder: opened, its whole content asked for, closed. */
static void S_folder(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		int fd;
		if (de->d_name[0] == '.' || (de->d_type != DT_REG && de->d_type != DT_UNKNOWN))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		if (fd < 0)
			continue;
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED);
		close(fd);
	}
	closedir(d);
}

static void *S_run(void *arg)
{
	hg_prefetch *p = arg;
	struct timespec nap = { 0, 1000000 };
	size_t i, k;

	for (i = 0; i < p->n && !atomic_load(&p->stop); i++) {
		char *paths[HG_PREFETCH_MAX];
		size_t np;
		/* no further ahead than asked: what is read long before it is used may be gone again */
		while (i > atomic_load(p->progress) + p->ahead && !atomic_load(&p->stop))
			nanosleep(&nap, NULL);
		if (atomic_load(&p->stop))
			break;
		np = p->folders(p->ctx, i, paths, HG_PREFETCH_MAX);
		for (k = 0; k < np; k++) {
			if (!atomic_load(&p->stop))
				S_folder(paths[k]);
			free(paths[k]);
		}
	}
	return NULL;
}

hg_prefetch *hg_prefetch_start(size_t n, size_t ahead, const _Atomic size_t *progress,
	hg_prefetch_folders folders, void *ctx)
{
	hg_prefetch *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	atomic_init(&p->stop, 0);
	p->n = n;
	p->ahead = ahead;
	p->progress = progress;
	p->folders = folders;
	p->ctx = ctx;
	/* without the thread the pages read as they always did */
	p->started = pthread_create(&p->thread, NULL, S_run, p) == 0;
	return p;
}

void hg_prefetch_stop(hg_prefetch *p)
{
	if (!p)
		return;
	atomic_store(&p->stop, 1);
	if (p->started)
		pthread_join(p->thread, NULL);
	free(p);
}
