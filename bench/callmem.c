/* callmem.c — one CryptHash call's exact memory: its stack high-water mark on a painted stack of
 * the driver's own (swapcontext), and its heap and mmap use, counted by pointing the library's
 * own GOT entries of the allocation functions at counting wrappers for that call only, so that
 * the driver's buffers and libc's start-up never count. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "hbtiming.h"

#define PAINT 0x5aa5c33cf00fe11eULL
#define LIVE_MAX 16384 /* live blocks tracked at once */
#define MAPS_MAX 256
#define SLOTS_MAX 64

enum { F_MALLOC, F_CALLOC, F_REALLOC, F_FREE, F_POSIX_MEMALIGN, F_ALIGNED_ALLOC, F_MEMALIGN,
	F_VALLOC, F_PVALLOC, F_REALLOCARRAY, F_STRDUP, F_STRNDUP, F_MMAP, F_MMAP64, F_MUNMAP,
	F_MREMAP, F_COUNT };

static const char *const S_names[F_COUNT] = { "malloc", "calloc", "realloc", "free",
	"posix_memalign", "aligned_alloc", "memalign", "valloc", "pvalloc", "reallocarray", "strdup",
	"strndup", "mmap", "mmap64", "munmap", "mremap" };

typedef struct {
	void **slot;
	int fn;
	int relro; /* in the library's read-only-after-relocation segment */
} S_slot;

static struct {
	S_slot slots[SLOTS_MAX];
	size_t nslots;
	void *real[F_COUNT];       /* what the library's slots held: the functions it was linked to */
	uintptr_t relro_lo, relro_hi;
	struct { void *p; size_t n; } live[LIVE_MAX];
	struct { void *p; size_t n; } maps[MAPS_MAX];
	unsigned long long live_bytes, peak, allocations, map_bytes, map_peak;
	int untracked;
} S;

/* ---- the library's GOT ---- */

static int S_find_relro(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t base = *(uintptr_t *)data;
	int i;
	(void)size;
	if (info->dlpi_addr != base)
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_GNU_RELRO) {
			S.relro_lo = base + info->dlpi_phdr[i].p_vaddr;
			S.relro_hi = S.relro_lo + info->dlpi_phdr[i].p_memsz;
		}
	return 1;
}

static int S_is_slot_type(unsigned type)
{
#if defined(__x86_64__)
	return type == R_X86_64_JUMP_SLOT || type == R_X86_64_GLOB_DAT || type == R_X86_64_64;
#elif defined(__aarch64__)
	return type == R_AARCH64_JUMP_SLOT || type == R_AARCH64_GLOB_DAT || type == R_AARCH64_ABS64;
#else
	(void)type;
	return 0;
#endif
}

static void S_scan_relocs(const ElfW(Rela) *rel, size_t bytes, uintptr_t base,
	const ElfW(Sym) *symtab, const char *strtab)
{
	size_t i, n = bytes / sizeof(*rel);
	for (i = 0; i < n && S.nslots < SLOTS_MAX; i++) {
		unsigned long sym = ELF64_R_SYM(rel[i].r_info);
		const char *name;
		int f;
		if (!sym || !S_is_slot_type((unsigned)ELF64_R_TYPE(rel[i].r_info)) || rel[i].r_addend)
			continue;
		name = strtab + symtab[sym].st_name;
		for (f = 0; f < F_COUNT; f++)
			if (strcmp(name, S_names[f]) == 0)
				break;
		if (f == F_COUNT)
			continue;
		S.slots[S.nslots].slot = (void **)(base + rel[i].r_offset);
		S.slots[S.nslots].fn = f;
		S.nslots++;
	}
}

int hb_callmem_prepare(void *handle, char *err, size_t errlen)
{
	struct link_map *lm = NULL;
	const ElfW(Dyn) *d;
	const ElfW(Sym) *symtab = NULL;
	const char *strtab = NULL;
	const ElfW(Rela) *rela = NULL, *jmprel = NULL;
	size_t relasz = 0, pltrelsz = 0, i;
	uintptr_t base;
	long pltrel = DT_RELA;

	memset(&S, 0, sizeof(S));
	if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm) {
		snprintf(err, errlen, "cannot read the library's link map: %s", dlerror());
		return -1;
	}
	base = (uintptr_t)lm->l_addr;
	/* ld.so has made most of these absolute; an offset below the base was left as it was */
#define ADDR(v) ((uintptr_t)(v) < base ? base + (uintptr_t)(v) : (uintptr_t)(v))
	for (d = lm->l_ld; d->d_tag != DT_NULL; d++) {
		switch (d->d_tag) {
		case DT_SYMTAB: symtab = (const ElfW(Sym) *)ADDR(d->d_un.d_ptr); break;
		case DT_STRTAB: strtab = (const char *)ADDR(d->d_un.d_ptr); break;
		case DT_RELA: rela = (const ElfW(Rela) *)ADDR(d->d_un.d_ptr); break;
		case DT_RELASZ: relasz = d->d_un.d_val; break;
		case DT_JMPREL: jmprel = (const ElfW(Rela) *)ADDR(d->d_un.d_ptr); break;
		case DT_PLTRELSZ: pltrelsz = d->d_un.d_val; break;
		case DT_PLTREL: pltrel = (long)d->d_un.d_val; break;
		default: break;
		}
	}
#undef ADDR
	if (!symtab || !strtab) {
		snprintf(err, errlen, "the library has no dynamic symbol table");
		return -1;
	}
	if (pltrel != DT_RELA) {
		snprintf(err, errlen, "the library's PLT relocations are not RELA");
		return -1;
	}
	if (rela)
		S_scan_relocs(rela, relasz, base, symtab, strtab);
	if (jmprel)
		S_scan_relocs(jmprel, pltrelsz, base, symtab, strtab);
	dl_iterate_phdr(S_find_relro, &base);
	for (i = 0; i < S.nslots; i++) {
		uintptr_t a = (uintptr_t)S.slots[i].slot;
		S.slots[i].relro = a >= S.relro_lo && a < S.relro_hi;
		if (!S.real[S.slots[i].fn])
			S.real[S.slots[i].fn] = *S.slots[i].slot;
	}
	return 0;
}

/* Point every slot at its wrapper (on) or back at the function it was linked to (off). */
static int S_redirect(void *const *wrappers, int on)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t i;
	for (i = 0; i < S.nslots; i++) {
		S_slot *s = &S.slots[i];
		void *page_start = (void *)((uintptr_t)s->slot & ~(uintptr_t)(page - 1));
		if (s->relro && mprotect(page_start, (size_t)page, PROT_READ | PROT_WRITE) != 0)
			return -1;
		*s->slot = on ? wrappers[s->fn] : S.real[s->fn];
		if (s->relro && mprotect(page_start, (size_t)page, PROT_READ) != 0)
			return -1;
	}
	return 0;
}

/* ---- the counting wrappers ---- */

static size_t S_hash(const void *p)
{
	uintptr_t v = (uintptr_t)p;
	return (size_t)((v >> 4) * 0x9e3779b97f4a7c15ULL >> 50) % LIVE_MAX;
}

static void S_add(void *p, size_t n)
{
	size_t h, k;
	if (!p)
		return;
	S.allocations++;
	S.live_bytes += n;
	if (S.live_bytes > S.peak)
		S.peak = S.live_bytes;
	for (h = S_hash(p), k = 0; k < LIVE_MAX; k++, h = (h + 1) % LIVE_MAX)
		if (!S.live[h].p) {
			S.live[h].p = p;
			S.live[h].n = n;
			return;
		}
	S.untracked = 1; /* its free cannot be taken off: the peak stays an upper bound */
}

/* Take a block off the live ones; with linear probing, re-place the run that follows it. */
static void S_remove(void *p)
{
	size_t h, k;
	if (!p)
		return;
	for (h = S_hash(p), k = 0; k < LIVE_MAX && S.live[h].p; k++, h = (h + 1) % LIVE_MAX)
		if (S.live[h].p == p) {
			size_t j = (h + 1) % LIVE_MAX;
			S.live_bytes -= S.live[h].n;
			S.live[h].p = NULL;
			while (S.live[j].p) {
				void *q = S.live[j].p;
				size_t n = S.live[j].n, t;
				S.live[j].p = NULL;
				for (t = S_hash(q); S.live[t].p; t = (t + 1) % LIVE_MAX)
					;
				S.live[t].p = q;
				S.live[t].n = n;
				j = (j + 1) % LIVE_MAX;
			}
			return;
		}
	/* a block from before the call (the library's constructor): not this call's */
}

#define REAL(f, type) ((type)S.real[f])

static void *S_malloc(size_t n)
{
	void *p = REAL(F_MALLOC, void *(*)(size_t))(n);
	S_add(p, n);
	return p;
}

static void *S_calloc(size_t m, size_t n)
{
	void *p = REAL(F_CALLOC, void *(*)(size_t, size_t))(m, n);
	S_add(p, m * n);
	return p;
}

static void *S_realloc(void *old, size_t n)
{
	void *p = REAL(F_REALLOC, void *(*)(void *, size_t))(old, n);
	if (p || n == 0)
		S_remove(old);
	S_add(p, n);
	return p;
}

static void *S_reallocarray(void *old, size_t m, size_t n)
{
	void *p = REAL(F_REALLOCARRAY, void *(*)(void *, size_t, size_t))(old, m, n);
	if (p)
		S_remove(old);
	S_add(p, m * n);
	return p;
}

static void S_free(void *p)
{
	S_remove(p);
	REAL(F_FREE, void (*)(void *))(p);
}

static int S_posix_memalign(void **out, size_t align, size_t n)
{
	int rc = REAL(F_POSIX_MEMALIGN, int (*)(void **, size_t, size_t))(out, align, n);
	if (rc == 0)
		S_add(*out, n);
	return rc;
}

static void *S_aligned_alloc(size_t align, size_t n)
{
	void *p = REAL(F_ALIGNED_ALLOC, void *(*)(size_t, size_t))(align, n);
	S_add(p, n);
	return p;
}

static void *S_memalign(size_t align, size_t n)
{
	void *p = REAL(F_MEMALIGN, void *(*)(size_t, size_t))(align, n);
	S_add(p, n);
	return p;
}

static void *S_valloc(size_t n)
{
	void *p = REAL(F_VALLOC, void *(*)(size_t))(n);
	S_add(p, n);
	return p;
}

static void *S_pvalloc(size_t n)
{
	void *p = REAL(F_PVALLOC, void *(*)(size_t))(n);
	S_add(p, n);
	return p;
}

static char *S_strdup(const char *s)
{
	char *p = REAL(F_STRDUP, char *(*)(const char *))(s);
	S_add(p, p ? strlen(p) + 1 : 0);
	return p;
}

static char *S_strndup(const char *s, size_t n)
{
	char *p = REAL(F_STRNDUP, char *(*)(const char *, size_t))(s, n);
	S_add(p, p ? strlen(p) + 1 : 0);
	return p;
}

/* A mapping of the library's; counted only when it is new (account), not when what is left of
 * one after a partial munmap is kept. */
static void S_map_add(void *p, size_t n, int account)
{
	size_t i;
	if (account) {
		S.map_bytes += n;
		if (S.map_bytes > S.map_peak)
			S.map_peak = S.map_bytes;
	}
	for (i = 0; i < MAPS_MAX; i++)
		if (!S.maps[i].p) {
			S.maps[i].p = p;
			S.maps[i].n = n;
			return;
		}
}

static size_t S_map_take(void *p)
{
	size_t i, n;
	for (i = 0; i < MAPS_MAX; i++)
		if (S.maps[i].p == p) {
			n = S.maps[i].n;
			S.maps[i].p = NULL;
			S.map_bytes -= n;
			return n;
		}
	return 0;
}

static void *S_mmap_any(int f, void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = REAL(f, void *(*)(void *, size_t, int, int, int, off_t))(addr, len, prot, flags,
		fd, off);
	if (p != MAP_FAILED && (flags & MAP_ANONYMOUS))
		S_map_add(p, len, 1);
	return p;
}

static void *S_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return S_mmap_any(F_MMAP, addr, len, prot, flags, fd, off);
}

static void *S_mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return S_mmap_any(F_MMAP64, addr, len, prot, flags, fd, off);
}

static int S_munmap(void *addr, size_t len)
{
	int rc = REAL(F_MUNMAP, int (*)(void *, size_t))(addr, len);
	if (rc == 0) {
		size_t had = S_map_take(addr);
		if (had > len) { /* the head was unmapped: the rest stays mapped */
			S.map_bytes += had - len;
			S_map_add((char *)addr + len, had - len, 0);
		}
	}
	return rc;
}

static void *S_mremap(void *old, size_t old_len, size_t len, int flags, ...)
{
	void *p = REAL(F_MREMAP, void *(*)(void *, size_t, size_t, int, ...))(old, old_len, len,
		flags);
	if (p != MAP_FAILED && S_map_take(old))
		S_map_add(p, len, 1);
	return p;
}

static void *const S_wrappers[F_COUNT] = { (void *)S_malloc, (void *)S_calloc,
	(void *)S_realloc, (void *)S_free, (void *)S_posix_memalign, (void *)S_aligned_alloc,
	(void *)S_memalign, (void *)S_valloc, (void *)S_pvalloc, (void *)S_reallocarray,
	(void *)S_strdup, (void *)S_strndup, (void *)S_mmap, (void *)S_mmap64, (void *)S_munmap,
	(void *)S_mremap };

/* ---- the painted stack ---- */

static ucontext_t S_back, S_on_stack;
static int (*S_call)(void *);
static void *S_arg;
static int S_rc;

static int S_empty(void *arg)
{
	return arg != NULL;
}

static void S_entry(void)
{
	S_rc = S_call(S_arg);
}

/* The bytes of the stack region [lo, lo + len) that no longer hold the paint, counted from the
 * lowest one changed up to the top. */
static size_t S_used(const unsigned char *lo, size_t len)
{
	const uint64_t *w = (const uint64_t *)lo;
	size_t i, n = len / 8, b;
	for (i = 0; i < n && w[i] == PAINT; i++)
		;
	if (i == n)
		return 0;
	for (b = 0; b < 8; b++) /* the lowest byte of the word that changed */
		if (lo[8 * i + b] != ((const unsigned char *)&(uint64_t){ PAINT })[b])
			break;
	return len - (8 * i + b);
}

static int S_paint_and_run(size_t *out_used, unsigned char *lo, size_t len,
	int (*call)(void *), void *arg)
{
	uint64_t *w = (uint64_t *)lo;
	size_t i;
	for (i = 0; i < len / 8; i++)
		w[i] = PAINT;
	if (getcontext(&S_on_stack) != 0)
		return -1;
	S_on_stack.uc_stack.ss_sp = lo;
	S_on_stack.uc_stack.ss_size = len;
	S_on_stack.uc_link = &S_back;
	S_call = call;
	S_arg = arg;
	makecontext(&S_on_stack, S_entry, 0);
	if (swapcontext(&S_back, &S_on_stack) != 0)
		return -1;
	*out_used = S_used(lo, len);
	return 0;
}

int hb_callmem_run(hb_callmem *out, int *rc, int (*call)(void *), void *arg, char *err,
	size_t errlen)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = HB_CALLMEM_STACK_BYTES, base_used = 0, used = 0, i;
	unsigned char *map;
	int f;

	memset(out, 0, sizeof(*out));
	/* a guard page below the stack: an overflow is a crash, as it would be on a thread */
	map = mmap(NULL, len + (size_t)page, PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED || mprotect(map, (size_t)page, PROT_NONE) != 0) {
		snprintf(err, errlen, "cannot map an %zu-byte stack for the memory call", len);
		return -1;
	}
	if (S_paint_and_run(&base_used, map + page, len, S_empty, NULL) != 0) {
		snprintf(err, errlen, "cannot switch to the memory call's stack");
		return -1;
	}
	if (S_redirect(S_wrappers, 1) != 0) {
		snprintf(err, errlen, "cannot redirect the library's allocation functions");
		return -1;
	}
	S.live_bytes = S.peak = S.allocations = S.map_bytes = S.map_peak = 0;
	if (S_paint_and_run(&used, map + page, len, call, arg) != 0) {
		snprintf(err, errlen, "cannot switch to the memory call's stack");
		return -1;
	}
	if (S_redirect(S_wrappers, 0) != 0) {
		snprintf(err, errlen, "cannot restore the library's allocation functions");
		return -1;
	}
	*rc = S_rc;
	out->stack_driver_bytes = base_used;
	out->stack_bytes = used > base_used ? used - base_used : 0;
	out->heap_peak_bytes = S.peak;
	out->heap_allocations = S.allocations;
	out->mmap_bytes = S.map_peak;
	out->heap_untracked = S.untracked;
	for (f = 0; f < F_COUNT; f++) {
		int found = 0;
		for (i = 0; i < S.nslots && !found; i++)
			found = S.slots[i].fn == f;
		if (found) {
			size_t at = strlen(out->redirected);
			snprintf(out->redirected + at, sizeof(out->redirected) - at, "%s%s",
				at ? "," : "", S_names[f]);
		}
	}
	munmap(map, len + (size_t)page);
	return 0;
}
