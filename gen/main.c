/* main.c — hashgen, the site generator. Rendering the evidence into pages is the generator
 * issue's work; until it lands this program says so plainly and renders nothing. */
#include <stdio.h>
#include <string.h>

#ifndef HB_GIT_COMMIT
#define HB_GIT_COMMIT "unknown"
#endif

int main(int argc, char **argv)
{
	if (argc > 1 && (strcmp(argv[1], "--version") == 0)) {
		printf("hashgen 0.1.0 (git %s)\n", HB_GIT_COMMIT);
		return 0;
	}
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("usage: hashgen [--data DIR] [--templates DIR] [--out DIR] [--strict]\n");
		return 0;
	}
	fprintf(stderr, "hashgen: the site generator is not built yet: no pages were rendered\n");
	return 1;
}
