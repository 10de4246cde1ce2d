/* callmem.h — the exact memory of one CryptHash call (callmem.c), for hashbench-measure --memory:
 * the stack high-water mark on a painted stack of the driver's own, and the heap and mmap use of
 * the library counted through its own GOT. libc only, like the rest of the driver. */
#ifndef HB_CALLMEM_H
#define HB_CALLMEM_H

#include <stddef.h>

#define HB_CALLMEM_STACK_BYTES (8u << 20) /* the call's stack: the usual main-thread limit */

typedef struct {
	unsigned long long stack_bytes;        /* below the call's entry, less the driver's frame */
	unsigned long long stack_driver_bytes; /* the same path into an empty function */
	unsigned long long heap_peak_bytes;    /* peak of live bytes requested during the call */
	unsigned long long heap_allocations;   /* allocation calls during the call */
	unsigned long long mmap_bytes;         /* peak of anonymous bytes the library mapped itself */
	int heap_untracked;     /* the table of live blocks overflowed: the peak is an upper bound */
	char redirected[256];   /* the library's functions that were redirected, comma-separated */
} hb_callmem;

/* Find the library's GOT slots of the allocation functions (handle from dlopen). Call before the
 * seccomp filter: it reads the link map only, but the filter must not be in the way of errors. */
int hb_callmem_prepare(void *handle, char *err, size_t errlen);

/* Run call(arg) once on the painted stack with the library's allocation functions counted; its
 * return value in *rc. 0 on success, -1 (err filled) when the stack could not be set up. */
int hb_callmem_run(hb_callmem *out, int *rc, int (*call)(void *), void *arg, char *err,
	size_t errlen);

#endif
