/* standalone.c — a main for the fuzz harnesses without libFuzzer: runs LLVMFuzzerTestOneInput
 * once over every file given and every file in the folders given (the corpus as a regression
 * test of the normal build). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzzutil.h"

static int S_run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (cap - len < 4096) {
			unsigned char *g = realloc(data, cap = cap ? 2 * cap : 65536);
			if (!g) {
				fprintf(stderr, "fuzz: %s: out of memory\n", path);
				free(data);
				fclose(f);
				return -1;
			}
			data = g;
		}
		n = fread(data + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	/* an exact-size copy, so that a read past the input is one past the allocation */
	{
		unsigned char *exact = malloc(len ? len : 1);
		if (!exact) {
			free(data);
			return -1;
		}
		memcpy(exact, data, len);
		free(data);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	return 0;
}

static int S_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	size_t runs = 0;
	int i, failed = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *de;
		char **names = NULL;
		size_t n = 0, k;

		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "fuzz: %s: %s\n", argv[i], strerror(errno));
			failed = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			failed |= S_run_file(argv[i]) != 0;
			runs++;
			continue;
		}
		d = opendir(argv[i]);
		if (!d) {
			fprintf(stderr, "fuzz: %s: %s\n", argv[i], strerror(errno));
			failed = 1;
			continue;
		}
		while ((de = readdir(d)) != NULL) {
			char *p, **g;
			if (de->d_name[0] == '.')
				continue;
			if (asprintf(&p, "%s/%s", argv[i], de->d_name) < 0 ||
				!(g = realloc(names, (n + 1) * sizeof(*g)))) {
				fprintf(stderr, "fuzz: out of memory\n");
				return 2;
			}
			names = g;
			names[n++] = p;
		}
		closedir(d);
		if (n)
			qsort(names, n, sizeof(*names), S_cmp);
		for (k = 0; k < n; k++) {
			if (stat(names[k], &st) == 0 && S_ISREG(st.st_mode)) {
				failed |= S_run_file(names[k]) != 0;
				runs++;
			}
			free(names[k]);
		}
		free(names);
	}
	printf("%zu inputs run%s\n", runs, failed ? ", some could not be read" : "");
	if (runs == 0) {
		fprintf(stderr, "fuzz: no inputs\n");
		return 1;
	}
	return failed;
}
