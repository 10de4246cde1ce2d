/* listing.c — `hashbench list`: every algorithm of the catalog, its instances and implementations
 * with their sources, declared changes and KAT files, one line each on stdout. */
#include <stdio.h>
#include <string.h>

#include "hbcommands.h"

/* A SUPERCOP implementation: its path, status, implementors, what it calls and its sources. */
static void S_print_supercop(const hb_instance *inst)
{
	const hb_supercop_impl *sc = inst->supercop;
	size_t i;

	printf("  %-24s %-12s %5d bits  %s\n", inst->name, inst->impl, inst->digest_bits, sc->path);
	if (sc->not_run)
		printf("    status: not run here: %s\n", sc->not_run);
	else
		printf("    status: may run here (%s)\n", strcmp(sc->language, "cpp") == 0 ? "C++" :
			strcmp(sc->language, "rust") == 0 ? "Rust, with Debian's crates" : "C");
	if (sc->implementors)
		printf("    implementors: %s\n", sc->implementors);
	for (i = 0; sc->needs[i]; i++)
		printf("    calls: %s\n", sc->needs[i]);
	printf("    sources sha256: %s (SUPERCOP %s)\n", sc->sources_sha256,
		sc->version ? sc->version : "without a version file");
}

void hb_list_print(const hb_catalog *cat)
{
	size_t a, k, i;
	int s;

	for (a = 0; a < cat->nalgorithms; a++) {
		const hb_algorithm *alg = &cat->algorithms[a];
		if (alg->ninstances && alg->instances[0].supercop)
			printf("%s  (SUPERCOP primitive, %s)\n", alg->id, alg->dir);
		else
			printf("%s  %s  (%s)\n", alg->id, alg->name, alg->dir);
		for (k = 0; k < alg->ninstances; k++) {
			const hb_instance *inst = &alg->instances[k];
			if (inst->supercop) {
				S_print_supercop(inst);
				continue;
			}
			printf("  %-24s %-12s %5d bits  %s\n", inst->name, inst->impl, inst->digest_bits,
				inst->dir);
			printf("    sources:");
			for (i = 0; inst->sources[i]; i++) {
				const char *b = strrchr(inst->sources[i], '/');
				printf(" %s", b ? b + 1 : inst->sources[i]);
			}
			printf("\n");
			/* an instance algorithm.json declares: what it changes in the headers */
			for (i = 0; inst->rewrites && inst->rewrites[i]; i++)
				printf("    rewritten: %s\n", inst->rewrites[i]);
			for (i = 0; inst->define_flags && inst->define_flags[i]; i++)
				printf("    compiled with: %s\n", inst->define_flags[i]);
			for (s = 0; s < HB_KAT_NSETS; s++) {
				if (inst->kat_files[s])
					printf("    KAT_%-5s %s\n", hb_kat_set_name(s), inst->kat_files[s]);
				else if (inst->kat_manifest[s])
					printf("    KAT_%-5s sha256 %.16s… in %s\n", hb_kat_set_name(s),
						inst->kat_manifest[s], inst->kat_manifest_file[s]);
				else
					printf("    KAT_%-5s none\n", hb_kat_set_name(s));
			}
		}
	}
}
